"""Parsed rules kept between runs, so a content load need not parse its rule texts again.

Parsing the content's rule texts is most of a content load (Lark also compiles
its lexer's expressions the first time it parses), yet the texts rarely change
between two runs.  One file per user keeps the syntax trees (nodes.py) of the
texts parsed lately, each keyed by its text, the rule it was parsed from
(block, condition, places) and the game's words in force (a text reads
differently in another game: its lexicon is part of the key):

- JSON, never pickle: a tree is rebuilt only from the classes of ``nodes.py``,
  looked up in a fixed table, with each field's value checked to be plain data
  (text, whole number, yes/no, nothing) or another node; nothing else can come
  out of the file, and nothing in it is run.
- The file names what made its trees (the grammar, the Lark version, the code
  between the text and the tree, the nesting and number limits) and carries
  the digest of its body; a file from another version, a damaged or cut file,
  or one edited by hand is ignored and written again.  A tree is kept only
  after its text parsed without error, so errors are always found by the
  parser, with their positions.
- The file lives in the cache folder of the grammar tables (the user's own,
  closed to others; written private, replaced atomically).  When it cannot be
  written the load goes on without it.  ``CRISIS_NO_CACHE=1`` does without it.

A content load opens one session (``session()``): the file is read once at its
start and written once at its end, only if a text was parsed afresh.  A run
whose texts are all cached never imports Lark.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import importlib.util
import json
import os
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Dict, Iterator, Optional

import attrs

from . import limits
from . import nodes as N
from .cachefolder import cache_folder as _cache_folder
from .cachefolder import read_checked, write_checked

_FORMAT = "crisis-rule-trees/1"
_NAME = "rule-trees.json"
_MAX_BYTES = 16 * 1024 * 1024
# Trees of other texts than this load's are kept too (a designer switching
# between two versions of a card parses neither again), up to this many texts:
# the file stays small enough to read in a few milliseconds.
_MAX_ENTRIES = 800

# The only classes a cached tree can be made of, by name: the syntax tree's own nodes.
_NODES: Dict[str, type] = {
    name: cls for name, cls in vars(N).items()
    if isinstance(cls, type) and issubclass(cls, N.Node) and cls is not N.Node and cls.__module__ == N.__name__
}
# Each node's fields in the order its class takes them (``pos`` is keyword-only).
_FIELDS: Dict[str, tuple] = {name: tuple(f.name for f in attrs.fields(cls) if f.name != "pos")
                             for name, cls in _NODES.items()}
_NUMBER_LIMIT = 10 ** limits.MAX_NUMBER_DIGITS
# what the code between a text and its tree is made of: a change to any makes every tree a stranger
_CODE = ("reader.py", "words.py", "indent.py", "builder.py", "nodes.py", "rulecache.py")


class _Untrusted(Exception):
    """The file holds something no parse could have produced."""


# ------------------------------------------------------------------ encoding
#
# A node is a list: its class's name, its position (four numbers, or 0), then
# its fields in order.  A tuple is {"t": [...]}.  Text, numbers, yes/no and
# nothing are themselves.

def encode(node):
    if isinstance(node, N.Node):
        name = type(node).__name__
        pos = node.pos
        out = [name, [pos.line, pos.column, pos.end_line, pos.end_column] if pos is not None else 0]
        out.extend(encode(getattr(node, field)) for field in _FIELDS[name])
        return out
    if isinstance(node, tuple):
        return {"t": [encode(v) for v in node]}
    if node is None or isinstance(node, (bool, int, str)):
        return str(node) if isinstance(node, str) else node  # Lark's tokens are kept as plain text
    raise TypeError(type(node).__name__)


def decode(value, depth: int = 0):
    # The parser refuses rules nested deeper than the limit, and every node is at least one
    # level of Lark's tree: a deeper cached tree was not made by the parser.
    if depth > 2 * limits.MAX_RULE_DEPTH + 4:
        raise _Untrusted("too deep")
    if isinstance(value, list):
        if not value or not isinstance(value[0], str) or value[0] not in _NODES:
            raise _Untrusted("not a node")
        name = value[0]
        fields = _FIELDS[name]
        if len(value) != len(fields) + 2:
            raise _Untrusted("wrong number of fields")
        pos = value[1]
        if pos == 0:
            pos = None
        elif (isinstance(pos, list) and len(pos) == 4
              and all(type(n) is int and 0 <= n < _NUMBER_LIMIT for n in pos)):
            pos = N.Pos(*pos)
        else:
            raise _Untrusted("bad position")
        try:
            return _NODES[name](*[decode(v, depth + 1) for v in value[2:]], pos=pos)
        except (TypeError, ValueError) as error:
            raise _Untrusted(str(error)) from None
    if isinstance(value, dict):
        if list(value) != ["t"] or not isinstance(value["t"], list):
            raise _Untrusted("not a tuple")
        return tuple(decode(v, depth + 1) for v in value["t"])
    if value is None or isinstance(value, (bool, str)):
        return value
    if type(value) is int and -_NUMBER_LIMIT < value < _NUMBER_LIMIT:
        return value
    raise _Untrusted("not plain data")


# ------------------------------------------------------------------ the file

@lru_cache(maxsize=1)
def _key() -> Optional[str]:
    """Names what made the trees: a change to any of it makes every cached tree a stranger."""
    digest = hashlib.sha256()
    grammar = resources.files("crisis.ruleset").joinpath("language.lark").read_text(encoding="utf-8")
    for part in (_FORMAT, grammar, f"{limits.MAX_RULE_DEPTH} {limits.MAX_NUMBER_DIGITS}"):
        digest.update(part.encode("utf-8") + b"\0")
    # The code between the text and the tree; without its source nothing vouches for old trees.
    # Lark's version is read from its package's first file, which names it: importing Lark
    # only to ask would cost what the cache saves.
    here = Path(__file__).resolve().parent
    lark = importlib.util.find_spec("lark")
    for path in [here / name for name in _CODE] + [Path(lark.origin) if lark is not None and lark.origin else None]:
        try:
            digest.update(path.read_bytes() + b"\0")
        except (OSError, AttributeError):
            return None
    return digest.hexdigest()


def _text_key(start: str, words: str, text: str) -> str:
    return hashlib.sha256(f"{start}\0{words}\0{text}".encode("utf-8")).hexdigest()


def _read(path: str, key: str) -> Optional[dict]:
    body = read_checked(path, _FORMAT, key, _MAX_BYTES)
    if body is None:
        return None
    try:
        entries = json.loads(body)
    except (ValueError, RecursionError):
        return None
    return entries if isinstance(entries, dict) else None


def _write(folder: str, key: str, entries: dict) -> None:
    try:
        body = json.dumps(entries, separators=(",", ":")).encode("utf-8")
    except (TypeError, ValueError, RecursionError):
        return
    if len(body) <= _MAX_BYTES - 1024:
        write_checked(folder, _NAME, _FORMAT, key, body)


class RuleCache:
    """The cached trees of one content load."""

    def __init__(self, folder: str, key: str):
        self.folder, self.key = folder, key
        self.stored = _read(os.path.join(folder, _NAME), key) or {}
        self.used: Dict[str, object] = {}  # this load's texts, encoded, in the order they came
        self.changed = False
        # id of a lexicon -> (the lexicon, kept alive so that its id is never another's; its words' digest)
        self.words: Dict[int, tuple] = {}

    def lexicon_key(self, lexicon) -> str:
        found = self.words.get(id(lexicon))
        if found is None or found[0] is not lexicon:
            text = lexicon.digest_text() if lexicon is not None else ""
            found = self.words[id(lexicon)] = (lexicon, hashlib.sha256(text.encode("utf-8")).hexdigest())
        return found[1]

    def tree(self, digest: str):
        """The tree kept for a text's key, if a trusted one is kept; else None."""
        value = self.stored.get(digest)
        if value is None:
            return None
        try:
            tree = decode(value)
        except (_Untrusted, RecursionError):
            # one entry that no parse made: the whole file is suspect, and rewritten from this load
            self.stored, self.changed = {}, True
            return None
        self.used[digest] = value
        return tree

    def keep(self, digest: str, tree) -> None:
        try:
            value = encode(tree)
        except TypeError:
            return
        self.used[digest] = value
        self.changed = True

    def save(self) -> None:
        if not self.changed:
            return
        entries = dict(self.used)
        for digest, value in self.stored.items():
            if len(entries) >= _MAX_ENTRIES:
                break
            entries.setdefault(digest, value)
        _write(self.folder, self.key, entries)


_current: contextvars.ContextVar[Optional[RuleCache]] = contextvars.ContextVar("rule_cache", default=None)


def current() -> Optional[RuleCache]:
    return _current.get()


@contextlib.contextmanager
def session() -> Iterator[Optional[RuleCache]]:
    """Use the cache for the parses inside; a session inside another uses the outer one's."""
    if _current.get() is not None:
        yield _current.get()
        return
    folder = _cache_folder()
    key = _key() if folder else None
    cache = RuleCache(folder, key) if folder and key else None
    token = _current.set(cache)
    try:
        yield cache
    finally:
        _current.reset(token)
        if cache is not None:
            cache.save()


# ------------------------------------------------------------------ parsing

def parse(text: str, lexicon, start: str = "block", source=None):
    """As ``reader.parse``; but a text whose tree is cached is not handed to the parser at all."""
    cache = _current.get()
    digest = None
    if cache is not None and text.strip():  # an empty text gets the parser's message
        digest = _text_key(start, cache.lexicon_key(lexicon), text)
        tree = cache.tree(digest)
        if tree is not None:
            return tree
    from .reader import parse as parse_text
    tree = parse_text(text, lexicon, start, source)  # a syntax error raises: nothing is kept
    if cache is not None and digest is not None:
        cache.keep(digest, tree)
    return tree


def known(text: str, lexicon, start: str) -> bool:
    """Whether this load's cache holds a tree of ``text`` parsed from rule ``start`` (so that a
    reader trying several readings of a text tries first the one that parsed before)."""
    cache = _current.get()
    return (cache is not None and bool(text.strip())
            and _text_key(start, cache.lexicon_key(lexicon), text) in cache.stored)


@lru_cache(maxsize=1)
def keywords() -> frozenset:
    """The words of the language itself (reader.keywords), from the grammar's text: its quoted
    lowercase words (the parser's own list, without building the parser)."""
    import re
    grammar = resources.files("crisis.ruleset").joinpath("language.lark").read_text(encoding="utf-8")
    code = "\n".join(line.split("//", 1)[0] for line in grammar.splitlines())
    return frozenset(word for word in re.findall(r'"([^"\\]+)"i?', code) if word.isalpha())
