"""A game in progress: the state, the pending decision, and the actions so far.

This is the interface every controller (a person, a bot, a script, a
scenario) uses: look at ``decision``, pick one of its ``actions``, ``apply``
it.  Seed + options + the list of action texts reproduce a game exactly.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Union

import attrs

from crisis.content.solo import EarlierContent, earlier
from crisis.ruleset.diagnostics import UserError, did_you_mean, one_of

from . import flow
from .actions import Action, Decision, normalize
from .compile import Executor, LogEntry
from .solo import SoloOpponent, drive
from .state import GameState, initial_state
from .tables import Tables, tables_for


@attrs.frozen
class Options:
    """Game options that change the rules (saved with the game)."""

    event_discard: bool = False  # rulebook: Event Discard (Optional)
    solo: Optional[str] = None  # the side the game plays as the solo opponent (solo rulebook)
    difficulty: Optional[str] = None  # solo rulebook: Setup -- a level of the content's solo difficulty

    def to_dict(self) -> dict:
        # options that are not set are left out, so a two-player save reads as before
        return {k: v for k, v in attrs.asdict(self).items() if v is not None}

    @classmethod
    def from_dict(cls, data: dict) -> "Options":
        known = {f.name for f in attrs.fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise UserError(f"unknown game option '{sorted(unknown)[0]}' (known: {', '.join(sorted(known))})")
        return cls(**data)


def solo_opponent(tables: Tables, options: Options):
    """The solo opponent the options ask for (None in a two-player game); bad options are a UserError."""
    if options.solo is None:
        if options.difficulty is not None:
            raise UserError("a difficulty is only for a solo game: give the solo opponent's side too")
        return None
    solo = tables.solo
    if solo is None:
        raise UserError("this content has no solo game (no solo/ folder)")
    if options.solo not in tables.side_index:
        raise UserError(f"unknown side '{options.solo}' for the solo opponent (sides: {', '.join(tables.sides)})")
    if options.difficulty is not None and options.difficulty not in solo.difficulty:
        raise UserError(f"unknown difficulty '{options.difficulty}' (levels: {', '.join(solo.difficulty)})")
    return SoloOpponent(solo, tables.side_index[options.solo], tables)


class IllegalAction(UserError):
    """An action that is not legal at this decision."""


class Game:
    def __init__(self, content, seed: int = 0, options: Optional[Options] = None,
                 state: Optional[GameState] = None, log: bool = True):
        self.content: EarlierContent = earlier(content)  # (loaded content, or its earlier model)
        content = self.content
        self.tables: Tables = tables_for(content)
        self.seed = seed
        options = options or Options()
        self.solo = solo_opponent(self.tables, options)
        if self.solo is not None:
            # the solo game forces its options (Event Discard) and names its difficulty
            options = attrs.evolve(options, **self.tables.solo.options,
                                   difficulty=options.difficulty or self.tables.solo.default_difficulty)
        self.options = options
        fresh = state is None
        self.state = state if state is not None else initial_state(self.tables, seed)
        if fresh and self.solo is not None:
            # solo rulebook: Setup -- the solo opponent's scoring cylinder starts at the level's VP
            self.state.vp[self.solo.side] = self.tables.solo.difficulty[options.difficulty]
        self.log: Optional[List[LogEntry]] = [] if log else None
        self.executor = Executor(self.tables, self.state, self.log, self.solo)
        self.history: List[str] = []
        self.actions_taken = 0  # with or without a history (``advance`` keeps none)
        # number of reveals (random draws, hidden cards shown) before each action
        self.reveals_before: List[int] = []
        self._flow = flow.run(self.executor, self.options)
        if self.solo is not None:
            self._flow = drive(self._flow, self.solo, self.executor)
        self.decision: Optional[Decision] = None
        # set by ``lookahead.track`` for bots that look ahead: a copy of the state at the
        # last resumable decision and the actions since, so the game can be forked
        self.line = None
        self._advance(None)

    # ------------------------------------------------------------ stepping
    def _advance(self, action: Optional[Action]) -> None:
        self.executor.work = 0  # the work of a rule is counted from the last decision (Executor.charge)
        try:
            self.decision = next(self._flow) if action is None else self._flow.send(action)
        except StopIteration:
            self.decision = None

    @property
    def over(self) -> bool:
        return self.decision is None

    def legal_actions(self) -> List[Action]:
        return list(self.decision.actions) if self.decision else []

    def apply(self, action: Union[Action, str]) -> Action:
        """Apply a legal action (an Action from the decision, or its text)."""
        decision = self.decision
        if decision is None:
            raise IllegalAction("the game is over")
        if isinstance(action, str):
            chosen = decision.find(action)
            if chosen is None:
                steps = self.expand(action)
                if steps is None:
                    raise IllegalAction(self._illegal_message(action))
                for step in steps:
                    chosen = self.apply(step)
                return chosen
        else:
            for chosen in decision.actions:
                if chosen is action:
                    break
            else:  # an equal action made elsewhere (not one of this decision's objects)
                chosen = decision.find(action.text)
                if chosen is None:
                    raise IllegalAction(self._illegal_message(action.text))
        self.history.append(chosen.text)
        self.reveals_before.append(self.state.reveals)
        self.actions_taken += 1
        self._advance(chosen)
        if self.line is not None:
            self.line.note(decision.player, chosen, self.decision, self.state)
        return chosen

    def advance(self, action: Action) -> None:
        """Carry out one of the current decision's own actions (the very object a
        controller picked from ``decision.actions``).  The fast path of batch play:
        no text lookup and no history, so no undo and no replay of this game."""
        for candidate in self.decision.actions:
            if candidate is action:
                break
        else:
            raise IllegalAction(self._illegal_message(getattr(action, "text", str(action))))
        self.actions_taken += 1
        player = self.decision.player
        self.executor.work = 0
        try:
            self.decision = self._flow.send(action)
        except StopIteration:
            self.decision = None
        if self.line is not None:
            self.line.note(player, action, self.decision, self.state)

    def expand(self, text: str) -> Optional[List[Action]]:
        """The actions ``text`` stands for at this decision, or None if it is not legal.

        One legal action, usually.  A whole Final Crisis order written at once,
        ``order a b c`` (the notation from before orders were chosen card by
        card, still in older scenario files and saves), stands for ``order a``,
        ``order b``; the last card needs no decision.  It must name each card
        left in the player's hand once.
        """
        decision = self.decision
        if decision is None:
            return None
        action = decision.find(text)
        if action is not None:
            return [action]
        words = normalize(text).split()
        if decision.kind != "order" or len(words) < 3 or words[0] != "order":
            return None
        t = self.tables
        hand = self.state.hands[decision.player]
        by_id = {t.strategy_cards[card].id.lower(): card for card in hand}
        cards = [by_id.get(word) for word in words[1:]]
        if None in cards or sorted(cards) != sorted(hand):
            return None
        return [t.order_actions[card] for card in cards[:-1]]

    def _illegal_message(self, text: str) -> str:
        legal = [a.text for a in self.decision.actions]
        guess = did_you_mean(normalize(text), [normalize(t) for t in legal], cutoff=0.5)
        message = f"'{text}' is not a legal action now; legal: {one_of(legal, limit=10)}"
        if guess:
            message += f"; did you mean '{next(t for t in legal if normalize(t) == guess)}'?"
        return message

    # ------------------------------------------------------------- queries
    @property
    def result(self):
        return self.state.result

    def first_player(self) -> int:
        return self.executor.first_player()

    def tie_break_rules(self) -> tuple:
        """The tie-breaks in force (the solo game replaces the two-player ones), as content rules."""
        if self.solo is not None and self.tables.solo.tie_break_rules:
            return self.tables.solo.tie_break_rules
        return self.content.procedures.tie_breaks


def replay(content, seed: int, options: Optional[Options], actions: Sequence[str],
           log: bool = True) -> Game:
    """Rebuild a game from its seed, options and action texts."""
    game = Game(content, seed, options, log=log)
    for index, text in enumerate(actions):
        try:
            game.apply(text)
        except IllegalAction as error:
            raise IllegalAction(f"action {index + 1} ('{text}') cannot be replayed: "
                                f"{error.diagnostics[0].message}") from None
    return game
