"""A game's state, laid out flat: the schema compiled to offsets in one list of integers.

Every counter, token count, holder, track, box, flag, marker and register of a
position is one integer in ``Position.values``, at an offset computed here
once per game; cards lie in ``Position.piles``, one list per pile (and side).
Cards that can be in play (entities) have a record each in ``values`` too:
whose it is (NOBODY while it is not in play), its place, the card carrying it,
its flags as bits, and its fields that change in play.  A copy of a position
is a copy of flat lists.
"""

from __future__ import annotations

from typing import Dict, List, Tuple

NOBODY = -1
# in the tie-break cell: a rule declared the winner at once ("you win"), no score decided.  The
# position, View.tie_break and a GameRecord keep it as it is; Game.result gives it as at_once
# (tie_break NOBODY there), and a record's JSON as "at_once": true with "tie_break": null.
AT_ONCE = -2

# an entity's record: its slots, from the record's offset (layout.entity_of)
OWNER, PLACE, CARRIER, FLAGS, FIELDS = 0, 1, 2, 3, 4


class Layout:
    """Offsets into a position's values, and the indices of its piles."""

    def __init__(self, schema, registers: Tuple[str, ...] = (), card_counts: Tuple[int, ...] = (),
                 card_sides: Tuple[Tuple[int, ...], ...] = ()):
        self.schema = schema
        self.card_counts = tuple(card_counts)
        self.card_sides = tuple(card_sides)  # per kind, each card's side field (where a pile per side starts it)
        sides = self.sides = len(schema.sides)
        self.places = len(schema.map.places)
        size = 0

        def block(n: int) -> int:
            nonlocal size
            start = size
            size += n
            return start

        # counters: one slot, or one per side
        self.counter: List[int] = []
        for counter in schema.counters:
            self.counter.append(block(sides if counter.each_side else 1))
        self.register: List[int] = [block(1) for _ in registers]
        tokens = schema.tokens
        holders = len(tokens.holders) if tokens else 0
        self.tokens = block(sides * self.places) if tokens else -1
        self.holder = block(sides * holders)  # holder[side * holders + h]
        self.holders = holders
        tracks = schema.tracks
        self.track = block(sides * len(tracks))  # tokens on each side's track
        self.zone_count = tuple(len(t.zones) for t in tracks)
        self.zone_base = []  # per track: offset of its zones in the per-side blocks below
        total_zones = 0
        for track in tracks:
            self.zone_base.append(total_zones)
            total_zones += len(track.zones)
        self.zones = total_zones
        self.box = block(sides * total_zones)  # box[side * zones + zone_base[t] + z]
        self.entered = block(sides * total_zones)  # 1 once the zone is entered
        self.pending = block(sides * total_zones)  # 1 while the entry waits to be resolved
        self.entry_order = block(total_zones * sides)  # entry_order[zone * sides + k]: the k-th side to resolve
        self.marker = block(len(schema.markers))  # a marker's place, or NOBODY off the map
        # the last card played: who, which card (of its kind), which use
        self.last_side, self.last_card, self.last_use = block(1), block(1), block(1)
        self.revealed = {}  # pile index -> offset of its face-up flag (one per side for a pile per side)
        self.pile_index: Dict[Tuple[int, int], int] = {}  # (pile, side or 0) -> index into Position.piles
        piles = 0
        self.pile_flag: List[int] = []  # index into Position.piles -> offset of that pile's face-up flag
        for index, pile in enumerate(schema.piles):
            self.revealed[index] = block(sides if pile.each_side else 1)
            for side in range(sides if pile.each_side else 1):
                self.pile_index[(index, side)] = piles
                self.pile_flag.append(self.revealed[index] + side)
                piles += 1
        self.piles = piles
        self.winner = block(1)
        self.tie_break = block(1)
        self.reveals = block(1)  # chance events and hidden cards shown: undo may not cross one
        # cards in play: a record per card of the kinds that can be in play, in kind then card
        # order (a game without them has none: its positions are as long as before)
        in_play = getattr(schema, "in_play", None)
        kinds = {kind.name: k for k, kind in enumerate(schema.card_kinds)}
        self.entity_base: Dict[int, int] = {}  # card kind -> its first entity
        entities = 0
        if in_play is not None:
            for name in in_play.kinds:
                self.entity_base[kinds[name]] = entities
                entities += self.card_counts[kinds[name]] if kinds[name] < len(self.card_counts) else 0
        self.entities = entities
        self.entity_stride = FIELDS + (len(in_play.fields) if in_play is not None else 0)
        self.entity = block(entities * self.entity_stride) if in_play is not None else -1
        self.chosen_entity = block(1) if in_play is not None else -1  # "that unit": the last one chosen
        self.size = size

    # ------------------------------------------------------------ offsets
    def tokens_of(self, side: int) -> int:
        return self.tokens + side * self.places

    def holder_of(self, side: int, holder: int) -> int:
        return self.holder + side * self.holders + holder

    def track_of(self, side: int, track: int) -> int:
        return self.track + side * len(self.zone_count) + track

    def zone_slot(self, side: int, track: int, zone: int) -> int:
        """The offset within a per-side zone block (add box, entered or pending)."""
        return side * self.zones + self.zone_base[track] + zone

    def entity_of(self, entity: int) -> int:
        """The offset of an entity's record (add OWNER, PLACE, CARRIER, FLAGS or FIELDS + i)."""
        return self.entity + entity * self.entity_stride

    def pile(self, pile: int, side: int = 0) -> int:
        return self.pile_index[(pile, side if self.schema.piles[pile].each_side else 0)]
