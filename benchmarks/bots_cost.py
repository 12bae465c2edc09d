"""What the bots' games cost in this tree against another commit: CPU per game, side by side.

    python benchmarks/bots_cost.py [--ref HEAD] [--game fort-sumter|civil-war-card-game]
                                   [--bots search,heuristic] [--seeds 1,2,3] [--rounds 5]

Each round plays the same seeds with the same bots in both trees, alternating which goes
first (A B, B A, ...), each in its own process importing only its tree (REF exported with
``git archive``, as benchmarks/compare.py does), with the content loaded before the clock
starts.  It prints each tree's CPU seconds per game (median and range), the median and
range of the per-round ratio (this tree / REF), and whether both trees played the same
games: a digest of every game's record, which a change meant only to be faster must keep.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import TREE, export, import_dir  # noqa: E402 - the benchmarks share their helpers

# run in a process of its own: sys.argv = [tree import folder, game, bots, seeds]
_PLAY = """
import hashlib, os, sys, time
sys.path.insert(0, sys.argv[1])
from crisis.content.loader import load_content
import crisis.content.loader as loader
from crisis.interpreter import batch
content = load_content(os.path.join(os.path.dirname(loader.__file__), sys.argv[2]))
job = batch.Job(content, controllers=tuple(sys.argv[3].split(",")))
seeds = [int(s) for s in sys.argv[4].split(",")]
digest = hashlib.sha256()
started = time.process_time()
for record in job.play(seeds):
    digest.update(repr(record).encode())
print((time.process_time() - started) / len(seeds), digest.hexdigest()[:16])
"""


def play(where: Path, game: str, bots: str, seeds: str):
    out = subprocess.run([sys.executable, "-c", _PLAY, str(where), game, bots, seeds], check=True,
                         capture_output=True, text=True, cwd=TREE,
                         env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    seconds, digest = out.stdout.split()
    return float(seconds), digest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="HEAD", help="commit to compare with (default HEAD)")
    parser.add_argument("--game", default="fort-sumter")
    parser.add_argument("--bots", default="search,heuristic", help="the two sides' controllers")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        trees = {"this tree": import_dir(TREE, folder / "this"),
                 args.ref: import_dir(export(args.ref, folder / "ref-tree"), folder / "ref")}
        times = {name: [] for name in trees}
        digests = {name: set() for name in trees}
        order = list(trees)
        for round_number in range(args.rounds):
            for name in (order if round_number % 2 == 0 else order[::-1]):
                seconds, digest = play(trees[name], args.game, args.bots, args.seeds)
                times[name].append(seconds)
                digests[name].add(digest)
            print(f"round {round_number + 1}: " + ", ".join(f"{name} {times[name][-1]:.3f} s" for name in order),
                  flush=True)
    print(f"{args.game}, {args.bots}, seeds {args.seeds}, CPU seconds per game (load average "
          f"{os.getloadavg()[0]:.2f}):")
    for name in order:
        print(f"  {name}: median {statistics.median(times[name]):.3f} "
              f"({min(times[name]):.3f}-{max(times[name]):.3f})")
    ratios = [a / b for a, b in zip(times[order[0]], times[order[1]])]
    print(f"  ratio this tree / {args.ref}: median {statistics.median(ratios):.3f} "
          f"({min(ratios):.3f}-{max(ratios):.3f})")
    same = len(digests[order[0]] | digests[order[1]]) == 1
    print("  the same games in both trees" if same else
          f"  DIFFERENT GAMES: {sorted(digests[order[0]])} against {sorted(digests[order[1]])}")


if __name__ == "__main__":
    main()
