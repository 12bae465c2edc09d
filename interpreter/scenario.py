"""Scenario files: a position, actions in the text notation, expected results.

See docs/scenarios.md for the format.  A file holds one scenario (a mapping)
or several (``scenarios:`` list).  Anything the position does not give is as
after setup; tokens put on the map come off the crisis track.

A scenario is a test a designer trusts, so it must not pass by mistake: every
key is checked (with "did you mean"), every action text is read against the
game's names before the game starts, and a legal/illegal check is refused at a
decision where that kind of action can never be offered.  A scenario that
cannot be read is "not run" and reported alone; the others in its file run.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import attrs

from crisis.content.loader import display_path
from crisis.content.model import Content
from crisis.content.yamlfile import ContentError, Map, Seq, YamlFile, read_text
from crisis.ruleset.diagnostics import Diagnostic, UserError, did_you_mean, one_of

from .compile import FixedRollError
from .game import Game, IllegalAction, Options
from .invariants import check_invariants
from .notation import ACTIONS_AT, DECISION_KINDS, ActionReader, NotationError, ParsedAction
from .state import NOBODY, PHASES, LastPlay, initial_state
from .tables import Tables, tables_for

POSITION_KEYS = ("round", "phase", "leader", "plays", "hands", "deck", "objective_deck", "objective_offer",
                 "objectives", "set_aside", "final_crisis_order", "final_crisis_step", "tokens", "pools",
                 "tracks", "boxes", "vp", "markers", "breached", "breach_order", "last_play", "discard",
                 "dice")
# what an expected choice of the solo opponent may say (docs/scenarios.md, "The solo game")
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
    events: List[str] = attrs.field(factory=list)  # card and objective events carried out
    line: int = 1

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
    """A check in the action list, or the legal/not_legal part of ``expect``."""

    where: str
    legal: Tuple[ParsedAction, ...] = ()
    illegal: Tuple[ParsedAction, ...] = ()
    decision: Any = attrs.field(default=(), eq=False)  # () = not checked, None = game over, else (player, kind)


# ------------------------------------------------------------------ reading


class _Reader:
    """Reads one scenario's YAML into a game, reporting mistakes at their line."""

    def __init__(self, file: YamlFile, content: Content):
        self.file = file
        self.content = content
        self.t: Tables = tables_for(content)
        self.actions = ActionReader(self.t)
        self.errors: List[Diagnostic] = []
        self.placed_cards: Dict[int, str] = {}  # card -> where the position puts it ("hands.Unionist")
        self.placed_objectives: Dict[int, str] = {}
        self.dice: Tuple[Any, Any] = (None, [])  # where the fixed die rolls are written, and the rolls
        t = self.t
        self.names: Dict[str, List[str]] = {
            "side": list(t.sides), "space": list(t.spaces), "zone": [z.name for z in t.zones],
            "marker": [m.name for m in t.markers], "strategy card": list(t.card_index),
            "objective card": list(t.objective_index), "phase": list(PHASES), "decision kind": list(DECISION_KINDS),
            "difficulty": list(t.solo.difficulty) if t.solo else [], "table": ["place", "remove"]}

    # --------------------------------------------------------- reporting
    def position_of(self, container, key):
        if isinstance(container, Map) and key in container.value_positions:
            return container.value_positions[key]
        if isinstance(container, Seq) and isinstance(key, int) and key < len(container.positions):
            return container.positions[key]
        if hasattr(container, "line"):
            return container.line, container.column
        return None

    def error(self, container, key, message: str, expected: Optional[str] = None, hint: Optional[str] = None):
        self.errors.append(self.file.diagnostic(self.position_of(container, key), message,
                                                expected=expected, hint=hint))

    def lookup(self, container, key, value, names: Sequence[str], what: str, at_key: bool = False) -> int:
        """The index of ``value`` among ``names``; else an error at the name itself: at the key when
        the name is a key (``at_key``: a side, space, zone or marker a mapping is keyed by), at the
        entry when ``container`` is a list and ``key`` its index, else at the value."""
        names = list(names)
        if isinstance(value, str) and value in names:
            return names.index(value)
        guess = did_you_mean(str(value), names)
        position = self.key_position(container, key) if at_key else self.position_of(container, key)
        position, width = marked(self.file, position, value)
        self.errors.append(self.file.diagnostic(position, f"unknown {what} '{value}'", width=width,
                                                expected=f"a {what}: {one_of(names)}",
                                                hint=f"did you mean '{guess}'?" if guess else None))
        return NOBODY

    def key_position(self, container, key):
        if isinstance(container, Map) and key in container.key_positions:
            return container.key_positions[key]
        return self.position_of(container, key)

    def name(self, container, key, value, what: str, at_key: bool = False) -> Optional[str]:
        index = self.lookup(container, key, value, self.names[what], what, at_key=at_key)
        return None if index == NOBODY else self.names[what][index]

    @staticmethod
    def entry(values, container, key, index: int):
        """Where entry ``index`` of ``values`` (the value at ``container[key]``) is written."""
        return (values, index) if isinstance(values, Seq) else (container, key)

    def side(self, container, key) -> int:
        return self.lookup(container, key, container[key], self.t.sides, "side")

    def mapping(self, container, key, what: str) -> Optional[Map]:
        value = container[key]
        if isinstance(value, Map):
            return value
        self.error(container, key, f"'{key}' should be a mapping", expected=what)
        return None

    def per_side(self, spec, key) -> Dict[int, Any]:
        value = self.mapping(spec, key, f"each side mapped to a value, for example {{{self.t.sides[0]}: ...}}")
        out = {}
        for side_name in value or ():
            side = self.lookup(value, side_name, side_name, self.t.sides, "side", at_key=True)
            if side != NOBODY:
                out[side] = (value, side_name, value[side_name])
        return out

    def cards(self, container, key, values, objectives=False, place: Optional[str] = None) -> List[int]:
        """The cards a list names; with ``place`` (where they are, as written: 'hands.Unionist'),
        a card already listed in another place, or twice in this one, is refused at its entry."""
        index = self.t.objective_index if objectives else self.t.card_index
        what = "objective card" if objectives else "strategy card"
        items = values if isinstance(values, list) else [values]
        placed = self.placed_objectives if objectives else self.placed_cards
        out = []
        for number, value in enumerate(items):
            at = (values, number) if isinstance(values, Seq) else (container, key)
            card = self.lookup(*at, value, list(index), what)
            if card == NOBODY:
                continue
            if place is not None:
                if card in placed:
                    where = "twice in " + place if placed[card] == place else f"in {placed[card]} and in {place}"
                    self.error(*at, f"{what} '{value}' is listed {where}",
                               hint="each card is in one place only: a hand, the deck, the discard pile...")
                    continue
                placed[card] = place
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
        return self.file.diagnostic(self.position_of(container, key), f"die roll {index + 1}: {error.diagnostics[0].message}",
                                    hint="a die roll between two to six things is of a six-sided die, "
                                         "of seven to twelve of a twelve-sided die")

    # -------------------------------------------------------------- position
    def build(self, spec: Map) -> Game:
        seed = 1
        if "seed" in spec:
            seed = self.number(spec, "seed", 0)
            seed = 1 if seed is None else seed
        options = Options()
        if "options" in spec:
            given = self.mapping(spec, "options", "game options, for example {event_discard: true}")
            if given is not None:
                options = self.options(given)
        position = spec.get("position")
        if position is None:
            position = Map()
            position.line, position.column = spec.line, spec.column
            position.key_positions, position.value_positions = {}, {}
        elif not isinstance(position, Map):
            self.error(spec, "position", "'position' should be a mapping")
            position = Map()
            position.line, position.column, position.key_positions, position.value_positions = 1, 1, {}, {}
        self.keys(position, POSITION_KEYS, "a position")
        state = initial_state(self.t, seed)
        if options.solo is not None and self.t.solo is not None and "vp" not in position:
            # solo rulebook: Setup -- the solo opponent starts with its difficulty's VP
            level = options.difficulty or self.t.solo.default_difficulty
            state.vp[self.t.side_index[options.solo]] = self.t.solo.difficulty.get(level, 0)
        self.apply_position(state, position)
        if self.errors:
            raise ScenarioError(self.errors)
        try:
            return Game(self.content, seed, options, state=state)
        except FixedRollError as error:
            self.errors.append(self.roll_problem(error))
            raise ScenarioError(self.errors) from None
        except UserError as error:
            self.error(spec, "options", error.diagnostics[0].message)
            raise ScenarioError(self.errors) from None

    def options(self, given: Map) -> Options:
        """Game options: true or false, except the solo game's side and difficulty (names)."""
        fields = [f.name for f in attrs.fields(Options)]
        self.keys(given, fields, "options")
        found = {}
        for key in (k for k in given if k in fields):
            value = given[key]
            if key == "solo":
                found[key] = self.name(given, key, value, "side")
            elif key == "difficulty":
                levels = list(self.t.solo.difficulty) if self.t.solo else []
                found[key] = self.name(given, key, value, "difficulty") if levels else None
            elif isinstance(value, bool):
                found[key] = value
            else:
                self.error(given, key, f"'{key}' should be true or false", hint=f"got {value!r}")
        return Options.from_dict({k: v for k, v in found.items() if v is not None})

    def apply_position(self, st, p: Map) -> None:
        t = self.t
        board = t.board
        if "round" in p:
            st.round = self.number(p, "round", 1, board.rounds) or st.round
        if "phase" in p:
            phase = self.name(p, "phase", p["phase"], "phase")
            if phase is not None:
                st.phase = phase
        # cards: listed cards leave the decks, the rest keep the seed's shuffle
        used, used_objectives = set(), set()
        for key, objectives in (("hands", False), ("set_aside", False), ("final_crisis_order", False),
                                ("objective_offer", True)):
            if key in p:
                for side, (container, name, value) in self.per_side(p, key).items():
                    cards = self.cards(container, name, value, objectives, place=f"{key}.{name}")
                    getattr(st, key)[side] = cards
                    (used_objectives if objectives else used).update(cards)
        if "objectives" in p:
            for side, (container, name, value) in self.per_side(p, "objectives").items():
                cards = self.cards(container, name, value, True, place=f"objectives.{name}")
                if cards:
                    st.objectives[side] = cards[0]
                    used_objectives.add(cards[0])
        if "discard" in p:
            st.discard = self.cards(p, "discard", p["discard"], place="discard")
            used.update(st.discard)
        if "dice" in p:  # die rolls fixed in advance, used in order before the game's generator
            rolls = p["dice"] if isinstance(p["dice"], list) else [p["dice"]]
            self.dice = (p, rolls)
            for index, roll in enumerate(rolls):
                if not isinstance(roll, int) or isinstance(roll, bool) or not 1 <= roll <= 12:
                    self.error(p, "dice", f"die roll {index + 1} should be a whole number from 1 to 12",
                               hint=f"got {roll!r}")
            st.dice = [r for r in rolls if isinstance(r, int) and not isinstance(r, bool)]
        deck = [c for c in st.strategy_deck if c not in used]
        if "deck" in p:
            top = self.cards(p, "deck", p["deck"], place="deck")
            deck = [c for c in deck if c not in top] + list(reversed(top))  # first listed is on top
        st.strategy_deck = deck
        objective_deck = [c for c in st.objective_deck if c not in used_objectives]
        if "objective_deck" in p:
            top = self.cards(p, "objective_deck", p["objective_deck"], True, place="objective_deck")
            objective_deck = [c for c in objective_deck if c not in top] + list(reversed(top))
        st.objective_deck = objective_deck
        if "plays" in p:
            for side, (container, name, value) in self.per_side(p, "plays").items():
                n = self.number(container, name, 0, board.cards_played_per_round)
                if n is not None:
                    st.plays[side] = n
        if "final_crisis_step" in p:
            st.final_crisis_step = self.number(p, "final_crisis_step", 0, board.final_crisis_hand) or 0
        self.apply_tokens(st, p)
        if "breached" in p:
            for side, (container, name, value) in self.per_side(p, "breached").items():
                zones = value if isinstance(value, list) else [value]
                for number, zone_name in enumerate(zones):
                    zone = self.lookup(*self.entry(value, container, name, number), zone_name, self.names["zone"],
                                       "zone")
                    if zone != NOBODY:
                        st.breached[side][zone] = True
        for zone, z in enumerate(t.zones):
            # only zones with a bonus box keep an order (first and second breacher)
            st.breach_order[zone] = [side for side in (0, 1) if z.box and st.breached[side][zone]]
        if "breach_order" in p:
            order = self.mapping(p, "breach_order", "zones mapped to sides, first breacher first")
            for zone_name in order or ():
                zone = self.lookup(order, zone_name, zone_name, self.names["zone"], "zone", at_key=True)
                if zone == NOBODY:
                    continue
                given = order[zone_name]
                sides = given if isinstance(given, list) else [given]
                st.breach_order[zone] = [self.lookup(*self.entry(given, order, zone_name, number), s, t.sides, "side")
                                         for number, s in enumerate(sides)]
        if "markers" in p:
            markers = self.mapping(p, "markers", "markers mapped to spaces (off = off the map)")
            for marker_name in markers or ():
                marker = self.lookup(markers, marker_name, marker_name, self.names["marker"], "marker",
                                     at_key=True)
                if marker != NOBODY:
                    value = markers[marker_name]
                    st.markers[marker] = (NOBODY if value in OFF else
                                          self.lookup(markers, marker_name, value, t.spaces, "space"))
        if "leader" in p:
            st.leader = self.side(p, "leader")
        elif st.phase == "card_play":
            from .compile import Executor
            st.leader = Executor(t, st).first_player()
        if "last_play" in p:
            lp = p["last_play"]
            if isinstance(lp, Map) and {"side", "card"} <= set(lp):
                self.keys(lp, ("side", "card", "mode"), "last_play")
                cards = self.cards(lp, "card", lp["card"])
                mode = str(lp.get("mode", "value"))
                if mode not in ("value", "event", "claim"):
                    self.lookup(lp, "mode", mode, ("value", "event", "claim"), "mode")
                elsewhere = self.placed_cards.get(cards[0]) if cards else None
                if elsewhere not in (None, "discard"):
                    self.error(lp, "card", f"strategy card '{lp['card']}' is in {elsewhere}, so it cannot be the "
                                           f"card just played (which is on the discard pile)")
                elif cards:
                    st.last_play = LastPlay(self.side(lp, "side"), cards[0], mode)
                    if cards[0] not in st.discard:
                        st.discard.append(cards[0])
                        if cards[0] in st.strategy_deck:
                            st.strategy_deck.remove(cards[0])
            else:
                self.error(p, "last_play", "'last_play' needs a side and a card", expected="{side: ..., card: ...}")

    def apply_tokens(self, st, p: Map) -> None:
        """Map, pools, boxes and tracks; each side's 25 tokens must add up, blamed on the key that overflows."""
        t, board = self.t, self.t.board
        # where each side's count came from, to point at the offending key
        sources: List[Dict[str, Tuple[int, Any, Any]]] = [{}, {}]
        if "tokens" in p:
            tokens = self.mapping(p, "tokens", "spaces mapped to {side: count}")
            for space_name in tokens or ():
                space = self.lookup(tokens, space_name, space_name, t.spaces, "space", at_key=True)
                if space == NOBODY or not isinstance(tokens[space_name], Map):
                    if space != NOBODY:
                        self.error(tokens, space_name, "tokens are given per side, as {SIDE: count}")
                    continue
                for side, (container, name, value) in self.per_side(tokens, space_name).items():
                    n = self.number(container, name, 0, board.max_tokens_per_space)
                    if n is not None:
                        st.tokens[side][space] = n
                        sources[side]["map"] = (sum(st.tokens[side]), container, name)
        for key, attr in (("pools", "pool"), ("vp", "vp")):
            if key in p:
                for side, (container, name, value) in self.per_side(p, key).items():
                    n = self.number(container, name, 0)
                    if n is not None:
                        getattr(st, attr)[side] = n
                        if key == "pools":
                            sources[side]["pool"] = (n, container, name)
        if "boxes" in p:
            for side, (container, name, value) in self.per_side(p, "boxes").items():
                if not isinstance(value, Map):
                    self.error(container, name, "boxes are given per zone, as {ZONE: count}")
                    continue
                for zone_name in value:
                    zone = self.lookup(value, zone_name, zone_name, self.names["zone"], "zone", at_key=True)
                    if zone != NOBODY:
                        n = self.number(value, zone_name, 0, t.zones[zone].box)
                        if n is not None:
                            st.boxes[side][zone] = n
                sources[side]["boxes"] = (sum(st.boxes[side]), container, name)
        tracks = self.per_side(p, "tracks") if "tracks" in p else {}
        for side in (0, 1):
            off_track = sum(st.tokens[side]) + st.pool[side] + sum(st.boxes[side])
            parts = f"map {sum(st.tokens[side])}, pool {st.pool[side]}, boxes {sum(st.boxes[side])}"
            name = t.sides[side]
            if side in tracks:
                container, key, _ = tracks[side]
                n = self.number(container, key, 0, t.track_size)
                if n is None:
                    continue
                st.track[side] = n
                if off_track + n != board.tokens_per_side:
                    self.error(container, key, f"the {name} position holds {off_track + n} tokens "
                                               f"({parts}, track {n}), not {board.tokens_per_side}",
                               hint=f"each side has {board.tokens_per_side}: map, pool, boxes and crisis "
                                    f"track together (leave out 'tracks' to have it computed)")
                continue
            st.track[side] = board.tokens_per_side - off_track
            if st.track[side] < 0 or st.track[side] > t.track_size:
                blame = max(sources[side].values(), key=lambda s: s[0], default=None)
                container, key = (blame[1], blame[2]) if blame else (p, None)
                if st.track[side] < 0:
                    message = (f"the {name} position holds {off_track} tokens off the crisis track ({parts}), "
                               f"more than the {board.tokens_per_side} a side has")
                else:
                    message = (f"the {name} position leaves {st.track[side]} tokens for the crisis track ({parts}), "
                               f"which holds at most {t.track_size}")
                self.error(container, key, message,
                           hint=f"each side has {board.tokens_per_side}: map, pool, boxes and crisis track together")
            # zones whose top space is uncovered have been breached (as in play, where
            # the first token taken from a zone breaches it)
            for zone, z in enumerate(t.zones):
                if st.track[side] <= z.top:
                    st.breached[side][zone] = True
        for side in tracks:  # a given track breaches as a computed one does
            for zone, z in enumerate(t.zones):
                if st.track[side] <= z.top:
                    st.breached[side][zone] = True

    # ------------------------------------------------------------- actions
    def texts(self, container, key) -> Tuple[ParsedAction, ...]:
        value = container[key]
        values = value if isinstance(value, list) else [value]
        out = []
        for index, text in enumerate(values):
            where_container, where_key = (value, index) if isinstance(value, Seq) else (container, key)
            if not isinstance(text, (str, int)) or isinstance(text, bool):
                self.error(where_container, where_key, f"'{text}' is not an action text",
                           expected="an action in the notation, such as 'place Washington'")
                continue
            try:
                out.append(self.actions.parse(str(text)))
            except NotationError as error:
                self.error(where_container, where_key, f"'{text}': {error.message}", expected=error.expected,
                           hint=error.hint)
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
        """The action list, read: (where, ParsedAction or Check) entries."""
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
                    if not step:  # unknown keys were reported above
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
                           expected="an action such as 'place Washington', or {legal: ...}, {illegal: ...}, "
                                    "{decision: ...}")
        return out

    # ------------------------------------------------------------ expect
    def expect(self, spec: Map) -> Tuple[Dict[str, Any], Optional[Check]]:
        expect = spec.get("expect")
        if expect is None:
            return {}, None
        if not isinstance(expect, Map):
            self.error(spec, "expect", "'expect' should be a mapping")
            return {}, None
        self.keys(expect, tuple(EXPECT_SHAPES) + ("legal", "not_legal", "decision", "choices"), "expect")
        wanted: Dict[str, Any] = {}
        for key in expect:
            if key in EXPECT_SHAPES:
                wanted[key] = self.shaped(expect, key, EXPECT_SHAPES[key])
        if "choices" in expect:
            wanted["choices"] = self.choices(expect)
        check = None
        if any(k in expect for k in ("legal", "not_legal", "decision")):
            check = Check("expect", legal=self.texts(expect, "legal") if "legal" in expect else (),
                          illegal=self.texts(expect, "not_legal") if "not_legal" in expect else (),
                          decision=self.decision_check(expect, "decision") if "decision" in expect else ())
        return wanted, check

    def choices(self, expect: Map) -> "Choices":
        """The solo opponent's choices expected, in order (others may come between them)."""
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
                if key in ("chosen",):
                    wanted[key] = self.name(item, key, value, "space")
                elif key == "legal":
                    wanted[key] = Bag(self.name(*self.entry(value, item, key, number), v, "space")
                                      for number, v in enumerate(value if isinstance(value, list) else [value]))
                elif key == "table":
                    wanted[key] = self.name(item, key, value, "table")
                elif key == "priority":
                    wanted[key] = self.name(item, key, value, "marker")
                elif key in ("skipped", "dice"):
                    wanted[key] = [v for v in (value if isinstance(value, list) else [value])]
                else:
                    wanted[key] = value
            out.append(wanted)
        return Choices(out)

    def shaped(self, container, key, shape) -> Any:
        """The expected value at ``container[key]``, read by ``shape`` and checked against the game's names."""
        value = container[key]
        kind = shape[0]
        if kind == "map":
            _, what, inner = shape
            given = self.mapping(container, key, f"{what}s mapped to expected values")
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
        if kind == "count":
            return self.number(container, key, 0)
        if kind == "bool":
            if not isinstance(value, bool):
                self.error(container, key, f"'{key}' should be true or false", hint=f"got {value!r}")
            return value
        return self.name(container, key, value, kind)


COUNTS = ("map", "side", ("count",))
EXPECT_SHAPES: Dict[str, tuple] = {
    "tokens": ("map", "space", COUNTS),
    "pools": COUNTS, "tracks": COUNTS, "vp": COUNTS,
    "boxes": ("map", "side", ("map", "zone", ("count",))),
    "markers": ("map", "marker", ("maybe", ("space",))),
    "breached": ("map", "side", ("bag", "zone")),
    "breach_order": ("map", "zone", ("list", "side")),
    "round": ("count",), "phase": ("phase",), "over": ("bool",),
    "winner": ("maybe", ("side",)), "tie_break": ("maybe", ("count",)), "first_player": ("side",),
    "hands": ("map", "side", ("bag", "strategy card")),
    "set_aside": ("map", "side", ("bag", "strategy card")),
    "final_crisis_order": ("map", "side", ("list", "strategy card")),
    "objective_offer": ("map", "side", ("bag", "objective card")),
    "objectives": ("map", "side", ("maybe", ("objective card",))),
    "discard": ("bag", "strategy card"),
    "deck": ("pile", "strategy card"),
    "objective_deck": ("pile", "objective card"),
}


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


# ------------------------------------------------------------------ comparing


def _name(t: Tables, kind: str, index: int) -> Optional[str]:
    if index == NOBODY:
        return None
    return {"side": t.sides, "space": t.spaces}[kind][index]


def _observe(game: Game) -> Dict[str, Any]:
    """The state as a scenario names it, for comparing with expectations."""
    st, t = game.state, game.tables
    sides = t.sides
    card = lambda c: t.strategy_cards[c].id  # noqa: E731
    objective = lambda c: t.objective_cards[c].id  # noqa: E731
    per_side = lambda f: {sides[s]: f(s) for s in (0, 1)}  # noqa: E731
    return {
        "tokens": {space: per_side(lambda s: st.tokens[s][i]) for i, space in enumerate(t.spaces)},
        "pools": per_side(lambda s: st.pool[s]),
        "tracks": per_side(lambda s: st.track[s]),
        "boxes": per_side(lambda s: {z.name: st.boxes[s][i] for i, z in enumerate(t.zones)}),
        "vp": per_side(lambda s: st.vp[s]),
        "round": st.round,
        "phase": st.phase,
        "markers": {m.name: _name(t, "space", st.markers[i]) for i, m in enumerate(t.markers)},
        "breached": per_side(lambda s: [z.name for i, z in enumerate(t.zones) if st.breached[s][i]]),
        "breach_order": {z.name: [sides[s] for s in st.breach_order[i]] for i, z in enumerate(t.zones)},
        "winner": sides[st.result.winner] if st.result else None,
        "tie_break": (st.result.tie_break + 1 if st.result and st.result.tie_break >= 0 else None)
        if st.result else None,
        "hands": per_side(lambda s: [card(c) for c in st.hands[s]]),
        "set_aside": per_side(lambda s: [card(c) for c in st.set_aside[s]]),
        "final_crisis_order": per_side(lambda s: [card(c) for c in st.final_crisis_order[s]]),
        "objective_offer": per_side(lambda s: [objective(c) for c in st.objective_offer[s]]),
        "objectives": per_side(lambda s: objective(st.objectives[s]) if st.objectives[s] != NOBODY else None),
        "over": game.over,
        "first_player": sides[game.first_player()],
        "discard": [card(c) for c in st.discard],
        # decks are kept bottom first; scenarios name them top first
        "deck": [card(c) for c in reversed(st.strategy_deck)],
        "objective_deck": [objective(c) for c in reversed(st.objective_deck)],
    }


def _compare(expected: Any, actual: Any, path: str, problems: List[str]) -> None:
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


def _choices(game: Game) -> List[Dict[str, Any]]:
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


def _compare_choices(expected: "Choices", actual: List[Dict[str, Any]], problems: List[str]) -> None:
    start = 0
    for number, wanted in enumerate(expected, 1):
        for index in range(start, len(actual)):
            if all(_same(value, actual[index].get(key)) for key, value in wanted.items()):
                start = index + 1
                break
        else:
            shown = "; ".join(", ".join(f"{k}: {v}" for k, v in a.items() if v not in (None, [])) for a in actual)
            problems.append(f"choices: expected choice {number} {dict(wanted)} (after the ones before it), "
                            f"but the solo opponent's choices were: {shown or 'none'}")
            return


def _same(expected: Any, actual: Any) -> bool:
    if isinstance(expected, Bag):
        return actual is not None and Counter(expected) == Counter(actual)
    return expected == actual


def _describe(decision) -> str:
    return f"a {decision[0] or 'any player'} {decision[1] or 'any kind of'} decision"


def _run_check(game: Game, check: Check, problems: List[str]) -> None:
    decision = game.decision
    if check.decision != ():
        if check.decision is None:
            if decision is not None:
                problems.append(f"{check.where}: expected the game to be over, but "
                                f"{game.tables.sides[decision.player]} has a {decision.kind} decision")
        elif decision is None:
            problems.append(f"{check.where}: expected {_describe(check.decision)}, but the game is over")
        else:
            player, kind = check.decision
            actual = (game.tables.sides[decision.player], decision.kind)
            if (player or actual[0], kind or actual[1]) != actual:
                problems.append(f"{check.where}: expected {_describe(check.decision)}, "
                                f"got a {actual[0]} {actual[1]} decision")
    for parsed, should_be_legal in [(p, True) for p in check.legal] + [(p, False) for p in check.illegal]:
        label = "legal" if should_be_legal else "illegal"
        if decision is None:
            problems.append(f"{check.where}: '{parsed.text}' cannot be checked: the game is over")
            continue
        if parsed.kind not in ACTIONS_AT[decision.kind]:
            # such a check would pass (or fail) whatever the rules do
            problems.append(
                f"{check.where}: '{parsed.text}' cannot be {label} here: this is a "
                f"{game.tables.sides[decision.player]} {decision.kind} decision, which offers only "
                f"{one_of(ACTIONS_AT[decision.kind])} actions (add a {{decision: ...}} check to show where "
                f"the game is)")
            continue
        found = game.expand(parsed.text)  # also the older whole-order form 'order a b c'
        if should_be_legal and found is None:
            problems.append(f"{check.where}: '{parsed.text}' should be legal, but is not; legal: "
                            f"{one_of([a.text for a in decision.actions], 10)}")
        if not should_be_legal and found is not None:
            problems.append(f"{check.where}: '{parsed.text}' should be illegal, but is legal")


# ------------------------------------------------------------------ running


def run_scenario(content: Content, file: YamlFile, spec: Map, name: str,
                 on_start: Optional[Callable[[str], None]] = None) -> Outcome:
    """Run one scenario; an unreadable one comes back NOT_RUN with its diagnostics.

    ``on_start`` is told the scenario's label (file:line) before its game is set
    up (coverage records which scenario exercises what).
    """
    outcome = Outcome(file.path, name, NOT_RUN, line=spec.line)
    if on_start is not None:
        on_start(outcome.where)
    reader = _Reader(file, content)
    reader.keys(spec, SCENARIO_KEYS, "a scenario")
    steps = reader.steps(spec)
    wanted, final_check = reader.expect(spec)
    try:
        game = reader.build(spec)
    except ScenarioError as error:
        outcome.diagnostics = error.diagnostics
        return outcome
    if reader.errors:
        outcome.diagnostics = reader.errors
        return outcome
    violations = check_invariants(game)
    if violations:
        outcome.diagnostics = [file.diagnostic((spec.line, spec.column), f"the starting position is impossible: {v}")
                               for v in violations]
        return outcome
    try:
        _play_steps(game, steps, wanted, final_check, outcome)
    except FixedRollError as error:
        outcome.diagnostics = [reader.roll_problem(error)]
        outcome.problems, outcome.status = [], NOT_RUN
    return outcome


def _play_steps(game: Game, steps, wanted, final_check: Optional[Check], outcome: Outcome) -> None:
    """The scenario's actions and checks, then its expectations: the outcome's problems and status."""
    problems = outcome.problems
    stopped = False
    for where, step in steps:
        if isinstance(step, Check):
            _run_check(game, step, problems)
            continue
        try:
            game.apply(step.text)
        except IllegalAction as error:
            # what follows an illegal action is only its consequence: report this alone
            outcome.problems = [f"{where} ('{step.text}'): {error.diagnostics[0].message}"]
            stopped = True
            break
        violations = check_invariants(game)
        if violations:
            outcome.problems = [f"{where} ('{step.text}'): invariant broken: {v}" for v in violations]
            stopped = True
            break
    outcome.events = [f"card:{e.params['card']}" for e in game.log if e.key == "log.play_event"]
    outcome.events += [f"objective:{e.params['objective']}" for e in game.log if e.key == "log.objective_event"]
    if not stopped:
        observed = _observe(game)
        for key, value in wanted.items():
            if key == "choices":
                _compare_choices(value, _choices(game), outcome.problems)
            else:
                _compare(value, observed[key], key, outcome.problems)
        if final_check is not None:
            _run_check(game, final_check, outcome.problems)
    outcome.status = FAILED if outcome.problems else PASSED


def scenario_files(paths: Sequence[Path]) -> List[Path]:
    files: List[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(path.rglob("*.yaml")))
        else:
            files.append(path)
    return files


def _not_run(shown: str, diagnostics: List[Diagnostic], name: Optional[str] = None, line: int = 1) -> Outcome:
    return Outcome(shown, name or shown, NOT_RUN, diagnostics=list(diagnostics), line=line)


def read_file(path: Path, root: Optional[Path] = None) -> Tuple[YamlFile, Any]:
    """The scenario file's YAML; raises ScenarioError if it cannot be read.

    Read like any content file (docs/limits.md); inside a content folder
    (``root``), a link leading out of it is not followed.
    """
    try:
        text, _ = read_text(path, root)
        file = YamlFile(display_path(path), text)
        return file, file.load()
    except ContentError as error:
        raise ScenarioError(error.diagnostics) from None


def run_file(content: Content, path: Path, on_start: Optional[Callable[[str], None]] = None) -> List[Outcome]:
    """Every scenario of a file; one that cannot be read comes back NOT_RUN, the others still run."""
    shown = display_path(path)
    root = Path(os.path.abspath(content.root))
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
        outcomes.append(run_scenario(content, file, spec, name, on_start))
    return outcomes
