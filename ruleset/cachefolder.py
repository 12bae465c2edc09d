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


def read_checked(path: str, form: str, key: str, max_bytes: int) -> Optional[bytes]:
    """The body of a cache file written by ``write_checked`` with this form and key, if it is
    the user's own regular file, private, within the size, and its body matches its digest;
    else None (the caller builds what it holds again)."""
    import hashlib
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if (not stat.S_ISREG(info.st_mode) or info.st_mode & 0o077 or info.st_uid != uid()
                or info.st_size > max_bytes):
            return None
        raw = os.read(fd, max_bytes + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    head, _, body = raw.partition(b"\n")
    if head.split(b" ") != [form.encode(), key.encode(), hashlib.sha256(body).hexdigest().encode()]:
        return None
    return body


def write_checked(folder: str, name: str, form: str, key: str, body: bytes) -> None:
    """Write a cache file: a first line naming its form, its key and its body's digest, then the
    body; private (0600) and replaced at once, so a reader never sees half of it.  A folder
    that cannot be written is done without."""
    import hashlib
    import tempfile
    head = " ".join([form, key, hashlib.sha256(body).hexdigest()]).encode()
    try:
        fd, tmp = tempfile.mkstemp(prefix="." + name, suffix=".tmp", dir=folder)  # created 0600
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(head + b"\n" + body)
        os.replace(tmp, os.path.join(folder, name))
    except BaseException as error:  # a full disk, or Ctrl-C: no temporary file is left behind
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if not isinstance(error, OSError):
            raise
