"""Code generation: a game program's operations written out as Python functions.

The operations (ops.py, sequence.py, transfer.py) are the checked rules
lowered to indices; here each kind of operation that is worth it is written as
straight Python (a block as its statements one after the other, an "if" as an
``if``, a loop as a loop), the way Jinja2's compiler writes a template out.
Conditions, numbers and place sets of the common shapes are written as
expressions on the flat values (``V``) from the checked rules they were
compiled from (``op.node``, ruleset/meaning.py), exactly as compiler.py
evaluates them; what has no template of its own is called through the
constants table.

Only the direct form is generated (``op.play(board, ctx, choose)``: bots and
batch play), and only for games without a log or an automa (so a step the
automa's overlay replaces is never met here, and nothing is logged); everything
else runs the operations themselves.  ``CRISIS_INTERPRET=1`` turns generation
off.

Where the code runs, the generator knows what it can of the rule's context (a
``Scope``): who "you" are (a local), and which of the other fields are fixed
there.  The main sequence of play starts from the root context, so its
contexts are read from tables made here instead of being built at each turn.

Safety (docs/limits.md): the source holds generated identifiers, a short list
of runtime names and attributes, and integer constants that were range-checked
here; every other value (an operation, a condition, a string, a table) is in
the constants table ``K`` and is referred to by its index.  ``verify.py`` parses
the source and refuses anything else before it is compiled.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional

from crisis.ruleset import meaning as M

from .layout import NOBODY
from .ops import (ActingOp, BlockOp, CounterOp, Ctx, EachPlayerOp, EitherOp, IfOp, Op, PlaceMarkerOp, RegisterOp,
                  RemoveMarkerOp, choose_place)
from .position import note
from .transfer import TransferOp
from .sequence import (MAX_REPEATS, AlternateOp, CardRuleOp, DrawOp, ForEachCounterOp, ForEachPlaceOp, ForgetOp,
                       KeepOp, OrderOp, PlayOp, ProcedureOp, PutOp, RepeatOp, ResolveOp, RevealOp, ScoreOp, StepOp,
                       StopOp)

GENERATOR_VERSION = 2
MAX_INTEGER = 10 ** 9  # integers written into the source are checked against this bound
MAX_DEPTH = 60  # nested blocks written inline; deeper ones become calls (Python's own nesting limit is 100)
MAX_EXPRESSION = 12  # named conditions and terms written inside one another, at most
ROOT_CTX = Ctx(0)  # the context play starts in (game.play_game); the main function assumes it

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


class Writer:
    def __init__(self):
        self.lines: List[object] = []  # text, or a slot [depth, text or None] filled in later
        self.depth = 0

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def slot(self) -> list:
        """A line to be written later, here and at this depth (or never)."""
        slot = [self.depth, None]
        self.lines.append(slot)
        return slot

    def indent(self) -> None:
        self.depth += 1

    def dedent(self) -> None:
        self.depth -= 1

    def text(self) -> str:
        out = []
        for line in self.lines:
            if isinstance(line, str):
                out.append(line)
            elif line[1] is not None:
                out.append("    " * line[0] + line[1])
        return "\n".join(out) + "\n"


class Scope:
    """What the generator knows about the context (ops.Ctx) where code is written: ``me``, an
    expression for the acting side; ``known``, the fields fixed there (None: nothing is known);
    ``place``, a local holding "this space" whose group is "this dimension"; and how to get the
    context object itself, only when something needs it: ``value``, an expression, bound to a
    local at the scope's ``slot`` the first time it is asked for."""

    def __init__(self, gen: "CodeGenerator", value: str, me: str, known: Optional[dict], place: Optional[str] = None,
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


class CodeGenerator:
    """Writes the direct form of a program's operations as one Python module."""

    def __init__(self, program):
        self.program = program
        self.constants: List[object] = []
        self._constant_index: Dict[int, int] = {}
        self._keep: List[object] = []  # values made here, kept alive while their ids index the table
        self._tables: Dict[tuple, object] = {}
        self.functions: Dict[int, str] = {}  # op id -> its function's name
        self.pending: List[Op] = []
        self._board = None  # a board to let statements pick their shapes on
        self.tables: Dict[tuple, str] = {}  # a tuple of functions (by op id, None for none) -> its name
        self.out = Writer()
        self._names = 0
        self._depth = 0  # named conditions and terms being written
        schema = program.schema
        self.sides = len(schema.sides)
        layout = program.layout
        self.two = self.sides == 2 and layout.tokens >= 0
        self.n = layout.places
        self.roots: Dict[int, str] = {}
        self._listings: Dict[str, str] = {}

    # ------------------------------------------------------------ values
    def const(self, value) -> str:
        """A reference to ``value`` in the constants table."""
        index = self._constant_index.get(id(value))
        if index is None:
            index = self._constant_index[id(value)] = len(self.constants)
            self.constants.append(value)
            self._keep.append(value)
        return f"K[{self.integer(index)}]"

    def shared(self, key: tuple, make) -> str:
        """A table made once for ``key`` (the same value for the same key)."""
        value = self._tables.get(key)
        if value is None:
            value = self._tables[key] = make()
        return self.const(value)

    @staticmethod
    def integer(value: int) -> str:
        if type(value) is not int or not -MAX_INTEGER <= value <= MAX_INTEGER:
            raise GenerationError(f"not a small integer: {value!r}")
        return str(value)

    def name(self, prefix: str) -> str:
        self._names += 1
        return f"{prefix}{self._names}"

    def function(self, op: Op) -> str:
        """The name of the function that plays ``op`` in any context (written later if new)."""
        name = self.functions.get(op.id)
        if name is None:
            name = self.functions[op.id] = f"f{self.integer(op.id)}"
            self.pending.append(op)
        return name

    def contexts_by_side(self, known: dict) -> str:
        key = ("side",) + tuple(known.get(f) for f in FIELDS)
        return self.shared(key, lambda: tuple(Ctx(side, **{f: known[f] for f in FIELDS})
                                              for side in range(self.sides)))

    def contexts_by_place(self, known: dict) -> str:
        group_of = self.program.group_of
        key = ("place",) + tuple(known.get(f) for f in ("card", "reason", "effect"))
        return self.shared(key, lambda: tuple(tuple(Ctx(side, group_of[place], place, known["card"], known["reason"],
                                                        known["effect"]) for place in range(self.n))
                                              for side in range(self.sides)))

    def card_contexts(self, kind: int) -> str:
        cards = self.program.cards[kind]
        return self.shared(("cards", kind), lambda: tuple(tuple(cards.context(side, card)
                                                                for card in range(len(cards.ids)))
                                                          for side in range(self.sides)))

    # ------------------------------------------------------------ module
    def module(self, roots) -> str:
        """Source defining a function for each root op (written for the root context, ROOT_CTX),
        every op they call, and ``ENTRY``: root op id -> function, for the runtime."""
        for op in roots:
            name = self.roots[op.id] = f"f{self.integer(op.id)}"
            self.functions[op.id] = name
            self.write_function(op, root=True)
        while self.pending:
            self.write_function(self.pending.pop())
        out = self.out
        for ops, name in self.tables.items():
            out.line(f"{name} = (" + "".join(f"{self.functions[op_id] if op_id is not None else 'None'}, "
                                             for op_id in ops) + ")")
        out.line("ENTRY = {" + ", ".join(f"{self.integer(op_id)}: {name}"
                                         for op_id, name in sorted(self.roots.items())) + "}")
        return out.text()

    def write_function(self, op: Op, root: bool = False) -> None:
        out = self.out
        out.line(f"def {self.functions[op.id]}(board, ctx, choose):")
        out.indent()
        out.line("V = board.values")
        if root:
            scope = Scope(self, "ctx", self.integer(ROOT_CTX.me), dict(DEFAULTS))
        else:
            me = self.name("s")
            out.line(f"{me} = ctx.me")
            scope = Scope(self, "ctx", me, None)
        self.statement(op, scope, 0)
        out.dedent()
        out.line("")

    # ------------------------------------------------------------ statements
    def statement(self, op: Op, scope: Scope, depth: int) -> None:
        """Write ``op`` played in ``scope``."""
        if depth > MAX_DEPTH:
            self.out.line(f"{self.function(op)}(board, {scope.ctx()}, choose)")
            return
        method = getattr(self, "op_" + type(op).__name__, None)
        if method is None:
            self.fallback(op, scope)
        else:
            method(op, scope, depth)

    def fallback(self, op: Op, scope: Scope) -> None:
        if op.asks:
            self.out.line(f"{self.const(op)}.play(board, {scope.ctx()}, choose)")
        else:
            self.out.line(f"{self.const(op)}.run(board, {scope.ctx()})")

    def enter(self, scope: Scope) -> Scope:
        """The scope of a block about to be written: its context is bound there when needed."""
        if scope.slot is None and not re.match(r"^[a-z]+\d*$", scope.value):
            scope.slot = self.out.slot()
        return scope

    def table(self, ops) -> str:
        """A module-level tuple of the functions of ``ops`` (None stays None), by its name."""
        key = tuple(op.id if op is not None else None for op in ops)
        for op in ops:
            if op is not None:
                self.function(op)
        name = self.tables.get(key)
        if name is None:
            name = self.tables[key] = self.name("u")
        return name

    def op_BlockOp(self, op: BlockOp, scope: Scope, depth: int) -> None:
        if not op.ops:
            self.out.line("pass")
        for child in op.ops:
            self.statement(child, scope, depth + 1)

    def op_IfOp(self, op: IfOp, scope: Scope, depth: int) -> None:
        if op.trace:
            self.fallback(op, scope)
            return
        out = self.out
        test = self.test(op.condition, op.node.condition if op.node is not None else None, scope, "-1")
        if test is True or test is False:
            branch = op.then if test else op.otherwise
            if branch is None:
                out.line("pass")
            else:
                self.statement(branch, scope, depth + 1)
            return
        out.line(f"if {test}:")
        out.indent()
        self.statement(op.then, scope, depth + 1)
        out.dedent()
        if op.otherwise is not None:
            out.line("else:")
            out.indent()
            self.statement(op.otherwise, scope, depth + 1)
            out.dedent()

    def op_StepOp(self, op: StepOp, scope: Scope, depth: int) -> None:
        self.statement(op.body, scope, depth + 1)

    def op_ForEachCounterOp(self, op: ForEachCounterOp, scope: Scope, depth: int) -> None:
        program, out = self.program, self.out
        offset = self.integer(program.layout.counter[op.counter])
        high = self.integer(program.schema.counters[op.counter].high)
        out.line("while True:")
        out.indent()
        out.line("try:")
        out.indent()
        self.statement(op.body, scope, depth + 1)
        out.dedent()
        out.line("except Stopped:")
        out.line("    break")
        out.line(f"if V[{offset}] >= {high}:")
        out.line("    break")
        out.line(f"V[{offset}] += 1")
        out.dedent()

    def op_RepeatOp(self, op: RepeatOp, scope: Scope, depth: int) -> None:
        out = self.out
        out.line(f"for _ in range({self.integer(MAX_REPEATS)}):")
        out.indent()
        test = self.test(op.condition, op.node.condition if op.node is not None else None, scope, "-1")
        out.line(f"if not {self.paren(test)}:")
        out.line("    break")
        out.line("try:")
        out.indent()
        self.statement(op.body, scope, depth + 1)
        out.dedent()
        out.line("except Stopped:")
        out.line("    break")
        out.dedent()

    def op_StopOp(self, op: StopOp, scope: Scope, depth: int) -> None:
        self.out.line("raise Stopped")

    def op_AlternateOp(self, op: AlternateOp, scope: Scope, depth: int) -> None:
        program, out = self.program, self.out
        counts = program.layout.counter[op.counter]
        sides = self.sides
        n = self.integer(op.n)
        leader = self.integer(program.layout.register[op.first])
        slots = [f"V[{self.integer(counts + s)}]" for s in range(sides)]
        side, turn, k = self.name("s"), self.name("t"), self.name("k")
        out.line(f"{self.const(note)}(board, {self.integer(op.id)}, V[{leader}] if V[{leader}] >= 0 else 0)")
        out.line("while True:")
        out.indent()
        out.line("if " + " and ".join(f"{slot} >= {n}" for slot in slots) + ":")
        out.line("    break")
        out.line(f"{turn} = " + " + ".join(slots))
        out.line(f"{turn} = (V[{leader}] + {turn}) % {sides} if V[{leader}] >= 0 else {turn} % {sides}")
        out.line(f"for {k} in range({sides}):")
        out.indent()
        out.line(f"{side} = ({turn} + {k}) % {sides}")
        turn_scope = scope.as_side(side)
        ops = getattr(op.body, "ops", (op.body,))
        can = self.can(ops[0], turn_scope) if ops else False
        out.line(f"if V[{self.integer(counts)} + {side}] < {n} and {self.paren(can)}:")
        out.line("    break")
        out.dedent()
        out.line("else:")
        out.line("    break")
        self.statement(op.body, self.enter(scope.as_side(side)), depth + 1)
        out.line(f"V[{self.integer(counts)} + {side}] += 1")
        out.dedent()

    def op_EachPlayerOp(self, op: EachPlayerOp, scope: Scope, depth: int) -> None:
        out = self.out
        side = self.name("s")
        order = self.order()
        if op.who is not None:
            chosen, who_side = self.name("p"), self.name("s")
            who = self.test(op.who, op.node.who if isinstance(op.node, M.ForEachPlayer) else None,
                            scope.as_side(who_side), "-1")
            out.line(f"{chosen} = [{who_side} for {who_side} in {order} if {self.paren(who)}]")
            order = chosen
        out.line(f"for {side} in {order}:")
        out.indent()
        self.statement(op.body, self.enter(scope.as_side(side)), depth + 1)
        out.dedent()

    def op_ActingOp(self, op: ActingOp, scope: Scope, depth: int) -> None:
        who = self.actor(op, scope)
        if who is None:
            actor = self.name("c")
            self.out.line(f"{actor} = {scope.ctx()}.as_side({self.const(op.who)}(board, {scope.ctx()}))")
            self.statement(op.body, Scope(self, actor, f"{actor}.me", None), depth + 1)
            return
        side = self.name("s")
        self.out.line(f"{side} = {who}")
        if op.first:
            self.out.line(f"{self.const(note)}(board, {self.integer(op.id)}, {side})")
        self.statement(op.body, self.enter(scope.as_side(side)), depth + 1)

    def actor(self, op: ActingOp, scope: Scope) -> Optional[str]:
        """The side an ActingOp's body runs for, as an expression (None: call its closure)."""
        node = op.node
        actor = getattr(node, "actor", None)
        if actor == "opponent" and self.sides == 2:
            return self.other(scope.me)
        if actor == "first":
            return self.first_player()
        if actor == "register":
            return f"V[{self.integer(self.program.layout.register[node.register])}]"
        return None

    def op_EitherOp(self, op: EitherOp, scope: Scope, depth: int) -> None:
        out = self.out
        possible, index = self.name("p"), self.name("i")
        out.line(f"{possible} = []")
        # what each option's statements can do; a test two options share is made once, first
        parts = [[self.can(child, scope) for child in getattr(option, "ops", (option,))] for option in op.options]
        seen, shared = set(), {}
        for text in (p for option in parts for p in option if isinstance(p, str)):
            if text in seen and text not in shared:
                shared[text] = self.name("k")
            seen.add(text)
        for text, local in shared.items():
            out.line(f"{local} = {text}")
        for i, option in enumerate(op.options):
            can = self.any_of([shared.get(p, p) if isinstance(p, str) else p for p in parts[i]]) \
                if hasattr(option, "ops") else shared.get(parts[i][0], parts[i][0]) if isinstance(parts[i][0], str) \
                else parts[i][0]
            if can is False:
                continue
            if can is True:
                out.line(f"{possible}.append({self.integer(i)})")
            else:
                out.line(f"if {can}:")
                out.line(f"    {possible}.append({self.integer(i)})")
        out.line(f"if not {possible}:")
        out.line("    board.shortfall += 1")
        out.line("else:")
        out.indent()
        each = self.name("i")
        options = f"[{self.const(tuple(op.actions))}[{each}] for {each} in {possible}]"
        out.line(f"{index} = {possible}[0] if len({possible}) == 1 else "
                 f"choose(Decision({scope.me}, {self.const('option')}, {options}, False, 0, False, "
                 f"{self.const(op.node)}, -1, -1, {self.const('')}, ({self.const(op)}, {scope.ctx()}))).a")
        for i, option in enumerate(op.options):
            out.line(f"{'if' if i == 0 else 'elif'} {index} == {self.integer(i)}:")
            out.indent()
            self.statement(option, scope, depth + 1)
            out.dedent()
        out.dedent()

    def op_ProcedureOp(self, op: ProcedureOp, scope: Scope, depth: int) -> None:
        program = self.program
        rule = program.procedures[op.procedure]
        if rule is None:
            self.fallback(op, scope)
            return
        if op.bind is None:
            self.statement(rule, self.enter(scope.with_reason(program.procedure_names[op.procedure])), depth + 1)
            return
        rule_ctx = self.name("c")
        name = program.procedure_names[op.procedure]
        bound = self.bound_contexts(op, scope, name)
        if bound is not None:
            card = self.name("d")
            try:
                self.out.line(f"{card} = {self.card_expr(op.node.bind, scope)}")
            except Unsupported:
                self.out.line(f"{card} = {self.const(op.bind)}(board, {scope.with_reason(name).ctx()})")
            self.out.line(f"{rule_ctx} = {bound}[{scope.me}][{card}]")
            known = {"reason": name, "effect": scope.known["effect"]}
            self.statement(rule, Scope(self, rule_ctx, scope.me, known), depth + 1)
            return
        self.out.line(f"{rule_ctx} = {self.const(op)}.rule_and_ctx(board, {scope.ctx()})[1]")
        self.out.line(f"{self.function(rule)}(board, {rule_ctx}, choose)")

    def bound_contexts(self, op: ProcedureOp, scope: Scope, name: str) -> Optional[str]:
        """For a procedure carried out "for" a card in a context known here: per side and card, the
        context it runs in (program.bound_ctx), and without a card (read at -1) the context itself."""
        if scope.place is not None or not scope._static(FIELDS) or not isinstance(op.node, M.CarryOut):
            return None
        program = self.program
        known = dict(scope.known, reason=name)
        cards = len(program.cards[op.bind_kind].ids)
        table = tuple(tuple(program.bound_ctx(Ctx(side, **known), op.bind_kind, card) for card in range(cards))
                      + (Ctx(side, **known),) for side in range(self.sides))
        return self.const(table)

    def op_CardRuleOp(self, op: CardRuleOp, scope: Scope, depth: int) -> None:
        out = self.out
        rules = self.program.cards[op.kind].fields[op.field]
        table = self.table(rules)
        card = self.name("d")
        out.line(f"{card} = {self.card(op.node.card, scope, lambda: op.card)}")
        out.line(f"if {card} < 0 or {table}[{card}] is None:")
        out.line("    board.shortfall += 1")
        out.line("else:")
        out.line(f"    {self.const(note)}(board, {self.integer(op.id)}, {scope.me}, {card})")
        out.line(f"    {table}[{card}](board, {self.card_contexts(op.kind)}[{scope.me}][{card}], choose)")

    def op_PlayOp(self, op: PlayOp, scope: Scope, depth: int) -> None:
        program, out = self.program, self.out
        layout = program.layout
        uses = program.uses
        plain = [u for u in uses if u.target is None]
        paid = [u for u in uses if u.target is not None]
        if any(u.table is None or u.option is not None for u in plain):
            self.play_listed(op, scope)
            return
        hand, actions, action, card, use = (self.name("p"), self.name("a"), self.name("a"), self.name("d"),
                                            self.name("u"))
        # per side and card, the actions of the uses offered for it, in the order of the uses
        per_card = tuple(tuple(tuple(u.actions[c] for u in plain if u.table[side][c])
                               for c in range(len(program.cards[program.played_kind].ids)))
                         for side in range(self.sides))
        out.line(f"{hand} = board.piles[{self.pile(op.node.source, scope)}]")
        out.line(f"{actions} = []")
        out.line(f"for {card} in {hand}:")
        out.line(f"    {actions} += {self.const(per_card)}[{scope.me}][{card}]")
        if paid:
            if all(u.option is not None for u in paid):
                test = " or ".join(f"{self.const(u.option)} in board.options" for u in paid)
                out.line(f"if {test}:")
                out.line(f"    {actions} += {self.const(paid_actions)}(board, {scope.ctx()}, {hand})")
            else:
                out.line(f"{actions} += {self.const(paid_actions)}(board, {scope.ctx()}, {hand})")
        out.line(f"if {actions}:")
        out.indent()
        out.line(f"{action} = {actions}[0] if len({actions}) == 1 else "
                 f"choose(Decision({scope.me}, {self.const('play_card')}, {actions}, False, 0, True))")
        out.line(f"{card} = {action}.a")
        out.line(f"{use} = {self.shared(('uses',), lambda: {u.name: u.index for u in uses})}[{action}.kind]")
        out.line(f"if {action}.b >= 0:")
        out.line(f"    {self.const(op)}.begin_play(board, [{self.integer(op.id)}, {scope.ctx()}, 0, -1, -1, -1], "
                 f"{action})")
        out.line("else:")
        out.line(f"    {hand}.remove({card})")
        out.line(f"    V[{self.integer(layout.reveals)}] += 1")
        # each use's rule, in the context of the card played (program.card_ctx)
        cards = program.cards[program.played_kind]
        place_field = cards.place_field()
        exprs = {"card": card, "reason": f"{self.const(cards.ids)}[{card}]", "place": "-1"}
        if place_field >= 0:
            try:
                exprs["place"] = f"{self.field_of(program.played_kind, place_field, NOBODY)}[{card}]"
            except Unsupported:  # a card without a place: read from its context
                del exprs["place"]
        for i, u in enumerate(uses):
            out.line(f"{'if' if i == 0 else 'elif'} {use} == {self.integer(i)}:")
            out.indent()
            card_scope = Scope(self, f"{self.card_contexts(program.played_kind)}[{scope.me}][{card}]", scope.me,
                               {"group": NOBODY, "effect": NOBODY}, exprs=dict(exprs))
            self.statement(u.rule, self.enter(card_scope), depth + 1)
            out.dedent()
        out.line(f"board.piles[{self.integer(program.played_pile_index)}].append({card})")
        out.line(f"V[{self.integer(layout.last_side)}] = {scope.me}")
        out.line(f"V[{self.integer(layout.last_card)}] = {card}")
        out.line(f"V[{self.integer(layout.last_use)}] = {use}")
        out.line(f"board.position.plays.append(({scope.me}, {card}, {use}))")
        out.dedent()

    def play_listed(self, op: PlayOp, scope: Scope) -> None:
        """A card play whose uses are listed by the statement itself (a use offered by a
        condition on the position)."""
        program, out = self.program, self.out
        actions, action, frame, use = self.name("a"), self.name("a"), self.name("r"), self.name("u")
        uses = self.table([u.rule for u in program.uses])
        ctx = scope.ctx()
        out.line(f"{actions} = {self.const(op)}.actions(board, {ctx})")
        out.line(f"if {actions}:")
        out.indent()
        out.line(f"{action} = {actions}[0] if len({actions}) == 1 else "
                 f"choose(Decision({scope.me}, {self.const('play_card')}, {actions}, False, 0, True))")
        out.line(f"{frame} = [{self.integer(op.id)}, {ctx}, 0, -1, -1, -1]")
        out.line(f"{use} = {self.const(op)}.begin_play(board, {frame}, {action})")
        out.line(f"{uses}[{use}.index](board, {self.card_contexts(program.played_kind)}[{scope.me}][{action}.a], "
                 f"choose)")
        out.line(f"{self.const(op)}.end(board, {ctx}, {frame})")
        out.dedent()

    def op_ForEachPlaceOp(self, op: ForEachPlaceOp, scope: Scope, depth: int) -> None:
        out = self.out
        done, left, place, each = self.name("d"), self.name("p"), self.name("i"), self.name("i")
        node = op.node.places if isinstance(op.node, M.ForEachPlace) else None
        head, keep = self.place_parts(node, scope, "-1", lambda: op.places)
        test = keep(each) if keep is not None else None
        out.line(f"{done} = ()")
        out.line("while True:")
        out.indent()
        out.line(f"{left} = [{each} {head(each)} if {each} not in {done}"
                 + (f" and {test}]" if test is not None else "]"))
        out.line(f"if not {left}:")
        out.line("    break")
        if op.chooser is None or (op.chooser == "opponent" and self.sides == 2):
            chooser = scope.me if op.chooser is None else self.other(scope.me)
            on_behalf = "-1" if op.chooser is None else scope.me
            words = tuple(self.program.actions.place_word(op.word, p) for p in range(self.n))
            decision = (f"Decision({chooser}, {self.const(op.word)}, [{self.const(words)}[{each}] for {each} in {left}], "
                        f"False, 0, False, None, -1, {on_behalf})")
        else:
            decision = f"{self.const(op)}.decision(board, {scope.ctx()}, {left})"
        out.line(f"{place} = {left}[0] if len({left}) == 1 else choose({decision}).a")
        out.line(f"{done} += ({place},)")
        self.statement(op.body, self.enter(scope.with_place(place)), depth + 1)
        out.dedent()

    def op_ResolveOp(self, op: ResolveOp, scope: Scope, depth: int) -> None:
        program, out = self.program, self.out
        layout = program.layout
        zones = program.schema.tracks[op.track].zones
        effects = program.entering[op.track]
        side, zone, rule = self.name("s"), self.name("z"), self.name("e")
        pending = [self.integer(layout.pending + layout.zone_slot(0, op.track, z)) for z in range(len(zones))]
        stride = self.integer(layout.zones)
        first = self.table([e[0] if e else None for e in effects])
        second = self.table([e[1] if e else None for e in effects])
        reasons = tuple(f"entered:{z.name}" for z in zones)
        every = [f"V[{self.integer(layout.pending + k)}]" for k in range(layout.zones * self.sides)]
        out.line(f"if {' or '.join(every) if every else 'False'}:")
        out.indent()
        order = f"({scope.me}, {self.other(scope.me)})" if self.sides == 2 else \
            f"({scope.me},) + board.others({scope.me})"
        out.line(f"for {side} in {order}:")
        out.indent()
        out.line("while True:")
        out.indent()
        for z in range(len(zones)):
            keyword = "if" if z == 0 else "elif"
            out.line(f"{keyword} V[{pending[z]} + {side} * {stride}]:")
            out.line(f"    {zone} = {self.integer(z)}")
        out.line("else:")
        out.line("    break")
        entered = scope.with_side_and_reason(side, zone, reasons)
        if self.sides == 2:
            # ResolveOp.enter written out: the entry is resolved, the side recorded in the zone's
            # order of entry (first or second), and the first or second effect carried out
            order = self.name("i")
            out.line(f"V[{self.integer(layout.pending + layout.zone_base[op.track])} + {side} * {stride} + {zone}] = 0")
            out.line(f"{order} = {self.integer(layout.entry_order + layout.zone_base[op.track] * 2)} + {zone} * 2")
            out.line(f"if V[{order}] == -1:")
            out.line(f"    V[{order}] = {side}")
            out.line(f"    {rule} = {first}[{zone}]")
            out.line("else:")
            out.line(f"    if V[{order} + 1] == -1:")
            out.line(f"        V[{order} + 1] = {side}")
            out.line(f"    {rule} = {second}[{zone}]")
            out.line(f"if {rule} is not None:")
            out.line(f"    {rule}(board, {entered.ctx()}, choose)")
        else:
            out.line(f"{rule} = {self.const(op)}.enter(board, {side}, {zone})")
            out.line(f"if {rule} is not None:")
            out.line(f"    ({first} if {rule} is {self.const(effects)}[{zone}][0] else {second})[{zone}]"
                     f"(board, {entered.ctx()}, choose)")
        out.dedent()
        out.dedent()
        out.dedent()

    def op_ScoreOp(self, op: ScoreOp, scope: Scope, depth: int) -> None:
        """Each line for each player in turn order, the change of the counter kept per line and side."""
        program, out = self.program, self.out
        offset = program.layout.counter[op.counter]
        breakdown, side, before = self.name("p"), self.name("s"), self.name("t")
        out.line(f"board.position.breakdown = [{', '.join('[]' for _ in range(self.sides))}]")
        for label, rule in program.procedure_lines[op.procedure]:
            out.line(f"for {side} in {self.order()}:")
            out.indent()
            out.line(f"{before} = V[{self.offset(offset, side)}]")
            line_scope = scope.as_side(side).with_reason(f"scoring:{label}")
            self.statement(rule, self.enter(line_scope), depth + 1)
            out.line(f"board.position.breakdown[{side}].append(({self.const(label)}, "
                     f"V[{self.offset(offset, side)}] - {before}))")
            out.dedent()

    def op_CounterOp(self, op: CounterOp, scope: Scope, depth: int) -> None:
        program, out = self.program, self.out
        node = op.node
        declared = program.schema.counters[op.counter]
        base = program.layout.counter[op.counter]
        try:
            if isinstance(node, M.SetCounter):
                if not declared.each_side:
                    raise Unsupported("a counter of the game set")  # CounterOp reads it per side
                value = self.number(node.value, scope, "-1")
                sides = [self.integer(s) for s in range(self.sides)] if op.each_side else [scope.me]
            elif isinstance(node, M.ChangeCounter):
                amount = self.number(node.amount, scope, "-1")
                per = self.number(node.per, scope, "-1") if node.per is not None else None
                side = self.side(node.side, scope) if node.side is not None else "0"
            else:
                raise Unsupported(type(node).__name__)
        except Unsupported:
            self.fallback(op, scope)
            return
        low, high = self.integer(declared.low), self.integer(declared.high)
        wanted, now = self.name("t"), self.name("t")
        if isinstance(node, M.SetCounter):
            out.line(f"{wanted} = {value}")
            for s in sides:
                offset = self.offset(base, s)
                out.line(f"{now} = V[{offset}]")
                out.line(f"if {wanted} < {now}:")
                out.line(f"    V[{offset}] = {wanted} if {wanted} > {low} else {low}")
                out.line(f"elif {wanted} > {now}:")
                out.line(f"    V[{offset}] = {wanted} if {wanted} < {high} else {high}")
            return
        offset = self.offset(base, side if declared.each_side else "0")
        sign = self.integer(op.sign)
        delta = self.times(self.times(amount, per if per is not None else "1"), sign)
        if delta == "0":
            return
        out.line(f"{wanted} = {delta}")
        out.line(f"if {wanted} > 0:")
        out.line(f"    {now} = V[{offset}] + {wanted}")
        out.line(f"    V[{offset}] = {now} if {now} < {high} else {high}")
        out.line(f"elif {wanted} < 0:")
        out.line(f"    {now} = V[{offset}] + {wanted}")
        out.line(f"    V[{offset}] = {now} if {now} > {low} else {low}")

    def op_PlaceMarkerOp(self, op: PlaceMarkerOp, scope: Scope, depth: int) -> None:
        """A marker put on one of some places (PlaceMarkerOp.play), where no effect remembers it."""
        node = op.node
        if not isinstance(node, M.PlaceMarker):
            self.fallback(op, scope)
            return
        out = self.out
        places, each, place = self.name("p"), self.name("i"), self.name("i")
        out.line(f"{places} = {self.place_list(node.places, scope, '-1') if self.place_set_ok(node.places, scope) else f'{self.const(op.places)}(board, {scope.ctx()}, -1)'}")
        out.line(f"if not {places}:")
        out.line("    board.shortfall += 1")
        out.line("else:")
        actions = tuple(self.program.actions.marker(op.marker, p) for p in range(self.n))
        out.line(f"    {place} = {places}[0] if len({places}) == 1 else "
                 f"choose(Decision({scope.me}, {self.const('marker')}, [{self.const(actions)}[{each}] for {each} in {places}], "
                 f"False, 0, False, {self.const(op.node)})).a")
        out.line(f"    V[{self.integer(self.program.layout.marker + op.marker)}] = {place}")
        effect = scope.field("effect")
        if effect != "-1":  # "that space" reads it (ops.choose_place)
            out.line(f"    if {effect} >= 0:")
            out.line(f"        {self.const(choose_place)}(board, {scope.ctx()}, {place})")

    def place_set_ok(self, node, scope: Scope) -> bool:
        try:
            self.places(node, scope, "-1")
            return True
        except Unsupported:
            return False

    def op_RegisterOp(self, op: RegisterOp, scope: Scope, depth: int) -> None:
        self.out.line(f"V[{self.integer(self.program.layout.register[op.register])}] = {self.first_player()}")

    def op_ForgetOp(self, op: ForgetOp, scope: Scope, depth: int) -> None:
        layout = self.program.layout
        for offset in (layout.last_side, layout.last_card, layout.last_use):
            self.out.line(f"V[{self.integer(offset)}] = -1")

    def op_RemoveMarkerOp(self, op: RemoveMarkerOp, scope: Scope, depth: int) -> None:
        self.out.line(f"V[{self.integer(self.program.layout.marker + op.marker)}] = -1")

    def op_DrawOp(self, op: DrawOp, scope: Scope, depth: int) -> None:
        node = op.node
        if not isinstance(node, M.Draw) or op.until >= 0:
            self.fallback(op, scope)
            return
        out = self.out
        dest, source, card = self.name("p"), self.name("p"), self.name("d")
        source_index = self.name("i")
        out.line(f"{dest} = board.piles[{self.pile(node.dest, scope)}]")
        out.line(f"{source_index} = {self.pile(node.source, scope)}")
        out.line(f"{source} = board.piles[{source_index}]")
        out.line(f"V[{self.integer(self.program.layout.reveals)}] += 1")
        out.line(f"for _ in range({self.integer(op.n)}):")
        out.indent()
        out.line(f"if {source}:")
        out.line(f"    {dest}.append({source}.pop())")
        out.line("else:")  # empty: refilled (draw_at keeps the source's list, refilled in place)
        out.line(f"    {card} = board.draw_at({source_index}, {self.integer(op.source_pile)})")
        out.line(f"    if {card} >= 0:")
        out.line(f"        {dest}.append({card})")
        out.dedent()

    def op_KeepOp(self, op: KeepOp, scope: Scope, depth: int) -> None:
        """The choice written out; each card kept by the statement itself (``keep``)."""
        node = op.node
        if not isinstance(node, M.Keep):
            self.fallback(op, scope)
            return
        out = self.out
        offer, frame, card, each = self.name("p"), self.name("r"), self.name("d"), self.name("d")
        actions = self.program.actions.keep(op.kind)
        out.line(f"{offer} = board.piles[{self.pile(node.source, scope)}]")
        out.line(f"{frame} = [{self.integer(op.id)}, {scope.ctx()}, 0, 0]")
        out.line(f"while {frame}[2] < {self.integer(op.n)} and {offer}:")
        out.indent()
        out.line(f"{card} = {offer}[0] if len({offer}) == 1 else choose(Decision({scope.me}, "
                 f"{self.const(f'{op.verb}_{op.noun}')}, [{self.const(actions)}[{each}] for {each} in {offer}], "
                 f"False, 0, {'True' if op.verb == 'keep' else 'False'})).a")
        out.line(f"{self.const(op)}.keep(board, {frame}, {card})")
        out.dedent()

    def op_PutOp(self, op: PutOp, scope: Scope, depth: int) -> None:
        """Every card of a pile into another; cards put away are face down (PutOp.run)."""
        node = op.node
        sources = self.piles(node.source, scope) if isinstance(node, M.Put) else None
        dests = self.piles(node.dest, scope) if isinstance(node, M.Put) else None
        if sources is None or dests is None:
            self.fallback(op, scope)
            return
        out = self.out
        flags = self.const(tuple(self.program.layout.pile_flag))
        for source, dest in zip(sources, dests):
            cards = self.name("p")
            out.line(f"{cards} = board.piles[{source}]")
            out.line(f"if {cards}:")
            out.line(f"    board.piles[{dest}].extend({cards})")
            out.line(f"    {cards}.clear()")
            out.line(f"    V[{flags}[{dest}]] = 0")
            out.line(f"    V[{flags}[{source}]] = 0")

    def op_RevealOp(self, op: RevealOp, scope: Scope, depth: int) -> None:
        """Piles turned face up, or their cards up to the current one (RevealOp.run)."""
        node = op.node
        program, out = self.program, self.out
        layout = program.layout
        if not isinstance(node, M.Reveal):
            self.fallback(op, scope)
            return
        indices = []
        for ref, number in zip(node.piles, op.pile_numbers):
            found = self.piles(ref, scope)
            if found is None or not all(_is_int(i) for i in found):
                self.fallback(op, scope)
                return
            indices += [(int(i), number) for i in found]
        shown = self.name("k")
        out.line(f"{shown} = 0")
        for index, number in indices:
            side = index - layout.pile(number, 0)
            flag = self.integer(layout.revealed[number] + side)
            out.line(f"if board.piles[{self.integer(index)}]:")
            out.line(f"    {shown} = 1")
            if not op.current:
                out.line(f"    V[{flag}] = 1")
            else:
                declared = program.schema.piles[number]
                counter = program.counter_index[declared.position]
                at = layout.counter[counter] + (side if program.schema.counters[counter].each_side else 0)
                out.line(f"    V[{flag}] = V[{self.integer(at)}] + 1")
        out.line(f"if {shown}:")
        out.line(f"    V[{self.integer(layout.reveals)}] += 1")

    def op_OrderOp(self, op: OrderOp, scope: Scope, depth: int) -> None:
        """A hand ordered a card at a time, first on top; the last card goes last unasked."""
        node = op.node
        if not isinstance(node, M.Order):
            self.fallback(op, scope)
            return
        program, out = self.program, self.out
        hand, dest, card = self.name("p"), self.name("p"), self.name("d")
        actions = program.actions.order(op.kind)
        rank = program.cards[op.kind].rank.__getitem__

        def listed(hand):  # the hand's cards in the order of their ids
            return [actions[c] for c in sorted(hand, key=rank)]
        out.line(f"{hand} = board.piles[{self.pile(node.source, scope)}]")
        out.line(f"if {hand}:")
        out.indent()
        out.line(f"{dest} = board.piles[{self.pile(node.dest, scope)}]")
        out.line(f"while len({hand}) > 1:")
        out.indent()
        out.line(f"{card} = choose(Decision({scope.me}, {self.const('order')}, "
                 f"{self.const(listed)}({hand}), False, len({hand}), True)).a")
        out.line(f"{hand}.remove({card})")
        out.line(f"{dest}.append({card})")
        out.dedent()
        out.line(f"{dest}.append({hand}.pop())")
        out.dedent()

    # ------------------------------------------------------------ whether an operation can act
    def can(self, op: Op, scope: Scope):
        """An expression true where ``op.can_act`` is (True or False when known here); where it
        has no expression, a call of ``can_act`` itself."""
        method = getattr(self, "can_" + type(op).__name__, None)
        found = None
        if method is not None:
            try:
                found = method(op, scope)
            except Unsupported:
                found = None
        if found is None:
            return f"{self.const(op)}.can_act(board, {scope.ctx()})"
        return found

    def can_BlockOp(self, op: BlockOp, scope: Scope):
        return self.any_of([self.can(child, scope) for child in op.ops])

    def can_EitherOp(self, op: EitherOp, scope: Scope):
        return self.any_of([self.can(option, scope) for option in op.options])

    def can_StepOp(self, op: StepOp, scope: Scope):
        return self.can(op.body, scope)

    def can_IfOp(self, op: IfOp, scope: Scope):
        test = self.test(op.condition, op.node.condition if op.node is not None else None, scope, "-1")
        then = self.can(op.then, scope)
        otherwise = self.can(op.otherwise, scope) if op.otherwise is not None else False
        if test is True or test is False:
            return then if test else otherwise
        if otherwise is False:
            return self.all_of([test, then])
        return f"({self.paren(then)} if {test} else {self.paren(otherwise)})"

    def can_PlayOp(self, op: PlayOp, scope: Scope):
        return f"len(board.piles[{self.pile(op.node.source, scope)}]) > 0"

    def can_KeepOp(self, op: KeepOp, scope: Scope):
        return f"len(board.piles[{self.pile(op.node.source, scope)}]) > 0"

    can_OrderOp = can_KeepOp

    def can_RemoveMarkerOp(self, op: RemoveMarkerOp, scope: Scope):
        return f"V[{self.integer(self.program.layout.marker + op.marker)}] != -1"

    def can_RegisterOp(self, op, scope):
        return True

    can_StopOp = can_ForEachCounterOp = can_AlternateOp = can_ForgetOp = can_RegisterOp

    def can_TransferOp(self, op: TransferOp, scope: Scope):
        if op.each or op.remember:
            raise Unsupported("a transfer into each place")
        listing = self.listing(op, scope, " or ")  # whether there is a step: any owner's
        if listing is None:
            raise Unsupported("a transfer listed by itself")
        if op.all_tokens or op.count is None:
            return listing if op.all_tokens or op.n > 0 else False
        return self.all_of([f"{self.total(op, scope)} > 0", listing])

    # ------------------------------------------------------------ transfers
    def op_TransferOp(self, op: TransferOp, scope: Scope, depth: int) -> None:
        """A transfer as TransferOp.play takes it: a step at a time, each step listed as its
        ``legal`` lists them (written out for the common shapes, and with the counts per place of
        a limit, "all in one space" or "each"), taken on the flat values.  A die, another player
        choosing and "that space" are left to the statement itself."""
        owners = self.owners(op, scope)
        if (op.random or op.chooser or op.remember or (op.limit is not None and op.limit < 1)
                or (owners is None and op.counts_steps)):
            self.fallback(op, scope)
            return
        out = self.out
        transfer = self.const(op)
        owner_table = f"{transfer}.owners({scope.me})"
        first_owner = owners[0] if owners is not None else f"{owner_table}[0]"
        counted = op.counts_steps
        used, first = self.name("u"), self.name("i")
        if counted:
            out.line(f"{used} = [0] * {self.integer(len(self.program.locations.names))}")  # steps per place
            if op.one_place:
                out.line(f"{first} = -1")  # the place of the first step
        total, k, legal, action, owner = self.name("t"), self.name("k"), self.name("a"), self.name("a"), self.name("s")
        each = self.name("i")
        remaining = f"{total} - {k}"
        if op.each:
            out.line(f"for {each} in {transfer}.each_places(board, {scope.ctx()}, {owner_table}):")
            out.indent()
            out.line(f"{total} = {self.total(op, scope)}")
            out.line(f"for {k} in range({total}):")
            remaining = "0"
        elif op.all_tokens:
            out.line(f"for _ in range({transfer}.tokens_in_sources(board, {scope.ctx()}, {owner_table})):")
            remaining = "0"
        else:
            out.line(f"{total} = {self.total(op, scope)}")
            out.line(f"for {k} in range({total}):")
        out.indent()
        only = "-1"
        if op.each:
            only = each
        if op.one_place:
            only = f"({first} if {first} >= 0 else {only})" if only != "-1" else first
        listing = self.listing(op, scope) if not counted else self.counted_listing(op, scope, owners, only, used)
        if listing is None:
            listing = f"{transfer}.legal(board, {scope.ctx()}, {owner_table}, ())"
        out.line(f"{legal} = {listing}")
        out.line(f"if not {legal}:")
        if op.all_tokens:
            out.line("    break")
        else:
            out.line(f"    board.shortfall += {remaining if not op.each else f'{total} - {k}'}")
            out.line("    break")
        optional = op.optional and not (op.each or op.all_tokens)
        decision = (f"choose(Decision({scope.me}, {self.const(op.verb)}, {legal}, "
                    f"{'True' if optional else 'False'}, {remaining}, False, {self.const(op.node)}, "
                    f"{first_owner}, -1, {self.const('')}, ({transfer}, {scope.ctx()})))")
        if optional:
            out.line(f"{legal}.append(DONE)")
            out.line(f"{action} = {decision}")  # two steps at least: always a choice
            out.line(f"if {action} is DONE:")
            out.line(f"    board.shortfall += {remaining}")
            out.line("    break")
        elif op.all_tokens:
            # every token ends in its pool: the order cannot matter (TransferOp.play)
            quick = f"len({legal}) == 1"
            if op.verb == "remove":
                quick = "True"
            else:
                quick += (f" or ({legal}[0].b >= {self.integer(self.n)} and "
                          f"len([{action} for {action} in {legal} if {action}.b != {legal}[0].b]) == 0)")
            out.line(f"{action} = {legal}[0] if {quick} else {decision}")
        else:
            out.line(f"{action} = {legal}[0] if len({legal}) == 1 else {decision}")
        if owners is not None and len(owners) == 1:
            who = owners[0]
        else:
            who = f"({action}.side if {action}.side >= 0 else {first_owner})"
        out.line(f"{owner} = {who}")
        self.take(op, owner, f"{action}.a")
        self.put(op, owner, f"{action}.b")
        if counted:
            key = f"{action}.a" if op.limit_on_source else f"{action}.b"
            out.line(f"{used}[{key}] += 1")
            if op.one_place:
                out.line(f"if {first} < 0:")
                out.line(f"    {first} = {key}")
        out.dedent()
        if op.each:
            out.dedent()

    def counted_listing(self, op: TransferOp, scope: Scope, owners: Optional[List[str]], only: str,
                        used: str) -> Optional[str]:
        """The steps of a transfer that counts its steps per place (TransferOp._any_shape): the
        sources with a token and the destinations with room, less the places at their limit; one
        place only (``only``, -1 for none) for "each" and "all in one space"."""
        program = self.program
        n = self.n
        if owners is None:
            return None
        self.prepared(op)  # its tables of steps
        candidates = self.location_list(op.sources, op.node.sources if isinstance(op.node, M.Transfer) else None,
                                        scope)
        dests = self.location_list(op.dests, op.node.dests if isinstance(op.node, M.Transfer) else None, scope)
        on_source = op.limit_on_source
        if only != "-1":
            if on_source:
                candidates = f"(({only},) if {only} >= 0 else {candidates})"
            else:
                dests = f"(({only},) if {only} >= 0 else {dests})"
        named = len(owners) > 1
        maximum = self.integer(program.schema.tokens.at_most_per_place)
        limit = self.integer(op.limit) if op.limit is not None else None
        parts = []
        for owner in owners:
            source, dest, found, grid = self.name("i"), self.name("i"), self.name("p"), self.name("p")
            source_test = self.all_of([f"{self.tokens_at(owner, source)} > 0"] + self.blocked(source, removal=True))
            source_test = (f"({self.paren(source_test)} if {source} < {self.integer(n)} "
                           f"else board.can_take({owner}, {source}))")
            dest_test = self.all_of([f"{self.tokens_at(owner, dest)} < {maximum}"] + self.blocked(dest, removal=False))
            dest_test = (f"({self.paren(dest_test)} if {dest} < {self.integer(n)} "
                         f"else board.can_put({owner}, {dest}))")
            if limit is not None and on_source:
                source_test = f"{used}[{source}] < {limit} and {source_test}"
            elif limit is not None:
                dest_test = f"({dest} >= {self.integer(n)} or {used}[{dest}] < {limit}) and {dest_test}"
            grids = tuple(self.grid(op, side, named) for side in range(self.sides))
            parts.append(f"[{grid}[{source}][{dest}] for {grid} in [{self.owned(owner, grids)}] "
                         f"for {found} in [[{source} for {source} in {candidates} if {source_test}]] "
                         f"for {dest} in {dests} if {dest_test} for {source} in {found} if {source} != {dest}]")
        return " + ".join(parts)

    def location_list(self, resolver, node, scope: Scope) -> str:
        """The location codes of a transfer's sources or destinations (``fixed or resolver()``)."""
        codes = getattr(resolver, "codes", None)
        if codes:
            return self.const(tuple(codes))
        if isinstance(node, M.Union_) and len(node.items) == 1 and not isinstance(node.items[0], M.Holder):
            try:
                return self.place_list(node.items[0], scope, "-1")
            except Unsupported:
                pass
        return f"{self.const(resolver)}(board, {scope.ctx()}, -1)"

    def total(self, op: TransferOp, scope: Scope) -> str:
        if op.count is None:
            return self.integer(op.n)
        amount = op.node.amount if isinstance(op.node, M.Transfer) else None
        if amount is not None and amount.number is not None:
            try:
                return self.number(amount.number, scope, "-1")
            except Unsupported:
                pass
        return f"{self.const(op.count)}(board, {scope.ctx()}, -1)"

    def owners(self, op: TransferOp, scope: Scope) -> Optional[List[str]]:
        """Expressions for whose tokens the steps move, the acting side first (None: read the
        statement's table)."""
        table = getattr(op.owners, "__self__", None)
        if type(table) is not tuple or not table or len({len(row) for row in table}) != 1:
            return None
        out = []
        for j in range(len(table[0])):
            column = [row[j] for row in table]
            if all(column[s] == s for s in range(self.sides)):
                out.append(scope.me)
            elif self.sides == 2 and all(column[s] == 1 - s for s in range(2)):
                out.append(self.other(scope.me))
            elif len(set(column)) == 1:
                out.append(self.integer(column[0]))
            else:
                return None
        return out

    def prepared(self, op: TransferOp):
        if self._board is None:
            from .board import Board
            self._board = Board(self.program, self.program.initial_position(0))
        op.prepare(self._board)  # the statement picks the way its steps are listed, once
        return getattr(op.legal, "__func__", None)

    def listing(self, op: TransferOp, scope: Scope, joiner: str = " + ") -> Optional[str]:
        """An expression for the legal steps of a plain transfer (a new list: the same steps in
        the same order as its ``legal``), for the shapes met in every game; None for the others.
        Two equal listings are written alike (the names a listing binds are its own), so that a
        test two options share can be made once (op_EitherOp)."""
        start = self._names
        text = self._listing(op, scope, joiner)
        if text is None:
            return None
        end = self._names
        own = re.compile(r"\b([a-z])(\d+)\b")
        key = own.sub(lambda m: m.group(1) + "_" if start < int(m.group(2)) <= end else m.group(0), text)
        return self._listings.setdefault(key, text)

    def _listing(self, op: TransferOp, scope: Scope, joiner: str) -> Optional[str]:
        if not (op.plain or op.all_tokens) or op.limit is not None or op.one_place or op.each:
            return None
        shape = self.prepared(op)
        owners = self.owners(op, scope)
        if owners is None:
            return None
        named = len(owners) > 1
        if shape is TransferOp._from_holder_to_places:
            part = self.from_holder_to_places
        elif shape is TransferOp._between_holders:
            part = self.between_holders
        elif shape is TransferOp._from_places_to_holder:
            part = self.from_places_to_holder
        elif shape is TransferOp._between_places:
            part = self.between_places
        elif shape is TransferOp._from_codes_to_places:
            part = self.from_codes_to_places
        else:
            return None
        parts = []
        for owner in owners:
            found = part(op, scope, owner, named)
            if found is None:
                return None
            parts.append(found)
        return joiner.join(parts) if len(parts) == 1 or joiner == " + " else "(" + joiner.join(parts) + ")"

    def grid(self, op: TransferOp, side: int, named: bool):
        return op._grids[side + 1] if named else op._grids[0]

    def blocked(self, place: str, removal: bool) -> List[str]:
        """Tests that no marker blocks placing on (or removing from) ``place``."""
        markers = self.program.schema.markers
        base = self.program.layout.marker
        return [f"{place} != V[{self.integer(base + m)}]" for m, marker in enumerate(markers)
                if (marker.blocks_removal if removal else marker.blocks_placement)]

    def tokens_at(self, side: str, place: str) -> str:
        """The expression for a side's tokens at a place."""
        layout = self.program.layout
        return f"V[{self.add(self.add(self.integer(layout.tokens), self.times(side, self.integer(self.n))), place)}]"

    def count_at(self, side: str, code: int) -> str:
        """A side's tokens at a holder, track or box (the supply: its holders together)."""
        program = self.program
        if code < self.n:
            return self.tokens_at(side, self.integer(code))
        if code == program.locations.SUPPLY:
            parts = [self.count_at(side, c) for c in program.locations.supply]
            return "(" + " + ".join(parts) + ")" if parts else "0"
        found = program.count_offsets.get(code)
        if found is None:
            raise Unsupported("a count above a zone")
        base, stride = found
        return f"V[{self.add(self.integer(base), self.times(side, self.integer(stride)))}]"

    def can_take(self, side: str, code: int) -> str:
        program = self.program
        if code == program.locations.SUPPLY:
            parts = [f"{self.count_at(side, c)} > 0" for c in program.locations.supply]
            return "(" + " or ".join(parts) + ")" if parts else "False"
        if code in program.count_offsets:
            return f"{self.count_at(side, code)} > 0"
        return f"board.can_take({side}, {self.integer(code)})"

    def can_put(self, side: str, code: int):
        kind = self.program.locations.kind[code]
        if kind[0] == "holder":
            return True
        if kind[0] == "track":
            spaces = self.program.schema.tracks[kind[1]].spaces
            return f"{self.count_at(side, code)} < {self.integer(spaces)}"
        return False

    def owned(self, owner: str, rows) -> str:
        """A table's row for ``owner``: the table is per side (equal tables are one constant, so that
        equal listings read the same)."""
        try:
            table = self.shared(("rows", rows), lambda: rows)
        except TypeError:  # a table of lists (a transfer's grid of steps): one per transfer
            table = self.const(rows)
        return f"{table}[{owner}]"

    def marker_rows(self, entries):
        """Steps to list, as (values, place a step takes from or None, place it puts on or None),
        made ready for the one marker that blocks: a tuple of the values of the steps it does not
        block for each place it may stand on (off the map last, read at -1), and the index that
        reads it.  With no marker that blocks, the values and no index; None with several."""
        markers = self.program.schema.markers
        found = [m for m, marker in enumerate(markers) if marker.blocks_placement or marker.blocks_removal]
        if not found:
            return tuple(v for v, _, _ in entries), ""
        if len(found) > 1:
            return None
        marker = markers[found[0]]

        def kept(place):
            return tuple(v for v, source, dest in entries
                         if not (marker.blocks_removal and source == place)
                         and not (marker.blocks_placement and dest == place))
        table = tuple(kept(place) for place in range(self.n)) + (kept(NOBODY),)
        return table, f"[V[{self.integer(self.program.layout.marker + found[0])}]]"

    def from_holder_to_places(self, op: TransferOp, scope: Scope, owner: str, named: bool):
        """Tokens from one holder into fixed places (a value play)."""
        layout = self.program.layout
        source, dests = op._source, op.fixed_dests
        maximum = self.integer(self.program.schema.tokens.at_most_per_place)
        offset, place, action = self.name("i"), self.name("i"), self.name("a")
        per_side = [self.marker_rows([((layout.tokens + side * self.n + d, self.grid(op, side, named)[source][d]),
                                       None, d) for d in dests]) for side in range(self.sides)]
        if all(found is not None for found in per_side):
            rows = f"{self.owned(owner, tuple(found[0] for found in per_side))}{per_side[0][1]}"
            steps = f"[{action} for {offset}, {action} in {rows} if V[{offset}] < {maximum}]"
        else:
            rows = tuple(tuple((layout.tokens + side * self.n + d, d, self.grid(op, side, named)[source][d])
                               for d in dests) for side in range(self.sides))
            tests = [f"V[{offset}] < {maximum}"] + self.blocked(place, removal=False)
            steps = f"[{action} for {offset}, {place}, {action} in {self.owned(owner, rows)} if {' and '.join(tests)}]"
        return f"({steps} if {self.can_take(owner, source)} else [])"

    def between_holders(self, op: TransferOp, scope: Scope, owner: str, named: bool):
        """Tokens from one holder to another (a bonus box to the pool)."""
        steps = tuple(self.grid(op, side, named)[op._source][op._dest] for side in range(self.sides))
        put = self.can_put(owner, op._dest)
        if put is False:
            return "[]"
        tests = [self.can_take(owner, op._source)] + ([] if put is True else [put])
        return f"([{self.owned(owner, steps)}] if {' and '.join(tests)} else [])"

    def from_places_to_holder(self, op: TransferOp, scope: Scope, owner: str, named: bool):
        """Tokens from places into one holder (a removal)."""
        layout = self.program.layout
        dest = op._dest
        offset, place, action = self.name("i"), self.name("i"), self.name("a")

        def column(side, places):
            entries = [((layout.tokens + side * self.n + s, self.grid(op, side, named)[s][dest]), s, None)
                       for s in places]
            return self.marker_rows(entries)
        if op.fixed_sources is not None:
            per_side = [column(side, op.fixed_sources) for side in range(self.sides)]
            if all(found is not None for found in per_side):
                rows = f"{self.owned(owner, tuple(found[0] for found in per_side))}{per_side[0][1]}"
        elif getattr(op.sources, "by_group", None) is not None:
            # "this dimension": the group's places, none without a group (the last entry, read at -1)
            groups = op.sources.by_group
            per_side = [[column(side, places) for places in groups] + [column(side, ())] for side in range(self.sides)]
            if all(found is not None for side in per_side for found in side):
                table = tuple(tuple(found[0] for found in side) for side in per_side)
                rows = f"{self.owned(owner, table)}[{scope.field('group')}]{per_side[0][0][1]}"
        else:
            return None
        if any(found is None for found in (per_side if op.fixed_sources is not None else per_side[0])):
            return self.from_places_to_holder_marked(op, scope, owner, named)
        put = self.can_put(owner, dest)
        if put is False:
            return "[]"
        steps = f"[{action} for {offset}, {action} in {rows} if V[{offset}] > 0]"
        return steps if put is True else f"({steps} if {put} else [])"

    def from_places_to_holder_marked(self, op: TransferOp, scope: Scope, owner: str, named: bool):
        """As above, where several markers block: each place tested against each marker."""
        layout = self.program.layout
        dest = op._dest
        offset, place, action = self.name("i"), self.name("i"), self.name("a")

        def column(side, places):
            return tuple((layout.tokens + side * self.n + s, s, self.grid(op, side, named)[s][dest]) for s in places)
        if op.fixed_sources is not None:
            rows = self.owned(owner, tuple(column(side, op.fixed_sources) for side in range(self.sides)))
        else:
            groups = op.sources.by_group
            table = tuple(tuple(column(side, places) for places in groups) + ((),) for side in range(self.sides))
            rows = f"{self.owned(owner, table)}[{scope.field('group')}]"
        put = self.can_put(owner, dest)
        if put is False:
            return "[]"
        tests = [f"V[{offset}] > 0"] + self.blocked(place, removal=True)
        steps = f"[{action} for {offset}, {place}, {action} in {rows} if {' and '.join(tests)}]"
        return steps if put is True else f"({steps} if {put} else [])"

    def between_places(self, op: TransferOp, scope: Scope, owner: str, named: bool):
        """Tokens from places to places: the pairs of a fixed set, or of "this dimension"."""
        layout = self.program.layout
        maximum = self.integer(self.program.schema.tokens.at_most_per_place)
        source, dest, s, d, action = self.name("i"), self.name("i"), self.name("i"), self.name("i"), self.name("a")

        def ready(side, pairs):
            return self.marker_rows([((layout.tokens + side * self.n + s, layout.tokens + side * self.n + d, a), s, d)
                                     for s, d, a in pairs])
        if op._pairs_by_group is not None:
            groups = op._pairs_by_group[named]  # per group, per side
            found = [[ready(side, per_side[side]) for per_side in groups] for side in range(self.sides)]
            if all(f is not None for side in found for f in side):
                # read at -1 (no group) as the statement does: the last group's pairs
                table = tuple(tuple(f[0] for f in side) for side in found)
                rows = f"{self.owned(owner, table)}[{scope.field('group')}]{found[0][0][1]}"
                return f"[{action} for {source}, {dest}, {action} in {rows} if V[{source}] > 0 and V[{dest}] < {maximum}]"
        elif op.fixed_sources is not None and op.fixed_dests is not None:
            pairs = op._pairs_between(op.fixed_sources, op.fixed_dests, named)
            found = [ready(side, pairs[side]) for side in range(self.sides)]
            if all(f is not None for f in found):
                rows = f"{self.owned(owner, tuple(f[0] for f in found))}{found[0][1]}"
                return f"[{action} for {source}, {dest}, {action} in {rows} if V[{source}] > 0 and V[{dest}] < {maximum}]"
        else:
            return None

        def offsets(pairs_per_side):
            return tuple(tuple((layout.tokens + side * self.n + s, layout.tokens + side * self.n + d, s, d, a)
                               for s, d, a in pairs) for side, pairs in enumerate(pairs_per_side))
        if op._pairs_by_group is not None:
            groups = op._pairs_by_group[named]
            table = tuple(tuple(offsets(per_side)[side] for per_side in groups) for side in range(self.sides))
            rows = f"{self.owned(owner, table)}[{scope.field('group')}]"
        else:
            rows = self.owned(owner, offsets(op._pairs_between(op.fixed_sources, op.fixed_dests, named)))
        tests = ([f"V[{source}] > 0", f"V[{dest}] < {maximum}"] + self.blocked(s, removal=True)
                 + self.blocked(d, removal=False))
        return f"[{action} for {source}, {dest}, {s}, {d}, {action} in {rows} if {' and '.join(tests)}]"

    def from_codes_to_places(self, op: TransferOp, scope: Scope, owner: str, named: bool):
        """Tokens into places from fixed places and holders ("from your pool or any space"): the
        sources that have a token, then for each destination with room each source but itself."""
        program = self.program
        layout = program.layout
        candidates = op.fixed_sources
        if any(c >= self.n and c not in program.count_offsets for c in candidates):
            return None  # the supply, or tokens above a zone: counted by the board
        if op.fixed_dests is not None:
            dests = self.const(tuple(op.fixed_dests))
        elif getattr(op.dests, "by_group", None) is not None:
            dests = f"{self.shared(('group places',), lambda: tuple(program.group_places) + ((),))}" \
                    f"[{scope.field('group')}]"
        else:
            return None

        def offset(side, code):
            if code < self.n:
                return layout.tokens + side * self.n + code
            base, stride = program.count_offsets[code]
            return base + side * stride
        sources = tuple(tuple((c, offset(side, c)) for c in candidates) for side in range(self.sides))
        grids = tuple(self.grid(op, side, named) for side in range(self.sides))
        maximum = self.integer(program.schema.tokens.at_most_per_place)
        found, source, value, dest, grid = self.name("p"), self.name("i"), self.name("i"), self.name("i"), self.name("p")
        source_tests = [f"V[{value}] > 0"] + self.blocked(source, removal=True)
        dest_tests = [f"{self.tokens_at(owner, dest)} < {maximum}"] + self.blocked(dest, removal=False)
        return (f"[{grid}[{source}][{dest}] for {grid} in [{self.owned(owner, grids)}] "
                f"for {found} in [[{source} for {source}, {value} in {self.owned(owner, sources)} "
                f"if {' and '.join(source_tests)}]] "
                f"for {dest} in {dests} if {' and '.join(dest_tests)} for {source} in {found} if {source} != {dest}]")

    def codes(self, resolver) -> Optional[tuple]:
        """The location codes a statement's places may be: fixed, or places only (None: any)."""
        if getattr(resolver, "codes", None) is not None:
            return tuple(resolver.codes)
        if getattr(resolver, "places_only", False) or getattr(resolver, "by_group", None) is not None:
            return tuple(range(self.n))
        return None

    def take(self, op: TransferOp, owner: str, code: str) -> None:
        """Take one token of ``owner`` from the location ``code`` (board.take written out)."""
        out = self.out
        codes = self.codes(op.sources)
        if codes is not None and all(c < self.n for c in codes):
            out.line(f"{self.tokens_at(owner, code)} -= 1")
        elif codes is not None and len(codes) == 1:
            self.take_from(owner, codes[0])
        else:
            out.line(f"if {code} < {self.integer(self.n)}:")
            out.line(f"    {self.tokens_at(owner, code)} -= 1")
            out.line("else:")
            out.line(f"    board.take({owner}, {code})")

    def take_from(self, owner: str, code: int) -> None:
        program, out = self.program, self.out
        layout = program.layout
        loc = program.locations
        kind = loc.kind[code]
        if code == loc.SUPPLY:
            # the supply's holders in order: the first that has a token gives it; past the first,
            # the board's own take (a token from a track enters a zone)
            for i, holder in enumerate(loc.supply):
                out.line(f"{'if' if i == 0 else 'elif'} {self.count_at(owner, holder)} > 0:")
                out.indent()
                self.take_from(owner, holder)
                out.dedent()
            return
        if kind[0] == "holder" or kind[0] == "box":
            out.line(f"{self.count_at(owner, code)} -= 1")
            return
        if kind[0] != "track":
            out.line(f"board.take({owner}, {self.integer(code)})")
            return
        # the token leaves the highest-numbered space still covered: its zone is entered
        out.line(f"{self.shared(('track', kind[1]), lambda: track_taker(program, kind[1]))}(V, {owner})")

    def put(self, op: TransferOp, owner: str, code: str) -> None:
        """Put one token of ``owner`` at the location ``code`` (board.put written out)."""
        out = self.out
        codes = self.codes(op.dests)
        if codes is not None and all(c < self.n for c in codes):
            out.line(f"{self.tokens_at(owner, code)} += 1")
            return
        if codes is not None and len(codes) == 1:
            kind = self.program.locations.kind[codes[0]]
            if kind[0] in ("holder", "track"):
                out.line(f"{self.count_at(owner, codes[0])} += 1")
                return
        out.line(f"if {code} < {self.integer(self.n)}:")
        out.line(f"    {self.tokens_at(owner, code)} += 1")
        out.line("else:")
        out.line(f"    board.put({owner}, {code})")

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
        return parts[0] if len(parts) == 1 else "(" + " or ".join(CodeGenerator.paren(p) for p in parts) + ")"

    @staticmethod
    def all_of(parts):
        if any(p is False for p in parts):
            return False
        parts = [p for p in parts if p is not True]
        if not parts:
            return True
        return parts[0] if len(parts) == 1 else "(" + " and ".join(CodeGenerator.paren(p) for p in parts) + ")"

    @staticmethod
    def negate(expr):
        if expr is True or expr is False:
            return not expr
        return f"not {CodeGenerator.paren(expr)}"

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
        if node is not None:
            try:
                return self.condition(node, scope, it)
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


def track_taker(program, track: int):
    """``take(values, side)``: a token taken from a side's track (Board._take_from_track, with the
    layout's offsets read once): it leaves the highest space still covered, whose zone is entered."""
    layout = program.layout
    base, stride = layout.track_of(0, track), len(layout.zone_count)
    zone_of, zones, zone_base = program.zone_of_space[track], layout.zones, layout.zone_base[track]
    entered, pending = layout.entered, layout.pending
    effects = tuple(effect is not None for effect in program.entering[track])

    def take(values, side):
        offset = base + side * stride
        space = values[offset] - 1
        values[offset] = space
        zone = zone_of[space]
        slot = side * zones + zone_base + zone
        if not values[entered + slot]:
            values[entered + slot] = 1
            if effects[zone]:
                values[pending + slot] = 1
    return take


def paid_actions(board, ctx, hand) -> list:
    """The plays of a card a use names (the last card played) paid for with a card of the hand, as
    PlayOp.actions lists them after the plays of the hand's own cards."""
    program = board.program
    out = []
    for use in program.uses:
        if use.target is None:
            continue
        target = use.target(board, ctx)
        if target == NOBODY or not use.offered(board, ctx._replace(card=target), target):
            continue
        for card in hand:
            if use.payment(board, ctx._replace(card=target), card):
                out.append(program.actions.use_paid(use.index, target, card))
    return out


def roots(program) -> list:
    """The operations play starts from."""
    return [program.main]
