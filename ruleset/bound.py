"""How much work the rules of a game's definition can take, worked out when the content is read
(docs/limits.md), on the general engine's checked rules (meaning.py).

This is the model of ``cost.py`` and ``work.py`` carried over to resolved rules,
so that the general front end refuses by itself what the old one refused: a
rule that could keep the engine busy without end, or ask without end, is an
error at its heaviest statement.  The unit is a step of work: a statement
carried out, a look-ahead at an option (a copy of the position played on, 50
steps), a position visited by a goal's search.  Each construct costs what the
engine makes of it:

- ``for each player`` and ``each player`` run their body once per side;
- ``either`` asks every option whether it can be carried out, tries each on a
  copy (bots and the overlay's criteria do) and carries one out; ``first of``
  tries its lines the same way; ``so that`` searches the ways of taking its
  token steps, before the first step and before each;
- a rule carried out by name costs that rule (with the overlay's rule in its
  place where heavier), ``carry out the event of ...`` the heaviest rule of
  that field of those cards, ``resolve ...`` every zone's heavier effect for
  each side, ``play a card`` testing each use for each card and the heaviest
  use, a defined term its definition each time it is tested;
- loops: ``repeat while`` at most ``MAX_REPEATS`` passes, ``for each <counter>``
  one pass per value of the counter, ``players alternate ... until each has N``
  N turns per side.

Rules carried out by name never call each other in a circle: such a circle is
refused, naming it, before anything is costed (the engine would recurse without
end).  A rule, with everything it carries out, may take ``MAX_RULE_WORK`` steps
and ask ``MAX_EFFECT_DECISIONS`` decisions.  The sequence of play is the whole
game: it is cut at its steps and loops, each step (and each pass of a loop)
bounded as a rule, and the whole of it, every loop at its most passes, may take
``MAX_GAME_WORK`` steps.

Nothing here recurses over the rules' calls: the rules are costed in an order
where what a rule carries out is costed before it, so only the nesting of one
rule (at most ``MAX_RULE_DEPTH``) is recursed over.
"""

from __future__ import annotations

from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import attrs

from . import limits
from . import meaning as M
from .diagnostics import Diagnostic, shown
from .walk import children, meanings, diagnostic_of

LOOK = 50  # trying an option on a copy of the position, before its own work (as cost.LOOK)
CAP = 10 ** 18  # bounds are kept below this, so that no number grows without end while they are worked out

WORK_HINT = ("each 'for each player' doubles the work inside it; 'either' and 'first of' try every option "
             "on a copy of the game; 'so that' looks at every way of taking its steps (docs/limits.md)")
ASK_HINT = "each 'for each player' doubles the work inside it, and 'each' multiplies it by the spaces"
GAME_HINT = ("every loop of the sequence of play is counted at its most passes ('repeat while' "
             f"{limits.MAX_REPEATS:,}), with every rule it carries out (docs/limits.md)")
CIRCLE_HINT = "a rule may carry out another only if that one does not lead back to it"
TERM_HINT = "a definition may use another only if that one does not lead back to it"

# statements the sequence of play is cut at: each one's body is bounded by itself
CUTS = (M.Step, M.Repeat, M.ForEachCounter, M.Alternate)

# ("procedure", i) | ("term", i) | ("rules", kind, field) | ("step", name) | ("resolve", track) | ("play",)
Unit = tuple


def _cap(n: int) -> int:
    return n if n < CAP else CAP


def _power(base: int, exponent: int) -> int:
    """base ** exponent, or CAP once it passes CAP (never a number of millions of digits)."""
    result = 1
    for _ in range(exponent):
        result *= base
        if result >= CAP:
            return CAP
        if base <= 1:
            break
    return result


def _large(n: int) -> str:
    """A bound for a message: in full below a million billion, which no accepted rule comes near."""
    return f"up to {n:,}" if n < 10 ** 15 else "more than 10^15"


@attrs.define
class Work:
    """The bound of one rule: one run, asking whether it can be carried out, its decisions, testing it."""

    run: int = 0
    can: int = 0
    asks: int = 0
    test: int = 0
    heaviest: str = ""  # for the rules of cards: the card whose rule is the heaviest

    def widen(self, other: "Work") -> None:
        if other.run > self.run:
            self.run, self.heaviest = other.run, other.heaviest or self.heaviest
        self.can, self.asks, self.test = max(self.can, other.can), max(self.asks, other.asks), \
            max(self.test, other.test)


class RuleBound:
    """The work bounds of one game definition's rules, and the problems with them."""

    def __init__(self, definition, sources: Dict[int, Tuple[object, object]]):
        self.d = definition
        self.sources = sources  # id of a rule as read -> (the rule, where its text is)
        schema = self.schema = definition.schema
        self.sides = max(len(schema.sides), 1)
        self.tokens = schema.tokens.each_side if schema.tokens is not None else 0
        self.places = max(len(schema.map.places), 1)
        index = {name: i for i, name in enumerate(schema.map.places)}
        self.group_sizes = [len([p for p in g.places if p in index]) for g in schema.map.groups]
        self.biggest_group = max(self.group_sizes, default=1)
        self.kind_index = {kind.name: i for i, kind in enumerate(schema.card_kinds)}
        self.card_counts = [len(definition.cards[kind.name].ids) if kind.name in definition.cards else 0
                            for kind in schema.card_kinds]
        played = definition.played_to
        self.played_kind = (self.kind_index.get(schema.piles[played].kind, 0)
                            if 0 <= played < len(schema.piles) else 0)
        self.procedure_names = list(definition.procedures)
        self.term_names = list(definition.terms)
        overlay = definition.overlay
        self.overlay_steps = dict(overlay.steps) if overlay is not None else {}
        self.overlay_procedures = dict(overlay.procedures) if overlay is not None else {}
        self.done: Dict[Unit, Work] = {}
        # bounds already worked out, by the identity of the meaning (each lives as long as the definition)
        self._run: Dict[tuple, int] = {}
        self._can: Dict[int, int] = {}
        self._asks: Dict[tuple, int] = {}
        self._expr: Dict[int, int] = {}
        self._calls: Dict[int, Tuple[Unit, ...]] = {}

    # ============================================================ what a rule carries out
    def card_kind(self, ref) -> int:
        """The kind of the cards a card reference names (as the compiler finds it)."""
        if isinstance(ref, M.CardRef) and ref.pile is not None and ref.kind != "term" \
                and 0 <= ref.pile.pile < len(self.schema.piles):
            return self.kind_index.get(self.schema.piles[ref.pile.pile].kind, self.played_kind)
        return self.played_kind

    def rule_field(self, kind: int) -> int:
        """A kind's rule (the first field that is a rule), whose run "would ..." imagines."""
        fields = self.schema.card_kinds[kind].fields if 0 <= kind < len(self.schema.card_kinds) else ()
        return next((i for i, (_, type_name) in enumerate(fields) if type_name == "rule"), -1)

    def calls(self, node) -> Optional[Unit]:
        """The rule a meaning carries out or tests by name, if any."""
        if type(node) not in CALLERS:
            return None
        if isinstance(node, M.CarryOut):
            if node.procedure >= 0:
                return ("procedure", node.procedure)
            if node.card is not None:
                return ("rules", self.card_kind(node.card), node.field)
        elif isinstance(node, M.Score):
            return ("procedure", node.procedure)
        elif isinstance(node, M.Win):
            return ("procedure", node.ties) if node.ties >= 0 else None
        elif isinstance(node, M.Named):
            return ("procedure", node.procedure)
        elif isinstance(node, (M.Term, M.CardIs, M.WithTerm)):
            return ("term", node.term)
        elif isinstance(node, M.CardRef) and node.kind == "term" and node.pile is not None:
            return ("term", node.pile.pile)
        elif isinstance(node, M.CardWould):
            kind = self.card_kind(node.card)
            field = self.rule_field(kind)
            return ("rules", kind, field) if field >= 0 else None
        elif isinstance(node, M.Resolve):
            return ("resolve", node.track)
        elif isinstance(node, (M.Play, M.PlayCards)):
            return ("play",)
        elif isinstance(node, M.Step) and node.name in self.overlay_steps:
            return ("step", node.name)
        return None

    def called_by(self, rule) -> Tuple[Unit, ...]:
        """Every rule a rule (or a part of one) carries out or tests by name."""
        found = self._calls.get(id(rule))
        if found is None:
            found = self._calls[id(rule)] = tuple(dict.fromkeys(
                unit for unit in (self.calls(node) for node in meanings(rule)) if unit is not None))
        return found

    def rules_of(self, unit: Unit) -> List[Tuple[object, str]]:
        """The rules (as read) that make up a unit, each with the name of whose it is."""
        kind = unit[0]
        out: List[Tuple[object, str]] = []
        if kind == "procedure":
            if not 0 <= unit[1] < len(self.procedure_names):
                return out
            name = self.procedure_names[unit[1]]
            _, meaning = self.d.procedures[name]
            variants = [meaning] + list(self.overlay_procedures.get(name, {}).values())
            for variant in variants:
                for rule in (variant if isinstance(variant, tuple) else (variant,)):
                    if isinstance(rule, tuple):  # a line: (label, rule)
                        rule = rule[1]
                    if rule is not None:
                        out.append((rule, name))
        elif kind == "term":
            if 0 <= unit[1] < len(self.term_names):
                name = self.term_names[unit[1]]
                meaning = self.d.terms[name][1]
                if meaning is not None:
                    out.append((meaning, name))
        elif kind == "rules":
            card_kind, field = unit[1], unit[2]
            if 0 <= card_kind < len(self.schema.card_kinds):
                cards = self.d.cards.get(self.schema.card_kinds[card_kind].name)
                if cards is not None and 0 <= field < len(cards.fields):
                    out.extend((rule, cards.ids[i]) for i, rule in enumerate(cards.fields[field])
                               if isinstance(rule, M.Block))
        elif kind == "step":
            out.extend((rule, unit[1]) for rule in self.overlay_steps.get(unit[1], {}).values() if rule is not None)
        elif kind == "resolve":
            for (track, _zone), pair in self.d.entering.items():
                if track == unit[1]:
                    for rule in dict.fromkeys(r for r in pair if r is not None):  # "first" and "second" may be one rule
                        out.append((rule, ""))
        elif kind == "play":
            for use in self.d.uses:
                out.extend((part, use.name) for part in (use.rule, use.condition, use.target, use.payment)
                           if part is not None)
        return out

    def label(self, unit: Unit) -> str:
        kind = unit[0]
        if kind == "procedure":
            return f"the procedure '{shown(self.procedure_names[unit[1]])}'"
        if kind == "term":
            return shown(self.term_names[unit[1]])
        if kind == "rules":
            card_kind = self.schema.card_kinds[unit[1]]
            return f"the {card_kind.fields[unit[2]][0]} of the {card_kind.name}"
        if kind == "step":
            return f"the step '{shown(unit[1])}'"
        if kind == "resolve":
            return f"entering a zone of the {self.schema.tracks[unit[1]].name}"
        return "playing a card"

    def units(self) -> List[Unit]:
        """Every rule that can be carried out by name, in the order written."""
        out: List[Unit] = [("procedure", i) for i in range(len(self.procedure_names))]
        out += [("term", i) for i in range(len(self.term_names))]
        for k, kind in enumerate(self.schema.card_kinds):
            out += [("rules", k, f) for f, (_, type_name) in enumerate(kind.fields) if type_name == "rule"]
        out += [("step", name) for name in self.overlay_steps]
        out += [("resolve", t) for t in dict.fromkeys(track for track, _ in self.d.entering)]
        out.append(("play",))
        return out

    # ============================================================ circles, then the order
    def graph(self) -> Dict[Unit, List[Tuple[Unit, object, object]]]:
        """For each unit, what it carries out: (unit, the meaning that names it, the rule it lies in)."""
        edges: Dict[Unit, List[Tuple[Unit, object, object]]] = {}
        for unit in self.units():
            found: Dict[Unit, Tuple[object, object]] = {}
            for rule, _ in self.rules_of(unit):
                called = []
                for node in meanings(rule):
                    callee = self.calls(node)
                    if callee is not None:
                        called.append(callee)
                        if callee not in found:
                            found[callee] = (node, rule)
                self._calls[id(rule)] = tuple(dict.fromkeys(called))
            edges[unit] = [(callee, node, rule) for callee, (node, rule) in found.items()]
        return edges

    def circles(self, edges) -> List[Diagnostic]:
        """Rules that carry each other out (or definitions that use each other) in a circle: each
        circle once, at the reference in its first rule (in the order written) that leads back."""
        order = {unit: i for i, unit in enumerate(edges)}
        problems, seen, done = [], set(), set()
        for start in edges:
            if start in done:
                continue
            path, next_edge = [start], [0]
            while path:
                unit, index = path[-1], next_edge[-1]
                out = edges.get(unit, ())
                if index == len(out):
                    done.add(unit)
                    path.pop()
                    next_edge.pop()
                    continue
                next_edge[-1] += 1
                callee = out[index][0]
                if callee in path:
                    circle = path[path.index(callee):]
                    if frozenset(circle) not in seen:
                        seen.add(frozenset(circle))
                        problems.append(self.circle_problem(edges, order, circle))
                elif callee not in done and callee in edges:
                    path.append(callee)
                    next_edge.append(0)
        return problems

    def circle_problem(self, edges, order, circle: List[Unit]) -> Diagnostic:
        first = min(range(len(circle)), key=lambda i: order[circle[i]])
        circle = circle[first:] + circle[:first]
        unit, following = circle[0], circle[1 % len(circle)]
        _, node, rule = next(edge for edge in edges[unit] if edge[0] == following)
        names = [self.label(u) for u in circle]
        if all(u[0] == "term" for u in circle):
            message = (f"the definition of {names[0]} uses {names[0]} itself" if len(circle) == 1 else
                       f"definitions use each other in a circle: {' -> '.join(names + [names[0]])}")
            hint = TERM_HINT
        else:
            message = (f"{names[0]} carries itself out" if len(circle) == 1 else
                       f"rules carry each other out in a circle: {' -> '.join(names + [names[0]])}")
            hint = CIRCLE_HINT
        word = self.term_names[following[1]] if following[0] == "term" else None
        return self.at(node, rule, message, hint, word=word)

    def topological(self, edges) -> List[Unit]:
        """The units, each after every unit it carries out (there are no circles)."""
        order, done = [], set()
        for start in edges:
            if start in done:
                continue
            path, next_edge = [start], [0]
            done.add(start)
            while path:
                unit, index = path[-1], next_edge[-1]
                out = edges.get(unit, ())
                if index == len(out):
                    order.append(unit)
                    path.pop()
                    next_edge.pop()
                    continue
                next_edge[-1] += 1
                callee = out[index][0]
                if callee not in done and callee in edges:
                    done.add(callee)
                    path.append(callee)
                    next_edge.append(0)
        return order

    # ============================================================ the units' bounds
    def unit_work(self, unit: Unit) -> Work:
        found = self.done.get(unit)
        if found is None:  # named but not defined: the resolver refused it already
            found = self.done[unit] = Work(1, 1, 0, 1)
        return found

    def cost_unit(self, unit: Unit) -> Work:
        kind = unit[0]
        work = Work()
        if kind == "procedure":
            name = self.procedure_names[unit[1]]
            _, meaning = self.d.procedures[name]
            for variant in [meaning] + list(self.overlay_procedures.get(name, {}).values()):
                work.widen(self.variant_work(variant))
        elif kind == "term":
            for rule, _ in self.rules_of(unit):
                work.widen(Work(test=self.expr(rule)))
        elif kind in ("rules", "step"):
            for rule, whose in self.rules_of(unit):
                work.widen(Work(self.run(rule), self.can(rule), self.asks(rule), heaviest=whose))
        elif kind == "resolve":
            zones = [pair for (track, _), pair in self.d.entering.items() if track == unit[1]]
            run = sum(max((self.run(r) for r in pair if r is not None), default=0) for pair in zones)
            asks = sum(max((self.asks(r) for r in pair if r is not None), default=0) for pair in zones)
            work = Work(_cap(self.sides * run), 1, _cap(self.sides * asks))
        elif kind == "play":
            uses = self.d.uses
            hand = max(self.card_counts[self.played_kind] if self.card_counts else 0, 1)
            offered = sum(1 + (self.expr(u.condition) if u.condition is not None else 0)
                          + (self.expr(u.payment) if u.payment is not None else 0) for u in uses)
            work = Work(_cap(hand * offered + max((self.run(u.rule) for u in uses), default=0)), 1,
                        1 + max((self.asks(u.rule) for u in uses), default=0))
        return work

    def variant_work(self, meaning) -> Work:
        """A procedure as written (or as the overlay writes it): a rule, a condition, conditions, lines."""
        if isinstance(meaning, M.Block):
            return Work(self.run(meaning), self.can(meaning), self.asks(meaning))
        if isinstance(meaning, tuple):
            rules = [item[1] if isinstance(item, tuple) else item for item in meaning]
            blocks = [r for r in rules if isinstance(r, M.Block)]
            tests = [r for r in rules if r is not None and not isinstance(r, M.Block)]
            # lines: each carried out for each side by "score"; conditions: each tested for each side
            return Work(_cap(sum(self.run(b) for b in blocks)), 1, _cap(sum(self.asks(b) for b in blocks)),
                        _cap(sum(self.expr(t) for t in tests)))
        if meaning is None:
            return Work()
        return Work(test=self.expr(meaning))

    # ============================================================ statements
    def run(self, node, cut: bool = False) -> int:
        """Steps of work of one run of a block or statement; with ``cut``, the steps and loops of
        the sequence of play inside it count one step each (they are bounded by themselves)."""
        key = (id(node), cut)
        found = self._run.get(key)
        if found is None:
            found = self._run[key] = self._run_of(node, cut)
        return found

    def _run_of(self, node, cut: bool) -> int:
        if isinstance(node, M.Block):
            return _cap(sum(self.run(s, cut) for s in node.statements))
        if cut and isinstance(node, CUTS):
            return 1 + (self.expr(node.condition) if isinstance(node, M.Repeat) else 0)
        method = getattr(self, "run_" + type(node).__name__, None)
        return _cap(method(node, cut)) if method is not None else 1 + self.expr(node)

    def can(self, node) -> int:
        """Steps of work of asking whether a block or statement can be carried out now."""
        found = self._can.get(id(node))
        if found is None:
            found = self._can[id(node)] = self._can_of(node)
        return found

    def _can_of(self, node) -> int:
        if isinstance(node, M.Block):
            return _cap(sum(self.can(s) for s in node.statements))
        method = getattr(self, "can_" + type(node).__name__, None)
        return _cap(method(node)) if method is not None else 1 + self.expr(node)

    def asks(self, node, cut: bool = False) -> int:
        """Decisions one run of a block or statement can ask for (work.py's model)."""
        key = (id(node), cut)
        found = self._asks.get(key)
        if found is None:
            found = self._asks[key] = self._asks_of(node, cut)
        return found

    def _asks_of(self, node, cut: bool) -> int:
        if isinstance(node, M.Block):
            return _cap(sum(self.asks(s, cut) for s in node.statements))
        if cut and isinstance(node, CUTS):
            return 0
        method = getattr(self, "asks_" + type(node).__name__, None)
        return _cap(method(node, cut)) if method is not None else 0

    # --------------------------------------------------------- token steps
    def steps(self, node: M.Transfer) -> int:
        """Token steps one run of a transfer takes at most."""
        amount = node.amount
        if amount.kind == "all":
            n = self.sides * self.tokens
        elif amount.number is not None:
            n = self.most(amount.number)
        else:
            n = amount.n or 0
        return _cap(n * (self.places if node.each else 1))

    def count(self, places) -> int:
        """At most how many places (and holders) a set names."""
        if isinstance(places, M.Union_):
            return sum(self.count(item) for item in places.items)
        if isinstance(places, M.Fixed):
            return len(places.places)
        if isinstance(places, M.ContextGroupPlaces):
            return self.biggest_group
        if isinstance(places, M.CardPlaces):
            return self.places
        if isinstance(places, (M.Filtered, M.Related, M.Most, M.WithTerm)):
            return self.count(places.places)
        if isinstance(places, (M.EntityPlaces, M.Adjacent, M.Within)):  # where cards stand, next to them
            return self.places
        return 1  # a holder, this space, that space, it, a register's place

    def ways(self, node: M.Transfer) -> int:
        """At most how many different steps a transfer offers at once."""
        owners = self.sides if node.owners.kind == "either" else 1
        sources = max(self.count(node.sources), 1)
        if node.verb == "move" and (node.dests is node.sources or getattr(node.node, "within", False)):
            dests = sources - 1  # from one of the places to another
        else:
            dests = max(self.count(node.dests), 1)
        return owners * sources * dests

    def run_Transfer(self, node: M.Transfer, cut: bool) -> int:
        return 1 + self.steps(node) * (1 + self.expr(node.sources) + self.expr(node.dests))

    def can_Transfer(self, node: M.Transfer) -> int:
        return 1 + self.expr(node.sources) + self.expr(node.dests)

    def asks_Transfer(self, node: M.Transfer, cut: bool) -> int:
        return self.steps(node)

    # ------------------------------------------------------- other effects
    def run_PlaceMarker(self, node, cut):
        return 1 + self.expr(node.places)

    def can_PlaceMarker(self, node):
        return 1 + self.expr(node.places)

    def asks_PlaceMarker(self, node, cut):
        return 1

    def asks_RemoveMarker(self, node, cut):
        return 1

    def run_ChangeCounter(self, node, cut):
        return 1 + self.expr(node.amount) + (self.expr(node.per) if node.per is not None else 0)

    def can_ChangeCounter(self, node):
        return self.run_ChangeCounter(node, False)

    def run_Draw(self, node, cut):
        return 1 + max(node.n, node.until, 0)

    def run_Win(self, node, cut):
        return 1 + (self.sides * self.unit_work(("procedure", node.ties)).test if node.ties >= 0 else 0)

    def run_If(self, node: M.If, cut):
        otherwise = self.run(node.otherwise, cut) if node.otherwise is not None else 0
        return 1 + self.expr(node.condition) + max(self.run(node.then, cut), otherwise)

    def can_If(self, node: M.If):
        otherwise = self.can(node.otherwise) if node.otherwise is not None else 0
        return 1 + self.expr(node.condition) + max(self.can(node.then), otherwise)

    def asks_If(self, node: M.If, cut):
        return max(self.asks(node.then, cut), self.asks(node.otherwise, cut) if node.otherwise is not None else 0)

    def run_Either(self, node: M.Either, cut):
        # which options can act; each tried on a copy (bots, the overlay's criteria); one carried out
        runs = [self.run(option, cut) for option in node.options]
        return 1 + sum(self.can(option) + LOOK + run for option, run in zip(node.options, runs)) + max(runs, default=0)

    def can_Either(self, node: M.Either):
        return sum(self.can(option) for option in node.options)

    def asks_Either(self, node: M.Either, cut):
        return 1 + max((self.asks(option, cut) for option in node.options), default=0)

    def run_FirstOf(self, node: M.FirstOf, cut):
        tried, runs = 0, []
        for option in node.options:
            run = self.run(option, cut)
            runs.append(run)
            goal = option.statements[0] if len(option.statements) == 1 else None
            # a goal's own search says how far it goes; any other line is tried on a copy
            tried += self.search(goal) if isinstance(goal, M.Goal) else self.can(option) + LOOK + run
        return 1 + tried + max(runs, default=0)

    def can_FirstOf(self, node: M.FirstOf):
        return sum(self.can(option) for option in node.options)

    def asks_FirstOf(self, node: M.FirstOf, cut):
        return max((self.asks(option, cut) for option in node.options), default=0)

    def search(self, node: M.Goal) -> int:
        """Positions a goal's search visits at most: every way of taking its steps, or of stopping."""
        leaves, depth = 1, 1
        for step in node.steps:
            steps = self.steps(step)
            leaves = _cap(leaves * _power(self.ways(step) + 1, steps))
            depth += steps
        return _cap(depth * leaves)

    def run_Goal(self, node: M.Goal, cut):
        steps = sum(self.steps(s) for s in node.steps)
        return 1 + (steps + 1) * self.search(node)  # a search before the first step and before each

    def can_Goal(self, node: M.Goal):
        return self.search(node)

    def asks_Goal(self, node: M.Goal, cut):
        return sum(self.steps(s) for s in node.steps)

    def run_ForEachPlayer(self, node: M.ForEachPlayer, cut):
        who = self.expr(node.who) if node.who is not None else 0
        return 1 + self.sides * (who + self.run(node.body, cut))

    def can_ForEachPlayer(self, node: M.ForEachPlayer):
        return self.sides * self.can(node.body)

    def asks_ForEachPlayer(self, node: M.ForEachPlayer, cut):
        return self.sides * self.asks(node.body, cut)

    def _actors(self, node: M.Acting) -> int:
        return self.sides if node.actor == "each" else 1

    def run_Acting(self, node: M.Acting, cut):
        return 1 + self._actors(node) * self.run(node.statement, cut)

    def can_Acting(self, node: M.Acting):
        return self._actors(node) * self.can(node.statement)

    def asks_Acting(self, node: M.Acting, cut):
        return self._actors(node) * self.asks(node.statement, cut)

    def run_ForEachPlace(self, node: M.ForEachPlace, cut):
        # the places are looked at again before each pass; each place is done once
        return 1 + self.expr(node.places) + self.count(node.places) * (1 + self.expr(node.places)
                                                                       + self.run(node.body, cut))

    def can_ForEachPlace(self, node: M.ForEachPlace):
        return 1 + self.expr(node.places)

    def asks_ForEachPlace(self, node: M.ForEachPlace, cut):
        return self.count(node.places) * (1 + self.asks(node.body, cut))

    # ------------------------------------------------ rules carried out by name
    def _callee(self, node) -> Work:
        unit = self.calls(node)
        return self.unit_work(unit) if unit is not None else Work()

    def run_CarryOut(self, node: M.CarryOut, cut):
        return 1 + self._callee(node).run

    def can_CarryOut(self, node: M.CarryOut):
        return 1 + self._callee(node).can

    def asks_CarryOut(self, node: M.CarryOut, cut):
        return self._callee(node).asks

    def run_Score(self, node: M.Score, cut):
        return 1 + self.sides * self._callee(node).run  # each line for each player

    def asks_Score(self, node: M.Score, cut):
        return self.sides * self._callee(node).asks

    def run_Resolve(self, node: M.Resolve, cut):
        return 1 + self._callee(node).run

    def asks_Resolve(self, node: M.Resolve, cut):
        return self._callee(node).asks

    def run_Play(self, node: M.Play, cut):
        return 1 + self._callee(node).run

    def asks_Play(self, node: M.Play, cut):
        return self._callee(node).asks

    def plays(self, node: M.PlayCards) -> int:
        """How many cards a window lets a player play: its most, else the cards it may play."""
        return node.most or self.playable(node)

    def playable(self, node: M.PlayCards) -> int:
        """The cards a window may offer: those of its noun ("interrupts"), else every card of the kind played."""
        if node.type is not None:
            return self.candidates(M.Entities((node.type[0],), node.type))
        return max(self.card_counts[self.played_kind] if self.card_counts else 0, 1)

    def run_PlayCards(self, node: M.PlayCards, cut):
        # each play: the hand looked through, the uses of each card it may offer tested (as 'play a
        # card' does), and the heaviest use carried out
        uses = self.d.uses
        hand = max(self.card_counts[self.played_kind] if self.card_counts else 0, 1)
        offered = sum(1 + (self.expr(u.condition) if u.condition is not None else 0)
                      + (self.expr(u.payment) if u.payment is not None else 0) for u in uses)
        rule = max((self.run(u.rule) for u in uses), default=0)
        return 1 + self.plays(node) * (1 + hand + self.playable(node) * offered + rule)

    def asks_PlayCards(self, node: M.PlayCards, cut):
        return self.plays(node) * (1 + self._callee(node).asks)

    def payers(self) -> int:
        """The cards a payment looks through: those that pay (state.yaml, 'paying')."""
        paying = getattr(self.schema, "paying", None)
        return self.named(paying.cards) if paying is not None else 1

    def run_Pay(self, node: M.Pay, cut):
        return 1 + self.expr(node.amount) + 2 * self.payers()

    def can_Pay(self, node: M.Pay):
        return 1 + self.expr(node.amount) + self.payers()

    def run_Choose(self, node: M.Choose, cut):
        places = self.count(node.places)
        paying = self.expr(node.paying) + self.payers() if node.paying is not None else 0
        return 1 + self.expr(node.places) + places * (2 + paying) + paying

    def can_Choose(self, node: M.Choose):
        return self.run_Choose(node, False)

    def asks_Choose(self, node: M.Choose, cut):
        return 1

    # ------------------------------------------------ cards in play
    def in_play(self) -> int:
        """At most how many cards can be in play: every card of the kinds that come into play."""
        in_play = getattr(self.schema, "in_play", None)
        kinds = in_play.kinds if in_play is not None else ()
        names = [kind.name for kind in self.schema.card_kinds]
        counted = [self.card_counts[names.index(k)] for k in kinds if k in names]
        return max(sum(counted) if counted else sum(self.card_counts), 1)

    def named(self, cards) -> int:
        """How many cards a schema's noun names (content/schema.py's CardsNamed)."""
        kinds = [kind.name for kind in self.schema.card_kinds]
        if cards.kind not in kinds:
            return self.in_play()
        index = kinds.index(cards.kind)
        if cards.field is None:
            return max(self.card_counts[index], 1)
        column = self.d.cards[cards.kind].fields[[f for f, _ in self.schema.card_kinds[index].fields].index(cards.field)]
        return max(sum(1 for value in column if value in cards.values), 1)

    def candidates(self, entities) -> int:
        """At most how many cards in play an Entities can name: those of its noun ("soldiers"), every card
        of its kinds without one."""
        if isinstance(entities, M.Entities) and entities.type is not None:
            kind, field, values = entities.type
            if 0 <= kind < len(self.schema.card_kinds):
                cards = self.d.cards.get(self.schema.card_kinds[kind].name)
                if cards is not None and 0 <= field < len(cards.fields):
                    values = (values,) if isinstance(values, str) else values
                    return max(sum(1 for v in cards.fields[field] if v in values), 1)
        if isinstance(entities, M.EntityRef):
            return 1
        return self.in_play()

    def cards_taken(self, amount, entities=None) -> int:
        """How many cards a statement on cards in play takes at most (one choice each)."""
        most = self.candidates(entities) if entities is not None else self.in_play()
        if amount is None or amount.kind in ("all", "any", "cover") or (amount.n is None and amount.number is None):
            return most
        n = self.most(amount.number) if amount.number is not None else (amount.n or 0)
        return min(_cap(n), most)

    def _entity_run(self, node, cut):
        # each card taken: its legal choices listed again (a test on each card it may name; where it
        # goes and what it costs worked out), then the step
        named = getattr(node, "entities", None)
        if named is None and isinstance(node, M.EnterPlay):
            named = M.Entities((node.cards.kind,), node.cards.type)
        candidates = self.candidates(named) if named is not None else self.in_play()
        paying = self.payers() if getattr(node, "paying", None) is not None else 0
        return 1 + self.cards_taken(getattr(node, "amount", None), named) * (1 + candidates + paying + self.expr(node))

    def _entity_asks(self, node, cut):
        named = getattr(node, "entities", None)
        if named is None and isinstance(node, M.EnterPlay):
            named = M.Entities((node.cards.kind,), node.cards.type)
        return self.cards_taken(getattr(node, "amount", None), named)

    run_EnterPlay = run_LeavePlay = run_MoveEntity = run_SetFlag = _entity_run
    asks_EnterPlay = asks_LeavePlay = asks_MoveEntity = asks_SetFlag = _entity_asks

    def run_ForEachEntity(self, node, cut):
        return 1 + self.expr(node.entities) + self.in_play() * (1 + self.run(node.body, cut))

    def can_ForEachEntity(self, node):
        return 1 + self.expr(node.entities) + self.in_play() * self.can(node.body)

    def asks_ForEachEntity(self, node, cut):
        return self.in_play() * self.asks(node.body, cut)

    def asks_Keep(self, node: M.Keep, cut):
        return 0 if node.random else max(node.n, 1)

    def asks_Order(self, node: M.Order, cut):
        at_most = self.schema.piles[node.source.pile].at_most if 0 <= node.source.pile < len(self.schema.piles) \
            else None
        kind = self.kind_index.get(self.schema.piles[node.source.pile].kind, self.played_kind) \
            if 0 <= node.source.pile < len(self.schema.piles) else self.played_kind
        return at_most if at_most is not None else max(self.card_counts[kind] if self.card_counts else 0, 1)

    # ------------------------------------------------ the sequence of play
    def run_Step(self, node: M.Step, cut):
        run = self.run(node.body)
        if node.name in self.overlay_steps:
            run = max(run, self.unit_work(("step", node.name)).run)
        return 1 + run

    def can_Step(self, node: M.Step):
        can = self.can(node.body)
        if node.name in self.overlay_steps:
            can = max(can, self.unit_work(("step", node.name)).can)
        return can

    def asks_Step(self, node: M.Step, cut):
        asks = self.asks(node.body)
        if node.name in self.overlay_steps:
            asks = max(asks, self.unit_work(("step", node.name)).asks)
        return asks

    def passes(self, node) -> int:
        """At most how many passes a loop of the sequence of play makes."""
        if isinstance(node, M.Repeat):
            return limits.MAX_REPEATS
        if isinstance(node, M.ForEachCounter):
            counters = self.schema.counters
            if 0 <= node.counter < len(counters):
                return max(counters[node.counter].high - counters[node.counter].low + 1, 1)
            return 1
        return max(node.n, 1) * self.sides  # players alternate: N turns each

    def run_Repeat(self, node: M.Repeat, cut):
        test = self.expr(node.condition)
        return 1 + test + self.passes(node) * (test + self.run(node.body))

    def can_Repeat(self, node: M.Repeat):
        return 1 + self.expr(node.condition)

    def can_ForEachCounter(self, node):
        return 1

    can_Alternate = can_ForEachCounter

    def run_ForEachCounter(self, node: M.ForEachCounter, cut):
        return 1 + self.passes(node) * (1 + self.run(node.body))

    def run_Alternate(self, node: M.Alternate, cut):
        # before each turn, whether each player can take one: every statement of the turn asked
        # whether it can act (AlternateOp.can_take_turn)
        asked = self.can(node.body)
        return 1 + self.passes(node) * (self.sides * (1 + asked) + self.run(node.body))

    def asks_Repeat(self, node, cut):
        return self.passes(node) * self.asks(node.body)

    asks_ForEachCounter = asks_Alternate = asks_Repeat

    # ============================================================ conditions, places, numbers
    def expr(self, node) -> int:
        """Steps of work of testing a condition once, or of working out a set of places or a number."""
        if node is None:
            return 0
        found = self._expr.get(id(node))
        if found is None:
            found = self._expr[id(node)] = self._expr_of(node)
        return found

    def _expr_of(self, node) -> int:
        if isinstance(node, M.Entities):  # where they stand and what they carry worked out once, then each card tested
            once = self.expr(node.at) + (self.expr(node.carrying) + self.in_play() if node.carrying else 0)
            each = self.expr(node.whose[2]) if node.whose else 0
            return _cap(1 + once + self.candidates(node) * (1 + each + (1 if node.by is not None else 0)))
        if isinstance(node, M.Distance):  # along the map, place by place
            return _cap(1 + self.places + self.expr(node.to))
        if isinstance(node, M.Within):  # from place to place, each reached once
            return _cap(1 + self.expr(node.steps) + 3 * self.places)
        if isinstance(node, (M.CanPay, M.Pay)):
            return _cap(1 + self.expr(node.amount) + self.payers())
        if isinstance(node, (M.Filtered, M.WithTerm)):  # a test on each place
            test = self.expr(node.test) if isinstance(node, M.Filtered) else 1 + self.unit_work(self.calls(node)).test
            return _cap(self.expr(node.places) + self.count(node.places) * test)
        if isinstance(node, (M.Term, M.CardIs)):
            return _cap(1 + self.unit_work(self.calls(node)).test + sum(self.expr(c) for c in children(node)))
        if isinstance(node, M.Named):
            return _cap(1 + self.unit_work(self.calls(node)).test)
        if isinstance(node, M.CardWould):  # the rule asked, then tried on a copy
            rule = self._callee(node)
            return _cap(1 + rule.can + LOOK + rule.run)
        if isinstance(node, M.EachSide):
            return _cap(1 + self.sides * self.expr(node.item))
        own = 1 if isinstance(node, CONDITIONS) else 0  # names, sides, numbers: part of their test
        return _cap(own + sum(self.expr(child) for child in children(node)))

    def most(self, number) -> int:
        """The largest a number can be (how many token steps "the value of the card" can ask)."""
        if isinstance(number, M.Literal):
            return abs(number.value)
        if isinstance(number, M.CounterValue):
            counters = self.schema.counters
            if 0 <= number.counter < len(counters):
                return max(abs(counters[number.counter].low), abs(counters[number.counter].high))
            return 0
        if isinstance(number, M.CardField):
            kind = self.card_kind(number.card)
            if 0 <= kind < len(self.schema.card_kinds):
                cards = self.d.cards.get(self.schema.card_kinds[kind].name)
                if cards is not None and 0 <= number.field < len(cards.fields):
                    return max((abs(v) for v in cards.fields[number.field] if isinstance(v, int)
                                and not isinstance(v, bool)), default=0)
            return 0
        if isinstance(number, M.Count):
            if number.kind == "places":
                return self.count(number.what)
            if number.kind == "groups":
                return len(self.group_sizes)
            return max(self.card_counts, default=0)
        if isinstance(number, M.Sum):
            return _cap(sum(self.most(term) for term in number.terms))
        return 0

    # ============================================================ problems
    def at(self, node, rule, message: str, hint: str, word: Optional[str] = None) -> Diagnostic:
        return diagnostic_of(self.sources, node, rule, message, hint, word)

    def heaviest(self, statements: Sequence[object], weights: Sequence[int]):
        return statements[list(weights).index(max(weights))]

    def check(self, block, rule, cut: bool = False) -> Optional[Diagnostic]:
        """A rule (or a step, or a loop's pass, with ``cut``) that could ask for more decisions than
        the limit, or take more steps of work, at its heaviest statement."""
        if not isinstance(block, M.Block):
            test = self.expr(block)
            if test > limits.MAX_RULE_WORK:
                return self.at(block, rule, f"this rule can take {_large(test)} steps of work in one run; "
                                            f"the limit is {limits.MAX_RULE_WORK:,}", WORK_HINT)
            return None
        statements = block.statements
        if not statements:
            return None
        # decisions are bounded in rules; the sequence of play is made of decisions (cards played,
        # hands ordered, a card at a time), as many as the game is long
        asks = [0 if cut else self.asks(s) for s in statements]
        if sum(asks) > limits.MAX_EFFECT_DECISIONS:
            return self.at(self.heaviest(statements, asks), rule,
                           f"this rule can ask for up to {sum(asks):,} decisions in one run; "
                           f"the limit is {limits.MAX_EFFECT_DECISIONS:,}", ASK_HINT)
        runs = [self.run(s, cut) for s in statements]
        if sum(runs) > limits.MAX_RULE_WORK:
            hint = WORK_HINT
            units = [unit for unit in dict.fromkeys(self.calls(n) for n in meanings(block)
                                                    if isinstance(n, (M.CardWould, M.CarryOut)))
                     if unit is not None and unit[0] == "rules"]
            if units:
                unit = max(units, key=lambda u: self.unit_work(u).run)
                heaviest = self.unit_work(unit)
                field = self.schema.card_kinds[unit[1]].fields[unit[2]][0]
                if heaviest.heaviest:
                    hint = (f"this rule tries and carries out card {field}s, and the heaviest, "
                            f"{shown(heaviest.heaviest)}'s, can take up to {heaviest.run:,} steps; " + hint)
            return self.at(self.heaviest(statements, runs), rule,
                           f"this rule can take {_large(_cap(sum(runs)))} steps of work in one run; "
                           f"the limit is {limits.MAX_RULE_WORK:,}", hint)
        return None

    def parts(self, block) -> Iterator[object]:
        """The parts the sequence of play is cut into: the block, and the body of each step and
        loop inside it (a loop's body is one pass)."""
        yield block
        stack = list(reversed(block.statements))
        while stack:
            node = stack.pop()
            if isinstance(node, CUTS):
                yield node.body
            inner = []
            for child in children(node):
                if isinstance(child, M.Block):
                    inner.extend(child.statements)
                elif _is_statement(child):
                    inner.append(child)
            stack.extend(reversed(inner))

    def problems(self) -> List[Diagnostic]:
        edges = self.graph()
        circles = self.circles(edges)
        if circles:
            return circles
        order = self.topological(edges)
        for unit in order:
            self.done[unit] = self.cost_unit(unit)
        # A rule that carries out a refused rule is not refused again: the problem is reported
        # where it is written, once.  Rules are checked after what they carry out.
        refused = set()
        found_in: Dict[int, List[Diagnostic]] = {}

        def calls_refused(rule) -> bool:
            return any(unit in refused for unit in self.called_by(rule))

        def check_all(rule, cut: bool) -> List[Diagnostic]:
            return [p for p in (self.check(part, rule, cut=True) for part in self.parts(rule))
                    if p is not None] if cut else [p for p in (self.check(rule, rule),) if p is not None]

        for unit in order:
            if unit[0] == "term":
                if any(callee in refused for callee, _, _ in edges[unit]):
                    refused.add(unit)
                continue
            for rule, _ in self.rules_of(unit):
                if calls_refused(rule):
                    refused.add(unit)
                    continue
                if id(rule) not in found_in:
                    found_in[id(rule)] = check_all(rule, cut=unit[0] == "step")
                if found_in[id(rule)]:
                    refused.add(unit)
        found: List[Diagnostic] = []
        seen = set()
        for unit in self.units():  # in the order written
            for rule, _ in self.rules_of(unit):
                if id(rule) not in seen:
                    seen.add(id(rule))
                    found.extend(found_in.get(id(rule), ()))
        # the sequence of play, cut at its steps and loops
        for rule in (self.d.setup, self.d.play):
            for part in self.parts(rule):
                if not calls_refused(part):
                    problem = self.check(part, rule, cut=True)
                    if problem is not None:
                        found.append(problem)
        if not found and not refused:
            problem = self.whole_game()
            if problem is not None:
                found.append(problem)
        return found

    def whole_game(self) -> Optional[Diagnostic]:
        """The whole sequence of play, every loop at its most passes: within the work the engine
        may do between two decisions, so that even a game that asks nothing cannot hang."""
        statements = [(s, self.d.setup) for s in self.d.setup.statements] + \
                     [(s, self.d.play) for s in self.d.play.statements]
        runs = [self.run(s) for s, _ in statements]
        total = _cap(sum(runs))
        if total <= limits.MAX_GAME_WORK or not statements:
            return None
        statement, rule = statements[runs.index(max(runs))]
        while True:  # down to the statement that alone goes past the limit, and no further
            inner = [s for child in children(statement) if isinstance(child, M.Block) for s in child.statements]
            heaviest = max(inner, key=self.run, default=None)
            if heaviest is None or self.run(heaviest) <= limits.MAX_GAME_WORK:
                break
            statement = heaviest
        return self.at(statement, rule, f"the sequence of play can take {_large(total)} steps of work in one game; "
                                        f"the limit is {limits.MAX_GAME_WORK:,}", GAME_HINT)


CONDITIONS = (M.AnyOf, M.AllOf, M.Not, M.EachSide, M.Controls, M.ControlsCount, M.ControlsMore, M.TokensIn,
              M.TokensMore, M.NumberTest, M.CounterMore, M.IsFirstPlayer, M.IsSide, M.IsRole, M.HasAttribute,
              M.ZoneEntered, M.MarkerAt, M.CardIs, M.CardFor, M.PlayedBy, M.CardWould, M.Would, M.AllInOneGroup,
              M.Named, M.Term, M.EntityFlag, M.EntityAt, M.EntityIn, M.CardIsType, M.CanPay, M.RegisterSet)
STATEMENTS = (M.Transfer, M.PlaceMarker, M.RemoveMarker, M.ChangeCounter, M.SetCounter, M.SetRegister, M.Draw,
              M.Shuffle, M.Put, M.Reveal, M.Discard, M.Play, M.Keep, M.Order, M.CarryOut, M.Score, M.Resolve,
              M.Win, M.Stop, M.Forget, M.Call, M.Acting, M.If, M.Either, M.FirstOf, M.Goal, M.ForEachPlayer,
              M.ForEachPlace, M.ForEachCounter, M.Step, M.Repeat, M.Alternate,
              M.EnterPlay, M.LeavePlay, M.MoveEntity, M.SetFlag, M.ForEachEntity, M.ChangeEntityField,
              M.Pay, M.Choose, M.PlayCards)


# meanings that carry out or test a rule by name
CALLERS = frozenset((M.CarryOut, M.Score, M.Win, M.Named, M.Term, M.CardIs, M.WithTerm, M.CardRef, M.CardWould,
                     M.Resolve, M.Play, M.Step, M.PlayCards))


def _is_statement(node) -> bool:
    return isinstance(node, STATEMENTS)


def definition_problems(definition, sources: Dict[int, Tuple[object, object]]) -> List[Diagnostic]:
    """The problems with the work bounds of a definition whose rules are all resolved: rules that
    carry each other out in a circle, and rules, steps or a whole game past the limits
    (docs/limits.md).  ``sources``: id of each rule as read -> (the rule, where its text is)."""
    return RuleBound(definition, sources).problems()


def definition_costs(definition) -> Dict[str, int]:
    """The work bound of every rule of a definition, by a label for it (docs/limits.md)."""
    bound = RuleBound(definition, {})
    edges = bound.graph()
    if bound.circles(edges):
        return {}
    for unit in bound.topological(edges):
        bound.done[unit] = bound.cost_unit(unit)
    found: Dict[str, int] = {}
    for unit in bound.units():
        if unit[0] in ("term", "step"):
            continue
        for rule, whose in bound.rules_of(unit):
            if isinstance(rule, M.Block):
                label = f"{bound.label(unit)}: {whose}" if whose else bound.label(unit)
                found[label] = max(found.get(label, 0), bound.run(rule))
    for rule in (definition.setup, definition.play):
        for node in meanings(rule):
            if isinstance(node, M.Step):
                found[f"the step '{node.name}'"] = bound.run(node.body, cut=True)
    for name, rules in bound.overlay_steps.items():
        for role, rule in rules.items():
            if rule is not None:
                found[f"the step '{name}' ({role or 'every side'})"] = bound.run(rule, cut=True)
    found["the whole game"] = _cap(bound.run(definition.setup) + bound.run(definition.play))
    return found
