"""Consequences shown before a token step is taken: worked out by the engine on a copy of the
position, they must be exactly what taking the step then does."""

import random

from hypothesis import given, strategies as st

from crisis.interpreter.engine.board import Board
from crisis.interpreter.engine.game import Game
from crisis.interpreter.engine.layout import NOBODY
from crisis.interpreter.preview import STEP_KINDS, blocked_spaces, play_preview, preview, rule_uses


def controllers(game):
    board = Board(game.program, game.position)
    places = [next((s for s in (0, 1) if board.controls(s, x)), NOBODY) for x in range(len(game.program.schema.map.places))]
    groups = [next((s for s in (0, 1) if board.controls_group(s, g)), NOBODY)
              for g in range(len(game.program.group_places))]
    return places, groups


def zone_flags(game, slot: str):
    """(side, zone) of the crisis track's zones whose flag is set (``entered`` or ``pending``), for
    the zones whose entry does something."""
    program, values = game.program, game.position.values
    layout = program.layout
    base = getattr(layout, slot)
    zones = program.schema.tracks[0].zones
    return {(side, z) for side in (0, 1) for z in range(len(zones))
            if program.entering[0][z] is not None and values[base + layout.zone_slot(side, 0, z)]}


@given(st.integers(0, 10_000))
def test_a_preview_is_what_the_step_then_does(seed):
    assert check_game(seed)[0] > 0


def test_previews_do_foresee_breaches():
    assert sum(check_game(seed)[1] for seed in range(10)) > 0


def where(game):
    """The step of the sequence of play and the round the game stands in."""
    ops = game.program.ops
    steps = [ops[f[0]].name for f in game.position.stack if f[0] >= 0 and hasattr(ops[f[0]], "name")]
    return tuple(steps), game.view.counter("round")


def check_game(seed):
    """Random play; each token step's preview against what the step did.  (steps compared, breaches)"""
    game = Game.of(CONTENT, seed, log=False)  # (a fixture cannot be combined with given: loaded once below)
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
        before_spaces, before_groups = controllers(game)
        entered = zone_flags(game, "entered") | zone_flags(game, "pending")
        at, player = where(game), decision.player
        game.apply(action)
        nxt = game.decision
        if nxt is None or nxt.player != player or where(game) != at or nxt.kind != decision.kind:
            continue  # the effect ended and more happened than the step: not comparable
        after_spaces, after_groups = controllers(game)
        assert list(found.spaces) == [(s, before_spaces[s], after_spaces[s]) for s in range(len(after_spaces))
                                      if before_spaces[s] != after_spaces[s]]
        assert list(found.groups) == [(g, before_groups[g], after_groups[g]) for g in range(len(after_groups))
                                      if before_groups[g] != after_groups[g]]
        new = (zone_flags(game, "entered") | zone_flags(game, "pending")) - entered
        assert {(side, zone) for side, _, zone, _ in found.entered} == new
        breaches += len(found.entered)
        checked += 1
    return checked, breaches


def test_blocked_spaces_name_the_marker_and_its_space(content):
    game = Game.of(content, 1, log=False)
    program = game.program
    marker = next(m for m, info in enumerate(program.schema.markers) if info.blocks_placement)
    while game.decision.kind != "place":
        game.apply(game.decision.actions[0])
    game.position.values[program.layout.marker + marker] = 3
    assert (3, marker) in blocked_spaces(game, game.decision)
    game.position.values[program.layout.marker + marker] = NOBODY
    assert blocked_spaces(game, game.decision) == []


# ------------------------------------------------------------------ a card's event


def track(game, side: int) -> int:
    return game.view.track("crisis track", side)


def outcome_of_play(game, action, rng: random.Random):
    """Play ``action`` and on (every answer at random) until the player's turn has ended (their count
    of cards played goes up): (tokens taken off each track, each side's VP change, the zones entered),
    as the preview has them; None when the game went on past the turns before its next decision (the
    round's scoring, say): what the turn did is not to be told from what came after."""
    player = game.decision.player
    plays = game.view.counter("plays", player)
    tracks, vp = [track(game, s) for s in (0, 1)], [game.view.counter("VP", s) for s in (0, 1)]
    entered = zone_flags(game, "entered")
    start = len(game.log)
    game.apply(action)
    while not game.over and game.view.counter("plays", player) == plays:
        decision = game.decision
        game.apply(decision.actions[rng.randrange(len(decision.actions))])
    if game.over or any(e.key == "log.step" and e.params["step"] != "turn" for e in game.log[start:]):
        return None
    return ([tracks[s] - track(game, s) for s in (0, 1)], [game.view.counter("VP", s) - vp[s] for s in (0, 1)],
            zone_flags(game, "entered") - entered)


def check_event_previews(seed):
    """Random play; before each card event, its preview; then the play, answered at random, must
    be one the preview allowed for (when it says it looked at every way).  (previews checked, zones)"""
    game = Game.of(CONTENT, seed)
    rng = random.Random(seed)
    checked = zones = 0
    uses = rule_uses(game.program)
    while not game.over:
        decision = game.decision
        events = [a for a in decision.actions if a.kind in uses]
        if decision.kind != "play_card" or not events or rng.random() < 0.3:
            game.apply(decision.actions[rng.randrange(len(decision.actions))])
            continue
        action = events[rng.randrange(len(events))]
        found = play_preview(game, decision, action)
        outcome = outcome_of_play(game, action, rng)
        if found is None or not found.sure or outcome is None:
            continue
        taken, vp, entered = outcome
        for side in (0, 1):
            assert found.taken[side][0] <= taken[side] <= found.taken[side][1], (action.text, found, taken)
            assert found.score[side][0] <= vp[side] <= found.score[side][1], (action.text, found, vp)
        every = {(side, zone) for side, _, zone, _, all_ways in found.entered if all_ways}
        any_way = {(side, zone) for side, _, zone, _, _ in found.entered}
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
    game = Game.of(CONTENT, 7)
    uses = rule_uses(game.program)
    while not (game.decision.kind == "play_card" and any(a.kind in uses for a in game.decision.actions)):
        game.apply(game.decision.actions[0])
    decision = game.decision
    me = decision.player
    found = {a.text: play_preview(game, decision, a) for a in decision.actions if a.kind in uses}
    program, piles = game.program, game.position.piles
    hand = program.layout.pile(program.pile_number["hand"], 1 - me)
    deck = program.layout.pile(program.pile_number["strategy deck"])
    pool = piles[hand] + piles[deck]
    random.Random(1).shuffle(pool)
    size = len(piles[hand])
    piles[hand][:], piles[deck][:] = pool[:size], pool[size:]
    assert {a.text: play_preview(game, decision, a) for a in decision.actions if a.kind in uses} == found


def test_an_event_preview_in_the_solo_game_ends_with_the_players_turn(content):
    """The Solo Opponent's turn after the player's is not part of what the player's event does: the
    tokens its own turn takes off its track are not counted (seed 1: it places from its track)."""
    from crisis.interpreter.engine.game import Options
    game = Game.of(content, 1, Options(frozenset({"event_discard"}), solo="Unionist"))
    uses = rule_uses(game.program)
    checked = 0
    rng = random.Random(1)
    while not game.over and checked < 12:
        decision = game.decision
        events = [a for a in decision.actions if a.kind in uses] if decision.kind == "play_card" else []
        if events:
            action = events[0]
            found = play_preview(game, decision, action)
            if found is not None and found.sure:
                # the opponent's track (its turn comes after the player's) is not counted
                assert found.taken[game.automa.side] == (0, 0), (action.text, found)
                checked += 1
        game.apply(decision.actions[rng.randrange(len(decision.actions))])
    assert checked


def _load():
    from crisis.content.loader import load_content
    return load_content()


CONTENT = _load()
