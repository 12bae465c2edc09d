"""What a person types at a prompt: only ASCII digits make a number ('²' and '٣' pass
str.isdigit(), not int()), a number of thousands of digits is refused in one line, and a line
longer than any prompt takes is refused before any work is done on it -- in the line mode, in
replay --step, and in the full screen."""

import asyncio
import io
import json

import pytest

from crisis.cli import saves
from crisis.cli.session import GameSession, Replay
from crisis.cli.terminal import Terminal
from crisis.cli.text import Presenter
from crisis.cli.typed import PAST_EVERY_CHOICE, typed_number
from crisis.interpreter.engine.game import Options
from crisis.ruleset import limits

from clirun import run_main
from crisis.interpreter.engine.program import program_of

HUGE = "9" * 900  # past Python's own limit once converted a few times over; a typed line may be 1,000
WIDE = {"COLUMNS": "160"}  # each message on one line
NOT_NUMBERS = ["²", "٣", "1_000", "+1", "-1", " 1", "1.0", "0x1", ""]


@pytest.mark.parametrize("text", NOT_NUMBERS)
def test_only_ascii_digits_are_a_number(text):
    assert typed_number(text) is None


def test_a_number_is_read_whatever_its_length_without_being_converted_past_nine_digits():
    assert typed_number("007") == 7 and typed_number("999999999") == 999_999_999
    assert typed_number("9" * 5000) == PAST_EVERY_CHOICE and typed_number("0" * 5000 + "3") == 3


def game_lines(tmp_path, lines, *args):
    """``crisis play`` in the line mode, against the random bot, answering ``lines`` then ending input."""
    return run_main("play", "--vs", "random", "--seed", "3", "--plain", "--save", "g.json", *args,
                    input="".join(line + "\n" for line in lines), cwd=tmp_path, env=WIDE)


def test_strange_numbers_at_a_decision_are_refused_and_asked_again(tmp_path):
    result = game_lines(tmp_path, ["²", "٣", HUGE, "9" * 5000, "card ²", "card " + HUGE, "1"])
    assert result.returncode == 3 and "Something went wrong" not in result.stderr, result.stderr
    assert "'²' is not one of the choices now" in result.stdout
    assert f"There is no choice {'9' * 59}…: choose a number from 1 to" in result.stdout
    alone = tmp_path / "alone"
    alone.mkdir()
    game_lines(alone, ["1"])  # the "1" was taken, nothing else
    assert saved_actions(tmp_path / "g.json") == saved_actions(alone / "g.json") != []


def saved_actions(path):
    return json.loads(path.read_text(encoding="utf-8"))["actions"]


def test_a_megabyte_line_is_refused_before_it_is_compared_with_the_choices(tmp_path, monkeypatch):
    from crisis.cli.text import Presenter

    def never(*args, **kwargs):
        raise AssertionError("a line past the limit reached the matching of actions")
    monkeypatch.setattr(Presenter, "find_action", never)
    monkeypatch.setattr(Presenter, "prefix_matches", never)
    result = game_lines(tmp_path, ["x" * 1_000_000, "card " + "x" * 1_000_000])
    assert result.returncode == 3, result.stderr
    assert result.stdout.count("That line is longer than 1,000 characters") == 2
    assert len(result.stdout) < 200_000  # the line is not echoed in full


def test_the_limit_on_a_line_is_in_the_players_language(tmp_path):
    result = game_lines(tmp_path, ["x" * (limits.MAX_TYPED_CHARS + 1)], "--lang", "es")
    assert "Esa línea tiene más de 1.000 caracteres" in result.stdout


def test_a_line_at_the_limit_is_read_as_any_other(tmp_path):
    result = game_lines(tmp_path, ["x" * limits.MAX_TYPED_CHARS])
    assert "is not one of the choices now" in result.stdout and "longer than" not in result.stdout


def test_the_terminal_keeps_no_more_of_a_line_than_the_limit_and_reads_the_next_line_whole():
    term = Terminal(out=io.StringIO(), inp=io.StringIO("x" * 1_000_000 + "\n1\n" + "y" * 5000))
    assert len(term.ask("> ")) == limits.MAX_TYPED_CHARS + 1
    assert term.ask("> ") == "1"
    assert len(term.ask("> ")) == limits.MAX_TYPED_CHARS + 1  # the last line, with no line end
    with pytest.raises(EOFError):
        term.ask("> ")


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    folder = tmp_path_factory.mktemp("typed")
    result = run_main("play", "--vs", "random", "--seed", "3", "--plain", "--save", "g.json",
                      input="1\n" * 600, cwd=folder)
    assert result.returncode == 0, result.stderr
    return folder / "g.json"


def test_replay_step_refuses_strange_numbers_in_one_line_each(finished):
    answers = ["²", "#²", "round ²", "round " + HUGE, HUGE, "#" + HUGE, "x" * 1_000_000, "q"]
    result = run_main("replay", finished, "--step", "--plain", input="\n".join(answers) + "\n", env=WIDE)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    out = result.stdout
    assert out.count("Press Enter for the next action") == 2  # '²' and '#²' are no action number
    assert "The game has no round '²'." in out and f"The game has no round '{'9' * 59}…'." in out
    assert out.count(f"There is no action {'9' * 59}…") == 2
    assert "That line is longer than 1,000 characters" in out


def test_a_scenario_action_with_a_strange_option_number_is_a_notation_error(content):
    from crisis.interpreter.designer.notation import ActionReader, NotationError
    reader = ActionReader(program_of(content))
    assert reader.parse("option 12").kind == "option"
    for text in ("option ²", "option ٣", "option " + HUGE, "option 0"):
        with pytest.raises(NotationError):
            reader.parse(text)


# ---------------------------------------------------------------- the full screen


def test_the_full_screen_refuses_strange_numbers_and_long_lines(content, tmp_path, finished):
    pytest.importorskip("textual")
    from crisis.cli.tui.app import GameApp
    show = Presenter(content, content.catalog("en"))
    said = []

    async def main():
        session = GameSession(content, show, 3, Options(), [saves.HUMAN, "random"], tmp_path / "t.json")
        app = GameApp(session=session)
        async with app.run_test(size=(120, 40)):
            app.say = lambda text, error=False: said.append(text)
            for line in ("²", HUGE, "card ²", "x" * 1_000_000):
                app.take(line)
            assert session.game.history == []
        watched = Replay(content, show, saves.read(finished, content, {"random"}), finished)
        app = GameApp(replay=watched)
        async with app.run_test(size=(120, 40)):
            app.say = lambda text, error=False: said.append(text)
            for line in ("²", "round ²", "#" + HUGE, "x" * 1_000_000):
                app.replay_command(line)
            assert watched.position == 0
    asyncio.run(main())
    assert "'²' is not one of the choices now" in said[0]
    assert said[1].startswith(f"There is no choice {'9' * 59}…")
    assert said[3].startswith("That line is longer than 1,000 characters")
    assert "Press Enter for the next action" in said[4] and "The game has no round '²'." == said[5]
    assert said[6].startswith(f"There is no action {'9' * 59}…") and said[7].startswith("That line is longer")


# ------------------------------------------------------------------ command words


@pytest.mark.parametrize("typed", ["por qué", "por que", "Por Qué", "porque", "porqué", "POR  QUE"])
def test_why_is_understood_as_a_spanish_speaker_types_it(content, tmp_path, typed):
    show = Presenter(content, content.catalog("es"))
    session = GameSession(content, show, 3, Options(), [saves.HUMAN, saves.HUMAN], tmp_path / "w.json")
    decision = session.decision
    reading = session.read(typed, decision, session.choices(decision))
    assert (reading.kind, reading.command, reading.rest) == ("command", "why", "")
    # a command's words followed by what it takes keep the rest as typed
    card = session.read("carta Fort", decision, session.choices(decision))
    assert (card.kind, card.command, card.rest) == ("command", "card", "Fort")


def test_why_in_two_words_answers_in_the_solo_game(tmp_path):
    result = run_main("play", "--solo", "--lang", "es", "--seed", "3", "--plain", "--save", "s.json",
                      input="1\npor qué\npor que\nporqué\nsalir\n", cwd=tmp_path, env=WIDE)
    assert result.returncode == 0, result.stderr
    answers = [result.stdout.split(f"> {typed}\n", 1)[1].split("\n", 1)[0] for typed in ("por qué", "por que", "porqué")]
    assert answers[0] == answers[1] == answers[2] and not answers[0].startswith("✗")


@pytest.mark.parametrize("typed", ["ab\x00c", "ab\x1b[2Jc", "\x07"])
def test_a_control_character_typed_is_shown_escaped_in_the_message_that_refuses_it(tmp_path, typed):
    result = game_lines(tmp_path, [typed, "1"])
    refusal = next(line for line in result.stdout.splitlines() if "is not one of the choices now" in line)
    assert not any(ord(char) < 32 for char in refusal)
    assert typed.replace("\x00", "\\x00").replace("\x1b", "\\x1b").replace("\x07", "\\x07") in refusal


def at_a_window_with(content, lang, title):
    """A hot-seat session of ``content`` at a card play whose choices show the card ``title``."""
    import random
    for seed in range(1, 40):
        session = GameSession(content, Presenter(content, content.catalog(lang)), seed, Options(),
                              [saves.HUMAN, saves.HUMAN], None)
        pick = random.Random(seed)
        while session.decision is not None and len(session.game.history) < 400:
            decision = session.decision
            menu = session.choices(decision)
            if decision.kind == "play_card" and any(title in choice.description for choice in menu):
                return session, decision, menu
            session.game.apply(decision.actions[pick.randrange(len(decision.actions))])
    raise AssertionError(f"no game came to a window showing {title}")


@pytest.mark.parametrize("lang,title,typed", [("en", "Forced March", ["march", "forced"]),
                                             ("es", "Marcha forzada", ["marcha", "forzada"])])
def test_some_words_of_a_label_do_not_take_a_choice_that_cannot_be_undone(lang, title, typed):
    """At an interrupt window a player who types 'march' (meaning to march next) is not made to
    play the Forced March card: a card shown cannot be taken back, so the words of its label are
    refused with its number; the number, the whole label or the action still take it."""
    from crisis.content.games import games_dir
    from crisis.content.loader import load_content
    content = load_content(games_dir() / "civil-war-card-game")
    session, decision, menu = at_a_window_with(content, lang, title)
    number = next(index for index, choice in enumerate(menu, 1) if title in choice.description)
    played = list(session.game.history)
    for text in typed:
        reading = session.read(text, decision, menu)
        assert reading.kind == "problem" and f" {number} " in reading.problem and title in reading.problem
    assert session.game.history == played
    card = menu[number - 1]
    for text in (str(number), card.description, card.notation):
        reading = session.read(text, decision, menu)
        assert reading.kind == "action" and reading.action is card.action, text


@pytest.mark.parametrize("typed", ["-1", "(1)", "2)", "1.", "#3"])
def test_a_number_with_a_sign_or_brackets_is_no_label(content, typed):
    """Labels show values in brackets ("for its value (1)"): a number typed with a sign or a
    bracket is refused as no choice, not matched against them."""
    session = GameSession(content, Presenter(content, content.catalog("en")), 3, Options(),
                          [saves.HUMAN, saves.HUMAN], None)
    while session.decision.kind != "play_card":
        session.game.apply(session.decision.actions[0])
    decision = session.decision
    menu = session.choices(decision)
    assert any("(1)" in choice.description for choice in menu) or any("(2)" in c.description for c in menu)
    reading = session.read(typed, decision, menu)
    assert reading.kind == "problem" and "fits" not in reading.problem
