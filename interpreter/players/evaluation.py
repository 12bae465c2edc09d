"""How good a position looks to one side, by the terms of the content's ``bots/evaluation.yaml``.

Each term is worked out for every side as "you" (a number, a condition counted as 1, the VP a
procedure would give now, or the token lead in each place); the judging side's value minus the
mean of the other sides', times the term's weight, summed (docs/bots.md).  A finished game is
worth ``win`` (or minus it) plus the margin in the game's first counter per side.  Nothing here
names a game: every term is the content's rule text, compiled by the engine's compiler.
"""

from __future__ import annotations

from typing import Callable, List, Optional, Sequence, Tuple

from crisis.ruleset import meaning as M

from crisis.interpreter.engine.board import Board
from crisis.interpreter.engine.layout import NOBODY
from crisis.interpreter.engine.ops import Stopped, Won
from crisis.interpreter.engine.sequence import StepOp


class Evaluator:
    """Judges positions of one game program by its content's evaluation."""

    def __init__(self, program, evaluation):
        self.program = program
        self.evaluation = evaluation
        self.win = evaluation.win
        schema, layout = program.schema, program.layout
        self.sides = len(schema.sides)
        per_side = [i for i, c in enumerate(schema.counters) if c.each_side]
        self.score_offset = layout.counter[per_side[0]] if per_side else -1
        self.contexts = program.side_contexts
        # (kind, difference, weight, during): kind "slow" for a projection, "quick" for its stand-in
        self.terms: List[Tuple[str, Callable, float, frozenset]] = []
        for term in evaluation.terms:
            if not term.weight:
                continue
            during = frozenset(term.during)
            if term.kind == "project":
                # judging token steps quickly: the stand-in, or nothing
                self.terms.append(("slow", self._term(term), term.weight, during))
                if term.quick is not None:
                    self.terms.append(("quick", self._term(term.quick), term.weight, during))
            else:
                self.terms.append(("", self._term(term), term.weight, during))
        self.step_names = {op.id: op.name for op in program.ops if isinstance(op, StepOp)}
        self.steps_named = frozenset().union(*(t[3] for t in self.terms)) if self.terms else frozenset()
        self._active = {}
        self._board = Board(program, program.initial_position(0))

    # ------------------------------------------------------------ compiling
    def _term(self, term) -> Callable:
        """(board, side) -> the term's worth to the side: its value less the other sides'."""
        found = None if term.judging_side_only else self._difference(term)
        if found is None:
            return self._mine_minus_others(self._compile(term), term.judging_side_only)
        return found

    def _mine_minus_others(self, function: Callable, mine_only: bool) -> Callable:
        """(board, side) -> the side's value, less the mean of the others' (unless ``mine_only``)."""
        if mine_only:
            return function
        if self.sides == 2:
            return lambda board, side: function(board, side) - function(board, 1 - side)
        sides = self.sides
        return lambda board, side: function(board, side) - sum(
            function(board, o) for o in range(sides) if o != side) / (sides - 1)

    def _difference(self, term) -> Optional[Callable]:
        """The side's value less the other's, worked out in one pass, for the shapes every
        judgement meets in a game of two (counters, holders, places and groups controlled, the
        lead); None for any other."""
        if self.sides != 2:
            return None
        program, layout = self.program, self.program.layout
        meaning = term.meaning
        if term.kind == "lead":
            return self._lead_difference(term.at_most)
        if term.kind != "number":
            return None
        if isinstance(meaning, M.CounterValue) and self.program.schema.counters[meaning.counter].each_side \
                and (meaning.side is None or meaning.side == M.ME):
            offset = layout.counter[meaning.counter]
            return lambda board, side: board.values[offset + side] - board.values[offset + 1 - side]
        if isinstance(meaning, M.Holder):
            code = program.compiler.holder(meaning).codes[0]
            found = program.count_offsets.get(code)
            if found is not None:
                base, stride = found
                return lambda board, side: (board.values[base + side * stride]
                                            - board.values[base + (1 - side) * stride])
            return None
        if not isinstance(meaning, M.Count) or layout.tokens < 0:
            return None
        tokens, n = layout.tokens, layout.places
        if meaning.kind == "groups" and meaning.who == M.ME:
            groups = program.group_places

            def groups_difference(board, side):
                values = board.values
                mine = values[tokens + side * n:tokens + side * n + n]
                theirs = values[tokens + (1 - side) * n:tokens + (1 - side) * n + n]
                total = 0
                for places in groups:
                    ahead = behind = True
                    for place in places:
                        a, b = mine[place], theirs[place]
                        if a <= b:
                            ahead = False
                            if not behind:
                                break
                        if b <= a:
                            behind = False
                            if not ahead:
                                break
                    if ahead:
                        total += 1
                    elif behind:
                        total -= 1
                return total
            return groups_difference
        what = meaning.what
        if meaning.kind == "places" and isinstance(what, M.Related) and what.who == M.ME and what.relation == 0:
            codes = getattr(program.compiler.place_set(what.places), "codes", None)
            if codes is None:
                return None

            def places_difference(board, side):
                values = board.values
                mine, theirs = tokens + side * n, tokens + (1 - side) * n
                total = 0
                for place in codes:
                    a, b = values[mine + place], values[theirs + place]
                    if a > b:
                        total += 1
                    elif b > a:
                        total -= 1
                return total
            return places_difference
        return None

    def _lead_difference(self, at_most: int) -> Callable:
        layout = self.program.layout
        tokens, n = layout.tokens, layout.places
        cap = at_most if at_most > 0 else 1 << 30

        def lead(board, side):
            values = board.values
            mine, theirs = tokens + side * n, tokens + (1 - side) * n
            total = 0
            for a, b in zip(values[mine:mine + n], values[theirs:theirs + n]):
                if a > b:
                    total += a - b if a - b < cap else cap
                elif b > a:
                    total -= b - a if b - a < cap else cap
            return total
        return lead

    def _compile(self, term) -> Optional[Callable]:
        """(board, side) -> the term's value for that side."""
        compiler, contexts = self.program.compiler, self.contexts
        if term.kind == "lead":
            return self._lead(term.at_most)
        if term.kind == "project":
            return self._projection(term.meaning)
        if term.kind == "condition":
            test = compiler.condition(term.meaning)
            return lambda board, side: 1 if test(board, contexts[side], NOBODY) else 0
        meaning = term.meaning
        if isinstance(meaning, M.Holder):
            code = compiler.holder(meaning).codes[0]
            return lambda board, side: board.count_at(side, code)
        number = compiler.number(meaning)
        return lambda board, side: number(board, contexts[side], NOBODY)

    def _lead(self, at_most: int) -> Callable:
        layout = self.program.layout
        places, sides = layout.places, self.sides
        cap = at_most if at_most > 0 else 1 << 30

        def lead(board, side):
            values, base = board.values, layout.tokens
            mine = base + side * places
            total = 0
            for place in range(places):
                best = max(values[base + other * places + place] for other in range(sides) if other != side)
                ahead = values[mine + place] - best
                if ahead > 0:
                    total += ahead if ahead < cap else cap
            return total
        return lead

    def _projection(self, name: str) -> Callable:
        """The VP a procedure would give the side if it were carried out now (a rule or labelled
        lines), worked out on a scratch copy of the position's numbers; a rule that would ask a
        player anything is taken its first way."""
        program = self.program
        index = program.procedure_names.index(name)
        rules = [program.procedures[index]] if program.procedures[index] is not None else \
            [rule for _, rule in program.procedure_lines[index]]
        offset = self.score_offset

        def first(decision):
            return decision.actions[0]

        def project(board, side):
            scratch = self._board
            scratch.look_at(board.position.copy(rng=board.position.rng))
            before = scratch.values[offset + side]
            for rule in rules:
                try:
                    rule.play(scratch, self.contexts[side], first)
                except (Stopped, Won):
                    pass
            return scratch.values[offset + side] - before
        return project

    # ------------------------------------------------------------ judging
    def steps_under_way(self, position) -> frozenset:
        """The steps of the sequence of play under way that some term counts during."""
        names, named = self.step_names, self.steps_named
        return frozenset(names[frame[0]] for frame in position.stack
                         if frame[0] in names and names[frame[0]] in named)

    def active(self, quick: bool, steps: frozenset) -> tuple:
        """The terms that count now, ((weight, difference), ...), worked out once per kind of moment."""
        key = (quick, steps)
        found = self._active.get(key)
        if found is None:
            found = self._active[key] = tuple((weight, difference) for kind, difference, weight, during in self.terms
                                              if (not during or during & steps)
                                              and not (kind and (kind == "slow") == quick))
        return found

    def value(self, board, side: int, quick: bool = False, steps: Optional[frozenset] = None) -> float:
        """The position's worth to ``side``, in VP (a won game: ``win`` plus the margin).
        ``steps``: the steps under way, when the caller knows them (judging many token steps)."""
        values = board.values
        winner = values[board.layout.winner]
        if winner != NOBODY:
            margin = self.margin(values, side)
            return (self.win if winner == side else -self.win) + margin
        if steps is None:
            steps = self.steps_under_way(board.position)
        total = 0.0
        for weight, difference in self.active(quick, steps):
            total += weight * difference(board, side)
        return total

    def margin(self, values: Sequence[int], side: int) -> float:
        if self.score_offset < 0:
            return 0.0
        others = [values[self.score_offset + o] for o in range(self.sides) if o != side]
        return values[self.score_offset + side] - sum(others) / len(others)
