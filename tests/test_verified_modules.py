"""Generated modules verified in an earlier run (interpreter/engine/verified.py): the same text is
compiled without being walked again, any other text is walked, and the file that remembers them
holds digests alone, so nothing in it can be run or trusted beyond the exact text it names."""

import json
import re
from pathlib import Path

import pytest

from crisis.content.loader import read_game
from crisis.interpreter.engine import native as native_module
from crisis.interpreter.engine import verified
from crisis.interpreter.engine.program import GameProgram, program_of
from crisis.ruleset import cachefolder


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache folder of the test's own, nothing of it known to this process yet."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("CRISIS_NO_CACHE", raising=False)
    monkeypatch.setattr(verified, "_stored", {})
    return tmp_path / "cache" / "crisis" / "verified-modules.json"


@pytest.fixture
def walks(monkeypatch):
    """The module texts walked by verify, in order."""
    texts = []
    walk = native_module.verify

    def counting(source):
        texts.append(source)
        return walk(source)
    monkeypatch.setattr(native_module, "verify", counting)
    return texts


def another_run(monkeypatch):
    """What a new process knows of the cache: only its file."""
    monkeypatch.setattr(verified, "_stored", {})


def test_a_module_verified_in_an_earlier_run_is_not_walked_again_and_plays_the_same(content, cache, walks,
                                                                                  monkeypatch):
    program = program_of(content)
    first = native_module.generate(program)
    assert len(walks) == 1 and cache.exists()
    another_run(monkeypatch)
    second = native_module.generate(program)
    assert len(walks) == 1  # the same text: compiled without the walk
    assert second.source == first.source and sorted(second.entry) == sorted(first.entry)


def test_another_text_is_walked_even_when_the_file_remembers_one(content, three_crowns_program, cache, walks,
                                                                 monkeypatch):
    native_module.generate(program_of(content))
    another_run(monkeypatch)
    native_module.generate(three_crowns_program)
    assert len(walks) == 2 and walks[0] != walks[1]


def test_the_file_holds_digests_alone(content, cache, walks):
    native_module.generate(program_of(content))
    head, _, body = cache.read_bytes().partition(b"\n")
    kept = json.loads(body)
    assert kept and all(re.fullmatch(r"[0-9a-f]{64}", digest) for digest in kept)
    assert b"def " not in body and b"K[" not in body  # no source, no code


@pytest.mark.parametrize("damage", ["edited", "not digests", "cut"])
def test_a_damaged_or_forged_file_is_ignored_and_the_module_walked(content, cache, walks, monkeypatch, damage):
    program = program_of(content)
    native_module.generate(program)
    raw = cache.read_bytes()
    head, _, body = raw.partition(b"\n")
    if damage == "edited":  # a digest changed by hand: the body no longer matches the head's digest
        flipped = b"1" if body[2:3] != b"1" else b"2"  # a hex digit of the first digest
        cache.write_bytes(head + b"\n" + body[:2] + flipped + body[3:])
    elif damage == "not digests":  # well-formed and signed, but not what this module ever writes
        forged = json.dumps(["def f1(board): pass"] + json.loads(body)).encode()
        cachefolder.write_checked(str(cache.parent), cache.name, verified._FORMAT, verified._code_key(), forged)
    else:
        cache.write_bytes(raw[:len(raw) // 2])
    another_run(monkeypatch)
    native_module.generate(program)
    assert len(walks) == 2


def test_without_the_cache_every_module_is_walked(content, cache, walks, monkeypatch):
    monkeypatch.setenv("CRISIS_NO_CACHE", "1")
    for _ in range(2):
        another_run(monkeypatch)
        native_module.generate(program_of(content))
    assert len(walks) == 2 and not cache.exists()


@pytest.fixture
def three_crowns_program():
    return GameProgram(read_game(Path(__file__).parent / "data" / "three-crowns"))
