"""Reading content files safely, and YAML that remembers where each value came from.

Content folders are shared between people, so every file is read as if it
were hostile (docs/limits.md): only regular files, never through a link that
leads out of the content folder, never more than the size limits, and a
FIFO or a device is refused without being opened for reading.

The YAML is read with PyYAML's ``SafeLoader`` (no Python objects can be
constructed), nesting and alias expansion bounded, numbers' lengths checked
before they are converted.  It returns plain dicts, lists and scalars, where
dicts and lists also know the line and column of each entry, and strings know
how to locate rule text inside themselves, whatever the scalar's style (plain,
quoted with escapes, literal or folded blocks).  Duplicate keys, which PyYAML
silently accepts, are errors.

Lines and columns are counted as editors and ``grep -n`` count them: a line
ends at ``\\n`` only (PyYAML also ends lines at U+0085, U+2028 and U+2029, so
its own line numbers are not used).
"""

from __future__ import annotations

import bisect
import errno
import math
import os
import re
import stat
import unicodedata
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import yaml

from crisis.ruleset import limits
from crisis.ruleset.diagnostics import Diagnostic, Source, UserError, shown


class ContentError(UserError):
    """The game content is wrong; nothing of it was loaded."""


Position = Tuple[int, int]  # 1-based line and column


def display_path(path) -> str:
    """A path as a designer would type it: relative to the working directory when inside it."""
    path = Path(os.path.abspath(path))
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def size_text(n: int) -> str:
    return f"{n // limits.MIB} MiB" if n % limits.MIB == 0 else f"{n // limits.KIB} KiB"


# ------------------------------------------------------------------ files


class Budget:
    """What one content folder may cost in all: bytes and files read, YAML values built."""

    def __init__(self, max_bytes: int = limits.MAX_CONTENT_BYTES, max_files: int = limits.MAX_FILES,
                 max_values: int = limits.MAX_CONTENT_VALUES):
        self.max_bytes, self.max_files, self.max_values = max_bytes, max_files, max_values
        self.bytes = self.files = self.values = 0


def real_inside(path: Path, root: Optional[Path]) -> str:
    """The real path of ``path`` (links resolved), refused if it leads out of ``root``.

    Raises ContentError naming ``path`` (never the link's target, never its content).
    """
    where = display_path(path)
    try:
        real = os.path.realpath(path, strict=True)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise ContentError(Diagnostic(message="a loop of symbolic links: this path never reaches a file",
                                          path=where)) from None
        raise ContentError(Diagnostic(message=f"cannot read this path: {error.strerror}", path=where)) from None
    if root is not None:
        root_real = os.path.realpath(root)
        if real != root_real and not real.startswith(root_real.rstrip(os.sep) + os.sep):
            raise ContentError(Diagnostic(
                message="this is a link to a place outside the content folder, which is never read",
                path=where, hint="copy the file into the content folder instead of linking to it"))
    return real


class NotRegularFile(OSError):
    """A path that is a FIFO, a device, a socket or a folder: never opened for reading."""

    code = "NOTREG"


class TooLarge(OSError):
    code = "EFBIG"


def read_regular(path, max_bytes: int) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``.

    The path is checked with ``stat`` before it is opened, and opened
    non-blocking, so a FIFO or a device never makes the command wait or read
    without end.  Raises OSError (NotRegularFile and TooLarge among them).
    """
    info = os.stat(path)
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if not stat.S_ISREG(info.st_mode):
        raise NotRegularFile(errno.EINVAL, "not a regular file (a FIFO, a device or a socket)", str(path))
    if info.st_size > max_bytes:
        raise TooLarge(errno.EFBIG, f"larger than the limit of {size_text(max_bytes)}", str(path))
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # replaced since the check above
            raise NotRegularFile(errno.EINVAL, "not a regular file", str(path))
        chunks, size = [], 0
        while size <= max_bytes:
            chunk = os.read(fd, min(1 << 16, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > max_bytes:  # it grew
        raise TooLarge(errno.EFBIG, f"larger than the limit of {size_text(max_bytes)}", str(path))
    return b"".join(chunks)


def read_text(path: Path, root: Optional[Path] = None, budget: Optional[Budget] = None,
              max_bytes: int = limits.MAX_FILE_BYTES) -> Tuple[str, bytes]:
    """A content file's text (and its bytes, for digests), read within the limits; ContentError otherwise.

    With ``root``, a path whose links lead out of that folder is refused before anything is read.
    """
    where = display_path(path)
    real = real_inside(path, root)

    def refuse(message, hint=None):
        return ContentError(Diagnostic(message=message, path=where, hint=hint))

    if budget is not None:
        budget.files += 1
        if budget.files > budget.max_files:
            raise refuse(f"the content has more than {budget.max_files:,} files")
    try:
        raw = read_regular(real, max_bytes)
    except NotRegularFile:
        raise refuse("this is not a regular file (a FIFO, a device or a socket): content files are regular files") from None
    except TooLarge:
        raise refuse(f"this file is larger than the limit of {size_text(max_bytes)} per file",
                     hint="docs/limits.md lists the limits on content") from None
    except OSError as error:
        raise refuse(f"cannot read this file: {error.strerror}") from None
    if budget is not None:
        budget.bytes += len(raw)
        if budget.bytes > budget.max_bytes:
            raise refuse(f"the content's files add up to more than the limit of {size_text(budget.max_bytes)}",
                         hint="docs/limits.md lists the limits on content")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        before = raw[:error.start].decode("utf-8", "replace")
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        raise ContentError(Diagnostic(message=f"this file is not UTF-8 text ({error.reason})", path=where,
                                      line=line, column=column)) from None
    return text, raw


def list_folder(folder: Path, root: Optional[Path], suffix: str = "", folders: bool = False) -> List[Path]:
    """The entries of a content folder (files ending in ``suffix``, or sub-folders), sorted.

    A folder that cannot be read is an error, never an empty list.
    """
    real_inside(folder, root)
    try:
        with os.scandir(folder) as entries:
            names = []
            for seen, entry in enumerate(entries, 1):
                if seen > limits.MAX_FILES:  # every entry, so that listing a huge folder stops early too
                    raise ContentError(Diagnostic(message=f"this folder has more than {limits.MAX_FILES:,} entries",
                                                  path=display_path(folder)))
                try:
                    is_dir: Optional[bool] = entry.is_dir()
                except OSError:  # a loop of links, say: listed, so that reading it says what is wrong
                    is_dir = None
                if (folders and is_dir is not False) or (not folders and not is_dir and entry.name.endswith(suffix)):
                    names.append(entry.name)
    except OSError as error:
        raise ContentError(Diagnostic(message=f"cannot read this folder: {error.strerror}",
                                      path=display_path(folder))) from None
    return [folder / name for name in sorted(names)]


# ------------------------------------------------------------------ positions


class Text(str):
    """A YAML string that can give rule text a ``Source`` pointing into the file."""

    path: str
    line: int
    column: int
    style: Optional[str]
    file_lines: Tuple[str, ...]
    _file: "YamlFile"
    _span: Tuple[int, int]
    _map: Optional[List[int]] = None

    def source(self, label: Optional[str] = None) -> Source:
        return Source(text=str(self), path=self.path, file_lines=self.file_lines, locator=self.locate, label=label)

    @property
    def span(self) -> Tuple[int, int]:
        """Where the scalar lies in its file: the offsets of its first character and of its end."""
        return self._span

    def characters_before(self, offset: int) -> int:
        """How many of this string's characters come from the file before ``offset`` (an editor's
        cursor in the scalar: the string typed up to it is ``text[:characters_before(offset)]``)."""
        if self._map is None:
            self._map = _scalar_map(str(self), self._file.text, self._span[0], self._span[1], self.style)
        return bisect.bisect_left(self._map, offset, 0, len(self._map) - 1)

    def locate(self, line: int, column: int) -> Position:
        """The file's line and column of a line and column of this string's value."""
        if self._map is None:
            self._map = _scalar_map(str(self), self._file.text, self._span[0], self._span[1], self.style)
        index = 0
        for _ in range(max(line - 1, 0)):
            found = self.find("\n", index)
            if found < 0:
                index = len(self)
                break
            index = found + 1
        index = min(index + max(column - 1, 0), len(self))
        return self._file.position(self._map[index])


_SPACE = " \t\r\n\x85\u2028\u2029"
_ESCAPES = {"0": "\0", "a": "\x07", "b": "\x08", "t": "\t", "\t": "\t", "n": "\n", "v": "\x0b", "f": "\x0c",
            "r": "\r", "e": "\x1b", " ": " ", '"': '"', "\\": "\\", "/": "/", "N": "\x85", "_": "\xa0",
            "L": "\u2028", "P": "\u2029"}
_HEX = {"x": 2, "u": 4, "U": 8}


def _scalar_map(value: str, text: str, start: int, end: int, style: Optional[str]) -> List[int]:
    """For each character of a scalar's value (and its end), the index in the file it came from.

    The value's characters appear in the file in order; what differs is
    whitespace (indentation, folded line breaks) and, in quoted scalars,
    escapes.  Walking both together, a character is matched across
    whitespace only, so a folded or normalised break can never pull the
    match past real text.
    """
    i = start
    if style in ('"', "'"):
        i += 1
    elif style in ("|", ">"):
        newline = text.find("\n", start, end)
        i = newline + 1 if newline >= 0 else end
    out: List[int] = []
    for ch in value:
        if style == '"' and i < end and text[i] == "\\":
            produced, width = _escape(text, i)
            while produced == "" and width:  # an escaped line break joins lines
                i += width
                while i < end and text[i] in " \t":
                    i += 1
                if i < end and text[i] == "\\":
                    produced, width = _escape(text, i)
                else:
                    produced, width = None, 0
            if produced == ch:
                out.append(i)
                i += width
                continue
        if style == "'" and ch == "'" and text.startswith("''", i):
            out.append(i)
            i += 2
            continue
        j = i
        while j < end and text[j] != ch and text[j] in _SPACE:
            j += 1
        if j < end and text[j] == ch:
            out.append(j)
            i = j + 1
        else:
            out.append(min(i, end))
    out.append(min(i, end))
    return out


def _escape(text: str, i: int) -> Tuple[Optional[str], int]:
    """The character a double-quoted escape at ``i`` stands for and its width ("" for an escaped break)."""
    code = text[i + 1:i + 2]
    if code in _ESCAPES:
        return _ESCAPES[code], 2
    if code in _HEX:
        digits = text[i + 2:i + 2 + _HEX[code]]
        try:
            return chr(int(digits, 16)), 2 + _HEX[code]
        except (ValueError, OverflowError):
            return None, 0
    if code == "\r" and text[i + 2:i + 3] == "\n":
        return "", 3
    if code and code in "\n\x85\u2028\u2029\r":
        return "", 2
    return None, 0


class Map(dict):
    """A YAML mapping with the position of each key and each value.  One made in code (an empty
    file's stand-in, a refused tag's) stands at the start of its file, with no keys."""

    path: str
    line: int
    column: int
    key_positions: Dict[Any, Position]
    value_positions: Dict[Any, Position]
    key_texts: Dict[str, "Text"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.path, self.line, self.column = "", 1, 1
        self.key_positions, self.value_positions, self.key_texts = {}, {}, {}


class Seq(list):
    path: str
    line: int
    column: int
    positions: List[Position]

    def __init__(self, *args):
        super().__init__(*args)
        self.path, self.line, self.column = "", 1, 1
        self.positions = []


# ------------------------------------------------------------------ YAML


try:  # libyaml scans and parses twenty times faster; composing stays in Python, where it is bounded
    from yaml.cyaml import CParser as _FastParser
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    _FastParser = None


class _Bounded:
    """Composition (PyYAML's own), refusing nesting deeper than the limit before it recurses,
    and more values than the file may hold before they are built."""

    depth = 0
    values = 0
    max_values = limits.MAX_YAML_NODES
    too_many = ""

    def compose_node(self, parent, index):
        self.depth += 1
        self.values += 1
        try:
            if self.depth > limits.MAX_YAML_DEPTH:
                mark = self.peek_event().start_mark
                raise yaml.composer.ComposerError(None, None, _too_deep(), mark)
            if self.values > self.max_values:
                raise yaml.composer.ComposerError(None, None, self.too_many, self.peek_event().start_mark)
            return yaml.composer.Composer.compose_node(self, parent, index)
        finally:
            self.depth -= 1


if _FastParser is not None:
    class _BoundedLoader(_Bounded, _FastParser, yaml.composer.Composer, yaml.constructor.SafeConstructor,
                         yaml.resolver.Resolver):
        """libyaml's parser, PyYAML's composer (bounded) and safe constructor."""

        get_single_node = yaml.composer.Composer.get_single_node
        compose_document = yaml.composer.Composer.compose_document

        def __init__(self, stream):
            _FastParser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)


class _PlainBoundedLoader(_Bounded, yaml.SafeLoader):
    """PyYAML's own pure-Python parser, bounded the same way.  It has no nesting limit of
    its own, so the project's bounds are always the first to refuse a file."""


if _FastParser is None:  # pragma: no cover
    _BoundedLoader = _PlainBoundedLoader


def _too_many(budget: Optional[Budget], left: int) -> str:
    if budget is not None and left < limits.MAX_YAML_NODES:
        return f"the content's files hold more than {budget.max_values:,} values in all"
    return f"this file holds more than {limits.MAX_YAML_NODES:,} values"


def _too_deep() -> str:
    return f"values are nested too deeply (more than {limits.MAX_YAML_DEPTH} levels)"


_INT_TAG = "tag:yaml.org,2002:int"
# control characters: in a file (line breaks and tabs allowed), in a value (newlines and tabs allowed)
_FILE_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f]")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class YamlFile:
    """One parsed YAML file, its lines kept for quoting in diagnostics."""

    def __init__(self, path: str, text: str):
        self.path = path
        self.text = text
        self.lines = tuple(text.split("\n"))
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def position(self, index: int) -> Position:
        """Line and column (1-based, lines ended by ``\\n``) of a character index."""
        line = bisect.bisect_right(self._starts, index)
        return line, index - self._starts[line - 1] + 1

    def diagnostic(self, position: Optional[Position], message: str, *, width: int = 1,
                   expected: Optional[str] = None, hint: Optional[str] = None) -> Diagnostic:
        if position is None:
            return Diagnostic(message=message, path=self.path, expected=expected, hint=hint)
        line, column = position
        source_line = self.lines[line - 1] if 1 <= line <= len(self.lines) else None
        return Diagnostic(message=message, path=self.path, line=line, column=column,
                          width=width, source_line=source_line, expected=expected, hint=hint)

    def _at(self, mark) -> Optional[Position]:
        return self.position(mark.index) if mark is not None else None

    def load(self, budget: Optional[Budget] = None) -> Any:
        """The file's value (None for an empty file); ContentError with every problem otherwise.

        With ``budget``, the values of the whole content folder count towards its limit too.
        """
        control = _FILE_CONTROL.search(self.text)
        if control:
            raise ContentError([self.diagnostic(self.position(control.start()), _control_message(control.group()),
                                                hint="content files hold text; write the character out in words")])
        left = budget.max_values - budget.values if budget is not None else limits.MAX_YAML_NODES
        counted = budget.values if budget is not None else 0
        try:
            return self._load_with(_BoundedLoader, budget, left)
        except _ParserRefused:
            if _BoundedLoader is _PlainBoundedLoader:
                raise
            if budget is not None:  # the second reading counts the file's values, not both
                budget.values = counted
        # libyaml refused the file.  Its refusals include limits of its own (nesting, in
        # some releases) that a machine may or may not have, worded its own way; the
        # pure-Python parser reads the same YAML with only the project's bounds, so every
        # machine gives the same refusal.  Only a refused file pays for the slower parser.
        return self._load_with(_PlainBoundedLoader, budget, left)

    def _load_with(self, loader_class, budget: Optional[Budget], left: int) -> Any:
        try:
            loader = loader_class(self.text)
        except yaml.reader.ReaderError as error:  # characters YAML does not allow
            raise ContentError([self.diagnostic(self.position(error.position), _control_message(chr(error.character)))]) from None
        loader.max_values = min(limits.MAX_YAML_NODES, left)
        loader.too_many = _too_many(budget, left)
        try:
            node = loader.get_single_node()
            if node is None:
                return None
            size = self._expanded(node, {}, 0)
            if size > left:  # within the file's limit, past what the content has left
                raise _Stop(self.diagnostic(self._at(node.start_mark), loader.too_many,
                                            hint="aliases (*name) count once for each place they are used"))
            if budget is not None:
                budget.values += size - loader.values  # the values composed are counted below
            errors: List[Diagnostic] = []
            value = self._convert(node, loader, errors, 0)
        except yaml.reader.ReaderError as error:
            raise ContentError([self.diagnostic(self.position(error.position), _control_message(chr(error.character)))]) from None
        except yaml.MarkedYAMLError as error:
            raise _ParserRefused([self._syntax_error(error, loader)]) from None
        except _Stop as stop:
            raise ContentError([stop.diagnostic]) from None
        finally:
            loader.dispose()
            if budget is not None:  # a refused file's work counts too: many refused files stay bounded
                budget.values += min(loader.values, left)
        if errors:
            raise ContentError(errors)
        return value

    def _after_a_key(self, mark) -> bool:
        """Whether a key and its ': ' stand on the line before ``mark`` ("event: if X: ...")."""
        if mark is None:
            return False
        lines = self.text.split("\n")
        before = lines[mark.line][:mark.column] if mark.line < len(lines) else ""
        return re.match(r"\s*(- )?[^\s:#'\"][^:#]*: +\S", before) is not None

    def _catalog(self) -> bool:
        """Whether this is a catalog's file (texts players read: locale/<lang>/, interface/<lang>/)."""
        parts = Path(self.path).parts
        return len(parts) >= 3 and parts[-3] in ("locale", "interface")

    def _quoted_before(self, mark):
        """The last quoted text the scanner read before ``mark`` (its token), or None."""
        if mark is None:
            return None
        found = None
        scanner = yaml.SafeLoader(self.text)
        try:
            while scanner.check_token():
                token = scanner.get_token()
                if token.end_mark.index > mark.index or isinstance(token, yaml.StreamEndToken):
                    break
                if isinstance(token, yaml.ScalarToken):
                    found = token if token.style in ("'", '"') else None
        except yaml.YAMLError:
            pass
        finally:
            scanner.dispose()
        return found

    def _syntax_error(self, error, loader) -> Diagnostic:
        """The YAML parser's refusal, told where the mistake most likely is: where the construct it
        was reading began (a key without its colon, a list never closed), when that is on an
        earlier line than where it gave up; what was expected, in the file's own terms."""
        problem = error.problem or ""
        if problem in (_too_deep(), loader.too_many):
            return self.diagnostic(self._at(error.problem_mark or error.context_mark), problem)
        problem_mark, context_mark = error.problem_mark, error.context_mark
        expected = None
        if "expected ':'" in problem:
            expected = "'key: value', a colon after the key"
        elif "expected ',' or ']'" in problem:
            expected = "a ']' that closes the list, its items separated by commas"
        elif "expected ',' or '}'" in problem:
            expected = "a '}' that closes the mapping, its entries separated by commas"
        elif "mapping values are not allowed" in problem and self._after_a_key(problem_mark):
            # a second ': ' on the line: a rule such as 'event: if you occupy X: gain 1 VP' (else it is
            # most often a line indented too far, which the parser's own words say); in a catalog, a
            # text players read ('{player} : choose'), which quotes hold whole
            expected = ("a text holding ' : ' or ': ' in double quotes: 'key: \"{player} : ...\"'" if self._catalog()
                        else "a value holding ': ' written as a block: 'event: |', then the rule on the next "
                             "line, indented (or the value in quotes)")
        quoted = self._quoted_before(problem_mark)
        if quoted is not None and quoted.style == "'" and quoted.end_mark.index == problem_mark.index \
                and quoted.end_mark.line == quoted.start_mark.line:
            # 'L'investiture': the apostrophe closed the quoted text, and the rest is left over
            return self.diagnostic(self._at(problem_mark), f"this is not valid YAML: {problem}",
                                   expected="inside '...' an apostrophe written twice ('it''s'), or the text in "
                                            "double quotes (\"it's\")",
                                   hint="the apostrophe before here ended the text begun in single quotes")
        if quoted is not None and quoted.style in ("'", '"') and quoted.start_mark.line < quoted.end_mark.line \
                and quoted.end_mark.line == problem_mark.line:
            # a quote left open: the text ran on to the next quote, lines below, where the parser stops
            return self.diagnostic(self._at(quoted.start_mark),
                                   f"this is not valid YAML: {problem} (the quoted text opened here is closed "
                                   f"only at line {quoted.end_mark.line + 1})",
                                   expected=f"the closing quote ({quoted.style}) of this text on its line",
                                   hint=f"the parser gave up at line {problem_mark.line + 1}, column "
                                        f"{problem_mark.column + 1}")
        # where the construct began is the mistake for one left open: a key without its colon, a
        # list or a mapping in brackets never closed, quoted text never closed (a block's start is
        # not: the stray line is where the parser stops)
        opened = any(kind in (error.context or "") for kind in _OPENED)
        if opened and context_mark is not None and problem_mark is not None and context_mark.line < problem_mark.line:
            what = (error.context or "").replace("while scanning ", "").replace("while parsing ", "")
            what = _CONSTRUCTS.get(what, what)
            return self.diagnostic(self._at(context_mark), f"this is not valid YAML: {problem} (in the {what} "
                                                           f"that starts here)", expected=expected,
                                   hint=f"the parser gave up at line {problem_mark.line + 1}, column "
                                        f"{problem_mark.column + 1}")
        return self.diagnostic(self._at(problem_mark or context_mark), f"this is not valid YAML: {problem}",
                               expected=expected, hint=error.context)

    # ------------------------------------------------------------- nodes
    def _expanded(self, node, sizes: Dict[int, int], depth: int) -> int:
        """How many values the file holds once aliases are expanded, counted on the node
        graph (each shared node once) before anything is expanded; refused over the limit."""
        known = sizes.get(id(node))
        if known is not None:
            return known
        if depth > limits.MAX_YAML_DEPTH:
            raise _Stop(self.diagnostic(self._at(node.start_mark), _too_deep(),
                                        hint="an alias (*name) may not refer to a value that contains it"))
        size = 1
        if isinstance(node, yaml.MappingNode):
            size += sum(self._expanded(k, sizes, depth + 1) + self._expanded(v, sizes, depth + 1) for k, v in node.value)
        elif isinstance(node, yaml.SequenceNode):
            size += sum(self._expanded(item, sizes, depth + 1) for item in node.value)
        if size > limits.MAX_YAML_NODES:
            raise _Stop(self.diagnostic(self._at(node.start_mark),
                                        f"aliases expand this file beyond {limits.MAX_YAML_NODES:,} values",
                                        hint="write the values out, or use fewer aliases (*name)"))
        sizes[id(node)] = size
        return size

    def _convert(self, node, loader, errors, depth):
        if depth > limits.MAX_YAML_DEPTH:
            raise _Stop(self.diagnostic(self._at(node.start_mark), _too_deep(),
                                        hint="an alias (*name) may not refer to a value that contains it"))
        expected_tag = {yaml.MappingNode: "map", yaml.SequenceNode: "seq"}.get(type(node))
        if expected_tag and node.tag != f"tag:yaml.org,2002:{expected_tag}":
            # collections are built here, not by PyYAML: refuse tags that ask for objects
            errors.append(self.diagnostic(self._at(node.start_mark), f"the YAML tag '{shown(node.tag)}' is not allowed",
                                          hint="content files hold plain mappings, lists, text and numbers"))
            return Map() if expected_tag == "map" else Seq()
        if isinstance(node, yaml.MappingNode):
            result = Map()
            result.path = self.path
            result.line, result.column = self._at(node.start_mark)
            for key_node, value_node in node.value:
                key = self._convert(key_node, loader, errors, depth + 1)
                if isinstance(key, (dict, list)):
                    errors.append(self.diagnostic(self._at(key_node.start_mark), "a key must be a plain word or number"))
                    continue
                if isinstance(key, Text):
                    text, key = key, str(key)
                    result.key_texts[key] = text  # a key that is rule text (a bot's term) is located like a value
                if key in result:
                    first = result.key_positions[key]
                    errors.append(self.diagnostic(self._at(key_node.start_mark), f"'{shown(key)}' is given twice",
                                                  width=min(len(str(key)), limits.MAX_SHOWN_CHARS),
                                                  hint=f"it was first given on line {first[0]}"))
                    continue
                result[key] = self._convert(value_node, loader, errors, depth + 1)
                result.key_positions[key] = self._at(key_node.start_mark)
                result.value_positions[key] = self._at(value_node.start_mark)
            return result
        if isinstance(node, yaml.SequenceNode):
            result = Seq(self._convert(item, loader, errors, depth + 1) for item in node.value)
            result.path = self.path
            result.line, result.column = self._at(node.start_mark)
            result.positions = [self._at(item.start_mark) for item in node.value]
            return result
        return self._scalar(node, loader, errors)

    def _scalar(self, node, loader, errors):
        at = self._at(node.start_mark)
        if node.tag == _INT_TAG and len(node.value.lstrip("+-").replace("_", "")) > limits.MAX_NUMBER_DIGITS:
            errors.append(self.diagnostic(at, f"this number has too many digits (at most {limits.MAX_NUMBER_DIGITS})",
                                          width=min(len(node.value), limits.MAX_SHOWN_CHARS)))
            return None
        try:
            value = loader.construct_object(node, deep=True)
        except yaml.MarkedYAMLError:
            raise
        except (ValueError, TypeError, KeyError, AttributeError, OverflowError):  # an explicit tag that does not fit
            errors.append(self.diagnostic(at, f"this value cannot be read as '{shown(node.tag)}'"))
            return None
        if type(value) is float and not -_LARGEST <= value <= _LARGEST:  # .inf, .nan, 1.0e+400 ...
            what = "this number is too large" if math.isfinite(value) else "this is not a finite number"
            errors.append(self.diagnostic(at, f"{what}: content's numbers lie between "
                                              f"-{_LARGEST:,.0f} and {_LARGEST:,.0f}",
                                          width=min(len(node.value), limits.MAX_SHOWN_CHARS)))
            return None
        if not isinstance(value, str):
            return value
        control = _CONTROL.search(value)
        if control:
            errors.append(self.diagnostic(at, _control_message(control.group()),
                                          hint="an escape such as \\e or \\x1b in a quoted text is one too"))
            return None
        text = Text(value)
        text.path, text.file_lines, text.style = self.path, self.lines, node.style
        text.line, text.column = at
        text._file, text._span = self, (node.start_mark.index, node.end_mark.index)
        return text


# the largest a number of content may be, as the digits of a whole number allow (999,999,999): a
# float past it (or not a number at all, .nan) would turn every judgement or chance it enters
# into infinity or NaN
_LARGEST = float(10 ** limits.MAX_NUMBER_DIGITS - 1)


# what the YAML parser says it was reading, in a designer's words
_CONSTRUCTS = {"a simple key": "key", "a flow sequence": "list", "a flow mapping": "mapping",
               "a block mapping": "mapping", "a block collection": "list", "a quoted scalar": "quoted text",
               "a plain scalar": "text", "a block scalar": "block of text", "a flow node": "value",
               "a block node": "value", "a directive": "directive", "an anchor": "anchor", "an alias": "alias",
               "a tag": "tag"}


_OPENED = ("a simple key", "a flow sequence", "a flow mapping", "a quoted scalar")


class _ParserRefused(ContentError):
    """The YAML parser (or the composer's bounds) refused the file."""


class _Stop(Exception):
    """A problem after which the rest of the file is not worth reading."""

    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic


def _control_message(char: str) -> str:
    name = unicodedata.name(char, "")
    return (f"this file holds a control character (U+{ord(char):04X}{', ' + name if name else ''}), "
            "which content cannot hold")
