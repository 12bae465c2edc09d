"""How good a position looks to one side, by the terms of the content's ``bots/evaluation.yaml``.

Each term is worked out for every side as "you" (a number, a condition counted as 1, the VP a
procedure would give now, or the token lead in each place); the judging side's value minus the
mean of the other sides', times the term's weight, summed (docs/bots.md).  A finished game is
worth ``win`` (or minus it) plus the margin in the game's first counter per side.  Nothing here
names a game: every term is the content's rule text, compiled by the engine's compiler.
"""

from __future__ import annotations

import operator
from typing import Callable, List, NamedTuple, Optional, Sequence

import attrs

from crisis.ruleset import meaning as M

from crisis.interpreter.engine.board import Board
from crisis.interpreter.engine.codegen_terms import Gain, ProjectionTerm, ValueTerm, WeightedSum, load_terms
from crisis.interpreter.engine.layout import NOBODY
from crisis.interpreter.engine.native import interpreting
from crisis.interpreter.engine.ops import BlockOp, CounterOp, IfOp, Stopped, Won
from crisis.interpreter.engine.sequence import StepOp


_STEPS = frozenset(("place", "remove", "move"))  # the kinds of decision that are token steps


class StepPlan(NamedTuple):
    """What judging token steps needs of the terms that count at a kind of moment, for one side
    (``Evaluator._step_plan``), made once."""
    control: tuple  # per place, the weight of holding it
    lead_terms: tuple  # (weight, the lead counted at most) of each lead term
    group_weight: float  # the weight of holding a group of the map (leading in all its places)
    any_place: bool  # whether holding or leading in a place counts at all
    known: tuple  # (weight, difference, None, whether a step off the map changes it): reads known
    unknown: tuple  # the terms whose reads are found on the position (``_reads``)
    worth_rows: Optional[tuple]  # per place, its worth by the lead (``_worth_rows``); None: summed
    bound: int  # the lead past which a place's worth no longer changes (with ``worth_rows``)


class _Term:
    """A term compiled: ``difference(board, side)`` is its worth to the side before its weight.
    ``local``: ("places", codes), ("groups", None) or ("lead", cap) for a sum over the map's
    places or groups in a game of two; ``reads``: the offsets it reads, where they are known;
    ``shape``: how the generated sum of the terms writes it (else it is called)."""

    __slots__ = ("kind", "difference", "weight", "during", "local", "reads", "shape")

    def __init__(self, kind: str, difference: Callable, weight: float, during: frozenset,
                 local: Optional[tuple] = None, reads: Optional[frozenset] = None, shape: Optional[tuple] = None):
        self.kind, self.difference, self.weight, self.during = kind, difference, weight, during
        self.local, self.reads, self.shape = local, reads, shape


class _Reading(list):
    """The position's numbers, noting which offsets are read (a term's reads, found once per
    decision when judging token steps): an offset, a slice; anything that goes through them
    all counts as reading everything."""

    __slots__ = ("read", "everything")

    def __init__(self, values):
        super().__init__(values)
        self.read = set()
        self.everything = False

    def __getitem__(self, key):
        if key.__class__ is int:
            self.read.add(key if key >= 0 else key + len(self))
        elif isinstance(key, slice):
            self.read.update(range(*key.indices(len(self))))
        else:
            self.everything = True
        return list.__getitem__(self, key)


def _reading_everything(method):
    def everything(self, *args, **kwargs):
        self.everything = True
        return method(self, *args, **kwargs)
    everything.__name__ = method.__name__
    return everything


for _name in ("__iter__", "__reversed__", "__contains__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__",
              "__ge__", "index", "count", "copy", "__add__", "__mul__", "__rmul__", "__reduce_ex__"):
    setattr(_Reading, _name, _reading_everything(getattr(list, _name)))
del _name


# what a rule may test or count that reads a score, or anything at all: the projection of such
# rules is worked out by carrying them out
_READS_ANYTHING = (M.CounterValue, M.CounterMore, M.IsFirstPlayer, M.Named, M.Term, M.Would, M.Change, M.CardWould)


def _reads_scores(node) -> bool:
    """Whether a rule's test or number may read a counter (or anything the bots cannot tell)."""
    return M.any_part(node, lambda part: True if isinstance(part, _READS_ANYTHING) else None)


def _getter(offsets: tuple) -> Callable:
    """values -> the tuple of the values at ``offsets``."""
    if len(offsets) > 1:
        return operator.itemgetter(*offsets)
    if offsets:
        only = offsets[0]
        return lambda values: (values[only],)
    return lambda values: ()


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
        # each term: kind "slow" for a projection, "quick" for its stand-in, else ""
        self.terms: List[_Term] = []
        self._generated = not interpreting()  # whether terms and sums are generated code (codegen_terms)
        to_write: list = []  # (term, what codegen_terms writes of it, judging side only): _generate
        for term in evaluation.terms:
            if not term.weight:
                continue
            during = frozenset(term.during)
            if term.kind == "project":
                # judging token steps quickly: the stand-in, or nothing
                self.terms.append(self._term(term, "slow", during, to_write))
                if term.quick is not None:
                    self.terms.append(self._term(term.quick, "quick", during, to_write))
            else:
                self.terms.append(self._term(term, "", during, to_write))
        self.step_names = {op.id: op.name for op in program.ops if isinstance(op, StepOp)}
        self.steps_named = frozenset().union(*(t.during for t in self.terms)) if self.terms else frozenset()
        self._active = {}
        self._sums = {}  # (quick, steps) -> the weighted sum of the terms that count then (``_sum``)
        self._board = Board(program, program.initial_position(0))
        self._memos = {}  # (term, side, options, automa) -> what ``_reads`` found last
        self._plans, self._plan_offsets = {}, {}  # (quick, steps, side) -> ``_step_plan``
        self._place_groups = [tuple(g for g, places in enumerate(program.group_places) if p in places)
                              for p in range(program.layout.places)]
        self._generate(to_write)

    # ------------------------------------------------------------ compiling
    def _term(self, term, kind: str, during: frozenset, to_write: list) -> "_Term":
        """The term as (board, side) -> its worth to the side: its value less the other sides'.
        A term that is the rules' own words is also noted for the generated form (``_generate``)."""
        found = None if term.judging_side_only else self._difference(term)
        if found is None:
            function, written = self._compile(term)
            compiled = _Term(kind, self._mine_minus_others(function, term.judging_side_only), term.weight, during)
            if written is not None:
                if term.judging_side_only:
                    written = attrs.evolve(written, difference=False)
                to_write.append((compiled, written, term.judging_side_only))
            return compiled
        difference, local, reads, shape = found
        return _Term(kind, difference, term.weight, during, local, reads, shape)

    def _generate(self, to_write: list) -> None:
        """The terms noted by ``_term``, written out as Python (codegen_terms.py) where they can
        be: the same numbers, worked out without calling a closure per part."""
        if not to_write or not self._generated:
            return
        functions = load_terms(self.program, [written for _, written, _ in to_write])
        for index, function in functions.items():
            term, written, mine_only = to_write[index]
            # a written difference is already the side's less the other's
            term.difference = self._mine_minus_others(function, mine_only or written.difference)

    def _mine_minus_others(self, function: Callable, mine_only: bool) -> Callable:
        """(board, side) -> the side's value, less the mean of the others' (unless ``mine_only``)."""
        if mine_only:
            return function
        if self.sides == 2:
            return lambda board, side: function(board, side) - function(board, 1 - side)
        sides = self.sides
        return lambda board, side: function(board, side) - sum(
            function(board, o) for o in range(sides) if o != side) / (sides - 1)

    def _difference(self, term):
        """The side's value less the other's, worked out in one pass, for the shapes every
        judgement meets in a game of two (counters, holders, places and groups controlled, the
        lead), with what it reads: ``(difference, local, reads, shape)``, where ``local`` names a
        sum over places or groups of the map (judging a token step works out only the places it
        changes), ``reads`` the offsets of the values it reads otherwise and ``shape`` what the
        generated sum of the terms writes for it (codegen_terms.WeightedSum); None for any other."""
        if self.sides != 2:
            return None
        program, layout = self.program, self.program.layout
        meaning = term.meaning
        if term.kind == "lead":
            if layout.tokens < 0:
                return None
            cap = term.at_most if term.at_most > 0 else 1 << 30
            return self._lead_difference(term.at_most), ("lead", cap), None, ("lead", cap)
        if term.kind != "number":
            return None
        if isinstance(meaning, M.CounterValue) and self.program.schema.counters[meaning.counter].each_side \
                and (meaning.side is None or meaning.side == M.ME):
            offset = layout.counter[meaning.counter]
            return ((lambda board, side: board.values[offset + side] - board.values[offset + 1 - side]),
                    None, frozenset((offset, offset + 1)), ("pair", offset, 1))
        if isinstance(meaning, M.Holder):
            code = program.compiler.holder(meaning).codes[0]
            found = program.count_offsets.get(code)
            if found is not None:
                base, stride = found
                return ((lambda board, side: (board.values[base + side * stride]
                                              - board.values[base + (1 - side) * stride])),
                        None, frozenset((base, base + stride)), ("pair", base, stride))
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
            return groups_difference, ("groups", None), None, ("groups",)
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
            return places_difference, ("places", frozenset(codes)), None, ("places", tuple(codes))
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

    def _compile(self, term) -> tuple:
        """(board, side) -> the term's value for that side; with what the generated form writes
        of it (codegen_terms.py), or None."""
        compiler, contexts = self.program.compiler, self.contexts
        difference = self.sides == 2
        if term.kind == "lead":
            return self._lead(term.at_most), None
        if term.kind == "project":
            return self._projection(term.meaning)
        if term.kind == "condition":
            test = compiler.condition(term.meaning)
            return ((lambda board, side: 1 if test(board, contexts[side], NOBODY) else 0),
                    ValueTerm("condition", term.meaning, difference))
        meaning = term.meaning
        if isinstance(meaning, M.Holder):
            code = compiler.holder(meaning).codes[0]
            return (lambda board, side: board.count_at(side, code)), None
        number = compiler.number(meaning)
        return (lambda board, side: number(board, contexts[side], NOBODY)), \
            ValueTerm("number", meaning, difference)

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

    def _projection(self, name: str) -> tuple:
        """The VP a procedure would give the side if it were carried out now (a rule or labelled
        lines), worked out on a scratch copy of the position's numbers; a rule that would ask a
        player anything is taken its first way."""
        program = self.program
        index = program.procedure_names.index(name)
        rules = [program.procedures[index]] if program.procedures[index] is not None else \
            [rule for _, rule in program.procedure_lines[index]]
        offset = self.score_offset
        found = self._linear_projection(rules)
        if found is not None:
            return found

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
        return project, None

    def _linear_projection(self, rules) -> Optional[tuple]:
        """``_projection`` without carrying the rules out, for rules that only add to the side's
        score ("gain 1 VP for each dimension you control", "if you control X: gain 1 VP"), where
        nothing the rules test or count reads a score: each gain is worked out on the position as
        it is and added within the counter's bounds, as carrying the rules out would.  None for
        any other rules.  With the same gains for the generated form (a ``ProjectionTerm``)."""
        if self.score_offset < 0:
            return None
        score = self.program.layout.counter.index(self.score_offset)
        declared = self.program.schema.counters[score]
        gains = []  # (tests that must hold: (closure, condition, negated), CounterOp)

        def walk(op, tests) -> bool:
            if isinstance(op, BlockOp):
                return all(walk(inner, tests) for inner in op.ops)
            if isinstance(op, IfOp):
                if op.node is None or _reads_scores(op.node.condition):
                    return False
                test, condition = op.condition, op.node.condition
                if not walk(op.then, tests + ((test, condition, False),)):
                    return False
                if op.otherwise is None:
                    return True
                return walk(op.otherwise, tests + ((test, condition, True),))
            if isinstance(op, CounterOp) and not op.set_to and op.counter == score and op.node is not None:
                node = op.node
                if node.side is not None and node.side.kind != "me":
                    return False
                if _reads_scores(node.amount) or _reads_scores(node.per):
                    return False
                gains.append((tests, op))
                return True
            return False

        if not all(rule is not None and rule.node is not None and walk(rule, ()) for rule in rules):
            return None
        contexts, offset, low, high = self.contexts, self.score_offset, declared.low, declared.high
        # the same gains, for the generated form (codegen_terms.py): each test with its condition
        written = ProjectionTerm(tuple(Gain(tuple((node, test, negated) for test, node, negated in tests), op)
                                       for tests, op in gains), offset, low, high, self.sides == 2)
        gains = tuple((tuple(test if not negated else (lambda board, ctx, it, test=test: not test(board, ctx, it))
                             for test, _, negated in tests), op) for tests, op in gains)

        def project(board, side):
            ctx = contexts[side]
            before = total = board.values[offset + side]
            for tests, op in gains:
                for test in tests:
                    if not test(board, ctx, NOBODY):
                        break
                else:
                    delta = op.delta(board, ctx)
                    total = max(low, min(high, total + delta))
            return total - before
        return project, written

    # ------------------------------------------------------------ judging
    def steps_under_way(self, position) -> frozenset:
        """The steps of the sequence of play under way that some term counts during."""
        names, named = self.step_names, self.steps_named
        return frozenset(names[frame[0]] for frame in position.stack
                         if frame[0] in names and names[frame[0]] in named)

    def active_terms(self, quick: bool, steps: frozenset) -> tuple:
        """The terms that count now, worked out once per kind of moment."""
        key = (quick, steps)
        found = self._active.get(key)
        if found is None:
            found = self._active[key] = tuple(term for term in self.terms
                                              if (not term.during or term.during & steps)
                                              and not (term.kind and (term.kind == "slow") == quick))
        return found

    def active(self, quick: bool, steps: frozenset) -> tuple:
        """The terms that count now, ((weight, difference), ...)."""
        key = (quick, steps, "pairs")
        found = self._active.get(key)
        if found is None:
            found = self._active[key] = tuple((t.weight, t.difference) for t in self.active_terms(quick, steps))
        return found

    def step_judge(self, board, side: int, quick: bool, steps: frozenset, owner: int) -> Callable:
        """``judge(action)``: how much a token step (``owner``'s token, unless the action names
        another side's) changes the position's worth to ``side``: ``value`` after the step less
        before it (0 for an action that is no step), the position left as it was.  Worked out
        only where the step can change it: a sum over places or groups, at the places the step
        touches; any other term only when the step touches what it read (known, or noted once
        here)."""
        values, layout = board.values, board.layout
        if values[layout.winner] != NOBODY or layout.tokens < 0:
            return self._full_step_judge(board, side, quick, steps, owner)
        plan = self._plans.get((quick, steps, side))
        if plan is None:
            plan = self._plans[(quick, steps, side)] = self._step_plan(layout, side, quick, steps)
        control, lead_terms, group_weight, any_place, known, unknown, worth_rows, bound = plan
        n, tokens = layout.places, layout.tokens
        generic = list(known)  # [weight, difference, value before (None: not yet worked out)]
        always, off_map_terms, at_offset = [], [], dict(self._plan_offsets[(quick, steps, side)])
        for index, (_, _, _, sensitive) in enumerate(known):
            if sensitive:
                off_map_terms.append(index)
        for term in unknown:
            before, reads, on_map, elsewhere = self._reads(board, term, side)
            index = len(generic)
            generic.append([term.weight, term.difference, before, False])
            if reads is None:
                always.append(index)
                continue
            if elsewhere:
                off_map_terms.append(index)
            for offset in on_map:
                found = at_offset.get(offset)
                at_offset[offset] = frozenset((index,)) if found is None else found | {index}
        generic = [list(term) for term in generic]
        mine, theirs = tokens + side * n, tokens + (1 - side) * n
        groups = self.program.group_places if group_weight else ()
        place_groups = self._place_groups
        steps_kinds = _STEPS

        if worth_rows is not None:
            def place_worth(place):  # read off the plan's table: the same sums, made once
                ahead = values[mine + place] - values[theirs + place]
                return worth_rows[place][ahead if -bound <= ahead <= bound else (bound if ahead > 0 else -bound)]
        else:
            def place_worth(place):
                return _place_sum(control[place], lead_terms, values[mine + place] - values[theirs + place])

        def group_worth(group):
            ahead = behind = True
            for place in groups[group]:
                a, b = values[mine + place], values[theirs + place]
                if a <= b:
                    ahead = False
                if b <= a:
                    behind = False
            return group_weight if ahead else (-group_weight if behind else 0.0)

        if not any_place:
            place_before = None
        elif worth_rows is not None:
            place_before = [row[ahead if -bound <= ahead <= bound else (bound if ahead > 0 else -bound)]
                            for row, ahead in zip(worth_rows, map(operator.sub, values[mine:mine + n],
                                                                  values[theirs:theirs + n]))]
        else:
            place_before = [place_worth(p) for p in range(n)]
        group_before = [group_worth(g) for g in range(len(groups))]
        saved = list(values)
        take, put = board.take, board.put
        always_recomputed = frozenset(always)
        off_map_recomputed = always_recomputed | frozenset(off_map_terms)
        default_owner = owner
        on_map_terms = set().union(*at_offset.values()) if at_offset else set()
        if not always and not on_map_terms & set(off_map_terms):
            # no term reads both the tokens in places and what a step changes off the map: the
            # part of a step off the map (a token from the supply, say) is judged once for all
            # the steps that share it, and the part on the map by its places alone
            return self._separable_step_judge(values, saved, generic, off_map_terms, at_offset, place_worth,
                                              place_before, group_worth, group_before, groups, any_place,
                                              tokens, n, side, board, default_owner)

        def judge(action) -> float:
            if action.kind not in steps_kinds:
                return 0.0  # a stop changes nothing
            owner = action.side if action.side >= 0 else default_owner
            source, dest = action.a, action.b
            at = tokens + owner * n
            on_map = source < n and dest < n
            if on_map:
                values[at + source] -= 1
                values[at + dest] += 1
                recompute = always_recomputed
            else:
                take(owner, source)
                put(owner, dest)
                recompute = off_map_recomputed
            change = 0.0
            if source < n:
                if any_place:
                    change += place_worth(source) - place_before[source]
                found = at_offset.get(at + source)
                if found is not None:
                    recompute = recompute | found
            if dest < n and dest != source:
                if any_place:
                    change += place_worth(dest) - place_before[dest]
                found = at_offset.get(at + dest)
                if found is not None:
                    recompute = recompute | found
            if groups:
                if source < n:
                    for group in place_groups[source]:
                        change += group_worth(group) - group_before[group]
                if dest < n:
                    for group in place_groups[dest]:
                        if source >= n or group not in place_groups[source]:
                            change += group_worth(group) - group_before[group]
            for index in recompute:
                term = generic[index]
                before = term[2]
                if before is None:
                    values[:] = saved
                    before = term[2] = term[1](board, side)
                    if on_map:
                        values[at + source] -= 1
                        values[at + dest] += 1
                    else:
                        take(owner, source)
                        put(owner, dest)
                change += term[0] * (term[1](board, side) - before)
            if on_map:
                values[at + source] = saved[at + source]
                values[at + dest] = saved[at + dest]
            else:
                values[:] = saved
            return change
        return judge

    def _separable_step_judge(self, values, saved, generic, off_map_terms, at_offset, place_worth, place_before,
                              group_worth, group_before, groups, any_place, tokens, n, side, board, default_owner):
        """``step_judge`` where no term reads both tokens in places and holders or tracks."""
        take, put = board.take, board.put
        place_groups = self._place_groups
        for index in set(off_map_terms).union(*at_offset.values()) if at_offset else off_map_terms:
            term = generic[index]
            if term[2] is None:
                term[2] = term[1](board, side)
        off_map = tuple((generic[index][0], generic[index][1], generic[index][2]) for index in off_map_terms)
        off_changes = {}
        steps_kinds = _STEPS

        def off_change(owner, source, dest):
            key = (owner, source, dest)
            found = off_changes.get(key)
            if found is None:
                if source >= 0:
                    take(owner, source)
                if dest >= 0:
                    put(owner, dest)
                found = 0.0
                for weight, difference, before in off_map:
                    found += weight * (difference(board, side) - before)
                values[:] = saved
                off_changes[key] = found
            return found

        def judge(action) -> float:
            if action.kind not in steps_kinds:
                return 0.0  # a stop changes nothing
            owner = action.side if action.side >= 0 else default_owner
            source, dest = action.a, action.b
            change = 0.0
            if source >= n or dest >= n:
                if off_map:
                    change = off_change(owner, source if source >= n else -1, dest if dest >= n else -1)
                if source >= n and dest >= n:
                    return change
            at = tokens + owner * n
            recompute = None
            if source < n:
                values[at + source] -= 1
            if dest < n:
                values[at + dest] += 1
            if source < n:
                if any_place:
                    change += place_worth(source) - place_before[source]
                recompute = at_offset.get(at + source)
            if dest < n and dest != source:
                if any_place:
                    change += place_worth(dest) - place_before[dest]
                found = at_offset.get(at + dest)
                if found is not None:
                    recompute = found if recompute is None else recompute | found
            if groups:
                if source < n:
                    for group in place_groups[source]:
                        change += group_worth(group) - group_before[group]
                if dest < n:
                    for group in place_groups[dest]:
                        if source >= n or group not in place_groups[source]:
                            change += group_worth(group) - group_before[group]
            if recompute is not None:
                for index in recompute:
                    term = generic[index]
                    change += term[0] * (term[1](board, side) - term[2])
            if source < n:
                values[at + source] += 1
            if dest < n:
                values[at + dest] -= 1
            return change
        return judge

    def _step_plan(self, layout, side: int, quick: bool, steps: frozenset) -> StepPlan:
        """What judging token steps needs of the terms that count now, worked out once: the weight
        of holding each place, the leads, the weight of each group held, the terms whose reads are
        known ([weight, difference, None, whether a step off the map changes them]) and those whose
        reads are found on the position."""
        n, tokens = layout.places, layout.tokens
        local = self.sides == 2
        control = [0.0] * n
        leads, known, unknown, at_offset = [], [], [], {}
        group_weight = 0.0
        first, last = tokens, tokens + self.sides * n
        # a step off the map changes only holders, tracks, boxes and zones entered or pending
        # (Board.take and Board.put), laid out one after the other
        off_first, off_last = layout.holder, layout.entry_order
        for term in self.active_terms(quick, steps):
            shape = term.local if local else None
            if shape is not None:
                if shape[0] == "places":
                    for place in shape[1]:
                        control[place] += term.weight
                elif shape[0] == "lead":
                    leads.append((term.weight, shape[1]))
                else:
                    group_weight += term.weight
                continue
            if term.reads is None:
                unknown.append(term)
                continue
            index = len(known)
            known.append((term.weight, term.difference, None,
                          any(off_first <= o < off_last for o in term.reads)))
            for offset in term.reads:
                if first <= offset < last:
                    at_offset.setdefault(offset, set()).add(index)
        self._plan_offsets[(quick, steps, side)] = {o: frozenset(found) for o, found in at_offset.items()}
        lead_terms = tuple(leads)
        any_place = local and bool(lead_terms or any(control))
        worth_rows, bound = _worth_rows(control, lead_terms) if any_place else (None, 0)
        return StepPlan(tuple(control), lead_terms, group_weight, any_place, tuple(known), tuple(unknown),
                        worth_rows, bound)

    def _full_step_judge(self, board, side: int, quick: bool, steps: frozenset, default_owner: int) -> Callable:
        """``step_judge`` by judging the whole position after each step."""
        values = board.values
        saved = list(values)
        base = self.value(board, side, quick, steps)

        def judge(action) -> float:
            if action.kind not in _STEPS:
                return 0.0
            owner = action.side if action.side >= 0 else default_owner
            board.take(owner, action.a)
            board.put(owner, action.b)
            change = self.value(board, side, quick, steps) - base
            values[:] = saved
            return change
        return judge

    def _reads(self, board, term: "_Term", side: int):
        """(the term's worth to ``side``, the offsets of the values it read, those of them that are
        tokens in places, whether it read anything else a token step may change); the offsets are
        None when it read everything.  What it read last time is kept: while those values and the
        piles it read are the same, so is its worth, and nothing is worked out again."""
        key = (term, side, board.options, board.solo)
        memo = self._memos.get(key)
        values, piles = board.values, board.piles
        if memo is not None:
            getter, seen, piles_seen, found = memo
            if getter(values) == seen and all(piles[index] == cards for index, cards in piles_seen):
                return found
        position = board.position
        reading, reading_piles = _Reading(values), _Reading(piles)
        board.values = position.values = reading
        board.piles = position.piles = reading_piles
        try:
            worth = term.difference(board, side)
        finally:
            board.values = position.values = values
            board.piles = position.piles = piles
        if reading.everything or reading_piles.everything:
            self._memos.pop(key, None)
            return worth, None, None, True
        layout = board.layout
        first, last = layout.tokens, layout.tokens + self.sides * layout.places
        off_first, off_last = layout.holder, layout.entry_order
        reads = tuple(sorted(reading.read))
        found = (worth, frozenset(reads), frozenset(o for o in reads if first <= o < last),
                 any(off_first <= o < off_last for o in reads))
        getter = _getter(reads)
        self._memos[key] = (getter, getter(values),
                            tuple((index, list(piles[index])) for index in sorted(reading_piles.read)), found)
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
        summed = self._sums.get((quick, steps))
        if summed is None:
            summed = self._sum(quick, steps)
        return summed(board, side)

    def _sum(self, quick: bool, steps: frozenset) -> Callable:
        """(board, side) -> the weighted sum of the terms that count now, made once per kind of
        moment: in a game of two, one generated function (codegen_terms.WeightedSum) that works
        each term of a known shape out in place and calls the others, adding them in the same
        order as the loop it stands for; else (or where no term has such a shape) that loop."""
        terms = self.active_terms(quick, steps)
        summed = None
        if self._generated and self.sides == 2 and any(term.shape is not None for term in terms):
            parts = tuple((term.weight, term.shape, term.difference) for term in terms)
            summed = load_terms(self.program, [WeightedSum(parts)]).get(0)
        if summed is None:
            pairs = self.active(quick, steps)

            def summed(board, side):
                total = 0.0
                for weight, difference in pairs:
                    total += weight * difference(board, side)
                return total
        self._sums[(quick, steps)] = summed
        return summed

    def margin(self, values: Sequence[int], side: int) -> float:
        if self.score_offset < 0:
            return 0.0
        others = [values[self.score_offset + o] for o in range(self.sides) if o != side]
        return values[self.score_offset + side] - sum(others) / len(others)


_WORTH_ROWS_BOUND = 64  # leads capped higher than this (or not at all) are summed at each place instead


def _worth_rows(control: Sequence[float], lead_terms: tuple):
    """What holding a place and leading in it are worth, as a table per place by the lead (one
    side's tokens there less the other's), and the lead past which the worth no longer changes
    (control counts only the lead's sign; each lead term is capped).  Each entry is ``_place_sum``,
    as ``step_judge`` sums a place without a table, so a value read off the table is that sum to
    the last bit (the bots choose the same steps).  Row ``[ahead]`` for ``ahead`` from
    -bound to bound, a negative lead read from the row's end.  (None, 0) when a cap is too high
    for a table."""
    bound = max((cap for _, cap in lead_terms), default=0) + 1
    if bound > _WORTH_ROWS_BOUND:
        return None, 0
    leads = list(range(0, bound + 1)) + list(range(-bound, 0))
    return tuple(tuple(_place_sum(weight, lead_terms, ahead) for ahead in leads) for weight in control), bound


def _place_sum(weight: float, lead_terms: tuple, ahead: int) -> float:
    """A place's worth to a side ``ahead`` tokens up there (behind when negative): ``weight`` for
    holding it, and each lead term's weight for each token of the lead up to the term's cap."""
    total = 0.0
    if weight:
        if ahead > 0:
            total = weight
        elif ahead < 0:
            total = -weight
    for lead_weight, cap in lead_terms:
        total += lead_weight * (ahead if -cap < ahead < cap else (cap if ahead > 0 else -cap))
    return total


def horizon_warnings(program) -> list:
    """Warnings about the evaluation's horizon that need the compiled game, for ``crisis check`` and
    the language server: a kind of decision the game never asks, or none at all.  A look-ahead
    plays on to the next decision of the horizon; with none the game asks, it stops at the next
    decision that is not a token step (heuristic.default_horizon), which is seldom what was meant."""
    from crisis.ruleset.diagnostics import did_you_mean, one_of
    from crisis.interpreter.designer.notation import decision_kinds
    evaluation = program.definition.evaluation
    if evaluation is None or evaluation.horizon_at is None:
        return []
    file, positions, key_at = evaluation.horizon_at
    kinds = sorted(decision_kinds(program))
    found = []
    for index, kind in enumerate(evaluation.horizon):
        if kind in kinds:
            continue
        guess = did_you_mean(kind, kinds)
        at = positions[index] if index < len(positions) else key_at
        found.append(file.diagnostic(at, f"this game never asks a decision of the kind '{kind}'", width=len(kind),
                                     expected=f"a kind of decision: {one_of(kinds)}",
                                     hint=f"did you mean '{guess}'?" if guess else
                                     "a look-ahead plays on to the next decision of the horizon"))
    if not any(kind in kinds for kind in evaluation.horizon):
        what = "the horizon names no kind of decision this game asks" if evaluation.horizon else \
            "the evaluation has no horizon"
        found.append(file.diagnostic(key_at, f"{what}: each look-ahead stops at the next decision that is not "
                                     "a token step", expected=f"'horizon:' with kinds of decision: {one_of(kinds)}"))
    return [attrs.evolve(d, severity="warning") for d in found]
