"""A game in progress on the general engine: the position, the pending decision, the actions so far."""

from __future__ import annotations

from typing import List, Optional

from crisis.interpreter.actions import Action, Decision

from .machine import Machine
from .ops import Ctx


class EngineGame:
    def __init__(self, program, seed: int = 0, options: frozenset = frozenset(), position=None,
                 log: bool = True, solo=None):
        self.program = program
        self.seed = seed
        self.log: Optional[list] = [] if log else None
        fresh = position is None
        self.position = position if position is not None else program.initial_position(seed)
        self.machine = Machine(program, self.position, self.log, solo, options=options)
        self.history: List[str] = []
        if fresh:
            self.decision: Optional[Decision] = self.machine.start(program.main, Ctx(0))
        else:
            self.decision = self.machine.advance()

    @property
    def over(self) -> bool:
        return self.decision is None

    def apply(self, action: Action) -> None:
        self.history.append(action.text)
        self.decision = self.machine.answer(action)
