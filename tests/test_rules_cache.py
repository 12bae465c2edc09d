"""The parsed-rules cache (ruleset/rulecache.py): a second load of the same content
takes its syntax trees from the cache, equal to a fresh parse with the same
positions; a damaged, forged or foreign file is never trusted; a changed text, or
the same text in a game of other words, is parsed again; errors still point at
file:line:column; a load whose texts are all cached never imports Lark."""

import hashlib
import json

import pytest

from crisis.content.loader import load_content, read_game
from crisis.content.yamlfile import ContentError
from crisis.ruleset import reader, rulecache
from crisis.content.phrases import card_text

from helpers import copy_content


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("CRISIS_NO_CACHE", raising=False)
    return tmp_path / "cache" / "crisis" / "rule-trees.json"


@pytest.fixture
def parsed(monkeypatch):
    """The texts the parser really parses (not those the cache answers), in order."""
    texts = []
    afresh = reader.parse

    def counting(text, lexicon, start="block", source=None):
        texts.append(text)
        return afresh(text, lexicon, start, source)

    monkeypatch.setattr(reader, "parse", counting)
    return texts


@pytest.fixture
def answered(monkeypatch):
    """Every (start, text, tree) a content load's parsing gave, from the cache or not."""
    seen = []
    inner = rulecache.parse

    def recording(text, lexicon, start="block", source=None):
        tree = inner(text, lexicon, start, source)
        seen.append((start, text, lexicon, tree))
        return tree

    import crisis.content.definition as definition
    monkeypatch.setattr(definition, "parse", recording)
    return seen


def _game(content):
    """The content as played: its definition (state, cards, sequence of play, overlay: equal when
    their meanings are) and its digest."""
    definition = content.definition
    return (definition.schema, definition.cards, definition.setup, definition.play, definition.first_player,
            definition.uses, definition.entering, definition.procedures, definition.terms, definition.overlay,
            content.digest)


def _positions(tree):
    return [(type(node).__name__, node.pos) for node in tree.walk()]


def test_a_cached_load_gives_the_trees_of_a_fresh_parse(cache, parsed, answered):
    first = load_content()
    assert cache.exists() and parsed  # the first load parsed and kept its trees
    count = len(parsed)
    answered.clear()
    second = load_content()
    assert len(parsed) == count, "the second load parsed again"
    assert len(answered) > 100  # every rule text of the shipped game, two-player and solo
    for start, text, lexicon, tree in answered:
        fresh = reader.parse(text, lexicon, start)  # outside a load: no cache
        assert tree == fresh, text
        assert _positions(tree) == _positions(fresh), text  # positions are not part of equality
    assert _game(second) == _game(first)
    # the card texts people read, in both languages, come out the same
    for lang in ("en", "es"):
        for _kind, card_id, _field, _rule in first.rule_texts():
            assert card_text(second, second.catalogs[lang], card_id) == card_text(first, first.catalogs[lang], card_id)


def test_the_language_s_own_words_are_known_without_building_the_parser():
    assert rulecache.keywords() == reader.keywords()


def test_a_warm_load_never_imports_lark(cache):
    import subprocess
    import sys
    load_content()  # warms the cache
    script = ("import sys; from crisis.content.loader import load_content; load_content(); "
              "print(sorted(name for name in sys.modules if name == 'lark' or name.startswith('lark.')))")
    env = dict(__import__("os").environ, XDG_CACHE_HOME=str(cache.parent.parent))
    found = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    assert found.stdout.strip() == "[]", found.stdout


def test_the_same_text_in_a_game_of_other_words_is_parsed_again(cache, parsed):
    """A text's tree depends on the game's words (a noun in one game is an unknown word in another)."""
    load_content()
    parsed.clear()
    read_game(__import__("pathlib").Path(__file__).parent / "data" / "three-crowns")
    assert "gain 1 VP" in [text.strip() for text in parsed]  # Fort Sumter's too, but in another game


def _rewrite(path, body: bytes, digest: bool) -> None:
    head = path.read_bytes().partition(b"\n")[0].split(b" ")
    if digest:  # a forgery that also fixes the digest
        head[2] = hashlib.sha256(body).hexdigest().encode()
    path.write_bytes(b" ".join(head) + b"\n" + body)


@pytest.mark.parametrize("damage", ["edited", "forged class", "forged value", "too deep", "truncated",
                                    "foreign", "not json"])
def test_a_damaged_or_forged_cache_is_not_trusted(cache, parsed, damage):
    good = load_content()
    body = cache.read_bytes().partition(b"\n")[2]
    entries = json.loads(body)
    digest, tree = next(iter(entries.items()))
    if damage == "edited":  # the body changed, the digest did not
        _rewrite(cache, body.replace(b'"Place"', b'"Remove"', 1), digest=False)
    elif damage == "forged class":  # no class outside the syntax tree's own is ever looked up
        entries[digest] = ["os.system", 0, "true"]
        _rewrite(cache, json.dumps(entries).encode(), digest=True)
    elif damage == "forged value":
        tree[2] = {"__class__": "object"}
        _rewrite(cache, json.dumps(entries).encode(), digest=True)
    elif damage == "too deep":
        deep = ["Not", 0, None]
        for _ in range(400):
            deep = ["Not", 0, deep]
        entries[digest] = deep
        _rewrite(cache, json.dumps(entries).encode(), digest=True)
    elif damage == "truncated":
        cache.write_bytes(cache.read_bytes()[: len(body) // 2])
    elif damage == "foreign":  # another version's file
        data = cache.read_bytes()
        cache.write_bytes(data.replace(b"crisis-rule-trees/1", b"crisis-rule-trees/0", 1))
    else:
        _rewrite(cache, b"{not json", digest=True)
    parsed.clear()
    again = load_content()
    assert _game(again) == _game(good)
    assert parsed, "the untrusted file was used"
    # and it is written again, whole and trusted
    parsed.clear()
    assert _game(load_content()) == _game(good)
    assert not parsed


def test_a_changed_rule_text_misses_the_cache(cache, parsed, tmp_path):
    root = copy_content(tmp_path)
    load_content(root)
    card_file = root / "cards" / "strategy-both.yaml"
    text = card_file.read_text(encoding="utf-8")
    assert "place 1 " in text
    card_file.write_text(text.replace("place 1 ", "place  1 ", 1), encoding="utf-8")
    parsed.clear()
    load_content(root)
    assert len(parsed) == 1 and "place  1 " in parsed[0]


def test_errors_point_at_the_same_place_with_a_warm_cache(cache, tmp_path):
    root = copy_content(tmp_path)
    card_file = root / "cards" / "strategy-both.yaml"
    text = card_file.read_text(encoding="utf-8")
    # an unknown space: found by the checker, on a tree that comes from the cache the second time
    card_file.write_text(text.replace("place 1 ", "place 1 in Atlantis\n      place 1 ", 1), encoding="utf-8")
    messages = []
    for _ in range(2):
        with pytest.raises(ContentError) as error:
            load_content(root)
        messages.append(str(error.value))
    assert "Atlantis" in messages[0] and "strategy-both.yaml:" in messages[0]
    assert messages[1] == messages[0]


def test_a_text_with_a_syntax_error_is_never_cached(cache, parsed, tmp_path):
    root = copy_content(tmp_path)
    card_file = root / "cards" / "strategy-both.yaml"
    card_file.write_text(card_file.read_text(encoding="utf-8").replace("place 1 ", "plase 1 ", 1),
                         encoding="utf-8")
    for _ in range(2):
        parsed.clear()
        with pytest.raises(ContentError, match="strategy-both.yaml:[0-9]+:[0-9]+"):
            load_content(root)
        assert any("plase 1 " in text for text in parsed)


def test_a_cache_that_cannot_be_written_is_done_without(cache, parsed):
    # a folder where the file should be: it can be neither read nor replaced (even by root,
    # whom a read-only folder would not stop)
    cache.mkdir(parents=True, mode=0o700)
    first = load_content()
    assert cache.is_dir()
    parsed.clear()
    assert _game(load_content()) == _game(first)
    assert parsed  # parsed again, without complaint


def test_no_cache_when_asked(cache, monkeypatch):
    monkeypatch.setenv("CRISIS_NO_CACHE", "1")
    load_content()
    assert not cache.exists()
