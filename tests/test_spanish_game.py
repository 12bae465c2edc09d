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
    assert re.search(r"^Gana (Unionista|Secesionista)\.$", spanish_game, re.M)
    assert "Pasa el terminal" in spanish_game


def test_no_english_word_is_on_screen(spanish_game, english_only):
    # commands to type ("crisis replay FILE") are program names, not English text
    seen = words([re.sub(r"crisis [a-z0-9]+", " ", spanish_game)])
    leaked = sorted(seen & english_only)
    assert not leaked, f"English words on a Spanish screen: {leaked}"
