"""How strong a bot is against another: its win rate playing each side, with 95% intervals.

    python benchmarks/bots.py --bot search --against random --games 1000 [--seed 1]
                              [--event-discard] [--jobs N] [--out counts.json]

Plays ``--games`` games with the bot as the first side (seeds S .. S+N-1) and as many with it
as the second side (the same seeds), through the batch API (``crisis.interpreter.batch``, on
``--jobs`` processes, default every core), and prints the bot's win rate on each side and over
both, each with its Wilson interval, and the time per game.  Bot names are those of
``crisis sim`` (``search:40``: 40 iterations per decision).
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
from crisis.interpreter import batch  # noqa: E402
from crisis.interpreter.game import Options  # noqa: E402


def play(args) -> dict:
    content = load_content(args.content)
    options = Options(event_discard=args.event_discard)
    jobs = args.jobs or batch.default_jobs()
    counts = {"bot": args.bot, "against": args.against, "games": [0, 0], "wins": [0, 0], "seconds": 0.0,
              "jobs": jobs, "sides": list(content.board.sides), "first_seed": args.seed}
    for side in (0, 1):
        names = (args.bot, args.against) if side == 0 else (args.against, args.bot)
        started = time.perf_counter()
        for chunk in batch.run(batch.Job(content, options, names), args.seed, args.games, jobs):
            counts["games"][side] += chunk.summary.games
            counts["wins"][side] += chunk.summary.wins[side]
        counts["seconds"] += time.perf_counter() - started
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
    per_game = counts["seconds"] * counts["jobs"] / max(1, sum(games))
    print(f"  {counts['seconds']:.0f} s on {counts['jobs']} processes: {per_game:.2f} process-seconds per game")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--against", default="random")
    parser.add_argument("--games", type=int, default=1000, help="games on each side")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--content")
    parser.add_argument("--event-discard", action="store_true")
    parser.add_argument("--jobs", type=int, help="processes (default: every core)")
    parser.add_argument("--out", help="also write the counts as JSON")
    args = parser.parse_args()
    counts = play(args)
    if args.out:
        Path(args.out).write_text(json.dumps(counts))
    report(counts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
