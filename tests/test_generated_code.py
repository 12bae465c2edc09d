"""Rules written out as Python (interpreter/engine/codegen.py) play the same games, and the
generated source holds nothing content could have put there (docs/limits.md)."""

import os
from pathlib import Path

import pytest

from crisis.content.loader import read_game
from crisis.interpreter.players.registry import RandomBot
from crisis.interpreter.engine.board import Board
from crisis.interpreter.engine.game import play_game
from crisis.interpreter.engine.native import generate, native
from crisis.interpreter.engine.ops import Ctx
from crisis.interpreter.engine.program import GameProgram, program_of
from crisis.interpreter.engine.verify import UnsafeSource, verify


THREE_CROWNS = Path(__file__).parent / "data" / "three-crowns"


def played(program, seed, generated: bool):
    previous = os.environ.get("CRISIS_INTERPRET")
    os.environ["CRISIS_INTERPRET"] = "0" if generated else "1"
    try:
        bots = [RandomBot(seed, side).pick for side in range(len(program.schema.sides))]
        decisions = []

        def choose(decision):
            origin = decision.origin
            decisions.append((decision.player, decision.kind, [a.text for a in decision.actions], decision.optional,
                              decision.remaining, decision.hidden, decision.owner, decision.on_behalf,
                              None if origin is None else (origin[0].id, tuple(origin[1]))))
            return decision.actions[bots[decision.player](len(decision.actions))]
        position, _ = play_game(program, seed, choose, frozenset({"event_discard"}) if seed % 2 else frozenset())
        return (decisions, list(position.values), [list(p) for p in position.piles], position.plays,
                position.breakdown, native(program) is not None)
    finally:
        if previous is None:
            del os.environ["CRISIS_INTERPRET"]
        else:
            os.environ["CRISIS_INTERPRET"] = previous


@pytest.mark.parametrize("seed", [1, 2, 3, 17, 99, 1234, 65537])
def test_generated_rules_play_the_same_games_as_the_operations(content, seed):
    generated, interpreted = played(program_of(content), seed, True), played(program_of(content), seed, False)
    assert generated[-1] and not interpreted[-1]  # each way was the one played
    assert generated[:-1] == interpreted[:-1]


@pytest.fixture(scope="module")
def three_crowns():
    return GameProgram(read_game(THREE_CROWNS))


@pytest.mark.parametrize("seed", range(1, 13))
def test_a_game_of_three_sides_plays_the_same_generated(three_crowns, seed):
    """Three Crowns (tests/data/three-crowns) has no "opponent" and three sides to a place's control:
    the generated rules take the general ways, and still play the same games."""
    generated, interpreted = played(three_crowns, seed, True), played(three_crowns, seed, False)
    assert generated[-1] and not interpreted[-1]
    assert generated[:-1] == interpreted[:-1]


def test_the_main_sequence_runs_generated_only_from_the_context_a_game_starts_in(content):
    """The main function is written for the root context; any other is played by the operations."""
    program = program_of(content)
    generated = generate(program)
    board = Board(program, program.initial_position(1))
    assert generated.play(program.main, board, Ctx(1), lambda decision: decision.actions[0]) is False
    assert board.values == program.initial_position(1).values  # nothing was run


def test_no_text_of_the_content_reaches_the_generated_source(content):
    native = generate(program_of(content))
    source = native.source
    for card_id in program_of(content).cards[0].ids + program_of(content).cards[1].ids:
        assert card_id not in source
    for name in program_of(content).schema.map.places + program_of(content).schema.sides:
        assert name not in source
    assert "'" not in source and '"' not in source  # no string at all
    verify(source)  # what was compiled passes the check


@pytest.mark.parametrize("smuggled", [
    "x = 'text'",                       # a string
    "import os",                        # an import
    "def f1(board, ctx, choose):\n    board.__class__",  # an attribute not written by the generator
    "def f1(board, ctx, choose):\n    open(1)",           # a name that is not generated
    "def f1(board, ctx, choose):\n    return (lambda: 1)()",
    "f1 = 10 ** 20",                    # an integer out of range
])
def test_the_check_refuses_what_the_generator_never_writes(smuggled):
    with pytest.raises(UnsafeSource):
        verify(smuggled)
