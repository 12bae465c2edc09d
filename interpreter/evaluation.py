"""How good a position looks to one side: the heuristic bot's judgement.

A sum of terms, each counted for the judging side minus the opponent, times a weight read from
the content (``bots/heuristic.yaml``, see docs/bots.md): VP, the VP the round's scoring and the
final scoring would give now (worked out by running the content's own scoring rules on the
position, so no space or card is named here), control of spaces and pivotal spaces, the lead
in each space, tokens on the map, in the pool and on the crisis track, and the crisis zones
breached.  Only what the judging side may know is used: its own objective counts (its space
is scored for whoever controls it, and its event is the holder's), the opponent's does not.
"""

from __future__ import annotations

from typing import Dict, List, Tuple

from crisis.content.bots import Weights

from .compile import BlockOp, Ctx, Executor, IfOp, VpOp
from .state import NOBODY, GameState

# phases before the round's scoring: a position there will still be scored this round
_BEFORE_SCORING = frozenset(("deal", "objectives", "card_play", "pivotal"))


class _Judging(Executor):
    """The engine's executor, remembering which side controls each dimension for the one
    position being judged (scoring rules ask it once per rule and per side)."""

    __slots__ = ("_dims",)

    def look_at(self, state: GameState) -> None:
        self.state = state
        self.work = 0  # each position judged is a fresh start for the scoring rules it runs
        a, b = state.tokens
        dims = self._dims = []
        for spaces in self.tables.dimension_spaces:
            first = second = True
            for s in spaces:
                if a[s] <= b[s]:
                    first = False
                if b[s] <= a[s]:
                    second = False
            dims.append(0 if first else 1 if second else -1)

    def controls_dimension(self, side: int, dimension: int) -> bool:
        return self._dims[dimension] == side


# the evaluation's terms, in order (then one per crisis zone, "breached")
TERMS = ("vp", "round_scoring", "final_scoring", "objective", "spaces", "pivotal", "lead", "tokens",
         "pool", "track")


class Evaluator:
    """Judges positions of one game definition with one set of weights."""

    def __init__(self, tables, weights: Weights):
        self.tables, self.w = tables, weights
        zones = {name: weight for name, weight in weights.breached}
        self.zone_weight = tuple(zones.get(z.name, 0.0) for z in tables.zones)
        self.pivotal = tables.pivotal_spaces
        self._ctx = tuple(Ctx(side, reason="evaluation") for side in (0, 1))
        self._final = _projection([rule for _, rule in tables.final_scoring])
        self._round = _projection([tables.dimension_scoring])
        self._ex = _Judging(tables, None, None)
        self.vector = tuple(getattr(weights, name) for name in TERMS) + self.zone_weight
        self.is_pivotal = tables.is_pivotal
        self.dimension_of = tables.dimension_of
        self.dimension_spaces = tables.dimension_spaces

    def value(self, state: GameState, side: int, quick: bool = False) -> float:
        """The position's worth to ``side``, in VP (a won game is worth ``win`` plus the margin).

        ``quick`` (for token steps, judged by the dozen): the scoring rules are not run; each
        dimension controlled counts as the VP the round's and the final scoring weigh it at."""
        if state.result is not None:
            vp, w = state.vp, self.w
            margin = vp[side] - vp[1 - side]
            return (w.win if state.result.winner == side else -w.win) + margin
        total = 0.0
        for weight, term in zip(self.vector, self.terms(state, side, quick)):
            total += weight * term
        return total

    def terms(self, state: GameState, side: int, quick: bool = False) -> List[float]:
        """The evaluation's terms (``TERMS`` then one per zone), ``side`` minus the opponent."""
        w, other = self.w, 1 - side
        vp = state.vp
        ex = self._ex
        ex.look_at(state)
        before_scoring = state.phase in _BEFORE_SCORING
        mine, theirs = state.tokens[side], state.tokens[other]
        if quick:
            dims = ex._dims
            dimensions = dims.count(side) - dims.count(other)
            final = dimensions * (1.0 if w.final_scoring else 0.0)
            scoring = dimensions if before_scoring else 0
        else:
            final = self._final(ex, self._ctx[side], self._ctx[other]) if w.final_scoring else 0
            scoring = self._round(ex, self._ctx[side], self._ctx[other]) if before_scoring else 0
        objective = 0
        held = state.objectives[side]
        if held != NOBODY:
            space = self.tables.objective_space[held]
            control = (mine[space] > theirs[space]) - (theirs[space] > mine[space])
            if before_scoring:
                scoring += control  # the holder's objective space is scored for whoever controls it
            objective = 1 if control > 0 else 0
        cap = w.lead_cap
        spaces = lead = 0
        for a, b in zip(mine, theirs):
            if a > b:
                spaces += 1
                lead += a - b if a - b < cap else cap
            elif b > a:
                spaces -= 1
                lead -= b - a if b - a < cap else cap
        pivotal = 0
        for s in self.pivotal:
            if mine[s] != theirs[s]:
                pivotal += 1 if mine[s] > theirs[s] else -1
        out = [vp[side] - vp[other], scoring, final, objective, spaces, pivotal, lead,
               sum(mine) - sum(theirs), self._pool(state, side) - self._pool(state, other),
               state.track[side] - state.track[other]]
        breached = state.breached
        for zone in range(len(breached[0])):
            out.append(breached[side][zone] - breached[other][zone])
        return out

    # ------------------------------------------------- quick value, in parts
    # value(quick=True) == vp term + local(every space) + spread: a token step changes the
    # local part of at most two spaces (and their dimensions) and the spread, so judging a
    # step needs only those (tests/test_bots.py checks the parts add up to the value).

    def local(self, state: GameState, side: int, spaces) -> float:
        """The quick value's terms of ``spaces``: control, lead, pivotal spaces, your
        objective's space, and whole-dimension control of their dimensions."""
        shares, dimensions = self.shares(state, side, spaces)
        return sum(shares.values()) + sum(dimensions.values())

    def shares(self, state: GameState, side: int, spaces):
        """({space: its share of the quick value}, {dimension of those spaces: its share})."""
        w, other = self.w, 1 - side
        mine, theirs = state.tokens[side], state.tokens[other]
        before_scoring = state.phase in _BEFORE_SCORING
        held = state.objectives[side]
        objective_space = self.tables.objective_space[held] if held != NOBODY else -1
        cap = w.lead_cap
        shares, dimensions = {}, {}
        for s in spaces:
            a, b = mine[s], theirs[s]
            share = 0.0
            if a != b:
                control = 1 if a > b else -1
                lead = a - b if a > b else b - a
                share = control * (w.spaces + w.lead * (lead if lead < cap else cap)
                                   + (w.pivotal if self.is_pivotal[s] else 0.0))
                if s == objective_space:
                    share += (w.round_scoring * control if before_scoring else 0.0) + (w.objective if a > b else 0.0)
            shares[s] = share
            dimensions[self.dimension_of[s]] = 0.0
        weight = w.final_scoring + (w.round_scoring if before_scoring else 0.0)
        if weight:
            for d in dimensions:
                first = second = True
                for s in self.dimension_spaces[d]:
                    if mine[s] <= theirs[s]:
                        first = False
                    if theirs[s] <= mine[s]:
                        second = False
                dimensions[d] = weight if first else -weight if second else 0.0
        return shares, dimensions

    def spread(self, state: GameState, side: int) -> float:
        """The quick value's terms of tokens off the map and on it as a whole."""
        w, other = self.w, 1 - side
        total = w.tokens * (sum(state.tokens[side]) - sum(state.tokens[other]))
        total += w.pool * (self._pool(state, side) - self._pool(state, other))
        total += w.track * (state.track[side] - state.track[other])
        breached = state.breached
        for zone, weight in enumerate(self.zone_weight):
            if weight and breached[side][zone] != breached[other][zone]:
                total += weight if breached[side][zone] else -weight
        return total

    @staticmethod
    def _pool(state: GameState, side: int) -> int:
        # a breach's bonus tokens come when the play ends; count them as in the pool already
        return state.pool[side] + sum(state.boxes[side][zone] for zone in state.pending_breaches[side])


def _projection(rules):
    """``(ex, my ctx, opponent ctx) -> my VP minus the opponent's`` that ``rules`` would give now.

    Scoring rules are VP statements, usually under conditions: those are worked out directly
    (the condition and the amount, as the compiled rule has them); a rule with anything else
    in it is run on the position and the VP are put back."""
    parts = [_gain(rule) for rule in rules]
    if all(p is not None for p in parts):
        def direct(ex, mine, theirs):
            return sum(p(ex, mine) - p(ex, theirs) for p in parts)
        return direct

    def run(ex, mine, theirs):
        vp = ex.state.vp
        before = list(vp)
        for rule in rules:
            for ctx in (mine, theirs):
                steps = rule.run(ex, ctx)
                for _ in steps:  # a scoring rule that asks a question is not projected
                    steps.close()
                    break
        me = mine.me
        gained = (vp[me] - before[me]) - (vp[1 - me] - before[1 - me])
        vp[:] = before
        return gained
    return run


def _gain(op):
    """``(ex, ctx) -> VP`` an op made of VP statements, conditions and blocks would give, or None."""
    if isinstance(op, VpOp):
        return op._delta
    if isinstance(op, BlockOp):
        parts = [_gain(o) for o in op.ops]
        if any(p is None for p in parts):
            return None
        return parts[0] if len(parts) == 1 else (lambda ex, ctx: sum(p(ex, ctx) for p in parts))
    if isinstance(op, IfOp):
        then = _gain(op.then)
        otherwise = _gain(op.otherwise) if op.otherwise is not None else (lambda ex, ctx: 0)
        if then is None or otherwise is None:
            return None
        condition = op.condition
        return lambda ex, ctx: then(ex, ctx) if condition(ex, ctx, -1) else otherwise(ex, ctx)
    return None
