"""How much work one run of a rule can take, read from its text (docs/limits.md).

``work.py`` bounds what a rule can *ask*; this module bounds what carrying it
out can *cost* the engine, asked or not, since that is what hangs a game:
thirty nested ``for each player`` around ``gain 1 VP`` ask nothing and run
2^30 times.  The unit is a step of work: a statement carried out, a look-ahead
at an option (a copy of the position played on), a position visited by a
goal's search.  Each construct's cost follows from how the interpreter runs it:

- ``for each player`` runs its body once per side;
- ``either`` lets the Solo Opponent (and the look-ahead) try every option on a
  copy before one is carried out; ``first of`` tries its options the same way,
  in order, until one can be carried out fully;
- ``so that`` searches the ways of taking its token steps: at most
  (ways of one step + 1) to the power of the steps, once before the first step
  and again before each step;
- ``carry out the event of ...`` costs the heaviest card event; ``resolve
  breached zones`` every breach effect of both sides; ``... would place or
  remove pieces`` tries the event on a copy; a defined term costs its
  definition each time it is tested.

Every bound is an upper one.  The interpreter counts the same steps as it runs
(``interpreter/compile.py``, ``Executor.charge``), so a rule that somehow went
past its bound stops with an error naming it instead of running without end.
"""

from __future__ import annotations

from typing import Mapping, Optional

from . import ast as A
from .checker import Vocabulary

SIDES = 2  # "for each player" runs once per side
# Steps are roughly alike in time (a microsecond or a few) but for a look-ahead's copy of the
# position, which costs about as much as fifty statements (measured on the shipped game)
LOOK = 50  # trying an option on a copy of the position, before its own work


class Cost:
    """The work bounds of rules for one game's vocabulary (and what rules they may carry out)."""

    def __init__(self, vocabulary: Vocabulary, card_value: int = 0, card_event: Optional["Bound"] = None,
                 breaches: int = 0, terms: Optional[Mapping[str, object]] = None, heaviest_card: str = ""):
        v = vocabulary
        self.tokens = v.tokens_per_side
        self.spaces = max(len(v.spaces), 1)
        self.biggest_dimension = max((len(s) for s in v.dimensions.values()), default=1)
        self.pivotal = len(v.pivotal)
        self.dimensions = {name: len(spaces) for name, spaces in v.dimensions.items()}
        self.card_value = card_value  # the highest card value, for "up to the value of the revealed card"
        self.card_event = card_event or Bound(0, 0)  # the heaviest card event: run, and asked whether it can act
        self.heaviest_card = heaviest_card  # whose event that is, to name it in a message
        self.breaches = breaches  # every breach effect a "resolve breached zones" may carry out
        self.terms = dict(terms or {})  # defined term -> its condition (never in a circle: content/solo.py)
        self._term_costs = {}

    # ------------------------------------------------------------ blocks
    def block(self, block: A.Block) -> int:
        """The work of one run of a block."""
        return sum(self.run(s) for s in block.statements)

    def run(self, node) -> int:
        return getattr(self, "run_" + type(node).__name__)(node)

    def can(self, node) -> int:
        """The work of asking whether a statement (or block) can be carried out now."""
        if isinstance(node, A.Block):
            return sum(self.can(s) for s in node.statements)
        return getattr(self, "can_" + type(node).__name__)(node)

    # --------------------------------------------------------- token steps
    def steps(self, node) -> int:
        """Token steps one run of a place, remove or move takes at most."""
        amount = node.amount
        if amount.kind == "all":
            return SIDES * self.tokens
        n = self.card_value if amount.card is not None else (amount.n or 0)
        return n * (self.spaces if node.each else 1)

    def places(self, locations: Optional[A.Locations]) -> int:
        """At most how many places (spaces and holders) a union names."""
        if locations is None:
            return 1  # the standard supply
        return sum(1 if isinstance(item, A.HOLDER_TYPES) else self.space_count(item) for item in locations.items)

    def space_count(self, spaces: A.Spaces) -> int:
        base = spaces.base
        if isinstance(base, A.DimensionSpaces):
            return self.dimensions.get(base.dimension.text, self.spaces)
        if isinstance(base, A.PivotalSpaces):
            return max(self.pivotal, 1)
        if isinstance(base, (A.AllSpaces, A.RevealedObjectiveSpaces)):
            return self.spaces
        if isinstance(base, A.ThisDimension):
            return self.biggest_dimension
        return 1  # a named space, this space, that space, it

    def filters(self, *unions) -> int:
        """The work of working out which spaces of these unions a step may use."""
        total = 0
        for locations in unions:
            for item in (locations.items if locations is not None else ()):
                if isinstance(item, A.Spaces) and item.filter is not None:
                    total += self.space_count(item) * self.condition(item.filter)
        return total

    def ways(self, node) -> int:
        """At most how many different steps a token statement offers at once."""
        owners = SIDES if node.owner.kind == "either" else 1
        if isinstance(node, A.Place):
            sources = 1
            dests = self.places(node.dest)
        elif isinstance(node, A.Remove):
            sources, dests = self.places(node.source), 1
        elif node.within:  # from one of the places to another
            sources = self.places(node.source)
            dests = sources - 1
        else:
            sources, dests = self.places(node.source), self.places(node.dest)
        return owners * sources * dests

    def _transfer(self, node, *unions) -> int:
        return 1 + self.steps(node) * (1 + self.filters(*unions))

    def run_Place(self, node: A.Place) -> int:
        return self._transfer(node, node.dest)

    def run_Remove(self, node: A.Remove) -> int:
        return self._transfer(node, node.source)

    def run_Move(self, node: A.Move) -> int:
        return self._transfer(node, node.source, node.dest)

    def can_Place(self, node: A.Place) -> int:
        return 1 + self.filters(node.dest)

    def can_Remove(self, node: A.Remove) -> int:
        return 1 + self.filters(node.source)

    def can_Move(self, node: A.Move) -> int:
        return 1 + self.filters(node.source, node.dest)

    # ------------------------------------------------------- other effects
    def run_ChangeVP(self, node: A.ChangeVP) -> int:
        return 1 + (self.filters(A.Locations(items=(node.per,))) if isinstance(node.per, A.Spaces) else 0)

    can_ChangeVP = run_ChangeVP

    def run_PlaceMarker(self, node: A.PlaceMarker) -> int:
        return 1 + self.filters(node.dest)

    can_PlaceMarker = run_PlaceMarker

    def run_RemoveMarker(self, node: A.RemoveMarker) -> int:
        return 1

    can_RemoveMarker = run_Reveal = can_Reveal = run_DiscardCard = can_DiscardCard = run_RemoveMarker

    def run_If(self, node: A.If) -> int:
        otherwise = self.block(node.otherwise) if node.otherwise else 0
        return 1 + self.condition(node.condition) + max(self.block(node.then), otherwise)

    def can_If(self, node: A.If) -> int:
        otherwise = self.can(node.otherwise) if node.otherwise else 0
        return 1 + self.condition(node.condition) + max(self.can(node.then), otherwise)

    def run_Either(self, node: A.Either) -> int:
        # which options can act; each tried on a copy (the Solo Opponent's criteria); one carried out
        runs = [self.block(option) for option in node.options]
        return 1 + sum(self.can(option) + LOOK + run for option, run in zip(node.options, runs)) + max(runs)

    def can_Either(self, node: A.Either) -> int:
        return sum(self.can(option) for option in node.options)

    def run_ForEachPlayer(self, node: A.ForEachPlayer) -> int:
        return 1 + SIDES * self.block(node.body)

    def can_ForEachPlayer(self, node: A.ForEachPlayer) -> int:
        return SIDES * self.can(node.body)

    def run_Acting(self, node: A.Acting) -> int:
        sides = SIDES if node.actor == "each_player" else 1
        return 1 + sides * self.run(node.statement)

    def can_Acting(self, node: A.Acting) -> int:
        return (SIDES if node.actor == "each_player" else 1) * self.can(node.statement)

    def run_FirstOf(self, node: A.FirstOf) -> int:
        tried, runs = 0, []
        for option in node.options:
            run = self.block(option)
            runs.append(run)
            goal = option.statements[0] if len(option.statements) == 1 else None
            # a goal's own search says how far it goes; any other line is tried on a copy
            tried += self.search(goal) if isinstance(goal, A.Goal) else self.can(option) + LOOK + run
        return 1 + tried + max(runs)

    def can_FirstOf(self, node: A.FirstOf) -> int:
        return sum(self.can(option) for option in node.options)

    def search(self, node: A.Goal) -> int:
        """Positions a goal's search visits at most: every way of taking its steps, or of stopping."""
        leaves, depth = 1, 1
        for statement in node.body.statements:
            steps = self.steps(statement)
            leaves *= (self.ways(statement) + 1) ** steps
            depth += steps
        return depth * leaves

    def run_Goal(self, node: A.Goal) -> int:
        steps = sum(self.steps(s) for s in node.body.statements)
        return 1 + (steps + 1) * self.search(node)  # a search before the first step and before each

    def can_Goal(self, node: A.Goal) -> int:
        return self.search(node)

    def run_UseEvent(self, node: A.UseEvent) -> int:
        return 1 + self.card_event.run

    def can_UseEvent(self, node: A.UseEvent) -> int:
        return 1 + self.card_event.can

    def run_ResolveBreaches(self, node: A.ResolveBreaches) -> int:
        return 1 + self.breaches

    def can_ResolveBreaches(self, node: A.ResolveBreaches) -> int:
        return 1

    # ---------------------------------------------------------- conditions
    def condition(self, node) -> int:
        """The work of testing a condition (or a space filter) once."""
        if isinstance(node, A.CardWould):  # the event asked, then tried on a copy
            return 1 + self.card_event.can + LOOK + self.card_event.run
        if isinstance(node, (A.CardIs, A.WithTerm)):
            return 1 + self.term(node.term.text)
        if isinstance(node, A.Spaces):  # a filter is tested on each space
            return self.space_count(node) * self.condition(node.filter) if node.filter is not None else 0
        own = 1 if isinstance(node, A.CONDITION_TYPES) else 0  # names, players, counts: part of their test
        return own + sum(self.condition(child) for child in node.children())

    def term(self, name: str) -> int:
        cost = self._term_costs.get(name)
        if cost is None:
            tree = self.terms.get(name)
            cost = self._term_costs[name] = self.condition(tree) if tree is not None else 1
        return cost


class Bound:
    """The work of a rule: one run of it, and asking whether it can be carried out."""

    __slots__ = ("run", "can")

    def __init__(self, run: int, can: int):
        self.run, self.can = run, can

    @classmethod
    def of(cls, cost: Cost, block: Optional[A.Block]) -> "Bound":
        return cls(0, 0) if block is None else cls(cost.block(block), cost.can(block))

    @classmethod
    def heaviest(cls, bounds) -> "Bound":
        bounds = list(bounds)
        return cls(max((b.run for b in bounds), default=0), max((b.can for b in bounds), default=0))


def breach_work(cost: Cost, breach_effects) -> int:
    """What "resolve breached zones" can carry out: each zone's heavier effect, for each side."""
    return SIDES * sum(max(cost.block(r.tree) for r in pair if r is not None)
                       for pair in breach_effects if any(r is not None for r in pair))


def solo_cost(vocabulary: Vocabulary, strategy_cards, breach_effects, terms) -> Cost:
    """The bounds of the solo opponent's rules: they carry out card events and breach effects,
    and test defined terms (``terms``: name -> condition)."""
    base = Cost(vocabulary)
    events = {card.id: Bound.of(base, card.event.tree) for card in strategy_cards if card.event}
    heaviest = max(events, key=lambda card: events[card].run, default="")
    return Cost(vocabulary, card_value=max((card.value for card in strategy_cards), default=0),
                card_event=Bound.heaviest(events.values()), breaches=breach_work(base, breach_effects), terms=terms,
                heaviest_card=heaviest)


def content_costs(content) -> dict:
    """The work bound of every rule a content carries out, by a label for it (docs/limits.md)."""
    cost = Cost(content.vocabulary)
    procedures = content.procedures
    found = {f"event of {card.id}": cost.block(card.event.tree)
             for card in content.strategy_cards + content.objective_cards if card.event}
    for name in ("pivotal_bonus", "dimension_scoring", "objective_scoring", "final_crisis_start",
                 "final_crisis_matching", "final_crisis_not_matching"):
        rule = getattr(procedures, name)
        if rule is not None:
            found[name] = cost.block(rule.tree)
    for zone, pair in procedures.breach_effects.items():
        for which, rule in zip(("first", "second"), pair):
            if rule is not None:
                found[f"breach of {zone} ({which})"] = cost.block(rule.tree)
    found.update({f"final scoring: {label}": cost.block(rule.tree) for label, rule in procedures.final_scoring})
    solo = content.solo
    if solo is not None:
        terms = {name: rule.tree for name, (_, rule) in solo.terms.items()}
        opponent = solo_cost(content.vocabulary, content.strategy_cards, procedures.breach_effects.values(), terms)
        found.update({f"solo: {name}": opponent.block(rule.tree) for name, rule in solo.opponent.items()})
        found.update({f"solo: {name}": opponent.block(rule.tree) for name, rule in solo.rules.items()
                      if isinstance(getattr(rule, "tree", None), A.Block)})
    return found
