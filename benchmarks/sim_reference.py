"""``crisis sim --jobs 1`` against the hand-written reference playout, side by side (issue 20).

    python benchmarks/sim_reference.py [--games 4000] [--rounds 7] [--bytecode env,cached]
                                       [--phases] [--profile 40] [--only ratio|phases]
                                       [--start-up] [--content DIR] [--tree DIR] [--before DIR]

1. ratio: CPU time (user + system) of a whole ``crisis sim --games N --jobs 1``
   process against a whole ``reference_playout.py N 1`` process
   (../shared/benchmarks/), both run by this Python, alternating (A B, B A,
   ...), start-up included; each round's figures, then the median ratio and
   its range.  crisis's cache folder (grammar tables, parsed rules) is a
   folder of this run's own, warmed once, untimed.  Python's bytecode, per
   ``--bytecode``:

   - ``env``: as this environment has it.  Where PYTHONDONTWRITEBYTECODE=1 and
     no bytecode was written (the project's shared machines, an editable
     install), every one of crisis's modules is compiled from source at every
     start: a cost of the machine, not of the command;
   - ``cached``: bytecode written once to a folder of this run's own
     (PYTHONPYCACHEPREFIX), as an installed package (pip compiles it) runs.

   The reference is one script (a main script is always compiled), so the
   setting changes nothing for it.
2. phases (``--phases``, in a process of its own, bytecode as in the
   environment): what a sim process does before its first game, phase by
   phase in CPU seconds (imports, the content load, the generated rules:
   generating, checking, compiling; the records' reading), then the games
   alone (ms per game), and with ``--profile N`` the N heaviest functions of
   the games alone (cProfile: it magnifies calls, so read it for where, not
   for how much).

``--start-up`` adds a run of one game to the rounds (what a sim process costs
before its games) and gives each ratio less it; ``--content DIR`` (repeatable)
adds ``crisis sim --content DIR`` to the rounds: the same game with something
changed (the reference plays no card events: a copy of the content with its
event uses taken out measures what the events cost).

``--tree DIR`` measures another copy of the project (a folder holding its
``ruleset``, ``content``, ``interpreter`` and ``cli``, e.g. a ``git archive``
of a commit) instead of this one; ``--before DIR`` measures such a copy in the
same rounds too, in turn with this tree and the reference, so a change is
seen against the same load.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from crisis.interpreter.engine.program import program_of

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import child_cpu, import_dir, spread  # noqa: E402 - the benchmarks share their helpers

TREE = Path(__file__).resolve().parent.parent
START_UP = "start-up (crisis sim --games 1)"
REFERENCE = TREE.parent / "shared" / "benchmarks" / "reference_playout.py"


def crisis(where: Path, *arguments: str) -> list:
    bootstrap = (f"import sys; sys.path.insert(0, {str(where)!r}); "
                 "from crisis.cli.main import main; sys.exit(main(sys.argv[1:]))")
    return [sys.executable, "-c", bootstrap, *arguments]


def environment(scratch: Path, bytecode: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("CRISIS_NO_CACHE", "CRISIS_INTERPRET")}
    env["XDG_CACHE_HOME"] = str(scratch / "cache")
    if bytecode == "cached":
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(scratch / "pyc")
    return env


def ratio(args, scratch: Path, trees: dict) -> None:
    games = str(args.games)
    reference = [sys.executable, str(REFERENCE), games, "1"]
    for bytecode in args.bytecode.split(","):
        env = environment(scratch, bytecode)
        runs = {"reference": reference}
        for label, where in trees.items():
            runs[label] = crisis(where, "sim", "--games", games, "--seed", "1", "--jobs", "1")
            child_cpu(crisis(where, "sim", "--games", "1", "--jobs", "1"), env)  # warms the caches, untimed
        main_tree = trees[list(trees)[-1]]
        for folder in args.content:
            label = f"--content {Path(folder).name}"
            runs[label] = crisis(main_tree, "sim", "--content", str(Path(folder).resolve()), "--games", games,
                                 "--seed", "1", "--jobs", "1")
            child_cpu(crisis(main_tree, "sim", "--content", str(Path(folder).resolve()), "--games", "1",
                             "--jobs", "1"), env)
        if args.start_up:
            runs[START_UP] = crisis(main_tree, "sim", "--games", "1", "--seed", "1", "--jobs", "1")
        note = os.environ.get("PYTHONDONTWRITEBYTECODE", "") if bytecode == "env" else "written once"
        print(f"== crisis sim --games {games} --jobs 1 / reference_playout.py {games} 1, CPU, "
              f"{args.rounds} rounds alternating; bytecode: {bytecode} (PYTHONDONTWRITEBYTECODE={note!r})")
        cpu = {label: [] for label in runs}
        order = list(runs)
        for round_ in range(args.rounds):
            for label in (order if round_ % 2 == 0 else order[::-1]):
                cpu[label].append(child_cpu(runs[label], env))
            print(f"  round {round_ + 1}: " + ", ".join(
                f"{label} {cpu[label][-1]:.2f} s" + (f" ({cpu[label][-1] / cpu['reference'][-1]:.2f}x)"
                                                     if label != "reference" else "")
                for label in order))
        for label in order:
            line = f"  {label}: median {statistics.median(cpu[label]):.2f} s CPU"
            if label != "reference":
                line += f"; ratio to the reference: {spread([a / b for a, b in zip(cpu[label], cpu['reference'])])}"
            print(line)
        if START_UP in cpu:
            # a run of one game is the start-up (and one game): less it, what the games alone cost
            for label in order:
                if label not in ("reference", START_UP):
                    alone = [(a - s) / b for a, s, b in zip(cpu[label], cpu[START_UP], cpu["reference"])]
                    print(f"  {label}, less the start-up: ratio to the reference {spread(alone)}")


def phases(args, scratch: Path, trees: dict) -> None:
    """Runs this file again as ``--child``: a fresh process, as crisis sim's."""
    env = environment(scratch, "env")
    for label, where in trees.items():
        print(f"== phases: {label}")
        child_cpu(crisis(where, "sim", "--games", "1", "--jobs", "1"), env)  # the cache folder warm
        command = [sys.executable, __file__, "--child", str(where), "--games", str(args.games),
                   "--profile", str(args.profile)]
        subprocess.run(command, check=True, cwd=TREE, env=env)


def child(args) -> None:
    """The phases of a sim process, in this process (see the module's text)."""
    cpu = time.process_time
    marks = []
    started = cpu()
    sys.path.insert(0, args.child)

    def mark(label: str) -> None:
        marks.append((label, cpu()))
    from crisis.cli import main as cli_main  # noqa: F401 - what the command imports first
    from crisis.cli import sim as cli_sim  # noqa: F401
    mark("import the command (cli.main, cli.sim)")
    from crisis.content.loader import load_content
    from crisis.interpreter import batch, records
    mark("import the loader, the batch and the records")
    content = load_content()
    mark("load the content")
    program = program_of(content)
    from crisis.interpreter.engine import native
    mark("import the code generator")
    generated = native.native(program)
    mark("generated rules: generate, check, compile" + (" (off: CRISIS_INTERPRET)" if generated is None else ""))
    reading = records.reading_of(program)
    job = batch.Job(content)
    mark("the records' reading and the job")
    summary = batch.Summary()
    for record in job.play([1]):
        summary.add(record)
    mark("the first game")
    before = 0.0
    print(f"start-up of a sim process, CPU seconds (bytecode: PYTHONDONTWRITEBYTECODE="
          f"{os.environ.get('PYTHONDONTWRITEBYTECODE', '')!r}):")
    for label, at in marks:
        print(f"  {at - started - before:7.3f}  {label}")
        before = at - started
    print(f"  {before:7.3f}  in all (the interpreter's own start not counted)")
    seeds = range(2, 2 + args.games)
    began = cpu()
    for record in job.play(seeds):
        summary.add(record)
    spent = cpu() - began
    print(f"games alone: {args.games} in {spent:.3f} s CPU, {1000 * spent / args.games:.3f} ms a game "
          f"({summary.actions / summary.games:.1f} decisions a game); the summary's JSON: "
          f"{len(str(summary.to_json(reading)))} characters")
    if args.profile:
        import cProfile
        import pstats
        profile = cProfile.Profile()
        profile.enable()
        for record in job.play(range(2, 2 + min(args.games, 2000))):
            summary.add(record)
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(args.profile)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--bytecode", default="env,cached", help="env, cached or both (default env,cached)")
    parser.add_argument("--phases", action="store_true", help="the phases of a sim process too")
    parser.add_argument("--profile", type=int, default=0, help="with --phases: the N heaviest functions of the games")
    parser.add_argument("--only", choices=["ratio", "phases"])
    parser.add_argument("--tree", type=Path, default=TREE, help="the copy of the project to measure (default: this one)")
    parser.add_argument("--before", type=Path, help="another copy measured in the same rounds")
    parser.add_argument("--content", action="append", default=[], metavar="DIR",
                        help="also crisis sim on this content folder, in the same rounds (repeatable): a copy of the "
                             "game with something left out, to see what it costs")
    parser.add_argument("--start-up", action="store_true",
                        help="also a run of one game in the same rounds (the start-up), and each ratio without it")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}; python {sys.version.split()[0]}; "
          f"{sys.executable}")
    scratch = Path(tempfile.mkdtemp(prefix="crisis-sim-reference-"))
    try:
        trees = {}
        if args.before is not None:
            trees["before"] = import_dir(args.before.resolve(), scratch / "before")
        trees["crisis sim" if args.before is None else "after"] = import_dir(args.tree.resolve(), scratch / "tree")
        if args.only in (None, "ratio"):
            if not REFERENCE.exists():
                sys.exit(f"{REFERENCE} not found")
            ratio(args, scratch, trees)
        if args.phases or args.only == "phases":
            phases(args, scratch, trees)
        print(f"load average now {os.getloadavg()[0]:.2f}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
