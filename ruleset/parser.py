"""Rule text -> AST, with syntax errors turned into diagnostics.

The Lark parser is built once per process (LALR, contextual lexer) from the
packaged grammar.  Indentation is handled by Lark's ``Indenter`` post-lexer,
as in Lark's Python example.
"""

from __future__ import annotations

import hashlib
import os
import re
from functools import lru_cache
from typing import Iterable, List, Optional

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.parsers.lalr_interactive_parser import InteractiveParser

from . import ast as A
from . import limits
from . import treecache
from crisis.ruleset.cachefolder import cache_folder as _cache_folder
from .lalrcache import read_tables as _read_cache
from .lalrcache import write_tables
from .diagnostics import RulesError, Source, did_you_mean, diagnostic_at, one_of
from .indent import IndentationProblem as _IndentationError
from .indent import RulesIndenter as _RulesIndenter
from .transform import ToAst


class _WordsIndenter(_RulesIndenter):
    """The indenter, and the lexer told to read any lowercase WORD in every state: a keyword is
    then only ever a whole word (Lark makes each keyword that WORD matches a kind of WORD)."""

    @property
    def always_accept(self):
        return (self.NL_type, "WORD")


# ------------------------------------------------------------ grammar cache
#
# Building the LALR tables takes most of a second; loading them takes a few
# milliseconds.  The tables are kept in the user's own cache folder as JSON
# (Lark's serialised form, as its standalone generator embeds it): data, never
# code, so even a planted file cannot run anything.  The folder must be the
# user's own and closed to others, the file is written private, and its digest
# and grammar key are checked before it is decoded; anything amiss and the
# tables are simply built again.  CRISIS_NO_CACHE=1 does without the cache.

_CACHE_NAME = "grammar-cache.json"
_CACHE_FORMAT = "crisis-grammar-cache/1"
_OPTIONS = dict(parser="lalr", start=["block", "condition_rule", "locations_rule"], propagate_positions=True,
                maybe_placeholders=False)


def _grammar_key(grammar: str) -> str:
    """Names the tables: the grammar, the options and the Lark version that built them."""
    import lark
    text = "\0".join([_CACHE_FORMAT, lark.__version__, repr(sorted(_OPTIONS.items())), grammar])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@lru_cache(maxsize=1)
def _lark() -> Lark:
    grammar = treecache.grammar()
    key = _grammar_key(grammar)
    folder = _cache_folder()
    if folder:
        data = _read_cache(os.path.join(folder, _CACHE_NAME), key)
        if data is not None:
            try:
                return Lark.__new__(Lark)._load(data, postlex=_WordsIndenter(), propagate_positions=True)
            except Exception:  # tables from another Lark: build them again
                pass
    parser = Lark(grammar, postlex=_WordsIndenter(), **_OPTIONS)
    if folder:
        write_tables(folder, _CACHE_NAME, key, parser)
    return parser


# What to call terminals in messages.  Anonymous keyword terminals are shown
# as the keyword itself.
_TERMINAL_WORDS = {
    "_TO": "'to'", "_FROM": "'from'", "_VP": "'VP'", "_LIMIT_COMMA": "','", "_OR_PLACE": "'or'",
    "NAME": "a name (space, dimension, zone, side or marker; capitalised)",
    "NUMBER": "a number", "_NL": "the end of the line", "_INDENT": "an indented block",
    "_DEDENT": "the end of the indented block", "$END": "the end of the rule",
    "LPAR": "'('", "RPAR": "')'",
}
_KEYWORD_SPELLINGS = {"_TO": ("to",), "_FROM": ("from",), "_VP": ("VP",), "_OR_PLACE": ("or",)}


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
        elif token.type == "WORD" and str(token) not in _all_keywords():
            # a word that is no keyword, read whole ("attach", "reveals")
            width = len(token)
            message = f"unknown word '{token}'"
            hint = _keyword_hint(str(token), expected) or _any_keyword_hint(str(token))
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
                         expected=one_of(described, limit=24) if described else None, hint=hint)


@lru_cache(maxsize=1)
def _all_keywords() -> frozenset:
    """Every word of the language (a keyword out of place is "unexpected", not "unknown")."""
    words = set()
    for terminal in _lark().terminals:
        if terminal.pattern.type == "str":
            words.add(terminal.pattern.value)
    return frozenset(words)


def _any_keyword_hint(word: str) -> Optional[str]:
    """A did-you-mean among all the language's words, for a word no keyword expected here is near."""
    guess = did_you_mean(word, sorted(w for w in _all_keywords() if w.isalpha()))
    return f"did you mean '{guess}'?" if guess and guess != word else None


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
    body = text if text.endswith("\n") else text + "\n"
    cache = treecache.current()
    if cache is not None:
        tree = cache.tree(start, body)
        if tree is not None:
            return tree
    tree = _parse_afresh(body, source or Source(text=text), start)
    if cache is not None:  # only a text that parsed without error gets here
        cache.keep(start, body, tree)
    return tree


def _parse_afresh(body: str, source: Source, start: str):
    brackets = _bracket_depth(body)
    if brackets:
        raise RulesError([_too_deep(source, *brackets)])
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
    problems = _bounds(tree, source)
    if problems:
        raise RulesError(problems)
    return ToAst().transform(tree)


def _too_deep(source: Source, line: int, column: int):
    return diagnostic_at(source, line, column,
                         f"this rule is nested too deeply (more than {limits.MAX_RULE_DEPTH} levels)",
                         hint="brackets, 'and'/'or' chains, 'not' and if/either/for each blocks each add a "
                              "level; split the rule")


def _bracket_depth(text: str):
    """The position of the first bracket nested deeper than the limit, if any (comments skipped)."""
    depth, line, start = 0, 1, 0
    for match in re.finditer(r"[()\n]|#[^\n]*", text):
        char = match.group()
        if char == "\n":
            line, start = line + 1, match.end()
        elif char == "(":
            depth += 1
            if depth > limits.MAX_RULE_DEPTH:
                return line, match.start() - start + 1
        elif char == ")":
            depth -= 1
    return None


def _bounds(tree: Tree, source: Source):
    """Depth and numbers' lengths, checked without recursion before anything recurses over the tree."""
    problems = []
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limits.MAX_RULE_DEPTH:
            while isinstance(node, Tree) and node.children:  # down to its first token, without recursion
                node = node.children[0]
            return [_too_deep(source, getattr(node, "line", 1), getattr(node, "column", 1))]
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, depth + 1))
            elif isinstance(child, Token) and child.type == "NUMBER" and len(child) > limits.MAX_NUMBER_DIGITS:
                problems.append(diagnostic_at(source, child.line, child.column,
                                              f"this number has too many digits (at most {limits.MAX_NUMBER_DIGITS})",
                                              width=min(len(child), limits.MAX_SHOWN_CHARS)))
    return problems


def _parse_some(text: str, source: Optional[Source], start: str, empty: str, expected: str):
    if not text.strip():
        raise RulesError([diagnostic_at(source or Source(text=text), 1, 1, empty, expected=expected)])
    return _parse(text, source, start)


def parse_block(text: str, source: Optional[Source] = None) -> A.Block:
    """Parse effect text (one statement per line) into a Block."""
    return _parse_some(text, source, "block", "the rule is empty",
                       "at least one statement, such as 'place 1 in any space'")


def parse_condition(text: str, source: Optional[Source] = None):
    """Parse a single condition (first player, tie-breaks, Final Crisis trigger)."""
    return _parse_some(text, source, "condition_rule", "the condition is empty",
                       "a condition, such as 'you have at least 3 VP'")


def parse_locations(text: str, source: Optional[Source] = None) -> A.Locations:
    """Parse a set of places on its own (a space-selection row, a priority line, token sources)."""
    return _parse_some(text, source, "locations_rule", "the place is empty",
                       "spaces or holders, such as 'pivotal spaces' or 'your pool'")
