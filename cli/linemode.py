"""The line mode: play, resume and replay one line at a time.

Used when input or output is not a terminal (pipes, scripts, screen readers),
with ``--plain``, or when the full-screen interface is not installed.  Each
screen is printed below the last one and never wiped (except to hide a hand
before the terminal is passed on in hot seat); messages are repeated at the
bottom of the next screen, right above its choices.  The game itself is the
``GameSession``'s: this module only prints and reads.
"""

from __future__ import annotations

import os
import sys
from typing import List, Optional, Sequence, Tuple

from crisis.interpreter.actions import Decision
from crisis.ruleset.diagnostics import shown

from . import info
from .board import Screen, fit
from .exits import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_STOPPED
from .session import REPLAY_COMMANDS, GameSession, Replay, before_result, controller_text
from .paths import shown_path
from .terminal import Terminal
from .typed import too_long, too_long_text, typed_number
from crisis.interpreter.engine.program import program_of


class Quit(Exception):
    pass


class LineMode:
    def __init__(self, session: GameSession, term: Terminal):
        self.session = session
        self.term = term
        self.style = term.style
        self.c = session.c
        self.show = session.show
        self.holder: Optional[int] = None  # hot seat: the player who has the terminal now
        self.notices: List[str] = []  # said again at the bottom of the next screen
        self.source = None  # the source chosen in a two-step move menu

    # ------------------------------------------------------------- output
    @property
    def game(self):
        return self.session.game

    def screen(self) -> Screen:
        return Screen(self.game, self.show, self.style, self.term.width)

    def side(self, index: int) -> str:
        return self.style.side(index, self.show.side(self.session.sides[index]))

    def problem(self, text: str) -> None:
        """A one-line reason for input that cannot be taken."""
        self.term.write(self.style.error(f"{self.style.error_mark} {text}"))

    def notice(self, text: Optional[str], good: bool = False) -> None:
        """Say something now, and again at the bottom of the next screen."""
        if not text:
            return
        shown = self.style.good(text) if good else text
        self.term.write(shown)
        self.notices.append(shown)

    def save_notice(self, problem: Optional[str]) -> None:
        if problem:
            self.notice(self.style.error(problem) if self.session.save_failed else problem)

    # ---------------------------------------------------------------- run
    def run(self, intro=()) -> int:
        s = self.session
        try:
            self.term.lines(intro)
            while not s.over:
                if s.bot_to_move():
                    _, _, problem = s.bot_move()
                    self.save_notice(problem)
                    continue
                self.human_turn(s.decision)
            self.save_notice(s.save())
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
                s.save()
            except Exception:  # pragma: no cover - the file written after the last action stays
                pass
            if s.save_failed:
                print(self.c.text("cli.stop.crash_unsaved", error=f"{type(error).__name__}: {error}"), file=sys.stderr)
                print(s.unsaved_text(), file=sys.stderr)
            else:
                print(self.c.text("cli.stop.crash", error=f"{type(error).__name__}: {error}", file=shown_path(s.path)),
                      file=sys.stderr)
                print(s.resume_hint(), file=sys.stderr)
            if os.environ.get("CRISIS_DEBUG"):
                import traceback
                traceback.print_exc()
            return EXIT_FAILED

    def stop(self, key: str, code: int) -> int:
        s = self.session
        try:
            s.save()
            self.term.write("")
            self.term.write(self.c.text(key))
            if not s.save_failed:
                self.term.write(self.c.text("cli.stop.saved", file=shown_path(s.path)))
                self.term.command_hint(s.resume_hint(), s.command("resume"))
            else:
                self.term.write(s.unsaved_text())
            self.term.flush()
        except KeyboardInterrupt:  # a second Ctrl-C: the file is saved after every action anyway
            pass
        return code

    # ----------------------------------------------------------- a turn
    def human_turn(self, decision: Decision) -> None:
        s = self.session
        player = decision.player
        if s.hotseat and self.holder != player:
            if not self.pass_terminal(player):
                return  # the previous player took an action back: look at the decision again
        self.holder = player
        self.source = None
        self.draw(decision)
        while True:
            menu = s.choices(decision, self.source)
            prompt = self.c.text("cli.prompt.input", player=self.show.side(s.sides[player]), n=len(menu))
            line = self.term.ask(prompt)
            if self.handle(line, decision):
                return

    def pass_terminal(self, player: int) -> bool:
        """Show what the last action did, hide the screen and wait for the next player.
        False if the previous player undid instead."""
        s = self.session
        other = self.holder
        lines = []
        if other is not None:
            self.term.clear()  # the previous player's hand leaves the screen
            # what the previous player's turn did is public: both may read it now
            done = s.turn_lines(other)
            if done:
                lines.append(self.c.text("cli.pass.happened", side=self.side(other)))
                lines += [f" {self.style.new} " + line for line in done]
                lines.append("")
        lines += [self.term.rule(), self.style.bold(self.c.text("cli.pass.title", side=self.side(player)))]
        if other is not None:
            lines.append(self.c.text("cli.pass.hint", side=self.side(player), other=self.side(other)))
        lines.append(self.term.rule())
        self.term.lines(lines)
        prompt = self.c.text("cli.pass.prompt", side=self.show.side(s.sides[player]))
        while True:
            line = self.term.ask(prompt)
            word = line.strip()
            if not word:
                break
            command = s.command_of(word)
            if command == "quit":
                raise Quit
            if command == "undo" and other is not None:
                done, text = s.undo(other)
                if done:
                    # what was taken back (a card kept in secret, say) is the previous player's to
                    # read: said at the bottom of their next screen, once the terminal is passed
                    # back to them, never to whoever holds it now
                    self.notices.append(self.style.good(text))
                    self.term.write(self.c.text("cli.pass.taken_back", side=self.side(other)))
                    self.holder = player  # the terminal is with the player addressed: passed back first
                    return False
                self.problem(text)
                continue
            if command == "undo":
                self.problem(self.c.text("cli.undo.nothing"))
                continue
            explained = self.c.text("cli.pass.only_enter", side=self.show.side(s.sides[player]),
                                    undo=s.command_word("undo"), quit=s.command_word("quit"))
            if command == "help":  # the welcome says help is there at any prompt: asked, not refused
                self.term.write(explained)
            else:
                self.problem(explained)
        if other is not None:
            self.term.clear()
        return True

    def handle(self, line: str, decision: Decision) -> bool:
        """Act on one input line; True when the decision is settled (an action taken or undone)."""
        s = self.session
        menu = s.choices(decision, self.source)
        reading = s.read(line, decision, menu)
        if reading.kind == "problem":
            self.problem(reading.problem)
            return False
        if reading.kind == "source":
            self.source = s.sources(decision)[reading.source]
            self.term.lines(self.decision_lines(decision))
            return False
        if reading.kind == "back":
            self.source = None
            self.term.lines(self.decision_lines(decision))
            return False
        if reading.kind == "action":
            self.save_notice(s.apply(reading.action))
            return True
        command, rest = reading.command, reading.rest
        if command == "help":
            self.help(decision)
        elif command == "board":
            self.draw(decision, again=True)
        elif command == "log":
            self.full_log()
        elif command == "card":
            self.card(rest, decision)
        elif command == "rules":
            self.rules(rest)
        elif command == "why":
            self.why()
        elif command == "undo":
            done, text = s.undo(decision.player)
            if done:
                self.notice(text, good=True)
                return True
            self.problem(text)
        elif command == "quit":
            raise Quit
        return False

    # ---------------------------------------------------------- screens
    def draw(self, decision: Decision, again: bool = False) -> None:
        s = self.session
        scr = self.screen()
        viewer = decision.player
        self.term.new_screen()
        lines: List[str] = []
        if not again:
            for summary in s.round_ends_since(viewer):
                lines += scr.round_end(summary) + [""]
        start, changed = s.view(viewer)
        lines += scr.header() + [""] + scr.board(changed) + [""] + scr.tracks() + [""]
        others = [side for side in range(len(s.sides)) if side != viewer]
        lines += scr.public_cards(others if s.humans[viewer] else list(range(len(s.sides))))
        detailed = decision.kind == "play_card" or decision.kind.startswith("keep_")  # (its cards' rules in full)
        lines += scr.private(viewer, detailed)
        lines.append("")
        lines.append(self.c.text("cli.panel.recent"))
        lines += scr.feed(s.shown_log(), start)
        if self.notices:
            lines.append("")
            lines += self.notices
            self.notices = []
        lines.append("")
        lines += self.decision_lines(decision)
        self.term.lines(lines)

    def decision_lines(self, decision: Decision) -> List[str]:
        s = self.session
        menu = s.choices(decision, self.source)
        lines = [self.style.bold(self.show.prompt(self.game, decision))]
        rule = self.show.prompt_rule(decision)
        if rule:
            lines.extend(fit(self.style.dim(rule), self.term.width, indent=2))
        width = max(len(choice.notation) for choice in menu)
        digits = len(str(len(menu)))
        hang = 2 + digits + 2 + width + 2
        if hang > self.term.width * 2 // 3:
            hang = 2 + digits + 2
        for i, choice in enumerate(menu, 1):
            description = choice.description
            consequences = s.consequences(decision, choice.action, short=True)
            if consequences:
                description += f" {self.style.arrow} " + "; ".join(consequences)
            row = f"  {str(i).rjust(digits)}  {choice.notation.ljust(width)}  {self.style.dim(description)}"
            lines.extend(fit(row, self.term.width, indent=hang))
        for note in s.blocked_notes(decision):
            lines.append(f"{self.style.marker} {note}")
        lines.append(self.style.dim(self.c.text("cli.prompt.commands", **self.command_words())))
        return lines

    def command_words(self) -> dict:
        s = self.session
        return {name: s.command_word(name) for name in ("help", "card", "log", "rules", "board", "undo", "quit")}

    def help(self, decision: Decision) -> None:
        s = self.session
        self.term.lines(info.help_lines(self.screen(), decision, s.hotseat, s.path, self.command_words(),
                                        s.command_word("why") if info.explained(s) else None))

    def full_log(self) -> None:
        lines = [self.style.bold(self.c.text("cli.log.title"))]
        lines += ["  " + self.show.log_line(entry) for entry in self.session.shown_log()]
        if len(lines) == 1:
            lines.append("  " + self.c.text("cli.log.empty"))
        self.term.lines(lines)

    def card(self, query: str, decision: Optional[Decision]) -> None:
        found, problem = info.card_query(self.screen(), query, decision, self.session.command_word("card"))
        if problem:
            self.problem(problem)
            return
        lines = []
        for kind, index in found:
            lines.append("")
            lines += info.card_text(self.screen(), kind, index)
        lines.append("")
        self.term.lines(lines)

    def rules(self, query: str) -> None:
        lines, problem = info.rules_query(self.screen(), query, self.session.command_word("rules"))
        if problem:
            self.problem(problem)
            return
        self.term.lines(lines)

    def why(self) -> None:
        """The reasons the opponent gave for its last actions (a bot that explains itself)."""
        lines = info.why_lines(self.session)
        self.term.lines(lines)

    # ------------------------------------------------------------- end
    def finish(self) -> None:
        s = self.session
        scr = self.screen()
        self.term.new_screen()
        humans = [i for i in range(len(s.sides)) if s.humans[i]] or [0]
        viewer = min(humans, key=lambda i: s.seen[i])
        lines: List[str] = []
        for summary in s.round_ends_since(viewer):
            lines += scr.round_end(summary) + [""]
        lines += scr.header() + [""] + scr.board(s.changed_spaces(viewer)) + [""] + scr.tracks() + [""]
        # the game is over: every side's cards, the hidden ones too (a player who had nothing to
        # choose for the last turns has not seen their hand since)
        lines += scr.public_cards(list(range(len(s.sides))))
        for side in range(len(s.sides)):
            lines += scr.private(side, detailed=False, named=True)
        lines.append("")
        lines.append(self.c.text("cli.panel.recent"))
        start, log = s.feed(viewer)
        lines += scr.feed(before_result(log), start)
        lines.append("")
        if self.notices:
            lines += self.notices + [""]
            self.notices = []
        lines += scr.result(reveal_seed=s.seed if s.hotseat else None)
        lines.append("")
        self.term.lines(lines)
        if s.save_failed:
            self.term.lines([s.replay_hint()])
        else:  # the command to watch it again whole, on a line of its own where the line is narrow
            self.term.command_hint(s.replay_hint(), s.command("replay"))


# ------------------------------------------------------------- replay


def run_session(session: GameSession, term: Terminal, intro: Sequence[str] = ()) -> int:
    """Play a session in the line mode from where it stands (at its end: the final score)."""
    mode = LineMode(session, term)
    if session.over:
        term.lines(intro)
        mode.finish()
        return EXIT_OK
    return mode.run(list(intro) + [""])


class LineReplay:
    """``crisis replay``: the whole game printed, or (``--step``) one action at a time with the
    board, going back, to an action number or a round, or branching off a new game."""

    def __init__(self, replay: Replay, term: Terminal, session: GameSession):
        self.replay, self.term, self.style = replay, term, term.style
        self.show, self.c = replay.show, replay.show.catalog
        self.session = session  # the whole game, replayed (for words and hints)
        sides = program_of(replay.content).schema.sides
        self.names = [self.style.side(i, self.show.side(s)) for i, s in enumerate(sides)]

    def intro(self) -> List[str]:
        r, c = self.replay, self.c
        who = [controller_text(c, name) for name in self.session.controllers]
        seed = r.saved.seed if (r.finished or not self.session.hotseat) else ""  # hidden till the end
        lines = [self.style.bold(c.text("cli.replay.title", file=shown_path(r.path), seed=seed, n=r.size)),
                 c.text("cli.replay.players", side0=self.names[0], who0=who[0], side1=self.names[1], who1=who[1])]
        if not r.finished:
            lines.append(c.text("cli.replay.unfinished"))
        return lines

    def action_line(self) -> Optional[str]:
        r, c = self.replay, self.c
        found = r.next_action()
        if found is None:
            return None
        decision, action = found
        n = r.position + 1
        if r.kept_private(decision):
            return c.text("cli.replay.action_hidden", n=n, side=self.names[decision.player])
        return c.text("cli.replay.action", n=n, side=self.names[decision.player],
                      text=self.show.notation(r.game, action), description=self.show.action(r.game, decision, action))

    def run(self, step: bool) -> int:
        self.term.lines(self.intro())
        try:
            return self.stepping() if step else self.printing()
        except EOFError:
            return EXIT_OK
        except KeyboardInterrupt:
            self.term.write("")
            return EXIT_INTERRUPTED

    def printing(self) -> int:
        r = self.replay
        printed = 0  # log entries printed (what an action adds is said without what came before it)
        while r.position < r.size:
            log = r.game.log or []
            self.term.lines("   " + self.show.log_line(e) for e in self.show.shown(log[printed:], r.automa_side))
            printed = len(log)
            self.term.lines([self.style.bold(self.action_line())])
            r.go(r.position + 1)
        rest = self.show.shown((r.game.log or [])[printed:], r.automa_side)
        self.term.lines("   " + self.show.log_line(e) for e in (before_result(rest) if r.game.over else rest))
        return self.ending()

    def ending(self) -> int:
        r = self.replay
        if r.game.over:
            scr = Screen(r.game, self.show, self.style, self.term.width)
            self.term.lines([""] + scr.result())
        else:
            self.term.lines(["", self.c.text("cli.replay.end_unfinished", n=r.size)])
            self.term.command_hint(self.session.resume_hint(), self.session.command("resume"))
        return EXIT_OK

    def stepping(self) -> int:
        r = self.replay
        shown_log, last = 0, None
        while True:
            scr = Screen(r.game, self.show, self.style, self.term.width)
            log = r.shown_log()
            lines = [""] + scr.header() + [""] + scr.board() + [""] + scr.tracks()
            if r.private_shown():
                for side in range(len(r.game.sides)):
                    lines += scr.private(side, detailed=False, named=True)
            lines.append("")
            if last:  # after a jump: the action the game is now after, and what it did
                lines.append(last)
            entries = before_result(log) if r.game.over else log  # (the score below names the winner)
            lines += ["   " + self.show.log_line(e) for e in entries[min(shown_log, len(entries)):]]
            last = None
            shown_log = len(log)
            line = self.action_line()
            if line is None:
                self.term.lines(lines)
                self.ending()
                lines = []
            else:
                lines.append(self.style.bold(line))
                self.term.lines(lines)
            answer = self.term.ask(self.c.text("cli.replay.step_prompt", position=r.position, n=r.size,
                                               counter=r.pass_name())).strip()
            outcome = self.step_command(answer)
            if outcome == "quit":
                return EXIT_OK
            if isinstance(outcome, GameSession):
                return run_session(outcome, self.term, intro=[self.c.text("cli.replay.branched",
                                                                          file=shown_path(outcome.path),
                                                                          n=outcome.game.history.__len__())])
            if outcome == "moved":
                shown_log, last = (len(r.shown_log()), None) if r.position == 0 else self._before_last()

    def _before_last(self) -> Tuple[int, Optional[str]]:
        """Log entries up to the previous action, and that action's line, so a jump shows the
        action the game is now after and what it did."""
        r = self.replay
        here = r.position
        r.go(here - 1)
        size, line = len(r.shown_log()), self.action_line()
        r.go(here)
        return size, line

    def step_command(self, answer: str):
        """Next (Enter), back, an action number, round N, branch, or quit."""
        r, s = self.replay, self.session
        if too_long(answer):
            self.term.write(self.style.error(f"{self.style.error_mark} " + too_long_text(self.c)))
            return "stay"
        word, _, rest = answer.partition(" ")
        if not answer:
            if r.position >= r.size:
                return "quit"
            r.go(r.position + 1)
            return "next"
        command = s.command_of(word, REPLAY_COMMANDS)
        if command is None and r.is_pass_word(word):  # 'turn 3' in a game of turns
            command = "round"
        if command == "quit":
            return "quit"
        if command == "back":
            r.go(r.position - 1)
            return "moved"
        if command == "branch":
            if r.finished and r.position >= r.size:
                self.term.write(self.style.error(f"{self.style.error_mark} "
                                                 + self.c.text("cli.replay.branch_at_end", n=r.size, last=r.size - 1)))
                return "stay"
            return r.branch(r.position)
        if command == "help":  # asked for, not refused
            self.term.write(self.c.text("cli.replay.step_help", counter=r.pass_name()))
            return "stay"
        if command == "round":
            target = rest.strip()
            if not target:
                self.term.write(self.style.error(f"{self.style.error_mark} "
                                                 + self.c.text("cli.replay.round_usage", counter=r.pass_name())))
                return "stay"
            if typed_number(target) is not None:
                start = r.round_start(typed_number(target))
            elif s.command_of(target, REPLAY_COMMANDS) == "final":
                start = r.after_rounds_start()
            else:
                start = None
            if start is None:
                self.term.write(self.style.error(f"{self.style.error_mark} "
                                                 + self.c.text("cli.replay.no_round", round=shown(target),
                                                               counter=r.pass_name())))
                return "stay"
            r.go(start)
            return "moved"
        number = typed_number(answer.lstrip("#"))
        if number is not None:  # the game after that action (0: the start), where branch and --branch N start
            if not 0 <= number <= r.size:
                self.term.write(self.style.error(f"{self.style.error_mark} " + self.c.text(
                    "cli.replay.no_action", number=shown(answer.lstrip("#")), n=r.size)))
                return "stay"
            r.go(number)
            return "moved"
        self.term.write(self.style.error(f"{self.style.error_mark} "
                                         + self.c.text("cli.replay.step_help", counter=r.pass_name())))
        return "stay"
