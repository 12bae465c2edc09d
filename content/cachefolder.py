"""The user's cache folder for crisis (grammar tables, the command line's catalogs), with nothing
heavy imported: ``crisis --help`` uses it too."""

from __future__ import annotations

import os
import stat
from typing import Optional


def cache_folder() -> Optional[str]:
    """The cache folder, if it is safe to use: a real folder, the user's own, writable by nobody else."""
    if os.environ.get("CRISIS_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "crisis")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_mode & 0o022 or info.st_uid != uid():
        return None
    return folder


def uid() -> int:
    return os.getuid() if hasattr(os, "getuid") else 0
