"""What must hold after every action.

Used by scenario files (after each step), the property tests over random
games, ``crisis play --check`` / ``crisis resume --check``, which check
every action of a game as it is played and stop at the first one that breaks
a rule of the game (an engine or content bug, never a player's mistake), and
``crisis sim --check``, which does the same in every game of a batch.
"""

from __future__ import annotations

from typing import List, Sequence

from .state import NOBODY, GameState


def check_state(tables, st: GameState) -> List[str]:
    problems = []
    board = tables.board
    for side, name in enumerate(tables.sides):
        total = sum(st.tokens[side]) + st.pool[side] + st.track[side] + sum(st.boxes[side])
        if total != board.tokens_per_side:
            problems.append(f"{name} has {total} tokens in all, not {board.tokens_per_side}")
        for space, count in enumerate(st.tokens[side]):
            if not 0 <= count <= board.max_tokens_per_space:
                problems.append(f"{name} has {count} tokens in {tables.spaces[space]}")
        if min(st.pool[side], st.track[side], *st.boxes[side]) < 0:
            problems.append(f"{name} has a negative count of tokens off the map")
        if not 0 <= st.track[side] <= tables.track_size:
            problems.append(f"{name}'s crisis track holds {st.track[side]} tokens")
        if st.vp[side] < 0:
            problems.append(f"{name} has negative VP")
    return problems


def check_invariants(game) -> List[str]:
    return check_state(game.tables, game.state)


def check_transition(tables, before: GameState, after: GameState, vp_logged: Sequence[int]) -> List[str]:
    """Rules between two positions one action apart.

    ``vp_logged`` is the VP change per side that the log recorded for the
    action: VP may only change through a rule that says so (and is logged).
    """
    problems = check_state(tables, after)
    for marker_index, marker in enumerate(tables.markers):
        space = before.markers[marker_index]
        if space == NOBODY or after.markers[marker_index] != space:
            continue
        for side in (0, 1):
            changed = before.tokens[side][space] != after.tokens[side][space]
            if changed and (marker.blocks_placement or marker.blocks_removal):
                problems.append(f"{tables.sides[side]} tokens changed in {tables.spaces[space]} "
                                f"under the {marker.name}")
    for side in (0, 1):
        if after.vp[side] - before.vp[side] != vp_logged[side]:
            problems.append(f"{tables.sides[side]} VP went from {before.vp[side]} to {after.vp[side]} "
                            f"but the rules logged {vp_logged[side]:+d}")
    return problems


class InvariantBroken(Exception):
    """An action left the game in a position the rules forbid."""


def vp_logged(game, since: int) -> List[int]:
    """The VP change per side that the game's log recorded from entry ``since`` on."""
    change = [0, 0]
    for entry in game.log[since:]:
        if entry.key in ("log.vp_gain", "log.vp_loss"):
            side = game.tables.side_index[entry.params["side"]]
            change[side] += entry.params["n"] if entry.key == "log.vp_gain" else -entry.params["n"]
    return change


def apply_checked(game, action) -> List[str]:
    """Apply an action to a game; the invariants it broke (none, normally).

    With a log, the transition rules are checked too (VP change only as logged,
    nothing changes under a blocking marker); without one, the position alone.
    """
    before = game.state.copy()
    start = len(game.log) if game.log is not None else None
    game.apply(action)
    if start is None:
        return check_state(game.tables, game.state)
    return check_transition(game.tables, before, game.state, vp_logged(game, start))


def broken_message(game, problems: Sequence[str]) -> str:
    n = len(game.history)
    return f"after action {n} ('{game.history[-1]}'), the rules were broken: " + "; ".join(problems)
