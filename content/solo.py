"""Load the solo game: ``<content>/solo/`` (solo rulebook; docs/solo.md).

``solo.yaml`` holds the definitions, the steps of the sequence of play that
change, the solo opponent's procedures and priorities, the difficulty levels
and the rules replaced for both sides; ``aid-*.yaml`` hold one Solo Opponent
Aid each (its two space-selection tables).  Every rule is parsed and checked
like card text; problems are reported with their file, line and column.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import attrs

from crisis.ruleset import checker as C
from crisis.ruleset.checker import Checker, Slot
from crisis.ruleset import ast as A
from crisis.ruleset.diagnostics import Diagnostic, RulesError, diagnostic_at
from crisis.ruleset.treecache import parse_block, parse_condition, parse_locations  # cached trees, else the parser

from .model import Aid, AvailableCase, Row, Rule, SoloContent, SoloSequence
from .yamlfile import Map, Text, YamlFile

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
            if not found:  # what it may ask and cost in one run is bounded, as for every rule (docs/limits.md)
                found = self.loader.work(tree, source, self.work(), self.cost())
        elif kind == "condition":
            found = checker.check_condition(tree, slot, source, about_a_space)
        else:
            found = checker.check_locations(tree, slot, source, holders=kind == "holders")
        self.problems.extend(found)
        return None if found else Rule(str(value), tree, source)

    def work(self):
        """Work bounds knowing the content's card events and breach effects (the turn carries them out)."""
        from crisis.ruleset.work import Work
        base = Work(self.vocabulary)
        strategy = getattr(self.loader, "strategy_cards", ())
        events = [base.block(card.event.tree) for card in strategy if card.event] or [0]
        return Work(self.vocabulary, card_event=max(events), breaches=self.loader.breach_work)

    def cost(self):
        """Work bounds knowing the card events, breach effects and defined terms the rules may use."""
        from crisis.ruleset.cost import solo_cost
        procedures = getattr(self.loader, "procedures_loaded", None)
        breaches = procedures.breach_effects.values() if procedures is not None else ()
        return solo_cost(self.vocabulary, getattr(self.loader, "strategy_cards", ()), breaches,
                         {name: rule.tree for name, (_, rule) in self.term_rules.items()})

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
        from crisis.interpreter.game import Options
        known = {f.name for f in attrs.fields(Options)}
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
    from crisis.ruleset.diagnostics import Diagnostic
    from .loader import display_path
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
