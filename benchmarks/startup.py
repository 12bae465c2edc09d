"""Start-up time of the command, with and without the grammar cache.

Measures `crisis check` (to its exit) and `crisis play --vs bot` (to its first
prompt), alternating the two settings run by run so that the machine's load
falls on both alike, and prints the median of each.

    python benchmarks/startup.py --runs 15
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import cpu_used as cpu, timed  # noqa: E402 - the benchmarks share their helpers


def crisis() -> list:
    script = Path(sys.executable).parent / "crisis"
    return [str(script)] if script.exists() else [sys.executable, "-m", "crisis.cli.main"]


def check(env):
    """(wall, CPU) seconds of one `crisis check`."""
    return timed(crisis() + ["check"], env)


def read_to_prompt(proc) -> bool:
    """Read the command's output up to its next prompt; False when it ended first."""
    seen = b""
    while not seen.endswith(b"> "):
        chunk = os.read(proc.stdout.fileno(), 65536)
        if not chunk:
            return False
        seen += chunk
    return True


def first_prompt(env, folder):
    """(wall, CPU) seconds of `crisis play --vs bot` to its first prompt (CPU counted to its end, just after)."""
    started, used = time.perf_counter(), cpu()
    proc = subprocess.Popen(crisis() + ["play", "--vs", "bot", "--seed", "1", "--no-color"], env=env, cwd=folder,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    read_to_prompt(proc)
    elapsed = time.perf_counter() - started
    proc.kill()
    proc.wait()
    return elapsed, cpu() - used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    cache = tempfile.mkdtemp(prefix="crisis-cache-")
    settings = {
        "with the cache": dict(os.environ, XDG_CACHE_HOME=cache, NO_COLOR="1"),
        "without it (CRISIS_NO_CACHE=1)": dict(os.environ, XDG_CACHE_HOME=cache, CRISIS_NO_CACHE="1", NO_COLOR="1"),
    }
    check(settings["with the cache"])  # builds the cache once
    times = {name: {"check": [], "play": []} for name in settings}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.runs):
            for name, env in settings.items():
                times[name]["check"].append(check(env))
                times[name]["play"].append(first_prompt(env, folder))
    def ms(runs, which):
        return statistics.median(run[which] for run in runs) * 1000
    for name, found in times.items():
        print(f"{name}: crisis check {ms(found['check'], 0):.0f} ms ({ms(found['check'], 1):.0f} ms CPU), "
              f"crisis play --vs bot to the first prompt {ms(found['play'], 0):.0f} ms "
              f"({ms(found['play'], 1):.0f} ms CPU) (medians of {args.runs})")


if __name__ == "__main__":
    main()
