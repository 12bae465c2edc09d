"""How strong a bot is against another: its win rate playing each side, with 95% intervals.

    python benchmarks/bots.py --bot search --against random --games 1000 [--seed 1]
                              [--event-discard] [--part 1/2 --out part1.json]
    python benchmarks/bots.py --merge part1.json part2.json

Plays ``--games`` games with the bot as the first side (seeds S .. S+N-1) and as many with it
as the second side (the same seeds), through the batch API (``crisis.interpreter.batch``),
and prints the bot's win rate on each side and over both, each with its Wilson interval, and
the CPU time per game.  ``--part i/k`` plays the i-th of k slices of the seeds and writes the
counts to ``--out``, so that slices run side by side in separate processes can be added up
with ``--merge``.  Bot names are those of ``crisis sim`` (``search:40``: 40 iterations).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crisis.balance.stats import wilson  # noqa: E402
from crisis.content.loader import load_content  # noqa: E402
from crisis.interpreter.batch import Job  # noqa: E402
from crisis.interpreter.game import Options  # noqa: E402


def play(args) -> dict:
    content = load_content(args.content)
    index, parts = (int(x) for x in args.part.split("/"))
    seeds = [s for k, s in enumerate(range(args.seed, args.seed + args.games)) if k % parts == index - 1]
    options = Options(event_discard=args.event_discard)
    counts = {"bot": args.bot, "against": args.against, "games": [0, 0], "wins": [0, 0], "cpu": 0.0,
              "sides": list(content.board.sides), "seeds": seeds}
    for side in (0, 1):
        names = (args.bot, args.against) if side == 0 else (args.against, args.bot)
        started = time.process_time()
        for record in Job(content, options, names).play(seeds):
            counts["games"][side] += 1
            counts["wins"][side] += record.winner == side
        counts["cpu"] += time.process_time() - started
    return counts


def report(counts: dict) -> None:
    def line(label, wins, games):
        p, low, high = wilson(wins, games)
        return f"  {label:28} {100 * p:5.1f}%  (95% interval {100 * low:.1f}-{100 * high:.1f}%)  {wins}/{games}"
    games, wins = counts["games"], counts["wins"]
    print(f"{counts['bot']} against {counts['against']}:")
    for side in (0, 1):
        print(line(f"as {counts['sides'][side]}", wins[side], games[side]))
    print(line("both sides", sum(wins), sum(games)))
    print(f"  {counts['cpu'] / max(1, sum(games)):.2f} s of CPU per game")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--against", default="random")
    parser.add_argument("--games", type=int, default=1000, help="games on each side")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--content")
    parser.add_argument("--event-discard", action="store_true")
    parser.add_argument("--part", default="1/1", help="play the i-th of k slices of the seeds: i/k")
    parser.add_argument("--out", help="write the counts as JSON")
    parser.add_argument("--merge", nargs="+", help="add up the counts of slices written with --out")
    args = parser.parse_args()
    if args.merge:
        parts = [json.loads(Path(p).read_text()) for p in args.merge]
        counts = dict(parts[0])
        for key in ("games", "wins"):
            counts[key] = [sum(p[key][side] for p in parts) for side in (0, 1)]
        counts["cpu"] = sum(p["cpu"] for p in parts)
    else:
        counts = play(args)
        if args.out:
            Path(args.out).write_text(json.dumps(counts))
    report(counts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
