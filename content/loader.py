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
import os
import re
from importlib import resources
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from crisis.ruleset import checker as C
from crisis.ruleset.checker import Checker, Slot
from crisis.ruleset.diagnostics import Diagnostic, RulesError, did_you_mean, one_of
from crisis.ruleset.parser import parse_block, parse_condition

from .locale import Catalog, MessageError, flatten, format_message, placeholders
from .model import (Board, Content, Dimension, Marker, ObjectiveCard, Procedures, Rule,
                    StrategyCard, Zone)
from .yamlfile import ContentError, Map, Text, YamlFile

GAME_DIR = "fort-sumter"
REFERENCE_LANG = "en"  # the catalog every other language is checked against
CARD_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
PROVENANCE = ("known", "authored")


def default_content_dir() -> Path:
    """The content shipped inside the package."""
    return Path(str(resources.files("crisis.content") / GAME_DIR))


def display_path(path: Path) -> str:
    """A path as a designer would type it: relative to the working directory when inside it."""
    path = Path(path).absolute()
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


class _Problems:
    def __init__(self):
        self.items: List[Diagnostic] = []

    def add(self, diagnostic: Diagnostic) -> None:
        self.items.append(diagnostic)

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.items.extend(diagnostics)


class _Loader:
    def __init__(self, root: Path, required_messages: Iterable[str]):
        self.root = root
        self.required_messages = tuple(required_messages)
        self.problems = _Problems()
        self.warnings: List[Diagnostic] = []
        self.files: Dict[str, bytes] = {}

    # ------------------------------------------------------------- reading
    def read(self, path: Path) -> Tuple[Optional[YamlFile], Any]:
        shown = display_path(path)
        try:
            raw = path.read_bytes()
        except OSError as error:
            self.problems.add(Diagnostic(message=f"cannot read this file: {error.strerror}", path=shown))
            return None, None
        self.files[str(path.relative_to(self.root))] = raw
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            self.problems.add(Diagnostic(message=f"this file is not UTF-8 text ({error.reason})", path=shown))
            return None, None
        file = YamlFile(shown, text)
        try:
            return file, file.load()
        except ContentError as error:
            self.problems.extend(error.diagnostics)
            return file, None

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
                self.problems.add(file.diagnostic(value.key_positions[key], f"unknown key '{key}' in {what}",
                                                  width=len(str(key)), expected=one_of(list(known)),
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
        try:
            tree = (parse_condition if condition else parse_block)(str(value), source)
        except RulesError as error:
            self.problems.extend(error.diagnostics)
            return None
        checker = Checker(self.vocabulary)
        found = (checker.check_condition(tree, slot, source) if condition
                 else checker.check_block(tree, slot, source))
        errors = [d for d in found if d.severity == "error"]
        self.problems.extend(errors)
        self.warnings.extend(d for d in found if d.severity != "error")
        return None if errors else Rule(str(value), tree, source)

    def name(self, file: YamlFile, value: Any, position, kinds: Sequence[str], kind: str) -> bool:
        if isinstance(value, str) and value in kinds:
            return True
        guess = did_you_mean(str(value), kinds) if isinstance(value, str) else None
        self.problems.add(file.diagnostic(position, f"unknown {kind} '{value}'", width=len(str(value)),
                                          expected=f"a {kind}: {one_of(list(kinds))}",
                                          hint=f"did you mean '{guess}'?" if guess else None))
        return False

    # ----------------------------------------------------------------- game
    def read_board(self) -> Optional[Board]:
        file, data = self.read(self.root / "game.yaml")
        if file is None or data is None:
            if file is not None:
                self.problems.add(file.diagnostic(None, "game.yaml is empty"))
            return None
        counts = ("tokens_per_side", "max_tokens_per_space", "rounds", "strategy_cards_dealt",
                  "cards_played_per_round", "objective_cards_dealt", "final_crisis_hand")
        spec, ok = self.fields(file, data, "game.yaml",
                               {"game": str, "sides": list, "dimensions": list, "crisis_track": dict,
                                **{c: int for c in counts}},
                               {"markers": dict})
        if not ok:
            return None
        for key in counts:
            if spec[key] < 1:
                self.problems.add(file.diagnostic(spec.value_positions[key], f"'{key}' must be at least 1"))
                ok = False
        sides = spec["sides"]
        if len(sides) != 2 or not all(isinstance(s, str) for s in sides):
            self.problems.add(file.diagnostic(spec.value_positions["sides"], "a game has exactly two sides",
                                              expected="a list of two side names"))
            return None
        dimensions = []
        seen_spaces: Dict[str, Tuple[int, int]] = {}
        for index, entry in enumerate(spec["dimensions"]):
            d, good = self.fields(file, entry, "a dimension", {"name": str, "spaces": list}, {},
                                  at=spec["dimensions"].positions[index])
            if not good:
                ok = False
                continue
            for i, space in enumerate(d["spaces"]):
                where = d["spaces"].positions[i]
                if not isinstance(space, str) or not _is_name(space):
                    self.problems.add(file.diagnostic(where, f"'{space}' cannot be a space name",
                                                      hint="names start with a capital letter and use letters, spaces, ' and -"))
                    ok = False
                elif space in seen_spaces:
                    self.problems.add(file.diagnostic(where, f"space '{space}' is listed twice",
                                                      hint=f"first listed on line {seen_spaces[space][0]}"))
                    ok = False
                else:
                    seen_spaces[space] = where
            if not d["spaces"]:
                self.problems.add(file.diagnostic(spec["dimensions"].positions[index], "a dimension needs spaces"))
                ok = False
            dimensions.append(Dimension(str(d["name"]), tuple(str(s) for s in d["spaces"])))
        track, good = self.fields(file, spec["crisis_track"], "crisis_track", {"top": int, "zones": list}, {},
                                  at=spec.value_positions["crisis_track"])
        zones = []
        if not good:
            ok = False
        else:
            expected_top = track["top"]
            for index, entry in enumerate(track["zones"]):
                z, good = self.fields(file, entry, "a zone", {"name": str, "from": int, "to": int}, {"box": int},
                                      at=track["zones"].positions[index])
                if not good:
                    ok = False
                    continue
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
        for name, entry in (spec.get("markers") or {}).items():
            m, good = self.fields(file, entry, f"marker '{name}'", {"blocks": list}, {},
                                  at=spec["markers"].value_positions[name])
            if not good:
                ok = False
                continue
            unknown = [b for b in m["blocks"] if b not in ("placement", "removal")]
            if unknown:
                self.problems.add(file.diagnostic(spec["markers"].value_positions[name],
                                                  f"a marker can block placement or removal, not {unknown[0]}"))
                ok = False
            markers.append(Marker(str(name), "placement" in m["blocks"], "removal" in m["blocks"]))
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
        names = {}
        for kind, group in (("side", board.sides), ("space", board.spaces),
                            ("dimension", [d.name for d in board.dimensions]),
                            ("zone", [z.name for z in board.zones]), ("marker", [m.name for m in board.markers])):
            for name in group:
                if not _is_name(name):
                    self.problems.add(file.diagnostic(None, f"'{name}' cannot be a {kind} name",
                                                      hint="names start with a capital letter and use letters, spaces, ' and -"))
                    return None
                if name in names and names[name] != kind:
                    self.problems.add(file.diagnostic(None, f"'{name}' names both a {names[name]} and a {kind}",
                                                      hint="rules refer to things by name, so names must differ"))
                    return None
                names[name] = kind
        return board

    # ---------------------------------------------------------- procedures
    def procedures(self) -> Optional[Procedures]:
        file, data = self.read(self.root / "rules.yaml")
        if file is None or data is None:
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
        files = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
        if not files:
            self.problems.add(Diagnostic(message="no card files", path=display_path(folder),
                                         expected="cards/*.yaml files with strategy_cards: or objective_cards:"))
        for path in files:
            file, data = self.read(path)
            if file is None or data is None:
                continue
            spec, _ = self.fields(file, data, "a card file", {}, {"strategy_cards": list, "objective_cards": list})
            if spec is None:
                continue
            for index, entry in enumerate(spec.get("strategy_cards", [])):
                card = self.strategy_card(file, entry, spec["strategy_cards"].positions[index], ids)
                if card:
                    strategy.append(card)
            for index, entry in enumerate(spec.get("objective_cards", [])):
                card = self.objective_card(file, entry, spec["objective_cards"].positions[index], ids)
                if card:
                    objectives.append(card)
        return strategy, objectives

    def card_id(self, file: YamlFile, card: Map, ids: Dict[str, str], kind: str) -> bool:
        if "id" not in card:
            return False
        card_id = card["id"]
        position = card.value_positions["id"]
        if not CARD_ID.match(card_id):
            self.problems.add(file.diagnostic(position, f"'{card_id}' cannot be a card id",
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
        label = f"card '{card.get('id', '?')}'"
        if "value" in card and card["value"] < 1:
            self.problems.add(file.diagnostic(card.value_positions["value"], "a card's value is at least 1"))
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
            event = self.rule(file, card, "event", C.OBJECTIVE_EVENT, f"objective '{card.get('id', '?')}', event")
            ok &= event is not None
        if not ok:
            return None
        return ObjectiveCard(id=str(card["id"]), space=str(card["space"]), provenance=str(card["provenance"]),
                             event=event, note=card.get("note"))

    # -------------------------------------------------------------- locales
    def catalogs(self, strategy: Sequence[StrategyCard], objectives: Sequence[ObjectiveCard]) -> Dict[str, Catalog]:
        folder = self.root / "locale"
        langs = sorted(p for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []
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
            for path in sorted(lang_dir.glob("*.yaml")):
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
                        self.problems.add(file.diagnostic(parent.key_positions[leaf], f"message '{key}' is given twice",
                                                          hint=f"also at {first[0]}:{first[1]}"))
                        continue
                    if not isinstance(value, str):
                        self.problems.add(file.diagnostic(position, f"message '{key}' should be text",
                                                          hint="quote it if it looks like a number or yes/no"))
                        continue
                    try:
                        format_message(value, _sample_params(value))
                    except MessageError as error:
                        self.problems.add(file.diagnostic(position, f"message '{key}': {error}"))
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
            for key in required:
                if not catalog.has(key):
                    files = files_of.get(lang) or [None]
                    file = _file_for_key(files, catalog, key)
                    guess = did_you_mean(key, list(catalog.messages), cutoff=0.85)
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
    def load(self) -> Content:
        if not (self.root / "game.yaml").is_file():
            raise ContentError([Diagnostic(message="this is not a content directory: it has no game.yaml",
                                           path=display_path(self.root),
                                           expected="a folder with game.yaml, rules.yaml, cards/ and locale/")])
        self.board = self.read_board()
        if self.board is None:
            raise ContentError(self.problems.items)
        self.vocabulary = self.board.vocabulary()
        self.board_zones_with_boxes = [z.name for z in self.board.zones if z.box]
        procedures = self.procedures()
        self.procedures_labels = procedures.final_scoring if procedures else ()
        strategy, objectives = self.cards()
        catalogs = self.catalogs(strategy, objectives)
        if self.problems.items or procedures is None:
            raise ContentError(self.problems.items or [Diagnostic(message="rules.yaml could not be loaded")])
        # The digest names the game as played: board, procedures and cards.
        # Locale files are left out, so fixing a translation never makes a
        # saved game refuse to resume.
        digest = hashlib.sha256()
        for name in sorted(self.files):
            if Path(name).parts[0] != "locale":
                digest.update(name.encode() + b"\0" + self.files[name] + b"\0")
        content = Content(root=str(self.root), board=self.board, procedures=procedures,
                          strategy_cards=tuple(strategy), objective_cards=tuple(objectives),
                          catalogs=catalogs, digest=digest.hexdigest()[:16], warnings=tuple(self.warnings))
        # a hand-written card text may never disagree with the card's rule
        from .i18n import check_card_texts
        disagreements = [d for lang in sorted(catalogs) for d in check_card_texts(content, lang)]
        if disagreements:
            raise ContentError(disagreements)
        return content


def _file_for_key(files: List[YamlFile], catalog: Catalog, key: str) -> Optional[YamlFile]:
    """The catalog file that holds the key's neighbours, where a missing key most likely belongs."""
    prefix = key.split(".")[0] + "."
    for other, (path, _, _) in catalog.positions.items():
        if other.startswith(prefix):
            for file in files:
                if file is not None and file.path == path:
                    return file
    return files[0]


def _sample_params(message: str) -> Dict[str, object]:
    """Parameters that let a message be formatted, to catch broken placeholder syntax."""
    return {name: 1 for name in placeholders(message)}


def _is(value: Any, kind) -> bool:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for k in kinds:
        if k is int and isinstance(value, int) and not isinstance(value, bool):
            return True
        if k is str and isinstance(value, str):
            return True
        if k is list and isinstance(value, list):
            return True
        if k is dict and isinstance(value, dict):
            return True
    return False


def _kind_name(kind) -> str:
    names = {int: "a whole number", str: "text", list: "a list", dict: "a mapping"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names[k] for k in kinds)


_NAME = re.compile(r"^[A-Z][A-Za-z'\-]*( [A-Z][A-Za-z'\-]*)*$")


def _is_name(text: str) -> bool:
    return bool(_NAME.match(text))


def load_content(path: Optional[os.PathLike | str] = None, required_messages: Iterable[str] = ()) -> Content:
    """Load and check the content in ``path`` (the embedded game if None)."""
    root = Path(path) if path is not None else default_content_dir()
    return _Loader(root.resolve() if path is not None else root, required_messages).load()
