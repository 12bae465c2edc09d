"""A game for looking ahead: a position and the machine that runs it, nothing else.

No log, no history, no checks that an action is legal (the actions it is given come from its
own decisions).  Where play stands is part of the position, so a fork is a copy of the
position: nothing is replayed.  In a game where the content's automa plays a side, its
decisions are answered in place, as in play.
"""

from __future__ import annotations

import random
from typing import Optional

from crisis.interpreter.actions import Action, Decision
from crisis.interpreter.engine.machine import Machine


class Sim:
    __slots__ = ("program", "position", "machine", "decision", "automa", "options")

    def __init__(self, program, position, automa=None, options: frozenset = frozenset(),
                 decision: Optional[Decision] = None, started: bool = True):
        self.program, self.position, self.automa, self.options = program, position, automa, options
        self.machine = Machine(program, position, None, automa, options=options)
        if started:
            self.decision = decision
        else:
            self.decision = self._drive(self.machine.advance())

    @classmethod
    def of(cls, game, position=None) -> "Sim":
        """A sim at ``game``'s decision (on ``position``, a copy of the game's, if given)."""
        position = position if position is not None else game.position.copy()
        return cls(game.program, position, game.automa, game.options.flags, started=False)

    def _drive(self, decision: Optional[Decision]) -> Optional[Decision]:
        if self.automa is None:
            return decision
        from crisis.interpreter.engine.automa import drive
        return drive(self.machine, self.automa, decision)

    @property
    def board(self):
        return self.machine.board

    def apply(self, action: Action) -> None:
        self.decision = self._drive(self.machine.answer(action))

    def fork(self, rng: Optional[random.Random] = None) -> "Sim":
        """An independent copy at the same decision (``rng``: its generator, else a copy).  The
        copy's machine stands where this one does, waiting for an answer to the same decision,
        so the decision is not worked out again (a fork is mostly made to take one of its actions)."""
        return Sim(self.program, self.position.copy(rng), self.automa, self.options, decision=self.decision)
