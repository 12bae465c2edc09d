"""What an action would change, worked out before a player commits to it.

A token step is taken on a copy of the position by the engine's own ``Board``,
and the two positions are compared: who controls each place and each group of
places, and which zones of a track the step enters (a token taken from the
track).  Nothing past the step itself is run, so a preview never reveals a
card, a shuffle or anything else the player may not know yet.

A card played for its rule is carried out on a copy of the game in which every
card the player cannot see is dealt again (``players.sample.deal_again``), over
every way the player could answer its questions, to the end of the player's
turn (the zones it entered give their effects then).
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import attrs

from .actions import Action, Decision
from .engine.board import Board
from .engine.layout import NOBODY
from .engine.sequence import AlternateOp, WinOp

STEP_KINDS = ("place", "remove", "move")
PLAY_DECISION = "play_card"  # the engine's decision of a card to play (sequence.PlayOp)


@attrs.frozen
class Preview:
    # (place, controller before, controller after); NOBODY when no side controls it
    spaces: Tuple[Tuple[int, int, int], ...] = ()
    # (group, controller before, controller after)
    groups: Tuple[Tuple[int, int, int], ...] = ()
    # (side, track, zone, first to enter it): zones the step enters, settled when the play ends
    entered: Tuple[Tuple[int, int, int, bool], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.spaces or self.groups or self.entered)


def _controller(board: Board, place: int) -> int:
    return next((side for side in range(board.sides) if board.controls(side, place)), NOBODY)


def _group_controller(board: Board, group: int) -> int:
    return next((side for side in range(board.sides) if board.controls_group(side, group)), NOBODY)


def _zones(program, values, slot: int) -> List[Tuple[int, int, int]]:
    """(side, track, zone) of every zone whose flag at ``slot`` (layout.entered or .pending) is set,
    among the zones whose entering does something (the game's rules say what)."""
    layout, schema = program.layout, program.schema
    return [(side, t, z) for side in range(len(schema.sides)) for t, track in enumerate(schema.tracks)
            for z in range(len(track.zones))
            if program.entering[t][z] is not None and values[slot + layout.zone_slot(side, t, z)]]


def _first_to_enter(program, values, track: int, zone: int) -> bool:
    layout = program.layout
    base = layout.entry_order + (layout.zone_base[track] + zone) * len(program.schema.sides)
    return all(values[base + k] == NOBODY for k in range(len(program.schema.sides)))


def preview(game, decision: Decision, action: Action) -> Optional[Preview]:
    """The consequences of one token step, or None for other kinds of action."""
    if action.kind not in STEP_KINDS or decision is None:
        return None
    program = game.program
    owner = action.side if action.side >= 0 else decision.owner
    if owner < 0:
        owner = decision.player
    before = Board(program, game.position)
    after = Board(program, game.position.copy())
    after.take(owner, action.a)
    after.put(owner, action.b)
    spaces = []
    for place in range(len(program.schema.map.places)):
        was, now = _controller(before, place), _controller(after, place)
        if was != now:
            spaces.append((place, was, now))
    groups = []
    for group in range(len(program.group_places)):
        was, now = _group_controller(before, group), _group_controller(after, group)
        if was != now:
            groups.append((group, was, now))
    layout = program.layout
    pending = set(_zones(program, game.position.values, layout.pending))
    entered = tuple((side, t, z, _first_to_enter(program, game.position.values, t, z))
                    for side, t, z in _zones(program, after.values, layout.pending) if (side, t, z) not in pending)
    return Preview(tuple(spaces), tuple(groups), entered)


def blocked_spaces(game, decision: Decision) -> List[Tuple[int, int]]:
    """(place, marker) pairs where a marker forbids what this decision does: placing tokens for
    a place decision, taking them for remove, either for move."""
    if decision is None or decision.kind not in STEP_KINDS:
        return []
    program = game.program
    values, base = game.position.values, program.layout.marker
    out = []
    for m, marker in enumerate(program.schema.markers):
        place = values[base + m]
        if place == NOBODY:
            continue
        placing = decision.kind in ("place", "move") and marker.blocks_placement
        taking = decision.kind in ("remove", "move") and marker.blocks_removal
        if placing or taking:
            out.append((place, m))
    return out


# ------------------------------------------------------------------ a card's play

PLAY_NODES = 400  # decisions looked at, at most: past it, what was seen is said as possible
_SAMPLE_SEED = 0  # the deal of what the player cannot see: fixed, so a preview is the same each time


def rule_uses(program) -> Tuple[str, ...]:
    """The ways to play a card that carry out the card's own rule (an event): their names."""
    return tuple(use.name for use in program.uses if use.needs_field >= 0)


@attrs.frozen
class PlayPreview:
    """What playing a card's rule would do, over the ways the player could answer its questions:
    for each side, the fewest and the most tokens taken off its tracks and the score won (negative:
    lost), and the zones entered (side, track, zone, first to enter it, in every way of playing it
    or in some).  ``sure``: every way was looked at and none depends on chance, hidden cards or
    the opponent."""

    taken: Tuple[Tuple[int, int], ...] = ()  # per side: (fewest, most)
    score: Tuple[Tuple[int, int], ...] = ()  # per side: (lowest change, highest change)
    entered: Tuple[Tuple[int, int, int, bool, bool], ...] = ()  # (side, track, zone, first, in every way)
    sure: bool = True

    def __bool__(self) -> bool:
        return any(most for _, most in self.taken) or bool(self.entered) or any(lo or hi for lo, hi in self.score)


def score_counter(program) -> int:
    """The counter that decides who wins (the sequence's "the player with more ... wins"), or -1."""
    return next((op.counter for op in program.ops if isinstance(op, WinOp) and op.counter >= 0), -1)


def _on_tracks(program, values, side: int) -> int:
    layout = program.layout
    return sum(values[layout.track_of(side, t)] for t in range(len(program.schema.tracks)))


def _turn_base(program, position) -> int:
    """The depth of the frames of a player's turn: those above the innermost alternation under way
    (its pass: the turn and what follows it, the zones resolved), or 0 when players do not alternate."""
    for depth in range(len(position.stack) - 1, -1, -1):
        frame = position.stack[depth]
        if frame[0] >= 0 and isinstance(program.ops[frame[0]], AlternateOp):
            return depth + 1
    return 0


class _Line:
    """One way the play may go: a position and the machine that runs the player's turn on it, to
    its end (the frames of the turn: nothing after it is run)."""

    __slots__ = ("position", "machine", "decision", "automa")

    def __init__(self, game, position, base: int):
        from .engine.machine import Machine
        self.position, self.automa = position, game.automa
        self.machine = Machine(game.program, position, None, game.automa, base, game.options.flags)
        self.decision = None

    def answer(self, action) -> None:
        """Take ``action``; the automa (where the game plays a side) answers its own decisions."""
        machine, automa = self.machine, self.automa
        d = machine.answer(action)
        while d is not None and automa is not None and d.player == automa.side:
            d = machine.answer(automa.choose(machine.board, d, explain=False))
        self.decision = d

    def fork(self, game, base: int) -> "_Line":
        line = _Line(game, self.position.copy(), base)
        line.decision = self.decision
        return line


def play_preview(game, decision: Decision, action: Action, nodes: int = PLAY_NODES) -> Optional[PlayPreview]:
    """The consequences of playing a card for its rule (an event), worked out before it is played.

    The play is carried out on a copy of the game in which every card the player cannot see is
    dealt again at random, so nothing hidden shows through, and every answer the player could
    give to the rule's questions is tried (up to ``nodes`` decisions); the opponent's answers,
    where the rule asks for them, are imagined as the first one.  The play is followed to the end
    of the player's turn, when the zones entered give their effects.  None for an action that
    plays no card's rule."""
    import random

    from .players.sample import deal_again

    if decision is None or decision.kind != PLAY_DECISION or action.kind not in rule_uses(game.program):
        return None
    program = game.program
    me = decision.player
    if not any(a.text == action.text for a in decision.actions):
        return None
    base = _turn_base(program, game.position)
    start = _Line(game, deal_again(program, game.position, me, random.Random(_SAMPLE_SEED)), base)
    start.decision = decision
    chosen = action
    layout = program.layout
    before = list(game.position.values)
    sides = range(len(program.schema.sides))
    score = score_counter(program)
    reveals = before[layout.reveals] + 1  # (the card itself is shown)
    entered_before = set(_zones(program, before, layout.entered))
    leaves: List[tuple] = []
    sure = [True]
    count = [0]

    def points(values, side: int) -> int:
        return values[layout.counter[score] + side] if score >= 0 else 0

    def first_in(values, t, z, side) -> bool:
        base_ = layout.entry_order + (layout.zone_base[t] + z) * len(program.schema.sides)
        return values[base_] == side

    def leaf(line) -> None:
        values = line.position.values
        entered = set()
        for side, t, z in _zones(program, values, layout.entered):
            if (side, t, z) not in entered_before:
                entered.add((side, t, z, first_in(values, t, z, side)))
        for side, t, z in _zones(program, values, layout.pending):
            entered.add((side, t, z, _first_to_enter(program, values, t, z)))
        leaves.append((tuple(_on_tracks(program, before, s) - _on_tracks(program, values, s) for s in sides),
                       tuple(points(values, s) - points(before, s) for s in sides), entered))

    def walk(line) -> None:
        count[0] += 1
        if line.position.values[layout.reveals] > reveals:  # chance or a hidden card: one outcome of several
            sure[0] = False
        while True:
            d = line.decision
            if d is None or d.kind == PLAY_DECISION:  # the turn is over (or, without turns, the next play)
                leaf(line)
                return
            if d.player == me and len(d.actions) > 1:
                break
            if d.player != me and len(d.actions) > 1 and len(line.position.piles[played]) <= playing[0]:
                sure[0] = False  # the opponent answers a question of the card's rule
            line.answer(d.actions[0])
            if line.position.values[layout.reveals] > reveals:
                sure[0] = False
        if count[0] > nodes:
            sure[0] = False
            return
        options = d.actions
        for index, option in enumerate(options):
            if count[0] > nodes:
                sure[0] = False
                return
            branch = line.fork(game, base) if index < len(options) - 1 else line
            branch.answer(option)
            walk(branch)

    played = program.played_pile_index  # the card goes there once its rule is carried out
    playing = [len(game.position.piles[played]) + (1 if chosen.b >= 0 else 0)]  # (a card paid goes there first)
    start.answer(chosen)
    walk(start)
    if not leaves:
        return None
    entered_all = set.intersection(*(entered for _, _, entered in leaves))
    entered_any = set.union(*(entered for _, _, entered in leaves))
    taken = tuple((min(l[0][s] for l in leaves), max(l[0][s] for l in leaves)) for s in sides)
    scores = tuple((min(l[1][s] for l in leaves), max(l[1][s] for l in leaves)) for s in sides)
    entered = tuple(sorted((side, t, z, first, (side, t, z, first) in entered_all and sure[0])
                           for side, t, z, first in entered_any))
    return PlayPreview(taken, scores, entered, sure[0])
