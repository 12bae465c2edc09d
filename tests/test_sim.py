"""crisis sim: the same results for any number of processes, records, JSON, progress,
Ctrl-C, bad numbers; and the batch API other long jobs use."""

import json
import os
import pty
import re
import select
import signal
import subprocess
import time

import pytest

from clirun import crisis_command, run_crisis
from crisis.interpreter import batch
from crisis.interpreter.engine.game import Options

TIMING = ("seconds", "games_per_second", "processes")


def summary(result):
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    return {k: v for k, v in data.items() if k not in TIMING}


@pytest.mark.parametrize("asked", [("--option", "event discard"), ("--option", "Event_Discard"),
                                   ("--option", "event-discard"), ("--event-discard",)])
def test_an_optional_rule_is_asked_for_by_its_name_or_its_own_flag(asked):
    """``--option NAME`` takes the name as the rules write it (any case, spaces, underscores or
    dashes); the rule's own flag, its name with dashes, does the same."""
    from clirun import run_main
    with_rule = summary(run_main("sim", "--games", "6", "--json", *asked))
    assert with_rule["options"] == {"event_discard": True}
    assert with_rule == summary(run_main("sim", "--games", "6", "--json", "--option", "event discard"))


@pytest.mark.parametrize("asked, said", [
    # the game and the rule by the names players read (the catalog's title, report.options.<rule>)
    (("--option", "evnt discard"), "Fort Sumter has no optional rule 'evnt discard'. Did you mean 'Event Discard'?"),
    (("--event-discrd",), "Fort Sumter has no optional rule '--event-discrd'. Did you mean '--event-discard'?"),
    (("--lang", "es", "--event-discrd"), "Fort Sumter no tiene ninguna regla opcional «--event-discrd». "
                                         "¿Querías decir «--event-discard»?"),
    (("--solo", "--option", "evnt"), "Fort Sumter has no optional rule 'evnt'."),  # the solo statistics too
])
def test_an_optional_rule_the_game_lacks_is_a_one_line_error(asked, said):
    from clirun import run_main
    result = run_main("sim", "--games", "2", *asked)
    assert result.returncode == 2 and result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(said)


def test_a_mistyped_flag_of_the_command_is_not_taken_for_an_optional_rule():
    from clirun import run_main
    result = run_main("sim", "--games", "2", "--jsno")
    assert result.returncode == 2 and "--jsno" in result.stderr and "optional rule" not in result.stderr


def test_any_number_of_processes_gives_the_same_summary_and_records(tmp_path):
    outputs = []
    for jobs in (1, 2, 3):
        path = tmp_path / f"records-{jobs}.jsonl"
        result = run_crisis("sim", "--games", "24", "--seed", "7", "--jobs", jobs, "--json",
                            "--records", path, "--event-discard")
        outputs.append((summary(result), path.read_text(encoding="utf-8")))
    assert outputs[0] == outputs[1] == outputs[2]
    data, lines = outputs[0]
    assert data["games"] == 24 and data["first_seed"] == 7 and data["last_seed"] == 30 and not data["partial"]
    assert data["options"] == {"event_discard": True}
    plain = summary(run_crisis("sim", "--games", "2", "--json"))
    assert plain["options"] == {"event_discard": False}


def test_records_have_one_line_per_game_in_seed_order(tmp_path):
    path = tmp_path / "games.jsonl"
    result = run_crisis("sim", "--games", "25", "--seed", "100", "--records", path, "--json", "--jobs", "2",
                        "--event-discard")
    data = summary(result)
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [r["seed"] for r in records] == list(range(100, 125))
    assert sum(r["winner"] == "Unionist" for r in records) == data["wins"]["Unionist"]
    vp = [r["counters"]["VP"] for r in records]
    assert sum(v["Secessionist"] for v in vp) / 25 == pytest.approx(data["mean_counters"]["VP"]["Secessionist"])
    assert {str(r["counters"]["round"]) for r in records} == set(data["final_counters"]["round"])
    first = records[0]
    assert set(first) >= {"seed", "winner", "tie_break", "counters", "plays", "entered", "kept", "first_players",
                          "actions"}
    plays = [p for r in records for p in r["plays"]]
    assert {p["side"] for p in plays} == {"Unionist", "Secessionist"} and all(p["card"] for p in plays)
    assert {(p["use"], p["carried_out"]) for p in plays} == {("value", None), ("event", "event"), ("claim", "event")}
    assert len(plays) == sum(sum(uses.values()) for uses in data["card_plays"].values())
    for r in records:  # each side entered each zone of the crisis track at most once, in order
        for zone, sides in r["entered"]["crisis track"].items():
            assert zone in ("Escalation", "Tension", "Final Crisis") and len(set(sides)) == len(sides) <= 2
        assert [k["counters"]["round"] for k in r["kept"]] == sorted(2 * list(range(1, r["counters"]["round"] + 1)))
        assert all(k["kind"] == "objective cards" and k["into"] == "objective" for k in r["kept"])
        assert [f["step"] for f in r["first_players"]] == ["card play"] * r["counters"]["round"] + ["final crisis"]
    assert any(k["carried_out"] == "event" for r in records for k in r["kept"])
    tie_broken = [r for r in records if r["tie_break"] is not None]
    assert all(r["counters"]["VP"]["Unionist"] == r["counters"]["VP"]["Secessionist"] for r in tie_broken)


def test_the_seed_of_each_game_does_not_depend_on_the_first_one(tmp_path):
    """Game i uses seed S + i: a run from seed 10 repeats the later games of a run from seed 1."""
    first, later = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    summary(run_crisis("sim", "--games", "15", "--seed", "1", "--records", first, "--json"))
    summary(run_crisis("sim", "--games", "6", "--seed", "10", "--records", later, "--json", "--jobs", "2"))
    assert first.read_text().splitlines()[9:] == later.read_text().splitlines()


@pytest.mark.parametrize("arguments", [("--games", "0"), ("--games", "-5"), ("--games", "lots"), ("--jobs", "0"),
                                       ("--jobs", "-1"), ("--seed", "-1"), ("--games", "2.5"),
                                       ("--seed", "1000000000")])
def test_bad_numbers_get_one_line_and_exit_status_2(arguments):
    result = run_crisis("sim", *arguments)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and arguments[0] in lines[0] and "Traceback" not in result.stderr


def test_every_games_seed_is_one_a_saved_game_holds():
    """A record's seed can be played again with ``crisis play --seed``: no run goes past the
    largest seed a saved game holds."""
    from clirun import run_main
    result = run_main("sim", "--seed", "999999999", "--games", "2")
    assert result.returncode == 2 and result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("2 games from seed 999999999 would go past seed 999,999,999")
    assert run_main("sim", "--seed", "999999999", "--games", "1").returncode == 0


def test_spanish_numbers_and_words(tmp_path):
    result = run_crisis("sim", "--games", "30", "--lang", "es", "--jobs", "2")
    assert result.returncode == 0, result.stderr
    assert re.search(r"^Unionista: ganó \d+ \(\d+,\d%\), PV finales de media \d+,\d\d$", result.stdout, re.M)
    assert re.search(r"^30 partidas en \d+,\d\d s", result.stdout, re.M)
    assert "Jugadas por 2 procesos." in result.stdout


def test_check_reports_that_invariants_held():
    result = run_crisis("sim", "--games", "10", "--check")
    assert result.returncode == 0, result.stderr
    assert "Invariants checked after every action: all held." in result.stdout


def test_a_broken_invariant_is_reported_with_its_seed_and_exit_status_1(monkeypatch, content, capsys):
    from crisis.cli import main as cli
    calls = {"n": 0}

    def flaky(program, position):
        calls["n"] += 1
        layout, values = program.layout, position.values
        round_, vp = (values[layout.counter[program.counter_index[name]]] for name in ("round", "VP"))
        return ["a token went missing"] if round_ == 2 and vp >= 1 else []
    monkeypatch.setattr(batch, "check_position", flaky)
    code = cli.main(["sim", "--games", "12", "--seed", "3", "--check", "--jobs", "1", "--lang", "en"])
    out = capsys.readouterr().out
    assert calls["n"] > 0 and code == 1
    assert re.search(r"^Invariants broken in \d+ games? \(stopped there\):$", out, re.M)
    assert re.search(r"^  seed \d+: after action \d+: a token went missing$", out, re.M)


def test_no_progress_bar_on_a_pipe():
    result = run_crisis("sim", "--games", "30")
    assert result.returncode == 0 and result.stderr == ""


def test_a_progress_bar_on_a_terminal():
    """On a terminal, standard error shows the bar: games done, games per second, time left."""
    master, slave = pty.openpty()
    env = dict(os.environ, TERM="xterm", COLUMNS="100", LANG="C", LC_ALL="", LANGUAGE="")
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen(crisis_command() + ["sim", "--games", "700", "--jobs", "1"], stdout=subprocess.PIPE,
                            stderr=slave, env=env)
    os.close(slave)
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        seen += chunk
    proc.wait(timeout=60)
    os.close(master)
    text = seen.decode("utf-8", "replace")
    assert proc.returncode == 0
    assert "Games" in text and re.search(r"\d+/700", text) and "games/s" in text
    assert "700 games in" in proc.stdout.read().decode()


def test_ctrl_c_stops_and_reports_the_games_finished_as_partial(tmp_path):
    path = tmp_path / "records.jsonl"
    env = dict(os.environ, LANG="C", LC_ALL="", LANGUAGE="")
    proc = subprocess.Popen(crisis_command() + ["sim", "--games", "1000000", "--jobs", "2", "--json",
                                                "--records", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not path.exists() or path.stat().st_size == 0):
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    data = json.loads(out)
    assert data["partial"] is True and 0 < data["games"] < 1000000
    assert data["last_seed"] == data["first_seed"] + data["games"] - 1
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == data["games"]  # every finished game, whole lines only
    assert [json.loads(line)["seed"] for line in lines] == list(range(1, data["games"] + 1))
    assert "Traceback" not in err


def test_ctrl_c_partial_summary_in_words(tmp_path):
    path = tmp_path / "records.jsonl"
    proc = subprocess.Popen(crisis_command() + ["sim", "--games", "1000000", "--jobs", "1", "--records", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, LANG="C", LC_ALL="", LANGUAGE=""))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not path.exists() or path.stat().st_size == 0):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert re.search(r"^Interrupted: these are the results of the first \d+ of the 1000000 games asked "
                     r"\(seeds 1 to \d+\)\.$", out, re.M)
    assert re.search(r"^\d+ games? in [\d.]+ s", out, re.M)


# ------------------------------------------------------------------ the API


def test_the_batch_api_merges_chunks_to_the_totals_of_one_run(content):
    job = batch.Job(content, Options())
    whole = batch.Summary()
    for record in job.play(range(5, 45)):
        whole.add(record)
    merged = batch.Summary()
    for chunk in batch.run(job, 5, 40, jobs=2, largest_chunk=7):
        merged.merge(chunk.summary)
    assert merged == whole
    assert batch.play_batch(job, range(5, 45), jobs=1) == whole


def test_the_mean_score_leaves_out_the_games_won_at_once():
    """The Civil War Card Game scores VP only at the armistice: a game won at once ends 0 to 0,
    which is no score. The mean is the scored games' (it was 1.16 VP over mostly unscored games)."""
    from crisis.content.games import game_path
    from crisis.content.loader import load_content
    from crisis.interpreter.engine.layout import AT_ONCE
    content = load_content(game_path("civil-war-card-game"))
    job = batch.Job(content, Options(), controllers=("random", "heuristic"))
    records = list(job.play(range(1, 31)))
    total = batch.Summary()
    for record in records:
        total.add(record)
    scored = [r for r in records if r.tie_break != AT_ONCE]
    assert 0 < len(scored) < len(records) and total.at_once == len(records) - len(scored)
    score = batch.reading_of(batch.program_of(content)).score
    for side in (0, 1):
        expected = sum(r.counters[score][side] for r in scored) / len(scored)
        assert total.scored_mean(score, side) == pytest.approx(expected)
    halves = batch.Summary(), batch.Summary()
    for index, record in enumerate(records):
        halves[index % 2].add(record)
    halves[0].merge(halves[1])
    assert halves[0].scored_mean(score, 1) == pytest.approx(total.scored_mean(score, 1))


def test_controllers_are_chosen_by_name(content):
    job = batch.Job(content, controllers=("random", "random"))
    assert [f.name for f in job.factories] == ["random", "random"]
    with pytest.raises(KeyError, match="no controller named 'genius'.*random"):
        batch.Job(content, controllers=("random", "genius"))


def test_a_registered_controller_plays_in_batches(content, monkeypatch):
    from crisis.interpreter.players import registry

    class FirstChoice:
        """Always the first legal action (not a Controller subclass: it is found only as registered)."""

        name = "first-choice"

        def __init__(self, seed, side):
            pass

        def choose(self, game, decision):
            return decision.actions[0]
    monkeypatch.setitem(registry._REGISTERED, "first-choice", FirstChoice)
    records = list(batch.Job(content, controllers=("first-choice", "random")).play(range(3)))
    assert all(r.winner in (0, 1) for r in records)
    assert records == list(batch.Job(content, controllers=("first-choice", "random")).play(range(3)))
    assert records != list(batch.Job(content).play(range(3)))


@pytest.mark.parametrize("option", [["--records", "games.jsonl"], ["--check"], ["--ray"],
                                    ["--coverage"], ["--bot", "union=heuristic"], ["--bot", "secessionist=random"]])
def test_options_the_solo_statistics_would_ignore_are_refused(option, capsys, tmp_path, monkeypatch):
    from crisis.cli import main as cli
    monkeypatch.chdir(tmp_path)
    code = cli.main(["sim", "--solo", "--games", "2", *option, "--lang", "en"])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err.strip() == f"{option[0]} is not available with --solo (it prints the Solo Opponent's win rates only)."
    assert not (tmp_path / "games.jsonl").exists()


@pytest.mark.parametrize("command", ["sim", "balance"])
def test_a_side_given_twice_or_a_side_without_the_solo_game_is_refused(command, capsys, tmp_path, monkeypatch):
    """The last of two bots for one side won silently, and --side (the person's side in the solo
    statistics) was ignored without --solo: each is a one-line error (exit status 2)."""
    from crisis.cli import main as cli
    monkeypatch.chdir(tmp_path)
    code = cli.main([command, "--games", "2", "--jobs", "1", "--bot", "union=heuristic", "--bot", "unionist=random",
                     "--out", "r"][:9 if command == "sim" else 11])
    said = capsys.readouterr().err.strip()
    assert code == 2 and said == ("--bot names the Unionist side twice (union=heuristic, then unionist=random): "
                                  "give each side once.")
    assert not (tmp_path / "r").exists()
    if command == "sim":
        assert cli.main(["sim", "--games", "2", "--side", "union"]) == 2
        assert "use it with --solo" in capsys.readouterr().err


def test_the_solo_statistics_as_json_have_the_two_player_shape_and_the_solo_figures():
    from clirun import run_main
    text = run_main("sim", "--solo", "--games", "6", "--seed", "5", "--jobs", "1", "--lang", "en")
    result = run_main("sim", "--solo", "--games", "6", "--seed", "5", "--jobs", "1", "--json")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    data = json.loads(result.stdout)
    plain = json.loads(run_crisis("sim", "--games", "6", "--seed", "5", "--jobs", "1", "--json").stdout)
    # the whole command: the two-player summary's fields that apply to it
    assert {k: data[k] for k in ("games", "requested", "partial", "first_seed", "last_seed", "checked")} == {
        "games": 12, "requested": 12, "partial": False, "first_seed": 5, "last_seed": 10, "checked": False}
    assert set(TIMING) <= set(data)
    # each side the Solo Opponent plays: a run with every field of the two-player summary's games ...
    runs = data["runs"]
    assert [run["solo"]["side"] for run in runs] == ["Secessionist", "Unionist"]
    run_fields = {"games", "wins", "win_rate", "win_rate_margin95", "score", "mean_counters", "final_counters",
                  "stopped_early", "tie_breaks", "mean_actions", "card_plays", "options", "controllers"}
    assert run_fields <= set(plain) and all(run_fields <= set(run) for run in runs)
    # ... and the solo figures, the same as the text's
    lines = [line for line in text.stdout.splitlines() if line.startswith("Solo Opponent as")]
    for run, line in zip(runs, lines):
        solo = run["solo"]
        assert run["games"] == 6 and run["options"]["solo"] == solo["side"] and solo["difficulty"] == "normal"
        assert run["controllers"][["Unionist", "Secessionist"].index(solo["side"])] == "solo"
        assert solo["wins"] == run["wins"][solo["side"]] and solo["win_rate"] == run["win_rate"][solo["side"]]
        assert line == (f"Solo Opponent as {solo['side']} against a random {solo['player']} (normal): "
                        f"won {solo['wins']} ({100 * solo['wins'] / 6:.1f}%), "
                        f"mean final VP {solo['mean_score']:.2f} to {solo['player_mean_score']:.2f}")
        assert solo["mean_score"] == run["mean_counters"]["VP"][solo["side"]] and run["score"] == "VP"
    one = json.loads(run_main("sim", "--solo", "--side", "union", "--games", "6", "--seed", "5", "--jobs", "1",
                              "--json").stdout)
    assert one["games"] == 6 and [run["solo"]["player"] for run in one["runs"]] == ["Unionist"]
    assert one["runs"][0]["wins"] == runs[0]["wins"]


def test_more_processes_than_games_start_one_per_game():
    result = run_crisis("sim", "--games", "3", "--jobs", "40", "--json")
    data = json.loads(result.stdout)
    assert result.returncode == 0 and data["games"] == 3 and data["processes"] == 3


def test_records_name_only_what_the_game_declares():
    """Batch play and its records on a game of three sides the engine has never heard of
    (tests/data/three-crowns): its sides, counters, cards, uses and steps, nothing else."""
    from pathlib import Path

    from crisis.content.loader import load_content
    from crisis.interpreter.engine.program import program_of
    from crisis.interpreter.records import reading_of
    three_crowns = load_content(Path(__file__).parent / "data" / "three-crowns")
    program = program_of(three_crowns)
    job = batch.Job(three_crowns, controllers=("random",) * 3, check=True)
    reading = reading_of(program)
    records = list(job.play(range(1, 21)))
    assert records == list(batch.Job(three_crowns, controllers=("random",) * 3).play(range(1, 21)))
    total = batch.Summary()
    for record in records:
        total.add(record)
    data = total.to_json(reading)
    assert data["games"] == 20 and sum(data["wins"].values()) == 20 and set(data["wins"]) == {"Red", "Green", "Blue"}
    assert data["score"] == "VP" and set(data["mean_counters"]) == {"VP", "plays"}
    assert data["final_counters"] == {"round": {"3": 20}} and data["stopped_early"] == {"round": 0}
    lines = [reading.json(record) for record in records]
    text = json.dumps(lines)
    assert not re.search(r"Unionist|Secessionist|objective|crisis", text)
    first = lines[0]
    assert set(first["counters"]) == {"VP", "round", "plays"} and set(first["counters"]["VP"]) == {"Red", "Green", "Blue"}
    assert {(p["use"], p["carried_out"]) for line in lines for p in line["plays"]} == {("muster", None),
                                                                                     ("order", "event")}
    assert [f["step"] for f in first["first_players"]] == ["orders"] * 3
    assert [f["counters"] for f in first["first_players"]] == [{"round": 1}, {"round": 2}, {"round": 3}]
    assert first["entered"] == {} and first["kept"] == []


@pytest.mark.parametrize("solo", [False, True])
def test_on_a_narrow_terminal_the_summary_breaks_between_words_and_piped_it_keeps_one_line_a_result(
        monkeypatch, solo):
    import io
    import sys
    from crisis.cli.main import main

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setenv("COLUMNS", "60")
    monkeypatch.setenv("NO_COLOR", "1")
    command = ["sim", "--games", "3", "--jobs", "1", "--lang", "es"] + (["--solo"] if solo else [])
    outputs = []
    for stream in (Terminal(), io.StringIO()):
        monkeypatch.setattr(sys, "stdout", stream)
        assert main(command) == 0
        outputs.append(stream.getvalue().splitlines())
    on_terminal, piped = outputs
    assert max(len(line) for line in on_terminal) <= 60
    assert max(len(line) for line in piped) > 60 or not solo  # the solo lines are longer than 60
    # the same words, in the same order, only broken differently (the timings aside)
    words = [re.sub(r"[\d.,]+", "N", " ".join(" ".join(lines).split())) for lines in (on_terminal, piped)]
    assert words[0] == words[1]
    assert len(on_terminal) > len(piped) or not solo


@pytest.mark.parametrize("lang, games, seconds, said", [
    ("en", 300, 0.12, "300 games in 0.12 s (2500 games per second)"),
    ("en", 2, 8.24, "2 games in 8.24 s (4.1 s a game)"),
    ("es", 2, 8.24, "2 partidas en 8,24 s (4,1 s por partida)"),
])
def test_the_speed_of_slow_games_is_said_in_seconds_a_game(content, lang, games, seconds, said):
    """Search bots take seconds a game: the summary said '0 games per second'."""
    from crisis.cli.sim import speed
    from crisis.cli.text import Presenter
    show = Presenter(content, content.catalog(lang))
    assert speed(show.catalog, show, games, seconds) == said
