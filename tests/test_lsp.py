"""`crisis lsp` through the Language Server Protocol: a client starts the server on standard
input/output and checks diagnostics, completion, hover and go-to-definition."""

import asyncio
import os
import sys

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as T  # noqa: E402
from pygls.lsp.client import BaseLanguageClient  # noqa: E402

from clirun import crisis_command  # noqa: E402
from helpers import copy_content  # noqa: E402


class Client:
    """A language client session with `crisis lsp`, run from a plain (synchronous) test."""

    def __init__(self, root):
        self.root = root
        self.diagnostics = {}
        self.published = {}  # uri -> how many times diagnostics came
        self.loop = asyncio.new_event_loop()
        self.client = BaseLanguageClient("crisis-tests", "1")
        self.arrived = asyncio.Event()

        @self.client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: T.PublishDiagnosticsParams):
            self.diagnostics[params.uri] = params.diagnostics
            self.published[params.uri] = self.published.get(params.uri, 0) + 1
            self.arrived.set()

    def run(self, coroutine, timeout=60):
        return self.loop.run_until_complete(asyncio.wait_for(coroutine, timeout))

    def start(self):
        command = crisis_command()
        env = dict(os.environ, NO_COLOR="1")
        self.run(self.client.start_io(*command, "lsp", env=env))
        self.run(self.client.initialize_async(T.InitializeParams(
            capabilities=T.ClientCapabilities(), root_uri=self.root.as_uri())))
        self.client.initialized(T.InitializedParams())

    def open(self, path, text=None):
        text = path.read_text(encoding="utf-8") if text is None else text
        self.arrived.clear()
        self.client.text_document_did_open(T.DidOpenTextDocumentParams(
            text_document=T.TextDocumentItem(uri=path.as_uri(), language_id="yaml", version=1, text=text)))
        return self.wait(path)

    def change(self, path, text, version=2):
        self.arrived.clear()
        self.send_change(path, text, version)
        return self.wait(path)

    def send_change(self, path, text, version):
        self.client.text_document_did_change(T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
            content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)]))

    def wait(self, path):
        async def until():
            while path.as_uri() not in self.diagnostics:
                self.arrived.clear()
                await self.arrived.wait()
        self.diagnostics.pop(path.as_uri(), None)
        self.run(until())
        return list(self.diagnostics[path.as_uri()])

    def at(self, path, line, character):
        return dict(text_document=T.TextDocumentIdentifier(uri=path.as_uri()),
                    position=T.Position(line=line, character=character))

    def stop(self):
        try:
            self.run(self.client.shutdown_async(None), timeout=10)
            self.client.exit(None)
        finally:
            self.run(self.client.stop(), timeout=10)
            self.loop.close()


@pytest.fixture(scope="module")
def lsp(tmp_path_factory):
    # one server for the module: the tests change only the editor's buffers, never the files
    root = copy_content(tmp_path_factory.mktemp("lsp"))
    client = Client(root)
    client.start()
    yield client
    client.stop()


def position_of(text, needle):
    before = text[:text.index(needle)]
    return before.count("\n"), len(before.split("\n")[-1])


def test_diagnostics_while_typing_at_the_right_range(lsp):
    cards = lsp.root / "cards" / "strategy-unionist.yaml"
    text = cards.read_text(encoding="utf-8")
    assert lsp.open(cards) == []
    broken = text.replace("place 3 in Fort Sumter", "place 3 in Fort Sumpter", 1)
    (d,) = lsp.change(cards, broken)  # unsaved: the file on disk is unchanged
    line, character = position_of(broken, "Fort Sumpter")
    assert (d.range.start.line, d.range.start.character) == (line, character)
    assert d.range.end.character == character + len("Fort Sumpter")
    assert d.severity == T.DiagnosticSeverity.Error
    assert "unknown space 'Fort Sumpter'" in d.message and "did you mean 'Fort Sumter'?" in d.message
    # a warning, as crisis check gives it, and a fix clears everything
    (w,) = lsp.change(cards, text.replace("place 3 in Fort Sumter", "place up to 6 in Fort Sumter", 1), 3)
    assert w.severity == T.DiagnosticSeverity.Warning and "'up to 6' can never reach 6 here" in w.message
    assert lsp.change(cards, text, 4) == []


def test_a_burst_of_typing_is_checked_once_at_its_last_text(lsp):
    cards = lsp.root / "cards" / "strategy-unionist.yaml"
    text = cards.read_text(encoding="utf-8")
    lsp.open(cards)
    before = lsp.published[cards.as_uri()]
    for version, name in enumerate(("Fort S", "Fort Sumpt", "Fort Sumpter"), 2):  # keystrokes
        lsp.send_change(cards, text.replace("place 3 in Fort Sumter", f"place 3 in {name}", 1), version)
    (d,) = lsp.wait(cards)
    assert "unknown space 'Fort Sumpter'" in d.message  # the last text, checked once
    assert lsp.published[cards.as_uri()] == before + 1
    assert lsp.change(cards, text, 9) == []


def test_diagnostics_in_a_scenario_file(lsp):
    scenario = lsp.root / "scenarios" / "cards" / "major-anderson.yaml"
    text = scenario.read_text(encoding="utf-8")
    assert lsp.open(scenario) == []
    (d,) = lsp.change(scenario, text.replace("event major-anderson", "event major-andersen", 1))
    assert "unknown strategy card 'major-andersen'" in d.message
    assert d.range.start.line == position_of(text, "event major-anderson")[0]
    assert lsp.change(scenario, text, 3) == []


def test_completion_offers_keywords_and_names(lsp):
    cards = lsp.root / "cards" / "strategy-unionist.yaml"
    lsp.open(cards)
    result = lsp.run(lsp.client.text_document_completion_async(T.CompletionParams(**lsp.at(cards, 3, 10))))
    items = {item.label: item for item in result.items}
    for keyword in ("place", "remove", "either", "otherwise", "within"):
        assert items[keyword].kind == T.CompletionItemKind.Keyword
    assert items["Fort Sumter"].kind == T.CompletionItemKind.Constant
    assert items["Fort Sumter"].detail == "space in Armaments"
    assert items["Washington"].detail == "space in Political, pivotal"
    assert items["Secession"].kind == T.CompletionItemKind.Enum
    assert items["Tension"].kind == T.CompletionItemKind.EnumMember
    assert items["Unionist"].kind == T.CompletionItemKind.Value
    assert items["Peace Commissioner"].kind == T.CompletionItemKind.Variable
    assert items["major-anderson"].detail == "strategy card: Major Anderson"
    assert items["fort-sumter"].detail.startswith("objective card: ")


def test_hover_shows_a_card_in_english_and_spanish(lsp):
    scenario = lsp.root / "scenarios" / "cards" / "major-anderson.yaml"
    text = scenario.read_text(encoding="utf-8")
    lsp.open(scenario)
    line, character = position_of(text, "event major-anderson")
    hover = lsp.run(lsp.client.text_document_hover_async(T.HoverParams(**lsp.at(scenario, line, character + 8))))
    shown = hover.contents.value
    assert "**Major Anderson** (en)" in shown and "Place 3 tokens in Fort Sumter." in shown
    assert "**Comandante Anderson** (es)" in shown and "Coloca 3 fichas en Fort Sumter." in shown
    # inside a card's entry, on its event text
    cards = lsp.root / "cards" / "strategy-both.yaml"
    text = cards.read_text(encoding="utf-8")
    lsp.open(cards)
    line, character = position_of(text, "if you have fewer VP than the opponent")
    hover = lsp.run(lsp.client.text_document_hover_async(T.HoverParams(**lsp.at(cards, line, character + 3))))
    assert "If you have fewer VP than your opponent, your opponent loses 1 VP" in hover.contents.value
    assert "Si tienes menos PV que tu oponente" in hover.contents.value


def test_definition_goes_from_a_scenario_to_the_card(lsp):
    scenario = lsp.root / "scenarios" / "cards" / "major-anderson.yaml"
    text = scenario.read_text(encoding="utf-8")
    lsp.open(scenario)
    line, character = position_of(text, "event major-anderson")
    result = lsp.run(lsp.client.text_document_definition_async(
        T.DefinitionParams(**lsp.at(scenario, line, character + 10))))
    location = result[0] if isinstance(result, list) else result
    cards = lsp.root / "cards" / "strategy-unionist.yaml"
    assert location.uri == cards.resolve().as_uri()
    card_text = cards.read_text(encoding="utf-8")
    assert location.range.start.line == position_of(card_text, "id: major-anderson")[0]
    assert location.range.start.character == position_of(card_text, "id: major-anderson")[1] + len("id: ")
