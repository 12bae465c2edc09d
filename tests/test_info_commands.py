"""What a player asks for at a prompt (card, rules, ?) in any game: read from the game's content,
never from one game's tables."""

import re
import shutil

import pytest

from clirun import run_main
from crisis.content.loader import default_content_dir


def test_card_rules_and_help_answer_in_the_civil_war_card_game(tmp_path):
    result = run_main("play", "--game", "civil-war-card-game", "--vs", "random", "--seed", "3", "--plain",
                      "--save", "g.json", input="card 1\nrules\nrules steps\n?\nquit\n", cwd=tmp_path)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "went wrong" not in out + result.stderr
    first = re.search(r"^ +1 +\S+ (\S+) ", out, re.M).group(1)  # the card the first choice names
    assert re.search(rf"^\S.* \[{first}\]  ·  ", out, re.M), out
    assert "  steps: the whole sequence of play" in out  # every game has the sequence of play as a topic
    assert "Before the first round:" in out and "Players take turns, the leader first" in out
    assert "<cli.help." not in out  # a decision the catalog has no help for says the rule carried out
    assert "Now carrying out: " in out


def test_rules_summaries_quote_the_numbers_the_rules_write(tmp_path):
    """The numbers a summary quotes come from the rules that play: a copy of Fort Sumter that
    deals 5 cards a round for 4 rounds says so."""
    root = tmp_path / "variant"
    shutil.copytree(default_content_dir(), root)
    sequence = root / "sequence.yaml"
    text = sequence.read_text(encoding="utf-8")
    assert "each player draws 4 cards from the strategy deck" in text
    sequence.write_text(text.replace("each player draws 4 cards from the strategy deck",
                                     "each player draws 5 cards from the strategy deck"), encoding="utf-8")
    state = root / "state.yaml"
    text = state.read_text(encoding="utf-8")
    assert "  round:                     # rulebook: Game Play -- three rounds\n    from: 1\n    to: 3\n" in text
    state.write_text(text.replace("    from: 1\n    to: 3\n", "    from: 1\n    to: 4\n", 1), encoding="utf-8")
    result = run_main("play", "--content", root, "--vs", "random", "--seed", "3", "--plain", "--save", "g.json",
                      input="rules goal\nrules round\nquit\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    text = " ".join(result.stdout.split())
    assert "For 4 rounds they play cards" in text
    assert "both players get 5 strategy cards and 2 objective cards" in text
    assert "until each has played 3" in text


@pytest.mark.parametrize("typed, meant", [("winfeld", "Winfield Scott"), ("garison", "William Lloyd Garrison"),
                                          ("Winfeld Scott", "Winfield Scott")])
def test_a_misspelt_card_is_guessed_from_the_words_of_the_titles(content, typed, meant):
    """'card winfeld' guessed the objective 'springfield' (the closest whole id); a word of a
    title misspelt names that card."""
    from crisis.cli.board import Screen
    from crisis.cli.info import card_query
    from crisis.cli.terminal import Style
    from crisis.cli.text import Presenter
    from crisis.interpreter.engine.game import Game
    screen = Screen(Game.of(content, 1), Presenter(content, content.catalog("en")), Style(False), 100)
    found, problem = card_query(screen, typed, None)
    assert found == [] and problem == f"There is no card called '{typed}'. Did you mean '{meant}'?"
