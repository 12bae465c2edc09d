"""Catalogs kept between runs (content/catalogcache.py): a second load of the same content takes
every language's texts from the cache, equal to a fresh reading and at the same positions, without
parsing a catalog file; a file edited is read afresh; a catalog with a problem is reported on every
load; an entry that no reading could have made is never trusted."""

import json

import pytest

from crisis.content import catalogcache, loader, yamlfile
from crisis.content.loader import load_content
from crisis.content.yamlfile import ContentError
from crisis.ruleset import cachefolder, limits

from helpers import copy_content, replace_in


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache folder of the test's own, nothing of it known to this process yet."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("CRISIS_NO_CACHE", raising=False)
    monkeypatch.setattr(loader, "_INTERFACE", {})  # the tool's catalogs, read once per process
    monkeypatch.setattr(catalogcache, "_stored", {})
    return tmp_path / "cache" / "crisis" / "catalogs.json"


@pytest.fixture
def parsed(monkeypatch):
    """The catalog files whose YAML is really parsed, by name, in order."""
    names = []
    afresh = yamlfile.YamlFile.load

    def counting(self, budget=None):
        if "locale" in self.path or "interface" in self.path:
            names.append(self.path)
        return afresh(self, budget)

    monkeypatch.setattr(yamlfile.YamlFile, "load", counting)
    return names


def texts(content):
    return {lang: (catalog.messages, catalog.positions) for lang, catalog in content.catalogs.items()}


def forget(monkeypatch):
    """What this process knows of the cache file and the tool's catalogs: as in a new run."""
    monkeypatch.setattr(loader, "_INTERFACE", {})
    monkeypatch.setattr(catalogcache, "_stored", {})


def test_a_second_load_takes_every_language_from_the_cache_as_read(cache, parsed, monkeypatch, tmp_path):
    folder = copy_content(tmp_path)
    first = load_content(folder)
    assert cache.exists() and len(parsed) > 4  # the tool's catalogs and the game's, in English and Spanish
    forget(monkeypatch)
    parsed.clear()
    second = load_content(folder)
    assert parsed == [], "the second load parsed catalog files again"
    assert texts(second) == texts(first) and set(second.catalogs) == {"en", "es"}
    assert second.digest == first.digest  # the files still count in the content's digest
    assert second.catalog("es").text("cli.input.ambiguous_label", text="x", n=2, numbers="1, 2") == \
        first.catalog("es").text("cli.input.ambiguous_label", text="x", n=2, numbers="1, 2")


def test_an_edited_catalog_is_read_afresh(cache, parsed, monkeypatch, tmp_path):
    folder = copy_content(tmp_path)
    load_content(folder)
    replace_in(folder / "locale" / "es" / "board.yaml", "Unionist: Unionista", "Unionist: Unionistas")
    forget(monkeypatch)
    parsed.clear()
    content = load_content(folder)
    assert content.catalog("es").text("sides.Unionist") == "Unionistas"
    assert all("es" in name for name in parsed) and any("board.yaml" in name for name in parsed)


def test_a_catalog_with_a_problem_is_reported_on_every_load(cache, monkeypatch, tmp_path):
    folder = copy_content(tmp_path)
    replace_in(folder / "locale" / "es" / "board.yaml", "Unionist: Unionista", "Unionist: \"Unionista {side\"")
    found = []
    for _ in range(2):
        forget(monkeypatch)
        with pytest.raises(ContentError) as error:
            load_content(folder)
        found.append([(d.path, d.line, d.column, d.message) for d in error.value.diagnostics])
    assert found[0] == found[1] and any("board.yaml" in path for path, *_ in found[0])


def forged(cache, change):
    """The cache file rewritten with every entry changed by ``change``, its digest made to fit
    (as someone who can write the user's files could)."""
    head, _, body = cache.read_bytes().partition(b"\n")
    form, key, _ = head.decode().split(" ")
    entries = json.loads(body)
    for entry in entries.values():
        change(entry)
    cachefolder.write_checked(str(cache.parent), cache.name, form, key, json.dumps(entries).encode())


def too_deep(entry):
    name = next(iter(entry["messages"]))
    entry["messages"][name] = "{a" * (limits.MAX_MESSAGE_DEPTH + 5) + "}" * (limits.MAX_MESSAGE_DEPTH + 5)


def not_text(entry):
    entry["messages"][next(iter(entry["messages"]))] = 7


def nowhere(entry):
    entry["positions"][next(iter(entry["positions"]))] = ["board.yaml", -1, 1]


def uncounted(entry):
    entry["values"] = limits.MAX_CONTENT_VALUES + 1


@pytest.mark.parametrize("change", [too_deep, not_text, nowhere, uncounted])
def test_an_entry_no_reading_could_make_is_not_trusted(cache, parsed, monkeypatch, tmp_path, change):
    folder = copy_content(tmp_path)
    fresh = texts(load_content(folder))
    forged(cache, change)
    forget(monkeypatch)
    parsed.clear()
    assert texts(load_content(folder)) == fresh
    assert parsed  # read again from the files


def test_a_damaged_cache_file_is_read_past(cache, monkeypatch, tmp_path):
    folder = copy_content(tmp_path)
    fresh = texts(load_content(folder))
    cache.write_bytes(cache.read_bytes()[:-100])
    forget(monkeypatch)
    assert texts(load_content(folder)) == fresh


def test_without_a_cache_the_catalogs_are_read_as_ever(tmp_path, monkeypatch, parsed):
    monkeypatch.setenv("CRISIS_NO_CACHE", "1")
    forget(monkeypatch)
    folder = copy_content(tmp_path)
    first = texts(load_content(folder))
    forget(monkeypatch)
    count = len(parsed)
    assert texts(load_content(folder)) == first and len(parsed) == 2 * count
