"""The search bot: information-set Monte Carlo tree search over determinizations.

At the decisions that shape a game (the kinds its settings list: playing a card and keeping
an objective, in Fort Sumter) the bot runs a number of iterations (its budget); each one

1. deals a *determinization*: a fork of the game in which every card the bot's side cannot see
   is dealt again at random among the cards it could be (``sample.deal_again``: from the bot's
   own cards, the cards seen played and revealed, and the counts; never from the true hidden
   cards);
2. walks down one tree shared by all determinizations (single-observer ISMCTS, Cowling, Powley
   and Whitehouse 2012).  Its nodes are the bot's own decisions of those kinds
   and the opponent's card plays (public once made); a node's actions that are legal in
   this determinization are *available*, and the walk picks the available action with the best
   upper confidence bound, counting each action's chances by how often it was available;
3. expands the first node it reaches that was never expanded: every action there is judged the
   heuristic's way on this determinization (``heuristic.Judge.trials``: the action, the rest of
   the card's effect and the breaches, a round's end, up to the next card play), the position
   reached is turned into a chance of winning (logistic in the evaluation) and counted as a few
   visits (``prior``) of that action; a finished game counts as won or lost;
4. adds the best of those chances, for the node's player, to every action on the way down (for
   the opponent's actions, one minus it).

So each iteration looks one card play further down the line the tree finds most promising, on
a new deal of the hidden cards.  The bot plays the most visited action, and stops early when no
remaining iteration could change which one that is.  Everything between nodes (token steps,
options, markers, pivotal bonuses, the opponent's hidden choices) is the heuristic's; the steps
judged after an action are remembered and replayed in later determinizations while they stay
legal.

Budget: ``iterations`` per decision (the same seed plays the same game), or ``milliseconds``
(it then depends on the machine's speed and load: the same seed need not play the same game).
The content's ``bots/search.yaml`` sets the defaults; ``search:40`` (iterations) or
``search:500ms`` name a budget on the command line.
"""

from __future__ import annotations

import functools
import math
import random
import time
from typing import Dict, List, Optional

import attrs

from crisis.content.bots import ENGINE_DECISIONS, Budget, SearchSettings
from crisis.interpreter.actions import Action, Decision

from .heuristic import ORDER, STEPS, Judge, decision_rng, judge_for, offered, sample
from .sim import Sim

# the opponent's choices that are nodes: those it makes face up
_PUBLIC = frozenset(("play_card",))


class Edge:
    """An action at a node, with what the search learnt of it."""

    __slots__ = ("visits", "total", "available", "settle", "child", "chance")

    def __init__(self, prior: int, chance: float, settle: Optional[List[Action]]):
        self.chance = chance  # the heuristic's judgement, for the node's player
        self.visits = self.available = prior
        self.total = prior * chance  # sum of results, for the node's player
        self.settle = settle  # the heuristic's actions that followed it, when it was judged
        self.child: Optional[Node] = None


class Node:
    """A decision of the tree: the bot's decisions of the kinds searched, the opponent's card
    plays; one node for every determinization that reaches it."""

    __slots__ = ("player", "edges", "alike")

    def __init__(self, player: int):
        self.player = player  # who chooses here
        self.edges: Optional[Dict[str, Edge]] = None  # None until the node is expanded
        self.alike: Dict[tuple, Edge] = {}  # a card play that does the same whichever card: its edge judged first


class Search:
    """One tree search from one decision."""

    def __init__(self, judge: Judge, settings: SearchSettings, me: int, rng: random.Random):
        self.judge, self.settings, self.me, self.rng = judge, settings, me, rng
        self.root = Node(me)
        self.iterations = 0

    def run(self, game) -> Action:
        budget = self.settings.budget
        if budget.milliseconds > 0:
            end = time.perf_counter() + budget.milliseconds / 1000
            while self.iterations == 0 or time.perf_counter() < end:
                self.iterate(game)
        else:
            total = max(1, budget.iterations)
            for done in range(1, total + 1):
                self.iterate(game)
                if self._settled(total - done):
                    break
        edges = self.root.edges
        # (of the actions the game offers: a redealt position may have offered others, heuristic.offered)
        texts = {action.text for action in game.decision.actions}
        text = max((t for t in edges if t in texts), default="",
                   key=lambda t: (edges[t].visits, edges[t].total / max(1, edges[t].visits)))
        return offered(game.decision, text)

    def _settled(self, remaining: int) -> bool:
        """Whether the most visited action stays the most visited whatever the remaining
        iterations do (each adds one visit at the root): stopping then changes nothing."""
        visits = sorted((e.visits for e in self.root.edges.values()), reverse=True)
        return len(visits) < 2 or visits[0] - visits[1] > remaining

    def chance(self, value: float) -> float:
        """An evaluation (VP) as a chance of winning.  Written so that no evaluation overflows:
        a content's weights may be as large as its numbers allow (999,999,999 VP a term)."""
        x = value / self.settings.scale
        if x >= 0:
            return 1.0 / (1.0 + math.exp(-x))
        small = math.exp(x)  # at most 1; for a very bad position it underflows to 0, never overflows
        return small / (1.0 + small)

    def iterate(self, game) -> None:
        """One determinization, down the tree to a node not yet expanded; its result back up."""
        self.iterations += 1
        sim = sample(game, self.me, self.rng)
        node, path = self.root, []
        while True:
            decision = sim.decision
            if decision is None:
                result = 1.0 if self._won(sim) else 0.0
                break
            if not self._is_node(decision):
                sim.apply(self._policy(sim))
                continue
            if node.edges is None:
                if not self._unjudged(decision):
                    best = self._expand(node, sim)
                    result = best if node.player == self.me else 1.0 - best
                    break
                # cards of an order, with no games played out to judge them: the iterations play
                # them out, each trying the cards not yet tried first
                node.edges = {action.text: Edge(0, 0.5, None) for action in decision.actions}
            action, edge = self._select(node, sim)
            sim.apply(action)
            self._settle(sim, edge)
            path.append((node, edge))
            if edge.child is None:
                edge.child = Node(sim.decision.player if sim.decision is not None else -1)
            node = edge.child
        for parent, edge in path:
            edge.visits += 1
            edge.total += result if parent.player == self.me else 1.0 - result

    def _unjudged(self, decision: Decision) -> bool:
        """Whether the actions at this node are left unjudged (cards of an order, when the search
        plays out no games for them: ``order_playouts: 0``)."""
        return decision.kind == ORDER and self.settings.order_playouts == 0

    def _won(self, sim: Sim) -> bool:
        return sim.board.values[sim.board.layout.winner] == self.me

    def _is_node(self, decision: Decision) -> bool:
        if len(decision.actions) == 1:
            return False
        if decision.player == self.me:
            return decision.kind in self.settings.decisions
        return decision.kind in _PUBLIC

    def _judged(self, sim: Sim, actions=None):
        """(action, chance for the chooser, steps taken after it), the heuristic's way: each action
        tried on to the horizon, or, for the opponent's with ``reply_depth: 0``, through the token
        steps that follow it; cards of an order by ``order_playouts`` games played out."""
        judge = self.judge
        decision = sim.decision
        with judge.choosing():
            if decision.kind == ORDER:
                trials = [(action, judge.order_value(sim, action, self.rng, self.settings.order_playouts), None)
                          for action in (decision.actions if actions is None else actions)]
            else:
                depth = 1 if decision.player == self.me else min(1, self.settings.reply_depth)
                trials = judge.trials(sim, self.rng, depth, record=True, actions=actions)
        return [(action, self.chance(value), taken) for action, value, taken in trials]

    def _expand(self, node: Node, sim: Sim) -> float:
        """Judge every action at the node (the heuristic's look one decision ahead, on this
        determinization); each counts as ``prior`` visits.  The best chance, for the chooser."""
        prior = self.settings.prior
        node.edges = {}
        best, best_action = -1.0, None
        for action, chance, taken in self._judged(sim):
            edge = node.edges[action.text] = Edge(prior, chance, taken)
            alike = self.judge.alike(action)
            if alike is not None:
                node.alike.setdefault(alike, edge)
            if chance > best:
                best, best_action = chance, (action, edge)
        if self.settings.rollout > 0:
            mine = self._rollout(sim, *best_action)
            return mine if node.player == self.me else 1.0 - mine
        return best

    def _rollout(self, sim: Sim, action: Action, edge: Edge) -> float:
        """The node's best-judged action, then ``rollout`` more decisions of the horizon's kinds
        by the heuristic, on this determinization: the bot's chance of winning there."""
        sim.apply(action)
        horizon = self.judge.horizon
        self._replay(sim, edge.settle, lambda decision: decision.kind in horizon)
        left = self.settings.rollout

        def past_the_last_play(decision: Decision) -> bool:
            nonlocal left
            if decision.kind not in horizon:
                return False
            if left == 0:
                return True
            left -= 1
            return False

        self._play_on(sim, past_the_last_play)
        if sim.decision is None:
            return 1.0 if self._won(sim) else 0.0
        return self.chance(self.judge.value(sim.board, self.me))

    def _select(self, node: Node, sim: Sim):
        """The available action with the best upper confidence bound (an action first met in
        this determinization is judged and added)."""
        decision = sim.decision
        edges = node.edges
        new = [a for a in decision.actions if a.text not in edges]
        if new and self._unjudged(decision):
            for action in new:
                edges[action.text] = Edge(0, 0.5, None)
        elif new:
            prior = self.settings.prior
            judge, fresh = self.judge, []
            for action in new:
                # a card play that does what one judged here does: judged alike
                twin = node.alike.get(judge.alike(action))
                if twin is not None:
                    edges[action.text] = Edge(prior, twin.chance, twin.settle)
                else:
                    fresh.append(action)
            for action, chance, taken in self._judged(sim, fresh) if fresh else ():
                edge = edges[action.text] = Edge(prior, chance, taken)
                alike = judge.alike(action)
                if alike is not None:
                    node.alike.setdefault(alike, edge)
        c = self.settings.exploration
        candidates = decision.actions
        widen = self.settings.widen if node.player == self.me else self.settings.replies
        if 0 < widen < len(candidates):
            # only the heuristic's best few: iterations go to the close calls, not the bad moves
            candidates = sorted(candidates, key=lambda a: -edges[a.text].chance)[:widen]
        for action in candidates:
            edges[action.text].available += 1
        best, best_score, best_edge = None, -1.0, None
        for action in candidates:
            edge = edges[action.text]
            if edge.visits == 0:
                return action, edge  # never tried: first
            score = edge.total / edge.visits + c * math.sqrt(math.log(edge.available) / edge.visits)
            if score > best_score:
                best, best_score, best_edge = action, score, edge
        return best, best_edge

    def _policy(self, sim: Sim) -> Action:
        """The heuristic's choice between nodes (a card of the opponent's order: at random,
        as the heuristic's own way, playing the game out, would cost more than the search)."""
        decision = sim.decision
        if decision.kind == ORDER:
            return decision.actions[self.rng.randrange(len(decision.actions))]
        judge = self.judge
        if self.settings.policy_depth == 0 and decision.kind not in judge.horizon and decision.kind not in STEPS \
                and len(decision.actions) > 1:
            # an option, a marker...: judged by what it does at once, not played on to the horizon
            with judge.choosing():
                return judge._pick([(a, v) for a, v, _ in judge.trials(sim, self.rng, 0)], self.rng)
        return judge.choose(sim, self.rng)

    def _settle(self, sim: Sim, edge: Edge) -> None:
        """Carry the play on to the next node: the steps taken when the action was judged,
        while they stay legal, then the heuristic's."""
        self._replay(sim, edge.settle, self._is_node)
        self._play_on(sim, self._is_node)

    @staticmethod
    def _replay(sim: Sim, steps, stop) -> None:
        """The steps recorded when an action was judged, up to a decision ``stop`` names or the
        first step no longer legal in this determinization."""
        for step in steps or ():
            decision = sim.decision
            if decision is None or stop(decision) or not any(a is step for a in decision.actions):
                return
            sim.apply(step)

    def _play_on(self, sim: Sim, stop) -> None:
        """The heuristic plays every side on to the game's end or a decision ``stop`` names."""
        while sim.decision is not None and not stop(sim.decision):
            decision = sim.decision
            sim.apply(decision.actions[0] if len(decision.actions) == 1 else self._policy(sim))


# ------------------------------------------------------------------ the bot


def settings_for(game, evaluation=None) -> SearchSettings:
    """The content's search settings (bots/search.yaml), the kinds of decision searched explicit."""
    settings = game.content.bots.search if game.content is not None else SearchSettings()
    return with_decisions(settings, game, evaluation)


def with_decisions(settings: SearchSettings, game, evaluation=None) -> SearchSettings:
    """``settings`` with the kinds of decision searched made explicit: those listed, else the kinds
    of the evaluation's horizon, else those the engine asks in any game (a search that searched
    nothing would be the heuristic under another name)."""
    if settings.decisions:
        return settings
    horizon = judge_for(game.program, evaluation).named_horizon  # (not the look-ahead's default)
    return attrs.evolve(settings, decisions=tuple(sorted(horizon)) or ENGINE_DECISIONS)


class SearchBot:
    """Information-set Monte Carlo tree search; the heuristic where it does not search."""

    name = "search"
    stateless = True
    needs_evaluation = True
    budget: Optional[Budget] = None  # None: the content's (bots/search.yaml)

    def __init__(self, seed: Optional[int] = None, side: int = 0, budget: Optional[Budget] = None,
                 settings: Optional[SearchSettings] = None, evaluation=None):
        self.seed, self.side = seed, side
        self.settings = settings  # None: the content's (bots/search.yaml)
        self.evaluation = evaluation  # None: the content's (bots/evaluation.yaml)
        if budget is not None:
            self.budget = budget
        self.last: Optional[Search] = None  # the latest search (for tests and tools)

    @classmethod
    def configured(cls, setting: str):
        """A factory ``(seed, side) -> SearchBot`` with the budget ``setting`` (``Budget.parse``)."""
        # a partial, not a closure: a job's factories travel to other processes
        return functools.partial(cls, budget=Budget.parse(setting))

    def choose(self, game, decision: Decision) -> Action:
        if len(decision.actions) == 1:
            return decision.actions[0]
        settings = self.settings if self.settings is not None else settings_for(game, self.evaluation)
        if self.budget is not None:
            settings = attrs.evolve(settings, budget=self.budget)
        judge = judge_for(game.program, self.evaluation)
        settings = with_decisions(settings, game, self.evaluation)
        rng = decision_rng(self.name, self.seed, decision.player, game)
        if decision.kind not in settings.decisions:
            chosen = judge.choose(sample(game, decision.player, rng), rng)
            return offered(decision, chosen.text)
        search = self.last = Search(judge, settings, decision.player, rng)
        return search.run(game)
