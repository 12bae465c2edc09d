"""Looking ahead from a game in progress: forks, and samples of what one side cannot see.

Bots that look ahead (``heuristic``, ``search``) try actions on copies of the game.  The
sequence of play is a chain of generators over a mutable state, and a generator cannot be
copied half-way through an effect; the state can.  At three kinds of decision the sequence of
play restarts from the state alone (a card play, an objective kept, a card of the Final Crisis
order: ``flow`` keeps everything those loops need in the state), so a ``Line`` keeps a copy of
the state at the last such decision (its anchor) and the actions taken since (one card's
effect, a round's end: a few dozen at most).  A fork copies the anchor and replays those
actions.  Replaying the whole game from its seed gives the same fork, only slower
(``benchmarks/lookahead.py`` measures both; ``tests/test_lookahead.py`` checks they agree).

A bot decides on what its side may know.  ``sample`` gives a fork in which every card the
side cannot see (the opponent's hand, set-aside cards, unrevealed Final Crisis cards and
objective, the order of both decks) is dealt again at random among the cards it could be, and
the game's later draws come from a new generator.  The sample is a function of what the side
knows and of the bot's generator only, never of the true hidden cards: the cards the side
cannot see are sorted before they are shuffled into the places it cannot see.
"""

from __future__ import annotations

import random
from typing import Dict, List, Optional, Tuple

from . import flow
from .actions import Action, Decision
from .compile import Executor
from .state import NOBODY, GameState, initial_state

# Decisions at which the sequence of play restarts from the state alone (see flow.py:
# card_play, choose_objectives and final_crisis_order keep their progress in the state).
RESUMABLE = frozenset(("keep_objective", "play_card", "order"))


class Line:
    """How to rebuild a position: a state at a resumable decision and the actions since."""

    __slots__ = ("anchor", "since", "reseed")

    def __init__(self, anchor: GameState, since: Optional[List[Tuple[int, Action]]] = None,
                 reseed: Optional[Tuple[int, int]] = None):
        self.anchor = anchor  # never played on: forks copy it
        self.since = since if since is not None else []  # (player, action) since the anchor
        # (k, seed): after the first k actions the game's generator is random.Random(seed)
        # (a sample's future draws are the bot's, not the game's)
        self.reseed = reseed

    def note(self, player: int, action: Action, decision: Optional[Decision], state: GameState) -> None:
        """Called after each action with the decision it led to."""
        if decision is not None and decision.kind in RESUMABLE:
            self.anchor, self.since, self.reseed = state.copy(), [], None
        else:
            self.since.append((player, action))


class Sim:
    """A game for looking ahead: no log, no history, no legality checks (the actions it is
    given come from its own decisions), and a ``Line`` only when it may be forked."""

    __slots__ = ("tables", "options", "state", "ex", "flow", "decision", "line")

    def __init__(self, tables, options, state: GameState, line: Optional[Line] = None):
        self.tables, self.options, self.state, self.line = tables, options, state, line
        self.ex = Executor(tables, state, None)
        self.flow = flow.run(self.ex, options)
        self.decision: Optional[Decision] = next(self.flow, None)

    @property
    def over(self) -> bool:
        return self.decision is None

    def apply(self, action: Action) -> None:
        player = self.decision.player
        self.ex.work = 0  # counted from the last decision (Executor.charge)
        try:
            self.decision = self.flow.send(action)
        except StopIteration:
            self.decision = None
        if self.line is not None:
            self.line.note(player, action, self.decision, self.state)

    def fork(self, track: bool = True) -> "Sim":
        """An independent copy at the same decision (``track``: one that can be forked too)."""
        return replay_line(self.tables, self.options, self.line, track)


def replay_line(tables, options, line: Line, track: bool = True) -> Sim:
    sim = Sim(tables, options, line.anchor.copy())
    k, seed = line.reseed if line.reseed is not None else (-1, 0)
    since = line.since
    for index, (_, action) in enumerate(since):
        if index == k:
            sim.state.rng = random.Random(seed)
        sim.apply(action)
    if k == len(since):
        sim.state.rng = random.Random(seed)
    if track:
        # the anchor is never played on, so the fork may share it
        sim.line = Line(line.anchor, list(since), line.reseed)
    return sim


def track(game) -> Line:
    """Start keeping ``game``'s line (a ``Game`` keeps it up to date from then on)."""
    if game.line is not None:
        return game.line
    decision = game.decision
    if decision is not None and decision.kind in RESUMABLE:
        game.line = Line(game.state.copy())
        return game.line
    # mid-effect: rebuild the line from the seed and the actions so far
    if len(game.history) != game.actions_taken:
        raise RuntimeError("this game cannot be forked: it keeps no history (track it from a "
                           "card play, an objective or a Final Crisis card)")
    tables = game.tables
    sim = Sim(tables, game.options, initial_state(tables, game.seed))
    sim.line = Line(initial_state(tables, game.seed))
    for text in game.history:
        action = sim.decision.find(text) if sim.decision is not None else None
        if action is None:
            raise RuntimeError("this game cannot be forked: its actions do not replay from its seed")
        sim.apply(action)
    if not _same_decision(sim.decision, decision):
        raise RuntimeError("this game cannot be forked: its actions do not replay from its seed")
    game.line = sim.line
    return game.line


def fork(game, track_line: bool = True) -> Sim:
    """A ``Sim`` at ``game``'s current decision, with the true cards (for tests and tools;
    a bot uses ``sample``)."""
    line = game.line if isinstance(game, Sim) else track(game)
    return replay_line(game.tables, game.options, line, track_line)


# ------------------------------------------------------------------ samples


def revealed_order(state: GameState) -> int:
    """How many cards of each Final Crisis order are face up (rulebook: Final Crisis)."""
    if state.phase == "final_crisis_reveal":
        return state.final_crisis_step + 1  # a decision inside step k comes after its reveal
    if state.phase in ("final_scoring", "game_over"):
        return len(state.final_crisis_order[0]) + len(state.final_crisis_order[1])
    return 0


def unseen(state: GameState, side: int) -> Tuple[List[int], List[int]]:
    """The strategy and objective cards ``side`` cannot see, in a fixed order of places
    (decks top last, then the opponent's hand, set-aside cards, unrevealed order)."""
    other = 1 - side
    strategy = (state.strategy_deck + state.hands[other] + state.set_aside[other]
                + state.final_crisis_order[other][revealed_order(state):])
    objectives = state.objective_deck + state.objective_offer[other]
    # the kept objectives are revealed when objectives are scored
    if state.objectives[other] != NOBODY and state.phase != "scoring":
        objectives = objectives + [state.objectives[other]]
    return strategy, objectives


def _deal_again(cards: List[int], rng: random.Random) -> Dict[int, int]:
    """card -> the card dealt in its place: the same places, refilled from the sorted
    cards shuffled by ``rng`` (so the result does not depend on which card was where)."""
    fill = sorted(cards)
    rng.shuffle(fill)
    return {card: fill[i] for i, card in enumerate(cards) if card != fill[i]}


def _relabel(state: GameState, strategy: Dict[int, int], objectives: Dict[int, int]) -> None:
    if strategy:
        get = strategy.get
        for cards in (state.strategy_deck, state.discard, *state.hands, *state.set_aside,
                      *state.final_crisis_order):
            cards[:] = [get(c, c) for c in cards]
    if objectives:
        get = objectives.get
        for cards in (state.objective_deck, *state.objective_offer):
            cards[:] = [get(c, c) for c in cards]
        state.objectives[:] = [get(c, c) if c != NOBODY else c for c in state.objectives]


def sample(game, side: int, rng: random.Random, track_line: bool = True) -> Sim:
    """A fork at ``game``'s decision where what ``side`` cannot see is dealt again from ``rng``.

    The cards hidden now are relabelled in the anchor's copy (every rule treats a hidden card
    by its place, never by what it is, until it is revealed, and a card revealed since the
    anchor is not hidden now), the opponent's hidden choices since the anchor (an objective
    kept, a card ordered) follow their card, and the game's generator is replaced once the
    replay reaches the present.
    """
    if isinstance(game, Sim):
        line = game.line
        if line is None or line.reseed is not None:
            raise ValueError("sample from a game or from a fork of the true game")
    else:
        line = track(game)
    tables, other = game.tables, 1 - side
    strategy_cards, objective_cards = unseen(game.state, side)
    strategy = _deal_again(strategy_cards, rng)
    objectives = _deal_again(objective_cards, rng)
    anchor = line.anchor.copy()
    _relabel(anchor, strategy, objectives)
    since = []
    for player, action in line.since:
        if player == other:
            if action.kind == "keep" and action.a in objectives:
                action = tables.keep_actions[objectives[action.a]]
            elif action.kind == "order" and action.a in strategy:
                action = tables.order_actions[strategy[action.a]]
        since.append((player, action))
    seed = rng.getrandbits(64)
    return replay_line(tables, game.options, Line(anchor, since, (len(since), seed)), track_line)


def _same_decision(a: Optional[Decision], b: Optional[Decision]) -> bool:
    if a is None or b is None:
        return a is b
    return (a.player == b.player and a.kind == b.kind
            and [x.text for x in a.actions] == [x.text for x in b.actions])
