"""Load a game's content directory: read, validate, parse and check everything.

Every problem found is collected and reported together, each with its file,
line and column; if there is any, ``ContentError`` is raised and nothing is
returned, so a game never runs on half-loaded content.

Layout of a content directory::

    game.yaml            board, pieces and numbers
    rules.yaml           procedures of play, in the rules language
    cards/*.yaml         strategy_cards: and objective_cards: lists
    locale/<lang>/*.yaml text players read, by key
"""

from __future__ import annotations

import hashlib
from fractions import Fraction
import os
import re
import stat
from importlib import resources
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import attrs

from crisis.ruleset import ast as A
from crisis.ruleset import checker as C
from crisis.ruleset import limits
from crisis.ruleset.checker import Checker, Slot
from crisis.ruleset.diagnostics import Diagnostic, RulesError, diagnostic_at, did_you_mean, one_of, shown
from crisis.ruleset import treecache
from crisis.ruleset.treecache import parse_block, parse_condition
from crisis.ruleset.cost import Cost
from crisis.ruleset.work import Work

from . import bots as B
from .bots import BotSettings
from .locale import Catalog, MessageError, flatten, format_message, placeholders
from .model import (Board, Content, Dimension, Marker, ObjectiveCard, Procedures, Rule,
                    StrategyCard, Zone)
from .yamlfile import (Budget, ContentError, Map, Text, YamlFile, display_path, list_folder, read_text, real_inside,
                       size_text)

GAME_DIR = "fort-sumter"
REFERENCE_LANG = "en"  # the catalog every other language is checked against
CARD_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
PROVENANCE = ("known", "authored")


def default_content_dir() -> Path:
    """The content shipped inside the package."""
    return Path(str(resources.files("crisis.content") / GAME_DIR))


class NotContent(ContentError):
    """The folder named is not a content folder at all (a mistake on the command line, usually)."""


class _Problems:
    def __init__(self):
        self.items: List[Diagnostic] = []

    def add(self, diagnostic: Diagnostic) -> None:
        self.items.append(diagnostic)

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.items.extend(diagnostics)


class _Loader:
    def __init__(self, root: Path, required_messages: Iterable[str], overrides: Optional[Dict[str, str]] = None):
        self.root = root
        self.required_messages = tuple(required_messages)
        self.overrides = overrides or {}
        self.problems = _Problems()
        self.warnings: List[Diagnostic] = []
        self.files: Dict[str, bytes] = {}
        self.budget = Budget()
        self.rule_chars = 0

    # ------------------------------------------------------------- reading
    def read(self, path: Path) -> Tuple[Optional[YamlFile], Any]:
        """The file and its value; (None, None) when it could not be read (the problem is reported),
        (file, None) when it is empty."""
        try:
            override = self.overrides.get(os.path.realpath(path)) if self.overrides else None  # a loop of links: no error
            if override is not None:
                # an editor's unsaved text stands for the file (the language server checks while typing)
                text, raw = override, override.encode("utf-8")
            else:
                text, raw = read_text(path, self.root, self.budget)
            file = YamlFile(display_path(path), text)
            data = file.load(self.budget)
        except ContentError as error:
            self.problems.extend(error.diagnostics)
            return None, None
        self.files[str(path.relative_to(self.root))] = raw
        return file, data

    def listing(self, folder: Path, suffix: str = "", folders: bool = False) -> Optional[List[Path]]:
        """A folder's entries; [] if it does not exist, None if it cannot be read (the problem is reported)."""
        if not os.path.lexists(folder):
            return []
        try:
            return list_folder(folder, self.root, suffix, folders)
        except ContentError as error:
            self.problems.extend(error.diagnostics)
            return None

    # ------------------------------------------------------------ validation
    def fields(self, file: YamlFile, value: Any, what: str, required: Dict[str, type],
               optional: Dict[str, type], at=None) -> Tuple[Optional[Map], bool]:
        """Check a mapping's keys and value types.

        Returns the well-formed entries (so later checks can still run and
        report their own problems) and whether everything was well-formed.
        """
        if not isinstance(value, Map):
            position = at if at else (getattr(value, "line", 1), getattr(value, "column", 1))
            self.problems.add(file.diagnostic(position, f"{what} should be a mapping of keys to values",
                                              expected=f"keys: {one_of(list(required) + list(optional))}"))
            return None, False
        ok = True
        known = {**required, **optional}
        good = Map()
        good.path, good.line, good.column = value.path, value.line, value.column
        good.key_positions, good.value_positions = value.key_positions, value.value_positions
        for key in value:
            if key not in known:
                guess = did_you_mean(str(key), known)
                self.problems.add(file.diagnostic(value.key_positions[key], f"unknown key '{shown(key)}' in {what}",
                                                  width=_width(key), expected=one_of(list(known)),
                                                  hint=f"did you mean '{guess}'?" if guess else None))
                ok = False
            elif not _is(value[key], known[key]):
                self.problems.add(file.diagnostic(value.value_positions[key],
                                                  f"'{key}' in {what} should be {_kind_name(known[key])}"))
                ok = False
            else:
                good[key] = value[key]
        for key in required:
            if key not in value:
                self.problems.add(file.diagnostic((value.line, value.column), f"{what} has no '{key}'",
                                                  expected=f"a '{key}' entry"))
                ok = False
        return good, ok

    def rule(self, file: YamlFile, container: Map, key, slot: Slot, label: str,
             condition: bool = False) -> Optional[Rule]:
        value = container[key]
        position = container.value_positions[key] if isinstance(container, Map) else None
        return self.rule_text(file, value, position, slot, label, condition)

    def rule_text(self, file: YamlFile, value: Any, position, slot: Slot, label: str,
                  condition: bool = False) -> Optional[Rule]:
        if not isinstance(value, Text):
            self.problems.add(file.diagnostic(position, f"{label} should be rule text",
                                              hint="write it as a string; use '|' for several lines"))
            return None
        source = value.source(label)
        self.rule_chars += len(value)
        if self.rule_chars > limits.MAX_RULE_CHARS:
            if self.rule_chars - len(value) <= limits.MAX_RULE_CHARS:  # said once
                self.problems.add(file.diagnostic(position, f"the content's rules add up to more than "
                                                            f"{limits.MAX_RULE_CHARS:,} characters",
                                                  hint="docs/limits.md lists the limits on content"))
            return None
        try:
            tree = (parse_condition if condition else parse_block)(str(value), source)
        except RulesError as error:
            self.problems.extend(error.diagnostics)
            return None
        checker = Checker(self.vocabulary)
        found = (checker.check_condition(tree, slot, source) if condition
                 else checker.check_block(tree, slot, source))
        errors = [d for d in found if d.severity == "error"]
        if not errors and not condition:
            errors = self.work(tree, source)
        self.problems.extend(errors)
        self.warnings.extend(d for d in found if d.severity != "error")
        return None if errors else Rule(str(value), tree, source)

    def work(self, tree, source, work: Optional[Work] = None, cost: Optional[Cost] = None) -> List[Diagnostic]:
        """A rule that could ask for more decisions in one run than the limit, or take more steps of
        work, is refused at its heaviest statement (docs/limits.md)."""
        work = work or Work(self.vocabulary)
        costs = [work.statement(statement) for statement in tree.statements]
        if sum(costs) > limits.MAX_EFFECT_DECISIONS:
            return [_at_heaviest(tree, costs, source,
                                 f"this rule can ask for up to {sum(costs):,} decisions in one run; "
                                 f"the limit is {limits.MAX_EFFECT_DECISIONS:,}",
                                 "each 'for each player' doubles the work inside it, and 'each' multiplies "
                                 "it by the spaces")]
        cost = cost or Cost(self.vocabulary, card_value=limits.MAX_CARD_VALUE)
        steps = [cost.run(statement) for statement in tree.statements]
        if sum(steps) > limits.MAX_RULE_WORK:
            hint = ("each 'for each player' doubles the work inside it; 'either' and 'first of' try every option "
                    "on a copy of the game; 'so that' looks at every way of taking its steps (docs/limits.md)")
            if cost.heaviest_card and any(isinstance(node, (A.UseEvent, A.CardWould)) for node in tree.walk()):
                hint = (f"this rule tries and carries out card events, and the heaviest, "
                        f"{shown(cost.heaviest_card)}'s, can take up to {cost.card_event.run:,} steps; " + hint)
            return [_at_heaviest(tree, steps, source,
                                 f"this rule can take {_large(sum(steps))} steps of work in one run; "
                                 f"the limit is {limits.MAX_RULE_WORK:,}", hint)]
        return []

    def name(self, file: YamlFile, value: Any, position, kinds: Sequence[str], kind: str) -> bool:
        if isinstance(value, str) and value in kinds:
            return True
        guess = did_you_mean(str(value), kinds) if isinstance(value, str) else None
        self.problems.add(file.diagnostic(position, f"unknown {kind} '{shown(value)}'", width=_width(value),
                                          expected=f"a {kind}: {one_of(list(kinds))}",
                                          hint=f"did you mean '{guess}'?" if guess else None))
        return False

    # ----------------------------------------------------------------- game
    def read_board(self) -> Optional[Board]:
        file, data = self.read(self.root / "game.yaml")
        if file is None:
            return None
        if data is None:
            self.problems.add(file.diagnostic(None, "game.yaml is empty",
                                              expected="the game's name, sides, numbers, dimensions and crisis track"))
            return None
        counts = tuple(limits.GAME_NUMBERS)
        spec, ok = self.fields(file, data, "game.yaml",
                               {"game": str, "sides": list, "dimensions": list, "crisis_track": dict,
                                **{c: int for c in counts}},
                               {"markers": dict})
        if not ok:
            return None
        for key in counts:
            ok &= self.number(file, spec, key, 1, limits.GAME_NUMBERS[key])
        ok &= self.length(file, spec, "game", "the game's name")
        names: List[Tuple[str, str, Any]] = []  # (kind, name, position) for the checks below
        sides = spec["sides"]
        if len(sides) != 2 or not all(isinstance(s, str) for s in sides):
            self.problems.add(file.diagnostic(spec.value_positions["sides"], "a game has exactly two sides",
                                              expected="a list of two side names"))
            return None
        names += [("side", side, sides.positions[i]) for i, side in enumerate(sides)]
        dimensions = []
        seen_spaces: Dict[str, Tuple[int, int]] = {}
        ok &= self.count(file, spec, "dimensions", limits.MAX_DIMENSIONS)
        for index, entry in enumerate(spec["dimensions"][:limits.MAX_DIMENSIONS]):
            d, good = self.fields(file, entry, "a dimension", {"name": str, "spaces": list}, {},
                                  at=spec["dimensions"].positions[index])
            if not good:
                ok = False
                continue
            names.append(("dimension", d["name"], d.value_positions["name"]))
            for i, space in enumerate(d["spaces"]):
                where = d["spaces"].positions[i]
                if not isinstance(space, str) or not _is_name(space):
                    self.problems.add(file.diagnostic(where, f"'{shown(space)}' cannot be a space name",
                                                      hint=_NAME_HINT))
                    ok = False
                elif space in seen_spaces:
                    self.problems.add(file.diagnostic(where, f"space '{shown(space)}' is listed twice",
                                                      hint=f"first listed on line {seen_spaces[space][0]}"))
                    ok = False
                else:
                    seen_spaces[space] = where
                    names.append(("space", space, where))
            if not d["spaces"]:
                self.problems.add(file.diagnostic(spec["dimensions"].positions[index], "a dimension needs spaces"))
                ok = False
            dimensions.append(Dimension(str(d["name"]), tuple(str(s) for s in d["spaces"])))
        if len(seen_spaces) > limits.MAX_SPACES:
            self.problems.add(file.diagnostic(spec.value_positions["dimensions"],
                                              f"the map has {len(seen_spaces)} spaces; the limit is {limits.MAX_SPACES}"))
            ok = False
        track, good = self.fields(file, spec["crisis_track"], "crisis_track", {"top": int, "zones": list}, {},
                                  at=spec.value_positions["crisis_track"])
        zones = []
        if not good or not self.number(file, track, "top", 0, limits.MAX_TRACK_TOP, "crisis_track"):
            ok = False
        elif not self.count(file, track, "zones", limits.MAX_ZONES):
            ok = False
        else:
            expected_top = track["top"]
            for index, entry in enumerate(track["zones"]):
                z, good = self.fields(file, entry, "a zone", {"name": str, "from": int, "to": int}, {"box": int},
                                      at=track["zones"].positions[index])
                if not good or ("box" in z and not self.number(file, z, "box", 0, limits.MAX_BOX, "a zone")):
                    ok = False
                    continue
                names.append(("zone", z["name"], z.value_positions["name"]))
                if z["from"] != expected_top or z["to"] > z["from"]:
                    self.problems.add(file.diagnostic(track["zones"].positions[index],
                                                      "zones must cover the track from the top down, without gaps",
                                                      expected=f"a zone from {expected_top} down"))
                    ok = False
                expected_top = z["to"] - 1
                zones.append(Zone(str(z["name"]), z["from"], z["to"], z.get("box", 0)))
            if zones and expected_top != -1:
                self.problems.add(file.diagnostic(spec.value_positions["crisis_track"],
                                                  "the zones must reach space 0 of the track"))
                ok = False
        markers = []
        if "markers" in spec and not self.count(file, spec, "markers", limits.MAX_MARKERS):
            ok = False
        for name, entry in list((spec.get("markers") or {}).items())[:limits.MAX_MARKERS]:
            m, good = self.fields(file, entry, f"marker '{shown(name)}'", {"blocks": list}, {},
                                  at=spec["markers"].value_positions[name])
            if not good:
                ok = False
                continue
            names.append(("marker", name, spec["markers"].key_positions[name]))
            unknown = [b for b in m["blocks"] if b not in ("placement", "removal")]
            if unknown:
                self.problems.add(file.diagnostic(spec["markers"].value_positions[name],
                                                  f"a marker can block placement or removal, not {shown(unknown[0])}"))
                ok = False
            markers.append(Marker(str(name), "placement" in m["blocks"], "removal" in m["blocks"]))
        ok &= self.names(file, names)
        if not ok:
            return None
        board = Board(
            game=str(spec["game"]), sides=tuple(str(s) for s in sides),
            tokens_per_side=spec["tokens_per_side"], max_tokens_per_space=spec["max_tokens_per_space"],
            rounds=spec["rounds"], strategy_cards_dealt=spec["strategy_cards_dealt"],
            cards_played_per_round=spec["cards_played_per_round"],
            objective_cards_dealt=spec["objective_cards_dealt"], final_crisis_hand=spec["final_crisis_hand"],
            dimensions=tuple(dimensions), track_top=track["top"], zones=tuple(zones), markers=tuple(markers))
        on_track = board.track_size + sum(z.box for z in board.zones)
        if on_track != board.tokens_per_side:
            self.problems.add(file.diagnostic(spec.value_positions["tokens_per_side"],
                                              f"{board.tokens_per_side} tokens per side, but the track and "
                                              f"bonus boxes hold {on_track}",
                                              hint="every token starts on the crisis track or in a bonus box"))
            return None
        return board

    def names(self, file: YamlFile, names: Sequence[Tuple[str, Any, Any]]) -> bool:
        """Names of sides, dimensions, zones and markers: well formed, and each naming one thing."""
        ok = True
        kinds: Dict[str, str] = {}
        for kind, name, position in names:
            if not isinstance(name, str) or not _is_name(name):
                self.problems.add(file.diagnostic(position, f"'{shown(name)}' cannot be a {kind} name",
                                                  width=_width(name), hint=_NAME_HINT))
                ok = False
                continue
            if name in kinds and kinds[name] != kind:
                self.problems.add(file.diagnostic(position, f"'{shown(name)}' names both a {kinds[name]} and a {kind}",
                                                  width=_width(name),
                                                  hint="rules refer to things by name, so names must differ"))
                ok = False
            kinds[name] = kind
        return ok

    def number(self, file: YamlFile, spec: Map, key: str, low: int, high: int, what: str = "game.yaml") -> bool:
        value = spec[key]
        if low <= value <= high:
            return True
        bound = f"at least {low}" if value < low else f"at most {high:,}"
        self.problems.add(file.diagnostic(spec.value_positions[key], f"'{key}' in {what} must be {bound}",
                          hint=None if value < low else "docs/limits.md gives the limits and why they are there"))
        return False

    def count(self, file: YamlFile, spec: Map, key: str, most: int) -> bool:
        if len(spec[key]) <= most:
            return True
        self.problems.add(file.diagnostic(spec.value_positions[key], f"'{key}' has {len(spec[key])} entries; "
                                                                     f"at most {most} are allowed"))
        return False

    def length(self, file: YamlFile, spec: Map, key: str, what: str) -> bool:
        if 0 < len(spec[key]) <= limits.MAX_NAME_CHARS:
            return True
        self.problems.add(file.diagnostic(spec.value_positions[key],
                                          f"{what} must have 1 to {limits.MAX_NAME_CHARS} characters"))
        return False

    # ---------------------------------------------------------- procedures
    def procedures(self) -> Optional[Procedures]:
        file, data = self.read(self.root / "rules.yaml")
        if file is None:
            return None
        if data is None:
            self.problems.add(file.diagnostic(None, "rules.yaml is empty",
                                              expected="the procedures of play: first_player, breach_effects, "
                                                       "pivotal_bonus, scoring, final_crisis, tie_breaks"))
            return None
        spec, ok = self.fields(file, data, "rules.yaml",
                               {"first_player": list, "breach_effects": dict, "pivotal_bonus": str,
                                "dimension_scoring": str, "objective_scoring": str, "final_crisis": dict,
                                "final_scoring": dict, "tie_breaks": list}, {})
        if not ok:
            return None
        procedure = C.PROCEDURE
        conditions = lambda key: tuple(
            self.rule_text(file, item, spec[key].positions[i], procedure, f"{key} {i + 1}", condition=True)
            for i, item in enumerate(spec[key]))
        first_player = conditions("first_player")
        tie_breaks = conditions("tie_breaks")
        breaches = {}
        for zone in self.board_zones_with_boxes:
            if zone not in spec["breach_effects"]:
                self.problems.add(file.diagnostic(spec.key_positions["breach_effects"],
                                                  f"no breach effect for the {zone} zone",
                                                  expected=f"an entry '{zone}:' under breach_effects"))
                continue
        for zone, entry in spec["breach_effects"].items():
            where = spec["breach_effects"].value_positions[zone]
            if zone not in self.board_zones_with_boxes:
                self.name(file, zone, spec["breach_effects"].key_positions[zone],
                          self.board_zones_with_boxes, "zone with a bonus box")
                continue
            label = f"breach effect of {zone}"
            if isinstance(entry, Map):
                e, good = self.fields(file, entry, label, {"first": str, "second": str}, {}, at=where)
                if not good:
                    continue
                breaches[zone] = (self.rule(file, e, "first", C.BREACH_EFFECT, label + ", first"),
                                  self.rule(file, e, "second", C.BREACH_EFFECT, label + ", second"))
            else:
                rule = self.rule(file, spec["breach_effects"], zone, C.BREACH_EFFECT, label)
                breaches[zone] = (rule, rule)
        fc, good = self.fields(file, spec["final_crisis"], "final_crisis",
                               {"trigger": str, "matching": str, "not_matching": str}, {"start": str},
                               at=spec.value_positions["final_crisis"])
        in_dimension = Slot("a procedure of play", this_dimension=True)
        bonus = Slot("the pivotal bonus", this_dimension=True, this_space=True)
        objectives = Slot("objective scoring", revealed_objectives=True)
        pivotal = self.rule(file, spec, "pivotal_bonus", bonus, "pivotal_bonus")
        dimension_scoring = self.rule(file, spec, "dimension_scoring", procedure, "dimension_scoring")
        objective_scoring = self.rule(file, spec, "objective_scoring", objectives, "objective_scoring")
        final_scoring = tuple(
            (str(label), self.rule(file, spec["final_scoring"], label, procedure, f"final_scoring {label}"))
            for label in spec["final_scoring"])
        if not good:
            return None
        trigger = self.rule(file, fc, "trigger", procedure, "final_crisis trigger", condition=True)
        start = self.rule(file, fc, "start", procedure, "final_crisis start") if "start" in fc else None
        matching = self.rule(file, fc, "matching", in_dimension, "final_crisis matching")
        not_matching = self.rule(file, fc, "not_matching", in_dimension, "final_crisis not_matching")
        parts = [*first_player, *tie_breaks, pivotal, dimension_scoring, objective_scoring, trigger,
                 matching, not_matching, *(r for _, r in final_scoring), *(r for pair in breaches.values() for r in pair)]
        if any(p is None for p in parts) or ("start" in fc and start is None):
            return None
        if len(breaches) != len(self.board_zones_with_boxes):
            return None
        return Procedures(first_player=first_player, breach_effects=breaches, pivotal_bonus=pivotal,
                          dimension_scoring=dimension_scoring, objective_scoring=objective_scoring,
                          final_crisis_trigger=trigger, final_crisis_start=start,
                          final_crisis_matching=matching, final_crisis_not_matching=not_matching,
                          final_scoring=final_scoring, tie_breaks=tie_breaks)

    # --------------------------------------------------------------- cards
    def cards(self) -> Tuple[List[StrategyCard], List[ObjectiveCard]]:
        strategy: List[StrategyCard] = []
        objectives: List[ObjectiveCard] = []
        ids: Dict[str, str] = {}
        folder = self.root / "cards"
        files = self.listing(folder, ".yaml")
        entries = {"strategy_cards": 0, "objective_cards": 0}  # every entry counts, a broken card too
        if files == []:
            self.problems.add(Diagnostic(message="no card files", path=display_path(folder),
                                         expected="cards/*.yaml files with strategy_cards: or objective_cards:"))
        for path in files or ():
            file, data = self.read(path)
            if file is None or data is None:
                continue
            spec, _ = self.fields(file, data, "a card file", {}, {"strategy_cards": list, "objective_cards": list})
            if spec is None:
                continue
            for key, read, cards, most in (("strategy_cards", self.strategy_card, strategy, limits.MAX_STRATEGY_CARDS),
                                           ("objective_cards", self.objective_card, objectives,
                                            limits.MAX_OBJECTIVE_CARDS)):
                for index, entry in enumerate(spec.get(key, [])):
                    entries[key] += 1
                    if entries[key] > most:
                        self.problems.add(file.diagnostic(spec[key].positions[index],
                                                          f"more than {most} {key.replace('_', ' ')}: the limit"))
                        break
                    card = read(file, entry, spec[key].positions[index], ids)
                    if card:
                        cards.append(card)
        return strategy, objectives

    def card_id(self, file: YamlFile, card: Map, ids: Dict[str, str], kind: str) -> bool:
        if "id" not in card:
            return False
        card_id = card["id"]
        position = card.value_positions["id"]
        if len(card_id) > limits.MAX_NAME_CHARS or not CARD_ID.match(card_id):
            self.problems.add(file.diagnostic(position, f"'{shown(card_id)}' cannot be a card id",
                                              expected="lowercase words joined by '-', like 'major-anderson'"))
            return False
        key = f"{kind}:{card_id}"
        if key in ids:
            self.problems.add(file.diagnostic(position, f"{kind} card '{card_id}' is defined twice",
                                              hint=f"the other one is at {ids[key]}"))
            return False
        ids[key] = f"{file.path}:{position[0]}"
        return True

    def strategy_card(self, file: YamlFile, entry: Any, at, ids) -> Optional[StrategyCard]:
        card, ok = self.fields(file, entry, "a strategy card",
                               {"id": str, "value": int, "event_for": (str, list), "final_crisis": str,
                                "provenance": str},
                               {"event": str, "note": str}, at=at)
        if card is None:
            return None
        ok &= self.card_id(file, card, ids, "strategy")
        label = f"card '{shown(card.get('id', '?'))}'"
        if "value" in card and card["value"] < 1:
            self.problems.add(file.diagnostic(card.value_positions["value"], "a card's value is at least 1"))
            ok = False
        elif "value" in card and card["value"] > limits.MAX_CARD_VALUE:
            self.problems.add(file.diagnostic(card.value_positions["value"],
                                              f"a card's value is at most {limits.MAX_CARD_VALUE}"))
            ok = False
        sides = self.board.sides
        users: Tuple[str, ...] = ()
        if "event_for" in card:
            event_for = card["event_for"]
            if event_for == "both":
                users = sides
            else:
                users = tuple(event_for) if isinstance(event_for, list) else (event_for,)
                for user in users:
                    ok &= self.name(file, user, card.value_positions["event_for"], list(sides) + ["both"], "side")
        if "final_crisis" in card:
            ok &= self.name(file, card["final_crisis"], card.value_positions["final_crisis"],
                            [d.name for d in self.board.dimensions], "dimension")
        if "provenance" in card:
            ok &= self.name(file, card["provenance"], card.value_positions["provenance"], PROVENANCE, "provenance")
        event = None
        if "event" in card:
            event = self.rule(file, card, "event", C.STRATEGY_EVENT, label + ", event")
            ok &= event is not None
        if not ok:
            return None
        return StrategyCard(id=str(card["id"]), value=card["value"], event_for=tuple(str(u) for u in users),
                            final_crisis=str(card["final_crisis"]), provenance=str(card["provenance"]),
                            event=event, note=card.get("note"))

    def objective_card(self, file: YamlFile, entry: Any, at, ids) -> Optional[ObjectiveCard]:
        card, ok = self.fields(file, entry, "an objective card",
                               {"id": str, "space": str, "provenance": str}, {"event": str, "note": str}, at=at)
        if card is None:
            return None
        ok &= self.card_id(file, card, ids, "objective")
        if "space" in card:
            ok &= self.name(file, card["space"], card.value_positions["space"], self.board.spaces, "space")
        if "provenance" in card:
            ok &= self.name(file, card["provenance"], card.value_positions["provenance"], PROVENANCE, "provenance")
        event = None
        if "event" in card:
            event = self.rule(file, card, "event", C.OBJECTIVE_EVENT, f"objective '{shown(card.get('id', '?'))}', event")
            ok &= event is not None
        if not ok:
            return None
        return ObjectiveCard(id=str(card["id"]), space=str(card["space"]), provenance=str(card["provenance"]),
                             event=event, note=card.get("note"))

    # ----------------------------------------------------------------- bots
    def bots(self) -> BotSettings:
        """bots/heuristic.yaml and bots/search.yaml, each optional (defaults: content/bots.py)."""
        folder = self.root / "bots"
        settings = BotSettings()
        heuristic = self.bot_file(folder / "heuristic.yaml", {"evaluation": dict, **_types(B.HEURISTIC_KEYS)})
        if heuristic is not None:
            file, spec = heuristic
            weights = settings.heuristic.weights
            if "evaluation" in spec:
                weights = self.weights(file, spec["evaluation"], spec.value_positions["evaluation"]) or weights
            settings = attrs.evolve(settings, heuristic=B.HeuristicSettings(
                weights=weights, **self.bot_numbers(file, spec, B.HEURISTIC_KEYS, settings.heuristic)))
        search = self.bot_file(folder / "search.yaml", {"decisions": list, **_types(B.SEARCH_KEYS)})
        if search is not None:
            file, spec = search
            numbers = self.bot_numbers(file, spec, B.SEARCH_KEYS, settings.search)
            budget = settings.search.budget
            if "milliseconds" in numbers and numbers["milliseconds"] > 0:
                budget = B.Budget(iterations=0, milliseconds=float(numbers.pop("milliseconds")))
                numbers.pop("iterations", None)
                if "iterations" in spec:
                    self.problems.add(file.diagnostic(spec.key_positions["iterations"],
                                                      "give the search either iterations or milliseconds, not both"))
            elif "iterations" in numbers:
                budget = B.Budget(iterations=numbers.pop("iterations"))
            numbers.pop("milliseconds", None)
            for key, most, given in (("iterations", limits.MAX_SEARCH_ITERATIONS, budget.iterations),
                                     ("milliseconds", limits.MAX_SEARCH_MILLISECONDS, budget.milliseconds)):
                if given > most and key in spec:
                    self.problems.add(file.diagnostic(spec.value_positions[key],
                                                      f"{key} may be at most {most:,} (docs/limits.md)"))
            decisions = settings.search.decisions
            if "decisions" in spec:
                kinds = spec["decisions"]
                good = [self.name(file, kind, kinds.positions[i], B.SEARCHABLE, "kind of decision")
                        for i, kind in enumerate(kinds)]
                if all(good):
                    decisions = tuple(str(kind) for kind in kinds)
            settings = attrs.evolve(settings, search=B.SearchSettings(budget=budget, decisions=decisions, **numbers))
        return settings

    def bot_file(self, path: Path, known: Dict[str, type]):
        if not os.path.lexists(path):
            return None
        file, data = self.read(path)
        if file is None or data is None:
            return None
        spec, _ = self.fields(file, data, path.name, {}, known)
        return None if spec is None else (file, spec)

    def bot_numbers(self, file: YamlFile, spec: Map, keys, defaults) -> Dict[str, Any]:
        """The numbers ``keys`` names that ``spec`` gives, checked against their least value."""
        out = {}
        for key, (kind, least) in keys.items():
            if key not in spec:
                continue
            value = spec[key]
            if least is not None and value < least:
                self.problems.add(file.diagnostic(spec.value_positions[key], f"'{key}' must be at least {least}"))
                continue
            out[key] = kind(value)
        return out

    def weights(self, file: YamlFile, value: Any, at) -> Optional[B.Weights]:
        spec, ok = self.fields(file, value, "the evaluation", {}, {"breached": dict, **_types(B.WEIGHT_KEYS)}, at=at)
        if spec is None:
            return None
        numbers = self.bot_numbers(file, spec, B.WEIGHT_KEYS, None)
        breached = []
        zones = [z.name for z in self.board.zones]
        for zone, weight in (spec.get("breached") or {}).items():
            where = spec["breached"].value_positions[zone]
            if not self.name(file, zone, spec["breached"].key_positions[zone], zones, "zone"):
                ok = False
            elif not _is(weight, float):
                self.problems.add(file.diagnostic(where, f"the weight of a breach of {zone} should be a number"))
                ok = False
            else:
                breached.append((str(zone), float(weight)))
        return B.Weights(breached=tuple(breached), **numbers) if ok else None

    # -------------------------------------------------------------- locales
    def catalogs(self, strategy: Sequence[StrategyCard], objectives: Sequence[ObjectiveCard]) -> Dict[str, Catalog]:
        folder = self.root / "locale"
        langs = self.listing(folder, folders=True)
        if langs is None:
            return {}
        if not langs:
            self.problems.add(Diagnostic(message="no locale catalogs", path=display_path(folder),
                                         expected="a folder per language, such as locale/en/"))
            return {}
        catalogs: Dict[str, Catalog] = {}
        files_of: Dict[str, List[YamlFile]] = {}
        for lang_dir in langs:
            lang = lang_dir.name
            messages: Dict[str, str] = {}
            positions: Dict[str, Tuple[str, int, int]] = {}
            files_of[lang] = []
            contractions = _Contractions()
            for path in self.listing(lang_dir, ".yaml") or ():
                file, data = self.read(path)
                if file is None or data is None:
                    continue
                files_of[lang].append(file)
                if not isinstance(data, Map):
                    self.problems.add(file.diagnostic((1, 1), "a catalog file is a mapping of keys to texts"))
                    continue
                for key, value, parent, leaf in flatten(data):
                    position = parent.value_positions[leaf]
                    if key in messages:
                        first = positions[key]
                        self.problems.add(file.diagnostic(parent.key_positions[leaf], f"message '{shown(key)}' is given twice",
                                                          hint=f"also at {first[0]}:{first[1]}"))
                        continue
                    if not isinstance(value, str):
                        self.problems.add(file.diagnostic(position, f"message '{shown(key)}' should be text",
                                                          hint="quote it if it looks like a number or yes/no"))
                        continue
                    # a text without braces has no placeholders to check (most texts: every load reads them all)
                    braces = "{" in value or "}" in value
                    depth = _brace_depth(value) if braces else 0
                    if depth > limits.MAX_MESSAGE_DEPTH:  # formatting recurses once per level
                        self.problems.add(file.diagnostic(position, f"message '{shown(key)}' nests placeholders "
                                                                    f"{depth} deep; at most {limits.MAX_MESSAGE_DEPTH}"))
                        continue
                    try:
                        if braces:
                            format_message(value, _sample_params(value))
                    except MessageError as error:
                        self.problems.add(file.diagnostic(position, f"message '{shown(key)}': {error}"))
                        continue
                    if key.startswith(CONTRACTIONS):
                        problem = contractions.add(key[len(CONTRACTIONS):], str(value))
                        if problem:
                            self.problems.add(file.diagnostic(
                                parent.key_positions[leaf], problem,
                                hint="a contraction joins words ('de el' -> 'del'): it seldom lengthens a text, "
                                     "and never many times over (docs/limits.md)"))
                            continue
                    messages[key] = str(value)
                    positions[key] = (file.path, position[0], position[1])
            catalogs[lang] = Catalog(lang, messages, positions)
        if REFERENCE_LANG not in catalogs:
            self.problems.add(Diagnostic(message=f"no '{REFERENCE_LANG}' catalog",
                                         path=display_path(folder / REFERENCE_LANG),
                                         expected="the reference catalog, which every other language follows"))
            return catalogs
        required = list(self.required_keys(strategy, objectives))
        # Only the reference catalog must be complete: another language may be
        # partly translated (its gaps fall back to the reference, and
        # `crisis i18n check` lists them), so a translation in progress never
        # stops a game.
        for lang, catalog in ((REFERENCE_LANG, catalogs[REFERENCE_LANG]),):
            missing = 0
            for key in required:
                if not catalog.has(key):
                    files = files_of.get(lang) or [None]
                    file = _file_for_key(files, catalog, key)
                    missing += 1
                    # each guess compares the key with every message: only the first few are
                    # guessed, so a thousand new cards without texts are reported in a second
                    guess = (did_you_mean(key, list(catalog.messages), cutoff=0.85)
                             if missing <= _GUESSED_KEYS else None)
                    diagnostic = Diagnostic(message=f"locale '{lang}' has no text for '{key}'",
                                            path=file.path if file else display_path(self.root / "locale" / lang),
                                            expected=f"a '{key.split('.')[-1]}:' entry"
                                                     + (f" under '{key.rsplit('.', 1)[0]}:'" if "." in key else ""),
                                            hint=f"did you mean '{guess}'? (keys must match exactly)" if guess else None)
                    self.problems.add(diagnostic)
        reference = catalogs[REFERENCE_LANG]
        for catalog in catalogs.values():
            if catalog is not reference:
                catalog.fallback = reference
        return catalogs

    def required_keys(self, strategy, objectives) -> Iterable[str]:
        board = self.board
        yield from (f"sides.{s}" for s in board.sides)
        yield from (f"spaces.{s}" for s in board.spaces)
        yield from (f"dimensions.{d.name}" for d in board.dimensions)
        yield from (f"zones.{z.name}" for z in board.zones)
        yield from (f"markers.{m.name}" for m in board.markers)
        yield from (f"cards.{c.id}.title" for c in strategy)
        yield from (f"objectives.{c.id}.title" for c in objectives)
        yield from (f"scoring.{label}" for label, _ in self.procedures_labels)
        yield from self.required_messages

    # ---------------------------------------------------------------- all
    def measure(self) -> None:
        """The size of the whole content, from the folders' listings, before any file is parsed.

        Problems with single files are left to the reading that follows, which reports them in place.
        """
        root = self.root
        paths = [root / "game.yaml", root / "rules.yaml", root / "locale" / "glossary.yaml"]
        folders = [root / "cards", root / "bots"]
        try:
            folders += list_folder(root / "locale", root, folders=True)
        except ContentError:
            pass
        for folder in folders:
            try:
                paths += list_folder(folder, root, ".yaml")
            except ContentError:
                continue
        total = 0
        for path in paths:
            try:
                info = os.stat(real_inside(path, root))
            except (ContentError, OSError):
                continue
            if stat.S_ISREG(info.st_mode):
                total += info.st_size
        if total > self.budget.max_bytes:
            raise ContentError(Diagnostic(message=f"the content's files add up to more than the limit of "
                                                  f"{size_text(self.budget.max_bytes)}",
                                          path=display_path(root), hint="docs/limits.md lists the limits on content"))

    def load(self) -> Content:
        if os.path.lexists(self.root):
            real_inside(self.root, None)  # a folder that is a loop of links is refused here
        if not os.path.lexists(self.root / "game.yaml"):
            raise NotContent([Diagnostic(message="this is not a content directory: it has no game.yaml",
                                           path=display_path(self.root),
                                           expected="a folder with game.yaml, rules.yaml, cards/ and locale/")])
        self.measure()
        self.board = self.read_board()
        if self.board is None:
            raise ContentError(self.problems.items)
        self.vocabulary = self.board.vocabulary()
        self.board_zones_with_boxes = [z.name for z in self.board.zones if z.box]
        procedures = self.procedures()
        self.procedures_labels = procedures.final_scoring if procedures else ()
        strategy, objectives = self.cards()
        from .solo import load_solo
        # the solo opponent's turn carries out card events and breach effects: its work bound needs theirs
        self.strategy_cards = strategy
        self.procedures_loaded = procedures
        work = Work(self.vocabulary)
        self.breach_work = sum(max(work.block(r.tree) for r in pair if r is not None)
                               for pair in (procedures.breach_effects.values() if procedures else ())
                               if any(r is not None for r in pair))
        solo = load_solo(self)
        # the general engine's definition of the game (docs/engine.md): state, sequence of play,
        # solo overlay. While both engines read the cards, a card's mistake is reported once, by the
        # first reading; the definition is read when the rest is sound
        definition = None
        if (self.root / "state.yaml").exists() and not self.problems.items:
            from .definition import DefinitionReader
            with _not_in_digest(self):
                definition = DefinitionReader(self).read(self.root)
        catalogs = self.catalogs(strategy, objectives)
        bots = self.bots()
        if self.problems.items or procedures is None:
            raise ContentError(self.problems.items or [Diagnostic(message="the procedures of play could not be loaded",
                                                                  path=display_path(self.root / "rules.yaml"))])
        # The digest names the game as played: board, procedures and cards.
        # Locale files are left out, so fixing a translation never makes a
        # saved game refuse to resume.
        digest = hashlib.sha256()
        for name in sorted(self.files):
            if Path(name).parts[0] not in ("locale", "bots"):  # nor the bots' settings
                digest.update(name.encode() + b"\0" + self.files[name] + b"\0")
        content = Content(root=str(self.root), board=self.board, procedures=procedures,
                          strategy_cards=tuple(strategy), objective_cards=tuple(objectives),
                          catalogs=catalogs, digest=digest.hexdigest()[:16], warnings=tuple(self.warnings),
                          solo=solo, bots=bots, definition=definition)
        # a hand-written card text may never disagree with the card's rule
        from .i18n import check_card_texts
        disagreements = [d for lang in sorted(catalogs) for d in check_card_texts(content, lang)]
        if disagreements:
            raise ContentError(disagreements)
        return content


class _not_in_digest:
    """Files read while the game moves onto the general engine (state.yaml, sequence.yaml,
    solo/overlay.yaml) are left out of the digest: the digest names the game as saved games know
    it, and the move changes no game (tests/test_engine_differential.py)."""

    def __init__(self, loader):
        self.loader = loader

    def __enter__(self):
        self.before = set(self.loader.files)

    def __exit__(self, *exc):
        for name in set(self.loader.files) - self.before:
            if not Path(name).name.startswith("aid-"):
                del self.loader.files[name]
        return False


def _file_for_key(files: List[YamlFile], catalog: Catalog, key: str) -> Optional[YamlFile]:
    """The catalog file that holds the key's neighbours, where a missing key most likely belongs."""
    prefix = key.split(".")[0] + "."
    for other, (path, _, _) in catalog.positions.items():
        if other.startswith(prefix):
            for file in files:
                if file is not None and file.path == path:
                    return file
    return files[0]


_GUESSED_KEYS = 20  # missing catalog keys given a 'did you mean'


_BRACES = re.compile(r"\{\{|\}\}|[{}]")


def _at_heaviest(tree, weights, source, message: str, hint: str) -> Diagnostic:
    """A diagnostic at the first word of a rule's heaviest statement."""
    heaviest = tree.statements[weights.index(max(weights))]
    line, column = (heaviest.pos.line, heaviest.pos.column) if heaviest.pos else (1, 1)
    return diagnostic_at(source, line, column, message, hint=hint)


def _large(n: int) -> str:
    """A bound for a message: in full below a million billion, which no accepted rule comes near."""
    return f"up to {n:,}" if n < 10 ** 15 else "more than 10^15"


CONTRACTIONS = "grammar.contractions."


class _Contractions:
    """A language's contractions, bounded as they are read: each is a pass over every text the
    language formats, and together they may lengthen a text at most ``MAX_CONTRACTION_GROWTH``
    times (docs/limits.md), whichever texts they meet and however one feeds another."""

    def __init__(self):
        self.count = 0
        self.growth = Fraction(1)

    def add(self, old: str, new: str) -> Optional[str]:
        """The problem with one more contraction ``old`` -> ``new``, or None."""
        if not old:
            return "a contraction replaces some text: its key is empty"
        self.count += 1
        if self.count > limits.MAX_CONTRACTIONS:
            return f"more than {limits.MAX_CONTRACTIONS:,} contractions in one language"
        growth = self.growth * _pass_growth(old, new) * _pass_growth(*map(Catalog.capitalized, (old, new)))
        if growth > limits.MAX_CONTRACTION_GROWTH:
            return (f"the contractions could make a text {_times(growth)} times longer "
                    f"(at most {limits.MAX_CONTRACTION_GROWTH} times)")
        self.growth = growth
        return None


def _pass_growth(old: str, new: str) -> Fraction:
    """At most how many times longer one replacement of ``old`` by ``new`` makes any text (it can
    replace no more than one ``old`` for each len(old) characters)."""
    return max(Fraction(1), Fraction(len(new), len(old)))


def _times(growth: Fraction) -> str:
    return f"{round(growth):,}" if growth >= 10 else f"{float(growth):.3g}"


def _brace_depth(message: str) -> int:
    """How deep a message's placeholders nest ('{{' and '}}' outside them are plain braces).

    Only the braces are visited (every message with a brace is measured at each load)."""
    depth = deepest = 0
    for match in _BRACES.finditer(message):
        braces = match.group()
        if len(braces) == 2 and depth == 0:
            continue
        for brace in braces:  # inside a placeholder, a doubled brace is two braces
            if brace == "{":
                depth += 1
                deepest = max(deepest, depth)
            elif depth:
                depth -= 1
    return deepest


def _sample_params(message: str) -> Dict[str, object]:
    """Parameters that let a message be formatted, to catch broken placeholder syntax."""
    return {name: 1 for name in placeholders(message)}


def _is(value: Any, kind) -> bool:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for k in kinds:
        if k is int and isinstance(value, int) and not isinstance(value, bool):
            return True
        if k is bool and isinstance(value, bool):
            return True
        if k is str and isinstance(value, str):
            return True
        if k is list and isinstance(value, list):
            return True
        if k is dict and isinstance(value, dict):
            return True
        if k is float and isinstance(value, (int, float)) and not isinstance(value, bool):
            return True
    return False


def _types(keys) -> Dict[str, type]:
    return {key: kind for key, (kind, _) in keys.items()}


def _kind_name(kind) -> str:
    names = {int: "a whole number", str: "text", list: "a list", dict: "a mapping", float: "a number",
             bool: "true or false"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names[k] for k in kinds)


_NAME = re.compile(r"^[A-Z][A-Za-z'\-]*( [A-Z][A-Za-z'\-]*)*$")
_NAME_HINT = "names start with a capital letter and use letters, spaces, ' and -"


def _is_name(text: str) -> bool:
    return len(text) <= limits.MAX_NAME_CHARS and bool(_NAME.match(text))


def _width(value) -> int:
    """How much of a quoted value a caret underlines."""
    return max(1, min(len(str(value)), limits.MAX_SHOWN_CHARS))


def load_content(path: Optional[os.PathLike | str] = None, required_messages: Iterable[str] = (),
                 overrides: Optional[Dict[str, str]] = None) -> Content:
    """Load and check the content in ``path`` (the embedded game if None).

    ``overrides`` maps absolute file paths to text that stands for the file's
    (an editor's unsaved buffer)."""
    root = Path(os.path.abspath(path)) if path is not None else default_content_dir()
    with treecache.session():  # rule texts parsed in an earlier run are not parsed again
        return _Loader(root, required_messages, overrides).load()


def read_game(root, option_names: Tuple[str, ...] = ()):
    """A game written only for the general engine (no old-format files): its definition, checked;
    ContentError with every problem, nothing half-loaded."""
    from .definition import DefinitionReader
    root = Path(os.path.abspath(root))
    loader = _Loader(root, (), None)
    with treecache.session():
        definition = DefinitionReader(loader).read(root, option_names)
    if loader.problems.items or definition is None:
        raise ContentError(list(loader.problems.items))
    return definition


def load_definition(root):
    """The general engine's definition of the content at ``root`` (read with the rest of it)."""
    definition = load_content(root).definition
    if definition is None:
        raise ContentError([])
    return definition
