"""Start-up CPU of `crisis sim --games 1 --jobs 1`: this tree against another commit, alternating.

    python benchmarks/startup_sim.py [--ref main] [--runs 9] [--games 1] [--settings warm,cold,no cache]

One game is played, so the figure is nearly all start-up: imports, the content
load, the batch set-up.  Each tree runs as its own process importing only that
tree (as benchmarks/compare.py does), in three settings:

- warm: the cache folder already holds the grammar tables and the parsed rules
  (a designer's second run and every run after it);
- cold: an empty cache folder every run (the first run after an install or a
  grammar change; the run also writes the cache);
- no cache: CRISIS_NO_CACHE=1.

Runs alternate (this tree, ref; ref, this tree; ...) so the machine's load
falls on both alike; medians and the median of the per-round ratios are printed
with the load average.  PYTHONDONTWRITEBYTECODE is passed on as it is set: when
it is 1, as on the project's shared machines, every module is compiled from
source on every start in both trees (an editable install ships no bytecode).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import child_cpu, export, import_dir  # noqa: E402 - the benchmarks share their helpers

TREE = Path(__file__).resolve().parent.parent


GAMES = "1"


def command(where: Path) -> list:
    bootstrap = (f"import sys; sys.path.insert(0, {str(where)!r}); "
                 "from crisis.cli.main import main; sys.exit(main(sys.argv[1:]))")
    return [sys.executable, "-c", bootstrap, "sim", "--games", GAMES, "--jobs", "1"]


def cpu_with(env: dict, where: Path) -> float:
    """User + system CPU seconds of one run."""
    return child_cpu(command(where), env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="main", help="commit to compare with (default main)")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--games", type=int, default=1, help="games per run (default 1: start-up alone)")
    parser.add_argument("--settings", default="warm,cold,no cache", help="which of warm, cold, no cache")
    args = parser.parse_args()
    global GAMES
    GAMES = str(args.games)
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}; python {sys.version.split()[0]}; "
          f"PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '')!r}")
    scratch = Path(tempfile.mkdtemp(prefix="crisis-startup-"))
    try:
        trees = {"this tree": import_dir(TREE, scratch / "tree"),
                 args.ref: import_dir(export(args.ref, scratch / "ref-tree"), scratch / "ref")}
        base = {k: v for k, v in os.environ.items() if k != "CRISIS_NO_CACHE"}
        for setting in args.settings.split(","):
            times = {label: [] for label in trees}
            for round_ in range(args.runs):
                order = list(trees) if round_ % 2 == 0 else list(trees)[::-1]
                for label in order:
                    env = dict(base)
                    if setting == "no cache":
                        env["CRISIS_NO_CACHE"] = "1"
                    else:
                        folder = scratch / "cache" / label.replace(" ", "-")
                        if setting == "cold":
                            shutil.rmtree(folder, ignore_errors=True)
                        elif round_ == 0:  # warmed once, outside the figures
                            cpu_with(dict(env, XDG_CACHE_HOME=str(folder)), trees[label])
                        env["XDG_CACHE_HOME"] = str(folder)
                    times[label].append(cpu_with(env, trees[label]))
            ours, theirs = times["this tree"], times[args.ref]
            ratios = [a / b for a, b in zip(ours, theirs)]
            print(f"{setting:>8}: this tree median {statistics.median(ours):.3f} s CPU, {args.ref} "
                  f"{statistics.median(theirs):.3f} s; ratio median {statistics.median(ratios):.2f} "
                  f"(min {min(ratios):.2f}, max {max(ratios):.2f})")
        print(f"load average now {os.getloadavg()[0]:.2f}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
