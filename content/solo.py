"""The earlier engine's content (interpreter/compile.py, flow.py, tables.py, game.py, solo.py and
the modules around them), read with the earlier rules front end (ruleset/grammar.lark, parser.py,
checker.py) from the files only that engine reads: ``game.yaml`` (the board and numbers),
``rules.yaml`` (the procedures), ``cards/*.yaml`` and ``solo/solo.yaml``.

No command reads a game this way: ``load_content`` (content/loader.py) reads every game with the
general front end, and ``earlier(content)`` reads this model when the earlier engine is asked to
play (its tests and benchmarks, while it remains).  This module, those files and the earlier
front end go with that engine.

The solo game: ``<content>/solo/`` (solo rulebook; docs/solo.md).  ``solo.yaml`` holds the definitions, the steps of the sequence of play that
change, the solo opponent's procedures and priorities, the difficulty levels
and the rules replaced for both sides; ``aid-*.yaml`` hold one Solo Opponent
Aid each (its two space-selection tables).  Every rule is parsed and checked
like card text; problems are reported with their file, line and column.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import attrs

from crisis.ruleset import checker as C
from crisis.ruleset.checker import Checker, Slot, Vocabulary
from crisis.ruleset import ast as A
from crisis.ruleset.diagnostics import Diagnostic, RulesError, Source, diagnostic_at, did_you_mean, one_of, shown
from crisis.ruleset.treecache import parse_block, parse_condition, parse_locations  # cached trees, else the parser
from crisis.ruleset import limits

from .bots import BotSettings
from .reading import Reader
from .locale import Catalog
from .yamlfile import ContentError, Map, Text, YamlFile, display_path


@attrs.frozen
class Rule:
    """A piece of rule text, parsed and checked."""

    text: str
    tree: Union[A.Block, A.Node]
    source: Optional[Source] = attrs.field(default=None, eq=False, repr=False)


@attrs.frozen
class Dimension:
    name: str
    spaces: Tuple[str, ...]

    @property
    def pivotal(self) -> str:
        return self.spaces[0]


@attrs.frozen
class Zone:
    name: str
    top: int  # highest track space in the zone
    bottom: int
    box: int  # bonus tokens per side in the zone's box (0: no box)


@attrs.frozen
class Marker:
    name: str
    blocks_placement: bool
    blocks_removal: bool


@attrs.frozen
class Board:
    """The map, the pieces and the numbers of the sequence of play."""

    game: str
    sides: Tuple[str, ...]
    tokens_per_side: int
    max_tokens_per_space: int
    rounds: int
    strategy_cards_dealt: int
    cards_played_per_round: int
    objective_cards_dealt: int
    final_crisis_hand: int
    dimensions: Tuple[Dimension, ...]
    track_top: int
    zones: Tuple[Zone, ...]
    markers: Tuple[Marker, ...]

    @property
    def spaces(self) -> Tuple[str, ...]:
        return tuple(s for d in self.dimensions for s in d.spaces)

    @property
    def track_size(self) -> int:
        return self.track_top + 1

    def vocabulary(self) -> Vocabulary:
        return Vocabulary(
            sides=self.sides,
            spaces={s: d.name for d in self.dimensions for s in d.spaces},
            dimensions={d.name: d.spaces for d in self.dimensions},
            pivotal=frozenset(d.pivotal for d in self.dimensions),
            zones=tuple(z.name for z in self.zones),
            boxes=frozenset(z.name for z in self.zones if z.box),
            markers=tuple(m.name for m in self.markers),
            tokens_per_side=self.tokens_per_side,
            max_per_space=self.max_tokens_per_space,
            rounds=self.rounds,
            track_size=self.track_size,
            box_sizes={z.name: z.box for z in self.zones if z.box},
        )


@attrs.frozen
class StrategyCard:
    id: str
    value: int
    event_for: Tuple[str, ...]  # the sides whose colour is in the value box
    final_crisis: str  # dimension on the Final Crisis band
    provenance: str  # "known" | "authored"
    event: Optional[Rule]
    note: Optional[str] = None


@attrs.frozen
class ObjectiveCard:
    id: str
    space: str
    provenance: str
    event: Optional[Rule]
    note: Optional[str] = None


@attrs.frozen
class Procedures:
    """The rules of play that are written in the rules language (rules.yaml)."""

    first_player: Tuple[Rule, ...]
    breach_effects: Dict[str, Tuple[Rule, Rule]]  # zone -> (first breacher, second breacher)
    pivotal_bonus: Rule
    dimension_scoring: Rule
    objective_scoring: Rule
    final_crisis_trigger: Rule
    final_crisis_start: Optional[Rule]
    final_crisis_matching: Rule
    final_crisis_not_matching: Rule
    final_scoring: Tuple[Tuple[str, Rule], ...]
    tie_breaks: Tuple[Rule, ...]


@attrs.frozen
class Row:
    """One row of a space-selection table, or one line of a priority selection."""

    rule: Rule  # a set of spaces (Locations)
    provenance: str  # "known" | "authored"
    note: Optional[str] = None
    ties: Optional[str] = None  # priority lines: "die", or the table ("place", "remove") that picks among several
    tokens: Optional[str] = None  # a row used only when selecting for "own" (its own) or "opponent" tokens


@attrs.frozen
class Aid:
    """A Solo Opponent Aid: the two space-selection tables of the side the game plays."""

    side: str
    tables: Dict[str, Tuple[Row, ...]]  # "place" (place or replace) and "remove"


@attrs.frozen
class AvailableCase:
    """Where Available tokens come from, while ``when`` holds (None: otherwise)."""

    when: Optional[Rule]
    tokens: Rule  # holders (Locations)


@attrs.frozen
class SoloSequence:
    """The steps of the Solo Sequence of Play that differ from the two-player game."""

    strategy_cards_dealt: Dict[str, int]  # "player" / "opponent" -> cards dealt each round
    objectives_drawn: int  # drawn face up for the player to share out
    redraw_same_dimension: bool  # both drawn in one dimension: return, shuffle, draw again
    pivotal_bonus_order: str  # who orders the solo opponent's pivotal bonuses: "player" | "opponent"
    final_crisis_order: str  # the solo opponent's Final Crisis cards: "drawn" (in draw order)


@attrs.frozen
class SoloContent:
    """Everything the solo opponent does (content/<game>/solo/)."""

    options: Dict[str, object]  # game options forced on in a solo game
    difficulty: Tuple[Tuple[str, int], ...]  # level -> the solo opponent's starting VP; the first is the default
    terms: Dict[str, Tuple[str, Rule]]  # defined term -> ("card" | "space", its condition)
    available: Tuple[AvailableCase, ...]
    placement: Tuple[str, ...]  # terms every placement by the solo opponent must meet (its Room)
    exclusive_options: Tuple[str, ...]  # criteria, in order: "fully", "pieces"
    markers: Dict[str, Tuple[Row, ...]]  # marker -> priority selection
    sequence: SoloSequence
    rules: Dict[str, object]  # two-player procedures replaced for both sides
    opponent: Dict[str, Rule]  # the solo opponent's own procedures
    aids: Dict[str, Aid]  # by side


@attrs.frozen(eq=False)
class EarlierContent:
    """The earlier engine's model of a game (the general engine's definition beside it)."""

    root: str
    board: Board
    procedures: Procedures
    strategy_cards: Tuple[StrategyCard, ...]
    objective_cards: Tuple[ObjectiveCard, ...]
    catalogs: Dict[str, Catalog]
    digest: str  # identifies the rules of this content, not its texts (saved games refer to it)
    # problems that do not stop a game (`crisis check` prints them; --strict fails on them)
    warnings: Tuple = attrs.field(default=(), eq=False, repr=False)
    solo: Optional[SoloContent] = None  # the solo game, when the content has one
    # the bots' settings (bots/*.yaml); not rules, so not in the digest
    bots: BotSettings = attrs.field(factory=BotSettings, eq=False, repr=False)
    # the general engine's definition of the game (docs/engine.md), when the content has one
    definition: Optional[object] = attrs.field(default=None, eq=False, repr=False)
    loaded: Optional[object] = attrs.field(default=None, eq=False, repr=False)  # the content as load_content made it

    @property
    def program(self):
        """The general engine's program of the same content."""
        return self.loaded.program

    @property
    def game(self) -> str:
        return self.board.game

    @property
    def sides(self) -> Tuple[str, ...]:
        return self.board.sides

    @property
    def vocabulary(self) -> Vocabulary:
        """The names rules may use: the board's, and the terms the solo game defines."""
        vocabulary = self.board.vocabulary()
        if self.solo is not None:
            vocabulary = attrs.evolve(vocabulary, terms={name: kind for name, (kind, _) in self.solo.terms.items()})
        return vocabulary

    def catalog(self, lang: str) -> Catalog:
        return self.catalogs[lang]

    def strategy_card(self, card_id: str) -> StrategyCard:
        for card in self.strategy_cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def objective_card(self, card_id: str) -> ObjectiveCard:
        for card in self.objective_cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

# The words content uses for the engine's generic solo machinery (docs/solo.md).
CRITERIA = {"can be carried out fully": "fully", "would place or remove pieces": "pieces"}
TABLES = ("place", "remove")
TIES = ("die",) + TABLES
ROLES = ("player", "opponent")
WHOSE = ("own", "opponent")  # a row only for selecting the solo opponent's own tokens, or only the player's
FINAL_CRISIS_ORDERS = ("drawn",)

TURN = Slot("the solo opponent's turn", cards=True)
BONUS = Slot("the solo opponent's pivotal bonus", this_dimension=True, this_space=True)
FINAL_CRISIS = Slot("the solo opponent's Final Crisis", this_dimension=True)
ROW = Slot("a Solo Opponent Aid row")
PRIORITY = Slot("a priority line")
CARD_TERM = Slot("a definition about a card", this_card=True)
SPACE_TERM = Slot("a definition about a space")
OBJECTIVES = Slot("objective scoring", revealed_objectives=True)


class SoloLoader:
    def __init__(self, loader):
        self.loader = loader  # the content loader: its files, problems and field checks
        self.problems = loader.problems
        self.vocabulary = loader.vocabulary
        self.term_rules = {}  # the definitions, once read: name -> (kind, rule)

    # -------------------------------------------------------------- rules
    def _rule(self, file: YamlFile, value: Any, position, slot: Slot, label: str, kind: str,
              about_a_space: bool = False) -> Optional[Rule]:
        if not isinstance(value, Text):
            self.problems.add(file.diagnostic(position, f"{label} should be rule text",
                                              hint="write it as a string; use '|' for several lines"))
            return None
        source = value.source(label)
        parse = {"block": parse_block, "condition": parse_condition, "spaces": parse_locations,
                 "holders": parse_locations}[kind]
        try:
            tree = parse(str(value), source)
        except RulesError as error:
            self.problems.extend(error.diagnostics)
            return None
        checker = Checker(self.vocabulary)
        if kind == "block":
            found = checker.check_block(tree, slot, source)
        elif kind == "condition":
            found = checker.check_condition(tree, slot, source, about_a_space)
        else:
            found = checker.check_locations(tree, slot, source, holders=kind == "holders")
        self.problems.extend(found)
        return None if found else Rule(str(value), tree, source)

    def _fields(self, file, value, what, required, optional, at=None):
        return self.loader.fields(file, value, what, required, optional, at=at)

    def _choice(self, file, value, position, choices, kind) -> bool:
        return self.loader.name(file, value, position, list(choices), kind)

    # ---------------------------------------------------------------- all
    def load(self, folder) -> Optional[SoloContent]:
        file, data = self.loader.read(folder / "solo.yaml")
        if file is None or data is None:
            return None
        spec, ok = self._fields(file, data, "solo.yaml",
                                {"difficulty": dict, "definitions": dict, "placement": list,
                                 "exclusive_options": list, "markers": dict, "sequence_of_play": dict,
                                 "rules": dict, "opponent": dict},
                                {"options": dict})
        if not ok:
            return None
        terms = self.terms(file, spec)
        if terms is None:
            return None
        self.term_rules = terms
        # the defined terms are words of the language from here on
        self.vocabulary = attrs.evolve(self.vocabulary, terms={n: kind for n, (kind, _) in terms.items()})
        available = self.available(file, spec)
        placement = self.placement(file, spec, terms)
        difficulty = self.difficulty(file, spec)
        criteria = self.criteria(file, spec)
        markers = self.markers(file, spec)
        sequence = self.sequence(file, spec)
        rules = self.rules(file, spec)
        opponent = self.opponent(file, spec)
        aids = self.aids(folder)
        options = dict(spec.get("options") or {})
        known = {"event_discard", "solo", "difficulty"}  # the earlier engine's game options (interpreter/game.py)
        for key in options:
            if key not in known:
                self._choice(file, key, spec["options"].key_positions[key], sorted(known), "game option")
                return None
        parts = (available, placement, difficulty, criteria, markers, sequence, rules, opponent, aids)
        if any(part is None for part in parts):
            return None
        return SoloContent(options=options, difficulty=difficulty, terms=terms, available=available,
                           placement=placement, exclusive_options=criteria, markers=markers,
                           sequence=sequence, rules=rules, opponent=opponent, aids=aids)

    # ---------------------------------------------------------- sections
    def terms(self, file, spec) -> Optional[Dict[str, Tuple[str, Rule]]]:
        """Friendly (a card) and Room (a space): ``Name: {card: ...}`` or ``{space: ...}``."""
        definitions = spec["definitions"]
        terms, ok = {}, True
        names = [n for n in definitions if n != "Available"]
        # first the names, so that one definition may use another
        self.vocabulary = attrs.evolve(self.vocabulary, terms={
            n: next(iter(definitions[n])) for n in names
            if isinstance(definitions[n], Map) and len(definitions[n]) == 1 and next(iter(definitions[n])) in
            ("card", "space")})
        for name in names:
            entry = definitions[name]
            where = definitions.value_positions[name]
            if not isinstance(entry, Map) or len(entry) != 1 or next(iter(entry)) not in ("card", "space"):
                self.problems.add(file.diagnostic(where, f"the definition of {name} says what it is about",
                                                  expected="'card: <condition on the card>' or "
                                                           "'space: <condition on the space>'"))
                ok = False
                continue
            kind = next(iter(entry))
            slot = CARD_TERM if kind == "card" else SPACE_TERM
            rule = self._rule(file, entry[kind], entry.value_positions[kind], slot, f"definition of {name}",
                              "condition", about_a_space=kind == "space")
            if rule is None:
                ok = False
            else:
                terms[name] = (kind, rule)
        if ok:
            circles = definition_circles({name: rule for name, (_, rule) in terms.items()})
            self.problems.extend(circles)
            ok = not circles
        return terms if ok else None

    def available(self, file, spec) -> Optional[Tuple[AvailableCase, ...]]:
        definitions = spec["definitions"]
        if "Available" not in definitions:
            self.problems.add(file.diagnostic(spec.key_positions["definitions"], "no definition of Available",
                                              expected="'Available:' with the places Available tokens come from"))
            return None
        entries = definitions["Available"]
        if not isinstance(entries, list) or not entries:
            self.problems.add(file.diagnostic(definitions.value_positions["Available"],
                                              "Available is a list of cases",
                                              expected="'- tokens: your pool or your crisis track' "
                                                       "(with 'when: <condition>' on all but the last)"))
            return None
        cases, ok = [], True
        for index, entry in enumerate(entries):
            case, good = self._fields(file, entry, "a case of Available", {"tokens": str}, {"when": str},
                                      at=entries.positions[index])
            if not good:
                ok = False
                continue
            when = None
            if "when" in case:
                when = self._rule(file, case["when"], case.value_positions["when"], C.PROCEDURE,
                                  "Available, when", "condition")
                ok &= when is not None
            elif index != len(entries) - 1:
                self.problems.add(file.diagnostic(entries.positions[index], "only the last case may go without "
                                                  "'when'", hint="the cases are tried in order"))
                ok = False
            tokens = self._rule(file, case["tokens"], case.value_positions["tokens"], C.PROCEDURE,
                                "Available, tokens", "holders")
            ok &= tokens is not None
            cases.append(AvailableCase(when, tokens))
        if ok and cases[-1].when is not None:
            self.problems.add(file.diagnostic(entries.positions[-1], "the last case of Available needs no 'when'",
                                              hint="it says where Available tokens come from otherwise"))
            ok = False
        return tuple(cases) if ok else None

    def placement(self, file, spec, terms) -> Optional[Tuple[str, ...]]:
        spaces = [n for n, (kind, _) in terms.items() if kind == "space"]
        ok = True
        for index, name in enumerate(spec["placement"]):
            ok &= self._choice(file, name, spec["placement"].positions[index], spaces, "space term")
        return tuple(spec["placement"]) if ok else None

    def difficulty(self, file, spec) -> Optional[Tuple[Tuple[str, int], ...]]:
        levels = spec["difficulty"]
        ok = bool(levels)
        if not levels:
            self.problems.add(file.diagnostic(spec.value_positions["difficulty"], "no difficulty level",
                                              expected="levels with the solo opponent's starting VP, "
                                                       "such as 'normal: 0'"))
        for name in levels:
            value = levels[name]
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                self.problems.add(file.diagnostic(levels.value_positions[name],
                                                  f"difficulty '{name}' should be the solo opponent's starting VP",
                                                  expected="a whole number, 0 or more"))
                ok = False
        return tuple((str(n), levels[n]) for n in levels) if ok else None

    def criteria(self, file, spec) -> Optional[Tuple[str, ...]]:
        found, ok = [], True
        for index, text in enumerate(spec["exclusive_options"]):
            if self._choice(file, text, spec["exclusive_options"].positions[index], list(CRITERIA), "criterion"):
                found.append(CRITERIA[text])
            else:
                ok = False
        return tuple(found) if ok else None

    def lines(self, file, entries, what: str, ties: bool, provenance: str = "authored") -> Optional[Tuple[Row, ...]]:
        """Rows of a table (``ties=False``) or lines of a priority selection."""
        if not isinstance(entries, list) or not entries:
            self.problems.add(file.diagnostic(getattr(entries, "positions", [None])[0] if isinstance(entries, list)
                                              else (getattr(entries, "line", 1), getattr(entries, "column", 1)),
                                              f"{what} should be a list of rows", expected="'- row: <spaces>'"))
            return None
        rows, ok = [], True
        key = "spaces" if ties else "row"
        for index, entry in enumerate(entries):
            optional = {"provenance": str, "note": str}
            if ties:
                optional["ties"] = str
            else:
                optional["tokens"] = str
            row, good = self._fields(file, entry, f"a line of {what}" if ties else f"a row of {what}",
                                     {key: str}, optional, at=entries.positions[index])
            if not good:
                ok = False
                continue
            label = f"{what}, {'line' if ties else 'row'} {index + 1}"
            rule = self._rule(file, row[key], row.value_positions[key], PRIORITY if ties else ROW, label, "spaces")
            provenance = row.get("provenance", provenance)
            if "provenance" in row:
                ok &= self._choice(file, provenance, row.value_positions["provenance"], ("known", "authored"),
                                   "provenance")
            tie = row.get("ties")
            if tie is not None:
                ok &= self._choice(file, tie, row.value_positions["ties"], TIES, "way to break a tie")
            whose = row.get("tokens")
            if whose is not None:
                ok &= self._choice(file, whose, row.value_positions["tokens"], WHOSE, "owner of tokens")
            if rule is None:
                ok = False
                continue
            rows.append(Row(rule, str(provenance), row.get("note"), tie, whose))
        return tuple(rows) if ok else None

    def markers(self, file, spec) -> Optional[Dict[str, Tuple[Row, ...]]]:
        markers, ok = {}, True
        known = [str(m) for m in self.vocabulary.markers]
        for name in spec["markers"]:
            if not self._choice(file, name, spec["markers"].key_positions[name], known, "marker"):
                ok = False
                continue
            lines = self.lines(file, spec["markers"][name], f"the {name} priorities", ties=True)
            ok &= lines is not None
            markers[str(name)] = lines
        for name in known:
            if name not in spec["markers"]:
                self.problems.add(file.diagnostic(spec.key_positions["markers"], f"no priorities for the {name}",
                                                  expected=f"a '{name}:' list: where the solo opponent puts it"))
                ok = False
        return markers if ok else None

    def sequence(self, file, spec) -> Optional[SoloSequence]:
        seq, ok = self._fields(file, spec["sequence_of_play"], "sequence_of_play",
                               {"strategy_cards_dealt": dict, "objectives_drawn": int,
                                "redraw_same_dimension": bool, "pivotal_bonus_order": str,
                                "final_crisis_order": str}, {}, at=spec.value_positions["sequence_of_play"])
        if not ok:
            return None
        dealt = seq["strategy_cards_dealt"]
        for role in dealt:
            if not self._choice(file, role, dealt.key_positions[role], ROLES, "role"):
                ok = False
            elif not isinstance(dealt[role], int) or isinstance(dealt[role], bool) or dealt[role] < 0:
                self.problems.add(file.diagnostic(dealt.value_positions[role], "a number of cards, 0 or more"))
                ok = False
        for role in ROLES:
            if role not in dealt:
                self.problems.add(file.diagnostic(seq.value_positions["strategy_cards_dealt"],
                                                  f"no count of cards for the {role}", expected=f"'{role}: N'"))
                ok = False
        if seq["objectives_drawn"] < 1:
            self.problems.add(file.diagnostic(seq.value_positions["objectives_drawn"], "at least 1 objective"))
            ok = False
        ok &= self._choice(file, seq["pivotal_bonus_order"], seq.value_positions["pivotal_bonus_order"], ROLES,
                           "role")
        ok &= self._choice(file, seq["final_crisis_order"], seq.value_positions["final_crisis_order"],
                           FINAL_CRISIS_ORDERS, "Final Crisis order")
        if not ok:
            return None
        return SoloSequence(strategy_cards_dealt={r: dealt[r] for r in ROLES},
                            objectives_drawn=seq["objectives_drawn"],
                            redraw_same_dimension=seq["redraw_same_dimension"],
                            pivotal_bonus_order=seq["pivotal_bonus_order"],
                            final_crisis_order=seq["final_crisis_order"])

    def rules(self, file, spec) -> Optional[Dict[str, object]]:
        """Two-player procedures replaced for both sides, with the slots of rules.yaml."""
        rules, ok = {}, True
        section = spec["rules"]
        allowed = {"first_player": list, "tie_breaks": list, "objective_scoring": str}
        found, good = self._fields(file, section, "rules", {}, allowed, at=spec.value_positions["rules"])
        if not good:
            return None
        for key in ("first_player", "tie_breaks"):
            if key in found:
                items = []
                for index, text in enumerate(found[key]):
                    rule = self._rule(file, text, found[key].positions[index], C.PROCEDURE, f"{key} {index + 1}",
                                      "condition")
                    ok &= rule is not None
                    items.append(rule)
                rules[key] = tuple(items)
        if "objective_scoring" in found:
            rule = self._rule(file, found["objective_scoring"], found.value_positions["objective_scoring"],
                              OBJECTIVES, "objective_scoring", "block")
            ok &= rule is not None
            rules["objective_scoring"] = rule
        return rules if ok else None

    def opponent(self, file, spec) -> Optional[Dict[str, Rule]]:
        section, ok = self._fields(file, spec["opponent"], "opponent",
                                   {"turn": str, "pivotal_bonus": str, "final_crisis": dict}, {},
                                   at=spec.value_positions["opponent"])
        if not ok:
            return None
        fc, good = self._fields(file, section["final_crisis"], "opponent final_crisis",
                                {"matching": str, "not_matching": str}, {},
                                at=section.value_positions["final_crisis"])
        procedures = {"turn": self._rule(file, section["turn"], section.value_positions["turn"], TURN,
                                         "the solo opponent's turn", "block"),
                      "pivotal_bonus": self._rule(file, section["pivotal_bonus"],
                                                  section.value_positions["pivotal_bonus"], BONUS,
                                                  "the solo opponent's pivotal bonus", "block")}
        if good:
            for key in ("matching", "not_matching"):
                procedures[f"final_crisis_{key}"] = self._rule(file, fc[key], fc.value_positions[key], FINAL_CRISIS,
                                                               f"the solo opponent's Final Crisis, {key}", "block")
        if not good or any(rule is None for rule in procedures.values()):
            return None
        return procedures

    def aids(self, folder) -> Optional[Dict[str, Aid]]:
        aids: Dict[str, Aid] = {}
        ok = True
        sides = list(self.loader.board.sides)
        for path in sorted(folder.glob("aid-*.yaml")):
            file, data = self.loader.read(path)
            if file is None or data is None:
                ok = False
                continue
            spec, good = self._fields(file, data, "a Solo Opponent Aid",
                                      {"side": str, "provenance": str, **{t: list for t in TABLES}}, {"note": str})
            if not good:
                ok = False
                continue
            if not self._choice(file, spec["side"], spec.value_positions["side"], sides, "side"):
                ok = False
                continue
            if spec["side"] in aids:
                self.problems.add(file.diagnostic(spec.value_positions["side"],
                                                  f"a second aid for the {spec['side']} side"))
                ok = False
                continue
            if not self._choice(file, spec["provenance"], spec.value_positions["provenance"], ("known", "authored"),
                                "provenance"):
                ok = False
                continue
            tables = {t: self.lines(file, spec[t], f"the {t} table", ties=False, provenance=spec["provenance"])
                      for t in TABLES}
            if any(rows is None for rows in tables.values()):
                ok = False
                continue
            aids[str(spec["side"])] = Aid(str(spec["side"]), tables)
        for side in sides:
            if side not in aids and ok:
                self.problems.add(file_problem(folder, f"no Solo Opponent Aid for the {side} side",
                                               expected=f"a file aid-{side.lower()}.yaml with 'side: {side}'"))
                ok = False
        return aids if ok else None


def file_problem(folder, message: str, expected: str):
    return Diagnostic(message=message, path=display_path(folder), expected=expected)


def load_solo(loader) -> Optional[SoloContent]:
    """The solo game in ``<root>/solo/``, or None when the content has none (problems go to the loader)."""
    folder = loader.root / "solo"
    if not folder.is_dir():
        return None
    return SoloLoader(loader).load(folder)


def _terms_used(rule: Rule) -> List[A.Name]:
    """The defined terms a definition uses, as written ("is Friendly", "with Room")."""
    return [node.term for node in rule.tree.walk() if isinstance(node, (A.CardIs, A.WithTerm))]


def definition_circles(definitions: Dict[str, Rule]) -> List[Diagnostic]:
    """Definitions that use themselves, directly or through others: each circle once, at the
    word in its first definition (in the order written) that leads back into it.

    A term is compiled by compiling the terms it uses, so a circle would recurse without end."""
    uses = {name: [word for word in _terms_used(rule) if word.text in definitions]
            for name, rule in definitions.items()}
    problems, seen = [], set()
    done = set()
    for start in definitions:
        if start in done:
            continue
        # depth first without recursion: the path from ``start``, and how far each step's uses are read
        path, next_use = [start], [0]
        while path:
            name, index = path[-1], next_use[-1]
            if index == len(uses[name]):
                done.add(name)
                path.pop()
                next_use.pop()
                continue
            next_use[-1] += 1
            word = uses[name][index].text
            if word in path:
                circle = path[path.index(word):]
                if frozenset(circle) not in seen:
                    seen.add(frozenset(circle))
                    problems.append(_circle_problem(definitions, uses, circle))
            elif word not in done:
                path.append(word)
                next_use.append(0)
    return problems


def _circle_problem(definitions: Dict[str, Rule], uses, circle: List[str]) -> Diagnostic:
    order = list(definitions)
    first = min(range(len(circle)), key=lambda i: order.index(circle[i]))
    circle = circle[first:] + circle[:first]  # from the definition written first
    name, following = circle[0], circle[1 % len(circle)]
    word = next(w for w in uses[name] if w.text == following)
    if len(circle) == 1:
        message = f"the definition of {name} uses {name} itself"
    else:
        message = f"definitions use each other in a circle: {' -> '.join(circle + [name])}"
    pos = word.pos
    rule = definitions[name]
    return diagnostic_at(rule.source, pos.line if pos else None, pos.column if pos else None, message,
                         width=len(following),
                         hint="a definition may use another only if that one does not lead back to it")


# ------------------------------------------------------------------ reading the earlier model

CARD_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
PROVENANCE = ("known", "authored")
# the limits of the earlier engine's files (game.yaml; those of the content loaded first are in limits.py)
_GAME_NUMBERS = {"tokens_per_side": 1000, "max_tokens_per_space": 100, "rounds": 50, "strategy_cards_dealt": 30,
                 "cards_played_per_round": 30, "objective_cards_dealt": 10, "final_crisis_hand": 10}
_MAX_TRACK_TOP, _MAX_SPACES, _MAX_DIMENSIONS, _MAX_ZONES, _MAX_MARKERS, _MAX_BOX = 999, 100, 20, 20, 20, 100
_MAX_STRATEGY_CARDS, _MAX_OBJECTIVE_CARDS, _MAX_CARD_VALUE = 1000, 200, 99


class EarlierLoader(Reader):
    """Reads the earlier engine's files with the earlier front end (the general engine's
    definition, catalogs and bots' settings come from the content already loaded)."""

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
        self.problems.extend(errors)
        self.warnings.extend(d for d in found if d.severity != "error")
        return None if errors else Rule(str(value), tree, source)

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
        counts = tuple(_GAME_NUMBERS)
        spec, ok = self.fields(file, data, "game.yaml",
                               {"game": str, "sides": list, "dimensions": list, "crisis_track": dict,
                                **{c: int for c in counts}},
                               {"markers": dict})
        if not ok:
            return None
        for key in counts:
            ok &= self.number(file, spec, key, 1, _GAME_NUMBERS[key])
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
        ok &= self.count(file, spec, "dimensions", _MAX_DIMENSIONS)
        for index, entry in enumerate(spec["dimensions"][:_MAX_DIMENSIONS]):
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
        if len(seen_spaces) > _MAX_SPACES:
            self.problems.add(file.diagnostic(spec.value_positions["dimensions"],
                                              f"the map has {len(seen_spaces)} spaces; the limit is {_MAX_SPACES}"))
            ok = False
        track, good = self.fields(file, spec["crisis_track"], "crisis_track", {"top": int, "zones": list}, {},
                                  at=spec.value_positions["crisis_track"])
        zones = []
        if not good or not self.number(file, track, "top", 0, _MAX_TRACK_TOP, "crisis_track"):
            ok = False
        elif not self.count(file, track, "zones", _MAX_ZONES):
            ok = False
        else:
            expected_top = track["top"]
            for index, entry in enumerate(track["zones"]):
                z, good = self.fields(file, entry, "a zone", {"name": str, "from": int, "to": int}, {"box": int},
                                      at=track["zones"].positions[index])
                if not good or ("box" in z and not self.number(file, z, "box", 0, _MAX_BOX, "a zone")):
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
        if "markers" in spec and not self.count(file, spec, "markers", _MAX_MARKERS):
            ok = False
        for name, entry in list((spec.get("markers") or {}).items())[:_MAX_MARKERS]:
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
            for key, read, cards, most in (("strategy_cards", self.strategy_card, strategy, _MAX_STRATEGY_CARDS),
                                           ("objective_cards", self.objective_card, objectives,
                                            _MAX_OBJECTIVE_CARDS)):
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
        elif "value" in card and card["value"] > _MAX_CARD_VALUE:
            self.problems.add(file.diagnostic(card.value_positions["value"],
                                              f"a card's value is at most {_MAX_CARD_VALUE}"))
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

    def load(self, content) -> EarlierContent:
        self.board = self.read_board()
        if self.board is None:
            raise ContentError(self.problems.items)
        self.board = attrs.evolve(self.board, game=content.game)  # the game's name is state.yaml's
        self.vocabulary = self.board.vocabulary()
        self.board_zones_with_boxes = [z.name for z in self.board.zones if z.box]
        procedures = self.procedures()
        self.procedures_labels = procedures.final_scoring if procedures else ()
        strategy, objectives = self.cards()
        solo = load_solo(self)
        if self.problems.items or procedures is None:
            raise ContentError(self.problems.items or [Diagnostic(message="the procedures of play could not be loaded",
                                                                  path=display_path(self.root / "rules.yaml"))])
        return EarlierContent(root=content.root, board=self.board, procedures=procedures,
                              strategy_cards=tuple(strategy), objective_cards=tuple(objectives),
                              catalogs=content.catalogs, digest=content.digest, warnings=content.warnings,
                              solo=solo, bots=content.bots, definition=content.definition, loaded=content)


_EARLIER: Dict[int, Tuple[object, EarlierContent]] = {}


def earlier(content) -> EarlierContent:
    """The earlier engine's model of a content loaded by ``load_content`` (read once per content;
    an earlier model is itself)."""
    if isinstance(content, EarlierContent):
        return content
    found = _EARLIER.get(id(content))
    if found is None or found[0] is not content:
        from crisis.ruleset import treecache
        if len(_EARLIER) >= 8:  # a process that loads content after content must not grow
            _EARLIER.clear()
        with treecache.session():
            model = EarlierLoader(Path(content.root)).load(content)
        found = _EARLIER[id(content)] = (content, model)
        object.__setattr__(content, "earlier_model", model)  # for the rules it hands over (content/phrases.py)
    return found[1]


_NAME = re.compile(r"^[A-Z][A-Za-z'\-]*( [A-Z][A-Za-z'\-]*)*$")
_NAME_HINT = "names start with a capital letter and use letters, spaces, ' and -"


def _is_name(text: str) -> bool:
    return len(text) <= limits.MAX_NAME_CHARS and bool(_NAME.match(text))


def _width(value) -> int:
    """How much of a quoted value a caret underlines."""
    return max(1, min(len(str(value)), limits.MAX_SHOWN_CHARS))
