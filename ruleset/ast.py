"""Typed syntax tree of the rules language.

Every node is a frozen attrs class.  Positions are kept on every node but
excluded from equality, so tests compare structure and tools still point at
the source.  Class names match the grammar rules they come from.
"""

from __future__ import annotations

from typing import Optional, Tuple, Union

import attrs


@attrs.frozen
class Pos:
    """A span in the rule text (1-based lines and columns, end exclusive)."""

    line: int
    column: int
    end_line: int
    end_column: int


def _pos_field():
    return attrs.field(default=None, eq=False, repr=False, kw_only=True)


@attrs.frozen
class Node:
    pos: Optional[Pos] = _pos_field()

    def children(self):
        """Child nodes, in source order (for visitors)."""
        for field in attrs.fields(type(self)):
            if field.name == "pos":
                continue
            value = getattr(self, field.name)
            if isinstance(value, Node):
                yield value
            elif isinstance(value, tuple):
                yield from (v for v in value if isinstance(v, Node))

    def walk(self):
        """This node and all its descendants, depth first."""
        yield self
        for child in self.children():
            yield from child.walk()


@attrs.frozen
class Name(Node):
    """A reference to a game thing by name: space, dimension, zone, side, marker."""

    text: str


# ----------------------------------------------------------------- quantities


@attrs.frozen
class CardRef(Node):
    """A card in play: the card the solo opponent revealed, the top card of the
    discard pile, or the card a definition is about."""

    kind: str  # "revealed" | "discard_top" | "this"


@attrs.frozen
class Amount(Node):
    """How many tokens: exactly n, up to n (0 allowed), or all there are.

    With ``card``, n is that card's value when the statement starts."""

    kind: str  # "exactly" | "up_to" | "all"
    n: Optional[int] = None
    card: Optional[CardRef] = None


@attrs.frozen
class Owner(Node):
    """Whose tokens: the acting player's, the opponent's, either side's, or a named side's."""

    kind: str  # "own" | "opponent" | "either" | "side"
    side: Optional[Name] = None


@attrs.frozen
class Comparison(Node):
    op: str  # "==" | ">=" | "<=" | ">" | "<"
    n: int


# -------------------------------------------------------------------- players


@attrs.frozen
class Player(Node):
    """A player named relative to the acting one, or by side."""

    kind: str  # "you" | "opponent" | "side"
    side: Optional[Name] = None


# ------------------------------------------------------------------ locations
# Holders keep tokens off the map.  A holder always belongs to the owner of the
# tokens in it; the possessive is checked for agreement, not used to pick one.


@attrs.frozen
class Pool(Node):
    possessive: Optional[str] = None  # "own" | "their" | "opponent" | None


@attrs.frozen
class CrisisTrack(Node):
    """A crisis track; with ``above``, only its tokens above that zone."""

    possessive: Optional[str] = None
    above: Optional[Name] = None


@attrs.frozen
class BonusBox(Node):
    zone: Name
    possessive: Optional[str] = None


@attrs.frozen
class Named(Node):
    """A space (or, where a dimension fits, a dimension) by name."""

    name: Name


@attrs.frozen
class DimensionSpaces(Node):
    dimension: Name


@attrs.frozen
class PivotalSpaces(Node):
    pass


@attrs.frozen
class AllSpaces(Node):
    pass


@attrs.frozen
class ThisDimension(Node):
    """The dimension the rule runs for (pivotal bonus, Final Crisis card)."""


@attrs.frozen
class ThisSpace(Node):
    """The space the rule runs for (an objective's space, a pivotal space)."""


@attrs.frozen
class It(Node):
    """The space being tested inside a "where" clause."""


@attrs.frozen
class ThatSpace(Node):
    """The space chosen by the latest token or marker step earlier in the same effect
    ("place 1 in Texas or Fort Pickens / move the Peace Commissioner to that space")."""


@attrs.frozen
class RevealedObjectiveSpaces(Node):
    pass


@attrs.frozen
class ObjectiveSpace(Node):
    """The space of the objective card a player holds ("your objective space")."""

    possessive: str  # "own" | "their" | "opponent" (the last is refused: hidden)


@attrs.frozen
class ItsDimension(Node):
    """The dimension of the space tested in a "where" clause."""


@attrs.frozen
class ASpaceOf(Node):
    """Any one space of a dimension, in a change: "gain control of a space of this dimension"."""

    dimension: "Target"


@attrs.frozen
class ControlledBy(Node):
    """Short filter: "spaces you control", "... the opponent controls", "... nobody controls"."""

    who: str  # "you" | "opponent" | "nobody"


@attrs.frozen
class Where(Node):
    condition: "Condition"


@attrs.frozen
class Most(Node):
    """Filter: the spaces with the most (or fewest) tokens of an owner, among
    the spaces considered (in a table row: the spaces still left)."""

    kind: str  # "most" | "fewest"
    owner: "Owner"


@attrs.frozen
class WithTerm(Node):
    """Filter: the spaces a defined term holds for ("spaces with Room")."""

    term: Name


SpaceBase = Union[
    Named, DimensionSpaces, PivotalSpaces, AllSpaces, ThisDimension, ThisSpace, It,
    RevealedObjectiveSpaces, ThatSpace, ObjectiveSpace,
]


@attrs.frozen
class Spaces(Node):
    base: SpaceBase
    filter: Optional[Union[ControlledBy, Where, Most, WithTerm]] = None


Location = Union[Pool, CrisisTrack, BonusBox, Spaces]


@attrs.frozen
class Locations(Node):
    """A union of places, in the order written."""

    items: Tuple[Location, ...]


# ----------------------------------------------------------------- statements


@attrs.frozen
class Place(Node):
    """Put tokens on the map; from the standard supply unless a holder is named."""

    amount: Amount
    owner: Owner
    dest: Locations
    source: Optional[Union[Pool, CrisisTrack, BonusBox]] = None
    each: bool = False
    limit: Optional[int] = None
    one_space: bool = False  # "all in one space"
    random: bool = False  # ", at random": a die roll makes each step's choice
    chooser: Optional[str] = None  # ", the opponent choosing" ("all") / "... the tokens" ("tokens")


@attrs.frozen
class Remove(Node):
    """Take tokens off the map into their owner's pool."""

    amount: Amount
    owner: Owner
    source: Locations
    limit: Optional[int] = None
    each: bool = False
    one_space: bool = False
    random: bool = False
    chooser: Optional[str] = None


@attrs.frozen
class Move(Node):
    """Take tokens from one place and put them in another."""

    amount: Amount
    owner: Owner
    source: Locations
    dest: Locations
    each: bool = False
    limit: Optional[int] = None
    within: bool = False  # written "move ... within X" (source and destination alike)
    one_space: bool = False
    random: bool = False
    chooser: Optional[str] = None


@attrs.frozen
class Dimensions(Node):
    """Countable for VP: "for each dimension you control"."""

    filter: Optional[ControlledBy] = None


Countable = Union[Dimensions, Pool, CrisisTrack, BonusBox, Spaces]


@attrs.frozen
class ChangeVP(Node):
    gain: bool
    amount: int
    per: Optional[Countable] = None


@attrs.frozen
class PlaceMarker(Node):
    """Place or move a marker piece (such as the Peace Commissioner) on the map."""

    marker: Name
    dest: Locations
    verb: str = "place"  # "place" | "move" (same effect; kept for rendering)


@attrs.frozen
class RemoveMarker(Node):
    marker: Name


@attrs.frozen
class Block(Node):
    statements: Tuple["Statement", ...]


@attrs.frozen
class If(Node):
    condition: "Condition"
    then: Block
    otherwise: Optional[Block] = None


@attrs.frozen
class Either(Node):
    """Exclusive options, in the order printed; the acting player picks one."""

    options: Tuple[Block, ...]


@attrs.frozen
class ForEachPlayer(Node):
    """Run the body once for each player, first player first; "you" is that player."""

    body: Block


@attrs.frozen
class Acting(Node):
    """A statement carried out by someone other than the acting player."""

    actor: str  # "opponent" | "each_player"
    statement: "Statement"


@attrs.frozen
class FirstOf(Node):
    """A priority list: the first option that can be carried out fully, else the
    first that can be carried out at all (docs/rulings.md)."""

    options: Tuple[Block, ...]


@attrs.frozen
class Change(Node):
    """A change of control between two positions: gained or lost."""

    kind: str  # "gain" | "lose"
    player: Player
    target: "Target"


@attrs.frozen
class Goal(Node):
    """ "so that <change>:" -- the block is carried out only in a way that makes the change happen."""

    change: Change
    body: Block


@attrs.frozen
class Reveal(Node):
    """Reveal the top card of the strategy deck (it becomes "the revealed card")."""


@attrs.frozen
class UseEvent(Node):
    """Carry out the event of a card in play, as the acting player."""

    card: CardRef


@attrs.frozen
class DiscardCard(Node):
    card: CardRef


@attrs.frozen
class ResolveBreaches(Node):
    """Resolve the zones breached so far now, rather than when the play ends."""


Statement = Union[Place, Remove, Move, ChangeVP, PlaceMarker, RemoveMarker, If, Either,
                  ForEachPlayer, Acting, FirstOf, Goal, Reveal, UseEvent, DiscardCard, ResolveBreaches]

# ----------------------------------------------------------------- conditions


@attrs.frozen
class AnyOf(Node):
    items: Tuple["Condition", ...]


@attrs.frozen
class AllOf(Node):
    items: Tuple["Condition", ...]


@attrs.frozen
class Not(Node):
    item: "Condition"


Target = Union[Named, It, ThisSpace, ThisDimension, ThatSpace, ItsDimension, ObjectiveSpace, ASpaceOf]


@attrs.frozen
class Controls(Node):
    """A player controls a space or a dimension."""

    player: Player
    target: Target


@attrs.frozen
class NobodyControls(Node):
    target: Target


@attrs.frozen
class HasTokens(Node):
    player: Player
    comparison: Comparison
    where: Location


@attrs.frozen
class HasMoreTokens(Node):
    """The player's lead in tokens over the other: "more" (at least 1), or
    compared with ``margin`` ("at most 1 more", "no more")."""

    player: Player
    other: Player
    where: Location
    margin: Optional[Comparison] = None


@attrs.frozen
class HasVP(Node):
    player: Player
    comparison: Comparison


@attrs.frozen
class HasMoreVP(Node):
    player: Player
    other: Player


@attrs.frozen
class IsFirstPlayer(Node):
    player: Player


@attrs.frozen
class IsSide(Node):
    player: Player
    side: Name


@attrs.frozen
class RoundIs(Node):
    comparison: Comparison


@attrs.frozen
class ZoneBreached(Node):
    possessive: str  # "own" | "their" | "opponent"
    zone: Name


@attrs.frozen
class PoolHas(Node):
    possessive: str
    comparison: Comparison


@attrs.frozen
class PoolLead(Node):
    """"your pool has at least N more tokens than the opponent's pool"."""

    possessive: str
    margin: int
    other: str


@attrs.frozen
class IsPivotal(Node):
    target: Target


@attrs.frozen
class ControlsCount(Node):
    player: Player
    comparison: Comparison
    scope: Optional[Target] = None  # "... spaces of its dimension"


@attrs.frozen
class ControlsMore(Node):
    player: Player
    other: Player


@attrs.frozen
class HasFewerVP(Node):
    player: Player
    other: Player


@attrs.frozen
class MarkerAt(Node):
    """Where a marker is: "the Peace Commissioner is in Political spaces", "... in Washington or
    Texas" (a ``Locations``), "... is on the map", "... is off the map" (``where`` None: anywhere on
    the map)."""

    marker: Name
    where: Optional[Union["Location", "Locations"]] = None
    off: bool = False


@attrs.frozen
class Would(Node):
    """One imagined token step in the space tested: "placing a token there
    would give you control of it".  Compares the position before and after."""

    verb: str  # "place" | "remove"
    owner: Owner
    change: Change
    negated: bool = False


@attrs.frozen
class IsSoloOpponent(Node):
    player: Player
    negated: bool = False


@attrs.frozen
class CardIs(Node):
    """A card meets a defined term: "the revealed card is Friendly"."""

    card: CardRef
    term: Name


@attrs.frozen
class CardFor(Node):
    """A card's event may be used by the player ("only": by no one else)."""

    card: CardRef
    player: Player
    only: bool = False


@attrs.frozen
class CardValue(Node):
    """A card's value, compared with a number or with another card's value."""

    card: CardRef
    comparison: Optional[Comparison] = None
    op: str = ""  # "<=" | ">=" against ``other``
    other: Optional[CardRef] = None


@attrs.frozen
class CardWould(Node):
    """Carrying out the card's event would place or remove pieces on the map."""

    card: CardRef


Condition = Union[AnyOf, AllOf, Not, Controls, NobodyControls, HasTokens, HasMoreTokens, HasVP,
                  HasMoreVP, IsFirstPlayer, IsSide, RoundIs, ZoneBreached, PoolHas, PoolLead,
                  IsPivotal, ControlsCount, ControlsMore, HasFewerVP, MarkerAt, Would, IsSoloOpponent,
                  CardIs, CardFor, CardValue, CardWould]

STATEMENT_TYPES = (Place, Remove, Move, ChangeVP, PlaceMarker, RemoveMarker, If, Either,
                   ForEachPlayer, Acting, FirstOf, Goal, Reveal, UseEvent, DiscardCard, ResolveBreaches)
CONDITION_TYPES = (AnyOf, AllOf, Not, Controls, NobodyControls, HasTokens, HasMoreTokens, HasVP,
                   HasMoreVP, IsFirstPlayer, IsSide, RoundIs, ZoneBreached, PoolHas, PoolLead,
                   IsPivotal, ControlsCount, ControlsMore, HasFewerVP, MarkerAt, Would, IsSoloOpponent,
                   CardIs, CardFor, CardValue, CardWould)
SPACE_BASE_TYPES = (Named, DimensionSpaces, PivotalSpaces, AllSpaces, ThisDimension,
                    ThisSpace, It, RevealedObjectiveSpaces, ThatSpace, ObjectiveSpace)
HOLDER_TYPES = (Pool, CrisisTrack, BonusBox)
