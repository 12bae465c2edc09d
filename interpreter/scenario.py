"""Scenario files: a position, actions in the text notation, expected results.

See docs/scenarios.md for the format.  A file holds one scenario (a mapping)
or several (``scenarios:`` list).  Anything the position does not give is as
after setup; tokens put on the map come off the crisis track.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

import attrs

from crisis.content.loader import display_path
from crisis.content.model import Content
from crisis.content.yamlfile import Map, Seq, YamlFile
from crisis.ruleset.diagnostics import Diagnostic, UserError, did_you_mean, one_of

from .game import Game, IllegalAction, Options
from .invariants import check_invariants
from .state import NOBODY, PHASES, LastPlay, initial_state
from .tables import Tables, tables_for

POSITION_KEYS = ("round", "phase", "leader", "plays", "hands", "deck", "objective_deck", "objective_offer",
                 "objectives", "set_aside", "final_crisis_order", "final_crisis_step", "tokens", "pools",
                 "tracks", "boxes", "vp", "markers", "breached", "breach_order", "last_play")
EXPECT_KEYS = ("tokens", "pools", "tracks", "boxes", "vp", "round", "phase", "markers", "breached",
               "breach_order", "decision", "legal", "not_legal", "winner", "tie_break", "hands",
               "objectives", "over", "first_player", "discard", "set_aside", "final_crisis_order")
SCENARIO_KEYS = ("name", "seed", "options", "position", "actions", "expect", "covers", "note")


@attrs.define
class Outcome:
    file: str
    name: str
    passed: bool
    problems: List[str] = attrs.field(factory=list)
    events: List[str] = attrs.field(factory=list)  # card and objective events carried out


class ScenarioError(UserError):
    """The scenario file itself is wrong (not a failing expectation)."""


class _Reader:
    """Reads one scenario's YAML into a game, reporting mistakes at their line."""

    def __init__(self, file: YamlFile, content: Content):
        self.file = file
        self.content = content
        self.t: Tables = tables_for(content)
        self.errors: List[Diagnostic] = []

    def error(self, container, key, message: str, expected: Optional[str] = None, hint: Optional[str] = None):
        position = None
        if isinstance(container, Map) and key in container.value_positions:
            position = container.value_positions[key]
        elif isinstance(container, Seq) and isinstance(key, int) and key < len(container.positions):
            position = container.positions[key]
        elif hasattr(container, "line"):
            position = (container.line, container.column)
        self.errors.append(self.file.diagnostic(position, message, expected=expected, hint=hint))

    def lookup(self, container, key, value, names: Sequence[str], what: str) -> int:
        names = list(names)
        if value in names:
            return names.index(value)
        guess = did_you_mean(str(value), names)
        self.error(container, key, f"unknown {what} '{value}'", expected=f"a {what}: {one_of(names)}",
                   hint=f"did you mean '{guess}'?" if guess else None)
        return NOBODY

    def side(self, container, key) -> int:
        return self.lookup(container, key, container[key], self.t.sides, "side")

    def per_side(self, spec, key) -> Dict[int, Any]:
        value = spec[key]
        if not isinstance(value, Map):
            self.error(spec, key, f"'{key}' should map each side to a value",
                       expected=f"for example {{{self.t.sides[0]}: ...}}")
            return {}
        out = {}
        for side_name in value:
            side = self.lookup(value, side_name, side_name, self.t.sides, "side")
            if side != NOBODY:
                out[side] = (value, side_name, value[side_name])
        return out

    def cards(self, container, key, values, objectives=False) -> List[int]:
        index = self.t.objective_index if objectives else self.t.card_index
        what = "objective card" if objectives else "strategy card"
        if not isinstance(values, list):
            values = [values]
        out = []
        for value in values:
            card = self.lookup(container, key, value, list(index), what)
            if card != NOBODY:
                out.append(card)
        return out

    def number(self, container, key, low=0, high=None) -> Optional[int]:
        value = container[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
            bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
            self.error(container, key, f"'{key}' should be a whole number {bounds}")
            return None
        return value

    def keys(self, spec: Map, allowed: Sequence[str], what: str) -> None:
        for key in spec:
            if key not in allowed:
                guess = did_you_mean(str(key), allowed)
                self.errors.append(self.file.diagnostic(spec.key_positions[key], f"unknown key '{key}' in {what}",
                                                        expected=one_of(list(allowed), limit=30),
                                                        hint=f"did you mean '{guess}'?" if guess else None))

    # -------------------------------------------------------------- position
    def build(self, spec: Map) -> Game:
        seed = spec.get("seed", 1)
        options = Options()
        if "options" in spec:
            try:
                options = Options.from_dict(dict(spec["options"]))
            except (UserError, TypeError) as error:
                self.error(spec, "options", str(error))
        position = spec.get("position") or Map()
        if not isinstance(position, Map):
            self.error(spec, "position", "'position' should be a mapping")
            position = Map()
        self.keys(position, POSITION_KEYS, "a position")
        state = initial_state(self.t, seed if isinstance(seed, int) else 1)
        self.apply_position(state, position)
        return Game(self.content, seed if isinstance(seed, int) else 1, options, state=state)

    def apply_position(self, st, p: Map) -> None:
        t = self.t
        board = t.board
        if "round" in p:
            st.round = self.number(p, "round", 1, board.rounds) or st.round
        if "phase" in p:
            if p["phase"] in PHASES:
                st.phase = p["phase"]
            else:
                self.lookup(p, "phase", p["phase"], PHASES, "phase")
        # cards: listed cards leave the decks, the rest keep the seed's shuffle
        used, used_objectives = set(), set()
        for key, objectives in (("hands", False), ("set_aside", False), ("final_crisis_order", False),
                                ("objective_offer", True)):
            if key in p:
                for side, (container, name, value) in self.per_side(p, key).items():
                    cards = self.cards(container, name, value, objectives)
                    getattr(st, key)[side] = cards
                    (used_objectives if objectives else used).update(cards)
        if "objectives" in p:
            for side, (container, name, value) in self.per_side(p, "objectives").items():
                cards = self.cards(container, name, value, True)
                if cards:
                    st.objectives[side] = cards[0]
                    used_objectives.add(cards[0])
        deck = [c for c in st.strategy_deck if c not in used]
        if "deck" in p:
            top = self.cards(p, "deck", p["deck"])
            deck = [c for c in deck if c not in top] + list(reversed(top))  # first listed is on top
        st.strategy_deck = deck
        objective_deck = [c for c in st.objective_deck if c not in used_objectives]
        if "objective_deck" in p:
            top = self.cards(p, "objective_deck", p["objective_deck"], True)
            objective_deck = [c for c in objective_deck if c not in top] + list(reversed(top))
        st.objective_deck = objective_deck
        if "plays" in p:
            for side, (container, name, value) in self.per_side(p, "plays").items():
                n = self.number(container, name, 0, board.cards_played_per_round)
                if n is not None:
                    st.plays[side] = n
        if "final_crisis_step" in p:
            st.final_crisis_step = self.number(p, "final_crisis_step", 0, board.final_crisis_hand) or 0
        # the board
        if "tokens" in p:
            tokens = p["tokens"]
            if not isinstance(tokens, Map):
                self.error(p, "tokens", "'tokens' should map spaces to {side: count}")
            else:
                for space_name in tokens:
                    space = self.lookup(tokens, space_name, space_name, t.spaces, "space")
                    if space == NOBODY or not isinstance(tokens[space_name], Map):
                        continue
                    for side, (container, name, value) in self.per_side(tokens, space_name).items():
                        n = self.number(container, name, 0, board.max_tokens_per_space)
                        if n is not None:
                            st.tokens[side][space] = n
        for key, attr in (("pools", "pool"), ("vp", "vp")):
            if key in p:
                for side, (container, name, value) in self.per_side(p, key).items():
                    n = self.number(container, name, 0)
                    if n is not None:
                        getattr(st, attr)[side] = n
        if "boxes" in p:
            for side, (container, name, value) in self.per_side(p, "boxes").items():
                if not isinstance(value, Map):
                    self.error(container, name, "boxes are given per zone, as {ZONE: count}")
                    continue
                for zone_name in value:
                    zone = self.lookup(value, zone_name, zone_name, [z.name for z in t.zones], "zone")
                    if zone != NOBODY:
                        n = self.number(value, zone_name, 0, t.zones[zone].box)
                        if n is not None:
                            st.boxes[side][zone] = n
        for side in (0, 1):
            st.track[side] = (board.tokens_per_side - sum(st.tokens[side]) - st.pool[side] - sum(st.boxes[side]))
        if "tracks" in p:
            for side, (container, name, value) in self.per_side(p, "tracks").items():
                n = self.number(container, name, 0, t.track_size)
                if n is not None:
                    st.track[side] = n
        for side in (0, 1):
            if not 0 <= st.track[side] <= t.track_size:
                self.error(p, "tokens", f"the {t.sides[side]} position holds "
                                        f"{board.tokens_per_side - st.track[side] + t.track_size} tokens",
                           hint=f"each side has {board.tokens_per_side}: map, pool, boxes and crisis track together")
            # zones whose top space is uncovered have been breached (as in play, where
            # the first token taken from a zone breaches it)
            for zone, z in enumerate(t.zones):
                if st.track[side] <= z.top:
                    st.breached[side][zone] = True
        if "breached" in p:
            for side, (container, name, value) in self.per_side(p, "breached").items():
                zones = value if isinstance(value, list) else [value]
                for zone_name in zones:
                    zone = self.lookup(container, name, zone_name, [z.name for z in t.zones], "zone")
                    if zone != NOBODY:
                        st.breached[side][zone] = True
        for zone, z in enumerate(t.zones):
            # only zones with a bonus box keep an order (first and second breacher)
            st.breach_order[zone] = [side for side in (0, 1) if z.box and st.breached[side][zone]]
        if "breach_order" in p:
            order = p["breach_order"]
            for zone_name in order if isinstance(order, Map) else []:
                zone = self.lookup(order, zone_name, zone_name, [z.name for z in t.zones], "zone")
                if zone == NOBODY:
                    continue
                sides = order[zone_name] if isinstance(order[zone_name], list) else [order[zone_name]]
                st.breach_order[zone] = [self.lookup(order, zone_name, s, t.sides, "side") for s in sides]
        if "markers" in p:
            markers = p["markers"]
            for marker_name in markers if isinstance(markers, Map) else []:
                marker = self.lookup(markers, marker_name, marker_name, [m.name for m in t.markers], "marker")
                if marker != NOBODY:
                    value = markers[marker_name]
                    st.markers[marker] = (NOBODY if value in (None, "off") else
                                          self.lookup(markers, marker_name, value, t.spaces, "space"))
        if "leader" in p:
            st.leader = self.side(p, "leader")
        elif st.phase == "card_play":
            from .compile import Executor
            st.leader = Executor(t, st).first_player()
        if "last_play" in p:
            lp = p["last_play"]
            if isinstance(lp, Map) and {"side", "card"} <= set(lp):
                cards = self.cards(lp, "card", lp["card"])
                if cards:
                    st.last_play = LastPlay(self.side(lp, "side"), cards[0], str(lp.get("mode", "value")))
                    if cards[0] not in st.discard:
                        st.discard.append(cards[0])
                        if cards[0] in st.strategy_deck:
                            st.strategy_deck.remove(cards[0])
            else:
                self.error(p, "last_play", "'last_play' needs a side and a card", expected="{side: ..., card: ...}")


def _name(t: Tables, kind: str, index: int) -> Optional[str]:
    if index == NOBODY:
        return None
    return {"side": t.sides, "space": t.spaces}[kind][index]


def _observe(game: Game) -> Dict[str, Any]:
    """The state as a scenario names it, for comparing with expectations."""
    st, t = game.state, game.tables
    sides = t.sides
    decision = game.decision
    return {
        "tokens": {space: {sides[s]: st.tokens[s][i] for s in (0, 1)} for i, space in enumerate(t.spaces)},
        "pools": {sides[s]: st.pool[s] for s in (0, 1)},
        "tracks": {sides[s]: st.track[s] for s in (0, 1)},
        "boxes": {sides[s]: {z.name: st.boxes[s][i] for i, z in enumerate(t.zones)} for s in (0, 1)},
        "vp": {sides[s]: st.vp[s] for s in (0, 1)},
        "round": st.round,
        "phase": st.phase,
        "markers": {m.name: _name(t, "space", st.markers[i]) for i, m in enumerate(t.markers)},
        "breached": {sides[s]: [z.name for i, z in enumerate(t.zones) if st.breached[s][i]] for s in (0, 1)},
        "breach_order": {z.name: [sides[s] for s in st.breach_order[i]] for i, z in enumerate(t.zones)},
        "decision": ({"player": sides[decision.player], "kind": decision.kind} if decision else None),
        "winner": sides[st.result.winner] if st.result else None,
        "tie_break": (st.result.tie_break + 1 if st.result and st.result.tie_break >= 0 else None)
        if st.result else None,
        "hands": {sides[s]: [t.strategy_cards[c].id for c in st.hands[s]] for s in (0, 1)},
        "set_aside": {sides[s]: [t.strategy_cards[c].id for c in st.set_aside[s]] for s in (0, 1)},
        "final_crisis_order": {sides[s]: [t.strategy_cards[c].id for c in st.final_crisis_order[s]] for s in (0, 1)},
        "objectives": {sides[s]: (t.objective_cards[st.objectives[s]].id if st.objectives[s] != NOBODY else None)
                       for s in (0, 1)},
        "over": game.over,
        "first_player": sides[game.first_player()],
        "discard": [t.strategy_cards[c].id for c in st.discard],
    }


def _compare(expected: Any, actual: Any, path: str, problems: List[str]) -> None:
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key, value in expected.items():
            if key not in actual:
                problems.append(f"{path}.{key}: no such entry (known: {one_of([str(k) for k in actual])})")
            else:
                _compare(value, actual[key], f"{path}.{key}", problems)
        return
    if isinstance(expected, list) and isinstance(actual, list) and path.split(".")[-1] not in ("hands", "discard"):
        if sorted(map(str, expected)) != sorted(map(str, actual)):
            problems.append(f"{path}: expected {list(expected)}, got {actual}")
        return
    if expected != actual and not (isinstance(expected, str) and str(expected) == str(actual)):
        problems.append(f"{path}: expected {expected!r}, got {actual!r}")


def run_scenario(content: Content, file: YamlFile, spec: Map, name: str) -> Outcome:
    reader = _Reader(file, content)
    reader.keys(spec, SCENARIO_KEYS, "a scenario")
    outcome = Outcome(file.path, name, passed=False)
    game = reader.build(spec)
    if reader.errors:
        raise ScenarioError(reader.errors)
    violations = check_invariants(game)
    if violations:
        raise ScenarioError([file.diagnostic((spec.line, spec.column), f"the starting position is impossible: {v}")
                             for v in violations])
    actions = spec.get("actions") or []
    for index, step in enumerate(actions):
        where = f"action {index + 1}"
        if isinstance(step, Map):
            for kind, expect_legal in (("illegal", False), ("legal", True)):
                if kind in step:
                    texts = step[kind] if isinstance(step[kind], list) else [step[kind]]
                    for text in texts:
                        found = game.expand(str(text))
                        if expect_legal and found is None:
                            outcome.problems.append(f"{where}: '{text}' should be legal, but is not; legal: "
                                                    f"{one_of([a.text for a in game.legal_actions()], 10)}")
                        if not expect_legal and found is not None:
                            outcome.problems.append(f"{where}: '{text}' should be illegal, but is legal")
            continue
        try:
            game.apply(str(step))
        except IllegalAction as error:
            outcome.problems.append(f"{where} ('{step}'): {error.diagnostics[0].message}")
            break
        violations = check_invariants(game)
        if violations:
            outcome.problems.extend(f"{where} ('{step}'): invariant broken: {v}" for v in violations)
            break
    outcome.events = [f"card:{e.params['card']}" for e in game.log if e.key == "log.play_event"]
    outcome.events += [f"objective:{e.params['objective']}" for e in game.log if e.key == "log.objective_event"]
    expect = spec.get("expect") or {}
    if isinstance(expect, Map):
        reader.keys(expect, EXPECT_KEYS, "expect")
        if reader.errors:
            raise ScenarioError(reader.errors)
        observed = _observe(game)
        for key, value in expect.items():
            if key == "legal" or key == "not_legal":
                texts = value if isinstance(value, list) else [value]
                for text in texts:
                    found = game.expand(str(text))
                    if key == "legal" and found is None:
                        outcome.problems.append(f"expect.legal: '{text}' is not legal; legal: "
                                                f"{one_of([a.text for a in game.legal_actions()], 10)}")
                    if key == "not_legal" and found is not None:
                        outcome.problems.append(f"expect.not_legal: '{text}' is legal")
            else:
                _compare(_plain(value), observed[key], key, outcome.problems)
    outcome.passed = not outcome.problems
    return outcome


def _plain(value):
    if isinstance(value, dict):
        return {str(k) if isinstance(k, str) else k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value


def scenario_files(paths: Sequence[Path]) -> List[Path]:
    files: List[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(path.rglob("*.yaml")))
        else:
            files.append(path)
    return files


def run_file(content: Content, path: Path) -> List[Outcome]:
    shown = display_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ScenarioError([Diagnostic(message=f"cannot read this scenario: {error}", path=shown)])
    file = YamlFile(shown, text)
    data = file.load()
    if isinstance(data, Map) and "scenarios" in data:
        specs = data["scenarios"]
        if not isinstance(specs, list):
            raise ScenarioError([file.diagnostic((data.line, data.column), "'scenarios' should be a list")])
    elif isinstance(data, Map):
        specs = [data]
    else:
        raise ScenarioError([file.diagnostic((1, 1), "a scenario file is a mapping (or a 'scenarios:' list)")])
    outcomes = []
    for index, spec in enumerate(specs):
        if not isinstance(spec, Map):
            raise ScenarioError([file.diagnostic((1, 1), f"scenario {index + 1} should be a mapping")])
        name = str(spec.get("name") or f"{shown} #{index + 1}")
        outcomes.append(run_scenario(content, file, spec, name))
    return outcomes
