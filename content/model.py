"""The game as loaded from content: frozen, validated, ready to compile."""

from __future__ import annotations

from typing import Dict, Optional, Tuple, Union

import attrs

from crisis.ruleset import ast as A
from crisis.ruleset.checker import Vocabulary
from crisis.ruleset.diagnostics import Source

from .bots import BotSettings
from .locale import Catalog


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
class Content:
    """Everything a game needs, loaded and checked; never half-loaded."""

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

    @property
    def program(self):
        """The definition compiled for the general engine, once per content.  (An import up the
        layers, kept while the commands move; the engine's way is program_of(content).)"""
        from crisis.interpreter.engine.program import program_of
        return program_of(self)

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
