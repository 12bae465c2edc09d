"""The full-screen interface: the board, the tracks, your cards, the choices, what an action
would do and everything since your last turn, all on one screen.

It is a second front-end on the same ``GameSession`` as the line mode: the
session applies actions, saves after each one, undoes, reads typed input and
works out consequences; this module only lays them out.  The text blocks come
from ``crisis.cli.board`` (the line mode's own), turned from ANSI colour codes
into Textual's styled text, so both modes say the same things in the same
words.  Text is broken into lines when it is drawn, at the width of its pane
(``Paragraphs``), so it re-wraps with the terminal.

Layout: the map and the tracks on the left; the question, the choices, what
the highlighted choice would do and the feed on the right.  Your cards go
under the tracks where the left column has room for them (from about 35
rows), else on the right, in a line each (the highlighted card shows in full
under the choices); on a very wide terminal they get a column of their own,
in full.  The right column gives its rows in the order a decision needs them
(``fit_choices``): the question, a message whole, every choice, then what the
highlighted one would do and your cards (cut, with a scroll bar, when the
choices take their rows), and the feed in what is left, cut at whole entries
(or under the tracks, where those leave it more rows).
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import threading
from typing import List, Optional, Tuple

from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.input import Selection
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState, get_current_worker

from crisis.ruleset.diagnostics import shown

from .. import info
from ..board import Screen
from ..exits import EXIT_INTERRUPTED, EXIT_OK
from ..session import REPLAY_COMMANDS, GameSession, Replay, before_result, command_of
from ..paths import command_apart, shown_path
from ..terminal import Style
from ..typed import too_long, too_long_text, typed_number
from .paragraphs import Paragraphs

WIDE = 150  # columns from which the cards get their own column
_LEFT = 38  # the map's column (#left in the CSS)
_FRAME = 3  # a column's border (1) and padding (1 on each side): #right and #cards in the CSS
SHORT = 50  # columns of the choices under which your cards are named with their value only
NOTATION = 70  # columns of the choices from which each shows its action as typed ([value lincoln])
ROOMY = 12  # rows left under the map and the tracks from which your cards go there
CHROME = 4  # rows around the panes: the header (2), the command line and the keys
LEFT_TEXT = 36  # the width of the text under the map
POPUP = 10_000  # the width text for a pop-up is made at: unbroken (it is broken as it is drawn)
FEED_ROWS = 2  # rows the feed keeps under the choices before your cards and a choice's preview
# keys that move in the choice list, from the command line while nothing is typed there
LIST_KEYS = frozenset({"up", "down", "pageup", "pagedown"})
# keys that step through a replay while nothing is typed; no letter among them, so that words are
# typed whole ('back', 'branch', 'b' then Enter): a 'b' alone branched off into a new file at once
REPLAY_KEYS = frozenset({"right", "enter", "space", "left", "backspace", "home", "end"})



class InfoScreen(ModalScreen):
    """Help, a card, the rules, the whole log, the end of a round: read, then Enter or Escape."""

    BINDINGS = [Binding("escape,enter,q,space", "close", "Close", show=False)]

    def __init__(self, text: Paragraphs, hint: str, at_end: bool = False):
        super().__init__()
        self.body, self.hint, self.at_end = text, hint, at_end

    def compose(self) -> ComposeResult:
        with Vertical(id="info"):
            with VerticalScroll(id="info-scroll"):
                yield Static(self.body, id="info-text")
            yield Static(Text(self.hint), id="info-hint")  # a catalog's text, never read as markup

    def on_mount(self) -> None:
        self.fit(self.app.size.height)
        if self.at_end:  # (the log: its newest entries first in view)
            self.call_after_refresh(self.query_one("#info-scroll", VerticalScroll).scroll_end, animate=False)

    def on_resize(self, event) -> None:
        self.fit(event.size.height)

    def fit(self, height: int) -> None:
        """As tall as the text, up to 90% of the screen, the hint under it always in view."""
        for scroll in self.query("#info-scroll"):  # (none yet when the first resize comes)
            scroll.styles.max_height = max(3, height * 9 // 10 - 3)

    def action_close(self) -> None:
        self.dismiss(None)


class ConfirmScreen(InfoScreen, inherit_bindings=False):
    """A play that cannot be taken back, typed without its consequences in view: what it would
    do, then Enter to play it or Escape to choose again."""

    BINDINGS = [Binding("enter", "play", "Play", show=False), Binding("escape,q", "close", "Close", show=False)]

    def action_play(self) -> None:
        self.dismiss(True)

    def action_close(self) -> None:
        self.dismiss(False)


class PassScreen(ModalScreen):
    """Hot seat: the screen is hidden until the next player is at the terminal (one screen,
    installed once and shown at every hand-over)."""

    BINDINGS = [Binding("enter", "ready", "Ready", show=False), Binding("u", "undo", "Undo", show=False),
                Binding("q", "quit_game", "Quit", show=False)]

    def __init__(self):
        super().__init__()
        self.body = Paragraphs([])

    def compose(self) -> ComposeResult:
        with Vertical(id="pass"):
            yield Static(self.body, id="pass-text")

    def say(self, text: Paragraphs) -> None:
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


class GameApp(App):
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #header { height: auto; background: $boost; padding: 0 1; }
    #main { height: 1fr; }
    #left { width: 38; padding: 0 0 0 1; scrollbar-size-vertical: 1; }  /* _LEFT */
    #cards { display: none; width: 1fr; padding: 0 1; border-left: solid $primary-darken-2; }
    #right { width: 1fr; padding: 0 1; border-left: solid $primary-darken-2; }
    #question { height: auto; max-height: 6; }
    .over #question, .watching #question { max-height: 60%; }
    #choices { height: auto; min-height: 3; border: none; padding: 0; scrollbar-size-vertical: 1; }
    #preview { height: auto; color: $text-muted; }
    #hand-right { height: auto; }
    .giving { height: auto; scrollbar-size-vertical: 1; }
    #hand-left { height: auto; margin: 1 0 0 0; }
    #feed-scroll { height: 1fr; min-height: 0; scrollbar-size-vertical: 1; }
    #feed-left { height: auto; margin: 1 0 0 0; }
    #message { height: auto; max-height: 8; }
    #command { height: 1; border: none; padding: 0 1; }
    .wide #cards { display: block; }
    InfoScreen, ConfirmScreen, PassScreen { align: center middle; }
    #info { width: 90%; height: auto; max-height: 90%; border: round $primary; background: $surface;
            padding: 0 1; }
    #info-scroll { height: auto; }
    #info-hint { height: 1; color: $text-muted; }
    #pass { width: 90%; height: auto; max-height: 90%; border: double $primary; background: $surface;
            padding: 1 2; }
    """

    BINDINGS = [Binding("escape", "focus_choices", show=False),
                Binding("ctrl+c", "halt", show=False, priority=True)]

    def __init__(self, session: Optional[GameSession] = None, replay: Optional[Replay] = None,
                 no_color: bool = False):
        super().__init__()
        self.session = session
        self.replay = replay
        self.show = (session or replay).show
        self.c = self.show.catalog
        self.style = Style(not no_color)
        self.holder: Optional[int] = None  # hot seat: who has the terminal
        # hot seat: what 'undo' at the pass screen took back, said once the terminal is back with
        # the player whose action it was (it may be a secret: an objective kept)
        self.taken_back: Optional[str] = None
        self.source = None  # the source chosen in a two-step move
        self.menu = []
        self.outcome = ""  # what to print once the interface is closed
        self._shown = {}  # what each pane shows (see put)
        self._lines = {}  # the lines each pane shows (see put)
        self._feed: List[str] = []  # the feed, and the rows left for it under the map (see place)
        self._room = 0
        self.hidden = False  # hot seat: the screen is hidden while the terminal changes hands
        self.code = EXIT_OK
        self.refusal_shown = False  # the message under the feed refuses what was typed (Escape clears it)
        # a bot's move being worked out in a thread: (its worker, how many actions the game had);
        # meanwhile the screen stays live but nothing is taken for anyone
        self.thinking: Optional[Tuple[Worker, int]] = None
        self.leaving = False  # the game is being left: a bot's late answer is not applied
        # the footer's keys, in the player's language (Textual's own Ctrl+Q, hidden and in English, goes)
        self._bindings.key_to_bindings.pop("ctrl+q", None)
        for keys, action, word in (("f1", "help", "help"), ("f2", "log", "log"), ("f3", "rules", "rules"),
                                   ("ctrl+z", "undo", "undo"), ("ctrl+q", "quit", "quit")):
            if replay is not None and word == "undo":
                continue  # a replay takes nothing back: its footer does not offer it
            self.bind(keys, action, description=self.c.text(f"cli.tui.keys.{word}"))

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with Horizontal(id="main"):
            with VerticalScroll(id="left"):
                yield Static(id="board")
                yield Static(id="tracks")
                yield Static(id="markers")
                yield Static(id="hand-left")
                yield Static(id="feed-left")
            with VerticalScroll(id="cards"):
                yield Static(id="hand")
            with Vertical(id="right"):
                yield Static(id="question")
                yield OptionList(id="choices")
                with VerticalScroll(id="preview-scroll", classes="giving"):
                    yield Static(id="preview")
                with VerticalScroll(id="hand-right-scroll", classes="giving"):
                    yield Static(id="hand-right")
                with VerticalScroll(id="feed-scroll"):
                    yield Static(id="feed")
                yield Static(id="message")
        # a replay steps with the arrows and takes words (back, branch, a number): its own hint
        placeholder = self.c.text("cli.tui.replay_placeholder", counter=self.replay.pass_name()) \
            if self.replay is not None else self.c.text("cli.tui.placeholder")
        yield Input(id="command", placeholder=placeholder, select_on_focus=False)
        yield Footer()

    def on_mount(self) -> None:
        self.title = self.c.text("cli.title")
        self.install_screen(PassScreen(), "pass")
        self._layout(self.size.width, self.size.height)
        if self.replay is not None:
            self.query_one("#choices", OptionList).display = False
            self.screen.add_class("watching")
            self.set_focus(None)
            self.replay_draw()
        else:
            self.advance()

    def on_resize(self, event) -> None:
        self._layout(event.size.width, event.size.height)
        self.call_after_refresh(self.redraw)
        self.call_after_refresh(self.fit_choices)

    def _layout(self, width: int, height: int = 24) -> None:
        self.screen.set_class(width >= WIDE, "wide")

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
        self.menu = []
        self.query_one("#choices", OptionList).clear_options()
        viewer = next((i for i in range(len(s.sides)) if s.humans[i]), None)
        if viewer is not None:  # (a bot against a bot has no one to show cards to)
            self.draw_game(viewer, s.shown_count(s.seen[viewer]), s.changed_spaces(viewer))
        self.put("question", [self.style.bold(self.thinking_text())])
        self.put("preview", [])

    def pass_text(self, player: int) -> Text:
        s = self.session
        lines = []
        other = self.holder
        if other is not None:
            done = s.turn_lines(other)
            if done:
                lines.append(self.c.text("cli.pass.happened", side=self.side(other)))
                lines += [f" {self.style.new} " + line for line in done]
                lines.append("")
        if self.taken_back is not None:
            lines += [self.c.text("cli.pass.taken_back", side=self.side(player)), ""]
        lines.append(self.style.bold(self.c.text("cli.pass.title", side=self.side(player))))
        if other is not None:
            lines.append(self.c.text("cli.pass.hint", side=self.side(player), other=self.side(other)))
        lines.append("")
        lines.append(self.c.text("cli.tui.pass_keys", side=self.side(player)))
        return Paragraphs(lines)

    def after_pass(self, answer) -> None:
        s = self.session
        if answer == "quit":
            self.action_quit_game()
            return
        if answer == "undo" and self.holder is not None:
            addressed, previous = s.decision.player, self.holder
            done, text = s.undo(previous)
            if not done:
                self.say(text, error=True)
                self.advance()
                return
            # whoever has the terminal now may be the player the pass screen addressed: the previous
            # player's screen, and what was taken back, come after the terminal is passed back
            self.taken_back, self.holder = text, addressed
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
        if self.taken_back is not None:
            self.say(self.taken_back)
            self.taken_back = None
        for summary in reversed(summaries):  # the earliest on top
            self.info(self.screen_blocks(POPUP).round_end(summary))

    def side(self, index: int) -> str:
        return self.style.side(index, self.show.side(self.game.sides[index]))

    def hide(self) -> None:
        """Nothing private stays on screen while the terminal changes hands."""
        self.hidden = True
        self.menu = []
        self._feed = []
        for name in ("hand", "hand-left", "hand-right", "preview", "question", "feed", "feed-left"):
            self.put(name, [])
        self.query_one("#choices", OptionList).clear_options()

    # ------------------------------------------------------------------ drawing
    def put(self, name: str, lines: List[str], wrap: bool = True) -> None:
        """Show lines in a pane, broken between words at its width as it is drawn (with the line
        mode's hanging indents), unless it shows them already (each change costs a redraw).
        A pane with nothing to show takes no room."""
        widget = self.query_one(f"#{name}", Static)
        key = "\n".join(lines)
        self._lines[name] = list(lines)
        if self._shown.get(name) != key:
            self._shown[name] = key
            widget.update(Paragraphs(lines, wrap=wrap))
        widget.display = bool(lines) or name in ("question", "feed")

    def draw(self, again: bool = False) -> None:
        """The whole screen for the player whose decision it is (``again``: the same turn redrawn,
        what is new since the last turn stays new)."""
        viewer = self.session.decision.player
        self.hidden = False
        self.fill_choices(keep=again)
        self.draw_game(viewer, *self.session.view(viewer))

    def draw_game(self, viewer: int, start: int, changed) -> None:
        """The board, the tracks, ``viewer``'s cards and the feed from its line ``start``."""
        scr = self.screen_blocks()
        self.put("header", scr.header(compact=True, width=self.size.width - 2))
        used = self.put_map(scr, changed)
        feed = [self.c.text("cli.panel.recent")] + scr.feed(self.session.shown_log(), start)
        self.place(scr, viewer, self.size.height - CHROME - used, feed)

    def place(self, scr: Screen, viewer: Optional[int], room: int, feed: List[str], private=None) -> None:
        """Your cards and the feed where they fit (``room``: the rows under the map and the tracks):
        in full in a column of their own on a very wide terminal; else a line a card, under the
        tracks if there is room, or on the right (by title and value only, on a narrow one); the
        feed where it has the more rows (see ``fit_choices``)."""
        wide = self.size.width >= WIDE
        left = not wide and room >= ROOMY
        if private is not None:  # (a replay: every side's cards, once the game is over)
            full = compact = private
        elif viewer is None:
            full = compact = []
        else:
            # in full, a column of their own: the card texts broken at its width, not the map's
            column = self.screen_blocks(self.cards_width()) if wide else scr
            full = column.public_cards([1 - viewer]) + column.private(viewer, detailed=True)
            compact = scr.hand_compact(viewer, counts=left, short=not left and self.right_width() < SHORT)
        self.put("hand", full if wide else [])
        self.put("hand-left", compact if left else [])
        self.put("hand-right", compact if not wide and not left else [])
        self._feed, self._room = feed, (room if not wide and not left else 0)
        self.fit_choices()
        self.call_after_refresh(self.fit_choices)

    def put_map(self, scr: Screen, changed) -> int:
        """The map (without the column heads and the legend: help explains them), the crisis
        tracks and the markers placed, in short; the rows they take."""
        board = scr.board(changed, legend=False)
        placed = scr.markers_placed()
        board = board[:len(board) - len(placed)]
        tracks = scr.tracks(legend=False)
        self.put("board", board, wrap=False)
        self.put("tracks", tracks, wrap=False)
        self.put("markers", placed)
        return len(board) + len(tracks) + len(Paragraphs(placed).lines(LEFT_TEXT))

    def fill_choices(self, keep: bool = False) -> None:
        s = self.session
        highlighted = self.query_one("#choices", OptionList).highlighted if keep else None
        decision = s.decision
        self.menu = s.choices(decision, self.source)
        question = self.show.prompt(self.game, decision)
        rule = self.show.prompt_rule(decision)
        notes = ([self.style.dim(rule)] if rule else []) + s.blocked_notes(decision)
        self.put("question", [self.style.bold(question)] + notes)
        options = []
        digits = len(str(len(self.menu)))
        notation = self.right_width() >= NOTATION
        for number, choice in enumerate(self.menu, 1):
            line = self.style.bold(str(number).rjust(digits)) + " " + choice.description
            if choice.notation and notation:
                line += "  " + self.style.dim(f"[{choice.notation}]")
            # broken between words, each continuation under the text, at the list's width as drawn
            options.append(Option(Paragraphs([line], indent=digits + 1)))
        choices = self.query_one("#choices", OptionList)
        choices.clear_options()
        choices.add_options(options)
        # nothing is highlighted until the player moves in the list: Enter takes only a choice moved to
        choices.highlighted = highlighted if highlighted is not None and highlighted < len(options) else None
        if not keep:
            self.focus_now(choices)
        self.call_after_refresh(self.fit_choices)
        words = [c.notation for c in self.menu if c.notation] + [s.command_word(w) for w in
                                                                 ("help", "card", "log", "rules", "undo", "quit")]
        self.query_one("#command", Input).suggester = SuggestFromList(words, case_sensitive=False)
        self.preview(choices.highlighted)

    def fit_choices(self) -> None:
        """The right column's rows, in the order a decision needs them: the question, a message
        (whole), then the choices (all of them, when the column has the rows), then what the
        highlighted choice would do, your cards (each cut to what is left, with a scroll bar), and
        the feed in the rows left over, or under the tracks where those have more rows."""
        width, height = self.right_size()
        lines = lambda name: len(Paragraphs(self._lines.get(name, [])).lines(max(1, width)))
        over = self.screen.has_class("over") or self.screen.has_class("watching")
        question = min(lines("question"), height * 6 // 10 if over else 6)
        message_pane = self.query_one("#message", Static)
        message = min(8, self._message_rows(width)) if message_pane.display else 0
        choices = self.query_one("#choices", OptionList)
        room = height - question - message
        used = 0
        if choices.display and choices.option_count:
            needed = self._choice_rows(choices, width)
            if needed > room:  # (a scroll bar: the lines are a column narrower)
                needed = self._choice_rows(choices, width - 1)
            used = min(needed, max(3, room))
            if choices.styles.max_height is None or choices.styles.max_height.value != used:
                choices.styles.max_height = used  # (a change lays the screen out again)
        left_rows = self._room - 1  # (the feed's rows under the tracks)
        for left in (False, True):
            rest = max(0, room - used)
            # the feed's newest entry in view, where that leaves as many rows to your cards
            keep = FEED_ROWS if not left and self._feed and rest >= 2 * FEED_ROWS else 0
            rest -= keep
            takes = {}
            for name in ("preview", "hand-right"):  # each in the rows left, with a scroll bar if cut
                need = lines(name) if self.query_one(f"#{name}", Static).display else 0
                take = min(need, rest)
                if take < need:
                    take = min(rest, len(Paragraphs(self._lines[name]).lines(max(1, width - 1))))
                rest -= take
                takes[name] = take
            if left or not (self._feed and left_rows >= 4 and left_rows > rest + keep):
                break
        for name, take in takes.items():
            pane = self.query_one(f"#{name}-scroll", VerticalScroll)
            if pane.styles.max_height is None or pane.styles.max_height.value != take:
                pane.styles.max_height = take
            pane.display = take > 0
        self.place_feed(width, rest + keep, left_rows if left else 0)

    def _message_rows(self, width: int) -> int:
        return len(Paragraphs(self._lines.get("message", [])).lines(max(1, width)))

    @staticmethod
    def _choice_rows(choices: OptionList, width: int) -> int:
        return sum(len(choices.get_option_at_index(i).prompt.lines(max(1, width)))
                   for i in range(choices.option_count))

    def place_feed(self, width: int, rows: int, left_rows: int) -> None:
        """The feed in the ``rows`` left on the right, or in ``left_rows`` under the tracks;
        cut at whole entries: under the tracks, the newest that fit, with a line counting the
        others; on the right, whole and scrolled to the first line of an entry."""
        feed = self._feed
        scroll = self.query_one("#feed-scroll", VerticalScroll)
        if feed and left_rows:
            self.put("feed-left", latest(feed, LEFT_TEXT, left_rows, self.c))
            self.put("feed", [])
            scroll.display = False
            return
        self.put("feed-left", [])
        self.put("feed", feed)
        scroll.display = rows > 0
        if scroll.styles.height is None or scroll.styles.height.value != rows:
            scroll.styles.height = rows
        pane = self.query_one("#feed", Static)
        sizes = [len(Paragraphs([line]).lines(max(1, width))) for line in feed]
        top, pad = 0, 0
        if sum(sizes) > rows:
            sizes = [len(Paragraphs([line]).lines(max(1, width - 1))) for line in feed]
            total = sum(sizes)
            top = total - sizes[-1] if sizes else 0  # (the newest alone: from its first line)
            at = 0
            for size in sizes:
                if total - at <= rows:
                    top = at
                    break
                at += size
            pad = max(0, rows - (total - top))
        if pane.styles.padding.bottom != pad:
            pane.styles.padding = (0, 0, pad, 0)
        self.call_after_refresh(scroll.scroll_to, y=top, animate=False)

    def right_size(self) -> Tuple[int, int]:
        """The right column's width and rows (before the first layout, from the terminal's)."""
        right = self.query_one("#right", Vertical)
        if right.content_size.width and right.content_size.height:
            return right.content_size.width, right.content_size.height
        header = len(self._lines.get("header", [])) or 2
        return self.right_width(), max(1, self.size.height - CHROME - header)

    def right_width(self) -> int:
        """The width of the choices, worked out from the terminal's as the CSS lays it out (the
        panes' own sizes are those of the last layout: just after a resize, the old ones)."""
        return self._column_width() - _FRAME

    def cards_width(self) -> int:
        """The width of the cards' own column on a wide terminal (as ``right_width``)."""
        return max(36, self._column_width() - _FRAME)

    def _column_width(self) -> int:
        """What the map's column leaves: the choices' column alone, or shared with the cards' own
        column from WIDE columns on (each ``1fr``)."""
        rest = self.size.width - _LEFT
        return rest // 2 if self.size.width >= WIDE else rest

    def preview(self, index: Optional[int]) -> None:
        """The highlighted choice's consequences, or its card in full (nothing before a move)."""
        s = self.session
        if s is None or s.decision is None or self.hidden:
            return
        if index is None or not 0 <= index < len(self.menu):
            self.put("preview", [])
            return
        choice = self.menu[index]
        lines = [f"{self.style.arrow} {text}" for text in s.consequences(s.decision, choice.action)]
        scr = self.screen_blocks(POPUP)
        card = scr.action_card(s.decision, choice.action)
        if card is not None:  # a card played, kept or ordered: in a few lines (``card NAME``: all of it)
            lines += scr.card_preview(*card)
        self.put("preview", lines)
        self.call_after_refresh(self.fit_choices)

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
            self.take(str(event.option_index + 1), previewed=True)

    @on(Input.Submitted, "#command")
    def submitted(self, event: Input.Submitted) -> None:
        self.submit_line(event.value)

    def submit_line(self, text: str) -> None:
        """Enter on the command line: the line is taken, or refused and kept to be mended or typed over."""
        command = self.query_one("#command", Input)
        if self.replay is not None:
            command.value = ""
            self.replay_command(text)
            self.screen.set_focus(None)  # the arrow keys step through the replay again
            return
        if self.session.decision is None:  # (the game is over: nothing more is taken)
            command.value = ""
            return
        if not self.take(text):
            # kept to be mended (an arrow key or Home), or typed over (it is selected)
            command.selection = Selection(0, len(command.value))
            return
        command.value = ""
        if self.session is not None and not self.hidden:
            self.focus_now(self.query_one("#choices", OptionList))

    def take(self, text: str, previewed: bool = False) -> bool:
        """Act on a typed line or a picked choice: the session reads it as the line mode does.
        False when it is refused (said under the feed), or when it plays a card's rule that would
        cost something and cannot be taken back, typed without its consequences in view
        (``previewed``: picked in the choices, under which they show): a window says what it
        would do, and Enter there plays it."""
        s = self.session
        decision = s.decision
        if self.hidden:  # the terminal is changing hands: nothing is taken until the next player is there
            return False
        if self.thinking is not None:  # the decision is the bot's: nothing typed is for it
            self.say(self.thinking_text(), error=True)
            return False
        reading = s.read(text, decision, self.menu)
        if reading.kind == "action" and not previewed:
            warnings = s.warnings(decision, reading.action)
            if warnings:
                self.confirm(reading.action, warnings)
                return False
        if reading.kind == "problem":
            self.say(reading.problem, error=True)
            return False
        if reading.kind in ("source", "back"):
            self.say("")
            self.source = s.sources(decision)[reading.source] if reading.kind == "source" else None
            self.fill_choices()
            return True
        if reading.kind == "action":
            self.play(reading.action)
            return True
        return self.command(reading.command, reading.rest)

    def play(self, action) -> None:
        s = self.session
        self.say("")
        problem = s.apply(action)
        if problem:
            self.say(problem, error=s.save_failed)
        self.advance()

    def confirm(self, action, warnings: List[str]) -> None:
        """Say what a play that cannot be taken back would do, in a window: Enter plays it (the
        line typed goes), Escape leaves the line typed to be mended."""
        s = self.session
        played = len(s.game.history)
        lines = [self.style.bold(self.c.text("cli.consequence.confirm",
                                             action=self.show.action(self.game, s.decision, action)))]
        lines += [f"{self.style.arrow} {line}" for line in warnings]

        def answered(play) -> None:
            if not play or s is not self.session or len(s.game.history) != played or s.decision is None:
                return
            self.query_one("#command", Input).value = ""
            self.focus_now(self.query_one("#choices", OptionList))
            self.play(action)

        self.push_screen(ConfirmScreen(Paragraphs(lines), self.c.text("cli.tui.confirm_keys")), callback=answered)

    def command(self, command: str, rest: str) -> bool:
        """A command word typed at a decision; False when what follows it is refused."""
        if command == "help":
            self.action_help()
        elif command == "log":
            self.action_log()
        elif command == "rules":
            return self.rules(rest)
        elif command == "card":
            scr = self.screen_blocks(POPUP)
            found, problem = info.card_query(scr, rest, self.session.decision, self.session.command_word("card"))
            if problem:
                self.say(problem, error=True)
                return False
            lines = []
            for kind, index in found:
                lines += info.card_text(scr, kind, index) + [""]
            self.info(lines)
        elif command == "why":
            lines = info.why_lines(self.session)
            if len(lines) == 1:  # (nothing to explain: said in a line, not in a window)
                self.say(lines[0])
            else:
                self.info(lines)
        elif command == "undo":
            self.action_undo()
        elif command == "board":
            self.draw(again=True)
        elif command == "quit":
            self.action_quit_game()
        return True

    def say(self, text: str, error: bool = False) -> None:
        """A message under the feed that stays until the next action (broken between words, not cut
        at the screen's edge; none takes no room)."""
        shown = f"{self.style.error_mark} {text}" if error and text else text
        self.refusal_shown = bool(error and text)
        message = self.query_one("#message", Static)
        self._lines["message"] = [self.style.error(shown) if error else shown] if text else []
        message.update(Paragraphs([self.style.error(shown) if error else shown]))
        message.display = bool(text)
        self.call_after_refresh(self.fit_choices)

    def info(self, lines: List[str], at_end: bool = False) -> None:
        """A pop-up; its paragraphs are broken as it is drawn, continuations under their first line."""
        self.push_screen(InfoScreen(Paragraphs(lines, hang=0), self.c.text("cli.tui.close"), at_end))

    # ------------------------------------------------------------------ commands
    def action_help(self) -> None:
        if self.replay is not None:
            self.info([self.c.text("cli.tui.replay_help", counter=self.replay.pass_name())])
            return
        if self.thinking is not None:
            self.info([self.thinking_text(), "", self.c.text("cli.tui.keys_help")])
            return
        s = self.session
        scr = self.screen_blocks(POPUP)
        words = {name: s.command_word(name) for name in ("help", "card", "log", "rules", "board", "undo", "quit")}
        lines = info.help_lines(scr, s.decision, s.hotseat, s.path, words,
                                s.command_word("why") if info.explained(s) else None)
        lines += ["", self.c.text("cli.tui.keys_help")]
        legend = scr.board()[-1]
        self.info(lines + ["", legend])

    def action_log(self) -> None:
        lines = [self.style.bold(self.c.text("cli.log.title"))]
        log = self.session.shown_log() if self.session is not None else self.replay.shown_log()
        lines += ["  " + self.show.log_line(entry) for entry in log]
        self.info(lines, at_end=True)  # the newest entries in view

    def action_rules(self) -> None:
        self.rules("")

    def rules(self, query: str) -> bool:
        word = self.session.command_word("rules") if self.session else "rules"
        lines, problem = info.rules_query(self.screen_blocks(POPUP), query, word)
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
        """Escape: what is typed goes, the arrow keys move in the choices again; so does a refusal of
        what was typed (it would stay over the preview of the choice the arrows reach)."""
        self.query_one("#command", Input).value = ""
        if self.refusal_shown:
            self.say("")
        self.focus_now(self.query_one("#choices", OptionList))

    async def action_quit(self) -> None:
        self.action_quit_game()

    async def action_halt(self) -> None:
        """Ctrl+C: as quit, the game saved, with the exit status of an interrupt (130), as the line
        mode and docs/playing.md give it; a game over ends as it would."""
        if self.session is not None and not self.session.over:
            self.code = EXIT_INTERRUPTED
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
                lines += [self.c.text("cli.stop.saved", file=shown_path(s.path)), s.resume_hint()]
            else:
                lines.append(s.unsaved_text())
            self.outcome = "\n".join(lines)
        self.exit(return_code=self.code)

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
                self.take(str(choices.highlighted + 1), previewed=True)
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
        humans = [i for i in range(len(s.sides)) if s.humans[i]] or [0]
        viewer = min(humans, key=lambda i: s.seen[i])
        summaries = s.round_ends_since(viewer)
        self.menu = []
        self.query_one("#choices", OptionList).clear_options()
        self.query_one("#choices", OptionList).display = False
        self.screen.add_class("over")  # (the score takes the choices' room)
        self.put("header", scr.header(compact=True, width=self.size.width - 2))
        used = self.put_map(scr, s.changed_spaces(viewer))
        start, log = s.feed(viewer)
        # the game is over: every side's cards, the hidden ones too, as the line mode's last screen
        every = list(range(len(s.sides)))
        private = scr.public_cards(every) + [line for side in every
                                             for line in scr.private(side, detailed=False, named=True)]
        self.place(scr, None, self.size.height - CHROME - used,
                   [self.c.text("cli.panel.recent")] + scr.feed(before_result(log), start), private=private)
        self.put("preview", [])
        result = scr.result(reveal_seed=s.seed if s.hotseat else None)
        self.put("question", result)
        hint = command_apart(s.replay_hint(), s.command("replay"))
        self.say("\n".join(hint))
        self.outcome = "\n".join([Text.from_ansi(line).plain for line in result] + [s.replay_hint()])
        self.info(result + [""] + hint)
        for summary in reversed(summaries):
            self.info(self.screen_blocks(POPUP).round_end(summary))

    # ------------------------------------------------------------------ replay
    def replay_draw(self) -> None:
        r = self.replay
        scr = self.screen_blocks()
        self.put("header", scr.header(compact=True, width=self.size.width - 2)
                 + [self.c.text("cli.tui.replay_position", position=r.position, n=r.size)])
        used = self.put_map(scr, ())
        private = []
        if r.private_shown():
            for side in range(len(r.game.sides)):
                private += scr.private(side, detailed=False)
        log = before_result(r.shown_log()) if r.game.over else r.shown_log()  # (the score names the winner)
        self.place(scr, None, self.size.height - CHROME - 1 - used, scr.feed(log, self._log_before()),
                   private=private)
        found = r.next_action()
        lines = []
        if found is not None:
            decision, action = found
            names = [self.side(i) for i in range(len(r.game.sides))]
            if r.kept_private(decision):  # (a card played shows, as in the line mode)
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
        self.put("preview", [self.c.text("cli.tui.replay_keys", counter=r.pass_name())])

    def _log_before(self) -> int:
        r = self.replay
        if r.position == 0:
            return 0
        here = r.position
        r.go(here - 1)
        size = len(r.shown_log())
        r.go(here)
        return size

    def replay_key(self, key: str) -> bool:
        r = self.replay
        if key in ("right", "enter", "space"):
            r.go(r.position + 1)
        elif key in ("left", "backspace"):
            r.go(r.position - 1)
        elif key == "home":
            r.go(0)
        elif key == "end":
            r.go(r.size)
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
        if command is None and r.is_pass_word(word):  # 'turn 3' in a game of turns
            command = "round"
        if not text:
            r.go(r.position + 1)
        elif command == "quit":
            self.exit(return_code=self.code)
            return
        elif command == "back":
            r.go(r.position - 1)
        elif command == "branch":
            self.branch()
            return
        elif command == "round":
            start = (r.after_rounds_start() if command_of(self.c, rest.strip(), REPLAY_COMMANDS) == "final"
                     else r.round_start(typed_number(rest.strip())) if typed_number(rest.strip()) is not None
                     else None)
            if start is None:
                self.say(self.c.text("cli.replay.no_round", round=shown(rest.strip()), counter=r.pass_name()),
                         error=True)
                return
            r.go(start)
        elif typed_number(text.lstrip("#")) is not None:  # the game after that action, as --branch N
            number = typed_number(text.lstrip("#"))
            if not 0 <= number <= r.size:
                self.say(self.c.text("cli.replay.no_action", number=shown(text.lstrip("#")), n=r.size), error=True)
                return
            r.go(number)
        else:
            self.say(self.c.text("cli.replay.step_help", counter=r.pass_name()), error=True)
            return
        self.say("")
        self.replay_draw()

    def branch(self) -> None:
        """Play on from the replay's current action, in a new file."""
        r = self.replay
        if r.finished and r.position >= r.size:  # a copy of the finished game: nothing to play on
            self.say(self.c.text("cli.replay.branch_at_end", n=r.size, last=r.size - 1), error=True)
            return
        self.session = r.branch(r.position)
        self.replay = None
        self.screen.remove_class("watching")
        self.query_one("#choices", OptionList).display = True
        # a game again: its hint, and undo in the footer
        self.query_one("#command", Input).placeholder = self.c.text("cli.tui.placeholder")
        self.bind("ctrl+z", "undo", description=self.c.text("cli.tui.keys.undo"))
        self.refresh_bindings()
        self.say(self.c.text("cli.replay.branched", file=shown_path(self.session.path), n=r.position))
        self.advance()


def latest(feed: List[str], width: int, rows: int, catalog) -> List[str]:
    """The feed's heading and as many of its newest entries as fit ``rows`` at ``width``, with a
    line saying how many earlier ones the log holds."""
    if len(Paragraphs(feed).lines(width)) <= rows:
        return feed
    entries = feed[1:]
    kept: List[str] = []
    while entries and len(Paragraphs([feed[0], "", *kept, entries[-1]]).lines(width)) <= rows:
        kept.insert(0, entries.pop())
    return [feed[0], catalog.text("cli.panel.earlier", n=len(entries))] + kept


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
    app = GameApp(session=session, replay=replay, no_color=no_color)
    app.run()
    code = app.return_code or EXIT_OK
    width = shutil.get_terminal_size().columns
    session = app.session
    commands = [] if session is None else [session.command(word) for word in ("resume", "replay")]
    if app.outcome:
        print(farewell(app.outcome, width, commands))
    elif code and session is not None:  # a bug (Textual has shown it): the file holds every action
        print(farewell("\n".join([app.c.text("cli.tui.crashed", file=shown_path(session.path)), session.resume_hint()]),
                       width, commands))
    return code


def farewell(text: str, width: int, commands: List[str]) -> str:
    """What is printed once the full screen has closed, broken between words at the terminal's
    width (the terminal would cut words), a command to copy never broken."""
    lines = []
    for paragraph in text.split("\n"):
        for command in commands:
            paragraph = paragraph.replace(command, command.replace(" ", "\0"))
        line = ""
        for word in re.findall(r" *\S+", paragraph):  # each word with the spaces before it
            if line.strip() and len(line) + len(word) > width:
                lines.append(line)
                line = word.lstrip(" ")
            else:
                line += word
        lines.append(line)
    return "\n".join(lines).replace("\0", " ")
