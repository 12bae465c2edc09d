"""A game in progress on the general engine: the position, the pending decision, the actions so far.

This is the interface every controller (a person, a bot, a script, a
scenario) uses: look at ``decision``, pick one of its ``actions``, ``apply``
it.  Seed + options + the list of action texts reproduce a game exactly, and
``fork`` goes on from a copy of the position (where play stands is part of
it), replaying nothing.
"""

from __future__ import annotations

from typing import Iterable, List, Mapping, Optional, Sequence, Union

import attrs

from crisis.interpreter.actions import Action, Decision, normalize
from crisis.ruleset import limits
from crisis.ruleset.diagnostics import UserError, did_you_mean, one_of

from .board import Board
from .layout import AT_ONCE, NOBODY
from .machine import Machine
from .ops import Ctx, Won
from .program import program_of
from .view import View


class IllegalAction(UserError):
    """An action that is not legal at this decision."""


@attrs.frozen
class Options:
    """Game options that change the rules (saved with the game): the content's optional rules
    that are on, by their names with underscores ("event_discard"), and the solo game's side and
    difficulty."""

    flags: frozenset = frozenset()
    solo: Optional[str] = None  # the side the automa plays (the content's solo game)
    difficulty: Optional[str] = None  # a level of the solo game's difficulty

    def to_dict(self) -> dict:
        # options that are not set are left out, so a two-player save reads as before
        out = {name: True for name in sorted(self.flags)}
        out.update({k: v for k, v in (("solo", self.solo), ("difficulty", self.difficulty)) if v is not None})
        return out

    @classmethod
    def from_dict(cls, data: Mapping, known: Iterable[str] = ()) -> "Options":
        """Options as saved; ``known``: the content's optional rules."""
        known = set(known)
        unknown = set(data) - known - {"solo", "difficulty"}
        if unknown:
            names = ", ".join(sorted(known | {"solo", "difficulty"}))
            raise UserError(f"unknown game option '{sorted(unknown)[0]}' (known: {names})")
        return cls(frozenset(k for k in data if k in known and data[k]), data.get("solo"), data.get("difficulty"))

    def flag(self, name: str) -> bool:
        return name in self.flags


def option_names(program) -> tuple:
    """The optional rules a game declares (its ways to play a card that an option turns on), as
    options name them."""
    return tuple(dict.fromkeys(use.option.replace(" ", "_") for use in program.definition.uses if use.option))


def _automa(program, options: Options):
    """The automa the options ask for (None in a game without one); bad options are a UserError."""
    if options.solo is None:
        if options.difficulty is not None:
            raise UserError("a difficulty is only for a solo game: give the side the game plays too")
        return None
    rules = program.automa_rules
    sides = program.schema.sides
    if rules is None:
        raise UserError("this content has no solo game (no solo/ folder)")
    if options.solo not in sides:
        raise UserError(f"unknown side '{options.solo}' for the game to play (sides: {', '.join(sides)})")
    if options.difficulty is not None and options.difficulty not in rules.difficulty:
        raise UserError(f"unknown difficulty '{options.difficulty}' (levels: {', '.join(rules.difficulty)})")
    from .automa import Automa
    return Automa(rules, sides.index(options.solo), program)


@attrs.frozen
class Result:
    winner: int
    tie_break: int = NOBODY  # which tie-break decided (0 the first), NOBODY when the score did
    breakdown: tuple = ()  # (label, per-side change) of the final score, in order
    at_once: bool = False  # a rule declared the winner ("you win") before the game's end


class Game:
    def __init__(self, program, seed: int = 0, options: Optional[Options] = None, position=None,
                 log: bool = True, play: bool = False, content=None):
        """``position``: a position to go on from (a fork's, a saved one, a scenario's); with
        ``play``, a set-up position whose sequence of play is yet to start."""
        self.program = program
        self.content = content
        self.seed = seed
        options = options or Options()
        self.automa = _automa(program, options)
        if self.automa is not None:
            rules = program.automa_rules
            # the solo game forces its options and names its difficulty
            options = Options(options.flags | frozenset(k for k, v in rules.options.items() if v),
                              options.solo, options.difficulty or rules.default_difficulty)
        self.options = options
        fresh = position is None
        self.position = position if position is not None else program.initial_position(seed)
        if fresh and self.automa is not None:
            for counter, value in program.automa_rules.difficulty.get(options.difficulty, ()):
                self.position.values[program.layout.counter[counter] + self.automa.side] = value
        self.log: Optional[list] = [] if log else None
        self.machine = Machine(program, self.position, self.log, self.automa, options=options.flags)
        self.view = View(program, self.position)
        self.history: List[str] = []
        self.actions_taken = 0  # with or without a history (``advance`` keeps none)
        self.reveals_before: List[int] = []  # chance events and hidden cards shown before each action
        if fresh:
            decision = self.machine.start(program.main, Ctx(0))
        elif play:
            decision = self.machine.start(program.play, Ctx(0))
        else:
            decision = self.machine.advance()
        self.decision: Optional[Decision] = self._drive(decision)

    @classmethod
    def of(cls, content, seed: int = 0, options: Optional[Options] = None, log: bool = True) -> "Game":
        """A new game on loaded content."""
        return cls(program_of(content), seed, options, log=log, content=content)

    def _drive(self, decision):
        if self.automa is None:
            return decision
        from .automa import drive
        return drive(self.machine, self.automa, decision)

    # ------------------------------------------------------------ stepping
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
            steps = self.expand(action)
            if steps is None:
                raise IllegalAction(self._illegal_message(action))
            for step in steps[:-1]:
                self.apply(step)
            chosen = steps[-1]
        elif not any(candidate is action for candidate in decision.actions):
            # an equal action made elsewhere (not one of this decision's objects)
            chosen = decision.find(action.text)
            if chosen is None:
                raise IllegalAction(self._illegal_message(action.text))
        else:
            chosen = action
        self.history.append(chosen.text)
        self.reveals_before.append(self.view.reveals)
        self.advance(chosen)
        return chosen

    def advance(self, action: Action) -> None:
        """Carry out one of the current decision's own actions (the very object a controller
        picked): the fast path of batch play, keeping no history."""
        self.actions_taken += 1
        self.decision = self._drive(self.machine.answer(action))

    def expand(self, text: str) -> Optional[List[Action]]:
        """The actions ``text`` stands for at this decision, or None if it is not legal: one legal
        action, or a whole order written at once (``order a b c``, the older notation), which
        stands for one choice per card; the last card needs no decision."""
        decision = self.decision
        if decision is None:
            return None
        action = decision.find(text)
        if action is not None:
            return [action]
        words = normalize(text).split()
        if decision.kind != "order" or len(words) < 3 or words[0] != "order":
            return None
        by_id = {a.text.split(" ", 1)[1].lower(): a for a in decision.actions}
        found = [by_id.get(word) for word in words[1:]]
        if None in found or len(found) != len(decision.actions) or len(set(found)) != len(found):  # each card once
            return None
        return found[:-1]

    def _illegal_message(self, text: str) -> str:
        legal = [a.text for a in self.decision.actions]
        guess = did_you_mean(normalize(text), [normalize(t) for t in legal], cutoff=0.5)
        message = f"'{text}' is not a legal action now; legal: {one_of(legal, limit=10)}"
        if guess:
            message += f"; did you mean '{next(t for t in legal if normalize(t) == guess)}'?"
        return message

    def fork(self, log: bool = False) -> "Game":
        """A game that goes on from a copy of this position: nothing is replayed, and what is
        played on either never touches the other."""
        fork = Game.__new__(Game)
        fork.program, fork.content, fork.seed, fork.options = self.program, self.content, self.seed, self.options
        fork.automa = self.automa
        fork.position = self.position.copy()
        fork.log = [] if log else None
        fork.machine = Machine(self.program, fork.position, fork.log, self.automa, options=self.options.flags)
        fork.view = View(self.program, fork.position)
        fork.history, fork.reveals_before = list(self.history), list(self.reveals_before)
        fork.actions_taken = self.actions_taken
        fork.decision = self.decision
        return fork

    # ------------------------------------------------------------- queries
    @property
    def sides(self) -> Sequence[str]:
        return self.program.schema.sides

    @property
    def result(self) -> Optional[Result]:
        winner = self.view.winner
        if winner == NOBODY:
            return None
        decided = self.view.tie_break
        return Result(winner, max(decided, NOBODY), tuple(self.position.breakdown), at_once=decided == AT_ONCE)

    def first_player(self) -> int:
        return self.machine.board.first_player()


def replay(program, seed: int, options: Optional[Options], actions: Sequence[str], log: bool = True,
           content=None) -> Game:
    """Rebuild a game from its seed, options and action texts."""
    game = Game(program, seed, options, log=log, content=content)
    for index, text in enumerate(actions):
        try:
            game.apply(text)
        except IllegalAction as error:
            raise IllegalAction(f"action {index + 1} ('{text}') cannot be replayed: "
                                f"{error.diagnostics[0].message}") from None
    return game


# the name the differential tests and the scenario runner use while both engines exist
class EngineGame(Game):
    def __init__(self, program, seed: int = 0, options: frozenset = frozenset(), position=None,
                 log: bool = True, solo: Optional[str] = None, difficulty: Optional[str] = None, play: bool = False):
        super().__init__(program, seed, Options(frozenset(options), solo, difficulty), position, log, play)


def random_chooser(rngs):
    """``choose`` for random players, one generator per side (controllers.RandomBot's): each
    decision draws what ``rng.randrange(len(actions))`` would, written in (batch play)."""
    bits = [rng.getrandbits for rng in rngs]

    def choose(decision):
        actions = decision.actions
        n = len(actions)
        getrandbits = bits[decision.player]
        k = n.bit_length()
        pick = getrandbits(k)
        while pick >= n:
            pick = getrandbits(k)
        return actions[pick]
    return choose


def _generated(program):
    """native.native, imported on first use (the code generator is not every command's)."""
    global _generated
    from .native import native
    _generated = native
    return native(program)


class RandomPlayers:
    """Random players for ``play_game``, one generator per side: each decision draws what
    ``rng.randrange(len(actions))`` would (``random_chooser``), and where the generated rules ask,
    no Decision is made for them.  ``decisions``: how many they took in the game played."""

    def __init__(self, rngs):
        self.rngs = list(rngs)
        self.decisions = 0


def play_game(program, seed: int, choose, options: frozenset = frozenset(), solo: Optional[str] = None,
              difficulty: Optional[str] = None, log: bool = False, notes: bool = True):
    """A whole game in the direct form (batch play, bots): ``choose(decision)`` answers every
    decision of a person's side (or ``choose`` is ``RandomPlayers``); the automa answers its own.
    The final position (and log); without ``notes``, its ``notes`` (what records read besides
    the plays and the final position) are not kept: None."""
    players = choose if isinstance(choose, RandomPlayers) else None
    if players is not None:
        choose = random_chooser(players.rngs)
        players.decisions = 0
    position = program.initial_position(seed)
    if not notes:
        position.notes = None
    automa = None
    if solo is not None:
        from .automa import Automa
        rules = program.automa_rules
        automa = Automa(rules, program.schema.sides.index(solo), program)
        options = options | frozenset(k for k, v in rules.options.items() if v)
        for counter, value in rules.difficulty.get(difficulty or rules.default_difficulty, ()):
            position.values[program.layout.counter[counter] + automa.side] = value
    board = Board(program, position, [] if log else None, automa, options)
    meter, budget = board.meter, limits.MAX_WORK_BETWEEN_DECISIONS
    person = choose
    ask = None  # generated code's way to ask (native.py): by default, choose given a Decision
    taken = 0  # the random players' decisions
    if players is not None:
        draw = choose

        def person(decision):
            nonlocal taken
            taken += 1
            return draw(decision)
        if automa is None:
            bits = [rng.getrandbits for rng in players.rngs]

            def ask(player, actions, spec, remaining, owner, on_behalf, ctx):
                # random_chooser's draw and the meter's reset (below) written in, without a Decision
                nonlocal taken
                taken += 1
                n = len(actions)
                getrandbits = bits[player]
                k = n.bit_length()
                pick = getrandbits(k)
                while pick >= n:
                    pick = getrandbits(k)
                meter[0] = budget
                return actions[pick]
    if automa is not None:
        def choose(decision):
            action = automa.choose(board, decision) if decision.player == automa.side else person(decision)
            meter[0] = budget  # a decision was made: the work of what follows is counted from nothing
            return action
    else:
        def choose(decision):
            action = person(decision)
            meter[0] = budget  # (ops.decided)
            return action
    generated = _generated(program)
    try:
        if generated is None or not generated.play(program.main, board, Ctx(0), choose, ask):
            program.main.play(board, Ctx(0), choose)
    except Won:
        pass
    if players is not None:
        players.decisions = taken
    return position, board.log
