"""Every exception the libraries under the loader, the parser and the save
reader can raise on bad input becomes a clean error: a table row per
exception type shows the library raising it on an input, and crisis turning
the same input into a located message.  A new exception type in PyYAML or
Lark fails the completeness test until it has a row."""

import json
import os

import lark.exceptions
import lark.indenter
import pytest
import yaml

from crisis.cli import saves
from crisis.content.loader import load_content
from crisis.content.yamlfile import ContentError
from crisis.ruleset.builder import build
from crisis.ruleset.diagnostics import RulesError
from crisis.ruleset.reader import _lark, parse
from crisis.ruleset.words import LEXICON

from helpers import copy_content, designer_card


def subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from subclasses(sub)


def raw_yaml(text):
    return lambda: yaml.safe_load(text)


def lexicon():
    return load_content().definition.lexicon


def parse_block(text):
    return parse(text, lexicon())


def raw_rule(text):
    def run():
        token = LEXICON.set(lexicon())
        try:
            return build(_lark().parse(text + "\n", start="block"))
        finally:
            LEXICON.reset(token)
    return run


def raw_json(text):
    return lambda: json.loads(text)


DEEP_AND = "if " + " and ".join(["you control Texas"] * 491) + ": gain 1 VP"

# (exception type, what raises it in the library, the content file written, the line of the error)
YAML_ROWS = [
    (yaml.reader.ReaderError, "a: \x07", "strategy_cards: [] # \x07\n", 1),
    (yaml.scanner.ScannerError, "a: 'unclosed", "strategy_cards: 'unclosed\n", 1),  # where the quote opens
    (yaml.parser.ParserError, "a: b\n- c", "strategy_cards: []\n- c\n", 2),
    (yaml.composer.ComposerError, "a: *nothing", "strategy_cards: *nothing\n", 1),
    (yaml.constructor.ConstructorError, "a: !!python/name:os.system x", "strategy_cards: !!python/name:os.system x\n", 1),
    (ValueError, "a: !!int abc", "strategy_cards: !!int abc\n", 1),
    (ValueError, "a: " + "9" * 5000, "strategy_cards: " + "9" * 5000 + "\n", 1),
    (KeyError, "a: !!bool maybe", "strategy_cards: !!bool maybe\n", 1),
    (AttributeError, "a: !!timestamp abc", "strategy_cards: !!timestamp abc\n", 1),
    (RecursionError, "[" * 1200, "strategy_cards: " + "[" * 1200 + "\n", 1),
]
RULE_ROWS = [
    (lark.exceptions.UnexpectedCharacters, "place 1 in Texas $"),
    (lark.exceptions.UnexpectedToken, "place place"),
    (lark.exceptions.UnexpectedToken, "if you control Texas): gain 1 VP"),
    (lark.exceptions.VisitError, "gain " + "9" * 5000 + " VP"),
    (RecursionError, DEEP_AND),
]
# Exception types that cannot come from reading: programming errors in a grammar or
# in a configuration; UnexpectedEOF, which Lark's LALR parser never raises (the end
# of input is an UnexpectedToken for '$END'); and DedentError, which only Lark's own
# Indenter raises: ours reports the line instead (test_an_indentation_error_...).
NOT_FROM_INPUT = {yaml.error.MarkedYAMLError, yaml.resolver.ResolverError, yaml.emitter.EmitterError,
                  yaml.serializer.SerializerError, yaml.representer.RepresenterError,
                  lark.exceptions.ConfigurationError, lark.exceptions.GrammarError,
                  lark.exceptions.MissingVariableError, lark.exceptions.UnexpectedInput,
                  lark.exceptions.ParseError, lark.exceptions.LexError, lark.exceptions.UnexpectedEOF,
                  lark.indenter.DedentError}


def test_every_library_exception_type_has_a_row():
    covered = {row[0] for row in YAML_ROWS + RULE_ROWS}
    for library in (yaml.YAMLError, lark.exceptions.LarkError):
        missing = set(subclasses(library)) - covered - NOT_FROM_INPUT
        assert not missing, f"no hostile-input row for {missing}"


@pytest.mark.parametrize("kind, raw, written, line", YAML_ROWS, ids=lambda v: getattr(v, "__name__", None))
def test_every_yaml_failure_is_a_clean_error(tmp_path, kind, raw, written, line):
    with pytest.raises(kind):
        raw_yaml(raw)()
    root = copy_content(tmp_path)
    (root / "cards" / "zz-bad.yaml").write_text(written, encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_content(root)
    (d,) = [d for d in caught.value.diagnostics if d.path.endswith("zz-bad.yaml")]
    assert d.line == line and d.column is not None


@pytest.mark.parametrize("kind, rule", RULE_ROWS, ids=lambda v: getattr(v, "__name__", None))
def test_every_rule_failure_is_a_clean_error(tmp_path, kind, rule):
    with pytest.raises(kind):
        raw_rule(rule)()
    with pytest.raises(RulesError) as caught:
        parse_block(rule)
    assert caught.value.diagnostics[0].line == 1
    root = copy_content(tmp_path)
    (root / "cards" / "zz-bad.yaml").write_text(designer_card(json.dumps(rule)), encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_content(root)
    assert any(d.path.endswith("zz-bad.yaml") and d.line == 7 for d in caught.value.diagnostics)


def test_an_indentation_error_is_a_clean_error():
    with pytest.raises(RulesError) as caught:
        parse_block("if you control Texas:\n    gain 1 VP\n  gain 1 VP")
    assert (caught.value.diagnostics[0].line, caught.value.diagnostics[0].column) == (3, 3)


def test_every_file_failure_is_a_clean_error(tmp_path):
    root = copy_content(tmp_path)
    (root / "cards" / "zz-binary.yaml").write_bytes(b"strategy_cards: [\xff]\n")  # UnicodeDecodeError
    (root / "sequence.yaml").unlink()
    os.mkdir(root / "sequence.yaml")  # IsADirectoryError
    (root / "cards" / "zz-loop.yaml").symlink_to(root / "cards" / "zz-loop.yaml")  # ELOOP
    os.mkfifo(root / "cards" / "zz-fifo.yaml")  # a FIFO: would block
    with pytest.raises(ContentError) as caught:
        load_content(root)
    found = {os.path.basename(d.path): d.message for d in caught.value.diagnostics}
    assert found["zz-binary.yaml"].startswith("this file is not UTF-8 text")
    assert found["sequence.yaml"] == "cannot read this file: Is a directory"
    assert "loop of symbolic links" in found["zz-loop.yaml"]
    assert "not a regular file" in found["zz-fifo.yaml"]


def test_a_missing_file_is_a_clean_error(tmp_path):
    root = copy_content(tmp_path)
    (root / "sequence.yaml").unlink()  # FileNotFoundError
    with pytest.raises(ContentError) as caught:
        load_content(root)
    assert caught.value.diagnostics[0].path.endswith("sequence.yaml")


def test_an_unreadable_file_is_a_clean_error(tmp_path, monkeypatch):
    root = copy_content(tmp_path)
    real_open = os.open
    target = os.path.realpath(root / "sequence.yaml")

    def denied(path, *args, **kwargs):
        if os.fspath(path) == target:
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, *args, **kwargs)
    monkeypatch.setattr(os, "open", denied)
    with pytest.raises(ContentError) as caught:
        load_content(root)
    assert caught.value.diagnostics[0].message == "cannot read this file: Permission denied"


SAVE_ROWS = [
    (json.JSONDecodeError, '{"format": ', "cli.save.not_json"),
    (UnicodeDecodeError, b'{"format": "\xff"}', "cli.save.not_json"),
    (RecursionError, "[" * 1200 + "]" * 1200, "cli.save.too_deep"),
    (ValueError, '{"seed": ' + "9" * 5000 + "}", "cli.save.long_number"),
]


@pytest.mark.parametrize("kind, text, key", SAVE_ROWS, ids=lambda v: getattr(v, "__name__", None))
def test_every_save_failure_is_a_clean_error(tmp_path, content, kind, text, key):
    with pytest.raises(kind):
        raw_json(text)()
    path = tmp_path / "game.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(saves.SaveProblem) as caught:
        saves.read(path, content, known_controllers=())
    assert caught.value.key == key


@pytest.mark.parametrize("make, key, code", [
    (lambda p: None, "cli.save.missing", ""),
    (lambda p: os.mkdir(p), "cli.save.unreadable", "EISDIR"),
    (lambda p: p.symlink_to(p), "cli.save.unreadable", "ELOOP"),
    (lambda p: os.mkfifo(p), "cli.save.unreadable", "NOTREG"),
], ids=["missing", "folder", "loop", "fifo"])
def test_every_save_file_failure_is_a_clean_error(tmp_path, content, make, key, code):
    path = tmp_path / "game.json"
    make(path)
    with pytest.raises(saves.SaveProblem) as caught:
        saves.read(path, content, known_controllers=())
    assert caught.value.key == key
    assert getattr(caught.value.params.get("error"), "code", "") == code
