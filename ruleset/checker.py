"""Names and types: does every word in a rule refer to something that exists,
of the kind that fits where it is used?

The checker knows the game only through a ``Vocabulary`` (plain names), and
the place a rule sits in through a ``Slot`` (what the rule may refer to).
It never raises on the first problem: it collects every diagnostic.
"""

from __future__ import annotations

from typing import Dict, FrozenSet, List, Mapping, Optional, Tuple

import attrs

from . import ast as A
from .diagnostics import Diagnostic, Source, did_you_mean, diagnostic_at, one_of


@attrs.frozen
class Vocabulary:
    """The names a game defines, as the rules language sees them."""

    sides: Tuple[str, ...]
    spaces: Mapping[str, str]  # space -> its dimension
    dimensions: Mapping[str, Tuple[str, ...]]  # dimension -> its spaces
    pivotal: FrozenSet[str]
    zones: Tuple[str, ...]
    boxes: FrozenSet[str]  # zones that have a bonus box
    markers: Tuple[str, ...]
    tokens_per_side: int = 25
    # the game's constants, to tell counts and conditions that can never be met
    max_per_space: int = 4
    rounds: int = 3
    track_size: int = 16
    box_sizes: Mapping[str, int] = attrs.field(factory=dict)
    # terms the content defines (solo rulebook: Definitions): name -> "card" | "space"
    terms: Mapping[str, str] = attrs.field(factory=dict)


@attrs.frozen
class Slot:
    """Where a rule sits, and so what it may refer to."""

    description: str
    this_dimension: bool = False
    this_space: bool = False
    revealed_objectives: bool = False
    cards: bool = False  # cards in play: the revealed card, the top of the discard pile
    this_card: bool = False  # "the card": a definition about a card


STRATEGY_EVENT = Slot("a strategy card event")
OBJECTIVE_EVENT = Slot("an objective event", this_space=True)
BREACH_EFFECT = Slot("a breach effect")
PROCEDURE = Slot("a procedure of play")


def _name_kinds(vocabulary: Vocabulary) -> Dict[str, List[str]]:
    kinds: Dict[str, List[str]] = {}
    for name in vocabulary.spaces:
        kinds.setdefault(name, []).append("space")
    for name in vocabulary.dimensions:
        kinds.setdefault(name, []).append("dimension")
    for name in vocabulary.zones:
        kinds.setdefault(name, []).append("zone")
    for name in vocabulary.sides:
        kinds.setdefault(name, []).append("side")
    for name in vocabulary.markers:
        kinds.setdefault(name, []).append("marker")
    for name, kind in vocabulary.terms.items():
        kinds.setdefault(name, []).append(f"{kind} term")
    return kinds


class Checker:
    def __init__(self, vocabulary: Vocabulary):
        self.vocabulary = vocabulary
        self._kinds = _name_kinds(vocabulary)

    # ------------------------------------------------------------ entry points
    def check_block(self, block: A.Block, slot: Slot, source: Optional[Source] = None) -> List[Diagnostic]:
        run = _Run(self, slot, source)
        run.block(block)
        return run.diagnostics

    def check_condition(self, condition, slot: Slot, source: Optional[Source] = None,
                        about_a_space: bool = False) -> List[Diagnostic]:
        """``about_a_space``: the condition tests a space ("it"), as a "where" clause does."""
        run = _Run(self, slot, source)
        run.condition(condition, in_where=about_a_space)
        return run.diagnostics

    def check_locations(self, locations: A.Locations, slot: Slot, source: Optional[Source] = None,
                        holders: bool = False) -> List[Diagnostic]:
        """A set of places on its own: map spaces (a table row), or holders (token sources)."""
        run = _Run(self, slot, source)
        for item in locations.items:
            is_holder = isinstance(item, A.HOLDER_TYPES)
            if is_holder and holders:
                run.holder(item, None)
            elif not is_holder and not holders:
                run.spaces(item)
            elif holders:
                run.error(item, "token sources are holders here, not map spaces",
                          expected="your pool, your crisis track, your crisis track above a zone")
            else:
                run.error(item, "a row names map spaces, not a pool, track or box",
                          expected="spaces, such as 'pivotal spaces' or 'spaces you control'")
        return run.diagnostics


class _Run:
    """One pass over one rule."""

    def __init__(self, checker: Checker, slot: Slot, source: Optional[Source]):
        self.vocabulary = checker.vocabulary
        self.kinds = checker._kinds
        self.slot = slot
        self.source = source
        self.diagnostics: List[Diagnostic] = []
        self.chosen = False  # an earlier statement of this effect chooses a space ("that space" refers to it)

    # ---------------------------------------------------------------- report
    def error(self, node: A.Node, message: str, *, expected: Optional[str] = None,
              hint: Optional[str] = None, severity: str = "error") -> None:
        pos = node.pos
        if pos is None:
            self.diagnostics.append(diagnostic_at(self.source, None, None, message,
                                                  expected=expected, hint=hint, severity=severity))
            return
        width = pos.end_column - pos.column if pos.end_line == pos.line else 1
        self.diagnostics.append(diagnostic_at(self.source, pos.line, pos.column, message,
                                              width=width, expected=expected, hint=hint, severity=severity))

    def warning(self, node: A.Node, message: str, **kwargs) -> None:
        self.error(node, message, severity="warning", **kwargs)

    def resolve(self, name: A.Name, wanted: Tuple[str, ...]) -> Optional[str]:
        """The kind of thing a name refers to, if it is one of the wanted kinds."""
        kinds = self.kinds.get(name.text, [])
        for kind in wanted:
            if kind in kinds:
                return kind
        what = " or ".join(wanted)
        choices = self._names_of(wanted)
        if kinds:
            hint = None
            if kinds[0] == "dimension" and "space" in wanted:
                hint = f"to mean every space of the dimension, write '{name.text} spaces'"
            elif kinds[0] == "space" and "dimension" in wanted:
                hint = f"'{name.text}' is in the {self.vocabulary.spaces[name.text]} dimension"
            self.error(name, f"'{name.text}' is a {kinds[0]}, not a {what}",
                       expected=f"a {what}: {one_of(choices)}", hint=hint)
            return None
        guess = did_you_mean(name.text, choices)
        self.error(name, f"unknown {what} '{name.text}'",
                   expected=f"a {what}: {one_of(choices)}",
                   hint=f"did you mean '{guess}'?" if guess else None)
        return None

    def _names_of(self, kinds: Tuple[str, ...]) -> List[str]:
        v = self.vocabulary
        names: List[str] = []
        for kind in kinds:
            names.extend({"space": list(v.spaces), "dimension": list(v.dimensions),
                          "zone": list(v.zones), "side": list(v.sides),
                          "marker": list(v.markers), "box": sorted(v.boxes),
                          "card term": [n for n, k in v.terms.items() if k == "card"],
                          "space term": [n for n, k in v.terms.items() if k == "space"]}[kind])
        return names

    # ------------------------------------------------------------- statements
    def block(self, block: A.Block) -> None:
        for statement in block.statements:
            self.statement(statement)

    def statement(self, node) -> None:
        handler = getattr(self, "stmt_" + type(node).__name__, None)
        if handler is None:  # pragma: no cover - guarded by a test over all node types
            raise TypeError(f"no checker for {type(node).__name__}")
        handler(node)

    def stmt_Place(self, node: A.Place) -> None:
        self.amount(node.amount, node.each)
        self.selection(node)
        self.owner(node.owner)
        if node.source is not None:
            self.holder(node.source, node.owner)
        self.locations(node.dest, map_only=True, verb="placed", owner=node.owner)
        self.limit(node)
        self.capacity(node, "placed in", node.dest)
        self.choose(node.dest)

    def stmt_Remove(self, node: A.Remove) -> None:
        self.amount(node.amount, node.each)
        self.selection(node)
        self.owner(node.owner)
        self.locations(node.source, map_only=True, verb="removed", owner=node.owner)
        self.limit(node)
        self.capacity(node, "removed from", node.source)
        self.choose(node.source)

    def stmt_Move(self, node: A.Move) -> None:
        self.amount(node.amount, node.each)
        self.selection(node)
        self.owner(node.owner)
        self.locations(node.source, map_only=False, verb="moved", owner=node.owner)
        if not node.within:
            self.locations(node.dest, map_only=False, verb="moved", owner=node.owner)
        if node.each and any(isinstance(item, A.HOLDER_TYPES) for item in node.dest.items):
            self.error(node.dest, "'each' spreads tokens over map spaces, not a pool, track or box")
        self.destinations(node.source if node.within else node.dest)
        self.limit(node)
        self.capacity(node, "moved from", node.source)
        if not node.within:
            self.capacity(node, "moved to", node.dest)
        self.choose(node.source)
        self.choose(node.dest)

    def stmt_ChangeVP(self, node: A.ChangeVP) -> None:
        if node.amount < 1:
            self.error(node, "a VP change of 0 does nothing", expected="a number of at least 1")
        per = node.per
        if per is None:
            return
        if isinstance(per, A.HOLDER_TYPES):
            self.error(per, "VP can be counted per space or per dimension, not per pool, track or box")
        elif isinstance(per, A.Spaces):
            self.spaces(per)
        elif isinstance(per, A.Locations):  # pragma: no cover - grammar gives single items
            self.locations(per, map_only=True, verb="counted", owner=None)

    def stmt_PlaceMarker(self, node: A.PlaceMarker) -> None:
        self.resolve(node.marker, ("marker",))
        self.locations(node.dest, map_only=True, verb="placed", owner=None)
        self.choose(node.dest)

    def destinations(self, locations: A.Locations) -> None:
        """Tokens go to map spaces, a pool or a whole crisis track; a bonus box and the part of a
        track above a zone only ever give tokens up (docs/rulings.md, R23), so play could never
        move a token there."""
        for item in locations.items:
            if isinstance(item, A.BonusBox):
                what = f"the {item.zone.text} box"
                hint = "bonus tokens go from their box to the pool when the zone is breached; nothing puts them back"
            elif isinstance(item, A.CrisisTrack) and item.above is not None:
                what = f"a crisis track above the {item.above.text} zone"
                hint = "to put tokens back on a track, write 'your crisis track': they fill its lowest empty spaces"
            else:
                continue
            self.error(item, f"{what} is never a destination: tokens only ever leave it",
                       expected="a destination: map spaces, a pool or a crisis track", hint=hint)

    def choose(self, locations: A.Locations) -> None:
        """After this statement, "that space" names the space it chose."""
        if any(isinstance(item, A.Spaces) for item in locations.items):
            self.chosen = True

    def stmt_RemoveMarker(self, node: A.RemoveMarker) -> None:
        self.resolve(node.marker, ("marker",))

    def stmt_If(self, node: A.If) -> None:
        self.condition(node.condition, in_where=False)
        self.block(node.then)
        if node.otherwise is not None:
            self.block(node.otherwise)

    def stmt_Either(self, node: A.Either) -> None:
        for option in node.options:
            self.block(option)

    def stmt_ForEachPlayer(self, node: A.ForEachPlayer) -> None:
        self.block(node.body)

    def stmt_Acting(self, node: A.Acting) -> None:
        self.statement(node.statement)

    def stmt_FirstOf(self, node: A.FirstOf) -> None:
        for option in node.options:
            self.block(option)

    def stmt_Goal(self, node: A.Goal) -> None:
        self.change(node.change, in_where=False)
        for statement in node.body.statements:
            token_step = isinstance(statement, (A.Place, A.Remove, A.Move))
            if not token_step or statement.amount.kind == "all" or statement.each or statement.random:
                self.error(statement, "a 'so that' block holds only token statements with a number of tokens",
                           expected="place, remove or move N (or up to N) tokens, without 'each', 'all' "
                                    "or 'at random'",
                           hint="the engine looks for a way to carry the block out that makes the change happen")
                continue
            self.statement(statement)

    def stmt_Reveal(self, node: A.Reveal) -> None:
        self.cards_in_play(node)

    def stmt_UseEvent(self, node: A.UseEvent) -> None:
        self.card_ref(node.card)

    def stmt_DiscardCard(self, node: A.DiscardCard) -> None:
        self.card_ref(node.card)

    def stmt_ResolveBreaches(self, node: A.ResolveBreaches) -> None:
        self.cards_in_play(node)

    def cards_in_play(self, node) -> None:
        if not self.slot.cards:
            self.error(node, f"no card is being played by the rule in {self.slot.description}",
                       hint="this is only known in the solo opponent's turn")

    def card_ref(self, card: A.CardRef) -> None:
        if card.kind == "this":
            if not self.slot.this_card:
                self.error(card, f"'the card' means nothing in {self.slot.description}",
                           hint="it is only known in a definition about a card, such as Friendly")
        else:
            self.cards_in_play(card)

    def selection(self, node) -> None:
        if (node.random or node.chooser) and node.each:
            self.error(node, "with 'each' the spaces are fixed: there is nothing to choose at random or for "
                             "the opponent to choose")

    # --------------------------------------------------------------- pieces
    def amount(self, amount: A.Amount, each: bool) -> None:
        if amount.card is not None:
            self.card_ref(amount.card)
            if each:
                self.error(amount, "'each' needs an exact count per space",
                           expected="a number, as in 'place 1 in each Secession space'")
            return
        if amount.kind == "all":
            if each:
                self.error(amount, "'all' cannot be spread over 'each' space",
                           expected="a number, as in 'place 1 in each Secession space'")
            return
        limit = self.vocabulary.tokens_per_side
        if amount.n is None or amount.n < 1:
            self.error(amount, "a count of 0 does nothing", expected="a number of at least 1")
        elif amount.n > limit:
            self.error(amount, f"no side has {amount.n} tokens",
                       expected=f"a number from 1 to {limit}")
        if each and amount.kind != "exactly":
            self.error(amount, "'each' needs an exact count per space",
                       expected="a number, as in 'place 1 in each Secession space'")

    # ------------------------------------------------------ impossible counts
    def space_count(self, spaces: A.Spaces) -> Optional[int]:
        """At most how many spaces a place names (None if unknown or not map spaces)."""
        v = self.vocabulary
        base = spaces.base
        if isinstance(base, A.Named):
            return 1 if base.name.text in v.spaces else None
        if isinstance(base, A.DimensionSpaces):
            return len(v.dimensions[base.dimension.text]) if base.dimension.text in v.dimensions else None
        if isinstance(base, A.PivotalSpaces):
            return len(v.pivotal)
        if isinstance(base, A.AllSpaces):
            return len(v.spaces)
        if isinstance(base, A.ThisDimension):
            return max(len(s) for s in v.dimensions.values())
        if isinstance(base, A.RevealedObjectiveSpaces):
            return len(v.sides)  # one objective revealed per side
        return 1  # this space, it

    def capacity(self, node, verb: str, locations: A.Locations) -> None:
        """'place 22 in Washington': a count that the per-space limit makes impossible."""
        amount = node.amount
        if amount.kind == "all" or amount.n is None or not 1 <= amount.n <= self.vocabulary.tokens_per_side:
            return  # reported by amount()
        counts = []
        for item in locations.items:
            if isinstance(item, A.HOLDER_TYPES):
                return  # a pool has no such limit
            n = self.space_count(item)
            if n is None:
                return
            counts.append(n)
        v = self.vocabulary
        sides = len(v.sides) if node.owner.kind == "either" else 1
        per_space = v.max_per_space * sides
        why = f"a side has at most {v.max_per_space} tokens in a space"
        if node.limit is not None and node.limit < per_space:
            per_space, why = node.limit, f"at most {node.limit} per space"
        if node.each:
            most, where = per_space, "each space"
        elif node.one_space:
            most, where = per_space, "one space"
        else:
            spaces = sum(counts)
            most = per_space * spaces
            where = f"{spaces} {'space' if spaces == 1 else 'spaces'}"
        if amount.n <= most:
            return
        if amount.kind == "exactly":
            self.error(amount, f"{amount.n} tokens can never be {verb} here: {why}, so at most {most} in {where}",
                       expected=f"a count from 1 to {most}, or 'up to {amount.n}' if fewer may do")
        else:
            self.warning(amount, f"'up to {amount.n}' can never reach {amount.n} here: {why}, so at most "
                                 f"{most} in {where}", hint=f"write 'up to {most}'")

    def owner(self, owner: A.Owner) -> None:
        if owner.kind == "side" and owner.side is not None:
            self.resolve(owner.side, ("side",))

    def limit(self, node) -> None:
        if node.limit is not None and node.limit < 1:
            self.error(node, "a limit of 0 per space allows nothing", expected="at least 1 per space")
        if node.one_space and (node.each or node.limit is not None):
            self.error(node, "'all in one space' cannot be combined with 'each' or a per-space limit")

    def holder(self, holder, owner: Optional[A.Owner]) -> None:
        if isinstance(holder, A.CrisisTrack) and holder.above is not None:
            self.resolve(holder.above, ("zone",))
        if isinstance(holder, A.BonusBox):
            kind = self.resolve(holder.zone, ("zone",))
            if kind and holder.zone.text not in self.vocabulary.boxes:
                boxes = sorted(self.vocabulary.boxes)
                self.error(holder.zone, f"the {holder.zone.text} zone has no bonus box",
                           expected=f"a zone with a box: {one_of(boxes)}")
        possessive = holder.possessive
        if owner is None or possessive in (None, "their"):
            return
        if owner.kind == "either":
            self.error(holder, "tokens of either side are kept in their own owner's holders",
                       hint="write 'their pool' (or leave out the owner)")
        elif owner.kind in ("own", "opponent") and possessive != owner.kind:
            whose = "your" if owner.kind == "own" else "the opponent's"
            self.error(holder, f"{whose} tokens can only be in {whose} holders",
                       hint="a pool, track or box always belongs to the owner of the tokens in it")

    def locations(self, locations: A.Locations, *, map_only: bool, verb: str,
                  owner: Optional[A.Owner]) -> None:
        for item in locations.items:
            if isinstance(item, A.HOLDER_TYPES):
                if map_only:
                    self.error(item, f"tokens are {verb} on map spaces here, not in a pool, track or box",
                               hint="to take tokens from or to a pool, track or box, use 'move'")
                else:
                    self.holder(item, owner)
            else:
                self.spaces(item)

    def spaces(self, spaces: A.Spaces, in_where: bool = False) -> None:
        base = spaces.base
        if (isinstance(base, A.AllSpaces) and spaces.filter is None and spaces.pos is not None
                and base.pos is not None and (spaces.pos.line, spaces.pos.column) == (base.pos.line, base.pos.column)):
            # "place 2 in spaces": a dimension name or "pivotal" was probably lost
            qualified = [f"{d} spaces" for d in self.vocabulary.dimensions] + ["pivotal spaces"]
            self.warning(spaces, "a bare 'spaces' means every space on the map",
                         expected=f"'any spaces' if every space is meant, or one of: {one_of(qualified)}",
                         hint="did you mean 'any spaces'?")
        if isinstance(base, A.Named):
            self.resolve(base.name, ("space",))
        elif isinstance(base, A.DimensionSpaces):
            self.resolve(base.dimension, ("dimension",))
        elif isinstance(base, A.ObjectiveSpace):
            self.objective_space(base)
        else:
            self.context(base, in_where)
        filt = spaces.filter
        if isinstance(filt, A.Where):
            self.condition(filt.condition, in_where=True)
        elif isinstance(filt, A.Most):
            self.owner(filt.owner)
            if filt.owner.kind == "either":
                self.error(filt, "count the tokens of one side", hint="write 'opponent tokens' or 'of your tokens'")
        elif isinstance(filt, A.WithTerm):
            self.resolve(filt.term, ("space term",))

    def objective_space(self, node: A.ObjectiveSpace) -> None:
        if node.possessive == "opponent":
            self.error(node, "the opponent's objective card is hidden: no rule may look at it",
                       hint="rules may name 'your objective space' (the objective the acting player holds)")

    def context(self, node, in_where: bool) -> None:
        """Words that refer to what the rule is running for."""
        slot = self.slot
        if isinstance(node, A.ThisDimension) and not slot.this_dimension:
            self.error(node, f"'this dimension' means nothing in {slot.description}",
                       hint="it is only known in the pivotal bonus and the Final Crisis procedures")
        elif isinstance(node, A.ThisSpace) and not slot.this_space:
            self.error(node, f"'this space' means nothing in {slot.description}",
                       hint="it is only known in objective events and the pivotal bonus")
        elif isinstance(node, A.It) and not in_where:
            self.error(node, "'it' and 'there' refer to the space tested in a 'where' clause",
                       hint="name the space instead")
        elif isinstance(node, A.ThatSpace) and not self.chosen:
            self.error(node, "'that space' is the space chosen by an earlier statement of the same effect, "
                             "and no statement before this one chooses a space",
                       hint="name the space, or place, remove or move tokens (or a marker) first")
        elif isinstance(node, A.RevealedObjectiveSpaces) and not slot.revealed_objectives:
            self.error(node, f"no objectives are revealed during {slot.description}",
                       hint="revealed objective spaces are known only in objective scoring")

    # ------------------------------------------------------------ conditions
    def condition(self, node, in_where: bool) -> None:
        handler = getattr(self, "cond_" + type(node).__name__, None)
        if handler is None:  # pragma: no cover - guarded by a test over all node types
            raise TypeError(f"no checker for {type(node).__name__}")
        handler(node, in_where)

    def cond_AnyOf(self, node: A.AnyOf, in_where: bool) -> None:
        for item in node.items:
            self.condition(item, in_where)

    cond_AllOf = cond_AnyOf

    def cond_Not(self, node: A.Not, in_where: bool) -> None:
        self.condition(node.item, in_where)

    def player(self, player: A.Player) -> None:
        if player.kind == "side" and player.side is not None:
            self.resolve(player.side, ("side",))

    def target(self, target, in_where: bool, kinds=("space", "dimension")) -> None:
        if isinstance(target, A.Named):
            self.resolve(target.name, kinds)
        elif isinstance(target, A.ObjectiveSpace):
            if "space" not in kinds:
                self.error(target, "a space is not a dimension", expected="a dimension")
            self.objective_space(target)
        elif isinstance(target, A.ItsDimension):
            if "dimension" not in kinds:
                self.error(target, "a dimension is not a space", expected="a space")
            if not in_where:
                self.error(target, "'its dimension' is the dimension of the space tested in a 'where' clause",
                           hint="name the dimension instead")
        elif isinstance(target, A.ASpaceOf):
            self.error(target, "'a space of' is only said of a change of control",
                       hint="as in 'so that you gain control of a space of this dimension'")
        else:
            if isinstance(target, A.ThisDimension) and "dimension" not in kinds:
                self.error(target, "a dimension is not a space", expected="a space")
            self.context(target, in_where)

    def cond_Controls(self, node: A.Controls, in_where: bool) -> None:
        self.player(node.player)
        self.target(node.target, in_where)

    def cond_NobodyControls(self, node: A.NobodyControls, in_where: bool) -> None:
        self.target(node.target, in_where)

    def where(self, where, in_where: bool) -> None:
        if isinstance(where, A.It):
            self.context(where, in_where)
        elif isinstance(where, A.HOLDER_TYPES):
            self.holder(where, None)
        else:
            self.spaces(where, in_where)

    def cond_HasTokens(self, node: A.HasTokens, in_where: bool) -> None:
        self.player(node.player)
        self.comparison(node.comparison)
        self.where(node.where, in_where)
        most, what = self.holds_at_most(node.where)
        if most is not None:
            self.possible(node, node.comparison, 0, most, f"a player has 0 to {most} tokens in {what}")

    def holds_at_most(self, where) -> Tuple[Optional[int], str]:
        """At most how many tokens of one side a place holds, and the place in words."""
        v = self.vocabulary
        if isinstance(where, A.Pool):
            return v.tokens_per_side, "a pool"
        if isinstance(where, A.CrisisTrack):
            return v.track_size, "a crisis track"
        if isinstance(where, A.BonusBox):
            size = v.box_sizes.get(where.zone.text)
            return size, f"the {where.zone.text} box"
        if isinstance(where, A.It):
            return v.max_per_space, "a space"
        n = self.space_count(where) if isinstance(where, A.Spaces) else None
        if n is None:
            return None, ""
        return min(n * v.max_per_space, v.tokens_per_side), ("a space" if n == 1 else f"{n} spaces")

    def possible(self, node, comparison: A.Comparison, low: int, high: int, why: str) -> None:
        """A comparison that no value from ``low`` to ``high`` meets is an error; one that all meet, a warning."""
        test = {"==": lambda x: x == comparison.n, ">=": lambda x: x >= comparison.n,
                "<=": lambda x: x <= comparison.n, ">": lambda x: x > comparison.n,
                "<": lambda x: x < comparison.n}[comparison.op]
        values = [test(x) for x in range(low, high + 1)]
        if not any(values):
            self.error(node, f"this condition can never hold: {why}")
        elif all(values):
            self.warning(node, f"this condition always holds: {why}", hint="leave the condition out")

    def cond_HasMoreTokens(self, node: A.HasMoreTokens, in_where: bool) -> None:
        self.player(node.player)
        self.player(node.other)
        self.where(node.where, in_where)

    def cond_HasVP(self, node: A.HasVP, in_where: bool) -> None:
        self.player(node.player)
        self.comparison(node.comparison)
        if node.comparison.op == "<" and node.comparison.n <= 0:
            self.error(node, "this condition can never hold: VP are never below 0")

    def cond_HasMoreVP(self, node: A.HasMoreVP, in_where: bool) -> None:
        self.player(node.player)
        self.player(node.other)

    def cond_IsFirstPlayer(self, node: A.IsFirstPlayer, in_where: bool) -> None:
        self.player(node.player)

    def cond_IsSide(self, node: A.IsSide, in_where: bool) -> None:
        self.player(node.player)
        self.resolve(node.side, ("side",))

    def cond_RoundIs(self, node: A.RoundIs, in_where: bool) -> None:
        self.comparison(node.comparison)
        rounds = self.vocabulary.rounds
        self.possible(node, node.comparison, 1, rounds, f"the game has {rounds} rounds, 1 to {rounds}")

    def cond_ZoneBreached(self, node: A.ZoneBreached, in_where: bool) -> None:
        self.resolve(node.zone, ("zone",))

    def cond_PoolHas(self, node: A.PoolHas, in_where: bool) -> None:
        self.comparison(node.comparison)
        most = self.vocabulary.tokens_per_side
        self.possible(node, node.comparison, 0, most, f"a pool holds 0 to {most} tokens")

    def cond_PoolLead(self, node: A.PoolLead, in_where: bool) -> None:
        if node.possessive == node.other or {node.possessive, node.other} == {"own", "their"}:
            self.error(node, "a pool cannot lead itself", hint="compare with the opponent's pool")
        elif node.margin > self.vocabulary.tokens_per_side:
            self.error(node, f"this condition can never hold: a pool holds at most "
                             f"{self.vocabulary.tokens_per_side} tokens")

    def cond_IsPivotal(self, node: A.IsPivotal, in_where: bool) -> None:
        self.target(node.target, in_where, kinds=("space",))

    def cond_ControlsCount(self, node: A.ControlsCount, in_where: bool) -> None:
        self.player(node.player)
        self.comparison(node.comparison)
        spaces = len(self.vocabulary.spaces)
        self.possible(node, node.comparison, 0, spaces, f"there are {spaces} spaces")
        if node.scope is not None:
            self.target(node.scope, in_where, kinds=("dimension",))

    def change(self, change: A.Change, in_where: bool) -> None:
        self.player(change.player)
        target = change.target
        if isinstance(target, A.ASpaceOf):
            self.target(target.dimension, in_where, kinds=("dimension",))
        else:
            self.target(target, in_where)

    def cond_Would(self, node: A.Would, in_where: bool) -> None:
        self.owner(node.owner)
        if node.owner.kind == "either":
            self.error(node.owner, "imagine one side's token", hint="write 'a token' or 'an opponent token'")
        if not in_where:
            self.error(node, "'there' refers to the space tested in a 'where' clause",
                       hint="write it inside 'spaces where ...'")
        self.change(node.change, in_where)

    def cond_IsSoloOpponent(self, node: A.IsSoloOpponent, in_where: bool) -> None:
        self.player(node.player)

    def cond_CardIs(self, node: A.CardIs, in_where: bool) -> None:
        self.card_ref(node.card)
        self.resolve(node.term, ("card term",))

    def cond_CardFor(self, node: A.CardFor, in_where: bool) -> None:
        self.card_ref(node.card)
        self.player(node.player)

    def cond_CardValue(self, node: A.CardValue, in_where: bool) -> None:
        self.card_ref(node.card)
        if node.other is not None:
            self.card_ref(node.other)
        if node.comparison is not None:
            self.comparison(node.comparison)

    def cond_CardWould(self, node: A.CardWould, in_where: bool) -> None:
        self.card_ref(node.card)

    def cond_ControlsMore(self, node: A.ControlsMore, in_where: bool) -> None:
        self.player(node.player)
        self.player(node.other)

    def cond_HasFewerVP(self, node: A.HasFewerVP, in_where: bool) -> None:
        self.player(node.player)
        self.player(node.other)

    def cond_MarkerAt(self, node: A.MarkerAt, in_where: bool) -> None:
        self.resolve(node.marker, ("marker",))
        places = node.where.items if isinstance(node.where, A.Locations) else [node.where]
        for where in places:
            if isinstance(where, A.HOLDER_TYPES):
                self.error(where, "a marker is only ever on a map space, never in a pool, track or box")
            elif where is not None:
                self.spaces(where, in_where)

    def comparison(self, comparison: A.Comparison) -> None:
        if comparison.n < 0:  # pragma: no cover - the grammar has no negative numbers
            self.error(comparison, "counts are never negative")
