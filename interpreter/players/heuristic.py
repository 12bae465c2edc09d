"""The heuristic bot on the general engine: one decision ahead, judged by the content's evaluation.

Every choice is judged on a determinization (``sample.deal_again``): a copy of the game in which
what the bot's side cannot see is dealt again at random, so the bot plays on what its side may
know.

- A token step is judged by the position right after it (taken on the position, then taken back).
- Any other decision (a card to play, a card to keep, an option, a marker, a place to act in):
  each action is tried on a fork and the play carried on to the next decision of a kind the
  content's evaluation names as its horizon (``horizon``: the next card play, say), each player
  taking the steps the same judgement picks, and the position reached is judged.
- A card of an order is judged by playing the game to its end a few times, the cards not yet
  ordered in a random order.

``Judge`` is the policy; ``HeuristicBot`` the controller.  The search bot uses the same ``Judge``
for the decisions it does not search and to end its look-ahead.
"""

from __future__ import annotations

import contextlib
import random
from typing import Dict, Optional

import attrs

from crisis.interpreter.actions import DONE, Action, Decision
from crisis.ruleset.limits import MAX_JUDGED_PER_CHOICE, MAX_JUDGED_PER_LOOK_AHEAD

from .evaluation import Evaluator
from .sample import deal_again
from .sim import Sim

STEPS = frozenset(("place", "remove", "move"))
ORDER = "order"
_EPSILON = 1e-9


class Judge:
    """Chooses actions for any side of a ``Sim`` by the evaluation (see the module text)."""

    def __init__(self, program, evaluation):
        self.program = program
        self.evaluator = Evaluator(program, evaluation)
        self.value = self.evaluator.value
        # the kinds of decision a look-ahead plays on to: those the evaluation names; where it names
        # none that the game asks (none at all, or only misspelt ones: crisis check warns), every
        # kind the game asks but token steps, so that a look-ahead is one decision ahead, not a
        # play to the end of the game (docs/bots.md)
        self.named_horizon = frozenset(evaluation.horizon)
        self.horizon = default_horizon(program, self.named_horizon)
        self.quick_steps = evaluation.quick_steps
        self.order_playouts = evaluation.order_playouts
        self._alike = _alike_plays(program)
        self._scratch = None  # a board to judge a shared trial's position on, made when first needed
        # actions the look-ahead under way may still judge (``settle``); None when none is under way
        self._allowance: Optional[int] = None
        # actions the choice under way may still judge, its look-aheads and games played out
        # included (``choosing``); None when none is under way
        self._choice_left: Optional[int] = None

    # ------------------------------------------------------------ choosing
    def choose(self, sim: Sim, rng: random.Random) -> Action:
        decision = sim.decision
        if len(decision.actions) == 1:
            return decision.actions[0]
        with self.choosing():
            if decision.kind in STEPS:
                return self.step(sim, decision, rng)
            if self._spent(len(decision.actions)):
                if decision.kind == ORDER:
                    return decision.actions[rng.randrange(len(decision.actions))]
                return _imagined(decision)
            if decision.kind == ORDER:
                return self._best(decision, rng, lambda action: self.order_value(sim, action, rng))
            return self._pick([(action, value) for action, value, _ in self.trials(sim, rng, 1)], rng)

    @contextlib.contextmanager
    def choosing(self):
        """One choice of a bot (or one node's actions judged by the search): everything judged
        within it, look-aheads and games played out included, counts against
        ``MAX_JUDGED_PER_CHOICE`` (docs/limits.md); past it, the rest is taken unjudged."""
        outermost = self._choice_left is None
        if outermost:
            self._choice_left = MAX_JUDGED_PER_CHOICE
        try:
            yield
        finally:
            if outermost:
                self._choice_left = None

    def step(self, sim: Sim, decision: Decision, rng: random.Random) -> Action:
        """The token step (or stop) that leaves the best position for the player: each step is
        taken on the position's numbers and taken back."""
        if self._spent(len(decision.actions)):
            return _imagined(decision)
        board = sim.board
        player = decision.player
        steps = self.evaluator.steps_under_way(board.position)  # the same for every step judged
        judge = self.evaluator.step_judge(board, player, self.quick_steps, steps,
                                          decision.owner if decision.owner >= 0 else player)
        return self._best(decision, rng, judge)

    def trials(self, sim: Sim, rng: random.Random, depth: int = 1, record: bool = False, actions=None):
        """Each action of ``sim``'s decision tried on a fork: ``(action, value, actions taken after
        it)`` (those only with ``record``).  At ``depth`` 1 the play is carried on to the horizon
        (``settle``), at depth 0 through the token steps that follow (enough for an option)."""
        decision = sim.decision
        player = decision.player
        out = []
        unchanged = None  # at depth 0: the value of the position as it is, once asked for
        tried = {}  # a way of playing that does the same whichever card: its card and trial
        for action in decision.actions if actions is None else actions:
            alike = self.alike(action)
            if alike is not None and alike in tried:
                card, trial, taken = tried[alike]
                out.append((action, self._swapped_value(trial, player, card, action.a), taken))
                continue
            trial = sim.fork()
            trial.apply(action)
            taken = [] if record else None
            if alike is not None:
                tried[alike] = (action.a, trial, taken)
            if depth > 0:
                self.settle(trial, rng, depth - 1, taken)
            else:
                self.steps(trial, rng, taken)
                if self._same(trial, sim):
                    # nothing that is judged has changed (an order of things to do, say)
                    if unchanged is None:
                        unchanged = self.value(sim.board, player)
                    out.append((action, unchanged, taken))
                    continue
            out.append((action, self.value(trial.board, player), taken))
        return out

    def alike(self, action: Action):
        """A key shared by the card plays that do the same whichever card is played (the same way
        of playing, whose rule reads of its card only fields on which the cards agree: playing
        a card for its value, say); None for any other action."""
        found = self._alike.get(id(action))
        return None if found is None else found

    def _swapped_value(self, trial: Sim, player: int, card: int, other: int) -> float:
        """The value of ``trial``'s position were ``other`` played instead of ``card`` (the two
        cards swapped wherever cards of their kind are: piles, the last card played)."""
        if card == other:
            return self.value(trial.board, player)
        position = trial.board.position.copy(rng=trial.board.position.rng)
        program = self.program
        kind = program.played_kind
        for (number, _), index in program.layout.pile_index.items():
            if program.kind_index[program.schema.piles[number].kind] != kind:
                continue
            pile = position.piles[index]
            for at, found in enumerate(pile):
                if found == card:
                    pile[at] = other
                elif found == other:
                    pile[at] = card
        last = program.layout.last_card
        if position.values[last] == card:
            position.values[last] = other
        elif position.values[last] == other:
            position.values[last] = card
        scratch = self._scratch
        if scratch is None:
            from crisis.interpreter.engine.board import Board
            scratch = self._scratch = Board(program, position)
        scratch.look_at(position)
        return self.value(scratch, player)

    def _same(self, trial: Sim, sim: Sim) -> bool:
        """Whether ``trial`` is judged as ``sim`` is: the same numbers, piles and steps under way."""
        a, b = trial.board.position, sim.board.position
        if a.values != b.values or a.piles != b.piles:
            return False
        steps = self.evaluator.steps_under_way
        return steps(a) == steps(b)

    def settle(self, sim: Sim, rng: random.Random, depth: int = 0, taken: Optional[list] = None) -> None:
        """Carry the play on to the next decision of the horizon (or the end), judging and taking
        at most ``MAX_JUDGED_PER_LOOK_AHEAD`` actions on the way (docs/limits.md): past it, the
        look-ahead ends where it stands."""
        outermost = self._allowance is None
        if outermost:
            self._allowance = MAX_JUDGED_PER_LOOK_AHEAD
        try:
            while sim.decision is not None and sim.decision.kind not in self.horizon:
                if self._spent(1):  # each action taken counts, judged or not (a horizon may be far)
                    break  # the allowance is spent: the look-ahead ends where it stands
                decision = sim.decision
                if len(decision.actions) == 1:
                    action = decision.actions[0]
                elif decision.kind in STEPS:
                    action = self.step(sim, decision, rng)
                elif decision.kind == ORDER:
                    action = decision.actions[rng.randrange(len(decision.actions))]
                elif self._spent(len(decision.actions)):
                    action = _imagined(decision)
                else:
                    action = self._pick([(a, v) for a, v, _ in self.trials(sim, rng, depth)], rng)
                sim.apply(action)
                if taken is not None:
                    taken.append(action)
        finally:
            if outermost:
                self._allowance = None

    def _spent(self, judged: int) -> bool:
        """Count ``judged`` actions against the look-ahead and the choice under way; whether
        either has run out."""
        spent = False
        if self._choice_left is not None:
            self._choice_left -= judged
            spent = self._choice_left < 0
        if self._allowance is not None:
            self._allowance -= judged
            spent = spent or self._allowance < 0
        return spent

    def _choice_spent(self) -> bool:
        return self._choice_left is not None and self._choice_left < 0

    def steps(self, sim: Sim, rng: random.Random, taken: Optional[list] = None) -> None:
        """Take the token steps that come next (each player his own), up to any other decision."""
        while sim.decision is not None and (sim.decision.kind in STEPS or len(sim.decision.actions) == 1):
            if self._spent(1):
                break  # the allowance is spent: judged where it stands
            decision = sim.decision
            action = decision.actions[0] if len(decision.actions) == 1 else self.step(sim, decision, rng)
            sim.apply(action)
            if taken is not None:
                taken.append(action)

    def order_value(self, sim: Sim, action: Action, rng: random.Random, playouts: int = 0) -> float:
        """Mean value, to the player, of games played to the end after choosing ``action`` now
        (``playouts`` of them, by default the evaluation's ``order playouts``)."""
        player = sim.decision.player
        playouts = playouts or self.order_playouts
        total = 0.0
        for played in range(playouts):
            trial = sim.fork()
            trial.apply(action)
            if self._choice_spent():
                # the choice's allowance is spent: the position the card leaves, unplayed
                return (total + (playouts - played) * self.value(trial.board, player)) / playouts
            self.play_out(trial, rng)
            total += self.value(trial.board, player)
        return total / playouts

    def play_out(self, sim: Sim, rng: random.Random) -> None:
        """Play to the end: cards of an order at random, everything else as ``settle``; or, once
        the choice under way has spent its allowance, to where it stands."""
        while sim.decision is not None:
            if self._choice_spent():
                return
            decision = sim.decision
            if decision.kind == ORDER:
                self._spent(1)
                sim.apply(decision.actions[rng.randrange(len(decision.actions))])
            elif decision.kind in self.horizon:
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


def default_horizon(program, named: frozenset) -> frozenset:
    """``named`` where it names a kind of decision the program asks, else every kind it asks that
    is not a token step (the next option, marker, card play, card in play chosen...)."""
    from crisis.interpreter.designer.notation import decision_kinds
    asked = frozenset(decision_kinds(program))
    return named if named & asked else asked - STEPS


def offered(decision: Decision, text: str) -> Action:
    """The action of the game's own ``decision`` that a bot chose by its text on a redealt
    position.  Where rules make what is offered depend on what the player cannot see (an option
    that would do nothing given a hidden card, which content may write), the choice made there
    may not be offered here: then the first action the player could take, as unjudged."""
    found = next((action for action in decision.actions if action.text == text), None)
    return found if found is not None else _imagined(decision)


def _imagined(decision: Decision) -> Action:
    """An action taken unjudged: the first that is not "stop here", as the engine's look-ahead
    imagines a person's choice (machine.predict)."""
    return next((action for action in decision.actions if action is not DONE), DONE)


def _alike_plays(program) -> Dict[int, tuple]:
    """id(action) -> (use, the values of the card's fields its rule reads) for the ways of playing
    a card whose rule reads of the card only some of its fields (and nothing else of the cards
    anywhere); the same key: the same effect."""
    from crisis.ruleset import meaning as M
    out: Dict[int, tuple] = {}
    cards = program.cards[program.played_kind]
    for use in program.uses:
        if use.target is not None or use.rule is None or use.rule.node is None:
            continue
        fields = _fields_read(use.rule.node, M)
        if fields is None:
            continue
        for card, action in enumerate(use.actions or ()):
            if action is not None:
                out[id(action)] = (use.index,) + tuple(_same_key(cards.fields[f][card]) for f in sorted(fields))
    return out


def _same_key(value):
    """A card's field value as compared between cards: numbers and names by value, rules by identity."""
    return value if isinstance(value, (int, str, float, bool, tuple, type(None))) else ("object", id(value))


# what a rule may name that tells one card from another other than by its fields
_CARD_WORDS = ("CardRef", "Cards", "PileRef", "PileCards", "CardFilter", "CardIs", "CardFor", "PlayedBy", "CardWould",
               "Draw", "Shuffle", "Put", "Reveal", "Discard", "Play", "Keep", "Order", "Named", "Term", "Would",
               "Change", "Forget", "CardPlaces", "Entities", "EntityRef", "EntityIn", "EntityAt")


def _fields_read(node, M):
    """The fields of "the card" a rule reads (its value, its event...), or None when it may tell
    cards apart otherwise (other cards, piles, a term...)."""
    found = set()

    def walk(item) -> bool:
        if item is None or isinstance(item, (int, str, float, bool)):
            return True
        if isinstance(item, (tuple, list)):
            return all(walk(x) for x in item)
        if isinstance(item, (M.CardField, M.CarryOut)) and isinstance(item.card, M.CardRef) \
                and item.card.kind == "this":
            if item.field is None or item.field < 0:
                return False
            found.add(item.field)
            return all(walk(getattr(item, f.name)) for f in attrs.fields(type(item)) if f.name not in ("card", "field"))
        if type(item).__name__ in _CARD_WORDS:
            return False
        if attrs.has(type(item)):
            return all(walk(getattr(item, f.name)) for f in attrs.fields(type(item)))
        return True

    return frozenset(found) if walk(node) else None


# ------------------------------------------------------------------ the bot

def judge_for(program, evaluation=None) -> Judge:
    """The judge of a game program, with its content's evaluation or ``evaluation`` (another
    content's for the same rules: a retuned copy, say), built once.  Kept on the program, so it
    goes when the program does (a process that loads content after content -- the language
    server, a fuzz run -- keeps no judge of content it no longer holds)."""
    judges = getattr(program, "_judges", None)
    if judges is None:
        judges = program._judges = {}
    found = judges.get(id(evaluation))
    if found is not None and found[0] is evaluation:
        return found[1]
    chosen = evaluation if evaluation is not None else program.definition.evaluation
    if chosen is None:
        raise ValueError("this content has no bots/evaluation.yaml: the bots cannot judge its positions")
    judge = Judge(program, chosen)
    judges[id(evaluation)] = (evaluation, judge)  # the evaluation kept: its id is not reused while it is here
    return judge


def decision_rng(name: str, seed, side: int, game) -> random.Random:
    """A bot's generator for one decision: from the game's seed, the side and how many actions
    the game has taken, so a bot carries nothing from one decision to the next (a game rebuilt
    from its actions need not ask it again)."""
    return random.Random(f"{name}/{seed}/{side}/{game.actions_taken}")


def sample(game, side: int, rng: random.Random) -> Sim:
    """A sim at ``game``'s decision where what ``side`` cannot see is dealt again from ``rng``."""
    return Sim.of(game, deal_again(game.program, game.position, side, rng))


class HeuristicBot:
    """One decision ahead, judged by the evaluation in the content's ``bots/evaluation.yaml``."""

    name = "heuristic"
    stateless = True
    needs_evaluation = True

    def __init__(self, seed: Optional[int] = None, side: int = 0, evaluation=None):
        self.seed, self.side = seed, side
        self.evaluation = evaluation  # None: the content's

    def choose(self, game, decision: Decision) -> Action:
        if len(decision.actions) == 1:
            return decision.actions[0]
        rng = decision_rng(self.name, self.seed, decision.player, game)
        root = sample(game, decision.player, rng)
        chosen = judge_for(game.program, self.evaluation).choose(root, rng)
        return offered(decision, chosen.text)
