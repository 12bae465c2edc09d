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
    whose generator is new (drawn from ``rng``): the future is the bot's guess too."""
    copy = position.copy(rng=random.Random(rng.getrandbits(64)))
    kinds: Dict[str, List[Tuple[int, int]]] = {}
    pile_kind = [program.schema.piles[number].kind for number in range(len(program.schema.piles))]
    index_kind = {}
    for (number, owner), index in program.layout.pile_index.items():
        index_kind[index] = pile_kind[number]
    for index, start in hidden_places(program, copy, side):
        kinds.setdefault(index_kind[index], []).append((index, start))
    for places in kinds.values():
        cards = [card for index, start in places for card in copy.piles[index][start:]]
        if len(cards) < 2:
            continue
        fill = sorted(cards)
        rng.shuffle(fill)
        at = 0
        for index, start in places:
            pile = copy.piles[index]
            count = len(pile) - start
            pile[start:] = fill[at:at + count]
            at += count
    return copy
