"""Saved games: a small JSON file, rewritten atomically after every action.

A saved game is the content it was played on (game name and digest), the
seed, the options, which controller plays each side and the actions in the
notation of docs/notation.md.  Replaying the actions from the seed rebuilds
the game exactly, so nothing else is stored.

Problems are raised as ``SaveProblem(key, **params)``: the command line turns
the key into words from the locale catalog.
"""

from __future__ import annotations

import datetime
import json
import errno
import os
import tempfile
from pathlib import Path
from typing import Dict, List, Optional

import attrs

from crisis.content.model import Content
from crisis.ruleset.diagnostics import UserError

FORMAT = "crisis-saved-game"
VERSION = 1
HUMAN = "human"


class SystemReason(str):
    """An operating-system error, kept with its errno name so the command line
    can say it in the player's language (``cli.os_error.<NAME>``)."""

    code: str

    @classmethod
    def of(cls, number: int, text: Optional[str] = None) -> "SystemReason":
        reason = cls(text or os.strerror(number))
        reason.code = errno.errorcode.get(number, "")
        return reason


class SaveProblem(Exception):
    """A saved game that cannot be used; ``key`` names the catalog message."""

    def __init__(self, key: str, **params):
        super().__init__(key)
        self.key = key
        self.params = params


@attrs.define
class SavedGame:
    game: str
    digest: str
    seed: int
    options: Dict[str, object]
    controllers: Dict[str, str]  # side name (as in game.yaml) -> "human" or a bot's name
    actions: List[str] = attrs.field(factory=list)
    created: str = ""

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "content_digest": self.digest,
            "seed": self.seed,
            "options": self.options,
            "controllers": self.controllers,
            "created": self.created,
            "actions": self.actions,
        }


def now_stamp() -> str:
    return datetime.datetime.now().astimezone().isoformat(timespec="seconds")


def default_path(folder: Path, game: str, seed: int) -> Path:
    """A new file in ``folder`` named from the game, the date and time and the seed."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    base = f"{game}-{stamp}-seed{seed}"
    path = folder / f"{base}.json"
    n = 2
    while path.exists():
        path = folder / f"{base}-{n}.json"
        n += 1
    return path


def write_atomic(path: Path, data: dict) -> None:
    """Write JSON so that the file is always either the old or the new version:
    a temporary file in the same folder, flushed to disk, then renamed over."""
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        os.chmod(tmp, _file_mode(path))
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:  # make the rename itself durable (best effort: not every platform allows it)
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


_UMASK = None


def _file_mode(path: Path) -> int:
    """The mode an ordinary new file would get (mkstemp makes private files), or the existing file's."""
    global _UMASK
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        pass
    if _UMASK is None:
        _UMASK = os.umask(0o022)
        os.umask(_UMASK)
    return 0o666 & ~_UMASK


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read(path: Path, content: Content, known_controllers, allow_changed_content: bool = False) -> SavedGame:
    """Read and check a saved game against this content (the actions are replayed elsewhere)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SaveProblem("cli.save.missing", file=str(path)) from None
    except IsADirectoryError:
        raise SaveProblem("cli.save.unreadable", file=str(path), error=SystemReason.of(errno.EISDIR)) from None
    except OSError as error:
        raise SaveProblem("cli.save.unreadable", file=str(path), error=SystemReason.of(error.errno or 0, error.strerror or str(error))) from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise SaveProblem("cli.save.not_json", file=str(path), line=1) from None
    except json.JSONDecodeError as error:
        raise SaveProblem("cli.save.not_json", file=str(path), line=error.lineno) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveProblem("cli.save.foreign", file=str(path))
    version = data.get("version")
    if not _is_int(version):
        raise SaveProblem("cli.save.damaged", file=str(path), field="version")
    if version > VERSION:
        raise SaveProblem("cli.save.newer", file=str(path), version=version, supported=VERSION)
    game = data.get("game")
    if not isinstance(game, str):
        raise SaveProblem("cli.save.damaged", file=str(path), field="game")
    if game != content.board.game:
        raise SaveProblem("cli.save.other_game", file=str(path), saved=game, game=content.board.game)
    digest = data.get("content_digest")
    if not isinstance(digest, str):
        raise SaveProblem("cli.save.damaged", file=str(path), field="content_digest")
    if digest != content.digest and not allow_changed_content:
        raise SaveProblem("cli.save.other_content", file=str(path), saved=digest, digest=content.digest,
                          content=content.root)
    seed = data.get("seed")
    if not _is_int(seed):
        raise SaveProblem("cli.save.damaged", file=str(path), field="seed")
    options = data.get("options")
    if not isinstance(options, dict):
        raise SaveProblem("cli.save.damaged", file=str(path), field="options")
    from crisis.interpreter.game import Options
    try:
        Options.from_dict(options)
    except (UserError, TypeError):
        raise SaveProblem("cli.save.damaged", file=str(path), field="options") from None
    controllers = data.get("controllers")
    sides = content.board.sides
    if (not isinstance(controllers, dict) or set(controllers) != set(sides)
            or not all(isinstance(v, str) for v in controllers.values())):
        raise SaveProblem("cli.save.damaged", file=str(path), field="controllers")
    for value in controllers.values():
        if value != HUMAN and value not in known_controllers:
            raise SaveProblem("cli.save.unknown_controller", file=str(path), name=value)
    actions = data.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise SaveProblem("cli.save.damaged", file=str(path), field="actions")
    created = data.get("created") if isinstance(data.get("created"), str) else ""
    return SavedGame(game=game, digest=digest, seed=seed, options=dict(options),
                     controllers={side: controllers[side] for side in sides}, actions=list(actions), created=created)


def check_writable(path: Path) -> Optional[str]:
    """None if a save can be written at ``path``, else the system's reason."""
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        return SystemReason.of(errno.ENOENT)
    if not os.access(folder, os.W_OK):
        return SystemReason.of(errno.EACCES)
    return None
