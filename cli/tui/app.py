"""The full-screen interface: the board, the tracks, your cards, the choices, what an action
would do and everything since your last turn, all on one screen.

It is a second front-end on the same ``GameSession`` as the line mode: the
session applies actions, saves after each one, undoes, reads typed input and
works out consequences; this module only lays them out.  The text blocks come
from ``crisis.cli.board`` (the line mode's own), turned from ANSI colour codes
into Textual's styled text, so both modes say the same things in the same
words.  Layout: the map and the tracks on the left; the question, the choices,
the highlighted choice's consequences and the feed on the right; on a wide
terminal (120 columns or more) your cards get a column of their own.
"""

from __future__ import annotations

import functools
import os
import threading
from typing import Iterable, List, Optional, Tuple

from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState, get_current_worker

from crisis.ruleset.diagnostics import shown

from .. import info
from ..board import Screen, fit_all
from ..session import EXIT_OK, REPLAY_COMMANDS, GameSession, Replay, command_of
from ..terminal import Style
from ..typed import too_long, too_long_text, typed_number

WIDE = 120  # columns from which the cards get their own column
# keys that move in the choice list, from the command line while nothing is typed there
LIST_KEYS = frozenset({"up", "down", "pageup", "pagedown"})
REPLAY_KEYS = frozenset({"right", "n", "enter", "space", "left", "p", "backspace", "home", "end", "b"})
TALL = 36  # rows from which the highlighted choice's card or consequences get more room


def styled(lines: Iterable[str], wrap: bool = True) -> Text:
    """Lines drawn with ANSI codes (by ``board.Screen``) as one styled text."""
    text = Text.from_ansi("\n".join(lines))
    text.no_wrap = not wrap
    return text


class InfoScreen(ModalScreen):
    """Help, a card, the rules, the whole log, the end of a round: read, then Enter or Escape."""

    BINDINGS = [Binding("escape,enter,q,space", "close", "Close", show=False)]

    def __init__(self, text: Text, hint: str):
        super().__init__()
        self.body, self.hint = text, hint

    def compose(self) -> ComposeResult:
        with Vertical(id="info"):
            with VerticalScroll(id="info-scroll"):
                yield Static(self.body, id="info-text")
            yield Static(self.hint, id="info-hint")

    def action_close(self) -> None:
        self.dismiss(None)


class PassScreen(ModalScreen):
    """Hot seat: the screen is hidden until the next player is at the terminal (one screen,
    installed once and shown at every hand-over)."""

    BINDINGS = [Binding("enter", "ready", "Ready", show=False), Binding("u", "undo", "Undo", show=False),
                Binding("q", "quit_game", "Quit", show=False)]

    def __init__(self):
        super().__init__()
        self.body = Text("")

    def compose(self) -> ComposeResult:
        with Vertical(id="pass"):
            yield Static(self.body, id="pass-text")

    def say(self, text: Text) -> None:
        self.body = text
        if self.is_mounted:
            self.query_one("#pass-text", Static).update(text)

    def action_ready(self) -> None:
        self.dismiss("ready")

    def action_undo(self) -> None:
        self.dismiss("undo")

    async def action_quit(self) -> None:
        self.action_quit_game()

    def action_quit_game(self) -> None:
        self.dismiss("quit")


class CrisisApp(App):
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #header { height: 2; background: $boost; padding: 0 1; }
    #main { height: 1fr; }
    #left { width: 38; padding: 0 0 0 1; scrollbar-size-vertical: 1; }
    #cards { display: none; width: 1fr; padding: 0 1; border-left: solid $primary-darken-2; }
    #right { width: 1fr; padding: 0 1; border-left: solid $primary-darken-2; }
    #question { height: 2; }
    #choices { height: 1fr; min-height: 4; border: none; padding: 0; }
    #preview { height: 5; color: $text-muted; }
    .tall #preview { height: 12; }
    #feed-scroll { height: 1fr; min-height: 3; }
    #message { height: 1; padding: 0 1; }
    #command { height: 1; border: none; padding: 0 1; }
    .wide #cards { display: block; }
    .wide #hand-small { display: none; }
    InfoScreen, PassScreen { align: center middle; }
    #info { width: 90%; height: 90%; border: round $primary; background: $surface; padding: 0 1; }
    #info-hint { height: 1; color: $text-muted; }
    #pass { width: 90%; height: auto; max-height: 90%; border: double $primary; background: $surface;
            padding: 1 2; }
    """

    BINDINGS = [Binding("escape", "focus_choices", show=False),
                Binding("ctrl+c", "quit", show=False, priority=True)]

    def __init__(self, session: Optional[GameSession] = None, replay: Optional[Replay] = None,
                 no_color: bool = False):
        super().__init__()
        self.session = session
        self.replay = replay
        self.show = (session or replay).show
        self.c = self.show.catalog
        self.style = Style(not no_color)
        self.holder: Optional[int] = None  # hot seat: who has the terminal
        self.source = None  # the source chosen in a two-step move
        self.menu = []
        self.outcome = ""  # what to print once the interface is closed
        self._shown = {}  # what each pane shows (see put)
        self.hidden = False  # hot seat: the screen is hidden while the terminal changes hands
        self.code = EXIT_OK
        # a bot's move being worked out in a thread: (its worker, how many actions the game had);
        # meanwhile the screen stays live but nothing is taken for anyone
        self.thinking: Optional[Tuple[Worker, int]] = None
        self.leaving = False  # the game is being left: a bot's late answer is not applied
        # the footer's keys, in the player's language (Textual's own Ctrl+Q, hidden and in English, goes)
        self._bindings.key_to_bindings.pop("ctrl+q", None)
        for keys, action, word in (("f1", "help", "help"), ("f2", "log", "log"), ("f3", "rules", "rules"),
                                   ("ctrl+z", "undo", "undo"), ("ctrl+q", "quit", "quit")):
            self.bind(keys, action, description=self.c.text(f"cli.tui.keys.{word}"))

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with Horizontal(id="main"):
            with VerticalScroll(id="left"):
                yield Static(id="board")
                yield Static(id="tracks")
                yield Static(id="hand-small")
            with VerticalScroll(id="cards"):
                yield Static(id="hand")
            with Vertical(id="right"):
                yield Static(id="question")
                yield OptionList(id="choices")
                yield Static(id="preview")
                with VerticalScroll(id="feed-scroll"):
                    yield Static(id="feed")
        yield Static(id="message")
        yield Input(id="command", placeholder=self.c.text("cli.tui.placeholder"), select_on_focus=False)
        yield Footer()

    def on_mount(self) -> None:
        self.title = self.c.text("cli.title")
        self.install_screen(PassScreen(), "pass")
        self._layout(self.size.width, self.size.height)
        if self.replay is not None:
            self.query_one("#choices", OptionList).display = False
            self.set_focus(None)
            self.replay_draw()
        else:
            self.advance()

    def on_resize(self, event) -> None:
        self._layout(event.size.width, event.size.height)
        self.call_after_refresh(self.redraw)

    def _layout(self, width: int, height: int = 24) -> None:
        self.screen.set_class(width >= WIDE, "wide")
        self.screen.set_class(height >= TALL, "tall")

    def redraw(self) -> None:
        """Draw again at the new size (lines are broken to each pane's width)."""
        if self.replay is not None:
            self.replay_draw()
        elif self.thinking is not None:
            self.draw_waiting()
        elif self.session is not None and not self.hidden and self.session.decision is not None:
            self.draw(again=True)

    # ------------------------------------------------------------------ play
    @property
    def game(self):
        return (self.session or self.replay).game

    def screen_blocks(self, width: int = 36) -> Screen:
        return Screen(self.game, self.show, self.style, width)

    def advance(self) -> None:
        """Let the bots act, then hand the decision to its player (through the pass screen in hot seat)."""
        s = self.session
        if not s.over and s.bot_to_move():
            self.think()
            return
        if s.over:
            self.final()
            return
        player = s.decision.player
        if s.hotseat and self.holder != player:
            self.hide()
            self.get_screen("pass").say(self.pass_text(player))
            self.push_screen("pass", callback=self.after_pass)
            return
        self.begin_turn()

    def think(self) -> None:
        """Ask the bot in a thread (a search takes a second or more): the screen shows where the
        game is and who is thinking, and answers the keys that only look (help, log, rules)."""
        s = self.session
        decision = s.decision
        worker = self.run_worker(functools.partial(ask_bot, s, decision), name="bot", group="bot",
                                 thread=True, exclusive=True)
        self.thinking = (worker, len(s.game.history))
        self.draw_waiting()

    def thinking_text(self) -> str:
        s = self.session
        player = s.decision.player
        return self.c.text("cli.tui.thinking", side=self.side(player))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The bot has chosen: its move is taken here, in the interface's own thread, so the game
        changes and is saved (atomically, as after any action) only between two screens."""
        if self.thinking is None or event.worker is not self.thinking[0]:
            return
        if event.state == WorkerState.SUCCESS:
            _, actions = self.thinking
            self.thinking = None
            s = self.session
            # (the game left, or the interface closing without a quit: the process being stopped)
            if self.leaving or not self.is_running or s is None or len(s.game.history) != actions:
                return
            problem = s.apply(event.worker.result)
            if problem:
                self.say(problem, error=s.save_failed)
            self.advance()
        elif event.state in (WorkerState.CANCELLED, WorkerState.ERROR):
            self.thinking = None  # an error stops the interface (Textual shows it; the file is whole)

    def draw_waiting(self) -> None:
        """While a bot thinks: the board as it is for the person at the terminal (nothing marked as
        seen: that is for their turn), no choices, and who is thinking."""
        s = self.session
        viewer = next((i for i in (0, 1) if s.humans[i]), None)
        if viewer is not None:  # (a bot against a bot has no one to show cards to)
            self.draw_game(viewer, s.seen[viewer], s.changed_spaces(viewer))
        self.put("question", [self.style.bold(self.thinking_text())])
        self.put("preview", [])
        self.menu = []
        self.query_one("#choices", OptionList).clear_options()

    def pass_text(self, player: int) -> Text:
        s = self.session
        lines = []
        other = self.holder
        if other is not None:
            start, log = s.feed(other)
            if log[start:]:
                lines.append(self.c.text("cli.pass.happened", side=self.side(other)))
                lines += [f" {self.style.new} " + self.show.log_line(e) for e in log[start:]]
                lines.append("")
        lines.append(self.style.bold(self.c.text("cli.pass.title", side=self.side(player))))
        if other is not None:
            lines.append(self.c.text("cli.pass.hint", side=self.side(player), other=self.side(other)))
        lines.append("")
        lines.append(self.c.text("cli.tui.pass_keys", side=self.side(player)))
        return styled(lines)

    def after_pass(self, answer) -> None:
        s = self.session
        if answer == "quit":
            self.action_quit_game()
            return
        if answer == "undo" and self.holder is not None:
            done, text = s.undo(self.holder)
            self.say(text, error=not done)
            if done:
                self.begin_turn()  # the previous player chooses again: no hand-over
                return
            self.advance()
            return
        self.holder = s.decision.player
        self.begin_turn()

    def begin_turn(self) -> None:
        s = self.session
        viewer = s.decision.player
        summaries = s.round_ends_since(viewer)
        self.source = None
        self.draw()
        for summary in reversed(summaries):  # the earliest on top
            scr = self.screen_blocks(self.size.width)
            self.push_screen(InfoScreen(styled(scr.round_end(summary)), self.c.text("cli.tui.close")))

    def side(self, index: int) -> str:
        return self.style.side(index, self.show.side(self.game.tables.sides[index]))

    def hide(self) -> None:
        """Nothing private stays on screen while the terminal changes hands."""
        self.hidden = True
        self.menu = []
        for name in ("hand", "hand-small", "preview", "question", "feed"):
            self.put(name, [])
        self.query_one("#choices", OptionList).clear_options()

    # ------------------------------------------------------------------ drawing
    def put(self, name: str, lines: List[str], wrap: bool = True) -> None:
        """Show lines in a pane, broken between words to its width with the line mode's hanging
        indents, unless it shows them already (each change costs a redraw)."""
        widget = self.query_one(f"#{name}", Static)
        width = widget.size.width
        if wrap and width > 10:
            lines = fit_all(lines, width)
        key = "\n".join(lines)
        if self._shown.get(name) != key:
            self._shown[name] = key
            widget.update(styled(lines, wrap))

    def draw(self, again: bool = False) -> None:
        """The whole screen for the player whose decision it is (``again``: the same turn redrawn,
        what is new since the last turn stays new)."""
        viewer = self.session.decision.player
        self.draw_game(viewer, *self.session.view(viewer))
        self.hidden = False
        self.fill_choices(keep=again)

    def draw_game(self, viewer: int, start: int, changed) -> None:
        """The board, the tracks, ``viewer``'s cards and the feed from log entry ``start``."""
        scr = self.screen_blocks()
        self.put("header", scr.header(compact=True))
        self.put("board", self.board_lines(scr, changed), wrap=False)
        self.put("tracks", scr.tracks(legend=False), wrap=False)
        hand = scr.public_cards([1 - viewer]) + scr.private(viewer, detailed=True)
        self.put("hand", hand)
        self.put("hand-small", [""] + hand)
        feed = [self.c.text("cli.panel.recent")] + scr.feed(self.game.log or [], start)
        self.put("feed", feed)
        self.query_one("#feed-scroll", VerticalScroll).scroll_end(animate=False)

    def board_lines(self, scr: Screen, changed) -> List[str]:
        """The map without the column heads and the legend (help explains them), to fit 24 rows."""
        return scr.board(changed, legend=False)

    def fill_choices(self, keep: bool = False) -> None:
        s = self.session
        highlighted = self.query_one("#choices", OptionList).highlighted if keep else None
        decision = s.decision
        self.menu = s.choices(decision, self.source)
        question = self.show.prompt(self.game, decision)
        notes = s.blocked_notes(decision)
        self.put("question", [self.style.bold(question)] + notes)
        options = []
        digits = len(str(len(self.menu)))
        for number, choice in enumerate(self.menu, 1):
            line = Text(f"{str(number).rjust(digits)} ", style="bold")
            line.append(choice.description)
            if choice.notation and self.size.width >= WIDE:
                line.append(f"  [{choice.notation}]", style="dim")
            options.append(Option(line))
        choices = self.query_one("#choices", OptionList)
        choices.clear_options()
        choices.add_options(options)
        # nothing is highlighted until the player moves in the list: Enter takes only a choice moved to
        choices.highlighted = highlighted if highlighted is not None and highlighted < len(options) else None
        if not keep:
            self.focus_now(choices)
        words = [c.notation for c in self.menu if c.notation] + [s.command_word(w) for w in
                                                                 ("help", "card", "log", "rules", "undo", "quit")]
        self.query_one("#command", Input).suggester = SuggestFromList(words, case_sensitive=False)
        self.preview(choices.highlighted)

    def preview(self, index: Optional[int]) -> None:
        """The highlighted choice's consequences, or its card in full."""
        s = self.session
        if s is None or s.decision is None or self.hidden:
            return
        if index is None or not 0 <= index < len(self.menu):
            self.put("preview", [self.style.dim(self.c.text("cli.tui.preview_hint"))])
            return
        choice = self.menu[index]
        lines = [f"{self.style.arrow} {text}" for text in s.consequences(s.decision, choice.action)]
        action = choice.action
        scr = self.screen_blocks(self.query_one("#preview", Static).size.width or 40)
        if action is not None and action.kind in ("value", "event", "claim", "keep", "order"):
            kind = info.OBJECTIVE if action.kind == "keep" else info.STRATEGY
            lines += info.card_text(scr, kind, action.a)
        self.put("preview", lines)

    @on(OptionList.OptionHighlighted, "#choices")
    def highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self.replay is None:
            self.preview(event.option_index)

    @on(OptionList.OptionSelected, "#choices")
    def selected(self, event: OptionList.OptionSelected) -> None:
        """A choice clicked (Enter is taken in ``route``): only if it is still on the list."""
        choices = event.option_list
        if self.replay is None and self.session.decision is not None and event.option_index < choices.option_count \
                and choices.get_option_at_index(event.option_index) is event.option:
            self.take(str(event.option_index + 1))

    @on(Input.Submitted, "#command")
    def submitted(self, event: Input.Submitted) -> None:
        self.submit_line(event.value)

    def submit_line(self, text: str) -> None:
        """Enter on the command line: the line is taken, or refused and kept to be mended."""
        command = self.query_one("#command", Input)
        if self.replay is not None:
            command.value = ""
            self.replay_command(text)
            self.screen.set_focus(None)  # the arrow keys step through the replay again
            return
        if self.session.decision is None or not self.take(text):
            return
        command.value = ""
        if self.session is not None and not self.hidden:
            self.focus_now(self.query_one("#choices", OptionList))

    def take(self, text: str) -> bool:
        """Act on a typed line or a picked choice: the session reads it as the line mode does.
        False when it is refused (said under the feed)."""
        s = self.session
        decision = s.decision
        if self.hidden:  # the terminal is changing hands: nothing is taken until the next player is there
            return False
        if self.thinking is not None:  # the decision is the bot's: nothing typed is for it
            self.say(self.thinking_text(), error=True)
            return False
        reading = s.read(text, decision, self.menu)
        if reading.kind == "problem":
            self.say(reading.problem, error=True)
            return False
        if reading.kind in ("source", "back"):
            self.say("")
            self.source = s.sources(decision)[reading.source] if reading.kind == "source" else None
            self.fill_choices()
            return True
        if reading.kind == "action":
            self.say("")
            problem = s.apply(reading.action)
            if problem:
                self.say(problem, error=s.save_failed)
            self.advance()
            return True
        return self.command(reading.command, reading.rest)

    def command(self, command: str, rest: str) -> bool:
        """A command word typed at a decision; False when what follows it is refused."""
        if command == "help":
            self.action_help()
        elif command == "log":
            self.action_log()
        elif command == "rules":
            return self.rules(rest)
        elif command == "card":
            scr = self.screen_blocks(self.size.width - 10)
            found, problem = info.card_query(scr, rest, self.session.decision, self.session.command_word("card"))
            if problem:
                self.say(problem, error=True)
                return False
            lines = []
            for kind, index in found:
                lines += info.card_text(scr, kind, index) + [""]
            self.info(lines)
        elif command == "why":
            self.info(info.why_lines(self.session))
        elif command == "undo":
            self.action_undo()
        elif command == "board":
            self.draw(again=True)
        elif command == "quit":
            self.action_quit_game()
        return True

    def say(self, text: str, error: bool = False) -> None:
        """A message under the feed that stays until the next action."""
        shown = f"{self.style.error_mark} {text}" if error and text else text
        message = self.query_one("#message", Static)
        message.update(styled([self.style.error(shown) if error else shown]))


    def info(self, lines: List[str]) -> None:
        self.push_screen(InfoScreen(styled(lines), self.c.text("cli.tui.close")))

    # ------------------------------------------------------------------ commands
    def action_help(self) -> None:
        if self.replay is not None:
            self.info([self.c.text("cli.tui.replay_help")])
            return
        if self.thinking is not None:
            self.info([self.thinking_text(), "", self.c.text("cli.tui.keys_help")])
            return
        s = self.session
        scr = self.screen_blocks(self.size.width - 10)
        words = {name: s.command_word(name) for name in ("help", "card", "log", "rules", "board", "undo", "quit")}
        lines = info.help_lines(scr, s.decision, s.hotseat, s.path, words)
        lines += ["", self.c.text("cli.tui.keys_help")]
        legend = scr.board()[-1]
        self.info(lines + ["", legend])

    def action_log(self) -> None:
        lines = [self.style.bold(self.c.text("cli.log.title"))]
        lines += ["  " + line for line in self.show.log_lines(self.game.log or [])]
        self.info(lines)

    def action_rules(self) -> None:
        self.rules("")

    def rules(self, query: str) -> bool:
        word = self.session.command_word("rules") if self.session else "rules"
        lines, problem = info.rules_query(self.screen_blocks(self.size.width - 10), query, word)
        if problem:
            self.say(problem, error=True)
            return False
        self.info(lines)
        return True

    def action_undo(self) -> None:
        s = self.session
        if s is None or s.decision is None:
            return
        if self.thinking is not None:  # the bot reads the game in its thread: it is not changed under it
            self.say(self.thinking_text(), error=True)
            return
        done, text = s.undo(s.decision.player)
        self.say(text, error=not done)
        if done:
            self.advance()

    def action_focus_choices(self) -> None:
        """Escape: what is typed goes, the arrow keys move in the choices again."""
        self.query_one("#command", Input).value = ""
        self.focus_now(self.query_one("#choices", OptionList))

    async def action_quit(self) -> None:
        self.action_quit_game()

    def action_quit_game(self) -> None:
        """Stop and say where the game is saved.  During a bot's move the file holds the game up to
        the move before it (the bot is asked again on resume, and answers the same)."""
        self.leaving = True
        if self.thinking is not None:
            self.thinking[0].cancel()
        s = self.session
        if s is not None and not s.over:
            s.save()
            lines = [self.c.text("cli.stop.quit")]
            if not s.save_failed:
                lines += [self.c.text("cli.stop.saved", file=str(s.path)), s.resume_hint()]
            else:
                lines.append(s.unsaved_text())
            self.outcome = "\n".join(lines)
        self.exit(self.code)

    async def on_event(self, event: events.Event) -> None:
        """Typed text goes to the command line, in the order typed, whatever has the focus.

        Keys are taken here, in the order they arrive, before they are handed to the focused
        widget: in a burst of keys (a paste, a fast typist, a loaded machine) the rest of the
        burst is already queued for the choice list when the first key moves the focus, and an
        Enter there would take the highlighted choice.  So the command line is edited and
        submitted from here, and the choice list takes Enter only while nothing is typed."""
        if not event.is_forwarded and isinstance(event, (events.Key, events.Paste)) and await self.route(event):
            return
        await super().on_event(event)

    async def route(self, event) -> bool:
        """Act on a key or a paste meant for the command line (or, from an empty command line, an
        arrow for the choice list); True when it is dealt with here."""
        if not self.is_running or len(self.screen_stack) != 1:
            return False
        try:
            command = self.query_one("#command", Input)
            choices = self.query_one("#choices", OptionList)
        except Exception:  # the screen is being built or taken down
            return False
        if isinstance(event, events.Paste):
            self.focus_now(command)
            command.insert_text_at_cursor(" ".join(event.text.split()))
            return True
        typing = command.has_focus or bool(command.value)
        if self.replay is not None and not typing and event.key in REPLAY_KEYS:
            return False  # (on_key steps through the game)
        own = self._bindings.key_to_bindings.get(event.key)
        if own:  # the interface's own keys (F1, Escape, Ctrl+Z ...) in their turn, not after later keys
            await self.run_action(own[0].action, self)
            return True
        if event.character is not None and event.character.isprintable():
            self.focus_now(command)
            if command.selection.is_empty:
                command.insert_text_at_cursor(event.character)
            else:
                command.replace(event.character, *command.selection)
            return True
        if event.key == "enter" and typing:
            self.submit_line(command.value)
            return True
        if typing and event.key in command._bindings.key_to_bindings and event.key not in ("ctrl+c", "super+c"):
            self.focus_now(command)
            await self.run_action(command._bindings.key_to_bindings[event.key][0].action, command)
            return True
        if self.replay is not None or not self.menu:
            return False
        if command.has_focus and event.key in LIST_KEYS:
            self.focus_now(choices)  # the arrows move in the choices, as from the list
        if not choices.has_focus:
            return False
        if event.key == "enter":  # the choice moved to, taken now (not after keys typed since)
            if choices.highlighted is None:
                self.say(self.c.text("cli.tui.pick", n=len(self.menu)), error=True)
            else:
                self.take(str(choices.highlighted + 1))
            return True
        moves = choices._bindings.key_to_bindings.get(event.key)
        if moves:
            await self.run_action(moves[0].action, choices)
            return True
        return False

    @staticmethod
    def focus_now(widget) -> None:
        """Focus at once (``focus()`` waits its turn, after keys already queued)."""
        widget.screen.set_focus(widget)

    def on_key(self, event) -> None:
        """In a replay, the arrow keys step through the game."""
        command = self.query_one("#command", Input)
        if self.screen is not self.screen_stack[0] or command.has_focus:
            return
        if self.replay is not None and self.replay_key(event.key):
            event.stop()

    # ------------------------------------------------------------------ the end
    def final(self) -> None:
        s = self.session
        scr = self.screen_blocks()
        humans = [i for i in (0, 1) if s.humans[i]] or [0]
        viewer = min(humans, key=lambda i: s.seen[i])
        summaries = s.round_ends_since(viewer)
        self.put("header", scr.header(compact=True))
        self.put("board", self.board_lines(scr, s.changed_spaces(viewer)), wrap=False)
        self.put("tracks", scr.tracks(legend=False), wrap=False)
        start, log = s.feed(viewer)
        self.put("feed", [self.c.text("cli.panel.recent")] + scr.feed(log, start))
        for name in ("hand", "hand-small", "preview"):
            self.put(name, [])
        result = scr.result(reveal_seed=s.seed if s.hotseat else None)
        self.put("question", result)
        self.query_one("#choices", OptionList).clear_options()
        self.say(s.replay_hint())
        self.outcome = "\n".join([Text.from_ansi(line).plain for line in result] + [s.replay_hint()])
        self.push_screen(InfoScreen(styled(result + ["", s.replay_hint()]), self.c.text("cli.tui.close")))
        for summary in reversed(summaries):
            self.push_screen(InfoScreen(styled(scr.round_end(summary)), self.c.text("cli.tui.close")))

    # ------------------------------------------------------------------ replay
    def replay_draw(self) -> None:
        r = self.replay
        scr = self.screen_blocks()
        self.put("header", scr.header(compact=True) + [self.c.text("cli.tui.replay_position", position=r.position,
                                                                   n=r.size)])
        self.put("board", self.board_lines(scr, ()), wrap=False)
        self.put("tracks", scr.tracks(legend=False), wrap=False)
        private = []
        if r.private_shown():
            for side in (0, 1):
                private += scr.private(side, detailed=False)
        self.put("hand", private)
        self.put("hand-small", [""] + private)
        log = r.game.log or []
        before = self._log_before()
        self.put("feed", scr.feed(log, before))
        self.query_one("#feed-scroll", VerticalScroll).scroll_end(animate=False)
        found = r.next_action()
        lines = []
        if found is not None:
            decision, action = found
            names = [self.side(i) for i in (0, 1)]
            if decision.hidden and not r.private_shown():
                lines.append(self.c.text("cli.replay.action_hidden", n=r.position + 1, side=names[decision.player]))
            else:
                lines.append(self.c.text("cli.replay.action", n=r.position + 1, side=names[decision.player],
                                         text=self.show.notation(r.game, action),
                                         description=self.show.action(r.game, decision, action)))
        elif r.game.over:
            lines += scr.result()
        else:
            lines.append(self.c.text("cli.replay.end_unfinished", n=r.size))
        self.put("question", lines)
        self.query_one("#choices", OptionList).clear_options()
        self.put("preview", [self.c.text("cli.tui.replay_keys")])

    def _log_before(self) -> int:
        r = self.replay
        if r.position == 0:
            return 0
        here = r.position
        r.go(here - 1)
        size = len(r.game.log or [])
        r.go(here)
        return size

    def replay_key(self, key: str) -> bool:
        r = self.replay
        if key in ("right", "n", "enter", "space"):
            r.go(r.position + 1)
        elif key in ("left", "p", "backspace"):
            r.go(r.position - 1)
        elif key == "home":
            r.go(0)
        elif key == "end":
            r.go(r.size)
        elif key == "b":
            self.branch()
            return True
        else:
            return False
        self.replay_draw()
        return True

    def replay_command(self, text: str) -> None:
        """A number (that action), round N (or final), branch, back, quit."""
        r = self.replay
        if too_long(text):
            self.say(too_long_text(self.c), error=True)
            return
        text = text.strip()
        word, _, rest = text.partition(" ")
        command = command_of(self.c, word, REPLAY_COMMANDS) if word else None
        if not text:
            r.go(r.position + 1)
        elif command == "quit":
            self.exit(self.code)
            return
        elif command == "back":
            r.go(r.position - 1)
        elif command == "branch":
            self.branch()
            return
        elif command == "round":
            start = (r.final_crisis_start() if command_of(self.c, rest.strip(), REPLAY_COMMANDS) == "final"
                     else r.round_start(typed_number(rest.strip())) if typed_number(rest.strip()) is not None
                     else None)
            if start is None:
                self.say(self.c.text("cli.replay.no_round", round=shown(rest.strip())), error=True)
                return
            r.go(start)
        elif typed_number(text.lstrip("#")) is not None:
            number = typed_number(text.lstrip("#"))
            if not 1 <= number <= r.size + 1:
                self.say(self.c.text("cli.replay.no_action", number=shown(text.lstrip("#")), n=r.size), error=True)
                return
            r.go(number - 1)
        else:
            self.say(self.c.text("cli.replay.step_help"), error=True)
            return
        self.say("")
        self.replay_draw()

    def branch(self) -> None:
        """Play on from the replay's current action, in a new file."""
        r = self.replay
        self.session = r.branch(r.position)
        self.replay = None
        self.query_one("#choices", OptionList).display = True
        self.say(self.c.text("cli.replay.branched", file=str(self.session.path), n=r.position))
        self.advance()


def ask_bot(session: GameSession, decision) -> Optional[object]:
    """The bot's action, worked out in a daemon thread that this worker waits for: when the game
    is left meanwhile, the worker is cancelled and returns at once, and the search (which cannot
    be interrupted) does not hold the program open; its answer is dropped."""
    worker = get_current_worker()
    answer = {}

    def choose():
        try:
            answer["action"] = session.bot_choice(decision)
        except BaseException as error:  # raised again in the worker: the interface stops on it
            answer["error"] = error

    thread = threading.Thread(target=choose, name="crisis-bot", daemon=True)
    thread.start()
    while thread.is_alive():
        thread.join(0.05)  # returns as soon as the bot has answered
        if worker.is_cancelled:
            return None
    if "error" in answer:
        raise answer["error"]
    return answer["action"]


def run_app(session: Optional[GameSession] = None, replay: Optional[Replay] = None, no_color: bool = False) -> int:
    """Run the interface until the game is left; then say where it is saved, on the normal screen."""
    if no_color:
        os.environ.setdefault("NO_COLOR", "1")  # Textual's own colours go too
    app = CrisisApp(session=session, replay=replay, no_color=no_color)
    app.run()
    code = app.return_code or EXIT_OK
    if app.outcome:
        print(app.outcome)
    elif code and app.session is not None:  # a bug (Textual has shown it): the file holds every action
        print(app.c.text("cli.tui.crashed", file=str(app.session.path)))
        print(app.session.resume_hint())
    return code
