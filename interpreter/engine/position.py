"""A position: everything about where a game stands, as data.

``values`` is one flat list of integers (offsets in ``Layout``), ``piles`` one
list of card indices per pile (and side; the top of a pile is its last card),
``stack`` the frames of the operations under way (where play stands in the
sequence of play and in the effect being carried out), ``rng`` the one random
generator.  A copy is a copy of these lists: a fork for a search goes on from
the copy, nothing is replayed.
"""

from __future__ import annotations

import operator
import random
from typing import List, Optional

from .layout import NOBODY, Layout


class Position:
    __slots__ = ("values", "piles", "stack", "rng", "dice", "plays", "breakdown", "view", "log_marks", "notes")

    def __init__(self, values: List[int], piles: List[List[int]], stack: list, rng: random.Random,
                 dice: Optional[List[int]] = None, plays: Optional[list] = None, breakdown: Optional[list] = None,
                 view: int = NOBODY, notes: Optional[list] = None):
        self.values = values
        self.piles = piles
        self.stack = stack
        self.rng = rng
        self.dice = dice if dice is not None else []  # die rolls fixed in advance (a scenario's), used first
        self.plays = plays if plays is not None else []  # every card play: (side, card, use), for records
        self.breakdown = breakdown if breakdown is not None else []  # (label, per-side change) of a final score
        self.view = view  # the side whose view this copy is (hidden cards taken out), else NOBODY
        self.log_marks = None
        self.notes = notes if notes is not None else []  # what else records read (``note``); None: not kept

    def copy(self, rng: Optional[random.Random] = None) -> "Position":
        """An independent copy; ``rng`` replaces the generator (a look-ahead that samples its own
        future need not pay for copying this one).  Without it the generator is copied on write:
        this position and the copy each get a LazyCopy of it, and it is used no more."""
        if rng is None:
            source = _unused(self.rng)
            self.rng, rng = LazyCopy(source), LazyCopy(source)
        copy = Position(list(self.values), [list(p) for p in self.piles], [list(f) for f in self.stack], rng,
                        list(self.dice), list(self.plays), list(self.breakdown), self.view,
                        list(self.notes) if self.notes is not None else None)
        copy.notes = copy.notes if self.notes is not None else None
        return copy


class LazyCopy(random.Random):
    """A copy of the generator ``source``, taken when the copy is first used: a look-ahead on a
    copy of the position seldom rolls a die, and copying a generator costs as much as a short
    look-ahead.  The same draws as a copy taken at once, as long as ``source`` is not used before
    the copy is (so it is for the copy a prediction plays on, while the game waits for it, and for
    a generator that only such copies hold: ``Position.copy``)."""

    def __new__(cls, source=None):
        return random.Random.__new__(cls)  # not seeded: the state is the source's

    def __init__(self, source=None):
        self._source = source

    def _take(self) -> None:
        source = self._source
        if source is not None:
            self._source = None
            random.Random.setstate(self, source.getstate())
            # from now on a generator like any other: its own methods, not these
            self.random = random.Random.random.__get__(self)
            self.getrandbits = random.Random.getrandbits.__get__(self)

    def random(self):
        self._take()
        return random.Random.random(self)

    def getrandbits(self, k):
        self._take()
        return random.Random.getrandbits(self, k)

    def getstate(self):
        self._take()
        return random.Random.getstate(self)

    def setstate(self, state):
        self._source = None
        random.Random.setstate(self, state)

    def seed(self, *args, **kwargs):
        self._source = None
        random.Random.seed(self, *args, **kwargs)


def _unused(rng) -> random.Random:
    """The generator whose state ``rng`` still is: itself, or, for a LazyCopy not yet used, its
    source (copies of copies all read the one source, never a chain of them)."""
    while type(rng) is LazyCopy and rng._source is not None:
        rng = rng._source
    return rng


def note(board, op: int, side: int, card: int = NOBODY) -> None:
    """Note for a game's records (interpreter/records.py) what its card plays do not say: a card
    kept, a card's rule carried out, the side that goes first when players alternate or the first
    player acting; ``op`` is the operation that did it.  With the game's counters (those not kept
    per side) as they stood then.  Nothing when the game keeps no notes (``Position.notes`` is
    None: batch play without records)."""
    position = board.position
    if position.notes is None:
        return
    counters = board.layout.__dict__.get("_game_counters")
    if counters is None:
        counters = _game_counters(board.layout)
    position.notes.append((op, side, card, counters(position.values)))


def _game_counters(layout: Layout):
    """values -> the tuple of the game's counters (those not kept per side), made once per layout."""
    offsets = [layout.counter[i] for i, counter in enumerate(layout.schema.counters) if not counter.each_side]
    if len(offsets) > 1:
        getter = operator.itemgetter(*offsets)
    elif offsets:
        only = offsets[0]

        def getter(values):
            return (values[only],)
    else:
        def getter(values):
            return ()
    layout.__dict__["_game_counters"] = getter
    return getter


def _shuffle_fast(rng: random.Random, cards: list) -> None:
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        # rng.randrange(i + 1) written in
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _same_draws() -> bool:
    """Whether the shuffle above draws as this Python's ``random`` does (it does in every version
    this project supports; checked, not assumed)."""
    ours, theirs = random.Random(8), random.Random(8)
    for n in (1, 2, 12, 40, 60):
        mine, reference = list(range(n)), list(range(n))
        _shuffle_fast(ours, mine)
        theirs.shuffle(reference)
        if mine != reference:
            return False
    return ours.getrandbits(32) == theirs.getrandbits(32)


def _shuffle_slow(rng: random.Random, cards: list) -> None:  # pragma: no cover - another Python's random
    rng.shuffle(cards)


# ``shuffle(rng, cards)``: ``rng.shuffle(cards)``, faster, with the same draws (so the same order)
shuffle = _shuffle_fast if _same_draws() else _shuffle_slow


def initial_position(layout: Layout, seed: int, registers: int = 0) -> Position:
    """The position before setup: counters at their start, tracks full, boxes filled, piles that
    start with all their cards holding them in card order (setup shuffles them).  Worked out once
    per layout; each position gets its own copy."""
    start = layout.__dict__.get("_start")
    if start is None:
        start = layout.__dict__["_start"] = _start(layout)
    values, piles = start
    return Position(list(values), [list(p) for p in piles], [], random.Random(seed))


def _start(layout: Layout):
    schema = layout.schema
    values = [0] * layout.size
    sides = layout.sides
    for index, counter in enumerate(schema.counters):
        for side in range(sides if counter.each_side else 1):
            values[layout.counter[index] + side] = counter.start
    for offset in layout.register:
        values[offset] = NOBODY
    if schema.tokens is not None:
        for side in range(sides):
            for h, holder in enumerate(schema.tokens.holders):
                values[layout.holder_of(side, h)] = holder.start
    for t, track in enumerate(schema.tracks):
        for side in range(sides):
            values[layout.track_of(side, t)] = track.spaces
            for z, zone in enumerate(track.zones):
                values[layout.box + layout.zone_slot(side, t, z)] = zone.box
    for k in range(layout.zones * sides):
        values[layout.entry_order + k] = NOBODY
    for m in range(len(schema.markers)):
        values[layout.marker + m] = NOBODY
    values[layout.last_side] = values[layout.last_card] = values[layout.last_use] = NOBODY
    values[layout.winner] = values[layout.tie_break] = NOBODY
    for entity in range(layout.entities):  # no card is in play at the start
        record = layout.entity_of(entity)
        values[record] = values[record + 1] = values[record + 2] = NOBODY
    if layout.chosen_entity >= 0:
        values[layout.chosen_entity] = NOBODY
    piles: List[List[int]] = [[] for _ in range(layout.piles)]
    kinds = {kind.name: k for k, kind in enumerate(schema.card_kinds)}
    for index, pile in enumerate(schema.piles):
        if pile.starts_with_all and pile.each_side:
            # a pile each side keeps (a deck per side): each card in the pile of the side it names
            sides = layout.card_sides[kinds[pile.kind]] if kinds[pile.kind] < len(layout.card_sides) else ()
            for card in range(_card_count(layout, kinds[pile.kind])):
                side = sides[card] if card < len(sides) and sides[card] >= 0 else 0
                piles[layout.pile(index, side)].append(card)
        elif pile.starts_with_all:
            piles[layout.pile(index)] = list(range(_card_count(layout, kinds[pile.kind])))
    return tuple(values), tuple(tuple(p) for p in piles)


def _card_count(layout: Layout, kind: int) -> int:
    return layout.card_counts[kind]
