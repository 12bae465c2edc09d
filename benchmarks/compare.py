"""Speed of this tree against another commit, the reference playout, and more cores.

    python benchmarks/compare.py [--ref REF] [--games 2000] [--rounds 7]
                                 [--reference-games 4000] [--reference-rounds 3]
                                 [--jobs-games 20000] [--jobs-rounds 2] [--only per-core|reference|jobs]
                                 [--cache warm|cold]

Absolute times drift on a shared machine, so every figure is a ratio of two
runs made side by side, alternating (A B, B A, A B, ...), and each round's
ratio is printed so the noise shows:

1. per core: complete random games per CPU second, this tree / REF (default:
   HEAD, the last commit: what the working tree's changes do; any commit
   whose crisis sim plays on the general engine).  REF is exported with
   ``git archive`` to a temporary folder; each tree runs in its own worker
   process (benchmarks/playout_worker.py) importing only that tree, playing
   the same seeds; content loading is outside the timing.  The workers also
   compare their results, so the two trees are seen to play the same games.
2. reference: CPU time of ``crisis sim --jobs 1 --games N`` / CPU time of the
   hand-written reference playout (../shared/benchmarks/reference_playout.py)
   on the same N, whole processes (start-up included), alternating; crisis's
   cache folder (grammar tables, parsed rules) warm by default, or cold
   (``--cache cold``: emptied before each run).
3. jobs: wall time of ``crisis sim --jobs 1`` / ``crisis sim --jobs <all cores>``
   on the same games.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List

TREE = Path(__file__).resolve().parent.parent
WORKER = Path(__file__).resolve().parent / "playout_worker.py"
# the last commit (the worker plays trees whose crisis sim is on the general engine: from 2ab9387 on)
BASELINE = "HEAD"
REFERENCE = TREE.parent / "shared" / "benchmarks" / "reference_playout.py"
PACKAGES = {"ruleset": "ruleset", "interpreter": "interpreter", "content": "content", "cli": "cli"}


def import_dir(checkout: Path, where: Path) -> Path:
    """A folder holding a ``crisis`` package made of ``checkout``'s folders (as pyproject.toml maps them)."""
    package = where / "crisis"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    for name, folder in PACKAGES.items():
        (package / name).symlink_to(checkout / folder)
    return where


def export(ref: str, where: Path) -> Path:
    where.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(TREE), "archive", ref], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    return where


class Worker:
    def __init__(self, label: str, path: Path):
        self.label = label
        self.process = subprocess.Popen([sys.executable, str(WORKER), str(path)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True,
                                        env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
        hello = json.loads(self.process.stdout.readline() or "{}")
        if not hello.get("ready"):
            raise SystemExit(hello.get("error", f"the worker of {label} did not start"))
        self.batch = hello["batch"]

    def play(self, games: int, first: int, optional_rules: bool) -> dict:
        self.process.stdin.write(f"{games} {first} {int(optional_rules)}\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def spread(values: List[float]) -> str:
    return (f"median {statistics.median(values):.2f} (min {min(values):.2f}, max {max(values):.2f}; "
            f"rounds: {', '.join(f'{v:.2f}' for v in values)})")


def per_core(args, scratch: Path) -> None:
    print(f"== per core: this tree / {args.ref}, {args.games} games per run, {args.rounds} rounds, alternating")
    current = Worker("this tree", import_dir(TREE, scratch / "current"))
    ref_tree = export(args.ref, scratch / "ref-tree")
    ref = Worker(args.ref, import_dir(ref_tree, scratch / "ref"))
    ratios, same, best = [], True, {current.label: 0.0, ref.label: 0.0}
    try:
        for round_ in range(args.rounds):
            first = 1 + round_ * args.games
            optional = bool(round_ % 2)  # half the rounds with the content's optional rules
            pair = (current, ref) if round_ % 2 == 0 else (ref, current)
            results = {worker.label: worker.play(args.games, first, optional) for worker in pair}
            a, b = results[current.label], results[ref.label]
            same &= (a["wins"], a["vp"]) == (b["wins"], b["vp"])
            ratios.append(b["cpu"] / a["cpu"])
            for label, result in results.items():
                best[label] = max(best[label], args.games / result["cpu"])
            print(f"  round {round_ + 1}: this tree {args.games / a['cpu']:.0f} games/s, "
                  f"{args.ref} {args.games / b['cpu']:.0f} games/s -> {ratios[-1]:.2f}x"
                  f"{'  (optional rules)' if optional else ''}")
    finally:
        current.close()
        ref.close()
    print(f"per-core ratio (games per CPU second, this tree / {args.ref}): {spread(ratios)}")
    print(f"best rounds: this tree {best[current.label]:.0f} games/s, {args.ref} {best[ref.label]:.0f} games/s "
          f"-> {best[current.label] / best[ref.label]:.2f}x (the least disturbed runs of each)")
    print(f"same games in both trees: {'yes' if same else 'NO (the ref plays other games)'}")


def cpu_used(who: int = resource.RUSAGE_CHILDREN) -> float:
    """User + system CPU seconds so far of this process (``RUSAGE_SELF``) or of its children
    that have ended and been waited for (``RUSAGE_CHILDREN``)."""
    used = resource.getrusage(who)
    return used.ru_utime + used.ru_stime


def timed(command: List[str], env=None) -> tuple:
    """(wall, CPU) seconds of one child process (and its own children), run in the tree, its
    output dropped (its errors shown): on a busy machine the CPU time moves less."""
    started, before = time.perf_counter(), cpu_used()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=TREE, env=env)
    return time.perf_counter() - started, cpu_used() - before


def child_cpu(command: List[str], env=None) -> float:
    """User + system CPU seconds of one child process (and its own children)."""
    return timed(command, env)[1]


def crisis_command(*arguments: str) -> List[str]:
    bootstrap = (f"import sys; sys.path.insert(0, {str(TREE_IMPORT)!r}); "
                 "from crisis.cli.main import main; sys.exit(main(sys.argv[1:]))")
    return [sys.executable, "-c", bootstrap, *arguments]


def reference(args, scratch: Path) -> None:
    if not REFERENCE.exists():
        print(f"== reference: skipped ({REFERENCE} not found)")
        return
    games = str(args.reference_games)
    print(f"== reference: CPU time of crisis sim --jobs 1 / reference playout, {games} games, "
          f"{args.reference_rounds} rounds, alternating")
    sim = crisis_command("sim", "--games", games, "--seed", "1", *JOBS_1)
    playout = [sys.executable, str(REFERENCE), games, "1"]
    # crisis keeps the grammar tables and the parsed rules in its cache folder: "warm" (a
    # designer's second run and every one after) fills a folder of its own once, untimed;
    # "cold" (the first run after an install or a grammar change) empties it before each run
    cache = scratch / "cache"
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    env.pop("CRISIS_NO_CACHE", None)
    print(f"   crisis's cache: {args.cache}")
    if args.cache == "warm":
        child_cpu(crisis_command("sim", "--games", "1", *JOBS_1), env)

    def measure(command: List[str]) -> float:
        if command is not sim:
            return child_cpu(command)
        if args.cache == "cold":
            shutil.rmtree(cache, ignore_errors=True)
        return child_cpu(command, env)
    ratios = []
    for round_, (ours, theirs) in enumerate(alternate(measure, sim, playout, args.reference_rounds)):
        ratios.append(ours / theirs)
        print(f"  round {round_ + 1}: crisis sim {ours:.2f} s CPU, reference {theirs:.2f} s CPU -> {ratios[-1]:.2f}")
    print(f"CPU-time ratio crisis sim / reference: {spread(ratios)}")


def alternate(measure, first: List[str], second: List[str], rounds: int):
    """(measure(first), measure(second)) per round, run in the order A B, then B A, and so on."""
    for round_ in range(rounds):
        if round_ % 2 == 0:
            a = measure(first)
            yield a, measure(second)
        else:
            b = measure(second)
            yield measure(first), b


def wall(command: List[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=TREE)
    return time.perf_counter() - started


def jobs(args) -> None:
    cores = os.cpu_count() or 1
    if not JOBS_1:
        print("== jobs: skipped (this tree's crisis sim has no --jobs)")
        return
    games = str(args.jobs_games)
    print(f"== jobs: wall time of crisis sim --jobs 1 / --jobs {cores}, {games} games, {args.jobs_rounds} rounds")
    one = crisis_command("sim", "--games", games, "--seed", "1", "--jobs", "1")
    many = crisis_command("sim", "--games", games, "--seed", "1", "--jobs", str(cores))
    ratios = []
    for round_, (t1, tn) in enumerate(alternate(wall, one, many, args.jobs_rounds)):
        ratios.append(t1 / tn)
        print(f"  round {round_ + 1}: --jobs 1 {t1:.2f} s, --jobs {cores} {tn:.2f} s -> {ratios[-1]:.2f}x")
    print(f"speed-up with --jobs {cores} (load average now {os.getloadavg()[0]:.2f}): {spread(ratios)}")


TREE_IMPORT: Path = TREE
JOBS_1: List[str] = []


def main() -> None:
    global TREE_IMPORT, JOBS_1
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default=BASELINE, help=f"commit to compare with (default {BASELINE})")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--reference-games", type=int, default=4000)
    parser.add_argument("--reference-rounds", type=int, default=3)
    parser.add_argument("--jobs-games", type=int, default=20000)
    parser.add_argument("--jobs-rounds", type=int, default=2)
    parser.add_argument("--only", choices=["per-core", "reference", "jobs"])
    parser.add_argument("--cache", choices=["warm", "cold"], default="warm",
                        help="crisis's cache folder in the reference runs (default warm)")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}; python {sys.version.split()[0]}")
    scratch = Path(tempfile.mkdtemp(prefix="crisis-compare-"))
    try:
        TREE_IMPORT = import_dir(TREE, scratch / "tree")
        help_text = subprocess.run(crisis_command("sim", "--help"), capture_output=True, text=True).stdout
        JOBS_1 = ["--jobs", "1"] if "--jobs" in help_text else []
        if args.only in (None, "per-core"):
            per_core(args, scratch)
        if args.only in (None, "reference"):
            reference(args, scratch)
        if args.only in (None, "jobs"):
            jobs(args)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
