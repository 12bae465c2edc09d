"""A game in progress on the general engine: the position, the pending decision, the actions so far."""

from __future__ import annotations

from typing import List, Optional

from crisis.interpreter.actions import Action, Decision

from .machine import Machine
from .ops import Ctx


class EngineGame:
    def __init__(self, program, seed: int = 0, options: frozenset = frozenset(), position=None,
                 log: bool = True, solo: Optional[str] = None, difficulty: Optional[str] = None, play: bool = False):
        """``position``: a position to go on from (a saved one, a scenario's); with ``play``, a set-up
        position whose sequence of play is yet to start."""
        self.program = program
        self.seed = seed
        self.log: Optional[list] = [] if log else None
        fresh = position is None
        self.position = position if position is not None else program.initial_position(seed)
        self.automa = None
        if solo is not None:
            from .automa import Automa
            rules = program.automa_rules
            self.automa = Automa(rules, program.schema.sides.index(solo), program)
            options = options | frozenset(k for k, v in rules.options.items() if v)
            level = difficulty or rules.default_difficulty
            if fresh:
                for counter, value in rules.difficulty.get(level, ()):
                    self.position.values[program.layout.counter[counter] + self.automa.side] = value
        self.machine = Machine(program, self.position, self.log, self.automa, options=options)
        self.history: List[str] = []
        if fresh:
            decision = self.machine.start(program.main, Ctx(0))
        elif play:
            decision = self.machine.start(program.play, Ctx(0))
        else:
            decision = self.machine.advance()
        self.decision: Optional[Decision] = self._drive(decision)

    def _drive(self, decision):
        if self.automa is None:
            return decision
        from .automa import drive
        return drive(self.machine, self.automa, decision)

    @property
    def over(self) -> bool:
        return self.decision is None

    def apply(self, action: Action) -> None:
        self.history.append(action.text)
        self.decision = self._drive(self.machine.answer(action))


def play_game(program, seed: int, choose, options: frozenset = frozenset(), solo: Optional[str] = None,
              difficulty: Optional[str] = None, log: bool = False):
    """A whole game in the direct form (batch play, bots): ``choose(decision)`` answers every
    decision of a person's side; the automa answers its own.  The final position (and log)."""
    from .board import Board
    from .ops import Won
    position = program.initial_position(seed)
    automa = None
    if solo is not None:
        from .automa import Automa
        rules = program.automa_rules
        automa = Automa(rules, program.schema.sides.index(solo), program)
        options = options | frozenset(k for k, v in rules.options.items() if v)
        for counter, value in rules.difficulty.get(difficulty or rules.default_difficulty, ()):
            position.values[program.layout.counter[counter] + automa.side] = value
    board = Board(program, position, [] if log else None, automa, options)
    if automa is not None:
        person = choose

        def choose(decision):
            if decision.player == automa.side:
                return automa.choose(board, decision)
            return person(decision)
    try:
        program.main.play(board, Ctx(0), choose)
    except Won:
        pass
    return position, board.log
