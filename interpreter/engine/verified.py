"""Generated modules verified in an earlier run, remembered by their digest.

Every game the general engine plays in batch generates its rules' module (codegen.py) and
verifies it (verify.py) before compiling it.  Generating is quick; verifying, a walk over every
node of a few thousand lines, is most of the cost, and the same content gives the same text run
after run.  So one file in the user's cache folder (the one the parsed rules use: private,
replaced atomically, its body's digest checked) keeps the SHA-256 digests of the module texts
that passed ``verify``:

- it holds digests and nothing else: no source, no code, nothing that is run.  A module is
  compiled from the text generated in this run; it skips the walk only when its exact text
  (every byte, by digest) was verified before by this version of the generator and verifier;
- the file names the code that made and verified those texts (codegen*.py, verify.py, this
  module, the limits): a new version of any of them and every module is verified again;
- an entry that is not a digest, a file damaged, cut or edited by hand: ignored, and the
  module verified as if nothing were kept.  ``CRISIS_NO_CACHE=1`` does without it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import List, Optional

from crisis.ruleset.cachefolder import cache_folder, read_checked, write_checked

_FORMAT = "crisis-verified-modules/1"
_NAME = "verified-modules.json"
_MAX_BYTES = 64 * 1024
_MAX_ENTRIES = 32  # a few games, with and without their options and solo overlays
_CODE = ("codegen.py", "codegen_values.py", "codegen_transfers.py", "codegen_terms.py", "verify.py", "verified.py")
_DIGEST = re.compile(r"^[0-9a-f]{64}$")

_stored: dict = {}  # cache folder -> the digests read from its file (this process's view)


@lru_cache(maxsize=1)
def _code_key() -> Optional[str]:
    digest = hashlib.sha256(_FORMAT.encode())
    here = Path(__file__).resolve().parent
    for path in [here / name for name in _CODE] + [here.parents[1] / "ruleset" / "limits.py"]:
        try:
            digest.update(path.read_bytes() + b"\0")
        except OSError:
            return None
    return digest.hexdigest()


def digest_of(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()


def _kept(folder: str, code: str) -> List[str]:
    found = _stored.get(folder)
    if found is None:
        body = read_checked(os.path.join(folder, _NAME), _FORMAT, code, _MAX_BYTES)
        try:
            found = json.loads(body) if body is not None else []
        except (ValueError, RecursionError):
            found = []
        if not (isinstance(found, list) and all(isinstance(d, str) and _DIGEST.match(d) for d in found)):
            found = []
        found = _stored[folder] = found[-_MAX_ENTRIES:]
    return found


def was_verified(source: str) -> bool:
    """Whether this exact module text passed ``verify`` in an earlier run of this version."""
    folder, code = cache_folder(), _code_key()
    if folder is None or code is None:
        return False
    return digest_of(source) in _kept(folder, code)


def remember(source: str) -> None:
    """Note that this module text passed ``verify`` (the oldest notes make room)."""
    folder, code = cache_folder(), _code_key()
    if folder is None or code is None:
        return
    kept = _kept(folder, code)
    digest = digest_of(source)
    if digest in kept:
        return
    kept.append(digest)
    del kept[:-_MAX_ENTRIES]
    write_checked(folder, _NAME, _FORMAT, code, json.dumps(kept).encode("ascii"))
