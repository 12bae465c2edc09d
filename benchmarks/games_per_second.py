"""How many complete random games per second the engine plays on one core.

    python benchmarks/games_per_second.py [--games 2000] [--repeats 5] [--content DIR]

Content is loaded and compiled once, before timing (as `crisis sim` does);
each game starts from setup, two random bots choose among the legal actions,
and no log is kept.  Prints the median over the repeats, and the spread.
"""

from __future__ import annotations

import argparse
import statistics
import time

from crisis.content.loader import load_content
from crisis.interpreter.batch import Job
from crisis.interpreter.engine.program import program_of


def run(content, games: int, first_seed: int):
    """The games of ``crisis sim`` (two random players, the batch API): seconds, decisions."""
    decisions = 0
    started = time.perf_counter()
    for record in Job(content).play(range(first_seed, first_seed + games)):
        decisions += record.actions
    return time.perf_counter() - started, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--content", default=None)
    args = parser.parse_args()

    started = time.perf_counter()
    content = load_content(args.content)
    program_of(content)  # compiled before the timing
    load_time = time.perf_counter() - started
    run(content, 50, 10**6)  # warm up

    rates, per_decision = [], []
    for repeat in range(args.repeats):
        elapsed, decisions = run(content, args.games, repeat * args.games)
        rates.append(args.games / elapsed)
        per_decision.append(elapsed / decisions * 1e6)
    print(f"content loaded and compiled in {load_time * 1000:.0f} ms")
    print(f"{args.games} games x {args.repeats} repeats")
    print(f"games per second: median {statistics.median(rates):.0f} "
          f"(min {min(rates):.0f}, max {max(rates):.0f})")
    print(f"time per decision: median {statistics.median(per_decision):.1f} us")


if __name__ == "__main__":
    main()
