"""Generated code, part two: conditions, numbers, sides, cards and place sets written as Python
expressions on a position's flat values (``V``), exactly as compiler.py's closures evaluate them.

``ValueWriter`` is mixed into codegen.CodeGenerator; a ``Scope`` is what the generator knows about
the context (ops.Ctx) where code is written.  A shape without an expression raises ``Unsupported``
and the compiled closure is called instead.  Safety as for all generated code (docs/limits.md):
only generated names, range-checked integers and references into the constants table ``K``.
"""

from __future__ import annotations

import re
from typing import List, Optional

from crisis.ruleset import meaning as M

from .layout import NOBODY
from .ops import Ctx

MAX_INTEGER = 10 ** 9  # integers written into the source are checked against this bound
MAX_EXPRESSION = 12  # named conditions and terms written inside one another, at most

FIELDS = ("group", "place", "card", "reason", "effect")
DEFAULTS = {"group": NOBODY, "place": NOBODY, "card": NOBODY, "reason": "", "effect": NOBODY}
_INT = re.compile(r"^-?\d+$")
_COMPARE = {"==", ">=", "<=", ">", "<"}


class GenerationError(Exception):
    """A value the generator will not write into source (a bug, never content's fault)."""


class Unsupported(Exception):
    """A shape the expressions below do not write: the compiled closure is called instead."""


def _is_int(expr) -> bool:
    return isinstance(expr, str) and bool(_INT.match(expr))


class Scope:
    """What the generator knows about the context (ops.Ctx) where code is written: ``me``, an
    expression for the acting side; ``known``, the fields fixed there (None: nothing is known);
    ``place``, a local holding "this space" whose group is "this dimension"; and how to get the
    context object itself, only when something needs it: ``value``, an expression, bound to a
    local at the scope's ``slot`` the first time it is asked for."""

    def __init__(self, gen: "ValueWriter", value: str, me: str, known: Optional[dict], place: Optional[str] = None,
                 slot: Optional[list] = None, exprs: Optional[dict] = None):
        self.gen, self.value, self.me, self.known, self.place, self.slot = gen, value, me, known, place, slot
        self.exprs = exprs or {}  # fields read from expressions (a card's context: "the card", its place)
        self._bound: Optional[str] = None

    def ctx(self) -> str:
        """An expression for the context object."""
        if self.slot is None:
            return self.value
        if self._bound is None:
            self._bound = self.gen.name("c")
            self.slot[1] = f"{self._bound} = {self.value}"
        return self._bound

    def field(self, name: str) -> str:
        if name == "me":
            return self.me
        if name in self.exprs:
            return self.exprs[name]
        if self.place is not None and name in ("place", "group"):
            return self.place if name == "place" else f"{self.gen.const(self.gen.program.group_of)}[{self.place}]"
        if self.known is not None and name in self.known:
            value = self.known[name]
            return self.gen.integer(value) if type(value) is int else self.gen.const(value)
        return f"{self.ctx()}.{name}"

    def _static(self, fields) -> bool:
        return self.known is not None and all(f in self.known for f in fields)

    def _kept(self, *changed) -> dict:
        return {f: e for f, e in self.exprs.items() if f not in changed}

    # ------------------------------------------------------------ derived contexts
    def as_side(self, me: str) -> "Scope":
        gen = self.gen
        if self.place is None and self._static(FIELDS):
            value = f"{gen.contexts_by_side(self.known)}[{me}]"
        elif self.place is not None and self._static(("card", "reason", "effect")):
            value = f"{gen.contexts_by_place(self.known)}[{me}][{self.place}]"
        else:
            value = f"{self.ctx()}.as_side({me})"
        return Scope(gen, value, me, self.known, self.place, exprs=self._kept())

    def with_place(self, place: str) -> "Scope":
        """"for each ... space": this space, and its group as this dimension."""
        gen = self.gen
        known = None if self.known is None else {k: v for k, v in self.known.items() if k not in ("place", "group")}
        if self._static(("card", "reason", "effect")):
            value = f"{gen.contexts_by_place(self.known)}[{self.me}][{place}]"
        else:
            value = f"{self.ctx()}._replace(place={place}, group={gen.const(gen.program.group_of)}[{place}])"
        return Scope(gen, value, self.me, known, place, exprs=self._kept("place", "group"))

    def with_reason(self, reason: str) -> "Scope":
        gen = self.gen
        known = None if self.known is None else dict(self.known, reason=reason)
        scope = Scope(gen, "", self.me, known, self.place, exprs=self._kept("reason"))
        if self.place is None and scope._static(FIELDS):
            scope.value = f"{gen.contexts_by_side(known)}[{self.me}]"
        elif self.place is not None and scope._static(("card", "reason", "effect")):
            scope.value = f"{gen.contexts_by_place(known)}[{self.me}][{self.place}]"
        else:
            scope.value = f"{self.ctx()}._replace(reason={gen.const(reason)})"
        return scope

    def with_side_and_reason(self, me: str, zone: str, reasons: tuple) -> "Scope":
        """A zone's entry resolved for a side: ``me`` and the reason, one of ``reasons`` by ``zone``."""
        gen = self.gen
        known = None if self.known is None else {k: v for k, v in self.known.items() if k != "reason"}
        if self.place is None and self._static(("group", "place", "card", "effect")):
            table = tuple(tuple(Ctx(side, **dict(self.known, reason=r)) for r in reasons)
                          for side in range(len(gen.program.schema.sides)))
            value = f"{gen.const(table)}[{me}][{zone}]"
        else:
            value = f"{self.ctx()}._replace(me={me}, reason={gen.const(reasons)}[{zone}])"
        return Scope(gen, value, me, known, self.place, exprs=self._kept("reason"))


class ValueWriter:
    """Expressions for the checked rules' values (a mixin of codegen.CodeGenerator)."""

    # ------------------------------------------------------------ arithmetic on expressions
    @staticmethod
    def paren(expr) -> str:
        if expr is True:
            return "True"
        if expr is False:
            return "False"
        return expr if re.match(r"^[\w.\[\]]+$", expr) else f"({expr})"

    def add(self, a: str, b: str) -> str:
        if _is_int(a) and _is_int(b):
            return self.integer(int(a) + int(b))
        if a == "0":
            return b
        if b == "0":
            return a
        return f"{a} + {b}"

    def times(self, a: str, b: str) -> str:
        if _is_int(a) and _is_int(b):
            return self.integer(int(a) * int(b))
        if a == "1":
            return b
        if b == "1":
            return a
        if a == "0" or b == "0":
            return "0"
        return f"{self.paren(a)} * {self.paren(b)}"

    def offset(self, base: int, side: str) -> str:
        return self.add(self.integer(base), side)

    def other(self, me: str) -> str:
        """The other side of two."""
        if _is_int(me):
            return self.integer(1 - int(me))
        return f"(1 - {me})"

    @staticmethod
    def any_of(parts):
        if any(p is True for p in parts):
            return True
        parts = [p for p in parts if p is not False]
        if not parts:
            return False
        return parts[0] if len(parts) == 1 else "(" + " or ".join(ValueWriter.paren(p) for p in parts) + ")"

    @staticmethod
    def all_of(parts):
        if any(p is False for p in parts):
            return False
        parts = [p for p in parts if p is not True]
        if not parts:
            return True
        return parts[0] if len(parts) == 1 else "(" + " and ".join(ValueWriter.paren(p) for p in parts) + ")"

    @staticmethod
    def negate(expr):
        if expr is True or expr is False:
            return not expr
        return f"not {ValueWriter.paren(expr)}"

    # ------------------------------------------------------------ sides and players
    def first_player(self) -> str:
        """The first player as an expression: the content's rules, the first that holds for exactly
        one side (board.first_player without an automa)."""
        program = self.program
        rules = program.definition.first_player
        if self.sides != 2 or len(rules) != len(program.first_player_rules):
            return "board.first_player()"
        root = dict(DEFAULTS)
        expr = "0"
        try:
            for rule in reversed(rules):
                holds = [self.condition(rule, Scope(self, self.const(Ctx(s)), self.integer(s), root), "-1")
                         for s in range(2)]
                only = [self.all_of([holds[s], self.negate(holds[1 - s])]) for s in range(2)]
                if only[0] is True:
                    expr = "0"
                elif only[1] is True and only[0] is False:
                    expr = "1"
                else:
                    first = f"0 if {self.paren(only[0])} else " if only[0] is not False else ""
                    second = f"1 if {self.paren(only[1])} else " if only[1] is not False else ""
                    expr = f"({first}{second}{expr})" if first or second else expr
        except Unsupported:
            return "board.first_player()"
        return expr

    def order(self) -> str:
        """The sides in turn order, the first player first."""
        if self.sides == 2:
            first = self.first_player()
            if _is_int(first):
                return f"({first}, {self.other(first)})"
            local = self.name("s")
            self.out.line(f"{local} = {first}")
            return f"({local}, 1 - {local})"
        return "board.order()"

    def side(self, side: M.Side, scope: Scope) -> str:
        kind = side.kind
        if kind == "me":
            return scope.me
        if kind == "opponent" and self.sides == 2:
            return self.other(scope.me)
        if kind == "side":
            return self.integer(side.index)
        if kind == "first":
            return self.first_player()
        if kind == "register":
            return f"V[{self.integer(self.program.layout.register[side.index])}]"
        raise Unsupported(f"the side {kind}")

    # ------------------------------------------------------------ piles and cards
    def pile(self, ref: M.PileRef, scope: Scope) -> str:
        """The index (in Position.piles) of the one pile a reference names (compiler.pile)."""
        layout, schema = self.program.layout, self.program.schema
        pile = ref.pile
        if not schema.piles[pile].each_side:
            return self.integer(layout.pile(pile))
        per_side = tuple(layout.pile(pile, s) for s in range(self.sides))
        if ref.each:
            return self.integer(per_side[0])
        side = scope.me if ref.side is None or ref.side.kind == "me" else self.side(ref.side, scope)
        if _is_int(side):
            return self.integer(per_side[int(side)])
        if per_side == tuple(range(per_side[0], per_side[0] + self.sides)):
            return self.add(self.integer(per_side[0]), side)
        return f"{self.const(per_side)}[{side}]"

    def piles(self, ref: M.PileRef, scope: Scope) -> Optional[List[str]]:
        """The pile indices a reference names, in order (compiler.pile_sides), when fixed in number."""
        layout, schema = self.program.layout, self.program.schema
        pile = ref.pile
        if not schema.piles[pile].each_side:
            return [self.integer(layout.pile(pile))]
        if ref.each:
            return [self.integer(layout.pile(pile, s)) for s in range(self.sides)]
        try:
            return [self.pile(ref, scope)]
        except Unsupported:
            return None

    def card(self, ref, scope: Scope, closure=None) -> str:
        """A card (its index in its kind, or -1), as an expression; else the compiled closure."""
        try:
            if ref is None:
                raise Unsupported("no card")
            return self.card_expr(ref, scope)
        except Unsupported:
            compiled = closure() if closure is not None else self.program.compiler.card(ref)
            return f"{self.const(compiled)}(board, {scope.ctx()})"

    def card_expr(self, ref: M.CardRef, scope: Scope) -> str:
        if ref.kind == "this":
            return scope.field("card")
        if ref.kind == "last_played":
            return f"V[{self.integer(self.program.layout.last_card)}]"
        if ref.kind in ("top", "pile"):
            return f"(board.piles[{self.pile(ref.pile, scope)}] or (-1,))[-1]"
        if ref.kind == "current":
            program = self.program
            counter = program.schema.piles[ref.pile.pile].position
            step = f"V[{self.integer(program.layout.counter[program.counter_index[counter]])}]"
            pile = f"board.piles[{self.pile(ref.pile, scope)}]"
            return f"({pile}[{step}] if 0 <= {step} < len({pile}) else -1)"
        if ref.kind == "term":
            program = self.program
            meaning = program.term_meanings[ref.pile.pile]
            if program.term_types[ref.pile.pile] != "card" or not isinstance(meaning, M.CardRef) or \
                    self._depth >= MAX_EXPRESSION:
                raise Unsupported("a term's card")
            side = self.side(ref.pile.side or M.ME, scope)
            self._depth += 1
            try:
                return self.card_expr(meaning, scope.as_side(side))
            finally:
                self._depth -= 1
        raise Unsupported(f"the card {ref.kind}")

    def field_of(self, kind: int, field: int, missing, empty=None) -> str:
        """A card field's values, with ``missing`` last: read at card -1, it is the value for no card;
        an empty field (None) reads as ``empty``."""
        values = self.program.cards[kind].fields[field]
        if empty is None and any(v is None for v in values):
            raise Unsupported("a field some cards leave empty")
        return self.shared(("field", kind, field, missing, empty),
                           lambda: tuple(empty if v is None else v for v in values) + (missing,))

    # ------------------------------------------------------------ conditions
    def test(self, closure, node, scope: Scope, it: str):
        """A condition as an expression (or True/False), else its compiled closure called."""
        return self._written_or_called(self.condition, closure, node, scope, it)

    def number_or_call(self, closure, node, scope: Scope, it: str) -> str:
        """A number as an expression, else its compiled closure called."""
        return self._written_or_called(self.number, closure, node, scope, it)

    def _written_or_called(self, write, closure, node, scope: Scope, it: str):
        """``write(node, ...)``'s expression where it has a template, else ``closure`` called."""
        if node is not None:
            try:
                return write(node, scope, it)
            except Unsupported:
                pass
        return f"{self.const(closure)}(board, {scope.ctx()}, {it})"

    def condition(self, node, scope: Scope, it: str):
        """The expression of a checked condition (compiler.condition's closures, written out);
        Unsupported for the shapes without one."""
        method = getattr(self, "cond_" + type(node).__name__, None)
        if method is None:
            raise Unsupported(type(node).__name__)
        return method(node, scope, it)

    def condition_or_call(self, node, scope: Scope, it: str):
        try:
            return self.condition(node, scope, it)
        except Unsupported:
            compiled = self.program.compiler.condition(node)
            return f"{self.const(compiled)}(board, {scope.ctx()}, {it})"

    def cond_AnyOf(self, node, scope, it):
        return self.any_of([self.condition_or_call(i, scope, it) for i in node.items])

    def cond_AllOf(self, node, scope, it):
        return self.all_of([self.condition_or_call(i, scope, it) for i in node.items])

    def cond_Not(self, node, scope, it):
        return self.negate(self.condition_or_call(node.item, scope, it))

    def cond_EachSide(self, node, scope, it):
        return self.all_of([self.condition_or_call(node.item, scope.as_side(self.integer(s)), it)
                            for s in range(self.sides)])

    def controls(self, side: str, place: str) -> str:
        """``side`` controls ``place`` (a place >= 0): more tokens there than each other side."""
        if self.two:
            return f"{self.tokens_at(side, place)} > {self.tokens_at(self.other(side), place)}"
        return f"board.controls({side}, {place})"

    def controls_group(self, side: str, group: str) -> str:
        if _is_int(group) and self.two:
            return self.all_of([self.controls(side, self.integer(p)) for p in self.program.group_places[int(group)]])
        return f"board.controls_group({side}, {group})"

    def nobody_controls(self, place: str) -> str:
        return self.negate(self.any_of([self.controls(self.integer(s), place) for s in range(self.sides)]))

    def target(self, node, kind: str, scope: Scope, it: str) -> str:
        """A place or a group index (-1 for none)."""
        if kind == "group":
            return self.group(node, scope, it)
        first = self.first_place(node, scope, it)
        return first

    def first_place(self, node, scope: Scope, it: str) -> str:
        """The first place of a place set, or -1."""
        if isinstance(node, M.Fixed):
            return self.integer(node.places[0]) if node.places else "-1"
        if isinstance(node, M.ContextPlace) and node.kind == "this":
            return scope.field("place")
        if isinstance(node, M.ContextPlace) and node.kind == "it":
            return it
        return f"({self.place_list(node, scope, it)} or (-1,))[0]"

    def cond_Controls(self, node: M.Controls, scope, it):
        target = self.target(node.target, node.target_kind, scope, it)
        if not re.match(r"^[\w.]+$", target):  # read once: bound by a comprehension of one
            bound = self.name("i")
            test = self.cond_Controls_at(node, scope, bound)
            return f"[{bound} for {bound} in [{target}] if {self.paren(test)}] != []"
        return self.cond_Controls_at(node, scope, target)

    def cond_Controls_at(self, node: M.Controls, scope, target: str):
        if node.nobody:
            if node.target_kind == "group":
                raise Unsupported("a group nobody controls")
            test = self.nobody_controls(target)
        else:
            side = self.side(node.side, scope)
            test = (self.controls_group(side, target) if node.target_kind == "group"
                    else self.controls(side, target))
        if _is_int(target):
            return test if int(target) >= 0 else False
        return self.all_of([f"{target} >= 0", test])

    def cond_ControlsCount(self, node: M.ControlsCount, scope, it):
        side = self.side(node.side, scope)
        if node.within is not None:
            group = self.group(node.within, scope, it)
            if not _is_int(group):
                raise Unsupported("a group chosen by the position")
            if int(group) < 0:
                return False
            places = self.program.group_places[int(group)]
        else:
            places = range(self.n)
        count = "(" + " + ".join(self.paren(self.controls(side, self.integer(p))) for p in places) + ")" \
            if places else "0"
        return self.compare(count, node.test)

    def cond_ControlsMore(self, node: M.ControlsMore, scope, it):
        side, other = self.side(node.side, scope), self.side(node.other, scope)

        def count(s):
            return "(" + " + ".join(self.paren(self.controls(s, self.integer(p))) for p in range(self.n)) + ")"
        return f"{count(side)} > {count(other)}"

    def compare(self, value: str, comparison: M.Comparison) -> str:
        if comparison.op not in _COMPARE:
            raise Unsupported(comparison.op)
        return f"{self.paren(value)} {comparison.op} {self.integer(comparison.n)}"

    def token_count(self, where, scope: Scope, it: str, side: str) -> str:
        if isinstance(where, M.ContextPlace) and where.kind == "it":
            return self.tokens_at(side, it)
        if isinstance(where, M.Holder):
            code = self.program.compiler.holder(where).codes[0]
            return self.count_at(side, code)
        if isinstance(where, M.Fixed):
            return "(" + " + ".join(self.tokens_at(side, self.integer(p)) for p in where.places) + ")" \
                if where.places else "0"
        raise Unsupported("tokens in places chosen by the position")

    def cond_TokensIn(self, node: M.TokensIn, scope, it):
        side = self.side(node.side, scope)
        return self.compare(self.token_count(node.where, scope, it, side), node.test)

    def cond_TokensMore(self, node: M.TokensMore, scope, it):
        side, other = self.side(node.side, scope), self.side(node.other, scope)
        mine, theirs = (self.token_count(node.where, scope, it, s) for s in (side, other))
        if node.lead is None:
            return f"{mine} > {theirs}"
        return self.compare(f"{mine} - {theirs}", node.lead)

    def cond_NumberTest(self, node: M.NumberTest, scope, it):
        if node.test is not None:
            return self.compare(self.number(node.number, scope, it), node.test)
        if node.op not in _COMPARE:
            raise Unsupported(node.op)
        if isinstance(node.number, (M.CardField, M.GroupRef)):
            # a card's field compared: false without a card, or where a field is empty (read as -1)
            a, b = self.number(node.number, scope, it, empty=NOBODY), self.number(node.other, scope, it, empty=NOBODY)
            return self.all_of([f"{self.paren(a)} >= 0", f"{self.paren(b)} >= 0",
                                f"{self.paren(a)} {node.op} {self.paren(b)}"])
        return f"{self.paren(self.number(node.number, scope, it))} {node.op} " \
               f"{self.paren(self.number(node.other, scope, it))}"

    def cond_CounterMore(self, node: M.CounterMore, scope, it):
        offset = self.program.layout.counter[node.counter]
        if not self.program.schema.counters[node.counter].each_side and not (
                node.side.kind == "side" and node.other.kind == "side"):
            raise Unsupported("a counter of the game compared per side")
        side, other = self.side(node.side, scope), self.side(node.other, scope)
        mine, theirs = (f"V[{self.offset(offset, s)}]" for s in (side, other))
        return f"{mine} < {theirs}" if node.fewer else f"{mine} > {theirs}"

    def cond_IsFirstPlayer(self, node: M.IsFirstPlayer, scope, it):
        return f"{self.paren(self.first_player())} == {self.paren(self.side(node.side, scope))}"

    def cond_IsSide(self, node: M.IsSide, scope, it):
        side = self.side(node.side, scope)
        if _is_int(side):
            return int(side) == node.named
        return f"{self.paren(side)} == {self.integer(node.named)}"

    def cond_IsRole(self, node: M.IsRole, scope, it):
        registers = self.program.declarations.registers
        if node.role not in registers:
            raise Unsupported("a role of the automa")
        offset = self.program.layout.register[registers.index(node.role)]
        return f"V[{self.integer(offset)}] {'!=' if node.negated else '=='} {self.paren(self.side(node.side, scope))}"

    def cond_HasAttribute(self, node: M.HasAttribute, scope, it):
        program = self.program
        members = frozenset(program.place_index[p] for p in program.schema.map.attributes[node.attribute])
        if isinstance(node.place, M.ContextPlace) and node.place.kind == "that":
            raise Unsupported("that space")
        place = self.first_place(node.place, scope, it)
        if _is_int(place):
            return int(place) in members
        return f"{place} in {self.const(members)}"

    def cond_ZoneEntered(self, node: M.ZoneEntered, scope, it):
        zone = node.zone
        layout = self.program.layout
        side = self.side(zone.side, scope)
        slot = self.add(self.integer(layout.entered + layout.zone_base[zone.track] + zone.zone),
                        self.times(side, self.integer(layout.zones)))
        return f"V[{slot}] != 0"

    def cond_MarkerAt(self, node: M.MarkerAt, scope, it):
        offset = self.integer(self.program.layout.marker + node.marker)
        if node.where is None:
            return f"V[{offset}] {'==' if node.off else '!='} -1"
        places = self.place_list(node.where, scope, it)
        return f"V[{offset}] in {places}"

    def cond_CardFor(self, node: M.CardFor, scope, it):
        kind = self.program.compiler.card_kind(node.card)
        usable = self.program.cards[kind].sides_field()
        only = node.only
        table = tuple(tuple(s in usable[c] and not (only and len(usable[c]) > 1) for c in range(len(usable)))
                      + (False,) for s in range(self.sides))
        card = self.card_expr(node.card, scope)
        side = self.side(node.side, scope)
        return f"{self.const(table)}[{side}][{card}]"

    def cond_PlayedBy(self, node: M.PlayedBy, scope, it):
        layout = self.program.layout
        card = self.card_expr(node.card, scope)
        if not re.match(r"^[\w.]+$", card):
            raise Unsupported("a card read twice")
        side = self.side(node.side, scope)
        return self.all_of([f"{card} >= 0", f"V[{self.integer(layout.last_card)}] == {card}",
                            f"V[{self.integer(layout.last_side)}] == {self.paren(side)}"])

    def nested(self, meaning, scope, it):
        if self._depth >= MAX_EXPRESSION:
            raise Unsupported("conditions nested too deep")
        self._depth += 1
        try:
            return self.condition(meaning, scope, it)
        finally:
            self._depth -= 1

    def cond_Named(self, node: M.Named, scope, it):
        kind, meaning = list(self.program.definition.procedures.values())[node.procedure]
        if kind != "condition":
            raise Unsupported("a named rule that is not a condition")
        return self.nested(meaning, scope, it)

    def cond_Term(self, node: M.Term, scope, it):
        return self.nested(self.program.term_meanings[node.term], scope, it)

    # ------------------------------------------------------------ numbers
    def number(self, node, scope: Scope, it: str, empty=None) -> str:
        """The expression of a checked number (compiler.number's closures, written out).  With
        ``empty``, a card's field that holds nothing reads as ``empty`` (NumberTest's comparisons)."""
        if isinstance(node, M.Literal):
            return self.integer(node.value)
        if isinstance(node, M.CounterValue):
            declared = self.program.schema.counters[node.counter]
            offset = self.program.layout.counter[node.counter]
            if not declared.each_side:
                return f"V[{self.integer(offset)}]"
            return f"V[{self.offset(offset, self.side(node.side or M.ME, scope))}]"
        if isinstance(node, M.CardField):
            kind = self.program.compiler.card_kind(node.card)
            return f"{self.field_of(kind, node.field, 0, empty)}[{self.card_expr(node.card, scope)}]"
        if isinstance(node, M.Count):
            return self.count(node, scope, it)
        if isinstance(node, M.Sum):
            terms = [self.number(t, scope, it) for t in node.terms]
            signs = (1,) + tuple(node.signs)
            text = ""
            for sign, term in zip(signs, terms):
                if sign not in (1, -1):
                    raise Unsupported("a sign")
                text += ("-" if sign < 0 else ("+" if text else "")) + f" {self.paren(term)} "
            return f"({text.strip()})"
        if isinstance(node, M.GroupRef):
            return self.group(node, scope, it, empty)
        raise Unsupported(type(node).__name__)

    def count(self, node: M.Count, scope: Scope, it: str) -> str:
        if node.kind == "groups":
            groups = len(self.program.group_places)
            if node.who is None:
                return self.integer(groups)
            if node.who.kind == "nobody":
                raise Unsupported("groups nobody controls")
            side = self.side(node.who, scope)
            if not self.two:
                return f"board.groups_controlled({side})"
            parts = [self.paren(self.controls_group(side, self.integer(g))) for g in range(groups)]
            return "(" + " + ".join(parts) + ")" if parts else "0"
        if node.kind == "cards":
            if isinstance(node.what, M.PileRef):
                return f"len(board.piles[{self.pile(node.what, scope)}])"
            return f"len({self.cards(node.what, scope)})"
        return f"len({self.place_list(node.what, scope, it)})"

    def group(self, node: M.GroupRef, scope: Scope, it: str, empty=None) -> str:
        """A group index, or -1."""
        if node.kind == "named":
            return self.integer(node.index)
        if node.kind == "this":
            return scope.field("group")
        if node.kind == "its":
            return f"{self.shared(('group of',), lambda: tuple(self.program.group_of) + (NOBODY,))}[{it}]"
        kind = self.program.compiler.card_kind(node.card)
        return f"{self.field_of(kind, node.field, NOBODY, empty)}[{self.card_expr(node.card, scope)}]"

    def cards(self, node: M.Cards, scope: Scope) -> str:
        """The cards of piles (or those revealed), in order, as a list."""
        indices = self.card_piles(node, scope)
        if indices is not None and len(indices) == 1:
            return f"board.piles[{indices[0]}]"
        card = self.name("d")
        return f"[{card} {self.card_clauses(node, scope, card)}]"

    def card_piles(self, node: M.Cards, scope: Scope) -> Optional[List[str]]:
        """The piles of cards named by their piles; None for the revealed cards of a kind."""
        if not node.piles:
            return None
        indices = []
        for ref in node.piles:
            found = self.piles(ref, scope)
            if found is None:
                raise Unsupported("piles chosen by the position")
            indices += found
        return indices

    def card_clauses(self, node: M.Cards, scope: Scope, card: str) -> str:
        """Comprehension clauses binding ``card`` to each of the cards, in order (compiler.cards)."""
        index = self.name("i")
        indices = self.card_piles(node, scope)
        if indices is not None:
            if len(indices) == 1:
                return f"for {card} in board.piles[{indices[0]}]"
            return f"for {index} in ({', '.join(indices)},) for {card} in board.piles[{index}]"
        revealed = self.program.revealed_piles(node.kind)
        flag = self.name("i")
        return f"for {flag}, {index} in {self.const(revealed)} if V[{flag}] for {card} in board.piles[{index}]"

    # ------------------------------------------------------------ places
    def place_parts(self, node, scope: Scope, it: str, closure):
        """A place set as (clauses binding a name to each of its places, a test on each or None)."""
        if node is not None:
            try:
                return self.places(node, scope, it)
            except Unsupported:
                pass
        source = f"{self.const(closure())}(board, {scope.ctx()}, {it})"
        return (lambda place: f"for {place} in {source}"), None

    def place_list(self, node, scope: Scope, it: str) -> str:
        head, keep = self.places(node, scope, it)
        each = self.name("i")
        return f"[{each} {head(each)}" + (f" if {keep(each)}]" if keep is not None else "]")

    def places(self, node, scope: Scope, it: str):
        """A checked place set (compiler.place_set), in order: (``head(name)``, comprehension clauses
        that bind the name to each place in turn; ``keep(name)``, a test each must pass, or None)."""
        if isinstance(node, M.Fixed):
            places = self.const(tuple(node.places))
            return (lambda place: f"for {place} in {places}"), None
        if isinstance(node, M.ContextPlace):
            if node.kind == "it":
                return (lambda place: f"for {place} in ({it},)"), None
            if node.kind == "this":
                this = scope.field("place")
                if _is_int(this):
                    places = self.const((int(this),) if int(this) >= 0 else ())
                    return (lambda place: f"for {place} in {places}"), None
                return (lambda place: f"for {place} in (({this},) if {this} >= 0 else ())"), None
            raise Unsupported("that space")
        if isinstance(node, M.ContextGroupPlaces):
            groups = self.shared(("group places",), lambda: tuple(self.program.group_places) + ((),))
            if node.kind == "this":
                group = scope.field("group")  # -1: the empty entry, as the resolver's ()
                return (lambda place: f"for {place} in {groups}[{group}]"), None
            group_of = self.shared(("group of",), lambda: tuple(self.program.group_of) + (NOBODY,))
            return (lambda place: f"for {place} in ({groups}[{group_of}[{it}]] if {it} >= 0 else ())"), None
        if isinstance(node, M.CardPlaces):
            values = self.field_of(node.cards.kind, node.field, NOBODY)
            self.card_piles(node.cards, scope)  # Unsupported before anything is written

            def head(place):
                card = self.name("d")
                return f"{self.card_clauses(node.cards, scope, card)} for {place} in [{values}[{card}]]"
            return head, (lambda place: f"{place} >= 0")
        if isinstance(node, M.Related):
            head, keep = self.places(node.places, scope, it)
            if node.who.kind == "nobody":
                test = self.nobody_controls
            else:
                side = self.side(node.who, scope)

                def test(place):
                    return self.controls(side, place)
            return head, self.both(keep, test)
        if isinstance(node, (M.Filtered, M.WithTerm)):
            head, keep = self.places(node.places, scope, it)
            if isinstance(node, M.Filtered):
                meaning = node.test
            else:
                meaning = self.program.term_meanings[node.term]
            self.condition(meaning, scope, "-1")  # Unsupported before anything is written

            def test(place):
                return self.condition(meaning, scope, place)
            return head, self.both(keep, test)
        if isinstance(node, M.Union_):
            if len(node.items) == 1:
                return self.places(node.items[0], scope, it)
            if all(isinstance(item, M.Fixed) for item in node.items):
                places = self.const(tuple(dict.fromkeys(p for item in node.items for p in item.places)))
                return (lambda place: f"for {place} in {places}"), None
        raise Unsupported(type(node).__name__)

    def both(self, first, second):
        if first is None:
            return lambda place: self.paren(second(place))
        return lambda place: f"{self.paren(first(place))} and {self.paren(second(place))}"
