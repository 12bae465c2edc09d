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
