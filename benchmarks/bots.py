"""How strong a bot is against another: its win rate playing each side, with 95% intervals.

    python benchmarks/bots.py --bot search --against random --games 1000 [--seed 1]
                              [--event-discard] [--jobs N] [--out counts.json]

Plays ``--games`` games with the bot as the first side (seeds S .. S+N-1) and as many with it
as the second side (the same seeds), through the batch API (``crisis.interpreter.batch``, on
``--jobs`` processes, default every core), and prints the bot's win rate on each side and over
both, each with its Wilson interval, and the time per game: CPU seconds (user + system) of
this process and of the processes that played, which a run beside other work does not
inflate, and the wall clock.  Bot names are those of ``crisis sim`` (``search:40``: 40
iterations per decision).

With ``--jobs 1`` the games are played in this process and each bot's time per decision is
measured too (wall clock and CPU time of the process, median, 99th percentile and worst; for
every decision and for card plays alone, where the search bot searches).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import cpu_used  # noqa: E402 - the benchmarks share their helpers

from crisis.balance.stats import wilson  # noqa: E402
from crisis.content.loader import load_content  # noqa: E402
from crisis.interpreter import batch  # noqa: E402
from crisis.interpreter.engine.game import Options, option_names  # noqa: E402
from crisis.interpreter.engine.program import program_of  # noqa: E402
from crisis.interpreter.players import registry as controllers  # noqa: E402


# (bot name, decision kind) -> [(wall seconds, CPU seconds)] of each decision, in this process
TIMES = defaultdict(list)


def timed(name: str) -> str:
    """The name of a controller that plays as ``name`` and records how long each choice took."""
    factory = controllers.controller_factory(name)

    def build(seed, side):
        bot = factory(seed, side)

        class Timed(controllers.Controller):
            stateless = bot.stateless

            def choose(self, game, decision):
                wall, cpu = time.perf_counter(), time.process_time()
                action = bot.choose(game, decision)
                TIMES[name, decision.kind].append((time.perf_counter() - wall, time.process_time() - cpu))
                return action
        return Timed()
    controllers.register(f"timed/{name}", build)
    return f"timed/{name}"


def cpu_seconds() -> float:
    """CPU (user + system) of this process and of its children that have ended: the pool's
    workers are reaped when ``batch.run`` ends, so a run's workers are counted once it is over."""
    return cpu_used(resource.RUSAGE_SELF) + cpu_used(resource.RUSAGE_CHILDREN)


def play(args) -> dict:
    content = load_content(args.content)
    options = Options(frozenset(option_names(program_of(content))) if args.event_discard else frozenset())
    jobs = args.jobs or batch.default_jobs()
    names = (args.bot, args.against)
    if jobs == 1:  # played here: the choices can be timed
        names = tuple(timed(name) for name in names)
    counts = {"bot": args.bot, "against": args.against, "games": [0, 0], "wins": [0, 0], "seconds": 0.0,
              "cpu_seconds": 0.0, "jobs": jobs, "sides": list(content.sides), "first_seed": args.seed}
    for side in (0, 1):
        pairing = names if side == 0 else names[::-1]
        started, cpu = time.perf_counter(), cpu_seconds()
        for chunk in batch.run(batch.Job(content, options, pairing), args.seed, args.games, jobs):
            counts["games"][side] += chunk.summary.games
            counts["wins"][side] += chunk.summary.wins.get(side, 0)  # a chunk the side lost holds no key
        counts["seconds"] += time.perf_counter() - started
        counts["cpu_seconds"] += cpu_seconds() - cpu
    if TIMES:
        counts["decisions"] = {f"{name}/{kind}": times for (name, kind), times in sorted(TIMES.items())}
    return counts


def time_lines(counts: dict) -> list:
    """Each bot's time per decision: every decision, and card plays alone."""
    groups = defaultdict(list)
    for key, times in counts.get("decisions", {}).items():
        name, _, kind = key.rpartition("/")
        groups[name, "every decision"].extend(times)
        if kind == "play_card":
            groups[name, "card plays"].extend(times)
    lines = []
    for (name, label), times in sorted(groups.items()):
        wall = sorted(t[0] for t in times)
        cpu = sorted(t[1] for t in times)
        p99 = wall[min(len(wall) - 1, int(0.99 * len(wall)))]
        lines.append(f"  {name:12} {label:15} {len(times):7} decisions; wall median {1000 * statistics.median(wall):7.1f} ms,"
                     f" 99th percentile {1000 * p99:7.1f} ms, worst {1000 * wall[-1]:7.1f} ms;"
                     f" CPU median {1000 * statistics.median(cpu):7.1f} ms, worst {1000 * cpu[-1]:7.1f} ms")
    return lines


def report(counts: dict) -> None:
    def line(label, wins, games):
        p, low, high = wilson(wins, games)
        return f"  {label:28} {100 * p:5.1f}%  (95% interval {100 * low:.1f}-{100 * high:.1f}%)  {wins}/{games}"
    games, wins = counts["games"], counts["wins"]
    print(f"{counts['bot']} against {counts['against']}:")
    for side in (0, 1):
        print(line(f"as {counts['sides'][side]}", wins[side], games[side]))
    print(line("both sides", sum(wins), sum(games)))
    played = max(1, sum(games))
    print(f"  {counts['cpu_seconds'] / played:.2f} CPU s per game ({counts['cpu_seconds']:.0f} CPU s in all;"
          f" {counts['seconds']:.0f} s wall on {counts['jobs']} processes)")
    for text in time_lines(counts):
        print(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--against", default="random")
    parser.add_argument("--games", type=int, default=1000, help="games on each side")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--content")
    parser.add_argument("--event-discard", action="store_true", help="the content's optional rules on")
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
