"""The solo game: the game plays one side from its content (docs/solo.md).

What a player notices: the solo opponent never asks anyone for its own
choices, explains each one, plays the same way again from the same seed and
the player's actions, starts with its difficulty's VP, and beats a player who
plays at random.
"""

import re

import pytest

from crisis.cli.main import main
from crisis.interpreter.engine.game import Game, Options, replay as replay_actions
from crisis.interpreter.players.registry import RandomBot
from crisis.ruleset.diagnostics import UserError
from crisis.interpreter.engine.program import program_of


def replay(content, seed, options, actions) -> Game:
    return replay_actions(program_of(content), seed, options, actions, content=content)


def play_solo(content, seed, opponent="Secessionist", difficulty=None):
    game = Game.of(content, seed, Options(solo=opponent, difficulty=difficulty))
    bot = RandomBot(seed, 1 - game.automa.side)
    while not game.over:
        decision = game.decision
        assert decision.player != game.automa.side, "the solo opponent's own choices are never asked"
        game.apply(bot.choose(game, decision))
    return game


def vp(game) -> list:
    return [game.view.counter("VP", side) for side in (0, 1)]


@pytest.mark.parametrize("opponent", ["Unionist", "Secessionist"])
def test_a_solo_game_ends_and_every_choice_of_the_opponent_says_why(content, opponent):
    game = play_solo(content, 11, opponent)
    assert game.result.winner in (0, 1)
    traces = [e for e in game.log if e.key == "log.solo.choice"]
    assert traces and all(e.params["parts"] for e in traces)
    assert any(part["kind"] == "table" for e in traces for part in e.params["parts"])


def test_the_seed_and_the_players_actions_replay_the_opponent_exactly(content):
    game = play_solo(content, 5)
    again = replay(content, 5, game.options, game.history)
    assert [(e.key, e.params.get("action")) for e in again.log] == [(e.key, e.params.get("action")) for e in game.log]
    assert again.view.snapshot() == game.view.snapshot()


def test_the_difficulty_sets_the_opponents_starting_vp_and_event_discard_is_on(content):
    assert vp(Game.of(content, 1, Options(solo="Unionist", difficulty="challenge"))) == [3, 0]
    game = Game.of(content, 1, Options(solo="Secessionist"))
    assert vp(game) == [0, 0] and game.options.difficulty == "normal" and "event_discard" in game.options.flags


@pytest.mark.parametrize("options, message", [
    (Options(solo="Confederate"), "unknown side 'Confederate'"),
    (Options(solo="Unionist", difficulty="brutal"), "unknown difficulty 'brutal'"),
    (Options(difficulty="hard"), "only for a solo game"),
])
def test_bad_solo_options_are_refused_with_a_reason(content, options, message):
    with pytest.raises(UserError) as raised:
        Game.of(content, 1, options)
    assert message in raised.value.diagnostics[0].message


def test_the_opponent_beats_a_random_player_most_of_the_time(content):
    wins = sum(play_solo(content, seed, side).result.winner == program_of(content).schema.sides.index(side)
               for seed in range(6) for side in ("Unionist", "Secessionist"))
    assert wins >= 9  # 75% of 12; measured over 10,000 games per side in docs/solo.md


def crisis(capsys, *args):
    """The ``crisis`` command run in this process: (exit status, output, errors)."""
    code = main([*args, "--lang", "en"] if "--lang" not in args else list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_bots_solo_prints_the_whole_game_with_reasons_and_the_same_log_for_the_same_seed(capsys):
    code, first, errors = crisis(capsys, "play", "--bots", "--solo", "--seed", "4")
    assert code == 0, errors
    assert crisis(capsys, "play", "--bots", "--solo", "--seed", "4")[1] == first
    assert "why: Place or Replace table: legal" in first
    assert "(the Solo Opponent) reveals" in first and "wins" in first


def test_the_game_over_line_gives_the_winners_vp_first_whichever_side_wins(capsys):
    import re
    winners = set()
    for player in ("union", "secessionist"):  # the Solo Opponent wins: each side wins once
        out = crisis(capsys, "play", "--bots", "--solo", "--side", player, "--seed", "4")[1]
        # the final score's headline names the winner once, with the winner's VP first
        winner, won, lost = re.search(r"^(\w+) wins, (\d+) VP to (\d+)\.$", out, re.M).groups()
        assert int(won) >= int(lost) and out.count(f"{winner} wins") == 1
        winners.add(winner)
    assert winners == {"Unionist", "Secessionist"}


def test_the_aid_is_printed_from_the_rules_in_each_language(capsys):
    code, english, errors = crisis(capsys, "aid", "--side", "secessionist")
    assert code == 0, errors
    assert "Select where to Place or Replace tokens" in english
    assert "  7. Secession spaces\n" in english  # its rows are authored: the top of the aid says so, once
    assert "Peace Commissioner" in english
    code, spanish, errors = crisis(capsys, "aid", "--side", "union", "--lang", "es")
    assert code == 0, errors
    assert "Dónde retirar fichas" in spanish and "casillas de Opinión Pública" in spanish


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_aid_fits_a_narrow_terminal(capsys, monkeypatch, lang):
    """Its rows and headings wrap at the terminal's width (they were laid out for 96 columns)."""
    monkeypatch.setenv("COLUMNS", "60")
    code, out, errors = crisis(capsys, "aid", "--lang", lang)
    assert code == 0, errors
    lines = out.splitlines()
    assert len(lines) > 40 and max(len(line) for line in lines) <= 60
    assert any(len(line) > 50 for line in lines)  # wrapped, not cut short


def test_sim_solo_reports_the_opponents_win_rate_for_each_side(capsys):
    code, out, errors = crisis(capsys, "sim", "--solo", "--games", "3", "--difficulty", "hard")
    assert code == 0, errors
    assert out.count("Solo Opponent as") == 2 and "(hard)" in out
    assert re.search(r"\d+ games? per second", out)
    assert re.search(r"^Played by \d+ process(es)?\.$", out, re.M)  # as the two-player summary says


@pytest.mark.parametrize("args, message", [
    (("play", "--solo", "--difficulty", "brutal"), "is not a difficulty"),
    (("play", "--difficulty", "hard"), "use it with --solo"),
    (("play", "--solo", "--vs", "bot"), "takes no --vs"),
])
def test_solo_usage_errors_exit_2_with_a_message(capsys, args, message):
    code, _, errors = crisis(capsys, *args)
    assert code == 2 and message in errors and "Traceback" not in errors


def test_the_shipped_scenarios_show_every_row_of_every_aid_decide_a_selection(content):
    from crisis.content.loader import default_content_dir
    from crisis.interpreter.designer.coverage import Coverage
    from crisis.interpreter.designer.scenario import run_file, scenario_files
    coverage = Coverage(content.definition)
    for path in scenario_files([default_content_dir() / "scenarios" / "solo"]):
        for outcome in run_file(coverage.program, content.root, path, coverage.start):
            assert outcome.passed, (outcome.name, outcome.problems)
    summary = {kind: (hit, total) for kind, hit, total in coverage.summary()}
    hit, total = summary["solo_table_row"]
    aids = content.definition.overlay.aids
    assert total == sum(len(rows) for tables in aids.values() for rows in tables.values()) == 40
    assert hit == total, [f"{i.where} {i.label}" for i in coverage.missed({"solo_table_row"})]
    hit, total = summary["solo_priority_line"]
    assert hit == total, [f"{i.where} {i.label}" for i in coverage.missed({"solo_priority_line"})]


def test_zones_breached_by_the_opponents_event_are_resolved_before_it_removes_a_token(content):
    """Solo rulebook, step 4: "move the bonus tokens ... before continuing" (docs/rulings.md, S16):
    the opponent's event breaches its Tension zone; its bonus tokens are in its pool, and the player
    places the Peace Commissioner, before the opponent removes a player token (the shipped scenarios
    of its turn, played on the engine)."""
    from crisis.content.loader import default_content_dir
    from crisis.interpreter.designer.scenario import run_file
    outcomes = run_file(program_of(content), content.root, default_content_dir() / "scenarios" / "solo" / "turn.yaml")
    ordered = [o for o in outcomes if "resolved before it removes" in o.name or "shields a space" in o.name]
    assert len(ordered) == 2 and all(o.passed for o in ordered), [(o.name, o.problems) for o in ordered]


def test_a_saved_solo_game_shows_each_choice_of_the_opponent_with_its_reason(content, tmp_path):
    import json
    from crisis.cli import saves
    from crisis.cli.session import GameSession
    from crisis.cli.text import Presenter
    session = GameSession(content, Presenter(content, content.catalog("en")), 4,
                          Options(frozenset({"event_discard"}), solo="Secessionist", difficulty="normal"),
                          [saves.HUMAN, saves.SOLO], tmp_path / "solo.json")
    bot = RandomBot(4, 0)
    for _ in range(40):
        session.apply(bot.choose(session.game, session.game.decision))
    data = json.loads((tmp_path / "solo.json").read_text(encoding="utf-8"))
    assert data["options"] == {"event_discard": True, "solo": "Secessionist", "difficulty": "normal"}
    assert data["controllers"] == {"Unionist": "human", "Secessionist": "solo"}
    choices = data["automa"]
    assert choices and all(c["why"] for c in choices)
    assert any(c["action"].startswith("Secessionist places a token in") and "table: legal" in c["why"]
               for c in choices)
    again = replay(content, 4, Options.from_dict(data["options"], ("event_discard",)), data["actions"])
    assert again.view.snapshot() == session.game.view.snapshot()
    # the file with its list of choices is a saved game like any other: it resumes and replays
    assert saves.read(tmp_path / "solo.json", content, ()).actions == data["actions"]
    data["automa"][0]["why"] = 7
    (tmp_path / "bad.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(saves.SaveProblem) as problem:
        saves.read(tmp_path / "bad.json", content, ())
    assert problem.value.params["field"] == "automa"


def test_a_solo_game_saved_in_the_first_format_still_resumes(content, tmp_path):
    """Version 1 of the saved-game format named the automated opponent's record after Fort Sumter's
    Solo Opponent (cli/saved-game-formats.yaml); such a file resumes, and a problem in it is named
    by the entry the file has."""
    import json
    from crisis.cli import saves
    from crisis.cli.session import GameSession
    from crisis.cli.text import Presenter
    session = GameSession(content, Presenter(content, content.catalog("en")), 4, Options(solo="Secessionist"),
                          [saves.HUMAN, saves.SOLO], tmp_path / "solo.json")
    bot = RandomBot(4, 0)
    for _ in range(30):
        session.apply(bot.choose(session.game, session.game.decision))
    data = json.loads((tmp_path / "solo.json").read_text(encoding="utf-8"))
    assert data["version"] == saves.VERSION > 1 and data["automa"]
    first = dict(data, version=1, solo_opponent=data["automa"])
    del first["automa"]
    (tmp_path / "first.json").write_text(json.dumps(first), encoding="utf-8")
    resumed = saves.read(tmp_path / "first.json", content, ())
    assert resumed.actions == data["actions"] and resumed.version == 1
    first["solo_opponent"] = "lost"
    (tmp_path / "first.json").write_text(json.dumps(first), encoding="utf-8")
    with pytest.raises(saves.SaveProblem) as problem:
        saves.read(tmp_path / "first.json", content, ())
    assert problem.value.params["field"] == "solo_opponent"
    # the newer name in a file of the first version is not what that version wrote
    (tmp_path / "mixed.json").write_text(json.dumps(dict(data, version=1)), encoding="utf-8")
    with pytest.raises(saves.SaveProblem) as problem:
        saves.read(tmp_path / "mixed.json", content, ())
    assert problem.value.params["field"] == "automa"


def test_why_after_a_turn_decided_by_its_tests_shows_those_tests(content, tmp_path):
    """Seed 9: the Solo Opponent's first turn uses the event of the card on top of the discard pile
    and each of its token steps has one legal space, so the reason for what it did is its turn's
    tests, not a table: 'why' shows them (it used to say it had not chosen yet)."""
    from crisis.cli import saves
    from crisis.cli.info import solo_why_lines
    from crisis.cli.session import GameSession
    from crisis.cli.text import Presenter
    session = GameSession(content, Presenter(content, content.catalog("en")), 9,
                          Options(frozenset({"event_discard"}), solo="Secessionist", difficulty="normal"),
                          [saves.HUMAN, saves.SOLO], tmp_path / "solo.json")
    for _ in range(3):  # keep an objective, play a card for its value, place its token
        session.apply(session.game.decision.actions[0])
    lines = solo_why_lines(session)
    assert "reveals Baltimore Plot" in lines[1]
    assert lines[-2].endswith("is at most the value of the revealed card? Yes.")
    assert lines[-1] == "  → Secessionist carries out the event of Edmund Ruffin."


@pytest.mark.parametrize("command", ["play", "sim"])
def test_a_game_without_a_solo_mode_says_so_in_a_player_s_words(command):
    from clirun import run_main
    result = run_main(command, "--solo", "--game", "civil-war-card-game", input="")
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "The Civil War Card Game has no solo mode" in result.stderr


def test_help_names_why_where_the_game_plays_a_side_and_not_between_two_people(tmp_path):
    """'?' in the solo game lists 'why', its main command (F1 and '?' never named it); a game of
    two people, where nobody's choices are explained, does not."""
    from clirun import run_main
    solo = run_main("play", "--solo", "--seed", "5", "--save", "s.json", input="?\nquit\n", cwd=tmp_path)
    assert "why tells you why the other side made its last choice" in " ".join(solo.stdout.split())
    people = run_main("play", "--seed", "5", "--save", "p.json", input="\n?\nquit\n", cwd=tmp_path)
    assert "tells you why" not in " ".join(people.stdout.split())


def test_the_solo_game_names_the_optional_rules_its_overlay_sets_in_the_games_own_words(tmp_path):
    """The solo overlay's options (Fort Sumter's: Event Discard) are said at the start as any
    optional rule in use is, from the game's catalog: the tool's text of the solo game named
    Fort Sumter's rule itself, which another game's solo mode would have printed too."""
    from clirun import run_main
    for lang, said in (("en", "Optional rule in use: Event Discard."),
                       ("es", "Regla opcional en uso: Descarte de Eventos.")):
        result = run_main("play", "--solo", "--side", "union", "--plain", "--seed", "3", "--lang", lang,
                          "--save", tmp_path / f"solo-{lang}.json", input="quit\n")
        assert result.returncode == 0, result.stderr
        assert result.stdout.count(said) == 1
