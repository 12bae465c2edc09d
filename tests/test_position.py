"""The whole position is data: a game forks from where it stands, with nothing replayed.

A search bot forks a game at every decision it weighs; a scenario starts at a
decision; a save is a copy.  These hold only if where play stands (the step of
the sequence of play, the effect half carried out, the pending decision) lives
in the position, so a copy goes on exactly as the original would.
"""

import random

from hypothesis import given, strategies as st

from crisis.interpreter.engine.game import Game, IllegalAction, Options


def finish(game, rng):
    while game.decision is not None:
        game.apply(rng.choice(game.decision.actions))
    return list(game.position.values), [list(p) for p in game.position.piles], game.history


def played(content, seed, options, actions):
    game = Game.of(content, seed, options)
    rng = random.Random(seed)
    for _ in range(actions):
        if game.decision is None:
            break
        game.apply(rng.choice(game.decision.actions))
    return game


@given(seed=st.integers(0, 2**32), actions=st.integers(0, 150), solo=st.sampled_from([None, "Unionist", "Secessionist"]))
def test_a_fork_goes_on_as_the_game_itself_would(content, seed, actions, solo):
    options = Options(solo=solo)
    game = played(content, seed, options, actions)
    fork = game.fork()
    assert fork.decision == game.decision
    on_the_fork = finish(fork, random.Random(seed + 1))
    # the original, untouched by what was played on the fork, goes on the same way
    assert finish(game, random.Random(seed + 1)) == on_the_fork
    # and both are the game a fresh replay of the same actions gives
    again = Game.of(content, seed, options)
    for text in on_the_fork[2]:
        again.apply(text)
    assert (list(again.position.values), [list(p) for p in again.position.piles]) == on_the_fork[:2]


def test_playing_on_a_fork_leaves_the_original_where_it_stood(content):
    game = played(content, 11, Options(), 40)
    before = (list(game.position.values), [list(p) for p in game.position.piles], [list(f) for f in game.position.stack])
    fork = game.fork()
    finish(fork, random.Random(3))
    assert fork.over and not game.over
    assert (list(game.position.values), [list(p) for p in game.position.piles],
            [list(f) for f in game.position.stack]) == before


def test_an_action_given_as_text_is_checked_and_a_near_miss_suggested(content):
    game = Game.of(content, 4)
    legal = game.decision.actions[0].text
    try:
        game.apply(legal[:-1] + "q")
    except IllegalAction as error:
        message = error.diagnostics[0].message
        assert f"did you mean '{legal}'" in message
    else:
        raise AssertionError("a misspelt action was taken")
    assert game.history == []
