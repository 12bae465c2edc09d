"""The general engine's bots (interpreter/players/) against each other, here or on the code of an
earlier commit: win rates per side with 95% Wilson intervals, and CPU seconds per game.

    python benchmarks/players.py --bot heuristic --against random --games 200 [--jobs 2]
    python benchmarks/players.py --bot search --against heuristic --games 100 --baseline f1e6263
    python benchmarks/players.py --bot heuristic@/tmp/retuned --against heuristic --games 500 --jobs 2

Seeds S .. S+N-1, the bot playing the first side, then the same seeds with it playing the
second.  ``NAME@DIR`` plays a bot with the settings and evaluation of the content in DIR (a
copy of the game with its bots/*.yaml changed), against the shipped ones, say.

``--baseline REV`` plays every game a second time on the code of commit REV (``git archive``
into a folder of its own, run in processes of its own), the two alternating game by game, so
that both meet the same load: the report gives each one's CPU time per game, their ratio per
game (median and range), and how many games were the same (the same actions).  ``--out FILE``
adds one line per game (JSON) to FILE; ``--report FILE ...`` sums such files up (a long match
played in chunks, ``--seed`` apart).  ``--content DIR`` plays a copy of the content (a setting
of bots/search.yaml changed, say).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from crisis.interpreter.engine.program import program_of

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

_CONTENT = None
_CONTENT_DIR = None


def content():
    global _CONTENT
    if _CONTENT is None:
        from crisis.content.loader import load_content
        _CONTENT = load_content(_CONTENT_DIR)
    return _CONTENT


_OTHERS = {}


def other_content(folder: str):
    """Another content folder's bots (the same rules, other bots/*.yaml), loaded once."""
    found = _OTHERS.get(folder)
    if found is None:
        from crisis.content.loader import load_content
        found = _OTHERS[folder] = load_content(folder)
    return found


def new_bot(name: str, seed: int, side: int):
    """A bot by name: random, heuristic, search or search:BUDGET; NAME@DIR plays with the bots'
    settings and evaluation of the content in DIR (a copy with bots/*.yaml changed)."""
    name, _, folder = name.partition("@")
    if folder:
        other = other_content(folder)
        evaluation, settings = program_of(other).definition.evaluation, other.bots.search
    else:
        evaluation = settings = None
    from crisis.interpreter.players.registry import RandomBot
    from crisis.interpreter.players.heuristic import HeuristicBot
    from crisis.interpreter.players.search import SearchBot
    from crisis.content.bots import Budget
    base, _, setting = name.partition(":")
    # another content's bots only when asked (a --baseline tree's bots may not take them)
    given = {"evaluation": evaluation} if folder else {}
    if base == "random":
        return RandomBot(seed, side)
    if base == "heuristic":
        return HeuristicBot(seed, side, **given)
    if base == "search":
        return SearchBot(seed, side, Budget.parse(setting) if setting else None,
                         **(dict(given, settings=settings) if folder else {}))
    raise SystemExit(f"unknown bot {name}")


def play(task):
    """One game: (seed, side the bot plays, bot, opponent) -> (bot won, CPU seconds, digest of
    the actions taken)."""
    seed, side, bot, against = task
    started = time.process_time()
    c = content()
    from crisis.interpreter.engine.game import Game
    game = Game.of(c, seed, log=False)
    names = [None, None]
    names[side], names[1 - side] = bot, against
    players = [new_bot(name, seed, s) for s, name in enumerate(names)]
    taken = []
    while game.decision is not None:
        decision = game.decision
        text = players[decision.player].choose(game, decision).text
        game.apply(text)
        taken.append(text)
    digest = hashlib.sha1("\n".join(taken).encode()).hexdigest()[:12]
    return game.view.winner == side, time.process_time() - started, digest


# ------------------------------------------------------------------ workers


def worker() -> None:
    """Plays the games named on standard input (one JSON task a line), one JSON result a line."""
    for line in sys.stdin:
        task = json.loads(line)
        won, cpu, digest = play(tuple(task))
        print(json.dumps([won, cpu, digest]), flush=True)


def baseline_tree(rev: str, repo: Path = ROOT) -> Path:
    """The code of commit ``rev`` of ``repo``, unpacked once into a folder importable as ``crisis``."""
    full = subprocess.run(["git", "-C", str(repo), "rev-parse", rev], check=True, capture_output=True,
                          text=True).stdout.strip()
    folder = Path(tempfile.gettempdir()) / f"crisis-baseline-{full[:12]}"
    if not (folder / "crisis" / "benchmarks" / "players.py").exists():
        (folder / "crisis").mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(repo), "archive", full], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(folder / "crisis")], input=archive, check=True)
    # the baseline plays with this file's worker (its own may predate it), as this file is now
    (folder / "crisis" / "benchmarks" / "players_worker.py").write_text(Path(__file__).read_text())
    return folder


class Workers:
    """Processes that play games on one version of the code."""

    def __init__(self, jobs: int, pythonpath=None, script=None, content_dir=None):
        env = dict(os.environ)
        if pythonpath is not None:
            env["PYTHONPATH"] = str(pythonpath) + os.pathsep + env.get("PYTHONPATH", "")
        command = [sys.executable, str(script or Path(__file__)), "--worker"]
        if content_dir:
            command += ["--content", str(content_dir)]
        self.processes = [subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                           env=env, cwd=tempfile.gettempdir()) for _ in range(jobs)]

    def run(self, tasks, results, label, out, lock):
        """Plays ``tasks`` (index, task) on the workers, writing into ``results[index]``."""
        queue = list(tasks)
        queue.reverse()

        def feed(process):
            while True:
                with lock:
                    if not queue:
                        break
                    index, task = queue.pop()
                process.stdin.write(json.dumps(task) + "\n")
                process.stdin.flush()
                line = process.stdout.readline()
                if not line:
                    raise SystemExit(f"a worker of {label} stopped")
                won, cpu, digest = json.loads(line)
                with lock:
                    results[index] = (won, cpu, digest)
                    if out is not None:
                        seed, side, bot, against = task
                        out.write(json.dumps({"code": label, "seed": seed, "side": side, "bot": bot,
                                              "against": against, "won": won, "cpu": cpu,
                                              "actions": digest}) + "\n")
                        out.flush()
            process.stdin.close()
            process.wait()

        threads = [threading.Thread(target=feed, args=(p,)) for p in self.processes]
        for thread in threads:
            thread.start()
        return threads


# ------------------------------------------------------------------ reports


def summary(label, records, sides) -> None:
    from crisis.balance.stats import wilson
    bots = sorted({(r["bot"], r["against"]) for r in records})
    for bot, against in bots:
        mine = [r for r in records if (r["bot"], r["against"]) == (bot, against)]
        for side in (0, 1):
            games = [r for r in mine if r["side"] == side]
            if not games:
                continue
            won = sum(r["won"] for r in games)
            rate, low, high = wilson(won, len(games))
            print(f"{label}{bot} as {sides[side]} against {against}: {won}/{len(games)} = {rate:.1%} "
                  f"({low:.1%}-{high:.1%})")
        won = sum(r["won"] for r in mine)
        rate, low, high = wilson(won, len(mine))
        cpu = [r["cpu"] for r in mine]
        print(f"{label}both sides: {won}/{len(mine)} = {rate:.1%} ({low:.1%}-{high:.1%}); CPU s per game: mean "
              f"{statistics.mean(cpu):.3f}, median {statistics.median(cpu):.3f}")


def compare(current, baseline) -> None:
    """Paired games: CPU ratios and games played alike."""
    ratios = sorted(b["cpu"] / c["cpu"] for c, b in zip(current, baseline) if c["cpu"] > 0)
    same = sum(c["actions"] == b["actions"] for c, b in zip(current, baseline))
    if not ratios:
        return
    total = sum(b["cpu"] for b in baseline) / max(1e-9, sum(c["cpu"] for c in current))
    low, high = ratios[len(ratios) // 20], ratios[-1 - len(ratios) // 20]
    print(f"baseline CPU / this code's, per game: median {statistics.median(ratios):.2f}x "
          f"(5%-95%: {low:.2f}-{high:.2f}x; all games together {total:.2f}x); "
          f"{same}/{len(ratios)} games took the same actions")


def report(files) -> None:
    records = [json.loads(line) for name in files for line in Path(name).read_text().splitlines() if line.strip()]
    sides = program_of(content()).schema.sides
    for label in sorted({r["code"] for r in records}):
        summary(f"[{label}] ", [r for r in records if r["code"] == label], sides)
    current = {(r["seed"], r["side"], r["bot"], r["against"]): r for r in records if r["code"] == "this"}
    baseline = {(r["seed"], r["side"], r["bot"], r["against"]): r for r in records if r["code"] != "this"}
    keys = sorted(set(current) & set(baseline))
    compare([current[k] for k in keys], [baseline[k] for k in keys])


def main() -> None:
    global _CONTENT_DIR
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--against", default="random")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--content", help="a content folder (default: the shipped game)")
    parser.add_argument("--baseline", help="a commit whose code plays the same games, alternately")
    parser.add_argument("--repo", default=str(ROOT), help="the git repository --baseline names a commit of")
    parser.add_argument("--out", help="a file to add one JSON line per game to")
    parser.add_argument("--report", nargs="+", help="sum up files written by --out, and play nothing")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    _CONTENT_DIR = args.content
    if args.worker:
        worker()
        return
    if args.report:
        report(args.report)
        return
    tasks = [(seed, side, args.bot, args.against) for side in (0, 1)
             for seed in range(args.seed, args.seed + args.games)]
    started = time.perf_counter()
    out = open(args.out, "a", encoding="utf-8") if args.out else None
    lock = threading.Lock()
    labels = ["this"]
    pools = [Workers(args.jobs, content_dir=args.content)]
    if args.baseline:
        tree = baseline_tree(args.baseline, Path(args.repo))
        labels.append(args.baseline)
        pools.append(Workers(args.jobs, pythonpath=tree, script=tree / "crisis" / "benchmarks" / "players_worker.py",
                             content_dir=args.content))
    results = {label: [None] * len(tasks) for label in labels}
    threads = []
    for label, pool in zip(labels, pools):
        threads += pool.run(enumerate(tasks), results[label], label, out, lock)
    for thread in threads:
        thread.join()
    if out is not None:
        out.close()
    for label in labels:
        if any(result is None for result in results[label]):
            raise SystemExit(f"the code of {label} did not play every game (its worker's error is above)")
    sides = program_of(content()).schema.sides
    records = {label: [{"seed": t[0], "side": t[1], "bot": t[2], "against": t[3], "won": r[0], "cpu": r[1],
                        "actions": r[2]} for t, r in zip(tasks, results[label])] for label in labels}
    for label in labels:
        summary(f"[{label}] " if args.baseline else "", records[label], sides)
    if args.baseline:
        compare(records["this"], records[args.baseline])
    print(f"{time.perf_counter() - started:.0f} s wall")


if __name__ == "__main__":
    main()
