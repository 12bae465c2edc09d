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


def crisis() -> list:
    script = Path(sys.executable).parent / "crisis"
    return [str(script)] if script.exists() else [sys.executable, "-m", "crisis.cli.main"]


def check(env) -> float:
    started = time.perf_counter()
    subprocess.run(crisis() + ["check"], env=env, capture_output=True, check=True)
    return time.perf_counter() - started


def first_prompt(env, folder) -> float:
    started = time.perf_counter()
    proc = subprocess.Popen(crisis() + ["play", "--vs", "bot", "--seed", "1", "--no-color"], env=env, cwd=folder,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    seen = b""
    while not seen.endswith(b"> "):
        chunk = os.read(proc.stdout.fileno(), 65536)
        if not chunk:
            break
        seen += chunk
    elapsed = time.perf_counter() - started
    proc.kill()
    proc.wait()
    return elapsed


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
    for name, found in times.items():
        print(f"{name}: crisis check {statistics.median(found['check']) * 1000:.0f} ms, "
              f"crisis play --vs bot to the first prompt {statistics.median(found['play']) * 1000:.0f} ms "
              f"(medians of {args.runs})")


if __name__ == "__main__":
    main()
