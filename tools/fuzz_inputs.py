"""Long fuzz run over untrusted input: content folders and saved games.

Each case damages a fresh copy of the shipped content (or a saved game) with
the mutations of tests/mutations.py and loads it as ``crisis check`` would
(and, when the content is accepted, plays a whole game between random bots
within its decision bound; a damaged save is read and replayed as ``crisis
resume`` would).  Cases run in worker processes under a memory cap, one at a
time, with a time limit; a case past the limit is counted as a hang and its
worker is replaced.

    python tools/fuzz_inputs.py --content 10000 --saves 1000 --seed 1 --jobs 2

prints the counts (clean errors, valid loads, tracebacks, hangs, memory
peak) and writes every failing case's seed and mutation to --failures.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import resource
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))


def _worker(conn, memory_mb: int) -> None:
    cap = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    from crisis.cli import saves
    from crisis.content.loader import default_content_dir, load_content
    from crisis.interpreter.controllers import RandomBot
    from crisis.interpreter.game import Game
    from mutations import content_outcome, mutate_content, mutate_save, save_outcome

    content = load_content()
    pristine = default_content_dir()
    game = Game(content, 3, log=False)
    bots = [RandomBot(3, 0), RandomBot(3, 1)]
    while not game.over:
        game.apply(bots[game.decision.player].choose(game, game.decision))
    whole = list(game.history)
    while True:
        try:
            job = conn.recv()
        except EOFError:  # the run was stopped
            return
        if job is None:
            return
        kind, seed = job
        rng = random.Random(seed)
        what = ""
        with tempfile.TemporaryDirectory() as folder:
            try:  # damage first: a failure here is the harness's, not crisis's
                if kind == "content":
                    target = Path(folder) / "content"
                    shutil.copytree(pristine, target, ignore=shutil.ignore_patterns("scenarios"))
                    what = mutate_content(rng, target)
                else:
                    data = saves.SavedGame(game=content.board.game, digest=content.digest, seed=3,
                                           options={"event_discard": False},
                                           controllers={side: "human" for side in content.board.sides},
                                           actions=whole[:rng.randrange(len(whole) + 1)]).to_json()
                    target = Path(folder) / "game.json"
                    what = mutate_save(rng, data, target)
            except Exception as error:
                conn.send(("harness", what, "".join(traceback.format_exception(error))[-3000:], 0))
                continue
            try:
                outcome = content_outcome(target) if kind == "content" else save_outcome(target, content)
                result = (outcome, what, "")
            except MemoryError:
                result = ("memory", what, "MemoryError")
            except BaseException as error:  # anything else is what the run is looking for
                result = ("traceback", what, "".join(traceback.format_exception(error))[-3000:])
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        conn.send(result + (peak,))


class Pool:
    def __init__(self, memory_mb: int):
        self.memory_mb = memory_mb
        self.start()

    def start(self):
        context = multiprocessing.get_context("fork")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_worker, args=(child, self.memory_mb), daemon=True)
        self.process.start()

    def run(self, job, timeout: float):
        """(outcome, mutation, detail, peak MB); ('hang', ...) past the timeout, ('crash', ...) if the worker died."""
        self.conn.send(job)
        if self.conn.poll(timeout):
            try:
                return self.conn.recv()
            except EOFError:
                pass
            self.process.join(5)
            code = self.process.exitcode
            self.start()
            return ("crash", "", f"worker exited with status {code}", 0)
        self.process.kill()
        self.process.join(5)
        self.start()
        return ("hang", "", f"more than {timeout} s", 0)

    def close(self):
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.process.join(5)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--content", type=int, default=10_000, help="content mutations (default 10000)")
    parser.add_argument("--saves", type=int, default=1_000, help="save mutations (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per case before it counts as a hang")
    parser.add_argument("--memory", type=int, default=1024, help="memory cap per worker, MiB (default 1024)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--failures", default="fuzz-failures.jsonl", help="where failing cases are written")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)

    jobs = [("content", args.seed * 1_000_003 + i) for i in range(args.content)]
    jobs += [("save", args.seed * 1_000_003 + 500_000 + i) for i in range(args.saves)]
    counts = {kind: {"cases": 0, "error": 0, "valid": 0, "traceback": 0, "hang": 0, "memory": 0, "crash": 0,
                     "harness": 0}
              for kind in ("content", "save")}
    peak = 0
    slowest = 0.0
    started = time.perf_counter()
    failures = open(args.failures, "w", encoding="utf-8")
    pools = [Pool(args.memory) for _ in range(args.jobs)]
    import concurrent.futures as cf
    with cf.ThreadPoolExecutor(args.jobs) as threads:
        free = list(pools)
        pending = {}
        queue = list(jobs)
        done = 0
        while queue or pending:
            while queue and free:
                pool = free.pop()
                job = queue.pop(0)
                t0 = time.perf_counter()
                pending[threads.submit(pool.run, job, args.timeout)] = (pool, job, t0)
            finished, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for future in finished:
                pool, (kind, seed), t0 = pending.pop(future)
                free.append(pool)
                outcome, what, detail, rss = future.result()
                slowest = max(slowest, time.perf_counter() - t0)
                peak = max(peak, rss)
                counts[kind]["cases"] += 1
                counts[kind][outcome] += 1
                if outcome not in ("error", "valid"):
                    failures.write(json.dumps({"kind": kind, "seed": seed, "outcome": outcome, "mutation": what,
                                               "detail": detail}) + "\n")
                    failures.flush()
                done += 1
                if done % 500 == 0:
                    print(f"{done} cases, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    for pool in pools:
        pool.close()
    failures.close()
    summary = {"seconds": round(time.perf_counter() - started), "memory_peak_mb": peak, "slowest_case_s": round(slowest, 2),
               "timeout_s": args.timeout, "memory_cap_mb": args.memory, **counts}
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        for kind in ("content", "save"):
            c = counts[kind]
            print(f"{kind} mutations: {c['cases']} tried: {c['error']} clean errors, {c['valid']} valid loads, "
                  f"{c['traceback']} tracebacks, {c['hang']} hangs, {c['memory']} out of memory, {c['crash']} crashes"
                  + (f" ({c['harness']} cases the harness could not damage)" if c["harness"] else ""))
        print(f"memory peak {peak} MB (cap {args.memory} MiB per worker); slowest case {slowest:.1f} s "
              f"(limit {args.timeout:.0f} s); {summary['seconds']} s in all")
    bad = sum(c[k] for c in counts.values() for k in ("traceback", "hang", "memory", "crash", "harness"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
