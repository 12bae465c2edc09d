"""The heuristic bot: one decision ahead, judged by the evaluation of the position.

Every choice is judged on a sample of the game in which what the bot's side cannot see is dealt
again (``lookahead.sample``), so the bot plays on what its side may know.

- A token step is judged by the position right after it (the step is carried out on a copy).
- A card play, an objective kept, an option, a marker, a pivotal bonus: each action is tried
  on a fork and the play is carried on to the next card play, objective or Final Crisis card
  (the rest of the card's effect, the breaches it causes, and at a round's last card the
  round's end), each player taking his steps as above, and the position reached is judged.
- A card of the Final Crisis order is judged by playing the game to its end a few times, the
  cards not yet ordered (the opponent's too) in a random order.

``Judge`` is the policy; ``HeuristicBot`` the controller.  The search bot uses the same
``Judge`` for the decisions it does not search and to end its look-ahead.
"""

from __future__ import annotations

import random
from typing import Dict, Optional

from .actions import Action, Decision
from .compile import Executor
from .controllers import Controller
from crisis.content.bots import HeuristicSettings

from .evaluation import Evaluator
from .lookahead import RESUMABLE, Sim, sample

STEPS = frozenset(("place", "remove", "move"))
_EPSILON = 1e-9


class Judge:
    """Chooses actions for either side of a ``Sim`` by the evaluation (see the module text)."""

    def __init__(self, tables, settings: HeuristicSettings = HeuristicSettings()):
        self.tables = tables
        self.evaluator = Evaluator(tables, settings.weights)
        self.value = self.evaluator.value
        self.order_playouts = settings.order_playouts
        self.quick_steps = settings.quick_steps

    # ------------------------------------------------------------ choosing
    def choose(self, sim: Sim, rng: random.Random) -> Action:
        """The action for ``sim``'s decision, one decision ahead."""
        decision = sim.decision
        if len(decision.actions) == 1:
            return decision.actions[0]
        if decision.kind in STEPS:
            return self.step(sim.state, decision, rng)
        if decision.kind == "order":
            return self._best(decision, rng, lambda action: self._order_value(sim, action, rng))
        return self.look(sim, decision, rng, depth=1)

    def trial_values(self, sim: Sim, rng: random.Random, record: bool = False):
        """``trials`` for any decision (Final Crisis cards: the mean of played-out games)."""
        if sim.decision.kind == "order":
            return [(action, self._order_value(sim, action, rng), None) for action in sim.decision.actions]
        return self.trials(sim, rng, 1, record)

    def step(self, state, decision: Decision, rng: random.Random) -> Action:
        """The token step (or stop) that leaves the best position for the player."""
        player = decision.player
        owner_default = decision.owner if decision.owner >= 0 else player
        ex = Executor(self.tables, state, None)
        evaluator, quick = self.evaluator, self.quick_steps
        n = len(self.tables.spaces)
        tokens, pool, track, boxes = state.tokens, state.pool, state.track, state.boxes
        breached, pending = state.breached, state.pending_breaches
        # steps are judged by how much they change the position's value (a stop changes nothing)
        if quick:
            base = evaluator.spread(state, player)
            shares, dimensions = evaluator.shares(state, player, range(n))
        else:
            base = self.value(state, player)

        def judge(action: Action) -> float:
            if action.kind not in STEPS:
                return 0.0
            # the step is carried out by the engine on the position itself, then taken back:
            # a step changes only its owner's tokens, pool, track, boxes and breaches
            owner = action.side if action.side >= 0 else owner_default
            source, dest = action.a, action.b
            mine = tokens[owner]
            if source < n and dest < n:  # from one space to another: only those two change
                saved = None
                spaces = (source, dest)
                kept = mine[source], mine[dest]
            else:
                spaces = (source,) if source < n else (dest,) if dest < n else ()
                saved = (mine[source] if source < n else 0, mine[dest] if dest < n else 0, pool[owner],
                         track[owner], list(boxes[owner]), list(breached[owner]), list(pending[owner]))
            ex.take(owner, source)
            ex.put(owner, dest)
            if quick:
                after_spaces, after_dimensions = evaluator.shares(state, player, spaces)
                change = (sum(after_spaces.values()) - sum(shares[s] for s in spaces)
                          + sum(after_dimensions.values()) - sum(dimensions[d] for d in after_dimensions))
                if saved is not None:  # a token leaving or entering the map: pool, track, breaches...
                    change += evaluator.spread(state, player) - base
            else:
                change = self.value(state, player) - base
            if saved is None:
                mine[source], mine[dest] = kept
            else:
                if source < n:
                    mine[source] = saved[0]
                if dest < n:
                    mine[dest] = saved[1]
                pool[owner], track[owner] = saved[2], saved[3]
                boxes[owner][:], breached[owner][:], pending[owner][:] = saved[4], saved[5], saved[6]
            return change

        return self._best(decision, rng, judge)

    def look(self, sim: Sim, decision: Decision, rng: random.Random, depth: int) -> Action:
        """The action whose trial (``trials``) leaves the best position."""
        return self._pick([(action, value) for action, value, _ in self.trials(sim, rng, depth)], rng)

    def trials(self, sim: Sim, rng: random.Random, depth: int = 1, record: bool = False, actions=None):
        """Each action of ``sim``'s decision tried on a fork: ``(action, value, actions taken
        after it)`` (the actions only with ``record``).  After the action the play is carried
        on: at ``depth`` 1 to the next card play (``settle``), at depth 0 through the token
        steps that follow it (enough to judge an option or a marker)."""
        decision = sim.decision
        player = decision.player
        out = []
        values = self.tables.card_value
        same = {}  # playing cards of one value for their value places the same tokens
        for action in decision.actions if actions is None else actions:
            if action.kind == "value":
                key = values[action.a]
                if key in same:
                    out.append((action,) + same[key])
                    continue
            trial = sim.fork(track=depth > 0)
            trial.apply(action)
            taken = [] if record else None
            if depth > 0:
                self.settle(trial, rng, depth - 1, taken)
            else:
                self.steps(trial, rng, taken)
            out.append((action, self.value(trial.state, player), taken))
            if action.kind == "value":
                # the evaluation never looks at a hand, so the card that left it does not matter
                same[values[action.a]] = out[-1][1:]
        return out

    def settle(self, sim: Sim, rng: random.Random, depth: int = 0, taken: Optional[list] = None) -> None:
        """Carry the play on to the next card play, objective or Final Crisis card (or the end)."""
        while sim.decision is not None and sim.decision.kind not in RESUMABLE:
            decision = sim.decision
            if len(decision.actions) == 1:
                action = decision.actions[0]
            elif decision.kind in STEPS:
                action = self.step(sim.state, decision, rng)
            elif sim.line is not None:
                action = self.look(sim, decision, rng, depth)
            else:
                action = decision.actions[rng.randrange(len(decision.actions))]
            sim.apply(action)
            if taken is not None:
                taken.append(action)

    def steps(self, sim: Sim, rng: random.Random, taken: Optional[list] = None) -> None:
        """Take the token steps that come next (each player his own), up to any other decision."""
        while sim.decision is not None and (sim.decision.kind in STEPS or len(sim.decision.actions) == 1):
            decision = sim.decision
            action = decision.actions[0] if len(decision.actions) == 1 else self.step(sim.state, decision, rng)
            sim.apply(action)
            if taken is not None:
                taken.append(action)

    def _order_value(self, sim: Sim, action: Action, rng: random.Random) -> float:
        """Mean value, to the player, of games played to the end after ordering ``action`` now."""
        player = sim.decision.player
        total = 0.0
        for _ in range(self.order_playouts):
            trial = sim.fork()
            trial.apply(action)
            self.play_out(trial, rng)
            total += self.value(trial.state, player)
        return total / self.order_playouts

    def play_out(self, sim: Sim, rng: random.Random) -> None:
        """Play to the end: Final Crisis cards in a random order, everything else as ``settle``."""
        while sim.decision is not None:
            decision = sim.decision
            if decision.kind == "order":
                sim.apply(decision.actions[rng.randrange(len(decision.actions))])
            elif decision.kind in RESUMABLE:
                sim.apply(self.choose(sim, rng))
            else:
                self.settle(sim, rng)

    @classmethod
    def _best(cls, decision: Decision, rng: random.Random, judge) -> Action:
        return cls._pick([(action, judge(action)) for action in decision.actions], rng)

    @staticmethod
    def _pick(judged, rng: random.Random) -> Action:
        """The best-judged action; ties broken at random (so the list's order favours nothing)."""
        best, best_value = [], float("-inf")
        for action, value in judged:
            if value > best_value + _EPSILON:
                best, best_value = [action], value
            elif value >= best_value - _EPSILON:
                best.append(action)
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]


# ------------------------------------------------------------------ the bot

_JUDGES: Dict[int, Judge] = {}


def judge_for(tables) -> Judge:
    """The judge for a game definition, with its content's settings (built once)."""
    judge = _JUDGES.get(id(tables))
    if judge is None or judge.tables is not tables:
        judge = _JUDGES[id(tables)] = Judge(tables, tables.content.bots.heuristic)
    return judge


def decision_rng(name: str, seed, side: int, game) -> random.Random:
    """A bot's generator for one decision: from the game's seed, the side and how many
    actions the game has taken, so a bot carries nothing from one decision to the next
    (a game rebuilt from its actions need not ask it again)."""
    return random.Random(f"{name}/{seed}/{side}/{game.actions_taken}")


class HeuristicBot(Controller):
    """One decision ahead, judged by the evaluation in the content's ``bots/heuristic.yaml``."""

    name = "heuristic"
    stateless = True

    def __init__(self, seed: Optional[int] = None, side: int = 0):
        self.seed, self.side = seed, side

    def choose(self, game, decision: Decision) -> Action:
        if len(decision.actions) == 1:
            return decision.actions[0]
        rng = decision_rng(self.name, self.seed, decision.player, game)
        root = sample(game, decision.player, rng)
        chosen = judge_for(game.tables).choose(root, rng)
        return next(a for a in decision.actions if a.text == chosen.text)
