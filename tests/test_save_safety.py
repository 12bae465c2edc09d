"""Saved games under hostile input and a failing disk: seeds that round-trip, hand-edited
files, memory spent reading one, the disk full or read-only, two writers at once."""

import json

import pytest

from crisis.cli import saves
from crisis.ruleset import limits

from clirun import run_main


def play_and_stop(folder, *args, name="g.json"):
    """``crisis play`` against the random bot, stopped at the first prompt (end of input)."""
    return run_main("play", "--vs", "random", "--plain", "--save", name, *args, cwd=folder)


def saved(path):
    return json.loads(path.read_text(encoding="utf-8"))


# ------------------------------------------------------------------ seeds


@pytest.mark.parametrize("seed", ["0", "999999999", "000000000000042", "0" * 5000 + "7"])
def test_every_seed_the_command_line_accepts_resumes_and_replays(tmp_path, seed):
    assert play_and_stop(tmp_path, "--seed", seed).returncode == 3
    assert saved(tmp_path / "g.json")["seed"] == int(seed.lstrip("0") or "0")
    resumed = run_main("resume", "g.json", "--plain", cwd=tmp_path)
    assert resumed.returncode == 3 and "refused" not in resumed.stderr, resumed.stderr
    replayed = run_main("replay", "g.json", "--plain", cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr


@pytest.mark.parametrize("seed", ["10000000000", "1000000000", "-42", "-0", "4.5", "1e3", "٣", "²", "1_000",
                                  "9" * 5000])
def test_a_seed_no_save_could_hold_is_refused_in_one_line_before_a_game_starts(tmp_path, seed):
    result = play_and_stop(tmp_path, "--seed", seed)
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("--seed") and "999,999,999" in line and len(line) < 200
    assert not list(tmp_path.iterdir())  # no file, no game


def test_the_seed_refusal_is_in_the_players_language(tmp_path):
    result = play_and_stop(tmp_path, "--seed", "-42", "--lang", "es")
    assert result.returncode == 2 and "999.999.999" in result.stderr and "«-42»" in result.stderr


def test_a_save_with_a_negative_seed_is_refused_naming_the_seed(tmp_path, content):
    assert play_and_stop(tmp_path, "--seed", "42").returncode == 3
    data = saved(tmp_path / "g.json")
    (tmp_path / "g.json").write_text(json.dumps(dict(data, seed=-42)), encoding="utf-8")
    with pytest.raises(saves.SaveProblem) as caught:
        saves.read(tmp_path / "g.json", content, known_controllers={"random"})
    assert caught.value.key == "cli.save.damaged" and caught.value.params["field"] == "seed"
    assert limits.MAX_SEED == 999_999_999


# ------------------------------------------------------------------ hand-edited saves


@pytest.fixture
def base(content):
    """A two-player save of the shipped game, as a dict to edit."""
    return saves.SavedGame(game=content.board.game, digest=content.digest, seed=1, options={"event_discard": False},
                           controllers={side: "human" for side in content.board.sides}).to_json()


def refusal(path, content):
    with pytest.raises(saves.SaveProblem) as caught:
        saves.read(path, content, known_controllers={"random"})
    return caught.value


def write(path, data):
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


@pytest.mark.parametrize("options, controllers, field", [
    ({"event_discard": False}, {"Unionist": "human", "Secessionist": "solo"}, "controllers"),
    ({"event_discard": True, "solo": "Secessionist", "difficulty": "normal"},
     {"Unionist": "solo", "Secessionist": "human"}, "controllers"),
    ({"event_discard": True, "solo": "Secessionist", "difficulty": "normal"},
     {"Unionist": "human", "Secessionist": "random"}, "controllers"),
    ({"event_discard": True, "solo": "Secessionist", "difficulty": "normal"},
     {"Unionist": "solo", "Secessionist": "solo"}, "controllers"),
    ({"event_discard": True, "solo": "Confederate", "difficulty": "normal"},
     {"Unionist": "human", "Secessionist": "solo"}, "options.solo"),
    ({"event_discard": False, "difficulty": "normal"}, {"Unionist": "human", "Secessionist": "human"},
     "options.difficulty"),
    ({"event_discard": True, "solo": "Secessionist", "difficulty": "impossible"},
     {"Unionist": "human", "Secessionist": "solo"}, "options.difficulty"),
])
def test_controllers_and_options_that_disagree_are_refused(tmp_path, content, base, options, controllers, field):
    path = write(tmp_path / "g.json", dict(base, options=options, controllers=controllers))
    problem = refusal(path, content)
    assert problem.key == "cli.save.damaged" and problem.params["field"] == field


def test_a_solo_save_that_agrees_with_itself_is_read(tmp_path, content, base):
    level = content.solo.difficulty[0][0]
    options = {"event_discard": True, "solo": "Secessionist", "difficulty": level}
    path = write(tmp_path / "g.json", dict(base, options=options,
                                           controllers={"Unionist": "human", "Secessionist": "solo"}))
    assert saves.read(path, content, known_controllers={"random"}).controllers["Secessionist"] == "solo"


def test_resuming_a_two_player_save_that_names_the_solo_opponent_is_refused_in_one_line(tmp_path, base):
    write(tmp_path / "g.json", dict(base, controllers={"Unionist": "human", "Secessionist": "solo"}))
    result = run_main("resume", "g.json", "--plain", cwd=tmp_path)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.strip() == "g.json is damaged: its 'controllers' entry is missing or wrong."


@pytest.mark.parametrize("where", ["top", "inner"])
def test_a_key_given_twice_is_refused_naming_the_key_and_its_line(tmp_path, content, base, where):
    text = json.dumps(dict(base, actions=["Oa"]), indent=1)
    if where == "top":  # a second "actions" after the first: Python's decoder would keep the last
        text = text[:-2] + ',\n "actions": []\n}'
        key, line = "actions", text.count("\n")
    else:
        text = text.replace('"Unionist": "human",', '"Unionist": "human",\n  "Unionist": "random",')
        key, line = "Unionist", text[:text.index('"Unionist": "random"')].count("\n") + 1
    (tmp_path / "g.json").write_text(text, encoding="utf-8")
    problem = refusal(tmp_path / "g.json", content)
    assert problem.key == "cli.save.duplicate_key"
    assert problem.params["entry"] == key and problem.params["line"] == line
    result = run_main("resume", "g.json", "--plain", cwd=tmp_path)
    assert result.returncode == 1 and len(result.stderr.strip().splitlines()) == 1
    assert f"'{key}'" in result.stderr and f"line {line}" in result.stderr


def test_a_key_spelt_with_an_escape_is_the_same_key(tmp_path, content, base):
    text = json.dumps(base, indent=1)[:-2] + ',\n "\\u0061ctions": []\n}'
    (tmp_path / "g.json").write_text(text, encoding="utf-8")
    assert refusal(tmp_path / "g.json", content).params["entry"] == "actions"


def test_escaped_quotes_and_backslashes_do_not_confuse_the_scan(tmp_path, content, base):
    created = 'a \\" b \\\\" c \\\\\\" [[[[[[[[[[ {{{{ 99999999999999 "'
    path = write(tmp_path / "g.json", dict(base, created=created))
    assert saves.read(path, content, known_controllers=set()).created == created


# ------------------------------------------------------------------ memory


def peak_bytes_reading(path, content):
    """The most memory (Python's allocations) reading ``path`` as a save took at any moment."""
    import tracemalloc
    tracemalloc.start()
    try:
        try:
            saves.read(path, content, known_controllers=set())
        except saves.SaveProblem:
            pass
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_long_text_in_a_save_costs_a_few_times_its_size_to_read(tmp_path, content, base):
    # an 8 MB "created" text took about 1 GB (150 bytes a byte) in the scan before the decoder
    path = write(tmp_path / "g.json", dict(base, created="x" * 8_000_000))
    size = path.stat().st_size
    assert peak_bytes_reading(path, content) < 4 * size


def test_a_save_at_the_size_limit_reads_within_ten_times_its_size_whatever_it_holds(tmp_path, content, base):
    # the worst text for memory: one character outside the first 65,536 widens every character
    # of the decoded text to four bytes
    filler = limits.MAX_SAVE_BYTES - 2000
    path = tmp_path / "g.json"
    path.write_text(json.dumps(dict(base, created="\\" * (filler // 4) + "x" * (filler // 2) + "\U0001F600"),
                               ensure_ascii=False), encoding="utf-8")
    size = path.stat().st_size
    assert limits.MAX_SAVE_BYTES - 4000 < size <= limits.MAX_SAVE_BYTES
    assert peak_bytes_reading(path, content) < 10 * size


def test_a_save_of_many_small_values_is_refused_before_they_are_built(tmp_path, content, base):
    path = write(tmp_path / "g.json", dict(base, actions=[f"a{i}" for i in range(limits.MAX_SAVE_VALUES)]))
    problem = refusal(path, content)
    assert problem.key == "cli.save.too_many_values" and problem.params["limit"] == limits.MAX_SAVE_VALUES
    assert peak_bytes_reading(path, content) < 4 * path.stat().st_size
    result = run_main("replay", "g.json", "--plain", cwd=tmp_path)
    assert result.returncode == 1 and "more than 200,000 values" in result.stderr
