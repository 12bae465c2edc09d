"""The game program: one game's definition compiled for play, once.

It holds the schema and its layout, the cards and their fields, every
operation (frames name them by index), the sequence of play, the named
procedures, the ways a card is played, what entering a zone does, and the
first-player rules.  Built from a ``Definition`` (content/definition.py);
never on the hot path.
"""

from __future__ import annotations

import itertools
import operator
import weakref
from typing import Dict, List, Optional, Sequence, Tuple

import attrs

from crisis.interpreter.actions import Action, ActionTable
from crisis.ruleset import meaning as M
from crisis.ruleset.walk import meanings

from .board import Locations
from .compiler import Compiler
from .layout import NOBODY, Layout
from .ops import BlockOp, Ctx, Op
from .position import initial_position, shuffle
from .sequence import StepOp


class Cards:
    """One kind of card: ids, and each field's value for each card (rules compiled)."""

    def __init__(self, kind, ids: Tuple[str, ...], fields: List[tuple]):
        self.kind = kind
        self.ids = ids
        self.index = {card_id: i for i, card_id in enumerate(ids)}
        self.fields = fields  # fields[field][card]
        by_id = sorted(range(len(ids)), key=ids.__getitem__)
        rank = [0] * len(ids)
        for r, card in enumerate(by_id):
            rank[card] = r
        self.rank = tuple(rank)  # each card's place when sorted by id (choices are listed so)
        self._field_of_type = {}
        self._contexts = {}

    def field_of_type(self, type_name: str) -> int:
        found = self._field_of_type.get(type_name)
        if found is None:
            found = self._field_of_type[type_name] = next(
                (i for i, (_, t) in enumerate(self.kind.fields) if t == type_name), -1)
        return found

    def context(self, me: int, card: int) -> Ctx:
        """The context a card's rule runs in (program.card_ctx), made once per side and card."""
        key = me * len(self.ids) + card
        found = self._contexts.get(key)
        if found is None:
            field = self.place_field()
            place = self.fields[field][card] if field >= 0 else NOBODY
            found = self._contexts[key] = Ctx(me, place=place, card=card, reason=self.ids[card])
        return found

    def sides_field(self) -> tuple:
        field = self.field_of_type("sides")
        return self.fields[field] if field >= 0 else tuple(() for _ in self.ids)

    def place_field(self) -> int:
        return self.field_of_type("place")

    def rule_field(self) -> int:
        return self.field_of_type("rule")

    def group_field(self) -> int:
        return self.field_of_type("group")


class Use:
    """One way to play a card ("value", "event", "claim"): when it is offered, and its rule."""

    def __init__(self, index: int, name: str, rule: Op, condition=None, target=None, payment=None,
                 option: Optional[str] = None, needs_field: int = -1, actions=()):
        self.index, self.name, self.rule = index, name, rule
        self.condition, self.target, self.payment, self.option = condition, target, payment, option
        self.needs_field = needs_field  # a rule field the card must have (its event)
        self.actions = actions

    def offered(self, board, ctx, card: int) -> bool:
        if self.option is not None and self.option not in board.options:
            return False
        table = self.table
        if table is not None:
            return table[ctx.me][card]
        if self.needs_field >= 0 and board.program.cards[board.program.played_kind].fields[self.needs_field][card] is None:
            return False
        return self.condition is None or self.condition(board, ctx, NOBODY)

    def tabulate(self, program, static: bool) -> None:
        """A use whose condition reads only the card and who plays it is worked out once for
        every side and card (the hot path of card play looks it up)."""
        self.table = None
        if not static:
            return
        cards = program.cards[program.played_kind]
        table = []
        for side in range(len(program.schema.sides)):
            row = []
            for card in range(len(cards.ids)):
                if self.needs_field >= 0 and cards.fields[self.needs_field][card] is None:
                    row.append(False)
                else:
                    row.append(self.condition is None or self.condition(None, Ctx(side, card=card), NOBODY))
            table.append(tuple(row))
        self.table = tuple(table)


class Actions(ActionTable):
    """Interned actions of one game, so legal-action lists are built without formatting text."""

    def __init__(self, program):
        super().__init__(program.schema.sides, program.locations, [m.name for m in program.schema.markers])
        self.program = program
        self._keep: Dict[int, tuple] = {}
        self._order: Dict[int, tuple] = {}
        self._paid: Dict[Tuple[int, int, int], Action] = {}
        self._words: Dict[Tuple[str, int], Action] = {}

    def keep(self, kind: int) -> tuple:
        if kind not in self._keep:
            self._keep[kind] = tuple(Action("keep", f"keep {card_id}", a=i)
                                     for i, card_id in enumerate(self.program.cards[kind].ids))
        return self._keep[kind]

    def order(self, kind: int) -> tuple:
        if kind not in self._order:
            self._order[kind] = tuple(Action("order", f"order {card_id}", a=i)
                                      for i, card_id in enumerate(self.program.cards[kind].ids))
        return self._order[kind]

    def use(self, name: str, kind: int) -> tuple:
        return tuple(Action(name, f"{name} {card_id}", a=i) for i, card_id in enumerate(self.program.cards[kind].ids))

    def use_paid(self, use: int, target: int, card: int) -> Action:
        key = (use, target, card)
        action = self._paid.get(key)
        if action is None:
            program = self.program
            ids = program.cards[program.played_kind].ids
            declared = program.uses[use]
            action = self._paid[key] = Action(declared.name, f"{declared.name} {ids[target]} {declared.pay_word} "
                                                               f"{ids[card]}", a=target, b=card)
        return action

    def place_word(self, word: str, place: int) -> Action:
        key = (word, place)
        action = self._words.get(key)
        if action is None:
            action = self._words[key] = Action(word, f"{word} {self.program.schema.map.places[place]}", a=place)
        return action


class GameProgram:
    def __init__(self, definition):
        self.definition = definition
        schema = self.schema = definition.schema
        self.declarations = definition.declarations
        self.place_index = {name: i for i, name in enumerate(schema.map.places)}
        self.group_places = tuple(tuple(self.place_index[p] for p in g.places) for g in schema.map.groups)
        group_of = [NOBODY] * len(schema.map.places)
        for g, places in enumerate(self.group_places):
            for p in places:
                group_of[p] = g
        self.group_of = tuple(group_of)
        self.kind_index = {k.name: i for i, k in enumerate(schema.card_kinds)}
        self.counter_index = {c.name: i for i, c in enumerate(schema.counters)}
        self.pile_number = {p.name: i for i, p in enumerate(schema.piles)}
        self.layout = Layout(schema, self.declarations.registers,
                             tuple(len(definition.cards[k.name].ids) for k in schema.card_kinds),
                             tuple(_side_field(k, definition.cards[k.name]) for k in schema.card_kinds))
        self.locations = Locations(schema)
        self.count_offsets = self._count_offsets()
        self.side_contexts = tuple(Ctx(side) for side in range(len(schema.sides)))
        self.ops: List[Op] = []
        self.zone_of_space = tuple(tuple(track.zone_of_space(n) for n in range(track.spaces)) for track in schema.tracks)
        self.refill = tuple(self.pile_number[p.when_empty] if p.when_empty else None for p in schema.piles)
        played = definition.played_to
        self.played_pile = played
        self.played_pile_index = self.layout.pile(played)
        self.played_kind = self.kind_index[schema.piles[played].kind]
        # cards: fields that are not rules now; rules once the compiler exists
        self.cards: List[Cards] = []
        for kind in schema.card_kinds:
            data = definition.cards[kind.name]
            self.cards.append(Cards(kind, data.ids, [list(values) for values in data.fields]))
        self.actions = Actions(self)
        self.term_names = tuple(definition.terms)
        self.term_meanings = tuple(meaning for _, (kind, meaning) in definition.terms.items())
        self.term_types = tuple(kind for _, (kind, meaning) in definition.terms.items())
        self.term_kinds = tuple(self.kind_index.get(getattr(meaning, "kind_name", ""), self.played_kind)
                                for _, (kind, meaning) in definition.terms.items())
        compiler = self.compiler_for(Compiler)
        self.compiler = compiler
        for k, kind in enumerate(schema.card_kinds):
            for f, (name, type_name) in enumerate(kind.fields):
                if type_name == "rule":
                    self.cards[k].fields[f] = [compiler.block(rule) if rule is not None else None
                                               for rule in self.cards[k].fields[f]]
        for cards in self.cards:
            cards.fields = [tuple(values) for values in cards.fields]
        self.term_cards = tuple(compiler.card(meaning) if kind == "card" else None
                                for _, (kind, meaning) in definition.terms.items())
        self.procedure_names = tuple(definition.procedures)
        self.procedures: List[Optional[Op]] = []
        self.procedure_conditions: List = []
        self.procedure_lines: List = []
        self.procedure_condition_lists: List = []
        for name, (kind, meaning) in definition.procedures.items():
            self.procedures.append(compiler.block(meaning) if kind == "block" else None)
            self.procedure_conditions.append(compiler.condition(meaning) if kind == "condition" else None)
            self.procedure_condition_lists.append(tuple(compiler.condition(c) for c in meaning)
                                                  if kind == "conditions" else ())
            self.procedure_lines.append(tuple((label, compiler.block(rule)) for label, rule in meaning)
                                        if kind == "lines" else ())
        self.entering = tuple(tuple(self._entering(t, z) for z in range(len(track.zones)))
                              for t, track in enumerate(schema.tracks))
        self.first_player_rules = tuple(compiler.condition(c) for c in definition.first_player)
        self.first_player_reads = _counters_read(definition.first_player, self.layout, schema)
        reads = self.first_player_reads
        # the values the first-player rules read, as one key (the first player is kept while it holds)
        self.first_player_key = (operator.itemgetter(*reads) if reads else (lambda values: ())) \
            if reads is not None else None
        self.uses: List[Use] = []
        self.use_named: Dict[str, Use] = {}
        for index, use in enumerate(definition.uses):
            compiled = Use(index, use.name, compiler.block(use.rule),
                           compiler.condition(use.condition) if use.condition is not None else None,
                           compiler.card(use.target) if use.target is not None else None,
                           compiler.card_filter(use.payment) if use.payment is not None else None,
                           use.option, _needs_field(use.rule, self), ())
            compiled.pay_word = use.pay_word
            compiled.tabulate(self, use.target is None and _static(use.condition))
            if use.target is None:
                compiled.actions = self.actions.use(use.name, self.played_kind)
            self.uses.append(compiled)
            self.use_named[use.name] = compiled
        self.setup = compiler.block(definition.setup)
        self.play = compiler.block(definition.play)
        self.main = self.add_op(BlockOp([self.setup, self.play]))
        self.automa_rules = None
        if definition.overlay is not None:
            from .automa import AutomaRules
            self.automa_rules = AutomaRules(self, definition.overlay)

    def _entering(self, track: int, zone: int):
        effect = self.definition.entering.get((track, zone))
        if effect is None:
            return None
        first, second = effect
        return self.compiler.block(first), self.compiler.block(second)

    def _count_offsets(self) -> Dict[int, Tuple[int, int]]:
        """Where a side's count lies for each holder, track and box code: (side 0's offset, stride)."""
        layout, loc = self.layout, self.locations
        out = {}
        for h, code in loc.holder_code.items():
            out[code] = (layout.holder_of(0, h), layout.holders)
        for t, code in loc.track_code.items():
            out[code] = (layout.track_of(0, t), len(layout.zone_count))
        for (t, z), code in loc.box_code.items():
            out[code] = (layout.box + layout.zone_slot(0, t, z), layout.zones)
        return out

    # ------------------------------------------------------------ building
    def compiler_for(self, kind, **options) -> Compiler:
        """A compiler of ``kind`` (Compiler or a subclass) for this program: every rule of the
        program is compiled by one made here, so a tool may compile a second program its own way
        (coverage records what runs) while plain programs are untouched."""
        return kind(self, **options)

    def add_op(self, op: Op) -> Op:
        op.id = len(self.ops)
        self.ops.append(op)
        return op

    shuffle = staticmethod(shuffle)  # the one way rules shuffle a pile (position.shuffle)

    def initial_position(self, seed: int):
        return initial_position(self.layout, seed)

    # ------------------------------------------------------------ queries
    def step_names(self) -> Tuple[str, ...]:
        """The named steps of the sequence of play, each once, in the order written (a step before
        the steps inside it); then those only the solo game's rules name, once compiled."""
        written = (node.name for node in meanings(self.definition.play) if isinstance(node, M.Step))
        compiled = (op.name for op in self.ops if isinstance(op, StepOp))
        return tuple(dict.fromkeys(itertools.chain(written, compiled)))

    def card_id(self, kind: int, card: int) -> str:
        return self.cards[kind].ids[card] if card >= 0 else ""

    def card_ctx(self, me: int, kind: int, card: int) -> Ctx:
        """The context a card's rule runs in: "the card", and "this space" for a card with a place."""
        return self.cards[kind].context(me, card)

    def bound_ctx(self, ctx: Ctx, kind: int, card: int) -> Ctx:
        """A procedure carried out "for" a card: its group is "this dimension", its place "this space"."""
        if card < 0:
            return ctx
        cards = self.cards[kind]
        group, place = cards.group_field(), cards.place_field()
        return ctx._replace(card=card, group=cards.fields[group][card] if group >= 0 else ctx.group,
                            place=cards.fields[place][card] if place >= 0 else ctx.place)

    def procedure_for(self, board, procedure: int, side: int):
        solo = board.solo
        if solo is not None:
            replaced = solo.procedure(procedure, side)
            if replaced is not None:
                return replaced
        return self.procedures[procedure]

    def procedure_for_conditions(self, board, procedure: int):
        solo = board.solo
        if solo is not None and procedure >= 0:
            replaced = solo.conditions(procedure)
            if replaced is not None:
                return replaced
        return self.procedure_condition_lists[procedure] if procedure >= 0 else ()

    def revealed_piles(self, kind: int) -> Tuple[Tuple[int, int], ...]:
        """(face-up flag's offset, index in Position.piles) of every pile of a card kind."""
        out = []
        name = self.schema.card_kinds[kind].name
        for number, pile in enumerate(self.schema.piles):
            if pile.kind != name:
                continue
            for side in range(len(self.schema.sides) if pile.each_side else 1):
                out.append((self.layout.revealed[number] + side, self.layout.pile(number, side)))
        return tuple(out)

    def where_is(self, board, card: int) -> Optional[int]:
        """The pile (index in Position.piles) a card of the played kind lies in."""
        name = self.schema.card_kinds[self.played_kind].name
        for number, pile in enumerate(self.schema.piles):
            if pile.kind != name:
                continue
            for side in range(len(self.schema.sides) if pile.each_side else 1):
                index = self.layout.pile(number, side)
                if card in board.piles[index]:
                    return index
        return None


def _side_field(kind, cards) -> Tuple[int, ...]:
    """Each card's side, where its kind has a side field (a deck per side starts with its side's cards)."""
    field = next((i for i, (_, t) in enumerate(kind.fields) if t == "side"), -1)
    return tuple(cards.fields[field]) if field >= 0 else ()


def _static(condition) -> bool:
    """Whether a use's condition reads only "the card" and who plays it."""
    if condition is None:
        return True
    if isinstance(condition, (M.AnyOf, M.AllOf)):
        return all(_static(c) for c in condition.items)
    if isinstance(condition, M.Not):
        return _static(condition.item)
    if isinstance(condition, M.CardFor):
        return condition.card.kind == "this" and condition.side.kind in ("me", "opponent", "side")
    return isinstance(condition, M.IsSide) and condition.side.kind in ("me", "opponent", "side")


def _needs_field(rule: M.Block, program) -> int:
    """A use whose rule carries out a card's rule field is offered only for cards that have one."""
    statements = rule.statements
    if len(statements) == 1 and isinstance(statements[0], M.CarryOut) and statements[0].card is not None:
        return statements[0].field
    return -1


def _counters_read(conditions: Sequence, layout: Layout, schema) -> Optional[Tuple[int, ...]]:
    """The offsets of the counters that first-player rules read, if they read nothing else
    (then the answer is kept until those counters change)."""
    plain = (M.AnyOf, M.AllOf, M.Not, M.CounterMore, M.IsSide, M.Side, M.Comparison, M.NumberTest,
             M.CounterValue, M.Literal)
    offsets = []
    stack = list(conditions)
    while stack:
        node = stack.pop()
        if not isinstance(node, plain):
            return None
        if isinstance(node, (M.CounterMore, M.CounterValue)):
            counter = node.counter
            base = layout.counter[counter]
            offsets.extend(range(base, base + (layout.sides if schema.counters[counter].each_side else 1)))
        for field in attrs.fields(type(node)):
            value = getattr(node, field.name)
            if field.name == "node":
                continue
            if isinstance(value, tuple):
                stack.extend(v for v in value if attrs.has(type(v)))
            elif value is not None and attrs.has(type(value)):
                stack.append(value)
    return tuple(sorted(set(offsets)))


_PROGRAMS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # loaded content -> its program


def program_of(content) -> Optional[GameProgram]:
    """The program of loaded content (its definition compiled), made once per content."""
    program = _PROGRAMS.get(content)
    if program is None and content.definition is not None:
        program = _PROGRAMS[content] = GameProgram(content.definition)
    return program
