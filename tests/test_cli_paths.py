"""Path options of the command line: what cannot be written is refused at once, in one line, with
exit status 2 -- never a traceback, a wait on a FIFO, or an error after the games are played --
and a write that fails under way (a full disk) ends the command in one line."""

import errno
import os

import pytest

from clirun import run_main

LONG = "x" * 300  # past any file system's 255 bytes for a name


def one_line(result, code=2, after=""):
    """The one line of a refusal (after the line ``after`` starts, if given: a run's progress)."""
    assert result.returncode == code, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    if after:
        assert lines[0].startswith(after), lines
        lines = lines[1:]
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


@pytest.fixture
def existing_file(tmp_path):
    path = tmp_path / "report.txt"
    path.write_text("mine\n")
    return path


def refusals(tmp_path, fifo, existing_file):
    """(command line, what the one line says) for each path that cannot be used."""
    return [
        (["balance", "--games", "1", "--out", existing_file], "it is a file, not a folder"),
        (["balance", "--games", "1", "--out", "/dev/null"], "it is not a regular file"),
        (["balance", "--games", "1", "--out", "/dev/full/x"], "the folder it would go in is a file"),
        (["balance", "--games", "1", "--out", tmp_path / LONG], "the name is longer than this system allows"),
        (["sim", "--games", "1", "--records", "/dev/full"], "it is not a regular file"),
        (["sim", "--games", "1", "--records", fifo], "it is not a regular file"),
        (["sim", "--games", "1", "--records", tmp_path], "it is a folder, not a file"),
        (["sim", "--games", "1", "--records", tmp_path / "missing" / "r.jsonl"], "does not exist"),
        (["sim", "--games", "1", "--records", tmp_path / LONG], "longer than this system allows"),
        (["play", "--vs", "random", "--save", tmp_path / (LONG + ".json")], "longer than this system allows"),
        (["play", "--vs", "random", "--save", fifo], "it is not a regular file"),
        (["play", "--vs", "random", "--save", "/dev/full/g.json"], "the folder it would go in is a file"),
        # a name ending in '/' is a folder's, even one that does not exist: never a file of that name
        (["play", "--vs", "random", "--save", f"{tmp_path}/games/"], "it names a folder (it ends with '/')"),
        (["sim", "--games", "1", "--records", f"{tmp_path}/runs/"], "it names a folder"),
    ]


def test_every_path_option_refuses_what_it_cannot_write_in_one_line(tmp_path, fifo, existing_file):
    for args, said in refusals(tmp_path, fifo, existing_file):
        line = one_line(run_main(*args, cwd=tmp_path))
        assert said in line, (args, line)
        assert str(args[-1])[:40] in line or LONG[:40] in line, line  # the path is named
    assert existing_file.read_text() == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "report.txt"]


def test_the_refusals_are_in_the_players_language(tmp_path, existing_file):
    line = one_line(run_main("balance", "--games", "1", "--out", existing_file, "--lang", "es", cwd=tmp_path))
    assert "es un archivo, no una carpeta" in line


def test_a_fifo_given_as_records_never_makes_sim_wait(tmp_path, fifo):
    # refused from its type alone: nothing opens it (opening a FIFO to write waits for a reader)
    import threading
    result = []
    worker = threading.Thread(target=lambda: result.append(run_main("sim", "--games", "1", "--records", fifo)),
                              daemon=True)
    worker.start()
    worker.join(60)
    assert result and result[0].returncode == 2


def test_a_full_disk_while_records_are_written_ends_sim_in_one_line(tmp_path, monkeypatch):
    import io

    class Full(io.StringIO):
        def write(self, text):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    from crisis.cli import sim
    monkeypatch.setattr(sim, "open_records", lambda path, catalog: Full())
    line = one_line(run_main("sim", "--games", "3", "--jobs", "1", "--records", tmp_path / "r.jsonl"), code=1)
    assert "r.jsonl" in line and "the disk is full" in line


def test_a_full_disk_while_the_report_is_written_ends_balance_in_one_line(tmp_path, monkeypatch):
    from crisis.balance import report

    def full(out, *args, **keywords):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(report, "write", full)
    line = one_line(run_main("balance", "--games", "2", "--jobs", "1", "--out", tmp_path / "out"), code=1,
                    after="Playing 2 games")
    assert "out" in line and "the disk is full" in line



# ------------------------------------------------------------------ --ray ADDRESS


@pytest.mark.parametrize("address", ["not-an-address:99999", "not-an-address", "host:", ":6379", "host:²"])
def test_a_ray_address_that_is_no_address_is_refused_at_once(address):
    line = one_line(run_main("sim", "--games", "1", "--ray", address))
    assert line.startswith("--ray takes the address of a Ray cluster, HOST:PORT") and address in line


def test_a_ray_address_where_nothing_listens_is_refused_in_one_line():
    import socket
    with socket.socket() as probe:  # a port nobody listens on: bound, never listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        line = one_line(run_main("sim", "--games", "1", "--ray", f"127.0.0.1:{port}"))
    assert line == f"No Ray cluster answers at 127.0.0.1:{port}: the connection was refused."


def test_a_port_that_answers_but_is_no_ray_cluster_is_given_up_after_the_stated_time():
    pytest.importorskip("ray")
    import socket
    import subprocess
    import time
    from clirun import crisis_command
    with socket.socket() as silent:  # accepts connections and never says a word
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        started = time.monotonic()
        result = subprocess.run(crisis_command() + ["sim", "--games", "1", "--ray", f"127.0.0.1:{port}"],
                                capture_output=True, text=True, timeout=120,
                                env=dict(os.environ, CRISIS_RAY_CONNECT_SECONDS="5", LANG="C"))
        took = time.monotonic() - started
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines()[-1] == (
        f"No Ray cluster answered at 127.0.0.1:{port} within 5 s: crisis sim gave up.")
    assert took < 100  # not Ray's own retries, for ever


def test_a_save_name_that_its_lock_or_temporary_file_would_not_fit_is_refused_before_the_game(tmp_path):
    """A save keeps files beside it whose names are longer than its own (``.NAME.lock``, and
    ``.NAME.XXXXXXXX.tmp`` while it is written): a name that fits but theirs would not was
    refused only once the game tried to lock it (exit status 1) or to write it."""
    name_max = os.pathconf(tmp_path, "PC_NAME_MAX")
    lock_too_long = "l" * (name_max - len(".json") - 3) + ".json"  # the lock's name is 6 bytes longer
    temporary_too_long = "t" * (name_max - len(".json") - 10) + ".json"  # the temporary file's, 14
    for name in (lock_too_long, temporary_too_long):
        line = one_line(run_main("play", "--vs", "random", "--seed", "1", "--save", tmp_path / name,
                                 input="quit\n", cwd=tmp_path))
        assert "longer than this system allows" in line and name[:40] in line, line
    assert list(tmp_path.iterdir()) == []

    fits = "f" * (name_max - len(".json") - 18) + ".json"  # the longest the files beside it allow
    played = run_main("play", "--vs", "random", "--seed", "1", "--save", fits, input="quit\n", cwd=tmp_path)
    assert played.returncode == 0 and (tmp_path / fits).is_file(), played.stderr
    branched = run_main("replay", fits, "--branch", "0", "--save", temporary_too_long, input="quit\n", cwd=tmp_path)
    assert "longer than this system allows" in one_line(branched)
    assert sorted(p.name for p in tmp_path.iterdir()) == [fits]


def test_output_that_cannot_be_written_ends_any_command_in_one_line(monkeypatch):
    """``crisis cards > /dev/full``: the full disk is said in one line (exit 1), in the command
    line's language, never as a traceback."""
    import contextlib
    import io
    from crisis.cli.main import main

    class Full(io.StringIO):
        def write(self, text):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    for lang, words in (("en", "crisis could not go on: the disk is full."),
                        ("es", "crisis no ha podido continuar: el disco está lleno.")):
        err = io.StringIO()
        with contextlib.redirect_stdout(Full()), contextlib.redirect_stderr(err):
            code = main(["cards", "--lang", lang])
        assert code == 1 and err.getvalue().strip() == words


def test_a_fault_inside_crisis_is_one_sentence_and_the_details_only_when_asked(monkeypatch):
    """A bug in a command (here made on purpose) is said in one sentence that asks for a report;
    its traceback is printed only with CRISIS_DEBUG=1."""
    from crisis.cli import main as cli_main

    def broken(args):
        raise ValueError("made on purpose")
    monkeypatch.setattr(cli_main, "cmd_cards", broken)
    result = run_main("cards")
    assert result.returncode == 1
    assert result.stderr.strip() == ("Something went wrong inside crisis (ValueError: made on purpose); please "
                                     "report this (set CRISIS_DEBUG=1 to see the details).")
    debug = run_main("cards", env={"CRISIS_DEBUG": "1"})
    assert "Traceback" in debug.stderr and "made on purpose" in debug.stderr


def test_a_command_started_with_its_output_closed_does_its_work_and_fails_nothing(tmp_path):
    """``crisis games >&-``: Python gives the command no standard output at all; the command ends
    as it did before output was flushed to find a full disk (exit 0, no fault reported)."""
    import subprocess
    from clirun import crisis_command
    done = subprocess.run(crisis_command() + ["games"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, env=dict(os.environ, XDG_CACHE_HOME=str(tmp_path)),
                          preexec_fn=lambda: os.close(1))  # the child's standard output closed
    assert done.returncode == 0, done.stderr
    assert "went wrong" not in done.stderr
