"""Where the time of complete random games goes: cProfile's top entries.

    python benchmarks/profile_games.py [--games 2000] [--top 25] [--sort tottime|cumulative]
                                       [--event-discard] [--ref COMMIT]

Profiles the games ``crisis sim`` plays (seed S+i, two random bots, no log),
the way that tree's ``crisis sim`` plays them: through its batch API on the
general engine.  Content is loaded and compiled before profiling starts.
``--ref COMMIT`` profiles another commit instead (exported with ``git
archive``, as benchmarks/compare.py does), e.g. the last commit, for a
before/after pair.
"""

from __future__ import annotations

import argparse
import os
import cProfile
import pstats
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from crisis.interpreter.engine.program import program_of


def play(content, games: int, options) -> None:
    from crisis.interpreter import batch
    for _ in batch.Job(content, options).play(range(1, games + 1)):
        pass


def profile(args) -> None:
    from crisis.content.loader import load_content
    from crisis.interpreter import batch
    from crisis.interpreter.engine.game import Options
    from crisis.interpreter.records import reading_of
    content = load_content()
    options = Options(frozenset(reading_of(program_of(content)).options) if args.event_discard else frozenset())
    play(content, 1, options)  # rules compiled before profiling
    print(f"profiling {args.games} games of {Path(batch.__file__).resolve().parent.parent}")
    cprofile = cProfile.Profile()
    cprofile.runcall(play, content, args.games, options)
    pstats.Stats(cprofile).strip_dirs().sort_stats(args.sort).print_stats(args.top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--sort", default="tottime")
    parser.add_argument("--event-discard", action="store_true", help="the content's optional rules on")
    parser.add_argument("--ref", help="profile this commit instead of this tree (one whose crisis sim plays on "
                                      "the general engine: from 2ab9387 on)")
    args = parser.parse_args()
    if args.ref is None:
        profile(args)
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from compare import export, import_dir
    scratch = Path(tempfile.mkdtemp(prefix="crisis-profile-"))
    try:
        where = import_dir(export(args.ref, scratch / "tree"), scratch / "import")
        command = [sys.executable, __file__, "--games", str(args.games), "--top", str(args.top),
                   "--sort", args.sort] + (["--event-discard"] if args.event_discard else [])
        subprocess.run(command, check=True, env={**os.environ, "PYTHONPATH": str(where),
                                                 "PYTHONDONTWRITEBYTECODE": "1"})
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
