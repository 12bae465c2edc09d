"""How many decisions one run of a rule can ask for, read from its text.

A rule is data from a shared content folder, so ``crisis check`` must not
accept one that would keep a game busy without end: nested ``for each
player`` doubles the work at each level, ``each`` multiplies it by the
spaces.  The loader compares this bound with ``limits.MAX_EFFECT_DECISIONS``
(docs/limits.md); conditions never ask anything, so only statements count.

The bound is an upper one: every token step is counted as a decision, and
"all" as every token of both sides.
"""

from __future__ import annotations

from . import ast as A
from .checker import Vocabulary

SIDES = 2  # "for each player" and "each player" run once per side


class Work:
    def __init__(self, vocabulary: Vocabulary, card_event: int = 0, breaches: int = 0):
        self.tokens = vocabulary.tokens_per_side
        self.spaces = max(len(vocabulary.spaces), 1)
        # rules that carry out other rules: the most a card's event, or the breach effects, can ask
        self.card_event = card_event
        self.breaches = breaches

    def block(self, block: A.Block) -> int:
        return sum(self.statement(s) for s in block.statements)

    def statement(self, node) -> int:
        handler = getattr(self, "st_" + type(node).__name__, None)
        if handler is None:  # pragma: no cover - guarded by a test over all statement types
            raise TypeError(f"no work bound for {type(node).__name__}")
        return handler(node)

    # ------------------------------------------------------------ statements
    def _steps(self, node) -> int:
        """Token steps: each asks a decision (or "done" for "up to")."""
        n = SIDES * self.tokens if node.amount.kind == "all" else (node.amount.n or 0)
        return n * (self.spaces if node.each else 1)

    def st_Place(self, node: A.Place) -> int:
        return self._steps(node)

    def st_Remove(self, node: A.Remove) -> int:
        return self._steps(node)

    def st_Move(self, node: A.Move) -> int:
        return self._steps(node)

    def st_ChangeVP(self, node: A.ChangeVP) -> int:
        return 0

    def st_PlaceMarker(self, node: A.PlaceMarker) -> int:
        return 1

    def st_RemoveMarker(self, node: A.RemoveMarker) -> int:
        return 1

    def st_If(self, node: A.If) -> int:
        return max(self.block(node.then), self.block(node.otherwise) if node.otherwise else 0)

    def st_Either(self, node: A.Either) -> int:
        return 1 + max(self.block(option) for option in node.options)

    def st_ForEachPlayer(self, node: A.ForEachPlayer) -> int:
        return SIDES * self.block(node.body)

    def st_Acting(self, node: A.Acting) -> int:
        return (SIDES if node.actor == "each_player" else 1) * self.statement(node.statement)

    def st_FirstOf(self, node: A.FirstOf) -> int:
        # the lines are tried on a copy, which asks nothing; one of them is carried out
        return max(self.block(option) for option in node.options)

    def st_Goal(self, node: A.Goal) -> int:
        return self.block(node.body)

    def st_Reveal(self, node: A.Reveal) -> int:
        return 0

    def st_UseEvent(self, node: A.UseEvent) -> int:
        return self.card_event

    def st_DiscardCard(self, node: A.DiscardCard) -> int:
        return 0

    def st_ResolveBreaches(self, node: A.ResolveBreaches) -> int:
        return self.breaches


def game_decisions(content) -> int:
    """An upper bound on the decisions of a whole game on ``content`` (docs/limits.md).

    Every number in it is bounded by a limit checked at load time, so a game
    on content that ``crisis check`` accepts always ends: this is what the
    tests hold a game played on hostile content to.
    """
    board, procedures = content.board, content.procedures
    work = Work(board.vocabulary())

    def rule(r) -> int:
        return work.block(r.tree) if r is not None else 0

    events = [rule(c.event) for c in content.strategy_cards] or [0]
    objective_events = [rule(c.event) for c in content.objective_cards] or [0]
    max_value = max((c.value for c in content.strategy_cards), default=0)
    dimensions = len(board.dimensions)
    play = 1 + max(max(events), max_value)  # a card choice, then its event or its value
    per_round = (SIDES  # the objective kept
                 + SIDES * board.cards_played_per_round * play
                 + SIDES * dimensions * (1 + rule(procedures.pivotal_bonus))
                 + SIDES * (rule(procedures.dimension_scoring) + rule(procedures.objective_scoring)
                            + max(objective_events)))
    # a side breaches each zone at most once in a game
    breaches = SIDES * sum(max(rule(first), rule(second)) for first, second in procedures.breach_effects.values())
    # the Final Crisis hand: the cards set aside each round, topped up to final_crisis_hand
    set_aside = board.rounds * max(0, board.strategy_cards_dealt - board.cards_played_per_round)
    hand = min(max(board.final_crisis_hand, set_aside), len(content.strategy_cards))
    final = (rule(procedures.final_crisis_start)
             + SIDES * hand  # the order, a card at a time (at most one decision per card)
             + hand * SIDES * max(rule(procedures.final_crisis_matching), rule(procedures.final_crisis_not_matching))
             + SIDES * sum(rule(r) for _, r in procedures.final_scoring))
    return board.rounds * per_round + breaches + final
