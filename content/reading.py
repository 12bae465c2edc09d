"""Reading a content folder's files: each through the defences of content/yamlfile.py (its size,
its place inside the folder, safe YAML within limits), an editor's unsaved text standing for a file
where the language server gives one, and mappings checked key by key.  Every problem is collected,
with its file, line and column; nothing is raised.  The content loader (loader.py) and the earlier
engine's reader (solo.py) read through it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from crisis.ruleset import limits
from crisis.ruleset.diagnostics import Diagnostic, a_noun, did_you_mean, one_of, shown

from .yamlfile import Budget, ContentError, Map, YamlFile, display_path, list_folder, read_text


class _Problems:
    def __init__(self):
        self.items: List[Diagnostic] = []

    def add(self, diagnostic: Diagnostic) -> None:
        self.items.append(diagnostic)

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.items.extend(diagnostics)


class Reader:
    """Reads a content folder's files, each through the defences of content/yamlfile.py, and checks
    mappings key by key; every problem is collected (``problems``), never raised."""

    def __init__(self, root: Path, overrides: Optional[Dict[str, str]] = None):
        self.root = root
        self.overrides = overrides or {}
        self.problems = _Problems()
        self.warnings: List[Diagnostic] = []
        self.files: Dict[str, bytes] = {}
        self.budget = Budget()
        self.rule_chars = 0  # rule text read so far (MAX_RULE_CHARS)

    # ------------------------------------------------------------- reading
    def read(self, path: Path) -> Tuple[Optional[YamlFile], Any]:
        """The file and its value; (None, None) when it could not be read (the problem is reported),
        (file, None) when it is empty."""
        found = self.source(path)
        if found is None:
            return None, None
        return self.parse(path, *found)

    def source(self, path: Path) -> Optional[Tuple[YamlFile, bytes]]:
        """The file (its text) and its bytes, read through the defences but not yet parsed; None
        when it could not be read (the problem is reported)."""
        try:
            override = self.overrides.get(os.path.realpath(path)) if self.overrides else None  # a loop of links: no error
            if override is not None:
                # an editor's unsaved text stands for the file (the language server checks while typing)
                text, raw = override, override.encode("utf-8")
            else:
                text, raw = read_text(path, self.root, self.budget)
        except ContentError as error:
            self.problems.extend(error.diagnostics)
            return None
        return YamlFile(display_path(path), text), raw

    def parse(self, path: Path, file: YamlFile, raw: bytes) -> Tuple[Optional[YamlFile], Any]:
        """A file read by ``source`` and its value, as ``read`` gives them."""
        try:
            data = file.load(self.budget)
        except ContentError as error:
            self.problems.extend(error.diagnostics)
            return None, None
        self.kept(path, raw)
        return file, data

    def kept(self, path: Path, raw: bytes) -> None:
        """A file read as part of the content (its bytes count in the content's digest)."""
        self.files[str(path.relative_to(self.root))] = raw

    def listing(self, folder: Path, suffix: str = "", folders: bool = False) -> Optional[List[Path]]:
        """A folder's entries; [] if it does not exist, None if it cannot be read (the problem is
        reported).  A file an editor has open but not yet saved (``overrides``) is an entry too,
        so a new card file is checked while it is typed."""
        unsaved = self._unsaved_in(folder, suffix) if self.overrides and not folders else []
        if not os.path.lexists(folder):
            return unsaved
        try:
            listed = list_folder(folder, self.root, suffix, folders)
            if suffix == ".yaml":  # a file named the other usual way is not read: said, not silently left out
                self.warnings.extend(
                    Diagnostic(message=f"{path.name} is not read: the content's files end in .yaml",
                               path=display_path(path), severity="warning",
                               hint=f"rename it {path.stem}.yaml")
                    for path in list_folder(folder, self.root, ".yml", folders))
        except ContentError as error:
            self.problems.extend(error.diagnostics)
            return None
        if unsaved:
            known = {os.path.realpath(path) for path in listed}
            listed = sorted(listed + [path for path in unsaved if str(path) not in known], key=lambda p: p.name)
        return listed

    def _unsaved_in(self, folder: Path, suffix: str) -> List[Path]:
        real = os.path.realpath(folder)
        return [Path(path) for path in self.overrides
                if os.path.dirname(path) == real and path.endswith(suffix) and not os.path.lexists(path)]

    # ------------------------------------------------------------ validation
    def fields(self, file: YamlFile, value: Any, what: str, required: Dict[str, type],
               optional: Dict[str, type], at=None) -> Tuple[Optional[Map], bool]:
        """Check a mapping's keys and value types.

        Returns the well-formed entries (so later checks can still run and
        report their own problems) and whether everything was well-formed;
        no entries (None) when a required key is missing or ill-formed, since
        nothing can be read from a mapping without what it requires.
        """
        if not isinstance(value, Map):
            position = at if at else (getattr(value, "line", 1), getattr(value, "column", 1))
            self.problems.add(file.diagnostic(position, f"{what} should be a mapping of keys to values",
                                              expected=f"keys: {one_of(list(required) + list(optional))}"))
            return None, False
        ok = True
        known = {**required, **optional}
        good = Map()
        good.path, good.line, good.column = value.path, value.line, value.column
        good.key_positions, good.value_positions = value.key_positions, value.value_positions
        guessed = set()  # required keys an unknown key was taken for: told once, as that key misspelt
        for key in value:
            if key not in known:
                guess = did_you_mean(str(key), known)
                guessed.add(guess)
                self.problems.add(file.diagnostic(value.key_positions[key], f"unknown key '{shown(key)}' in {what}",
                                                  width=_width(key), expected=one_of(list(known)),
                                                  hint=f"did you mean '{guess}'?" if guess else None))
                ok = False
            elif not _is(value[key], known[key]):
                self.problems.add(file.diagnostic(value.value_positions[key],
                                                  f"'{key}' in {what} should be {_kind_name(known[key])}"))
                ok = False
            else:
                good[key] = value[key]
        for key in required:
            if key not in value:
                if key not in guessed:
                    self.problems.add(file.diagnostic((value.line, value.column), f"{what} has no '{key}'",
                                                      expected=a_noun(f"'{key}' entry")))
                ok = False
        if any(key not in good for key in required):
            return None, False
        return good, ok

    def name(self, file: YamlFile, value: Any, position, kinds: Sequence[str], kind: str,
             setting: bool = False) -> bool:
        """Whether ``value`` is one of ``kinds`` (names of a ``kind``), else a problem with the
        likeliest meant; ``setting``: ``kind`` is a key whose value is one of a few words ('tokens:
        own or opponent'), told as such rather than as an unknown name."""
        if isinstance(value, str) and value in kinds:
            return True
        guess = did_you_mean(str(value), kinds) if isinstance(value, str) else None
        if setting:
            message, expected = f"'{kind}' cannot be '{shown(value)}'", one_of(list(kinds))
        else:
            message = f"unknown {kind} '{shown(value)}'"
            expected = f"{a_noun(kind)}: {one_of(list(kinds))}" if kinds else f"no {kind} (this game declares none)"
        self.problems.add(file.diagnostic(position, message, width=_width(value), expected=expected,
                                          hint=f"did you mean '{guess}'?" if guess else None))
        return False


def _is(value: Any, kind) -> bool:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for k in kinds:
        if k is int and isinstance(value, int) and not isinstance(value, bool):
            return True
        if k is bool and isinstance(value, bool):
            return True
        if k is str and isinstance(value, str):
            return True
        if k is list and isinstance(value, list):
            return True
        if k is dict and isinstance(value, dict):
            return True
        if k is float and isinstance(value, (int, float)) and not isinstance(value, bool):
            return True
    return False


def _kind_name(kind) -> str:
    names = {int: "a whole number", str: "text", list: "a list", dict: "a mapping", float: "a number",
             bool: "true or false"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if float in kinds:  # a number may be whole: "a whole number or a number" says less than "a number"
        kinds = tuple(k for k in kinds if k is not int)
    return " or ".join(names[k] for k in kinds)


def _width(value) -> int:
    """How much of a quoted value a caret underlines."""
    return max(1, min(len(str(value)), limits.MAX_SHOWN_CHARS))
