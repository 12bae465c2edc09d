"""Cards in play (entities): their tables, what rules do to them, and the operations on them.

A game that declares ``in play`` (docs/state.md) has a record per card of the
kinds that can be in play, in ``Position.values`` (layout.py): whose it is
(NOBODY while it is not in play), its place, the card that carries it, its
flags as bits, and its fields that change in play.  Entities are numbered kind
by kind, card by card (``EntityTables``).  A card carried by another stands
where its carrier stands: its place is kept equal to its carrier's.

The statements on cards in play choose one card at a time (and, for a card
that goes somewhere, where it goes): each choice is a decision whose actions
read ``VERB ID`` (``tap farm-2``), ``VERB ID at PLACE`` (``deploy infantry at
Ridge``), ``VERB ID to PLACE`` (``march infantry to Ford``) or ``VERB ID onto
ID`` (docs/notation.md).  A statement takes each card once; "exactly N" takes N
while one is legal, "up to N" may stop (``done``), "all" takes the cards named
when it starts, in card order.  Every loop is bounded by the number of cards.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Sequence, Tuple

from crisis.interpreter.actions import DONE, Action, Decision
from crisis.ruleset import meaning as M

from .layout import CARRIER, FIELDS, FLAGS, NOBODY, OWNER, PLACE
from .ops import WAITING, Op, call, choose_place, play, with_entity
from .sequence import ForEachPlaceOp, PlayOp

_COMPARE = {"==": lambda a, b: a == b, ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b,
            ">": lambda a, b: a > b, "<": lambda a, b: a < b}


class EntityTables:
    """What a program knows of its cards that can be in play, worked out once."""

    def __init__(self, program):
        schema, layout = program.schema, program.layout
        self.in_play = schema.in_play
        self.kind_of: List[int] = []
        self.card_of: List[int] = []
        for kind, base in sorted(layout.entity_base.items(), key=lambda item: item[1]):
            for card in range(len(program.cards[kind].ids)):
                self.kind_of.append(kind)
                self.card_of.append(card)
        self.count = len(self.kind_of)
        self.ids = tuple(program.cards[k].ids[c] for k, c in zip(self.kind_of, self.card_of))
        self.base = dict(layout.entity_base)  # card kind -> its first entity
        self.mutable = {name: FIELDS + i for i, name in enumerate(self.in_play.fields)} if self.in_play else {}
        self._fields: Dict[str, tuple] = {}
        self.program = program
        places = schema.map.places
        adjacent = schema.map.adjacent
        self.adjacent = tuple(tuple(places.index(p) for p in adjacent.get(place, ())) for place in places)
        # the actions of entity choices, made once each
        self._actions: Dict[tuple, Action] = {}
        # a map of cards (docs/state.md, 'line'): the card standing for each place, each such card's
        # place, and the places in the order of the line (by the cards' number field)
        line = schema.map.line
        self.line = line is not None
        self.place_card: Tuple[int, ...] = (NOBODY,) * len(places)
        self.site: Dict[int, int] = {}  # entity -> the place it stands for
        self.line_order: Tuple[int, ...] = ()
        if line is not None:
            kind = program.kind_index[line.cards.kind]
            names = [f for f, _ in schema.card_kinds[kind].fields]
            cards = self.named(line.cards)
            site, rank = names.index(line.place_field), names.index(line.ordered_by)
            place_card = [NOBODY] * len(places)
            ranks = {}
            for entity in cards:
                p = program.cards[kind].fields[site][self.card_of[entity]]
                if p is not None and p >= 0 and place_card[p] == NOBODY:
                    place_card[p] = entity
                    self.site[entity] = p
                    ranks[p] = program.cards[kind].fields[rank][self.card_of[entity]]
            self.place_card = tuple(place_card)
            self.line_order = tuple(sorted(ranks, key=lambda p: (ranks[p], p)))
        self.line_index = {p: i for i, p in enumerate(self.line_order)}
        in_play = schema.in_play
        self.stays = frozenset(self.named(in_play.stays)) if in_play is not None and in_play.stays else frozenset()
        paying = schema.paying
        self.payers: Tuple[int, ...] = tuple(self.named(paying.cards)) if paying is not None else ()
        self.pay_flag = in_play.flag_index(paying.flag) if paying is not None else -1
        self.payer_records = tuple((entity, layout.entity_of(entity)) for entity in self.payers)  # (entity, its record)
        # the record of the card standing for each place (-1: none), for "is it on the map"
        self.place_record = tuple(layout.entity_of(entity) if entity != NOBODY else -1 for entity in self.place_card)
        # the same for the places of a line, in the line's order (distances count along it)
        self.line_records = tuple(self.place_record[p] for p in self.line_order)
        self.in_play_lists: Dict[tuple, List[int]] = {}  # an owners' column -> the cards in play (cards_in_play)

    def named(self, cards) -> Tuple[int, ...]:
        """The entities a schema noun names (content/schema.py's CardsNamed)."""
        kind = self.program.kind_index[cards.kind]
        if cards.field is None:
            return self.of_kinds((kind,))
        names = [f for f, _ in self.program.schema.card_kinds[kind].fields]
        return self.with_type(kind, names.index(cards.field), cards.values)

    def entity(self, kind: int, card: int) -> int:
        base = self.base.get(kind)
        return NOBODY if base is None or card < 0 else base + card

    def field(self, name: str) -> tuple:
        """A number field's printed value for every entity (0 where its kind has no such field)."""
        found = self._fields.get(name)
        if found is None:
            program = self.program
            columns = {}
            for kind in set(self.kind_of):
                names = [f for f, _ in program.schema.card_kinds[kind].fields]
                columns[kind] = program.cards[kind].fields[names.index(name)] if name in names else None
            found = self._fields[name] = tuple(
                (columns[k][c] if columns[k] is not None and isinstance(columns[k][c], int) else 0)
                for k, c in zip(self.kind_of, self.card_of))
        return found

    def with_type(self, kind: int, field: int, value) -> Tuple[int, ...]:
        """The entities of a kind whose kind field has this value, or one of these values ("units")."""
        wanted = (value,) if isinstance(value, str) else tuple(value)
        values = self.program.cards[kind].fields[field]
        base = self.base.get(kind, 0)
        return tuple(base + c for c, v in enumerate(values) if v in wanted)

    def of_kinds(self, kinds: Sequence[int]) -> Tuple[int, ...]:
        return tuple(entity for entity in range(self.count) if self.kind_of[entity] in kinds)

    def action(self, word: str, entity: int, how: str = "", target: int = NOBODY) -> Action:
        """``deploy infantry``, ``deploy infantry at Ridge``, ``march infantry to Ford``, ``deploy
        sword onto infantry``."""
        key = (word, entity, how, target)
        found = self._actions.get(key)
        if found is None:
            text = f"{word} {self.ids[entity]}"
            if how == "onto":
                text += f" onto {self.ids[target]}"
            elif how:
                text += f" {how} {self.program.schema.map.places[target]}"
            found = self._actions[key] = Action(word, text, a=entity, b=target, how=how)
        return found


def tables(program) -> EntityTables:
    found = program.__dict__.get("_entities")
    if found is None:
        found = program.__dict__["_entities"] = EntityTables(program)
    return found


# ------------------------------------------------------------------ what rules do to cards in play


_MAX_IN_PLAY_LISTS = 1024  # owners' columns whose cards in play are kept, then forgotten


def cards_in_play(board) -> List[int]:
    """The entities in play, in entity order.  Read from the owners' column of the position in
    one slice; the list is kept on the board while that column stays the same (rules list the
    cards in play far more often than cards come and go)."""
    layout = board.layout
    first, stride = layout.entity, layout.entity_stride
    owners = board.values[first:first + layout.entities * stride:stride]
    kept = board.entities_kept
    if kept is not None and kept[0] == owners:
        return kept[1]
    # one list for each owners' column met, shared by every board of the program (the forks of a
    # look-ahead), so that what a listing keeps for a list (``members``) serves them all
    lists = tables(board.program).in_play_lists
    key = tuple(owners)
    found = lists.get(key)
    if found is None:
        if len(lists) >= _MAX_IN_PLAY_LISTS:
            lists.clear()
        found = lists[key] = [card_in_play for card_in_play, owner in enumerate(owners) if owner != NOBODY]
    board.entities_kept = (owners, found)
    return found


def in_play(board, entity: int) -> bool:
    return entity >= 0 and board.values[board.layout.entity_of(entity)] != NOBODY


def carried(board, entity: int) -> List[int]:
    """The cards an entity carries, and those they carry, in entity order (bounded by the cards)."""
    layout, values = board.layout, board.values
    first, stride = layout.entity, layout.entity_stride
    found: List[int] = []
    frontier = [entity]
    playing = cards_in_play(board)  # (a card out of play carries nothing and is carried by nothing)
    for _ in range(layout.entities):
        if not frontier:
            break
        holders, frontier = frontier, []
        for card_in_play in playing:
            if values[first + card_in_play * stride + CARRIER] in holders and card_in_play not in found:
                found.append(card_in_play)
                frontier.append(card_in_play)
    return found


def enter(board, entity: int, side: int, place: int = NOBODY, carrier: int = NOBODY, flag: int = -1) -> None:
    """A card comes into play (it has already left its pile)."""
    entity_tables = tables(board.program)
    layout, values = board.layout, board.values
    record = layout.entity_of(entity)
    if carrier != NOBODY:
        place = values[layout.entity_of(carrier) + PLACE]
    values[record + OWNER] = side
    values[record + PLACE] = place
    values[record + CARRIER] = carrier
    values[record + FLAGS] = (1 << flag) if flag >= 0 else 0
    for name, slot in entity_tables.mutable.items():
        values[record + slot] = entity_tables.field(name)[entity]


def leave(board, entity: int, pile_index: Optional[int], owner_pile: int = -1) -> None:
    """A card leaves play, with what it carries, to a pile (``pile_index`` in Position.piles), or
    each to its owner's pile ``owner_pile`` (a pile each side keeps).  A carried card of those that
    stay (state.yaml, 'stays') is set down where it stands instead, with what it carries."""
    entity_tables = tables(board.program)
    layout, values = board.layout, board.values
    going = [entity]
    if entity_tables.stays:  # what the cards that go carry: those that stay are set down, the others go too
        for _ in range(layout.entities):
            found = False
            for card_in_play in range(layout.entities):
                record = layout.entity_of(card_in_play)
                if values[record + OWNER] != NOBODY and values[record + CARRIER] in going and card_in_play not in going:
                    if card_in_play in entity_tables.stays:
                        values[record + CARRIER] = NOBODY
                    else:
                        going.append(card_in_play)
                        found = True
            if not found:
                break
    else:
        going += carried(board, entity)
    for card_in_play in going:
        record = layout.entity_of(card_in_play)
        owner = values[record + OWNER]
        if owner == NOBODY:
            continue
        index = pile_index if pile_index is not None else layout.pile(owner_pile, owner)
        board.piles[index].append(entity_tables.card_of[card_in_play])
        values[record + OWNER] = values[record + PLACE] = values[record + CARRIER] = NOBODY
        values[record + FLAGS] = 0


# ------------------------------------------------------------------ a map of cards, distances, paying


def carriers_of(board, cards) -> frozenset:
    """The cards in play that carry one of ``cards``."""
    layout, values = board.layout, board.values
    return frozenset(values[layout.entity_of(c) + CARRIER] for c in cards) - {NOBODY}


def on_map(board, place: int, entity_tables: Optional[EntityTables] = None) -> bool:
    """Whether a place is on the map: always, unless the map is a line of cards, where a place is
    on it while its card is in play.  (``t``: the program's tables, when the caller has them.)"""
    return place_on_map(board.program, board.values, place, entity_tables)


def place_on_map(program, values, place: int, entity_tables: Optional[EntityTables] = None) -> bool:
    """``on_map`` of a position's values (no board needed: the invariants read positions)."""
    if entity_tables is None:
        entity_tables = tables(program)
    if not entity_tables.line:
        return place >= 0
    record = entity_tables.place_record[place] if place >= 0 else -1
    return record >= 0 and values[record] != NOBODY


def neighbours(board, place: int) -> List[int]:
    """The places next to a place: the map's adjacency, or in a line of cards the nearest places on
    the map on either side of it."""
    entity_tables = tables(board.program)
    if not entity_tables.line:
        return list(entity_tables.adjacent[place]) if place >= 0 else []
    index = entity_tables.line_index.get(place)
    if index is None:
        return []
    values = board.values
    return _along_line(entity_tables, values, index, -1, 1) + _along_line(entity_tables, values, index, 1, 1)


def _along_line(entity_tables: "EntityTables", values, index: int, step: int, most: int) -> List[int]:
    """The first ``most`` places on the map from the line's place ``index`` on, one way (``step``
    -1 or 1), nearest first; the place itself left out."""
    order, records, found, k = entity_tables.line_order, entity_tables.line_records, [], index + step
    while 0 <= k < len(order) and len(found) < most:
        record = records[k]
        if record >= 0 and values[record] != NOBODY:
            found.append(order[k])
        k += step
    return found


FAR = 10 ** 6  # the distance to a place that cannot be reached


def distance(board, start: int, goal: int) -> int:
    """Steps along the map from one place to another (FAR when either is off the map, or none leads
    there): in a line of cards, the places on the map between them plus one."""
    entity_tables = tables(board.program)
    if start < 0 or goal < 0:
        return FAR
    if entity_tables.line:
        values, place_record = board.values, entity_tables.place_record
        first, last = place_record[start], place_record[goal]
        if first < 0 or values[first] == NOBODY or last < 0 or values[last] == NOBODY:
            return FAR  # (off the map)
        if start == goal:
            return 0
        a, b = sorted((entity_tables.line_index[start], entity_tables.line_index[goal]))
        return sum(1 for record in entity_tables.line_records[a + 1:b + 1] if record >= 0 and values[record] != NOBODY)
    if start == goal:
        return 0
    seen, frontier, steps = {start}, [start], 0
    while frontier:  # bounded by the places
        steps += 1
        following = []
        for place in frontier:
            for other in entity_tables.adjacent[place]:
                if other == goal:
                    return steps
                if other not in seen:
                    seen.add(other)
                    following.append(other)
        frontier = following
    return FAR


def payers(board, side: int) -> List[int]:
    """A side's cards in play that can pay now (state.yaml, 'paying'), in card order."""
    entity_tables = tables(board.program)
    values, bit = board.values, 1 << entity_tables.pay_flag
    return [entity for entity, record in entity_tables.payer_records
            if values[record + OWNER] == side and not values[record + FLAGS] & bit]


def can_pay(board, side: int, amount: int) -> bool:
    return amount <= 0 or len(payers(board, side)) >= amount


def pay(board, side: int, amount: int) -> bool:
    """Spend that many of the side's payers (each pays 1; they are alike, so the first in card order
    are spent, and no one is asked); all or nothing.  Whether it was paid."""
    if amount <= 0:
        return True
    found = payers(board, side)
    if len(found) < amount:
        return False
    entity_tables = tables(board.program)
    for entity in found[:amount]:
        set_flag(board, entity, entity_tables.pay_flag, True)
    return True


def move(board, entity: int, place: int = NOBODY, carrier: int = NOBODY) -> None:
    """A card in play goes to a place, or onto another card; what it carries goes with it."""
    layout, values = board.layout, board.values
    record = layout.entity_of(entity)
    if carrier != NOBODY:
        place = values[layout.entity_of(carrier) + PLACE]
    values[record + PLACE] = place
    values[record + CARRIER] = carrier
    for card_in_play in carried(board, entity):
        values[layout.entity_of(card_in_play) + PLACE] = place


def set_flag(board, entity: int, flag: int, on: bool) -> None:
    record = board.layout.entity_of(entity) + FLAGS
    if on:
        board.values[record] |= 1 << flag
    else:
        board.values[record] &= ~(1 << flag)


def _within_line(entity_tables: EntityTables, steps: Callable) -> Callable:
    """``places_Within`` on a line of cards, where going from place to place reaches, at each step,
    the next place on the map to the left and the next to the right: the places it would reach,
    in the same order (nearest first, left before right), read off the line directly."""
    index_of = entity_tables.line_index

    def within(board, ctx, it):
        if it < 0:
            return []
        most = steps(board, ctx, it)
        index = index_of.get(it)
        if index is None:
            return []
        levels = max(0, min(most, board.layout.places))
        left = _along_line(entity_tables, board.values, index, -1, levels)
        right = _along_line(entity_tables, board.values, index, 1, levels)
        out = []
        for level in range(max(len(left), len(right))):
            if level < len(left):
                out.append(left[level])
            if level < len(right):
                out.append(right[level])
        return out
    return within


def _reads_its_card(node) -> bool:
    """Whether a rule's part may read the card a "whose" clause tests ("its", "their"); a named
    condition or term, or an imagined event, may read anything, so it counts as reading it."""
    def found(part):
        if isinstance(part, M.EntityRef):
            return part.kind == "this"
        return True if isinstance(part, (M.Term, M.Named, M.Would, M.CardWould)) else None
    return M.any_part(node, found)


def chosen(board) -> int:
    offset = board.layout.chosen_entity
    return board.values[offset] if offset >= 0 else NOBODY


# ------------------------------------------------------------------ compiling


class EntityCompiler:
    """The compiler's methods for cards in play (a mixin of compiler.Compiler)."""

    # ---------------------------------------------------------------- sets and references
    def entity_ref(self, ref: M.EntityRef) -> Callable:
        """(board, ctx) -> an entity, or NOBODY."""
        if ref.kind == "this":
            return lambda board, ctx: ctx.entity
        if ref.kind == "that":
            return lambda board, ctx: chosen(board)
        entity_tables = tables(self.program)
        base = entity_tables.base.get(self.program.played_kind)
        if base is None:
            return lambda board, ctx: NOBODY
        return lambda board, ctx: base + ctx.card if ctx.card >= 0 else NOBODY

    def entities(self, node) -> Callable:
        """(board, ctx, it) -> the entities in play named, in entity order."""
        if isinstance(node, M.EntityRef):
            ref = self.entity_ref(node)
            return lambda board, ctx, it: [card_in_play] if in_play(board, card_in_play := ref(board, ctx)) else []
        entity_tables = tables(self.program)
        if node.type is not None:
            candidates = entity_tables.with_type(*node.type)
        else:
            candidates = entity_tables.of_kinds(node.kinds)
        layout = self.program.layout
        stride, first = layout.entity_stride, layout.entity
        wanted = [False] * layout.entities
        for card_in_play in candidates:
            wanted[card_in_play] = True
        wanted = tuple(wanted)
        owner = self.side(node.owner) if node.owner is not None else None
        mask = sum(1 << flag for flag, _ in node.flags)
        want = sum(1 << flag for flag, on in node.flags if on)
        at = self.places(node.at) if node.at is not None else None
        extra = self.entity_tests(node)
        carrying = self.entities(node.carrying) if node.carrying is not None else None

        # the cards of these kinds in play (and the side's, if a side is named) are a function of the
        # owners' column alone, so of the list cards_in_play keeps for it, which is never changed:
        # side -> (that list, those cards), the last worked out for the side (a bot may list cards
        # in another thread: an entry is read and replaced whole)
        kept: Dict[int, tuple] = {}

        def members(board, ctx, it):
            values = board.values
            side = owner(board, ctx) if owner is not None else NOBODY
            where = at(board, ctx, it) if at is not None else None
            carriers = carriers_of(board, carrying(board, ctx, it)) if carrying is not None else None
            cards = cards_in_play(board)
            last = kept.get(side)
            if last is not None and last[0] is cards:
                chosen = last[1]
            else:
                owners = board.entities_kept[0]
                chosen = [card for card in cards if wanted[card] and (owner is None or owners[card] == side)]
                kept[side] = (cards, chosen)
            out = []
            test = None
            for card_in_play in chosen:
                record = first + card_in_play * stride
                if mask and values[record + FLAGS] & mask != want:
                    continue
                if where is not None and values[record + PLACE] not in where:
                    continue
                if carriers is not None and card_in_play not in carriers:
                    continue
                if extra is not None:
                    if test is None:  # the tests' set-up, once per listing, and only for a card that gets here
                        test = extra(board, ctx, it)
                    if not test(card_in_play, record):
                        continue
                out.append(card_in_play)
            return out
        return members

    def entity_tests(self, node: M.Entities) -> Optional[Callable]:
        """What else an Entities says, as ``(board, ctx, it) -> test(entity, record) -> bool``, set up
        once per listing: "whose ..." (a field of the card compared with a number read for it: "its",
        "their" is that card) and "its ..." (carried by the card in context).  What the tests read
        that is the same for every card (the place a distance is counted to, the card in context) is
        read once per listing, not once per card.  None when it says nothing else ("carrying ..." is
        worked out once per listing, by ``entities``)."""
        tests = []
        if node.whose is not None:
            field, op, other = node.whose
            entity_tables = tables(self.program)
            printed, slot, compare = entity_tables.field(field), entity_tables.mutable.get(field), _COMPARE[op]
            for_each_card = self.number_for_each_card(other)

            def whose(board, ctx, it):
                number, values = for_each_card(board, ctx, it), board.values
                if slot is not None:
                    return lambda entity, record: compare(values[record + slot], number(entity))
                return lambda entity, record: compare(printed[entity], number(entity))
            tests.append(whose)
        if node.by is not None:
            carrier = self.entity_ref(node.by)

            def by(board, ctx, it):
                held, values = carrier(board, ctx), board.values  # the card in context: the same for every card
                return lambda entity, record: values[record + CARRIER] == held != NOBODY
            tests.append(by)
        if not tests:
            return None
        if len(tests) == 1:
            return tests[0]

        def all_of(board, ctx, it):
            each = [test(board, ctx, it) for test in tests]
            return lambda entity, record: all(test(entity, record) for test in each)
        return all_of

    def number_for_each_card(self, node) -> Callable:
        """``(board, ctx, it) -> number(entity)``: the number ``node`` reads with each card as "its",
        "their", as ``self.number(node)`` with ``ctx.entity`` that card.  A distance to places that
        do not depend on the card ("their distance to the battlefield") finds those places once,
        when the first card asks, not once per card."""
        if isinstance(node, M.Distance) and node.entity.kind == "this" and not _reads_its_card(node.to):
            to, layout = self.places(node.to), self.program.layout

            def distances(board, ctx, it):
                values, goal = board.values, []

                def steps(card_in_play):
                    record = layout.entity_of(card_in_play) if card_in_play >= 0 else -1
                    if record < 0 or values[record] == NOBODY:
                        return FAR
                    if not goal:
                        goal.append(to(board, ctx, it))
                    return distance(board, values[record + PLACE], goal[0][0]) if goal[0] else FAR
                return steps
            return distances
        number = self.number(node)
        return lambda board, ctx, it: lambda card_in_play: number(board, with_entity(ctx, card_in_play), it)

    def pile_cards(self, node: M.PileCards) -> Callable:
        """(board, ctx) -> [(entity, index in Position.piles)] of the cards of piles that may come into
        play, in pile order (the named card alone, wherever it lies)."""
        entity_tables = tables(self.program)
        kind = node.kind
        base = entity_tables.base.get(kind, 0)
        if node.card is not None:
            card = self.card(node.card)
            name = self.schema.card_kinds[kind].name
            indices = tuple(self.program.layout.pile(number, side) for number, pile in enumerate(self.schema.piles)
                            if pile.kind == name for side in range(len(self.schema.sides) if pile.each_side else 1))

            def named(board, ctx):
                c = card(board, ctx)
                if c < 0:
                    return []
                return [(base + c, index) for index in indices if c in board.piles[index]][:1]
            return named
        parts = [self.pile_sides(p) for p in node.piles]
        allowed = None
        if node.type is not None:
            allowed = frozenset(entity - base for entity in entity_tables.with_type(*node.type))
        test = None
        if node.field >= 0:
            values = self.program.cards[kind].fields[node.field]
            other, op = self.number(node.other), _COMPARE[node.op]
            test = lambda board, ctx, c: op(values[c] if isinstance(values[c], int) else 0, other(board, ctx, NOBODY))

        def cards(board, ctx):
            out = []
            for part in parts:
                for index in part(board, ctx):
                    for c in board.piles[index]:
                        if (allowed is None or c in allowed) and (test is None or test(board, ctx, c)):
                            out.append((base + c, index))
            return out
        return cards

    # ---------------------------------------------------------------- places
    def places_EntityPlaces(self, node: M.EntityPlaces):
        members = self.entities(node.entities)
        layout = self.program.layout

        def where(board, ctx, it):
            values = board.values
            out = []
            for entity in members(board, ctx, it):
                place = values[layout.entity_of(entity) + PLACE]
                if place != NOBODY and place not in out:
                    out.append(place)
            return out
        return where

    def places_Adjacent(self, node: M.Adjacent):
        entity_tables = tables(self.program)
        adjacent = entity_tables.adjacent
        if node.of is None:  # next to the card being moved: its place is passed as ``it``
            if entity_tables.line:
                return lambda board, ctx, it: neighbours(board, it) if it >= 0 else ()
            return lambda board, ctx, it: adjacent[it] if it >= 0 else ()
        base = self.places(node.of)

        def next_to(board, ctx, it):
            out = []
            for p in base(board, ctx, it):
                for q in (neighbours(board, p) if entity_tables.line else adjacent[p]):
                    if q not in out:
                        out.append(q)
            return out
        return next_to

    def places_Within(self, node: M.Within):
        """Places at most so many steps from the moving card's place (passed as ``it``), its own left out:
        the places reached by going from place to place, each step to a place next to one reached."""
        steps = self.number(node.steps)
        entity_tables = tables(self.program)
        if entity_tables.line:
            return _within_line(entity_tables, steps)

        def within(board, ctx, it):
            if it < 0:
                return []
            most = steps(board, ctx, it)
            reached, frontier = [it], [it]
            for _ in range(max(0, min(most, board.layout.places))):
                following = []
                for place in frontier:
                    for other in neighbours(board, place):
                        if other not in reached:
                            reached.append(other)
                            following.append(other)
                if not following:
                    break
                frontier = following
            return reached[1:]
        return within

    def places_RegisterPlace(self, node: M.RegisterPlace):
        offset = self.program.layout.register[node.register]
        return lambda board, ctx, it: (p,) if (p := board.values[offset]) != NOBODY else ()

    # ---------------------------------------------------------------- numbers
    def entity_number(self, node) -> Callable:
        entity_tables = tables(self.program)
        layout = self.program.layout
        if isinstance(node, M.Distance):
            ref, to = self.entity_ref(node.entity), self.places(node.to)

            def steps(board, ctx, it):
                card_in_play = ref(board, ctx)
                if card_in_play < 0 or board.values[layout.entity_of(card_in_play)] == NOBODY:
                    return FAR
                goal = to(board, ctx, it)
                return distance(board, board.values[layout.entity_of(card_in_play) + PLACE], goal[0]) if goal else FAR
            return steps
        if isinstance(node, M.CardsTotal):
            cards = self.cards(node.cards)
            values = self.program.cards[node.cards.kind].fields[node.field]
            return lambda board, ctx, it: sum(v for c in cards(board, ctx) if isinstance(v := values[c], int))
        if isinstance(node, M.EntityExtreme):
            members = self.entities(node.entities)
            printed, slot = entity_tables.field(node.field), entity_tables.mutable.get(node.field)
            pick = max if node.highest else min

            def extreme(board, ctx, it):
                found = members(board, ctx, it)
                if not found:
                    return 0
                if slot is None:
                    return pick(printed[card_in_play] for card_in_play in found)
                return pick(board.values[layout.entity_of(card_in_play) + slot] for card_in_play in found)
            return extreme
        if isinstance(node, M.EntityField):
            ref = self.entity_ref(node.entity)
            printed = entity_tables.field(node.field)
            slot = entity_tables.mutable.get(node.field)
            if slot is None:
                return lambda board, ctx, it: printed[card_in_play] if (card_in_play := ref(board, ctx)) >= 0 else 0

            def value(board, ctx, it):
                card_in_play = ref(board, ctx)
                if card_in_play < 0:
                    return 0
                record = layout.entity_of(card_in_play)
                return board.values[record + slot] if board.values[record] != NOBODY else printed[card_in_play]
            return value
        members = self.entities(node.entities)
        printed = entity_tables.field(node.field)
        slot = entity_tables.mutable.get(node.field)
        if slot is None:
            return lambda board, ctx, it: sum(printed[card] for card in members(board, ctx, it))
        entity_of = layout.entity_of
        return lambda board, ctx, it: sum(board.values[entity_of(card) + slot] for card in members(board, ctx, it))

    # ---------------------------------------------------------------- conditions
    def cond_EntityFlag(self, node: M.EntityFlag):
        ref, layout = self.entity_ref(node.entity), self.program.layout
        bit, on = 1 << node.flag, node.set
        return lambda board, ctx, it: (in_play(board, card_in_play := ref(board, ctx))
                                       and bool(board.values[layout.entity_of(card_in_play) + FLAGS] & bit) == on)

    def cond_EntityAt(self, node: M.EntityAt):
        ref, layout, places = self.entity_ref(node.entity), self.program.layout, self.places(node.places)
        return lambda board, ctx, it: (in_play(board, card := ref(board, ctx))
                                       and board.values[layout.entity_of(card) + PLACE] in places(board, ctx, it))

    def cond_EntityIn(self, node: M.EntityIn):
        ref = self.entity_ref(node.entity)
        return lambda board, ctx, it: in_play(board, ref(board, ctx))

    def cond_CardIsType(self, node: M.CardIsType):
        kind, field, values = node.type
        column = self.program.cards[kind].fields[field]
        members = frozenset(c for c, v in enumerate(column) if v in values)
        if isinstance(node.card, M.EntityRef):
            ref, entity_tables = self.entity_ref(node.card), tables(self.program)
            return lambda board, ctx, it: ((entity := ref(board, ctx)) >= 0 and entity_tables.kind_of[entity] == kind
                                           and entity_tables.card_of[entity] in members)
        card = self.card(node.card)
        if self.card_kind(node.card) != kind:
            return lambda board, ctx, it: False
        return lambda board, ctx, it: card(board, ctx) in members

    def cond_CanPay(self, node: M.CanPay):
        side, amount = self.side(node.side), self.number(node.amount)
        return lambda board, ctx, it: can_pay(board, side(board, ctx), amount(board, ctx, it))

    def cond_RegisterSet(self, node: M.RegisterSet):
        offset, held = self.program.layout.register[node.register], node.held
        return lambda board, ctx, it: ((p := board.values[offset]) != NOBODY and on_map(board, p)) == held

    # ---------------------------------------------------------------- statements
    def amount(self, amount: M.Amount) -> Tuple[str, int, Optional[Callable]]:
        number = self.number(amount.number) if amount.number is not None else None
        return amount.kind, amount.n, number

    def covering(self, amount: M.Amount) -> Optional[tuple]:
        """"until their total cost is at least ...": each card's printed value of the field."""
        return tables(self.program).field(amount.field) if amount.kind == "cover" else None

    def op_EnterPlay(self, node: M.EnterPlay) -> Op:
        cards = self.pile_cards(node.cards)
        how, targets = "", None
        if node.dest is not None and node.onto:
            how, targets = "onto", self.entities(node.dest)
        elif node.dest is not None:
            how, places = "at", self.places(node.dest)
            targets = lambda board, ctx, it: places(board, ctx, NOBODY)
        paying = self.number(node.paying) if node.paying is not None else None
        return self.register(EntityOp("enter", node.verb, self.amount(node.amount), cards, how, targets, node,
                                      flag=node.flag, paying=paying))

    def op_Pay(self, node: M.Pay) -> Op:
        return self.register(PayOp(self.number(node.amount), node))

    def op_Choose(self, node: M.Choose) -> Op:
        paying = self.number(node.paying) if node.paying is not None else None
        word = self.program.declarations.registers[node.register]
        return self.register(ChooseOp(self.program.layout.register[node.register], self.places(node.places),
                                      node.optional, paying, word, node))

    def op_PlayCards(self, node: M.PlayCards) -> Op:
        members = None
        if node.type is not None:
            kind, field, values = node.type
            members = frozenset(c for c, v in enumerate(self.program.cards[kind].fields[field]) if v in values)
        return self.register(PlayCardsOp(self.pile(node.source), node.most, node, members))

    def op_LeavePlay(self, node: M.LeavePlay) -> Op:
        pile = self.pile(node.pile) if node.pile is not None else None
        return self.register(EntityOp("leave", node.verb, self.amount(node.amount), self.entities(node.entities), "",
                                      None, node, pile=pile, owner_pile=node.owner_pile,
                                      cover=self.covering(node.amount)))

    def op_MoveEntity(self, node: M.MoveEntity) -> Op:
        if node.onto:
            how, targets = "onto", self.entities(node.dest)
        else:
            how, targets = "to", self.places(node.dest)  # called with the moving card's place as ``it``
        paying = self.number(node.paying) if node.paying is not None else None
        return self.register(EntityOp("move", node.verb, self.amount(node.amount), self.entities(node.entities), how,
                                      targets, node, flag=node.flag, paying=paying))

    def op_SetFlag(self, node: M.SetFlag) -> Op:
        return self.register(EntityOp("set" if node.set else "clear", node.verb, self.amount(node.amount),
                                      self.entities(node.entities), "", None, node, flag=node.flag,
                                      cover=self.covering(node.amount)))

    def op_ForEachEntity(self, node: M.ForEachEntity) -> Op:
        return self.register(ForEachEntityOp(self.entities(node.entities), self.block(node.body), node))

    def op_ChangeEntityField(self, node: M.ChangeEntityField) -> Op:
        slot = tables(self.program).mutable[node.field]
        return self.register(EntityFieldOp(self.entity_ref(node.entity), slot, self.number(node.amount), node.set_to,
                                           node))


# ------------------------------------------------------------------ operations


class EntityOp(Op):
    """A statement on cards in play (or coming into play), one card at a time.

    ``action``: "enter" (from a pile), "leave" (to a pile), "move", "set" or "clear" (a flag).
    ``candidates``: (board, ctx, it) -> entities (for "enter": (board, ctx) -> [(entity, pile index)]).
    ``targets``: where each goes: (board, ctx, it) -> places (for a move, ``it`` is the card's own
    place), or the cards it may go onto (``how`` "onto"); None: nowhere in particular.  Where a card
    goes, and what it costs, is worked out with the card as ``ctx.entity`` ("its").
    ``paying``: (board, ctx, it) -> what each choice costs ("it": where the card goes); a choice is
    offered only if it can be paid (state.yaml, 'paying'), and it is paid when taken.
    ``cover``: each card's value of a field: the cards are taken until those values add up to the
    number ("until their total cost is at least the damage")."""

    def __init__(self, action: str, word: str, amount, candidates, how: str, targets, node=None, flag: int = -1,
                 pile=None, owner_pile: int = -1, paying=None, cover=None):
        self.action, self.word, self.candidates, self.how, self.targets = action, word, candidates, how, targets
        self.kind, self.n, self.number = amount
        self.node, self.flag, self.pile, self.owner_pile = node, flag, pile, owner_pile
        self.paying, self.cover = paying, cover

    def carries_out(self, program):
        return ()

    # ------------------------------------------------------------ what may be chosen
    def _candidates(self, board, ctx) -> List[Tuple[int, int]]:
        """[(entity, pile index or NOBODY)] that the statement may act on now."""
        if self.action == "enter":
            return self.candidates(board, ctx)
        return [(entity, NOBODY) for entity in self.candidates(board, ctx, NOBODY)]

    def _targets(self, board, ctx, entity: int) -> Sequence[int]:
        entity_tables = tables(board.program)
        if self.action == "enter" and entity in entity_tables.site:  # a card of a map of cards stands for its own place
            site = entity_tables.site[entity]
            if on_map(board, site):
                return ()
            if self.targets is None:
                return (site,)
            return (site,) if site in self.targets(board, with_entity(ctx, entity), NOBODY) else ()
        if self.targets is None:
            return (NOBODY,)
        # where a card in play goes is read with it as "its" (a card coming in is not in play yet)
        moving = with_entity(ctx, entity) if self.action == "move" else ctx
        if self.how == "onto":  # never onto itself, what it carries, or what carries it already
            carrier = board.values[board.layout.entity_of(entity) + CARRIER] if self.action == "move" else NOBODY
            return [c for c in self.targets(board, moving, NOBODY)
                    if c != entity and c != carrier and entity not in carried_chain(board, c)]
        if self.action == "move":
            here = board.values[board.layout.entity_of(entity) + PLACE]
            found = [p for p in self.targets(board, moving, here) if p != here]
        else:
            found = self.targets(board, ctx, NOBODY)
        if entity_tables.line:  # cards go only to places on the map
            found = [p for p in found if on_map(board, p)]
        return found

    def cost(self, board, ctx, entity: int, target: int) -> int:
        if self.paying is None:
            return 0
        return self.paying(board, with_entity(ctx, entity), target if self.how != "onto" else NOBODY)

    def legal(self, board, ctx, taken, only=None) -> List[Tuple[int, int, int]]:
        """[(entity, pile index, target)], in card order then target order."""
        out = []
        paying = self.paying
        available = len(payers(board, ctx.me)) if paying is not None else 0  # each pays 1
        for entity, index in self._candidates(board, ctx):
            if entity in taken or (only is not None and entity != only):
                continue
            for target in self._targets(board, ctx, entity):
                if paying is not None and self.cost(board, ctx, entity, target) > available:
                    continue
                out.append((entity, index, target))
        return out

    def count(self, board, ctx) -> int:
        if self.number is not None:
            return max(0, self.number(board, ctx, NOBODY))
        if self.kind in ("all", "any"):
            return board.layout.entities
        return self.n

    def start(self, board, ctx) -> Tuple[int, Optional[tuple]]:
        """How many to take (for "cover": the number the cards must cover), and for "all" the cards
        named now; "that unit" is forgotten."""
        n = self.count(board, ctx)
        fixed = tuple(entity for entity, _ in self._candidates(board, ctx)) if self.kind == "all" else None
        if board.layout.chosen_entity >= 0:
            board.values[board.layout.chosen_entity] = NOBODY
        return n, fixed

    def next_choice(self, board, ctx, n: int, taken: tuple, fixed):
        """The legal choices of the next step ([] when the statement is over), and whether "done" is one."""
        if self.cover is not None:
            cover = self.cover
            if sum(cover[card_in_play] for card_in_play in taken) >= n:
                return [], False
            return self.legal(board, ctx, taken), False
        if len(taken) >= n:
            return [], False
        if fixed is not None:
            for entity in fixed:
                if entity in taken:
                    continue
                legal = self.legal(board, ctx, (), only=entity)
                if legal:
                    return legal, False
            return [], False
        return self.legal(board, ctx, taken), self.kind in ("up_to", "any")

    def left(self, n: int, taken: tuple) -> int:
        if self.cover is not None:
            return max(0, n - sum(self.cover[entity] for entity in taken))
        return n - len(taken) if self.kind != "any" else 0

    def decision(self, board, ctx, legal, optional: bool, left: int) -> Decision:
        entity_tables = tables(board.program)
        how = self.how
        site, action = entity_tables.site, entity_tables.action
        actions = [action(self.word, entity, how if target != NOBODY and (how or entity not in site) else "", target)
                   for entity, _, target in legal]
        if optional:
            actions.append(DONE)
        return Decision(ctx.me, self.word, actions, optional, left, rule=self.node)

    def short(self, board, n: int, taken: tuple, fixed) -> None:
        """What an "exactly N" (or a "cover") could not take is a shortfall, as for tokens."""
        if self.kind == "exactly" and len(taken) < n and fixed is None:
            board.shortfall += n - len(taken)
        elif self.cover is not None and sum(self.cover[entity] for entity in taken) < n:
            board.shortfall += 1

    # ------------------------------------------------------------ doing it
    def take(self, board, ctx, entity: int, index: int, target: int) -> None:
        action = self.action
        cost = self.cost(board, ctx, entity, target) if self.paying is not None else 0
        if action == "enter":
            board.piles[index].remove(tables(board.program).card_of[entity])
            if self.how == "onto":
                enter(board, entity, ctx.me, carrier=target, flag=self.flag)
            else:
                enter(board, entity, ctx.me, place=target, flag=self.flag)
        elif action == "leave":
            leave(board, entity, self.pile(board, ctx) if self.pile is not None else None, self.owner_pile)
        elif action == "move":
            if self.how == "onto":
                move(board, entity, carrier=target)
            else:
                move(board, entity, place=target)
            if self.flag >= 0:  # what it carries went with it
                for card_in_play in [entity] + carried(board, entity):
                    set_flag(board, card_in_play, self.flag, True)
        else:
            set_flag(board, entity, self.flag, action == "set")
        if cost > 0:
            pay(board, ctx.me, cost)
        if board.layout.chosen_entity >= 0:
            board.values[board.layout.chosen_entity] = entity
        if target != NOBODY and self.how != "onto":
            choose_place(board, ctx, target)
        if board.log is not None:  # "log.<verb>": the card, its place, the card it went onto
            entity_tables, record = tables(board.program), board.layout.entity_of(entity)
            at = board.values[record + PLACE] if board.values[record] != NOBODY else NOBODY
            board.emit("log." + self.word, side=board.program.schema.sides[ctx.me], card=entity_tables.ids[entity],
                       kind=board.program.schema.card_kinds[entity_tables.kind_of[entity]].name,
                       place=board.program.schema.map.places[at] if 0 <= at < board.n else "",
                       discarded=entity_tables.ids[target] if self.how == "onto" and target != NOBODY else "")

    # ------------------------------------------------------------ the framed form
    def begin(self, machine, ctx):
        n, fixed = self.start(machine.board, ctx)
        # frame: [id, ctx, n, taken, fixed, stage]
        machine.stack.append([self.id, ctx, n, (), fixed, 0])

    def step(self, machine, frame):
        board, ctx = machine.board, frame[1]
        legal, optional = self.next_choice(board, ctx, frame[2], frame[3], frame[4])
        if frame[5] == WAITING:
            return self.decision(board, ctx, legal, optional, self.left(frame[2], frame[3]))
        while True:
            if not legal:
                self.short(board, frame[2], frame[3], frame[4])
                machine.stack.pop()
                return None
            if len(legal) == 1 and not optional:
                self._take(board, ctx, frame, legal[0])
                legal, optional = self.next_choice(board, ctx, frame[2], frame[3], frame[4])
                continue
            frame[5] = WAITING
            return self.decision(board, ctx, legal, optional, self.left(frame[2], frame[3]))

    def _take(self, board, ctx, frame, choice) -> None:
        entity, index, target = choice
        frame[3] = frame[3] + (entity,)
        self.take(board, ctx, entity, index, target)

    def answer(self, machine, frame, action):
        frame[5] = 0
        board, ctx = machine.board, frame[1]
        if action is DONE or action.kind == "done":
            machine.stack.pop()
            return None
        # the action is one of the decision's (step, just before): the chosen card's choices are
        # listed alone, as the decision listed them (the same order, the same costs)
        for choice in self.legal(board, ctx, frame[3], only=action.a):
            if choice[0] == action.a and choice[2] == action.b:
                self._take(board, ctx, frame, choice)
                break
        return None

    # ------------------------------------------------------------ the direct form
    def play(self, board, ctx, choose):
        n, fixed = self.start(board, ctx)
        taken: tuple = ()
        for _ in range(board.layout.entities + 1):  # each card is taken once
            legal, optional = self.next_choice(board, ctx, n, taken, fixed)
            if not legal:
                self.short(board, n, taken, fixed)
                return
            if len(legal) == 1 and not optional:
                choice = legal[0]
            else:
                action = choose(self.decision(board, ctx, legal, optional, self.left(n, taken)))
                if action is DONE or action.kind == "done":
                    return
                choice = next(c for c in legal if c[0] == action.a and c[2] == action.b)
            taken = taken + (choice[0],)
            self.take(board, ctx, *choice)

    def can_act(self, board, ctx):
        if self.count(board, ctx) <= 0:
            return False
        if self.kind == "all":
            return any(self.legal(board, ctx, (), only=entity) for entity, _ in self._candidates(board, ctx))
        return bool(self.legal(board, ctx, ()))


def carried_chain(board, entity: int) -> List[int]:
    """The cards that carry an entity, nearest first (a card never goes onto one it carries)."""
    layout, values = board.layout, board.values
    out: List[int] = []
    for _ in range(layout.entities):
        carrier = values[layout.entity_of(entity) + CARRIER]
        if carrier == NOBODY or carrier in out:
            break
        out.append(carrier)
        entity = carrier
    return out


class ForEachEntityOp(Op):
    """"for each unit you control at Ridge:": the cards of the set when it starts, in card order; one
    no longer in the set by its turn is passed over.  The body's "the unit" is the card."""

    def __init__(self, members, body: Op, node=None):
        self.members, self.body, self.node = members, body, node
        self.asks = body.asks

    def run(self, board, ctx):
        for entity in self.members(board, ctx, NOBODY):
            if entity in self.members(board, ctx, NOBODY):
                self.body.run(board, with_entity(ctx, entity))

    def begin(self, machine, ctx):
        # frame: [id, ctx, the cards, next]
        machine.stack.append([self.id, ctx, tuple(self.members(machine.board, ctx, NOBODY)), 0])

    def step(self, machine, frame):
        board, ctx = machine.board, frame[1]
        while frame[3] < len(frame[2]):
            entity = frame[2][frame[3]]
            frame[3] += 1
            if entity in self.members(board, ctx, NOBODY):
                call(machine, self.body, with_entity(ctx, entity))
                return None
        machine.stack.pop()
        return None

    def play(self, board, ctx, choose):
        for entity in self.members(board, ctx, NOBODY):
            if entity in self.members(board, ctx, NOBODY):
                play(self.body, board, with_entity(ctx, entity), choose)

    def can_act(self, board, ctx):
        return any(self.body.can_act(board, with_entity(ctx, entity)) for entity in self.members(board, ctx, NOBODY))


class EntityFieldOp(Op):
    """"add 1 to the power of the unit", "set the power of the unit to 2"."""

    asks = False

    def __init__(self, ref, slot: int, amount, set_to: bool, node=None):
        self.ref, self.slot, self.amount, self.set_to, self.node = ref, slot, amount, set_to, node

    def run(self, board, ctx):
        entity = self.ref(board, ctx)
        if not in_play(board, entity):
            return
        offset = board.layout.entity_of(entity) + self.slot
        value = self.amount(board, ctx, NOBODY)
        board.values[offset] = value if self.set_to else board.values[offset] + value

    def can_act(self, board, ctx):
        return in_play(board, self.ref(board, ctx))


class PayOp(Op):
    """"pay 2": the acting side's payers spent (state.yaml, 'paying'); a cost it cannot cover is not
    paid at all (a shortfall)."""

    asks = False

    def __init__(self, amount, node=None):
        self.amount, self.node = amount, node

    def carries_out(self, program):
        return ()

    def run(self, board, ctx):
        if not pay(board, ctx.me, self.amount(board, ctx, NOBODY)):
            board.shortfall += 1

    def can_act(self, board, ctx):
        amount = self.amount(board, ctx, NOBODY)
        return amount > 0 and can_pay(board, ctx.me, amount)


class ChooseOp(ForEachPlaceOp):
    """"choose up to 1 location where ... as the battlefield": a place register set by the acting
    player's choice among the places (that can be paid for, with ``paying``); with ``optional`` the
    player may choose none ("done"), and the register then holds none.  Its actions name the
    register and the place ("battlefield Richmond"), as a place chosen one by one does (a kind of
    ForEachPlaceOp for the action notation, without a body)."""

    loop = False

    def __init__(self, offset: int, places, optional: bool, paying, word: str, node=None):
        self.offset, self.places, self.optional, self.paying, self.word, self.node = \
            offset, places, optional, paying, word, node

    def carries_out(self, program):
        return ()

    def legal(self, board, ctx) -> List[int]:
        found = [p for p in self.places(board, ctx, NOBODY) if on_map(board, p)]
        if self.paying is not None:
            found = [p for p in found if can_pay(board, ctx.me, self.paying(board, ctx, p))]
        return found

    def decision(self, board, ctx, places) -> Decision:
        actions = [board.program.actions.place_word(self.word, p) for p in places]
        if self.optional:
            actions.append(DONE)
        return Decision(ctx.me, self.word, actions, self.optional, 0, rule=self.node)

    def set(self, board, ctx, place: int) -> None:
        board.values[self.offset] = place
        if place != NOBODY:
            if self.paying is not None:
                pay(board, ctx.me, self.paying(board, ctx, place))
            choose_place(board, ctx, place)
            if board.log is not None:  # said as a place chosen one by one is
                board.emit("log.place_chosen", side=board.program.schema.sides[ctx.me], word=self.word,
                           space=board.program.schema.map.places[place])

    # frame: [id, ctx, stage]
    def step(self, machine, frame):
        board, ctx = machine.board, frame[1]
        places = self.legal(board, ctx)
        if frame[2] == WAITING:
            return self.decision(board, ctx, places)
        board.values[self.offset] = NOBODY
        if not places or (len(places) == 1 and not self.optional):
            if not places and not self.optional:
                board.shortfall += 1
            machine.stack.pop()
            if places:
                self.set(board, ctx, places[0])
            return None
        frame[2] = WAITING
        return self.decision(board, ctx, places)

    def begin(self, machine, ctx):
        machine.stack.append([self.id, ctx, 0])

    def answer(self, machine, frame, action):
        machine.stack.pop()
        if action is DONE or action.kind == "done":
            return None
        self.set(machine.board, frame[1], action.a)
        return None

    def play(self, board, ctx, choose):
        places = self.legal(board, ctx)
        board.values[self.offset] = NOBODY
        if not places:
            if not self.optional:
                board.shortfall += 1
            return
        if len(places) == 1 and not self.optional:
            self.set(board, ctx, places[0])
            return
        action = choose(self.decision(board, ctx, places))
        if action is not DONE and action.kind != "done":
            self.set(board, ctx, action.a)

    def can_act(self, board, ctx):
        return bool(self.legal(board, ctx))


class PlayCardsOp(PlayOp):
    """"play any number of cards from your hand" ("up to N"): the player plays cards one at a time,
    each for one of its uses, until they stop ("done"), have played N, or have none to play: a window
    in which either side may answer with cards (the game's sequence of play says where)."""

    def __init__(self, source, most: int = 0, node=None, members=None):
        super().__init__(source, node)
        self.most, self.members = most, members  # members: the cards it may play ("interrupts"), or None

    def actions(self, board, ctx):
        found = super().actions(board, ctx)
        members = self.members
        return found if members is None else [action for action in found if action.a in members]

    # frame: [id, ctx, stage, use, card, payment, cards played]
    def begin(self, machine, ctx):
        machine.stack.append([self.id, ctx, 0, -1, NOBODY, NOBODY, 0])

    def limit(self, board) -> int:
        return self.most if self.most > 0 else board.layout.entities + sum(len(p) for p in board.piles)

    def window(self, board, ctx, actions) -> Decision:
        return Decision(ctx.me, "play_card", list(actions) + [DONE], True, 0, True, rule=self.node)

    def step(self, machine, frame):
        board, ctx = machine.board, frame[1]
        if frame[2] == 1:  # a card's use is over: it is played; the player may play another
            self.end(board, ctx, frame)
            frame[2], frame[3], frame[4], frame[5] = 0, -1, NOBODY, NOBODY
            frame[6] += 1
        if frame[6] >= self.limit(board):
            machine.stack.pop()
            return None
        actions = self.actions(board, ctx)
        if not actions:
            machine.stack.pop()
            return None
        frame[2] = WAITING
        return self.window(board, ctx, actions)

    def answer(self, machine, frame, action):
        if action is DONE or action.kind == "done":
            machine.stack.pop()
            return None
        self.start(machine, frame, action)
        return None

    def play(self, board, ctx, choose):
        program = board.program
        for _ in range(self.limit(board)):
            actions = self.actions(board, ctx)
            if not actions:
                return
            action = choose(self.window(board, ctx, actions))
            if action is DONE or action.kind == "done":
                return
            frame = [self.id, ctx, 0, -1, NOBODY, NOBODY, 0]
            use = self.begin_play(board, frame, action)
            play(use.rule, board, program.card_ctx(ctx.me, program.played_kind, action.a), choose)
            self.end(board, ctx, frame)

    def can_act(self, board, ctx):
        return bool(self.actions(board, ctx))
