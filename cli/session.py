"""A game being played or watched, whatever shows it: the layer both front-ends drive.

The line mode (``linemode``) and the full-screen interface (``tui``) show the
same ``GameSession``: it holds the game (the general engine's ``Game``), the
controllers (a person at this terminal, or a bot: any controller of
``crisis.interpreter.players.registry``, found by its ``name``), the feed each
player has seen, and reads what a player types.  It holds no game logic: the
engine decides what is legal and what happens.

The game is saved after every action (seed, options, controllers, actions),
so a crash, Ctrl-C or the end of input never loses it.  Undo and resume
rebuild the game by replaying the actions from the seed; bots are rebuilt the
same way (each is asked again at each of its past decisions), so a resumed
game continues exactly as an uninterrupted one.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import attrs

from crisis.content.model import Content
from crisis.interpreter.actions import Action, Decision
from crisis.interpreter.engine.board import LogEntry
from crisis.interpreter.engine.game import Game, IllegalAction, Options, option_names
from crisis.interpreter.engine.layout import NOBODY
from crisis.interpreter.players.registry import (Controller, RandomBot, UnknownController, controller_factories,
                                                 controller_factory, controller_for)
from crisis.interpreter.preview import rule_uses
from crisis.ruleset.diagnostics import shown

from . import saves
from .errors import CliError
from .paths import command_line, file_to_write, shown_path
from .text import STEP_KEYS, Presenter, fold
from .typed import too_long, too_long_text, typed_number
from crisis.interpreter.engine.program import program_of


DEFAULT_BOT = RandomBot.name
COMMANDS = ("help", "undo", "card", "log", "rules", "board", "quit", "why")
REPLAY_COMMANDS = ("quit", "back", "round", "branch", "final", "help")


def bots() -> Dict[str, Callable[[int, int], Controller]]:
    """Every controller by its ``name`` (the name saved in game files).

    A controller is built as ``factory(seed, side)``.  A new one needs no change here: subclass
    ``Controller`` with a ``name`` (or register a factory); set ``default_opponent = True`` on it
    to make it the one ``--vs bot`` chooses.
    """
    return controller_factories()


class KnownBots:
    """The bot names a game may name: every registered controller, with or without a setting
    after a colon (``search:200``, ``search:500ms``), as ``controller_factory`` reads them."""

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        try:
            controller_factory(name)
        except (UnknownController, ValueError):
            return False
        return True


def bot_problem(catalog, error: ValueError) -> str:
    """Why a bot's name or setting cannot be used, in the catalog's language."""
    key = getattr(error, "key", "")
    if key and catalog.raw(f"cli.error.bot_reason.{key}") is not None:
        params = {name: f"{value:,}".replace(",", catalog.raw("cli.number.thousands") or ",")
                  if isinstance(value, int) else value for name, value in error.params.items()}
        return catalog.text(f"cli.error.bot_reason.{key}", **params)
    return str(error)


def default_bot() -> str:
    registry = bots()
    preferred = [name for name, cls in registry.items() if getattr(cls, "default_opponent", False)]
    return preferred[0] if preferred else DEFAULT_BOT


def controller_text(catalog, name: str) -> str:
    base, _, setting = name.partition(":")
    key = f"cli.controller.{base}"
    text = catalog.text(key) if catalog.raw(key) is not None else base
    if not setting:
        return text
    from crisis.content.bots import Budget
    try:
        budget = Budget.parse(setting)
    except ValueError:
        return catalog.text("cli.controller.setting", bot=text, setting=setting)
    if budget.milliseconds:
        return catalog.text("cli.controller.milliseconds", bot=text, n=f"{budget.milliseconds:g}")
    return catalog.text("cli.controller.iterations", bot=text, n=budget.iterations)


def match_side(given: str, content: Content, show: Presenter) -> int:
    """The side whose name (as the game declares it, or in the locale) starts with ``given``, case-insensitive."""
    wanted = fold(given)
    sides = program_of(content).schema.sides
    found = [i for i, side in enumerate(sides)
             if wanted and (fold(side).startswith(wanted) or fold(show.side(side)).startswith(wanted))]
    if len(found) != 1:
        names = [show.side(s) for s in sides]
        raise CliError(show.catalog.text("cli.error.side", given=given, sides=", ".join(names)))
    return found[0]


def options_of(content: Content, saved: dict) -> Options:
    """A game's options as a save holds them (the content's optional rules by name, the solo game's side
    and difficulty)."""
    return Options.from_dict(saved, option_names(program_of(content)))


def saved_options(program, options: Options) -> dict:
    """Options as a save holds them: each of the content's optional rules, on or off, then the solo
    game's side and difficulty when it has them (the keys saves have always had)."""
    out = {name: name in options.flags for name in option_names(program)}
    out.update({k: v for k, v in (("solo", options.solo), ("difficulty", options.difficulty)) if v is not None})
    return out


class InvariantBroken(Exception):
    """An action left the game in a position the rules forbid."""


def apply_checked(game: Game, action) -> List[str]:
    """Apply an action to a game; the invariants it broke (none, normally): the position's, and
    that nothing changed under a marker that blocks it and counters changed only as logged."""
    from crisis.interpreter.designer.invariants import check_position, check_transition, counters_logged
    program = game.program
    before = game.position.copy()
    start = len(game.log) if game.log is not None else None
    game.apply(action)
    if start is None:
        return check_position(program, game.position)
    return check_transition(program, before, game.position, counters_logged(program, game.log, start))


def broken_message(game: Game, problems: Sequence[str]) -> str:
    n = len(game.history)
    return f"after action {n} ('{game.history[-1]}'), the rules were broken: " + "; ".join(problems)


# ------------------------------------------------------------------ reading input


def _reference(catalog):
    """The last catalog behind ``catalog``: English, whose command words every language takes too."""
    while getattr(catalog, "fallback", None) is not None:
        catalog = catalog.fallback
    return catalog


def _words(catalog, command: str) -> list:
    text = catalog.raw(f"cli.command.{command}")
    return fold(catalog.text(f"cli.command.{command}")).split() if text is not None else []


def command_of(catalog, word: str, commands: Sequence[str] = COMMANDS) -> Optional[str]:
    """The command a typed word names, in the player's language, else in English (``cli.command.*``):
    'quit' stops a game in any language, whether or not its catalog repeats the English words."""
    word = fold(word)
    for words_of in (catalog, _reference(catalog)):
        for command in commands:
            if word in _words(words_of, command):
                return command
    return None


def command_in(catalog, text: str, commands: Sequence[str] = COMMANDS) -> Tuple[Optional[str], str]:
    """(command, the rest of the line) of a typed line that starts with a command's word, else
    (None, ""): a word of ``cli.command.*`` as ``command_of``, or several words a catalog's alias
    joins with '_' ("por_qué" is typed "por qué" or "por que"); the longest alias that fits wins,
    the language's own before English."""
    words = text.split()
    typed = [fold(word) for word in words[:4]]
    found, length = None, 0
    for words_of in (catalog, _reference(catalog)):
        for command in commands:
            for alias in _words(words_of, command):
                parts = [part for part in alias.split("_") if part] or [alias]
                if len(parts) > length and typed[:len(parts)] == parts:
                    found, length = command, len(parts)
        if found is not None:
            break
    if found is None:
        return None, ""
    rest = text.strip().split(None, length)
    return found, rest[length].strip() if len(rest) > length else ""


def command_word(catalog, command: str) -> str:
    """The word shown for a command: the first of the language's own words."""
    return catalog.text(f"cli.command.{command}").split()[0]


@attrs.frozen
class Reading:
    """What one typed line means at a decision."""

    kind: str  # "action" | "command" | "problem" | "source" | "back"
    action: Optional[Action] = None
    command: str = ""
    rest: str = ""
    problem: str = ""  # the reason, in the player's language, when kind is "problem"
    source: int = -1  # a move's source, chosen before its destination


@attrs.frozen
class Choice:
    """One line of a menu: a legal action, or (for a move) the place tokens come from."""

    notation: str
    description: str
    action: Optional[Action] = None
    source: int = -1  # set for "from here" entries of the two-step move menu
    back: bool = False  # "choose another source"


# ------------------------------------------------------------------ the rounds


class Rounds:
    """The shape of a game's passes, read from its sequence of play: the loop over a counter (the
    round), the steps of a pass, and which of them come after the players' turns (the pivotal
    bonuses and the scoring, in Fort Sumter): a pass's end, summed up once it is over."""

    def __init__(self, program):
        from crisis.interpreter.engine.sequence import AlternateOp, ForEachCounterOp, StepOp, WinOp
        self.program = program
        self.loop = _first(program.main, ForEachCounterOp)
        self.counter = program.schema.counters[self.loop.counter].name if self.loop is not None else None
        steps = [op for op in _children(self.loop.body)] if self.loop is not None else []
        steps = [op for op in steps if isinstance(op, StepOp)]
        self.steps = tuple(op.name for op in steps)  # the steps of a pass, in order
        turns = next((i for i, op in enumerate(steps) if _first(op, AlternateOp) is not None), None)
        self.end_steps = frozenset(op.name for op in steps[turns + 1:]) if turns is not None else frozenset()
        win = next((op for op in program.ops if isinstance(op, WinOp) and op.counter >= 0), None)
        self.score = program.schema.counters[win.counter].name if win is not None else None
        # the players' turns: the counter that counts them (its log entry ends a turn) and the
        # steps within a turn (a step's log entry outside these starts something else)
        alternate = _first(program.main, AlternateOp)
        self.turn_counter = program.schema.counters[alternate.counter].name if alternate is not None else None
        self.turn_steps = frozenset(op.name for op in _every(alternate.body, StepOp)) \
            if alternate is not None else frozenset()

    def in_loop(self, game) -> bool:
        """Whether the game stands inside a pass of the loop (not before it, nor after it)."""
        return self.loop is not None and any(frame[0] == self.loop.id for frame in game.position.stack)

    def value(self, game) -> int:
        return game.view.counter(self.counter) if self.counter is not None else 0


def _children(op) -> list:
    """An operation's operations, in order (a block's statements)."""
    from crisis.interpreter.engine.ops import Op
    out = []
    for value in vars(op).values():
        for child in value if isinstance(value, (list, tuple)) else (value,):
            if isinstance(child, Op):
                out.append(child)
    return out


def _walk(op):
    """``op`` and every operation in it, each once, statements in order."""
    stack, seen = [op], set()
    while stack:
        op = stack.pop(0)
        if op is None or id(op) in seen:
            continue
        seen.add(id(op))
        yield op
        stack = _children(op) + stack


def _first(op, kind):
    """The first operation of a kind in ``op`` (itself included), walking its statements in order."""
    return next((found for found in _walk(op) if isinstance(found, kind)), None)


def _every(op, kind) -> list:
    """Every operation of a kind in ``op`` (itself included)."""
    return [found for found in _walk(op) if isinstance(found, kind)]


def turns_without_choice(log, start: int, rounds: Rounds, side: str) -> List[int]:
    """The log indices where the turns of ``side`` end that began after the log's first ``start``
    entries (its last decision): whole turns in which it had nothing to choose, which the feed
    says (the log alone shows only what was done, and a turn in which a side could pay for
    nothing does nothing)."""
    if rounds.turn_counter is None:
        return []
    out, began = [], False
    for index in range(max(start, 0), len(log)):
        entry = log[index]
        if entry.key == "log.counter" and entry.params.get("counter") == rounds.turn_counter \
                and entry.params.get("n", 0) > 0:  # a turn counted (not the count set back)
            if began and entry.params.get("side") == side:
                out.append(index)
            began = True  # a turn ended: the next one begins here
        elif entry.key == "log.step" and entry.params.get("step") not in rounds.turn_steps:
            began = True  # a step outside the turns: any turn after it begins after it
    return out


TURN_WITHOUT_CHOICE = "log.turn_without_choice"


def rounds_of(program) -> Rounds:
    """The program's rounds, worked out once and kept on the program (so they go when it does:
    a table of every program asked about would keep each one alive)."""
    found = getattr(program, "_rounds", None)
    if found is None:
        found = program._rounds = Rounds(program)
    return found


# ------------------------------------------------------------------ the feed


@attrs.frozen
class RoundEnd:
    """What the end of a round did, from the log: the steps after the turns (bonuses, scoring)."""

    round: int
    entries: Tuple[object, ...]  # as the feed shows them
    vp_before: Tuple[int, ...]
    vp_after: Tuple[int, ...]


def score_at(log, index: int, counter: Optional[str], sides: Sequence[str], now: Sequence[int]) -> Tuple[int, ...]:
    """Each side's score after the first ``index`` log entries, counted back from ``now`` (the
    score after the whole log: a side may start with some, as the automa does)."""
    score = list(now)
    for entry in log[index:]:
        if entry.key == "log.counter" and entry.params.get("counter") == counter and entry.params.get("side") in sides:
            score[sides.index(entry.params["side"])] -= entry.params["n"]
    return tuple(score)


GAME_OVER = "log.game_over"


def before_result(log) -> list:
    """The log without its last entry where that entry says who won: the final score, shown
    right after it, names the winner (once, not again in the feed above it)."""
    log = list(log or [])
    return log[:-1] if log and log[-1].key == GAME_OVER else log


def round_ends(log, start: int, rounds: Rounds, sides: Sequence[str], score: Sequence[int], show: Presenter,
               automa: Optional[int] = None, over: bool = False) -> List[RoundEnd]:
    """Every round end (from the first step after the players' turns to the next pass, the steps
    after the loop or the end of the game) that is over, with what it did, and was not over yet
    when the log held ``start`` entries (a player who saw it whole is not shown it again).  A round
    end still under way is left for later: its score is not known yet."""
    out = []
    if not rounds.end_steps:
        return out
    index = 0
    while index < len(log):
        entry = log[index]
        if entry.key != "log.step" or entry.params.get("step") not in rounds.end_steps:
            index += 1
            continue
        end = index + 1
        while end < len(log) and not (log[end].key == GAME_OVER or (
                log[end].key == "log.step" and log[end].params.get("step") not in rounds.end_steps)):
            end += 1
        if not ((end == len(log) and not over) or end < start):
            number = (entry.params.get("counters") or {}).get(rounds.counter, 0)
            out.append(RoundEnd(round=number, entries=tuple(show.shown(log[index + 1:end], automa)),
                                vp_before=score_at(log, index, rounds.score, sides, score),
                                vp_after=score_at(log, end, rounds.score, sides, score)))
        index = end
    return out


class GameSession:
    """A game at a terminal: its controllers, its save file and what each player has seen."""

    def __init__(self, content: Content, show: Presenter, seed: int, options: Options,
                 controllers: Sequence[str], path: Path, actions: Sequence[str] = (), created: str = ""):
        self.content = content
        self.show = show
        self.c = show.catalog
        self.seed = seed
        self.options = options
        self.program = program_of(content)
        self.sides: Tuple[str, ...] = tuple(self.program.schema.sides)
        self.rounds = rounds_of(self.program)
        self.controllers = list(controllers)  # per side: saves.HUMAN, saves.SOLO or a bot name
        self.humans = [name == saves.HUMAN for name in self.controllers]
        self.hotseat = all(self.humans)
        self.path = path
        self.created = created or saves.now_stamp()
        self.save_failed = False
        self.failure = None  # why the last write failed (a saves.SystemReason)
        self.on_disk: Optional[int] = None  # actions the save file holds, as far as this session knows
        n = len(self.sides)
        self.seen = [0] * n  # log entries each side had been shown at its last turn
        self.snapshot: List[Optional[List[List[int]]]] = [None] * n  # tokens each side saw then
        self._marks: List[tuple] = []  # (actions taken, side, seen, snapshot) before each mark_seen, for undo
        self.check = False  # crisis play --check: the rules' invariants after every action
        self._view_key, self._view = None, (0, set())  # see view()
        self._shown: Tuple[int, list] = (-1, [])  # (log entries, the feed they make): see shown_log()
        self.rebuild(actions)
        # a game resumed or branched: what each side had seen at its last turn (its last action's
        # decision), so the feed holds what is new since then, not the whole game
        for side, (seen, tokens) in self._turns.items():
            self.seen[side], self.snapshot[side] = seen, tokens

    # ------------------------------------------------------------ the game
    @property
    def automa(self):
        """The side the game plays itself (its content's automa), or None."""
        return self.game.automa

    @property
    def automa_side(self) -> Optional[int]:
        return self.game.automa.side if self.game.automa is not None else None

    def make_bots(self) -> List[Optional[Controller]]:
        # the automa is no controller: the engine answers its decisions from the content
        return [None if human or name == saves.SOLO else controller_factory(name)(self.seed, side)
                for side, (human, name) in enumerate(zip(self.humans, self.controllers))]

    def tokens(self) -> List[List[int]]:
        return self._tokens_of(self.game)

    def _tokens_of(self, game) -> List[List[int]]:
        """Each side's tokens in each place, as they stand."""
        view = game.view
        return [list(view.tokens_of(side)) for side in range(len(self.sides))] if self.program.schema.tokens else []

    def rebuild(self, actions: Sequence[str]) -> None:
        """The game after ``actions`` from the seed; bots are asked again at their decisions
        so that their generators are where an uninterrupted game would have left them."""
        game = Game.of(self.content, self.seed, self.options)
        bots = self.make_bots()
        actors: List[int] = []
        turns: Dict[int, tuple] = {}  # side: (log entries, tokens) when its last decision came
        for text in actions:
            # an older save may hold a whole order of cards as one action
            steps = game.expand(text)
            if steps is None:
                raise IllegalAction(text)
            for step in steps:
                decision = game.decision
                bot = bots[decision.player]
                if bot is not None and not getattr(bot, "stateless", False):
                    bot.choose(game, decision)
                actors.append(decision.player)
                turns[decision.player] = (len(game.log or []), self._tokens_of(game))
                game.apply(step)
        self.game, self.bots, self.actors, self._turns = game, bots, actors, turns
        self._plays: Dict[tuple, object] = {}  # (actions taken, action): what playing it would do
        self._shown = (-1, [])
        size = len(game.log or [])
        self.seen = [min(s, size) for s in self.seen]

    @property
    def decision(self) -> Optional[Decision]:
        return self.game.decision

    @property
    def over(self) -> bool:
        return self.game.over

    def bot_to_move(self) -> bool:
        decision = self.game.decision
        return decision is not None and self.bots[decision.player] is not None

    def apply(self, action: Action) -> Optional[str]:
        """Take a legal action and save; the save problem in words, if the file could not be written.

        With ``check``, an action that breaks the rules' invariants raises
        InvariantBroken once the game is saved (so that the file reproduces it).
        """
        player = self.game.decision.player
        problems: List[str] = []
        if self.check:
            problems = apply_checked(self.game, action)
        else:
            self.game.apply(action)
        self.actors.append(player)
        problem = self.save()
        if problems:
            raise InvariantBroken(broken_message(self.game, problems))
        return problem

    def bot_choice(self, decision: Decision) -> Action:
        """What the bot whose decision it is would do.  It only reads the game (bots search on
        copies), so the full-screen interface asks it in a thread while the screen stays live."""
        return self.bots[decision.player].choose(self.game, decision)

    def bot_move(self) -> Tuple[int, Action, Optional[str]]:
        """Let the bot whose decision it is choose and act: (side, action, save problem)."""
        decision = self.game.decision
        action = self.bot_choice(decision)
        return decision.player, action, self.apply(action)

    def saved_game(self) -> saves.SavedGame:
        return saves.SavedGame(game=saves.game_name(self.content), digest=self.content.digest, seed=self.seed,
                               options=saved_options(self.program, self.options),
                               controllers=dict(zip(self.sides, self.controllers)),
                               actions=list(self.game.history), created=self.created,
                               automa=automa_record(self.content, self.game), language=self.chosen_language())

    def chosen_language(self) -> str:
        """The language the game is shown in where the command alone would speak another (the
        player chose it with --lang, or the save did): kept in the save, so that ``crisis resume
        FILE`` goes on in it; "" where the command alone speaks it."""
        from .words import choose_language
        return self.c.lang if self.c.lang != choose_language(None, self.content) else ""

    def save(self) -> Optional[str]:
        """Write the save file atomically.  None when all is well, else what to tell the player:
        that it could not be written (``save_failed`` is then set), or that it is written again."""
        try:
            saves.write_atomic(self.path, self.saved_game().to_json())
        except OSError as error:
            self.save_failed = True
            self.failure = saves.SystemReason.of(error.errno or 0, error.strerror or str(error))
            return self.c.text("cli.save.write_failed", file=shown_path(self.path),
                               error=self.show.system_reason(self.failure))
        self.on_disk = len(self.game.history)
        if self.save_failed:
            self.save_failed = False
            return self.c.text("cli.save.write_ok_again", file=shown_path(self.path))
        return None

    def command(self, word: str) -> str:
        """``crisis resume FILE`` (or replay...) for this game's file, as it can be pasted; with
        ``--content`` when the game is played on a content folder that is not a shipped game."""
        return command_line(word, self.path, self.content)

    def resume_hint(self) -> str:
        return self.c.text("cli.resume_hint", command=self.command("resume"))

    def replay_hint(self) -> str:
        """At the end of a game: where the whole of it is saved, or (when the last write failed)
        how much of it the file holds."""
        if self.save_failed:
            return self.unsaved_text()
        return self.c.text("cli.end.saved", file=shown_path(self.path), command=self.command("replay"))

    def unsaved_text(self) -> str:
        """What the save file holds when the last write failed: never "saved" unless it was."""
        text = self.c.text("cli.save.not_saved", file=shown_path(self.path), n=self.on_disk or 0,
                           total=len(self.game.history))
        return text + ("\n" + self.resume_hint() if self.on_disk else "")

    def seed_shown(self) -> bool:
        """In hot seat the seed (which with the actions tells the deck) is kept for the end."""
        return not self.hotseat or self.game.over

    # ------------------------------------------------------------ undo
    def undo(self, player: int) -> Tuple[bool, str]:
        """Take back ``player``'s last action (and any bot actions after it) if nothing
        hidden or random has been revealed since.  (done, what to say)."""
        game = self.game
        mine = [i for i, actor in enumerate(self.actors) if actor == player]
        if not mine:
            return False, self.c.text("cli.undo.nothing")
        k = mine[-1]
        later = self.actors[k + 1:]
        if any(self.bots[actor] is None for actor in later):
            other = next(actor for actor in later if self.bots[actor] is None)
            return False, self.c.text("cli.undo.other_player", other=self.show.side(self.sides[other]))
        if game.view.reveals != game.reveals_before[k]:
            return False, self.c.text("cli.undo.revealed")
        taken = game.history[k]
        self.rebuild(game.history[:k])
        while self._marks and self._marks[-1][0] >= k:  # what each player had seen back then
            _, side, seen, snapshot = self._marks.pop()
            self.seen[side], self.snapshot[side] = seen, snapshot
        self._view_key = None
        problem = self.save()
        decision = self.game.decision
        action = decision.find(taken) if decision is not None else None
        described = self.show.action(self.game, decision, action) if action is not None else taken
        text = self.c.text("cli.undo.done", action=described, bot=len(later))
        return True, text + (f"\n{problem}" if problem else "")

    # ------------------------------------------------------------ feed
    def shown_log(self) -> list:
        """The log as players read it: a line per entry the catalog says (``Presenter.shown``)."""
        return [entry for _, entry in self._shown_lines()]

    def _shown_lines(self) -> list:
        """(log index, line's entry) of the feed, made as the log grows (the lines of the entries
        after a decision do not depend on those before it)."""
        log = self.game.log or []
        size, lines = self._shown
        if size > len(log) or size < 0:
            size, lines = 0, []
        if size < len(log):
            lines = lines + self.show.shown_at(log[size:], self.automa_side, size)
            self._shown = (len(log), lines)
        return lines

    def shown_count(self, entries: int) -> int:
        """How many lines of the feed the first ``entries`` log entries make."""
        import bisect
        return bisect.bisect_left([index for index, _ in self._shown_lines()], entries)

    def feed(self, viewer: int) -> Tuple[int, list]:
        """(index of the first new line, the whole feed): everything since ``viewer``'s last turn,
        with a line after each whole turn of ``viewer``'s in which it had nothing to choose."""
        lines = list(self.shown_log())
        side = self.sides[viewer]
        for end in reversed(turns_without_choice(self.game.log or [], self.seen[viewer], self.rounds, side)):
            lines.insert(self.shown_count(end + 1), LogEntry(TURN_WITHOUT_CHOICE, {"side": side}))
        return self.shown_count(self.seen[viewer]), lines

    def round_ends_since(self, viewer: int) -> List[RoundEnd]:
        """The ends of rounds over since ``viewer``'s last turn, each shown once it is over: after
        the scoring, not at a decision of its bonuses."""
        score = self.rounds.score
        now = tuple(self.game.view.counter(score, side) for side in range(len(self.sides))) if score else ()
        return round_ends(self.game.log or [], self.seen[viewer], self.rounds, self.sides, now, self.show,
                          self.automa_side, over=self.game.over)

    def changed_spaces(self, viewer: int) -> set:
        """Places whose tokens changed since ``viewer``'s last turn (highlighted on the board)."""
        before = self.snapshot[viewer]
        if not before:
            return set()
        now = self.tokens()
        return {p for p in range(len(self.program.schema.map.places))
                if any(before[i][p] != now[i][p] for i in range(len(now)))}

    def view(self, viewer: int) -> Tuple[int, set]:
        """What is new for ``viewer`` at this turn: (first new line of the feed, places changed), now
        marked as seen.  Asked again at the same turn (the screen drawn again), the same answer."""
        key = (viewer, len(self.game.history))
        if self._view_key != key:
            self._view = (self.shown_count(self.seen[viewer]), self.changed_spaces(viewer))
            self._view_key = key
            self.mark_seen(viewer)
        return self._view

    def mark_seen(self, viewer: int) -> None:
        self._marks.append((len(self.game.history), viewer, self.seen[viewer], self.snapshot[viewer]))
        self.seen[viewer] = len(self.game.log or [])
        self.snapshot[viewer] = self.tokens()

    def turn_lines(self, side: int) -> List[str]:
        """What ``side``'s turn did, in words (the hot-seat hand-over tells it to both): the feed from
        the first screen of its turn, the run of screens ``side`` saw with nobody else's between."""
        run = []
        for mark in reversed(self._marks):
            if mark[1] != side:
                break
            run.append(mark)
        # each mark keeps what its side had seen before that screen: the turn's first screen saw
        # up to what the next mark of the run had seen before it (or what it has seen now)
        start = run[-2][2] if len(run) > 1 else self.seen[side]
        return self.recent_lines(start)

    def recent_lines(self, since: int) -> List[str]:
        """The feed's lines from the log's entry ``since`` on, in words."""
        return [self.show.log_line(entry) for entry in self.shown_log()[self.shown_count(since):]]

    # ------------------------------------------------------------ words
    def command_of(self, word: str, commands: Sequence[str] = COMMANDS) -> Optional[str]:
        return command_of(self.c, word, commands)

    def command_word(self, command: str) -> str:
        return command_word(self.c, command)

    # ------------------------------------------------------------ choices
    def two_step(self, decision: Decision) -> bool:
        """A move with several sources, each with several destinations, is chosen as
        *from* then *to* (moves can be long lists)."""
        if decision is None or decision.kind != "move":
            return False
        sources: Dict[int, int] = {}
        for action in decision.actions:
            if action.kind == "move":
                sources[(action.side, action.a)] = sources.get((action.side, action.a), 0) + 1
        return len(sources) > 1 and max(sources.values()) > 1

    def choices(self, decision: Decision, source: Optional[Tuple[int, int]] = None) -> List[Choice]:
        """The menu for a decision; for a two-step move, the sources first, then one source's moves."""
        game, show = self.game, self.show
        if not self.two_step(decision):
            return [Choice(show.notation(game, a), show.action(game, decision, a), action=a)
                    for a in decision.actions]
        out: List[Choice] = []
        if source is None:
            seen = []
            for action in decision.actions:
                if action.kind != "move":
                    out.append(Choice(show.notation(game, action), show.action(game, decision, action),
                                      action=action))
                    continue
                key = (action.side, action.a)
                if key in seen:
                    continue
                seen.append(key)
                count = sum(1 for a in decision.actions if a.kind == "move" and (a.side, a.a) == key)
                out.insert(len(seen) - 1, Choice(show.move_source(game, action),
                                                 show.move_source_text(game, decision, action, count),
                                                 source=len(seen) - 1))
            return out
        for action in decision.actions:
            if action.kind == "move" and (action.side, action.a) == source:
                out.append(Choice(show.notation(game, action), show.action(game, decision, action), action=action))
        # listed by its command word, as typing it takes it (the menu says "an action as listed")
        out.append(Choice(self.command_word("back"), self.c.text("cli.move.back"), back=True))
        return out

    def sources(self, decision: Decision) -> List[Tuple[int, int]]:
        keys: List[Tuple[int, int]] = []
        for action in decision.actions:
            if action.kind == "move" and (action.side, action.a) not in keys:
                keys.append((action.side, action.a))
        return keys

    def read(self, line: str, decision: Decision, menu: Sequence[Choice]) -> Reading:
        """What a typed line means: a number from the menu, an action in either notation or the
        start of one, or a command word."""
        n = len(menu)
        if too_long(line):  # before any work on it: comparing a megabyte with every choice took seconds
            return Reading("problem", problem=too_long_text(self.c))
        text = line.strip()
        if not text:
            return Reading("problem", problem=self.c.text("cli.input.empty", n=n))
        command, rest = command_in(self.c, text)
        if command is not None:
            return Reading("command", command=command, rest=rest)
        number = typed_number(text)
        if number is not None:
            if not 1 <= number <= n:
                return Reading("problem", problem=self.c.text("cli.input.out_of_range", number=shown(text), n=n))
            return self._chosen(menu[number - 1])
        action = self.show.find_action(self.game, decision, text)
        if action is not None:
            return Reading("action", action=action)
        matches = self.show.prefix_matches(self.game, decision, text)
        if len(matches) == 1:
            return Reading("action", action=matches[0])
        if matches:
            names = [self.show.notation(self.game, a) for a in matches]
            listed = ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")
            return Reading("problem", problem=self.c.text("cli.input.ambiguous", text=shown(text), n=len(names),
                                                           names=listed))
        for choice in menu:  # a source typed by name ("from Washington", or just "Washington")
            if choice.source >= 0 and fold(text) in (fold(choice.notation), fold(choice.notation.split(" ", 1)[-1])):
                return self._chosen(choice)
        labelled = label_matches(text, menu)  # the label shown ("stop" for "12 Stop here")
        if len(labelled) == 1:
            choice = labelled[0]
            if choice.action is not None and not names_whole_label(text, choice) \
                    and not self.can_take_back(choice.action):
                # some words of a label are a guess at what was meant ("march" at a window that
                # offers only the Forced March card): one that cannot be undone is not taken
                return Reading("problem", problem=self.c.text(
                    "cli.input.partial_label", text=shown(text), label=choice.description,
                    number=list(menu).index(choice) + 1))
            return self._chosen(choice)
        if labelled:  # (their numbers: the labels are on the screen)
            numbers = ", ".join(str(list(menu).index(choice) + 1) for choice in labelled)
            return Reading("problem", problem=self.c.text("cli.input.ambiguous_label", text=shown(text),
                                                           n=len(labelled), numbers=numbers))
        return Reading("problem", problem=self.illegal(text, decision, menu))

    def can_take_back(self, action: Action) -> bool:
        """Whether ``action`` could be undone once taken: it shows no hidden card and no chance
        event (tried on a fork of the game, the way ``undo`` would judge it afterwards)."""
        game = self.game
        trial = game.fork()
        trial.apply(action)
        return trial.view.reveals == game.view.reveals

    @staticmethod
    def _chosen(choice: Choice) -> Reading:
        if choice.back:
            return Reading("back")
        if choice.action is None:
            return Reading("source", source=choice.source)
        return Reading("action", action=choice.action)

    def illegal(self, text: str, decision: Decision, menu: Sequence[Choice]) -> str:
        """Why a typed line is no legal action, with the closest choice on the screen or legal
        action if one is near.  Numbers are those of the menu on the screen: a move chosen in two
        steps lists where tokens come from, not every move, so a move meant is suggested by its
        text alone (typing it takes it), never by a number that stands for something else."""
        from crisis.ruleset.diagnostics import did_you_mean
        listed = [choice.notation for choice in menu if choice.notation]
        legal = listed + [self.show.notation(self.game, a) for a in decision.actions]
        guess = did_you_mean(fold(text), [fold(t) for t in legal], cutoff=0.5)
        if guess:
            original = next(t for t in legal if fold(t) == guess)
            number = next((i for i, choice in enumerate(menu, 1) if choice.notation and fold(choice.notation) == guess),
                          None)
            if number is None:
                return self.c.text("cli.input.illegal_guess_typed", text=shown(text), guess=original)
            return self.c.text("cli.input.illegal_guess", text=shown(text), guess=original, number=number)
        return self.c.text("cli.input.illegal", text=shown(text), n=len(menu))

    # ------------------------------------------------------------ consequences
    def consequences(self, decision: Decision, action: Optional[Action], short: bool = False) -> List[str]:
        """What an action would do, in words, where the rules make it visible before it is taken:
        a zone entered and its effect, control of places and groups, where a marker would block.
        ``short`` leaves out the place's name (a menu line already says it) where only one place
        changes hands."""
        from crisis.interpreter.preview import preview
        if action is None:
            return []
        lines: List[str] = []
        c, show, schema = self.c, self.show, self.program.schema
        me = decision.player

        def sides(was: int, now: int) -> dict:
            return {"side": show.side(self.sides[now]) if now != NOBODY else "",
                    "was": show.side(self.sides[was]) if was != NOBODY else "",
                    "gain": "yes" if now != NOBODY else "no",
                    "you": "yes" if (now if now != NOBODY else was) == me else "no"}

        if action.kind == "marker":
            lines.append(c.text("cli.consequence.marker", space=show.space(schema.map.places[action.a]),
                                blocks=_blocks(schema.markers[action.b])))
        if decision.kind == "play_card" and action.kind in rule_uses(self.program):
            return lines + self.play_consequences(decision, action)
        found = preview(self.game, decision, action)
        if not found:
            return lines
        for side, track, zone, first in found.entered:
            lines.append(self._zone_entered(me, side, track, zone, first))
        # the menu line names the place when one changes hands; two (a move's ends) are named each
        named = not short or len(found.spaces) > 1
        for place, was, now in found.spaces:
            key = "cli.consequence.space" if named else "cli.consequence.space_short"
            lines.append(c.text(key, space=show.space(schema.map.places[place]), **sides(was, now)))
        for group, was, now in found.groups:
            lines.append(c.text("cli.consequence.group", group=show.group(schema.map.groups[group].name),
                                **sides(was, now)))
        return lines

    def _zone_entered(self, me: int, side: int, track: int, zone: int, first: bool, sure: bool = True) -> str:
        """A zone a step or a play enters, and what that does when the play ends (one clause: it
        stands in a line of consequences)."""
        c = self.c
        schema = self.program.schema
        rule = self._zone_rule(track, zone, first)
        text = ""
        if rule is not None:
            from crisis.content.phrases import clauses_text
            text = clauses_text(self.content, c, rule).replace("  ", " ")
        name, who = self.show.zone(schema.tracks[track].zones[zone].name), self.show.side(self.sides[side])
        you = "yes" if side == me else "no"
        if sure:
            return c.text("cli.consequence.zone_entered", zone=name, side=who, you=you, effect=text)
        return c.text("cli.consequence.zone_entered_maybe", zone=name, side=who, you=you, effect=text)

    def _zone_rule(self, track: int, zone: int, first: bool):
        """What entering a zone does (the first side to enter it, or a later one), or None."""
        rules = self.content.definition.entering.get((track, zone)) if self.content.definition is not None else None
        if not rules:
            return None
        return rules[0] if first or len(rules) < 2 or rules[1] is None else rules[1]

    def _zone_score(self, track: int, zone: int, first: bool) -> Optional[int]:
        """The score that entering a zone changes for the side entering it, as its effect's words
        say it ("then lose 1 VP": -1), 0 where they say none, None where they say it otherwise than
        as a number of its own statements (under a condition, for each ...)."""
        from crisis.interpreter.preview import score_counter
        from crisis.ruleset import meaning as M
        from crisis.ruleset.walk import meanings
        rule = self._zone_rule(track, zone, first)
        score = score_counter(self.program)
        if rule is None or score < 0:
            return 0
        total = 0
        for statement in (rule.statements if isinstance(rule, M.Block) else (rule,)):
            if (isinstance(statement, M.ChangeCounter) and statement.counter == score and statement.per is None
                    and isinstance(statement.amount, M.Literal) and statement.side in (None, M.ME)):
                total += statement.sign * statement.amount.value
                continue
            # (a change of the score said otherwise: its number is not read here)
            if any(isinstance(node, M.ChangeCounter) and node.counter == score for node in meanings(statement)):
                return None
        return total

    def _play_found(self, decision: Decision, action: Action):
        from crisis.interpreter.preview import play_preview
        key = (len(self.game.history), action.text)
        if key not in self._plays:
            if len(self._plays) > 16:
                self._plays.clear()
            self._plays[key] = play_preview(self.game, decision, action)
        return self._plays[key]

    def play_consequences(self, decision: Decision, action: Action) -> List[str]:
        """What playing a card's rule would do that cannot be taken back: tokens taken off a track,
        zones entered (with their effects), the score won or lost, over every way of answering its
        questions ("may" where the ways differ, or chance or the opponent decides)."""
        found = self._play_found(decision, action)
        if not found:
            return []
        c, me = self.c, decision.player
        lines: List[str] = []
        order = sorted(range(len(found.taken)), key=lambda side: side != me)  # the player's own first
        for side in order:
            low, most = found.taken[side]
            zones = [(track, zone, first, sure) for who, track, zone, first, sure in found.entered if who == side]
            if not zones:
                continue  # (tokens off the track into play, entering no zone: play as usual)
            how = "exactly" if found.sure and low == most else "between" if found.sure and low else "up_to"
            lines.append(c.text("cli.consequence.taken", how=how, low=low, n=most, side=self.show.side(self.sides[side]),
                                you="yes" if side == me else "no"))
            lines += [self._zone_entered(me, side, track, zone, first, sure) for track, zone, first, sure in zones]
        for side in order:
            low, high = found.score[side]
            # a score the effects of the zones entered already say ("then lose 1 VP") is not said again:
            # those entered in every way always, the others perhaps
            said = [(self._zone_score(track, zone, first), sure) for who, track, zone, first, sure in found.entered
                    if who == side]
            if said and all(n is not None for n, _ in said):
                always = sum(n for n, sure in said if sure)
                perhaps = [n for n, sure in said if not sure]
                explained = (always + sum(n for n in perhaps if n < 0), always + sum(n for n in perhaps if n > 0))
                if (low, high) == explained:
                    continue
            for n, gain in ((-low, "no"), (high, "yes")):
                if n <= 0:
                    continue
                who, you = self.show.side(self.sides[side]), "yes" if side == me else "no"
                if found.sure and low == high:
                    lines.append(c.text("cli.consequence.vp", n=n, gain=gain, side=who, you=you))
                else:
                    lines.append(c.text("cli.consequence.vp_maybe", n=n, gain=gain, side=who, you=you))
        return lines

    def warnings(self, decision: Decision, action: Optional[Action]) -> List[str]:
        """What a play that cannot be taken back would cost, to be confirmed when it was typed
        without being seen in the choices: the consequences of a card's rule that enters a zone
        or loses score.  Nothing for other actions (each token step can be taken back)."""
        if action is None or decision.kind != "play_card" or action.kind not in rule_uses(self.program):
            return []
        lines = self.play_consequences(decision, action)
        found = self._play_found(decision, action)
        me = decision.player
        costly = found and (any(side == me for side, *_ in found.entered) or found.score[me][0] < 0)
        return lines if costly else []

    def blocked_notes(self, decision: Decision) -> List[str]:
        """Places a marker closes to this decision ("Peace Commissioner: no token may be placed here")."""
        from crisis.interpreter.preview import blocked_spaces
        schema, c = self.program.schema, self.c
        out = []
        for place, m in blocked_spaces(self.game, decision):
            out.append(c.text("cli.consequence.blocked", marker=self.show.marker(schema.markers[m].name),
                              space=self.show.space(schema.map.places[place]), blocks=_blocks(schema.markers[m])))
        return out


def label_matches(text: str, menu: Sequence[Choice]) -> List[Choice]:
    """The choices whose shown label the typed words name: the whole label, or some of its words
    in order, each typed whole but the last, which may be a start of three letters or more."""
    typed = _label_words(text)
    if not any(any(char.isalpha() for char in word) for word in typed):
        return []  # numbers alone ('-1', '2)') name a choice by its number, never a label's "(1)"
    whole = [choice for choice in menu if _label_words(choice.description) == typed]
    if whole:
        return whole
    *complete, last = typed

    def named(words: List[str]) -> bool:
        rest = iter(words)
        return all(word in rest for word in complete) and any(
            word == last or (len(last) >= 3 and word.startswith(last)) for word in rest)

    return [choice for choice in menu if named(_label_words(choice.description))]


def names_whole_label(text: str, choice: Choice) -> bool:
    """Whether the typed words are the choice's whole label."""
    return _label_words(text) == _label_words(choice.description)


def _label_words(text: str) -> List[str]:
    return re.findall(r"\w+", fold(text))


def _blocks(marker) -> str:
    """What a marker forbids in its place, as the catalogs' choice word."""
    if marker.blocks_placement and marker.blocks_removal:
        return "both"
    return "placement" if marker.blocks_placement else "removal" if marker.blocks_removal else "none"


# ------------------------------------------------------------- opening games


def automa_record(content: Content, game: Game) -> List[Dict[str, str]]:
    """The automa's choices in the game so far, each with the line it explains and why, in
    English (the canonical language of saved games)."""
    if game.automa is None:
        return []
    english = Presenter(content, content.catalog("en"))
    log, out = game.log or [], []
    for index, entry in enumerate(log):
        if entry.key == "log.solo.choice":
            explained = log[index - 1] if index and log[index - 1].key in STEP_KEYS else None
            out.append({"action": english.log_line(explained) if explained else entry.params["action"],
                        "why": english.trace(entry)})
    return out


def open_saved(content: Content, show: Presenter, path: Path, allow_changed_content: bool = False) -> saves.SavedGame:
    try:
        return saves.read(path, content, KnownBots(), allow_changed_content)
    except saves.SaveProblem as problem:
        thousands = show.catalog.raw("cli.number.thousands") or ","
        params = {k: show.system_reason(v) if isinstance(v, saves.SystemReason)
                  else f"{v:,}".replace(",", thousands) if k == "limit" else v
                  for k, v in problem.params.items()}
        usage = problem.key == "cli.save.missing"  # a mistyped name; anything else is the file's fault
        raise CliError(show.catalog.text(problem.key, **params), code=2 if usage else 1) from None


def session_for(content, show, path: Path, saved: saves.SavedGame) -> GameSession:
    controllers = [saved.controllers[s] for s in program_of(content).schema.sides]
    options = options_of(content, saved.options)
    try:
        session = GameSession(content, show, saved.seed, options, controllers, path, saved.actions, saved.created)
        session.on_disk = len(session.game.history)  # what the file holds, as read
        return session
    except IllegalAction:
        pass
    # find the first action that does not replay, for the message (which names the save's format)
    game = Game.of(content, saved.seed, options, log=False)
    for index, text in enumerate(saved.actions):
        if game.over:
            raise CliError(show.catalog.text("cli.save.too_many", file=str(path), n=index + 1,
                                             version=saved.version), code=1) from None
        try:
            game.apply(text)
        except IllegalAction:
            raise CliError(show.catalog.text("cli.save.bad_action", file=str(path), n=index + 1,
                                             text=shown(text), version=saved.version), code=1) from None
    raise CliError(show.catalog.text("cli.save.damaged", file=str(path), field="actions"), code=1)  # pragma: no cover


def new_session(args, content: Content, show: Presenter, seed: int, options: Options) -> GameSession:
    """The session ``crisis play`` starts: hot seat, or a person against a bot (``--vs``, ``--side``)."""
    c = show.catalog
    sides = program_of(content).schema.sides
    if args.side and not args.vs and not options.solo:
        raise CliError(c.text("cli.error.side_without_vs"))
    if options.solo:
        automa = sides.index(options.solo)
        controllers = [saves.SOLO if i == automa else saves.HUMAN for i in range(len(sides))]
    elif args.vs:
        human = match_side(args.side, content, show) if args.side else 0
        registry = bots()
        bot = default_bot() if args.vs == "bot" else args.vs
        if bot.partition(":")[0] not in registry:
            from crisis.ruleset.diagnostics import did_you_mean
            names = ["bot"] + sorted(registry)
            guess = did_you_mean(bot.partition(":")[0], names)
            if guess:
                raise CliError(c.text("cli.error.vs_guess", given=args.vs, names=", ".join(names), guess=guess))
            raise CliError(c.text("cli.error.vs", given=args.vs, names=", ".join(names)))
        try:
            controller_for(bot, content)  # a setting after the name: search:200, search:500ms
        except (UnknownController, ValueError) as error:
            raise CliError(c.text("cli.error.bot", given=args.vs, reason=bot_problem(c, error)))
        controllers = [saves.HUMAN if i == human else bot for i in range(len(sides))]
    else:
        controllers = [saves.HUMAN] * len(sides)
    # in hot seat the seed is shown when the game is over (GameSession.seed_shown): not in the name
    hotseat = all(controller == saves.HUMAN for controller in controllers)
    path = new_save_path(args, content, show, None if hotseat else seed)
    session = GameSession(content, show, seed, options, controllers, path)
    session.check = getattr(args, "check", False)
    if session.save() is not None and session.save_failed:
        # nothing is played yet: no later action would try again, so the game does not start
        raise CliError(c.text("cli.save.cannot_start", file=shown_path(path),
                              error=session.show.system_reason(session.failure)))
    return session


def hold_file(path: Path, show: Presenter) -> None:
    """This process becomes the one writer of ``path`` (``saves.hold``), or a one-line refusal."""
    try:
        saves.hold(path)
    except saves.SaveProblem as problem:
        params = {k: show.system_reason(v) if isinstance(v, saves.SystemReason) else v
                  for k, v in problem.params.items()}
        raise CliError(show.catalog.text(problem.key, **params), code=1) from None


def new_save_path(args, content: Content, show: Presenter, seed: Optional[int]) -> Path:
    c = show.catalog
    if getattr(args, "save", None):
        path = file_to_write(args.save, "--save", c, beside=saves.NAME_BESIDE)
        hold_file(path, show)  # before looking: two new games of one name cannot both find it free
        if path.exists():
            raise CliError(c.text("cli.error.save_exists", file=shown_path(path),
                                  command=command_line("resume", path, content)))
    else:
        path = saves.default_path(Path.cwd(), saves.game_name(content), seed)
        hold_file(path, show)
    problem = saves.check_writable(path)
    if problem:
        raise CliError(c.text("cli.save.cannot_write", file=str(path), error=problem))
    return path


def reopen(args, content: Content, show: Presenter, hold: bool = False) -> Tuple[Path, saves.SavedGame, GameSession]:
    """The saved game named on the command line, checked and replayed into a session; with
    ``hold``, for this process to write it (and no other while it does)."""
    path = Path(args.file)
    if hold:
        hold_file(path, show)
    saved = open_saved(content, show, path, args.allow_changed_content)
    session = session_for(content, show, path, saved)
    session.check = getattr(args, "check", False)
    return path, saved, session


# ------------------------------------------------------------- watching a game


class Replay:
    """A saved game watched action by action: forward, back, to an action number or a round,
    and a new game branched off at any point (saved as a new file)."""

    def __init__(self, content: Content, show: Presenter, saved: saves.SavedGame, path: Path):
        self.content, self.show, self.saved, self.path = content, show, saved, path
        self.options = options_of(content, saved.options)
        rounds = rounds_of(program_of(content))
        # the round before each action, and whether the game stands in a pass of the rounds' loop
        # (one quick pass, no log); one action per decision, even from an older save that wrote a
        # whole order of cards at once
        game = Game.of(content, saved.seed, self.options, log=False)
        self.actions: List[str] = []
        self.rounds: List[Tuple[int, bool]] = []
        for text in saved.actions:
            for step in game.expand(text) or ():
                self.rounds.append((rounds.value(game), rounds.in_loop(game)))
                self.actions.append(step.text)
                game.apply(step)
        self.finished = game.over
        self.game = Game.of(content, saved.seed, self.options)
        self.position = 0  # actions taken so far
        # what the rounds' loop counts (a round, a turn): the counter of state.yaml, or None
        program = program_of(content)
        self.pass_counter = program.schema.counters[program.counter_index[rounds.counter]] \
            if rounds.counter is not None else None

    def pass_name(self) -> str:
        """The game's word for a pass of its loop in the player's language ("round", "turno"): what
        the replay's jump names (`turn 3` in a game of turns)."""
        counter = self.pass_counter
        if counter is None:
            return self.show.catalog.name("counters", "round", "round")
        return self.show.catalog.name("counters", counter.name, counter.words[0] if counter.words else counter.name)

    def is_pass_word(self, word: str) -> bool:
        """Whether a typed word names the loop's passes, as the player's language, state.yaml or the
        rules call them ('turno', 'turn'): the jump, as 'round' is in every game."""
        counter = self.pass_counter
        if counter is None or not word:
            return False
        return fold(word) in {fold(name) for name in (self.pass_name(), counter.name, *counter.words)}

    @property
    def size(self) -> int:
        return len(self.actions)

    @property
    def automa_side(self) -> Optional[int]:
        return self.game.automa.side if self.game.automa is not None else None

    def go(self, position: int) -> None:
        """Show the game after ``position`` actions (rebuilt from the seed when going back)."""
        position = max(0, min(position, self.size))
        if position < self.position:
            self.game = Game.of(self.content, self.saved.seed, self.options)
            self.position = 0
        while self.position < position:
            self.game.apply(self.actions[self.position])
            self.position += 1

    def shown_log(self, entries: Optional[int] = None) -> list:
        """The game's log so far as players read it (its first ``entries`` entries, if given)."""
        log = self.game.log or []
        return self.show.shown(log if entries is None else log[:entries], self.automa_side)

    def round_start(self, round_number: int) -> Optional[int]:
        """The position where round ``round_number`` begins (its first action), if the game got there."""
        return next((i for i, (r, in_loop) in enumerate(self.rounds) if r == round_number and in_loop), None)

    def after_rounds_start(self) -> Optional[int]:
        """The position of the first action after the rounds (the steps that follow their loop)."""
        seen_loop = False
        for i, (_, in_loop) in enumerate(self.rounds):
            seen_loop = seen_loop or in_loop
            if seen_loop and not in_loop:
                return i
        return None

    def private_shown(self) -> bool:
        """Private choices and hands are shown only once the game is over."""
        return self.finished

    def kept_private(self, decision) -> bool:
        """Whether the choice made at ``decision`` is not shown: a private choice in an unfinished
        game.  A card played is face up once played (only the hand it came from was private);
        what is kept, put away or ordered stays private until the game is over."""
        return decision.hidden and decision.kind != "play_card" and not self.private_shown()

    def next_action(self):
        """(decision, action) about to be taken at the current position, or None at the end."""
        if self.position >= self.size or self.game.decision is None:
            return None
        decision = self.game.decision
        return decision, decision.find(self.actions[self.position])

    def branch(self, position: int, path: Optional[Path] = None) -> GameSession:
        """A new game that continues from ``position`` with the same players, in a new file."""
        position = max(0, min(position, self.size))
        named = path is not None
        if path is None:
            path = branch_path(self.path, position)
        hold_file(path, self.show)
        if named and path.exists():
            raise CliError(self.show.catalog.text("cli.error.save_exists", file=shown_path(path),
                                                  command=command_line("resume", path, self.content)))
        controllers = [self.saved.controllers[s] for s in program_of(self.content).schema.sides]
        session = GameSession(self.content, self.show, self.saved.seed, self.options, controllers, path,
                              self.actions[:position])
        problem = session.save()
        if session.save_failed:
            raise CliError(problem)
        return session


def branch_path(original: Path, position: int) -> Path:
    """``game-branch12.json`` beside the original (``-2``, ``-3`` ... if taken)."""
    base = f"{original.stem}-branch{position}"
    path = original.with_name(base + ".json")
    n = 2
    while path.exists():
        path = original.with_name(f"{base}-{n}.json")
        n += 1
    return path
