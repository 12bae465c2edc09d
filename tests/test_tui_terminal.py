"""Which interface opens: the full screen on a terminal, the line mode on a pipe, with --plain
or on a dumb terminal."""

import os
import pty
import select
import subprocess
import time

from clirun import crisis_command


def on_a_terminal(args, cwd, env_extra=None, keys=b"", until=b"", timeout=60):
    """Run crisis with all three standard streams on a pseudo-terminal; send ``keys`` once
    ``until`` has been printed; return (exit code, everything printed)."""
    env = dict(os.environ, LANG="C", LC_ALL="", LANGUAGE="", LC_MESSAGES="", TERM="xterm-256color",
               COLUMNS="100", LINES="30")
    env.pop("NO_COLOR", None)
    env.update(env_extra or {})
    master, slave = pty.openpty()
    proc = subprocess.Popen(crisis_command() + [str(a) for a in args], stdin=slave, stdout=slave, stderr=slave,
                            cwd=cwd, env=env, close_fds=True)
    os.close(slave)
    out, sent = b"", False
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        if not sent and until in out:
            time.sleep(0.3)
            os.write(master, keys)
            sent = True
        if proc.poll() is not None and not ready:
            break
    code = proc.wait(10)
    os.close(master)
    return code, out.decode("utf-8", "replace")


def test_a_terminal_gets_the_full_screen_interface_and_quits_saved(tmp_path):
    code, out = on_a_terminal(["play", "--vs", "bot", "--seed", "1", "--save", "g.json"], tmp_path,
                              keys=b"\x11", until=b"Round 1/3")  # Ctrl+Q
    assert code == 0, out[-2000:]
    assert "\x1b[?1049h" in out  # the alternate screen: the terminal is given back as it was
    assert "Stopping here." in out and "crisis resume g.json" in out
    assert (tmp_path / "g.json").exists()


def test_plain_or_a_dumb_terminal_gets_the_line_mode(tmp_path):
    for extra, flags in (({}, ["--plain"]), ({"TERM": "dumb"}, [])):
        (tmp_path / "g.json").unlink(missing_ok=True)
        code, out = on_a_terminal(["play", "--vs", "bot", "--seed", "1", "--save", "g.json"] + flags, tmp_path,
                                  env_extra=extra, keys=b"quit\n", until=b"[1-2]> ")
        assert code == 0, out[-2000:]
        assert "\x1b[?1049h" not in out and "Unionist [1-2]> " in out and "Stopping here." in out
