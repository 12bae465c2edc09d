"""The general engine plays Fort Sumter exactly as the Fort Sumter engine does.

Fort Sumter is moving onto the general engine (docs/engine.md): its state is
declared in ``state.yaml``, its sequence of play in ``sequence.yaml`` and its
solo game in ``solo/overlay.yaml``.  Until the move is done, both engines run
side by side, and these tests hold them to the same games: the same decisions
with the same legal actions, in the same order, at every step of whole games
(two-player and solo).  The shipped scenarios run on the general engine alone
(tests/test_scenarios.py): the Fort Sumter engine's runner is gone.
"""


import pytest

from crisis.content.loader import load_definition
from crisis.content.loader import default_content_dir
from crisis.interpreter.controllers import RandomBot
from crisis.interpreter.engine.game import EngineGame
from crisis.interpreter.engine.program import GameProgram
from crisis.interpreter.game import Game, Options


@pytest.fixture(scope="module")
def program():
    return GameProgram(load_definition(default_content_dir()))


def final_position(program, game) -> dict:
    layout, values = program.layout, game.position.values
    sides = range(len(program.schema.sides))
    return {
        "tokens": [[values[layout.tokens_of(s) + p] for p in range(layout.places)] for s in sides],
        "vp": [values[layout.counter[program.counter_index["VP"]] + s] for s in sides],
        "winner": values[layout.winner],
        "discard": game.position.piles[layout.pile(program.pile_number["discard pile"])],
    }


def play_both(content, program, seed: int, options: Options) -> None:
    old = Game(content, seed, options, log=False)
    flags = frozenset({"event_discard"}) if options.event_discard else frozenset()
    new = EngineGame(program, seed, flags, log=False, solo=options.solo, difficulty=options.difficulty)
    bots = [RandomBot(seed, 0), RandomBot(seed, 1)]
    steps = 0
    while old.decision is not None:
        expected, got = old.decision, new.decision
        assert got is not None, f"step {steps}: the general engine's game ended early"
        texts = [a.text for a in expected.actions]
        assert (got.player, got.kind, [a.text for a in got.actions]) == (expected.player, expected.kind, texts), \
            f"step {steps} after {old.history[-3:]}"
        action = bots[expected.player].choose(old, expected)
        old.apply(action)
        new.apply(got.actions[texts.index(action.text)])
        steps += 1
    assert new.decision is None
    st = old.state
    assert final_position(program, new) == {"tokens": st.tokens, "vp": st.vp, "winner": st.result.winner,
                                            "discard": st.discard}


@pytest.mark.parametrize("seed", [1, 2, 3, 7, 42, 1000, 65537, 2**31 + 5])
@pytest.mark.parametrize("event_discard", [False, True])
def test_two_player_games_are_the_same_on_both_engines(content, program, seed, event_discard):
    play_both(content, program, seed, Options(event_discard=event_discard))


@pytest.mark.parametrize("seed", [1, 6, 12])
@pytest.mark.parametrize("side", ["Unionist", "Secessionist"])
def test_solo_games_are_the_same_on_both_engines(content, program, seed, side):
    play_both(content, program, seed, Options(solo=side, difficulty="hard"))
