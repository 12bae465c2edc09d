"""`crisis lsp` through the Language Server Protocol: a client starts the server on standard
input/output and checks diagnostics, completion, hover and go-to-definition."""

import asyncio
import os

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as T  # noqa: E402
from pygls.lsp.client import BaseLanguageClient  # noqa: E402

from clirun import crisis_command  # noqa: E402
from helpers import copy_content, replace_in  # noqa: E402


class Client:
    """A language client session with `crisis lsp`, run from a plain (synchronous) test."""

    def __init__(self, root, env=None):
        self.root = root
        self.env = env or {}
        self.diagnostics = {}
        self.published = {}  # uri -> how many times diagnostics came
        self.messages = []  # what the server showed the user (window/showMessage)
        self.loop = asyncio.new_event_loop()
        self.client = BaseLanguageClient("crisis-tests", "1")
        self.arrived = asyncio.Event()

        @self.client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: T.PublishDiagnosticsParams):
            self.diagnostics[params.uri] = params.diagnostics
            self.published[params.uri] = self.published.get(params.uri, 0) + 1
            self.arrived.set()

        @self.client.feature(T.WINDOW_SHOW_MESSAGE)
        def shown(params: T.ShowMessageParams):
            self.messages.append(params.message)

    def run(self, coroutine, timeout=60):
        return self.loop.run_until_complete(asyncio.wait_for(coroutine, timeout))

    def start(self):
        command = crisis_command()
        env = dict(os.environ, NO_COLOR="1", **self.env)
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

    def until(self, path, wanted):
        """Wait until the diagnostics last published for ``path`` are ``wanted``."""
        async def go():
            while not wanted(self.diagnostics.get(path.as_uri())):
                self.arrived.clear()
                await self.arrived.wait()
        self.run(go())

    def at(self, path, line, character):
        return dict(text_document=T.TextDocumentIdentifier(uri=path.as_uri()),
                    position=T.Position(line=line, character=character))

    def answers(self, timeout):
        """Whether the server answers a request at once (one that needs no content: its event loop is free)."""
        elsewhere = self.root.parent / "notes.yaml"  # in no content folder
        try:
            self.run(self.client.text_document_completion_async(T.CompletionParams(**self.at(elsewhere, 0, 0))),
                     timeout=timeout)
        except asyncio.TimeoutError:
            return False
        return True

    def request(self, method, params, timeout=10):
        """A request sent with ``params`` as they are (a dict, None), not as the client would type them."""
        from concurrent.futures import Future

        from pygls.protocol.json_rpc import JsonRPCRequestMessage
        self.sent = getattr(self, "sent", 0) + 1
        msg_id = f"as-is-{self.sent}"
        future = Future()
        self.client.protocol._request_futures[msg_id] = future
        self.client.protocol._send_data(JsonRPCRequestMessage(id=msg_id, method=method, params=params, jsonrpc="2.0"))
        return self.run(asyncio.wrap_future(future, loop=self.loop), timeout)

    def raw(self, data: bytes):
        """Bytes written to the server's input as they are, framed or not."""
        self.client._server.stdin.write(data)
        self.run(self.client._server.stdin.drain())

    def stop(self):
        try:
            self.run(self.client.shutdown_async(None), timeout=10)
            self.client.exit(None)
            self.run(self.client.stop(), timeout=10)
        except (asyncio.TimeoutError, RuntimeError):  # a server that no longer answers is ended
            if self.client._server.returncode is None:
                self.client._server.kill()
            try:
                self.run(self.client.stop(), timeout=10)
            except (asyncio.TimeoutError, RuntimeError):
                pass
        finally:
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


def test_a_new_card_file_not_yet_saved_is_checked_as_it_is_typed(lsp):
    """':e cards/new.yaml' in an editor: the file is not on disk yet, and its mistakes are shown
    all the same (they were not, until the file was saved)."""
    new = lsp.root / "cards" / "new-card.yaml"
    text = ("strategy_cards:\n  - id: new-card\n    value: 2\n    event_for: both\n    final_crisis: Politcal\n"
            "    provenance: authored\n    event: place 1 in Texsa\n")
    found = lsp.open(new, text)
    assert not new.exists()
    assert sorted(d.range.start.line for d in found if d.severity == T.DiagnosticSeverity.Error) == [4, 6]
    assert any("did you mean 'Texas'?" in d.message for d in found)
    assert not [d for d in lsp.change(new, text.replace("Politcal", "Political").replace("Texsa", "Texas"))
                if d.severity == T.DiagnosticSeverity.Error]
    # closed unsaved with a mistake: nothing of the text thrown away stays shown
    lsp.change(new, text, 3)
    closed_and_cleared(lsp, new)


def closed_and_cleared(lsp, path):
    """Close ``path`` unsaved and wait until its diagnostics are cleared (an empty list published)."""
    lsp.arrived.clear()
    lsp.client.text_document_did_close(T.DidCloseTextDocumentParams(text_document=T.TextDocumentIdentifier(
        uri=path.as_uri())))
    lsp.until(path, lambda found: found is not None and not list(found))


def test_closing_a_file_without_saving_shows_the_file_on_disk_again(lsp):
    cards = lsp.root / "cards" / "strategy-unionist.yaml"
    text = cards.read_text(encoding="utf-8")
    lsp.open(cards)
    assert lsp.change(cards, text.replace("place 3 in Fort Sumter", "place 3 in Fort Sumpter", 1))
    closed_and_cleared(lsp, cards)


def test_columns_are_counted_in_utf16_units_as_the_server_says(lsp):
    """An emoji is two UTF-16 units: a mistake after two of them is underlined where it is."""
    cards = lsp.root / "cards" / "strategy-unionist.yaml"
    text = cards.read_text(encoding="utf-8")
    lsp.open(cards)
    start = text.index("    note: ")
    end = text.index("\n", start)
    broken = text[:start] + "    note: \U0001F600\U0001F600 Anderson y: z" + text[end:]  # ': ' is no YAML here
    (d,) = lsp.change(cards, broken)
    line = broken.split("\n")[d.range.start.line]
    before = line[:line.index(": z")]
    assert d.range.start.character == len(before.encode("utf-16-le")) // 2 == len(before) + 2
    assert lsp.change(cards, text, 3) == []


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


def test_a_completion_replaces_what_is_typed_of_a_name_of_several_words(lsp):
    """'place 3 in Fort S' completed with 'Fort Sumter' gives 'Fort Sumter', not 'Fort Fort Sumter':
    each item says which part of the line it replaces."""
    cards = lsp.root / "cards" / "strategy-unionist.yaml"
    text = cards.read_text(encoding="utf-8")
    lsp.open(cards)
    typed = text.replace("place 3 in Fort Sumter", "place 3 in Fort S", 1)
    lsp.change(cards, typed)
    line, character = position_of(typed, "Fort S")
    character += len("Fort S")
    result = lsp.run(lsp.client.text_document_completion_async(T.CompletionParams(**lsp.at(cards, line, character))))
    items = {item.label: item for item in result.items}
    edit = items["Fort Sumter"].text_edit
    assert (edit.range.start.character, edit.range.end.character, edit.new_text) == \
        (character - len("Fort S"), character, "Fort Sumter")
    assert items["Texas"].text_edit.range.start.character == character  # nothing of it typed: inserted
    lsp.change(cards, text, 3)


def completion_labels(bench, path, text, typed_line):
    """The (label -> kind) a workbench offers with the cursor at the end of ``typed_line``'s text."""
    lines = text.split("\n")
    line = next(n for n, found in enumerate(lines) if typed_line in found)
    column = lines[line].index(typed_line) + len(typed_line)
    return {label: kind for label, kind, _ in bench.completions(path, text, line, column)}


def test_inside_a_rule_completion_offers_what_the_language_takes_there(tmp_path):
    """After 'gain 1 ' the rules language takes a noun or a possessive, not a statement: 'place'
    is not offered, 'your' and the game's nouns ('VP') are; after 'place 2 in ' the places and
    'each'; a card id is never a word of a rule. Outside a rule (a scenario) every word is offered."""
    from crisis.cli.lsp import Workbench
    root = copy_content(tmp_path)
    bench = Workbench(root)
    bench.refresh(0)
    cards = root / "cards" / "strategy-unionist.yaml"
    text = cards.read_text(encoding="utf-8")
    gained = text.replace("event: place 3 in Fort Sumter", "event: gain 1 ", 1)
    labels = completion_labels(bench, cards, gained, "event: gain 1 ")
    assert "place" not in labels and "either" not in labels
    assert labels["your"] == "keyword" and labels["VP"] == "word"
    assert "major-anderson" not in labels
    placed = text.replace("event: place 3 in Fort Sumter", "event: place 2 in ", 1)
    labels = completion_labels(bench, cards, placed, "event: place 2 in ")
    assert labels["Texas"] == "place" and labels["Political"] == "group" and labels["each"] == "keyword"
    assert labels["pivotal"] == "word" and "gain" not in labels
    scenario = root / "scenarios" / "cards" / "major-anderson.yaml"
    outside = scenario.read_text(encoding="utf-8")
    labels = completion_labels(bench, scenario, outside, "major-anderson")
    assert {"place", "gain", "major-anderson", "Texas"} <= set(labels)


def test_completion_after_step_and_a_name_still_answers(tmp_path):
    """'step ' typed last (the trigger is the space) is a step's name still to come: the worker
    answered with an error (the text ends where a colon was always found), so no completion came."""
    from crisis.cli.lsp import Workbench
    from crisis.ruleset.reader import words_that_may_follow
    root = copy_content(tmp_path)
    bench = Workbench(root)
    bench.refresh(0)
    lexicon = bench.content.definition.lexicon
    for typed in ("step ", "step", "step turn", "gain 1 step "):
        words_that_may_follow(typed, lexicon)  # answers (None or the words), never raises
    cards = root / "cards" / "strategy-unionist.yaml"
    text = cards.read_text(encoding="utf-8").replace("event: place 3 in Fort Sumter", "event: step ", 1)
    labels = completion_labels(bench, cards, text, "event: step ")  # a name of the step's own comes next
    assert "place" not in labels and "major-anderson" not in labels


def test_completion_offers_the_game_s_names_while_a_card_has_a_mistake(tmp_path):
    """A game opened with a mistake saved in one card: the names of state.yaml are still offered
    (only keywords were), and the content is not read again at every question."""
    from crisis.cli.lsp import Workbench
    root = copy_content(tmp_path)
    replace_in(root / "cards" / "strategy-both.yaml", "from Federal Arsenals", "from Federal Arsenls")
    bench = Workbench(root)
    bench.refresh(0)
    labels = {label: kind for label, kind, _ in bench.completions()}
    assert labels["Federal Arsenals"] == "place" and labels["Unionist"] == "side" and "Political" in labels
    assert "major-anderson" not in labels  # the cards are not known while one of them is wrong
    reads = []
    import crisis.content.loader as loader
    real = loader.load_content
    loader.load_content = lambda *a, **k: reads.append(1) or real(*a, **k)
    try:
        bench.refresh(0)
        bench.completions()
    finally:
        loader.load_content = real
    assert reads == []


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


def test_definition_column_is_counted_as_the_editor_counts_it(tmp_path):
    """A card whose id follows wide characters on its line (a flow mapping): the column the
    definition leads to is in UTF-16 units, worked out from the file's text by the worker
    (an emoji is two units, a Spanish letter one), where diagnostics' columns count characters."""
    from crisis.cli.lsp import Workbench
    root = copy_content(tmp_path)
    cards = root / "cards" / "wide.yaml"
    before = '  - {note: "\U0001F600 ñ", id: '
    cards.write_text("strategy cards:\n" + before + "wide-card}\n", encoding="utf-8")
    file, line, column, units = Workbench(root).definitions()["wide-card"]
    assert file == str(cards.resolve()) and line == 2
    assert column == len(before) + 1
    assert units == len(before.encode("utf-16-le")) // 2 == len(before) + 1


# ------------------------------------------------------------ hostile files and messages (issue 18)
# A server of its own, on a copy whose files the tests replace by FIFOs and links, with a short
# time limit on checks (CRISIS_LSP_CHECK_SECONDS) so that a check stopped by it is seen quickly.

CHECK_SECONDS = 8


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    root = copy_content(tmp_path_factory.mktemp("hostile"))
    client = Client(root, env={"CRISIS_LSP_CHECK_SECONDS": str(CHECK_SECONDS)})
    client.start()
    yield client
    client.stop()


def definition_of(client, card_id, timeout=30):
    """Where go-to-definition leads from the card id in a scenario: (file, line), or None."""
    scenario = client.root / "scenarios" / "cards" / "major-anderson.yaml"
    text = scenario.read_text(encoding="utf-8").replace("event major-anderson", f"event {card_id}")
    client.open(scenario, text)
    line, character = position_of(text, f"event {card_id}")
    result = client.run(client.client.text_document_definition_async(
        T.DefinitionParams(**client.at(scenario, line, character + 8))), timeout=timeout)
    location = result[0] if isinstance(result, list) else result
    return None if location is None else (location.uri, location.range.start.line)


@pytest.mark.parametrize("how", ["fifo", "dev-zero"])
def test_definition_reads_past_a_file_that_is_no_file_without_waiting_or_reading_without_end(hostile, how):
    odd = hostile.root / "cards" / "a-odd.yaml"  # listed before the real card files
    if how == "fifo":
        os.mkfifo(odd)  # a plain read waits for a writer for ever
    else:
        odd.symlink_to("/dev/zero")  # a plain read fills the memory
    try:
        found = definition_of(hostile, "major-anderson", timeout=20)
    finally:
        odd.unlink()
    cards = hostile.root / "cards" / "strategy-unionist.yaml"
    assert found == (cards.resolve().as_uri(), position_of(cards.read_text(encoding="utf-8"), "id: major-anderson")[0])
    assert hostile.answers(5)


def test_definition_never_leads_out_of_the_content_folder(hostile, tmp_path):
    cards = hostile.root / "cards" / "strategy-unionist.yaml"
    outside = tmp_path / "strategy-unionist.yaml"
    outside.write_bytes(cards.read_bytes())
    cards.unlink()
    cards.symlink_to(outside)  # crisis check refuses to read it
    try:
        assert definition_of(hostile, "major-anderson") is None
        assert definition_of(hostile, "fort-sumter") is not None  # an objective, in a file inside
    finally:
        cards.unlink()
        cards.write_bytes(outside.read_bytes())


def test_a_loop_of_links_in_the_cards_folder_is_reported_while_a_file_is_edited(hostile):
    loop = hostile.root / "cards" / "a-loop.yaml"
    loop.symlink_to(loop)
    cards = hostile.root / "cards" / "strategy-both.yaml"
    text = cards.read_text(encoding="utf-8")
    try:
        assert hostile.open(cards, text + "\n") == []  # unsaved: the check crashed on the loop
        hostile.until(loop, lambda found: found and any("loop of symbolic links" in d.message for d in found))
    finally:
        loop.unlink()
    assert hostile.change(cards, text, 2) == []


def test_hover_on_a_fifo_the_editor_never_opened_is_answered(hostile):
    fifo = hostile.root / "cards" / "a-fifo.yaml"
    os.mkfifo(fifo)
    try:
        hover = hostile.run(hostile.client.text_document_hover_async(T.HoverParams(**hostile.at(fifo, 0, 0))),
                            timeout=20)
        assert hover is None
        assert hostile.answers(5)
    finally:
        fifo.unlink()


@pytest.mark.parametrize("position", [{"line": -1, "character": 0}, {"line": None, "character": 3},
                                      {"line": 0, "character": -5}, {"line": 2 ** 40, "character": 0}, None])
@pytest.mark.parametrize("method", [T.TEXT_DOCUMENT_HOVER, T.TEXT_DOCUMENT_DEFINITION, T.TEXT_DOCUMENT_COMPLETION])
def test_a_request_with_invalid_params_gets_an_error_answer(hostile, method, position):
    from pygls.exceptions import JsonRpcException
    scenario = hostile.root / "scenarios" / "cards" / "major-anderson.yaml"
    params = {"textDocument": {"uri": scenario.as_uri()}}
    if position is not None:
        params["position"] = position
    with pytest.raises(JsonRpcException) as answered:  # before: no answer at all, the editor waited
        hostile.request(method, params)
    assert answered.value.code == -32602  # invalid params


def test_a_hover_the_editor_cancels_never_answers_the_next_one(hostile):
    scenario = hostile.root / "scenarios" / "cards" / "major-anderson.yaml"
    text = scenario.read_text(encoding="utf-8")
    hostile.open(scenario, text + "\n")  # a check loads the content again: the next hover reloads it too
    line, character = position_of(text, "event major-anderson")
    hostile.client.protocol._send_data({"jsonrpc": "2.0", "id": "cancelled", "method": T.TEXT_DOCUMENT_HOVER,
                                        "params": {"textDocument": {"uri": scenario.as_uri()},
                                                   "position": {"line": line, "character": character + 8}}})
    hostile.client.protocol.notify(T.CANCEL_REQUEST, T.CancelParams(id="cancelled"))
    line, character = position_of(text, "lincoln")
    hover = hostile.run(hostile.client.text_document_hover_async(T.HoverParams(**hostile.at(scenario, line, character))))
    assert hover.contents.value.startswith("`lincoln`:")  # not the cancelled hover's major-anderson


def test_a_request_with_no_params_at_all_gets_an_error_answer(hostile):
    from pygls.exceptions import JsonRpcException
    with pytest.raises(JsonRpcException) as answered:
        hostile.request(T.TEXT_DOCUMENT_DEFINITION, None)
    assert answered.value.code == -32602


def test_a_document_larger_than_a_content_file_may_be_is_refused_with_a_diagnostic(hostile):
    cards = hostile.root / "cards" / "strategy-both.yaml"
    text = cards.read_text(encoding="utf-8") + "# " + "x" * (30 * 1024 * 1024) + "\n"  # 30 MB, unsaved
    (d,) = hostile.open(cards, text)
    assert d.severity == T.DiagnosticSeverity.Error and "1 MiB" in d.message and d.range.start.line == 0
    assert hostile.answers(5)
    (d,) = hostile.change(cards, cards.read_text(encoding="utf-8") + "\n" * 1_100_000)  # 1.1 MB of line ends
    assert "1 MiB" in d.message
    assert hostile.change(cards, cards.read_text(encoding="utf-8"), 3) == []


def test_a_flood_of_saves_is_checked_once_or_twice_and_never_blocks_the_server(hostile):
    cards = hostile.root / "cards" / "strategy-secessionist.yaml"
    assert hostile.open(cards) == []
    before = hostile.published[cards.as_uri()]
    for _ in range(300):  # before: 300 checks in a row, the server silent for minutes
        hostile.client.text_document_did_save(T.DidSaveTextDocumentParams(
            text_document=T.TextDocumentIdentifier(uri=cards.as_uri())))
    assert hostile.answers(5)
    text = cards.read_text(encoding="utf-8")
    broken = text.replace("in Fort Sumter", "in Fort Sumpter", 1)
    hostile.send_change(cards, broken, 2)  # checked after the saves' checks: once it is seen, they are all done
    hostile.until(cards, lambda found: any("Fort Sumpter" in d.message for d in found or ()))
    assert hostile.published[cards.as_uri()] - before <= 3  # one or two for the saves, one for the change
    assert hostile.change(cards, text, 3) == []


def test_a_text_no_utf8_file_can_hold_is_refused_with_a_diagnostic(hostile):
    cards = hostile.root / "cards" / "strategy-both.yaml"
    text = cards.read_text(encoding="utf-8")
    (d,) = hostile.open(cards, text.replace("Fort Sumter", "Fort \ud800Sumter", 1))  # JSON can carry it
    assert d.severity == T.DiagnosticSeverity.Error and "U+D800" in d.message
    assert hostile.change(cards, text, 2) == []


def heavy_event(levels):
    """A card event as heavy as crisis check accepts: 'for each player' nested ``levels`` deep."""
    rule = "gain 1 VP"
    for _ in range(levels):
        rule = "for each player:\n" + "\n".join("  " + line for line in rule.splitlines())
    return "|\n" + "\n".join("      " + line for line in rule.splitlines())


def test_a_scenario_file_that_runs_for_long_is_stopped_at_the_time_limit_and_the_server_answers_meanwhile(hostile):
    cards = hostile.root / "cards" / "strategy-unionist.yaml"
    heavy = cards.read_text(encoding="utf-8").replace("event: place 3 in Fort Sumter",
                                                      "event: " + heavy_event(13), 1)
    assert hostile.open(cards, heavy) == []  # accepted (unsaved): each run takes some 8,000 steps
    scenario = hostile.root / "scenarios" / "cards" / "major-anderson.yaml"
    one = scenario.read_text(encoding="utf-8")
    many = "scenarios:\n" + "".join("  - " + "\n    ".join(one.rstrip("\n").split("\n")) + "\n" for _ in range(1000))
    hostile.arrived.clear()
    hostile.diagnostics.pop(scenario.as_uri(), None)
    hostile.client.text_document_did_open(T.DidOpenTextDocumentParams(text_document=T.TextDocumentItem(
        uri=scenario.as_uri(), language_id="yaml", version=1, text=many)))  # a minute of play, or more
    assert hostile.answers(5)  # before: the server ran the scenarios on its event loop, deaf meanwhile
    (d,) = hostile.wait(scenario)
    assert d.severity == T.DiagnosticSeverity.Warning and f"more than {CHECK_SECONDS} s" in d.message
    # the next check works, in a fresh worker
    assert hostile.change(cards, cards.read_text(encoding="utf-8"), 2) == []
    assert hostile.change(scenario, one, 2) == []


def test_a_message_past_the_size_limit_is_skipped_and_said_and_the_server_goes_on(hostile):
    from crisis.cli.lsp import MAX_MESSAGE_BYTES
    body = b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": ' + b" " * MAX_MESSAGE_BYTES + b"}"
    hostile.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    assert hostile.answers(20)
    assert any("larger than the limit" in message for message in hostile.messages)


@pytest.mark.parametrize("frame", [
    b"Content-Length: 9\r\n\r\n{not json",
    b"Content-Length: 200011\r\n\r\n" + b"[" * 100_000 + b"1" + b"]" * 100_000 + b"\n" * 10,
    b"Content-Length: " + b"9" * 5000 + b"\r\n\r\n{}",  # a length Python will not even convert
    b"Content-Length: 7\r\n\r\n[1,2,3]",
    b"garbage without a header\r\n\r\n",
])
def test_a_broken_message_never_ends_the_server(hostile, frame):
    hostile.raw(frame)
    assert hostile.answers(10) or hostile.answers(10)  # the request after it may be taken in the wreck


def test_a_message_claiming_more_bytes_than_memory_holds_never_ends_the_server(tmp_path):
    import subprocess
    import time
    server = subprocess.Popen([*crisis_command(), "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=dict(os.environ, NO_COLOR="1"))
    server.stdin.write(b"Content-Length: 100000000000\r\n\r\n{}")
    server.stdin.flush()
    time.sleep(3)
    running = server.poll() is None  # before: MemoryError, the server gone
    server.stdin.close()  # the editor went away
    server.wait(20)
    error = server.stderr.read().decode()
    assert running and server.returncode == 0, error
    assert "Traceback" not in error and "MemoryError" not in error


def test_the_limits_page_gives_the_servers_limits():
    import re
    from pathlib import Path

    from crisis.cli import lsp
    page = (Path(__file__).resolve().parents[1] / "docs" / "limits.md").read_text(encoding="utf-8")
    section = page.split("## The language server", 1)[1].split("\n## ", 1)[0]
    rows = {re.search(r"`(\w+)`", line).group(1): line for line in section.splitlines() if line.startswith("| ")
            and re.search(r"`(\w+)`", line)}
    assert rows["MAX_MESSAGE_BYTES"].endswith(f"| {lsp.MAX_MESSAGE_BYTES // (1 << 20)} MiB |")
    assert rows["MAX_HEADER_BYTES"].endswith(f"| {lsp.MAX_HEADER_BYTES // 1024} KiB |")
    assert rows["MAX_PATH_CHARS"].endswith(f"| {lsp.MAX_PATH_CHARS:,} characters |")
    assert f"| {lsp.CHECK_SECONDS:g} s (" in rows["CHECK_SECONDS"]
    assert rows["ASK_SECONDS"].endswith(f"| {lsp.ASK_SECONDS:g} s |")
    assert rows["WORKER_MEMORY"].endswith(f"| {lsp.WORKER_MEMORY // (1 << 30)} GiB |")


def test_shutdown_and_exit_sent_at_once_end_the_server_quietly():
    """An editor that sends initialize, shutdown and exit back to back: the server ends with
    status 0 and says nothing on standard error (Python warned of a put never awaited)."""
    import json
    import subprocess

    def frame(message):
        body = json.dumps(message).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    messages = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
                 "params": {"processId": None, "rootUri": None, "capabilities": {}}},
                {"jsonrpc": "2.0", "method": "initialized", "params": {}},
                {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
                {"jsonrpc": "2.0", "method": "exit"}]
    for _ in range(2):
        done = subprocess.run([*crisis_command(), "lsp"], input=b"".join(frame(m) for m in messages),
                              capture_output=True, timeout=60, env=dict(os.environ, NO_COLOR="1"))
        assert done.returncode == 0 and done.stderr.decode() == ""


def test_an_editor_that_prefers_utf8_columns_is_answered_in_utf16():
    """The server counts columns in UTF-16 units (diagnostics, completions, hover); an editor that
    offers UTF-8 first (Neovim) was answered with UTF-8, and every column after a non-ASCII
    character was off. The server now always answers UTF-16, which every editor takes."""
    import json
    import subprocess

    def frame(message):
        body = json.dumps(message).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    capabilities = {"general": {"positionEncodings": ["utf-8", "utf-16", "utf-32"]}}
    messages = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
                 "params": {"processId": None, "rootUri": None, "capabilities": capabilities}},
                {"jsonrpc": "2.0", "method": "initialized", "params": {}},
                {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
                {"jsonrpc": "2.0", "method": "exit"}]
    done = subprocess.run([*crisis_command(), "lsp"], input=b"".join(frame(m) for m in messages),
                          capture_output=True, timeout=60, env=dict(os.environ, NO_COLOR="1"))
    answer = json.loads(done.stdout.split(b"\r\n\r\n", 1)[1].split(b"Content-Length")[0])
    assert answer["id"] == 1 and answer["result"]["capabilities"]["positionEncoding"] == "utf-16"


def test_exit_ends_the_server_quietly_while_the_editor_keeps_its_input_open():
    """An editor keeps the server's standard input open after 'exit' (it closes it later, or
    never): the server still ends at once with status 0, not aborted by Python (SIGABRT) on the
    thread still reading that input."""
    import json
    import subprocess

    def frame(message):
        body = json.dumps(message).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    server = subprocess.Popen([*crisis_command(), "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=dict(os.environ, NO_COLOR="1"))
    for message in ({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                     "params": {"processId": None, "rootUri": None, "capabilities": {}}},
                    {"jsonrpc": "2.0", "method": "initialized", "params": {}},
                    {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
                    {"jsonrpc": "2.0", "method": "exit"}):
        server.stdin.write(frame(message))
        server.stdin.flush()
    try:
        status = server.wait(60)
    finally:
        server.stdin.close()
    error = server.stderr.read().decode()
    assert status == 0 and error == "", (status, error)
    assert b'"id":2' in server.stdout.read().replace(b" ", b"")  # shutdown was answered before the end

