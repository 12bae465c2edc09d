"""A long `crisis sim` run, watched: wall time, CPU time and memory over the run.

Issue 8 asks that a million-game run complete on one machine with memory that
does not grow with the number of games. This starts the run, samples the
resident memory of the command and of every worker process it starts (from
/proc, so Linux only) every few seconds, and prints the time, the peak, and
memory at the start, middle and end of the run, so that growth would show.

    python benchmarks/large_run.py --games 1000000 [--jobs N] [--every 5]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parent))
from startup import crisis  # noqa: E402 - the benchmarks share their helpers


def children(pid: int) -> list:
    """The pid and all its descendants, read from /proc."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(parents.get(current, []))
    return found


def resident_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=float, default=5.0, help="seconds between samples")
    args = parser.parse_args()

    command = crisis() + ["sim", "--games", str(args.games), "--jobs", str(args.jobs),
                          "--seed", str(args.seed), "--json"]
    print("running:", " ".join(command[1:] if len(command) > 1 else command), flush=True)
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    samples = []  # (seconds, total MB, largest process MB, processes)
    while process.poll() is None:
        sizes = [resident_mb(pid) for pid in children(process.pid)]
        sizes = [size for size in sizes if size]
        if sizes:
            samples.append((time.perf_counter() - started, sum(sizes), max(sizes), len(sizes)))
        time.sleep(args.every)
    output = process.communicate()[0]
    wall = time.perf_counter() - started
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = used.ru_utime + used.ru_stime
    if process.returncode != 0:
        print(f"crisis sim failed with exit status {process.returncode}")
        return 1
    summary = json.loads(output)
    print(json.dumps({key: summary[key] for key in (
        "games", "wins", "win_rate", "partial", "processes", "seconds", "games_per_second")}))
    print(f"games: {args.games:,}  jobs: {args.jobs}  wall: {wall:,.0f} s  CPU: {cpu:,.0f} s"
          f"  ({args.games / cpu:,.0f} games per CPU second)")
    print(f"peak resident memory of one process (getrusage): {used.ru_maxrss / 1024:.0f} MB")
    if samples:
        peak = max(samples, key=lambda sample: sample[1])
        print(f"peak total of {peak[3]} processes (sampled): {peak[1]:.0f} MB at {peak[0]:.0f} s")
        working = [sample for sample in samples if sample[3] > 1] or samples
        for label, index in (("start", len(working) // 10), ("middle", len(working) // 2),
                             ("end", len(working) - 1)):
            at, total, largest, count = working[index]
            print(f"  {label:>6} ({at:5.0f} s): total {total:5.0f} MB, largest process"
                  f" {largest:4.0f} MB, {count} processes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
