"""The texts of a game's rules in a catalog's language, from the general front end's rules
(ruleset/phrasing.py): every rule of a definition, what ``crisis i18n check`` learns from
them (the templates they need), and the text of any rule a command has in hand.

While the old engine still runs play sessions, its log entries and decisions carry rules of
the old front end (ruleset/ast.py).  ``meaning_of`` finds the general front end's rule that
matches one: the content's rules are paired as the two front ends read them (a card's rule by
the card's id, a procedure by its name, a zone's rule by the zone, the overlay's by name and
role), and within a pair statement by statement and condition by condition.  A rule of the
general engine (its meaning, or the syntax node it was read from) is its own match.
"""

from __future__ import annotations

import re
from typing import Callable, Dict, Iterator, List, Optional, Tuple

import attrs

from crisis.ruleset import meaning as M
from crisis.ruleset.phrasing import (Phrasing, phrase_block, phrase_card, phrase_card_filter, phrase_condition,
                                     phrase_outline, phrase_places)

# how a rule is put into words: a block of statements, a condition, places (or holders), one card,
# cards to choose from
HOW = ("block", "condition", "places", "card", "card_filter")


# ------------------------------------------------------------------ every rule of a definition


def every_rule(definition) -> List[Tuple[str, str, object, str]]:
    """(label, how, rule, actor) for every rule text of a definition: each card's rule fields,
    the setup, the sequence of play, the first-player conditions, the uses of a card, what
    entering each zone does, the procedures, the terms, and the overlay's steps, procedures,
    first player, definitions, priorities and aid rows.  ``actor`` "solo" is a rule of the side
    an overlay's game plays (its first role), shown as the person reads it."""
    schema = definition.schema
    found: List[Tuple[str, str, object, str]] = []

    def add(label: str, how: str, rule, actor: str = "you") -> None:
        if rule is not None:
            found.append((label, how, rule, actor))

    for kind in schema.card_kinds:
        cards = definition.cards.get(kind.name)
        if cards is None:
            continue
        for field, (name, type_name) in enumerate(kind.fields):
            if type_name == "rule":
                for card_id, rule in zip(cards.ids, cards.fields[field]):
                    add(f"{card_id}, {name}", "block", rule)
    add("setup", "block", definition.setup)
    add("play", "block", definition.play)
    for index, rule in enumerate(definition.first_player):
        add(f"first player {index + 1}", "condition", rule)
    for use in definition.uses:
        add(f"use {use.name}", "block", use.rule)
        add(f"use {use.name}, if", "condition", use.condition)
        add(f"use {use.name}, card", "card", use.target)
        add(f"use {use.name}, discarding", "card_filter", use.payment)
    for (track, zone), rules in definition.entering.items():
        name = schema.tracks[track].zones[zone].name
        for which, rule in zip(("first", "second"), rules):
            add(f"entering {name}, {which}", "block", rule)
    for name, (kind, rule) in definition.procedures.items():
        _procedure(add, f"procedure {name}", kind, rule, "you")
    overlay = definition.overlay
    for name, (kind, rule) in definition.terms.items():
        # the overlay's definitions are about the side its game plays; the sequence's are anyone's
        add(f"term {name}", "card" if kind == "card" else "condition", rule,
            "solo" if overlay is not None and kind != "card" else "you")
    if overlay is None:
        return found
    role = overlay.roles[0] if overlay.roles else ""
    for name, variants in overlay.steps.items():
        for who, rule in variants.items():
            add(f"overlay step {name} {who}".rstrip(), "block", rule, "solo" if who == role else "you")
    kinds = {name: kind for name, (kind, _) in definition.procedures.items()}
    for name, variants in overlay.procedures.items():
        for who, rule in variants.items():
            _procedure(add, f"overlay procedure {name} {who}".rstrip(), kinds.get(name, "block"), rule,
                       "solo" if who == role else "you")
    for index, rule in enumerate(overlay.first_player or ()):
        add(f"overlay first player {index + 1}", "condition", rule)
    for index, (when, holders) in enumerate(overlay.available):
        add(f"overlay available {index + 1}", "places", holders, "solo")
        add(f"overlay available {index + 1}, when", "condition", when, "solo")
    for marker, rows in overlay.markers.items():
        for index, row in enumerate(rows):
            add(f"overlay priority {schema.markers[marker].name} {index + 1}", "places", row.places, "solo")
    for side, tables in overlay.aids.items():
        for table, rows in tables.items():
            for index, row in enumerate(rows):
                add(f"overlay aid {schema.sides[side]} {table} {index + 1}", "places", row.places, "solo")
    return found


def _procedure(add, label: str, kind: str, rule, actor: str) -> None:
    if kind == "conditions":
        for index, condition in enumerate(rule or ()):
            add(f"{label} {index + 1}", "condition", condition, actor)
    elif kind == "lines":
        for line, block in rule or ():
            add(f"{label}, {line}", "block", block, actor)
    else:
        add(label, "condition" if kind == "condition" else "block", rule, actor)


def phrase(how: str, rule, catalog, definition, actor: str = "you") -> str:
    """A rule of ``every_rule`` in words."""
    schema, declarations = definition.schema, definition.declarations
    if how == "block":
        return phrase_block(rule, catalog, schema, declarations, actor=actor)
    if how == "condition":
        return phrase_condition(rule, catalog, schema, declarations, actor)
    if how == "card":
        return phrase_card(rule, catalog, schema, declarations, actor)
    if how == "card_filter":
        return phrase_card_filter(rule, catalog, schema, declarations, actor)
    return phrase_places(rule, catalog, schema, declarations, actor)


class Recording:
    """A catalog that notes each template a phrasing asks for and the parameters it fills."""

    def __init__(self, catalog):
        self.catalog = catalog
        self.label = ""  # the rule being phrased
        self.used: Dict[str, Tuple[set, str]] = {}  # key -> (parameters, the first rule asking for it)

    def text(self, key: str, **params) -> str:
        self.used.setdefault(key, (set(), self.label))[0].update(params)
        return self.catalog.text(key, **params)

    def raw(self, key: str):
        return self.catalog.raw(key)

    def name(self, kind: str, name: str) -> str:
        return self.catalog.name(kind, name)

    def form(self, kind: str, name: str, form: str, default: str = "") -> str:
        return self.catalog.form(kind, name, form, default)


def templates_used(definition, catalog) -> Dict[str, Tuple[frozenset, str]]:
    """Every ``render.*`` template the definition's rules ask for, in every form a command shows
    them (a sentence per statement, one line, an outline): the parameters filled, and the first
    rule that asks for it."""
    recording = Recording(catalog)
    for label, how, rule, actor in every_rule(definition):
        recording.label = label
        phrase(how, rule, recording, definition, actor)
        if how == "block":
            phrase_block(rule, recording, definition.schema, definition.declarations, inline=True, actor=actor)
            phrase_outline(rule, recording, definition.schema, definition.declarations, actor)
    return {key: (frozenset(params), label) for key, (params, label) in recording.used.items()
            if key.startswith("render.")}


# ------------------------------------------------------------------ the rules a command has in hand


def card_rule(definition, card_id: str):
    """The first rule field of the card with that id (a card's event), or None."""
    for kind in definition.schema.card_kinds:
        cards = definition.cards.get(kind.name)
        if cards is None or card_id not in cards.ids:
            continue
        index = cards.ids.index(card_id)
        for field, (_, type_name) in enumerate(kind.fields):
            if type_name == "rule":
                return cards.fields[field][index]
    return None


class Matches:
    """The general front end's rule for each rule node of the old front end, and for each syntax
    node the general front end read (see the module's docstring)."""

    def __init__(self, content):
        self.content = content  # kept: the matches are by identity of its nodes
        self.found: Dict[int, object] = {}
        definition = content.definition
        for rule, _source in definition.sources:
            self.index(rule)
        earlier_model = self.earlier = _earlier(content)
        if earlier_model is not None:
            self.cards(earlier_model, definition)
            self.procedures(earlier_model.procedures, definition)
            if earlier_model.solo is not None and definition.overlay is not None:
                self.overlay(earlier_model.solo, definition)

    def index(self, meaning) -> None:
        """Each syntax node of a rule of the general front end -> its meaning."""
        stack = [meaning]
        while stack:
            node = stack.pop()
            if isinstance(node, (list, tuple)):
                stack.extend(node)
            elif isinstance(node, M.Meaning):
                if node.node is not None:
                    self.found.setdefault(id(node.node), node)
                stack.extend(getattr(node, f.name) for f in attrs.fields(type(node)) if f.name != "node")

    def pair(self, old, new) -> None:
        """An old node and its match, then their parts where both have them alike."""
        if old is None or new is None:
            return
        self.found[id(old)] = new
        if isinstance(new, M.Block):
            self.pairs(getattr(old, "statements", ()), new.statements)
        elif isinstance(new, M.If) and hasattr(old, "condition"):
            self.pair(old.condition, new.condition)
            self.pair(getattr(old, "then", None), new.then)
            self.pair(getattr(old, "otherwise", None), new.otherwise)
        elif isinstance(new, (M.Either, M.FirstOf)):
            self.pairs(getattr(old, "options", ()), new.options)
        elif isinstance(new, M.ForEachPlayer):
            self.pair(getattr(old, "body", None), new.body)
        elif isinstance(new, M.Acting):
            self.pair(getattr(old, "statement", None), new.statement)
        elif isinstance(new, M.Goal):
            self.pair(getattr(old, "body", None), M.Block(new.steps))
        elif isinstance(new, (M.AnyOf, M.AllOf)):
            self.pairs(getattr(old, "items", ()), new.items)
        elif isinstance(new, M.Not):
            self.pair(getattr(old, "item", None), new.item)

    def pairs(self, old, new) -> None:
        if len(old) == len(new):
            for a, b in zip(old, new):
                self.pair(a, b)

    def rule(self, old, new) -> None:
        """A rule of the old content (it has the tree read from its text) and its match."""
        self.pair(getattr(old, "tree", None), new)

    def cards(self, content, definition) -> None:
        for field in attrs.fields(type(content)):
            value = getattr(content, field.name)
            if isinstance(value, tuple) and value and hasattr(value[0], "event") and hasattr(value[0], "id"):
                for card in value:
                    if card.event is not None:
                        self.rule(card.event, card_rule(definition, card.id))

    def procedures(self, old, definition) -> None:
        new = {key(name): value for name, value in definition.procedures.items()}
        zones = {zone.name: (t, z) for t, track in enumerate(definition.schema.tracks)
                 for z, zone in enumerate(track.zones)}
        for field in attrs.fields(type(old)):
            value = getattr(old, field.name)
            if key(field.name) in new:
                self.procedure(value, new[key(field.name)][1])
            elif isinstance(getattr(definition, field.name, None), tuple):  # the first-player rules
                self.procedure(value, getattr(definition, field.name))
            elif isinstance(value, dict) and all(zone in zones for zone in value):  # what entering a zone does
                for zone, rules in value.items():
                    for a, b in zip(rules, definition.entering.get(zones[zone], ())):
                        self.rule(a, b)

    def procedure(self, old, new) -> None:
        """A procedure: one rule, a list of conditions, or labelled lines."""
        if isinstance(old, (list, tuple)) and isinstance(new, tuple):
            if old and isinstance(old[0], tuple):  # labelled lines
                lines = dict(new)
                for label, rule in old:
                    self.rule(rule, lines.get(label))
            elif len(old) == len(new):
                for a, b in zip(old, new):
                    self.rule(a, b)
        elif old is not None:
            self.rule(old, new)

    def overlay(self, solo, definition) -> None:
        overlay, schema = definition.overlay, definition.schema
        role = overlay.roles[0] if overlay.roles else ""
        steps = {key(name): variants for name, variants in overlay.steps.items()}
        procedures = {key(name): variants for name, variants in overlay.procedures.items()}
        for name, rule in (getattr(solo, "opponent", None) or {}).items():
            variants = procedures.get(key(name)) or steps.get(key(name)) or {}
            self.rule(rule, variants.get(role))
        for name, rules in (getattr(solo, "rules", None) or {}).items():
            if key(name) in procedures:
                self.procedure(rules, procedures[key(name)].get(""))
            elif isinstance(getattr(overlay, key(name), None), tuple):  # its first-player rules
                self.procedure(rules, getattr(overlay, key(name)))
        for name, (_, rule) in (getattr(solo, "terms", None) or {}).items():
            self.rule(rule, definition.terms.get(name, (None, None))[1])
        for case, (when, holders) in zip(getattr(solo, "available", ()) or (), overlay.available):
            self.rule(case.tokens, holders)
            self.rule(case.when, when)
        markers = [marker.name for marker in schema.markers]
        for marker, rows in (getattr(solo, "markers", None) or {}).items():
            if marker in markers:
                for a, b in zip(rows, overlay.markers.get(markers.index(marker), ())):
                    self.rule(a.rule, b.places)
        for side, aid in (getattr(solo, "aids", None) or {}).items():
            tables = overlay.aids.get(schema.sides.index(side), {}) if side in schema.sides else {}
            for table, rows in aid.tables.items():
                for a, b in zip(rows, tables.get(table, ())):
                    self.rule(a.rule, b.places)


def _earlier(content):
    """The earlier engine's model of the content, whose rules that engine hands over (None while
    that engine has not read it: then it has handed over none)."""
    model = getattr(content, "earlier_model", content)  # (an earlier model has none: it is one)
    return model


def key(name: str) -> str:
    """The old and the new content name their procedures differently ("tie_breaks", "tie-breaks")."""
    return re.sub(r"[ \-]", "_", str(name)).lower()


_MATCHES: Dict[int, Matches] = {}


def matches(content) -> Matches:
    found = _MATCHES.get(id(content))
    if found is None or found.content is not content or found.earlier is not _earlier(content):
        if len(_MATCHES) >= 4:  # a few contents at most in one run (tests load several)
            _MATCHES.clear()
        found = _MATCHES[id(content)] = Matches(content)
    return found


def meaning_of(content, rule):
    """The general front end's rule matching ``rule``: itself if it is one, the meaning read
    from it if it is a syntax node of the general front end, or the match of an old rule (a node
    of its tree, or the rule itself).  KeyError when nothing matches."""
    if isinstance(rule, M.Meaning):
        return rule
    node = getattr(rule, "tree", rule)
    found = matches(content).found.get(id(node))
    if found is None:
        raise KeyError(f"no rule of the general front end matches {type(node).__name__}")
    return found


def _phrasing(content, catalog, actor: str) -> Phrasing:
    definition = content.definition
    return Phrasing(catalog, definition.schema, definition.declarations, actor)


def block_text(content, catalog, rule, inline: bool = False, actor: str = "you",
               labels: Optional[Callable[[int], str]] = None) -> str:
    """A rule of statements, a sentence each (on one line with ``inline``)."""
    definition = content.definition
    return phrase_block(meaning_of(content, rule), catalog, definition.schema, definition.declarations, inline,
                        actor, labels)


def statement_text(content, catalog, rule, actor: str = "you") -> str:
    """One statement as a sentence, or a block's statements on one line."""
    meaning = meaning_of(content, rule)
    if isinstance(meaning, M.Block):
        return block_text(content, catalog, meaning, inline=True, actor=actor)
    return _phrasing(content, catalog, actor).statement(meaning)


def clauses_text(content, catalog, rule, actor: str = "you") -> str:
    """A block's statements as clauses of one sentence (no capital, no full stop)."""
    return _phrasing(content, catalog, actor).clauses(meaning_of(content, rule))


def condition_text(content, catalog, rule, actor: str = "you") -> str:
    return _phrasing(content, catalog, actor).condition(meaning_of(content, rule))


def places_text(content, catalog, rule, actor: str = "you") -> str:
    return _phrasing(content, catalog, actor).locations(meaning_of(content, rule))


def card_text(content, catalog, card_id: str, inline: bool = False) -> str:
    """A card's rule (its event) in words; "" for a card without one."""
    rule = card_rule(content.definition, card_id)
    return block_text(content, catalog, rule, inline) if rule is not None else ""


def outline_lines(definition, catalog, rule, actor: str = "you") -> List[Tuple[int, str]]:
    return phrase_outline(rule, catalog, definition.schema, definition.declarations, actor)


def walk(node) -> Iterator[object]:
    """A meaning and every meaning in it."""
    stack = [node]
    while stack:
        node = stack.pop()
        if isinstance(node, (list, tuple)):
            stack.extend(reversed(node))
        elif isinstance(node, M.Meaning):
            yield node
            stack.extend(reversed([getattr(node, f.name) for f in attrs.fields(type(node)) if f.name != "node"]))
