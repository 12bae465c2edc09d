"""Saved games under hostile input and a failing disk: seeds that round-trip, hand-edited
files, memory spent reading one, the disk full or read-only, two writers at once."""

import errno
import io
import json
import os
import re

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
    return saves.SavedGame(game=content.game, digest=content.digest, seed=1, options={"event_discard": False},
                           controllers={side: "human" for side in content.sides}).to_json()


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
    level = content.overlay.difficulty[0][0]
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


# ------------------------------------------------------------------ a failing disk


def failing_after(monkeypatch, good_writes, number=errno.ENOSPC):
    """Saves fail (as on a full disk, or a folder made read-only) after ``good_writes`` writes."""
    real = saves.write_atomic
    done = [0]

    def write(path, data):
        done[0] += 1
        if done[0] > good_writes:
            raise OSError(number, os.strerror(number))
        real(path, data)
    monkeypatch.setattr(saves, "write_atomic", write)


@pytest.mark.parametrize("number", [errno.ENOSPC, errno.EROFS])
def test_a_game_that_could_not_be_saved_to_the_end_never_says_it_was(tmp_path, monkeypatch, number):
    failing_after(monkeypatch, 9, number)
    result = run_main("play", "--vs", "random", "--seed", "3", "--plain", "--save", "g.json",
                      input="1\n" * 600, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    held = saved(tmp_path / "g.json")["actions"]
    assert len(held) == 8  # the new game's empty file, then 8 actions
    assert "The whole game is saved" not in result.stdout and "Warning: the game could not be saved" in result.stdout
    told = re.search(r"The game is NOT saved in full: g\.json holds 8 actions of the (\d+) played", result.stdout)
    assert told and int(told.group(1)) > 30  # the whole game's actions
    assert "crisis resume g.json" in result.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]  # no temporary file, no lock left


def test_stopping_after_failed_saves_says_what_the_file_holds(tmp_path, monkeypatch):
    failing_after(monkeypatch, 1)
    result = run_main("play", "--vs", "random", "--seed", "3", "--plain", "--save", "g.json",
                      input="1\n1\n", cwd=tmp_path)
    assert result.returncode == 3
    assert "The game is saved in" not in result.stdout
    assert "g.json holds 0 actions of the" in result.stdout and saved(tmp_path / "g.json")["actions"] == []


def test_saving_again_after_a_failure_is_said(tmp_path, monkeypatch):
    real, failures = saves.write_atomic, [2]

    def write(path, data):  # the second and third writes fail, then the disk has room again
        if len(data["actions"]) in (1, 2) and failures[0]:
            failures[0] -= 1
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(path, data)
    monkeypatch.setattr(saves, "write_atomic", write)
    result = run_main("play", "--vs", "random", "--seed", "3", "--plain", "--save", "g.json",
                      input="1\n" * 600, cwd=tmp_path)
    assert "The game is saved again in g.json" in result.stdout
    assert "The whole game is saved in g.json" in result.stdout and "NOT saved" not in result.stdout.split(
        "The game is saved again")[-1]


class FullDisk(io.RawIOBase):
    """A file whose writes fail as on a full disk."""

    def writable(self):
        return True

    def write(self, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_write_that_fails_leaves_the_old_save_and_no_temporary_file(tmp_path, monkeypatch, base):
    path = write(tmp_path / "g.json", base)
    before = path.read_bytes()
    real_fdopen = os.fdopen

    def fdopen(fd, *args, **kwargs):
        os.close(fd)
        return io.TextIOWrapper(io.BufferedWriter(FullDisk()), encoding="utf-8")
    monkeypatch.setattr(os, "fdopen", fdopen)
    with pytest.raises(OSError):
        saves.write_atomic(path, dict(base, actions=["x"] * 1000))
    monkeypatch.setattr(os, "fdopen", real_fdopen)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"] and path.read_bytes() == before


def test_the_command_lines_catalog_cache_leaves_no_temporary_file_on_a_full_disk(tmp_path, monkeypatch):
    from crisis.cli import words
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("CRISIS_NO_CACHE", raising=False)

    def fdopen(fd, *args, **kwargs):  # the cache's file, once opened, has no room
        os.close(fd)
        return io.BufferedWriter(FullDisk())
    monkeypatch.setattr(os, "fdopen", fdopen)
    catalog = words.interface_locale_dir() / "en"
    assert words._read(catalog)  # the words, read from the YAML
    assert list((tmp_path / "crisis").iterdir()) == []


def test_the_cache_folders_writer_leaves_no_temporary_file_on_a_full_disk(tmp_path, monkeypatch):
    from crisis.ruleset import cachefolder

    def fdopen(fd, *args, **kwargs):
        os.close(fd)
        return io.BufferedWriter(FullDisk())
    monkeypatch.setattr(os, "fdopen", fdopen)
    cachefolder.write_checked(str(tmp_path), "rules-cache.json", "form", "key", b"x" * 100_000)
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ one writer at a time


def test_a_second_resume_of_a_game_being_played_is_refused_naming_the_process(tmp_path):
    from clirun import Session
    assert play_and_stop(tmp_path, "--seed", "3").returncode == 3
    first = Session("resume", "g.json", "--plain", cwd=tmp_path)
    try:
        assert first.prompt() is not None
        second = run_main("resume", "g.json", "--plain", cwd=tmp_path)
        assert second.returncode == 1 and second.stdout == ""
        assert second.stderr.strip() == (f"g.json is being played by another crisis (process {first.proc.pid}): "
                                         "a saved game is written by one process at a time.")
        replay = run_main("replay", "g.json", "--plain", cwd=tmp_path)  # watching needs no lock
        assert replay.returncode == 0, replay.stderr
        first.send("1")
        first.prompt()
    finally:
        first.kill()  # kill -9: the lock goes with the process
    played = len(saved(tmp_path / "g.json")["actions"])
    again = run_main("resume", "g.json", "--plain", input="1\n", cwd=tmp_path)
    assert again.returncode == 3, again.stderr
    assert len(saved(tmp_path / "g.json")["actions"]) > played > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]  # the lock file goes when let go


def held_by(lock, holder: str):
    """The lock of a save, taken as another crisis process would take it."""
    import fcntl
    handle = open(lock, "w")
    handle.write(holder)
    handle.flush()
    fcntl.flock(handle, fcntl.LOCK_EX)
    return handle


def test_a_new_game_is_not_started_in_a_file_another_process_is_starting(tmp_path):
    with held_by(tmp_path / ".g.json.lock", "4242\n"):
        result = play_and_stop(tmp_path, "--seed", "3")
    assert result.returncode == 1 and "g.json is being played by another crisis (process 4242)" in result.stderr
    assert not (tmp_path / "g.json").exists()
    assert play_and_stop(tmp_path, "--seed", "3").returncode == 3  # a lock let go of is taken again


def test_a_hostile_lock_file_is_never_printed_raw(tmp_path):
    assert play_and_stop(tmp_path, "--seed", "3").returncode == 3
    with held_by(tmp_path / ".g.json.lock", "\x1b]0;pwned\x07" + "9" * 500):
        result = run_main("resume", "g.json", "--plain", cwd=tmp_path)
    assert result.returncode == 1 and "\x1b" not in result.stderr and len(result.stderr) < 300


# ------------------------------------------------------------------ file names printed


HOSTILE_NAME = "g\x1b]0;pwned\x07\x1b[2J.json"


def test_a_save_file_name_with_terminal_escapes_is_printed_escaped_everywhere(tmp_path):
    wide = {"COLUMNS": "160"}
    played = run_main("play", "--vs", "random", "--seed", "3", "--plain", "--save", HOSTILE_NAME,
                      input="?\n" + "1\n" * 600, cwd=tmp_path, env=wide)
    assert played.returncode == 0, played.stderr
    resumed = run_main("resume", HOSTILE_NAME, "--plain", cwd=tmp_path, env=wide)
    replayed = run_main("replay", HOSTILE_NAME, "--plain", cwd=tmp_path, env=wide)
    branched = run_main("replay", HOSTILE_NAME, "--branch", "3", "--plain", cwd=tmp_path, env=wide)
    again = run_main("play", "--vs", "random", "--save", HOSTILE_NAME, cwd=tmp_path, env=wide)
    for result in (played, resumed, replayed, branched, again):
        printed = result.stdout + result.stderr
        assert "\x1b" not in printed and "\x07" not in printed
    shown = "g\\x1b]0;pwned\\x07\\x1b[2J.json"
    assert f"The game is saved after every action in {shown}\n" in played.stdout  # the intro
    assert f"The game is saved after every action in {shown}." in played.stdout  # the help (?)
    assert f"The whole game is saved in {shown}; watch it again with:  crisis replay $'{shown}'" in played.stdout
    assert f"Resuming {shown}" in resumed.stdout
    assert f"Replay of {shown}" in replayed.stdout
    branch = "g\\x1b]0;pwned\\x07\\x1b[2J-branch3.json"
    assert f"saved in {branch}" in branched.stdout and f"crisis resume $'{branch}'" in branched.stdout
    assert f"{shown} already exists" in again.stderr and f"crisis resume $'{shown}'" in again.stderr


def test_the_pasteable_command_names_the_very_file():
    import subprocess
    from crisis.cli.paths import command_line
    for name in (HOSTILE_NAME, "it's a \\ game.json", "plain.json", "a\u202eb.json"):
        line = command_line("resume", name)
        echoed = subprocess.run(["bash", "-c", "printf '%s' " + line.split(" ", 2)[2]], capture_output=True)
        assert echoed.stdout.decode("utf-8") == name, line
