"""The syntax tree of the rules language: what a rule says, before it is known
what its words refer to.

Every node is a frozen attrs class with its position in the rule text
(excluded from equality, so tests compare structure).  Phrases are still
words here: ``Phrase(determiner="your", words=("Escalation", "box"))``; the
resolver (resolver.py) finds what they mean in the game at hand.  Class names
match the grammar rules they come from.
"""

from __future__ import annotations

from typing import Optional, Tuple, Union

import attrs

from .frozen import frozen


@frozen
class Pos:
    """A span in the rule text (1-based lines and columns, end exclusive)."""

    line: int
    column: int
    end_line: int
    end_column: int


def _pos():
    return attrs.field(default=None, eq=False, repr=False, kw_only=True)


@frozen
class Node:
    pos: Optional[Pos] = _pos()

    def children(self):
        """Child nodes, in source order."""
        for field in attrs.fields(type(self)):
            if field.name == "pos":
                continue
            value = getattr(self, field.name)
            if isinstance(value, Node):
                yield value
            elif isinstance(value, tuple):
                yield from (v for v in value if isinstance(v, Node))

    def walk(self):
        """This node and all below it, depth first, without recursion."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(list(node.children())))


# ------------------------------------------------------------------ words


@frozen
class Word(Node):
    """One word or name of a phrase, with the kind the lexer gave it."""

    text: str
    kind: str  # "NAME" | "NOUN" | "ADJ" | "OWNS" (a name or noun with 's) | "ADJACENT"


@frozen
class Player(Node):
    """A player named relative to the acting one."""

    kind: str  # "you" | "opponent"


@frozen
class Possessive(Node):
    kind: str  # "own" | "their" | "opponent"


@frozen
class Relation(Node):
    """"you control", "the opponent controls", "nobody controls" after a phrase."""

    who: str  # "you" | "opponent" | "nobody"
    verb: str


@frozen
class Phrase(Node):
    """A noun phrase: "the top card of the strategy deck", "pivotal spaces you control"."""

    determiner: Optional[str]  # the a any each this that its top next last own their opponent each_player
    words: Tuple[Word, ...]
    of: Tuple["Phrase", ...] = ()  # "of ..." parts, in order
    above: Optional["Phrase"] = None
    relation: Optional[Relation] = None
    it: bool = False  # "it" / "there": the place a "where" clause tests
    last_played: bool = False  # "the last card played"
    at: Optional["Phrase"] = None  # "units at Ridge": where cards in play stand
    total: bool = False  # "the total power of ...": the field (the only word) summed over what "of" names
    count: bool = False  # "the number of ...": how many things "of" names
    carrying: Optional["Phrase"] = None  # "your characters carrying a character": cards in play carrying such
    within: Optional[Union[int, "Phrase"]] = None  # "a location within its speed": steps from the card that moves
    whose: Optional["Whose"] = None  # "your characters whose range is more than ...": a field of each, compared
    extreme: Optional[str] = None  # "highest" | "lowest": "the highest leadership of ..." (the field, over "of")
    distance: Optional["Phrase"] = None  # "their distance to the battlefield": steps along the map to a place


@frozen
class Where(Node):
    condition: "Condition"


@frozen
class Most(Node):
    kind: str  # "most" | "fewest"
    pieces: "Pieces"


@frozen
class WithTerm(Node):
    term: str


@frozen
class Whose(Node):
    """"whose value is at least the value of the card": a field of each thing, compared."""

    field: str
    comparison: Optional["Comparison"] = None
    op: Optional[str] = None
    other: Optional[Phrase] = None


@frozen
class Filtered(Node):
    phrase: Phrase
    filter: Union[Where, Most, WithTerm, Whose]


def hoist_whose(phrase: "Phrase"):
    """(the phrase, the "whose" that ends it) -- a "whose" at the end of a phrase is read with the
    innermost phrase ("a card of your hand whose value ...", "units at Ridge whose power ..."); it
    says what the whole phrase names, so it is taken from the last part of it."""
    if phrase.whose is not None:
        return attrs.evolve(phrase, whose=None), phrase.whose
    parts = [(name, value) for name, value in (("of", phrase.of[-1] if phrase.of else None), ("at", phrase.at),
                                               ("carrying", phrase.carrying))
             if isinstance(value, Phrase) and value.pos is not None]
    if not parts:
        return phrase, None
    name, last = max(parts, key=lambda part: (part[1].pos.end_line, part[1].pos.end_column))
    inner, whose = hoist_whose(last)
    if whose is None:
        return phrase, None
    if name == "of":
        return attrs.evolve(phrase, of=phrase.of[:-1] + (inner,)), whose
    return attrs.evolve(phrase, **{name: inner}), whose


@frozen
class Places(Node):
    """A union of phrases, in order: "Abolitionists, Border States or Newspapers"."""

    items: Tuple[Union[Phrase, Filtered], ...]


# ------------------------------------------------------------- quantities


@frozen
class Pieces(Node):
    """Whose pieces, and what: "of your tokens", "opponent tokens", "Secessionist tokens", "VP"."""

    owner: Optional[str] = None  # "own" | "their" | "opponent" | "either" | a side's name
    noun: Optional[str] = None
    either: bool = False
    adjectives: Tuple[str, ...] = ()  # "2 of your untapped farms"


@frozen
class Quantity(Node):
    """How many: exactly n, up to n, up to a number phrase, all, or one thing named by a phrase."""

    kind: str  # "exactly" | "up_to" | "up_to_number" | "all" | "thing" | "as_many" | "up_to_as_many"
    n: Optional[int] = None
    pieces: Optional[Pieces] = None
    phrase: Optional[Phrase] = None


@frozen
class Number(Node):
    """A number: terms added or subtracted ("the power of your units plus 2")."""

    terms: Tuple[Union[int, Phrase], ...]
    signs: Tuple[int, ...]  # +1 or -1 before each term after the first


@frozen
class Comparison(Node):
    op: str  # "==" | ">=" | "<=" | ">" | "<"
    n: int


# ------------------------------------------------------------- conditions


@frozen
class AnyOf(Node):
    items: Tuple["Condition", ...]


@frozen
class AllOf(Node):
    items: Tuple["Condition", ...]


@frozen
class Not(Node):
    item: "Condition"


@frozen
class EachPlayer(Node):
    """"each player" as the subject of a condition: it holds for every player."""


Subject = Union[Player, Phrase, EachPlayer]


@frozen
class Relates(Node):
    """"you control Fort Sumter"; with ``comparison`` "you control 2 spaces of its dimension";
    with ``more_than`` "you control more spaces than the opponent"."""

    subject: Subject
    verb: str
    target: Phrase
    comparison: Optional[Comparison] = None
    more_than: Optional[Subject] = None


@frozen
class NobodyRelates(Node):
    verb: str
    target: Phrase


@frozen
class HasCount(Node):
    """"you have no tokens in Texas", "your pool has at least 3 tokens", "you have 3 VP"."""

    subject: Subject
    comparison: Comparison
    pieces: Pieces
    where: Optional[Places] = None  # None: none named; Places(()) never: "there" is it_there
    there: bool = False


@frozen
class HasMore(Node):
    """"you have more tokens than the opponent there", "... at least 3 more tokens than ...",
    "each player has more cards in their final crisis order than the final crisis step"."""

    subject: Subject
    pieces: Pieces
    other: Optional[Subject]
    lead: Optional[Comparison] = None  # "at least 3 more": the margin, compared
    where: Optional[Places] = None
    there: bool = False
    than_number: Optional[Phrase] = None


@frozen
class HasFewer(Node):
    subject: Subject
    pieces: Pieces
    other: Subject


@frozen
class IsFirstPlayer(Node):
    subject: Subject


@frozen
class IsState(Node):
    """"X is Y": a side, an attribute, a flag, a role, a term, "for you", in places, off the map..."""

    subject: Subject
    kind: str  # named adjective role for in at in_play there on_map off_map all_in_one a
    negated: bool = False
    word: Optional[str] = None
    player: Optional[Player] = None
    only: bool = False
    where: Optional[Union[Places, "Phrase"]] = None


@frozen
class Compares(Node):
    """"the round is at least 2", "the value of X is at most the value of Y", "X is the same as Y"."""

    subject: Subject
    comparison: Optional[Comparison] = None
    op: Optional[str] = None  # "<=" | ">=" | "==" | ">" | "<" with ``other``
    other: Optional[Phrase] = None


@frozen
class Change(Node):
    """A change of a relation: "you gain control of this dimension"."""

    player: Player
    gain: bool
    verb: str
    target: Phrase


@frozen
class Would(Node):
    """"placing a token there would give you control of it" -- one step, imagined."""

    verb: str  # "place" | "remove"
    pieces: Pieces
    negated: bool
    change: Change


@frozen
class CardWould(Node):
    """"the revealed card would place or remove pieces"."""

    subject: Subject


@frozen
class Played(Node):
    """"the opponent played the card": who made the last play of a card."""

    subject: "Subject"
    card: Phrase


@frozen
class Holds(Node):
    """"the final crisis trigger holds": a named condition of the content."""

    phrase: Phrase


Condition = Union[AnyOf, AllOf, Not, Relates, NobodyRelates, HasCount, HasMore, HasFewer, IsFirstPlayer,
                  IsState, Compares, Would, CardWould, Played, Holds, "CanPay"]


# ------------------------------------------------------------- statements


@frozen
class Limit(Node):
    kind: str  # "per" | "one"
    n: Optional[int] = None
    noun: str = ""


@frozen
class Selection(Node):
    kind: str  # "random" | "opponent"
    pieces_only: bool = False  # "the opponent choosing the tokens": only which ones, not where


@frozen
class Place(Node):
    quantity: Quantity
    source: Optional[Places]
    dest: Places
    limit: Optional[Limit] = None
    selection: Optional[Selection] = None


@frozen
class Remove(Node):
    quantity: Quantity
    source: Optional[Places]  # None: "remove the Peace Commissioner"
    limit: Optional[Limit] = None
    selection: Optional[Selection] = None


@frozen
class Move(Node):
    quantity: Quantity
    source: Optional[Places]
    dest: Places
    within: bool = False
    limit: Optional[Limit] = None
    selection: Optional[Selection] = None


@frozen
class Gain(Node):
    """"gain 1 VP" (``lose``: "lose 1 VP"), maybe "for each dimension you control"."""

    n: int
    pieces: Pieces
    lose: bool = False
    per: Optional[Phrase] = None


@frozen
class Set(Node):
    target: Places
    number: Optional[Number] = None
    first_player: bool = False


@frozen
class Add(Node):
    """"add 1 to the final crisis step"."""

    number: "Number"
    target: Places


@frozen
class Draw(Node):
    n: Optional[int]  # None: "draw cards ... until they have N"
    noun: str
    source: Places
    dest: Places
    until: Optional[int] = None


@frozen
class Shuffle(Node):
    pile: Places
    into: Optional[Places] = None


@frozen
class Put(Node):
    source: Places
    dest: Places


@frozen
class Reveal(Node):
    what: Places


@frozen
class Discard(Node):
    what: Places


@frozen
class Play(Node):
    quantity: Quantity
    source: Places


@frozen
class Keep(Node):
    n: int
    noun: str
    source: Places
    dest: Places
    verb: str = "keep"  # "keep" | "assign": the decision's name
    selection: Optional[Selection] = None  # ", at random": the card is drawn by lot, nobody chooses


@frozen
class Order(Node):
    source: Places
    dest: Places


@frozen
class CarryOut(Node):
    what: Places
    for_: Optional[Places] = None


@frozen
class Score(Node):
    what: Places
    counter: Pieces


@frozen
class Resolve(Node):
    words: Tuple[Word, ...]


@frozen
class Win(Node):
    """"the player with more VP wins, ties broken by the tie-breaks"; "you win"."""

    counter: Optional[Pieces] = None
    ties: Optional[Places] = None


@frozen
class Stop(Node):
    pass


@frozen
class Forget(Node):
    """"forget the last card played"."""


@frozen
class Covering(Node):
    """"until their total cost is at least the damage": cards taken one at a time until a field of
    theirs, added up, covers a number."""

    field: str
    number: "Number"


@frozen
class Call(Node):
    """A verb the game declares, with its phrases: "tap the card", "deploy a card from your hand"."""

    verb: str
    quantity: Optional[Quantity]  # what it acts on: "the card", "2 of your untapped farms"
    parts: Tuple[Tuple[str, Places], ...] = ()  # (preposition, places)
    covering: Optional[Covering] = None  # "until their total cost is at least the damage"
    paying: Optional["Number"] = None  # ", paying its cost": each choice paid for as it is taken


@frozen
class Pay(Node):
    """"pay 2", "pay the cost of the card": the game's way of paying (state.yaml, 'paying')."""

    number: "Number"


@frozen
class Choose(Node):
    """"choose up to 1 location where ... as the battlefield": a register set by a choice."""

    what: Places
    register: Phrase
    up_to: Optional[int] = None  # None: exactly one, if any
    paying: Optional["Number"] = None


@frozen
class CanPay(Node):
    """"you can pay 2"."""

    subject: "Subject"
    number: "Number"


@frozen
class PutIntoPlay(Node):
    """"put a unit from your hand into play at Ridge"."""

    quantity: Quantity
    source: Places
    at: Optional[Places] = None


@frozen
class RemoveFromPlay(Node):
    """"remove the card from play into your discard pile"."""

    quantity: Quantity
    dest: Optional[Places] = None


@frozen
class Acting(Node):
    """A statement carried out by someone else: "the opponent removes ...", "each player places ..."."""

    actor: str  # "opponent" | "each" | "first" | "role"
    statement: "Statement"
    role: Optional[str] = None


@frozen
class Block(Node):
    statements: Tuple["Statement", ...]


@frozen
class If(Node):
    condition: Condition
    then: Block
    otherwise: Optional[Block] = None


@frozen
class Either(Node):
    options: Tuple[Block, ...]


@frozen
class FirstOf(Node):
    """A priority list: the first option that can be carried out (fully, if any can)."""

    options: Tuple[Block, ...]


@frozen
class Goal(Node):
    """"so that you gain control of this dimension:" -- steps taken only in a way that makes it happen."""

    change: Change
    body: Block


@frozen
class ForEachPlayer(Node):
    body: Block
    who: Optional[Tuple[str, Phrase]] = None  # "who controls their objective space": (verb, phrase)


@frozen
class OrderChoice(Node):
    chooser: str  # "you" | "opponent" | a role's noun
    action: Optional[str] = None  # "as a bonus": the word of the choice's actions


@frozen
class ForEach(Node):
    """"for each round:", "for each pivotal space you control, in the order you choose:"."""

    what: Phrase
    body: Block
    order: Optional[OrderChoice] = None


@frozen
class Step(Node):
    name: str
    body: Block


@frozen
class Repeat(Node):
    condition: Condition
    body: Block


@frozen
class Alternate(Node):
    """"players alternate, the leader first, until each has 3 plays:"."""

    first: Phrase
    n: int
    counter: Phrase
    body: Block


Statement = Union[Place, Remove, Move, Gain, Set, Add, Draw, Shuffle, Put, Reveal, Discard, Play, Keep, Order,
                  CarryOut, Score, Resolve, Win, Stop, Forget, Call, PutIntoPlay, RemoveFromPlay, Acting, If, Either,
                  FirstOf, Goal, ForEachPlayer, ForEach, Step, Repeat, Alternate, Pay, Choose]
