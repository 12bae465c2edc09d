"""A game's definition for the general engine: its state schema, cards, sequence of play and
procedures, every rule parsed and resolved (docs/engine.md).

``load_definition`` reads ``state.yaml``, ``sequence.yaml`` and ``cards/*.yaml``;
every problem is reported with its file, line and column, and nothing is
returned half-loaded.
"""

from __future__ import annotations


import re
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

import attrs

from crisis.ruleset import limits
from crisis.ruleset import meaning as M
from crisis.ruleset.bound import definition_problems
from crisis.ruleset.walk import meanings
from crisis.ruleset.who import unnamed_player_problems
from crisis.ruleset.diagnostics import Diagnostic, RulesError, a_noun, did_you_mean, one_of, shown
from crisis.ruleset.resolver import ANYWHERE, Declarations, Resolver, Slot
from crisis.ruleset.rulecache import keywords, parse

from .schema import Entry, Lexicon, Schema, SchemaReader
from .yamlfile import Map, Seq, Text, YamlFile, display_path

CARD_FILE_KEYS = ("id", "provenance", "note")
CARD_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
PROVENANCE = ("known", "authored")  # a card's text as printed, or written for this content


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


# where rules stand, and so what their context words name (docs/language.md, Context words): the
# sequence of play runs for nothing ("this space" only inside a 'for each' over places); a card's
# rules, its uses, definitions and procedures: card_slot, uses(), overlay(), procedure_slots()
SEQUENCE = Slot("the sequence of play", revealed=True)
FIRST_PLAYER = Slot("a first-player rule", revealed=True)
# what a procedure may know, by the Slot's flag: what every rule that carries it out knows there
_KNOWN = ("this_space", "this_group", "the_card", "revealed")

CRITERIA = {"can be carried out fully": "fully", "would place or remove pieces": "pieces"}
TIES = ("die", "place", "remove")  # a die roll, or a table of the aid, chooses among the places a line leaves
WHOSE = ("own", "opponent")  # a line used only for the automa's own tokens, or the opponent's


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
        # (rule, its slot, its text's place) of every rule read but the procedures: where they are carried out
        self.calls: List[Tuple[object, Slot, object]] = []

    def rule(self, file: YamlFile, value: Any, position, kind: str, resolver: Resolver, lexicon,
             slot: Slot = ANYWHERE, label: str = "a rule"):
        """Parse and resolve one rule text (kind: block, condition, places, card, card_filter)."""
        if not isinstance(value, Text):
            self.problems.add(file.diagnostic(position, f"{label} should be rule text",
                                              hint="write it as a string; use '|' for several lines"))
            return None
        source = value.source(label)
        loader = self.loader
        loader.rule_chars += len(value)
        if loader.rule_chars > limits.MAX_RULE_CHARS:
            if loader.rule_chars - len(value) <= limits.MAX_RULE_CHARS:  # said once
                self.problems.add(file.diagnostic(position, f"the content's rules add up to more than "
                                                            f"{limits.MAX_RULE_CHARS:,} characters",
                                                  hint="docs/limits.md lists the limits on content"))
            return None
        start = {"block": "block", "condition": "condition_rule", "places": "places_rule", "card": "places_rule",
                 "card_filter": "places_rule", "place_condition": "condition_rule", "holders": "places_rule"}[kind]
        try:
            tree = parse(str(value), lexicon, start, source)
        except RulesError as error:
            diagnostics = error.diagnostics
            text = str(value).rstrip()
            if getattr(value, "style", None) == ">" and "\n" not in text and text and \
                    value.locate(1, 1)[0] != value.locate(1, len(text))[0]:
                # a folded block ('event: >') joins its lines into one: two statements read as one
                diagnostics = [attrs.evolve(d, hint=(d.hint + "; " if d.hint else "") +
                                            "'>' joins the lines of a block into one line: write '|' to keep "
                                            "each statement on its own line")
                               for d in diagnostics]
            self.problems.extend(diagnostics)
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
        self.loader.warnings.extend(d for d in found if d.severity != "error")
        if result is not None:
            self.calls.append((result, slot, source))
        if not errors:
            self.sources[id(result)] = (result, source)  # for the work bound (ruleset/bound.py)
        return None if errors else result

    def read(self, root: Path, option_names: Tuple[str, ...] = ()) -> Optional[Definition]:
        loader = self.loader
        before = len(self.problems.items)
        schema = SchemaReader(loader, keywords=keywords()).read(root)
        if schema is None or len(self.problems.items) > before:
            # no rule is read against a state that is not sound (its problems would be the state's);
            # the other files are read for their own problems, so that all are reported at once
            self.files_alone(root, "sequence.yaml")
            return None
        file, data = loader.read(root / "sequence.yaml")
        if file is None or data is None:
            if file is not None:
                self.problems.add(file.diagnostic(None, "sequence.yaml is empty",
                                                  expected="the setup, the play, the first player and how a card "
                                                           "is played, in the rules language"))
            self.files_alone(root)
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
        if not isinstance(overlay_spec, Map) and overlay_file is not None and overlay_spec is not None:
            self.problems.add(overlay_file.diagnostic((1, 1), "overlay.yaml is a mapping of keys to values",
                                                      expected="keys: roles, definitions, steps, procedures ..."))
            overlay_spec = None
        if overlay_spec is not None:
            found = overlay_spec.get("roles")
            roles = tuple(str(r) for r in found) if isinstance(found, Map) else ()
            found = overlay_spec.get("definitions")
            for name, value in (found.items() if isinstance(found, Map) else ()):
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
            slot = Slot(f"the term '{name}'", revealed=True)  # used anywhere: it knows nothing of where
            if kind == "card":
                terms[name] = (kind, self.rule(file, text, at, "card", resolver, lexicon, slot=slot,
                                               label=f"the term '{name}'"))
            else:
                terms[name] = (kind, self.rule(file, text, at, "place_condition", resolver, lexicon, slot=slot,
                                               label=f"the term '{name}'"))
        cards = self.cards(root, schema, resolver, lexicon)
        setup = self.rule(file, spec["setup"], spec.value_positions["setup"], "block", resolver, lexicon,
                          slot=Slot("the setup", revealed=True), label="the setup")
        play = self.rule(file, spec["play"], spec.value_positions["play"], "block", resolver, lexicon,
                         slot=SEQUENCE, label="the sequence of play")
        first = tuple(self.rule(file, text, spec.value_positions["first player"], "condition", resolver, lexicon,
                                slot=FIRST_PLAYER, label="a first-player rule") for text in spec["first player"])
        if not spec["first player"]:
            self.loader.warnings.append(attrs.evolve(file.diagnostic(
                spec.key_positions["first player"], "'first player' lists no rule: the first side always goes first",
                width=len("first player"), expected="the conditions under which a side goes first, one per line",
                hint="the rules are tried in order, and the first that holds for exactly one side makes it "
                     "first; with none, the first side of state.yaml always is"),
                severity="warning"))
        played_to, uses = self.uses(file, spec["playing a card"], schema, resolver, lexicon)
        entering = self.entering(file, spec.get("zones entered") or Map(), schema, resolver, lexicon)
        overlay = None
        if overlay_spec is not None:
            options = tuple(dict.fromkeys(use.option for use in uses if use.option))
            overlay = self.overlay(root, overlay_file, overlay_spec, schema, resolver, lexicon, terms, kinds, options,
                                   _step_names(play) if play is not None else None)
        # a procedure knows what every rule that carries it out knows ("this space" in the pivotal bonus,
        # carried out in a 'for each' over places; "the card" in a procedure carried out for a card)
        slots = self.procedure_slots(file, procedures, kinds, resolver, lexicon, schema, terms)
        meanings: Dict[str, Tuple[str, object]] = {}
        for name, value in procedures.items():
            at = procedures.value_positions[name]
            kind = kinds[name]
            label = f"the procedure '{name}'"
            slot = slots[name]
            if kind == "block":
                meanings[name] = (kind, self.rule(file, value, at, "block", resolver, lexicon, slot=slot, label=label))
            elif kind == "condition":
                meanings[name] = (kind, self.rule(file, value["condition"], at, "condition", resolver, lexicon,
                                                  slot=slot, label=label))
            elif kind == "conditions":
                meanings[name] = (kind, tuple(self.rule(file, text, at, "condition", resolver, lexicon, slot=slot,
                                                        label=label) for text in value["conditions"]))
            elif kind == "lines":
                meanings[name] = (kind, tuple((str(label_), self.rule(file, text, at, "block", resolver, lexicon,
                                                                       slot=slot, label=f"the line '{label_}'"))
                                              for label_, text in value["lines"].items()))
        if overlay is not None:
            overlay = attrs.evolve(overlay, procedures=self.overlay_procedures(kinds, resolver, lexicon, slots))
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
        # "you" where the sequence of play has named no player yet (ruleset/who.py)
        self.problems.extend(unnamed_player_problems(definition, self.sources))
        return None if self.problems.items else definition

    def procedure_slots(self, file, procedures: Map, kinds, resolver, lexicon, schema, terms) -> Dict[str, Slot]:
        """What each procedure knows: what every rule that carries it out knows there (in a 'for
        each' over places: "this space" and "this group"; carried out for a card: "the card", and
        its place and group where the card has such fields).  A procedure carried out where one
        is not known is refused the word, with the hint of where that is."""
        names = list(kinds)
        callers = list(self.calls)
        for name, value in procedures.items():  # what the procedures carry out, the overlay's too
            for text, kind in _procedure_texts(value, kinds[name]):
                callers.append((self.quiet(text, kind, resolver, lexicon), ("procedure", name), None))
        overlay = getattr(self, "overlay_spec", None)
        for name, value in ((overlay[1].get("procedures") or Map()).items() if overlay else ()):
            if name in kinds:
                for text, kind in _overlay_texts(value, kinds[name]):
                    callers.append((self.quiet(text, kind, resolver, lexicon), ("procedure", name), None))
        sites: List[Tuple[str, object, frozenset, str]] = []  # (procedure, caller, known there, where)
        for rule, caller, source in callers:
            if rule is None:
                continue
            known = caller if isinstance(caller, tuple) else frozenset(f for f in _KNOWN if getattr(caller, f))
            label = f"the procedure '{caller[1]}'" if isinstance(caller, tuple) else \
                (source.label if source is not None and source.label else caller.description)
            for procedure, added, node in _carried_out(rule, schema, terms, declarations_terms=resolver.declarations):
                if 0 <= procedure < len(names):
                    sites.append((names[procedure], known, added, _where(label, source, node)))
        everything = frozenset(_KNOWN)
        known_in = {name: everything for name in names}
        for _ in range(len(names) + 1):  # each round settles at least one more procedure
            changed = False
            for name in names:
                found = everything
                for callee, caller, added, _where_ in sites:
                    if callee == name:
                        found &= (known_in[caller[1]] if isinstance(caller, tuple) else caller) | added
                if not any(site[0] == name for site in sites):
                    found = everything  # carried out by no rule: never run, nothing to hold its words to
                if found != known_in[name]:
                    known_in[name], changed = found, True
            if not changed:
                break
        place, group = (schema.map.place_words[0] if schema.map.place_words else "place",
                        schema.map.group_words[0] if schema.map.group_words else "group")
        what = {"this_space": f"no {place}", "this_group": f"no {group}", "the_card": "no card",
                "revealed": "no revealed cards"}
        slots = {}
        for name in names:
            why = []
            for flag in _KNOWN:
                if flag in known_in[name]:
                    continue
                lacking = next((w for callee, caller, added, w in sites if callee == name and flag not in (
                    (known_in[caller[1]] if isinstance(caller, tuple) else caller) | added)), None)
                why.append((flag, f"{lacking} carries it out, and {what[flag]} is known there"))
            slots[name] = Slot(f"the procedure '{name}'", **{f: f in known_in[name] for f in _KNOWN}, why=tuple(why))
        return slots

    def quiet(self, text, kind: str, resolver, lexicon):
        """A rule read for what it carries out only: its problems are reported when it is read."""
        start = {"block": "block", "condition": "condition_rule"}[kind]
        try:
            tree = parse(str(text), lexicon, start, None)
        except RulesError:
            return None
        if kind == "block":
            return resolver.block(tree, ANYWHERE)[0]
        return resolver.condition(tree, ANYWHERE)[0]

    def files_alone(self, root: Path, *names: str) -> None:
        """Read the rules' other files for what is wrong with them as files (unreadable, not YAML),
        when their rules cannot be read."""
        paths = [root / name for name in names]
        for folder in ("cards", "solo"):
            paths += self.loader.listing(root / folder, ".yaml") or []
        for path in paths:
            self.loader.read(path)

    def overlay(self, root, file, spec, schema, resolver, lexicon, terms, kinds,
                option_names: Tuple[str, ...] = (), step_names: Optional[Tuple[str, ...]] = None) -> Optional[Overlay]:
        """The solo overlay; ``step_names``: the steps of the sequence of play (None where it could
        not be read), which the steps it replaces must name."""
        loader = self.loader
        spec, _ok = loader.fields(file, spec, "overlay.yaml", {"roles": dict, "definitions": dict},
                                  {"options": dict, "difficulty": dict, "placement": list, "exclusive options": list,
                                   "markers": dict, "steps": dict, "first player": list, "procedures": dict})
        if spec is None:
            return None
        roles = tuple(str(role) for role in spec["roles"])
        definitions = spec["definitions"]
        available = ()
        for name, value in definitions.items():
            at = definitions.value_positions[name]
            if isinstance(value, list):
                cases = []
                for index, case in enumerate(value):
                    case, good = loader.fields(file, case, f"a case of {name}", {"tokens": str}, {"when": str},
                                               at=value.positions[index])
                    if not good:
                        continue
                    if "when" not in case and index != len(value) - 1:
                        self.problems.add(file.diagnostic(value.positions[index], f"only the last case of {name} may "
                                                                                  "go without 'when'",
                                                          expected="'when: <condition>'"))
                    slot = Slot(f"the definition of {name}", revealed=True)
                    when = (self.rule(file, case["when"], case.value_positions["when"], "condition", resolver, lexicon,
                                      slot=slot, label=f"{name}, when") if "when" in case else None)
                    tokens = self.rule(file, case["tokens"], case.value_positions["tokens"], "holders", resolver,
                                       lexicon, slot=slot, label=f"{name}, tokens")
                    cases.append((when, tokens))
                available = tuple(cases)
                terms[str(name)] = ("holders", None)
                continue
            if not isinstance(value, Map) or len(value) != 1 or next(iter(value)) not in ("card", "space"):
                self.problems.add(file.diagnostic(at, f"the definition of {name} says what it is about",
                                                  expected="'card: <condition on the card>', 'space: <condition on "
                                                           "the place>', or a list of cases"))
                continue
            kind = next(iter(value))
            text = value[kind]
            if kind == "card":  # "the card" is the card tested, and no other card is
                slot = Slot(f"the definition of {name}", the_card=True, revealed=True, pile_cards=False)
                terms[str(name)] = ("card_term", self.rule(file, text, value.value_positions[kind], "condition",
                                                           resolver, lexicon, slot=slot,
                                                           label=f"the definition of {name}"))
            else:  # "it", "there": the place tested
                slot = Slot(f"the definition of {name}", revealed=True)
                terms[str(name)] = ("place", self.rule(file, text, value.value_positions[kind], "place_condition",
                                                       resolver, lexicon, slot=slot, label=f"the definition of {name}"))
        options = {}
        for key, value in (spec.get("options") or Map()).items():
            name = str(key).replace(" ", "_")
            if name not in [n.replace(" ", "_") for n in option_names]:
                loader.name(file, str(key), spec["options"].key_positions[key], list(option_names), "game option")
            elif not isinstance(value, bool):
                self.problems.add(file.diagnostic(spec["options"].value_positions[key],
                                                  f"the option '{key}' is on (true) or off (false)"))
            else:
                options[name] = value
        difficulty = []
        counters = [c.name for c in schema.counters]
        levels = spec.get("difficulty") or Map()
        for level, starts in levels.items():
            starts, _good = loader.fields(file, starts if starts is not None else Map(), f"difficulty '{level}'", {},
                                          {c: int for c in counters}, at=levels.value_positions[level])
            if starts is None:
                continue
            found = []
            for counter, value in starts.items():
                declared = schema.counter(counter)
                if not declared.low <= value <= declared.high:
                    self.problems.add(file.diagnostic(starts.value_positions[counter],
                                                      f"difficulty '{level}' starts {counter} at {value}, and it "
                                                      f"goes from {declared.low} to {declared.high}"))
                    continue
                found.append((counters.index(counter), value))
            difficulty.append((str(level), tuple(found)))
        placement = []
        place_terms = [n for n, k in resolver.declarations.terms.items() if k == "place"]
        listed = spec.get("placement") or []
        for index, term in enumerate(listed):
            if loader.name(file, term, listed.positions[index], place_terms,
                           f"{schema.map.place_words[0] if schema.map.place_words else 'place'} term"):
                placement.append(str(term))
        criteria = []
        listed = spec.get("exclusive options") or []
        if "exclusive options" in spec and not listed:
            loader.warnings.append(attrs.evolve(file.diagnostic(
                spec.key_positions["exclusive options"], "'exclusive options' lists no criterion: the side the game "
                "plays always takes the first option it is offered", width=len("exclusive options"),
                expected="criteria, in order, among " + ", ".join(f"'{c}'" for c in CRITERIA)), severity="warning"))
        for index, criterion in enumerate(listed):
            if loader.name(file, criterion, listed.positions[index], list(CRITERIA), "criterion"):
                criteria.append(CRITERIA[criterion])
        markers = {}
        names = [m.name for m in schema.markers]
        for marker, lines in (spec.get("markers") or Map()).items():
            if loader.name(file, marker, spec["markers"].key_positions[marker], names, "marker"):
                markers[names.index(marker)] = self.rows(file, lines, resolver, lexicon, "spaces",
                                                         slot=Slot(f"a line for the {marker}", revealed=True))
        steps: Dict[str, Dict[str, M.Block]] = {}
        for name, value in (spec.get("steps") or Map()).items():
            at = spec["steps"].value_positions[name]
            if step_names is not None and not loader.name(file, str(name), spec["steps"].key_positions[name],
                                                          list(dict.fromkeys(step_names)),
                                                          "step of the sequence of play"):
                continue  # a step the sequence does not have would never be replaced: refused, not ignored
            variants = self.variants(file, value, at, roles)
            steps[str(name)] = {role: self.rule(file, text, where, "block", resolver, lexicon,
                                                slot=Slot(f"the solo step '{name}'", revealed=True),
                                                label=f"the solo step '{name}'") for role, (text, where) in
                                variants.items()}
        first = None
        if "first player" in spec:
            first = tuple(self.rule(file, text, spec.value_positions["first player"], "condition", resolver, lexicon,
                                    slot=FIRST_PLAYER, label="a first-player rule") for text in spec["first player"])
        self.overlay_spec = (file, spec, roles)  # its procedures are read once it is known what they know
        aids = self.aids(root, schema, resolver, lexicon)
        return Overlay(roles=roles, options=options, difficulty=tuple(difficulty), available=available,
                       placement=tuple(placement), criteria=tuple(criteria), markers=markers, steps=steps,
                       first_player=first, procedures={}, aids=aids)

    def overlay_procedures(self, kinds, resolver, lexicon, slots) -> Dict[str, Dict[str, object]]:
        """The procedures the overlay replaces, each read in the slot of the one it replaces."""
        file, spec, roles = self.overlay_spec
        loader = self.loader
        procedures: Dict[str, Dict[str, object]] = {}
        for name, value in (spec.get("procedures") or Map()).items():
            at = spec["procedures"].value_positions[name]
            if name not in kinds:
                loader.name(file, str(name), spec["procedures"].key_positions[name], list(kinds), "procedure")
                continue
            kind = kinds[name]
            label = f"the solo procedure '{name}'"
            if isinstance(value, Map) and kind in value:
                variants = {"": (value, at)}
            else:
                variants = self.variants(file, value, at, roles)
            found = {}
            for role, (text, where) in variants.items():
                if kind == "conditions":
                    listed = text.get("conditions") if isinstance(text, Map) else None
                    if not isinstance(listed, list):
                        self.problems.add(file.diagnostic(where, f"{label} is a list of conditions",
                                                          expected="conditions: [...]"))
                        continue
                    found[role] = tuple(self.rule(file, t, where, "condition", resolver, lexicon, slot=slots[name],
                                                  label=label) for t in listed)
                else:
                    found[role] = self.rule(file, text, where, "block", resolver, lexicon, slot=slots[name],
                                            label=label)
            procedures[str(name)] = found
        return procedures

    def variants(self, file, value, at, roles) -> Dict[str, Tuple[object, object]]:
        """A rule for every side (a text), or one for each of some roles (role: text): role ("" for
        every side) -> (its text, where it is)."""
        if not isinstance(value, Map):
            return {"": (value, at)}
        out = {}
        for role, text in value.items():
            if role not in roles:
                self.loader.name(file, str(role), value.key_positions[role], list(roles), "role")
                continue
            out[str(role)] = (text, value.value_positions[role])
        return out

    def aids(self, root: Path, schema, resolver, lexicon) -> Dict[int, Dict[str, Tuple["Row", ...]]]:
        """The aids (aid-*.yaml): for each side the game may play, its tables of places."""
        aids: Dict[int, Dict[str, Tuple[Row, ...]]] = {}
        paths = [p for p in self.loader.listing(root / "solo", ".yaml") or [] if p.name.startswith("aid-")]
        before = len(self.problems.items)
        for path in paths:
            aid_file, data = self.loader.read(path)
            if aid_file is None:
                continue
            spec, good = self.loader.fields(aid_file, data if data is not None else Map(), "an aid",
                                            {"side": str, "provenance": str, "place": list, "remove": list},
                                            {"note": str})
            if spec is None or not good:
                continue
            if not self.loader.name(aid_file, spec["side"], spec.value_positions["side"], list(schema.sides), "side"):
                continue
            side = schema.sides.index(spec["side"])
            if side in aids:
                self.problems.add(aid_file.diagnostic(spec.value_positions["side"],
                                                      f"a second aid for the {spec['side']} side"))
                continue
            if not self.loader.name(aid_file, spec["provenance"], spec.value_positions["provenance"], PROVENANCE,
                                    "provenance"):
                continue
            aids[side] = {table: self.rows(aid_file, spec[table], resolver, lexicon, "row", spec["provenance"],
                                           slot=Slot(f"a row of the aid's {table} table", revealed=True))
                          for table in ("place", "remove")}
        if paths and len(self.problems.items) == before:
            for side, name in enumerate(schema.sides):
                if side not in aids:
                    self.problems.add(Diagnostic(message=f"no aid for the {name} side", path=display_path(root / "solo"),
                                                 expected=f"a file aid-{name.lower()}.yaml with 'side: {name}'"))
        return aids

    def rows(self, file, lines, resolver, lexicon, key: str, provenance: str = "authored",
             slot: Slot = ANYWHERE) -> Tuple[Row, ...]:
        """A table of an aid, or a priority list: lines of places, each with how it is used."""
        rows = []
        if not isinstance(lines, Seq):
            self.problems.add(file.diagnostic((lines.line, lines.column) if hasattr(lines, "line") else None,
                                              "a table is a list of lines", expected=f"'- {key}: <places>'"))
            return ()
        for index, line in enumerate(lines):
            line, good = self.loader.fields(file, line, f"row {index + 1} of the table", {key: str},
                                            {"provenance": str, "note": str, "ties": str, "tokens": str},
                                            at=lines.positions[index])
            if line is None or not good:
                continue
            for field, choices in (("provenance", PROVENANCE), ("ties", TIES), ("tokens", WHOSE)):
                if field in line:
                    self.loader.name(file, line[field], line.value_positions[field], list(choices), field,
                                     setting=True)
            places = self.rule(file, line[key], line.value_positions[key], "places", resolver, lexicon,
                               slot=slot, label=f"row {index + 1}")
            rows.append(Row(places, str(line[key]), str(line.get("provenance", provenance)), line.get("note"),
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
        played_kind = schema.card_kind(schema.piles[played_to].kind) if schema.piles else None
        for name, value in (spec.get("uses") or Map()).items():
            at = spec["uses"].value_positions[name]
            body, _ = self.loader.fields(file, value, f"the use '{name}'", {"then": str},
                                         {"if": str, "card": str, "discarding": str, "option": str}, at=at)
            if body is None:
                continue
            # A use of another card (card:) is paid for with a card of the hand
            # (discarding:); the two only make sense together.
            if ("card" in body) != ("discarding" in body):
                given, missing = ("card", "discarding") if "card" in body else ("discarding", "card")
                self.problems.add(file.diagnostic(
                    spec["uses"].key_positions[name],
                    f"the use '{shown(name)}' has '{given}:' but no '{missing}:'",
                    width=len(str(name)), expected=f"'{missing}:' as well, or neither",
                    hint="a use of a card not in the hand ('card:') needs the card of the hand that pays for it "
                         "('discarding:'); a use of the played card has neither"))
            # "the card": the card played (or claimed); "this space": its place, for cards with one
            slot = attrs.evolve(card_slot(schema, played_kind, ""), description=f"the use '{name}'", revealed=True,
                                pile_cards=True) if played_kind is not None else ANYWHERE
            target_slot = attrs.evolve(slot, the_card=False, this_space=False)  # which card: none is known yet
            rule = self.rule(file, body["then"], body.value_positions["then"], "block", resolver, lexicon,
                             slot=slot, label=f"the use '{name}'")
            condition = (self.rule(file, body["if"], body.value_positions["if"], "condition", resolver, lexicon,
                                   slot=slot, label=f"the use '{name}'") if "if" in body else None)
            target = (self.rule(file, body["card"], body.value_positions["card"], "card", resolver, lexicon,
                                slot=target_slot, label=f"the use '{name}'") if "card" in body else None)
            payment = (self.rule(file, body["discarding"], body.value_positions["discarding"], "card_filter",
                                 resolver, lexicon, slot=slot, label=f"the use '{name}'") if "discarding" in body
                       else None)
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
                slot = Slot(label, revealed=True)
                if isinstance(value, dict):
                    first = self.rule(file, value.get("first"), value.value_positions.get("first", at), "block",
                                      resolver, lexicon, slot=slot, label=label)
                    second = self.rule(file, value.get("second"), value.value_positions.get("second", at), "block",
                                       resolver, lexicon, slot=slot, label=label)
                else:
                    first = second = self.rule(file, value, at, "block", resolver, lexicon, slot=slot, label=label)
                out[(track, names.index(zone_name))] = (first, second)
        return out

    def cards(self, root: Path, schema, resolver, lexicon) -> Dict[str, CardSet]:
        entries: Dict[str, List[Tuple[YamlFile, Map]]] = {kind.name: [] for kind in schema.card_kinds}
        keys = {kind.name.replace(" ", "_"): kind.name for kind in schema.card_kinds}
        seen: Dict[Tuple[str, str], str] = {}  # (kind, id) -> where it was first given
        counted: Dict[str, int] = {}
        files = self.loader.listing(root / "cards", ".yaml")
        if files == [] and schema.card_kinds:
            self.problems.add(Diagnostic(message="no card files", path=display_path(root / "cards"),
                                         expected="cards/*.yaml files, each with a list of cards under "
                                                  + one_of([f"'{key}:'" for key in keys])))
        for path in files or []:
            file, data = self.loader.read(path)
            if file is None or data is None:
                continue
            if not isinstance(data, Map):
                self.problems.add(file.diagnostic((1, 1), "a card file is a mapping of kinds of cards to lists of "
                                                          "cards", expected=one_of([f"'{key}:'" for key in keys])))
                continue
            for key, value in data.items():
                if key not in keys:
                    guess = did_you_mean(str(key), list(keys))
                    self.problems.add(file.diagnostic(data.key_positions[key], f"unknown kind of cards '{shown(key)}'",
                                                      expected=one_of(list(keys)),
                                                      hint=f"did you mean '{guess}'?" if guess else None))
                    continue
                if value is None:
                    continue
                if not isinstance(value, Seq):
                    self.problems.add(file.diagnostic(data.value_positions[key], f"'{key}' should be a list of cards"))
                    continue
                if not value:  # cards taken out (a draft, say): loads, but their texts and counts change
                    self.loader.warnings.append(attrs.evolve(file.diagnostic(
                        data.key_positions[key], f"'{key}' lists no card", width=len(str(key)),
                        hint="the file's cards are out of the game; remove the file, or the line, if that is meant"),
                        severity="warning"))
                kind = schema.card_kind(keys[key])
                for index, item in enumerate(value):
                    counted[kind.name] = counted.get(kind.name, 0) + 1  # every entry counts, a broken card too
                    if counted[kind.name] > limits.MAX_CARDS:
                        self.problems.add(file.diagnostic(value.positions[index],
                                                          f"more than {limits.MAX_CARDS:,} {kind.name}: the limit"))
                        break
                    card, ok = self.card(file, item, value.positions[index], kind, schema, seen)
                    if ok:
                        entries[kind.name].append((file, card))
                    elif card is not None:  # its rules are read all the same, for their own problems
                        for field, type_name in kind.fields:
                            key = field.replace(" ", "_")
                            if type_name == "rule" and card.get(key) is not None:
                                self.field_value(file, card, key, card[key], type_name, schema, resolver, lexicon,
                                                 str(card.get("id", "?")), kind)
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
                                                           ids[-1], kind))
            out[kind.name] = CardSet(tuple(ids), tuple(tuple(c) for c in columns), tuple(tuple(t) for t in texts))
        return out

    def card(self, file: YamlFile, item: Any, at, kind, schema, seen) -> Tuple[Optional[Map], bool]:
        """One card's entry (its well-formed keys; None when it is no mapping) and whether all is
        well: its keys and the values of its fields checked against its kind, every problem
        reported at its place."""
        what = _a(_singular(kind.name))
        fields = {field.replace(" ", "_"): type_name for field, type_name in kind.fields}
        required = {"id": str}
        required.update({field.replace(" ", "_"): _YAML_TYPES[t] for field, t in kind.fields
                         if t not in ("rule", "kind") and kind.default(field) is None})
        optional = {key: _YAML_TYPES[t] for key, t in fields.items() if key not in required}
        optional.update({"provenance": str, "note": str})
        card, ok = self.loader.fields(file, item, what, required, optional, at=at)
        if card is None:
            return None, False
        card_id = card.get("id")
        if isinstance(card_id, str):
            position = card.value_positions["id"]
            if len(card_id) > limits.MAX_NAME_CHARS or not CARD_ID.match(card_id):
                self.problems.add(file.diagnostic(position, f"'{shown(card_id)}' cannot be a card id",
                                                  expected="lowercase words joined by '-', like 'major-anderson'"))
                ok = False
            elif (kind.name, card_id) in seen:
                self.problems.add(file.diagnostic(position, f"{_singular(kind.name)} '{card_id}' is defined twice",
                                                  hint=f"the other one is at {seen[kind.name, card_id]}"))
                ok = False
            else:
                seen[kind.name, card_id] = f"{file.path}:{position[0]}"
        if "provenance" in card and card["provenance"] not in PROVENANCE:
            ok &= self.unknown(file, card, "provenance", card["provenance"], PROVENANCE, "provenance")
        for key, type_name in fields.items():
            if key not in card:
                continue
            value = card[key]
            if type_name == "number":
                low, high = kind.bounds(key.replace("_", " "))
                if not low <= value <= high:
                    bound = f"at least {low:,}" if value < low else f"at most {high:,}"
                    self.problems.add(file.diagnostic(card.value_positions[key], f"{what}'s {key} is {bound}"))
                    ok = False
            elif type_name in ("side", "sides"):
                names = value if isinstance(value, list) else [value]
                if type_name == "sides" and value in ("both", "all"):
                    continue
                for name in names:
                    if name not in schema.sides:
                        choices = list(schema.sides) + (["both"] if type_name == "sides" else [])
                        ok &= self.unknown(file, card, key, name, choices, "side")
            elif type_name == "place" and value not in schema.map.places:
                ok &= self.unknown(file, card, key, value, schema.map.places,
                                   schema.map.place_words[0] if schema.map.place_words else "place")
            elif type_name == "group" and value not in [g.name for g in schema.map.groups]:
                ok &= self.unknown(file, card, key, value, [g.name for g in schema.map.groups],
                                   schema.map.group_words[0] if schema.map.group_words else "group")
        return card, ok

    def unknown(self, file, card: Map, key, value, choices, what: str) -> bool:
        guess = did_you_mean(str(value), list(choices)) if isinstance(value, str) else None
        self.problems.add(file.diagnostic(card.value_positions[key], f"unknown {what} '{shown(value)}'",
                                          width=max(1, min(len(str(value)), limits.MAX_SHOWN_CHARS)),
                                          expected=f"{a_noun(what)}: {one_of(list(choices))}",
                                          hint=f"did you mean '{guess}'?" if guess else None))
        return False

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

    def field_value(self, file, card, key, value, type_name, schema, resolver, lexicon, card_id, card_kind=None):
        at = card.value_positions.get(key) if isinstance(card, Map) else None
        if type_name == "number":
            return value if isinstance(value, int) else 0
        if type_name == "rule":
            if value is None:
                return None
            return self.rule(file, value, at, "block", resolver, lexicon, label=f"card '{card_id}', {key}",
                             slot=card_slot(schema, card_kind, key.replace("_", " ")))
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


# how a card's field is written in its file, by the field's type
_YAML_TYPES = {"number": int, "rule": str, "sides": (str, list), "side": str, "place": str, "group": str,
               "text": str, "kind": str}


def card_slot(schema, kind, field: str) -> Slot:
    """Where a card's rule runs (interpreter/engine/program.py's card context): "the card" is the
    card; "this space" its place, for a kind of cards with a place field; no group, and no cards
    revealed, are known there."""
    if kind is None:
        return ANYWHERE
    has_place = any(type_name == "place" for _, type_name in kind.fields)
    return Slot(_a(f"{_singular(kind.name)} {field}"), this_space=has_place, the_card=True, pile_cards=False)


def _procedure_texts(value, kind: str):
    """(text, "block" | "condition") of each rule of a procedure of sequence.yaml, as written."""
    if kind == "block" and isinstance(value, str):
        yield value, "block"
    elif isinstance(value, Map) and kind == "condition" and isinstance(value.get("condition"), str):
        yield value["condition"], "condition"
    elif isinstance(value, Map) and kind == "conditions" and isinstance(value.get("conditions"), list):
        yield from ((t, "condition") for t in value["conditions"] if isinstance(t, str))
    elif isinstance(value, Map) and kind == "lines" and isinstance(value.get("lines"), Map):
        yield from ((t, "block") for t in value["lines"].values() if isinstance(t, str))


def _overlay_texts(value, kind: str):
    """The same of a procedure the overlay replaces: for every side, or one for each role."""
    if isinstance(value, Map) and kind in value:
        yield from _procedure_texts(value, kind)
    elif isinstance(value, Map):
        for text in value.values():
            yield from (_procedure_texts(text, kind) if isinstance(text, Map) else
                        [(text, "block")] if isinstance(text, str) and kind == "block" else [])
    elif isinstance(value, str) and kind == "block":
        yield value, "block"


def _card_kind_of(ref, schema, terms, declarations, depth: int = 0):
    """The kind of cards a card reference names (None where it is not known)."""
    if ref is None or depth > 8:
        return None
    if ref.kind == "term":
        name = list(declarations.terms)[ref.pile.pile] if 0 <= ref.pile.pile < len(declarations.terms) else None
        found = terms.get(name) if name is not None else None
        return _card_kind_of(found[1], schema, terms, declarations, depth + 1) if found and found[0] == "card" else None
    if ref.pile is not None and 0 <= ref.pile.pile < len(schema.piles):
        return schema.card_kind(schema.piles[ref.pile.pile].kind)
    return None


def _carried_out(rule, schema, terms, declarations_terms):
    """(procedure, what the context adds there, node) of each procedure a rule carries out, tests
    or scores: a 'for each' over places adds its place and group; 'for' a card adds the card, and
    its place and group where its kind has such fields (interpreter: program.bound_ctx)."""
    stack = [(rule, frozenset())]
    while stack:
        node, added = stack.pop()
        if isinstance(node, (tuple, list)):
            stack.extend((item, added) for item in node)
            continue
        if not isinstance(node, M.Meaning):
            continue
        if isinstance(node, M.ForEachPlace):
            stack.append((node.places, added))
            stack.append((node.body, added | {"this_space", "this_group"}))
            continue
        if isinstance(node, M.CarryOut) and node.procedure >= 0:
            bound = added
            if node.bind is not None:
                kind = _card_kind_of(node.bind, schema, terms, declarations_terms)
                fields = {t for _, t in kind.fields} if kind is not None else {"place", "group"}
                bound = added | {"the_card"} | ({"this_space"} if "place" in fields else set()) | \
                    ({"this_group"} if "group" in fields else set())
            yield node.procedure, bound, node
        elif isinstance(node, (M.Score, M.Named)):
            yield node.procedure, added, node
        elif isinstance(node, M.Win) and node.ties >= 0:
            yield node.ties, added, node
        for field in attrs.fields(type(node)):
            if field.name != "node":
                stack.append((getattr(node, field.name), added))


def _where(label: str, source, node) -> str:
    """A rule that carries a procedure out, for a hint: "card 'x', event (cards/a.yaml:12)"."""
    pos = getattr(getattr(node, "node", None), "pos", None)
    if source is None or pos is None or not getattr(source, "path", None):
        return label
    line, _column = source.locate(pos.line, pos.column)
    return f"{label} ({source.path}:{line})"


def _singular(name: str) -> str:
    """"strategy cards" -> "strategy card": what one card of a kind is called in a message."""
    return name[:-1] if name.endswith("s") else name


def _a(noun: str) -> str:
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def _step_names(block) -> Tuple[str, ...]:
    """The names of the steps of a sequence of play, in the order they are written."""
    return tuple(node.name for node in meanings(block) if isinstance(node, M.Step))
