"""Scenario files and cards in play: the ``in play`` key of a position and of ``expect``.

A game whose schema declares cards in play names them in scenarios under the
scenario key it gives them (``in play: in play``), side by side:

    in play:
      Red: [red-camp, red-supply-1]                 # these cards, at no place, flags clear
      Blue:
        blue-guard: {at: Crossing, moved: true}      # a place, flags, fields that change in play
        blue-banner: {carried by: blue-guard}        # carried by another card in play

In a position, the key gives everything in play: the cards set-up put in play
go back to the piles cards start in, then the listed cards leave every pile
and come into play.  In ``expect``, a list gives exactly the side's cards in
play; a mapping checks what it says of each card listed (``off``: not in play
for that side).  Every name is read against the game's (docs/scenarios.md).

Such games often keep a deck per side (a pile each side keeps that starts with
all its cards, each card in its side's): ``decks_per_side`` gives a position's
decks of that kind, side by side, top first.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Dict, List, Optional

from crisis.interpreter.engine.layout import CARRIER, FIELDS, FLAGS, NOBODY, OWNER, PLACE

OFF = (None, False, "off")


def attribute_keys(schema) -> List[str]:
    in_play = schema.in_play
    return ["at", "carried by"] + [f.name for f in in_play.flags] + list(in_play.fields)


class InPlayExpected:
    """What a scenario expects of the cards in play, side by side: a list (exactly these cards) or a
    mapping of cards to what must hold of each (None: not in play for that side)."""

    def __init__(self, sides: Dict[str, Any]):
        self.sides = sides

    def compare(self, actual: Dict[str, Dict[str, dict]], path: str, problems: List[str]) -> None:
        for side, wanted in self.sides.items():
            got = actual.get(side, {})
            where = f"{path}.{side}"
            if isinstance(wanted, list):
                if Counter(wanted) != Counter(list(got)):
                    missing = [c for c in wanted if c not in got]
                    extra = [c for c in got if c not in wanted]
                    detail = "; ".join(part for part in (f"missing {', '.join(missing)}" if missing else "",
                                                         f"not expected {', '.join(extra)}" if extra else "") if part)
                    problems.append(f"{where}: expected {wanted} in play, got {list(got)} ({detail})")
                continue
            for card, attributes in wanted.items():
                if attributes is None:
                    if card in got:
                        problems.append(f"{where}.{card}: expected out of play, it is in play")
                    continue
                if card not in got:
                    problems.append(f"{where}.{card}: expected in play, it is not")
                    continue
                for name, value in attributes.items():
                    if got[card].get(name) != value:
                        problems.append(f"{where}.{card}.{name}: expected {value!r}, got {got[card].get(name)!r}")


def observed(game) -> Dict[str, Dict[str, dict]]:
    """The cards in play as a scenario names them: side -> card -> at, carried by, flags, fields."""
    from crisis.interpreter.engine.entities import tables
    program = game.program
    schema, layout, values = program.schema, program.layout, game.position.values
    t = tables(program)
    out: Dict[str, Dict[str, dict]] = {side: {} for side in schema.sides}
    for entity in range(layout.entities):
        record = layout.entity_of(entity)
        owner = values[record + OWNER]
        if owner == NOBODY:
            continue
        place, carrier = values[record + PLACE], values[record + CARRIER]
        found = {"at": schema.map.places[place] if place != NOBODY else None,
                 "carried by": t.ids[carrier] if carrier != NOBODY else None}
        for index, flag in enumerate(schema.in_play.flags):
            found[flag.name] = bool(values[record + FLAGS] >> index & 1)
        for index, name in enumerate(schema.in_play.fields):
            found[name] = values[record + FIELDS + index]
        out[schema.sides[owner]][t.ids[entity]] = found
    return out


def expected(reader, container, key) -> InPlayExpected:
    """``expect``'s value at ``container[key]``, read against the game's names."""
    from crisis.interpreter.engine.entities import tables
    ids = list(tables(reader.program).ids)
    sides = {}
    for side, (given, side_name, value) in reader.per_side(container, key).items():
        name = reader.schema.sides[side]
        if isinstance(value, list):
            sides[name] = [ids[e] for e in (reader.lookup(*reader.entry(value, given, side_name, i), card, ids,
                                                          "card") for i, card in enumerate(value)) if e != NOBODY]
            continue
        listed = reader.mapping(given, side_name, "cards mapped to what holds of each (or a list of cards)")
        wanted = {}
        for card in listed or ():
            if reader.lookup(listed, card, card, ids, "card", at_key=True) == NOBODY:
                continue
            wanted[card] = None if listed[card] in OFF else _attributes(reader, listed, card, ids)
        sides[name] = wanted
    return InPlayExpected(sides)


def _attributes(reader, listed, card, ids) -> Optional[dict]:
    schema = reader.schema
    value = listed[card]
    if value == {} or value is True:
        return {}
    attributes = reader.mapping(listed, card, f"what holds of the card: {', '.join(attribute_keys(schema))}")
    if attributes is None:
        return {}
    reader.keys(attributes, attribute_keys(schema), f"a card in play ('{card}')")
    out = {}
    flags = [f.name for f in schema.in_play.flags]
    for name in attributes:
        given = attributes[name]
        if name == "at":
            out[name] = None if given in OFF else reader.name(attributes, name, given, "place")
        elif name == "carried by":
            out[name] = None if given in OFF else (ids[i] if (i := reader.lookup(attributes, name, given, ids, "card"))
                                                   != NOBODY else None)
        elif name in flags:
            if not isinstance(given, bool):
                reader.error(attributes, name, f"'{name}' should be true or false", hint=f"got {given!r}")
            out[name] = given
        elif name in schema.in_play.fields:
            out[name] = reader.number(attributes, name, -10 ** 6, 10 ** 6)
    return out


def apply(reader, position, container, key, used: Dict[int, set]) -> None:
    """The position's cards in play: set-up's go back to the piles cards start in, then the listed
    cards leave every pile and come into play; ``used`` gains them (the decks give them up)."""
    from crisis.interpreter.engine.entities import tables
    program, schema = reader.program, reader.schema
    layout, values = program.layout, position.values
    t = tables(program)
    for entity in range(layout.entities):  # what set-up put in play goes back where cards start
        record = layout.entity_of(entity)
        if values[record + OWNER] == NOBODY:
            continue
        values[record + OWNER] = values[record + PLACE] = values[record + CARRIER] = NOBODY
        values[record + FLAGS] = 0
        _start_pile(program, position, t.kind_of[entity], t.card_of[entity]).insert(0, t.card_of[entity])
    ids = list(t.ids)
    carried = []
    for side, (given, side_name, value) in reader.per_side(container, key).items():
        if isinstance(value, list):
            listed = {card: {} for card in value}
            entries = {card: reader.entry(value, given, side_name, i) for i, card in enumerate(value)}
        else:
            mapping = reader.mapping(given, side_name, "cards mapped to their place and flags (or a list of cards)")
            listed = {card: (_attributes(reader, mapping, card, ids) or {}) for card in mapping or ()
                      if card in ids}
            entries = {card: (mapping, card) for card in mapping or ()}
            for card in mapping or ():
                if card not in ids:
                    reader.lookup(mapping, card, card, ids, "card", at_key=True)
        for card, attributes in listed.items():
            entity = reader.lookup(*entries[card], card, ids, "card", at_key=not isinstance(value, list))
            if entity == NOBODY:
                continue
            kind, number = t.kind_of[entity], t.card_of[entity]
            where = f"{key}.{side_name}"
            placed = getattr(reader, "placed", None)  # where the position puts each card, for "listed twice"
            if placed is not None:
                if placed.get((kind, number)) is not None:
                    reader.error(*entries[card], f"card '{card}' is listed in {placed[(kind, number)]} and in {where}",
                                 hint="each card is in one place only: a hand, a deck, in play...")
                    continue
                placed[(kind, number)] = where
            for pile in position.piles:
                if number in pile and _holds_kind(program, position, pile, kind):
                    pile.remove(number)
            used.setdefault(kind, set()).add(number)
            record = layout.entity_of(entity)
            place = attributes.get("at")
            values[record + OWNER] = side
            values[record + PLACE] = schema.map.places.index(place) if place else NOBODY
            values[record + CARRIER] = NOBODY
            values[record + FLAGS] = sum(1 << i for i, f in enumerate(schema.in_play.flags) if attributes.get(f.name))
            for index, name in enumerate(schema.in_play.fields):
                field = attributes.get(name)
                values[record + FIELDS + index] = field if isinstance(field, int) else t.field(name)[entity]
            if attributes.get("carried by"):
                carried.append((entity, ids.index(attributes["carried by"]), entries[card]))
    for entity, carrier, entry in carried:
        if values[layout.entity_of(carrier) + OWNER] == NOBODY:
            reader.error(*entry, f"'{ids[entity]}' is on '{ids[carrier]}', which the position does not put in play")
            continue
        values[layout.entity_of(entity) + CARRIER] = carrier
    for entity, _carrier, _entry in carried:  # a carried card stands where its carrier stands
        from crisis.interpreter.engine.entities import carried_chain
        from crisis.interpreter.engine.board import Board
        chain = carried_chain(Board(program, position), entity)
        if chain:
            values[layout.entity_of(entity) + PLACE] = values[layout.entity_of(chain[-1]) + PLACE]


def _start_pile(program, position, kind: int, card: int) -> list:
    """The pile a card starts in (the one of its kind that starts with all its cards; its side's)."""
    schema, layout = program.schema, program.layout
    name = schema.card_kinds[kind].name
    for number, pile in enumerate(schema.piles):
        if pile.kind == name and pile.starts_with_all:
            side = 0
            if pile.each_side:
                sides = layout.card_sides[kind] if kind < len(layout.card_sides) else ()
                side = sides[card] if card < len(sides) and sides[card] >= 0 else 0
            return position.piles[layout.pile(number, side)]
    return position.piles[layout.pile(next(n for n, p in enumerate(schema.piles) if p.kind == name))]


def _holds_kind(program, position, pile, kind: int) -> bool:
    """Whether a list of Position.piles holds cards of this kind."""
    schema, layout = program.schema, program.layout
    name = schema.card_kinds[kind].name
    return any(position.piles[layout.pile(number, side)] is pile for number, p in enumerate(schema.piles)
               if p.kind == name for side in range(len(schema.sides) if p.each_side else 1))


def decks_per_side(reader, position, container, used: Dict[int, set]) -> None:
    """The piles each side keeps that start with all their cards (a deck per side): the cards the
    position puts elsewhere leave them, and the cards it lists for a side go on top, first listed on
    top; the rest keep the seed's shuffle."""
    program, schema, layout = reader.program, reader.schema, reader.program.layout
    for number, pile in enumerate(schema.piles):
        if not (pile.starts_with_all and pile.each_side):
            continue
        kind = program.kind_index[pile.kind]
        taken = used.get(kind, set())
        key = reader.parts.key_for("pile", number)
        listed = reader.per_side(container, key) if key is not None and key in container else {}
        for side in range(len(schema.sides)):
            index = layout.pile(number, side)
            deck = [c for c in position.piles[index] if c not in taken]
            if side in listed:
                given, name, value = listed[side]
                top = reader.cards(given, name, value, kind)
                deck = [c for c in deck if c not in top] + list(reversed(top))
            position.piles[index] = deck
