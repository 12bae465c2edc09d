"""``crisis lsp``: a language server for content files (LSP over standard input/output).

What an editor gets while a designer types, for the YAML files of a content
folder (the folder holding ``state.yaml``):

* diagnostics: the problems ``crisis check`` reports (and, in a scenario
  file, what ``crisis test`` would refuse or fail), at file:line:column
  ranges, computed on the unsaved text of the file being edited;
* completion of the rules language's keywords and of the game's names:
  places, groups, zones, sides, markers, card ids, in its schema's words;
* hover on a card id, or inside a card's entry: its title and its text as a
  player reads it, in every language of the content;
* go to definition from a card id (in a scenario, say) to the card's entry.

The analysis (``Workbench``) knows nothing of the protocol.  ``serve`` wires
it to pygls (the optional ``lsp`` extra) and never runs it on its own event
loop: checks run in one worker process, questions (completion, hover,
definition) in another, each stopped and started afresh past its time limit
and under a memory cap, so content that takes long (a scenario file of a
thousand scenarios) or a file that is not a file (a FIFO, ``/dev/zero``)
never stops the server from answering.  Every file the workers read goes
through the loader's defences (``content/yamlfile.py``); the server itself
reads no content file.  Messages are read within limits too (docs/limits.md,
"The language server"): a request the server cannot read is answered with
an error, never left without an answer.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from crisis.ruleset import limits
from crisis.ruleset.diagnostics import Diagnostic, UserError
from crisis.interpreter.engine.program import program_of

CARD_ID = re.compile(r"[a-z0-9][a-z0-9-]*")
TOOL = "crisis"  # the command's name, in messages

# ------------------------------------------------------------------ limits (docs/limits.md)
CHECK_SECONDS = 30.0         # one check of one file (a scenario file's scenarios run too)
ASK_SECONDS = 10.0           # one completion list, hover or definition
WORKER_MEMORY = 1024 * limits.MIB  # address space of each worker process
MAX_MESSAGE_BYTES = 64 * limits.MIB  # one message from the editor (a larger one is skipped, unread)
MAX_HEADER_BYTES = 4 * limits.KIB    # one header line of a message
MAX_PATH_CHARS = 4096        # a document's path (longer is no file of a content folder)
TYPING_PAUSE = 0.25          # seconds without a change before the text is checked


def content_root(path: Path) -> Optional[Path]:
    """The content folder a file belongs to: the nearest folder above it with a state.yaml."""
    text = str(path)
    if len(text) > MAX_PATH_CHARS or "\0" in text or not path.is_absolute():
        return None
    try:
        for folder in [path.parent, *path.parent.parents]:
            if (folder / "state.yaml").is_file():
                return folder
    except (OSError, ValueError):
        return None
    return None


def keywords() -> List[str]:
    """The words of the rules language itself (ruleset/language.lark)."""
    from crisis.ruleset.rulecache import keywords as language_words
    return sorted(language_words())


def _real(path) -> Path:
    """The path with its links resolved, as far as they go (a loop of links is left as it is)."""
    return Path(os.path.realpath(path))


def refusal(text: str, max_bytes: int = limits.MAX_FILE_BYTES) -> Optional[str]:
    """Why an editor's text cannot stand for a content file, or None: larger than a content file
    may be (measured in UTF-8, as on disk), or holding what no UTF-8 file can hold."""
    if len(text) > max_bytes:
        return "size"
    try:
        encoded = text.encode("utf-8")
    except UnicodeEncodeError as error:  # half of a surrogate pair, which JSON can carry
        return f"U+{ord(text[error.start]):04X}"
    return "size" if len(encoded) > max_bytes else None


class Workbench:
    """Checks, completions, hovers and definitions for one content folder, on the editor's text."""

    def __init__(self, root: Path):
        self.root = _real(root)
        self.content = None  # the last content that loaded without errors (for names, hover, definition)
        self.generation = None  # which of the server's checks ``content`` comes from

    # ----------------------------------------------------------- diagnostics
    def check(self, path: Path, text: Optional[str], open_texts: Optional[Dict[str, str]] = None) -> List[Diagnostic]:
        """What ``crisis check`` says of the content with ``text`` for ``path`` (and, for a
        scenario file, what ``crisis test`` says of it).  ``text`` None: the file on disk."""
        from crisis.content.loader import load_content
        path = _real(path)
        overrides = dict(open_texts or {})
        scenario = self.is_scenario(path)
        if scenario:
            overrides.pop(str(path), None)  # a scenario file is not content
        elif text is not None:
            overrides[str(path)] = text
        try:
            content = load_content(self.root, overrides=overrides)
            found = self._whole_check(content)
        except UserError as error:
            return list(error.diagnostics)
        self.content = content
        if scenario:
            found = [d for d in found if d.severity == "error"] + self._scenario(content, path, text)
        return found

    @staticmethod
    def _whole_check(content) -> List[Diagnostic]:
        from crisis.content.i18n import check_all
        from crisis.interpreter.players.evaluation import horizon_warnings
        program = program_of(content)  # compiling must succeed too, as in crisis check
        return list(content.warnings) + horizon_warnings(program) + check_all(content)

    def _under(self, path: Path, folder: str) -> bool:
        try:
            return _real(path).relative_to(self.root).parts[0] == folder
        except (ValueError, IndexError):
            return False

    def is_scenario(self, path: Path) -> bool:
        return self._under(path, "scenarios")

    def _scenario(self, content, path: Path, text: Optional[str]) -> List[Diagnostic]:
        import tempfile

        from crisis.interpreter.designer.scenario import run_file
        program = program_of(content)
        if text is None:  # the file on disk, read by the runner within the content folder's limits
            return self._outcomes(run_file(program, content.root, path), str(path), str(path))
        # the runner reads files: give it the editor's text, and report at the real file
        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder) / path.name
            copy.write_text(text, encoding="utf-8")
            return self._outcomes(run_file(program, content.root, copy), str(copy), str(path))

    @staticmethod
    def _outcomes(outcomes, copy: str, path: str) -> List[Diagnostic]:
        from crisis.interpreter.designer.scenario import FAILED, NOT_RUN
        found = []
        for outcome in outcomes:
            if outcome.status == NOT_RUN:
                found.extend(_moved(d, copy, path) for d in outcome.diagnostics)
            elif outcome.status == FAILED:
                found.extend(Diagnostic(message=f"scenario '{outcome.name}' fails: {problem}", path=path,
                                        line=outcome.line, column=1, severity="warning")
                             for problem in outcome.problems)
        return found

    # -------------------------------------------------------------- questions
    def refresh(self, generation, open_texts: Optional[Dict[str, str]] = None) -> None:
        """Load the content again (with the editor's texts) if a check has loaded it since the last time."""
        if generation == self.generation and self.generation is not None:
            # loaded (or tried) for this generation already: a content with errors is not read again
            # at every question, only once a check has loaded the content again
            return
        from crisis.content.loader import load_content
        self.generation = generation
        try:
            self.content = load_content(self.root, overrides=dict(open_texts or {}))
        except UserError:
            pass  # the last content that loaded stays, for names and cards

    def completions(self, path: Optional[Path] = None, text: Optional[str] = None, line: int = 0,
                    column: int = 0) -> List[Tuple[str, str, str]]:
        """(label, kind, detail) for what may be typed at the cursor (0-based ``line``, ``column`` a
        character index): inside a rule of a loaded content, only the keywords and the kinds of
        word the language takes there (after 'gain 1 ' no 'place'; after 'place 2 in ' a place,
        not a card), with the game's own words of those kinds; elsewhere every keyword and name,
        each named in the schema's words.  While the content has errors and never loaded, the
        names of state.yaml alone (if it is sound), without the cards."""
        every = self.every_completion()
        content = self._content()
        before = self._rule_before(path, text, line, column) if content is not None else None
        if before is None:
            return every
        return self._following(content, before, every)

    def every_completion(self) -> List[Tuple[str, str, str]]:
        """Every keyword and name, whatever the cursor's place."""
        out = [(word, "keyword", "rules language") for word in keywords()]
        content = self._content()
        if content is None:
            from crisis.content.loader import read_schema
            schema = read_schema(self.root)
            return out if schema is None else out + self._names(schema)
        out += self._names(content.schema)
        english = content.catalogs.get("en")
        for kind in content.schema.card_kinds:
            section = kind.words[-1] if kind.words else "cards"
            for card_id in content.cards(kind.name).ids:
                title = english.text(f"{section}.{card_id}.title") if english else card_id
                out.append((card_id, "card", f"{_singular(kind.name)}: {title}"))
        return out

    def _rule_before(self, path: Optional[Path], text: Optional[str], line: int, column: int) -> Optional[str]:
        """The text of the rule under the cursor up to it, where the cursor is in a rule of a
        content file (a YAML text that reads as the start of a rule); else None."""
        if path is None or self._under(path, "locale") or self._under(path, "scenarios"):
            return None
        text = self.text_of(path, text)
        if text is None:
            return None
        from crisis.content.yamlfile import Text, YamlFile
        try:
            data = YamlFile(str(path), text).load()
        except Exception:  # a file being typed is often not YAML yet: then every word is offered
            return None
        lines = text.split("\n")
        if not 0 <= line < len(lines):
            return None
        offset = sum(len(earlier) + 1 for earlier in lines[:line]) + min(column, len(lines[line]))
        stack = [data]
        while stack:
            value = stack.pop()
            if isinstance(value, dict):
                stack.extend(value.values())
            elif isinstance(value, list):
                stack.extend(value)
            elif isinstance(value, Text):
                start, end = value.span
                trailing = text[end:offset]
                if start <= offset <= end or (offset > end and trailing.strip(" \t") == ""):
                    return str(value)[:value.characters_before(offset)] + (trailing if offset > end else "")
        return None

    def _following(self, content, before: str, every) -> List[Tuple[str, str, str]]:
        """Of ``every``, what the language takes after ``before`` (each label read from where its
        typed part begins: 'Fort S' completes from before 'Fort'), and the game's words it takes."""
        from crisis.ruleset.reader import words_that_may_follow
        lexicon = content.definition.lexicon
        follows: Dict[str, object] = {}

        def after(prefix: str):
            if prefix not in follows:
                follows[prefix] = words_that_may_follow(prefix, lexicon)
            return follows[prefix]
        out = []
        for label, kind, detail in every:
            found = after(before[:len(before) - len(_typed_of(before, label))])
            if found is None or (kind == "keyword" and label in found["keyword"]) \
                    or (kind in _NAME_KINDS and "NAME" in found):
                out.append((label, kind, detail))
        offered = {label for label, _, _ in out}
        typed = re.search(r"[\w'-]*$", before).group()
        here = after(before[:len(before) - len(typed)]) or {}
        for word_kind, described in _WORD_KINDS.items():
            for word in sorted(here.get(word_kind, ())):
                if word not in offered:
                    offered.add(word)
                    out.append((word, "word", described))
        return out

    @staticmethod
    def _names(schema) -> List[Tuple[str, str, str]]:
        """The completions of the names state.yaml declares."""
        out = []
        game_map = schema.map
        place, group = _word(game_map.place_words, "place"), _word(game_map.group_words, "group")
        for found in game_map.groups:
            out.append((found.name, "group", f"{group}: {', '.join(found.places)}"))
            for name in found.places:
                marks = "".join(f", {attribute}" for attribute, members in game_map.attributes.items()
                                if name in members)
                out.append((name, "place", f"{place} in {found.name}{marks}"))
        for track in schema.tracks:
            zone = _word(track.zone_words, "zone")
            out += [(z.name, "zone", f"{zone} of the {track.name}, spaces {z.bottom}-{z.top}") for z in track.zones]
        out += [(side, "side", "side") for side in schema.sides]
        out += [(m.name, "marker", "marker") for m in schema.markers]
        return out

    def _content(self):
        """The content to answer from: the last that loaded; loaded here only where no check or
        refresh has tried yet (a content with errors is not read again at every question)."""
        return self.content if self.generation is not None else (self.content or self._load_quietly())

    def _load_quietly(self):
        from crisis.content.loader import load_content
        try:
            self.content = load_content(self.root)
        except UserError:
            return None
        return self.content

    def text_of(self, path: Path, text: Optional[str]) -> Optional[str]:
        """The editor's text, or else the file's, read through the loader's defences (None if it cannot be)."""
        if text is not None:
            return text
        from crisis.content.yamlfile import ContentError, read_text
        try:
            return read_text(path, self.root)[0]
        except ContentError:
            return None

    # ----------------------------------------------------------------- hover
    def hover(self, path: Path, text: Optional[str], line: int, column: int,
              open_texts: Optional[Dict[str, str]] = None) -> Optional[str]:
        """Markdown for the card under the cursor (a card id, or inside a card's entry); 0-based position."""
        content = self._content()
        text = self.text_of(path, text)
        if content is None or text is None:
            return None
        card = self._card_at(content, text, line, column)
        if card is None and self._is_card_file(path):
            card = self._entry_at(content, path, text, line, open_texts)
        if card is None:
            return None
        kind, found = card
        return self._card_markdown(content, kind, found)

    def _card_at(self, content, text: str, line: int, column: int):
        """(kind of cards, card id) of the card id under the cursor, if it is one."""
        word = _word_at(text, line, column)
        if not word:
            return None
        kind = content.kind_of(word)
        return (kind, word) if kind is not None else None

    def _is_card_file(self, path: Path) -> bool:
        return self._under(path, "cards")

    def _entry_at(self, content, path: Path, text: str, line: int, open_texts=None):
        """The card whose entry (from its '- id:' to the next one) holds the line."""
        texts = dict(open_texts or {})
        texts[str(_real(path))] = text
        entries = [(at, card_id) for card_id, (file, at, _, _) in self.definitions(text_for=texts).items()
                   if file == str(_real(path))]
        before = [(at, card_id) for at, card_id in entries if at <= line + 1]
        if not before:
            return None
        card_id = max(before)[1]
        return self._card_at(content, card_id, 0, 0)

    @staticmethod
    def _card_markdown(content, kind: str, card_id: str) -> str:
        """The card's fields, then its title and its rule as a player reads it in each language (the
        designer's hand-written text where the catalog has one)."""
        from crisis.content.phrases import card_text
        schema = content.schema
        found = schema.card_kind(kind)
        section = found.words[-1] if found.words else "cards"
        values = content.card_fields(kind, card_id)
        rules = [name for name, type_name in found.fields if type_name == "rule" and values[name] is not None]
        parts = []
        for lang in sorted(content.catalogs, key=lambda lang: (lang != "en", lang)):
            catalog = content.catalog(lang)
            title = catalog.text(f"{section}.{card_id}.title")
            body = (catalog.raw(f"{section}.{card_id}.text") or card_text(content, catalog, card_id, inline=True)
                    if rules else f"(no {' or '.join(n for n, t in found.fields if t == 'rule') or 'rule'})")
            parts.append(f"**{title}** ({lang})\n\n{body}")
        shown = [f"{name} {_field_text(schema, type_name, values[name])}" for name, type_name in found.fields
                 if type_name not in ("rule",) and values[name] is not None]
        head = f"`{card_id}`: {_singular(kind)}" + (", " + ", ".join(shown) if shown else "")
        return head + "\n\n" + "\n\n---\n\n".join(parts)

    # ------------------------------------------------------------ definition
    def definitions(self, text_for: Optional[Dict[str, str]] = None) -> Dict[str, Tuple[str, int, int, int]]:
        """Card id -> (file, line, column, the column in UTF-16 units less one) of its ``id:`` value
        (line and column 1-based, as diagnostics give them; the last as the editor counts), read
        from the card files.

        The files are listed and read as ``crisis check`` reads them: only regular files, within the
        size limits, never through a link that leads out of the content folder (a file that cannot
        be read that way holds no definition)."""
        from crisis.content.yamlfile import Budget, ContentError, Map, YamlFile, list_folder, read_text
        found: Dict[str, Tuple[str, int, int, int]] = {}
        folder = self.root / "cards"
        budget = Budget()
        try:
            paths = list_folder(folder, self.root, ".yaml") if os.path.lexists(folder) else []
        except ContentError:
            return found
        for path in paths:
            try:
                key = str(_real(path))
                text = (text_for or {}).get(key)
                if text is None:
                    text = read_text(path, self.root, budget)[0]
                elif refusal(text):
                    continue
                data = YamlFile(key, text).load(budget)
            except ContentError:
                if budget.files > budget.max_files or budget.bytes > budget.max_bytes:
                    break
                continue
            lines = None
            for entries in (data.values() if isinstance(data, Map) else ()):
                for entry in entries if isinstance(entries, list) else ():
                    if isinstance(entry, Map) and isinstance(entry.get("id"), str):
                        line, column = entry.value_positions["id"]
                        lines = text.split("\n") if lines is None else lines
                        before = lines[line - 1][:column - 1] if 0 < line <= len(lines) else ""
                        found.setdefault(str(entry["id"]), (key, line, column, _utf16(before)))
        return found

    def definition(self, path: Path, text: Optional[str], line: int, column: int,
                   open_texts: Optional[Dict[str, str]] = None) -> Optional[Tuple[str, int, int, int]]:
        text = self.text_of(path, text)
        word = _word_at(text, line, column) if text is not None else None
        return self.definitions(open_texts).get(word) if word else None


def _word(words, default: str) -> str:
    """What the schema calls one of a kind of thing ("space", "dimension")."""
    return words[0] if words else default


def _singular(name: str) -> str:
    """"strategy cards" -> "strategy card"."""
    return name[:-1] if name.endswith("s") else name


def _field_text(schema, type_name: str, value) -> str:
    """A card's field as its file gives it: names for the indices the definition keeps."""
    if type_name == "sides":
        names = [schema.sides[i] for i in value]
        return "both" if len(names) == len(schema.sides) > 1 else ", ".join(names)
    if type_name == "side":
        return schema.sides[value] if 0 <= value < len(schema.sides) else "-"
    if type_name == "place":
        return schema.map.places[value] if 0 <= value < len(schema.map.places) else "-"
    if type_name == "group":
        return schema.map.groups[value].name if 0 <= value < len(schema.map.groups) else "-"
    return str(value)


def _word_at(text: str, line: int, column: int) -> Optional[str]:
    if line < 0 or column < 0:
        return None
    start = 0
    for _ in range(line):  # the line, found without splitting the whole text
        start = text.find("\n", start) + 1
        if start == 0:
            return None
    end = text.find("\n", start)
    for match in CARD_ID.finditer(text, start, len(text) if end < 0 else end):
        if match.start() - start <= column <= match.end() - start:
            return match.group(0)
    return None


def _moved(diagnostic: Diagnostic, old: str, new: str) -> Diagnostic:
    """A diagnostic about the scenario's temporary copy, pointed at the real file."""
    import attrs
    if diagnostic.path and _real(diagnostic.path) == _real(old):
        return attrs.evolve(diagnostic, path=new)
    return diagnostic


# ------------------------------------------------------------------ workers


def _plain(d: Diagnostic, path: Path) -> Tuple[str, Dict[str, Any]]:
    """(the real file a diagnostic is about, its fields for the protocol): plain data, to pass between processes."""
    target = _real(d.path) if d.path else path
    if target.is_dir():
        target = path
    message = d.message + (f" (in {d.label})" if d.label else "")
    if d.expected:
        message += f"\nexpected: {d.expected}"
    if d.hint:
        message += f"\n{d.hint}"
    column, width = max((d.column or 1) - 1, 0), max(d.width, 1)
    line_text = getattr(d, "source_line", None)
    if line_text and not line_text.isascii():
        # the protocol counts columns in UTF-16 units (the server says so at initialize: _utf16_only), the
        # diagnostics in characters: a character beyond the first 65,536 (an emoji) is two units
        column, width = _utf16(line_text[:column]), max(_utf16(line_text[column:column + width]), 1)
    return str(target), dict(line=max((d.line or 1) - 1, 0), column=column,
                             width=width, severity=d.severity, message=message)


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _prefix_in_utf16(line: str, units: int) -> str:
    """The start of ``line`` that is ``units`` UTF-16 units long (a position the editor gives)."""
    count = 0
    for index, character in enumerate(line):
        if count >= units:
            return line[:index]
        count += 2 if ord(character) > 0xFFFF else 1
    return line


_NAME_KINDS = ("place", "group", "zone", "side", "marker")  # the names of state.yaml: NAMEs of the language
_WORD_KINDS = {"NOUN": "a word of the game for a thing", "ADJ": "an adjective of the game",
               "RELATION": "a relation of the game", "VERB": "a verb of the game"}


def _typed_of(before: str, label: str) -> str:
    """The end of ``before`` (the line up to the cursor) that begins ``label``, the longest that
    starts a word: what completing ``label`` replaces ('' where nothing of it is typed)."""
    lowered, name = before.lower(), label.lower()
    for length in range(min(len(before), len(label)), 0, -1):
        if lowered.endswith(name[:length]) and (length == len(before) or not _WORD_CHARACTER.match(before[-length - 1])):
            return before[-length:]
    return ""


_WORD_CHARACTER = re.compile(r"[\w'-]")


def _job(benches: Dict[str, Workbench], job: tuple):
    """One job of a worker process, on the workbench of its content folder."""
    kind, root, *args = job
    bench = benches.get(root)
    if bench is None:
        bench = benches[root] = Workbench(Path(root))
    if kind == "check":
        path, text, open_texts = args
        path = _real(path)
        found = bench.check(path, text, open_texts)
        return [_plain(d, path) for d in found], bench.content is not None
    generation, open_texts, *question = args
    bench.refresh(generation, open_texts)
    path, text, line, column = question
    if kind == "completions":
        return bench.completions(Path(path), text, line, column)
    if kind == "hover":
        return bench.hover(Path(path), text, line, column, open_texts)
    if kind == "definition":
        return bench.definition(Path(path), text, line, column, open_texts)
    raise ValueError(f"no job {kind!r}")


def _work(conn, parent: int, memory: int) -> None:
    """A worker process: jobs from the server, one at a time, each answered in turn."""
    import resource
    import sys
    import threading
    import time
    import traceback
    # standard output is the protocol's: nothing a worker prints may reach it
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    except (ValueError, OSError):
        pass

    def orphaned():  # the server was killed: a worker never outlives it
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)
    threading.Thread(target=orphaned, daemon=True).start()
    benches: Dict[str, Workbench] = {}
    conn.send((0, "ready", None))
    while True:
        try:
            number, job = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer = ("ok", _job(benches, job))
        except MemoryError:
            answer = ("memory", None)
        except Exception as error:  # a mistake of the server's own: reported, the worker goes on
            answer = ("failed", "".join(traceback.format_exception(error))[-4000:])
        try:
            conn.send((number, *answer))
        except (OSError, ValueError):
            return
        if answer[0] == "memory":
            return  # started afresh for the next job


class Worker:
    """A process that does the server's jobs one at a time, stopped past its time limit.

    ``ask`` answers ("ok", result), ("late", seconds), ("memory", None), ("failed", why) or
    ("died", why); after anything but "ok" and "failed" the next job starts a fresh process.
    Each job is numbered: the answer to a job whose request the editor cancelled meanwhile
    comes later and is dropped, never taken for the next one's."""

    def __init__(self, seconds: float, memory: int = WORKER_MEMORY):
        import asyncio
        self.seconds = seconds
        self.memory = memory
        self.process = None
        self.conn = None
        self.lock = asyncio.Lock()
        self.jobs = 0

    def _start(self) -> None:
        import multiprocessing
        context = multiprocessing.get_context("spawn")  # the server has threads: no fork
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_work, args=(child, os.getpid(), self.memory), daemon=True)
        self.process.start()
        child.close()

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.join(5)
            self.conn.close()
        self.process = self.conn = None

    async def _answer(self, number: int, seconds: float):
        """The worker's answer to job ``number`` (earlier jobs' answers are dropped); None past ``seconds``."""
        import asyncio
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        while True:
            ready = loop.create_future()
            fd = self.conn.fileno()
            loop.add_reader(fd, lambda: ready.done() or ready.set_result(None))
            try:
                await asyncio.wait_for(ready, max(end - loop.time(), 0))
            except asyncio.TimeoutError:
                return None
            finally:
                loop.remove_reader(fd)
            try:
                found, *answer = self.conn.recv()
            except (EOFError, OSError, ValueError):
                return ("died", "the worker process ended")
            if found == number:
                return tuple(answer)

    async def ask(self, job: tuple):
        async with self.lock:
            if self.process is None or not self.process.is_alive():
                self.stop()
                self._start()
                hello = await self._answer(0, 60)  # the start: an interpreter and the engine's modules
                if hello is None or hello[0] != "ready":
                    self.stop()
                    return ("died", "the worker process did not start")
            self.jobs += 1
            try:
                self.conn.send((self.jobs, job))
            except (OSError, ValueError):
                self.stop()
                return ("died", "the worker process ended")
            answer = await self._answer(self.jobs, self.seconds)
            if answer is None:
                self.stop()
                return ("late", self.seconds)
            if answer[0] in ("died", "memory"):
                self.stop()
            return answer


# ------------------------------------------------------------------ protocol


def _seconds(name: str, default: float) -> float:
    """A time limit, from the environment when it is set there (a positive number of seconds)."""
    try:
        value = float(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if 0 < value <= 3600 else default


def serve() -> None:
    """Run the server on standard input/output until the editor closes it."""
    import asyncio
    import sys

    from lsprotocol import types as T
    from pygls.lsp.server import LanguageServer

    _quiet_logging()
    check_seconds = _seconds("CRISIS_LSP_CHECK_SECONDS", CHECK_SECONDS)
    server = LanguageServer("crisis", "1", text_document_sync_kind=T.TextDocumentSyncKind.Full,
                            protocol_cls=_protocol_class())
    checker = Worker(check_seconds)
    asker = Worker(ASK_SECONDS)
    roots: Dict[Path, int] = {}   # content folder -> how many of its checks loaded the content
    published: Dict[Path, set] = {}

    def where(uri: str) -> Tuple[Optional[Path], Optional[Path]]:
        """(the content folder, the real path) of a document; no folder when it is not a content file."""
        path = _path_of(uri)
        if path is None or path.suffix not in (".yaml", ".yml"):
            return None, path
        root = content_root(path)
        if root is None:
            return None, path
        root = _real(root)
        roots.setdefault(root, 0)
        return root, _real(path)

    def document_text(uri: str) -> Optional[str]:
        """The editor's text of an open document; None for one it has not opened (never read here)."""
        document = server.workspace.text_documents.get(uri)
        return None if document is None else document._source

    def open_texts(root: Path) -> Dict[str, str]:
        """The editor's texts of the content files of ``root`` (scenarios aside), within the content's limits."""
        texts, total = {}, 0
        for uri, document in list(server.workspace.text_documents.items()):
            path = _path_of(uri)
            if path is None or len(str(path)) > MAX_PATH_CHARS:
                continue
            path = _real(path)
            text = document._source
            if text is None or root not in path.parents or Workbench(root).is_scenario(path) or refusal(text):
                continue
            total += len(text)
            if total > limits.MAX_CONTENT_BYTES:
                break  # the rest are read from disk, within the loader's own limits
            texts[str(path)] = text
        return texts

    def refused(root: Path) -> Dict[Path, list]:
        """A diagnostic for each open document of ``root`` that cannot be checked (too large, say)."""
        found = {}
        for uri, document in list(server.workspace.text_documents.items()):
            path = _path_of(uri)
            why = refusal(document._source) if path is not None and document._source is not None else None
            if why and root in _real(path).parents:
                found[_real(path)] = [_refused_diagnostic(T, why)]
        return found

    def send(by_file: Dict[Path, list], root: Path) -> None:
        by_file.update(refused(root))
        # files that had problems before and have none now are cleared too
        for old in published.get(root, set()) - set(by_file):
            by_file[old] = []
        published[root] = {f for f, items in by_file.items() if items}
        for target, items in by_file.items():
            server.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=target.as_uri(), diagnostics=items))

    async def check(uri: str) -> None:
        root, path = where(uri)
        if root is None:
            return
        text = document_text(uri)
        if text is not None and refusal(text):
            send({path: [_refused_diagnostic(T, refusal(text))]}, root)
            return
        answer, result = await checker.ask(("check", str(root), str(path), text, open_texts(root)))
        if answer == "ok":
            found, loaded = result
            if loaded:
                roots[root] += 1
            by_file: Dict[Path, List] = {path: []}
            for target, fields in found:
                by_file.setdefault(Path(target), []).append(_lsp_diagnostic(T, fields))
            send(by_file, root)
            return
        if answer == "failed":
            server.window_log_message(T.LogMessageParams(type=T.MessageType.Error, message=result))
        message = {"late": f"checking this file took more than {check_seconds:g} s and was stopped; "
                           f"'{TOOL} check' (or '{TOOL} test' for a scenario file) has no time limit "
                           f"(docs/limits.md)",
                   "memory": f"checking this file needed more than {WORKER_MEMORY // limits.MIB:,} MiB of "
                             f"memory and was stopped (docs/limits.md)",
                   "failed": "this file could not be checked: the checker met a mistake of its own (the "
                             "server's log, window/logMessage, has the details)",
                   }.get(answer, "this file could not be checked: the checker stopped")
        server.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=path.as_uri(), diagnostics=[
            _lsp_diagnostic(T, dict(line=0, column=0, width=1, severity="warning", message=message))]))

    # Checks come in a queue, one at a time: a file asked for again while it waits is checked once,
    # at the text it has when its turn comes (300 saves in a second make one or two checks).
    waiting: Dict[str, None] = {}
    wake = asyncio.Event()
    typed: Dict[str, int] = {}  # uri -> how many changes have come (the latest one is checked)
    tasks = set()

    async def checks() -> None:
        while True:
            await wake.wait()
            wake.clear()
            while waiting:
                uri = next(iter(waiting))
                del waiting[uri]
                try:
                    await check(uri)
                except Exception as error:  # a mistake of the server's own: said, and the next check goes on
                    server.window_log_message(T.LogMessageParams(type=T.MessageType.Error,
                                                                 message=f"{type(error).__name__}: {error}"))

    def want(uri: str) -> None:
        if not tasks:
            task = asyncio.ensure_future(checks())
            tasks.add(task)
        waiting[uri] = None
        wake.set()

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: T.DidOpenTextDocumentParams):
        want(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(params: T.DidChangeTextDocumentParams):
        # a check takes a few hundred milliseconds: while the user types, only the text they pause
        # on is checked, not every keystroke (which would queue checks behind the typing)
        uri = params.text_document.uri
        change = typed[uri] = typed.get(uri, 0) + 1
        await asyncio.sleep(TYPING_PAUSE)
        if typed.get(uri) == change:
            want(uri)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: T.DidSaveTextDocumentParams):
        want(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: T.DidCloseTextDocumentParams):
        # the file on disk stands for it again: checked as it is there, so that errors of a text
        # thrown away unsaved do not stay (nor those of a new file never saved)
        typed.pop(params.text_document.uri, None)
        want(params.text_document.uri)

    kinds = {"keyword": T.CompletionItemKind.Keyword, "place": T.CompletionItemKind.Constant,
             "group": T.CompletionItemKind.Enum, "zone": T.CompletionItemKind.EnumMember,
             "side": T.CompletionItemKind.Value, "marker": T.CompletionItemKind.Variable,
             "card": T.CompletionItemKind.Reference, "word": T.CompletionItemKind.Text}

    async def ask(kind: str, uri: str, *question):
        """A question's answer from the worker; None when there is none (or none in time)."""
        root, path = where(uri)
        if root is None:
            return None
        text = document_text(uri)
        if text is not None and refusal(text):
            return None
        texts = open_texts(root)
        question = (str(path), text, *question)
        answer, result = await asker.ask((kind, str(root), roots[root], texts, *question))
        if answer == "failed":
            server.window_log_message(T.LogMessageParams(type=T.MessageType.Error, message=result))
        return result if answer == "ok" else None

    @server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[" "]))
    async def completion(params: T.CompletionParams):
        uri = params.text_document.uri
        found = await ask("completions", uri, params.position.line, column_of(uri, params.position)) or []
        text = document_text(params.text_document.uri) or ""
        lines = text.split("\n")
        at = params.position
        before = lines[at.line] if 0 <= at.line < len(lines) else ""
        before = _prefix_in_utf16(before, at.character)
        items = []
        for label, kind, detail in found:
            # the item replaces what is typed of it, whole names of several words and hyphens
            # included ('Fort S' -> 'Fort Sumter', not 'Fort Fort Sumter')
            typed = _typed_of(before, label)
            start = T.Position(line=at.line, character=at.character - _utf16(typed))
            items.append(T.CompletionItem(label=label, kind=kinds[kind], detail=detail, filter_text=label,
                                          text_edit=T.TextEdit(range=T.Range(start=start, end=at), new_text=label)))
        return T.CompletionList(is_incomplete=False, items=items)

    def column_of(uri: str, position) -> int:
        """The editor's column (UTF-16 units) as a character index of the document's line."""
        lines = (document_text(uri) or "").split("\n")
        line = lines[position.line] if 0 <= position.line < len(lines) else ""
        return len(_prefix_in_utf16(line, position.character))

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    async def hover(params: T.HoverParams):
        uri = params.text_document.uri
        shown = await ask("hover", uri, params.position.line, column_of(uri, params.position))
        if shown is None:
            return None
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=shown))

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    async def definition(params: T.DefinitionParams):
        uri = params.text_document.uri
        found = await ask("definition", uri, params.position.line, column_of(uri, params.position))
        if found is None:
            return None
        file, line, _, column = found  # the column as the editor counts it, worked out by the worker
        start = T.Position(line=line - 1, character=column)
        return T.Location(uri=Path(file).as_uri(), range=T.Range(start=start, end=start))

    try:
        status = _run(server, sys.stdin.buffer, sys.stdout.buffer)
    finally:
        checker.stop()
        asker.stop()
    if status is not None:
        # Ended at once, its status kept: the input thread is still reading the editor's open
        # stdin, holding its lock, and Python's own shutdown would abort on it (SIGABRT)
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(status)


def _refused_diagnostic(T, why: str):
    if why == "size":
        message = (f"this file is larger than the limit of {limits.MAX_FILE_BYTES // limits.MIB} MiB per content "
                   f"file and is not checked\ndocs/limits.md lists the limits on content")
    else:
        message = (f"this text holds {why}, half of a surrogate pair, which no UTF-8 file can hold; "
                   f"it is not checked")
    return _lsp_diagnostic(T, dict(line=0, column=0, width=1, severity="error", message=message))


def _path_of(uri) -> Optional[Path]:
    """The absolute path of a ``file:`` URI; None for any other (an unsaved buffer, say)."""
    from urllib.parse import unquote, urlparse
    if not isinstance(uri, str) or len(uri) > 4 * MAX_PATH_CHARS:
        return None
    try:
        parsed = urlparse(uri)
    except ValueError:
        return None
    if parsed.scheme != "file":
        return None
    path = unquote(parsed.path)
    if not path.startswith("/") or "\0" in path or len(path) > MAX_PATH_CHARS:
        return None
    return Path(path)


def _lsp_diagnostic(T, d: Dict[str, Any]):
    severity = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning}.get(
        d["severity"], T.DiagnosticSeverity.Information)
    start = T.Position(line=d["line"], character=d["column"])
    end = T.Position(line=d["line"], character=d["column"] + d["width"])
    return T.Diagnostic(range=T.Range(start=start, end=end), message=d["message"], severity=severity, source="crisis")


# ------------------------------------------------------------------ messages


def _utf16_only(message: dict) -> None:
    """Columns are counted in UTF-16 units, on both sides of the server (a worker counts them in
    the diagnostics it makes): an editor that would prefer another count (Neovim offers UTF-8
    first) is answered with UTF-16, the protocol's own, which every editor takes.  pygls would
    agree to the editor's first choice."""
    if message.get("method") != "initialize" or not isinstance(message.get("params"), dict):
        return
    common = (message["params"].get("capabilities") or {}).get("general")  # (the protocol's word)
    if isinstance(common, dict):
        common.pop("positionEncodings", None)


def _protocol_class():
    """pygls's protocol, answering every request: one whose params cannot be read gets an
    'invalid params' error (pygls logged it and left the editor waiting), one that is no
    request at all an 'invalid request' error."""
    from lsprotocol.types import ResponseError, ResponseErrorMessage
    from pygls.exceptions import JsonRpcInvalidParams, JsonRpcInvalidRequest, JsonRpcMethodNotFound
    from pygls.protocol import LanguageServerProtocol
    from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage

    class Refused:
        """A message that could not be read as what its method asks for."""

        def __init__(self, data: dict, why: str):
            self.data, self.why = data, why

    class Protocol(LanguageServerProtocol):
        def structure_message(self, data):
            if not isinstance(data, dict) or "jsonrpc" not in data:
                return data
            _utf16_only(data)
            try:
                if "id" in data:
                    if "error" in data:
                        return self._converter.structure(data, ResponseErrorMessage)
                    if "method" in data:
                        kind = self.get_message_type(data["method"]) or JsonRPCRequestMessage
                        return self._converter.structure(data, kind)
                    kind = self._result_types.pop(data["id"], None) or JsonRPCResponseMessage
                    return self._converter.structure(data, kind)
                kind = self.get_message_type(data.get("method", "")) or JsonRPCNotification
                return self._converter.structure(data, kind)
            except Exception as error:
                return Refused(data, _why(error))

        def handle_message(self, message):
            if isinstance(message, Refused):
                data = message.data
                if "method" not in data or "id" not in data:
                    _log(f"a message that could not be read was left ({message.why})")
                    return
                method = data["method"]
                known = isinstance(method, str) and self.get_message_type(method) is not None
                error = (JsonRpcInvalidParams if known else JsonRpcMethodNotFound if isinstance(method, str)
                         else JsonRpcInvalidRequest)
                self._refuse(data["id"], error.CODE, f"{error.MESSAGE}: {message.why}")
                return
            if getattr(message, "jsonrpc", None) != "2.0":
                if isinstance(message, dict) or hasattr(message, "id"):
                    self._refuse(getattr(message, "id", None) if not isinstance(message, dict) else message.get("id"),
                                 JsonRpcInvalidRequest.CODE, "Invalid Request: not a JSON-RPC 2.0 message")
                else:
                    _log("a message that is not JSON-RPC was left")
                return
            if getattr(message, "method", None) == "$/cancelRequest":
                msg_id = getattr(getattr(message, "params", None), "id", None)
                if not isinstance(msg_id, (int, str)) or isinstance(msg_id, bool):
                    _log("a cancellation naming no request was left")  # pygls would fail on it
                    return
            if self._shutdown and hasattr(message, "id") and getattr(message, "method", "exit") != "exit":
                self._refuse(message.id, JsonRpcInvalidRequest.CODE, "Invalid Request: the server is shutting down")
                return
            super().handle_message(message)

        def _refuse(self, msg_id, code: int, text: str) -> None:
            if not isinstance(msg_id, (int, str)) or isinstance(msg_id, bool):
                msg_id = None  # an id that is no id: answered as JSON-RPC says, with a null id
            self._send_data(ResponseErrorMessage(id=msg_id, error=ResponseError(code=code, message=text[:500])))

    return Protocol


def _why(error: Exception) -> str:
    """What was wrong with a message's params, in one line."""
    try:
        from cattrs import transform_error
        found = transform_error(error)
    except Exception:
        found = []
    text = "; ".join(found) if found else f"{type(error).__name__}: {error}"
    return text[:300]


def _log(text: str) -> None:
    import logging
    logging.getLogger("pygls").warning(text)


def _quiet_logging() -> None:
    """pygls logs each message it cannot read with a traceback: one line is enough (the editor
    gets an error response).  A traceback of the server's own code is still printed whole."""
    import logging

    from pygls.exceptions import JsonRpcException

    class OneLine(logging.Formatter):
        def formatException(self, exc_info):
            error = exc_info[1]
            if isinstance(error, (JsonRpcException, ValueError, RecursionError)) or \
                    isinstance(getattr(error, "__cause__", None), JsonRpcException):
                return f"({type(error).__name__}: {str(error)[:200]})"
            return super().formatException(exc_info)

    handler = logging.StreamHandler()
    handler.setFormatter(OneLine("crisis lsp: %(levelname)s: %(message)s"))
    log = logging.getLogger("pygls")
    log.handlers[:] = [handler]
    log.setLevel(logging.WARNING)
    log.propagate = False


# a length header; searched for in the line, so that one glued to the end of a broken message is found
_LENGTH = re.compile(rb"content-length[ \t]*:[ \t]*(\d{1,15})[ \t]*$", re.IGNORECASE)


def _frames(stdin, limit: int = MAX_MESSAGE_BYTES):
    """Each message from the editor: ("body", bytes), ("skipped", its length) past ``limit``, until
    the end of the input.  Memory stays within ``limit``: a header line is read at most
    ``MAX_HEADER_BYTES`` at a time, a message past the limit is read and dropped in pieces."""
    length = None
    while True:
        line = stdin.readline(MAX_HEADER_BYTES)
        if not line:
            return
        if not line.endswith(b"\n"):  # a header line past the limit: dropped to its end
            while line and not line.endswith(b"\n"):
                line = stdin.readline(MAX_HEADER_BYTES)
            length = None
            continue
        line = line.strip()
        if line:
            match = _LENGTH.search(line)
            if match:
                length = int(match.group(1))
            continue
        if not length:  # the end of headers that named no length: nothing to read
            length = None
            continue
        if length > limit:
            left = length
            while left:
                piece = stdin.read(min(left, 1 << 16))
                if not piece:
                    return
                left -= len(piece)
            yield "skipped", length
        else:
            body = stdin.read(length)
            if len(body) < length:
                return
            yield "body", body
        length = None


def _run(server, stdin, stdout) -> Optional[int]:
    """pygls's input/output loop, reading messages within the limits (``_frames``) in a thread of
    its own; a message that is no JSON gets a parse error, and a skipped one a message to the user.
    The status the editor's 'exit' asks for, or None where the input ended."""
    import asyncio
    import json
    import threading

    from lsprotocol import types as T
    from lsprotocol.types import ResponseError, ResponseErrorMessage
    from pygls.io_ import StdoutWriter

    server._stop_event = threading.Event()
    server.protocol.set_writer(StdoutWriter(stdout))

    async def main():
        loop = asyncio.get_running_loop()
        inbox: asyncio.Queue = asyncio.Queue(maxsize=2)

        def ended():
            """The input is over (in the loop): a plain call, not a coroutine, so that when the
            server has stopped first and the loop closes without running it, nothing is left
            unawaited (Python warned of it at every 'exit')."""
            try:
                inbox.put_nowait(None)
            except asyncio.QueueFull:
                loop.create_task(inbox.put(None))

        def read():
            try:
                for frame in _frames(stdin):
                    putting = inbox.put(frame)
                    try:
                        posted = asyncio.run_coroutine_threadsafe(putting, loop)
                    except RuntimeError:  # the server has stopped already
                        putting.close()
                        return
                    posted.result()
            except Exception as error:
                _log(f"the editor's input could not be read: {error}")
            finally:
                try:
                    loop.call_soon_threadsafe(ended)
                except RuntimeError:  # the server has stopped already
                    pass

        threading.Thread(target=read, name="crisis-lsp-input", daemon=True).start()
        while not server._stop_event.is_set():
            frame = await inbox.get()
            if frame is None:
                return
            kind, body = frame
            if kind == "skipped":
                server.window_show_message(T.ShowMessageParams(
                    type=T.MessageType.Error,
                    message=f"crisis lsp: a message of {body:,} bytes from the editor is larger than the limit of "
                            f"{MAX_MESSAGE_BYTES // limits.MIB} MiB and was not read (docs/limits.md)"))
                continue
            try:
                message = json.loads(body, object_hook=server.protocol.structure_message)
            except (ValueError, RecursionError, MemoryError) as error:
                _log(f"a message that is not JSON was left ({type(error).__name__})")
                server.protocol._send_data(ResponseErrorMessage(
                    id=None, error=ResponseError(code=-32700, message="Parse error: the message is not JSON")))
                continue
            try:
                server.protocol.handle_message(message)
            except Exception:
                import logging
                logging.getLogger("pygls").exception("a message could not be handled")

    status = None
    try:
        asyncio.run(main())
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    except SystemExit as stop:  # the editor's 'exit' ends the server with pygls's SystemExit
        status = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    finally:
        server.shutdown()
    return status


def library_missing() -> bool:
    try:
        import pygls  # noqa: F401
    except ImportError:
        return True
    return False
