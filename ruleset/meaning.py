"""What a checked rule means: statements, conditions, places and numbers bound
to the game's schema by index.

The resolver (resolver.py) builds these from the syntax tree; the compiler
turns them into operations, and the renderer into card text.  Each keeps the
syntax node it came from (``node``, excluded from equality) for positions and
for rendering.  Nothing here names a game: a place is an index into the
schema's places, a holder into its holders, a pile into its piles.
"""

from __future__ import annotations

from typing import Optional, Tuple, Union

import attrs

from .frozen import frozen


def _node():
    return attrs.field(default=None, eq=False, repr=False, kw_only=True)


@frozen
class Meaning:
    node: object = _node()


def any_part(meaning, found) -> bool:
    """Whether ``found`` holds of ``meaning`` or of any part of it, at any depth: the items of
    tuples and lists, the fields of each meaning (not the syntax a meaning keeps, ``node``).
    ``found(part)`` says True or False to stop at that part, None to look inside it."""
    if meaning is None or isinstance(meaning, (int, str, float, bool)):
        return False
    verdict = found(meaning)
    if verdict is not None:
        return verdict
    if isinstance(meaning, (tuple, list)):
        return any(any_part(item, found) for item in meaning)
    if attrs.has(type(meaning)):
        return any(any_part(getattr(meaning, field.name), found) for field in attrs.fields(type(meaning))
                   if field.name != "node")
    return False


# ------------------------------------------------------------------ sides
# Who: relative to the acting player ("you" is ctx.me), a named side, a role
# (a side-valued register such as "the leader"), or the first player.


@frozen
class Side(Meaning):
    kind: str  # "me" | "opponent" | "side" | "register" | "first"
    index: int = -1  # a side's index, or a register's


ME = Side("me")
OPPONENT = Side("opponent")


# ------------------------------------------------------------------ places
# A set of map places, in order, without repeats.


@frozen
class Fixed(Meaning):
    """Places named outright: a place, a group's places, an attribute's places, every place."""

    places: Tuple[int, ...]
    kind: str = "named"  # named | group | attribute | all (for rendering and for "each")
    index: int = -1  # the group or attribute, for rendering


@frozen
class ContextPlace(Meaning):
    """The place the rule runs for ("this space"), the place tested ("it"), or the place
    an earlier step of the same effect chose ("that space")."""

    kind: str  # "this" | "it" | "that"


@frozen
class ContextGroupPlaces(Meaning):
    """The places of the group the rule runs for ("this dimension"), or of the tested
    place's group ("its dimension")."""

    kind: str  # "this" | "its"


@frozen
class CardPlaces(Meaning):
    """The place field of cards: "your objective space", "revealed objective spaces"."""

    cards: "Cards"
    field: int  # index of the field in its card kind


@frozen
class Filtered(Meaning):
    places: "PlaceSet"
    test: "Condition"  # about "it", each place in turn


@frozen
class Related(Meaning):
    """"spaces you control": places a side (or nobody) stands in the relation to."""

    places: "PlaceSet"
    who: Side  # or Side("nobody")
    relation: int = 0


@frozen
class Most(Meaning):
    """"spaces with the most opponent tokens": the most among the places considered."""

    places: "PlaceSet"
    most: bool
    owner: "Owners"


@frozen
class WithTerm(Meaning):
    places: "PlaceSet"
    term: int


PlaceSet = Union[Fixed, ContextPlace, ContextGroupPlaces, CardPlaces, Filtered, Related, Most, WithTerm,
                 "Union_"]


@frozen
class Union_(Meaning):
    """Places and holders named together, in order, without repeats."""

    items: Tuple[object, ...]


# ------------------------------------------------------------------ holders
# Where a side's tokens are off the map.  The side is whoever owns the tokens.


@frozen
class Holder(Meaning):
    kind: str  # "holder" | "track" | "box" | "above" | "supply"
    index: int = -1  # the holder or the track
    zone: int = -1  # the zone of a track, for a box or "above"
    possessive: Optional[str] = None  # as written, checked for agreement with the owner


# ------------------------------------------------------------------ groups


@frozen
class GroupRef(Meaning):
    """A group of places: by name, the group the rule runs for, the tested place's group,
    or a card's group field."""

    kind: str  # "named" | "this" | "its" | "card"
    index: int = -1
    card: Optional["CardRef"] = None
    field: int = -1


# ------------------------------------------------------------------ cards and piles


@frozen
class PileRef(Meaning):
    """A pile; for a pile each side has, whose (``side``), or every side's in turn order (``each``)."""

    pile: int
    side: Optional[Side] = None
    each: bool = False


@frozen
class CardRef(Meaning):
    """One card: the top or the current card of a pile, the card a rule is about ("the
    card"), a term's card, or the last card played."""

    kind: str  # "top" | "current" | "this" | "last_played" | "pile" (the only card of a pile)
    pile: Optional[PileRef] = None


@frozen
class Cards(Meaning):
    """Cards of a kind: those in piles, or those revealed ("revealed objectives")."""

    kind: int  # card kind
    piles: Tuple[PileRef, ...] = ()
    revealed: bool = False
    type: Optional[Tuple[int, int, object]] = None  # only those of a kind field's values ("presidents")


@frozen
class CardFilter(Meaning):
    """"a card of your hand whose value is at least the value of the card": cards of piles whose
    field compares so to a number."""

    cards: Cards
    field: int
    op: str
    other: object  # a Number


@frozen
class Marker(Meaning):
    index: int


@frozen
class ZoneRef(Meaning):
    track: int
    zone: int
    side: Side


# ------------------------------------------------------------------ cards in play (entities)
# An entity is a card in play: an owner, a place of the map (or none), maybe a card that
# carries it, flags and number fields (docs/state.md, "in play").


@frozen
class Entities(Meaning):
    """Cards in play: of some kinds (and a value of a kind field: "units"), whose (``owner``),
    with flags set or clear, at places, carried by an entity, whose field compares so."""

    kinds: Tuple[int, ...]  # card kinds
    type: Optional[Tuple[int, int, object]] = None  # (card kind, field, value or values): "units"
    owner: Optional[Side] = None  # None: anybody's
    flags: Tuple[Tuple[int, bool], ...] = ()  # (flag, set)
    at: Optional[object] = None  # a PlaceSet
    # "whose range is more than their distance to the battlefield": (field, op, a Number read for each card)
    whose: Optional[Tuple[str, str, object]] = None
    carrying: Optional["Entities"] = None  # "carrying a character": cards that carry one of these
    by: Optional["EntityRef"] = None  # "its gear": cards carried by that card


@frozen
class EntityRef(Meaning):
    """One card in play: the one a "for each" runs for ("the unit", "this unit"), the one an
    earlier statement of the same rule chose ("that unit"), or the card a rule is about ("the card").
    Inside a "whose" clause and where a card goes, "its"/"their" is the card tested or moved ("this")."""

    kind: str  # "this" | "that" | "card"


@frozen
class PileCards(Meaning):
    """Cards of piles that may come into play: of a kind (and a kind field's value), maybe
    whose field compares so to a number."""

    piles: Tuple["PileRef", ...]
    kind: int
    type: Optional[Tuple[int, int, str]] = None
    field: int = -1
    op: str = ""
    other: Optional[object] = None
    card: Optional["CardRef"] = None  # one named card ("the card") rather than a choice among a pile's


@frozen
class EntityPlaces(Meaning):
    """The places where cards in play stand: "the site of your camp"."""

    entities: object  # Entities or EntityRef


@frozen
class Adjacent(Meaning):
    """The places next to others (the map's adjacency): next to a place set, or, with ``of``
    None, next to where the card being moved stands ("march a unit to an adjacent site")."""

    of: Optional[object] = None  # a PlaceSet, or None: the moving card's place


@frozen
class Within(Meaning):
    """"a location within its speed": the places at most so many steps along the map from the
    place of the card that moves (its own place left out)."""

    steps: object  # a Number, read with the moving card as "its"


@frozen
class RegisterPlace(Meaning):
    """The place a register holds ("the battlefield"); none while it holds none."""

    register: int


# ------------------------------------------------------------------ numbers


@frozen
class Literal(Meaning):
    value: int


@frozen
class CounterValue(Meaning):
    counter: int
    side: Optional[Side] = None


@frozen
class CardField(Meaning):
    card: CardRef
    field: int


@frozen
class Count(Meaning):
    """How many of something: places in a set, groups a side holds, cards in a pile."""

    what: object
    kind: str  # "places" | "groups" | "cards"
    who: Optional[Side] = None  # groups: those this side (or nobody) controls


@frozen
class Sum(Meaning):
    terms: Tuple[object, ...]
    signs: Tuple[int, ...]


@frozen
class EntityField(Meaning):
    """A number field of a card in play (its value in play, where the field changes in play)."""

    entity: EntityRef
    field: str


@frozen
class EntityTotal(Meaning):
    """"the total power of your units at Ridge": a field summed over cards in play."""

    entities: Entities
    field: str


@frozen
class EntityExtreme(Meaning):
    """"the highest leadership of your characters at Ridge": the most (or least) of a field over cards
    in play; 0 when there are none."""

    entities: Entities
    field: str
    highest: bool = True


@frozen
class Distance(Meaning):
    """"their distance to the battlefield": the steps along the map from where a card stands (the
    card tested, or moved) to a place; a card or place off the map is at no distance (a very large one)."""

    entity: EntityRef
    to: object  # a PlaceSet (its first place)


@frozen
class CardsTotal(Meaning):
    """"the total influence of your captured cards": a number field added up over the cards of piles."""

    cards: "Cards"
    field: int


Number = Union[Literal, CounterValue, CardField, Count, Sum, EntityField, EntityTotal, EntityExtreme, Distance,
               CardsTotal]


# ------------------------------------------------------------------ token phrases


@frozen
class Owners(Meaning):
    """Whose tokens a step moves."""

    kind: str  # "own" | "opponent" | "either" | "side"
    side: int = -1


@frozen
class Amount(Meaning):
    kind: str  # "exactly" | "up_to" | "all" | "any" (any number of, one at a time) | "cover"
    n: int = 0
    number: Optional[Number] = None  # read from a card when the statement starts
    # "cover": cards are taken one at a time until this field of theirs, added up, is at least ``number``
    field: str = ""


# ------------------------------------------------------------------ conditions


@frozen
class AnyOf(Meaning):
    items: Tuple["Condition", ...]


@frozen
class AllOf(Meaning):
    items: Tuple["Condition", ...]


@frozen
class Not(Meaning):
    item: "Condition"


@frozen
class EachSide(Meaning):
    """The condition holds for every side as "you"."""

    item: "Condition"


@frozen
class Controls(Meaning):
    """A side holds a place or a whole group (every place of it)."""

    side: Side
    target: object  # a place (PlaceSet of one) or GroupRef
    target_kind: str  # "place" | "group"
    nobody: bool = False


@frozen
class ControlsCount(Meaning):
    side: Side
    test: "Comparison"
    within: Optional[GroupRef] = None


@frozen
class ControlsMore(Meaning):
    side: Side
    other: Side


@frozen
class Comparison(Meaning):
    op: str
    n: int


@frozen
class TokensIn(Meaning):
    """How many tokens a side has in a place set or a holder, compared."""

    side: Side
    where: object  # PlaceSet or Holder
    test: Comparison


@frozen
class TokensMore(Meaning):
    side: Side
    other: Side
    where: object
    lead: Optional[Comparison] = None


@frozen
class NumberTest(Meaning):
    number: Number
    test: Optional[Comparison] = None
    op: Optional[str] = None
    other: Optional[Number] = None


@frozen
class CounterMore(Meaning):
    counter: int
    side: Side
    other: Side
    fewer: bool = False


@frozen
class IsFirstPlayer(Meaning):
    side: Side


@frozen
class IsSide(Meaning):
    side: Side
    named: int


@frozen
class IsRole(Meaning):
    side: Side
    role: str  # a register's or an overlay role's name
    negated: bool = False


@frozen
class HasAttribute(Meaning):
    place: object  # a place
    attribute: str


@frozen
class ZoneEntered(Meaning):
    zone: ZoneRef


@frozen
class MarkerAt(Meaning):
    marker: int
    where: Optional[object] = None  # a PlaceSet; None: on or off the map
    off: bool = False


@frozen
class CardIs(Meaning):
    card: CardRef
    term: int


@frozen
class CardFor(Meaning):
    card: CardRef
    side: Side
    only: bool = False
    field: int = -1


@frozen
class PlayedBy(Meaning):
    card: CardRef
    side: Side


@frozen
class CardWould(Meaning):
    """The card's event, imagined: would it place or remove pieces on the map?"""

    card: CardRef


@frozen
class Change(Meaning):
    """A change of control: of a place, of a group, or of any place of a group."""

    side: Side
    gain: bool
    target: object
    target_kind: str  # "place" | "group" | "places"


@frozen
class Would(Meaning):
    verb: str  # "place" | "remove"
    owners: Owners
    negated: bool
    change: Change


@frozen
class AllInOneGroup(Meaning):
    """The places of cards (and, with ``also``, of more cards) all lie in one group."""

    cards: Cards
    also: Optional[Cards] = None


@frozen
class Named(Meaning):
    """A named condition of the content ("the final crisis trigger holds")."""

    procedure: int


@frozen
class Term(Meaning):
    """A defined term about a place or a card, tested on "it" or on "the card"."""

    term: int


@frozen
class EntityFlag(Meaning):
    """"the card is tapped": a flag of a card in play (false when it is not in play)."""

    entity: EntityRef
    flag: int
    set: bool = True


@frozen
class EntityAt(Meaning):
    """"that unit is at Ridge"."""

    entity: EntityRef
    places: object


@frozen
class EntityIn(Meaning):
    """"the card is in play"."""

    entity: EntityRef


@frozen
class CardIsType(Meaning):
    """"the card is an interrupt": a card (of a pile, or in play) whose kind field has one of the
    values a noun names."""

    card: object  # a CardRef or an EntityRef
    type: Tuple[int, int, object]  # (card kind, field, values)


@frozen
class CanPay(Meaning):
    """"you can pay 2": the side's cards that pay (state.yaml, 'paying') cover the number."""

    side: Side
    amount: object  # a Number


@frozen
class RegisterSet(Meaning):
    """"the battlefield is on the map" (``held``), "... off the map": a place register holds a place
    that is on the map, or none."""

    register: int
    held: bool = True


Condition = Union[AnyOf, AllOf, Not, EachSide, Controls, ControlsCount, ControlsMore, TokensIn, TokensMore,
                  NumberTest, CounterMore, IsFirstPlayer, IsSide, IsRole, HasAttribute, ZoneEntered, MarkerAt,
                  CardIs, CardFor, PlayedBy, CardWould, Would, AllInOneGroup, Named, Term, EntityFlag, EntityAt,
                  EntityIn, CardIsType, CanPay, RegisterSet]


# ------------------------------------------------------------------ statements


@frozen
class Transfer(Meaning):
    """Place, remove or move tokens, one token per step (docs/language.md)."""

    verb: str  # "place" | "remove" | "move"
    amount: Amount
    owners: Owners
    sources: object  # Union_ of places and holders
    dests: object
    each: bool = False
    limit: Optional[int] = None
    one_place: bool = False
    random: bool = False
    chooser: Optional[str] = None  # "all": the other player makes the choices; "pieces": only which tokens


@frozen
class PlaceMarker(Meaning):
    marker: int
    places: object


@frozen
class RemoveMarker(Meaning):
    marker: int


@frozen
class ChangeCounter(Meaning):
    """"gain 1 VP", "lose 1 VP for each ...", "add 1 to the final crisis step"."""

    counter: int
    amount: Number
    sign: int
    per: Optional[Number] = None
    side: Optional[Side] = None  # a counter each side keeps: whose


@frozen
class SetCounter(Meaning):
    counter: int
    value: Number
    each_side: bool = False


@frozen
class SetRegister(Meaning):
    register: int
    first_player: bool = True


@frozen
class Draw(Meaning):
    n: int  # -1: "until they have N"
    source: PileRef
    dest: PileRef
    until: int = -1


@frozen
class Shuffle(Meaning):
    pile: PileRef
    into: Optional[PileRef] = None


@frozen
class Put(Meaning):
    source: PileRef
    dest: PileRef


@frozen
class Reveal(Meaning):
    """Turn face up: every card of piles, or the current card of piles."""

    piles: Tuple[PileRef, ...]
    current: bool = False


@frozen
class Discard(Meaning):
    card: CardRef


@frozen
class Play(Meaning):
    source: PileRef


@frozen
class Keep(Meaning):
    n: int
    source: PileRef
    dest: PileRef
    noun: str  # the card kind's word (the decision's kind)
    verb: str = "keep"
    random: bool = False  # ", at random": each card drawn by lot (a roll), nobody asked


@frozen
class Order(Meaning):
    source: PileRef
    dest: PileRef


@frozen
class CarryOut(Meaning):
    """A named procedure, or a card's rule field, carried out; ``bind`` gives "this space",
    "this dimension" or "the card" for it."""

    procedure: int = -1
    card: Optional[CardRef] = None
    field: int = -1
    bind: Optional[object] = None


@frozen
class Score(Meaning):
    procedure: int
    counter: int


@frozen
class Resolve(Meaning):
    track: int


@frozen
class Win(Meaning):
    counter: int = -1  # -1: "you win"
    ties: int = -1  # a procedure: the tie-breaks


@frozen
class Stop(Meaning):
    pass


@frozen
class Forget(Meaning):
    """The last card played is forgotten (a new round of plays)."""


@frozen
class Call(Meaning):
    verb: str
    args: Tuple[object, ...] = ()


@frozen
class EnterPlay(Meaning):
    """Cards from piles into play, one choice per card: at a place, onto a card in play, or
    nowhere in particular (``dest`` None).  ``verb``: the word of its actions ("deploy")."""

    verb: str
    amount: Amount
    cards: PileCards
    dest: Optional[object] = None  # a PlaceSet, or Entities (onto one of them)
    onto: bool = False
    flag: int = -1  # a flag the cards enter with
    paying: Optional[object] = None  # a Number: each card paid for as it comes in ("its" is the card)


@frozen
class LeavePlay(Meaning):
    """Cards in play to a pile (the owner's, for a pile each side keeps); what they carry goes too."""

    verb: str
    amount: Amount
    entities: object  # Entities or EntityRef
    pile: Optional[PileRef] = None  # None: each card's owner's pile ``owner_pile``
    owner_pile: int = -1


@frozen
class MoveEntity(Meaning):
    """Cards in play to another place (or onto another card), one choice per card and place."""

    verb: str
    amount: Amount
    entities: object
    dest: object  # a PlaceSet (maybe with Adjacent), or Entities with ``onto``
    onto: bool = False
    flag: int = -1  # a flag the moved cards get (and the cards they carry, which go with them)
    paying: Optional[object] = None  # a Number: each move paid for ("its" the card, "it" where it goes)


@frozen
class SetFlag(Meaning):
    """"tap 2 of your untapped farms", "untap your cards": a flag set or cleared on cards in play."""

    verb: str
    amount: Amount
    entities: object
    flag: int
    set: bool = True


@frozen
class ChangeEntityField(Meaning):
    """"add 1 to the power of the unit", "set the power of the unit to 2" (a field that changes in play)."""

    entity: EntityRef
    field: str
    amount: object  # a Number
    set_to: bool = False


@frozen
class Pay(Meaning):
    """"pay 2": the acting side's cards that pay are spent until they cover the number (state.yaml,
    'paying'); all or nothing: a cost that cannot be covered is not paid at all."""

    amount: object  # a Number


@frozen
class Choose(Meaning):
    """"choose up to 1 location where ... as the battlefield": one place of a set, chosen by the
    acting player, held by a register; "up to": the player may choose none (the register then holds
    none).  With ``paying``, a place is offered only if it can be paid for ("it" is the place)."""

    register: int
    places: object  # a PlaceSet
    optional: bool = False
    paying: Optional[object] = None


@frozen
class PlayCards(Meaning):
    """"play any number of cards from your hand", "play up to 2 cards from your hand": cards played
    one at a time, each for one of its uses (sequence.yaml, 'playing a card'), as long as the player
    goes on: a window in which a player may answer with cards."""

    source: PileRef
    most: int = 0  # 0: any number
    type: Optional[Tuple[int, int, object]] = None  # only cards of a kind field's values ("interrupts")


@frozen
class ForEachEntity(Meaning):
    """"for each unit you control at Ridge:": the cards of the set when it starts, in card order;
    one that has left play (or the set) by its turn is passed over."""

    entities: Entities
    body: "Block"


@frozen
class Acting(Meaning):
    actor: str  # "opponent" | "each" | "first" | "register"
    statement: object
    register: int = -1


@frozen
class Block(Meaning):
    statements: Tuple[object, ...]


@frozen
class If(Meaning):
    condition: Condition
    then: Block
    otherwise: Optional[Block] = None


@frozen
class Either(Meaning):
    options: Tuple[Block, ...]


@frozen
class FirstOf(Meaning):
    options: Tuple[Block, ...]


@frozen
class Goal(Meaning):
    change: Change
    steps: Tuple[Transfer, ...]


@frozen
class ForEachPlayer(Meaning):
    body: Block
    who: Optional[Condition] = None  # settled for every player before the first runs


@frozen
class ForEachPlace(Meaning):
    """"for each pivotal space you control, in the order you choose, as a bonus:"."""

    places: object
    body: Block
    chooser: str = "you"  # "you" | "opponent" | a register or role
    action: str = ""


@frozen
class ForEachCounter(Meaning):
    """"for each round:": the counter from where it stands to its highest value."""

    counter: int
    body: Block


@frozen
class Step(Meaning):
    name: str
    body: Block


@frozen
class Repeat(Meaning):
    condition: Condition
    body: Block


@frozen
class Alternate(Meaning):
    first: int  # a register
    n: int
    counter: int
    body: Block
