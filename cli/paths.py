"""Paths named on the command line, checked before any work is done.

One checker for every path option (``--save``, ``--records``, ``--out``...):
what cannot be written is refused in one line with exit status 2 -- a name
longer than the system allows, a folder where a file is wanted or a file
where a folder is, a device or a FIFO (never opened: a FIFO would make the
command wait for a reader), a folder that is missing or not writable --
rather than a traceback, a wait, or an error after an hour of games.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import List, Optional, Tuple

from .errors import CliError

_NAME_MAX, _PATH_MAX = 255, 4096  # where the system does not say (POSIX's usual values)


def file_to_write(text: str, option: str, catalog, beside: int = 0) -> Path:
    """``text`` as a file this command may create or replace, else a one-line CliError.
    ``beside``: how many bytes longer than its name are the names of the files the command keeps
    beside it (a save's lock and temporary file): a name those would not fit is refused here too."""
    path = Path(text)
    # "dir/" names a folder (Path would drop the slash, and the game would go in a file "dir")
    named_folder = str(text).endswith(("/", os.sep))
    reason = ("folder_named" if named_folder else None) or _too_long(path, beside) \
        or _existing(path, want_folder=False) or _parent(path.parent)
    if reason:
        raise _refusal(catalog, option, text, reason)
    return path


def folder_to_write(text: str, option: str, catalog) -> Path:
    """``text`` as a folder this command may write files in (made if missing), else a one-line CliError."""
    path = Path(text)
    reason = _too_long(path) or _existing(path, want_folder=True)
    if not reason and not _exists(path):
        reason = _parent(path.parent, make=True)
    if not reason:
        reason = _probe(path)
    if reason:
        raise _refusal(catalog, option, text, reason)
    return path


def _probe(folder: Path) -> Optional[str]:
    """Why a file cannot be written in ``folder`` after all, found by making the folder and a
    file in it (both removed at once): a folder that permissions allow may still refuse (a read-only
    or special file system), and a long run should not learn it only at its end."""
    import tempfile
    made = []  # the folders the probe makes, the deepest first: taken away again after it
    missing = folder if folder.is_absolute() else Path.cwd() / folder
    while not os.path.lexists(missing) and missing != missing.parent:
        made.append(missing)
        missing = missing.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-probe-"):
            pass
    except OSError as error:
        return _system(error.errno or 0)
    finally:
        for path in made:  # nothing is left where the command may still be refused, or fail
            try:
                path.rmdir()
            except OSError:
                break
    return None


def writing_problem(catalog, option: str, text: str, error: OSError) -> CliError:
    """A write that failed once under way (a full disk): one line, exit status 1."""
    refusal = _refusal(catalog, option, text, _system(error.errno or 0))
    refusal.code = 1
    return refusal


# ------------------------------------------------------------------ checks


def _limits(path: Path) -> Tuple[int, int]:
    folder = path if path.is_absolute() else Path.cwd() / path
    for candidate in (folder, *folder.parents):
        try:
            return os.pathconf(candidate, "PC_NAME_MAX"), os.pathconf(candidate, "PC_PATH_MAX")
        except (OSError, ValueError):
            continue
    return _NAME_MAX, _PATH_MAX


def _too_long(path: Path, beside: int = 0) -> Optional[str]:
    name_max, path_max = _limits(path)
    if len(os.fsencode(str(path))) + beside >= path_max or len(os.fsencode(path.name)) + beside > name_max:
        return "too_long"
    if any(len(os.fsencode(part)) > name_max for part in path.parts):
        return "too_long"
    return None


def _exists(path: Path) -> bool:
    return os.path.lexists(path)


def _existing(path: Path, want_folder: bool) -> Optional[str]:
    """Why what is at ``path`` now cannot be written as asked (nothing there is fine)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return "dangling" if os.path.lexists(path) else None
    except OSError as error:
        return "under_file" if error.errno == errno.ENOTDIR else _system(error.errno or 0)
    if stat.S_ISDIR(info.st_mode):
        if not want_folder:
            return "folder"
        return None if os.access(path, os.W_OK | os.X_OK) else _system(errno.EACCES)
    if not stat.S_ISREG(info.st_mode):
        return "not_regular"
    if want_folder:
        return "not_folder"
    return None if os.access(path, os.W_OK) else _system(errno.EACCES)


def _parent(folder: Path, make: bool = False) -> Optional[str]:
    """Why a new entry cannot be made in ``folder`` (with ``make``: in the nearest folder that
    exists above it, where the missing ones would be made)."""
    folder = folder if str(folder) else Path(".")
    while make and not os.path.lexists(folder) and folder != folder.parent:
        folder = folder.parent
    try:
        info = os.stat(folder)
    except FileNotFoundError:
        return "no_folder"
    except OSError as error:
        return "under_file" if error.errno == errno.ENOTDIR else _system(error.errno or 0)
    if not stat.S_ISDIR(info.st_mode):
        return "under_file"  # 'afile/report': the folder it would go in is a file
    return None if os.access(folder, os.W_OK | os.X_OK) else _system(errno.EACCES)


def _system(number: int) -> str:
    return "os:" + (errno.errorcode.get(number, "") or str(number))


def _refusal(catalog, option: str, text: str, reason: str) -> CliError:
    from crisis.ruleset.diagnostics import shown
    return CliError(catalog.text("cli.path.refused", option=option, file=shown(text, 120),
                                 reason=reason_text(catalog, reason)))


def os_error_text(catalog, error: OSError) -> str:
    """An operating system's error in the catalog's words ("the disk is full")."""
    return reason_text(catalog, _system(error.errno or 0))


def reason_text(catalog, reason: str) -> str:
    """A reason of this module in the catalog's words (an operating-system error by its errno name)."""
    if reason == "not_folder":
        return catalog.text("cli.path.not_folder")
    if reason == "no_folder":
        return catalog.text("cli.path.no_folder")
    if reason == "under_file":
        return catalog.text("cli.path.under_file")
    if reason == "dangling":
        return catalog.text("cli.path.dangling")
    if reason == "folder_named":
        return catalog.text("cli.path.folder_named")
    code = {"too_long": "ENAMETOOLONG", "folder": "EISDIR", "not_regular": "NOTREG"}.get(reason, reason[3:])
    number = getattr(errno, code, 0)
    return catalog.raw(f"cli.os_error.{code}") or (os.strerror(number) if number else code)


# ------------------------------------------------------------------ printing


def shown_path(path) -> str:
    """A path as printed: every control character escaped (``\\x1b``), so that a file named with
    terminal escapes cannot drive the terminal; the rest as it is."""
    from crisis.ruleset.diagnostics import printable
    return printable(str(path))


def command_apart(text: str, command: str) -> List[str]:
    """A sentence that ends with a command to copy, the command on a line of its own (a pane or
    a terminal breaks lines between words: it would break the command)."""
    at = text.find(command)
    if at <= 0:
        return [text]
    return [text[:at].rstrip(), "  " + command]


def command_line(command: str, path, content=None) -> str:
    """``crisis COMMAND PATH`` as a person can paste it into a shell: quoted by ``shlex``, or, for a
    name with characters ``shown_path`` escapes, in the ``$'...'`` form of bash and zsh.  With
    ``content`` (a Content) that is not a shipped game's, ``--content FOLDER`` too: a game played
    on a designer's copy goes on on that copy."""
    words = [command] + (["--content", content.root] if content is not None and not shipped(content) else [])
    return "crisis " + " ".join(_shell_word(str(word)) for word in words + [path])


def shipped(content) -> bool:
    """Whether ``content`` is one of the games shipped with the tool (found again by its name)."""
    from crisis.content.games import game_path
    folder = game_path(os.path.basename(str(content.root)))
    return folder is not None and os.path.realpath(folder) == os.path.realpath(str(content.root))


def _shell_word(text: str) -> str:
    import shlex

    from crisis.ruleset.diagnostics import _UNPRINTABLE
    if not _UNPRINTABLE.search(text):
        return shlex.quote(text)

    def spelt(char: str) -> str:
        if _UNPRINTABLE.match(char):
            return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"
        return "\\" + char if char in "\\'" else char
    return f"$'{''.join(spelt(char) for char in text)}'"
