"""``crisis lsp``: a language server for content files (LSP over standard input/output).

What an editor gets while a designer types, for the YAML files of a content
folder (the folder holding ``game.yaml``):

* diagnostics: the problems ``crisis check`` reports (and, in a scenario
  file, what ``crisis test`` would refuse or fail), at file:line:column
  ranges, computed on the unsaved text of the file being edited;
* completion of the rules language's keywords and of the game's names:
  spaces, dimensions, zones, sides, markers, card ids;
* hover on a card id, or inside a card's entry: its title and its text as a
  player reads it, in every language of the content;
* go to definition from a card id (in a scenario, say) to the card's entry.

The analysis (``Workbench``) knows nothing of the protocol; ``serve`` wires
it to pygls (the optional ``lsp`` extra).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from crisis.ruleset.diagnostics import Diagnostic, UserError

CARD_ID = re.compile(r"[a-z0-9][a-z0-9-]*")
# words of the rules language, as the grammar spells them
_KEYWORD = re.compile(r'"([a-z][a-z\']*)"')


def content_root(path: Path) -> Optional[Path]:
    """The content folder a file belongs to: the nearest folder above it with a game.yaml."""
    for folder in [path.parent, *path.parent.parents]:
        if (folder / "game.yaml").is_file():
            return folder
    return None


def keywords() -> List[str]:
    from importlib.resources import files
    grammar = files("crisis.ruleset").joinpath("grammar.lark").read_text(encoding="utf-8")
    return sorted(set(_KEYWORD.findall(grammar)))


class Workbench:
    """Checks, completions, hovers and definitions for one content folder, on the editor's text."""

    def __init__(self, root: Path):
        self.root = root.resolve()
        self.content = None  # the last content that loaded without errors (for names, hover, definition)

    # ----------------------------------------------------------- diagnostics
    def check(self, path: Path, text: str, open_texts: Optional[Dict[str, str]] = None) -> List[Diagnostic]:
        """What ``crisis check`` says of the content with ``text`` for ``path`` (and, for a
        scenario file, what ``crisis test`` says of it)."""
        from crisis.content.loader import load_content
        path = path.resolve()
        overrides = dict(open_texts or {})
        overrides[str(path)] = text
        scenario = self.is_scenario(path)
        if scenario:
            overrides.pop(str(path))  # a scenario file is not content
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
        from crisis.interpreter.tables import Tables
        Tables(content)
        return list(content.warnings) + check_all(content)

    def is_scenario(self, path: Path) -> bool:
        try:
            return path.resolve().relative_to(self.root).parts[0] == "scenarios"
        except (ValueError, IndexError):
            return False

    def _scenario(self, content, path: Path, text: str) -> List[Diagnostic]:
        import tempfile

        from crisis.interpreter.scenario import FAILED, NOT_RUN, run_file
        # the runner reads files: give it the editor's text, and report at the real file
        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder) / path.name
            copy.write_text(text, encoding="utf-8")
            outcomes = run_file(content, copy)
        found = []
        for outcome in outcomes:
            if outcome.status == NOT_RUN:
                found.extend(_moved(d, str(copy), str(path)) for d in outcome.diagnostics)
            elif outcome.status == FAILED:
                line = outcome.line
                found.extend(Diagnostic(message=f"scenario '{outcome.name}' fails: {problem}", path=str(path),
                                        line=line, column=1, severity="warning") for problem in outcome.problems)
        return found

    # ------------------------------------------------------------ completion
    def completions(self) -> List[Tuple[str, str, str]]:
        """(label, kind, detail) for every keyword and name."""
        out = [(word, "keyword", "rules language") for word in keywords()]
        content = self.content or self._load_quietly()
        if content is None:
            return out
        board = content.board
        for dimension in board.dimensions:
            out.append((dimension.name, "dimension", f"dimension: {', '.join(dimension.spaces)}"))
            for space in dimension.spaces:
                pivotal = ", pivotal" if space == dimension.pivotal else ""
                out.append((space, "space", f"space in {dimension.name}{pivotal}"))
        out += [(z.name, "zone", f"crisis zone, track {z.bottom}-{z.top}") for z in board.zones]
        out += [(side, "side", "side") for side in board.sides]
        out += [(m.name, "marker", "marker") for m in board.markers]
        english = content.catalogs.get("en")
        for kind, cards in (("cards", content.strategy_cards), ("objectives", content.objective_cards)):
            for card in cards:
                title = english.text(f"{kind}.{card.id}.title") if english else card.id
                out.append((card.id, "card", f"{'strategy' if kind == 'cards' else 'objective'} card: {title}"))
        return out

    def _load_quietly(self):
        from crisis.content.loader import load_content
        try:
            self.content = load_content(self.root)
        except UserError:
            return None
        return self.content

    # ----------------------------------------------------------------- hover
    def hover(self, path: Path, text: str, line: int, column: int) -> Optional[str]:
        """Markdown for the card under the cursor (a card id, or inside a card's entry); 0-based position."""
        content = self.content or self._load_quietly()
        if content is None:
            return None
        card = self._card_at(content, text, line, column)
        if card is None and self._is_card_file(path):
            card = self._entry_at(content, path, text, line)
        if card is None:
            return None
        kind, found = card
        return self._card_markdown(content, kind, found)

    def _card_at(self, content, text: str, line: int, column: int):
        word = _word_at(text, line, column)
        if not word:
            return None
        for kind, cards in (("cards", content.strategy_cards), ("objectives", content.objective_cards)):
            for card in cards:
                if card.id == word:
                    return kind, card
        return None

    def _is_card_file(self, path: Path) -> bool:
        try:
            return path.resolve().relative_to(self.root).parts[0] == "cards"
        except (ValueError, IndexError):
            return False

    def _entry_at(self, content, path: Path, text: str, line: int):
        """The card whose entry (from its '- id:' to the next one) holds the line."""
        entries = [(at, card_id) for card_id, (file, at, _) in self.definitions(text_for={str(path): text}).items()
                   if file == str(path.resolve())]
        before = [(at, card_id) for at, card_id in entries if at <= line + 1]
        if not before:
            return None
        card_id = max(before)[1]
        return self._card_at(content, card_id, 0, 0)

    @staticmethod
    def _card_markdown(content, kind: str, card) -> str:
        from .text import Presenter
        parts = []
        for lang in sorted(content.catalogs, key=lambda lang: (lang != "en", lang)):
            show = Presenter(content, content.catalog(lang))
            title = show.card(card.id) if kind == "cards" else show.objective(card.id)
            body = show.card_rule_text(kind, card, inline=True) if card.event else "(no event)"
            parts.append(f"**{title}** ({lang})\n\n{body}")
        if kind == "cards":
            head = (f"`{card.id}`: value {card.value}, event for {', '.join(card.event_for)}, "
                    f"Final Crisis {card.final_crisis}")
        else:
            head = f"`{card.id}`: objective, space {card.space}"
        return head + "\n\n" + "\n\n---\n\n".join(parts)

    # ------------------------------------------------------------ definition
    def definitions(self, text_for: Optional[Dict[str, str]] = None) -> Dict[str, Tuple[str, int, int]]:
        """Card id -> (file, line, column) of its ``id:`` value (1-based), read from the card files."""
        from crisis.content.yamlfile import ContentError, Map, YamlFile
        found: Dict[str, Tuple[str, int, int]] = {}
        for path in sorted((self.root / "cards").glob("*.yaml")):
            key = str(path.resolve())
            text = (text_for or {}).get(key)
            try:
                data = YamlFile(key, text if text is not None else path.read_text(encoding="utf-8")).load()
            except (OSError, UnicodeDecodeError, ContentError):
                continue
            for entries in (data.values() if isinstance(data, Map) else ()):
                for entry in entries if isinstance(entries, list) else ():
                    if isinstance(entry, Map) and isinstance(entry.get("id"), str):
                        line, column = entry.value_positions["id"]
                        found.setdefault(str(entry["id"]), (key, line, column))
        return found

    def definition(self, text: str, line: int, column: int) -> Optional[Tuple[str, int, int]]:
        word = _word_at(text, line, column)
        return self.definitions().get(word) if word else None


def _word_at(text: str, line: int, column: int) -> Optional[str]:
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return None
    for match in CARD_ID.finditer(lines[line]):
        if match.start() <= column <= match.end():
            return match.group(0)
    return None


def _moved(diagnostic: Diagnostic, old: str, new: str) -> Diagnostic:
    """A diagnostic about the scenario's temporary copy, pointed at the real file."""
    import attrs
    if diagnostic.path and Path(diagnostic.path).resolve() == Path(old).resolve():
        return attrs.evolve(diagnostic, path=new)
    return diagnostic


# ------------------------------------------------------------------ protocol


TYPING_PAUSE = 0.25  # seconds without a change before the text is checked


def serve() -> None:
    """Run the server on standard input/output until the editor closes it."""
    import asyncio

    from lsprotocol import types as T
    from pygls.lsp.server import LanguageServer

    server = LanguageServer("crisis", "1", text_document_sync_kind=T.TextDocumentSyncKind.Full)
    benches: Dict[Path, Workbench] = {}
    published: Dict[Path, set] = {}

    def bench_for(uri: str) -> Tuple[Optional[Workbench], Path]:
        path = Path(_path_of(uri))
        root = content_root(path)
        if root is None or path.suffix not in (".yaml", ".yml"):
            return None, path
        root = root.resolve()
        if root not in benches:
            benches[root] = Workbench(root)
        return benches[root], path

    def open_texts(bench: Workbench) -> Dict[str, str]:
        texts = {}
        for uri, document in server.workspace.text_documents.items():
            path = Path(_path_of(uri)).resolve()
            if bench.root in path.parents and not bench.is_scenario(path):
                texts[str(path)] = document.source
        return texts

    def publish(uri: str) -> None:
        bench, path = bench_for(uri)
        if bench is None:
            return
        text = server.workspace.get_text_document(uri).source
        found = bench.check(path, text, open_texts(bench))
        by_file: Dict[Path, List] = {path.resolve(): []}
        for diagnostic in found:
            target = Path(diagnostic.path).resolve() if diagnostic.path else path.resolve()
            if target.is_dir():
                target = path.resolve()
            by_file.setdefault(target, []).append(_lsp_diagnostic(T, diagnostic))
        # files that had problems before and have none now are cleared too
        for old in published.get(bench.root, set()) - set(by_file):
            by_file[old] = []
        published[bench.root] = {f for f, items in by_file.items() if items}
        for target, items in by_file.items():
            server.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=target.as_uri(), diagnostics=items))

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: T.DidOpenTextDocumentParams):
        publish(params.text_document.uri)

    typed: Dict[str, int] = {}  # uri -> how many changes have come (the latest one is checked)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(params: T.DidChangeTextDocumentParams):
        # a check takes a few hundred milliseconds: while the user types, only the text they pause
        # on is checked, not every keystroke (which would queue checks behind the typing)
        uri = params.text_document.uri
        change = typed[uri] = typed.get(uri, 0) + 1
        await asyncio.sleep(TYPING_PAUSE)
        if typed[uri] == change:
            publish(uri)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: T.DidSaveTextDocumentParams):
        publish(params.text_document.uri)

    kinds = {"keyword": T.CompletionItemKind.Keyword, "space": T.CompletionItemKind.Constant,
             "dimension": T.CompletionItemKind.Enum, "zone": T.CompletionItemKind.EnumMember,
             "side": T.CompletionItemKind.Value, "marker": T.CompletionItemKind.Variable,
             "card": T.CompletionItemKind.Reference}

    @server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[" "]))
    def completion(params: T.CompletionParams):
        bench, _ = bench_for(params.text_document.uri)
        if bench is None:
            return T.CompletionList(is_incomplete=False, items=[])
        items = [T.CompletionItem(label=label, kind=kinds[kind], detail=detail)
                 for label, kind, detail in bench.completions()]
        return T.CompletionList(is_incomplete=False, items=items)

    def at_cursor(params, ask):
        """``ask(bench, path, text, line, character)`` for the document and position of a request."""
        bench, path = bench_for(params.text_document.uri)
        if bench is None:
            return None
        text = server.workspace.get_text_document(params.text_document.uri).source
        return ask(bench, path, text, params.position.line, params.position.character)

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    def hover(params: T.HoverParams):
        shown = at_cursor(params, lambda bench, path, *where: bench.hover(path, *where))
        if shown is None:
            return None
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=shown))

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    def definition(params: T.DefinitionParams):
        found = at_cursor(params, lambda bench, path, *where: bench.definition(*where))
        if found is None:
            return None
        file, line, column = found
        start = T.Position(line=line - 1, character=column - 1)
        return T.Location(uri=Path(file).as_uri(), range=T.Range(start=start, end=start))

    server.start_io()


def _path_of(uri: str) -> str:
    from urllib.parse import unquote, urlparse
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else uri


def _lsp_diagnostic(T, d: Diagnostic):
    line = max((d.line or 1) - 1, 0)
    column = max((d.column or 1) - 1, 0)
    severity = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning}.get(
        d.severity, T.DiagnosticSeverity.Information)
    message = d.message + (f" (in {d.label})" if d.label else "")
    if d.expected:
        message += f"\nexpected: {d.expected}"
    if d.hint:
        message += f"\n{d.hint}"
    end = T.Position(line=line, character=column + max(d.width, 1))
    return T.Diagnostic(range=T.Range(start=T.Position(line=line, character=column), end=end), message=message,
                        severity=severity, source="crisis")


def library_missing() -> bool:
    try:
        import pygls  # noqa: F401
    except ImportError:
        return True
    return False

