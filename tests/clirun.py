"""Run the real `crisis` command in a subprocess, as a user would."""

import os
import subprocess
import sys
from pathlib import Path


def crisis_command():
    script = Path(sys.executable).parent / "crisis"
    return [str(script)] if script.exists() else [sys.executable, "-m", "crisis.cli.main"]


def run_crisis(*args, input=None, cwd=None, env=None, timeout=120):
    environment = dict(os.environ)
    environment.update({"NO_COLOR": "1", "LANG": "C", "LC_ALL": "", "LANGUAGE": "", "LC_MESSAGES": ""})
    environment.update(env or {})
    return subprocess.run(crisis_command() + [str(a) for a in args], input=input, capture_output=True,
                          text=True, cwd=cwd, env=environment, timeout=timeout)


def run_main(*args, input=None, cwd=None, env=None):
    """``run_crisis`` without a new process (no interpreter start-up, no imports again): the command's
    ``main`` with the same environment, standard input from ``input`` and its output captured.
    For tests that run the command many times; a few tests keep the real process."""
    import contextlib
    import io
    from crisis.cli.main import main

    environment = {"NO_COLOR": "1", "LANG": "C", "LC_ALL": "", "LANGUAGE": "", "LC_MESSAGES": ""}
    environment.update(env or {})
    saved_env = {name: os.environ.get(name) for name in environment}
    saved_cwd, saved_stdin = os.getcwd(), sys.stdin
    out, err = io.StringIO(), io.StringIO()
    try:
        os.environ.update(environment)
        if cwd is not None:
            os.chdir(cwd)
        sys.stdin = io.StringIO(input or "")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([str(a) for a in args])
            except SystemExit as stop:  # argparse's usage errors
                code = stop.code if isinstance(stop.code, int) else 1
    finally:
        sys.stdin = saved_stdin
        os.chdir(saved_cwd)
        for name, value in saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return subprocess.CompletedProcess(["crisis", *map(str, args)], code, out.getvalue(), err.getvalue())


def _interruptible() -> None:
    """In the child: Ctrl-C (SIGINT) as at a terminal, even when the tests run in the background
    of a shell without job control, which starts them with SIGINT ignored (and a child inherits
    that, so a test that interrupts the game would wait for it forever)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Session:
    """The real `crisis` command in a subprocess, driven prompt by prompt.

    ``prompt()`` waits until the command is waiting for input (its output ends
    with a prompt, "> ") and returns everything printed since the last call.
    """

    def __init__(self, *args, cwd=None, env=None):
        import threading
        environment = dict(os.environ)
        environment.update({"NO_COLOR": "1", "LANG": "C", "LC_ALL": "", "LANGUAGE": "", "LC_MESSAGES": ""})
        environment.update(env or {})
        self.proc = subprocess.Popen(crisis_command() + [str(a) for a in args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=environment,
                                     preexec_fn=_interruptible)
        self._data = bytearray()
        self._closed = False
        self._lock = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.pos = 0

    def _read(self):
        fd = self.proc.stdout.fileno()
        while True:
            chunk = os.read(fd, 65536)
            with self._lock:
                if not chunk:
                    self._closed = True
                    self._lock.notify_all()
                    return
                self._data.extend(chunk)
                self._lock.notify_all()

    @property
    def output(self) -> str:
        with self._lock:
            return self._data.decode("utf-8", "replace")

    def prompt(self, timeout=20.0):
        """Text printed since the last call, once the command waits at a prompt; None if it has ended."""
        import time
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                if self._data.endswith(b"> ") and len(self._data) > self.pos:
                    break
                if self._closed:
                    text = self._data[self.pos:].decode("utf-8", "replace")
                    self.pos = len(self._data)
                    return None if not text else text
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("no prompt within %.0f s; output so far:\n%s"
                                         % (timeout, self._data[-3000:].decode("utf-8", "replace")))
                self._lock.wait(left)
            text = self._data[self.pos:].decode("utf-8", "replace")
            self.pos = len(self._data)
            return text

    def send(self, line: str) -> None:
        self.proc.stdin.write((line + "\n").encode("utf-8"))
        self.proc.stdin.flush()

    def close_input(self) -> None:
        self.proc.stdin.close()

    def wait(self, timeout=120.0) -> int:  # as run_crisis: a loaded machine (2 cores, several suites) is slow
        code = self.proc.wait(timeout)
        self._reader.join(timeout)
        return code

    def stderr(self) -> str:
        return self.proc.stderr.read().decode("utf-8", "replace")

    def kill(self) -> None:
        import signal
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self._reader.join(10)


# ----------------------------------------------------------- interactive play

DECISION_PROMPT = r"^(Unionist|Secessionist) \[1-(\d+)\]> $"
PASS_PROMPT = r"^(Unionist|Secessionist): press Enter when you are ready> $"
# the question above the listed choices, by kind of decision (English catalog)
QUESTIONS = {
    "keep_objective": "choose the objective card to keep",
    "play_card": "play a card, for its value or its event",
    "place": "place a token",
    "remove": "remove a token",
    "move": "move a token",
    "option": "choose one option",
    "marker": "choose where the",
    "bonus": "choose the pivotal space whose bonus",
    "order": "choose the card you will reveal next in the Final Crisis",
}


def last_line(text: str) -> str:
    return text.rsplit("\n", 1)[-1]


def decision_kind(screen: str) -> str:
    """The kind of decision a screen asks for, from the question above its choices."""
    lines = screen.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("   1  ") or line.startswith("  1  "):
            question = lines[index - 1]
            for kind, words in QUESTIONS.items():
                if words in question:
                    return kind
            raise AssertionError(f"unknown question: {question!r}")
    raise AssertionError("no choices on this screen:\n" + screen[-2000:])


# the second step of a move chosen as "from" then "to" (English catalog)
MOVE_DESTINATIONS = "Back: choose where the token comes from"


def board_of(screen: str) -> str:
    """The map part of a screen: from the first dimension to the crisis tracks."""
    return screen[screen.index("Political"):screen.index("Crisis track")]


def answer_all(session: Session, decide=None, limit: int = 3000):
    """Answer every prompt (Enter at a pass screen, `decide(screen)` or "1" at a decision)
    until the command ends.  Returns the list of (kind, screen) of the decisions answered
    (a move's destination menu belongs to the decision whose sources it follows)."""
    import re
    answered = []
    for _ in range(limit):
        out = session.prompt()
        if out is None or not out.endswith("> "):
            return answered
        line = last_line(out)
        if re.match(PASS_PROMPT, line):
            session.send("")
        elif re.match(DECISION_PROMPT, line):
            if MOVE_DESTINATIONS not in out:
                answered.append((decision_kind(out), out))
            session.send(decide(out) if decide else "1")
        else:
            raise AssertionError(f"unexpected prompt {line!r}")
    raise AssertionError("the game did not end")
