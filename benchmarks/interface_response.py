"""How quickly the command answers a player: --help, the first screen, each action.

    python benchmarks/interface_response.py [--runs 15] [--games 3]

* ``crisis --help``, alternating run by run with ``python -c pass`` (the interpreter's own
  start, the baseline) so the machine's load falls on both alike: medians and the difference.
* Line mode (``crisis play --vs bot --plain`` on pipes): time to the first prompt, and the
  median time from an answer ("1") to the next prompt over whole games.
* Full-screen interface on a pseudo-terminal: time from start to the first screen drawn.
* Full-screen interface headless (Textual's pilot, 80x24): time from start to the first
  decision drawn, and the median time of an answer (Enter) to the next decision drawn, as
  the interface's own handler measures it (taking the action, the bot's moves, the save,
  drawing every pane) and as the pilot sees it (which adds its own waits for idleness).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pty
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


from compare import timed  # noqa: E402
from startup import crisis, read_to_prompt  # noqa: E402  (benchmarks/ is on the path when a script here runs)


def help_times(runs: int):
    env = dict(os.environ, LANG="C")
    helps, bare = [], []
    for _ in range(runs):
        helps.append(timed(crisis() + ["--help"], env))
        bare.append(timed([sys.executable, "-c", "pass"], env))
    return ([statistics.median(t[i] for t in helps) for i in (0, 1)],
            [statistics.median(t[i] for t in bare) for i in (0, 1)])


def line_mode(games: int, folder: Path):
    """(first prompt, every answer-to-prompt time) over whole games against the bot."""
    firsts, answers = [], []
    for seed in range(1, games + 1):
        started = time.perf_counter()
        proc = subprocess.Popen(crisis() + ["play", "--vs", "bot", "--seed", str(seed), "--plain", "--save",
                                            str(folder / f"line{seed}.json")],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                env=dict(os.environ, NO_COLOR="1", LANG="C"))
        first = True
        while True:
            if not read_to_prompt(proc):
                break
            now = time.perf_counter()
            (firsts if first else answers).append(now - started)
            first = False
            started = time.perf_counter()
            proc.stdin.write(b"1\n")
            proc.stdin.flush()
        proc.wait()
    return statistics.median(firsts), answers


def full_screen_start(runs: int, folder: Path) -> float:
    """Start to the first screen drawn, on a pseudo-terminal."""
    times = []
    for run in range(runs):
        master, slave = pty.openpty()
        env = dict(os.environ, TERM="xterm-256color", LANG="C")
        env.pop("NO_COLOR", None)
        started = time.perf_counter()
        proc = subprocess.Popen(crisis() + ["play", "--vs", "bot", "--seed", "1", "--save",
                                            str(folder / f"tui{run}.json")],
                                stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
        os.close(slave)
        out = b""
        while b"Round 1/3" not in out:
            ready, _, _ = select.select([master], [], [], 5)
            if not ready:
                break
            out += os.read(master, 65536)
        times.append(time.perf_counter() - started)
        time.sleep(0.3)
        os.write(master, b"\x11")  # Ctrl+Q
        while proc.poll() is None:  # keep reading, or the interface blocks writing its last screen
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    os.read(master, 65536)
                except OSError:
                    break
        proc.wait(10)
        os.close(master)
    return statistics.median(times)


MAX_IDLE_PRESSES = 50  # a move's steps may take a few presses; fifty without an action is a hang


def headless(games: int, folder: Path):
    from crisis.cli import saves
    from crisis.cli.session import GameSession
    from crisis.cli.text import Presenter
    from crisis.cli.tui.app import GameApp, InfoScreen
    from crisis.content.loader import load_content
    from crisis.interpreter.engine.game import Options

    content = load_content()
    show = Presenter(content, content.catalog("en"))
    firsts, handler, pilot_seen = [], [], []

    class Timed(GameApp):
        def take(self, text, **how):  # how: the interface's own keywords (previewed=...), passed on
            started = time.perf_counter()
            taken = super().take(text, **how)
            handler.append(time.perf_counter() - started)
            return taken

    async def one(seed):
        session = GameSession(content, show, seed, Options(), [saves.HUMAN, "random"], folder / f"h{seed}.json")
        app = Timed(session=session)
        started = time.perf_counter()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            firsts.append(time.perf_counter() - started)
            idle = 0  # presses in a row that took no action: a game that stopped answering
            while not session.over:
                if idle > MAX_IDLE_PRESSES:
                    raise SystemExit(f"the full-screen interface took no action in {MAX_IDLE_PRESSES} presses "
                                     f"(seed {seed}, {len(session.game.history)} actions in)")
                taken = len(session.game.history)
                if isinstance(app.screen, InfoScreen):
                    await pilot.press("enter")
                else:
                    started = time.perf_counter()
                    await pilot.press("down", "enter")  # the first choice (nothing is highlighted before a move)
                    pilot_seen.append(time.perf_counter() - started)
                idle = idle + 1 if len(session.game.history) == taken else 0

    for seed in range(1, games + 1):
        asyncio.run(one(seed))
    return statistics.median(firsts), handler, pilot_seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (helped, help_cpu), (bare, bare_cpu) = help_times(args.runs)
        print(f"crisis --help: median {helped * 1000:.0f} ms wall, {help_cpu * 1000:.0f} ms CPU "
              f"(python -c pass: {bare * 1000:.0f} ms wall, {bare_cpu * 1000:.0f} ms CPU) over {args.runs} "
              f"alternating runs; load average {os.getloadavg()[0]:.1f}")
        first, answers = line_mode(args.games, folder)
        print(f"line mode: first prompt {first * 1000:.0f} ms; answer to next prompt: median "
              f"{statistics.median(answers) * 1000:.1f} ms, 90th percentile "
              f"{sorted(answers)[int(len(answers) * 0.9)] * 1000:.1f} ms over {len(answers)} answers")
        print(f"full screen on a terminal: first screen {full_screen_start(args.runs // 3 or 1, folder) * 1000:.0f} ms")
        first, handler, seen = headless(args.games, folder)
        print(f"full screen headless 80x24: first decision drawn {first * 1000:.0f} ms; answer to next decision: "
              f"median {statistics.median(handler) * 1000:.1f} ms in the interface, "
              f"{statistics.median(seen) * 1000:.1f} ms as the test pilot sees it, over {len(handler)} answers")


if __name__ == "__main__":
    main()
