"""Where rule text comes from, and errors a designer can act on.

Rule text usually sits inside a YAML file.  A ``Source`` remembers where, so
that every diagnostic points at the YAML file's own line and column, quotes
that line and puts a caret under the problem.
"""

from __future__ import annotations

import difflib
import re
from typing import Callable, Iterable, List, Optional, Sequence, Tuple

import attrs

from . import limits


@attrs.frozen
class Source:
    """Rule text and the place it was read from.

    ``line_offsets[i]``/``column_offsets[i]`` translate line ``i+1`` of the
    rule text into the file: file line = rule line + line offset, file column =
    rule column + column offset.
    """

    text: str
    path: Optional[str] = None
    file_lines: Optional[Tuple[str, ...]] = attrs.field(default=None, repr=False)
    line_offset: int = 0
    column_offsets: Tuple[int, ...] = ()
    label: Optional[str] = None  # e.g. "card 'major-anderson', event"
    # exact translation, when the text's origin knows it (a YAML scalar of any style)
    locator: Optional[Callable[[int, int], Tuple[int, int]]] = attrs.field(default=None, eq=False, repr=False)

    def locate(self, line: int, column: int) -> Tuple[int, int]:
        if self.locator is not None:
            return self.locator(line, column)
        offset = 0
        if self.column_offsets:
            index = min(max(line - 1, 0), len(self.column_offsets) - 1)
            offset = self.column_offsets[index]
        return line + self.line_offset, column + offset

    def quote(self, file_line: int) -> Optional[str]:
        lines = self.file_lines
        if lines is None:
            lines = tuple(self.text.split("\n"))
            if 1 <= file_line - self.line_offset <= len(lines):
                return lines[file_line - self.line_offset - 1]
            return None
        if 1 <= file_line <= len(lines):
            return lines[file_line - 1]
        return None


@attrs.frozen
class Diagnostic:
    """One problem, located in a file, with what was expected and a hint."""

    message: str
    path: Optional[str] = None
    line: Optional[int] = None
    column: Optional[int] = None
    width: int = 1
    source_line: Optional[str] = None
    expected: Optional[str] = None
    hint: Optional[str] = None
    label: Optional[str] = None
    severity: str = "error"

    @property
    def location(self) -> str:
        parts = [self.path or "<rules>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def format(self) -> str:
        """The problem for a terminal: one line, then the source line with a caret, then what was expected.

        Everything is printed with control characters escaped and long texts
        shortened, since names and lines can come from untrusted files.
        """
        # a problem with no place at all (a command line's) is not pinned on "<rules>"
        place = f"{printable(self.location)}: " if self.path is not None or self.line is not None else ""
        head = f"{place}{self.severity}: {_clip(self.message)}"
        if self.label:
            head += f" (in {_clip(self.label)})"
        out = [head]
        if self.source_line is not None and self.line is not None:
            gutter = f"{self.line:>5} | "
            line, column = _window(self.source_line.rstrip("\r\n"), self.column or 1)
            out.append(gutter + line)
            if self.column is not None:
                # keep tabs so the caret lines up under tabbed text
                lead = "".join(c if c == "\t" else " " for c in line[: column - 1])
                width = min(max(self.width, 1), len(line) - column + 1) if len(line) >= column else 1
                out.append(" " * (len(gutter) - 2) + "| " + lead + "^" + "~" * max(width - 1, 0))
        if self.expected:
            out.append(f"  expected: {_clip(self.expected)}")
        if self.hint:
            out.append(f"  {_clip(self.hint)}")
        return "\n".join(out)

    def __str__(self) -> str:  # pragma: no cover - convenience
        return self.format()


def a_noun(noun: str) -> str:
    """"a space", "an area": a game's word with its article (a message names the game's things
    in its own words, whatever they begin with).  By the sound: "a unit", "a 'use_event:' entry"."""
    word = noun.lstrip("'\"").lower()
    vowel = word[:1] in "aeiou" and not word.startswith(("use", "usu", "uni", "eu", "one"))
    return ("an " if vowel else "a ") + noun  # "an 'adjacent:' entry"


def diagnostic_at(source: Optional[Source], line: Optional[int], column: Optional[int],
                  message: str, *, width: int = 1, expected: Optional[str] = None,
                  hint: Optional[str] = None, severity: str = "error") -> Diagnostic:
    """Build a diagnostic for a position in rule text, translated into the file."""
    if source is None:
        return Diagnostic(message=message, line=line, column=column, width=width,
                          expected=expected, hint=hint, severity=severity)
    if line is None:
        return Diagnostic(message=message, path=source.path, expected=expected, hint=hint,
                          label=source.label, severity=severity)
    file_line, file_column = source.locate(line, column or 1)
    return Diagnostic(message=message, path=source.path, line=file_line, column=file_column,
                      width=max(width, 1), source_line=source.quote(file_line),
                      expected=expected, hint=hint, label=source.label, severity=severity)


# Characters a terminal may act on: C0/C1 controls, line and paragraph
# separators, and the bidirectional overrides that reorder what is shown.
_UNPRINTABLE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def printable(text: str, keep: str = "") -> str:
    """Text with every control character written as an escape (``\\x1b``), except those in ``keep``."""
    def escape(match):
        char = match.group()
        if char in keep:
            return char
        code = ord(char)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    return _UNPRINTABLE.sub(escape, str(text))


def shown(value, limit: int = limits.MAX_SHOWN_CHARS) -> str:
    """A name or word from a file, as quoted in a message: escaped, and shortened when long."""
    text = printable(str(value))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _clip(text: str, limit: int = 4 * limits.MAX_SHOWN_LINE) -> str:
    text = printable(text, keep="\n")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _window(line: str, column: int) -> Tuple[str, int]:
    """A source line as shown under a message: long lines cut around ``column``,
    controls escaped; and the column within what is shown."""
    width = limits.MAX_SHOWN_LINE
    if len(line) > width:
        start = max(0, min(column - 1 - width // 3, len(line) - width))
        part = line[start:start + width]
        if start > 0:
            part = "…" + part[1:]
        if start + width < len(line):
            part = part[:-1] + "…"
        line, column = part, column - start
    before = printable(line[: column - 1], keep="\t")
    return before + printable(line[column - 1:], keep="\t"), len(before) + 1


class UserError(Exception):
    """A mistake by a user (content, rules, command line): report it, never a traceback."""

    def __init__(self, diagnostics: Sequence[Diagnostic] | Diagnostic | str):
        if isinstance(diagnostics, str):
            diagnostics = [Diagnostic(message=diagnostics)]
        elif isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: List[Diagnostic] = list(diagnostics)
        super().__init__(self.report())

    def report(self) -> str:
        return "\n\n".join(d.format() for d in self.diagnostics)


class RulesError(UserError):
    """The rule text is wrong (syntax or names/types)."""


def did_you_mean(word: str, candidates: Iterable[str], cutoff: float = 0.6) -> Optional[str]:
    """The closest candidate to a misspelt word, if one is close enough."""
    candidates = list(dict.fromkeys(candidates))
    if len(word) > limits.MAX_SHOWN_CHARS:  # nothing that long is a typo of a name; difflib would be slow
        return None
    by_lower = {c.lower(): c for c in candidates}
    if word.lower() in by_lower and by_lower[word.lower()] != word:
        return by_lower[word.lower()]
    # the start of exactly one name ('play' for 'play_card'): that name, however short the start
    starting = [c for c in by_lower if c.startswith(word.lower()) and c != word.lower()]
    if len(word) >= 3 and len(starting) == 1:
        return by_lower[starting[0]]
    matches = difflib.get_close_matches(word.lower(), list(by_lower), n=3, cutoff=cutoff)
    if not matches:
        return None
    # as close by difflib's measure: the fewest letters to change ('plase': 'place', not 'plays')
    best = difflib.SequenceMatcher(None, word.lower(), matches[0]).ratio()
    tied = [m for m in matches if difflib.SequenceMatcher(None, word.lower(), m).ratio() == best]
    return by_lower[min(tied, key=lambda m: _edits(word.lower(), m))]


def _edits(a: str, b: str) -> int:
    """Levenshtein distance (short words only: called on a few close matches)."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def one_of(names: Sequence[str], limit: int = 8) -> str:
    """'a, b or c' for a short list; the first few and a count for a long one."""
    names = list(names)
    if not names:
        return "nothing"
    if len(names) > limit:
        shown = ", ".join(names[:limit])
        return f"{shown}, ... ({len(names) - limit} more)"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " or " + names[-1]
