"""Cards in play as pieces (entities), in a game the engine has never heard of: Skirmish.

``tests/data/skirmish/`` declares, only as content, two sides whose cards come
into play as pieces: deployed at a camp by tapping supplies, marching one site
at a time along a line of five sites, carrying banners, routed in battle by
greater power, and winning at once by taking the other side's camp.  These
tests play it as a person would meet it: whole random games end with a winner
and every card in one place, a game is its seed and actions, the engine's two
ways of playing (frames and the direct form) make the same decisions, its rules
hold as its scenario files say, and its mistakes are refused at their line.
"""

import random
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from crisis.content.loader import read_game
from crisis.content.yamlfile import ContentError
from crisis.interpreter.designer.invariants import check_position
from crisis.interpreter.designer.scenario import NOT_RUN, PASSED, run_file
from crisis.interpreter.engine.game import Game, play_game
from crisis.interpreter.engine.program import GameProgram, program_of

ROOT = Path(__file__).parent / "data" / "skirmish"


@pytest.fixture(scope="module")
def program():
    return GameProgram(read_game(ROOT))


def random_game(program, seed):
    game = Game(program, seed)
    rng = random.Random(seed)
    while game.decision is not None:
        game.apply(rng.choice(game.decision.actions))
    return game


def in_play(game, side=None):
    view = game.view
    return [view.entity(e) for e in view.in_play(side if side is not None else -1)]


# ------------------------------------------------------------------ whole games


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_games_end_with_a_winner_and_every_card_in_one_place(program, seed):
    game = Game(program, seed)
    rng = random.Random(seed)
    players = set()
    while game.decision is not None:
        players.add(game.decision.player)
        game.apply(rng.choice(game.decision.actions))
        assert check_position(program, game.position) == []
    assert players == {0, 1}
    assert game.result is not None and game.result.winner in (0, 1)
    for card in in_play(game):  # a carried card stands where its carrier stands
        if card["on"] is not None:
            carrier = next(c for c in in_play(game) if c["card"] == card["on"])
            assert card["at"] == carrier["at"]


def test_random_games_deploy_march_fight_and_sometimes_take_a_camp(program):
    """The toy is a real test of cards in play only if random games do all of it."""
    routed = taken = marched = 0
    for seed in range(100):
        game = random_game(program, seed)
        discards = [game.view.pile("discard pile", side) for side in (0, 1)]
        routed += any(discards)
        taken += game.result.tie_break == -1 and game.view.counter("VP", 0) == game.view.counter("VP", 1) == 0
        marched += any(text.startswith("march ") for text in game.history)
    assert routed >= 20 and marched >= 80 and taken >= 1


def test_a_game_is_its_seed_and_actions(program):
    game = random_game(program, 11)
    again = Game(program, 11)
    for text in game.history:
        again.apply(text)
    assert again.position.values == game.position.values and again.result == game.result
    assert again.position.piles == game.position.piles


def test_the_direct_form_makes_the_same_decisions_as_the_framed_one(program):
    """Batch play (bots, sim: generated code calling the operations directly) and play by frames
    (the command line, saves, scenarios) ask the same questions and reach the same position."""
    for seed in range(15):
        rng = random.Random(seed)
        asked = []

        def choose(decision):
            action = decision.actions[rng.randrange(len(decision.actions))]
            asked.append(([a.text for a in decision.actions], action.text))
            return action
        position, _ = play_game(program, seed, choose)
        game = Game(program, seed)
        for legal, chosen in asked:
            assert [a.text for a in game.decision.actions] == legal
            game.apply(chosen)
        assert game.decision is None and game.position.values == position.values


def test_a_fork_is_a_copy_cards_in_play_included(program):
    game = Game(program, 3)
    rng = random.Random(3)
    while not game.view.in_play(0) or len(game.history) < 12:
        game.apply(rng.choice(game.decision.actions))
    before = [dict(card) for card in in_play(game)]
    fork = game.fork()
    while fork.decision is not None:
        fork.apply(rng.choice(fork.decision.actions))
    assert in_play(game) == before


def test_a_game_without_cards_in_play_keeps_its_positions_as_they_were():
    """Fort Sumter declares no cards in play: no record is added to its positions."""
    from crisis.content.loader import load_content
    program = program_of(load_content())
    assert program.layout.entities == 0 and program.layout.entity == -1 and program.layout.chosen_entity == -1
    assert program.layout.size == program.layout.reveals + 1


# ------------------------------------------------------------------ scenarios


def test_every_scenario_of_the_game_passes(program):
    outcomes = [o for path in sorted((ROOT / "scenarios").glob("*.yaml")) for o in run_file(program, ROOT, path)]
    assert len(outcomes) >= 10
    assert [(o.name, o.problems, [d.message for d in o.diagnostics]) for o in outcomes if o.status != PASSED] == []


def scenario(tmp_path, program, text):
    path = tmp_path / "one.yaml"
    path.write_text(text)
    (outcome,) = run_file(program, ROOT, path)
    return outcome


MARCH = """
name: a march
position:
  phase: turns
  in play:
    Red: {red-camp: {at: Redhold}, red-pikes: {at: Westmark}}
    Blue: {blue-camp: {at: Bluehold}}
  hands: {Red: [], Blue: []}
actions:
  - march red-pikes to Crossing
expect:
  in play:
    Red: {red-pikes: {at: WHERE}}
"""


def test_a_scenario_that_expects_the_wrong_place_fails_with_the_difference(tmp_path, program):
    outcome = scenario(tmp_path, program, MARCH.replace("WHERE", "Eastmark"))
    assert outcome.status != PASSED
    assert outcome.problems == ["in play.Red.red-pikes.at: expected 'Eastmark', got 'Crossing'"]
    assert scenario(tmp_path, program, MARCH.replace("WHERE", "Crossing")).status == PASSED


def test_a_misspelt_card_or_place_in_play_is_refused_at_its_line(tmp_path, program):
    outcome = scenario(tmp_path, program, MARCH.replace("red-pikes: {at: Westmark}", "red-pkies: {at: Westmark}")
                       .replace("WHERE", "Crossing"))
    assert outcome.status == NOT_RUN
    (found,) = [d for d in outcome.diagnostics if "red-pkies" in d.message]
    assert found.line == 6 and "did you mean 'red-pikes'" in found.hint
    outcome = scenario(tmp_path, program, MARCH.replace("WHERE", "Crosing"))
    assert outcome.status == NOT_RUN and "did you mean 'Crossing'" in outcome.diagnostics[0].hint


def test_an_action_naming_no_card_is_refused_before_the_game_starts(tmp_path, program):
    outcome = scenario(tmp_path, program, MARCH.replace("  - march red-pikes to Crossing",
                                                        "  - {illegal: march red-pkes to Crossing}")
                       .replace("WHERE", "Westmark"))
    assert outcome.status == NOT_RUN
    assert "red-pkes" in outcome.diagnostics[0].message and "red-pikes" in outcome.diagnostics[0].hint


# ------------------------------------------------------------------ content mistakes


def copy_game(tmp_path) -> Path:
    target = tmp_path / "skirmish"
    shutil.copytree(ROOT, target)
    return target


def problems(root) -> list:
    with pytest.raises(ContentError) as error:
        read_game(root)
    return error.value.diagnostics


def edit(path: Path, old: str, new: str) -> int:
    """Replace ``old`` (found once) and return the line it starts on."""
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))
    return text[:text.index(old)].count("\n") + 1


@pytest.mark.parametrize("old, new, message, hint", [
    ("tap as many of your untapped supplies as the price of that card\n    deploy up to 1 banner",
     "tap as many of your untaped supplies as the price of that card\n    deploy up to 1 banner",
     "unknown word 'untaped'", "untapped"),
    ("    deploy up to 1 supply from your hand\n",
     "    tap that card\n    deploy up to 1 supply from your hand\n",
     "'that card' is the card chosen by an earlier statement", None),
    ("    deploy up to 1 supply from your hand\n",
     "    tap your supplies at Redhold\n    deploy up to 1 supply from your hand\n",
     None, None),
    ("    deploy up to 1 supply from your hand\n",
     "    untap the unit\n    deploy up to 1 supply from your hand\n",
     "'the unit' means nothing", None),
    ("    deploy up to 1 supply from your hand\n",
     "    untap your supplies at an adjacent site\n    deploy up to 1 supply from your hand\n",
     "adjacent to what?", None),
    ("    deploy up to 1 supply from your hand\n",
     "    tap 2 of your untapped supplies onto Redhold\n    deploy up to 1 supply from your hand\n",
     "'tap' takes no 'onto'", None),
    ("    deploy up to 1 supply from your hand\n",
     "    add the power of your units to your VP\n    deploy up to 1 supply from your hand\n",
     "names several cards, and 'power' is read from one", "the total power"),
    ("    deploy up to 1 supply from your hand\n",
     "    add the total type of your units to your VP\n    deploy up to 1 supply from your hand\n",
     "'type' is not a number field of the cards in play", "power"),
    ("    deploy up to 1 supply from your hand\n",
     "    deploy up to 1 supply\n",
     "deploy from where?", None),
    ("    deploy up to 1 supply from your hand\n",
     "    rout your tapped camps at Redhold\n    deploy up to 1 supply from your hand\n",
     None, None),
    ("    deploy up to 1 supply from your hand\n",
     "    if the number of sites at Crossing is 1: untap your supplies\n    deploy up to 1 supply from your hand\n",
     "'at' says where cards in play stand", "units at Ridge"),
])
def test_a_mistake_with_cards_in_play_is_refused_at_its_line(tmp_path, old, new, message, hint):
    root = copy_game(tmp_path)
    sequence = root / "sequence.yaml"
    line = edit(sequence, old, new)
    if message is None:  # a well-formed rule: the game still loads
        read_game(root)
        return
    (found,) = problems(root)
    assert found.path.endswith("sequence.yaml") and message in found.message
    assert found.line in (line, line + 1)
    if hint is not None:
        assert hint in (found.hint or "") + (found.expected or "")


def test_a_card_of_an_unknown_kind_is_refused_at_its_value(tmp_path):
    root = copy_game(tmp_path)
    cards = root / "cards" / "army.yaml"
    line = edit(cards, "  - id: red-pikes\n    type: unit", "  - id: red-pikes\n    type: unti")
    (found,) = problems(root)
    assert found.path.endswith("army.yaml") and found.line == line + 1 and "unti" in found.message
    assert "did you mean 'unit'" in found.hint


@pytest.mark.parametrize("old, new, message, at", [
    ("tap: {sets: tapped}", "tap: {sets: taped}", "unknown flag 'taped'", "taped"),
    ("tap: {sets: tapped}", "tap: {sets: tapped}\n  charge: {moves: true, sets: tapped}", None, None),
    ("untap: {clears: tapped}", "untap: {clears: tapped, sets: moved}", "should do one of the engine's actions",
     "untap:"),
    ("rout: {removes from play: true, into: discard pile}", "rout: {removes from play: true, into: discard}",
     "unknown pile 'discard'", "discard}"),
    ("  at: places\n", "  at: everywhere\n", "'places' of the map, or 'nowhere'", "everywhere"),
    ("  fields: [power]\n", "  fields: [price, might]\n", "unknown number field of the cards in play 'might'",
     "might"),
    ("      price: number\n", "      price: {type: text, default: 2}\n", "only a number field has a default",
     "2}"),
    ("      side: side\n", "", "no side field to say whose pile each card starts in", "all"),
    ("  cards: [army cards]\n", "  cards: [army card]\n", "unknown kind of card 'army card'", "army card]"),
])
def test_a_mistake_in_declaring_cards_in_play_is_refused_at_its_line(tmp_path, old, new, message, at):
    root = copy_game(tmp_path)
    state = root / "state.yaml"
    edit(state, old, new)
    if message is None:
        read_game(root)
        return
    lines = state.read_text().splitlines()
    found = [d for d in problems(root) if d.path.endswith("state.yaml") and message in d.message]
    assert found, message
    assert at in lines[found[0].line - 1][found[0].column - 1:]


def test_a_verb_without_cards_in_play_is_refused(tmp_path):
    root = copy_game(tmp_path)
    state = root / "state.yaml"
    text = state.read_text()
    start = text.index("# cards in play:")
    end = text.index("verbs:")
    state.write_text(text[:start] + text[end:])
    found = problems(root)
    assert any("verbs act on cards in play" in d.message for d in found)


def test_the_examples_of_the_language_reference_load_in_the_toy_game(tmp_path):
    """docs/language.md, "Cards in play": every example is a rule Skirmish accepts as it stands."""
    import re
    doc = (Path(__file__).resolve().parents[1] / "docs" / "language.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Cards in play"):doc.index("## The solo game's words")]
    blocks = re.findall(r"```text\n(.*?)\n```", section, re.S)
    assert len(blocks) >= 4
    root = copy_game(tmp_path)
    sequence = root / "sequence.yaml"
    text = sequence.read_text()
    added = "".join(f"  example {n}: |\n" + "".join(f"    {line}\n" for line in block.split("\n"))
                    for n, block in enumerate(blocks))
    sequence.write_text(text.replace("procedures:\n", "procedures:\n" + added))
    read_game(root)
