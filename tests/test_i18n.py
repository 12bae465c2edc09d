"""Localization: catalogs checked against English, glossary terms, hand-written card texts,
Spanish card texts rendered from the rules, and a third language added by files alone."""

import re

import pytest

from crisis.content.i18n import check_all, check_catalog
from crisis.content.loader import load_content
from crisis.content.yamlfile import ContentError
from crisis.content.phrases import card_text

from clirun import run_crisis, run_main
from helpers import copy_content, line_of, phrased, replace_in


def test_the_shipped_catalogs_have_no_problems(content):
    problems = check_all(content)
    assert not problems, "\n\n".join(p.format() for p in problems)


def test_the_message_registry_says_what_the_source_asks_for(content):
    """``crisis check`` trusts the registry of message keys (content/message_keys.py) instead of
    reading the program's source each time: it must list every key the code asks for by name,
    with the parameters the code fills, and no key the English catalog lacks."""
    from crisis.content.message_keys import MESSAGES
    from crisis.content.messages import registry_source, scan_messages

    found = scan_messages()
    unlisted = sorted(set(found) - set(MESSAGES))
    stale = sorted(set(MESSAGES) - set(found))
    changed = sorted(k for k in set(found) & set(MESSAGES) if found[k] != MESSAGES[k])
    rerun = "run: python -m crisis.content.messages"
    assert not unlisted, f"the code asks for keys the registry lacks: {unlisted}; {rerun}"
    assert not stale, f"the registry lists keys no code asks for: {stale}; {rerun}"
    assert not changed, f"the code fills other parameters for: {changed}; {rerun}"
    english = content.catalog("en").messages
    assert not [key for key in MESSAGES if key not in english]
    assert registry_source(found) == registry_source(MESSAGES)


@pytest.fixture
def spanish_copy(tmp_path):
    return copy_content(tmp_path)


def messages_of(root):
    return [d for d in check_catalog(load_content(root), "es")]


def test_a_missing_key_is_reported_with_the_english_text(spanish_copy):
    replace_in(spanish_copy / "locale" / "es" / "messages.yaml",
               '    final crisis: "Comienza la Crisis Final."\n', "")
    (d,) = messages_of(spanish_copy)
    assert d.message == "'log.step.final crisis' is missing in the 'es' catalog"
    assert d.path.endswith("locale/es/messages.yaml")
    assert "locale/en/messages.yaml" in d.hint and "The Final Crisis begins." in d.hint


def test_an_extra_key_is_reported_at_its_line(spanish_copy):
    replace_in(spanish_copy / "locale" / "es" / "messages.yaml", "log:\n", 'log:\n  rund: "Ronda {round}"\n')
    (d,) = messages_of(spanish_copy)
    assert (d.message, d.line) == ("'log.rund' is not in the en catalog", 4)


def test_a_misspelt_key_is_linked_to_the_key_the_catalog_lacks(spanish_copy):
    replace_in(spanish_copy / "locale" / "es" / "cards-strategy.yaml", '  lincoln:\n    title:', '  lincoln:\n    titel:')
    found = {d.message: d for d in messages_of(spanish_copy)}
    extra = found["'cards.lincoln.titel' is not in the en catalog"]
    assert extra.hint == "did you mean 'cards.lincoln.title'? (this catalog lacks it)"
    assert extra.source_line.strip().startswith("titel:")  # the line is shown, a caret under it


def test_placeholders_must_match_the_english_ones(spanish_copy):
    # a game's own text of a key of the tool's catalog (content/interface/es/), checked the same way
    (spanish_copy / "locale" / "es" / "zz-mine.yaml").write_text(
        'log:\n  play_value: "{side} juega «{carta}» por su valor ({n})."\n', encoding="utf-8")
    (d,) = messages_of(spanish_copy)
    assert d.message == "'log.play_value' uses {carta}, which the game does not fill and leaves out {card}"
    assert d.expected == "the placeholders of the en text: {card, n, side}"
    assert d.path.endswith("es/zz-mine.yaml") and d.line is not None


def test_a_placeholder_of_a_text_named_by_the_game_is_not_blamed_on_one_side(spanish_copy):
    """A step's log line is a key made from the step's name: what the game fills in it is not
    known, so a mismatch names both texts rather than blaming the translation for the English
    one's typo."""
    replace_in(spanish_copy / "locale" / "en" / "messages.yaml", '"Round {round} begins', '"Round {rond} begins')
    (d,) = [d for d in messages_of(spanish_copy) if "log.step.deal" in d.message]
    assert d.message.startswith("'log.step.deal' uses placeholders {round} here, but {rond} in the en text (")
    assert d.message.endswith("): one of the two is misspelt") and "en/messages.yaml:" in d.message
    assert d.source_line[d.column - 1:d.column - 1 + d.width] == "{round"  # the caret under it


def test_the_caret_goes_to_the_misspelt_placeholder_not_one_it_begins(spanish_copy):
    """'{sid}' misspelt after a '{side}' in the same text: the caret under '{sid', not '{side'."""
    replace_in(spanish_copy / "locale" / "es" / "messages.yaml", '"Comienza la ronda {round}', '"{side} {round} {rou}')
    (d,) = [d for d in messages_of(spanish_copy) if "log.step.deal" in d.message]
    assert d.source_line[d.column - 1:d.column - 1 + d.width] == "{rou"


def test_a_placeholder_only_left_out_is_said_so_not_called_misspelt(spanish_copy):
    replace_in(spanish_copy / "locale" / "es" / "messages.yaml", '"Comienza la ronda {round}', '"Comienza la ronda')
    (d,) = [d for d in messages_of(spanish_copy) if "log.step.deal" in d.message]
    assert d.message.startswith("'log.step.deal' leaves out {round} of the en text (") and "misspelt" not in d.message


def test_a_glossary_term_translated_another_way_is_reported(spanish_copy):
    replace_in(spanish_copy / "locale" / "es" / "messages.yaml", '"Comienza la Crisis Final."',
               '"Comienza la crisis decisiva."')
    (d,) = messages_of(spanish_copy)
    assert d.message == "'log.step.final crisis' translates 'Final Crisis' without the glossary term 'Crisis Final'"


def test_a_form_the_glossary_avoids_is_reported(spanish_copy):
    (spanish_copy / "locale" / "es" / "zz-mine.yaml").write_text('token:\n  own: "un token"\n', encoding="utf-8")
    found = {d.message for d in messages_of(spanish_copy)}
    assert "'token.own' says 'token', which the glossary avoids" in found


def test_i18n_check_command_fails_on_a_seeded_mistake_and_passes_otherwise(spanish_copy):
    assert run_crisis("i18n", "check", "--lang", "es").returncode == 0
    replace_in(spanish_copy / "locale" / "es" / "messages.yaml", '"Comienza la Crisis Final."', '"Comienza."')
    result = run_main("i18n", "check", "--lang", "es", "--content", spanish_copy)
    assert result.returncode == 1
    assert "locale/es/messages.yaml:" in result.stdout + result.stderr


def spanish_check(root):
    """`crisis i18n check --lang es` of a copy, no games played: (exit status, all it said)."""
    result = run_main("i18n", "check", "--lang", "es", "--content", root, "--games", "0")
    return result.returncode, result.stdout + result.stderr


def test_a_translation_file_that_is_not_yaml_hides_no_other_problem_of_the_check(spanish_copy):
    """A translator's broken file is told at its line, and the rest of the catalog is still checked
    (a misspelt placeholder in another file); its keys are not all called missing meanwhile. A
    game still refuses the broken catalog whole."""
    es = spanish_copy / "locale" / "es"
    replace_in(es / "board.yaml", "  Unionist: Unionista\n", '  Unionist: Unionista "roto: [\n')
    replace_in(es / "messages.yaml", "{side} gana {n} PV", "{sidee} gana {n} PV")
    code, said = spanish_check(spanish_copy)
    assert code == 1
    assert re.search(r"locale/es/board\.yaml:3:\d+: error: ", said)
    assert re.search(r"locale/es/messages\.yaml:\d+:\d+: error: 'log\.vp_gain' ", said)
    assert "missing in the 'es' catalog" not in said and "missing in 1 file" not in said
    with pytest.raises(ContentError) as caught:
        load_content(spanish_copy)
    assert [d.path.endswith("locale/es/board.yaml") for d in caught.value.diagnostics] == [True]


def test_a_translated_card_text_that_disagrees_is_told_by_the_check_once(spanish_copy):
    add_text(spanish_copy, "es", "major-anderson", "Anderson: pon 2 fichas en Fuerte Sumter.")
    result = run_main("i18n", "check", "--lang", "es", "--content", spanish_copy, "--games", "0")
    said = result.stdout + result.stderr
    assert result.returncode == 1
    assert said.count("the hand-written text of major-anderson disagrees with its rule") == 1


# ------------------------------------------------------- a new language's first check (issue 17)


@pytest.fixture
def french_copy(tmp_path):
    """The content with a French catalog just begun: the side names and nothing else."""
    root = copy_content(tmp_path)
    (root / "locale" / "fr").mkdir()
    (root / "locale" / "fr" / "board.yaml").write_text(
        "sides:\n  Unionist: Unioniste\n  Secessionist: Sécessionniste\n", encoding="utf-8")
    return root


def test_missing_keys_are_blamed_on_the_file_english_keeps_them_in(french_copy):
    content = load_content(french_copy)
    every = [d for d in check_catalog(content, "fr", every_missing=True) if "is missing" in d.message]
    where = {d.message.split("'")[1]: d.path for d in every}
    english = content.catalog("en").positions
    assert len(where) > 500
    game = str(french_copy / "locale" / "fr") + "/"
    for key, path in where.items():
        # report.* in fr/report.yaml, cli.* in fr/cli.yaml ...: never all in the one file fr has; the
        # tool's keys too in the game's folder (docs/localization.md): the tool has no folder for
        # French, and one in the installed package is no file a translator edits
        assert path == game + english[key][0].rsplit("/", 1)[1], (key, path)
    assert where["report.title"] == game + "report.yaml"
    assert where["spaces.Washington"] == game + "board.yaml"
    assert where["cli.list.two"] == game + "cli.yaml"


def test_missing_keys_are_counted_per_file_with_the_first_few_named(french_copy):
    content = load_content(french_copy)
    summaries = [d for d in check_catalog(content, "fr") if "missing in the 'fr' catalog" in d.message]
    every = [d for d in check_catalog(content, "fr", every_missing=True) if "is missing in" in d.message]
    # one per file of the English catalog: the game's 8, which the tool's 4 share names with (in
    # the game's folder: the tool has no French folder)
    assert len(summaries) == len({d.path for d in every}) == 8
    assert all(d.path.startswith(str(french_copy / "locale" / "fr")) for d in summaries)
    assert sum(int(d.message.split()[0]) for d in summaries) == len(every)
    (report,) = [d for d in summaries if d.path.endswith("locale/fr/report.yaml")]
    named = report.hint.split("\n")[0]
    assert named.startswith("missing: report.title, ") and named.endswith(" more")
    assert "--all" in report.hint


def test_a_misspelt_key_is_linked_to_its_key_whatever_part_is_misspelt(french_copy):
    (french_copy / "locale" / "fr" / "cards.yaml").write_text(
        "cards:\n  harriet-beecher-stow:\n    title: Harriet\n  lincoln:\n    title: Lincoln\n"
        "    titel: Lincoln\nspacse:\n  Texas: Texas\n", encoding="utf-8")
    found = {d.message.split("'")[1]: d for d in check_catalog(load_content(french_copy), "fr")
             if "is not in the en catalog" in d.message}
    hints = {key: d.hint for key, d in found.items()}
    # the caret is under the word of the key that is wrong, on its own line
    assert [(found[key].line, found[key].column, found[key].width) for key in
            ("cards.harriet-beecher-stow.title", "cards.lincoln.titel", "spacse.Texas")] == \
        [(2, 3, len("harriet-beecher-stow")), (6, 5, len("titel")), (7, 1, len("spacse"))]
    assert hints["cards.harriet-beecher-stow.title"] == \
        "did you mean 'cards.harriet-beecher-stowe.title'? (this catalog lacks it)"
    assert hints["spacse.Texas"] == "did you mean 'spaces.Texas'? (this catalog lacks it)"
    # the key meant is there too: the same text given twice, one of them misspelt
    assert hints["cards.lincoln.titel"].startswith("did you mean 'cards.lincoln.title'? (this catalog has it too, at ")
    assert "cards.yaml:5: one of the two is left over" in hints["cards.lincoln.titel"]


def test_a_plural_of_three_forms_is_refused_and_a_choice_on_the_number_says_it():
    from crisis.content.locale import MessageError, format_message
    with pytest.raises(MessageError, match="not 3"):  # the third form would be dropped unseen
        format_message("{n|une carte|{n} cartes|trop}", {"n": 0})
    french = "{n?0:{n} carte|1:une carte|*:{n} cartes}"
    assert [format_message(french, {"n": n}) for n in (0, 1, 2)] == ["0 carte", "une carte", "2 cartes"]


def test_a_text_the_game_words_its_own_way_is_asked_for_when_a_language_has_only_the_tool_s(spanish_copy):
    """Fort Sumter says 'no event' where the tool says 'no rule': a Spanish catalog without the
    game's 'sin evento' would show the tool's 'sin regla', so the check asks for it in the game's file."""
    replace_in(spanish_copy / "locale" / "es" / "cli.yaml", '    no_event: "sin evento"\n', "")
    (found,) = [d for d in messages_of(spanish_copy)]
    assert found.message == "1 text the game words its own way in en is only the tool's in 'es' " \
                            "(players read the tool's general wording)"
    assert found.path.endswith("locale/es/cli.yaml") and "interface" not in found.path
    assert found.hint.startswith("to give here: cli.card.no_event")


def test_the_grammar_of_names_is_checked_kind_name_form_and_gender(french_copy):
    (french_copy / "locale" / "fr" / "grammar.yaml").write_text(
        "forms:\n  sides:\n    Unionst: {gender: m}\n    Secessionist: {gender: m}\n  spaces:\n"
        "    Abolitionists: {gender: masc}\n    Fort Sumter: {gendre: m}\n    Texas: {gender: '', plural: Texas}\n"
        "  spacse:\n    Montgomery: {gender: m}\n", encoding="utf-8")
    found = {d.message: d for d in check_catalog(load_content(french_copy), "fr") if d.severity == "error"}
    assert set(found) == {
        "'Unionst' is not among the sides the catalogs name ('forms.sides.Unionst.gender')",
        "the gender of 'Abolitionists' is 'masc'",
        "'gendre' is not a form of a name ('forms.spaces.Fort Sumter.gendre')",
        "'spacse' is no kind of names the catalogs give ('forms.spacse.Montgomery.gender')",
    }
    assert found["'Unionst' is not among the sides the catalogs name ('forms.sides.Unionst.gender')"].hint \
        == "did you mean 'Unionist'?"
    assert found["'gendre' is not a form of a name ('forms.spaces.Fort Sumter.gendre')"].hint == \
        "did you mean 'gender'?"
    assert found["'spacse' is no kind of names the catalogs give ('forms.spacse.Montgomery.gender')"].hint == \
        "did you mean 'forms.spaces'?"
    gender = found["the gender of 'Abolitionists' is 'masc'"]
    assert gender.line == 6 and gender.source_line.strip() == "Abolitionists: {gender: masc}"
    assert gender.expected.startswith("m, f, mpl, fpl")


def test_a_glossary_without_the_languages_column_is_reported(french_copy):
    content = load_content(french_copy)
    (d,) = [d for d in check_catalog(content, "fr") if "glossary" in d.message]
    assert d.message == "the glossary has no 'fr' column: no term is checked in the 'fr' catalog"
    assert d.path.endswith("locale/glossary.yaml") and d.line is not None
    replace_in(french_copy / "locale" / "glossary.yaml", "    es: [ficha, fichas]\n",
               "    es: [ficha, fichas]\n    fr: [jeton, jetons]\n")
    (d,) = [d for d in check_catalog(load_content(french_copy), "fr") if "glossary" in d.message]
    assert d.message.startswith("17 of the glossary's 18 terms have no 'fr' form")


def test_check_and_i18n_check_summarize_a_new_language(french_copy):
    checked = run_main("check", "--content", french_copy)
    assert checked.returncode == 0
    assert len((checked.stdout + checked.stderr).splitlines()) < 40
    assert "keys of the en catalog are missing in the 'fr' catalog" in checked.stderr
    summary = run_main("i18n", "check", "--lang", "fr", "--content", french_copy)
    assert summary.returncode == 1
    assert summary.stdout.splitlines()[-1].startswith("fr: ")
    assert " keys missing in 8 files; 1 other problem" in summary.stdout.splitlines()[-1]
    assert f"--all --content {french_copy}" in summary.stdout  # the command to list them, as typed
    every = run_main("i18n", "check", "--lang", "fr", "--all", "--content", french_copy)
    assert "'report.title' is missing in the 'fr' catalog" in every.stdout
    assert len(every.stdout.splitlines()) > 10 * len(summary.stdout.splitlines())


def test_a_locale_s_name_picks_its_language(spanish_copy):
    """``--lang es_ES``, ``es-ES`` or ``ES`` is Spanish, as LANG=es_ES.UTF-8 is."""
    for name in ("es_ES", "es-ES", "ES", "es_ES.UTF-8"):
        shown = run_main("cards", "--lang", name, "--content", spanish_copy)
        assert shown.returncode == 0, shown.stderr
        assert "Comandante Anderson" in shown.stdout or "comandante Anderson" in shown.stdout


def test_the_command_line_s_words_are_read_from_every_file_of_a_language(tmp_path, monkeypatch):
    """A translator splits the tool's keys among files at will: ``--help`` reads the ``cli.*``
    keys of them all, not cli.yaml's alone."""
    import shutil
    from crisis.cli import words
    folder = tmp_path / "interface"
    shutil.copytree(words.interface_locale_dir() / "en", folder / "en")
    (folder / "fr").mkdir()
    (folder / "fr" / "cli.yaml").write_text('cli:\n  error:\n    lsp_missing: "Pas de serveur"\n', encoding="utf-8")
    (folder / "fr" / "cli-args.yaml").write_text('cli:\n  argparse:\n    options: "options (fr)"\n', encoding="utf-8")
    monkeypatch.setattr(words, "interface_locale_dir", lambda: folder)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    french = words.cli_catalog(["--lang", "fr"])
    assert french.raw("cli.error.lsp_missing") == "Pas de serveur"
    assert french.raw("cli.argparse.options") == "options (fr)"
    (folder / "fr" / "cli-args.yaml").write_text('cli:\n  argparse:\n    options: "les options"\n', encoding="utf-8")
    assert words.cli_catalog(["--lang", "fr_FR"]).raw("cli.argparse.options") == "les options"  # not a stale cache


def test_english_command_words_work_in_a_language_that_has_its_own(french_copy, tmp_path):
    """A translator gives 'quitter' for quit and not the English words: 'quit' still stops the
    game, and the language's own word is the one shown."""
    (french_copy / "locale" / "fr" / "cli.yaml").write_text(
        'cli:\n  command:\n    quit: "quitter"\n    help: "? aide"\n', encoding="utf-8")
    for word in ("quit", "quitter"):
        played = run_main("play", "--vs", "bot", "--seed", "3", "--lang", "fr", "--content", french_copy,
                          "--save", f"{word}.json", input=f"{word}\n", cwd=tmp_path)
        assert played.returncode == 0, played.stderr
        assert "quitter" in played.stdout and "is not one of the choices" not in played.stdout
        assert (tmp_path / f"{word}.json").is_file()  # stopped and saved, not run out of input


def test_a_language_with_no_catalog_is_refused_in_one_line_naming_those_there_are():
    result = run_main("cards", "--lang", "de")
    assert result.returncode != 0 and result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert "'de'" in line and "en, es" in line and "<rules>" not in line
    spanish = run_main("cards", "--lang", "de", env={"LANG": "es_ES.UTF-8"})
    assert "«de»" in spanish.stderr and "en, es" in spanish.stderr


def test_an_english_command_word_in_a_spanish_text_is_reported(spanish_copy):
    (spanish_copy / "locale" / "es" / "zz-cli.yaml").write_text(
        'cli:\n  panel:\n    earlier: "({n|1 línea anterior|{n} líneas anteriores}: escribe log para verlo todo)"\n',
        encoding="utf-8")
    (d,) = messages_of(spanish_copy)
    assert d.message == "'cli.panel.earlier' tells the player to type 'log', the en word for log"
    assert "'registro'" in d.hint and d.path.endswith("es/zz-cli.yaml") and d.line is not None


def test_a_quoted_english_command_word_is_a_mention_not_an_instruction(spanish_copy):
    (spanish_copy / "locale" / "es" / "zz-cli.yaml").write_text(
        'cli:\n  panel:\n    earlier: "({n|1 línea anterior|{n} líneas anteriores}: escribe registro (o «log») para verlo todo)"\n',
        encoding="utf-8")
    assert messages_of(spanish_copy) == []


def test_spanish_screens_name_the_spanish_command_words(content):
    catalog = content.catalog("es")
    assert "consulta reglas zonas" in catalog.text("cli.help.place", tokens_at_most=3)
    assert "escribe registro para verlo todo" in catalog.text("cli.panel.earlier", n=3)


# ------------------------------------------------------------ hand-written texts


def add_text(root, lang, card_id, text):
    path = root / "locale" / lang / "zz-texts.yaml"
    path.write_text(f"cards:\n  {card_id}:\n    text: \"{text}\"\n", encoding="utf-8")


def test_a_hand_written_text_that_agrees_with_its_rule_is_used(spanish_copy, content):
    assert content.card_rule_text("major-anderson").strip() == "place 3 in Fort Sumter"
    add_text(spanish_copy, "en", "major-anderson", "Anderson moves his garrison: put 3 tokens in Fort Sumter.")
    loaded = load_content(spanish_copy)
    assert loaded.catalog("en").raw("cards.major-anderson.text").startswith("Anderson moves")


@pytest.mark.parametrize("text,complaint", [
    ("Put 2 tokens in Fort Sumter.", "does not mention 3; mentions 2 which the rule does not"),
    ("Put 3 tokens in Fort Pickens.", "does not mention Fort Sumter; mentions Fort Pickens which the rule does not"),
    ("Put three tokens in Fort Sumter and Washington.", "mentions Washington which the rule does not"),
    ("Put 3 tokens in Armaments spaces.", "does not mention Fort Sumter; mentions Armaments which the rule does not"),
])
def test_a_hand_written_text_that_disagrees_is_refused(spanish_copy, text, complaint):
    add_text(spanish_copy, "en", "major-anderson", text)
    with pytest.raises(ContentError) as caught:
        load_content(spanish_copy)
    (d,) = caught.value.diagnostics
    assert d.message == f"the hand-written text of major-anderson disagrees with its rule: {complaint}"
    assert d.path.endswith("locale/en/zz-texts.yaml") and d.line == 3


# ------------------------------------------------- the grammar of names given as text


def test_a_sentence_ending_on_an_abbreviation_has_one_full_stop():
    """'North marches the Iron Brigade to Washington D.C.', not '... D.C..'; an ellipsis is kept."""
    from crisis.content.locale import Catalog
    catalog = Catalog("en", {"march": "{who} marches to {where}.", "wait": "{what}...", "ask": "{where}?"})
    assert catalog.text("march", who="North", where="Washington D.C.") == "North marches to Washington D.C."
    assert catalog.text("march", who="North", where="Richmond") == "North marches to Richmond."
    assert catalog.text("wait", what="Playing") == "Playing..."
    assert catalog.text("ask", where="Washington D.C.") == "Washington D.C.?"


def test_a_name_given_as_its_display_text_still_gets_its_article():
    """A message may make an article agree with any name it is given: where the program passes
    only the name as shown, its grammar is found by that name in the catalog's forms."""
    from crisis.content.locale import Catalog
    catalog = Catalog("xx", {
        "things.Tower": "Torre", "forms.things.Tower.gender": "f",
        "things.Fields": "Campos", "forms.things.Fields.gender": "mpl",
        "things.Rome": "Roma",
        "people.Knight": "Caballero", "forms.people.Knight.gender": "m", "forms.people.Knight.plural": "Caballeros",
        "message": "{who_g?m:El |f:La |*:}{who} toma {where_g?m:el |f:la |mpl:los |fpl:las |*:}{where}.",
        "count": "{n} {who_pl}",
    })
    assert catalog.text("message", who="Caballero", where="Torre") == "El Caballero toma la Torre."
    assert catalog.text("message", who="Caballero", where="Campos") == "El Caballero toma los Campos."
    assert catalog.text("message", who="Caballero", where="Roma") == "El Caballero toma Roma."
    assert catalog.text("message", who="Nadie", where="Roma") == "Nadie toma Roma."
    assert catalog.text("count", n=2, who="Caballero") == "2 Caballeros"
    assert catalog.text("count", n=2, who="Torre") == "2 Torre"
    # the grammar the caller gives is the one used
    assert catalog.text("message", who="Caballero", who_g="f", where="Roma") == "La Caballero toma Roma."


def test_spanish_previews_name_sides_and_spaces_with_their_articles(content):
    """The full screen's previews ("el Secesionista pasa a controlar el Deep South") are given the
    names as shown; they read as the log does."""
    catalog = content.catalog("es")
    article = {"m": "el ", "f": "la ", "mpl": "los ", "fpl": "las ", "": ""}
    for space in content.places:
        name = catalog.name("spaces", space)
        the = article[catalog.form("spaces", space, "gender")]
        assert catalog.text("cli.consequence.space", space=name, side="Secesionista", was="", gain="yes",
                            you="no") == f"el Secesionista pasa a controlar {the}{name}"
        assert catalog.text("cli.consequence.space", space=name, side="", was="Unionista", gain="no",
                            you="no") == f"el Unionista deja de controlar {the}{name}"
        assert catalog.text("cli.consequence.marker", space=name, blocks="both").endswith(f" en {the}{name}")
        # a choice's line already names the space, whatever its gender ("los Border States → tomas el control")
        assert catalog.text("cli.consequence.space_short", space=name, side="", was="", gain="yes",
                            you="yes") == "tomas el control"
    assert catalog.text("cli.result.headline", winner="Unionista", vp=5, other_vp=3) == "Gana el Unionista, 5 PV a 3."


def test_a_breach_preview_quotes_the_effect_it_will_have(content):
    """The effect is a rule's text with its capital ("Mueve 2 fichas ..."): quoted, not run on after
    a colon."""
    catalog = content.catalog("es")
    text = catalog.text("cli.consequence.zone_entered", zone="Escalada", side="Unionista", you="yes",
                        effect="Mueve 2 fichas de tu casilla de Escalada a tu reserva.")
    assert text.endswith("al terminar la jugada: «Mueve 2 fichas de tu casilla de Escalada a tu reserva.»")


# ---------------------------------------------------------------- Spanish text

SPANISH = [
    ("place 3 in Fort Sumter", "Coloca 3 fichas en Fort Sumter."),
    ("place 1 token in Deep South", "Coloca 1 ficha en el Deep South."),
    ("remove 1 opponent token from Deep South", "Retira 1 ficha del oponente del Deep South."),
    ("remove up to 2 opponent tokens from Border States or Texas",
     "Retira hasta 2 fichas del oponente de los Border States o Texas."),
    ("place up to 2 in Secession spaces, at most 1 per space",
     "Coloca hasta 2 fichas en casillas de Secesión, como máximo 1 por casilla."),
    ("place up to 4 from your pool in any spaces", "Coloca hasta 4 fichas de tu reserva en cualquier casilla."),
    ("place 1 in each Political space", "Coloca 1 ficha en cada casilla de Política."),
    ("place 2 in Political spaces, all in one space",
     "Coloca 2 fichas en casillas de Política, todas en la misma casilla."),
    ("place 2 Secessionist tokens in Texas", "Coloca 2 fichas Secesionistas en Texas."),
    ("place 1 Secessionist token in Texas", "Coloca 1 ficha Secesionista en Texas."),
    ("remove all opponent tokens from Fort Sumter", "Retira todas las fichas del oponente de Fort Sumter."),
    ("remove up to 2 tokens of either side from pivotal spaces",
     "Retira hasta 2 fichas de cualquier bando de Casillas Cruciales."),
    ("move up to 2 tokens of either side within Armaments spaces",
     "Mueve hasta 2 fichas de cualquier bando entre casillas de Armamento."),
    ("move 2 from your Escalation box to your pool", "Mueve 2 fichas de tu casilla de Escalada a tu reserva."),
    ("move 2 opponent tokens from their pool to their crisis track",
     "Mueve 2 fichas del oponente de su reserva a su Medidor de Crisis."),
    ("gain 1 VP for each dimension you control", "Gana 1 PV por cada Dimensión de Crisis que controles."),
    ("lose 1 VP", "Pierde 1 PV."),
    ("place the Peace Commissioner in any space", "Coloca al Comisionado de Paz en cualquier casilla."),
    ("move the Peace Commissioner to a Political space", "Mueve al Comisionado de Paz a una casilla de Política."),
    ("remove the Peace Commissioner", "Retira al Comisionado de Paz del mapa."),
    ("the opponent loses 1 VP", "Tu oponente pierde 1 PV."),
    ("if you control Federal Arsenals: gain 1 VP", "Si controlas los Federal Arsenals, gana 1 PV."),
    ("either:\n  gain 1 VP\nor:\n  place 2 in Newspapers",
     "Elige una opción: (1) gana 1 PV; (2) coloca 2 fichas en los Newspapers."),
    ("for each player:\n  gain 1 VP", "Cada jugador, empezando por el primer jugador: gana 1 PV."),
    ("place 1 in Secession spaces you control", "Coloca 1 ficha en una casilla de Secesión que controles."),
    ("place 2 in Secession spaces you control", "Coloca 2 fichas en casillas de Secesión que controles."),
    ("remove 1 opponent token from each Political space", "Retira 1 ficha del oponente de cada casilla de Política."),
    ("move 1 token from Texas to each Political space", "Mueve 1 ficha de Texas a cada casilla de Política."),
    ("each player gains 1 VP", "Cada jugador gana 1 PV."),
    ("gain 1 VP for each Armaments space you control", "Gana 1 PV por cada casilla de Armamento que controles."),
    ("gain 1 VP for each revealed objective space you control",
     "Gana 1 PV por cada casilla de objetivo revelada que controles."),
    ("remove 2 opponent tokens from spaces the opponent controls",
     "Retira 2 fichas del oponente de cualquier casilla que controle tu oponente."),
    ("place 1 in Secession spaces nobody controls", "Coloca 1 ficha en una casilla de Secesión que nadie controle."),
    ("move up to 2 tokens of either side within this dimension",
     "Mueve hasta 2 fichas de cualquier bando entre las casillas de esta dimensión."),
    ("place 1 in this space", "Coloca 1 ficha en esta casilla."),
    ("place up to 2 Unionist tokens in Texas", "Coloca hasta 2 fichas Unionistas en Texas."),
    ("place 1 in spaces where the opponent has no tokens there",
     "Coloca 1 ficha en cualquier casilla donde tu oponente no tenga fichas."),
    # no calque of "placing a token there would" ("donde colocar ahí una ficha")
    ("place 1 in spaces where placing a token there would give you control of it",
     "Coloca 1 ficha en cualquier casilla donde colocar una ficha te daría el control de esa casilla."),
    ("remove 1 opponent token from spaces where removing a token there would not cost you control of its dimension",
     "Retira 1 ficha del oponente de cualquier casilla donde retirar una ficha no te haría perder el control de su "
     "dimensión."),
    # a dimension is controlled as a whole, named as such; a side with its article, as the rulebook names it
    ("if you control Political: gain 1 VP", "Si controlas la dimensión de Política, gana 1 PV."),
    ("if you are Unionist: gain 1 VP", "Si eres el Unionista, gana 1 PV."),
]


@pytest.mark.parametrize("rule,text", SPANISH, ids=[s[0] for s in SPANISH])
def test_spanish_text_of_each_statement(content, rule, text):
    assert phrased(content, rule, "es") == text


SPANISH_CONDITIONS = [
    ("you have more VP than the opponent", "tienes más PV que tu oponente"),
    ("the Unionist is the first player", "el Unionista es el primer jugador"),
    ("your pool has at least 3 more tokens than the opponent's pool",
     "tu reserva tiene al menos 3 fichas más que la de tu oponente"),
    ("the opponent's Tension zone is breached", "tu oponente ha abierto brecha en su zona de Tensión"),
    ("you control more spaces than the opponent", "controlas más casillas que tu oponente"),
    ("the round is at least 2", "es la ronda 2 o posterior"),
    ("nobody controls Newspapers", "nadie controla los Newspapers"),
    ("nobody controls Political", "nadie controla la dimensión de Política"),
    ("you have at least 2 tokens in Fort Sumter", "tienes al menos 2 fichas en Fort Sumter"),
    ("the opponent has more tokens than you in Political spaces",
     "tu oponente tiene más fichas que tú en casillas de Política"),
    ("the opponent has at most 3 VP", "tu oponente tiene como máximo 3 PV"),
    ("you are the first player", "eres el primer jugador"),
    ("you are Unionist", "eres el Unionista"),
    ("your pool has fewer than 2 tokens", "tu reserva tiene menos de 2 fichas"),
    ("Washington is pivotal", "Washington es una Casilla Crucial"),
    ("you control more than 5 spaces", "controlas más de 5 casillas"),
    ("your Final Crisis zone is breached", "se ha abierto brecha en tu zona de Crisis Final"),
    ("you control Texas and not the opponent controls Washington or you are Unionist",
     "controlas Texas y no es cierto que tu oponente controla Washington o eres el Unionista"),
]


def test_every_english_case_also_renders_fully_in_spanish(content):
    from test_render import CONDITIONS, ENGLISH
    for rule, english in ENGLISH:
        text = phrased(content, rule, "es")
        assert "<" not in text and text != english, (rule, text)
    for rule, english in CONDITIONS:
        text = phrased(content, rule, "es", how="condition")
        assert "<" not in text and text != english, (rule, text)


@pytest.mark.parametrize("rule,text", SPANISH_CONDITIONS, ids=[s[0] for s in SPANISH_CONDITIONS])
def test_spanish_text_of_conditions(content, rule, text):
    assert phrased(content, rule, "es", how="condition") == text


def test_every_card_renders_in_spanish_without_english_or_missing_phrases(content):
    catalog = content.catalog("es")
    for _kind, card_id, _field, _rule in content.rule_texts():
        text = card_text(content, catalog, card_id)
        assert "<" not in text, (card_id, text)
        for english in (" tokens", " token ", " spaces", " place ", "Place ", " VP"):
            assert english not in text, (card_id, text)


# ---------------------------------------------------------------- a third language


def test_a_third_language_needs_only_new_files(tmp_path):
    root = copy_content(tmp_path)
    french = root / "locale" / "fr"
    french.mkdir()
    (french / "board.yaml").write_text(
        "sides:\n  Unionist: Unioniste\n  Secessionist: Sécessionniste\n", encoding="utf-8")
    (french / "messages.yaml").write_text(
        'log:\n  step:\n    final crisis: "La Crise Finale commence."\nresult:\n  line: "{side} : {vp} PV"\n',
        encoding="utf-8")
    loaded = load_content(root)
    assert "fr" in loaded.catalogs
    played = run_crisis("play", "--bots", "--seed", "3", "--lang", "fr", "--content", root)
    assert played.returncode == 0, played.stderr
    assert "La Crise Finale commence." in played.stdout
    assert re.search(r"^(Unioniste|Sécessionniste) : \d+ PV$", played.stdout, re.M)
    checked = run_main("i18n", "check", "--lang", "fr", "--content", root)
    assert checked.returncode == 1
    assert "missing in the 'fr' catalog" in checked.stdout + checked.stderr


def test_the_language_comes_from_the_locale_environment(tmp_path):
    result = run_crisis("play", "--bots", "--seed", "3", env={"LANG": "es_ES.UTF-8"})
    assert result.returncode == 0, result.stderr
    assert "Comienza la Crisis Final." in result.stdout
    english = run_main("play", "--bots", "--seed", "3", env={"LANG": "de_DE.UTF-8"})
    assert "The Final Crisis begins." in english.stdout


# ------------------------------------------- natural Spanish card texts (issue 10)
SPANISH_CARDS = [
    ("sam-houston", "Retira hasta 2 fichas del oponente de Texas. Si no tienes fichas en Texas, coloca 2 fichas en "
                    "Texas; si no, coloca 1 ficha en Texas."),
    ("texas-secession-convention", "Coloca 3 fichas en Texas. A partir de la ronda 2, coloca 1 ficha en Montgomery."),
    ("buchanans-cabinet-crisis", "Tu oponente retira 2 fichas suyas de casillas de Política. Coloca 1 ficha en "
                                 "Washington."),
    ("baltimore-plot", "Si tienes menos PV que tu oponente, tu oponente pierde 1 PV; si no, retira hasta 2 fichas "
                       "del oponente de Casillas Cruciales que controle tu oponente, como máximo 1 por casilla."),
    ("star-of-the-west", "Elige una opción: (1) coloca 3 fichas en Fort Sumter; (2) retira hasta 3 fichas del "
                         "oponente de Fort Sumter."),
]


@pytest.mark.parametrize("card_id,text", SPANISH_CARDS, ids=[c[0] for c in SPANISH_CARDS])
def test_spanish_card_texts_read_naturally(content, card_id, text):
    assert card_text(content, content.catalog("es"), card_id, inline=True) == text


def test_no_capital_after_a_colon_in_spanish_card_texts(content):
    import re
    catalog = content.catalog("es")
    for _kind, card_id, _field, _rule in content.rule_texts():
        text = card_text(content, catalog, card_id, inline=True)
        # names (Fort Sumter, Casillas Cruciales) may follow a colon; a verb never starts with a capital there
        assert not re.search(r": (Coloca|Retira|Mueve|Gana|Pierde|Elige|Si) ", text), (card_id, text)
        assert " 0 fichas" not in text, (card_id, text)


def test_major_anderson_is_comandante_in_spanish(content):
    assert content.catalog("es").text("cards.major-anderson.title") == "Comandante Anderson"


# ------------------------------------------------------- texts only play asks for


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("game", ["fort-sumter", "civil-war-card-game"])
def test_every_text_that_random_games_ask_for_is_in_the_catalogs(game, lang):
    """The prompts and actions the sequence of play makes (``decision.forfeit``), the log as
    shown, the header, the board and the result of ten games: a player never reads <a.key>,
    neither for a key missing nor for a text whose placeholders play cannot fill."""
    from crisis.cli.i18n_play import texts_wrong_in_play
    from crisis.content.games import game_path
    assert texts_wrong_in_play(load_content(game_path(game)), lang, 10) == ({}, {})


def test_a_misspelt_placeholder_of_a_text_only_play_fills_is_found_by_the_games_played(tmp_path):
    """A log line's values are known only in play (a card played gets its fields): '{vaule}' in
    the English 'log.play.value' passes the content's own check and showed players
    <log.play.value>; the games of i18n check find it, at the placeholder, with the closest name."""
    import shutil
    from crisis.content.games import game_path
    root = tmp_path / "fs"
    shutil.copytree(game_path("fort-sumter"), root)
    shutil.rmtree(root / "locale" / "es")
    replace_in(root / "locale" / "en" / "messages.yaml", '{card} for its value ({value}).',
               '{card} for its value ({vaule}).')
    assert run_main("check", "--content", root).returncode == 0
    played = run_main("i18n", "check", "--content", root)
    assert played.returncode == 1
    report = played.stdout.splitlines()
    (at,) = [n for n, line in enumerate(report) if "'log.play.value' cannot be filled in play" in line]
    assert report[at].startswith(str(root / "locale" / "en" / "messages.yaml") + ":18:")
    assert "did you mean {value}?" in report[at + 3]


def test_a_prompt_that_only_play_makes_is_reported_where_it_belongs(tmp_path):
    """A game's catalog without the words for one of its choices passes the check of the content
    alone (--games 0); the games played find it, in the file the game keeps its prompts in."""
    import shutil
    from crisis.content.games import game_path
    root = tmp_path / "civil-war"
    shutil.copytree(game_path("civil-war-card-game"), root)
    replace_in(root / "locale" / "en" / "interface.yaml", '  forfeit: "{player}: forfeit a card from the battle."\n', "")
    alone = run_main("i18n", "check", "--lang", "en", "--content", root, "--games", "0")
    assert alone.returncode == 0
    played = run_main("i18n", "check", "--lang", "en", "--content", root)
    assert played.returncode == 1
    report = played.stdout + played.stderr
    line = next(line for line in report.splitlines() if "'decision.forfeit'" in line)
    assert "locale/en/interface.yaml" in line and "<decision.forfeit>" in line
    assert "asked for at 'forfeit " in report  # the choice it was missing at, as typed
    assert run_main("i18n", "check", "--content", root, "--games", "many").returncode == 2


@pytest.mark.parametrize("coloured", [False, True])
def test_a_side_coloured_for_the_terminal_keeps_its_article_in_spanish(content, coloured):
    """The full screen colours a side's name; the Spanish text that names it ("El Unionista está
    pensando…") still finds the name's grammar through the colour codes."""
    from crisis.cli.terminal import Style
    from crisis.cli.text import Presenter
    spanish = content.catalog("es")
    name = Presenter(content, spanish).side(content.sides[0])
    side = Style(enabled=coloured).side(0, name)
    assert ("\x1b[" in side) == coloured
    said = spanish.text("cli.tui.thinking", side=side)
    assert said.startswith(f"El {side} ")


def test_a_template_a_rule_needs_is_asked_for_in_the_game_s_own_catalog(tmp_path):
    """'that town' in a rule of a game whose places are towns needs 'render.target.that_town', a key
    made of the game's word: the error points into the game's own locale/en/, not the tool's
    shared catalog, which the designer does not edit."""
    import shutil
    from pathlib import Path
    root = tmp_path / "three-crowns"
    shutil.copytree(Path(__file__).parent / "data" / "three-crowns", root)
    (cards,) = (root / "cards").glob("*.yaml")
    replace_in(cards, "      otherwise:\n        place 1 banner in Ashford\n",
               "      otherwise:\n        place 1 banner in Ashford or Brackenby\n"
               "        if you occupy that town: gain 1 VP\n")
    result = run_main("check", "--content", str(root))
    assert result.returncode != 0
    (told,) = [line for line in result.stderr.splitlines() if "'render.target.that_town' is missing" in line]
    assert told.startswith(str(root / "locale" / "en") + "/")


def test_a_translation_may_leave_out_the_sentence_grammar_its_language_does_not_mark(spanish_copy):
    """{actor} in 'render.tokens.opponent' only chooses the English words for who acts; a language
    that says it one way needs no {actor}. A placeholder that tells what happened still must be
    there: leaving out {n} (how many) is reported."""
    es = spanish_copy / "locale" / "es" / "render.yaml"
    text = es.read_text(encoding="utf-8")
    start = text.index("    opponent: ", text.index("  tokens:"))
    end = text.index("\n", start)
    said_once = '"{n|ficha del oponente|fichas del oponente} (o del Oponente en Solitario)"'
    es.write_text(text[:start] + "    opponent: " + said_once + text[end:], encoding="utf-8")
    assert [d.message for d in messages_of(spanish_copy) if "render.tokens.opponent" in d.message] == []
    text = es.read_text(encoding="utf-8")
    es.write_text(text.replace(said_once, '"fichas del oponente (o del Oponente en Solitario)"'), encoding="utf-8")
    (d,) = [d for d in messages_of(spanish_copy) if "render.tokens.opponent" in d.message]
    assert d.message == "'render.tokens.opponent' leaves out {n}"


def test_words_a_translation_reads_in_english_are_reported(tmp_path):
    """A new game whose catalogs name neither its kind of cards nor a card field: Spanish players
    read 'order cards' and 'value' in English; i18n check says so (it said nothing was missing),
    and once both catalogs name them, it is clean."""
    import shutil
    from pathlib import Path
    root = tmp_path / "three-crowns"
    shutil.copytree(Path(__file__).parent / "data" / "three-crowns", root)
    for lang in ("en", "es"):  # as Three Crowns was before it named them
        texts = root / "locale" / lang / "texts.yaml"
        kept = [line for line in texts.read_text(encoding="utf-8").splitlines(keepends=True)
                if not line.startswith(("card_kinds:", "fields:", "notation:"))]
        texts.write_text("".join(kept), encoding="utf-8")
    said = run_main("i18n", "check", "--content", str(root), "--lang", "es", "--games", "1").stdout
    assert "'card_kinds.order cards' is in no catalog: 'es' players read 'order cards'" in said
    assert "'fields.value' is in no catalog: 'es' players read 'value'" in said
    assert "'notation.muster' is in no catalog: 'es' players read 'muster'" in said  # the word typed to muster
    (where,) = {line.split(": warning")[0] for line in said.splitlines() if "is in no catalog" in line}
    assert where.startswith(str(root / "locale" / "en")) and Path(where).is_file()  # a file the game has
    for lang, kinds, value in (("en", "order cards", "value"), ("es", "cartas de orden", "valor")):
        with open(root / "locale" / lang / "texts.yaml", "a", encoding="utf-8") as texts:
            texts.write(f"\ncard_kinds: {{order cards: {kinds}}}\nfields: {{value: {value}}}\n"
                        f"notation: {{muster: {'muster' if lang == 'en' else 'reclutar'}}}\n")
    said = run_main("i18n", "check", "--content", str(root), "--lang", "es", "--games", "1").stdout
    assert "is in no catalog" not in said
    listed = run_main("cards", "--content", str(root), "--lang", "es").stdout
    assert listed.startswith("Cartas de orden (12)") and "valor 3" in listed


def test_a_tool_template_in_another_game_s_words_is_pointed_out(tmp_path):
    """Three Crowns gives ', at most {n} per town' itself; without it, its cards would read the
    tool's ', at most 1 per space' in a game of towns: check warns, at the game's own catalog."""
    import shutil
    from pathlib import Path
    root = tmp_path / "three-crowns"
    shutil.copytree(Path(__file__).parent / "data" / "three-crowns", root)
    assert "is the tool's text" not in run_main("check", "--content", str(root)).stderr
    replace_in(root / "locale" / "en" / "texts.yaml", '  limit: {per_space: ", at most {n} per town"}\n', "")
    said = run_main("check", "--content", str(root)).stderr
    (line,) = [line for line in said.splitlines() if "is the tool's text" in line]
    assert line.endswith("'render.limit.per_space' is the tool's text, which says 'space' where this game says 'town'")
    assert line.startswith(str(root / "locale" / "en"))


def test_i18n_check_speaks_the_environments_language_whichever_catalog_it_checks():
    """--lang names the catalog to check: checking Spanish from an English environment says its
    summary in English, as the problems around it are (it was said in Spanish)."""
    english = run_main("i18n", "check", "--lang", "es", "--games", "0")
    assert english.returncode == 0 and "es: nothing missing; 0 other problems" in english.stdout
    spanish = run_main("i18n", "check", "--lang", "en", "--games", "0", env={"LANG": "es_ES.UTF-8"})
    assert spanish.returncode == 0 and "en: no falta nada; 0 problemas más" in spanish.stdout


def test_a_location_card_titled_otherwise_than_its_place_in_a_translation_is_a_warning(tmp_path):
    """The Civil War's location cards bear their place's name (as in English): a Spanish title
    'Nueva Yorck' on the card of the place the map calls 'Nueva York' is told at the title."""
    import shutil
    from crisis.content.games import game_path
    root = tmp_path / "civil-war"
    shutil.copytree(game_path("civil-war-card-game"), root)
    replace_in(root / "locale" / "es" / "cards.yaml", '    title: "Nueva York"\n', '    title: "Nueva Yorck"\n')
    result = run_main("i18n", "check", "--content", root, "--games", "0")
    (line,) = [line for line in result.stdout.splitlines() if "cards.new-york.title" in line]
    assert ":160:12: warning:" in line and "'Nueva Yorck'" in line and "'Nueva York'" in line


def test_a_tool_template_with_a_placeholder_the_game_never_fills_is_told_in_the_game_s_catalog(tmp_path):
    """Three Crowns' places are towns: without its own 'render.spaces.named', a rule reads the
    tool's "{space}", which it never fills.  The designer cannot edit the tool's file: the error
    is told at the game's catalog file holding its other render.spaces texts, with the text to give."""
    import shutil
    from pathlib import Path
    root = tmp_path / "three-crowns"
    shutil.copytree(Path(__file__).parent / "data" / "three-crowns", root)
    replace_in(root / "locale" / "en" / "texts.yaml", '    named: "{town}"\n', "")
    said = run_main("check", "--content", str(root)).stderr
    (line,) = [line for line in said.splitlines() if "render.spaces.named" in line and ": error:" in line]
    assert line.startswith(str(root / "locale" / "en" / "texts.yaml") + ": error:"), line
    assert "interface" not in line and "{space}" in line and "{town, town_g, town_pl}" in line
    assert "expected: 'render.spaces.named' in this game's catalog, e.g. \"{town}\"" in said


def test_a_missing_template_is_told_at_the_game_s_file_that_holds_its_neighbours(tmp_path):
    """docs/new-game.md: check names the file of the game's catalog a missing template belongs
    in: the one holding the game's other templates (Three Crowns' texts.yaml), not the first
    file of its catalog (cards.yaml); where the game has no template yet, its render.yaml."""
    import shutil
    from pathlib import Path
    root = tmp_path / "three-crowns"
    shutil.copytree(Path(__file__).parent / "data" / "three-crowns", root)
    english = root / "locale" / "en"
    replace_in(english / "texts.yaml", '  per: {regions_you: "region you occupy"}\n', "")
    said = run_main("check", "--content", str(root)).stderr
    (line,) = [line for line in said.splitlines() if "'render.per.regions_you' is missing" in line]
    assert line.startswith(str(english / "texts.yaml") + ": error:"), line
    # a game with no template of its own yet: each is asked for in its render.yaml, to make
    texts = (english / "texts.yaml").read_text(encoding="utf-8")
    start = texts.index("\nrender:\n")
    end = texts.index("\n# what a play")
    (english / "texts.yaml").write_text(texts[:start] + texts[end:], encoding="utf-8")
    said = run_main("check", "--content", str(root)).stderr
    wheres = {line.split(": error:")[0] for line in said.splitlines()
              if "'render." in line and "is missing in the 'en' catalog" in line}
    assert wheres == {str(english / "render.yaml")}, wheres


def test_a_missing_template_says_the_placeholders_its_text_may_use(tmp_path):
    """A designer writing a template a rule needs cannot guess what it is given: the error says
    ({name} for a town a rule names; none for a text said as it is)."""
    import shutil
    from pathlib import Path
    root = tmp_path / "three-crowns"
    shutil.copytree(Path(__file__).parent / "data" / "three-crowns", root)
    replace_in(root / "locale" / "en" / "texts.yaml", '  target: {towns: "{name}"}\n', "")
    replace_in(root / "locale" / "en" / "texts.yaml", '  per: {regions_you: "region you occupy"}\n', "")
    said = run_main("check", "--content", str(root)).stderr
    assert ("expected: a 'towns:' entry under 'render.target:', whose text may use the placeholders "
            "{name, name_g, name_pl}") in said
    assert "expected: a 'regions_you:' entry under 'render.per:', a text without placeholders (none is filled)" in said


def test_a_key_of_the_reference_catalog_made_from_no_name_of_the_game_is_a_warning(tmp_path):
    """A misspelt step or card id in a key of the game's English catalog was read by nothing: the
    log line of the step silently disappeared, the step showed its bare name.  check warns at the
    name in the key, with the name meant."""
    import shutil
    from pathlib import Path
    root = tmp_path / "three-crowns"
    shutil.copytree(Path(__file__).parent / "data" / "three-crowns", root)
    english = root / "locale" / "en"
    assert "names no" not in run_main("check", "--content", str(root)).stderr
    replace_in(english / "texts.yaml", '  step: {muster: "Round', '  step: {mustre: "Round')
    replace_in(english / "texts.yaml", "steps: {muster: Muster,", "steps: {musterr: Muster,")
    replace_in(english / "cards.yaml", '  raid: {title: "Raid"}\n', '  raid: {title: "Raid"}\n  raidd: {title: "Raid"}\n')
    said = run_main("check", "--content", str(root)).stderr
    found = {line.split(": warning: ")[1]: line.split(": warning: ")[0]
             for line in said.splitlines() if ": warning: " in line and "names no" in line}
    log_line = line_of(english / "texts.yaml", "  step: {mustre")
    assert found == {
        "'log.step.mustre' names no step of this game ('mustre'): nothing reads its text":
            f"{english / 'texts.yaml'}:{log_line}:{len('  step: {') + 1}",
        "'steps.musterr' names no step of this game ('musterr'): nothing reads its text":
            f"{english / 'texts.yaml'}:{line_of(english / 'texts.yaml', 'steps: {')}:{len('steps: {') + 1}",
        "'cards.raidd.title' names no card id of this game ('raidd'): nothing reads its text":
            f"{english / 'cards.yaml'}:{line_of(english / 'cards.yaml', '  raidd:')}:3"}, said
    assert "did you mean 'log.step.muster'?" in said and "did you mean 'steps.muster'?" in said


def test_two_cards_titled_alike_in_a_translation_are_a_warning(spanish_copy):
    """Two Spanish cards titled alike passed both checks, and in play the menu showed the title
    twice and a title typed named neither card: told at the second, naming the first."""
    spanish = spanish_copy / "locale" / "es" / "cards-strategy.yaml"
    assert "as is" not in run_main("i18n", "check", "--content", spanish_copy, "--lang", "es", "--games", "0").stdout
    replace_in(spanish, '    title: "Winfield Scott"\n', '    title: "La investidura de Lincoln"\n')
    said = run_main("i18n", "check", "--content", spanish_copy, "--lang", "es", "--games", "0").stdout
    (line,) = [line for line in said.splitlines() if " as is " in line]
    second = line_of(spanish, "  winfield-scott:") + 1
    assert line == (f"{spanish}:{second}:12: warning: "
                    f"'cards.winfield-scott.title' is 'La investidura de Lincoln', as is "
                    f"'cards.lincoln.title' ({spanish}:6): players cannot tell the two cards apart")
    assert "(in en: 'Lincoln's Inaugural' and 'Winfield Scott')" in said
    assert "as is" in run_main("check", "--content", spanish_copy).stderr


def test_a_placeholder_only_added_to_a_translation_is_not_called_misspelt(spanish_copy):
    """'{side}' added to a Spanish text whose English has none: nothing is misspelt, as the check
    said ('one of the two is misspelt'); it says which placeholder the English text lacks."""
    replace_in(spanish_copy / "locale" / "es" / "messages.yaml", '  keep: "Conservar «{objective}» ({space})"',
               '  keep: "Conservar «{objective}» ({space}, {side})"')
    (d,) = [d for d in messages_of(spanish_copy) if "'action.keep'" in d.message]
    assert d.message.startswith("'action.keep' uses {side}, which the en text (") and "misspelt" not in d.message
    assert d.message.endswith(") does not: the game may not fill it")
    assert d.source_line[d.column - 1:].startswith("{side}")


def test_a_translation_s_misspelt_placeholder_is_told_once_and_players_read_english(tmp_path):
    """'{vaule}' in the Spanish 'log.play.value': the catalog's own check tells it at its line;
    the games played find it too, and do not tell it a second time. What the player reads is the
    English text (a translation that cannot be filled gives way to it)."""
    import shutil
    from crisis.content.games import game_path
    root = tmp_path / "fs"
    shutil.copytree(game_path("fort-sumter"), root)
    replace_in(root / "locale" / "es" / "messages.yaml", "por su valor ({value}).", "por su valor ({vaule}).")
    played = run_main("i18n", "check", "--content", root, "--lang", "es")
    assert played.returncode == 1
    said = played.stdout
    assert said.count("'log.play.value'") == 1 and "?;" not in said
    from crisis.content.i18n import unfilled_in_play_problems
    from crisis.content.loader import load_content
    content = load_content(root)
    (problem,) = unfilled_in_play_problems(content, "es", {"log.play.value": ("value x", "no value", ("card",))}, 3)
    assert "players read the en text instead" in problem.message
    assert problem.hint == "found at 'value x' in one of 3 random games"


def test_a_text_of_play_in_the_tool_s_words_for_pieces_is_a_warning(tmp_path):
    """Three Crowns calls its pieces banners and holding a town 'occupy': with its prompt to place
    one taken out of its catalog, the tool's 'place a token' would show, and check warns, naming
    the key; Three Crowns as shipped gives every such text in its words (no warning)."""
    import shutil
    from pathlib import Path
    root = tmp_path / "three-crowns"
    shutil.copytree(Path(__file__).parent / "data" / "three-crowns", root)
    assert not [p for p in check_all(load_content(root)) if "of the tool's texts that play shows" in p.message]
    replace_in(root / "locale" / "en" / "texts.yaml",
               '  place: "{player}: place a banner ({n} left)."\n', "")
    replace_in(root / "locale" / "en" / "texts.yaml",
               '    space_short: "{gain?yes:{you?yes:you occupy it|*:{side} occupies it}|*:{you?yes:you lose it|*:{was} '
               'loses it}}"\n', "")
    warned = [p for p in check_all(load_content(root)) if "of the tool's texts that play shows" in p.message]
    by_word = {p.message.split("say '")[1].split("'")[0]: p for p in warned}
    assert by_word.keys() == {"token", "control"}
    assert "where this game says 'banner'" in by_word["token"].message and "decision.place" in by_word["token"].expected
    assert "where this game says 'occupy'" in by_word["control"].message
    assert "cli.consequence.space_short" in by_word["control"].expected
    assert all(p.severity == "warning" and p.path.endswith("locale/en/texts.yaml") for p in warned)


def test_a_rule_template_in_the_tool_s_word_for_holding_a_place_is_a_warning(tmp_path):
    """Three Crowns' rules say 'occupy'; without its own 'render.condition.controls' a card would
    read "if you control Dunmore": check warns at the game's catalog, as for 'space' and 'token'."""
    import shutil
    from pathlib import Path
    root = tmp_path / "three-crowns"
    shutil.copytree(Path(__file__).parent / "data" / "three-crowns", root)
    replace_in(root / "locale" / "en" / "texts.yaml",
               '    controls: "{who?you:you occupy|they:they occupy|*:{player} occupies} {target}"\n', "")
    (warned,) = [p for p in check_all(load_content(root)) if p.message.startswith("'render.condition.controls'")]
    assert warned.message == ("'render.condition.controls' is the tool's text, which says 'control' where this "
                              "game says 'occupies'")
    assert warned.severity == "warning" and warned.path.endswith("locale/en/texts.yaml")


def test_a_translated_text_that_cannot_be_read_still_counts_the_missing_keys(spanish_copy):
    """Only a file that cannot be read at all stops the count of missing keys: a text with a '{' left
    open is told, and a key taken out is still counted missing, with the usual summary."""
    es = spanish_copy / "locale" / "es"
    replace_in(es / "messages.yaml", '{side} gana {n} PV', '{side gana {n} PV')
    replace_in(es / "messages.yaml", '    final crisis: "Comienza la Crisis Final."\n', "")
    code, said = spanish_check(spanish_copy)
    assert code == 1
    assert re.search(r"locale/es/messages\.yaml:\d+:\d+: error: message 'log\.vp_gain'", said)
    # (the broken text is not read: it is counted missing too, its English shown meanwhile)
    assert "log.step.final crisis" in said and "es: 2 keys missing in 1 file" in said
    assert "not counted" not in said


def test_card_titles_under_the_same_section_as_the_places_are_not_keys_of_no_name(tmp_path):
    """A kind of cards whose last word is the map's word for places ('towns') keeps its titles in
    the places' section ('towns.rally.title' beside 'towns.Ashford'): each is read, none is a key
    that names nothing; a misspelt one still is."""
    import shutil
    from pathlib import Path
    root = tmp_path / "three-crowns"
    shutil.copytree(Path(__file__).parent / "data" / "three-crowns", root)
    replace_in(root / "state.yaml", "    words: [card, cards]", "    words: [card, cards, order card, towns]")
    for lang in ("en", "es"):
        replace_in(root / "locale" / lang / "cards.yaml", "\ncards:", "\ntowns:")
    assert not [p for p in check_all(load_content(root)) if "names no" in p.message]
    replace_in(root / "locale" / "en" / "cards.yaml", "  rally:", '  raly: {title: "Raly"}\n  rally:')
    (told,) = [p for p in check_all(load_content(root)) if "names no" in p.message]
    assert told.message.startswith("'towns.raly.title' names no ")


@pytest.mark.parametrize("broken, fault", [("{side} gana {n} PV", "{side gana"), ("({reason})", "({n|razón})")])
def test_the_caret_goes_to_the_fault_in_a_text_not_to_its_opening_quote(spanish_copy, broken, fault):
    """A '{' left open, a plural of one form: the caret is under the fault, not under the text's
    opening quote (a long Spanish text hides where its fault is)."""
    es = spanish_copy / "locale" / "es" / "messages.yaml"
    replace_in(es, broken, fault)
    result = run_main("i18n", "check", "--lang", "es", "--content", spanish_copy, "--games", "0")
    report = result.stdout.splitlines()
    (at,) = [n for n, line in enumerate(report) if "error: message 'log.vp_gain'" in line]
    column = int(report[at].split(":")[2])
    caret = report[at + 2]
    assert report[at + 1][report[at + 1].index("|") + 2 + column - 1:].startswith(fault[fault.index("{"):][:5])
    assert caret.index("^") == report[at + 1].index("|") + 2 + column - 1
