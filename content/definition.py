"""A game's definition for the general engine: its state schema, cards, sequence of play and
procedures, every rule parsed and resolved (docs/engine.md).

``load_definition`` reads ``state.yaml``, ``sequence.yaml`` and ``cards/*.yaml``;
every problem is reported with its file, line and column, and nothing is
returned half-loaded.
"""

from __future__ import annotations


from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

import attrs

from crisis.ruleset import meaning as M
from crisis.ruleset.bound import definition_problems
from crisis.ruleset.diagnostics import RulesError, did_you_mean, one_of, shown
from crisis.ruleset.reader import keywords, parse
from crisis.ruleset.resolver import ANYWHERE, Declarations, Resolver, Slot

from .schema import Entry, Lexicon, Schema, SchemaReader
from .yamlfile import ContentError, Map, Text, YamlFile

CARD_FILE_KEYS = ("id", "provenance", "note")


@attrs.frozen
class CardSet:
    ids: Tuple[str, ...]
    fields: Tuple[tuple, ...]  # fields[field][card]: numbers, indices, side tuples, resolved rules
    texts: Tuple[tuple, ...] = ()  # texts[field][card]: a rule field as written (None for other fields)


@attrs.frozen
class UseDefinition:
    name: str
    rule: M.Block
    condition: Optional[object] = None
    target: Optional[M.CardRef] = None
    payment: Optional[M.CardFilter] = None
    option: Optional[str] = None
    pay_word: str = ""


@attrs.frozen
class Row:
    """A row of a selection table, or a line of a priority list: places, and how it is used."""

    places: object  # M.Union_
    text: str
    provenance: str = "authored"
    note: Optional[str] = None
    ties: Optional[str] = None  # priority lines: "die", or the table that picks among several
    whose: Optional[str] = None  # a row used only for the automa's "own" tokens, or the "opponent"'s


@attrs.frozen
class Overlay:
    """A way of playing the game where the game plays one side (the solo game): the roles, the
    steps and procedures it replaces, and how the side it plays chooses (docs/solo.md)."""

    roles: Tuple[str, ...]  # the first is the side the game plays, the second the person's
    options: Mapping[str, bool]
    difficulty: Tuple[Tuple[str, Tuple[Tuple[int, int], ...]], ...]  # level -> (counter, start) for its side
    available: Tuple[Tuple[Optional[object], object], ...]  # (when, holders)
    placement: Tuple[str, ...]  # terms every placement it makes must meet
    criteria: Tuple[str, ...]  # "fully", "pieces"
    markers: Mapping[int, Tuple[Row, ...]]
    steps: Mapping[str, Mapping[str, M.Block]]  # step -> role ("" for every side) -> its body
    first_player: Optional[Tuple[object, ...]]
    procedures: Mapping[str, Mapping[str, object]]  # procedure -> role ("" for every side) -> meaning
    aids: Mapping[int, Mapping[str, Tuple[Row, ...]]]  # side -> "place"/"remove" -> rows


CRITERIA = {"can be carried out fully": "fully", "would place or remove pieces": "pieces"}


@attrs.frozen
class Definition:
    schema: Schema
    declarations: Declarations
    lexicon: Lexicon
    cards: Mapping[str, CardSet]
    setup: M.Block
    play: M.Block
    first_player: Tuple[object, ...]
    played_to: int
    uses: Tuple[UseDefinition, ...]
    entering: Mapping[Tuple[int, int], Tuple[M.Block, M.Block]]
    procedures: Mapping[str, Tuple[str, object]]  # name -> (kind, meaning)
    terms: Mapping[str, Tuple[str, object]]
    overlay: Optional[Overlay] = None
    evaluation: Optional[object] = None  # the bots' judgement of a position (bots/evaluation.yaml)
    # (rule, where its text is) for every rule read: where a tool (coverage) shows a rule
    sources: Tuple[Tuple[object, object], ...] = attrs.field(default=(), eq=False, repr=False)
    # how its board is drawn for people (layout.yaml, content/boardlayout.py), when it says
    board: Optional[object] = attrs.field(default=None, eq=False, repr=False)


class DefinitionReader:
    def __init__(self, loader):
        self.loader = loader
        self.problems = loader.problems
        self.sources: Dict[int, Tuple[object, object]] = {}  # id of a rule read -> (rule, its text's place)

    def rule(self, file: YamlFile, value: Any, position, kind: str, resolver: Resolver, lexicon,
             slot: Slot = ANYWHERE, label: str = "a rule"):
        """Parse and resolve one rule text (kind: block, condition, places, card, card_filter)."""
        if not isinstance(value, Text):
            self.problems.add(file.diagnostic(position, f"{label} should be rule text",
                                              hint="write it as a string; use '|' for several lines"))
            return None
        source = value.source(label)
        start = {"block": "block", "condition": "condition_rule", "places": "places_rule", "card": "places_rule",
                 "card_filter": "places_rule", "place_condition": "condition_rule", "holders": "places_rule"}[kind]
        try:
            tree = parse(str(value), lexicon, start, source)
        except RulesError as error:
            self.problems.extend(error.diagnostics)
            return None
        if kind == "block":
            result, found = resolver.block(tree, slot, source)
        elif kind in ("condition", "place_condition"):
            result, found = resolver.condition(tree, slot, source, about_a_place=kind == "place_condition")
        elif kind == "card":
            result, found = resolver.card(tree, slot, source)
        elif kind == "card_filter":
            result, found = resolver.card_filter(tree, slot, source)
        else:
            result, found = resolver.places(tree, slot, source, holders=kind == "holders")
        errors = [d for d in found if d.severity == "error"]
        self.problems.extend(errors)
        if not errors:
            self.sources[id(result)] = (result, source)  # for the work bound (ruleset/bound.py)
        return None if errors else result

    def read(self, root: Path, option_names: Tuple[str, ...] = ()) -> Optional[Definition]:
        loader = self.loader
        schema = SchemaReader(loader, keywords=keywords()).read(root)
        if schema is None:
            return None
        file, data = loader.read(root / "sequence.yaml")
        if file is None or data is None:
            return None
        spec, _ok = loader.fields(file, data, "sequence.yaml", {"setup": str, "play": str, "first player": list,
                                                                "playing a card": dict},
                                  {"zones entered": dict, "procedures": dict, "terms": dict})
        if spec is None:
            return None
        procedures = spec.get("procedures") or Map()
        kinds: Dict[str, str] = {}
        for name, value in procedures.items():
            kinds[name] = "block" if isinstance(value, str) else (next(iter(value)) if isinstance(value, dict) and value
                                                                  else "block")
        terms_spec = spec.get("terms") or Map()
        term_kinds = {name: next(iter(value)) for name, value in terms_spec.items() if isinstance(value, dict) and value}
        overlay_file, overlay_spec = None, None
        if (root / "solo" / "overlay.yaml").exists():
            overlay_file, overlay_spec = loader.read(root / "solo" / "overlay.yaml")
        roles: Tuple[str, ...] = ()
        if overlay_spec is not None:
            roles = tuple(str(r) for r in (overlay_spec.get("roles") or {}))
            for name, value in (overlay_spec.get("definitions") or {}).items():
                if isinstance(value, dict) and value:
                    term_kinds[str(name)] = "place" if next(iter(value)) == "space" else next(iter(value))
                elif isinstance(value, list):
                    term_kinds[str(name)] = "holders"
        declarations = Declarations(procedures=kinds, terms=term_kinds, registers=schema.registers,
                                    roles=roles, options=tuple(option_names))
        extra = [Entry(name, "NOUN", f"procedure:{name}") for name in kinds]
        extra += [Entry(name, "NOUN", f"term:{name}") for name in term_kinds if name[:1].islower()]
        extra += [Entry(name, "NOUN", f"role:{name}") for name in roles]
        lexicon = schema.lexicon(extra)
        resolver = Resolver(schema, declarations, lexicon)
        terms: Dict[str, Tuple[str, object]] = {}
        for name, value in terms_spec.items():
            kind = term_kinds.get(name)
            text = value[kind] if kind else None
            at = terms_spec.value_positions[name]
            if kind == "card":
                terms[name] = (kind, self.rule(file, text, at, "card", resolver, lexicon, label=f"the term '{name}'"))
            else:
                terms[name] = (kind, self.rule(file, text, at, "place_condition", resolver, lexicon,
                                               label=f"the term '{name}'"))
        cards = self.cards(root, schema, resolver, lexicon)
        setup = self.rule(file, spec["setup"], spec.value_positions["setup"], "block", resolver, lexicon,
                          label="the setup")
        play = self.rule(file, spec["play"], spec.value_positions["play"], "block", resolver, lexicon,
                         label="the sequence of play")
        first = tuple(self.rule(file, text, spec.value_positions["first player"], "condition", resolver, lexicon,
                                label="a first-player rule") for text in spec["first player"])
        played_to, uses = self.uses(file, spec["playing a card"], schema, resolver, lexicon)
        entering = self.entering(file, spec.get("zones entered") or Map(), schema, resolver, lexicon)
        meanings: Dict[str, Tuple[str, object]] = {}
        for name, value in procedures.items():
            at = procedures.value_positions[name]
            kind = kinds[name]
            label = f"the procedure '{name}'"
            if kind == "block":
                meanings[name] = (kind, self.rule(file, value, at, "block", resolver, lexicon, label=label))
            elif kind == "condition":
                meanings[name] = (kind, self.rule(file, value["condition"], at, "condition", resolver, lexicon,
                                                  label=label))
            elif kind == "conditions":
                meanings[name] = (kind, tuple(self.rule(file, text, at, "condition", resolver, lexicon, label=label)
                                              for text in value["conditions"]))
            elif kind == "lines":
                meanings[name] = (kind, tuple((str(label_), self.rule(file, text, at, "block", resolver, lexicon,
                                                                       label=f"the line '{label_}'"))
                                              for label_, text in value["lines"].items()))
        overlay = None
        if overlay_spec is not None:
            overlay = self.overlay(root, overlay_file, overlay_spec, schema, resolver, lexicon, terms, kinds)
        evaluation = None
        if (root / "bots" / "evaluation.yaml").exists() and not self.problems.items:
            from .evaluation import EvaluationReader
            evaluation = EvaluationReader(self.loader, schema, resolver, lexicon, kinds, _step_names(play)).read(
                root / "bots" / "evaluation.yaml")
        board = None
        if (root / "layout.yaml").exists() and not self.problems.items:
            from .boardlayout import LayoutReader
            board = LayoutReader(self.loader, schema, _step_names(play)).read(root / "layout.yaml")
        if self.problems.items:
            return None
        definition = Definition(schema, declarations, lexicon, cards, setup, play, first, played_to, tuple(uses),
                                entering, meanings, terms, overlay, evaluation, tuple(self.sources.values()),
                                board=board)
        # what every rule can cost, and rules carrying each other out in a circle (docs/limits.md)
        self.problems.extend(definition_problems(definition, self.sources))
        return None if self.problems.items else definition

    def overlay(self, root, file, spec, schema, resolver, lexicon, terms, kinds) -> Optional[Overlay]:
        loader = self.loader
        spec, _ok = loader.fields(file, spec, "overlay.yaml", {"roles": dict, "definitions": dict},
                                  {"options": dict, "difficulty": dict, "placement": list, "exclusive options": list,
                                   "markers": dict, "steps": dict, "first player": list, "procedures": dict})
        if spec is None:
            return None
        definitions = spec["definitions"]
        available = ()
        for name, value in definitions.items():
            at = definitions.value_positions[name]
            if isinstance(value, list):
                cases = []
                for case in value:
                    when = (self.rule(file, case["when"], case.value_positions["when"], "condition", resolver, lexicon,
                                      label=f"{name}, when") if "when" in case else None)
                    tokens = self.rule(file, case.get("tokens"), case.value_positions.get("tokens", at), "holders",
                                       resolver, lexicon, label=f"{name}, tokens")
                    cases.append((when, tokens))
                available = tuple(cases)
                terms[str(name)] = ("holders", None)
                continue
            kind = next(iter(value))
            text = value[kind]
            if kind == "card":
                terms[str(name)] = ("card_term", self.rule(file, text, value.value_positions[kind], "condition",
                                                           resolver, lexicon, label=f"the definition of {name}"))
            else:
                terms[str(name)] = ("place", self.rule(file, text, value.value_positions[kind], "place_condition",
                                                       resolver, lexicon, label=f"the definition of {name}"))
        difficulty = []
        counters = [c.name for c in schema.counters]
        for level, starts in (spec.get("difficulty") or Map()).items():
            difficulty.append((str(level), tuple((counters.index(c), v) for c, v in (starts or {}).items()
                                                 if c in counters)))
        criteria = tuple(CRITERIA.get(str(c), str(c)) for c in spec.get("exclusive options") or ())
        markers = {}
        names = [m.name for m in schema.markers]
        for marker, lines in (spec.get("markers") or Map()).items():
            if marker in names:
                markers[names.index(marker)] = self.rows(file, lines, resolver, lexicon, "spaces")
        steps: Dict[str, Dict[str, M.Block]] = {}
        for name, value in (spec.get("steps") or Map()).items():
            at = spec["steps"].value_positions[name]
            variants = value if isinstance(value, dict) else {"": value}
            steps[str(name)] = {str(role): self.rule(file, text, getattr(variants, "value_positions", {}).get(role, at),
                                                     "block", resolver, lexicon, label=f"the solo step '{name}'")
                                for role, text in variants.items()}
        first = None
        if "first player" in spec:
            first = tuple(self.rule(file, text, spec.value_positions["first player"], "condition", resolver, lexicon,
                                    label="a first-player rule") for text in spec["first player"])
        procedures: Dict[str, Dict[str, object]] = {}
        for name, value in (spec.get("procedures") or Map()).items():
            at = spec["procedures"].value_positions[name]
            kind = kinds.get(str(name), "block")
            if isinstance(value, dict) and kind in value:
                variants = {"": value}
            elif isinstance(value, dict):
                variants = value
            else:
                variants = {"": value}
            found = {}
            for role, text in variants.items():
                label = f"the solo procedure '{name}'"
                if kind == "conditions":
                    found[str(role)] = tuple(self.rule(file, t, at, "condition", resolver, lexicon, label=label)
                                             for t in text["conditions"])
                else:
                    found[str(role)] = self.rule(file, text, at, "block", resolver, lexicon, label=label)
            procedures[str(name)] = found
        aids = {}
        for path in self.loader.listing(root / "solo", ".yaml") or []:
            if not path.name.startswith("aid-"):
                continue
            aid_file, data = self.loader.read(path)
            if aid_file is None or data is None:
                continue
            side = schema.sides.index(data["side"]) if data.get("side") in schema.sides else -1
            provenance = str(data.get("provenance", "authored"))
            aids[side] = {table: self.rows(aid_file, data.get(table) or [], resolver, lexicon, "row", provenance)
                          for table in ("place", "remove")}
        return Overlay(roles=tuple(spec["roles"]), options={str(k).replace(" ", "_"): v
                                                             for k, v in (spec.get("options") or {}).items()},
                       difficulty=tuple(difficulty), available=available,
                       placement=tuple(str(p) for p in spec.get("placement") or ()), criteria=criteria,
                       markers=markers, steps=steps, first_player=first, procedures=procedures, aids=aids)

    def rows(self, file, lines, resolver, lexicon, key: str, provenance: str = "authored") -> Tuple[Row, ...]:
        rows = []
        for index, line in enumerate(lines):
            at = lines.positions[index] if hasattr(lines, "positions") else None
            places = self.rule(file, line.get(key), line.value_positions.get(key, at) if isinstance(line, Map) else at,
                               "places", resolver, lexicon, label=f"row {index + 1}")
            rows.append(Row(places, str(line.get(key)), str(line.get("provenance", provenance)), line.get("note"),
                            line.get("ties"), line.get("tokens")))
        return tuple(rows)

    def uses(self, file, spec: Map, schema, resolver, lexicon):
        played = spec.get("played cards go to")
        played_to = 0
        if isinstance(played, str):
            names = {w: p.name for p in schema.piles for w in p.words}
            name = names.get(played.removeprefix("the ").strip())
            if name is None:
                self.problems.add(file.diagnostic(spec.value_positions.get("played cards go to"),
                                                  f"unknown pile '{shown(played)}'", expected=one_of(list(names))))
            else:
                played_to = [p.name for p in schema.piles].index(name)
        uses = []
        for name, value in (spec.get("uses") or Map()).items():
            at = spec["uses"].value_positions[name]
            body, _ = self.loader.fields(file, value, f"the use '{name}'", {"then": str},
                                         {"if": str, "card": str, "discarding": str, "option": str}, at=at)
            if body is None:
                continue
            rule = self.rule(file, body["then"], body.value_positions["then"], "block", resolver, lexicon,
                             label=f"the use '{name}'")
            condition = (self.rule(file, body["if"], body.value_positions["if"], "condition", resolver, lexicon,
                                   label=f"the use '{name}'") if "if" in body else None)
            target = (self.rule(file, body["card"], body.value_positions["card"], "card", resolver, lexicon,
                                label=f"the use '{name}'") if "card" in body else None)
            payment = (self.rule(file, body["discarding"], body.value_positions["discarding"], "card_filter",
                                 resolver, lexicon, label=f"the use '{name}'") if "discarding" in body else None)
            uses.append(UseDefinition(str(name), rule, condition, target, payment,
                                      str(body["option"]).replace(" ", "_") if "option" in body else None,
                                      "discard" if "discarding" in body else ""))
        return played_to, uses

    def entering(self, file, spec: Map, schema, resolver, lexicon):
        out = {}
        for track_name, zones in spec.items():
            track = [t.name for t in schema.tracks].index(track_name) if track_name in [t.name for t in schema.tracks] else None
            if track is None:
                self.problems.add(file.diagnostic(spec.key_positions[track_name], f"unknown track '{shown(track_name)}'",
                                                  expected=one_of([t.name for t in schema.tracks])))
                continue
            names = [z.name for z in schema.tracks[track].zones]
            for zone_name, value in zones.items():
                at = zones.value_positions[zone_name]
                if zone_name not in names:
                    guess = did_you_mean(str(zone_name), names)
                    self.problems.add(file.diagnostic(zones.key_positions[zone_name], f"unknown zone '{shown(zone_name)}'",
                                                      expected=one_of(names),
                                                      hint=f"did you mean '{guess}'?" if guess else None))
                    continue
                label = f"what entering {zone_name} does"
                if isinstance(value, dict):
                    first = self.rule(file, value.get("first"), value.value_positions.get("first", at), "block",
                                      resolver, lexicon, label=label)
                    second = self.rule(file, value.get("second"), value.value_positions.get("second", at), "block",
                                       resolver, lexicon, label=label)
                else:
                    first = second = self.rule(file, value, at, "block", resolver, lexicon, label=label)
                out[(track, names.index(zone_name))] = (first, second)
        return out

    def cards(self, root: Path, schema, resolver, lexicon) -> Dict[str, CardSet]:
        entries: Dict[str, List[Tuple[YamlFile, Map]]] = {kind.name: [] for kind in schema.card_kinds}
        keys = {kind.name.replace(" ", "_"): kind.name for kind in schema.card_kinds}
        for path in self.loader.listing(root / "cards", ".yaml") or []:
            file, data = self.loader.read(path)
            if file is None or data is None:
                continue
            for key, value in data.items():
                if key not in keys:
                    guess = did_you_mean(str(key), list(keys))
                    self.problems.add(file.diagnostic(data.key_positions[key], f"unknown kind of cards '{shown(key)}'",
                                                      expected=one_of(list(keys)),
                                                      hint=f"did you mean '{guess}'?" if guess else None))
                    continue
                for item in value or ():
                    entries[keys[key]].append((file, item))
        out = {}
        for kind in schema.card_kinds:
            ids, columns, texts = [], [[] for _ in kind.fields], [[] for _ in kind.fields]
            for file, card in entries[kind.name]:
                ids.append(str(card.get("id")))
                for index, (field, type_name) in enumerate(kind.fields):
                    key = field.replace(" ", "_")
                    written = card.get(key) if type_name == "rule" else None  # a rule as the designer wrote it
                    texts[index].append(None if written is None else str(written))
                    default = kind.default(field)
                    if type_name == "number" and isinstance(default, str):  # another field's value (docs/state.md)
                        default = card.get(default.replace(" ", "_"), kind.default(default))
                    value = card.get(key, default)
                    if type_name == "kind":
                        value = self.kind_value(file, card, key, value, kind.values_of(field))
                    columns[index].append(self.field_value(file, card, key, value, type_name, schema, resolver, lexicon,
                                                           ids[-1]))
            out[kind.name] = CardSet(tuple(ids), tuple(tuple(c) for c in columns), tuple(tuple(t) for t in texts))
        return out

    def kind_value(self, file, card, key, value, values) -> Optional[str]:
        """A kind field's value (docs/state.md): one the schema lists, else an error at it."""
        names = [name for name, _ in values]
        if value in names:
            return value
        at = card.value_positions.get(key) if key in card else (card.line, card.column)
        guess = did_you_mean(str(value), names) if value is not None else None
        self.problems.add(file.diagnostic(at, f"unknown {key} '{shown(value)}'" if value is not None
                                          else f"the card gives no '{key}'", expected=one_of(names),
                                          hint=f"did you mean '{guess}'?" if guess else None))
        return None

    def field_value(self, file, card, key, value, type_name, schema, resolver, lexicon, card_id):
        at = card.value_positions.get(key) if isinstance(card, Map) else None
        if type_name == "number":
            return value if isinstance(value, int) else 0
        if type_name == "rule":
            if value is None:
                return None
            return self.rule(file, value, at, "block", resolver, lexicon, label=f"the {key} of {card_id}")
        if type_name == "sides":
            if value in ("both", "all"):  # every side
                return tuple(range(len(schema.sides)))
            names = value if isinstance(value, list) else [value]
            return tuple(schema.sides.index(n) for n in names if n in schema.sides)
        if type_name == "side":
            return schema.sides.index(value) if value in schema.sides else -1
        if type_name == "place":
            return schema.map.places.index(value) if value in schema.map.places else -1
        if type_name == "group":
            groups = [g.name for g in schema.map.groups]
            return groups.index(value) if value in groups else -1
        return value


def _step_names(block) -> Tuple[str, ...]:
    """The names of the steps of a sequence of play, in the order they are written."""
    names: List[str] = []

    def walk(node) -> None:
        if isinstance(node, M.Step):
            names.append(node.name)
        if isinstance(node, (list, tuple)):
            for item in node:
                walk(item)
        elif attrs.has(type(node)):
            for field in attrs.fields(type(node)):
                if field.name != "node":
                    walk(getattr(node, field.name))

    walk(block)
    return tuple(names)
