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

This module writes the module and its statements; ``codegen_values.py`` the
expressions (conditions, numbers, sides, cards, places) and ``Scope``;
``codegen_transfers.py`` the listing and taking of token steps.

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
                  RemoveMarkerOp, choose_place, overspent)
from .position import note, shuffle
from .transfer import TransferOp
from crisis.ruleset import limits

from .sequence import (AlternateOp, CardRuleOp, DrawOp, ForEachCounterOp, ForEachPlaceOp, ForgetOp,
                       KeepOp, OrderOp, PlayOp, ProcedureOp, PutOp, RepeatOp, ResolveOp, RevealOp, ScoreOp, ShuffleOp,
                       StepOp, StopOp)
from .codegen_transfers import TransferWriter
from .codegen_values import (DEFAULTS, FIELDS, MAX_INTEGER, GenerationError, Scope, Unsupported, ValueWriter,  # noqa: F401
                             _is_int)

GENERATOR_VERSION = 2
MAX_DEPTH = 60  # nested blocks written inline; deeper ones become calls (Python's own nesting limit is 100)
# loops and ``try`` blocks around a statement written inline; deeper ones become calls (Python allows
# 20 in one function, and a statement may open 3 of its own: a transfer into each place, a loop)
MAX_BLOCKS = 15
ROOT_CTX = Ctx(0)  # the context play starts in (game.play_game); the main function assumes it


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


class CodeGenerator(TransferWriter, ValueWriter):
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
        self.blocks = 0  # loops and try blocks open in the function being written, around what is written

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
        self.blocks = 0
        self._meter = out.slot()  # "W = board.meter", where the function counts work (spend)
        self._ask = out.slot()  # "A = board.ask", where the function asks a player (ask)
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
        if depth > MAX_DEPTH or self.blocks > MAX_BLOCKS:
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

    def spend(self, op: Op, steps: str = "1") -> None:
        """Count ``steps`` of work, as ops.spend does (the meter is bound once per function), where
        the operations count it: the passes of a loop whose body holds loops (ops.holds_loops)."""
        if not op.multiplies(self.program):
            return
        self._meter[1] = "W = board.meter"
        out = self.out
        out.line(f"W[0] -= {steps}")
        out.line("if W[0] < 0:")
        out.line(f"    {self.const(overspent)}(board, {self.const(op.node)})")

    def ask(self, player: str, kind: str, actions: str, optional: bool = False, remaining: str = "0",
            hidden: bool = False, rule=None, owner: str = "-1", on_behalf: str = "-1", stage: str = "",
            origin=None, ctx: str = "None") -> str:
        """A player asked: ``A(player, actions, spec, remaining, owner, on_behalf, ctx)`` answers
        what ``choose`` would of the Decision of those fields (``Board.ask``, bound once per
        function), without making the Decision where the player needs none (random players in
        batch play).  ``spec``: the fields the generator knows, one constant (kind, optional,
        hidden, rule, stage, the operation of the origin); the others are source: the player,
        the actions, the steps remaining, the owner, the side on whose behalf, the origin's context."""
        self._ask[1] = "A = board.ask"
        spec = self.const((kind, optional, hidden, rule, stage, origin))
        return f"A({player}, {actions}, {spec}, {remaining}, {owner}, {on_behalf}, {ctx})"

    def note(self, arguments: str) -> None:
        """A note for the game's records (position.note), where the game keeps them."""
        self.out.line("if board.position.notes is not None:")
        self.out.line(f"    {self.const(note)}(board, {arguments})")

    def looped(self, op: Op, scope: Scope, depth: int, blocks: int = 1) -> None:
        """Write ``op`` inside ``blocks`` loops or try blocks just opened."""
        self.blocks += blocks
        try:
            self.statement(op, scope, depth + 1)
        finally:
            self.blocks -= blocks

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
        passes = self.name("p")
        out.line(f"{passes} = 0")
        out.line("while True:")
        out.indent()
        out.line(f"{passes} += 1")  # once per value of the counter at most (ForEachCounterOp)
        out.line(f"if {passes} > {self.integer(op.passes(program))}:")
        out.line(f"    {self.const(op)}.too_many(board)")
        self.spend(op)
        out.line("try:")
        out.indent()
        self.looped(op.body, scope, depth, 2)
        out.dedent()
        out.line("except Stopped:")
        out.line("    break")
        out.line(f"if V[{offset}] >= {high}:")
        out.line("    break")
        out.line(f"V[{offset}] += 1")
        out.dedent()

    def op_RepeatOp(self, op: RepeatOp, scope: Scope, depth: int) -> None:
        out = self.out
        out.line(f"for _ in range({self.integer(limits.MAX_REPEATS)}):")
        out.indent()
        test = self.test(op.condition, op.node.condition if op.node is not None else None, scope, "-1")
        out.line(f"if not {self.paren(test)}:")
        out.line("    break")
        self.spend(op)
        out.line("try:")
        out.indent()
        self.looped(op.body, scope, depth, 2)
        out.dedent()
        out.line("except Stopped:")
        out.line("    break")
        out.dedent()
        out.line("else:")  # as many passes as a 'repeat while' may make: its condition must not hold now
        out.line(f"    if {self.paren(test)}:")
        out.line(f"        {self.const(op)}.too_many(board)")

    def op_StopOp(self, op: StopOp, scope: Scope, depth: int) -> None:
        self.out.line("raise Stopped")

    def op_AlternateOp(self, op: AlternateOp, scope: Scope, depth: int) -> None:
        program, out = self.program, self.out
        counts = program.layout.counter[op.counter]
        sides = self.sides
        n = self.integer(op.n)
        leader = self.integer(program.layout.register[op.first])
        slots = [f"V[{self.integer(counts + s)}]" for s in range(sides)]
        side, turn, k, taken = self.name("s"), self.name("t"), self.name("k"), self.name("p")
        self.note(f"{self.integer(op.id)}, V[{leader}] if V[{leader}] >= 0 else 0")
        most = self.integer(max(op.n, 1) * sides)
        self.spend(op, most)  # as many turns as it may take (AlternateOp)
        out.line(f"{taken} = 0")
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
        can = self.can(op.body, turn_scope)  # (AlternateOp.can_take_turn)
        out.line(f"if V[{self.integer(counts)} + {side}] < {n} and {self.paren(can)}:")
        out.line("    break")
        out.dedent()
        out.line("else:")
        out.line("    break")
        out.line(f"{taken} += 1")  # N turns each at most (AlternateOp)
        out.line(f"if {taken} > {most}:")
        out.line(f"    {self.const(op)}.too_many(board)")
        self.looped(op.body, self.enter(scope.as_side(side)), depth)
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
            self.spend(op, f"len({chosen})")  # a pass for each (EachPlayerOp)
        else:
            self.spend(op, self.integer(self.sides))
        out.line(f"for {side} in {order}:")
        out.indent()
        self.looped(op.body, self.enter(scope.as_side(side)), depth)
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
            self.note(f"{self.integer(op.id)}, {side}")
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
                 + self.ask(scope.me, "option", options, rule=op.node, origin=op, ctx=scope.ctx())
                 + ".a")
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
        out.indent()
        self.note(f"{self.integer(op.id)}, {scope.me}, {card}")
        out.dedent()
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
                 + self.ask(scope.me, "play_card", actions, hidden=True))
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
        actions, action, frame = self.name("a"), self.name("a"), self.name("r")
        uses = self.table([u.rule for u in program.uses])
        ctx = scope.ctx()
        out.line(f"{actions} = {self.const(op)}.actions(board, {ctx})")
        out.line(f"if {actions}:")
        out.indent()
        out.line(f"{action} = {actions}[0] if len({actions}) == 1 else "
                 + self.ask(scope.me, "play_card", actions, hidden=True))
        out.line(f"{frame} = [{self.integer(op.id)}, {ctx}, 0, -1, -1, -1]")
        out.line(f"{self.const(op)}.begin_play(board, {frame}, {action})")
        # begin_play notes the use's index in the frame (its fourth slot), as the framed form keeps it
        out.line(f"{uses}[{frame}[3]](board, {self.card_contexts(program.played_kind)}[{scope.me}][{action}.a], "
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
            decision = self.ask(chooser, op.word, f"[{self.const(words)}[{each}] for {each} in {left}]",
                                on_behalf=on_behalf)
        else:
            decision = f"choose({self.const(op)}.decision(board, {scope.ctx()}, {left}))"
        out.line(f"{place} = {left}[0] if len({left}) == 1 else {decision}.a")
        out.line(f"{done} += ({place},)")
        self.spend(op)
        self.looped(op.body, self.enter(scope.with_place(place)), depth)
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
        side, before = self.name("s"), self.name("t")
        out.line(f"board.position.breakdown = [{', '.join('[]' for _ in range(self.sides))}]")
        for label, rule in program.procedure_lines[op.procedure]:
            out.line(f"for {side} in {self.order()}:")
            out.indent()
            out.line(f"{before} = V[{self.offset(offset, side)}]")
            line_scope = scope.as_side(side).with_reason(f"scoring:{label}")
            self.looped(rule, self.enter(line_scope), depth)
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
                value = self.number(node.value, scope, "-1")
                if not declared.each_side:  # one counter of the game
                    sides = ["0"]
                else:
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
                 + self.ask(scope.me, "marker", f"[{self.const(actions)}[{each}] for {each} in {places}]",
                            rule=op.node) + ".a")
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

    def op_ShuffleOp(self, op: ShuffleOp, scope: Scope, depth: int) -> None:
        """A pile shuffled, after another's cards are put into it (ShuffleOp.run)."""
        node = op.node
        if not isinstance(node, M.Shuffle):
            self.fallback(op, scope)
            return
        out = self.out
        cards = self.name("p")
        out.line(f"{cards} = board.piles[{self.pile(node.pile, scope)}]")
        if node.into is not None:
            target = self.name("p")
            out.line(f"{target} = board.piles[{self.pile(node.into, scope)}]")
            out.line(f"{target}.extend({cards})")
            out.line(f"{cards}.clear()")
            cards = target
        out.line(f"{self.const(shuffle)}(board.position.rng, {cards})")

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
        if not isinstance(node, M.Keep) or node.random:  # a card drawn by lot: the operation rolls
            self.fallback(op, scope)
            return
        out = self.out
        offer, frame, card, each = self.name("p"), self.name("r"), self.name("d"), self.name("d")
        actions = self.program.actions.keep(op.kind)
        out.line(f"{offer} = board.piles[{self.pile(node.source, scope)}]")
        out.line(f"{frame} = [{self.integer(op.id)}, {scope.ctx()}, 0, 0]")
        out.line(f"while {frame}[2] < {self.integer(op.n)} and {offer}:")
        out.indent()
        out.line(f"{card} = {offer}[0] if len({offer}) == 1 else "
                 + self.ask(scope.me, f"{op.verb}_{op.noun}", f"[{self.const(actions)}[{each}] for {each} in {offer}]",
                            hidden=op.verb == "keep") + ".a")
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
        out.line(f"{card} = " + self.ask(scope.me, "order", f"{self.const(listed)}({hand})", remaining=f"len({hand})",
                                         hidden=True) + ".a")
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
        if op.each or op.remember or op.next_to_source:
            raise Unsupported("a transfer into each place")
        listing = self.listing(op, scope, " or ")  # whether there is a step: any owner's
        if listing is None:
            raise Unsupported("a transfer listed by itself")
        if op.all_tokens or op.count is None:
            return listing if op.all_tokens or op.n > 0 else False
        return self.all_of([f"{self.total(op, scope)} > 0", listing])


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
