"""Rule text -> syntax tree (nodes.py), with syntax errors turned into diagnostics.

The Lark parser is built once per process (LALR, Lark's basic lexer) from the
packaged grammar, its tables kept in the user's cache folder.  The words of the
game in force come from its lexicon (words.py), which the caller passes with
each text.
"""

from __future__ import annotations

import difflib

import hashlib
import os
import re
from functools import lru_cache
from importlib import resources
from typing import Dict, FrozenSet, List, Optional

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from . import limits
from .builder import build
from .diagnostics import RulesError, Source, a_noun, diagnostic_at, did_you_mean, one_of
from .indent import IndentationProblem
from .lalrcache import read_tables, write_tables
from .words import LEXICON, WordsPostLex

_STARTS = ["block", "condition_rule", "places_rule", "number_rule", "unknown_word"]
_OPTIONS = dict(parser="lalr", lexer="basic", start=_STARTS, propagate_positions=True, maybe_placeholders=False)
_CACHE_NAME = "language-cache.json"


@lru_cache(maxsize=1)
def grammar() -> str:
    return resources.files("crisis.ruleset").joinpath("language.lark").read_text(encoding="utf-8")


def _key(text: str) -> str:
    import lark
    return hashlib.sha256("\0".join(["crisis-language/1", lark.__version__, repr(sorted(_OPTIONS.items())),
                                     text]).encode("utf-8")).hexdigest()


@lru_cache(maxsize=1)
def _lark() -> Lark:
    from crisis.ruleset.cachefolder import cache_folder
    text = grammar()
    key = _key(text)
    folder = cache_folder()
    if folder:
        data = read_tables(os.path.join(folder, _CACHE_NAME), key)
        if data is not None:
            try:
                return Lark.__new__(Lark)._load(data, postlex=WordsPostLex(), propagate_positions=True)
            except Exception:  # tables from another Lark: build them again
                pass
    parser = Lark(text, postlex=WordsPostLex(), **_OPTIONS)
    if folder:
        write_tables(folder, _CACHE_NAME, key, parser)
    return parser


def parse(text: str, lexicon, start: str = "block", source: Optional[Source] = None):
    """The syntax tree of a rule (``start``: block, condition_rule, places_rule, number_rule)."""
    body = text if text.endswith("\n") else text + "\n"
    source = source or Source(text=text)
    if not text.strip():
        raise RulesError([diagnostic_at(source, 1, 1, "the rule is empty", expected="a rule")])
    brackets = _bracket_depth(body)
    if brackets:
        raise RulesError([_too_deep(source, *brackets)])
    token = LEXICON.set(lexicon)
    try:
        tree = _lark().parse(body, start=start)
    except IndentationProblem as error:
        line = error.token.end_line
        column = len(error.token.rsplit("\n", 1)[1]) + 1
        raise RulesError([diagnostic_at(source, line, column, "this line's indentation matches no enclosing block",
                                        expected="the indentation of an earlier line")]) from None
    except UnexpectedInput as error:
        raise RulesError([_syntax_diagnostic(error, source, body, lexicon)]) from None
    finally:
        LEXICON.reset(token)
    problems = _bounds(tree, source)
    if problems:
        raise RulesError(problems)
    return build(tree)


def words_that_may_follow(text: str, lexicon) -> Optional[Dict[str, FrozenSet[str]]]:
    """What the language takes next after the start of a rule ``text`` (an editor's completions):
    the kinds of word (NOUN, ADJ, RELATION, VERB -> the game's words of that kind; NAME -> the
    empty set: names are the game's to list) and the keywords, by the first way a rule can start
    (a block, a condition, places, a number) that reads ``text`` without a mistake; None when
    none does (the text is no rule, or already wrong)."""
    if len(text) > limits.MAX_RULE_CHARS or _bracket_depth(text):
        return None
    token = LEXICON.set(lexicon)
    try:
        for start in _STARTS[:-1]:
            interactive = _lark().parse_interactive(text, start=start)
            try:
                interactive.exhaust_lexer()
                accepted = interactive.accepts()
            except (UnexpectedInput, IndentationProblem):
                continue
            found: Dict[str, FrozenSet[str]] = {}
            for name in accepted:
                if name in ("NOUN", "ADJ", "RELATION", "VERB"):
                    found[name] = frozenset(lexicon.words_of(name)) if lexicon is not None else frozenset()
                elif name == "NAME":
                    found[name] = frozenset()
            found["keyword"] = frozenset(word for name, word in _keyword_terminals().items() if name in accepted)
            return found
        return None
    finally:
        LEXICON.reset(token)


@lru_cache(maxsize=1)
def _keyword_terminals() -> Dict[str, str]:
    """The language's keywords by the name of their terminal."""
    return {t.name: t.pattern.value for t in _lark().terminals
            if t.pattern.type == "str" and t.pattern.value.isalpha()}


def _too_deep(source: Source, line: int, column: int):
    return diagnostic_at(source, line, column,
                         f"this rule is nested too deeply (more than {limits.MAX_RULE_DEPTH} levels)",
                         hint="brackets, 'and'/'or' chains, 'not' and if/either/for each blocks each add a "
                              "level; split the rule")


def _bracket_depth(text: str):
    """The position of the first bracket nested deeper than the limit, if any (comments skipped):
    found before the parser recurses over them."""
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


def _bounds(tree, source: Source):
    """Depth and numbers' lengths, checked without recursion before anything recurses over the tree
    (a number is converted only when it has at most MAX_NUMBER_DIGITS digits)."""
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


def _syntax_diagnostic(error: UnexpectedInput, source: Source, text: str, lexicon):
    expected = set(getattr(error, "expected", None) or getattr(error, "allowed", None) or ())
    expected.discard("WORD")  # a word the game does not declare: never what a rule needs
    line, column, width, hint = error.line, error.column, 1, None
    first = None
    if isinstance(error, UnexpectedToken):
        token = error.token
        if token.type == "$END":
            message = "the rule ends too early"
        elif token.type == "_NL":
            message = "unexpected end of line"
        elif token.type == "_INDENT":
            message = "unexpected indentation"
            line, column = token.end_line, token.end_column
        elif token.type == "_DEDENT":
            message = "unexpected end of the indented block"
        elif token.type == "WORD":
            width = len(token)
            message = f"unknown word '{token}'"
            words = lexicon.words_of("NOUN") + lexicon.words_of("ADJ") + lexicon.words_of("RELATION") + \
                lexicon.words_of("VERB") if lexicon is not None else []
            if str(token).lower() in _NUMBER_WORDS and "NUMBER" in expected:
                hint = f"write numbers as digits: did you mean '{_NUMBER_WORDS.index(str(token).lower())}'?"
            else:
                meant = _name_meant(text, token, lexicon)
                if meant is not None:
                    # a name of several words misspelt ("final crisis strat"): the whole name, as meant,
                    # among the game's names of its kind
                    message, column, width, guess, kind, names = meant
                    return diagnostic_at(source, line, column, message, width=width,
                                         expected=f"{a_noun(kind)}: {one_of(names)}",
                                         hint=f"did you mean '{guess}'?")
                else:
                    # the words that may stand here first, then every word of the language and the game
                    # (only one near: a word that may not stand here is seldom the one meant); after
                    # 'that'/'this', the game's word for its places ("that space" in a game of areas)
                    here = _expected_words(expected, lexicon)
                    guess = _place_word_after(text, token, lexicon) or _tokens_word(token, lexicon) or \
                        did_you_mean(str(token), here) or did_you_mean(str(token), words + _keywords(), cutoff=0.75)
                    hint = f"did you mean '{guess}'?" if guess else None
                    if guess in here:
                        first = f"'{guess}'"  # the word meant, first among what may stand here
                    if guess is None and "NOUN" in expected:
                        hint = _things_of_the_game(lexicon)
            hint = _named_otherwise(token, lexicon) or hint
        else:
            width = len(token)
            message = f"unexpected word '{token}'" if token.type != "NAME" else f"unexpected name '{token}'"
            if token.type == "NAME" and str(token).lower() in _keywords():
                hint = f"keywords are written in lowercase: did you mean '{str(token).lower()}'?"
            else:
                hint = _named_otherwise(token, lexicon)
    elif isinstance(error, UnexpectedCharacters):
        message = f"unexpected character '{error.char}'"
    else:
        message = "the rule ends too early"
    relations = lexicon.words_of("RELATION") if lexicon is not None else []

    def described(name: str) -> str:
        # the game's own relation ('dominate'), not Fort Sumter's 'control', where it has one
        if name == "RELATION" and relations:
            return f"a relation such as '{relations[0]}'"
        return _describe(name)
    shown = sorted({described(name) for name in expected if not name.startswith("__")},
                   key=lambda text: (text != first, text not in _COMMON, _COMMON.index(text) if text in _COMMON else 0,
                                     text))
    if first is not None and first not in shown:
        shown.insert(0, first)
    if hint is None:
        hint = _stray_word(text, line, lexicon)
    return diagnostic_at(source, line, column, message, width=width,
                         expected=one_of(shown, limit=24) if shown else None, hint=hint)


def _named_otherwise(token, lexicon) -> Optional[str]:
    """A hint naming the words rules call a thing by, where a rule writes the thing's name in
    state.yaml and state.yaml gives it other words (a counter 'plays' with 'words: [played cards]')."""
    if lexicon is None:
        return None
    said = str(token).lower()
    entry = next((entry for entry in lexicon.entries if entry.kind == "NOUN" and ":" in entry.refers_to
                  and entry.refers_to.rpartition(":")[2].lower() == said and entry.text.lower() != said), None)
    if entry is None:
        return None
    kind, name = entry.refers_to.split(":", 1)[0], entry.refers_to.rpartition(":")[2]
    return f"rules call the {kind} '{name}' by its words in state.yaml: did you mean '{entry.text}'?"


def _things_of_the_game(lexicon) -> Optional[str]:
    """Where an unknown word stands for a thing and is near none: the game's words for things
    (one for each: the first state.yaml gives), in the order it declares them."""
    if lexicon is None:
        return None
    first: dict = {}  # what a word refers to -> the first word for it
    for entry in lexicon.entries:
        if entry.kind == "NOUN":
            first.setdefault(entry.refers_to, f"'{entry.text}'")
    words = list(first.values())
    return f"not a word of this game; its words for things are {one_of(words, limit=12)}" if words else None


def _place_word_after(text: str, token, lexicon) -> Optional[str]:
    """The word meant where an unknown word follows 'that' or 'this': a word of the game's spelt
    near it, else the game's word for its places (a context word written with another game's
    noun: "that space" where the game's places are areas)."""
    if lexicon is None:
        return None
    lines = text.split("\n")
    line = lines[token.line - 1] if 0 < token.line <= len(lines) else ""
    before = line[:token.column - 1].rstrip().rsplit(" ", 1)[-1].lower()
    if before not in ("that", "this"):
        return None
    nouns = lexicon.words_of("NOUN")
    near = did_you_mean(str(token), nouns)
    if near is not None:  # a misspelt word of this game ("this regoin"): that word
        return near
    words = _nouns_for(lexicon, "places")
    return words[0] if words and str(token) not in words else None  # the first is the singular (state.yaml)


def _nouns_for(lexicon, refers_to: str) -> List[str]:
    """The game's nouns for a kind of thing ("places": [area, areas]), in state.yaml's order."""
    return [word for word in lexicon.words_of("NOUN") if any(e.refers_to == refers_to for e in lexicon.meanings(word))]


def _tokens_word(token, lexicon) -> Optional[str]:
    """The game's word for its tokens where a rule says 'token(s)' and the game calls them
    otherwise ('scouts'): the word the language's own docs use, not a near spelling ('broken')."""
    if lexicon is None or str(token).lower() not in ("token", "tokens"):
        return None
    words = _nouns_for(lexicon, "tokens")
    if not words:
        return None
    return words[0] if str(token).lower() == "token" else words[-1]


def _stray_word(text: str, line: int, lexicon) -> Optional[str]:
    """Where the parser stopped after a word the game does not know but which is near one it does
    ("your VPs": the lexer read it as a name, and the rule ended too early), a hint naming it."""
    if lexicon is None:
        return None
    lines = text.split("\n")
    if not 0 < line <= len(lines):
        return None
    known = set(lexicon.kinds) | {name for name, _ in getattr(lexicon, "names", ())} | set(_keywords())
    said = lines[line - 1]
    several = sorted((k for k in known if " " in k), key=len, reverse=True)
    for name in several:  # names of several words whole
        said = said.replace(name, " ")
    # a word of such a name where the name runs on to the next line of a folded rule ("Fort" of
    # "Fort Sumter"): part of the name, not a misspelt word
    parts = {part for name in several for part in name.split()}
    for word in _WORDS_ON_A_LINE.findall(said):
        bare = word[:-2] if word.lower().endswith("'s") else word  # "the opponent's hand": a known word's own
        if word in known or word.lower() in known or bare in known or bare.lower() in known or word in parts:
            continue
        guess = did_you_mean(word, [k for k in known if " " not in k], cutoff=0.75)
        if guess is not None:
            return f"'{word}' is not a word of this game: did you mean '{guess}'?"
    return None


_WORDS_ON_A_LINE = re.compile(r"[A-Za-z][A-Za-z'\-]*")


def _name_meant(text: str, token, lexicon):
    """For an unknown word inside a misspelt name of several words (a procedure, a counter, a pile:
    "carry out the harvest scorng"), or a proper name in the wrong case ("the Old bridge"):
    (message, column, width, the name meant, what it names, the game's names of that kind), the
    words around the unknown one read together against the game's names, in any case; None when
    no such name is near."""
    if lexicon is None:
        return None
    # name -> what it names: the lexicon's names of several words, and the game's proper names
    names = {entry.text: entry.refers_to.split(":", 1)[0] for entry in lexicon.entries if " " in entry.text}
    names.update(getattr(lexicon, "names", ()))
    if not names:
        return None
    lines = text.split("\n")
    if not 0 < token.line <= len(lines):
        return None
    found = [(m.start() + 1, m.group()) for m in _WORDS_ON_A_LINE.finditer(lines[token.line - 1])]
    at = next((i for i, (column, _) in enumerate(found) if column == token.column), None)
    if at is None:
        return None
    longest = max(len(name.split()) for name in names)
    best = None
    for start in range(max(0, at - longest + 1), at + 1):
        for end in range(at + 1, min(len(found), start + longest) + 1):
            phrase = " ".join(word for _, word in found[start:end])
            guess = did_you_mean(phrase, names, cutoff=0.75)
            if guess is None or (end - start < 2 and guess.lower() != phrase.lower()):
                continue  # one word alone: only a name written in the wrong case ("washington")
            score = difflib.SequenceMatcher(None, phrase.lower(), guess.lower()).ratio()
            if best is None or score > best[0]:
                column = found[start][0]
                last_column, last_word = found[end - 1]
                best = (score, phrase, column, last_column + len(last_word) - column, guess)
    if best is None:
        return None
    _, phrase, column, width, guess = best
    kind = names[guess] if names[guess] and names[guess][0].islower() else "name"
    alike = [name for name, named in names.items() if named == names[guess]]  # in the game's order
    return f"unknown {kind} '{phrase}'", column, width, guess, kind, alike


# what a rule most often says, shown first where a statement may start (the language's own words)
_COMMON = ("'place'", "'remove'", "'move'", "'gain'", "'lose'", "'if'", "'either'", "'for'", "'draw'", "'play'",
           "'carry'")


_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _expected_words(expected, lexicon) -> List[str]:
    """The words the parser would have taken where it stopped: its keywords there, and the game's
    words of the kinds it expected (nouns, adjectives...)."""
    words = []
    for name in expected:
        if name in ("NOUN", "ADJ", "RELATION", "VERB") and lexicon is not None:
            words.extend(lexicon.words_of(name))
            continue
        pattern = next((t.pattern for t in _lark().terminals if t.name == name), None)
        if pattern is not None and pattern.type == "str" and pattern.value.isalpha():
            words.append(pattern.value)
    return words


_KINDS = {"NOUN": "a word for a thing", "ADJ": "an adjective", "RELATION": "a relation such as 'control'",
          "VERB": "a verb of the game", "NAME": "a name", "NUMBER": "a number", "_NL": "the end of the line",
          "_INDENT": "an indented block", "_DEDENT": "the end of the block", "$END": "the end of the rule",
          "_OR_PLACE": "'or'", "AT_PLACE": "'at' and a place", "_LIMIT_COMMA": "','"}


def _describe(name: str) -> str:
    if name in _KINDS:
        return _KINDS[name]
    pattern = next((t.pattern for t in _lark().terminals if t.name == name), None)
    if pattern is not None and pattern.type == "str":
        return f"'{pattern.value}'"
    return name.lower()


@lru_cache(maxsize=1)
def _keywords() -> List[str]:
    return sorted(set(_keyword_terminals().values()))


def keywords() -> frozenset:
    """The words of the language itself, which a game may not declare as its own."""
    return frozenset(_keywords())
