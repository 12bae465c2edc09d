"""The machine: runs a game program's operations against a position, to the next decision.

The stack of frames is part of the position, so the machine itself holds
nothing that a copy of the position lacks: a machine on a copied position goes
on from exactly where the original stood.
"""

from __future__ import annotations

from typing import Optional

import attrs

from crisis.interpreter.actions import DONE, Action, Decision

from .board import Board
from .ops import LOOK, Ctx, Op, Won, call, decided, spend
from .position import LazyCopy


class Machine:
    __slots__ = ("program", "board", "position", "stack", "ops", "base", "looking")

    def __init__(self, program, position, log: Optional[list] = None, solo=None, base: int = 0,
                 options: frozenset = frozenset()):
        self.program = program
        self.board = Board(program, position, log, solo, options)
        self.position = position
        self.stack = position.stack
        self.ops = program.ops
        self.base = base  # frames below this depth are not this machine's to run (a prediction's own)
        self.looking = False  # a look-ahead's: its answers are imagined, and the work goes on counting

    def start(self, op: Op, ctx: Ctx) -> Optional[Decision]:
        """Carry out ``op`` from here on: its decisions come back one by one from ``advance``."""
        call(self, op, ctx)
        return self.advance()

    def advance(self) -> Optional[Decision]:
        """Run to the next decision (returned), or until nothing is left to run (None)."""
        try:
            return self._advance()
        except Won:  # a sudden-death win: nothing more is run
            del self.stack[self.base:]
            return None

    def _advance(self) -> Optional[Decision]:
        stack, ops, base = self.stack, self.ops, self.base
        if base:
            while len(stack) > base:
                frame = stack[-1]
                decision = ops[frame[0]].step(self, frame)
                if decision is not None:
                    return decision
            return None
        while stack:
            frame = stack[-1]
            decision = ops[frame[0]].step(self, frame)
            if decision is not None:
                return decision
        return None

    def answer(self, action: Action) -> Optional[Decision]:
        """Take ``action`` at the decision under way; the next decision.  An operation may
        answer with its own next decision at once (a token step's next step): the fast path."""
        if not self.looking:
            decided(self.board)
        frame = self.stack[-1]
        try:
            decision = self.ops[frame[0]].answer(self, frame, action)
        except Won:
            del self.stack[self.base:]
            return None
        if decision is not None:
            return decision
        return self.advance()


@attrs.frozen
class Outcome:
    acted: bool  # anything changed: tokens anywhere, markers, counters
    pieces: bool  # pieces on the map changed: tokens in places, or markers
    shortfall: int  # steps (and other effects) that could not be taken


MAX_DECISIONS = 500  # rules are short; the bound keeps a faulty rule from running away


def predict(board: Board, op: Op, ctx: Ctx) -> Outcome:
    """What ``op`` would do, found by carrying it out on a copy of the position, with no log.

    Choices met on the way are made as they would be in play when the engine makes them
    (the solo opponent's resolver); a person's choices are imagined as the first legal
    one that is not "stop here"."""
    solo = board.solo
    rng = LazyCopy(board.position.rng)  # its dice, if it rolls any, are the game's next ones, on a copy
    position = (solo.public_copy(board.program, board.position, rng) if solo is not None
                else board.position.copy(rng))
    layout = board.layout
    before = list(position.values)
    stack = position.stack
    base = len(stack)
    machine = Machine(board.program, position, None, solo, base, board.options)
    machine.board.probe = True
    machine.board.meter = board.meter  # the look-ahead is work of the rule that asks for it
    machine.looking = True
    spend(board, op.node, LOOK)
    if ctx.effect >= 0:  # "that space" is remembered in the effect's frame: the copy keeps its own
        stack.append([-1, ctx, 1, board.position.stack[ctx.effect][3]])
        ctx = ctx._replace(effect=len(stack) - 1)
        machine.base = len(stack)
    decision = machine.start(op, ctx)
    for _ in range(MAX_DECISIONS):
        if decision is None:
            break
        if solo is not None and decision.player == solo.side:
            action = solo.choose(machine.board, decision, explain=False)
        else:
            action = next((a for a in decision.actions if a is not DONE), DONE)
        decision = machine.answer(action)
    values = position.values
    pieces = _pieces(layout, values) != _pieces(layout, before)
    acted = pieces or _off_map(layout, values) != _off_map(layout, before)
    return Outcome(acted, pieces, machine.board.shortfall)


def _pieces(layout, values):
    tokens = values[layout.tokens:layout.tokens + layout.sides * layout.places] if layout.tokens >= 0 else []
    return tokens, values[layout.marker:layout.last_side]


def _off_map(layout, values):
    """Holders, tracks, boxes and counters: what else a rule may change."""
    counters = [values[offset:offset + layout.sides] for offset in layout.counter]
    return values[layout.holder:layout.entered], counters
