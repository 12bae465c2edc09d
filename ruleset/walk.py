"""Walking the checked rules (meanings), and pointing at one in its file: what the checks
made after the whole definition is read share (bound.py: the work bounds; who.py: who "you" is)."""

from __future__ import annotations

from typing import Dict, Iterator, Optional, Tuple

import attrs

from . import meaning as M
from .diagnostics import Diagnostic, diagnostic_at

_FIELDS: Dict[type, Tuple[str, ...]] = {}


def children(node) -> Iterator[object]:
    """The meanings directly inside a meaning, in the order its fields are written, through
    tuples and lists of any depth (a procedure's lines are (label, rule) pairs); never its
    syntax node.  The one way every walk of the checked rules goes down a level."""
    names = _FIELDS.get(type(node))
    if names is None:
        names = _FIELDS[type(node)] = tuple(f.name for f in attrs.fields(type(node)) if f.name != "node")
    for name in names:
        value = getattr(node, name)
        if isinstance(value, M.Meaning):
            yield value
        elif isinstance(value, (tuple, list)):
            yield from _inside(value)


def _inside(items) -> Iterator[object]:
    stack = [iter(items)]
    while stack:
        item = next(stack[-1], _END)
        if item is _END:
            stack.pop()
        elif isinstance(item, M.Meaning):
            yield item
        elif isinstance(item, (tuple, list)):
            stack.append(iter(item))


_END = object()


def meanings(*roots) -> Iterator[object]:
    """Every meaning in some rules (a meaning, or tuples and lists of them), outermost first, in
    the order written, without recursion."""
    stack = list(reversed(list(_inside(roots))))
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(list(children(node))))


def diagnostic_of(sources, node, rule, message: str, hint: Optional[str], word: Optional[str] = None) -> Diagnostic:
    """A diagnostic at a meaning's first word (or at ``word`` inside it), in its rule's file
    (``sources``: id of a rule as read -> (the rule, where its text is))."""
    source = sources.get(id(rule), (None, None))[1]
    syntax = getattr(node, "node", None)
    pos = getattr(syntax, "pos", None)
    width = 1
    line, column = (pos.line, pos.column) if pos is not None else (1, 1)
    if word is not None and syntax is not None and hasattr(syntax, "walk"):
        found = next((n for n in syntax.walk() if getattr(n, "text", None) == word and n.pos is not None), None)
        if found is not None:
            line, column, width = found.pos.line, found.pos.column, len(word)
        elif pos is not None and pos.line == pos.end_line and source is not None:
            # a word kept as text in its phrase ("the card is Friendly"): the last time it is written there
            lines = source.text.split("\n")
            span = lines[pos.line - 1][pos.column - 1:pos.end_column - 1] if pos.line <= len(lines) else ""
            if span.rfind(word) >= 0:
                column, width = pos.column + span.rfind(word), len(word)
    return diagnostic_at(source, line, column, message, width=width, hint=hint)
