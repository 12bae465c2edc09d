"""``crisis cards`` reads like the game's cards in any game: a kind's heading and each field in the
player's language, a caption in that language under the card's line, and no field that says
nothing (an empty place, a rank or a price of 0)."""

import re
import shutil

import pytest

from clirun import run_main
from crisis.content.games import game_path
from crisis.content.loader import load_content
from crisis.interpreter.engine.program import program_of

GAME = "civil-war-card-game"
WIDE = {"COLUMNS": "400"}  # each card's line on one line


@pytest.fixture(scope="module")
def war_cards():
    return load_content(game_path(GAME))


def cards_output(lang, *args):
    result = run_main("cards", "--lang", lang, *args, env=WIDE)
    assert result.returncode == 0, result.stderr
    return result.stdout


def card_lines(out: str) -> list:
    """Each card's line and the lines under it up to the next card, in the order printed."""
    found = []
    for line in out.splitlines()[1:]:
        if re.match(r"\S.* \[[^\]]+\]", line):
            found.append([line])
        elif found and line.strip():
            found[-1].append(line)
    return found


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_card_reads_in_the_players_language_without_empty_fields(war_cards, lang):
    c = war_cards.catalog(lang)
    kind = program_of(war_cards).cards[0]
    cards = dict(zip(kind.ids, card_lines(cards_output(lang, "--game", GAME))))
    assert len(cards) == len(kind.ids)
    label = c.raw("cli.card.war_event_label") or c.text("cli.card.event_label")
    heads = {}
    for card_id, lines in cards.items():
        block = " ".join(" ".join(lines).split())
        head = block.split(" " + label + " ")[0]  # (its line and its caption, before its rule)
        # the caption: the catalog's, in this language, after the card's fields
        caption = " ".join((c.raw(f"cards.{card_id}.caption") or "").split())
        if caption:
            assert head.endswith(" " + caption), (card_id, head)
            head = head[:-len(caption) - 1]
        heads[card_id] = head
        fields = [field.strip() for field in head.split(" · ")[1:]]
        # no field without a value, none at 0 where 0 means it has none (no rank, no price)
        labels = {c.name("fields", name) for name, _ in kind.kind.fields}
        assert not [field for field in fields if field in labels], head
        # none at its default either: a skill of 1, which every card has unless it says otherwise
        nothing = {f"{c.name('fields', name)} {kind.kind.default(name)}" for name, _ in kind.kind.fields
                   if isinstance(kind.kind.default(name), int)}
        assert not [field for field in fields if field in nothing], head
        # every field's name is the catalog's, in this language ("precio 3", not "price 3")
        for name, type_name in kind.kind.fields:
            if c.raw(f"fields.{name}") not in (None, name):
                assert not any(field.startswith(name + " ") for field in fields), (name, head)
    lincoln = heads["abraham-lincoln"]
    side = c.name("sides", "North")
    president = c.text("render.play.noun.president", n=1, form="")
    assert f" · {president} · {side} · " in lincoln  # its kind and side by their names alone
    assert "type" not in lincoln.split("]", 1)[1] and "caption" not in lincoln
    # what sets a card apart is on its line: Jackson's speed, no skill on an interrupt
    assert f" · {c.name('fields', 'speed')} 3" in heads["stonewall-jackson"]
    assert c.name("fields", "power") not in heads["homestead-act"]


def test_a_kinds_heading_is_the_catalogs(tmp_path, war_cards):
    """A kind's heading is the game's (``cli.cards.<word>_heading``), else its name in the general
    wording (``cli.cards.heading``)."""
    n = len(program_of(war_cards).cards[0].ids)
    english = war_cards.catalog("en")
    expected = english.text("cli.cards.war_heading", n=n) if english.raw("cli.cards.war_heading") else \
        english.text("cli.cards.heading", cards="War cards", n=n)
    assert cards_output("en", "--game", GAME).splitlines()[0] == expected
    if war_cards.catalog("es").raw("cli.cards.war_heading"):
        wanted = war_cards.catalog("es").text("cli.cards.war_heading", n=n)
        assert cards_output("es", "--game", GAME).splitlines()[0] == wanted
        return
    folder = tmp_path / GAME  # a heading of its own, given in the Spanish catalog
    shutil.copytree(game_path(GAME), folder)
    interface = folder / "locale" / "es" / "interface.yaml"
    text = interface.read_text(encoding="utf-8")
    interface.write_text(text.replace("\ncli:\n", "\ncli:\n  cards:\n    war_heading: \"Cartas de guerra ({n})\"\n", 1),
                         encoding="utf-8")
    assert cards_output("es", "--content", str(folder)).splitlines()[0] == f"Cartas de guerra ({n})"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_fort_sumters_cards_keep_their_own_lines(content, lang):
    out = cards_output(lang)
    c = content.catalog(lang)
    assert out.splitlines()[0] == c.text("cli.cards.strategy_heading", n=len(program_of(content).cards[0].ids))
    assert "  ·  " in out and not re.search(r"·\s+(space|casilla)\s+·", out)


@pytest.mark.parametrize("lang, words", [("en", "every side"), ("es", "todos los bandos")])
def test_a_game_that_names_no_words_for_every_side_gets_the_tool_s(tmp_path, lang, words):
    """A card whose rule is for every side reads in words the tool supplies where the game gives
    none of its own (a new game showed '<cli.card.event_for_all>' while check said nothing lacked)."""
    from helpers import copy_content
    root = copy_content(tmp_path)
    for catalog in ("en", "es"):
        path = root / "locale" / catalog / "cli.yaml"
        text = path.read_text(encoding="utf-8")
        kept = [line for line in text.splitlines(keepends=True) if "event_for_all" not in line]
        assert len(kept) == len(text.splitlines()) - 2
        path.write_text("".join(kept), encoding="utf-8")
    out = cards_output(lang, "--content", str(root))
    assert words in out
    assert "<cli." not in out
