"""Lark's LALR tables, kept in the user's cache folder between runs.

Building the tables takes most of a second; loading them a few milliseconds.
They are kept as JSON (Lark's serialised form, as its standalone generator
embeds it): data, never code, so even a planted file cannot run anything.  The
folder must be the user's own and closed to others, the file is written
private, and its digest and grammar key are checked before it is decoded;
anything amiss and the tables are simply built again.
"""

from __future__ import annotations

import json
import os
from typing import Optional

from lark import Lark

from crisis.ruleset.cachefolder import read_checked as _read_checked
from crisis.ruleset.cachefolder import write_checked as _write_checked

_CACHE_FORMAT = "crisis-grammar-cache/1"
_CACHE_MAX_BYTES = 8 * 1024 * 1024


def _encode(value):
    """Lark's serialised tables as JSON: dicts (whose keys may be numbers) and tuples are tagged."""
    if isinstance(value, dict):
        return {"d": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if isinstance(value, tuple):
        return {"t": [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(type(value).__name__)


def _decode(value):
    if isinstance(value, dict):
        if "d" in value:
            return {_decode(k): _decode(v) for k, v in value["d"]}
        return tuple(_decode(v) for v in value["t"])
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


def read_tables(path: str, key: str) -> Optional[dict]:
    """Lark's tables from a cache file, or None if it is missing, damaged or another grammar's."""
    body = _read_checked(path, _CACHE_FORMAT, key, _CACHE_MAX_BYTES)
    if body is None:
        return None
    try:
        return _decode(json.loads(body))
    except (ValueError, TypeError, KeyError, RecursionError):
        return None


def write_tables(folder: str, name: str, key: str, parser: Lark) -> None:
    """Keep a parser's tables in the cache folder (quietly not, if anything goes wrong)."""
    from lark.grammar import Rule
    from lark.lark import _LOAD_ALLOWED_OPTIONS
    from lark.lexer import TerminalDef
    try:
        data, memo = parser.memo_serialize([TerminalDef, Rule])
        options = {}
        for option, value in data["options"].items():
            if option not in _LOAD_ALLOWED_OPTIONS:
                try:
                    options[option] = _encode(value)
                except TypeError:  # loaders and paths: not needed to load the tables
                    continue
        data["options"] = {option: _decode(value) for option, value in options.items()}
        body = json.dumps(_encode({"data": data, "memo": memo}), separators=(",", ":")).encode("utf-8")
    except (TypeError, ValueError, KeyError, AttributeError):
        return
    try:  # earlier versions kept a pickle here; it is never read, and better gone
        os.unlink(os.path.join(folder, "grammar.lark-cache"))
    except OSError:
        pass
    _write_checked(folder, name, _CACHE_FORMAT, key, body)
