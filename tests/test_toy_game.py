"""A game the engine has never heard of: Three Crowns, three sides, written only as content.

``tests/data/three-crowns/`` declares its state (sides, counters, a map of towns
in regions, banners in camps, cards and piles), its sequence of play and its
cards; nothing in Python names it.  These tests play it as a person would meet
it: whole random games end with a winner and keep every side's banners, its
rules hold as scenario files say, and content mistakes are refused at their
line before any game starts.
"""

import random
import shutil
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from crisis.content.loader import read_game
from crisis.content.yamlfile import ContentError
from crisis.interpreter.designer.invariants import check_position
from crisis.interpreter.designer.scenario import PASSED, run_file
from crisis.interpreter.engine.game import Game
from crisis.interpreter.engine.program import GameProgram

ROOT = Path(__file__).parent / "data" / "three-crowns"


@pytest.fixture(scope="module")
def program():
    return GameProgram(read_game(ROOT))


@given(seed=st.integers(0, 2**32))
def test_random_games_end_with_a_winner_and_every_banner_accounted_for(program, seed):
    game = Game(program, seed)
    rng = random.Random(seed)
    players = set()
    while game.decision is not None:
        players.add(game.decision.player)
        game.apply(rng.choice(game.decision.actions))
        assert check_position(program, game.position) == []
    assert players == {0, 1, 2}  # all three sides had decisions
    assert game.result is not None and game.result.winner in (0, 1, 2)
    banners = program.schema.tokens.each_side
    for side in range(3):
        assert game.view.on_map(side) + game.view.holder("camp", side) == banners


def test_a_game_is_its_seed_and_actions(program):
    game = Game(program, 7)
    rng = random.Random(7)
    while game.decision is not None:
        game.apply(rng.choice(game.decision.actions))
    again = Game(program, 7)
    for text in game.history:
        again.apply(text)
    assert again.position.values == game.position.values and again.result == game.result


def test_every_scenario_of_the_game_passes(program):
    outcomes = [o for path in sorted((ROOT / "scenarios").glob("*.yaml")) for o in run_file(program, ROOT, path)]
    assert len(outcomes) >= 5
    assert [(o.name, o.problems, [d.message for d in o.diagnostics]) for o in outcomes if o.status != PASSED] == []


def copy_game(tmp_path) -> Path:
    target = tmp_path / "three-crowns"
    shutil.copytree(ROOT, target)
    return target


def problems(root) -> list:
    with pytest.raises(ContentError) as error:
        read_game(root)
    return error.value.diagnostics


def test_the_opponent_is_refused_in_a_game_of_three_sides(tmp_path):
    root = copy_game(tmp_path)
    cards = root / "cards" / "orders.yaml"
    cards.write_text(cards.read_text() + "  - id: harry\n    value: 1\n    event: remove 1 opponent banner from any towns\n")
    (found,) = problems(root)
    assert found.path.endswith("orders.yaml") and "opponent" in found.message and "3" in found.message
    assert found.line == len(cards.read_text().splitlines())


def test_banners_that_are_nowhere_at_the_start_are_refused(tmp_path):
    root = copy_game(tmp_path)
    state = root / "state.yaml"
    state.write_text(state.read_text().replace("start: 9", "start: 7"))
    (found,) = problems(root)
    assert found.path.endswith("state.yaml") and "9" in found.message and "7" in found.message


def test_the_game_passes_crisis_check_strict(capsys):
    """The toy game is a whole game as designers write one: its rules, its texts in two languages,
    nothing left to warn about."""
    from crisis.cli.main import main
    assert main(["check", "--content", str(ROOT), "--strict"]) == 0
    out = capsys.readouterr()
    assert "OK" in out.out and "warning" not in out.out + out.err and "error" not in out.out + out.err
    assert "(en, es)" in out.out


def test_a_missing_translation_of_its_own_texts_is_reported_in_its_own_folder(tmp_path, capsys):
    """The card titles the Spanish catalog lacks belong in the game's locale/es/, never in the
    tool's shared catalogs, though both have a 'cards' section."""
    from crisis.cli.main import main
    root = copy_game(tmp_path)
    (root / "locale" / "es" / "cards.yaml").unlink()
    assert main(["check", "--content", str(root), "--strict"]) != 0
    out = capsys.readouterr()
    text = out.out + out.err
    assert "12 keys" in text and "cards.rally.title" in text
    (warning,) = [line for line in text.splitlines() if "missing in the 'es' catalog" in line]
    assert warning.startswith(str(root / "locale" / "es" / "cards.yaml")) or \
        (root.name + "/locale/es/cards.yaml") in warning.split(":")[0]
    assert "interface" not in warning.split(":")[0]


MARCH_SCENARIOS = """\
scenarios:
  - name: a march goes only to a town next to the one each banner leaves
    position:
      phase: orders
      leader: Red
      banners: {Ashford: {Red: 2}, Dunmore: {Red: 1}}
      hands: {Red: [march, raid], Green: [rally, levy], Blue: [fortify, scatter]}
    actions:
      - order march
      - {legal: [move Ashford to Brackenby, move Dunmore to Coldwater, move Dunmore to Eastmarch, done]}
      - {illegal: move Ashford to Dunmore}
      - move Ashford to Brackenby
      - move Brackenby to Coldwater
    expect:
      banners: {Ashford: {Red: 1}, Brackenby: {Red: 0}, Coldwater: {Red: 1}, Dunmore: {Red: 1}}
"""


def test_a_banner_marches_into_an_adjacent_town(tmp_path):
    """'move ... from any towns into an adjacent town': each step goes from a town to one next to
    it on the map (the map's 'adjacent'), and the generated rules leave it to the statement (the
    same games both ways)."""
    import os
    from crisis.interpreter.players.registry import RandomBot
    from crisis.interpreter.engine.game import play_game
    root = tmp_path / "three-crowns"
    shutil.copytree(ROOT, root)
    state = root / "state.yaml"
    state.write_text(state.read_text(encoding="utf-8").replace(
        "  attributes:\n", "  adjacent:\n    Ashford: [Brackenby]\n    Brackenby: [Coldwater]\n"
                          "    Dunmore: [Coldwater, Eastmarch]\n  attributes:\n", 1), encoding="utf-8")
    (cards,) = (root / "cards").glob("*.yaml")
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        "move up to 2 of your banners from any towns to any Lowlands towns",
        "move up to 2 of your banners from any towns into an adjacent town"), encoding="utf-8")
    for lang, words in (("en", '"{form?one:an adjacent town|*:adjacent towns}"'),
                        ("es", '"{form?one:una ciudad adyacente|*:ciudades adyacentes}"')):
        texts = root / "locale" / lang / "texts.yaml"
        texts.write_text(texts.read_text(encoding="utf-8").replace("  spaces:\n", f"  spaces:\n    adjacent: {words}\n", 1),
                         encoding="utf-8")
    program = GameProgram(read_game(root))
    path = tmp_path / "march.yaml"
    path.write_text(MARCH_SCENARIOS, encoding="utf-8")
    outcomes = run_file(program, root, path)
    assert [(o.status, o.problems, [d.message for d in o.diagnostics]) for o in outcomes] == [(PASSED, [], [])]

    def played(interpret):
        before = os.environ.get("CRISIS_INTERPRET")
        os.environ["CRISIS_INTERPRET"] = "1" if interpret else "0"
        try:
            games = []
            for seed in range(1, 9):
                bots = [RandomBot(seed, side).pick for side in range(3)]
                games.append(play_game(program, seed, lambda d: d.actions[bots[d.player](len(d.actions))])[0].values)
            return games
        finally:
            if before is None:
                del os.environ["CRISIS_INTERPRET"]
            else:
                os.environ["CRISIS_INTERPRET"] = before
    assert played(True) == played(False)


@pytest.mark.parametrize("move, at", [
    ("from your camp or any towns into an adjacent town", "your camp"),  # a holder leaves no town
    ("from any towns into an adjacent town you occupy", "an adjacent town"),  # a condition on it
    ("from any towns into an adjacent town or your camp", "an adjacent town"),  # with another destination
    ("from Ashford into each adjacent town", "each adjacent town"),
])
def test_an_adjacent_town_stands_alone_as_where_a_move_goes(tmp_path, move, at):
    """'an adjacent town' is next to the town each token leaves: with a holder as a source, a
    condition, another destination or 'each' it could only do something else, so check refuses it
    at its words (it once crashed a game, or silently offered nothing)."""
    root = tmp_path / "three-crowns"
    shutil.copytree(ROOT, root)
    state = root / "state.yaml"
    state.write_text(state.read_text(encoding="utf-8").replace(
        "  attributes:\n", "  adjacent:\n    Ashford: [Brackenby]\n  attributes:\n", 1), encoding="utf-8")
    (cards,) = (root / "cards").glob("*.yaml")
    text = cards.read_text(encoding="utf-8").replace(
        "move up to 2 of your banners from any towns to any Lowlands towns", "move up to 2 of your banners " + move)
    cards.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        read_game(root)
    (error,) = [d for d in caught.value.diagnostics if d.severity == "error"]
    line = next(n for n, written in enumerate(text.splitlines(), 1) if move in written)
    assert (error.line, error.column) == (line, text.splitlines()[line - 1].index(at) + 1)


def test_a_place_adjacent_to_itself_is_refused_at_its_name(tmp_path):
    root = tmp_path / "three-crowns"
    shutil.copytree(ROOT, root)
    state = root / "state.yaml"
    text = state.read_text(encoding="utf-8").replace(
        "  attributes:\n", "  adjacent:\n    Ashford: [Brackenby, Ashford]\n  attributes:\n", 1)
    state.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        read_game(root)
    (error,) = [d for d in caught.value.diagnostics if d.severity == "error"]
    line = next(n for n, written in enumerate(text.splitlines(), 1) if "Ashford: [Brackenby, Ashford]" in written)
    assert (error.message, error.line, error.column) == ("'Ashford' is listed as adjacent to itself", line, 26)


def test_a_final_score_without_scoring_lines_says_no_score_before_them():
    """Three Crowns scores its last round by carrying out a procedure, not 'score ... in VP': the
    result has no scoring lines to part its VP into, so it says no 'VP before the final scoring'
    (it said the whole score was from before)."""
    from clirun import run_main
    result = run_main("play", "--content", str(ROOT), "--bots", "--seed", "4")
    assert result.returncode == 0
    final = result.stdout.split("Final score")[-1]
    assert "wins" in final and "before the final scoring" not in final


def test_a_one_line_rule_with_a_colon_is_told_to_be_a_block(tmp_path):
    """'event: if you occupy Ashford: gain 1 VP' is not YAML (a second ': ' on the line): the error,
    at the second colon, says to write the rule as a block."""
    root = tmp_path / "three-crowns"
    shutil.copytree(ROOT, root)
    (cards,) = (root / "cards").glob("*.yaml")
    text = cards.read_text(encoding="utf-8").replace("    event: gain 1 VP for each region you occupy\n",
                                                     "    event: if you occupy Ashford: gain 1 VP\n")
    cards.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        read_game(root)
    (error,) = caught.value.diagnostics
    line = next(n for n, written in enumerate(text.splitlines(), 1) if "Ashford: gain" in written)
    assert (error.line, error.column) == (line, text.splitlines()[line - 1].index(": gain") + 1)
    assert "'event: |'" in error.expected


@pytest.mark.parametrize("lang, said", [
    ("en", "The deck is empty: a new one is made by shuffling the discard pile."),
    ("es", "Se han agotado las cartas del mazo: se forma un mazo nuevo barajando la pila de descartes."),
])
def test_a_deck_refilled_is_told_in_the_game_s_own_piles(lang, said):
    """The tool's words for a deck refilled from another pile name the game's piles (they named
    Fort Sumter's strategy deck and played cards, which Fort Sumter now says in its own catalog)."""
    from clirun import run_main
    result = run_main("play", "--content", str(ROOT), "--bots", "--seed", "1", "--lang", lang, env={"COLUMNS": "200"})
    assert said in result.stdout.splitlines()


def test_a_line_indented_too_far_is_not_told_to_be_a_rule_block(tmp_path):
    """YAML's 'mapping values are not allowed here' is told as a one-line rule to write as a block
    only where a key and its ': ' stand before it on the line, not for a line indented too far."""
    root = tmp_path / "three-crowns"
    shutil.copytree(ROOT, root)
    state = root / "state.yaml"
    state.write_text(state.read_text(encoding="utf-8").replace(
        "    seen by: nobody\n", "    seen by: nobody\n        when: never\n", 1), encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        read_game(root)
    (error,) = caught.value.diagnostics
    assert "event: |" not in (error.expected or "")


@pytest.mark.parametrize("lang, played, banner", [("en", " plays ", "a banner"), ("es", " juega ", "un estandarte")])
def test_the_template_game_reads_in_its_own_words_in_the_log_and_menus(lang, played, banner, tmp_path, monkeypatch):
    """Three Crowns is the game docs/new-game.md tells a designer to copy: its log tells each card
    played and each round begun, its pieces are banners, and no menu line shows a key (a use named
    'order' once read the tool's text for ordering cards, '<action.order>')."""
    from clirun import run_main
    monkeypatch.chdir(tmp_path)  # (where the games are saved)
    shown = run_main("play", "--content", ROOT, "--lang", lang, "--vs", "random", "--seed", "2", "--plain",
                     input="\n\nquit\n")
    assert shown.returncode == 0, shown.stderr
    assert "<" not in shown.stdout and "token" not in shown.stdout and "ficha" not in shown.stdout
    watched = run_main("play", "--content", ROOT, "--lang", lang, "--bots", "--seed", "2", "--plain")
    log = watched.stdout
    assert watched.returncode == 0 and played in log and banner in log and "<" not in log
    assert {"en": "Round 2 begins", "es": "Comienza la ronda 2"}[lang] in log


def test_a_relation_expected_is_named_in_the_game_s_own_word(tmp_path):
    """Three Crowns holds towns by 'occupy': where a relation is expected, the error names its word,
    not Fort Sumter's 'control'."""
    root = tmp_path / "three-crowns"
    shutil.copytree(ROOT, root)
    (cards,) = (root / "cards").glob("*.yaml")
    text = cards.read_text(encoding="utf-8")
    event = text.split("event: ", 1)[1].split("\n", 1)[0]
    cards.write_text(text.replace(f"event: {event}", "event: gain 1 VP for each banner you have in Ashford", 1),
                     encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        read_game(root)
    (problem,) = caught.value.diagnostics
    assert problem.expected == "a relation such as 'occupies'"


def test_a_game_whose_catalog_gives_no_title_is_named_by_its_name_in_refusals(tmp_path, monkeypatch):
    """Three Crowns' catalog gives no title: an optional rule it lacks is refused naming the game as
    state.yaml names it, not 'crisis' (the tool's own title)."""
    from clirun import run_main
    monkeypatch.chdir(tmp_path)
    refused = run_main("play", "--content", ROOT, "--bots", "--option", "nada")
    assert refused.returncode == 2
    assert refused.stderr.strip().startswith(f"{read_game(ROOT).schema.game or ROOT.name} has no optional rules")
