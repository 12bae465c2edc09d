"""Scenario files: a position, actions in the text notation, expected results.

See docs/scenarios.md for the format.  A file holds one scenario (a mapping)
or several (``scenarios:`` list).  The keys of a position and of ``expect``
are the names the game's schema gives the parts of a position (its
``scenario keys``: counters, registers, piles, tokens, holders, tracks...),
plus a few every game has (``phase``, ``last_play``, ``dice``).  Anything the
position does not give is as after setup.

A scenario is a test a designer trusts, so it must not pass by mistake: every
key is checked (with "did you mean"), every action text is read against the
game's names before the game starts, and a legal/illegal check is refused at a
decision where that kind of action can never be offered.  A scenario that
cannot be read is "not run" and reported alone; the others in its file run.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import weakref

import attrs

from crisis.content.yamlfile import ContentError, Map, Seq, YamlFile, display_path, read_text
from crisis.interpreter.engine.board import FixedRollError
from crisis.interpreter.engine.game import EngineGame, IllegalAction
from crisis.interpreter.engine.layout import NOBODY
from crisis.interpreter.engine.ops import Ctx
from crisis.ruleset.diagnostics import Diagnostic, UserError, did_you_mean, one_of, shown

from . import inplay
from .invariants import check_position
from .notation import ActionReader, NotationError, ParsedAction

ENGINE_POSITION_KEYS = ("phase", "last_play", "dice")
CHOICE_KEYS = ("table", "legal", "skipped", "decided_by", "dice", "chosen", "priority", "line", "option",
               "criterion", "first_of")
SCENARIO_KEYS = ("name", "seed", "options", "position", "actions", "expect", "covers", "note")
CHECK_KEYS = ("legal", "illegal", "decision")
DECISION_KEYS = ("player", "kind")
PILE_KEYS = ("top", "size")
# YAML 1.1 reads a bare `off` as false: both mean "off the map" for a marker
OFF = (None, False, "off")

PASSED, FAILED, NOT_RUN = "passed", "failed", "not run"


@attrs.define
class Outcome:
    file: str
    name: str
    status: str  # PASSED, FAILED or NOT_RUN
    problems: List[str] = attrs.field(factory=list)  # why it failed
    diagnostics: List[Diagnostic] = attrs.field(factory=list)  # why it could not be run
    line: int = 1
    # where it failed first: the last action as written, and what the game logged from it on (the
    # engine takes a choice of one action itself, and plays on to the next decision): what a
    # designer reads to see why the game stood elsewhere than expected
    last_action: Optional[str] = None
    went_on: list = attrs.field(factory=list)

    @property
    def passed(self) -> bool:
        return self.status == PASSED

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


class ScenarioError(UserError):
    """The scenario file itself is wrong (not a failing expectation)."""


class Bag(list):
    """An expected collection whose order does not matter (compared as a multiset)."""


@attrs.frozen
class Pile:
    """An expected card pile: the whole of it (``cards``), or its ``top`` cards and/or its ``size``."""

    cards: Optional[List[str]] = None
    top: Optional[List[str]] = None
    size: Optional[int] = None


@attrs.frozen
class Check:
    where: str
    legal: Tuple[ParsedAction, ...] = ()
    illegal: Tuple[ParsedAction, ...] = ()
    decision: Any = attrs.field(default=(), eq=False)  # () = not checked, None = game over, else (player, kind)


class Parts:
    """What each scenario key names in one game's schema."""

    def __init__(self, program):
        from crisis.content.schema import scenario_part
        schema = program.schema
        self.program = program
        self.keys: Dict[str, Tuple] = {}
        for key, name in schema.scenario_keys.items():
            part = scenario_part(schema, name)  # (a key that names nothing is refused when the content loads)
            if part is not None:
                self.keys[key] = part

    def key_for(self, kind: str, index: int = -1) -> Optional[str]:
        for key, part in self.keys.items():
            if part[0] == kind and (index < 0 or part[1] == index):
                return key
        return None


def key_of_step(name: str) -> str:
    return name.replace(" ", "_")


# ------------------------------------------------------------------ reading


class _Names:
    """What every scenario of one game program reads its names against: worked out once per program."""

    def __init__(self, program):
        schema = program.schema
        self.parts = Parts(program)
        self.actions = ActionReader(program)
        self.step_list = list(program.step_names())
        self.names: Dict[str, List[str]] = {
            "side": list(schema.sides), "place": list(schema.map.places),
            "zone": [z.name for t in schema.tracks for z in t.zones], "marker": [m.name for m in schema.markers],
            # the steps a game may start at (and be in): those of the sequence of play itself
            "phase": [key_of_step(s) for s in self.step_list
                      if _path_to_step(program, program.play, s) is not None] + ["game_over"],
            "decision kind": list(self.actions.kinds),
            "difficulty": list(program.automa_rules.difficulty) if program.automa_rules else [],
            "table": ["place", "remove"]}
        for index, kind in enumerate(schema.card_kinds):
            self.names[card_word(kind.name)] = list(program.cards[index].ids)
        self.place_word = schema.map.place_words[0] if schema.map.place_words else "place"
        self.shapes: Optional[Dict[str, tuple]] = None
        self.paths: Dict[str, Any] = {}  # a step's name -> the operations on the way to it (start_at_step)
        # who the game plays in a solo game (the overlay's first role), as scenario messages name it
        self.automa = program.automa_rules.overlay.roles[0] if program.automa_rules and \
            program.automa_rules.overlay.roles else "automa"


_NAMES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def names_of(program) -> _Names:
    found = _NAMES.get(program)
    if found is None:
        found = _NAMES[program] = _Names(program)
    return found


def position_keys(program) -> List[str]:
    """The keys a scenario's position may have in this game: its schema's scenario keys, and a few
    every game has."""
    return list(names_of(program).parts.keys) + list(ENGINE_POSITION_KEYS)


def expect_keys(program) -> List[str]:
    """The keys a scenario's ``expect`` may have in this game."""
    shared = names_of(program)
    if shared.shapes is None:
        shared.shapes = _Reader(None, program).expect_shapes()
    return list(shared.shapes) + ["legal", "not_legal", "decision", "choices"]


def card_word(kind_name: str) -> str:
    """A card kind's name in the singular ("strategy cards" -> "strategy card")."""
    return kind_name[:-1] if kind_name.endswith("s") else kind_name


class _Reader:
    """Reads one scenario's YAML into a game, reporting mistakes at their line."""

    def __init__(self, file: YamlFile, program):
        self.file = file
        self.program = program
        self.schema = program.schema
        shared = self.shared = names_of(program)
        self.parts = shared.parts
        self.actions = shared.actions
        self.step_list = shared.step_list
        self.names = shared.names
        self.place_word = shared.place_word
        self.errors: List[Diagnostic] = []
        self.placed: Dict[Tuple[int, int], str] = {}  # (card kind, card) -> where the position puts it ("hands.Unionist")
        self.dice: Tuple[Any, Any] = (None, [])  # where the fixed die rolls are written, and the rolls

    def card_word(self, kind: int) -> str:
        return card_word(self.schema.card_kinds[kind].name)

    def pile_word(self, pile: int) -> str:
        return self.card_word(self.program.kind_index[self.schema.piles[pile].kind])

    # --------------------------------------------------------- reporting
    def position_of(self, container, key):
        if isinstance(container, Map) and key in container.value_positions:
            return container.value_positions[key]
        if isinstance(container, Seq) and isinstance(key, int) and key < len(container.positions):
            return container.positions[key]
        if hasattr(container, "line"):
            return container.line, container.column
        return None

    def key_position(self, container, key):
        if isinstance(container, Map) and key in container.key_positions:
            return container.key_positions[key]
        return self.position_of(container, key)

    def error(self, container, key, message: str, expected: Optional[str] = None, hint: Optional[str] = None,
              at_key: bool = False, part: Optional[Tuple[str, str]] = None):
        """A problem at the value (or key) of ``container[key]``; ``part``: (the value's text, the
        words of it the problem is about), pointed at and underlined where the file shows them."""
        position = self.key_position(container, key) if at_key else self.position_of(container, key)
        width = 1
        if part is not None and position is not None:
            position, width = self._part_at(position, *part)
        self.errors.append(self.file.diagnostic(position, message, expected=expected, hint=hint, width=width))

    def _part_at(self, position, whole: str, part: str):
        """Where ``part`` of the text ``whole`` (written at ``position``, plain or quoted) stands."""
        line, column = position
        written = self.file.lines[line - 1][column - 1:] if 1 <= line <= len(self.file.lines) else ""
        quoted = written[:1] in ("'", '"')
        at = whole.find(part)
        if at < 0 or not written[int(quoted):].startswith(whole[:at + len(part)]):
            return position, 1
        return (line, column + int(quoted) + at), max(1, len(part))

    def lookup(self, container, key, value, names: Sequence[str], what: str, at_key: bool = False) -> int:
        """The index of ``value`` among ``names``; else an error at the name itself: at the key when
        the name is a key (``at_key``), at the entry when ``container`` is a list and ``key`` its
        index, else at the value."""
        if isinstance(value, str):
            try:
                return names.index(value)
            except ValueError:
                pass
        names = list(names)
        guess = did_you_mean(str(value), names)
        position = self.key_position(container, key) if at_key else self.position_of(container, key)
        position, width = marked(self.file, position, value)
        self.errors.append(self.file.diagnostic(position, f"unknown {what} '{value}'", width=width,
                                                expected=f"a {what}: {one_of(names)}",
                                                hint=f"did you mean '{guess}'?" if guess else None))
        return NOBODY

    def name(self, container, key, value, what: str, at_key: bool = False) -> Optional[str]:
        names = self.names[what]
        index = self.lookup(container, key, value, names, self.what(what), at_key=at_key)
        return None if index == NOBODY else names[index]

    @staticmethod
    def entry(values, container, key, index: int):
        """Where entry ``index`` of ``values`` (the value at ``container[key]``) is written."""
        return (values, index) if isinstance(values, Seq) else (container, key)

    def what(self, what: str) -> str:
        return self.place_word if what == "place" else what

    def mapping(self, container, key, what: str) -> Optional[Map]:
        value = container[key]
        if isinstance(value, Map):
            return value
        self.error(container, key, f"'{key}' should be a mapping", expected=what)
        return None

    def per_side(self, spec, key) -> Dict[int, Any]:
        value = self.mapping(spec, key, f"each side mapped to a value, for example {{{self.schema.sides[0]}: ...}}")
        out = {}
        for side_name in value or ():
            side = self.lookup(value, side_name, side_name, self.schema.sides, "side", at_key=True)
            if side != NOBODY:
                out[side] = (value, side_name, value[side_name])
        return out

    def cards(self, container, key, values, kind: int, place: Optional[str] = None) -> List[int]:
        """The cards a list names; with ``place`` (where they are, as written: 'hands.Unionist'),
        a card already listed in another place, or twice in this one, is refused at its entry."""
        what = self.card_word(kind)
        given = values
        if not isinstance(values, list):
            values = [values]
        out = []
        for number, value in enumerate(values):
            at = self.entry(given, container, key, number)
            card = self.lookup(*at, value, self.program.cards[kind].ids, what)
            if card == NOBODY:
                continue
            if place is not None:
                elsewhere = self.placed.get((kind, card))
                if elsewhere is not None:
                    where = "twice in " + place if elsewhere == place else f"in {elsewhere} and in {place}"
                    self.error(*at, f"{what} '{value}' is listed {where}",
                               hint="each card is in one place only: a hand, a deck, a discard pile...")
                    continue
                self.placed[(kind, card)] = place
            out.append(card)
        return out

    def number(self, container, key, low=0, high=None) -> Optional[int]:
        value = container[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
            bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
            self.error(container, key, f"'{key}' should be a whole number {bounds}", hint=f"got {value!r}")
            return None
        return value

    def keys(self, spec: Map, allowed: Sequence[str], what: str) -> None:
        for key in spec:
            if key not in allowed:
                guess = did_you_mean(str(key), allowed)
                self.errors.append(self.file.diagnostic(spec.key_positions[key], f"unknown key '{key}' in {what}",
                                                        width=len(str(key)),
                                                        expected=one_of(list(allowed), limit=30),
                                                        hint=f"did you mean '{guess}'?" if guess else None))

    def roll_problem(self, error: FixedRollError) -> Diagnostic:
        """A fixed die roll the die cannot show, at its place in ``dice``."""
        position, rolls = self.dice
        index = len(rolls) - error.left - 1
        container, key = (rolls, index) if isinstance(rolls, Seq) else (position, "dice")
        return self.file.diagnostic(self.position_of(container, key), f"die roll {index + 1}: {error}",
                                    hint="a die roll between two to six things is of a six-sided die, "
                                         "of seven to twelve of a twelve-sided die")

    # -------------------------------------------------------------- position
    def build(self, spec: Map) -> EngineGame:
        seed = 1
        if "seed" in spec:
            seed = self.number(spec, "seed", 0)
            seed = 1 if seed is None else seed
        options: Dict[str, Any] = {}
        if "options" in spec:
            example = f"{{{self.option_names[0]}: true}}" if self.option_names else "{solo: <a side>}"
            given = self.mapping(spec, "options", f"game options, for example {example}")
            if given is not None:
                options = self.options(given)
        position_spec = spec.get("position")
        if position_spec is None:
            position_spec = Map()
            position_spec.line, position_spec.column = spec.line, spec.column
            position_spec.key_positions, position_spec.value_positions = {}, {}
        elif not isinstance(position_spec, Map):
            self.error(spec, "position", "'position' should be a mapping")
            position_spec = Map()
            position_spec.line, position_spec.column, position_spec.key_positions, position_spec.value_positions = \
                1, 1, {}, {}
        self.keys(position_spec, tuple(self.parts.keys) + ENGINE_POSITION_KEYS, "a position")
        program = self.program
        position = program.initial_position(seed)
        # setup (the shuffles) as in play; then the position's parts over it
        from crisis.interpreter.engine.machine import Machine
        setup = Machine(program, position)
        setup.start(program.setup, Ctx(0))
        self.board = setup.board  # reads the position the scenario gives (the first player, below)
        solo = options.get("solo")
        if solo is not None and program.automa_rules is not None:
            level = options.get("difficulty") or program.automa_rules.default_difficulty
            side = self.schema.sides.index(solo)
            for counter, value in program.automa_rules.difficulty.get(level, ()):
                position.values[program.layout.counter[counter] + side] = value
        step = self.apply_position(position, position_spec)
        if self.errors:
            raise ScenarioError(self.errors)
        position.stack[:] = []
        flags = frozenset(k for k, v in options.items() if v is True)
        if step is not None:
            if not start_at_step(program, position, step):
                self.error(position_spec, "phase", f"the sequence of play has no step '{step}'")
                raise ScenarioError(self.errors)
            return EngineGame(program, seed, flags, position=position, solo=solo,
                              difficulty=options.get("difficulty"))
        return EngineGame(program, seed, flags, position=position, solo=solo, difficulty=options.get("difficulty"),
                          play=True)

    @property
    def option_names(self) -> tuple:
        """The game's optional rules, as a scenario names them (with underscores)."""
        from crisis.interpreter.engine.game import option_names
        return option_names(self.program)

    def options(self, given: Map) -> Dict[str, Any]:
        """Game options: the game's optional rules, true or false; the solo game's side and
        difficulty (names)."""
        fields = [*self.option_names, "solo", "difficulty"]
        self.keys(given, fields, "options")
        found = {}
        for key in (k for k in given if k in fields):
            value = given[key]
            if key == "solo":
                found[key] = self.name(given, key, value, "side")
            elif key == "difficulty":
                found[key] = self.name(given, key, value, "difficulty") if self.names["difficulty"] else None
            elif isinstance(value, bool):
                found[key] = value
            else:
                self.error(given, key, f"'{key}' should be true or false", hint=f"got {value!r}")
        if found.get("difficulty") is not None and found.get("solo") is None:
            self.error(given, "difficulty", "a difficulty is only for a solo game: give the side the game plays too")
        return {k: v for k, v in found.items() if v is not None}

    def apply_position(self, position, p: Map) -> Optional[str]:
        """The position's parts over the set-up one; the step the game starts at (None: the start)."""
        program, schema, layout = self.program, self.schema, self.program.layout
        values = position.values
        everything = self.parts.keys
        parts = {key: part for key, part in everything.items() if key in p}  # the parts the position gives
        step = None
        if "phase" in p:
            phase = self.name(p, "phase", p["phase"], "phase")
            if phase is not None:
                step = phase.replace("_", " ") if phase != "game_over" else "game_over"
        # counters and registers
        for key, part in parts.items():
            if key not in p or part[0] != "counter":
                continue
            counter = schema.counters[part[1]]
            offset = layout.counter[part[1]]
            if counter.each_side:
                for side, (container, name, value) in self.per_side(p, key).items():
                    n = self.number(container, name, counter.low, counter.high)
                    if n is not None:
                        values[offset + side] = n
            else:
                n = self.number(p, key, counter.low, counter.high)
                if n is not None:
                    values[offset] = n
        # cards: listed cards leave the piles that start with every card (the decks); the rest keep
        # the seed's shuffle
        used: Dict[int, set] = {}
        for key, part in parts.items():
            if key not in p or part[0] != "pile" or schema.piles[part[1]].starts_with_all:
                continue
            number = part[1]
            pile = schema.piles[number]
            kind = program.kind_index[pile.kind]
            if pile.each_side:
                for side, (container, name, value) in self.per_side(p, key).items():
                    if pile.at_most == 1 and value in OFF:
                        cards = []
                    else:
                        cards = self.cards(container, name, value, kind, place=f"{key}.{name}")
                    position.piles[layout.pile(number, side)] = cards
                    used.setdefault(kind, set()).update(cards)
            else:
                cards = self.cards(p, key, p[key], kind, place=key)
                position.piles[layout.pile(number)] = cards
                used.setdefault(kind, set()).update(cards)
        if "dice" in p:  # die rolls fixed in advance, used in order before the game's generator
            rolls = p["dice"] if isinstance(p["dice"], list) else [p["dice"]]
            self.dice = (p, rolls)
            for index, roll in enumerate(rolls):
                if not isinstance(roll, int) or isinstance(roll, bool) or not 1 <= roll <= 12:
                    self.error(p, "dice", f"die roll {index + 1} should be a whole number from 1 to 12",
                               hint=f"got {roll!r}")
            position.dice = [r for r in rolls if isinstance(r, int) and not isinstance(r, bool)]
        for key, part in parts.items():
            if key in p and part[0] == "in play":
                inplay.apply(self, position, p, key, used)
        inplay.decks_per_side(self, position, p, used)  # the decks each side keeps (not in the loop below)
        for number, pile in enumerate(schema.piles):
            if not pile.starts_with_all or pile.each_side:
                continue
            index = layout.pile(number)
            kind = program.kind_index[pile.kind]
            taken = used.get(kind, set())
            deck = [c for c in position.piles[index] if c not in taken]
            key = self.parts.key_for("pile", number)
            if key is not None and key in p:
                top = self.cards(p, key, p[key], kind, place=key)
                deck = [c for c in deck if c not in top] + list(reversed(top))  # the first listed is on top
            position.piles[index] = deck
        if "last_play" in p:
            self.last_play(position, p)
        self.apply_tokens(position, p)
        for key, part in parts.items():
            if key not in p:
                continue
            if part[0] == "entered":
                self.entered(position, p, key, part[1])
        for key, part in everything.items():
            if part[0] == "entry":
                self.entry_order(position, p, key, part[1])
        for key, part in parts.items():
            if key in p and part[0] == "markers":
                markers = self.mapping(p, key, "markers mapped to places (off = off the map)")
                for marker_name in markers or ():
                    marker = self.lookup(markers, marker_name, marker_name, self.names["marker"], "marker",
                                         at_key=True)
                    if marker != NOBODY:
                        value = markers[marker_name]
                        values[layout.marker + marker] = (NOBODY if value in OFF else
                                                          self.lookup(markers, marker_name, value,
                                                                      schema.map.places, self.place_word))
        for key, part in everything.items():
            if part[0] != "register":
                continue
            offset = layout.register[part[1]]
            if key in p:
                values[offset] = self.lookup(p, key, p[key], schema.sides, "side")
            else:  # as the sequence of play would have set it: the first player
                values[offset] = self.board.first_player()
        return step

    def last_play(self, position, p: Map) -> None:
        program, layout = self.program, self.program.layout
        lp = p["last_play"]
        if isinstance(lp, Map) and {"side", "card"} <= set(lp):
            uses = [u.name for u in program.uses]
            self.keys(lp, ("side", "card", "mode"), "last_play")
            cards = self.cards(lp, "card", lp["card"], program.played_kind)
            mode = str(lp.get("mode", uses[0] if uses else ""))
            if mode not in uses:
                self.lookup(lp, "mode", mode, uses, "mode")
            elsewhere = self.placed.get((program.played_kind, cards[0])) if cards else None
            played_key = self.parts.key_for("pile", program.played_pile)
            if elsewhere not in (None, played_key):
                pile = self.schema.piles[program.played_pile].name
                self.error(lp, "card", f"{self.card_word(program.played_kind)} '{lp['card']}' is in {elsewhere}, so "
                                       f"it cannot be the card just played (which is on the {pile})")
            elif cards:
                card = cards[0]
                values = position.values
                values[layout.last_side] = self.lookup(lp, "side", lp["side"], self.schema.sides, "side")
                values[layout.last_card] = card
                values[layout.last_use] = uses.index(mode) if mode in uses else NOBODY
                played = position.piles[program.played_pile_index]
                if card not in played:  # it leaves the deck it was in
                    played.append(card)
                    kind = self.schema.card_kinds[program.played_kind].name
                    for number, pile in enumerate(self.schema.piles):
                        if pile.starts_with_all and pile.kind == kind and card in position.piles[layout.pile(number)]:
                            position.piles[layout.pile(number)].remove(card)
        else:
            self.error(p, "last_play", "'last_play' needs a side and a card", expected="{side: ..., card: ...}")

    def entered(self, position, p: Map, key: str, track: int) -> None:
        layout = self.program.layout
        zones = [z.name for z in self.schema.tracks[track].zones]
        for side, (container, name, value) in self.per_side(p, key).items():
            for number, zone_name in enumerate(value if isinstance(value, list) else [value]):
                zone = self.lookup(*self.entry(value, container, name, number), zone_name, zones, "zone")
                if zone != NOBODY:
                    position.values[layout.entered + layout.zone_slot(side, track, zone)] = 1

    def entry_order(self, position, p: Map, key: Optional[str], track: int) -> None:
        """Who entered each zone first: from the zones entered (every zone a side entered, with
        its effect, in side order), unless the position says."""
        program, layout, values = self.program, self.program.layout, position.values
        sides = len(self.schema.sides)
        for zone, declared in enumerate(self.schema.tracks[track].zones):
            base = layout.entry_order + (layout.zone_base[track] + zone) * sides
            entered = [s for s in range(sides) if program.entering[track][zone] is not None
                       and values[layout.entered + layout.zone_slot(s, track, zone)]]
            for k in range(sides):
                values[base + k] = entered[k] if k < len(entered) else NOBODY
        if key is None or key not in p:
            return
        zones = [z.name for z in self.schema.tracks[track].zones]
        order = self.mapping(p, key, "zones mapped to sides, first first")
        for zone_name in order or ():
            zone = self.lookup(order, zone_name, zone_name, zones, "zone", at_key=True)
            if zone == NOBODY:
                continue
            given = order[zone_name]
            names = given if isinstance(given, list) else [given]
            found = [self.lookup(*self.entry(given, order, zone_name, number), s, self.schema.sides, "side")
                     for number, s in enumerate(names)]
            base = layout.entry_order + (layout.zone_base[track] + zone) * sides
            for k in range(sides):
                values[base + k] = found[k] if k < len(found) else NOBODY

    def apply_tokens(self, position, p: Map) -> None:
        """Tokens on the map, in holders, boxes and tracks; each side's tokens must add up, blamed on
        the key that overflows.  A track not given holds whatever the others do not."""
        schema, layout = self.schema, self.program.layout
        tokens = schema.tokens
        if tokens is None:
            return
        values = position.values
        parts = self.parts.keys
        sides = len(schema.sides)
        sources: List[Dict[str, Tuple[int, Any, Any]]] = [{} for _ in range(sides)]
        key = self.parts.key_for("tokens")
        if key is not None and key in p:
            given = self.mapping(p, key, f"{self.place_word}s mapped to {{side: count}}")
            for place_name in given or ():
                place = self.lookup(given, place_name, place_name, schema.map.places, self.place_word, at_key=True)
                if place == NOBODY or not isinstance(given[place_name], Map):
                    if place != NOBODY:
                        self.error(given, place_name, f"{tokens.words[-1]} are given per side, as {{SIDE: count}}")
                    continue
                for side, (container, name, value) in self.per_side(given, place_name).items():
                    n = self.number(container, name, 0, tokens.at_most_per_place)
                    if n is not None:
                        values[layout.tokens_of(side) + place] = n
                        sources[side]["map"] = (-1, container, name)  # the count is known once all are given
            for side in range(sides):
                if "map" in sources[side]:
                    sources[side]["map"] = (self.on_map(values, side),) + sources[side]["map"][1:]
        holder_names = [h.name for h in tokens.holders]
        for key, part in parts.items():
            if key in p and part[0] == "holder":
                for side, (container, name, value) in self.per_side(p, key).items():
                    n = self.number(container, name, 0)
                    if n is not None:
                        values[layout.holder_of(side, part[1])] = n
                        sources[side][holder_names[part[1]]] = (n, container, name)
            if key in p and part[0] == "boxes":
                track = part[1]
                zones = [z.name for z in schema.tracks[track].zones]
                for side, (container, name, value) in self.per_side(p, key).items():
                    if not isinstance(value, Map):
                        self.error(container, name, "boxes are given per zone, as {ZONE: count}")
                        continue
                    for zone_name in value:
                        zone = self.lookup(value, zone_name, zone_name, zones, "zone", at_key=True)
                        if zone != NOBODY:
                            n = self.number(value, zone_name, 0, schema.tracks[track].zones[zone].box)
                            if n is not None:
                                values[layout.box + layout.zone_slot(side, track, zone)] = n
                    sources[side]["boxes"] = (self.in_boxes(values, side), container, name)
        for t, track in enumerate(schema.tracks):
            key = self.parts.key_for("track", t)
            given = self.per_side(p, key) if key is not None and key in p else {}
            for side in range(sides):
                on_map, in_boxes = self.on_map(values, side), self.in_boxes(values, side)
                held = [values[layout.holder_of(side, h)] for h in range(layout.holders)]
                off_track = on_map + sum(held) + in_boxes
                name = schema.sides[side]
                offset = layout.track_of(side, t)
                if side in given:
                    container, k, _ = given[side]
                    n = self.number(container, k, 0, track.spaces)
                    if n is None:
                        continue
                    values[offset] = n
                    if off_track + n != tokens.each_side:
                        parts_text = _parts_text(on_map, holder_names, held, in_boxes)
                        self.error(container, k, f"the {name} position holds {off_track + n} tokens "
                                                 f"({parts_text}, track {n}), not {tokens.each_side}",
                                   hint=f"each side has {tokens.each_side}: map, {', '.join(holder_names)}, boxes "
                                        f"and {track.name} together (leave out '{key}' to have it computed)")
                else:
                    values[offset] = tokens.each_side - off_track
                    if values[offset] < 0 or values[offset] > track.spaces:
                        blame = max(sources[side].values(), key=lambda s: s[0], default=None)
                        container, k = (blame[1], blame[2]) if blame else (p, None)
                        parts_text = _parts_text(on_map, holder_names, held, in_boxes)
                        if values[offset] < 0:
                            message = (f"the {name} position holds {off_track} tokens off the {track.name} "
                                       f"({parts_text}), more than the {tokens.each_side} a side has")
                        else:
                            message = (f"the {name} position leaves {values[offset]} tokens for the {track.name} "
                                       f"({parts_text}), which holds at most {track.spaces}")
                        self.error(container, k, message,
                                   hint=f"each side has {tokens.each_side}: map, {', '.join(holder_names)}, "
                                        f"boxes and {track.name} together")
                # zones whose top space is uncovered have been entered (as in play)
                for z, zone in enumerate(track.zones):
                    if values[offset] <= zone.top:
                        values[layout.entered + layout.zone_slot(side, t, z)] = 1

        if not schema.tracks:
            self.balance_in_holder(values, p, sources, holder_names)

    def balance_in_holder(self, values, p: Map, sources, holder_names) -> None:
        """A game without a track: the first holder of the supply that the position does not give
        holds whatever the others do not (a position gives only what matters to it)."""
        schema, layout = self.schema, self.program.layout
        tokens = schema.tokens
        for side, name in enumerate(schema.sides):
            given = sources[side]
            free = [h for h in tokens.supply if h in holder_names and h not in given]
            free += [h for h in holder_names if h not in given and h not in free]
            total = self.on_map(values, side) + sum(values[layout.holder_of(side, h)] for h in range(layout.holders))
            if free:
                offset = layout.holder_of(side, holder_names.index(free[0]))
                total -= values[offset]
                values[offset] = tokens.each_side - total
                if values[offset] >= 0:
                    continue
            elif total == tokens.each_side:
                continue
            blame = max(given.values(), key=lambda s: s[0], default=None)
            container, key = (blame[1], blame[2]) if blame else (p, None)
            self.error(container, key, f"the {name} position holds {total} {tokens.words[-1]}, more than the "
                                       f"{tokens.each_side} a side has" if total > tokens.each_side else
                       f"the {name} position holds {total} {tokens.words[-1]}, not {tokens.each_side}")

    def on_map(self, values, side: int) -> int:
        layout = self.program.layout
        base = layout.tokens_of(side)
        return sum(values[base:base + layout.places])

    def in_boxes(self, values, side: int) -> int:
        layout = self.program.layout
        return sum(values[layout.box + layout.zone_slot(side, t, z)]
                   for t, track in enumerate(self.schema.tracks) for z in range(len(track.zones)))

    # ------------------------------------------------------------- actions
    def texts(self, container, key) -> Tuple[ParsedAction, ...]:
        value = container[key]
        values = value if isinstance(value, list) else [value]
        out = []
        for index, text in enumerate(values):
            where_container, where_key = (value, index) if isinstance(value, Seq) else (container, key)
            if not isinstance(text, (str, int)) or isinstance(text, bool):
                self.error(where_container, where_key, f"'{text}' is not an action text",
                           expected=f"an action in the notation, such as 'place {self.schema.map.places[0]}'")
                continue
            try:
                out.append(self.actions.parse(str(text)))
            except NotationError as error:
                self.error(where_container, where_key, f"'{text}': {error.message}", expected=error.expected,
                           hint=error.hint, part=(str(text), error.part) if error.part else None)
        return tuple(out)

    def decision_check(self, container, key):
        value = container[key]
        if value is None:
            return None
        record = self.mapping(container, key, "{player: SIDE, kind: KIND} (or null once the game is over)")
        if record is None:
            return ()
        self.keys(record, DECISION_KEYS, "a decision")
        player = kind = None
        if "player" in record:
            player = self.name(record, "player", record["player"], "side")
        if "kind" in record:
            kind = self.name(record, "kind", record["kind"], "decision kind")
        if not record:
            self.error(container, key, "a decision check names a player, a kind or both",
                       expected="{player: SIDE, kind: KIND}")
        return player, kind

    def steps(self, spec: Map) -> List[Tuple[str, Any]]:
        actions = spec.get("actions")
        if actions is None:
            return []
        if not isinstance(actions, Seq):
            self.error(spec, "actions", "'actions' should be a list")
            return []
        out = []
        for index, step in enumerate(actions):
            where = f"action {index + 1}"
            if isinstance(step, Map):
                self.keys(step, CHECK_KEYS, "a check")
                if not any(k in step for k in CHECK_KEYS):
                    if not step:
                        self.error(actions, index, "a check needs 'legal', 'illegal' or 'decision'",
                                   expected="{legal: ...}, {illegal: ...} or {decision: {player: ..., kind: ...}}")
                    continue
                out.append((where, Check(
                    where, legal=self.texts(step, "legal") if "legal" in step else (),
                    illegal=self.texts(step, "illegal") if "illegal" in step else (),
                    decision=self.decision_check(step, "decision") if "decision" in step else ())))
            elif isinstance(step, (str, int)) and not isinstance(step, bool):
                parsed = self.texts(actions, index)
                if parsed:
                    out.append((where, parsed[0]))
            else:
                self.error(actions, index, f"{where} is neither an action text nor a check",
                           expected=f"an action such as 'place {self.schema.map.places[0]}', or {{legal: ...}}, "
                                    "{illegal: ...}, {decision: ...}")
        return out

    # ------------------------------------------------------------ expect
    def expect_shapes(self) -> Dict[str, tuple]:
        counts = ("map", "side", ("count",))
        shapes: Dict[str, tuple] = {"phase": ("phase",), "over": ("bool",), "winner": ("maybe", ("side",)),
                                    "tie_break": ("maybe", ("count",)), "first_player": ("side",)}
        for key, part in self.parts.keys.items():
            kind = part[0]
            if kind == "counter":
                # a counter's expected value within its own bounds (a battle's total may be below 0)
                counter = self.schema.counters[part[1]]
                value = ("count", counter.low, counter.high)
                shapes[key] = ("map", "side", value) if counter.each_side else value
            elif kind == "register":
                shapes[key] = ("side",)
            elif kind in ("holder", "track"):
                shapes[key] = counts
            elif kind == "tokens":
                shapes[key] = ("map", "place", counts)
            elif kind == "boxes":
                shapes[key] = ("map", "side", ("map", "zone", ("count",)))
            elif kind == "markers":
                shapes[key] = ("map", "marker", ("maybe", ("place",)))
            elif kind == "in play":
                shapes[key] = ("in play",)
            elif kind == "entered":
                shapes[key] = ("map", "side", ("bag", "zone"))
            elif kind == "entry":
                shapes[key] = ("map", "zone", ("list", "side"))
            elif kind == "pile":
                pile = self.schema.piles[part[1]]
                word = self.pile_word(part[1])
                if pile.each_side and pile.at_most == 1:
                    shapes[key] = ("map", "side", ("maybe", (word,)))
                elif pile.each_side:
                    shapes[key] = ("map", "side", ("pile" if pile.ordered else "bag", word))
                elif pile.ordered:
                    shapes[key] = ("pile", word)
                else:
                    shapes[key] = ("bag", word)
        return shapes

    def expect(self, spec: Map) -> Tuple[Dict[str, Any], Optional[Check]]:
        expect = spec.get("expect")
        if expect is None:
            return {}, None
        if not isinstance(expect, Map):
            self.error(spec, "expect", "'expect' should be a mapping")
            return {}, None
        shapes = self.shared.shapes
        if shapes is None:
            shapes = self.shared.shapes = self.expect_shapes()
        self.keys(expect, tuple(shapes) + ("legal", "not_legal", "decision", "choices"), "expect")
        wanted: Dict[str, Any] = {}
        for key in expect:
            if key in shapes:
                wanted[key] = self.shaped(expect, key, shapes[key])
        if "choices" in expect:
            wanted["choices"] = self.choices(expect)
        check = None
        if any(k in expect for k in ("legal", "not_legal", "decision")):
            check = Check("expect", legal=self.texts(expect, "legal") if "legal" in expect else (),
                          illegal=self.texts(expect, "not_legal") if "not_legal" in expect else (),
                          decision=self.decision_check(expect, "decision") if "decision" in expect else ())
        return wanted, check

    def choices(self, expect: Map) -> "Choices":
        items = expect["choices"] if isinstance(expect["choices"], list) else [expect["choices"]]
        out = []
        for index, item in enumerate(items):
            if not isinstance(item, Map):
                self.error(expect, "choices", f"choice {index + 1} should be a mapping",
                           expected=f"keys: {one_of(list(CHOICE_KEYS))}")
                continue
            self.keys(item, CHOICE_KEYS, "an expected choice")
            wanted = {}
            for key in (k for k in item if k in CHOICE_KEYS):
                value = item[key]
                if key == "chosen":
                    wanted[key] = self.name(item, key, value, "place")
                elif key == "legal":
                    wanted[key] = Bag(self.name(*self.entry(value, item, key, number), v, "place")
                                      for number, v in enumerate(value if isinstance(value, list) else [value]))
                elif key == "table":
                    wanted[key] = self.name(item, key, value, "table")
                elif key == "priority":
                    wanted[key] = self.name(item, key, value, "marker")
                elif key in ("skipped", "dice"):
                    wanted[key] = [v for v in (value if isinstance(value, list) else [value])]
                elif key == "decided_by":
                    wanted[key] = self.decided_by(item, value)
                else:
                    wanted[key] = value
            out.append(wanted)
        return Choices(out)

    def decided_by(self, item: Map, value) -> Any:
        """What decided a solo choice: a die, the only legal choice, a table's row (a row the table
        has), or the solo opponent's own ways (first, stop, holder); anything else could never
        match, so it is refused before the scenario runs, not failed after."""
        rules = self.program.automa_rules
        tables = [rows for side in (rules.tables.values() if rules is not None else ()) for rows in side.items()]
        named = [len(rows) for name, rows in tables if name == item.get("table")]
        most = max(named or [len(rows) for _, rows in tables] or [0])
        row = re.fullmatch(r"row (\d+)", str(value))
        if row is not None and 1 <= int(row.group(1)) <= most:
            return value
        ways = ["die", "only legal", "first", "stop", "holder"]
        if isinstance(value, str) and value in ways:
            return value
        guess = did_you_mean(str(value), ways + [f"row {n}" for n in range(1, most + 1)])
        what = f"row N (N from 1 to {most})" if most else "row N"
        self.error(item, "decided_by", f"'decided_by' cannot be '{shown(str(value))}'",
                   expected=f"die, only legal, {what}, first, stop or holder",
                   hint=f"did you mean '{guess}'?" if guess else None)
        return value

    def shaped(self, container, key, shape) -> Any:
        """The expected value at ``container[key]``, read by ``shape`` and checked against the game's names."""
        value = container[key]
        kind = shape[0]
        if kind == "in play":
            return inplay.expected(self, container, key)
        if kind == "map":
            _, what, inner = shape
            given = self.mapping(container, key, f"{self.what(what)}s mapped to expected values")
            out = {}
            for name in given or ():
                if self.name(given, name, name, what, at_key=True) is not None:
                    out[name] = self.shaped(given, name, inner)
            return out
        if kind == "maybe":
            return None if value in OFF else self.shaped(container, key, shape[1])
        if kind in ("bag", "list"):
            values = value if isinstance(value, list) else [value]
            out = [self.name(*self.entry(value, container, key, number), v, shape[1])
                   for number, v in enumerate(values)]
            return Bag(out) if kind == "bag" else out
        if kind == "pile":
            if isinstance(value, Map):
                self.keys(value, PILE_KEYS, key)
                top = self.shaped(value, "top", ("list", shape[1])) if "top" in value else None
                size = self.number(value, "size", 0) if "size" in value else None
                return Pile(top=top, size=size)
            return Pile(cards=self.shaped(container, key, ("list", shape[1])))
        if kind == "count":  # a whole number within the shape's bounds (a counter's own), else at least 0
            return self.number(container, key, *(shape[1:] if len(shape) > 1 else (0,)))
        if kind == "bool":
            if not isinstance(value, bool):
                self.error(container, key, f"'{key}' should be true or false", hint=f"got {value!r}")
            return value
        return self.name(container, key, value, kind)


def _parts_text(on_map: int, holder_names, held, in_boxes: int) -> str:
    """Where a side's tokens off its track are, for a message: 'map 0, pool 20, boxes 9'."""
    return ", ".join([f"map {on_map}"] + [f"{h} {n}" for h, n in zip(holder_names, held)] + [f"boxes {in_boxes}"])


def marked(file: YamlFile, position, value):
    """(position, width) of a name written at ``position``: the whole name underlined (past an
    opening quote), or a single caret where the text there is not the name."""
    if position is None:
        return position, 1
    line, column = position
    text = file.lines[line - 1][column - 1:] if 1 <= line <= len(file.lines) else ""
    shown = str(value)
    if text[:1] in ("'", '"') and text[1:].startswith(shown):
        return (line, column + 1), max(1, len(shown))
    return position, max(1, len(shown)) if shown and text.startswith(shown) else 1


def start_at_step(program, position, step: str) -> bool:
    """Stand the position at the start of a named step of the sequence of play: the frames of the
    loops and blocks on the way to it, as if play had just reached it."""
    if step == "game_over":
        position.stack[:] = []
        return True
    paths = names_of(program).paths
    if step not in paths:
        paths[step] = _path_to_step(program, program.play, step)
    path = paths[step]
    if path is None:
        return False
    stack = position.stack
    stack[:] = []
    ctx = Ctx(0)
    from crisis.interpreter.engine import ops as O
    from crisis.interpreter.engine import sequence as S
    for op, index in path:
        if isinstance(op, O.BlockOp):
            stack.append([op.id, ctx, index + 1])
        elif isinstance(op, S.ForEachCounterOp):
            stack.append([op.id, ctx, 1])
        elif isinstance(op, S.StepOp):
            stack.append([op.id, ctx, 0])
    return True


def _path_to_step(program, op, name: str, path=()):
    from crisis.interpreter.engine import ops as O
    from crisis.interpreter.engine import sequence as S
    if isinstance(op, S.StepOp):
        return path + ((op, 0),) if op.name == name else None
    if isinstance(op, O.BlockOp):
        for index, child in enumerate(op.ops):
            found = _path_to_step(program, child, name, path + ((op, index),))
            if found is not None:
                return found
        return None
    if isinstance(op, S.ForEachCounterOp):
        return _path_to_step(program, op.body, name, path + ((op, 0),))
    return None


# ------------------------------------------------------------------ comparing


def current_step(game) -> str:
    """The outermost step under way (the phase scenarios name), or "game_over"."""
    from crisis.interpreter.engine.sequence import StepOp
    for frame in game.position.stack:
        op = game.program.ops[frame[0]] if frame[0] >= 0 else None
        if isinstance(op, StepOp):
            return key_of_step(op.name)
    return "game_over"


def observe(game, keys=None) -> Dict[str, Any]:
    """The position as a scenario names it, for comparing with expectations (only ``keys``, if given)."""
    program = game.program
    schema, layout = program.schema, program.layout
    values = game.position.values
    sides = schema.sides
    per_side = lambda f: {sides[s]: f(s) for s in range(len(sides))}  # noqa: E731
    out: Dict[str, Any] = {}
    for key, part in names_of(program).parts.keys.items():
        if keys is not None and key not in keys:
            continue
        kind = part[0]
        if kind == "counter":
            offset = layout.counter[part[1]]
            out[key] = per_side(lambda s: values[offset + s]) if schema.counters[part[1]].each_side else values[offset]
        elif kind == "register":
            value = values[layout.register[part[1]]]
            out[key] = sides[value] if value >= 0 else None
        elif kind == "tokens":
            out[key] = {place: per_side(lambda s: values[layout.tokens_of(s) + i])
                        for i, place in enumerate(schema.map.places)}
        elif kind == "holder":
            out[key] = per_side(lambda s: values[layout.holder_of(s, part[1])])
        elif kind == "track":
            out[key] = per_side(lambda s: values[layout.track_of(s, part[1])])
        elif kind == "boxes":
            track = part[1]
            out[key] = per_side(lambda s: {z.name: values[layout.box + layout.zone_slot(s, track, i)]
                                           for i, z in enumerate(schema.tracks[track].zones)})
        elif kind == "entered":
            track = part[1]
            out[key] = per_side(lambda s: [z.name for i, z in enumerate(schema.tracks[track].zones)
                                           if values[layout.entered + layout.zone_slot(s, track, i)]])
        elif kind == "entry":
            track = part[1]
            out[key] = {}
            for i, z in enumerate(schema.tracks[track].zones):
                base = layout.entry_order + (layout.zone_base[track] + i) * len(sides)
                out[key][z.name] = [sides[values[base + k]] for k in range(len(sides)) if values[base + k] >= 0]
        elif kind == "markers":
            out[key] = {m.name: (schema.map.places[values[layout.marker + i]] if values[layout.marker + i] >= 0
                                 else None) for i, m in enumerate(schema.markers)}
        elif kind == "in play":
            out[key] = inplay.observed(game)
        elif kind == "pile":
            pile = schema.piles[part[1]]
            ids = program.cards[program.kind_index[pile.kind]].ids
            if pile.each_side:
                def cards(s, number=part[1], pile=pile, ids=ids):
                    found = [ids[c] for c in game.position.piles[layout.pile(number, s)]]
                    if pile.at_most == 1:
                        return found[0] if found else None
                    return list(reversed(found)) if pile.starts_with_all else found  # top first, as below
                out[key] = per_side(cards)
            else:
                found = [ids[c] for c in game.position.piles[layout.pile(part[1])]]
                # piles drawn from are kept bottom first; scenarios name them top first
                out[key] = list(reversed(found)) if pile.starts_with_all else found
    winner = values[layout.winner]
    tie = values[layout.tie_break]
    out["winner"] = sides[winner] if winner >= 0 else None
    out["tie_break"] = tie + 1 if winner >= 0 and tie >= 0 else None
    out["over"] = game.over
    out["phase"] = current_step(game)
    out["first_player"] = sides[game.machine.board.first_player()]
    return out


def _compare(expected: Any, actual: Any, path: str, problems: List[str]) -> None:
    if isinstance(expected, inplay.InPlayExpected):
        expected.compare(actual, path, problems)
        return
    if isinstance(expected, dict):
        for key, value in expected.items():
            _compare(value, actual[key], f"{path}.{key}", problems)
        return
    if isinstance(expected, Bag):
        if Counter(expected) != Counter(actual):
            missing = list((Counter(expected) - Counter(actual)).elements())
            extra = list((Counter(actual) - Counter(expected)).elements())
            detail = "; ".join(part for part in (f"missing {', '.join(missing)}" if missing else "",
                                                 f"not expected {', '.join(extra)}" if extra else "") if part)
            problems.append(f"{path}: expected {list(expected)} in any order, got {actual} ({detail})")
        return
    if isinstance(expected, Pile):
        if expected.cards is not None and expected.cards != actual:
            problems.append(f"{path}: expected {expected.cards} (top first), got {actual}")
        if expected.top is not None and actual[:len(expected.top)] != expected.top:
            problems.append(f"{path}.top: expected {expected.top}, got {actual[:len(expected.top)]}")
        if expected.size is not None and len(actual) != expected.size:
            problems.append(f"{path}.size: expected {expected.size}, got {len(actual)}")
        return
    if expected != actual:
        problems.append(f"{path}: expected {expected!r}, got {actual!r}")


def _choices(game) -> List[Dict[str, Any]]:
    """The solo opponent's choices so far, as scenarios name them (docs/scenarios.md, "The solo game")."""
    out: List[Dict[str, Any]] = []
    for entry in game.log or []:
        p = entry.params
        if entry.key == "log.solo.first_of":
            out.append({"first_of": None if p["chosen"] is None else p["chosen"] + 1})
        elif entry.key == "log.die":
            out.append({"dice": p["rolls"], "chosen": p["chosen"], "decided_by": "die"})
        elif entry.key == "log.solo.choice":
            for part in p["parts"]:
                out.append(_choice(part))
    return out


def _choice(part: dict) -> Dict[str, Any]:
    kind = part["kind"]
    if kind == "table":
        narrowing = [index + 1 for index, kept in part["rows"] if kept not in (None, "all")]
        decided = ("die" if "dice" in part else f"row {narrowing[-1]}" if narrowing else "only legal")
        return {"table": part["table"], "legal": part["legal"], "chosen": part["chosen"], "decided_by": decided,
                "skipped": [index + 1 for index, kept in part["rows"] if kept is None], "dice": part.get("dice")}
    if kind == "priority":
        found = [index + 1 for index, kept in part["lines"] if kept]
        return {"priority": part["marker"], "legal": part["legal"], "chosen": part["chosen"],
                "line": found[-1] if found else None, "dice": part.get("dice")}
    if kind == "options":
        return {"option": part["chosen"] + 1, "criterion": part["criterion"]}
    return {"decided_by": kind}


class Choices(list):
    """Expected solo choices: each must match one observed choice, in order."""


def _compare_choices(expected: "Choices", actual: List[Dict[str, Any]], problems: List[str],
                     automa: str = "automa") -> None:
    start = 0
    for number, wanted in enumerate(expected, 1):
        for index in range(start, len(actual)):
            if all(_same(value, actual[index].get(key)) for key, value in wanted.items()):
                start = index + 1
                break
        else:
            shown = "; ".join(", ".join(f"{k}: {v}" for k, v in a.items() if v not in (None, [])) for a in actual)
            problems.append(f"choices: expected choice {number} {dict(wanted)} (after the ones before it), "
                            f"but the {automa}'s choices were: {shown or 'none'}")
            return


def _same(expected: Any, actual: Any) -> bool:
    if isinstance(expected, Bag):
        return actual is not None and Counter(expected) == Counter(actual)
    return expected == actual


def _describe(decision) -> str:
    """"a North deploy decision", "a decision of North", "a deploy decision", "a decision"."""
    player, kind = decision
    if kind:
        return f"a {player + ' ' if player else ''}{kind} decision"
    return f"a decision of {player}" if player else "a decision"


def _run_check(game, check: Check, kinds: Dict[str, Tuple[str, ...]], problems: List[str]) -> None:
    decision = game.decision
    sides = game.program.schema.sides
    if check.decision != ():
        if check.decision is None:
            if decision is not None:
                problems.append(f"{check.where}: expected the game to be over, but "
                                f"{sides[decision.player]} has a {decision.kind} decision")
        elif decision is None:
            problems.append(f"{check.where}: expected {_describe(check.decision)}, but the game is over")
        else:
            player, kind = check.decision
            actual = (sides[decision.player], decision.kind)
            if (player or actual[0], kind or actual[1]) != actual:
                problems.append(f"{check.where}: expected {_describe(check.decision)}, "
                                f"got a {actual[0]} {actual[1]} decision")
    for parsed, should_be_legal in [(p, True) for p in check.legal] + [(p, False) for p in check.illegal]:
        label = "legal" if should_be_legal else "illegal"
        if decision is None:
            problems.append(f"{check.where}: '{parsed.text}' cannot be checked: the game is over")
            continue
        offered = kinds.get(decision.kind, ())
        if parsed.kind not in offered:
            problems.append(
                f"{check.where}: '{parsed.text}' cannot be {label} here: this is a "
                f"{sides[decision.player]} {decision.kind} decision, which offers only "
                f"{one_of(list(offered))} actions (add a {{decision: ...}} check to show where the game is)")
            continue
        found = game.expand(parsed.text)  # also the older whole-order form 'order a b c'
        if should_be_legal and found is None:
            problems.append(f"{check.where}: '{parsed.text}' should be legal, but is not; legal: "
                            f"{one_of([a.text for a in decision.actions], 10)}")
        if not should_be_legal and found is not None:
            problems.append(f"{check.where}: '{parsed.text}' should be illegal, but is legal")


# ------------------------------------------------------------------ running


def run_scenario(program, file: YamlFile, spec: Map, name: str,
                 on_start: Optional[Callable[[str], None]] = None) -> Outcome:
    """Run one scenario; an unreadable one comes back NOT_RUN with its diagnostics.

    ``on_start`` is told the scenario's label (file:line) before its game is set
    up (coverage records which scenario exercises what).
    """
    outcome = Outcome(file.path, name, NOT_RUN, line=spec.line)
    if on_start is not None:
        on_start(outcome.where)
    reader = _Reader(file, program)
    reader.keys(spec, SCENARIO_KEYS, "a scenario")
    steps = reader.steps(spec)
    wanted, final_check = reader.expect(spec)
    try:
        game = reader.build(spec)
    except ScenarioError as error:
        outcome.diagnostics = _in_file_order(error.diagnostics)
        return outcome
    except FixedRollError as error:
        outcome.diagnostics = [reader.roll_problem(error)]
        return outcome
    if reader.errors:
        outcome.diagnostics = _in_file_order(reader.errors)
        return outcome
    violations = check_position(program, game.position)
    if violations:
        outcome.diagnostics = [file.diagnostic((spec.line, spec.column), f"the starting position is impossible: {v}")
                               for v in violations]
        return outcome
    try:
        _play_steps(game, reader, steps, wanted, final_check, outcome)
    except FixedRollError as error:
        outcome.diagnostics = [reader.roll_problem(error)]
        outcome.problems, outcome.status = [], NOT_RUN
    return outcome


def _play_steps(game, reader: "_Reader", steps, wanted, final_check: Optional[Check], outcome: Outcome) -> None:
    """The scenario's actions and checks, then its expectations: the outcome's problems and status."""
    program = game.program
    kinds = reader.actions.kinds
    problems = outcome.problems
    stopped = False
    mark, last = 0, None  # the log's length before the last action, and that action
    noted = [False]

    def note_where() -> None:  # once, at the step of the first problem: what the game did since the last action
        if problems and not noted[0]:
            noted[0] = True
            if last is not None and game.log is not None:
                outcome.last_action, outcome.went_on = last, list(game.log[mark:])
    for where, step in steps:
        if isinstance(step, Check):
            _run_check(game, step, kinds, problems)
            note_where()
            continue
        before = len(game.log) if game.log is not None else 0
        try:
            game.apply(step.text)
        except IllegalAction as error:
            # what follows an illegal action is only its consequence: nothing after it is reported;
            # the checks that failed before it stay, as they say where the game really stood
            problems.append(f"{where} ('{step.text}'): {error.diagnostics[0].message}")
            note_where()
            stopped = True
            break
        mark, last = before, step.text
        violations = check_position(program, game.position)
        if violations:
            problems.extend(f"{where} ('{step.text}'): invariant broken: {v}" for v in violations)
            note_where()
            stopped = True
            break
    if not stopped:
        observed = observe(game, wanted)
        for key, value in wanted.items():
            if key == "choices":
                _compare_choices(value, _choices(game), outcome.problems, reader.shared.automa)
            else:
                _compare(value, observed[key], key, outcome.problems)
        if final_check is not None:
            _run_check(game, final_check, kinds, outcome.problems)
        note_where()
    outcome.status = FAILED if outcome.problems else PASSED


def scenario_files(paths: Sequence[Path]) -> List[Path]:
    files: List[Path] = []
    for path in paths:
        if path.is_dir():  # (a scenario is a test, not content: named either usual way)
            files.extend(sorted([*path.rglob("*.yaml"), *path.rglob("*.yml")]))
        else:
            files.append(path)
    return files


def _not_run(shown: str, diagnostics: List[Diagnostic], name: Optional[str] = None, line: int = 1) -> Outcome:
    return Outcome(shown, name or shown, NOT_RUN, diagnostics=_in_file_order(diagnostics), line=line)


def _in_file_order(diagnostics: Sequence[Diagnostic]) -> List[Diagnostic]:
    """A scenario's problems in the order of its file, as a designer reads it (the reader finds
    them part by part: the expectations before the position)."""
    return sorted(diagnostics, key=lambda d: (d.path or "", d.line or 0, d.column or 0))


def read_file(path: Path, root: Optional[Path] = None) -> Tuple[YamlFile, Any]:
    try:
        text, _ = read_text(path, root)
        file = YamlFile(display_path(path), text)
        return file, file.load()
    except ContentError as error:
        raise ScenarioError(error.diagnostics) from None


def run_file(program, root: Path, path: Path, on_start: Optional[Callable[[str], None]] = None) -> List[Outcome]:
    """Every scenario of a file; one that cannot be read comes back NOT_RUN, the others still run."""
    shown = display_path(path)
    root = Path(os.path.abspath(root))
    inside = os.path.abspath(path).startswith(str(root) + os.sep)
    try:
        file, data = read_file(path, root if inside else None)
    except ScenarioError as error:
        return [_not_run(shown, error.diagnostics)]
    if isinstance(data, Map) and "scenarios" in data:
        specs = data["scenarios"]
        extra = [k for k in data if k not in ("scenarios", "note")]
        if extra:
            return [_not_run(shown, [file.diagnostic(data.key_positions[extra[0]],
                                                     f"unknown key '{extra[0]}' beside 'scenarios'",
                                                     expected="scenarios or note")])]
        if not isinstance(specs, list):
            return [_not_run(shown, [file.diagnostic((data.line, data.column), "'scenarios' should be a list")])]
        if not specs:  # a file that tests nothing would pass unnoticed
            return [_not_run(shown, [file.diagnostic(data.key_positions["scenarios"], "'scenarios' lists no scenario",
                                                     width=len("scenarios"),
                                                     expected="scenarios, each a mapping with a name, a position, "
                                                              "actions and what to expect")])]
    elif isinstance(data, Map):
        specs = [data]
    else:
        return [_not_run(shown, [file.diagnostic((1, 1), "a scenario file is a mapping (or a 'scenarios:' list)")])]
    outcomes = []
    for index, spec in enumerate(specs):
        if not isinstance(spec, Map):
            position = specs.positions[index] if isinstance(specs, Seq) else (1, 1)
            outcomes.append(_not_run(shown, [file.diagnostic(position, f"scenario {index + 1} should be a mapping")],
                                     f"{shown} #{index + 1}", position[0]))
            continue
        name = str(spec.get("name") or f"{shown} #{index + 1}")
        outcomes.append(run_scenario(program, file, spec, name, on_start))
    return outcomes
