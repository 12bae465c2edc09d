"""A game as loaded from its content folder: its definition (state schema, cards, sequence of play,
procedures, the overlay of a game where the game plays a side), its catalogs and its bots'
settings; checked, frozen, never half-loaded (content/loader.py).

The names a command asks for (sides, places, groups, tracks and zones, markers, kinds of cards
and their fields) are the schema's; nothing here knows a game.
"""

from __future__ import annotations

from typing import Dict, Optional, Tuple

import attrs

from .bots import BotSettings
from .locale import Catalog


@attrs.frozen(eq=False)
class Content:
    """Everything a game needs, loaded and checked; never half-loaded."""

    root: str
    game: str  # the game's name (state.yaml's 'game'): a saved game names it
    definition: object  # content/definition.py's Definition
    catalogs: Dict[str, Catalog]
    digest: str  # identifies the rules of this content, not its texts (saved games refer to it)
    # the digests of earlier versions of the content that play exactly as this one (state.yaml's
    # 'replaces'): their saved games resume
    replaces: Tuple[str, ...] = ()
    # problems that do not stop a game (`crisis check` prints them; --strict fails on them)
    warnings: Tuple = attrs.field(default=(), repr=False)
    # the bots' settings (bots/*.yaml); not rules, so not in the digest
    bots: BotSettings = attrs.field(factory=BotSettings, repr=False)

    # ---------------------------------------------------------------- names
    @property
    def schema(self):
        return self.definition.schema

    @property
    def sides(self) -> Tuple[str, ...]:
        return self.definition.schema.sides

    @property
    def places(self) -> Tuple[str, ...]:
        return self.definition.schema.map.places

    @property
    def overlay(self):
        """The way of playing where the game plays one side (the solo game), or None."""
        return self.definition.overlay

    def plays(self, digest: str) -> bool:
        """Whether a game saved on content of this digest plays the same on this content."""
        return digest == self.digest or digest in self.replaces

    # ---------------------------------------------------------------- cards
    def cards(self, kind: str):
        """The cards of a kind (content/definition.py's CardSet: ids, fields by the schema's order)."""
        return self.definition.cards[kind]

    def card_fields(self, kind: str, card_id: str) -> Dict[str, object]:
        """A card's fields by name, as the definition holds them (indices of sides, places and
        groups; resolved rules)."""
        found = self.schema.card_kind(kind)
        cards = self.cards(kind)
        index = cards.ids.index(card_id)
        return {name: cards.fields[field][index] for field, (name, _type) in enumerate(found.fields)}

    def rule_texts(self) -> Tuple[Tuple[str, str, str, str], ...]:
        """(kind, card id, field, the rule as written) of every rule the cards carry, kind by kind."""
        out = []
        for kind in self.schema.card_kinds:
            cards = self.definition.cards.get(kind.name)
            for field, ((name, _type), texts) in enumerate(zip(kind.fields, cards.texts if cards else ())):
                out.extend((kind.name, card_id, name, text) for card_id, text in zip(cards.ids, texts)
                           if text is not None and cards.fields[field][cards.ids.index(card_id)] is not None)
        return tuple(out)

    def card_rule_text(self, card_id: str) -> Optional[str]:
        """A card's first rule as written (its event), or None."""
        return next((text for _kind, found, _field, text in self.rule_texts() if found == card_id), None)

    def rule_count(self) -> int:
        """How many rules the cards carry (rule fields given)."""
        return len(self.rule_texts())

    def catalog(self, lang: str) -> Catalog:
        return self.catalogs[lang]

    def kind_of(self, card_id: str) -> Optional[str]:
        """The kind of cards a card id belongs to (the first kind that has it)."""
        for kind in self.schema.card_kinds:
            cards = self.definition.cards.get(kind.name)
            if cards is not None and card_id in cards.ids:
                return kind.name
        return None
