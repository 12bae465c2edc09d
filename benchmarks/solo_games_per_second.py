"""How many complete solo games per second the engine plays on one core: a random player
against the Solo Opponent (docs/solo.md), through the batch API that `crisis sim --solo` uses.

    python benchmarks/solo_games_per_second.py [--games 500] [--repeats 3] [--content DIR]

Content is loaded and compiled once, before timing.  Each repeat plays the same number of games
with the Solo Opponent on each side in turn (seeds differ between repeats); no log is kept.  The
two-player random game is timed alongside, alternating, as the baseline: the ratio says what the
solo opponent's decisions cost.  Prints the medians over the repeats.
"""

from __future__ import annotations

import argparse
import statistics
import time

from crisis.content.loader import load_content
from crisis.interpreter.batch import Job
from crisis.interpreter.engine.game import Options
from crisis.interpreter.engine.program import program_of


def solo_options(content, side: str) -> Options:
    """The content's solo game with the automa on ``side``, as ``crisis sim --solo`` sets it up
    (the options its overlay turns on, its first difficulty)."""
    automa = program_of(content).automa_rules
    return Options(frozenset(name for name, on in automa.options.items() if on), solo=side,
                   difficulty=next(iter(automa.difficulty), None))


def rate(content, options, seeds) -> float:
    started = time.perf_counter()
    played = sum(1 for _ in Job(content, options).play(seeds))
    return played / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--content", default=None)
    args = parser.parse_args()
    content = load_content(args.content)
    if program_of(content).automa_rules is None:
        parser.error(f"{content.root} has no solo game")
    sides = content.sides
    solo, baseline = [], []
    for repeat in range(args.repeats):
        first = 1 + repeat * args.games
        seeds = range(first, first + args.games)
        baseline.append(rate(content, Options(), seeds))
        per_side = [rate(content, solo_options(content, side), seeds) for side in sides]
        solo.append(len(sides) / sum(1 / r for r in per_side))  # games per second over both sides
    print(f"{args.games} games per side x {args.repeats} repeats")
    print(f"solo games per second: median {statistics.median(solo):.0f} (min {min(solo):.0f}, max {max(solo):.0f})")
    print(f"two-player random games per second: median {statistics.median(baseline):.0f}")
    print(f"a solo game costs {statistics.median(baseline) / statistics.median(solo):.1f} two-player random games")


if __name__ == "__main__":
    main()
