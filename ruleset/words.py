"""The lexer's second pass: a game's words, and indentation.

Lark's lexer reads keywords, names, numbers and plain lowercase WORDs.  This
pass gives each plain word the kind the game's lexicon declares for it (NOUN,
ADJ, RELATION, VERB), reads several words as one where the game declares them
together ("crisis track", "solo opponent"), tells an "or" between places from
an "or" between conditions, and turns indentation into block tokens.  A word
the game does not declare stays a WORD, which the grammar never takes, so the
parser reports it whole: "unknown word 'attach'".
"""

from __future__ import annotations

import contextvars
import re
from typing import Iterable, Iterator, List

from lark import Token

from .indent import RulesIndenter

# the lexicon in force while a text is parsed (a parser is built once per process)
LEXICON: contextvars.ContextVar = contextvars.ContextVar("lexicon", default=None)

_LOWER = re.compile(r"^[a-z][a-z\-]*$")

# what may end a place, before an "or" that joins places
_PLACE_ENDS = frozenset(("NAME", "NOUN", "ADJ", "IT", "THERE", "RPAR"))
# words that make what follows an "or" a condition, not a place
_CONDITION_WORDS = frozenset(("is", "are", "has", "have", "would", "not", "(", "holds"))
_PLAYER_WORDS = frozenset(("you", "they", "opponent", "nobody"))
# where the part after an "or" ends
_SEGMENT_ENDS = frozenset(("or", "and", ":", ",", ")", "where", "\n"))


class WordsPostLex:
    """Lark's post-lexer: word kinds from the lexicon in force, then indentation."""

    always_accept = ("_NL",)

    def __init__(self):
        self.indenter = RulesIndenter()

    def process(self, stream: Iterable[Token]) -> Iterator[Token]:
        lexicon = LEXICON.get()
        tokens = _ats(list(_words(stream, lexicon)))
        return self.indenter.process(iter(_ors(tokens)))


def _is_word(token: Token) -> bool:
    return token.type == "WORD" or (token.type not in ("NAME", "NUMBER") and bool(_LOWER.match(token.value)))


def _words(stream: Iterable[Token], lexicon) -> Iterator[Token]:
    """Plain words to NOUN, ADJ, RELATION or VERB; several declared together to one token."""
    longest = lexicon.longest if lexicon is not None else 1
    starts = lexicon.starts if lexicon is not None else frozenset()
    pending: List[Token] = []
    stream = _step_names(stream)
    for token in stream:
        if _is_word(token) and (pending or token.type == "WORD" or token.value in starts):
            pending.append(token)
            continue
        yield from _flush(pending, lexicon, longest)
        pending = []
        if token.type == "NAME" and lexicon is not None and lexicon.kind(token.value):
            yield Token.new_borrow_pos(lexicon.kind(token.value), token.value, token)
        else:
            yield token
    yield from _flush(pending, lexicon, longest)


def _flush(pending: List[Token], lexicon, longest: int) -> Iterator[Token]:
    """The longest declared entry at each word; a keyword that starts none is itself."""
    index = 0
    while index < len(pending):
        token = pending[index]
        size = _entry_at(pending, index, lexicon, longest)
        if size:
            last = pending[index + size - 1]
            text = " ".join(t.value for t in pending[index:index + size])
            yield Token(lexicon.kind(text), text, token.start_pos, token.line, token.column, last.end_line,
                        last.end_column, last.end_pos)
            index += size
        else:
            yield token
            index += 1


def _entry_at(pending: List[Token], index: int, lexicon, longest: int) -> int:
    if lexicon is None:
        return 0
    for size in range(min(longest, len(pending) - index), 0, -1):
        if size == 1 and pending[index].type != "WORD":  # a keyword alone stays a keyword
            return 0
        if lexicon.kind(" ".join(t.value for t in pending[index:index + size])) is not None:
            return size
    return 0


def _step_names(stream: Iterable[Token]) -> Iterator[Token]:
    """The words after "step", up to the colon, are the step's name, whatever they are."""
    stream = iter(stream)
    for token in stream:
        yield token
        if token.value == "step" and token.type != "WORD":
            name: List[Token] = []
            end = None  # the colon or line end after the name; none where the text stops first (an
            for following in stream:  # editor's text up to its cursor, words_that_may_follow)
                if following.value == ":" or following.type == "_NL":
                    end = following
                    break
                name.append(following)
            if name:
                first, last = name[0], name[-1]
                yield Token("STEP_NAME", " ".join(t.value for t in name), first.start_pos, first.line,
                            first.column, last.end_line, last.end_column, last.end_pos)
            if end is not None:
                yield end


# what "at" opens when it is no place: "at most", "at least", "at random"
_AT_WORDS = frozenset(("most", "least", "random"))


def _ats(tokens: List[Token]) -> List[Token]:
    """"at" before a place ("units at Ridge", "deploy ... at Ridge") is AT_PLACE; "at most",
    "at least" and "at random" keep their keyword."""
    for index, token in enumerate(tokens):
        if token.value == "at" and token.type != "WORD" and (
                index + 1 >= len(tokens) or tokens[index + 1].value not in _AT_WORDS):
            tokens[index] = Token.new_borrow_pos("AT_PLACE", token.value, token)
    return tokens


def _ors(tokens: List[Token]) -> Iterator[Token]:
    """An "or" after a place, followed by no verb before the next "or", "and", comma or
    colon, joins places ("in Texas or Fort Pickens"); any other "or" joins conditions or
    opens an option."""
    for index, token in enumerate(tokens):
        if token.value == "or" and token.type != "WORD" and 0 < index and tokens[index - 1].type in _PLACE_ENDS:
            following = tokens[index + 1:]
            if following and following[0].value != ":" and not _has_verb(following):
                token = Token.new_borrow_pos("_OR_PLACE", token.value, token)
        yield token


def _has_verb(following: List[Token]) -> bool:
    """Whether the words after an "or" make a condition: a verb (is, has, would...), or a
    relation right after a player at their start ("or the opponent controls Texas"), not one
    that qualifies a place ("or Public Opinion spaces nobody controls")."""
    start = 1 if following and following[0].value in ("the", "your", "their") else 0
    if len(following) > start + 1 and following[start + 1].type == "RELATION" and (
            following[start].value in _PLAYER_WORDS or following[start].type == "NAME"):
        return True
    for token in following:
        value = token.value
        if token.type == "_NL" or value in _SEGMENT_ENDS or token.type == "_LIMIT_COMMA":
            return False
        if value in _CONDITION_WORDS:
            return True
    return False
