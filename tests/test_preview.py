"""Consequences shown before a token step is taken: worked out by the engine on a copy of the
state, they must be exactly what taking the step then does."""

import random

from hypothesis import given, strategies as st

from crisis.interpreter.game import Game
from crisis.interpreter.preview import PLAY_KINDS, STEP_KINDS, blocked_spaces, play_preview, preview
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


# ------------------------------------------------------------------ a card's event


def outcome_of_play(game, action, rng: random.Random):
    """Play ``action`` and on (every answer at random) until the player's card play has ended:
    (tokens taken off each track, each side's VP change, the zones entered), as the preview has them."""
    before, player = game.state.copy(), game.decision.player
    plays = before.plays[player]
    game.apply(action)
    while not game.over and game.state.plays[player] == plays:
        decision = game.decision
        game.apply(decision.actions[rng.randrange(len(decision.actions))])
    st = game.state
    entered = {(side, zone) for side in (0, 1) for zone in range(len(st.breach_order))
               if side in st.breach_order[zone] and side not in before.breach_order[zone]}
    return ([before.track[s] - st.track[s] for s in (0, 1)], [st.vp[s] - before.vp[s] for s in (0, 1)], entered)


def check_event_previews(seed):
    """Random play; before each card event, its preview; then the play, answered at random, must
    be one the preview allowed for (when it says it looked at every way).  (previews checked, zones)"""
    game = Game(CONTENT, seed)
    rng = random.Random(seed)
    checked = zones = 0
    while not game.over:
        decision = game.decision
        events = [a for a in decision.actions if a.kind in PLAY_KINDS]
        if decision.kind != "play_card" or not events or rng.random() < 0.3:
            game.apply(decision.actions[rng.randrange(len(decision.actions))])
            continue
        action = events[rng.randrange(len(events))]
        found = play_preview(game, decision, action)
        taken, vp, entered = outcome_of_play(game, action, rng)
        if found is None or not found.sure:
            continue
        for side in (0, 1):
            assert found.taken[side][0] <= taken[side] <= found.taken[side][1], (action.text, found, taken)
            assert found.vp[side][0] <= vp[side] <= found.vp[side][1], (action.text, found, vp)
        every = {(side, zone) for side, zone, _, all_ways in found.entered if all_ways}
        any_way = {(side, zone) for side, zone, _, _ in found.entered}
        assert every <= entered <= any_way, (action.text, found, entered)
        checked += 1
        zones += len(entered)
    return checked, zones


@given(st.integers(0, 10_000))
def test_an_event_preview_allows_for_what_the_play_then_does(seed):
    check_event_previews(seed)


def test_event_previews_are_checked_and_do_foresee_zones_and_vp():
    checked, zones = map(sum, zip(*(check_event_previews(seed) for seed in range(12))))
    assert checked > 20 and zones > 0


def test_an_event_preview_reveals_nothing_of_the_deck_or_the_opponents_hand():
    """The preview plays the event on a copy where what the player cannot see is dealt again: the
    same preview whatever the opponent holds and whatever the deck's order."""
    game = Game(CONTENT, 7)
    while not (game.decision.kind == "play_card" and any(a.kind == "event" for a in game.decision.actions)):
        game.apply(game.decision.actions[0])
    decision = game.decision
    me, st_ = decision.player, game.state
    found = {a.text: play_preview(game, decision, a) for a in decision.actions if a.kind == "event"}
    pool = st_.hands[1 - me] + st_.strategy_deck
    random.Random(1).shuffle(pool)
    size = len(st_.hands[1 - me])
    st_.hands[1 - me][:], st_.strategy_deck[:] = pool[:size], pool[size:]
    game.line = None  # (the copy it starts from is taken again)
    assert {a.text: play_preview(game, decision, a) for a in decision.actions if a.kind == "event"} == found


def _load():
    from crisis.content.loader import load_content
    return load_content()


CONTENT = _load()
