"""Text for the full-screen panes that is broken into lines when it is drawn, at the width it is
drawn at: so a pane re-wraps when the terminal is resized, nothing is wrapped twice (once by us
at a guessed width, again by Textual at the real one), and a continuation line keeps a hanging
indent (under the text of a bullet, a choice's number ...)."""

from __future__ import annotations

import re
from typing import Iterable, List, Optional, Tuple

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

_WORD = re.compile(r"\S+")


def wrap_ranges(plain: str, width: int, indent: int) -> List[Tuple[int, int, int]]:
    """Where a line breaks between words to fit ``width``: (start, end, spaces before it) for each
    piece; pieces after the first start ``indent`` spaces in (a word wider than a line is cut,
    after its last '/' that fits where it has one: a path breaks between its folders)."""
    indent = max(0, min(indent, width // 2))
    ranges: List[Tuple[int, int, int]] = []
    start, end, before, has_word = 0, 0, 0, False
    for match in _WORD.finditer(plain):
        word_start, word_end = match.span()
        if has_word and before + word_end - start > width:
            ranges.append((start, end, before))
            start, before, has_word = word_start, indent, False
        elif not has_word and ranges:
            start = word_start
        while before + word_end - start > width and before + word_start - start < width:  # cut a long word
            cut = start + width - before
            slash = plain.rfind("/", max(start, word_start) + 1, cut)
            if slash >= 0:
                cut = slash + 1
            ranges.append((start, cut, before))
            start, before = cut, indent
        end, has_word = word_end, True
    ranges.append((start, end, before))
    return ranges


class Paragraphs:
    """Lines (with ANSI colour codes, as ``board.Screen`` draws them; each may hold ``\\n``) drawn
    broken between words at the pane's width.  A continuation is indented ``hang`` more than its
    line (under the text of " • entry" with the default), or by ``indent`` columns if given."""

    def __init__(self, lines: Iterable[str], hang: int = 2, indent: Optional[int] = None, wrap: bool = True):
        self.texts: List[Text] = []
        for line in lines:
            self.texts.extend(Text.from_ansi(line).split("\n", allow_blank=True) if line else [Text("")])
        self.hang, self.indent, self.wrap = hang, indent, wrap

    @property
    def plain(self) -> str:
        """The whole text, unbroken, without colours."""
        return "\n".join(text.plain for text in self.texts)

    def lines(self, width: int) -> List[Text]:
        out: List[Text] = []
        for text in self.texts:
            plain = text.plain
            if not self.wrap or len(plain) <= width:
                out.append(text)
                continue
            lead = len(plain) - len(plain.lstrip(" "))
            indent = self.indent if self.indent is not None else lead + self.hang
            for start, end, before in wrap_ranges(plain, width, indent):
                piece = text[start:end]
                if before:
                    piece = Text(" " * before) + piece
                out.append(piece)
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in self.lines(max(1, options.max_width)):
            line.no_wrap, line.overflow, line.end = True, "crop", "\n"
            yield line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((text.cell_len for text in self.texts), default=0)
        return Measurement(min(widest, 1), min(widest, options.max_width))
