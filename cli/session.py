"""Interactive play at a terminal: hot seat, or a person against a bot.

The loop shows the engine's decision, reads a choice (a number or the action
notation) and passes the chosen action back; it holds no game logic.  Each
side has a controller: a person at this terminal, or a bot (any
``crisis.interpreter.controllers.Controller``, found by its ``name``: see ``bots``).

The game is saved after every action (seed, options, controllers, actions),
so a crash, Ctrl-C or the end of input never loses it.  Undo and resume
rebuild the game by replaying the actions from the seed; bots are rebuilt the
same way (each is asked again at each of its past decisions), so a resumed
game continues exactly as an uninterrupted one.
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

from crisis.content.model import Content
from crisis.interpreter.actions import Action, Decision
from crisis.interpreter.controllers import Controller, RandomBot
from crisis.interpreter.game import Game, IllegalAction, Options
from crisis.interpreter.tables import tables_for

from . import info, saves
from .board import Screen
from .errors import CliError
from .terminal import Terminal
from .text import Presenter

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_STOPPED, EXIT_INTERRUPTED = 0, 1, 2, 3, 130

DEFAULT_BOT = RandomBot.name


def bots() -> Dict[str, Callable[[int, int], Controller]]:
    """Every controller class the engine defines, by its ``name`` (the name saved in game files).

    A controller is built as ``Class(seed, side)``.  A new one (the solo opponent) needs no change
    here: subclass ``Controller`` with a ``name``; set ``default_opponent = True`` on it to make it
    the one ``--vs bot`` chooses.
    """
    found: Dict[str, Callable[[int, int], Controller]] = {}

    def walk(cls) -> None:
        for sub in cls.__subclasses__():
            name = getattr(sub, "name", None)
            if name and name != Controller.name:
                found[name] = sub
            walk(sub)

    walk(Controller)
    return found


def default_bot() -> str:
    registry = bots()
    preferred = [name for name, cls in registry.items() if getattr(cls, "default_opponent", False)]
    return preferred[0] if preferred else DEFAULT_BOT


def controller_text(catalog, name: str) -> str:
    key = f"cli.controller.{name}"
    return catalog.text(key) if catalog.raw(key) is not None else name


class Quit(Exception):
    pass


def match_side(given: str, content: Content, show: Presenter) -> int:
    """The side whose name (as in game.yaml, or in the locale) starts with ``given``, case-insensitive."""
    wanted = given.strip().lower()
    sides = content.board.sides
    found = [i for i, side in enumerate(sides)
             if wanted and (side.lower().startswith(wanted) or show.side(side).lower().startswith(wanted))]
    if len(found) != 1:
        names = [show.side(s) for s in sides]
        raise CliError(show.catalog.text("cli.error.side", given=given, sides=", ".join(names)))
    return found[0]


class Session:
    def __init__(self, content: Content, show: Presenter, term: Terminal, seed: int, options: Options,
                 controllers: Sequence[str], path: Path, actions: Sequence[str] = (), created: str = ""):
        self.content = content
        self.show = show
        self.c = show.catalog
        self.term = term
        self.style = term.style
        self.seed = seed
        self.options = options
        self.tables = tables_for(content)
        self.controllers = list(controllers)  # per side: saves.HUMAN or a bot name
        self.humans = [name == saves.HUMAN for name in self.controllers]
        self.hotseat = all(self.humans)
        self.path = path
        self.created = created or saves.now_stamp()
        self.holder: Optional[int] = None  # hot seat: the player who has the terminal now
        self.seen = [0, 0]  # how much of the log each player has been shown
        self.save_failed = False
        self.first_screen = True  # the introduction stays visible above the first screen
        self.rebuild(actions)

    # ------------------------------------------------------------ the game
    def make_bots(self) -> List[Optional[Controller]]:
        registry = bots()
        return [None if human else registry[name](self.seed, side)
                for side, (human, name) in enumerate(zip(self.humans, self.controllers))]

    def rebuild(self, actions: Sequence[str]) -> None:
        """The game after ``actions`` from the seed; bots are asked again at their decisions
        so that their generators are where an uninterrupted game would have left them."""
        game = Game(self.content, self.seed, self.options)
        bots = self.make_bots()
        actors: List[int] = []
        for text in actions:
            # an older save may hold a whole Final Crisis order as one action
            steps = game.expand(text)
            if steps is None:
                raise IllegalAction(text)
            for step in steps:
                decision = game.decision
                bot = bots[decision.player]
                if bot is not None:
                    bot.choose(game, decision)
                actors.append(decision.player)
                game.apply(step)
        self.game, self.bots, self.actors = game, bots, actors
        size = len(game.log or [])
        self.seen = [min(s, size) for s in self.seen]

    def apply(self, action: Action) -> None:
        player = self.game.decision.player
        self.game.apply(action)
        self.actors.append(player)
        self.save()

    def saved_game(self) -> saves.SavedGame:
        return saves.SavedGame(game=self.content.board.game, digest=self.content.digest, seed=self.seed,
                               options=self.options.to_dict(),
                               controllers=dict(zip(self.tables.sides, self.controllers)),
                               actions=list(self.game.history), created=self.created)

    def save(self) -> bool:
        try:
            saves.write_atomic(self.path, self.saved_game().to_json())
        except OSError as error:
            self.save_failed = True
            reason = saves.SystemReason.of(error.errno or 0, error.strerror or str(error))
            self.term.write(self.style.error(self.c.text("cli.save.write_failed", file=str(self.path),
                                                         error=self.show.system_reason(reason))))
            self.term.flush()
            return False
        if self.save_failed:
            self.save_failed = False
            self.term.write(self.c.text("cli.save.write_ok_again", file=str(self.path)))
        return True

    # ------------------------------------------------------------- words
    def words(self, command: str) -> List[str]:
        return self.c.text(f"cli.command.{command}").lower().split()

    def command_of(self, word: str) -> Optional[str]:
        for command in ("help", "undo", "card", "log", "rules", "board", "quit"):
            if word in self.words(command):
                return command
        return None

    def side(self, index: int) -> str:
        return self.style.side(index, self.show.side(self.tables.sides[index]))

    def say(self, key: str, **params) -> None:
        self.term.write(self.c.text(key, **params))

    def problem(self, key: str, **params) -> None:
        """A one-line reason for input that cannot be taken."""
        self.term.write(self.style.error(f"{self.style.error_mark} " + self.c.text(key, **params)))

    def resume_hint(self) -> str:
        return self.c.text("cli.resume_hint", command=f"crisis resume {shlex.quote(str(self.path))}")

    # -------------------------------------------------------------- run
    def run(self, intro: Sequence[str] = ()) -> int:
        try:
            self.term.lines(intro)
            while not self.game.over:
                decision = self.game.decision
                bot = self.bots[decision.player]
                if bot is not None:
                    self.apply(bot.choose(self.game, decision))
                    continue
                self.human_turn(decision)
            self.save()
            self.finish()
            return EXIT_OK
        except EOFError:
            return self.stop("cli.stop.eof", EXIT_STOPPED)
        except KeyboardInterrupt:
            return self.stop("cli.stop.interrupt", EXIT_INTERRUPTED)
        except Quit:
            return self.stop("cli.stop.quit", EXIT_OK)
        except BrokenPipeError:
            raise
        except Exception as error:  # a bug: say so plainly; the game is saved up to the last action
            try:
                self.save()
            except Exception:  # pragma: no cover - the file written after the last action stays
                pass
            print(self.c.text("cli.stop.crash", error=f"{type(error).__name__}: {error}", file=str(self.path)),
                  file=sys.stderr)
            print(self.resume_hint(), file=sys.stderr)
            if os.environ.get("CRISIS_DEBUG"):
                import traceback
                traceback.print_exc()
            return EXIT_FAILED

    def stop(self, key: str, code: int) -> int:
        try:
            saved = self.save()
            self.term.write("")
            self.say(key)
            if saved:
                self.say("cli.stop.saved", file=str(self.path))
                self.term.write(self.resume_hint())
            self.term.flush()
        except KeyboardInterrupt:  # a second Ctrl-C: the file is saved after every action anyway
            pass
        return code

    # ----------------------------------------------------------- a turn
    def human_turn(self, decision: Decision) -> None:
        player = decision.player
        if self.hotseat and self.holder != player:
            if not self.pass_terminal(player):
                return  # the previous player took an action back: look at the decision again
        self.holder = player
        self.draw(decision)
        prompt = self.c.text("cli.prompt.input", player=self.show.side(self.tables.sides[player]),
                             n=len(decision.actions))
        while True:
            line = self.term.ask(prompt)
            if self.handle(line, decision):
                return

    def pass_terminal(self, player: int) -> bool:
        """Hide the screen and wait for the next player.  False if the previous player undid instead."""
        other = self.holder
        if other is not None:  # nothing private has been shown before the first turn
            self.term.clear()
        lines = [self.term.rule(), self.style.bold(self.c.text("cli.pass.title", side=self.side(player)))]
        if other is not None:
            lines.append(self.c.text("cli.pass.hint", side=self.side(player), other=self.side(other)))
        lines.append(self.term.rule())
        self.term.lines(lines)
        prompt = self.c.text("cli.pass.prompt", side=self.show.side(self.tables.sides[player]))
        while True:
            line = self.term.ask(prompt)
            word = line.strip().lower()
            if not word:
                break
            command = self.command_of(word)
            if command == "quit":
                raise Quit
            if command == "undo" and other is not None:
                if self.undo(other):
                    return False
                continue
            if command == "undo":
                self.problem("cli.undo.nothing")
                continue
            self.problem("cli.pass.only_enter", side=self.show.side(self.tables.sides[player]))
        if other is not None:
            self.term.clear()
        return True

    def handle(self, line: str, decision: Decision) -> bool:
        """Act on one input line; True when the decision is settled (an action taken or undone)."""
        text = line.strip()
        n = len(decision.actions)
        if not text:
            self.problem("cli.input.empty", n=n)
            return False
        word, _, rest = text.partition(" ")
        rest = rest.strip()
        command = self.command_of(word.lower())
        if command == "help":
            self.help(decision)
            return False
        if command == "board":
            self.draw(decision)
            return False
        if command == "log":
            self.full_log()
            return False
        if command == "card":
            self.card(rest, decision)
            return False
        if command == "rules":
            self.rules(rest)
            return False
        if command == "undo":
            return self.undo(decision.player)
        if command == "quit":
            raise Quit
        if text.isdigit():
            number = int(text)
            if not 1 <= number <= n:
                self.problem("cli.input.out_of_range", number=number, n=n)
                return False
            self.apply(decision.actions[number - 1])
            return True
        action = self.show.find_action(self.game, decision, text)
        if action is None:
            self.illegal(text, decision)
            return False
        self.apply(action)
        return True

    def illegal(self, text: str, decision: Decision) -> None:
        from crisis.interpreter.actions import normalize
        from crisis.ruleset.diagnostics import did_you_mean
        legal = [self.show.notation(self.game, a) for a in decision.actions]
        guess = did_you_mean(normalize(text), [normalize(t) for t in legal], cutoff=0.6)
        n = len(decision.actions)
        if guess:
            original = next(t for t in legal if normalize(t) == guess)
            number = legal.index(original) + 1
            self.problem("cli.input.illegal_guess", text=text, guess=original, number=number)
        else:
            self.problem("cli.input.illegal", text=text, n=n)

    # ------------------------------------------------------------ undo
    def undo(self, player: int) -> bool:
        """Take back ``player``'s last action (and any bot actions after it) if nothing
        hidden or random has been revealed since."""
        game = self.game
        mine = [i for i, actor in enumerate(self.actors) if actor == player]
        if not mine:
            self.problem("cli.undo.nothing")
            return False
        k = mine[-1]
        later = self.actors[k + 1:]
        if any(self.bots[actor] is None for actor in later):
            other = next(actor for actor in later if self.bots[actor] is None)
            self.problem("cli.undo.other_player", other=self.show.side(self.tables.sides[other]))
            return False
        if game.state.reveals != game.reveals_before[k]:
            self.problem("cli.undo.revealed")
            return False
        taken = game.history[k]
        self.rebuild(game.history[:k])
        self.save()
        decision = self.game.decision
        action = decision.find(taken) if decision is not None else None
        described = self.show.action(self.game, decision, action) if action is not None else taken
        self.term.write(self.style.good(self.c.text("cli.undo.done", action=described, bot=len(later))))
        return True

    # ---------------------------------------------------------- screens
    def screen(self) -> Screen:
        return Screen(self.game, self.show, self.style, self.term.width)

    def draw(self, decision: Decision) -> None:
        scr = self.screen()
        viewer = decision.player
        self.term.new_screen(keep=self.first_screen)
        self.first_screen = False
        lines = scr.header() + [""] + scr.board() + [""] + scr.tracks() + [""]
        lines += scr.public_cards([1 - viewer] if self.humans[viewer] else [0, 1])
        detailed = decision.kind in ("play_card", "keep_objective")
        lines += scr.private(viewer, detailed)
        lines.append("")
        lines.append(self.c.text("cli.panel.recent"))
        lines += scr.log_lines(self.seen[viewer])
        self.seen[viewer] = len(self.game.log or [])
        lines.append("")
        lines += self.decision_lines(decision)
        self.term.lines(lines)

    def decision_lines(self, decision: Decision) -> List[str]:
        lines = [self.style.bold(self.show.prompt(self.game, decision))]
        texts = [self.show.notation(self.game, a) for a in decision.actions]
        width = max(len(t) for t in texts)
        digits = len(str(len(texts)))
        for i, action in enumerate(decision.actions, 1):
            description = self.show.action(self.game, decision, action)
            lines.append(f"  {str(i).rjust(digits)}  {texts[i - 1].ljust(width)}  {self.style.dim(description)}")
        lines.append(self.style.dim(self.c.text("cli.prompt.commands")))
        return lines

    def help(self, decision: Decision) -> None:
        scr = self.screen()
        lines = [""]
        lines += scr.wrap(self.c.text(f"cli.help.{decision.kind}", **info.rules_params(scr)), 2)
        cause = info.cause(self.game.log or [])
        if cause is not None:
            lines += scr.wrap(self.c.text("cli.help.cause", line=self.show.log_line(cause)), 2)
        rule = info.rule_text(scr, decision)
        if rule:
            lines += scr.wrap(self.c.text("cli.help.rule", rule=rule), 2)
        if decision.optional:
            lines += scr.wrap(self.c.text("cli.help.optional"), 2)
        if decision.hidden and self.hotseat:
            lines += scr.wrap(self.c.text("cli.help.hidden"), 2)
        lines += scr.wrap(self.c.text("cli.help.commands", n=len(decision.actions)), 2)
        lines += scr.wrap(self.c.text("cli.help.saved", file=str(self.path)), 2)
        lines.append("")
        self.term.lines(lines)

    def full_log(self) -> None:
        lines = [self.style.bold(self.c.text("cli.log.title"))]
        lines += ["  " + line for line in self.show.log_lines(self.game.log or [])]
        if len(lines) == 1:
            lines.append("  " + self.c.text("cli.log.empty"))
        self.term.lines(lines)

    def card(self, query: str, decision: Optional[Decision]) -> None:
        scr = self.screen()
        if not query:
            self.problem("cli.card.usage")
            return
        found = []
        if query.isdigit() and decision is not None:
            number = int(query)
            if not 1 <= number <= len(decision.actions):
                self.problem("cli.input.out_of_range", number=number, n=len(decision.actions))
                return
            action = decision.actions[number - 1]
            if action.kind in ("value", "event", "claim"):
                found = [(info.STRATEGY, action.a)]
            elif action.kind == "keep":
                found = [(info.OBJECTIVE, action.a)]
            else:
                self.problem("cli.card.no_card_choice", number=number)
                return
        else:
            found, guess = info.find_cards(scr, query)
            if not found:
                self.not_found("cli.card", query, guess)
                return
        if len(found) > 6:
            names = [self.show.card(self.tables.strategy_cards[i].id) if kind == info.STRATEGY
                     else self.show.objective(self.tables.objective_cards[i].id) for kind, i in found]
            self.problem("cli.card.ambiguous", name=query, n=len(found), names=", ".join(names[:8]))
            return
        lines = []
        for kind, index in found:
            lines.append("")
            lines += info.card_text(scr, kind, index)
        lines.append("")
        self.term.lines(lines)

    def not_found(self, prefix: str, query: str, guess) -> None:
        """Nothing is called ``query``: say so, with the nearest name if there is one."""
        if guess:
            self.problem(f"{prefix}.unknown_guess", name=query, guess=guess)
        else:
            self.problem(f"{prefix}.unknown", name=query)

    def rules(self, query: str) -> None:
        scr = self.screen()
        if not query:
            topics = info.rules_topics(self.c)
            lines = [self.c.text("cli.rules_list.title")]
            for topic in topics:
                lines.append("  " + self.c.text("cli.rules_list.item", name=info.topic_title(self.c, topic),
                                                summary=self.c.text(f"cli.rules.{topic}.summary")))
            lines.append(self.c.text("cli.rules_list.usage"))
            self.term.lines(lines)
            return
        found, guess = info.find_topic(self.c, query)
        if not found:
            self.not_found("cli.rules_list", query, guess)
            return
        lines = []
        params = info.rules_params(scr)
        for topic in found[:3]:
            lines.append("")
            lines.append(self.style.bold(self.c.text("cli.rules_list.item", name=info.topic_title(self.c, topic),
                                                     summary=self.c.text(f"cli.rules.{topic}.summary"))))
            lines += scr.wrap(self.c.text(f"cli.rules.{topic}.text", **params), 2)
        lines.append("")
        self.term.lines(lines)

    # ------------------------------------------------------------- end
    def finish(self) -> None:
        scr = self.screen()
        self.term.new_screen()
        lines = scr.header() + [""] + scr.board() + [""] + scr.tracks() + [""]
        lines.append(self.c.text("cli.panel.recent"))
        lines += scr.log_lines(min([self.seen[i] for i in (0, 1) if self.humans[i]] or [0]), least=6, most=20)
        lines.append("")
        lines += result_lines(self.game, self.show, self.style)
        lines.append("")
        lines.append(self.c.text("cli.end.saved", file=str(self.path),
                                 command=f"crisis replay {shlex.quote(str(self.path))}"))
        self.term.lines(lines)


def result_lines(game, show: Presenter, style) -> List[str]:
    """The final score broken down, the tie-break if one decided, and the winner."""
    st, t, c = game.state, game.tables, show.catalog
    result = st.result
    lines = [style.bold(c.text("result.title"))]
    for side in (0, 1):
        name = style.side(side, show.side(t.sides[side]))
        lines.append(c.text("result.line", side=name, vp=st.vp[side]))
        final = sum(n for _, n in result.breakdown[side])
        lines.append(c.text("cli.result.before", n=st.vp[side] - final))
        for label, n in result.breakdown[side]:
            lines.append(c.text("result.breakdown", label=c.text(f"scoring.{label}"), n=n))
    winner = style.side(result.winner, show.side(t.sides[result.winner]))
    if result.tie_break >= 0:
        from crisis.ruleset.render import render_condition
        rule = game.content.procedures.tie_breaks[result.tie_break]
        lines.append(c.text("result.tie_break", rule=render_condition(rule.tree, c)))
    lines.append(style.bold(c.text("result.winner", side=winner)))
    return lines


# ------------------------------------------------------------- commands


def _terminal(args) -> Terminal:
    return Terminal(no_color=getattr(args, "no_color", False))


def play_interactive(args, content: Content, show: Presenter, seed: int, options: Options) -> int:
    """``crisis play`` (hot seat) and ``crisis play --vs bot --side S``."""
    c = show.catalog
    sides = content.board.sides
    if args.side and not args.vs:
        raise CliError(c.text("cli.error.side_without_vs"))
    if args.vs:
        human = match_side(args.side, content, show) if args.side else 0
        registry = bots()
        bot = default_bot() if args.vs == "bot" else args.vs
        if bot not in registry:
            raise CliError(c.text("cli.error.vs", given=args.vs, names=", ".join(["bot"] + sorted(registry))))
        controllers = [saves.HUMAN if i == human else bot for i in range(len(sides))]
    else:
        human = -1
        controllers = [saves.HUMAN] * len(sides)
    if args.save:
        path = Path(args.save)
        if path.exists():
            raise CliError(c.text("cli.error.save_exists", file=str(path),
                                  command=f"crisis resume {shlex.quote(str(path))}"))
    else:
        path = saves.default_path(Path.cwd(), content.board.game, seed)
    problem = saves.check_writable(path)
    if problem:
        raise CliError(c.text("cli.save.cannot_write", file=str(path), error=problem))
    term = _terminal(args)
    session = Session(content, show, term, seed, options, controllers, path)
    if not session.save():
        return EXIT_FAILED
    style = term.style
    intro = [style.bold(c.text("cli.intro.title", game=c.text("cli.title")))]
    if human < 0:
        intro.append(c.text("cli.intro.hotseat", seed=seed))
    else:
        intro.append(c.text("cli.intro.vs", side=style.side(human, show.side(sides[human])),
                            other=style.side(1 - human, show.side(sides[1 - human])),
                            bot=controller_text(c, controllers[1 - human]), seed=seed))
        if not args.side:
            intro.append(c.text("cli.intro.side_hint"))
    if options.event_discard:
        intro.append(c.text("cli.intro.event_discard"))
    intro.append(c.text("cli.intro.saving", file=str(path)))
    intro.append(c.text("cli.intro.help"))
    intro.append("")
    return session.run(intro)


def open_saved(content: Content, show: Presenter, path: Path, allow_changed_content: bool = False) -> saves.SavedGame:
    try:
        return saves.read(path, content, bots(), allow_changed_content)
    except saves.SaveProblem as problem:
        params = {k: show.system_reason(v) if isinstance(v, saves.SystemReason) else v
                  for k, v in problem.params.items()}
        raise CliError(show.catalog.text(problem.key, **params)) from None


def session_for(content, show, term, path: Path, saved: saves.SavedGame) -> Session:
    controllers = [saved.controllers[s] for s in content.board.sides]
    try:
        return Session(content, show, term, saved.seed, Options.from_dict(saved.options), controllers, path,
                       saved.actions, saved.created)
    except IllegalAction:
        pass
    # find the first action that does not replay, for the message
    game = Game(content, saved.seed, Options.from_dict(saved.options), log=False)
    for index, text in enumerate(saved.actions):
        if game.over:
            raise CliError(show.catalog.text("cli.save.too_many", file=str(path), n=index + 1)) from None
        try:
            game.apply(text)
        except IllegalAction:
            raise CliError(show.catalog.text("cli.save.bad_action", file=str(path), n=index + 1,
                                             text=text)) from None
    raise CliError(show.catalog.text("cli.save.damaged", file=str(path), field="actions"))  # pragma: no cover


def _reopen(args, content: Content, show: Presenter):
    """The saved game named on the command line, checked and replayed into a session."""
    path = Path(args.file)
    saved = open_saved(content, show, path, args.allow_changed_content)
    term = _terminal(args)
    return path, saved, term, session_for(content, show, term, path, saved)


def cmd_resume(args, content: Content, show: Presenter) -> int:
    c = show.catalog
    path, saved, term, session = _reopen(args, content, show)
    style = term.style
    intro = [style.bold(c.text("cli.intro.resume", file=str(path), n=len(saved.actions), seed=saved.seed))]
    humans = [i for i, name in enumerate(session.controllers) if name == saves.HUMAN]
    if len(humans) == 1:
        h = humans[0]
        intro.append(c.text("cli.intro.vs", side=session.side(h), other=session.side(1 - h),
                            bot=controller_text(c, session.controllers[1 - h]), seed=saved.seed))
    if session.game.over:
        term.lines(intro)
        session.finish()
        return EXIT_OK
    intro.append(c.text("cli.intro.saving", file=str(path)))
    intro.append(c.text("cli.intro.help"))
    intro.append("")
    return session.run(intro)


def cmd_replay(args, content: Content, show: Presenter) -> int:
    """Show a saved game from the start, action by action (``--step``: wait for Enter after each)."""
    c = show.catalog
    # the whole action list is replayed first: a damaged file is refused before anything is shown
    path, saved, term, session = _reopen(args, content, show)
    over = session.game.over
    actions = session.game.history  # one action per decision, even from an older save
    options = Options.from_dict(saved.options)
    game = Game(content, saved.seed, options)
    style = term.style
    names = [style.side(i, show.side(s)) for i, s in enumerate(content.board.sides)]
    who = [controller_text(c, name) for name in session.controllers]
    lines = [style.bold(c.text("cli.replay.title", file=str(path), seed=saved.seed, n=len(actions))),
             c.text("cli.replay.players", side0=names[0], who0=who[0], side1=names[1], who1=who[1])]
    if not over:
        lines.append(c.text("cli.replay.unfinished"))
    term.lines(lines)
    printed = 0
    step = getattr(args, "step", False)
    try:
        for index, text in enumerate(actions):
            decision = game.decision
            entries = (game.log or [])[printed:]
            term.lines("   " + line for line in show.log_lines(entries))
            printed = len(game.log or [])
            action = decision.find(text)
            if decision.hidden and not over:
                line = c.text("cli.replay.action_hidden", n=index + 1, side=names[decision.player])
            else:
                line = c.text("cli.replay.action", n=index + 1, side=names[decision.player],
                              text=show.notation(game, action),
                              description=show.action(game, decision, action))
            if step:
                scr = Screen(game, show, style, term.width)
                board = [""] + scr.header() + [""] + scr.board() + [""] + scr.tracks()
                if over:
                    for side in (0, 1):
                        board += scr.private(side, detailed=False)
                term.lines(board + ["", style.bold(line)])
                answer = term.ask(c.text("cli.replay.step_prompt")).strip().lower()
                if answer and answer in session.words("quit"):
                    return EXIT_OK
            else:
                term.lines([style.bold(line)])
            game.apply(action)
        term.lines("   " + line for line in show.log_lines((game.log or [])[printed:]))
    except EOFError:
        return EXIT_OK
    except KeyboardInterrupt:
        term.write("")
        return EXIT_INTERRUPTED
    if game.over:
        term.lines([""] + result_lines(game, show, style))
    else:
        term.lines(["", c.text("cli.replay.end_unfinished", n=len(actions)),
                    session.resume_hint()])
    return EXIT_OK
