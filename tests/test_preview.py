"""Consequences shown before a token step is taken: worked out by the engine on a copy of the
state, they must be exactly what taking the step then does."""

import random

from hypothesis import given, strategies as st

from crisis.interpreter.game import Game
from crisis.interpreter.preview import STEP_KINDS, blocked_spaces, preview
from crisis.interpreter.state import NOBODY


def controllers(game):
    ex = game.executor
    spaces = [next((s for s in (0, 1) if ex.controls(s, x)), NOBODY) for x in range(len(game.tables.spaces))]
    dims = [next((s for s in (0, 1) if ex.controls_dimension(s, d)), NOBODY) for d in range(len(game.tables.dimensions))]
    return spaces, dims


@given(st.integers(0, 10_000))
def test_a_preview_is_what_the_step_then_does(seed):
    assert check_game(seed)[0] > 0


def test_previews_do_foresee_breaches():
    assert sum(check_game(seed)[1] for seed in range(10)) > 0


def check_game(seed):
    """Random play; each token step's preview against what the step did.  (steps compared, breaches)"""
    game = Game(CONTENT, seed, log=False)  # (a fixture cannot be combined with given: loaded once below)  # (a fixture cannot be combined with given: loaded once below)
    rng = random.Random(seed)
    checked = breaches = 0
    while not game.over:
        decision = game.decision
        action = decision.actions[rng.randrange(len(decision.actions))]
        found = preview(game, decision, action)
        if action.kind not in STEP_KINDS:
            assert found is None
            game.apply(action)
            continue
        before_spaces, before_dims = controllers(game)
        breached = [list(b) for b in game.state.breached]
        state = game.state
        phase, round_, player = state.phase, state.round, decision.player
        game.apply(action)
        nxt = game.decision
        if nxt is None or nxt.player != player or state.phase != phase or state.round != round_ \
                or nxt.kind != decision.kind:
            continue  # the effect ended and more happened than the step: not comparable
        after_spaces, after_dims = controllers(game)
        assert list(found.spaces) == [(s, before_spaces[s], after_spaces[s]) for s in range(len(after_spaces))
                                      if before_spaces[s] != after_spaces[s]]
        assert list(found.dimensions) == [(d, before_dims[d], after_dims[d]) for d in range(len(after_dims))
                                          if before_dims[d] != after_dims[d]]
        zones = game.tables.zones
        new = {(side, zone) for side in (0, 1) for zone in range(len(zones))
               if game.state.breached[side][zone] and not breached[side][zone] and zones[zone].box}
        assert {(side, zone) for side, zone, _ in found.breaches} == new
        breaches += len(found.breaches)
        checked += 1
    return checked, breaches


def test_blocked_spaces_name_the_marker_and_its_space(content):
    game = Game(content, 1, log=False)
    marker = next(m for m, info in enumerate(game.tables.markers) if info.blocks_placement)
    while game.decision.kind != "place":
        game.apply(game.decision.actions[0])
    game.state.markers[marker] = 3
    assert (3, marker) in blocked_spaces(game, game.decision)
    game.state.markers[marker] = NOBODY
    assert blocked_spaces(game, game.decision) == []


def _load():
    from crisis.content.loader import load_content
    return load_content()


CONTENT = _load()
