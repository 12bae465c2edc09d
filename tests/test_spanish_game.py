"""A whole game can be played in Spanish with no English on screen."""

import re

import pytest

from clirun import Session, last_line, run_crisis

WORD = re.compile(r"[A-Za-zÁÉÍÓÚÜÑáéíóúüñ]{4,}")


def words(texts):
    return {w.lower() for text in texts for w in WORD.findall(re.sub(r"\{[^{}]*\}", " ", text))}


@pytest.fixture(scope="module")
def english_only(content):
    """Words of the English catalog that no Spanish text uses (proper names are in both)."""
    english = content.catalog("en").messages.values()
    spanish = content.catalog("es").messages.values()
    return words(english) - words(spanish)


@pytest.fixture(scope="module")
def spanish_game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("es")
    session = Session("play", "--lang", "es", "--seed", "21", "--save", "partida.json", cwd=folder)
    extras = iter(["?", "rules", "rules brecha", "log", "card lincoln", "board", "nada", "99", ""])
    screens = []
    for _ in range(3000):
        out = session.prompt()
        if out is None or not out.endswith("> "):
            break
        line = last_line(out)
        if re.search(r"\[1-\d+\]> $", line):
            session.send(next(extras, "1"))
        else:  # pass the terminal
            session.send("")
    assert session.wait() == 0, session.stderr
    screens.append(session.output)
    screens.append(run_crisis("replay", "partida.json", "--lang", "es", cwd=folder).stdout)
    screens.append(run_crisis("cards", "--lang", "es").stdout)
    return "\n".join(screens)


def test_the_game_is_played_to_the_end_in_spanish(spanish_game):
    assert "Comienza la Crisis Final." in spanish_game
    assert "Puntuación final" in spanish_game
    assert re.search(r"^Gana el (Unionista|Secesionista), \d+ PV a \d+\.$", spanish_game, re.M)
    assert "Pasa el terminal" in spanish_game


def test_no_english_word_is_on_screen(spanish_game, english_only):
    # commands to type ("crisis replay FILE") are program names, not English text
    seen = words([re.sub(r"crisis [a-z0-9]+", " ", spanish_game)])
    leaked = sorted(seen & english_only)
    assert not leaked, f"English words on a Spanish screen: {leaked}"


# ------------------------------------------ Spanish that reads as the rulebook (issue 17, item 10)
# The official Spanish rulebook names the sides with their article ("el Unionista"), marks a
# card's title off from the sentence around it, and uses its map's names the same way every time.

LOWER, UPPER = "a-záéíóúüñ", "A-ZÁÉÍÓÚÜÑ"


@pytest.fixture(scope="module")
def spanish_play(content):
    """What a Spanish player reads in two whole games (two random bots; a random player against the
    Solo Opponent): every log line, every question and every choice offered, and the final score."""
    from crisis.cli.board import Screen
    from crisis.cli.commands import solo_game
    from crisis.cli.terminal import Style
    from crisis.cli.text import Presenter
    from crisis.interpreter.engine.game import Game, Options
    from crisis.interpreter.players.registry import RandomBot

    show = Presenter(content, content.catalog("es"))
    lines = []
    for seed, options in ((1, Options(frozenset({"event_discard"}))), (3, solo_game(content, show, 0, None))):
        game = Game.of(content, seed, options)
        bots = [RandomBot(seed, 0), RandomBot(seed, 1)]
        while not game.over:
            decision = game.decision
            lines.append(show.prompt(game, decision))
            lines.extend(show.action(game, decision, action) for action in decision.actions)
            game.apply(bots[decision.player].choose(game, decision))
        lines.extend(show.log_lines(game.log, game.automa.side if game.automa is not None else None))
        lines.extend(Screen(game, show, Style(False)).result())
    return lines


def names_of(content):
    """What a Spanish text may start with a capital mid-sentence: the board's names, the
    glossary's terms (Casilla Crucial, Oponente en Solitario ...) and PV."""
    from crisis.content.i18n import load_glossary
    catalog = content.catalog("es")
    kinds = ("sides.", "spaces.", "glosses.", "dimensions.", "zones.", "markers.", "terms.")
    names = {v for k, v in catalog.messages.items() if k.startswith(kinds)}
    names |= {v for k, v in catalog.messages.items() if k.startswith("forms.") and k.endswith(".plural")}
    terms, _ = load_glossary(content.root)
    names |= {form for term in terms for form in term.forms.get("es", ())}
    return names | {"PV"}


def titles_of(content):
    catalog = content.catalog("es")
    return ({catalog.text(f"cards.{card_id}.title") for card_id in content.cards("strategy cards").ids}
            | {catalog.text(f"objectives.{card_id}.title") for card_id in content.cards("objective cards").ids})


def stray_capitals(text, names, titles):
    """Capitals a Spanish reader trips on: after a lowercase word ("reclamar La convención"), or
    after a colon that ends a phrase ("al terminar la jugada: Mueve"), unless a name starts
    there.  A title quoted «...» is set off; a list of titles may follow a colon or a comma."""
    text = re.sub(r"«[^»]*»|“[^”]*”", "«»", text)
    for title in sorted(titles, key=len, reverse=True):
        text = re.sub(r"(?<=[:,] )" + re.escape(title) + r"(?!\w)", "_", text)
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(r"(?<!\w)" + re.escape(name) + r"(?!\w)", "_", text)
    return re.findall(rf"\w*[{LOWER}]:? [{UPPER}]\w*", text)


def test_no_capital_mid_sentence_in_what_a_spanish_player_reads(content, spanish_play):
    from crisis.content.phrases import card_text
    catalog = content.catalog("es")
    texts = list(spanish_play)
    with_rules = dict.fromkeys(card_id for _kind, card_id, _field, _text in content.rule_texts())
    texts += [card_text(content, catalog, card_id, inline=True) for card_id in with_rules]
    assert len(with_rules) > 40  # every card with an event (both kinds)
    names, titles = names_of(content), titles_of(content)
    # what the check catches, and what it lets be
    assert stray_capitals("El Secesionista descarta «Arancel Morrill» para reclamar La convención de Montgomery.",
                          names, titles) == ["reclamar La"]
    assert stray_capitals("abre brecha; al terminar la jugada: Mueve 2 fichas", names, titles) == ["jugada: Mueve"]
    assert not stray_capitals("Objetivos robados: The Liberator, La isla de Santa Rosa.", names, titles)
    assert not stray_capitals("coloca una ficha en los Border States y gana 1 PV", names, titles)
    found = {}
    for text in texts:
        for stray in stray_capitals(text, names, titles):
            found.setdefault(stray, text)
    assert not found, "\n".join(f"{stray!r} in: {text}" for stray, text in found.items())


def test_the_sides_are_named_with_their_article(spanish_play):
    sides = "Unionista|Secesionista"
    bare = [line for line in spanish_play
            if re.search(rf"^\s*({sides}) [{LOWER}]|\b(gana|por|Gana) ({sides})\b", line)]
    assert not bare, bare[:5]
    assert any(re.fullmatch(rf"El ({sides}) juega «[^»]+» por su (valor \(\d\)|evento)\.", line) for line in spanish_play)
    assert any(re.fullmatch(rf"Gana el ({sides}), \d+ PV a \d+\.", line) for line in spanish_play)


def test_each_space_is_named_with_or_without_its_article_always_the_same_way(content, spanish_play):
    """The rule (docs/localization.md): a name with a gender in the catalog's forms takes its
    article in running text ("en el Deep South", "del Deep South"); one without never has one
    ("en Fort Sumter").  Lists of names and labels ("legales Deep South, Texas", "casilla Deep South")
    are not running text."""
    catalog = content.catalog("es")
    article = {"m": ("el", "del", "al"), "f": ("la",), "mpl": ("los",), "fpl": ("las",)}
    articles = {word for words in article.values() for word in words}
    # the solo opponent's reasons list the legal spaces ("legales Deep South, Texas → Texas")
    running = [line for line in spanish_play if "→" not in line and not line.startswith("Tirada de dado")]
    assert len(running) > 1000
    wrong = []
    for space in content.places:
        name, gender = catalog.name("spaces", space), catalog.form("spaces", space, "gender")
        for line in running:
            for before in re.findall(r"(\w+) " + re.escape(name) + r"(?!\w)", re.sub(r"«[^»]*»", "", line)):
                right = before in article[gender] if gender else before not in articles
                if not right:
                    wrong.append(f"{before} {name}: {line}")
    assert not wrong, wrong[:5]


def test_a_spanish_text_that_cannot_be_filled_gives_way_to_the_english_one(tmp_path, monkeypatch):
    """A translator's misspelt placeholder ('{playr}') in the prompt to play a card: the player
    reads the English prompt, as for a text not translated yet, not '<decision.play_card>'."""
    from clirun import run_main
    from helpers import copy_content, replace_in
    root = copy_content(tmp_path)
    replace_in(root / "locale" / "es" / "messages.yaml", '  play_card: "{player}: juega una carta',
               '  play_card: "{playr}: juega una carta')
    monkeypatch.chdir(tmp_path)  # (where the game is saved)
    played = run_main("play", "--content", root, "--lang", "es", "--vs", "random", "--seed", "2", "--plain",
                      input="1\n1\nsalir\n")
    assert played.returncode == 0, played.stderr
    assert "<decision.play_card>" not in played.stdout
    # (the English text, filled in with the Spanish game's names, as a text not translated yet is)
    assert re.search(r"(Unionista|Secesionista): play a card, for its value or its event", played.stdout)
