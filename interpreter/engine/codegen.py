"""Code generation: a game program's operations written out as Python functions.

The operations (ops.py, sequence.py, transfer.py) are the checked rules
lowered to indices; here each kind of operation that is worth it is written as
straight Python (a block as its statements one after the other, an "if" as an
``if``, a loop as a loop), the way Jinja2's compiler writes a template out.
What has no template of its own is called through the constants table.

Only the direct form is generated (``op.play(board, ctx, choose)``: bots and
batch play), and only for games without a log or an automa (so a step the
automa's overlay replaces is never met here); everything else runs the
operations themselves.  ``CRISIS_INTERPRET=1`` turns generation off.

Safety (docs/limits.md): the source holds generated identifiers, a short list
of runtime names and attributes, and integer constants that were range-checked
here; every other value (an operation, a condition, a string) is in the
constants table ``K`` and is referred to by its index.  ``verify.py`` parses the
source and refuses anything else before it is compiled.
"""

from __future__ import annotations

from typing import Dict, List, Optional

from .layout import NOBODY
from .ops import ActingOp, BlockOp, EachPlayerOp, EitherOp, IfOp, Op
from .transfer import TransferOp
from .sequence import (MAX_REPEATS, AlternateOp, CardRuleOp, ForEachCounterOp, ForEachPlaceOp, PlayOp,
                       ProcedureOp, RepeatOp, ResolveOp, StepOp, StopOp)

GENERATOR_VERSION = 1
MAX_INTEGER = 10 ** 9  # integers written into the source are checked against this bound
MAX_DEPTH = 60  # nested blocks written inline; deeper ones become calls (Python's own nesting limit is 100)


class GenerationError(Exception):
    """A value the generator will not write into source (a bug, never content's fault)."""


class Writer:
    def __init__(self):
        self.lines: List[str] = []
        self.depth = 0

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def indent(self) -> None:
        self.depth += 1

    def dedent(self) -> None:
        self.depth -= 1


class CodeGenerator:
    """Writes the direct form of a program's operations as one Python module."""

    def __init__(self, program):
        self.program = program
        self.constants: List[object] = []
        self._constant_index: Dict[int, int] = {}
        self.functions: Dict[int, str] = {}  # op id -> its function's name
        self.pending: List[Op] = []
        self._board = None  # a board to let statements pick their shapes on
        self.tables: Dict[tuple, str] = {}  # a tuple of functions (by op id, None for none) -> its name
        self.out = Writer()
        self._names = 0

    # ------------------------------------------------------------ values
    def const(self, value) -> str:
        """A reference to ``value`` in the constants table."""
        index = self._constant_index.get(id(value))
        if index is None:
            index = self._constant_index[id(value)] = len(self.constants)
            self.constants.append(value)
        return f"K[{self.integer(index)}]"

    @staticmethod
    def integer(value: int) -> str:
        if type(value) is not int or not -MAX_INTEGER <= value <= MAX_INTEGER:
            raise GenerationError(f"not a small integer: {value!r}")
        return str(value)

    def name(self, prefix: str) -> str:
        self._names += 1
        return f"{prefix}{self._names}"

    def function(self, op: Op) -> str:
        """The name of the function that plays ``op`` (written later if new)."""
        name = self.functions.get(op.id)
        if name is None:
            name = self.functions[op.id] = f"f{self.integer(op.id)}"
            self.pending.append(op)
        return name

    # ------------------------------------------------------------ module
    def module(self, roots) -> str:
        """Source defining a function for each root op (and every op they call), and ``ENTRY``:
        op id -> function, for the runtime."""
        for op in roots:
            self.function(op)
        while self.pending:
            op = self.pending.pop()
            self.write_function(op)
        out = self.out
        for ops, name in self.tables.items():
            out.line(f"{name} = (" + "".join(f"{self.functions[op_id] if op_id is not None else 'None'}, "
                                             for op_id in ops) + ")")
        out.line("ENTRY = {" + ", ".join(f"{self.integer(op_id)}: {name}"
                                         for op_id, name in sorted(self.functions.items())) + "}")
        return "\n".join(out.lines) + "\n"

    def write_function(self, op: Op) -> None:
        out = self.out
        out.line(f"def {self.functions[op.id]}(board, ctx, choose):")
        out.indent()
        out.line("V = board.values")
        self.statement(op, "ctx", 0)
        out.dedent()
        out.line("")

    # ------------------------------------------------------------ statements
    def statement(self, op: Op, ctx: str, depth: int) -> None:
        """Write ``op`` played in context ``ctx`` (a local name)."""
        if depth > MAX_DEPTH:
            self.out.line(f"{self.function(op)}(board, {ctx}, choose)")
            return
        method = getattr(self, "op_" + type(op).__name__, None)
        if method is None:
            self.fallback(op, ctx)
        else:
            method(op, ctx, depth)

    def fallback(self, op: Op, ctx: str) -> None:
        if op.asks:
            self.out.line(f"{self.const(op)}.play(board, {ctx}, choose)")
        else:
            self.out.line(f"{self.const(op)}.run(board, {ctx})")

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

    def call(self, op: Optional[Op], ctx: str) -> None:
        """Play another op through its own function (a rule reached by a table: a card's event)."""
        if op is not None:
            self.out.line(f"{self.function(op)}(board, {ctx}, choose)")

    def op_BlockOp(self, op: BlockOp, ctx: str, depth: int) -> None:
        if not op.ops:
            self.out.line("pass")
        for child in op.ops:
            self.statement(child, ctx, depth + 1)

    def op_IfOp(self, op: IfOp, ctx: str, depth: int) -> None:
        if op.trace:
            self.fallback(op, ctx)
            return
        out = self.out
        out.line(f"if {self.const(op.condition)}(board, {ctx}, -1):")
        out.indent()
        self.statement(op.then, ctx, depth + 1)
        out.dedent()
        if op.otherwise is not None:
            out.line("else:")
            out.indent()
            self.statement(op.otherwise, ctx, depth + 1)
            out.dedent()

    def op_StepOp(self, op: StepOp, ctx: str, depth: int) -> None:
        self.statement(op.body, ctx, depth + 1)

    def op_ForEachCounterOp(self, op: ForEachCounterOp, ctx: str, depth: int) -> None:
        program, out = self.program, self.out
        offset = self.integer(program.layout.counter[op.counter])
        high = self.integer(program.schema.counters[op.counter].high)
        out.line("while True:")
        out.indent()
        out.line("try:")
        out.indent()
        self.statement(op.body, ctx, depth + 1)
        out.dedent()
        out.line("except Stopped:")
        out.line("    break")
        out.line(f"if V[{offset}] >= {high}:")
        out.line("    break")
        out.line(f"V[{offset}] += 1")
        out.dedent()

    def op_RepeatOp(self, op: RepeatOp, ctx: str, depth: int) -> None:
        out = self.out
        out.line(f"for _ in range({self.integer(MAX_REPEATS)}):")
        out.indent()
        out.line(f"if not {self.const(op.condition)}(board, {ctx}, -1):")
        out.line("    break")
        out.line("try:")
        out.indent()
        self.statement(op.body, ctx, depth + 1)
        out.dedent()
        out.line("except Stopped:")
        out.line("    break")
        out.dedent()

    def op_StopOp(self, op: StopOp, ctx: str, depth: int) -> None:
        self.out.line("raise Stopped")

    def op_AlternateOp(self, op: AlternateOp, ctx: str, depth: int) -> None:
        program, out = self.program, self.out
        counts = program.layout.counter[op.counter]
        sides = len(program.schema.sides)
        n = self.integer(op.n)
        leader = self.integer(program.layout.register[op.first])
        slots = [f"V[{self.integer(counts + s)}]" for s in range(sides)]
        side, turn, k, turn_ctx = self.name("s"), self.name("t"), self.name("k"), self.name("c")
        out.line("while True:")
        out.indent()
        out.line("if " + " and ".join(f"{slot} >= {n}" for slot in slots) + ":")
        out.line("    break")
        out.line(f"{turn} = " + " + ".join(slots))
        out.line(f"{turn} = (V[{leader}] + {turn}) % {sides} if V[{leader}] >= 0 else {turn} % {sides}")
        out.line(f"for {k} in range({sides}):")
        out.indent()
        out.line(f"{side} = ({turn} + {k}) % {sides}")
        out.line(f"{turn_ctx} = {ctx}.as_side({side})")
        out.line(f"if V[{self.integer(counts)} + {side}] < {n} and {self.const(op)}.first_can_act(board, {turn_ctx}):")
        out.line("    break")
        out.dedent()
        out.line("else:")
        out.line("    break")
        self.statement(op.body, turn_ctx, depth + 1)
        out.line(f"V[{self.integer(counts)} + {side}] += 1")
        out.dedent()

    def op_EachPlayerOp(self, op: EachPlayerOp, ctx: str, depth: int) -> None:
        out = self.out
        side, side_ctx = self.name("s"), self.name("c")
        out.line(f"for {side} in {self.const(op)}.sides(board, {ctx}):")
        out.indent()
        out.line(f"{side_ctx} = {ctx}.as_side({side})")
        self.statement(op.body, side_ctx, depth + 1)
        out.dedent()

    def op_ActingOp(self, op: ActingOp, ctx: str, depth: int) -> None:
        actor = self.name("c")
        self.out.line(f"{actor} = {ctx}.as_side({self.const(op.who)}(board, {ctx}))")
        self.statement(op.body, actor, depth + 1)

    def op_EitherOp(self, op: EitherOp, ctx: str, depth: int) -> None:
        out = self.out
        possible, index = self.name("p"), self.name("i")
        functions = self.table(op.options)
        out.line(f"{possible} = {self.const(op)}.possible(board, {ctx})")
        out.line(f"if not {possible}:")
        out.line("    board.shortfall += 1")
        out.line("else:")
        out.indent()
        out.line(f"{index} = {possible}[0] if len({possible}) == 1 else "
                 f"choose({self.const(op)}.decision(board, {ctx}, {possible})).a")
        out.line(f"{functions}[{index}](board, {ctx}, choose)")
        out.dedent()

    def op_ProcedureOp(self, op: ProcedureOp, ctx: str, depth: int) -> None:
        if self.program.procedures[op.procedure] is None:
            self.fallback(op, ctx)
            return
        rule_ctx = self.name("c")
        self.out.line(f"{rule_ctx} = {self.const(op)}.rule_and_ctx(board, {ctx})[1]")
        self.call(self.program.procedures[op.procedure], rule_ctx)

    def op_CardRuleOp(self, op: CardRuleOp, ctx: str, depth: int) -> None:
        out = self.out
        rules = self.program.cards[op.kind].fields[op.field]
        table = self.table(rules)
        card, rule_ctx = self.name("d"), self.name("c")
        out.line(f"{card} = {self.const(op.card)}(board, {ctx})")
        out.line(f"if {card} < 0 or {table}[{card}] is None:")
        out.line("    board.shortfall += 1")
        out.line("else:")
        out.indent()
        out.line(f"{rule_ctx} = {self.const(self.program.cards[op.kind])}.context({ctx}.me, {card})")
        out.line(f"{table}[{card}](board, {rule_ctx}, choose)")
        out.dedent()

    def op_PlayOp(self, op: PlayOp, ctx: str, depth: int) -> None:
        program, out = self.program, self.out
        actions, action, frame, use, card_ctx = (self.name("a"), self.name("a"), self.name("r"), self.name("u"),
                                                self.name("c"))
        uses = self.table([u.rule for u in program.uses])
        out.line(f"{actions} = {self.const(op)}.actions(board, {ctx})")
        out.line(f"if {actions}:")
        out.indent()
        out.line(f"{action} = {actions}[0] if len({actions}) == 1 else "
                 f"choose(Decision({ctx}.me, {self.const('play_card')}, {actions}, False, 0, True))")
        out.line(f"{frame} = [{self.integer(op.id)}, {ctx}, 0, -1, -1, -1]")
        out.line(f"{use} = {self.const(op)}.begin_play(board, {frame}, {action})")
        out.line(f"{card_ctx} = {self.const(program.cards[program.played_kind])}.context({ctx}.me, {action}.a)")
        out.line(f"{uses}[{use}.index](board, {card_ctx}, choose)")
        out.line(f"{self.const(op)}.end(board, {ctx}, {frame})")
        out.dedent()

    def op_ForEachPlaceOp(self, op: ForEachPlaceOp, ctx: str, depth: int) -> None:
        out = self.out
        done, left, place, place_ctx = self.name("d"), self.name("p"), self.name("i"), self.name("c")
        out.line(f"{done} = ()")
        out.line("while True:")
        out.indent()
        out.line(f"{left} = [{place} for {place} in {self.const(op.places)}(board, {ctx}, -1) if {place} not in {done}]")
        out.line(f"if not {left}:")
        out.line("    break")
        out.line(f"{place} = {left}[0] if len({left}) == 1 else choose({self.const(op)}.decision(board, {ctx}, {left})).a")
        out.line(f"{done} += ({place},)")
        out.line(f"{place_ctx} = {ctx}._replace(place={place}, group={self.const(self.program.group_of)}[{place}])")
        self.statement(op.body, place_ctx, depth + 1)
        out.dedent()

    def op_ResolveOp(self, op: ResolveOp, ctx: str, depth: int) -> None:
        program, out = self.program, self.out
        layout = program.layout
        zones = program.schema.tracks[op.track].zones
        effects = program.entering[op.track]
        side, zone, rule, rule_ctx = self.name("s"), self.name("z"), self.name("e"), self.name("c")
        pending = [self.integer(layout.pending + layout.zone_slot(0, op.track, z)) for z in range(len(zones))]
        stride = self.integer(layout.zones)
        first = self.table([e[0] if e else None for e in effects])
        second = self.table([e[1] if e else None for e in effects])
        reasons = self.const(tuple(f"entered:{z.name}" for z in zones))
        out.line("if board.any_pending():")
        out.indent()
        out.line(f"for {side} in ({ctx}.me,) + board.others({ctx}.me):")
        out.indent()
        out.line("while True:")
        out.indent()
        for z in range(len(zones)):
            keyword = "if" if z == 0 else "elif"
            out.line(f"{keyword} V[{pending[z]} + {side} * {stride}]:")
            out.line(f"    {zone} = {self.integer(z)}")
        out.line("else:")
        out.line("    break")
        out.line(f"{rule} = {self.const(op)}.enter(board, {side}, {zone})")
        out.line(f"if {rule} is not None:")
        out.indent()
        out.line(f"{rule_ctx} = {ctx}._replace(me={side}, reason={reasons}[{zone}])")
        out.line(f"({first} if {rule} is {self.const(effects)}[{zone}][0] else {second})[{zone}]"
                 f"(board, {rule_ctx}, choose)")
        out.dedent()
        out.dedent()
        out.dedent()
        out.dedent()


    def op_TransferOp(self, op: TransferOp, ctx: str, depth: int) -> None:
        """The common transfer (nothing but steps: no limit, no "each" or "all", no die, nobody
        else choosing), as TransferOp.play takes it: the steps listed by the statement's own
        way (its ``legal``), taken on the flat values."""
        if not op.plain or op.remember:
            self.fallback(op, ctx)
            return
        program, out = self.program, self.out
        layout = program.layout
        places = self.integer(layout.places)
        tokens = self.integer(layout.tokens)
        total, owners, k, legal, action, owner, source, dest = (self.name("t"), self.name("p"), self.name("k"),
                                                                 self.name("a"), self.name("a"), self.name("s"),
                                                                 self.name("i"), self.name("i"))
        transfer = self.const(op)
        out.line(f"{total} = {transfer}.total(board, {ctx})")
        out.line(f"{owners} = {transfer}.owners({ctx}.me)")
        out.line(f"for {k} in range({total}):")
        out.indent()
        if not self.listing(op, ctx, owners, legal):
            out.line(f"{legal} = {transfer}.legal(board, {ctx}, {owners}, ())")
        out.line(f"if not {legal}:")
        out.line(f"    board.shortfall += {total} - {k}")
        out.line("    break")
        if op.optional:
            out.line(f"{legal}.append(DONE)")
        out.line(f"if len({legal}) == 1:")
        out.line(f"    {action} = {legal}[0]")
        out.line("else:")
        out.line(f"    {action} = choose(Decision({ctx}.me, {self.const(op.verb)}, {legal}, "
                 f"{'True' if op.optional else 'False'}, {total} - {k}, False, {self.const(op.node)}, {owners}[0], "
                 f"origin=({transfer}, {ctx})))")
        if op.optional:
            out.line(f"if {action} is DONE:")
            out.line(f"    board.shortfall += {total} - {k}")
            out.line("    break")
        out.line(f"{owner} = {action}.side if {action}.side >= 0 else {owners}[0]")
        out.line(f"{source} = {action}.a")
        out.line(f"{dest} = {action}.b")
        out.line(f"if {source} < {places}:")
        out.line(f"    V[{tokens} + {owner} * {places} + {source}] -= 1")
        out.line("else:")
        out.line(f"    board.take({owner}, {source})")
        out.line(f"if {dest} < {places}:")
        out.line(f"    V[{tokens} + {owner} * {places} + {dest}] += 1")
        out.line("else:")
        out.line(f"    board.put({owner}, {dest})")
        out.dedent()


    # ------------------------------------------------------------ listing steps
    def listing(self, op: TransferOp, ctx: str, owners: str, legal: str) -> bool:
        """Write the listing of a transfer's legal steps for the shapes met in every game (the
        same steps in the same order as its ``legal``); False for the others."""
        program = self.program
        if self._board is None:
            from .board import Board
            self._board = Board(program, program.initial_position(0))
        op.prepare(self._board)  # the statement picks the way its steps are listed, once
        shape = getattr(op.legal, "__func__", None)
        owner_table = getattr(op.owners, "__self__", None)
        if owner_table is None or any(len(o) != 1 for o in owner_table):
            return False  # "of either side": several owners, listed by the statement itself
        if shape is TransferOp._from_holder_to_places:
            self.from_holder_to_places(op, ctx, owners, legal)
            return True
        if shape is TransferOp._from_places_to_holder and op.fixed_sources is not None:
            self.from_places_to_holder(op, ctx, owners, legal)
            return True
        return False

    def owner_count(self, op: TransferOp, code: int, owner: str) -> str:
        """The expression for the owner's tokens at a holder (the supply: any of its holders)."""
        program = self.program
        if code == program.locations.SUPPLY:
            parts = [f"V[{self.integer(base)} + {owner} * {self.integer(stride)}]"
                     for base, stride in (program.count_offsets[c] for c in program.locations.supply)]
            return "(" + " or ".join(parts) + ")" if parts else "0"
        base, stride = program.count_offsets[code]
        return f"V[{self.integer(base)} + {owner} * {self.integer(stride)}]"

    def from_holder_to_places(self, op: TransferOp, ctx: str, owners: str, legal: str) -> None:
        """Tokens from one holder into fixed places (a value play)."""
        out, layout = self.out, self.program.layout
        owner, base, place, action = self.name("s"), self.name("i"), self.name("i"), self.name("a")
        dests = op.fixed_dests
        # per owner: (place, the step into it) for each destination, in the statement's order
        rows = tuple(tuple((d, op._grids[0][op._source][d]) for d in dests) for _ in range(layout.sides))
        maximum = self.integer(self.program.schema.tokens.at_most_per_place)
        out.line(f"{owner} = {owners}[0]")
        out.line("if board.markers_changed():")
        out.line("    board.see_markers()")
        out.line(f"if {self.owner_count(op, op._source, owner)} > 0:")
        out.indent()
        out.line(f"{base} = {self.integer(layout.tokens)} + {owner} * {self.integer(layout.places)}")
        out.line(f"{legal} = [{action} for {place}, {action} in {self.const(rows)}[{owner}] "
                 f"if V[{base} + {place}] < {maximum} and {place} not in board.no_place]")
        out.dedent()
        out.line("else:")
        out.line(f"    {legal} = []")

    def from_places_to_holder(self, op: TransferOp, ctx: str, owners: str, legal: str) -> None:
        """Tokens from fixed places into one holder (a removal)."""
        out, layout = self.out, self.program.layout
        owner, base, place, action = self.name("s"), self.name("i"), self.name("i"), self.name("a")
        columns = tuple(tuple((s, op._columns[0][s]) for s in op.fixed_sources) for _ in range(layout.sides))
        out.line(f"{owner} = {owners}[0]")
        out.line("if board.markers_changed():")
        out.line("    board.see_markers()")
        out.line(f"if board.can_put({owner}, {self.integer(op._dest)}):")
        out.indent()
        out.line(f"{base} = {self.integer(layout.tokens)} + {owner} * {self.integer(layout.places)}")
        out.line(f"{legal} = [{action} for {place}, {action} in {self.const(columns)}[{owner}] "
                 f"if V[{base} + {place}] > 0 and {place} not in board.no_remove]")
        out.dedent()
        out.line("else:")
        out.line(f"    {legal} = []")


def roots(program) -> list:
    """The operations play starts from."""
    return [program.main]


def _unused() -> None:  # names the generated code may use, for readers of this module
    return NOBODY
