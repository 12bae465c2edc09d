"""Catalogs read in an earlier run, kept so that a command need not parse and check them again.

Every command loads the tool's catalogs and the game's, in every language the game has, and
checks each text's placeholders: a tenth of a second or more before anything else is done,
for files that rarely change.  One file in the user's cache folder (the one the parsed rules
use: private, replaced atomically) keeps what reading a catalog folder gave:

- keyed by the digest of each file's name and text and of the code that reads them (this
  module, the loader, the YAML reader, the limits): a file edited, added or removed, or a new
  version of the tool, and the folder is read afresh;
- only for a folder read without a single problem, so every problem is found by the reader
  and reported with its position on every load;
- JSON, checked entry by entry when read (texts are text, positions are a file's name and two
  numbers; the loader checks that placeholders nest no deeper than the limit): an entry that
  no reading could have made is ignored, and the folder read afresh.  ``CRISIS_NO_CACHE=1`` does without it.

The files are still read through the content's defences (their size, their place inside the
folder), and count against the content's limits as when they are parsed.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import attrs

from crisis.ruleset import limits
from crisis.ruleset.cachefolder import cache_folder, read_checked, write_checked

_FORMAT = "crisis-catalogs/1"
_NAME = "catalogs.json"
_MAX_BYTES = 16 * 1024 * 1024
_MAX_ENTRIES = 12  # a few games in two or three languages, and the tool's own
# the code between a catalog's files and what is kept of them
_CODE = ("catalogcache.py", "loader.py", "locale.py", "reading.py", "yamlfile.py")

Position = Tuple[str, int, int]


@attrs.frozen
class Kept:
    """What reading one catalog folder gave: its messages in order, where each was written, and the
    YAML values its files hold (counted against the content's limit as if parsed again)."""

    messages: Dict[str, str]
    positions: Dict[str, Position]
    values: int


@lru_cache(maxsize=1)
def _code_key() -> Optional[str]:
    digest = hashlib.sha256(_FORMAT.encode())
    here = Path(__file__).resolve().parent
    for path in [here / name for name in _CODE] + [here.parent / "ruleset" / "limits.py"]:
        try:
            digest.update(path.read_bytes() + b"\0")
        except OSError:
            return None
    return digest.hexdigest()


def key_of(files: List[Tuple[str, str]]) -> str:
    """The key of a catalog folder's files, each (the name it is shown by, its text)."""
    digest = hashlib.sha256()
    for name, text in files:
        digest.update(name.encode("utf-8", "surrogatepass") + b"\0" + text.encode("utf-8", "surrogatepass") + b"\0")
    return digest.hexdigest()


_stored: Dict[str, Dict[str, object]] = {}  # this process's reading of the file in each cache folder


def _entries(folder: str, code: str) -> Dict[str, object]:
    found = _stored.get(folder)
    if found is None:
        body = read_checked(os.path.join(folder, _NAME), _FORMAT, code, _MAX_BYTES)
        try:
            found = json.loads(body) if body is not None else None
        except (ValueError, RecursionError):
            found = None
        found = _stored[folder] = found if isinstance(found, dict) else {}
    return found


def get(folder_key: str) -> Optional[Kept]:
    """What the folder with this key (``key_of``) gave when it was read, if that is kept and sound."""
    folder, code = cache_folder(), _code_key()
    if folder is None or code is None:
        return None
    return _decoded(_entries(folder, code).get(folder_key))


def put(folder_key: str, kept: Kept) -> None:
    """Keep what a folder read without problems gave (the oldest entries make room)."""
    folder, code = cache_folder(), _code_key()
    if folder is None or code is None:
        return
    entries = _entries(folder, code)
    entries.pop(folder_key, None)
    entries[folder_key] = {"messages": kept.messages, "values": kept.values,
                           "positions": {key: list(where) for key, where in kept.positions.items()}}
    while len(entries) > _MAX_ENTRIES:
        del entries[next(iter(entries))]
    try:
        body = json.dumps(entries, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")
    except (TypeError, ValueError, UnicodeError):
        return
    if len(body) <= _MAX_BYTES - 1024:
        write_checked(folder, _NAME, _FORMAT, code, body)


def _decoded(entry) -> Optional[Kept]:
    """The entry as Kept, or None when it is anything a reading could not have made."""
    if not isinstance(entry, dict) or set(entry) != {"messages", "positions", "values"}:
        return None
    messages, positions, values = entry["messages"], entry["positions"], entry["values"]
    if not (isinstance(messages, dict) and isinstance(positions, dict) and type(values) is int
            and 0 <= values <= limits.MAX_CONTENT_VALUES and list(messages) == list(positions)):
        return None
    out: Dict[str, Position] = {}
    for key, text in messages.items():
        where = positions[key]
        if not (isinstance(text, str) and isinstance(where, list) and len(where) == 3 and isinstance(where[0], str)
                and all(type(n) is int and 0 < n < 10 ** limits.MAX_NUMBER_DIGITS for n in where[1:])):
            return None
        out[key] = (where[0], where[1], where[2])
    return Kept(messages, out, values)

