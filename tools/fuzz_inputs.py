"""Long fuzz run over untrusted input: content folders and saved games.

Each case damages a fresh copy of the shipped content (or a saved game) with
the mutations of tests/mutations.py and loads it as ``crisis check`` would
(and, when the content is accepted, plays a whole game between random bots
within its decision bound; a damaged save is read and replayed as ``crisis
resume`` would).  Half the content cases (``--rules-share``) are changed with
well-formed rules instead of damage (card events, procedures and the Solo
Opponent's procedures rewritten with nested constructs, definitions that
use each other, contractions), so that most of them are accepted.

Content that is accepted is then played as a designer would (``--plays``):
two-player games between heuristic bots and between search bots (a small
budget), ``crisis play --bots --solo`` and ``crisis play --bots`` with their
logs and ``crisis cards`` and ``crisis aid`` in every language.  Each play
has its own limit of CPU time (``--play-timeout``); accepted content must never
give a traceback, a hang, an out-of-memory, nor even a clean error there.

Saves are damaged as a person editing one by hand would (types, keys given
twice, seeds out of range, controllers that disagree with the options, long
texts), and games are played and saved on a failing disk (``--disk``): a
file-size limit on the process, so that every write past it fails as on a
full disk, or the rename that makes a save failing with a full disk, a
read-only folder, a quota or an I/O error, for a while or for good; and two
processes resuming one game at once.  What the command says of the save must
be true ('the whole game is saved' only when it is), the file must read,
and no temporary or lock file may be left.

The language server is then sent hostile messages (``--lsp``, one server for
the run, started again if it dies or stops answering): broken frames,
requests whose params do not fit, documents that are FIFOs, links to
/dev/zero or out of the content folder, oversized and undecodable texts,
floods of saves, a scenario file that plays for minutes.  Every request must
be answered, the server must keep answering, never print a traceback and
stay within its memory.

Cases run in worker processes under a memory cap, one at a time, with a
time limit; a case past the limit is counted as a hang and its worker is
replaced.

    python tools/fuzz_inputs.py --content 10000 --saves 1000 --disk 200 --lsp 1000 --seed 1 --jobs 2

damages the default game; ``--game civil-war-card-game`` damages another
shipped game's content instead (its own statements, nested anew, make its
well-formed rules), the saves, the disk and the language server staying on
the default game.

prints the counts (clean errors, valid loads, tracebacks, hangs, memory
peak; then each play's, the disk cases' and the language server's) and
writes every failing case's seed and mutation to --failures.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import resource
import sys
import tempfile
import time
import traceback
from pathlib import Path
from crisis.interpreter.engine.program import program_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from mutations import PLAYS  # noqa: E402 - the tests' folder is on the path from here on


def _plays(target: Path, seed: int, plays, timeout: float):
    """Each play on the accepted content at ``target``: [(play, outcome, detail)]."""
    from crisis.content.loader import load_content
    from mutations import Alarm, PlayTimeout, play
    content = load_content(target)
    found = []
    for which in plays:
        try:
            with Alarm(timeout):
                found.append((which, play(target, which, seed, content), ""))
        except PlayTimeout as error:
            found.append((which, "hang", str(error)))
        except MemoryError:
            found.append((which, "memory", "MemoryError"))
        except BaseException as error:  # what the run is looking for
            found.append((which, "traceback", "".join(traceback.format_exception(error))[-3000:]))
    return found


def _worker(conn, memory_mb: int, source: Path) -> None:
    cap = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    from crisis.cli import saves
    from crisis.content.loader import load_content
    from crisis.cli.session import saved_options
    from crisis.interpreter.engine.game import Game, Options
    from crisis.interpreter.players.registry import RandomBot
    from mutations import BrokenPromise, content_outcome, copy_content, disk_case, mutate_content, mutate_rules, \
        mutate_save, save_outcome

    content = load_content()  # saves and the disk: the default game's, as `crisis play` plays it
    pristine = source  # the content damaged: --game's
    game = Game.of(content, 3, log=False)
    bots = [RandomBot(3, side) for side in range(len(content.sides))]
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
        kind, seed, rules_share, plays, play_timeout = job
        rng = random.Random(seed)
        what = ""
        played = []
        with tempfile.TemporaryDirectory() as folder:
            if kind == "disk":  # a game on a failing disk: played and judged in one go
                try:
                    result = ("valid", disk_case(rng, Path(folder), content), "")
                except BrokenPromise as broken:
                    result = ("wrong", "", str(broken)[-3000:])
                except MemoryError:
                    result = ("memory", "", "MemoryError")
                except BaseException as error:
                    result = ("traceback", "", "".join(traceback.format_exception(error))[-3000:])
                peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
                conn.send(result + (peak, []))
                continue
            try:  # damage first: a failure here is the harness's, not crisis's
                if kind == "content":
                    target = Path(folder) / "content"
                    copy_content(pristine, target)
                    what = (mutate_rules if rng.random() < rules_share else mutate_content)(rng, target)
                else:
                    data = saves.SavedGame(game=content.game, digest=content.digest, seed=3,
                                           options=saved_options(program_of(content), Options()),
                                           controllers={side: "human" for side in content.sides},
                                           actions=whole[:rng.randrange(len(whole) + 1)]).to_json()
                    target = Path(folder) / "game.json"
                    what = mutate_save(rng, data, target)
            except Exception as error:
                conn.send(("harness", what, "".join(traceback.format_exception(error))[-3000:], 0, []))
                continue
            try:
                outcome = content_outcome(target) if kind == "content" else save_outcome(target, content)
                result = (outcome, what, "")
            except MemoryError:
                result = ("memory", what, "MemoryError")
            except BaseException as error:  # anything else is what the run is looking for
                result = ("traceback", what, "".join(traceback.format_exception(error))[-3000:])
            if kind == "content" and result[0] == "valid" and plays:
                try:
                    played = _plays(target, seed, plays, play_timeout)
                except MemoryError:
                    played = [("load", "memory", "MemoryError")]
                except BaseException as error:
                    played = [("load", "traceback", "".join(traceback.format_exception(error))[-3000:])]
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        conn.send(result + (peak, played))


class Pool:
    def __init__(self, memory_mb: int, source: Path):
        self.memory_mb, self.source = memory_mb, source
        self.start()

    def start(self):
        context = multiprocessing.get_context("fork")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_worker, args=(child, self.memory_mb, self.source), daemon=True)
        self.process.start()

    def run(self, job, timeout: float):
        """(outcome, mutation, detail, peak MB); ('hang', ...) past the timeout, ('crash', ...) if the worker died."""
        self.conn.send(job)
        if self.conn.poll(timeout):
            try:
                result = self.conn.recv()
            except (EOFError, OSError):  # the worker died (killed, or out of memory as it started)
                pass
            else:
                if result[0] == "memory" or any(outcome == "memory" for _, outcome, _ in result[4]):
                    # a worker that ran out of memory is not trusted with the next case: one case's
                    # finding must not turn into every later case's
                    self.close()
                    self.start()
                return result
            self.process.join(5)
            code = self.process.exitcode
            self.start()
            return ("crash", "", f"worker exited with status {code}", 0, [])
        self.process.kill()
        self.process.join(5)
        self.start()
        return ("hang", "", f"more than {timeout} s", 0, [])

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
    parser.add_argument("--disk", type=int, default=200, help="games saved on a failing disk (default 200)")
    parser.add_argument("--lsp", type=int, default=1_000, help="hostile messages to the language server (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", metavar="NAME",
                        help="the shipped game whose content is damaged (default: the default game; saves, the "
                             "disk and the language server stay on the default game)")
    parser.add_argument("--from", dest="first", type=int, default=0, metavar="N",
                        help="the first content case to run (default 0): runs of --seed S with --from 0 "
                             "--content 5000 and --from 5000 --content 5000 play the cases of one run of 10000")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per case before it counts as a hang")
    parser.add_argument("--memory", type=int, default=1024, help="memory cap per worker, MiB (default 1024)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--failures", default="fuzz-failures.jsonl", help="where failing cases are written")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--rules-share", type=float, default=0.5,
                        help="share of content cases changed with well-formed rules rather than damaged (default 0.5)")
    parser.add_argument("--plays", default=",".join(PLAYS),
                        help=f"what is done with accepted content, or 'none' (default {','.join(PLAYS)})")
    parser.add_argument("--case", type=int, metavar="SEED",
                        help="write the content folder of the content case SEED (a seed of --failures) to --keep, "
                             "print its mutation and stop: what crisis commands can then be run on")
    parser.add_argument("--keep", metavar="DIR", help="with --case: the folder to write (it must not exist)")
    parser.add_argument("--play-timeout", type=float, default=30.0,
                        help="seconds of CPU time per play before it counts as a hang")
    args = parser.parse_args(argv)
    from crisis.content.games import game_path, shipped_games
    from crisis.content.loader import default_content_dir
    if args.game and game_path(args.game) is None:
        parser.error(f"--game: no shipped game '{args.game}': choose among {', '.join(shipped_games())}")
    source = Path(game_path(args.game)) if args.game else Path(default_content_dir())
    if args.case is not None:
        if not args.keep:
            parser.error("--case needs --keep DIR")
        from mutations import copy_content, mutate_content, mutate_rules
        rng = random.Random(args.case)  # as the worker draws it
        copy_content(source, Path(args.keep))
        print((mutate_rules if rng.random() < args.rules_share else mutate_content)(rng, Path(args.keep)))
        return 0
    plays = () if args.plays == "none" else tuple(p for p in args.plays.split(",") if p)
    unknown = [p for p in plays if p not in PLAYS]
    if unknown:
        parser.error(f"unknown play {unknown[0]!r}: choose among {', '.join(PLAYS)}")

    if not 0 <= args.first <= 500_000 - args.content:
        parser.error("--from and --content must stay within the 500000 content cases of a seed")
    jobs = [("content", args.seed * 1_000_003 + i, args.rules_share, plays, args.play_timeout)
            for i in range(args.first, args.first + args.content)]
    jobs += [("save", args.seed * 1_000_003 + 500_000 + i, 0.0, (), 0.0) for i in range(args.saves)]
    jobs += [("disk", args.seed * 1_000_003 + 700_000 + i, 0.0, (), 0.0) for i in range(args.disk)]
    counts = {kind: {"cases": 0, "error": 0, "valid": 0, "wrong": 0, "traceback": 0, "hang": 0, "memory": 0,
                     "crash": 0, "harness": 0}
              for kind in ("content", "save", "disk")}
    played = {which: {"ok": 0, "refused": 0, "traceback": 0, "hang": 0, "memory": 0} for which in plays}
    # a case's own time, then each play's (CPU time, --play-timeout), three times over for a machine
    # shared with other work, and a margin for the worker's start: past it, a case is a hang in wall time
    case_timeout = 3 * (args.timeout + len(plays) * args.play_timeout) + 10
    peak = 0
    slowest = 0.0
    started = time.perf_counter()
    failures = open(args.failures, "w", encoding="utf-8")
    pools = [Pool(args.memory, source) for _ in range(args.jobs)]
    import concurrent.futures as cf
    with cf.ThreadPoolExecutor(args.jobs) as threads:
        free = list(pools)
        pending = {}
        queue = list(jobs)
        done = failed = 0
        while queue or pending:
            while queue and free:
                pool = free.pop()
                job = queue.pop(0)
                t0 = time.perf_counter()
                limit = case_timeout if job[0] == "content" else 4 * args.timeout if job[0] == "disk" else args.timeout
                pending[threads.submit(pool.run, job, limit)] = (pool, job, t0)
            finished, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for future in finished:
                pool, (kind, seed, *_), t0 = pending.pop(future)
                free.append(pool)
                outcome, what, detail, rss, plays_done = future.result()
                slowest = max(slowest, time.perf_counter() - t0)
                peak = max(peak, rss)
                counts[kind]["cases"] += 1
                counts[kind][outcome] += 1
                if outcome not in ("error", "valid"):
                    failures.write(json.dumps({"kind": kind, "seed": seed, "outcome": outcome, "mutation": what,
                                               "detail": detail}) + "\n")
                    failures.flush()
                    failed += 1
                for which, result, why in plays_done:
                    if which in played:
                        played[which][result] += 1
                    if result != "ok":
                        failures.write(json.dumps({"kind": "play", "play": which, "seed": seed, "outcome": result,
                                                   "mutation": what, "detail": why}) + "\n")
                        failures.flush()
                        failed += 1
                done += 1
                if done % 500 == 0:
                    # what was found so far, so that a run cut short still says it
                    print(f"{done} cases, {time.perf_counter() - started:.0f} s, {failed} failures written",
                          file=sys.stderr, flush=True)
    for pool in pools:
        pool.close()
    lsp = None
    if args.lsp:
        from mutations import lsp_run
        lsp_started = time.perf_counter()
        with tempfile.TemporaryDirectory() as folder:
            lsp = lsp_run(random.Random(args.seed), Path(folder), args.lsp,
                          log=lambda line: print(line, file=sys.stderr, flush=True))
        lsp["counts"]["seconds"] = round(time.perf_counter() - lsp_started)
        for failure in lsp["failures"]:
            failures.write(json.dumps(failure) + "\n")
        lsp = lsp["counts"]
    failures.close()
    summary = {"game": source.name, "seed": args.seed, "from": args.first, "seconds": round(time.perf_counter() - started), "memory_peak_mb": peak, "slowest_case_s": round(slowest, 2),
               "timeout_s": args.timeout, "play_timeout_s": args.play_timeout, "memory_cap_mb": args.memory,
               "rules_share": args.rules_share, **counts, "plays": played, "lsp": lsp}
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        for kind in ("content", "save"):
            c = counts[kind]
            print(f"{kind} mutations: {c['cases']} tried: {c['error']} clean errors, {c['valid']} valid loads, "
                  f"{c['traceback']} tracebacks, {c['hang']} hangs, {c['memory']} out of memory, {c['crash']} crashes"
                  + (f" ({c['harness']} cases the harness could not damage)" if c["harness"] else ""))
        c = counts["disk"]
        print(f"games on a failing disk: {c['cases']} played: {c['valid']} kept every promise, {c['wrong']} said "
              f"something untrue or left files, {c['traceback']} tracebacks, {c['hang']} hangs, {c['memory']} out of "
              f"memory, {c['crash']} crashes")
        if lsp:
            print(f"language server: {lsp['cases']} hostile cases, {lsp['requests']} requests: {lsp['answered']} "
                  f"answered, {lsp['unanswered']} unanswered; {lsp['deaf']} times deaf, {lsp['died']} deaths, "
                  f"{lsp['traceback']} tracebacks, {lsp['memory']} over 1 GiB, {lsp['not said']} limits not said, "
                  f"{lsp['not working']} not working after; {lsp['server starts']} server starts, memory peak "
                  f"{lsp['peak_mb']} MB, slowest case {lsp['slowest_s']} s, {lsp['seconds']} s")
        for which, c in played.items():
            print(f"played {which}: {sum(c.values())} accepted contents: {c['ok']} played through, "
                  f"{c['refused']} clean errors, {c['traceback']} tracebacks, {c['hang']} hangs, "
                  f"{c['memory']} out of memory")
        print(f"memory peak {peak} MB (cap {args.memory} MiB per worker); slowest case {slowest:.1f} s "
              f"(limits {args.timeout:.0f} s to load, {args.play_timeout:.0f} s per play); "
              f"{summary['seconds']} s in all")
    bad = sum(c[k] for c in counts.values() for k in ("wrong", "traceback", "hang", "memory", "crash", "harness"))
    bad += sum(c[k] for c in played.values() for k in ("refused", "traceback", "hang", "memory"))
    if lsp:
        bad += sum(lsp[k] for k in ("unanswered", "deaf", "died", "traceback", "memory", "not said", "not working"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
