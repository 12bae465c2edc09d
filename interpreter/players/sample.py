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

import math
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


def _hidden_slots(program, position, side: int) -> Dict[tuple, List[Tuple[int, int]]]:
    """(kind, side on the back) -> the slots (pile index, place in it) of the cards ``side``
    cannot see, each group the cards that may be dealt again among its own slots.

    Where each side starts with a pile of its own cards of a kind (a deck per side), a card's
    side shows on its back: a hidden card is dealt again only among the hidden cards of the same
    side, each hidden slot keeping the side of the card it held."""
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
    groups: Dict[tuple, List[Tuple[int, int]]] = {}
    for index, start in hidden_places(program, position, side):
        kind = index_kind[index]
        sides = backs.get(kind)
        pile = position.piles[index]
        for at in range(start, len(pile)):
            back = sides[pile[at]] if sides is not None and pile[at] < len(sides) else NOBODY
            groups.setdefault((kind, back), []).append((index, at))
    return groups


def deal_again(program, position, side: int, rng: random.Random):
    """A copy of ``position`` where the cards ``side`` cannot see are dealt again by ``rng``, and
    whose generator is new (drawn from ``rng``): the future is the bot's guess too (cards of a
    side's own deck only among that side's: ``_hidden_slots``)."""
    copy = position.copy(rng=random.Random(rng.getrandbits(64)))
    for slots in _hidden_slots(program, copy, side).values():
        if len(slots) < 2:
            continue
        fill = sorted(copy.piles[index][at] for index, at in slots)
        rng.shuffle(fill)
        for (index, at), card in zip(slots, fill):
            copy.piles[index][at] = card
    return copy


class Guess:
    """Where the opponent's hidden cards of some piles (its kept objective, say) are likely to
    be, read from its own judgement of the position: the cards it acts as if it held.

    Each hidden slot of those piles is weighed once, on a determinization (so never from the
    true hidden cards): every card that could be there is tried in it, and the position is judged
    for the pile's owner (``value(board, side)``, the bots' evaluation); the card's weight is
    ``exp(value / scale)``.  A side that has been playing towards what its card rewards judges
    the position best with that card, so that card is guessed most.  ``deal`` then puts cards in
    those slots by these weights, on each determinization ``deal_again`` made."""

    def __init__(self, program, position, side: int, piles, value, scale: float, rng: random.Random):
        from crisis.interpreter.engine.board import Board
        schema, layout = program.schema, program.layout
        base = deal_again(program, position, side, rng)
        groups = _hidden_slots(program, base, side)
        group_of = {slot: slots for slots in groups.values() for slot in slots}
        self.slots = []  # (slot, its group's slots, the cards it may hold, their weights)
        for number, pile in enumerate(schema.piles):
            if pile.name not in piles or not pile.each_side:
                continue
            for owner in range(layout.sides):
                if owner == side:
                    continue
                index = layout.pile(number, owner)
                for at in range(len(base.piles[index])):
                    slots = group_of.get((index, at))
                    if slots is None or len(slots) < 2:
                        continue  # seen, or the only card it can be
                    cards = sorted({base.piles[i][a] for i, a in slots})
                    judged = []
                    for card in cards:
                        trial = base.copy(rng=base.rng)
                        _put(trial.piles, slots, (index, at), card)
                        judged.append(value(Board(program, trial), owner) / scale)
                    best = max(judged)
                    # the best card weighs 1: no weight overflows, however large the values
                    weights = [math.exp(v - best) for v in judged]
                    self.slots.append(((index, at), slots, cards, weights))

    def deal(self, position, rng: random.Random) -> None:
        """Put a card in each guessed slot of ``position`` (a determinization), drawn by its
        weight from the cards not already put in an earlier guessed slot."""
        placed = set()
        for slot, slots, cards, weights in self.slots:
            left = [(card, weight) for card, weight in zip(cards, weights) if card not in placed]
            if not left:
                continue
            card = rng.choices([c for c, _ in left], [w for _, w in left])[0]
            _put(position.piles, slots, slot, card)
            placed.add(card)


def _put(piles, slots, slot, card: int) -> None:
    """``card`` into ``slot``, swapped with the card there, wherever among ``slots`` it was."""
    index, at = slot
    for i, a in slots:
        if piles[i][a] == card:
            piles[i][a], piles[index][at] = piles[index][at], card
            return
