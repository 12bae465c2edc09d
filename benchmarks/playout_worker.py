"""Plays batches of random games for benchmarks/compare.py, in the tree it is told.

    python playout_worker.py IMPORT_DIR     (then, on stdin, lines "GAMES FIRST_SEED OPTIONAL_RULES")

IMPORT_DIR holds a ``crisis`` package made of one checkout's folders, so two
checkouts can be timed side by side.  For each request the worker plays the
games the way that checkout's ``crisis sim`` does (its batch API on the
general engine: checkouts from commit 2ab9387 on; an older one is refused),
with the content's optional rules on or off, and prints one line of JSON: the
CPU time of the games alone (content is loaded once, before) and a digest of
the results (wins per side, the winning counter's sum per side), so that two
checkouts can be seen to play the same games.
"""

from __future__ import annotations

import json
import sys
import time
from crisis.interpreter.engine.program import program_of


def main() -> None:
    import_dir = sys.argv[1]
    sys.path.insert(0, import_dir)
    from crisis.content.loader import load_content
    try:
        from crisis.interpreter import batch
        from crisis.interpreter.engine.game import Options
        from crisis.interpreter.records import reading_of
        found = batch.__file__.startswith(import_dir) and getattr(batch, "Options", None) is Options
    except ImportError:
        found = False
    if not found:
        print(json.dumps({"error": f"{import_dir}: a checkout whose crisis sim plays on the general engine "
                                   "(from commit 2ab9387 on) is needed"}), flush=True)
        sys.exit(1)

    content = load_content()
    reading = reading_of(program_of(content))
    sides = len(reading.sides)
    optional = frozenset(reading.options)

    def play(games: int, first: int, options) -> tuple:
        wins, score = [0] * sides, [0] * sides
        for record in batch.Job(content, options).play(range(first, first + games)):
            if 0 <= record.winner < sides:
                wins[record.winner] += 1
            if reading.score >= 0:
                values = record.counters[reading.score]
                for side in range(sides):
                    score[side] += values[side if len(values) > 1 else 0]
        return wins, score

    play(20, 10**6, Options())  # warm up: compiled program, caches
    print(json.dumps({"ready": True, "batch": True}), flush=True)
    for line in sys.stdin:
        games, first, optional_rules = (int(x) for x in line.split())
        options = Options(optional if optional_rules else frozenset())
        started = time.process_time()
        wins, score = play(games, first, options)
        cpu = time.process_time() - started
        print(json.dumps({"cpu": cpu, "wins": wins, "vp": score}), flush=True)


if __name__ == "__main__":
    main()
