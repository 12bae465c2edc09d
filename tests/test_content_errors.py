"""Loading content: the shipped game loads; a broken copy is refused with every problem located."""

import pytest

from clirun import run_main
from crisis.content.loader import load_content, load_definition, read_game
from crisis.content.yamlfile import ContentError

from helpers import add_designer_card, copy_content, designer_card, line_of, replace_in


def add_card_file(root, text):
    path = root / "cards" / "zz-designer.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def problems(root):
    with pytest.raises(ContentError) as caught:
        load_content(root)
    return caught.value.diagnostics


CARD = designer_card("|\n      place 2 in Fort Sumter\n      {line}")


def test_shipped_content_loads(content):
    assert len(content.places) == 12
    assert len(content.cards("strategy cards").ids) == 40
    assert {g.name for g in content.schema.map.groups} == {"Political", "Secession", "Armaments", "Public Opinion"}
    assert "en" in content.catalogs


def test_a_typo_in_a_card_is_reported_at_its_yaml_position(tmp_path):
    root = copy_content(tmp_path)
    path = add_card_file(root, CARD.format(line="remove 1 opponent token from Fort Sumpter"))
    (d,) = problems(root)
    assert d.path.endswith("cards/zz-designer.yaml")
    assert (d.line, d.column) == (9, 36)
    assert d.source_line == "      remove 1 opponent token from Fort Sumpter"
    assert d.hint == "did you mean 'Fort Sumter'?"
    report = d.format()
    assert "zz-designer.yaml:9:36: error: unknown space 'Fort Sumpter' (in card 'designer-card', event)" in report
    assert "^~~~~~~~~~~~" in report
    assert path.exists()


def test_a_syntax_error_in_a_one_line_rule_points_into_the_line(tmp_path):
    root = copy_content(tmp_path)
    add_card_file(root, CARD.replace("event: |\n      place 2 in Fort Sumter\n      {line}\n",
                                     'event: "place 2 in Fort Sumter or Texsa"\n'))
    (d,) = problems(root)
    assert (d.line, d.column) == (7, 39)
    assert d.message == "unknown space 'Texsa'"


def test_every_problem_is_reported_and_nothing_is_loaded(tmp_path):
    root = copy_content(tmp_path)
    add_card_file(root, """\
strategy_cards:
  - id: first-card
    value: 2
    event_for: Unionst
    final_crisis: Armaments
    provenanse: authored
    event: place 1 in Texas
  - id: second-card
    value: 0
    event_for: both
    final_crisis: Politcal
    provenance: authored
    event: gain 1 vp
  - id: third-card
    value: 1
    event_for: both
    provenance: known
""")
    found = [(d.line, d.message) for d in problems(root)]
    assert (6, "unknown key 'provenanse' in a strategy card") in found
    assert (14, "a strategy card has no 'final_crisis'") in found
    assert (4, "unknown side 'Unionst'") in found
    assert (9, "a strategy card's value is at least 1") in found
    assert (11, "unknown dimension 'Politcal'") in found
    assert (13, "unknown word 'vp'") in found


def test_card_ids_are_checked(tmp_path):
    root = copy_content(tmp_path)
    add_card_file(root, CARD.format(line="gain 1 VP").replace("id: designer-card", "id: lincoln")
                  + CARD.format(line="gain 1 VP").replace("strategy_cards:\n", "").replace("designer-card", "Bad_Id"))
    found = [(d.line, d.message, d.hint) for d in problems(root)]
    assert (2, "strategy card 'lincoln' is defined twice",
            f"the other one is at {root / 'cards' / 'strategy-unionist.yaml'}:11") in found
    assert (10, "'Bad_Id' cannot be a card id", None) in found


def test_a_duplicate_key_is_an_error_not_silently_overwritten(tmp_path):
    root = copy_content(tmp_path)
    add_card_file(root, CARD.format(line="gain 1 VP").replace("    value: 2\n", "    value: 2\n    value: 3\n"))
    (d,) = problems(root)
    assert (d.line, d.message, d.hint) == (4, "'value' is given twice", "it was first given on line 3")


def test_invalid_yaml_is_located(tmp_path):
    root = copy_content(tmp_path)
    add_card_file(root, "strategy_cards:\n  - id: [unclosed\n")
    (d,) = problems(root)
    assert d.message.startswith("this is not valid YAML")
    assert d.line is not None


@pytest.mark.parametrize("text, line, column, expected", [
    # a key without its colon: told at the key, not at the next line where the parser gave up
    ("strategy_cards:\n  - id: x\n    value 2\n    event_for: Unionist\n", 3, 5, "'key: value', a colon after the key"),
    # a list never closed: told at its '['
    ("strategy_cards:\n  - id: x\n    values: [1, 2\n    event_for: Unionist\n", 3, 13,
     "a ']' that closes the list, its items separated by commas"),
])
def test_invalid_yaml_is_told_where_the_construct_began(tmp_path, text, line, column, expected):
    root = copy_content(tmp_path)
    add_card_file(root, text)
    (d,) = problems(root)
    assert d.message.startswith("this is not valid YAML") and "that starts here" in d.message
    assert (d.line, d.column, d.expected) == (line, column, expected)
    assert d.hint.startswith("the parser gave up at line 4")


def test_a_broken_glossary_is_told_once_whatever_the_languages(tmp_path):
    from crisis.content.i18n import check_all
    root = copy_content(tmp_path)
    replace_in(root / "locale" / "glossary.yaml", "  - en: [pivotal space, pivotal spaces]",
               "  - en: [pivotal space, pivotal spaces")
    found = [d for d in check_all(load_content(root)) if "not valid YAML" in d.message]
    assert len(found) == 1 and found[0].path.endswith("glossary.yaml")


def test_a_bad_number_of_the_tokens_is_told_once_not_with_what_follows_from_it(tmp_path):
    """The tokens that could not be read are not told of again by the track that holds them, nor
    by the scenario keys that name their holders."""
    root = copy_content(tmp_path)
    replace_in(root / "state.yaml", "at most per place: 4", "at most per place: four")
    (d,) = problems(root)
    assert d.message == "'at most per place' in tokens should be a whole number"


def test_a_renamed_cards_missing_text_is_told_at_the_text_it_had(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "cards" / "strategy-unionist.yaml", "  - id: major-anderson", "  - id: major-andersen")
    (d,) = problems(root)
    assert d.message == "locale 'en' has no text for 'cards.major-andersen.title'"
    assert d.path.endswith("locale/en/cards-strategy.yaml")
    assert d.line == line_of(root / "locale" / "en" / "cards-strategy.yaml", "major-anderson:") + 1  # its title
    assert d.hint.startswith("did you mean 'cards.major-anderson.title'?")


def test_a_file_ending_in_yml_is_said_to_be_left_unread(tmp_path):
    """cards/extra.yml was silently left out: check said OK of cards it never read."""
    root = copy_content(tmp_path)
    (root / "cards" / "extra.yml").write_text("strategy_cards:\n  - id: extra\n", encoding="utf-8")
    (root / "locale" / "es" / "more.yml").write_text("cards: {}\n", encoding="utf-8")
    found = {w.path.rsplit("/", 2)[-1]: w for w in load_content(root).warnings if ".yml" in w.message}
    assert set(found) == {"extra.yml", "more.yml"}
    assert found["extra.yml"].message == "extra.yml is not read: the content's files end in .yaml"
    assert found["extra.yml"].hint == "rename it extra.yaml"


def test_an_empty_list_of_first_player_rules_is_a_warning(tmp_path):
    """It loads (a game may always start with the same side), but check says what it means."""
    root = copy_content(tmp_path)
    text = (root / "sequence.yaml").read_text(encoding="utf-8")
    start = text.index("first player:")
    (root / "sequence.yaml").write_text(text[:start] + "first player: []" + text[text.index("\n\n", start):],
                                        encoding="utf-8")
    (warning,) = [w for w in load_content(root).warnings if "first player" in w.message]
    assert warning.message == "'first player' lists no rule: the first side always goes first"
    assert warning.path.endswith("sequence.yaml") and warning.severity == "warning"


def test_lists_left_empty_load_with_a_warning(tmp_path):
    """Cards taken out of a file, and a solo game with no criterion for its exclusive options:
    the content loads (a draft may be so), and check says what each means."""
    root = copy_content(tmp_path)
    path = root / "cards" / "strategy-secessionist.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[:text.index("strategy_cards:")] + "strategy_cards: []\n", encoding="utf-8")
    overlay = root / "solo" / "overlay.yaml"
    text = overlay.read_text(encoding="utf-8")
    start = text.index("exclusive options:")
    overlay.write_text(text[:start] + "exclusive options: []" + text[text.index("\n\n", start):], encoding="utf-8")
    warnings = {w.message for w in load_content(root).warnings}
    assert "'strategy_cards' lists no card" in warnings
    assert ("'exclusive options' lists no criterion: the side the game plays always takes the first option it "
            "is offered") in warnings


def test_a_missing_locale_text_is_reported(tmp_path):
    root = copy_content(tmp_path)
    add_card_file(root, CARD.format(line="gain 1 VP"))
    (d,) = problems(root)
    assert d.message == "locale 'en' has no text for 'cards.designer-card.title'"
    assert d.path.endswith("locale/en/cards-strategy.yaml")


def test_a_broken_message_placeholder_is_reported(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "locale" / "en" / "messages.yaml", 'vp_gain: "{side} gains {n} VP',
               'vp_gain: "{side} gains {n VP')
    (d,) = problems(root)
    assert "message 'log.vp_gain'" in d.message and "never closed" in d.message
    assert d.path.endswith("locale/en/messages.yaml")


def test_board_numbers_must_add_up(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "state.yaml", "each side: 25", "each side: 24")
    (d,) = problems(root)
    assert (d.path.endswith("state.yaml"), d.line) == (True, line_of(root / "state.yaml", "each side: 24"))
    assert d.message == "each side has 24 tokens, but 25 are somewhere at the start (holders 0, tracks 16, boxes 9)"


def test_a_rule_of_the_sequence_of_play_is_checked_like_a_card(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "sequence.yaml", "      - you control Fort Sumter", "      - you control Fort Sumtre")
    (d,) = problems(root)
    assert d.path.endswith("sequence.yaml")
    assert d.message == "unknown space or dimension 'Fort Sumtre'"
    assert d.hint == "did you mean 'Fort Sumter'?"


@pytest.mark.parametrize("dropped, given, missing", [
    ("      discarding: a card of your hand whose value is at least the value of the card\n", "card", "discarding"),
    ("      card: the last card played\n", "discarding", "card"),
])
def test_a_use_of_another_card_says_what_pays_for_it(tmp_path, dropped, given, missing):
    """Found by the fuzzer: a use with 'card:' but no 'discarding:' passed check, and offering it in
    play ended the game with a TypeError. Each needs the other; the error stands at the use."""
    root = copy_content(tmp_path)
    where = line_of(root / "sequence.yaml", "    claim:")
    replace_in(root / "sequence.yaml", dropped, "")
    (d,) = problems(root)
    assert (d.path.endswith("sequence.yaml"), d.line, d.column) == (True, where, 5)
    assert d.message == f"the use 'claim' has '{given}:' but no '{missing}:'"


def test_not_a_content_directory(tmp_path):
    (d,) = problems(tmp_path)
    assert d.message == "this is not a content directory: it has no state.yaml"


def test_the_digest_follows_the_rules_not_the_texts(tmp_path, content):
    root = copy_content(tmp_path)
    assert load_content(root).digest == content.digest
    replace_in(root / "locale" / "en" / "messages.yaml", '"The Final Crisis begins."', '"The Final Crisis starts."')
    replace_in(root / "layout.yaml", "\n", "\n# how the board is drawn is no rule\n")
    assert load_content(root).digest == content.digest
    replace_in(root / "sequence.yaml", "    conditions:\n      - you control Fort Sumter\n",
               "    conditions:\n      - you control Fort Pickens\n      - you control Fort Sumter\n")
    assert load_content(root).digest != content.digest


def test_the_content_names_the_digests_of_earlier_versions_it_plays_as(tmp_path, content):
    """Saved games name their content by digest: the files that define the game moved (game.yaml
    and rules.yaml went), and the content says its games of the version before play the same."""
    assert content.plays(content.digest) and content.plays("533f399177e6e74e")
    assert not content.plays("0123456789abcdef")
    root = copy_content(tmp_path)
    replace_in(root / "state.yaml", "  - 533f399177e6e74e", "  - 533f399177e6e74g")
    (d,) = problems(root)
    assert (d.line, d.message) == (12, "'533f399177e6e74g' is not a content digest")


# ---------------------------------------------------------------------------------------------
# What `crisis check` says of a designer's card, and what the rules front end says of the
# definition read by itself (as read_game does): the same, at the same place.

def designer_copy(tmp_path, event):
    root = copy_content(tmp_path)
    add_designer_card(root, designer_card(event), "designer-card", "Designer")
    return root


def general_problems(root):
    with pytest.raises(ContentError) as caught:
        read_game(root)
    return caught.value.diagnostics


def test_a_bonus_box_is_never_a_destination(tmp_path):
    root = designer_copy(tmp_path, '"move 2 from your pool to your Escalation box"')
    result = run_main("check", "--content", root)
    assert result.returncode == 1
    assert ("zz-designer.yaml:7:38: error: 'your Escalation box' is never a destination: pieces only ever leave it"
            in result.stderr)
    assert "expected: a destination: places, a holder or a whole track" in result.stderr
    (d,) = general_problems(root)
    assert (d.line, d.column, d.width) == (7, 38, len("your Escalation box"))
    assert d.message == "'your Escalation box' is never a destination: pieces only ever leave it"
    assert d.expected == "a destination: places, a holder or a whole track"


def test_a_box_stays_a_source(tmp_path):
    root = designer_copy(tmp_path, '"move 2 from your Escalation box to your pool"')
    assert run_main("check", "--content", root).returncode == 0
    assert read_game(root) is not None


@pytest.mark.parametrize("event, column, word, hint", [
    ('"attach 1 in Texas"', 13, "attach", None),
    ('"placed 1 in Texas"', 13, "placed", "did you mean 'place'?"),
    ('"gain 1 VP for each spaced you control"', 32, "spaced", "did you mean 'space'?"),
])
def test_keywords_are_whole_words(tmp_path, event, column, word, hint):
    root = designer_copy(tmp_path, event)
    result = run_main("check", "--content", root)
    assert result.returncode == 1
    assert f"zz-designer.yaml:7:{column}: error: unknown word '{word}'" in result.stderr
    assert "^" + "~" * (len(word) - 1) + "\n" in result.stderr
    (d,) = general_problems(root)
    assert (d.line, d.column, d.width, d.message) == (7, column, len(word), f"unknown word '{word}'")
    if hint:
        assert hint in result.stderr and d.hint == hint


@pytest.mark.parametrize("event, column, message, expected, hint", [
    # a name of several words misspelt: told as the name, with the game's names of its kind
    ('"carry out the pivotal bonuses"', 27, "unknown procedure 'pivotal bonuses'", "a procedure: ",
     "did you mean 'pivotal bonus'?"),
    ('"add 1 to the final crisis stp"', 26, "unknown counter 'final crisis stp'", "a counter: ",
     "did you mean 'final crisis step'?"),
    # a proper name in the wrong case, whole or in part
    ('"place 1 in fort Sumter"', 24, "unknown space 'fort Sumter'", "a space: ", "did you mean 'Fort Sumter'?"),
    ('"place 1 in Fort sumter"', 24, "unknown space 'Fort sumter'", "a space: ", "did you mean 'Fort Sumter'?"),
    ('"place 1 in texas"', 24, "unknown space 'texas'", "a space: ", "did you mean 'Texas'?"),
])
def test_a_misspelt_name_is_told_whole_with_the_name_meant(tmp_path, event, column, message, expected, hint):
    root = designer_copy(tmp_path, event)
    (d,) = general_problems(root)
    phrase = message.split("'")[1]
    assert (d.line, d.column, d.width, d.message) == (7, column, len(phrase), message)
    assert d.expected.startswith(expected) and d.hint == hint
    result = run_main("check", "--content", root)
    assert result.returncode == 1 and f"zz-designer.yaml:7:{column}: error: {message}" in result.stderr


def test_a_misspelt_name_in_a_list_of_the_state_is_told_at_the_name(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "state.yaml", "pivotal: [Washington, Border States,", "pivotal: [Washington, Border Sttes,")
    (d,) = problems(root)
    line = line_of(root / "state.yaml", "Border Sttes")
    text = (root / "state.yaml").read_text(encoding="utf-8").splitlines()[line - 1]
    assert (d.line, d.column, d.width) == (line, text.index("Border Sttes") + 1, len("Border Sttes"))
    # in the game's word for its places
    assert d.message == "unknown space 'Border Sttes'" and d.hint == "did you mean 'Border States'?"


OR_CARD = '"if the Peace Commissioner is in Texas or the Peace Commissioner is off the map: gain 1 VP"'
OR_SCENARIOS = """\
scenarios:
""" + "".join(f"""\
  - name: the Peace Commissioner {where}
    position:
      phase: card_play
      hands: {{Unionist: [designer-card, lincoln], Secessionist: [florida-secedes]}}
      markers: {{Peace Commissioner: {marker}}}
    actions:
      - event designer-card
    expect:
      vp: {{Unionist: {vp}}}
""" for where, marker, vp in (("off the map", "off", 1), ("in Texas", "Texas", 1), ("in Fort Sumter", "Fort Sumter", 0)))


def test_or_between_two_whole_conditions_is_checked_and_played(tmp_path):
    from crisis.interpreter.designer.scenario import run_file
    from crisis.interpreter.engine.program import GameProgram
    root = designer_copy(tmp_path, OR_CARD)
    result = run_main("check", "--content", root)
    assert result.returncode == 0, result.stderr
    path = tmp_path / "or.yaml"
    path.write_text(OR_SCENARIOS, encoding="utf-8")
    outcomes = run_file(GameProgram(load_definition(root)), root, path)
    assert [(o.name, o.problems, [d.message for d in o.diagnostics]) for o in outcomes] == [
        (o.name, [], []) for o in outcomes]
    assert len(outcomes) == 3 and all(o.passed for o in outcomes)


@pytest.mark.parametrize("file, old, new, column, message", [
    ("state.yaml", "cards: objective cards", "cards: 0", 12, "'cards' in pile 'objective deck' should be text"),
    ("state.yaml", "holds: tokens", "holds: 1", 12, "'holds' in track 'crisis track' should be text"),
    ("sequence.yaml", "\nsetup: |", "\nsetupx: |", 1, "unknown key 'setupx' in sequence.yaml"),
])
def test_a_required_entry_of_the_wrong_kind_or_missing_is_an_error_not_a_crash(tmp_path, file, old, new, column,
                                                                               message):
    """Found by the fuzzer: a required entry written as a number, or misspelt, crashed the loader."""
    root = copy_content(tmp_path)
    replace_in(root / file, old, new)
    where = (line_of(root / file, new.lstrip("\n")), column)
    found = problems(root)
    assert any((d.line, d.column) == where and d.message == message for d in found), [str(d) for d in found]


def test_a_games_word_gets_its_own_article_in_what_was_expected(tmp_path):
    """A game whose places are 'areas' is told 'expected: an area: ...', not 'a area'."""
    import shutil
    from pathlib import Path
    root = tmp_path / "three-crowns"
    shutil.copytree(Path(__file__).parent / "data" / "three-crowns", root)
    for path in root.rglob("*.yaml"):
        text = path.read_text(encoding="utf-8").replace("towns", "areas").replace("town", "area")
        path.write_text(text, encoding="utf-8")
    (cards,) = (root / "cards").glob("*.yaml")
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text.replace("remove 1 banner of any side from Dunmore", "remove 1 banner of any side from Dunmoore"),
                     encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        read_game(root)
    (error,) = [d for d in caught.value.diagnostics if d.severity == "error"]
    assert "Dunmoore" in error.message
    assert error.expected.startswith("an area: ")


def test_a_count_of_tokens_written_as_a_card_s_pile_is_told_how_to_write_it(tmp_path):
    """'remove up to the value of the card of your tokens' reads 'your tokens' as a pile the card
    lies in; the error says how a number of tokens is written."""
    root = copy_content(tmp_path)
    add_designer_card(root, designer_card("remove up to the value of the card of your tokens from Texas"),
                      "designer-card", "Retreat")
    with pytest.raises(ContentError) as caught:
        load_content(root)
    (told,) = [d for d in caught.value.diagnostics if "is tokens" in d.message]
    assert "'up to as many of your tokens as the value of the card'" in told.hint
    replace_in(root / "cards" / "zz-designer.yaml", "remove up to the value of the card of your tokens from Texas",
               "remove up to as many of your tokens as the value of the card from Texas")
    load_content(root)  # what the hint says reads


def test_an_english_catalog_file_that_is_not_yaml_is_not_also_told_as_its_missing_keys(tmp_path):
    """A tab in Three Crowns' locale/en/cards.yaml: the error at the tab, and not twelve more
    'no text for cards.X.title' told at another file (every key of the unread file)."""
    import shutil
    from pathlib import Path
    root = tmp_path / "three-crowns"
    shutil.copytree(Path(__file__).parent / "data" / "three-crowns", root)
    cards = root / "locale" / "en" / "cards.yaml"
    replace_in(cards, '  raid: {title: "Raid"}', '\traid: {title: "Raid"}')
    result = run_main("check", "--content", str(root))
    errors = [line for line in result.stderr.splitlines() if ": error:" in line]
    assert result.returncode == 1 and errors == [
        f"{cards}:{line_of(cards, chr(9))}:1: error: this is not valid YAML: found character '\\t' that cannot "
        f"start any token"], result.stderr


def _three_crowns(tmp_path):
    import shutil
    from pathlib import Path
    root = tmp_path / "three-crowns"
    shutil.copytree(Path(__file__).parent / "data" / "three-crowns", root)
    return root


def _yaml_error(root):
    (d,) = [d for d in problems(root) if "not valid YAML" in d.message]
    return d


def test_an_apostrophe_inside_single_quotes_is_told_how_to_write_it(tmp_path):
    """'Lord's Levy': the apostrophe ends the quoted text; the parser's own words ("expected
    <block end>") said nothing of how to write one."""
    root = _three_crowns(tmp_path)
    cards = root / "locale" / "en" / "cards.yaml"
    replace_in(cards, 'levy: {title: "Levy"}', "levy:\n    title: 'Lord's Levy'")
    d = _yaml_error(root)
    assert (d.line, d.column) == (line_of(cards, "    title: 'Lord"), len("    title: 'Lord'") + 1)
    assert d.expected == "inside '...' an apostrophe written twice ('it''s'), or the text in double quotes (\"it's\")"


def test_a_catalog_text_holding_a_colon_is_told_to_be_quoted(tmp_path):
    """In a catalog, 'key: {side} : text' is a text players read: quote it (the hint for rules,
    a block 'event: |', fits no catalog)."""
    root = _three_crowns(tmp_path)
    texts = root / "locale" / "en" / "texts.yaml"
    replace_in(texts, 'action: {muster: "Play {card} to muster ({value})", ',
               "action:\n  muster: Play {card} : muster ({value})\nother: {")
    d = _yaml_error(root)
    assert d.expected == "a text holding ' : ' or ': ' in double quotes: 'key: \"{player} : ...\"'"
    assert "event: |" not in d.format()


def test_a_quote_left_open_is_told_where_it_was_opened(tmp_path):
    """A title's closing quote forgotten: the text runs on to the next quote, lines below, where
    the parser gives up; the error is told at the quote left open."""
    root = _three_crowns(tmp_path)
    cards = root / "locale" / "en" / "cards.yaml"
    replace_in(cards, 'raid: {title: "Raid"}', 'raid:\n    title: "Raid')
    d = _yaml_error(root)
    assert (d.line, d.column) == (line_of(cards, '    title: "Raid'), len("    title: ") + 1)
    assert "the quoted text opened here is closed only at line" in d.message
    assert d.expected == 'the closing quote (") of this text on its line'


def test_a_catalog_value_empty_or_a_list_is_told_what_to_write(tmp_path):
    """'title:' with nothing after it and 'title: [a, b]' were told to 'quote it if it looks
    like a number or yes/no', which fits neither."""
    root = _three_crowns(tmp_path)
    cards = root / "locale" / "en" / "cards.yaml"
    replace_in(cards, 'raid: {title: "Raid"}', "raid:\n    title:")
    replace_in(cards, 'levy: {title: "Levy"}', "levy: {title: [Levy, Muster]}")
    found = {d.message: d.hint for d in problems(root) if "should be text" in d.message}
    assert found == {
        "message 'cards.raid.title' should be text":
            "the text is missing after the colon: write it there, in quotes (\"...\")",
        "message 'cards.levy.title' should be text":
            "brackets make a list: write the text in quotes (\"...\"), brackets and commas inside"}


def test_a_rule_folded_with_greater_than_is_told_that_its_lines_were_joined(tmp_path):
    """'event: >' folds the block's lines into one: 'place 2 in Washington place 2 in ...' is one
    statement the parser cannot read; the error says '>' joined them and '|' keeps them apart."""
    root = copy_content(tmp_path)
    cards = root / "cards" / "strategy-unionist.yaml"
    replace_in(cards, "    event: |\n      place 2 in Washington\n", "    event: >\n      place 2 in Washington\n")
    with pytest.raises(ContentError) as caught:
        load_content(root)
    (problem,) = caught.value.diagnostics
    assert problem.path.endswith("strategy-unionist.yaml") and problem.line == 18
    assert "'>' joins the lines of a block into one line: write '|'" in problem.hint
