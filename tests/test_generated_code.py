"""Rules written out as Python (interpreter/engine/codegen.py) play the same games, and the
generated source holds nothing content could have put there (docs/limits.md)."""

import os
import random

import pytest

from crisis.interpreter.controllers import RandomBot
from crisis.interpreter.engine.game import play_game
from crisis.interpreter.engine.native import generate
from crisis.interpreter.engine.verify import UnsafeSource, verify


def played(program, seed, generated: bool):
    previous = os.environ.get("CRISIS_INTERPRET")
    os.environ["CRISIS_INTERPRET"] = "0" if generated else "1"
    try:
        bots = [RandomBot(seed, 0).pick, RandomBot(seed, 1).pick]
        decisions = []

        def choose(decision):
            decisions.append((decision.player, decision.kind, [a.text for a in decision.actions]))
            return decision.actions[bots[decision.player](len(decision.actions))]
        position, _ = play_game(program, seed, choose, frozenset({"event_discard"}) if seed % 2 else frozenset())
        return decisions, list(position.values), [list(p) for p in position.piles]
    finally:
        if previous is None:
            del os.environ["CRISIS_INTERPRET"]
        else:
            os.environ["CRISIS_INTERPRET"] = previous


@pytest.mark.parametrize("seed", [1, 2, 3, 17, 99, 1234, 65537])
def test_generated_rules_play_the_same_games_as_the_operations(content, seed):
    assert played(content.program, seed, True) == played(content.program, seed, False)


def test_no_text_of_the_content_reaches_the_generated_source(content):
    native = generate(content.program)
    source = native.source
    for card_id in content.program.cards[0].ids + content.program.cards[1].ids:
        assert card_id not in source
    for name in content.program.schema.map.places + content.program.schema.sides:
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
