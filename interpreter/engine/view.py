"""A position read by the names its game's schema declares.

Everything around the engine (the board drawn in a terminal, the bots'
evaluation, records, scenario expectations) reads a position through a
``View``: counters, tokens, holders, tracks, zones, markers, registers and
piles by their declared names, sides by number.  Nothing here knows a game.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from .layout import CARRIER, FIELDS, FLAGS, NOBODY, OWNER, PLACE


class View:
    __slots__ = ("program", "schema", "layout", "position", "values", "sides", "_tracks", "_holders", "_markers",
                 "_registers")

    def __init__(self, program, position):
        self.program = program
        self.schema = program.schema
        self.layout = program.layout
        self.position = position
        self.values = position.values
        self.sides: Tuple[str, ...] = self.schema.sides
        self._tracks = {t.name: i for i, t in enumerate(self.schema.tracks)}
        self._holders = {h.name: i for i, h in enumerate(self.schema.tokens.holders)} if self.schema.tokens else {}
        self._markers = {m.name: i for i, m in enumerate(self.schema.markers)}
        self._registers = {name: i for i, name in enumerate(program.declarations.registers)}

    # ------------------------------------------------------------ numbers
    def counter(self, name: str, side: int = 0) -> int:
        index = self.program.counter_index[name]
        return self.values[self.layout.counter[index] + (side if self.schema.counters[index].each_side else 0)]

    def register(self, name: str) -> int:
        """A side a position names (a leader), or NOBODY."""
        return self.values[self.layout.register[self._registers[name]]]

    def tokens(self, side: int, place: int) -> int:
        return self.values[self.layout.tokens_of(side) + place]

    def tokens_of(self, side: int) -> List[int]:
        start = self.layout.tokens_of(side)
        return self.values[start:start + self.layout.places]

    def on_map(self, side: int) -> int:
        return sum(self.tokens_of(side)) if self.schema.tokens else 0

    def holder(self, name: str, side: int) -> int:
        return self.values[self.layout.holder_of(side, self._holders[name])]

    def track(self, name: str, side: int) -> int:
        """Tokens still on the side's track (the track's next space to be emptied is this number)."""
        return self.values[self.layout.track_of(side, self._tracks[name])]

    def box(self, track: str, zone: int, side: int) -> int:
        return self.values[self.layout.box + self.layout.zone_slot(side, self._tracks[track], zone)]

    def entered(self, track: str, zone: int, side: int) -> bool:
        return bool(self.values[self.layout.entered + self.layout.zone_slot(side, self._tracks[track], zone)])

    def pending(self, track: str, zone: int, side: int) -> bool:
        return bool(self.values[self.layout.pending + self.layout.zone_slot(side, self._tracks[track], zone)])

    def entry_order(self, track: str, zone: int) -> List[int]:
        """The sides that entered the zone, in the order their entries resolve."""
        sides = len(self.sides)
        base = self.layout.entry_order + (self.layout.zone_base[self._tracks[track]] + zone) * sides
        return [self.values[base + k] for k in range(sides) if self.values[base + k] != NOBODY]

    def marker(self, name: str) -> int:
        """The place a marker is at, or NOBODY."""
        return self.values[self.layout.marker + self._markers[name]]

    # ------------------------------------------------------------ cards
    def pile(self, name: str, side: int = 0) -> List[int]:
        """The cards in a pile (indices in its kind), bottom first: the top is the last."""
        return self.position.piles[self.layout.pile(self.program.pile_number[name], side)]

    def face_up(self, name: str, side: int = 0) -> bool:
        pile = self.program.pile_number[name]
        return bool(self.values[self.layout.revealed[pile] + (side if self.schema.piles[pile].each_side else 0)])

    def card_id(self, kind: str, card: int) -> str:
        return self.program.cards[self.program.kind_index[kind]].ids[card]

    def field(self, kind: str, card: int, field: str):
        cards = self.program.cards[self.program.kind_index[kind]]
        names = [name for name, _ in cards.kind.fields]
        return cards.fields[names.index(field)][card]

    def last_play(self) -> Optional[Tuple[int, int, str]]:
        """The last card played: (side, card, use name), or None."""
        side = self.values[self.layout.last_side]
        if side == NOBODY:
            return None
        use = self.values[self.layout.last_use]
        return side, self.values[self.layout.last_card], self.program.uses[use].name if use >= 0 else ""

    # ------------------------------------------------------------ cards in play
    def in_play(self, side: int = NOBODY) -> List[int]:
        """The entities in play (a side's, if given), in entity order (interpreter/engine/entities.py)."""
        layout, values = self.layout, self.values
        out = []
        for entity in range(layout.entities):
            owner = values[layout.entity_of(entity) + OWNER]
            if owner != NOBODY and (side == NOBODY or owner == side):
                out.append(entity)
        return out

    def entity(self, entity: int) -> Dict[str, object]:
        """A card in play by its names: its id, whose it is, its place (or None), the card carrying it
        (or None), its flags and the fields that change in play."""
        from .entities import tables
        t = tables(self.program)
        layout, values, schema = self.layout, self.values, self.schema
        record = layout.entity_of(entity)
        owner, place, carrier = values[record + OWNER], values[record + PLACE], values[record + CARRIER]
        return {"card": t.ids[entity], "side": self.sides[owner] if owner != NOBODY else None,
                "at": schema.map.places[place] if place != NOBODY else None,
                "on": t.ids[carrier] if carrier != NOBODY else None,
                "flags": {flag.name: bool(values[record + FLAGS] >> i & 1)
                          for i, flag in enumerate(schema.in_play.flags)},
                "fields": {name: values[record + FIELDS + i] for i, name in enumerate(schema.in_play.fields)}}

    # ------------------------------------------------------------ the end
    @property
    def winner(self) -> int:
        return self.values[self.layout.winner]

    @property
    def tie_break(self) -> int:
        """Which tie-break decided the game (0 the first), NOBODY when the score did, AT_ONCE when
        a rule declared the winner ("you win")."""
        return self.values[self.layout.tie_break]

    @property
    def reveals(self) -> int:
        """Chance events and hidden cards shown so far (an undo may not cross one)."""
        return self.values[self.layout.reveals]

    def snapshot(self) -> Dict[str, object]:
        """Every counter and token count, by name, for comparing two moments of a game."""
        out: Dict[str, object] = {}
        for counter in self.schema.counters:
            out[counter.name] = tuple(self.counter(counter.name, s) for s in range(len(self.sides))) \
                if counter.each_side else self.counter(counter.name)
        if self.schema.tokens:
            out["tokens"] = tuple(tuple(self.tokens_of(s)) for s in range(len(self.sides)))
        if self.layout.entities:
            out["in play"] = tuple((e["card"], e["side"], e["at"], e["on"], tuple(sorted(e["flags"].items())),
                                    tuple(sorted(e["fields"].items())))
                                   for e in (self.entity(n) for n in self.in_play()))
        return out
