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
import errno
import json
import os
import re
import stat
import tempfile
import unicodedata
from pathlib import Path
from typing import Dict, List, Optional

import attrs
import yaml

from crisis.content.model import Content
from crisis.content.yamlfile import read_regular
from crisis.ruleset import limits
from crisis.ruleset.diagnostics import shown
from crisis.interpreter.engine.program import program_of

FORMAT = "crisis-saved-game"


def _history() -> dict:
    """The format's history (saved-game-formats.yaml): the newest version and, per earlier version,
    the entries it named otherwise."""
    path = Path(__file__).with_name("saved-game-formats.yaml")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    renamed = {int(version): dict(names) for version, names in data["renamed"].items()}
    return {"newest": int(data["newest"]), "renamed": renamed}


_HISTORY = _history()
VERSION = _HISTORY["newest"]
HUMAN = "human"
SOLO = "solo"  # the side the game plays itself, by its content (the solo opponent)


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
    """A saved game that cannot be used; ``key`` names the catalog message.

    Values read from the file are passed through ``shown`` (escaped and
    shortened) before they become parameters.
    """

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
    controllers: Dict[str, str]  # side name (as in state.yaml) -> "human" or a bot's name
    actions: List[str] = attrs.field(factory=list)
    created: str = ""
    # the automated opponent's choices (the side the game plays itself), each with the action it
    # led to and why (in English), for a person reading the file: they are made again when the
    # game is replayed, never read back
    automa: List[Dict[str, str]] = attrs.field(factory=list)
    version: int = VERSION  # the format it was read in (a save is always written in this version's)
    # the language the game is played in, where the player chose one the command alone would not
    # speak (crisis play --lang es): resume and replay speak it unless --lang says otherwise
    language: str = ""

    def to_json(self) -> dict:
        data = {
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
        if self.automa:
            data["automa"] = self.automa
        if self.language:
            data["language"] = self.language
        return data


def game_name(content) -> str:
    """The game's name, as a save names it (state.yaml's 'game')."""
    return content.game


def plays_as(content, digest: str) -> bool:
    """Whether a game saved on content of ``digest`` plays the same on this content (this content's
    digest, or one of the earlier versions it says it replaces)."""
    plays = getattr(content, "plays", None)
    return plays(digest) if plays is not None else digest == content.digest


def now_stamp() -> str:
    return datetime.datetime.now().astimezone().isoformat(timespec="seconds")


def slug(name: str) -> str:
    """A file-name-safe form of a game's name: lowercase ASCII letters, digits and '-'.

    The name comes from content, which may be anyone's: never a path, a dot
    file or a control character, whatever it holds.
    """
    ascii_text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")[:40].strip("-") or "game"


def default_path(folder: Path, game: str, seed: Optional[int]) -> Path:
    """A new file in ``folder`` named from the game, the date and time and the seed (None: a seed
    the players are not shown until the game is over, as in hot seat, is left out)."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    base = f"{slug(game)}-{stamp}" + (f"-seed{seed}" if seed is not None else "")
    path = folder / f"{base}.json"
    n = 2
    while os.path.lexists(path):
        path = folder / f"{base}-{n}.json"
        n += 1
    return path


# the random letters mkstemp puts in a temporary file's name (8 in CPython), as this module allows them
_TEMPORARY_LETTERS = (6, 12)


def _temporary_files(path: Path, folder: Path):
    """Temporary files of earlier writes of ``path`` (left behind if a write was killed)."""
    low, high = _TEMPORARY_LETTERS
    pattern = re.compile(re.escape(f".{path.name}.") + f"[A-Za-z0-9_]{{{low},{high}}}" + r"\.tmp")
    try:
        with os.scandir(folder) as entries:
            return [folder / e.name for e in entries if pattern.fullmatch(e.name) and e.is_file(follow_symlinks=False)]
    except OSError:
        return []


# How much longer than a save's name are the names of the files kept beside it: its temporary
# file (".NAME." + mkstemp's letters + ".tmp", the letters counted at their most) and its lock
# (".NAME.lock").  A name they would not fit is refused with the other path checks, before the
# game (cli/paths.py).
NAME_BESIDE = len(".") + len(".") + _TEMPORARY_LETTERS[1] + len(".tmp")


def write_atomic(path: Path, data: dict) -> None:
    """Write JSON so that the file is always either the old or the new version:
    a temporary file in the same folder, flushed to disk, then renamed over.
    Temporary files a killed earlier write left behind are removed first."""
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    folder = path.parent if str(path.parent) else Path(".")
    for stale in _temporary_files(path, folder):
        try:
            os.unlink(stale)
        except OSError:
            pass
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


# The saved game's entries and their JSON types (docs/notation.md, "Saved games").
SCHEMA = {"format": str, "version": int, "game": str, "content_digest": str, "seed": int, "options": dict,
          "controllers": dict, "created": str, "actions": list, "automa": list, "language": str}
# a game against the automated opponent lists its choices for people (SavedGame.automa); a game
# played in a language chosen on the command line names it (SavedGame.language)
OPTIONAL = {"created", "automa", "language"}
# a language as a catalog's folder is named ('es', 'pt_BR'): never a path
LANGUAGE = re.compile(r"[A-Za-z]{2,8}([_-][A-Za-z0-9]{1,8}){0,2}")


def _as_newest(data: dict, version: int, where: str) -> Dict[str, str]:
    """The entries of a file of ``version`` renamed as the newest version names them, in place;
    returns {name now: name in the file}, so that a problem names the entry the file has.  A file
    holding an entry under a name its version did not use is damaged there."""
    written_as: Dict[str, str] = {}
    for earlier in range(version, VERSION):
        for then, now in _HISTORY["renamed"].get(earlier, {}).items():
            if now in data:
                raise SaveProblem("cli.save.damaged", file=where, field=shown(now))
            if then in data:
                data[now] = data.pop(then)
                written_as[now] = written_as.pop(then, then)
    return written_as


# A JSON token, on text whose escapes are made plain (``_plain``): a string runs from quote to
# quote.  No group of the pattern repeats: Python's regular expressions keep memory for every
# repeat of a group, about 150 bytes for each character of a long string.
_TOKEN = re.compile(rb'"[^"]*"|[\[{]|[\]}]|:|-?[0-9][0-9.eE+-]*|NaN|-?Infinity|true|false|null')


def _plain(raw: bytes) -> bytes:
    """``raw`` with each escaped backslash and escaped quote replaced by two plain bytes (same
    length, so positions hold): a quote left in it is a string's start or end."""
    if b"\\" not in raw:
        return raw
    return raw.replace(b"\\\\", b"__").replace(b'\\"', b"__")


def _line(raw: bytes, at: int) -> int:
    return raw.count(b"\n", 0, at) + 1


def _scan(raw: bytes):
    """Nesting, numbers and the count of values checked before JSON is decoded: (problem key,
    line) or None.

    Python's decoder recurses once per level and converts a number of any
    length, so a hostile file could exhaust the stack or the CPU; each value it
    builds costs tens of bytes, so their number bounds the memory a save costs.
    """
    depth = values = 0
    for match in _TOKEN.finditer(_plain(raw)):
        token = match.group()
        if token in (b"]", b"}"):
            depth -= 1
            continue
        if token == b":":
            continue
        values += 1  # a list or an object is counted where it opens
        if values > limits.MAX_SAVE_VALUES:
            return "cli.save.too_many_values", _line(raw, match.start())
        if token in (b"NaN", b"Infinity", b"-Infinity"):  # Python's extension, not JSON
            return "cli.save.not_json", _line(raw, match.start())
        if token in (b"[", b"{"):
            depth += 1
            if depth > limits.MAX_SAVE_DEPTH:
                return "cli.save.too_deep", _line(raw, match.start())
        elif token[:1] not in b'"tfn' and len(token.lstrip(b"-")) > limits.MAX_NUMBER_DIGITS:
            return "cli.save.long_number", _line(raw, match.start())
    return None


class _DuplicateKey(ValueError):
    pass


def _unique_keys(pairs):
    """A JSON object whose keys are all different (Python's decoder keeps the last of two)."""
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _DuplicateKey()
    return found


def _duplicate_key(raw: bytes):
    """(the key, its line) of the first key given twice in one object of ``raw``, valid JSON."""
    keys: List[Optional[set]] = []  # per open bracket: the keys seen, or None for a list
    previous = None
    for match in _TOKEN.finditer(_plain(raw)):
        token = match.group()
        if token in (b"{", b"["):
            keys.append(set() if token == b"{" else None)
        elif token in (b"}", b"]"):
            keys.pop()
        elif token == b":" and previous is not None and keys and keys[-1] is not None:
            key = json.loads(raw[previous.start():previous.end()])
            if key in keys[-1]:
                return key, _line(raw, previous.start())
            keys[-1].add(key)
        previous = match if token[:1] == b'"' else None
    return "", 1  # pragma: no cover - the decoder found one, so the scan does


def _refuse_constant(name):
    raise ValueError(f"{name} is not a number a saved game holds")


def bad_option(options: dict, names=()) -> Optional[str]:
    """The first option whose name or value a game cannot take: ``names`` are the content's
    optional rules (each on or off: true or false); "solo" and "difficulty" name the side the game
    plays and its level (text, or null).  None when all are good."""
    for name, value in options.items():
        if name in ("solo", "difficulty"):
            if value is not None and not isinstance(value, str):
                return name
        elif name not in names or not isinstance(value, bool):
            return name
    return None


def game_of(path: Path) -> Optional[str]:
    """The name of the game a saved file says it holds, or None where it cannot be told (a file
    missing, unreadable, too large or not a saved game: ``read`` then says why)."""
    try:
        game = parse(path).get("game")
    except SaveProblem:
        return None
    return game if isinstance(game, str) else None


def language_of(path: Path) -> Optional[str]:
    """The language a saved file says its game is played in, or None where it names none or
    cannot be told (``read`` then says why)."""
    try:
        language = parse(path).get("language")
    except SaveProblem:
        return None
    return language if isinstance(language, str) and LANGUAGE.fullmatch(language) else None


def parse(path: Path) -> dict:
    """A saved game's file read within the limits and parsed, not yet checked against any
    content: a SaveProblem where it is missing, unreadable, too large or deep, not JSON or
    not a saved game."""
    where = str(path)
    try:
        raw = read_regular(path, limits.MAX_SAVE_BYTES)
    except FileNotFoundError:
        raise SaveProblem("cli.save.missing", file=where) from None
    except OSError as error:
        reason = SystemReason(error.strerror or str(error))
        reason.code = getattr(error, "code", None) or errno.errorcode.get(error.errno or 0, "")
        raise SaveProblem("cli.save.unreadable", file=where, error=reason) from None
    scanned = _scan(raw)
    if scanned:
        limit = {"cli.save.too_deep": limits.MAX_SAVE_DEPTH, "cli.save.too_many_values": limits.MAX_SAVE_VALUES}
        raise SaveProblem(scanned[0], file=where, line=scanned[1],
                          limit=limit.get(scanned[0], limits.MAX_NUMBER_DIGITS))
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant, object_pairs_hook=_unique_keys)
    except UnicodeDecodeError:
        raise SaveProblem("cli.save.not_json", file=where, line=1) from None
    except json.JSONDecodeError as error:
        raise SaveProblem("cli.save.not_json", file=where, line=error.lineno) from None
    except _DuplicateKey:
        key, line = _duplicate_key(raw)
        raise SaveProblem("cli.save.duplicate_key", file=where, entry=shown(key), line=line) from None
    except (ValueError, RecursionError):
        raise SaveProblem("cli.save.not_json", file=where, line=1) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveProblem("cli.save.foreign", file=where)
    return data


def read(path: Path, content: Content, known_controllers, allow_changed_content: bool = False) -> SavedGame:
    """Read and check a saved game against this content (the actions are replayed elsewhere)."""
    where = str(path)
    data = parse(path)
    version = data.get("version")
    if not _is_int(version) or version < 1:
        raise SaveProblem("cli.save.damaged", file=where, field="version")
    if version > VERSION:
        raise SaveProblem("cli.save.newer", file=where, version=version, supported=VERSION)
    written_as = _as_newest(data, version, where)
    for key in data:
        if key not in SCHEMA:
            raise SaveProblem("cli.save.damaged", file=where, field=shown(written_as.get(key, key)))
    for key, kind in SCHEMA.items():
        if key not in data and key in OPTIONAL:
            continue
        if key not in data or not (_is_int(data[key]) if kind is int else isinstance(data[key], kind)):
            raise SaveProblem("cli.save.damaged", file=where, field=written_as.get(key, key))
    game = data["game"]
    if game != game_name(content):
        raise SaveProblem("cli.save.other_game", file=where, saved=shown(game), game=game_name(content))
    digest = data["content_digest"]
    if not plays_as(content, digest) and not allow_changed_content:
        raise SaveProblem("cli.save.other_content", file=where, saved=shown(digest), digest=content.digest,
                          content=content.root)
    seed = data["seed"]
    if not 0 <= seed <= limits.MAX_SEED:  # the command line never starts a game with another
        raise SaveProblem("cli.save.damaged", file=where, field="seed")
    options = data["options"]
    from crisis.interpreter.engine.game import option_names
    wrong = bad_option(options, option_names(program_of(content)))
    if wrong is not None:
        raise SaveProblem("cli.save.damaged", file=where, field=f"options.{shown(wrong)}" if wrong else "options")
    controllers = data["controllers"]
    sides = program_of(content).schema.sides
    if set(controllers) != set(sides) or not all(isinstance(v, str) for v in controllers.values()):
        raise SaveProblem("cli.save.damaged", file=where, field="controllers")
    for value in controllers.values():
        if value not in (HUMAN, SOLO) and value not in known_controllers:
            raise SaveProblem("cli.save.unknown_controller", file=where, name=shown(value))
    mismatch = _solo_mismatch(options, controllers, content)
    if mismatch:
        raise SaveProblem("cli.save.damaged", file=where, field=mismatch)
    actions = data["actions"]
    if not all(isinstance(a, str) for a in actions):
        raise SaveProblem("cli.save.damaged", file=where, field="actions")
    # read for its shape only: the choices are made again on replay, never taken from the file
    choices = data.get("automa", [])
    if not all(isinstance(c, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in c.items())
               for c in choices):
        raise SaveProblem("cli.save.damaged", file=where, field=written_as.get("automa", "automa"))
    created = data.get("created", "")
    language = data.get("language", "")
    if "language" in data and not LANGUAGE.fullmatch(language):
        raise SaveProblem("cli.save.damaged", file=where, field="language")
    return SavedGame(game=game, digest=digest, seed=seed, options=dict(options),
                     controllers={side: controllers[side] for side in sides}, actions=list(actions), created=created,
                     version=version, language=language)


def _solo_mismatch(options: dict, controllers: Dict[str, str], content: Content) -> Optional[str]:
    """The entry that disagrees with the others about the Solo Opponent, if any: it plays the side
    the options name and no other, at one of the content's difficulties, only in a solo game."""
    solo, difficulty = options.get("solo"), options.get("difficulty")
    automa = program_of(content).automa_rules
    if solo is not None and (automa is None or solo not in controllers):
        return "options.solo"
    if solo is None and difficulty is not None:
        return "options.difficulty"
    if solo is not None and difficulty is not None and difficulty not in automa.difficulty:
        return "options.difficulty"
    if any((name == SOLO) != (side == solo) for side, name in controllers.items()):
        return "controllers"
    return None


# saves this process writes, each held by a lock (``hold``): path -> (lock file, its descriptor)
_HELD: Dict[str, tuple] = {}


def hold(path: Path) -> None:
    """Make this process the one writer of the save at ``path``, until ``release_all``.

    The lock is ``flock`` on ``.NAME.lock`` beside the save (the save itself is
    replaced at every write, so it cannot hold a lock): the system lets go of
    it when the process ends however it ends, ``kill -9`` too, so it never
    outlives its holder.  The holder's process id is written in it, for the
    refusal (SaveProblem ``cli.save.in_use``).  In a folder where nothing can
    be created there is no lock, and no writer to keep out either.
    """
    import fcntl
    key = os.path.abspath(path)
    if key in _HELD:
        return
    lock_path = (path.parent if str(path.parent) else Path(".")) / f".{path.name}.lock"
    flags = os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(10):  # the file may be taken away by the last holder between our open and our lock
        try:
            fd = os.open(lock_path, flags, 0o644)
        except OSError as error:
            if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                return
            raise SaveProblem("cli.save.cannot_write", file=str(path),
                              error=SystemReason.of(error.errno or 0, error.strerror)) from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise SaveProblem("cli.save.cannot_write", file=str(path), error=SystemReason.of(errno.EINVAL))
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(fd, 40, 0).decode("utf-8", "replace").strip()
                raise SaveProblem("cli.save.in_use", file=str(path), pid=shown(holder or "?")) from None
            try:
                same = os.stat(lock_path, follow_symlinks=False).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if not same:
                os.close(fd)
                continue
            try:  # the holder's id, for the refusal; a disk too full for it leaves the lock held all the same
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            except OSError:
                pass
        except BaseException:
            try:
                os.close(fd)
            except OSError:
                pass
            raise
        _HELD[key] = (lock_path, fd)
        return


def release_all() -> None:
    """Let go of every save this process holds: each lock file is removed while still locked (a
    process that opened it meanwhile finds it gone and makes a new one), then closed."""
    while _HELD:
        _, (lock_path, fd) = _HELD.popitem()
        try:
            os.unlink(lock_path)
        except OSError:
            pass
        os.close(fd)


def check_writable(path: Path) -> Optional[str]:
    """None if a save can be written at ``path``, else the system's reason."""
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        return SystemReason.of(errno.ENOENT)
    if not os.access(folder, os.W_OK):
        return SystemReason.of(errno.EACCES)
    return None
