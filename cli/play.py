"""``crisis play``, ``resume`` and ``replay``: choose the front-end and start it.

The full-screen interface (``crisis.cli.tui``, on Textual) opens when both
standard input and output are terminals, ``TERM`` is not ``dumb``, ``--plain``
was not given and Textual is installed (the ``tui`` extra); otherwise the line
mode runs.  Both drive the same ``GameSession``.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from typing import List, Sequence

from crisis.content.model import Content
from crisis.interpreter.engine.game import Options

from .paths import shown_path
from .session import GameSession, Replay, controller_text, new_session, reopen
from .terminal import Terminal
from .text import Presenter, fold


def tui_installed() -> bool:
    return importlib.util.find_spec("textual") is not None


def on_a_terminal() -> bool:
    """Input and output are a terminal (Textual draws on standard error: that one too)."""
    try:
        return sys.stdin.isatty() and sys.stdout.isatty() and sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def wants_tui(args) -> bool:
    if getattr(args, "plain", False) or os.environ.get("TERM") == "dumb" or not on_a_terminal():
        return False
    return tui_installed()


def terminal(args) -> Terminal:
    return Terminal(no_color=getattr(args, "no_color", False))


def intro_lines(session: GameSession, style, resumed: bool = False) -> List[str]:
    """Who plays whom, the options, where the game is saved, how to get help."""
    c, show = session.c, session.show
    sides = session.sides
    names = [style.side(i, show.side(s)) for i, s in enumerate(sides)]
    humans = [i for i in range(len(sides)) if session.humans[i]]
    lines = []
    if resumed:
        lines.append(style.bold(c.text("cli.intro.resume", file=shown_path(session.path), n=len(session.game.history),
                                       seed=session.seed if session.seed_shown() else "")))
    else:
        lines.append(style.bold(c.text("cli.intro.title", game=c.text("cli.title"))))
    automa = session.automa
    if automa is not None:
        h = automa.player
        lines.append(c.text("cli.intro.solo", side=names[h], other=names[automa.side], seed=session.seed,
                            difficulty=c.name("difficulty", session.game.options.difficulty)))
        lines.append(c.text("cli.intro.solo_rules", aid=fold(show.side(sides[automa.side])).split(" ")[0],
                            why=session.command_word("why")))
    elif len(humans) == len(sides) and not resumed:
        lines.append(c.text("cli.intro.hotseat"))
    elif len(humans) == 1:
        h = humans[0]
        other = next(i for i in range(len(sides)) if i != h)
        lines.append(c.text("cli.intro.vs", side=names[h], other=names[other],
                            bot=controller_text(c, session.controllers[other]), seed=session.seed))
    # the optional rules in use: those chosen, or those the solo game always uses (its overlay's)
    lines += [c.text(f"cli.intro.{name}") for name in sorted(session.options.flags)
              if c.raw(f"cli.intro.{name}") is not None]
    if not session.over:
        lines.append(c.text("cli.intro.saving", file=shown_path(session.path)))
        lines.append(c.text("cli.intro.help", help="?", rules=session.command_word("rules"),
                            quit=session.command_word("quit")))
    if on_a_terminal() and not tui_installed():
        lines.append(style.dim(c.text("cli.intro.no_tui")))
    return lines


def run_session(session: GameSession, term: Terminal, intro: Sequence[str] = ()) -> int:
    from .linemode import run_session as in_line_mode  # imported when the line mode is chosen
    return in_line_mode(session, term, intro)


def run_tui(session: GameSession = None, replay: Replay = None, args=None) -> int:
    from .tui.app import run_app
    return run_app(session=session, replay=replay, no_color=getattr(args, "no_color", False))


def cmd_play(args, content: Content, show: Presenter, seed: int, options: Options) -> int:
    """``crisis play`` (hot seat) and ``crisis play --vs bot --side S``."""
    session = new_session(args, content, show, seed, options)
    if wants_tui(args) and not session.check:  # --check reports in the line mode, which prints what broke
        return run_tui(session=session, args=args)
    term = terminal(args)
    intro = intro_lines(session, term.style)
    if session.humans.count(True) == 1 and not args.side:
        intro.insert(2, show.catalog.text("cli.intro.side_hint"))
    return run_session(session, term, intro)


def cmd_resume(args, content: Content, show: Presenter) -> int:
    path, saved, session = reopen(args, content, show, hold=True)
    if wants_tui(args) and not session.check:
        return run_tui(session=session, args=args)
    term = terminal(args)
    return run_session(session, term, intro_lines(session, term.style, resumed=True))


def cmd_replay(args, content: Content, show: Presenter) -> int:
    """Show a saved game (``--step``: one action at a time, back and forth); ``--branch N``
    starts a new game from action N of it, in a new file."""
    from .linemode import LineReplay
    path, saved, session = reopen(args, content, show)  # a damaged file is refused before anything is shown
    replay = Replay(content, show, saved, path)
    if args.branch is not None:
        if not 0 <= args.branch <= replay.size:
            from .errors import CliError
            raise CliError(show.catalog.text("cli.replay.no_action", number=args.branch, n=replay.size))
        if replay.finished and args.branch == replay.size:  # a copy of the finished game: nothing to play
            from .errors import CliError
            raise CliError(show.catalog.text("cli.replay.branch_at_end", n=replay.size, last=replay.size - 1))
        from . import saves
        from .paths import file_to_write
        save = file_to_write(args.save, "--save", show.catalog, beside=saves.NAME_BESIDE) if args.save else None
        branched = replay.branch(args.branch, save)
        if wants_tui(args):
            return run_tui(session=branched, args=args)
        term = terminal(args)
        intro = [term.style.bold(show.catalog.text("cli.replay.branched", file=shown_path(branched.path),
                                                   n=args.branch))]
        return run_session(branched, term, intro + intro_lines(branched, term.style)[1:])
    if args.step and wants_tui(args):
        return run_tui(replay=replay, args=args)
    term = terminal(args)
    return LineReplay(replay, term, session).run(step=args.step)
