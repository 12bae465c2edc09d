"""What a player reads of the Solo Opponent's reasons and of its printed aid (docs/solo.md).

The aid says once, at the top, that its tables are not the printed aid's; a run of
placements lists the legal spaces once, then only what changed; a test of several parts
says which part decided; a skipped row says why it was skipped; the pivotal bonus's lines
are lettered as the solo rulebook letters them.
"""

import re

import pytest

from crisis.cli.main import main
from crisis.cli.text import Presenter
from crisis.interpreter.engine.game import Game, Options
from crisis.interpreter.players.registry import RandomBot

from helpers import copy_content, replace_in


def crisis(capsys, *args):
    code = main(list(args))
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


def solo_game(content, seed, opponent="Secessionist"):
    game = Game.of(content, seed, Options(frozenset({"event_discard"}), solo=opponent))
    bot = RandomBot(seed, 1 - game.automa.side)
    while not game.over:
        game.apply(bot.choose(game, game.decision))
    return game


def feed(content, game, lang="en"):
    """The game's log as the feed and `crisis play --bots` show it, one entry a line (unwrapped)."""
    show = Presenter(content, content.catalog(lang))
    return [(entry, show.log_line(entry)) for entry in show.shown(game.log, game.automa.side)]


# ------------------------------------------------------------------ the printed aid
AUTHORED = {"en": ("Not the printed aid's tables", "Select where to Place or Replace tokens", "(authored)",
                   "-- for the player's tokens only"),
            "es": ("Estas no son las tablas de la hoja impresa", "Dónde colocar o reemplazar fichas", "(de autor)",
                   "-- solo para las fichas del jugador")}


@pytest.mark.parametrize("lang", sorted(AUTHORED))
def test_the_aid_says_once_at_the_top_that_its_rows_are_not_the_printed_aids(capsys, lang):
    statement, first_table, old_mark, players_tokens = AUTHORED[lang]
    out = crisis(capsys, "aid", "--side", "secessionist", "--lang", lang)
    assert out.count(statement) == 1
    assert out.index(statement) < out.index(first_table)  # before the first row
    assert "docs/solo.md" in out[:out.index(first_table)]
    assert old_mark not in out  # no row repeats it
    assert " ".join(out.split()).count(players_tokens) == 3  # what each row is for is still said


def test_when_only_some_rows_are_authored_those_rows_are_marked_and_the_top_says_what_the_mark_means(
        capsys, tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "solo" / "aid-secessionist.yaml", "  - row: Secession spaces\n",
               "  - row: Secession spaces\n    provenance: known\n")
    out = crisis(capsys, "aid", "--side", "secessionist", "--content", str(root), "--lang", "en")
    head = out[:out.index("Select where to Place or Replace tokens")]
    assert "Rows marked * are not the printed aid's" in head and "Not the printed aid's tables" not in head
    rows = [line.strip() for line in out.splitlines() if re.match(r"\s+\d+\. ", line)]
    assert "7. Secession spaces" in rows  # the one row from the printed aid: no mark
    assert "6. Fort Sumter *" in rows and "4. the Solo Opponent's objective space *" in rows


# --------------------------------------------------------- legal spaces, once per run
def test_a_run_of_placements_lists_the_legal_spaces_once_then_only_what_changed(content):
    """Seed 3: the Secessionist places 2 tokens for Morrill Tariff's value (Abolitionists, then
    Fire-Eaters); the second token's reason does not list the ten legal spaces again."""
    game = solo_game(content, 3)
    lines = feed(content, game)
    reasons = [(i, text) for i, (entry, text) in enumerate(lines) if entry.key == "log.solo.choice"]
    follow_ons = [(earlier, later) for (i, earlier), (j, later) in zip(reasons, reasons[1:])
                  if j == i + 2 and lines[i + 1][0].key in ("log.place", "log.remove", "log.move")]
    assert follow_ons
    legal = re.compile(r"table: legal ([^→]+) →")
    for earlier, later in follow_ons:
        assert not legal.search(later), later  # no second full list
        assert "legal: as for the token before" in later
    texts = [text for _, text in lines]
    fire_eaters = texts.index("Secessionist places a token in Fire-Eaters.")
    assert texts[fire_eaters - 2] == "Secessionist places a token in Abolitionists."
    assert "legal Washington, Montgomery," in texts[fire_eaters - 1]
    assert texts[fire_eaters + 1].startswith(
        "    why: Place or Replace table: legal: as for the token before, less Abolitionists → row 1")


def test_why_still_lists_every_legal_space_and_spanish_says_what_changed(content):
    game = solo_game(content, 3)
    english, spanish = Presenter(content, content.catalog("en")), Presenter(content, content.catalog("es"))
    later = [e for e in game.log if e.key == "log.solo.choice" and any("before" in p for p in e.params["parts"])]
    assert later
    for entry in later:
        table = next(p for p in entry.params["parts"] if "before" in p)
        assert "legal " + ", ".join(table["legal"]) in english.trace(entry)  # 'why' and saved games
        assert "legales: las de la ficha anterior" in spanish.log_line(entry)


# ------------------------------------------------------- the part of a test that decided
def test_a_test_of_several_parts_says_which_part_decided(content):
    """Seed 1: some revealed cards are Friendly but would place or remove nothing, others are not
    Friendly; the answer names the part that failed, and it is the one that did."""
    game = solo_game(content, 1)
    friendly = "the revealed card is Friendly"
    pieces = "the revealed card would place or remove pieces"
    solo_side = game.automa.side
    view = game.view
    revealed, seen = None, set()
    for entry, text in feed(content, game):
        if entry.key == "log.draw" and entry.params["into"] == "revealed card":
            revealed = entry.params["cards"][0]
        if entry.key == "log.solo.if" and f"asks: {friendly} and {pieces}?" in text:
            if text.endswith("Yes."):
                continue
            part = re.search(r'\? No: "(.+)" does not hold\.$', text).group(1)
            assert part in (friendly, pieces), text
            card = game.program.cards[game.program.kind_index["strategy cards"]].index[revealed]
            assert (part == friendly) == (tuple(view.field("strategy cards", card, "event for")) != (solo_side,)), \
                (revealed, text)
            seen.add(part)
    assert seen == {friendly, pieces}


def test_a_designers_own_test_of_one_part_is_explained_in_the_log_in_each_language(capsys, tmp_path):
    """A test the shipped procedures do not make ("you control Abolitionists", one condition whose
    rule keeps no syntax of its own) is still phrased in the Solo Opponent's reasons; it ended
    `crisis play --bots --solo` with a traceback (found by tools/fuzz_inputs.py)."""
    root = copy_content(tmp_path)
    overlay = root / "solo" / "overlay.yaml"
    text = overlay.read_text(encoding="utf-8")
    start = text.index("  pivotal bonus:\n    solo opponent: |\n")
    end = text.index("\n  final crisis matching:")
    overlay.write_text(text[:start] + "  pivotal bonus:\n    solo opponent: |\n      if you control Abolitionists:\n"
                       "        remove up to 4 opponent tokens from Deep South" + text[end:], encoding="utf-8")
    for lang, asked in (("en", "asks: the Solo Opponent controls Abolitionists?"),
                        ("es", "¿el Oponente en Solitario controla los Abolitionists?")):
        out = crisis(capsys, "play", "--bots", "--solo", "--seed", "1", "--content", str(root), "--lang", lang)
        assert asked in out


def test_the_turns_tests_name_the_deciding_part_in_the_printed_game_in_each_language(capsys):
    out = " ".join(crisis(capsys, "play", "--bots", "--solo", "--seed", "1", "--side", "union",
                          "--lang", "en").split())
    assert 'No: "the value of the top card of the discard pile is at most the value of the revealed card" ' \
           'does not hold.' in out
    assert not re.search(r"pieces\? No\.", out)
    spanish = " ".join(crisis(capsys, "play", "--bots", "--solo", "--seed", "3", "--lang", "es").split())
    assert "No: no se cumple «la carta revelada es Amistosa»." in spanish


# ------------------------------------------------------------------- a row skipped
def test_a_skipped_row_says_whether_it_names_no_legal_space_or_only_ones_set_aside(content):
    game = solo_game(content, 3)
    show = Presenter(content, content.catalog("en"))
    set_aside_seen = 0
    for entry in game.log:
        if entry.key != "log.solo.choice":
            continue
        text = show.log_line(entry)
        assert "none left" not in text
        for part in (p for p in entry.params["parts"] if p["kind"] == "table"):
            left = list(part["legal"])
            for index, kept in part["rows"]:
                fit = part.get("set_aside", {}).get(index)
                if kept is None and fit:
                    # legal spaces the row names, all of them left out by the rows before it
                    assert set(fit) <= set(part["legal"]) and not set(fit) & set(left)
                    assert f'only {", ".join(fit)}, set aside by an earlier row; skipped' in text
                    set_aside_seen += 1
                elif kept is None:
                    assert "none of the legal spaces; skipped" in text
                elif kept != "all":
                    left = kept
    assert set_aside_seen


# ------------------------------------------------------- the rulebook's letters
def test_the_pivotal_bonus_lines_are_lettered_as_in_the_solo_rulebook(capsys):
    out = " ".join(crisis(capsys, "play", "--bots", "--solo", "--seed", "3", "--lang", "en").split())
    bonus = re.findall(r"takes the pivotal bonus of [^.]+\. Secessionist follows a priority list: (.*?) → (.*?)\. \S",
                       out)
    assert bonus
    for found, chosen in bonus:
        labels = [re.match(r"(.*?) (?:cannot|can|only)", line).group(1) for line in found.split("; ")]
        assert labels == ["(a: move)", "(a: remove)", "(b)", "(c)", "(d)"][:len(labels)]
    assert any(chosen == "(e) nothing" for _, chosen in bonus)
    assert any(chosen.startswith("(d) (The Solo Opponent removes 2 player tokens") for _, chosen in bonus)
    aid = " ".join(crisis(capsys, "aid", "--side", "secessionist", "--lang", "en").split())
    assert "(a: move) so that the Solo Opponent gains control of this dimension" in aid
    assert "; (d) the Solo Opponent removes 2 player tokens" in aid
    assert "If none of these can be carried out: (e) nothing." in aid
    assert "(1) so that" not in aid


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_line_of_the_pivotal_bonus_has_its_rulebook_letter(content, lang):
    """The letters are the catalog's: if the content's list changes, this says so."""
    show = Presenter(content, content.catalog(lang))
    options = content.definition.overlay.procedures["pivotal bonus"]["solo opponent"].statements[0].options
    label = show.line_labels("pivotal_bonus")
    letters = [re.match(r"\(([a-e])", label(n)).group(1) for n in range(1, len(options) + 1)]
    assert letters == ["a", "a", "b", "c", "d"]
    assert label("none").startswith("(e)")
