"""Rule text -> AST, with syntax errors turned into diagnostics.

The Lark parser is built once per process (LALR, contextual lexer) from the
packaged grammar.  Indentation is handled by Lark's ``Indenter`` post-lexer,
as in Lark's Python example.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Iterable, List, Optional

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import Indenter
from lark.parsers.lalr_interactive_parser import InteractiveParser

from . import ast as A
from .diagnostics import RulesError, Source, did_you_mean, diagnostic_at, one_of
from .transform import ToAst


class _IndentationError(Exception):
    def __init__(self, token: Token):
        self.token = token


class _RulesIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR"]
    CLOSE_PAREN_types = ["RPAR"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8

    def handle_NL(self, token):
        # Lark's Indenter raises a bare DedentError; keep the token so the
        # designer sees where the indentation went wrong.
        if self.paren_level > 0:
            return
        yield token
        indent_str = token.rsplit("\n", 1)[1]
        indent = indent_str.count(" ") + indent_str.count("\t") * self.tab_len
        if indent > self.indent_level[-1]:
            self.indent_level.append(indent)
            yield Token.new_borrow_pos(self.INDENT_type, indent_str, token)
        else:
            while indent < self.indent_level[-1]:
                self.indent_level.pop()
                yield Token.new_borrow_pos(self.DEDENT_type, indent_str, token)
            if indent != self.indent_level[-1]:
                raise _IndentationError(token)


def _cache_file() -> Optional[str]:
    """Where Lark may keep its grammar analysis between runs (a start-up saving).

    The cache is a pickle, so it lives in the user's own cache folder, never in
    a shared temporary folder; set CRISIS_NO_CACHE=1 to do without it.
    """
    if os.environ.get("CRISIS_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "crisis")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK):
        return None
    return os.path.join(folder, "grammar.lark-cache")


@lru_cache(maxsize=1)
def _lark() -> Lark:
    options = dict(parser="lalr", postlex=_RulesIndenter(), start=["block", "condition_rule"],
                   propagate_positions=True, maybe_placeholders=False)
    cache = _cache_file()
    if cache:
        try:
            # Lark keys the cache on the grammar text and options, and rebuilds when they change
            return Lark.open_from_package("crisis.ruleset", "grammar.lark", ("",), cache=cache, **options)
        except Exception:  # an unreadable or stale cache must never stop the game
            pass
    return Lark.open_from_package("crisis.ruleset", "grammar.lark", ("",), **options)


# What to call terminals in messages.  Anonymous keyword terminals are shown
# as the keyword itself.
_TERMINAL_WORDS = {
    "_PLACE": "'place'", "_REMOVE": "'remove'", "_MOVE": "'move'", "_GAIN": "'gain'",
    "_LOSE": "'lose'", "_CONTROL": "'control'", "_HAVE": "'have'", "_IS": "'is'",
    "_TOKENS": "'tokens'", "_SPACES": "'spaces'", "_IN": "'in'", "_TO": "'to'",
    "_INTO": "'into'", "_FROM": "'from'", "_VP": "'VP'", "_LIMIT_COMMA": "','",
    "NAME": "a name (space, dimension, zone, side or marker; capitalised)",
    "NUMBER": "a number", "_NL": "the end of the line", "_INDENT": "an indented block",
    "_DEDENT": "the end of the indented block", "$END": "the end of the rule",
    "LPAR": "'('", "RPAR": "')'",
}
_KEYWORD_SPELLINGS = {
    "_PLACE": ("place", "places"), "_REMOVE": ("remove", "removes"), "_MOVE": ("move", "moves"),
    "_GAIN": ("gain", "gains"), "_LOSE": ("lose", "loses"), "_CONTROL": ("control", "controls"),
    "_HAVE": ("have", "has"), "_IS": ("is", "are"), "_TOKENS": ("token", "tokens"),
    "_SPACES": ("space", "spaces"), "_IN": ("in", "on"), "_TO": ("to",),
    "_INTO": ("into", "onto"), "_FROM": ("from",), "_VP": ("VP",),
}


@lru_cache(maxsize=1)
def _anonymous_keywords() -> dict:
    words = {}
    for terminal in _lark().terminals:
        pattern = terminal.pattern
        if pattern.type == "str" and terminal.name not in _TERMINAL_WORDS:
            words[terminal.name] = pattern.value
    return words


def _describe(expected: Iterable[str]) -> List[str]:
    anonymous = _anonymous_keywords()
    shown = []
    for name in expected:
        if name in _TERMINAL_WORDS:
            shown.append(_TERMINAL_WORDS[name])
        elif name in anonymous:
            shown.append(f"'{anonymous[name]}'")
        else:
            shown.append(name.lower())
    # keywords first, alphabetically, then descriptions
    return sorted(set(shown), key=lambda s: (not s.startswith("'"), s))


def _spellings(expected: Iterable[str]) -> List[str]:
    anonymous = _anonymous_keywords()
    words = []
    for name in expected:
        words.extend(_KEYWORD_SPELLINGS.get(name, ()))
        if name in anonymous and anonymous[name].isalpha():
            words.append(anonymous[name])
    return words


_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*")


def _word_at(text: str, line: int, column: int) -> str:
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return ""
    match = _WORD.match(lines[line - 1], column - 1)
    return match.group(0) if match else ""


class _TokenFactory:
    _Token = Token


def _accepted(error: UnexpectedInput):
    """Terminals the parser would really take here.

    LALR merges states, so the table's list for a state can be longer than
    what fits; feeding each candidate to a copy of the parser gives the exact
    list, which is what a designer should read.
    """
    if isinstance(error, UnexpectedToken) and error.accepts:
        return set(error.accepts)
    state = getattr(error, "state", None)
    if state is not None and hasattr(state, "parse_conf"):
        interactive = InteractiveParser(_lark().parser.parser.parser, state, _TokenFactory())
        return set(interactive.accepts())
    return set(getattr(error, "expected", None) or getattr(error, "allowed", None) or ())


def _syntax_diagnostic(error: UnexpectedInput, source: Source, text: str):
    expected = _accepted(error)
    expected = {e for e in expected if not e.startswith("__")} or expected
    line, column = error.line, error.column
    width = 1
    hint = None
    if isinstance(error, UnexpectedToken):
        token = error.token
        if token.type == "$END":
            message = "the rule ends too early"
            line, column = _last_position(text)
        elif token.type == "_NL":
            message = "unexpected end of line"
        elif token.type in ("_INDENT",):
            message = "unexpected indentation"
            # the token sits on the newline before; point at the indented line
            line, column = token.end_line, token.end_column
        elif token.type == "_DEDENT":
            message = "unexpected end of the indented block"
        else:
            shown = str(token)
            width = len(shown)
            message = f"unexpected {_token_kind(token)} '{shown}'"
            word = _word_at(text, line, column) if token.type == "NAME" else shown
            hint = _keyword_hint(word, expected)
    elif isinstance(error, UnexpectedCharacters):
        word = _word_at(text, line, column)
        if word:
            width = len(word)
            message = f"unknown word '{word}'"
            hint = _keyword_hint(word, expected)
        else:
            message = f"unexpected character '{error.char}'"
    elif isinstance(error, UnexpectedEOF):
        message = "the rule ends too early"
        line, column = _last_position(text)
    else:  # pragma: no cover - Lark adds error kinds rarely
        message = str(error).splitlines()[0]
    described = _describe(expected)
    return diagnostic_at(source, line, column, message, width=width,
                         expected=one_of(described, limit=12) if described else None, hint=hint)


def _token_kind(token: Token) -> str:
    if token.type == "NAME":
        return "name"
    if token.type == "NUMBER":
        return "number"
    return "word"


_NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                 "seven": 7, "eight": 8, "nine": 9, "ten": 10}


def _keyword_hint(word: str, expected) -> Optional[str]:
    if not word:
        return None
    if word.lower() in _NUMBER_WORDS and "NUMBER" in expected:
        return f"write numbers as digits: did you mean '{_NUMBER_WORDS[word.lower()]}'?"
    spellings = _spellings(expected)
    if word.lower() in spellings and word not in spellings:
        return f"keywords are written in lowercase: did you mean '{word.lower()}'?"
    guess = did_you_mean(word, spellings)
    return f"did you mean '{guess}'?" if guess and guess != word else None


def _last_position(text: str):
    lines = text.rstrip("\n").split("\n")
    return len(lines), len(lines[-1]) + 1


def _parse(text: str, source: Optional[Source], start: str):
    source = source or Source(text=text)
    body = text if text.endswith("\n") else text + "\n"
    try:
        tree = _lark().parse(body, start=start)
    except _IndentationError as error:
        token = error.token
        line = token.end_line
        column = len(token.rsplit("\n", 1)[1]) + 1
        raise RulesError([diagnostic_at(source, line, column,
                                        "this line's indentation matches no enclosing block",
                                        expected="the indentation of an earlier line")]) from None
    except UnexpectedInput as error:
        raise RulesError([_syntax_diagnostic(error, source, body)]) from None
    return ToAst().transform(tree)


def parse_block(text: str, source: Optional[Source] = None) -> A.Block:
    """Parse effect text (one statement per line) into a Block."""
    if not text.strip():
        source = source or Source(text=text)
        raise RulesError([diagnostic_at(source, 1, 1, "the rule is empty",
                                        expected="at least one statement, such as 'place 1 in any space'")])
    return _parse(text, source, "block")


def parse_condition(text: str, source: Optional[Source] = None):
    """Parse a single condition (first player, tie-breaks, Final Crisis trigger)."""
    if not text.strip():
        source = source or Source(text=text)
        raise RulesError([diagnostic_at(source, 1, 1, "the condition is empty",
                                        expected="a condition, such as 'you have at least 3 VP'")])
    return _parse(text, source, "condition_rule")
