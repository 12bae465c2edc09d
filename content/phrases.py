"""The texts of a game's rules in a catalog's language, from the general front end's rules
(ruleset/phrasing.py): every rule of a definition, what ``crisis i18n check`` learns from
them (the templates they need), and the text of any rule a command has in hand.

A command hands over a rule of the general front end: its meaning, or the syntax node it was
read from (``meaning_of`` finds the meaning read from a node).
"""

from __future__ import annotations

import re
from typing import Callable, Dict, List, Optional, Tuple

from crisis.ruleset import meaning as M
from crisis.ruleset.walk import meanings
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
    """The meaning read from each syntax node of the general front end's rules of a content."""

    def __init__(self, content):
        self.content = content  # kept: the matches are by identity of its nodes
        self.found: Dict[int, object] = {}
        for rule, _source in content.definition.sources:
            self.index(rule)

    def index(self, meaning) -> None:
        """Each syntax node of a rule of the general front end -> its meaning."""
        for node in meanings(meaning):
            if node.node is not None:
                self.found.setdefault(id(node.node), node)


def key(name: str) -> str:
    """A procedure's name as rules and catalogs may spell it ("tie_breaks", "tie-breaks") made one."""
    return re.sub(r"[ \-]", "_", str(name)).lower()


_MATCHES: Dict[int, Matches] = {}


def matches(content) -> Matches:
    found = _MATCHES.get(id(content))
    if found is None or found.content is not content:
        if len(_MATCHES) >= 4:  # a few contents at most in one run (tests load several)
            _MATCHES.clear()
        found = _MATCHES[id(content)] = Matches(content)
    return found


def meaning_of(content, rule):
    """The general front end's rule ``rule`` stands for: itself if it is one, else the meaning
    read from it (a syntax node of the content's rules).  KeyError when it is neither."""
    if isinstance(rule, M.Meaning):
        return rule
    found = matches(content).found.get(id(rule))
    if found is None:
        raise KeyError(f"no rule of the general front end was read from {type(rule).__name__}")
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
