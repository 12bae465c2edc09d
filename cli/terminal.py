"""The terminal a person plays at: output with optional colours, input lines.

Colours (blue for the first side, red for the second: both readable on dark
and light backgrounds) are used only when stdout is a terminal, ``NO_COLOR``
is unset, ``TERM`` is not ``dumb`` and ``--no-color`` was not given.  Every
line is broken between words to the terminal's width (``COLUMNS`` on a pipe,
else 100).  The screen is cleared only to hide a hand before the terminal is
passed on (ANSI codes on a terminal, a separator line on a pipe), so nothing
printed is ever wiped by the next screen.  This module holds no words: every
text it prints is given to it.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from typing import Iterable, List, Optional, TextIO

from crisis.ruleset import limits

_RESET = "\x1b[0m"
# blue, red, then green, magenta, cyan, yellow for games of more sides: never dark gray, which
# vanishes on a dark background
_SIDE_COLOURS = ("\x1b[34m", "\x1b[31m", "\x1b[32m", "\x1b[35m", "\x1b[36m", "\x1b[33m")
_BOLD, _DIM, _RED, _GREEN, _REVERSE = "\x1b[1m", "\x1b[2m", "\x1b[1;31m", "\x1b[32m", "\x1b[7m"
# clear the screen and the scrollback (so the next player cannot scroll up to a hand), cursor home
_CLEAR = "\x1b[H\x1b[2J\x1b[3J"
# what is kept of a typed line: one character past the limit, so that the reader refuses it
_LONGEST_READ = limits.MAX_TYPED_CHARS + 1


def colour_wanted(stream: TextIO, no_color_flag: bool = False) -> bool:
    if no_color_flag or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Style:
    """Wraps text in ANSI colour codes, or leaves it plain."""

    def __init__(self, enabled: bool, unicode: bool = True):
        self.enabled = enabled
        self.unicode = unicode
        # board symbols (not words): a token, an empty slot, the mark of a place's attribute, a
        # marker, a bullet
        if unicode:
            self.token, self.empty, self.attribute, self.marker, self.bullet = "■", "·", "◆", "▲", "·"
            self.rule_char, self.bar, self.error_mark, self.arrow, self.new = "─", "│", "✗", "→", "•"
        else:
            self.token, self.empty, self.attribute, self.marker, self.bullet = "#", ".", "*", "^", "-"
            self.rule_char, self.bar, self.error_mark, self.arrow, self.new = "-", "|", "x", "->", "o"

    def _wrap(self, code: str, text: str) -> str:
        return f"{code}{text}{_RESET}" if self.enabled and text else text

    def side(self, index: int, text: str) -> str:
        return self._wrap(_SIDE_COLOURS[index % len(_SIDE_COLOURS)], text) if index >= 0 else text

    def bold(self, text: str) -> str:
        return self._wrap(_BOLD, text)

    def dim(self, text: str) -> str:
        return self._wrap(_DIM, text)

    def highlight(self, text: str) -> str:
        """What changed since the player's last turn."""
        return self._wrap(_REVERSE, text)

    def error(self, text: str) -> str:
        return self._wrap(_RED, text)

    def good(self, text: str) -> str:
        return self._wrap(_GREEN, text)


_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def visible(text: str) -> int:
    """Width of a line on screen, colour codes left out."""
    return len(_ESCAPE.sub("", text))


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - visible(text))


def fit(line: str, width: int, indent: Optional[int] = None) -> List[str]:
    """A (possibly coloured) line broken between words so that no piece is wider than ``width``;
    pieces after the first are indented like the line, plus two (or by ``indent``: a column the
    caller lines them up with, such as a menu's labels, kept while it leaves 20 columns)."""
    if visible(line) <= width:
        return [line]
    lead = len(line) - len(line.lstrip(" "))
    hang = " " * (min(width // 2, lead + 2) if indent is None else min(indent, max(width // 2, width - 20)))
    out: List[str] = []
    current, size, empty = " " * lead, lead, True
    for word in line[lead:].split(" "):
        length = visible(word)
        if not empty and size + 1 + length > width:
            out.append(current)
            current, size, empty = hang, len(hang), True
        if not empty:
            current += " "
            size += 1
        while length > width - size > 0 and not _ESCAPE.search(word):  # a word longer than a line is cut
            room = width - size
            out.append(current + word[:room])
            word, length = word[room:], length - room
            current, size = hang, len(hang)
        current += word
        size += length
        empty = False
    out.append(current)
    return [piece.rstrip(" ") for piece in out]


def fit_all(lines: Iterable[str], width: int) -> List[str]:
    out: List[str] = []
    for line in lines:
        for part in line.split("\n"):
            out.extend(fit(part, width))
    return out


def _can_encode(stream: TextIO, text: str) -> bool:
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        text.encode(encoding)
        return True
    except (UnicodeEncodeError, LookupError):
        return False


class Terminal:
    """Lines out, lines in.  ``ask`` raises EOFError at end of input and lets
    KeyboardInterrupt through, so the caller can save and stop cleanly."""

    def __init__(self, out: Optional[TextIO] = None, inp: Optional[TextIO] = None, no_color: bool = False):
        self.out = out or sys.stdout
        self.inp = inp or sys.stdin
        for stream in (self.out, self.inp):  # a character the terminal cannot show or send is no crash
            try:
                stream.reconfigure(errors="replace")
            except (AttributeError, ValueError, OSError):
                pass
        self.out_tty = _isatty(self.out)
        self.in_tty = _isatty(self.inp)
        self.style = Style(colour_wanted(self.out, no_color), unicode=_can_encode(self.out, "■·◆▲─│✗→•"))
        self._readline_loaded = False
        self._cleared = False  # nothing written since the last clear

    @property
    def width(self) -> int:
        """Columns to fill: the terminal's (or ``COLUMNS``), 100 on a pipe, within 40..160."""
        return max(40, min(shutil.get_terminal_size((100, 40)).columns, 160))

    def write(self, text: str = "") -> None:
        self.lines([text])

    def lines(self, lines: Iterable[str]) -> None:
        self._cleared = False
        for line in fit_all(lines, self.width):
            self.out.write(line + "\n")
        self.out.flush()

    def command_hint(self, text: str, command: str) -> None:
        """A sentence that ends with a command to copy ('Continue it with: crisis resume FILE'):
        on one line where it fits, else the command on a line of its own, never broken (a
        command broken over two lines runs without its file when pasted)."""
        from .paths import command_apart
        if len(text) <= self.width:
            self.lines([text])
            return
        *before, last = command_apart(text, command)
        self.lines(before)
        self.out.write((last if before else text) + "\n")
        self.out.flush()

    def flush(self) -> None:
        self.out.flush()

    def rule(self, char: Optional[str] = None) -> str:
        return (char or self.style.rule_char) * min(self.width, 100)

    def clear(self) -> None:
        """A fresh screen: nothing above it can be read (on a pipe, a separator)."""
        if self.out_tty:
            self.out.write(_CLEAR)
        else:
            self.out.write("\n" + "=" * min(self.width, 72) + "\n\n")  # (no wider than the terminal)
        self.out.flush()
        self._cleared = True

    def new_screen(self) -> None:
        """Start a new screen below the last one: a blank line and a rule (nothing is wiped,
        so a message printed before it stays readable above it)."""
        if not self._cleared:
            self.out.write("\n" + self.rule() + "\n")
        self._cleared = False

    def ask(self, prompt: str) -> str:
        """One line of input without its newline; EOFError at end of input.  A prompt wider than
        the terminal is broken between words, the answer typed after its last piece."""
        if visible(prompt) > self.width:
            *before, last = fit(prompt.rstrip(" "), self.width - 1)
            self.lines(before)
            prompt = last + " "
        if self.in_tty and self.out_tty:
            if not self._readline_loaded:
                self._readline_loaded = True
                try:  # line editing and history where available
                    import readline  # noqa: F401
                except ImportError:  # pragma: no cover - platform dependent
                    pass
            self.out.flush()
            return input(prompt)
        self._cleared = False
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline(_LONGEST_READ)
        if not line:
            self.out.write("\n")
            raise EOFError
        rest = line
        while not rest.endswith("\n") and rest:  # longer than any prompt takes: the rest is read and dropped
            rest = self.inp.readline(_LONGEST_READ)
        line = line.rstrip("\r\n")
        if not self.in_tty:
            self.out.write(line + "\n")  # echo piped input, so that a transcript reads naturally
        return line


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
