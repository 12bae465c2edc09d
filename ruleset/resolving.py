"""What every part of the resolver shares: where a rule sits (``Slot``), and the small words
its messages and phrases are made of."""

from __future__ import annotations

from typing import Optional, Tuple

import attrs

from . import meaning as M
from . import nodes as N
from .diagnostics import a_noun  # noqa: F401 - the resolver's modules take it from here


@attrs.frozen
class Slot:
    """Where a rule sits, and so what its context words may refer to (docs/language.md, Context
    words): "this space" and "this group" (a rule run for a place, or for a card with a place or a
    group field), "the card" (a card's own rules and uses, a definition about a card, a procedure
    carried out for a card), revealed cards of a kind, and one card of a pile ("the top card of
    the discard pile"), which only rules that play cards name: not a card's own rules, nor a
    definition about a card (they name their card as "the card")."""

    description: str
    this_space: bool = False
    this_group: bool = False
    the_card: bool = False
    revealed: bool = False  # revealed cards are known (objective scoring)
    sequence: bool = False  # statements of the sequence of play are allowed
    pile_cards: bool = True  # one card of a pile may be named ("the revealed card")
    # why a context word is unknown here, by the flag it needs ("the_card" -> "card 'x', event
    # carries it out, and no card is known there"): said as the hint of the error
    why: Tuple[Tuple[str, str], ...] = ()

    def reason(self, flag: str, default: Optional[str] = None) -> Optional[str]:
        return dict(self.why).get(flag, default)


ANYWHERE = Slot("a rule", True, True, True, True, True)


def relative_side(kind: str) -> M.Side:
    return M.ME if kind in ("own", "their", "you") else M.OPPONENT


_CATEGORIES = {"cardtype": "entities", "places": "places", "group": "group", "holder": "holder", "track": "holder",
               "box": "holder",
               "zone": "zone", "tokens": "tokens", "counter": "number", "register": "side", "role": "role",
               "cards": "cards", "field": "number", "pile": "pile", "procedure": "procedure", "term": "term"}


def category_of(refers_to: str) -> str:
    return _CATEGORIES.get(refers_to.partition(":")[0], refers_to)


_KIND_TEXT = {"places": "a set of places", "group": "a group of places", "holder": "a holder of tokens",
              "zone": "a zone", "number": "a number", "side": "a side", "pile": "a pile of cards",
              "card": "a card", "cards": "cards", "procedure": "a procedure", "term": "a defined term",
              "marker": "a marker", "rule": "a rule", "count": "a count", "counter_each": "a counter of each side",
              "tokens": "tokens", "role": "a role", "entities": "cards in play", "entity": "a card in play"}


def kind_text(kind: str) -> str:
    return _KIND_TEXT.get(kind, kind)


def described(node) -> str:
    if isinstance(node, N.Phrase):
        words = " ".join(w.text + ("'s" if w.kind == "OWNS" else "") for w in node.words)
        return f"'{words}'" if words else "this"
    return "this"


def any_number(p: Optional[N.Phrase]) -> bool:
    """"any number of your units": as many as the player wants, one at a time."""
    return isinstance(p, N.Phrase) and p.count and p.determiner == "any" and len(p.of) == 1


def each_place(places: Optional[N.Places]) -> bool:
    """"in each Secession space": the count applies to every place of the set."""
    if places is None:
        return False
    return any((item.phrase if isinstance(item, N.Filtered) else item).determiner == "each" for item in places.items)


def term_name(resolver, index: int) -> str:
    return list(resolver.declarations.terms)[index]
