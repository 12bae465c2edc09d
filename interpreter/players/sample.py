"""What one side may know of a position, and positions it cannot tell from the true one.

A bot decides on what its side may know.  The state schema says who sees each pile
(``seen by``: nobody, its owner, everyone), which piles have been turned face up, and how far
an ordered pile with a position counter has been revealed; every other card is hidden from the
side.  ``deal_again`` gives a copy of a position in which the hidden cards are dealt again at
random among the places they could be (a *determinization*), and whose later chance events come
from a new generator.  The result is a function of what the side may know and of the bot's own
generator only, never of the true hidden cards: the hidden cards are sorted before they are
shuffled back into the hidden places.
"""

from __future__ import annotations

import random
from typing import Dict, List, Tuple

from crisis.interpreter.engine.layout import NOBODY


def face_up_count(program, position, pile: int, side: int) -> int:
    """How many cards of an ordered pile with a position counter are face up, from the first:
    the cards before the counter, and the current card once it has been revealed."""
    layout, schema = program.layout, program.schema
    declared = schema.piles[pile]
    counter = program.counter_index[declared.position]
    offset = layout.counter[counter] + (side if schema.counters[counter].each_side else 0)
    flag = position.values[layout.revealed[pile] + (side if declared.each_side else 0)]
    return max(position.values[offset], flag)


def hidden_places(program, position, side: int) -> List[Tuple[int, int]]:
    """(index in ``Position.piles``, first hidden card) of every pile with cards ``side`` cannot see."""
    layout, schema, values = program.layout, program.schema, position.values
    out = []
    for number, pile in enumerate(schema.piles):
        if pile.seen_by == "everyone":
            continue
        owners = range(layout.sides) if pile.each_side else (NOBODY,)
        for owner in owners:
            index = layout.pile(number, max(owner, 0))
            if not position.piles[index]:
                continue
            if pile.seen_by == "owner" and owner in (side, NOBODY):
                continue
            if pile.position is not None:
                out.append((index, face_up_count(program, position, number, max(owner, 0))))
            elif not values[layout.revealed[number] + max(owner, 0)]:
                out.append((index, 0))
    return out


def deal_again(program, position, side: int, rng: random.Random):
    """A copy of ``position`` where the cards ``side`` cannot see are dealt again by ``rng``, and
    whose generator is new (drawn from ``rng``): the future is the bot's guess too.

    Where each side starts with a pile of its own cards of a kind (a deck per side), a card's
    side shows on its back: a hidden card is dealt again only among the hidden cards of the same
    side, each hidden slot keeping the side of the card it held."""
    copy = position.copy(rng=random.Random(rng.getrandbits(64)))
    schema, layout = program.schema, program.layout
    pile_kind = [schema.piles[number].kind for number in range(len(schema.piles))]
    index_kind = {}
    for (number, owner), index in layout.pile_index.items():
        index_kind[index] = pile_kind[number]
    kind_number = {kind.name: k for k, kind in enumerate(schema.card_kinds)}
    backs = {}  # kind -> each card's side, for the kinds dealt to a pile per side
    for pile in schema.piles:
        if pile.starts_with_all and pile.each_side:
            k = kind_number[pile.kind]
            if k < len(layout.card_sides) and layout.card_sides[k]:
                backs[pile.kind] = layout.card_sides[k]
    groups: Dict[tuple, List[Tuple[int, int]]] = {}  # (kind, side on the back) -> hidden slots
    for index, start in hidden_places(program, copy, side):
        kind = index_kind[index]
        sides = backs.get(kind)
        pile = copy.piles[index]
        for at in range(start, len(pile)):
            back = sides[pile[at]] if sides is not None and pile[at] < len(sides) else NOBODY
            groups.setdefault((kind, back), []).append((index, at))
    for slots in groups.values():
        if len(slots) < 2:
            continue
        fill = sorted(copy.piles[index][at] for index, at in slots)
        rng.shuffle(fill)
        for (index, at), card in zip(slots, fill):
            copy.piles[index][at] = card
    return copy
