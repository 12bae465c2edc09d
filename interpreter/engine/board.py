"""The board: what rules do to a position, for any game.  The only code that moves tokens.

``Locations`` numbers every place a token can be: the map's places first,
then each holder, each track, the supply (the game's usual source of tokens,
in order), each zone's box and each "track above a zone".  ``Board`` reads and
changes a position through the layout: taking and putting tokens, control,
markers, counters, cards, die rolls and the log.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

import attrs

from crisis.ruleset import limits

from .layout import NOBODY
from .position import Position


class Locations:
    """Codes for where a token can be, with the names the action notation uses (docs/notation.md)."""

    def __init__(self, schema):
        n = self.n = len(schema.map.places)
        tokens = schema.tokens
        holders = tokens.holders if tokens else ()
        tracks = schema.tracks
        names = list(schema.map.places)
        self.kind: List[Tuple] = [("place", i) for i in range(n)]
        self.holder_code = {}
        for h, holder in enumerate(holders):
            self.holder_code[h] = len(names)
            names.append(holder.name)
            self.kind.append(("holder", h))
        self.track_code = {}
        for t, track in enumerate(tracks):
            self.track_code[t] = len(names)
            names.append(_notation(track.name))
            self.kind.append(("track", t))
        self.SUPPLY = len(names)
        names.append("supply")
        self.kind.append(("supply",))
        self.box_code = {}
        for t, track in enumerate(tracks):
            for z, zone in enumerate(track.zones):
                self.box_code[(t, z)] = len(names)
                names.append(f"{zone.name} {track.box_words[0] if track.box_words else 'box'}")
                self.kind.append(("box", t, z))
        self.above_code = {}
        for t, track in enumerate(tracks):
            for z, zone in enumerate(track.zones):
                self.above_code[(t, z)] = len(names)
                names.append(f"{_notation(track.name)} above {zone.name}")
                self.kind.append(("above", t, z))
        self.names = names
        self.count_offsets = {}  # code -> (offset of side 0, stride per side), filled in by the layout
        # the supply: holders and tracks in the order tokens are taken from them
        self.supply = tuple(self.holder_code[[h.name for h in holders].index(name)] if name in [h.name for h in holders]
                            else self.track_code[[t.name for t in tracks].index(name)]
                            for name in (tokens.supply if tokens else ()))
        removed = holders[0].name if holders else None
        self.removed = self.holder_code[0] if removed is not None else NOBODY


def _notation(name: str) -> str:
    """A track's name in actions: its last word ("crisis track" -> "track")."""
    return name.split()[-1]


class FixedRollError(Exception):
    """A die roll fixed in advance (a scenario's ``dice``) that the die it is used for cannot show."""

    def __init__(self, roll: int, faces: int, left: int):
        self.roll, self.faces, self.left = roll, faces, left  # left: the fixed rolls still unused after it
        super().__init__(f"a die roll of {roll} cannot come from the {faces}-sided die rolled here (1 to {faces})")


@attrs.frozen(slots=True)
class LogEntry:
    key: str
    params: dict


def _fixed(program) -> tuple:
    """The program's values a board keeps at hand, in the order Board.__init__ takes them."""
    schema, layout, locations = program.schema, program.layout, program.locations
    offsets = program.count_offsets  # location code -> (offset of side 0, stride per side)
    return (layout, locations, schema.tokens.at_most_per_place if schema.tokens else 0,
            tuple(i for i, m in enumerate(schema.markers) if m.blocks_placement),
            tuple(i for i, m in enumerate(schema.markers) if m.blocks_removal),
            len(schema.sides), layout.tokens, layout.places, offsets,
            tuple(offsets[code] for code in locations.supply), layout.marker, len(schema.markers))


class Board:
    """Reads and changes one position of one game program."""

    __slots__ = ("program", "layout", "position", "values", "piles", "log", "locations", "max_per_place",
                 "_block_place", "_block_remove", "markers_seen", "no_place", "no_remove", "solo", "shortfall",
                 "_first_key", "_first", "sides", "tokens_base", "n", "options", "offsets", "supply_offsets",
                 "marker_base", "marker_count", "probe", "meter", "ask", "entities_kept")

    def __init__(self, program, position: Position, log: Optional[list] = None, solo=None,
                 options: frozenset = frozenset()):
        self.program = program
        self.position = position
        self.values = position.values
        self.piles = position.piles
        self.log = log
        self.markers_seen: Optional[list] = None
        self.no_place: Tuple[int, ...] = ()
        self.no_remove: Tuple[int, ...] = ()
        self.solo = solo
        self.shortfall = 0  # steps an effect could not take ("can be carried out fully")
        # the work left until the next decision (ops.spend); a look-ahead's board shares its own
        self.meter = [limits.MAX_WORK_BETWEEN_DECISIONS]
        # generated code asks its players through this (native.py): ask(player, kind, actions, ...)
        # answers what choose(Decision(player, kind, actions, ...)) does
        self.ask = None
        self._first_key = None
        self._first = 0
        self.entities_kept = None  # (the owners' column, the cards in play): entities.cards_in_play
        self.options = options  # the game options in force ("event discard")
        self.probe = False  # only looking ahead (a prediction, a search on a copy): nothing here really happens
        fixed = program.__dict__.get("_board_fixed")
        if fixed is None:  # what every board of this program reads, worked out once (boards are made often)
            fixed = program.__dict__["_board_fixed"] = _fixed(program)
        (self.layout, self.locations, self.max_per_place, self._block_place, self._block_remove, self.sides,
         self.tokens_base, self.n, self.offsets, self.supply_offsets, self.marker_base, self.marker_count) = fixed

    def look_at(self, position: Position) -> None:
        """Work on another position of the same game (caches that depend on it are dropped)."""
        self.position, self.values, self.piles = position, position.values, position.piles
        self.markers_seen = None
        self._first_key = None

    def emit(self, key: str, **params) -> None:
        """Log an event.  Code run often tests ``log is not None`` first: the parameters
        cost something to build even when no log is kept."""
        if self.log is not None:
            self.log.append(LogEntry(key, params))

    # ------------------------------------------------------------ players
    def first_player(self) -> int:
        """The content's first-player rules (the solo game's own, if it has them), evaluated when
        asked -- or kept while the counters those rules read do not change."""
        program = self.program
        solo = self.solo
        rules = solo.first_player if solo is not None and solo.first_player else program.first_player_rules
        reads = None if solo is not None and solo.first_player else program.first_player_reads
        if reads is not None:
            key = program.first_player_key(self.values)
            if key == self._first_key:
                return self._first
            self._first_key, self._first = key, self._first_of(rules)
            return self._first
        return self._first_of(rules)

    def _first_of(self, rules) -> int:
        contexts = self.program.side_contexts
        for rule in rules:
            holds = [rule(self, contexts[side], NOBODY) for side in range(self.sides)]
            if holds.count(True) == 1:
                return holds.index(True)
        return 0

    def order(self) -> Tuple[int, ...]:
        """The sides in turn order: the first player first."""
        first = self.first_player()
        if self.sides == 2:
            return (first, 1 - first)
        return tuple((first + k) % self.sides for k in range(self.sides))

    def others(self, side: int) -> Tuple[int, ...]:
        return tuple(s for s in range(self.sides) if s != side)

    # ------------------------------------------------------------- chance
    def roll(self, count: int) -> Tuple[int, List[int], int]:
        """A die roll choosing one of ``count`` things: (index, the rolls made, faces).

        A six-sided die (twelve-sided for more than six things), from the game's generator
        unless a scenario fixed the rolls.  When the count divides the faces each thing gets
        an equal range (2 things: 1-3, 4-6); otherwise a roll above the count is rolled again
        (docs/rulings.md)."""
        position = self.position
        faces = 6 if count <= 6 else 12
        rolls: List[int] = []
        index = 0
        for _ in range(1000):  # a reroll is rare; the bound keeps the loop finite
            if position.dice:
                roll = position.dice.pop(0)
                if roll > faces:  # fixed in advance (a scenario), before anyone knew which die it would be for
                    raise FixedRollError(roll, faces, len(position.dice))
            else:
                roll = position.rng.randint(1, faces)
            rolls.append(roll)
            if faces % count == 0:
                index = (roll - 1) // (faces // count)
                break
            if 1 <= roll <= count:
                index = roll - 1
                break
        else:
            index = (rolls[-1] - 1) % count
        self.revealed_something()
        return index, rolls, faces

    def roll_among(self, count: int, names: Sequence[str] = ()) -> int:
        index, rolls, faces = self.roll(count)
        if names:
            self.emit("log.die", rolls=rolls, faces=faces, among=list(names), chosen=names[index])
        return index

    def revealed_something(self) -> None:
        """Chance made known or hidden cards shown: undo may not cross it."""
        self.values[self.layout.reveals] += 1

    # ------------------------------------------------------------ control
    def controls(self, side: int, place: int) -> bool:
        values, base, n = self.values, self.tokens_base, self.n
        mine = values[base + side * n + place]
        if self.sides == 2:
            return mine > values[base + (1 - side) * n + place]
        return all(mine > values[base + other * n + place] for other in range(self.sides) if other != side)

    def controls_group(self, side: int, group: int) -> bool:
        for place in self.program.group_places[group]:
            if not self.controls(side, place):
                return False
        return True

    def groups_controlled(self, side: int) -> int:
        return sum(1 for group in range(len(self.program.group_places)) if self.controls_group(side, group))

    def tokens_at(self, side: int, place: int) -> int:
        return self.values[self.tokens_base + side * self.n + place]

    # ------------------------------------------------------------ markers
    def see_markers(self) -> None:
        """Work out ``no_place`` and ``no_remove`` again; callers listing steps do so when the
        markers differ from ``markers_seen``: markers seldom move, steps are listed all the time."""
        base = self.layout.marker
        count = len(self.program.schema.markers)
        self.markers_seen = self.values[base:base + count]
        self.no_place = self.blocked_places(self._block_place)
        self.no_remove = self.blocked_places(self._block_remove)

    def markers_changed(self) -> bool:
        seen = self.markers_seen
        if seen is None:
            return True
        if self.marker_count == 1:
            return self.values[self.marker_base] != seen[0]
        return self.values[self.marker_base:self.marker_base + self.marker_count] != seen

    def blocked_places(self, markers) -> Tuple[int, ...]:
        values, base = self.values, self.layout.marker
        return tuple(values[base + m] for m in markers if values[base + m] != NOBODY)

    def marker_at(self, marker: int) -> int:
        return self.values[self.layout.marker + marker]

    def placement_blocked(self, place: int) -> bool:
        return any(self.marker_at(m) == place for m in self._block_place)

    def removal_blocked(self, place: int) -> bool:
        return any(self.marker_at(m) == place for m in self._block_remove)

    # ------------------------------------------------------------- tokens
    def count_at(self, side: int, code: int) -> int:
        """Tokens of a side at a location (the supply: all its holders together)."""
        loc = self.locations
        if code < loc.n:
            return self.values[self.tokens_base + side * self.n + code]
        found = self.offsets.get(code)
        if found is not None:
            return self.values[found[0] + side * found[1]]
        kind = loc.kind[code]
        layout = self.layout
        if kind[0] == "holder":
            return self.values[layout.holder_of(side, kind[1])]
        if kind[0] == "track":
            return self.values[layout.track_of(side, kind[1])]
        if kind[0] == "supply":
            return sum(self.count_at(side, c) for c in loc.supply)
        if kind[0] == "box":
            return self.values[layout.box + layout.zone_slot(side, kind[1], kind[2])]
        # above a zone: the track's tokens on spaces higher than the zone's top
        track, zone = kind[1], kind[2]
        return max(0, self.values[layout.track_of(side, track)] - self.program.schema.tracks[track].zones[zone].top - 1)

    def can_take(self, side: int, source: int) -> bool:
        values = self.values
        if source < self.n:
            return values[self.tokens_base + side * self.n + source] > 0 and not self.removal_blocked(source)
        found = self.offsets.get(source)
        if found is not None:
            return values[found[0] + side * found[1]] > 0
        if source == self.locations.SUPPLY:
            for base, stride in self.supply_offsets:
                if values[base + side * stride] > 0:
                    return True
            return False
        return self.count_at(side, source) > 0

    def can_put(self, side: int, dest: int) -> bool:
        loc = self.locations
        if dest < loc.n:
            return (self.values[self.tokens_base + side * self.n + dest] < self.max_per_place
                    and not self.placement_blocked(dest))
        kind = loc.kind[dest]
        if kind[0] == "track":
            return self.values[self.layout.track_of(side, kind[1])] < self.program.schema.tracks[kind[1]].spaces
        return kind[0] == "holder"  # tokens never go back into a box, nor "above" a zone

    def take(self, side: int, source: int) -> None:
        loc = self.locations
        if source < self.n:
            self.values[self.tokens_base + side * self.n + source] -= 1
            return
        if source == loc.SUPPLY:
            # the supply's holders in order: the pool first, then the track (rulebook: Political Capital Tokens)
            values = self.values
            for code, (base, stride) in zip(loc.supply, self.supply_offsets):
                if values[base + side * stride] > 0:
                    self.take(side, code)
                    return
            return
        kind = loc.kind[source]
        layout = self.layout
        if kind[0] == "holder":
            self.values[layout.holder_of(side, kind[1])] -= 1
        elif kind[0] in ("track", "above"):
            self._take_from_track(side, kind[1])
        else:
            self.values[layout.box + layout.zone_slot(side, kind[1], kind[2])] -= 1

    def _take_from_track(self, side: int, track: int) -> None:
        layout = self.layout
        offset = layout.track_of(side, track)
        self.values[offset] -= 1
        # the token leaves the highest-numbered space still covered: its zone is entered
        zone = self.program.zone_of_space[track][self.values[offset]]
        slot = layout.zone_slot(side, track, zone)
        if not self.values[layout.entered + slot]:
            self.values[layout.entered + slot] = 1
            if self.program.entering[track][zone] is not None:
                self.values[layout.pending + slot] = 1

    def put(self, side: int, dest: int) -> None:
        if dest < self.n:
            self.values[self.tokens_base + side * self.n + dest] += 1
            return
        kind = self.locations.kind[dest]
        if kind[0] == "holder":
            self.values[self.layout.holder_of(side, kind[1])] += 1
        else:
            self.values[self.layout.track_of(side, kind[1])] += 1

    def any_pending(self) -> bool:
        layout = self.layout
        return any(self.values[layout.pending:layout.pending + layout.zones * self.sides])

    # ------------------------------------------------------------ counters
    def counter(self, counter: int, side: int = 0) -> int:
        return self.values[self.layout.counter[counter] + side]

    def change_counter(self, counter: int, side: int, delta: int, reason: str, set_to: bool = False) -> int:
        """Add (or take away) within the counter's bounds; the change made.  ``set_to``: the change
        sets the counter ("set the damage to ..."), and is logged even when it changes nothing, so
        that a catalog may tell every value set (cli/text.py: log.counter_set)."""
        declared = self.program.schema.counters[counter]
        offset = self.layout.counter[counter] + (side if declared.each_side else 0)
        value = self.values[offset]
        if delta < 0:
            delta = -min(-delta, value - declared.low)
        elif delta > 0:
            delta = min(delta, declared.high - value)
        if delta:
            self.values[offset] = value + delta
        if (delta or set_to) and self.log is not None:
            params = dict(counter=declared.name, side=self.program.schema.sides[side] if declared.each_side else None,
                          n=delta, value=value + delta, reason=reason)
            if set_to:
                params["set"] = "yes"
            self.emit("log.counter", **params)
        return delta

    # ------------------------------------------------------------ cards
    def pile(self, pile: int, side: int = 0) -> List[int]:
        return self.piles[self.layout.pile(pile, side)]

    def draw(self, pile: int, side: int = 0) -> int:
        """The top card of a pile, or NOBODY if there are none at all.  A pile that runs out is
        refilled from the pile its schema names, shuffled (docs/rulings.md, "An empty deck")."""
        return self.draw_at(self.layout.pile(pile, side), pile)

    def draw_at(self, index: int, pile: int) -> int:
        """``draw`` from the pile at ``index`` of Position.piles (``pile``: its schema index)."""
        cards = self.piles[index]
        refill = self.program.refill[pile]
        if not cards and refill is not None:
            index = self.layout.pile(refill)
            if self.piles[index]:
                cards.extend(self.piles[index])
                self.piles[index] = []
                self.program.shuffle(self.position.rng, cards)
                if self.log is not None:
                    self.emit("log.reshuffle", pile=self.program.schema.piles[pile].name,
                              refill=self.program.schema.piles[refill].name)
        if not cards:
            return NOBODY
        return cards.pop()
