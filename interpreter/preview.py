"""What a token step would change, worked out before a player commits to it.

The step is carried out by the engine's own ``Executor`` on a copy of the
state, and the two positions are compared: who controls each space and each
dimension, and which crisis zones the step breaches (a token taken from the
track).  Nothing past the step itself is run, so a preview never reveals a
card, a shuffle or anything else the player may not know yet.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import attrs

from .actions import Action, Decision
from .compile import Executor
from .state import NOBODY

STEP_KINDS = ("place", "remove", "move")


@attrs.frozen
class Preview:
    # (space, controller before, controller after); NOBODY when no side controls it
    spaces: Tuple[Tuple[int, int, int], ...] = ()
    # (dimension, controller before, controller after)
    dimensions: Tuple[Tuple[int, int, int], ...] = ()
    # (side, zone, first to breach it): zones the step breaches, settled when the play ends
    breaches: Tuple[Tuple[int, int, bool], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.spaces or self.dimensions or self.breaches)


def _controller(ex: Executor, space: int) -> int:
    return next((side for side in (0, 1) if ex.controls(side, space)), NOBODY)


def _dimension_controller(ex: Executor, dimension: int) -> int:
    return next((side for side in (0, 1) if ex.controls_dimension(side, dimension)), NOBODY)


def preview(game, decision: Decision, action: Action) -> Optional[Preview]:
    """The consequences of one token step, or None for other kinds of action."""
    if action.kind not in STEP_KINDS or decision is None:
        return None
    tables = game.tables
    owner = action.side if action.side >= 0 else decision.owner
    if owner < 0:
        owner = decision.player
    before = Executor(tables, game.state)
    after = Executor(tables, game.state.copy())
    after.take(owner, action.a)
    after.put(owner, action.b)
    spaces: List[Tuple[int, int, int]] = []
    for space in range(len(tables.spaces)):
        was, now = _controller(before, space), _controller(after, space)
        if was != now:
            spaces.append((space, was, now))
    dimensions = []
    for dimension in range(len(tables.dimensions)):
        was, now = _dimension_controller(before, dimension), _dimension_controller(after, dimension)
        if was != now:
            dimensions.append((dimension, was, now))
    breaches = []
    for side in (0, 1):
        for zone in after.state.pending_breaches[side]:
            if zone not in game.state.pending_breaches[side]:
                first = not game.state.breach_order[zone]
                breaches.append((side, zone, first))
    return Preview(tuple(spaces), tuple(dimensions), tuple(breaches))


def blocked_spaces(game, decision: Decision) -> List[Tuple[int, int]]:
    """(space, marker) pairs where a marker forbids what this decision does (rulebook: Peace
    Commissioner): placing tokens for a place decision, taking them for remove, either for move."""
    if decision is None or decision.kind not in STEP_KINDS:
        return []
    tables, where = game.tables, game.state.markers
    out = []
    for m, marker in enumerate(tables.markers):
        space = where[m]
        if space == NOBODY:
            continue
        placing = decision.kind in ("place", "move") and marker.blocks_placement
        taking = decision.kind in ("remove", "move") and marker.blocks_removal
        if placing or taking:
            out.append((space, m))
    return out


# ------------------------------------------------------------------ a card's play

PLAY_KINDS = ("event", "claim")  # plays whose effect is the card's own rule
PLAY_NODES = 400  # decisions looked at, at most: past it, what was seen is said as possible
_SAMPLE_SEED = 0  # the deal of what the player cannot see: fixed, so a preview is the same each time


@attrs.frozen
class PlayPreview:
    """What playing a card's rule would do, over the ways the player could answer its questions:
    for each side, the fewest and the most tokens taken off its track and VP won (negative: lost),
    and the zones entered (side, zone, first to enter it, in every way of playing it or in some).
    ``sure``: every way was looked at and none depends on chance, hidden cards or the opponent."""

    taken: Tuple[Tuple[int, int], ...] = ()  # per side: (fewest, most)
    vp: Tuple[Tuple[int, int], ...] = ()  # per side: (lowest change, highest change)
    entered: Tuple[Tuple[int, int, bool, bool], ...] = ()  # (side, zone, first, in every way)
    sure: bool = True

    def __bool__(self) -> bool:
        return any(most for _, most in self.taken) or bool(self.entered) or any(lo or hi for lo, hi in self.vp)


def play_preview(game, decision: Decision, action: Action, nodes: int = PLAY_NODES) -> Optional[PlayPreview]:
    """The consequences of playing a card for its rule (an event), worked out before it is played.

    The play is carried out on a copy of the game in which every card the player cannot see is
    dealt again at random (``lookahead.sample``), so nothing hidden shows through, and every
    answer the player could give to the rule's questions is tried (up to ``nodes`` decisions);
    the opponent's answers, where the rule asks for them, are imagined as the first one.  The
    play is followed to its end, when the zones entered give their effects.  None for an action
    that plays no card's rule, or a game that cannot be copied."""
    import random

    from .lookahead import RESUMABLE, sample

    if decision is None or action.kind not in PLAY_KINDS or decision.kind not in RESUMABLE:
        return None
    me = decision.player
    try:
        start = sample(game, me, random.Random(_SAMPLE_SEED))
    except (RuntimeError, ValueError):
        return None
    chosen = next((a for a in start.decision.actions if a.text == action.text), None) if start.decision else None
    if chosen is None:
        return None
    before = game.state
    sides = range(len(before.track))
    plays, reveals = before.plays[me], before.reveals + 1  # (the card itself is shown)
    leaves: List[tuple] = []
    sure = [True]
    count = [0]

    def leaf(sim) -> None:
        st = sim.state
        entered = set()
        for side in sides:
            for zone in range(len(st.breach_order)):
                if side in st.breach_order[zone] and side not in before.breach_order[zone]:
                    entered.add((side, zone, st.breach_order[zone][0] == side))
            for zone in st.pending_breaches[side]:
                entered.add((side, zone, not st.breach_order[zone]))
        leaves.append((tuple(before.track[s] - st.track[s] for s in sides),
                       tuple(st.vp[s] - before.vp[s] for s in sides), entered))

    def walk(sim) -> None:
        count[0] += 1
        if sim.state.reveals > reveals:  # chance or a hidden card: this copy's outcome is one of several
            sure[0] = False
        while True:
            d = sim.decision
            if d is None or d.kind in RESUMABLE or sim.state.plays[me] > plays:
                leaf(sim)
                return
            if d.player == me and len(d.actions) > 1:
                break
            if d.player != me and len(d.actions) > 1 and len(sim.state.played) == len(before.played):
                sure[0] = False  # the opponent answers a question of the card's rule
            sim.apply(d.actions[0])
            if sim.state.reveals > reveals:
                sure[0] = False
        if count[0] > nodes:
            sure[0] = False
            return
        options = d.actions
        for index, option in enumerate(options):
            if count[0] > nodes:
                sure[0] = False
                return
            branch = sim.fork() if index < len(options) - 1 else sim
            branch.apply(option)
            walk(branch)

    start.apply(chosen)
    walk(start)
    if not leaves:
        return None
    entered_all = set.intersection(*(entered for _, _, entered in leaves))
    entered_any = set.union(*(entered for _, _, entered in leaves))
    taken = tuple((min(l[0][s] for l in leaves), max(l[0][s] for l in leaves)) for s in sides)
    vp = tuple((min(l[1][s] for l in leaves), max(l[1][s] for l in leaves)) for s in sides)
    entered = tuple(sorted((side, zone, first, (side, zone, first) in entered_all and sure[0])
                           for side, zone, first in entered_any))
    return PlayPreview(taken, vp, entered, sure[0])
