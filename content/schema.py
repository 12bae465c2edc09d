"""The state a game declares (``state.yaml``): its sides, counters, map, pieces,
tracks, cards and piles, and the words its rules use for them (docs/state.md).

The engine knows no game: everything a position holds is declared here, and
the rules language learns the game's words from the ``Lexicon`` built here.
Every problem is reported at its file, line and column; nothing is
half-loaded.
"""

from __future__ import annotations

import re
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import attrs

from crisis.ruleset import limits
from crisis.ruleset.diagnostics import did_you_mean, one_of, shown
from crisis.ruleset.frozen import frozen

from .yamlfile import Map, Seq, YamlFile

# ------------------------------------------------------------------ the schema


@frozen
class Counter:
    """A bounded whole number, kept for each side or once for the game."""

    name: str
    each_side: bool
    low: int
    high: int
    start: int
    words: Tuple[str, ...] = ()  # what rules call it (its name, unless given)


@frozen
class Group:
    name: str
    places: Tuple[str, ...]


@frozen
class GameMap:
    """Named places, the groups they form, the attributes some have, and which touch."""

    place_words: Tuple[str, ...]
    places: Tuple[str, ...]
    group_words: Tuple[str, ...]
    groups: Tuple[Group, ...]
    attributes: Mapping[str, Tuple[str, ...]]  # adjective -> the places that have it
    adjacent: Mapping[str, Tuple[str, ...]]  # place -> the places next to it (empty: none touch)
    line: Optional["Line"] = None  # the places are cards in play, in a line that grows (docs/state.md)

    def group_of(self, place: str) -> Optional[str]:
        for group in self.groups:
            if place in group.places:
                return group.name
        return None


@frozen
class CardsNamed:
    """The cards a noun of the schema names: every card of a kind, or those whose kind field has one
    of some values ("locations": the location and capital cards)."""

    noun: str
    kind: str  # the card kind
    field: Optional[str] = None  # the kind field, or None: every card of the kind
    values: Tuple[str, ...] = ()


@frozen
class Line:
    """A map whose places are cards: a place is on the map while the card standing for it (the card
    whose place field names it) is in play, and the places on the map lie in a line, ordered by a
    number field of their cards; places next to each other in that line are adjacent."""

    cards: CardsNamed
    place_field: str  # the cards' field that names the place each stands for
    ordered_by: str  # the cards' number field that orders the line


@frozen
class Paying:
    """How costs are paid: each of the payer's cards in play named by ``cards`` pays 1, spent by the
    verb ``by`` (it sets a flag; a card with that flag set pays nothing more)."""

    cards: CardsNamed
    by: str  # the verb
    flag: str  # the flag it sets


@frozen
class Holder:
    """Where a side's tokens wait off the map."""

    name: str
    words: Tuple[str, ...]
    start: int


@frozen
class Tokens:
    """Counted pieces: each side has a fixed number, always somewhere."""

    words: Tuple[str, ...]
    each_side: int
    at_most_per_place: int
    holders: Tuple[Holder, ...]
    supply: Tuple[str, ...]  # where a token comes from when a rule does not say, in order
    control_words: Tuple[str, ...]  # the relation a side has to a place it holds more tokens in


@frozen
class Zone:
    name: str
    top: int
    bottom: int
    box: int  # tokens in the zone's box at the start, for each side (0: no box)


@frozen
class Track:
    """A holder laid out on numbered spaces; tokens leave from the top, and the
    first to leave a zone enters it (the zone's flag is set, its box is due)."""

    name: str
    words: Tuple[str, ...]
    each_side: bool
    holds: str
    spaces: int
    zone_words: Tuple[str, ...]
    zones: Tuple[Zone, ...]
    box_words: Tuple[str, ...]
    entered_words: Tuple[str, ...]

    def zone_of_space(self, number: int) -> int:
        for index, zone in enumerate(self.zones):
            if zone.bottom <= number <= zone.top:
                return index
        raise ValueError(number)


@frozen
class Marker:
    name: str
    blocks_placement: bool
    blocks_removal: bool


FIELD_TYPES = ("number", "rule", "sides", "side", "place", "group", "text", "kind")


@frozen
class CardKind:
    name: str
    words: Tuple[str, ...]
    fields: Tuple[Tuple[str, str], ...]  # (field, type), in the order declared
    # a number field's value on a card that does not give it ("a skill not printed is 1"), by field
    defaults: Tuple[Tuple[str, object], ...] = ()
    # a "kind" field's values, each with the nouns rules use for cards of it ("unit", "units"), by field
    values: Tuple[Tuple[str, Tuple[Tuple[str, Tuple[str, ...]], ...]], ...] = ()
    # a number field's least and greatest value on a card ({type: number, from: 1, to: 99}), by field
    ranges: Tuple[Tuple[str, Tuple[int, int]], ...] = ()

    def field_type(self, name: str) -> Optional[str]:
        return dict(self.fields).get(name)

    def default(self, name: str):
        return dict(self.defaults).get(name)

    def values_of(self, name: str) -> Tuple[Tuple[str, Tuple[str, ...]], ...]:
        return dict(self.values).get(name, ())

    def bounds(self, name: str) -> Tuple[int, int]:
        """The values a number field may take on a card."""
        return dict(self.ranges).get(name, (-limits.MAX_COUNTER, limits.MAX_COUNTER))


@frozen
class Flag:
    """A yes-or-no mark a card in play carries (tapped, moved); clear when the card enters play."""

    name: str
    words: Tuple[str, ...]  # the adjective when set ("tapped")
    opposite: Tuple[str, ...] = ()  # the adjective when clear ("untapped")


@frozen
class InPlay:
    """Cards that come into play as pieces (entities): each has an owner, a place of the map
    (or none), may be carried by another, carries flags and number fields that change in play."""

    kinds: Tuple[str, ...]  # the card kinds that can be in play
    at_places: bool  # entities stand at places of the map
    flags: Tuple[Flag, ...] = ()
    carries: bool = False  # an entity may carry others
    fields: Tuple[str, ...] = ()  # number fields that may change in play (they start at the card's value)
    control_words: Tuple[str, ...] = ()  # "units you control": the owner's relation to its entities
    stays: Optional[CardsNamed] = None  # carried cards that stay in play, where they stand, when their carrier leaves

    def flag_index(self, name: str) -> int:
        return next((i for i, f in enumerate(self.flags) if f.name == name), -1)


VERB_ACTIONS = ("puts into play", "removes from play", "moves", "sets", "clears")


@frozen
class Verb:
    """A verb a game declares for one of the engine's actions on cards in play."""

    name: str
    words: Tuple[str, ...]
    action: str  # "enter" | "leave" | "move" | "set" | "clear"
    flag: Optional[str] = None  # the flag set (enter, move, set) or cleared (clear)
    pile: Optional[str] = None  # "removes from play": the pile the cards go to, unless the rule names one


SEEN_BY = ("nobody", "owner", "everyone")


@frozen
class Pile:
    name: str
    kind: str  # the card kind it holds
    words: Tuple[str, ...]
    each_side: bool
    seen_by: str
    starts_with_all: bool
    when_empty: Optional[str]  # the pile shuffled into this one when a card must be drawn from it empty
    at_most: Optional[int]
    position: Optional[str] = None  # a counter: the cards before it are face up, "the current card" is at it
    ordered: bool = False  # the order of its cards matters (a deck, an order of play)


@frozen
class Schema:
    sides: Tuple[str, ...]
    counters: Tuple[Counter, ...]
    registers: Tuple[str, ...]  # sides a position names ("the leader")
    map: GameMap
    tokens: Optional[Tokens]
    tracks: Tuple[Track, ...]
    markers: Tuple[Marker, ...]
    card_kinds: Tuple[CardKind, ...]
    piles: Tuple[Pile, ...]
    scenario_keys: Mapping[str, str] = attrs.field(factory=dict)  # key in scenario files -> what it names
    in_play: Optional[InPlay] = None  # cards that come into play as pieces (entities)
    verbs: Tuple[Verb, ...] = ()
    game: Optional[str] = None  # the game's name, which saved games give (else the content folder's)
    register_holds: Tuple[Tuple[str, str], ...] = ()  # register -> what it holds: "side" or "place"
    paying: Optional[Paying] = None  # how costs are paid ("pay 2", "..., paying its cost")
    # the content digests of earlier versions of the game that play exactly as this one does: their
    # saved games resume (content/loader.py computes the digest)
    replaces: Tuple[str, ...] = ()

    def counter(self, name: str) -> Optional[Counter]:
        return next((c for c in self.counters if c.name == name), None)

    def holds(self, register: str) -> str:
        """What a register holds: a side (the default) or a place."""
        return dict(self.register_holds).get(register, "side")

    def pile(self, name: str) -> Optional[Pile]:
        return next((p for p in self.piles if p.name == name), None)

    def card_kind(self, name: str) -> Optional[CardKind]:
        return next((k for k in self.card_kinds if k.name == name), None)

    def track(self, name: str) -> Optional[Track]:
        return next((t for t in self.tracks if t.name == name), None)

    def lexicon(self, extra: Iterable["Entry"] = ()) -> "Lexicon":
        place = self.map.place_words[0] if self.map.place_words else "place"
        names = tuple((name, place) for name in self.map.places) + tuple((side, "side") for side in self.sides) \
            + tuple((marker.name, "marker") for marker in self.markers)
        return attrs.evolve(Lexicon.of(_entries(self), extra), names=names)


# ---------------------------------------------------------------- the lexicon
#
# Every word and name a game's rules may use, and what kind of word it is for
# the grammar: a NOUN (a thing, a pile, a counter, a field, a role), an ADJ
# (an attribute, a flag), a RELATION ("control") or a VERB.  A word the game
# does not declare is a plain WORD, which the grammar refuses as unknown.

WORD_KINDS = ("NOUN", "ADJ", "RELATION", "VERB")


# ---------------------------------------------------------------- scenario keys

_TRACK_PARTS = {"boxes": "boxes", "entered zones": "entered", "order of entry": "entry"}


def scenario_part(schema, name: str) -> Optional[tuple]:
    """What a scenario key's name stands for in ``schema`` (docs/scenarios.md): ("counter", i),
    ("register", i), ("pile", i), ("tokens",), ("holder", i), ("track", i), ("markers",),
    ("in play",), or (part, track) for "boxes", "entered zones" or "order of entry" "of" a track;
    None for nothing."""
    counters = [c.name for c in schema.counters]
    piles = [p.name for p in schema.piles]
    tracks = [t.name for t in schema.tracks]
    holders = [h.name for h in schema.tokens.holders] if schema.tokens else []
    token_words = schema.tokens.words if schema.tokens else ()
    of = name.rsplit(" of ", 1)
    if name in counters:
        return ("counter", counters.index(name))
    if name in schema.registers:
        return ("register", schema.registers.index(name))
    if name in piles:
        return ("pile", piles.index(name))
    if name == "tokens" or name in token_words:
        return ("tokens",)
    if name in holders:
        return ("holder", holders.index(name))
    if name in tracks:
        return ("track", tracks.index(name))
    if name == "markers":
        return ("markers",)
    if name == "in play" and schema.in_play is not None:
        return ("in play",)
    if len(of) == 2 and of[1] in tracks and of[0] in _TRACK_PARTS:
        return (_TRACK_PARTS[of[0]], tracks.index(of[1]))
    return None


def scenario_part_names(schema) -> List[str]:
    """Every name a scenario key may give (``scenario_part``), for a message."""
    tracks = [t.name for t in schema.tracks]
    names = [c.name for c in schema.counters] + list(schema.registers) + [p.name for p in schema.piles]
    names += ["tokens"] + ([h.name for h in schema.tokens.holders] if schema.tokens else []) + tracks
    names += [f"{part} of {track}" for track in tracks for part in _TRACK_PARTS] + ["markers"]
    return names + (["in play"] if schema.in_play is not None else [])


@frozen
class Entry:
    """One word (or several words read as one) and what it refers to."""

    text: str
    kind: str  # one of WORD_KINDS
    refers_to: str  # what the resolver finds: "places", "group", "tokens", "holder:pool", "pile:hand"...


@frozen
class Lexicon:
    entries: Tuple[Entry, ...]
    kinds: Mapping[str, str]  # word -> its kind (a word has one kind)
    longest: int  # the most words in one entry
    starts: frozenset  # the first words of entries of several words
    # the game's proper names (places, sides, markers): not words of the lexer, which reads them
    # as names, but what a misspelt one in lowercase ("fort Sumter") is likeliest to mean
    names: Tuple[Tuple[str, str], ...] = ()  # (name, what it names: "space", "side", "marker")

    @classmethod
    def of(cls, entries: Iterable[Entry], extra: Iterable[Entry] = ()) -> "Lexicon":
        all_entries = tuple(entries) + tuple(extra)
        kinds: Dict[str, str] = {}
        for entry in all_entries:
            kinds.setdefault(entry.text, entry.kind)
        longest = max((len(e.text.split()) for e in all_entries), default=1)
        starts = frozenset(e.text.split()[0] for e in all_entries if " " in e.text)
        return cls(all_entries, kinds, longest, starts)

    def kind(self, text: str) -> Optional[str]:
        return self.kinds.get(text)

    def meanings(self, text: str) -> Tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.text == text)

    def words_of(self, kind: str) -> List[str]:
        return sorted({e.text for e in self.entries if e.kind == kind})

    def digest_text(self) -> str:
        """What the lexer depends on: the words and their kinds (for the parsed-rules cache's key)."""
        return "\n".join(f"{word}\t{kind}" for word, kind in sorted(self.kinds.items()))


def _entries(schema: Schema) -> List[Entry]:
    out: List[Entry] = []

    def add(words: Sequence[str], kind: str, refers_to: str) -> None:
        for word in words:
            out.append(Entry(word, kind, refers_to))

    for counter in schema.counters:
        add(counter.words or (counter.name,), "NOUN", f"counter:{counter.name}")
    add(schema.map.place_words, "NOUN", "places")
    add(schema.map.group_words, "NOUN", "group")
    for attribute in schema.map.attributes:
        add((attribute,), "ADJ", f"attribute:{attribute}")
    if schema.tokens is not None:
        add(schema.tokens.words, "NOUN", "tokens")
        for holder in schema.tokens.holders:
            add(holder.words, "NOUN", f"holder:{holder.name}")
        add(schema.tokens.control_words, "RELATION", "control")
    for track in schema.tracks:
        add(track.words, "NOUN", f"track:{track.name}")
        add(track.zone_words, "NOUN", f"zone:{track.name}")
        add(track.box_words, "NOUN", f"box:{track.name}")
        add(track.entered_words, "ADJ", f"entered:{track.name}")
    for kind in schema.card_kinds:
        add(kind.words, "NOUN", f"cards:{kind.name}")
        for field, _type in kind.fields:
            add((field,), "NOUN", f"field:{kind.name}:{field}")
        for field, values in kind.values:
            for value, words in values:
                add(words, "NOUN", f"cardtype:{kind.name}:{field}:{value}")
    if schema.in_play is not None:
        for flag in schema.in_play.flags:
            add(flag.words, "ADJ", f"flag:{flag.name}:1")
            add(flag.opposite, "ADJ", f"flag:{flag.name}:0")
        add(schema.in_play.control_words, "RELATION", "control")
    for verb in schema.verbs:
        add(verb.words, "VERB", f"verb:{verb.name}")
    for pile in schema.piles:
        add(pile.words, "NOUN", f"pile:{pile.name}")
    for register in schema.registers:
        add((register,), "NOUN", f"register:{register}")
    if schema.piles:
        add(("revealed",), "ADJ", "revealed")  # cards turned face up
    return out


# ------------------------------------------------------------------ reading


def _third_person(verb: str) -> str:
    """"tap" -> "taps", "march" -> "marches": the form after "the opponent"."""
    return verb + ("es" if verb.endswith(("s", "sh", "ch", "x", "z")) else "s")


_WORD = re.compile(r"^[a-z][a-z\-]*( [a-z][a-z\-]*)*$")
_NAME = re.compile(r"^([A-Z][A-Za-z0-9.\-]*|[0-9]+(st|nd|rd|th))( [A-Z][A-Za-z0-9.\-]*)*$")


class SchemaReader:
    """Reads ``state.yaml`` through a content loader (its file reading, field checks and problems)."""

    def __init__(self, loader, keywords: Iterable[str] = ()):
        self.loader = loader
        self.problems = loader.problems
        self.keywords = frozenset(keywords)  # the grammar's own words, which a game may not take
        self.file: Optional[YamlFile] = None
        self.names: Dict[str, str] = {}  # every name declared -> what it names (each name once)
        self.words: Dict[str, Tuple[str, str]] = {}  # every word declared -> (its kind, what it is for)

    # ---------------------------------------------------------------- report
    def error(self, position, message: str, **kwargs) -> None:
        self.problems.add(self.file.diagnostic(position, message, **kwargs))

    def fields(self, value, what: str, required: Dict[str, type], optional: Dict[str, type], at=None):
        return self.loader.fields(self.file, value, what, required, optional, at=at)

    def at(self, container, key):
        if isinstance(container, Map) and key in container.value_positions:
            return container.value_positions[key]
        if isinstance(container, Seq) and isinstance(key, int) and key < len(container.positions):
            return container.positions[key]
        return (getattr(container, "line", 1), getattr(container, "column", 1))

    def key_at(self, container: Map, key):
        return container.key_positions.get(key, self.at(container, key))

    def name(self, container, key, value, what: str) -> Optional[str]:
        """A new name: capitalised, not declared before (names are unique across the schema)."""
        position = self.key_at(container, key) if isinstance(container, Map) and key in container else self.at(container, key)
        if isinstance(value, str) and len(value) > limits.MAX_NAME_CHARS:
            self.error(position, f"'{shown(value)}' is too long for a name: at most {limits.MAX_NAME_CHARS} characters")
            return None
        if not isinstance(value, str) or not _NAME.match(value):
            self.error(position, f"'{shown(value)}' is not a name for {what}",
                       expected="a capitalised name, such as 'Fort Sumter' or 'Washington D.C.'",
                       hint="names start with a capital letter (or an ordinal such as '20th') and hold letters, "
                            "digits, dots and hyphens")
            return None
        if value in self.names:
            self.error(position, f"'{value}' already names {self.names[value]}",
                       hint="each name in state.yaml names one thing")
            return None
        self.names[value] = what
        return value

    def word_list(self, container: Map, key, what: str, default: Sequence[str] = (),
                  kind: str = "NOUN") -> Tuple[str, ...]:
        """The words rules use for a thing: a word, or a list of forms ("space", "spaces")."""
        if key not in container:
            return tuple(default)
        return self.words_of(container[key], self.at(container, key), what, kind)

    def words_of(self, value, position, what: str, kind: str = "NOUN") -> Tuple[str, ...]:
        """A word may name several things of one kind (the resolver tells them apart by where
        they stand), but not a noun and an adjective at once: the grammar must know which it is."""
        values = list(value) if isinstance(value, list) else [value]
        out = []
        for index, word in enumerate(values):
            where = self.at(value, index) if isinstance(value, Seq) else position
            if not isinstance(word, str) or not (_WORD.match(word) or _NAME.match(word)):
                self.error(where, f"'{shown(word)}' is not a word rules can use for {what}",
                           expected="lowercase words, such as 'crisis track' (or a capitalised one, such as 'VP')")
                continue
            if word in self.keywords:
                self.error(where, f"'{word}' is a word of the rules language itself",
                           hint="choose another word for it (several words may start with it: 'discard pile')")
                continue
            if word in self.words and self.words[word][0] != kind:
                self.error(where, f"'{word}' is already the word for {self.words[word][1]}",
                           hint="a word is a noun, an adjective or a verb, not two of them")
                continue
            self.words.setdefault(word, (kind, what))
            out.append(word)
        return tuple(out)

    def number(self, container: Map, key, low: int, high: int, default: Optional[int] = None) -> Optional[int]:
        if key not in container:
            return default
        value = container[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.error(self.at(container, key), f"'{key}' should be a whole number from {low} to {high}",
                       hint=f"got {shown(value)}")
            return None
        return value

    def flag(self, container: Map, key) -> bool:
        value = container.get(key, False)
        if not isinstance(value, bool):
            self.error(self.at(container, key), f"'{key}' should be true or false", hint=f"got {shown(value)}")
            return False
        return value

    def choice(self, container: Map, key, choices: Sequence[str], what: str) -> Optional[str]:
        value = container.get(key)
        if value in choices:
            return value
        guess = did_you_mean(str(value), choices)
        self.error(self.at(container, key), f"unknown {what} '{shown(value)}'", expected=one_of(list(choices)),
                   hint=f"did you mean '{guess}'?" if guess else None)
        return None

    def refer_each(self, container, key, known: Sequence[str], what: str) -> List[Optional[str]]:
        """``refer`` for each name of a list (or the one name) under ``key``: a mistake is told at
        the name itself, not at the list."""
        value = container[key]
        if isinstance(value, Seq):
            return [self.refer(value, index, item, known, what) for index, item in enumerate(value)]
        return [self.refer(container, key, item, known, what)
                for item in (value if isinstance(value, list) else [value])]

    def refer(self, container, key, value, known: Sequence[str], what: str) -> Optional[str]:
        """A name (or word) declared elsewhere in the schema."""
        if isinstance(value, str) and value in known:
            return value
        guess = did_you_mean(str(value), known) if isinstance(value, str) else None
        self.error(self.at(container, key), f"unknown {what} '{shown(value)}'", expected=one_of(list(known)),
                   hint=f"did you mean '{guess}'?" if guess else None,
                   width=len(value) if isinstance(value, str) and 0 < len(value) <= 80 else 1)
        return None

    # ---------------------------------------------------------------- parts
    def read(self, root) -> Optional[Schema]:
        file, data = self.loader.read(root / "state.yaml")
        if file is None:
            return None
        self.file = file
        if data is None:
            self.error(None, "state.yaml is empty",
                       expected="what a position of the game holds: its sides, map, counters, pieces, cards and piles")
            return None
        spec, ok = self.fields(data if data is not None else Map(), "state.yaml", {"sides": list, "map": dict},
                               {"counters": dict, "tokens": dict, "tracks": dict, "markers": dict, "cards": dict,
                                "piles": dict, "registers": dict, "scenario keys": dict, "in play": dict,
                                "verbs": dict, "game": str, "replaces": list, "paying": dict})
        if spec is None:
            return None
        told = len(self.problems.items)  # a scenario key is checked only where nothing above failed
        game = self.game_name(spec)
        replaces = self.digests(spec)
        sides = self.sides(spec)
        counters = self.counters(spec.get("counters") or Map())
        game_map = self.game_map(spec["map"]) if "map" in spec else None
        tokens = self.tokens(spec["tokens"]) if "tokens" in spec else None
        tracks = self.tracks(spec.get("tracks") or Map(), tokens, declared="tokens" in spec)
        markers = self.markers(spec.get("markers") or Map())
        kinds = self.card_kinds(spec.get("cards") or Map())
        piles = self.piles(spec.get("piles") or Map(), kinds, counters)
        if tokens is not None:
            supply = tuple(self.refer(spec["tokens"], "supply", name,
                                      [h.name for h in tokens.holders] + [t.name for t in tracks],
                                      "token holder") for name in tokens.supply)
            tokens = attrs.evolve(tokens, supply=tuple(s for s in supply if s))
        if tokens is not None and sides is not None:
            self.tokens_add_up(spec["tokens"], tokens, tracks)
        in_play = self.in_play(spec["in play"], kinds) if "in play" in spec else None
        verbs = self.verbs(spec.get("verbs") or Map(), in_play, piles)
        if verbs and in_play is None:
            self.error(self.key_at(spec, "verbs"), "verbs act on cards in play, and this game declares none",
                       expected="'in play:' with the kinds of cards that can be in play")
            verbs = ()
        if game_map is not None:
            self.sizes(spec, game_map, tracks, markers)
        if not ok or game_map is None or sides is None:
            return None
        registers = tuple(self.words_of(key, self.key_at(spec["registers"], key), "a register")[0]
                          for key in (spec.get("registers") or Map()))
        holds = self.register_holds(spec.get("registers") or Map())
        if "line" in spec["map"]:
            game_map = attrs.evolve(game_map, line=self.line(spec["map"], kinds, in_play, game_map))
        paying = self.paying(spec["paying"], kinds, in_play, verbs) if "paying" in spec else None
        keys = {str(k): str(v) for k, v in (spec.get("scenario keys") or {}).items()}
        schema = Schema(sides=sides, counters=counters, registers=registers, map=game_map, tokens=tokens,
                        tracks=tracks, markers=markers, card_kinds=kinds, piles=piles, scenario_keys=keys,
                        in_play=in_play, verbs=verbs, game=game, replaces=replaces, register_holds=holds,
                        paying=paying)
        if len(self.problems.items) == told:  # (else a name it gives may be one that could not be read)
            self.scenario_keys(spec.get("scenario keys"), schema)
        return schema

    def scenario_keys(self, given, schema: "Schema") -> None:
        """Each scenario key names a part of the position: one that names nothing would make every
        scenario that uses it fail, each at its own line, with the mistake here."""
        if not isinstance(given, Map):
            return
        names = scenario_part_names(schema)
        for key, name in given.items():
            if scenario_part(schema, str(name)) is not None:
                continue
            guess = did_you_mean(str(name), names)
            self.error(self.at(given, key), f"the scenario key '{key}' names '{shown(name)}', which is no part of "
                                            "a position", width=len(str(name)),
                       expected="a counter, a register, a pile, tokens, a holder, a track, its boxes, entered zones "
                                "or order of entry, or markers: " + one_of(names, limit=12),
                       hint=f"did you mean '{guess}'?" if guess else None)

    # ---------------------------------------------------------------- a map of cards, paying, registers
    def cards_named(self, container, key, kinds: Sequence[CardKind], in_play: Optional[InPlay],
                    what: str) -> Optional[CardsNamed]:
        """The cards in play a noun names: a kind's word ("cards") or a kind field's ("locations",
        which may name cards of several values)."""
        noun = container.get(key)
        playing = [k for k in kinds if in_play is not None and k.name in in_play.kinds]
        nouns = []
        for kind in playing:
            nouns.extend(kind.words)
            for field, values in kind.values:
                found = tuple(value for value, words in values if noun in words)
                if found:
                    return CardsNamed(str(noun), kind.name, field, found)
                nouns.extend(w for _, words in values for w in words)
            if noun in kind.words:
                return CardsNamed(str(noun), kind.name)
        guess = did_you_mean(str(noun), nouns) if isinstance(noun, str) else None
        self.error(self.at(container, key), f"'{shown(noun)}' are not cards in play, for {what}",
                   expected=one_of(sorted(set(nouns))) if nouns else "'in play:' with the kinds of cards that can be in play",
                   hint=f"did you mean '{guess}'?" if guess else None)
        return None

    def line(self, spec: Map, kinds, in_play, game_map: GameMap) -> Optional[Line]:
        body, _ok = self.fields(spec["line"], "the map's line", {"cards": str, "ordered by": str}, {},
                                at=self.at(spec, "line"))
        if body is None:
            return None
        if game_map.adjacent:
            self.error(self.key_at(spec, "adjacent"), "a map that is a line of cards says no 'adjacent': places "
                                                      "next to each other in the line are adjacent")
        cards = self.cards_named(body, "cards", kinds, in_play, "the map's line")
        if cards is None:
            return None
        kind = next(k for k in kinds if k.name == cards.kind)
        places = [f for f, t in kind.fields if t == "place"]
        if len(places) != 1:
            self.error(self.at(body, "cards"), f"the {kind.name} need one field of type 'place': the place each "
                                               "card stands for", expected="a field such as 'site: place'")
            return None
        numbers = [f for f, t in kind.fields if t == "number"]
        order = self.refer(body, "ordered by", body["ordered by"], numbers, "number field")
        if order is None:
            return None
        if not in_play.at_places:
            self.error(self.at(spec, "line"), "the cards of a line stand at places: declare 'at: places' under "
                                              "'in play'")
        return Line(cards, places[0], order)

    def paying(self, spec: Map, kinds, in_play, verbs: Sequence[Verb]) -> Optional[Paying]:
        body, _ok = self.fields(spec, "paying", {"cards": str, "by": str}, {})
        if body is None:
            return None
        cards = self.cards_named(body, "cards", kinds, in_play, "paying")
        setting = [v.name for v in verbs if v.action == "set"]
        verb = self.refer(body, "by", body["by"], setting, "verb that sets a flag")
        if cards is None or verb is None:
            return None
        return Paying(cards, verb, next(v.flag for v in verbs if v.name == verb))

    def register_holds(self, spec: Map) -> Tuple[Tuple[str, str], ...]:
        out = []
        for key, value in spec.items():
            if value is None or value == {}:
                continue
            body, _ok = self.fields(value, f"register '{key}'", {}, {"holds": str}, at=self.at(spec, key))
            if body is None or "holds" not in body:
                continue
            holds = self.choice(body, "holds", ("side", "place"), "thing a register holds")
            if holds is not None:
                out.append((str(key), holds))
        return tuple(out)

    def sizes(self, spec: Map, game_map: GameMap, tracks, markers) -> None:
        """How many places, groups, zones and markers a game may have (docs/limits.md): the engine's
        work for a rule grows with them."""
        if len(game_map.places) > limits.MAX_PLACES:
            self.error(self.at(spec, "map"), f"the map has {len(game_map.places)} places; the limit is "
                                             f"{limits.MAX_PLACES}")
        for what, count, most, at in (("groups", len(game_map.groups), limits.MAX_GROUPS, (spec["map"], "groups")),
                                      ("markers", len(markers), limits.MAX_MARKERS, (spec, "markers"))):
            if count > most:
                self.error(self.at(*at), f"'{what}' has {count} entries; at most {most} are allowed")
        for track in tracks:
            if len(track.zones) > limits.MAX_ZONES:
                self.error(self.at(spec["tracks"], track.name), f"'zones' of '{track.name}' has {len(track.zones)} "
                                                                f"entries; at most {limits.MAX_ZONES} are allowed")

    def game_name(self, spec: Map) -> Optional[str]:
        """The game's name: what saved games give, and the start of their default file names."""
        if "game" not in spec:
            return None
        name = spec["game"]
        if not 0 < len(name) <= limits.MAX_NAME_CHARS:
            self.error(self.at(spec, "game"), f"the game's name must have 1 to {limits.MAX_NAME_CHARS} characters")
            return None
        return name

    def digests(self, spec: Map) -> Tuple[str, ...]:
        """'replaces': the digests of earlier versions that play as this one (16 hexadecimal digits each)."""
        out = []
        for index, digest in enumerate(spec.get("replaces") or ()):
            if not isinstance(digest, str) or not re.fullmatch(r"[0-9a-f]{16}", digest):
                self.error(self.at(spec["replaces"], index), f"'{shown(digest)}' is not a content digest",
                           expected="16 hexadecimal digits, as a saved game's 'content_digest' gives it")
                continue
            out.append(digest)
        return tuple(out)

    def sides(self, spec: Map) -> Optional[Tuple[str, ...]]:
        values = spec["sides"]
        if not 1 <= len(values) <= limits.MAX_SIDES:
            self.error(self.at(spec, "sides"), f"a game has from 1 to {limits.MAX_SIDES} sides",
                       hint=f"got {len(values)}")
            return None
        names = [self.name(values, index, value, "a side") for index, value in enumerate(values)]
        return tuple(names) if all(names) else None

    def counters(self, spec: Map) -> Tuple[Counter, ...]:
        out = []
        for key in spec:
            body, _ok = self.fields(spec[key], f"counter '{key}'", {"from": int, "to": int},
                                    {"each side": bool, "start": int, "words": (str, list)}, at=self.at(spec, key))
            if body is None:
                continue
            words = (self.word_list(body, "words", f"the counter '{key}'") if "words" in body
                     else self.words_of(key, self.key_at(spec, key), f"the counter '{key}'"))
            if not words:
                continue
            low = self.number(body, "from", -limits.MAX_COUNTER, limits.MAX_COUNTER)
            high = self.number(body, "to", -limits.MAX_COUNTER, limits.MAX_COUNTER)
            if low is None or high is None:
                continue
            if high < low:
                self.error(self.at(body, "to"), f"counter '{key}' goes from {low} to {high}: 'to' is below 'from'")
                continue
            start = self.number(body, "start", low, high, default=low)
            out.append(Counter(str(key), self.flag(body, "each side"), low, high, low if start is None else start,
                               words))
        return tuple(out)

    def game_map(self, spec: Map) -> Optional[GameMap]:
        body, ok = self.fields(spec, "map", {"places": (str, list)}, {"groups": dict, "attributes": dict,
                                                                        "adjacent": dict, "line": dict})
        if body is None:
            return None
        place_words = self.word_list(body, "places", "the map's places")
        word = place_words[0] if place_words else "place"  # what the game calls one, in its messages
        places: List[str] = []
        groups: List[Group] = []
        group_words: Tuple[str, ...] = ()
        grouped = body.get("groups") or Map()
        for key in grouped:
            if key == "words":
                group_words = self.word_list(grouped, "words", "the map's groups")
                continue
            group = self.name(grouped, key, key, "a group of places")
            members = grouped[key]
            if not isinstance(members, list) or not members:
                self.error(self.at(grouped, key), f"group '{key}' should list its places",
                           expected="a list of place names, such as [Washington, Montgomery]")
                continue
            names = [self.name(members, i, m, "a place") for i, m in enumerate(members)]
            names = [n for n in names if n]
            places.extend(names)
            if group:
                groups.append(Group(group, tuple(names)))
        if not places:
            self.error(self.at(spec, "groups") if "groups" in spec else (spec.line, spec.column),
                       "the map has no places", expected="groups: {GROUP: [PLACE, ...]}")
        attributes: Dict[str, Tuple[str, ...]] = {}
        for key, members in (body.get("attributes") or Map()).items():
            if not self.words_of(key, self.key_at(body["attributes"], key), "an attribute", "ADJ"):
                continue
            attributes[key] = tuple(p for p in self.refer_each(body["attributes"], key, places, word) if p)
        adjacent: Dict[str, Tuple[str, ...]] = {}
        for key, others in (body.get("adjacent") or Map()).items():
            place = self.refer(body["adjacent"], key, key, places, word)
            found = tuple(p for p in self.refer_each(body["adjacent"], key, places, word) if p)
            if place and place in found:  # a place is where a token is, never next to it
                listed = body["adjacent"][key]
                at = self.at(listed, list(listed).index(place)) if isinstance(listed, Seq) else \
                    self.at(body["adjacent"], key)
                self.error(at, f"'{place}' is listed as adjacent to itself", expected="the other places it touches",
                           width=len(place))
                found = tuple(p for p in found if p != place)
            if place:
                adjacent[place] = found
        for place, others in list(adjacent.items()):  # adjacency goes both ways
            for other in others:
                if place not in adjacent.get(other, ()):
                    adjacent[other] = adjacent.get(other, ()) + (place,)
        return GameMap(place_words=place_words, places=tuple(places), group_words=group_words,
                       groups=tuple(groups), attributes=attributes, adjacent=adjacent)

    def tokens(self, spec: Map) -> Optional[Tokens]:
        body, _ok = self.fields(spec, "tokens", {"words": (str, list), "each side": int, "at most per place": int},
                                {"holders": dict, "supply": list, "control": dict})
        if body is None:
            return None
        holders = []
        for key, value in (body.get("holders") or Map()).items():
            hold, _ = self.fields(value, f"holder '{key}'", {}, {"words": (str, list), "start": int},
                                  at=self.at(body["holders"], key))
            if hold is None:
                continue
            words = self.word_list(hold, "words", f"the holder '{key}'", default=(str(key),))
            holders.append(Holder(str(key), words, self.number(hold, "start", 0, limits.MAX_TOKENS, 0) or 0))
        control = body.get("control") or Map()
        control_words = self.word_list(control, "words", "control", kind="RELATION") if control else ()
        return Tokens(words=self.word_list(body, "words", "tokens"),
                      each_side=self.number(body, "each side", 0, limits.MAX_TOKENS) or 0,
                      at_most_per_place=self.number(body, "at most per place", 1, limits.MAX_TOKENS) or 1,
                      holders=tuple(holders), supply=tuple(str(s) for s in body.get("supply") or ()),
                      control_words=control_words)

    def tokens_add_up(self, spec: Map, tokens: Tokens, tracks) -> None:
        """Each side's tokens are all somewhere at the start: in its holders, on its tracks, in its
        boxes.  Otherwise some could never come into play, or a rule would take tokens from an
        empty holder and do nothing -- a game that passes the check and fails in play."""
        holders = sum(h.start for h in tokens.holders)
        on_tracks = sum(t.spaces for t in tracks)
        boxes = sum(z.box for t in tracks for z in t.zones)
        placed = holders + on_tracks + boxes
        if placed != tokens.each_side:
            self.error(self.at(spec, "each side"),
                       f"each side has {tokens.each_side} {tokens.words[-1]}, but {placed} are somewhere at the start "
                       f"(holders {holders}, tracks {on_tracks}, boxes {boxes})",
                       expected=f"holders' 'start', tracks' spaces and boxes that add up to {tokens.each_side}",
                       hint="give a holder a start, e.g. 'pool: {words: [pool], start: 9}'")

    def tracks(self, spec: Map, tokens: Optional[Tokens], declared: bool = False) -> Tuple[Track, ...]:
        """The tracks; ``declared``: 'tokens:' is there, so tokens that could not be read are already
        told of, and a track that holds them is not told of again."""
        out = []
        for key, value in spec.items():
            body, _ok = self.fields(value, f"track '{key}'", {"holds": str, "spaces": int, "zones": dict},
                                    {"words": (str, list), "each side": bool, "boxes": dict, "entered": dict},
                                    at=self.at(spec, key))
            if body is None:
                continue
            if tokens is None and declared and body["holds"] == "tokens":
                continue
            if tokens is None or body["holds"] != "tokens":
                self.error(self.at(body, "holds"), f"track '{key}' holds '{shown(body['holds'])}'",
                           expected="tokens (declared under 'tokens:')")
                continue
            spaces = self.number(body, "spaces", 1, limits.MAX_TRACK_SPACES)
            if spaces is None:
                continue
            zones = []
            zone_words: Tuple[str, ...] = ()
            for name, zone in body["zones"].items():
                if name == "words":
                    zone_words = self.word_list(body["zones"], "words", f"the zones of '{key}'")
                    continue
                zone_name = self.name(body["zones"], name, name, f"a zone of '{key}'")
                part, _ = self.fields(zone, f"zone '{name}'", {"from": int, "to": int}, {"box": int},
                                      at=self.at(body["zones"], name))
                if part is None or zone_name is None:
                    continue
                top = self.number(part, "from", 0, spaces - 1)
                bottom = self.number(part, "to", 0, spaces - 1)
                if top is None or bottom is None:
                    continue
                zones.append(Zone(zone_name, max(top, bottom), min(top, bottom),
                                  self.number(part, "box", 0, limits.MAX_TOKENS, 0) or 0))
            covered = sorted(n for z in zones for n in range(z.bottom, z.top + 1))
            if covered != list(range(spaces)):
                self.error(self.at(body, "zones"), f"the zones of track '{key}' must cover its spaces "
                                                   f"0 to {spaces - 1} once each")
                continue
            zones.sort(key=lambda z: -z.top)  # from the top of the track down: the order zones are entered
            out.append(Track(name=str(key), words=self.word_list(body, "words", f"the track '{key}'",
                                                                 default=(str(key),)),
                             each_side=self.flag(body, "each side"), holds="tokens", spaces=spaces,
                             zone_words=zone_words, zones=tuple(zones),
                             box_words=self.word_list(body.get("boxes") or Map(), "words", "boxes"),
                             entered_words=self.word_list(body.get("entered") or Map(), "words",
                                                          "an entered zone", kind="ADJ")))
        return tuple(out)

    def markers(self, spec: Map) -> Tuple[Marker, ...]:
        out = []
        for key, value in spec.items():
            name = self.name(spec, key, key, "a marker")
            body, _ = self.fields(value if value is not None else Map(), f"marker '{key}'", {}, {"blocks": list},
                                  at=self.at(spec, key))
            if body is None or name is None:
                continue
            blocks = list(body.get("blocks") or ())
            for index, blocked in enumerate(blocks):
                if blocked not in ("placement", "removal"):
                    self.error(self.at(body["blocks"], index), f"a marker blocks 'placement' or 'removal', "
                                                               f"not '{shown(blocked)}'")
            out.append(Marker(name, "placement" in blocks, "removal" in blocks))
        return tuple(out)

    def card_kinds(self, spec: Map) -> Tuple[CardKind, ...]:
        out = []
        for key, value in spec.items():
            body, _ = self.fields(value, f"cards '{key}'", {"words": (str, list)}, {"fields": dict},
                                  at=self.at(spec, key))
            if body is None:
                continue
            words = self.word_list(body, "words", f"the cards '{key}'")
            fields, defaults, values, ranges = [], [], [], []
            declared = body.get("fields") or Map()
            for field, kind in declared.items():
                if isinstance(kind, Map):  # {type: number, default: 1}, {type: kind, values: {...}}
                    part, _ok = self.fields(kind, f"field '{field}'", {"type": str},
                                            {"default": (int, str), "values": dict, "from": int, "to": int},
                                            at=self.at(declared, field))
                    if part is None:
                        continue
                    type_name = self.choice(part, "type", FIELD_TYPES, "field type")
                    if type_name is None:
                        continue
                    if "default" in part and type_name == "place" and part["default"] == "nowhere":
                        defaults.append((str(field), "nowhere"))  # a card that names no place stands for none
                    elif "default" in part and type_name == "text" and isinstance(part["default"], str):
                        defaults.append((str(field), part["default"]))
                    elif "default" in part:
                        if type_name != "number":
                            self.error(self.at(part, "default"), f"only a number field has a default, and "
                                                                 f"'{field}' is a {type_name} field")
                        elif isinstance(part["default"], str):  # another field's value: "defense, else power"
                            defaults.append((str(field), part["default"]))
                        else:
                            default = self.number(part, "default", -limits.MAX_COUNTER, limits.MAX_COUNTER)
                            if default is not None:
                                defaults.append((str(field), default))
                    if "from" in part or "to" in part:
                        if type_name != "number":
                            self.error(self.at(part, "from" if "from" in part else "to"),
                                       f"only a number field has a range, and '{field}' is a {type_name} field")
                        else:
                            low = self.number(part, "from", -limits.MAX_COUNTER, limits.MAX_COUNTER,
                                              -limits.MAX_COUNTER)
                            high = self.number(part, "to", -limits.MAX_COUNTER, limits.MAX_COUNTER,
                                               limits.MAX_COUNTER)
                            if low is not None and high is not None:
                                if low > high:
                                    self.error(self.at(part, "to"), f"field '{field}' goes from {low} to {high}",
                                               expected=f"'to' at least {low}")
                                else:
                                    ranges.append((str(field), (low, high)))
                    if type_name == "kind":
                        found = self.kind_values(part, field, key)
                        if found:
                            values.append((str(field), found))
                    elif "values" in part:
                        self.error(self.at(part, "values"), f"only a kind field lists values, and '{field}' is a "
                                                            f"{type_name} field")
                    fields.append((str(field), type_name))
                elif self.choice(declared, field, FIELD_TYPES, "field type") is not None:
                    if kind == "kind":
                        self.error(self.at(declared, field), f"the kind field '{field}' should list its values",
                                   expected="{type: kind, values: {unit: [unit, units], ...}}")
                        continue
                    fields.append((str(field), kind))
            numbers = [f for f, t in fields if t == "number"]
            for index, (field, default) in enumerate(defaults):
                if isinstance(default, str) and field in numbers:  # another number field, itself given or defaulting to a number
                    spec_at = self.at(declared[field], "default")
                    if default not in numbers or isinstance(dict(defaults).get(default), str):
                        guess = did_you_mean(default, numbers)
                        self.error(spec_at, f"the default of '{field}' should be a number, or a number field whose "
                                            f"default is a number, not '{shown(default)}'",
                                   expected=one_of([n for n in numbers if n != field]) if numbers else "a number",
                                   hint=f"did you mean '{guess}'?" if guess else None)
                        defaults[index] = (field, 0)
            out.append(CardKind(str(key), words, tuple(fields), tuple(defaults), tuple(values), tuple(ranges)))
        return tuple(out)

    def kind_values(self, part: Map, field, kind_name) -> Tuple[Tuple[str, Tuple[str, ...]], ...]:
        """The values of a kind field, each with its nouns: {unit: [unit, units], farm: [farm, farms]}."""
        listed = part.get("values")
        if not isinstance(listed, Map) or not listed:
            self.error(self.at(part, "values") if "values" in part else (part.line, part.column),
                       f"the kind field '{field}' should list its values",
                       expected="values: {unit: [unit, units], ...}: each value and the nouns rules use for it")
            return ()
        out = []
        for value, words in listed.items():
            if not isinstance(value, str) or not _WORD.match(value):
                self.error(self.key_at(listed, value), f"'{shown(value)}' is not a value of the kind field '{field}'",
                           expected="a lowercase word, such as 'unit'")
                continue
            nouns = self.words_of(words if words is not None else value, self.at(listed, value),
                                  f"the {value} cards of '{kind_name}'")
            if nouns:
                out.append((value, nouns))
        return tuple(out)

    def in_play(self, spec: Map, kinds: Sequence[CardKind]) -> Optional[InPlay]:
        body, _ok = self.fields(spec, "in play", {"cards": (str, list)},
                                {"at": str, "flags": dict, "carries": bool, "fields": (str, list), "control": dict,
                                 "stays": str})
        if body is None:
            return None
        listed = body["cards"] if isinstance(body["cards"], list) else [body["cards"]]
        names = [k.name for k in kinds]
        in_play = tuple(k for k in (self.refer(body["cards"] if isinstance(body["cards"], Seq) else body,
                                               i if isinstance(body["cards"], Seq) else "cards", name, names,
                                               "kind of card") for i, name in enumerate(listed)) if k)
        if "at" in body and body["at"] not in ("places", "nowhere"):
            self.error(self.at(body, "at"), f"cards in play stand at 'places' of the map, or 'nowhere', "
                                            f"not '{shown(body['at'])}'")
        flags = []
        for key, value in (body.get("flags") or Map()).items():
            part, _ = self.fields(value if value is not None else Map(), f"flag '{key}'", {},
                                  {"words": (str, list), "opposite": (str, list)}, at=self.at(body["flags"], key))
            if part is None:
                continue
            words = (self.word_list(part, "words", f"the flag '{key}'", kind="ADJ") if "words" in part
                     else self.words_of(key, self.key_at(body["flags"], key), f"the flag '{key}'", "ADJ"))
            opposite = self.word_list(part, "opposite", f"the flag '{key}' cleared", kind="ADJ")
            flags.append(Flag(str(key), words, opposite))
        fields = []
        listed_fields = body.get("fields") or []
        listed_fields = listed_fields if isinstance(listed_fields, list) else [listed_fields]
        numbers = sorted({f for k in kinds if k.name in in_play for f, t in k.fields if t == "number"})
        for index, field in enumerate(listed_fields):
            found = self.refer(body["fields"] if isinstance(body["fields"], Seq) else body,
                               index if isinstance(body["fields"], Seq) else "fields", field, numbers,
                               "number field of the cards in play")
            if found:
                fields.append(found)
        control = body.get("control") or Map()
        control_words = self.word_list(control, "words", "control", kind="RELATION") if control else ()
        found = InPlay(in_play, body.get("at", "nowhere") == "places", tuple(flags), self.flag(body, "carries"),
                       tuple(fields), control_words)
        if "stays" in body:  # carried cards that stay in play when their carrier leaves it (an army's soldiers)
            if not found.carries:
                self.error(self.key_at(body, "stays"), "'stays' names carried cards, and no card in play carries "
                                                       "another here", expected="'carries: true'")
            found = attrs.evolve(found, stays=self.cards_named(body, "stays", kinds, found, "'stays'"))
        return found

    def verbs(self, spec: Map, in_play: Optional[InPlay], piles: Sequence[Pile]) -> Tuple[Verb, ...]:
        out = []
        flags = [f.name for f in in_play.flags] if in_play is not None else []
        for key, value in spec.items():
            part, _ = self.fields(value if value is not None else Map(), f"verb '{key}'", {},
                                  {"words": (str, list), "puts into play": bool, "removes from play": bool,
                                   "moves": bool, "sets": str, "clears": str, "into": str},
                                  at=self.at(spec, key))
            if part is None:
                continue
            actions = [a for a in ("puts into play", "removes from play", "moves", "clears") if part.get(a)]
            if not actions and "sets" in part:
                actions = ["sets"]
            if len(actions) != 1 or ("clears" in part and "sets" in part):
                self.error(self.key_at(spec, key), f"verb '{key}' should do one of the engine's actions on cards "
                                                   "in play", expected=one_of(list(VERB_ACTIONS)),
                           hint="'sets: FLAG' may go with 'puts into play' or 'moves'")
                continue
            action = {"puts into play": "enter", "removes from play": "leave", "moves": "move", "sets": "set",
                      "clears": "clear"}[actions[0]]
            if "sets" in part and action in ("leave",):
                self.error(self.at(part, "sets"), "a card that leaves play keeps no flags: 'sets' goes with "
                                                  "'puts into play' or 'moves'")
            flag = part.get("clears") if action == "clear" else part.get("sets")
            if flag is not None and not self.refer(part, "clears" if action == "clear" else "sets", flag, flags,
                                                   "flag"):
                continue
            pile = None
            if "into" in part:
                if action != "leave":
                    self.error(self.at(part, "into"), "'into' names where cards that leave play go: it goes with "
                                                      "'removes from play'")
                pile = self.refer(part, "into", part["into"], [p.name for p in piles], "pile")
            words = (self.word_list(part, "words", f"the verb '{key}'", kind="VERB") if "words" in part
                     else self.words_of([str(key), _third_person(str(key))], self.key_at(spec, key),
                                        f"the verb '{key}'", "VERB"))
            out.append(Verb(str(key), words, action, flag, pile))
        return tuple(out)

    def piles(self, spec: Map, kinds: Sequence[CardKind], counters: Sequence[Counter] = ()) -> Tuple[Pile, ...]:
        out = []
        names = [k.name for k in kinds]
        for key, value in spec.items():
            body, _ = self.fields(value, f"pile '{key}'", {"cards": str, "seen by": str},
                                  {"words": (str, list), "each side": bool, "starts with": str, "when empty": str,
                                   "at most": int, "position": str, "ordered": bool}, at=self.at(spec, key))
            if body is None:
                continue
            kind = self.refer(body, "cards", body["cards"], names, "kind of card")
            seen = self.choice(body, "seen by", SEEN_BY, "'seen by'")
            if "starts with" in body and body["starts with"] != "all":
                self.error(self.at(body, "starts with"), "a pile starts with all its cards, or with none",
                           expected="starts with: all (or leave it out)")
            if kind is None or seen is None:
                continue
            out.append(Pile(name=str(key), kind=kind,
                            words=self.word_list(body, "words", f"the pile '{key}'", default=(str(key),)),
                            each_side=self.flag(body, "each side"), seen_by=seen,
                            starts_with_all=body.get("starts with") == "all",
                            when_empty=body.get("when empty"),
                            at_most=self.number(body, "at most", 1, limits.MAX_CARDS),
                            position=body.get("position"), ordered=self.flag(body, "ordered")))
        known = [p.name for p in out]
        by_name = {k.name: k for k in kinds}
        for pile in out:
            if pile.each_side and pile.starts_with_all and "side" not in [t for _, t in by_name[pile.kind].fields]:
                self.error(self.at(spec[pile.name], "starts with"),
                           f"pile '{pile.name}' is kept by each side and starts with all its cards, but the "
                           f"{pile.kind} have no side field to say whose pile each card starts in",
                           expected="a field of type 'side' in the cards' fields (each card goes to its side's pile)")
            if pile.when_empty is not None:
                self.refer(spec[pile.name], "when empty", pile.when_empty, known, "pile")
            if pile.position is not None:
                self.refer(spec[pile.name], "position", pile.position, [c.name for c in counters], "counter")
        return tuple(out)
