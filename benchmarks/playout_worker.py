"""Plays batches of random games for benchmarks/compare.py, in the tree it is told.

    python playout_worker.py IMPORT_DIR     (then, on stdin, lines "GAMES FIRST_SEED EVENT_DISCARD")

IMPORT_DIR holds a ``crisis`` package made of one checkout's folders, so two
checkouts can be timed side by side.  For each request the worker plays the
games the way that checkout's ``crisis sim`` does (its batch API when it has
one, else Game + play_out) and prints one line of JSON: the CPU time of the
games alone (content is loaded once, before) and a digest of the results, so
that two checkouts can be seen to play the same games.
"""

from __future__ import annotations

import json
import sys
import time


def main() -> None:
    import_dir = sys.argv[1]
    sys.path.insert(0, import_dir)
    from crisis.content.loader import load_content
    from crisis.interpreter import game as game_module
    assert game_module.__file__.startswith(import_dir), game_module.__file__
    from crisis.interpreter.controllers import RandomBot, play_out
    from crisis.interpreter.game import Game, Options
    try:
        from crisis.interpreter import batch
    except ImportError:
        batch = None

    content = load_content()

    def play(games: int, first: int, options) -> tuple:
        wins, vp = [0, 0], [0, 0]
        if batch is not None:
            job = batch.Job(content, options)
            for record in job.play(range(first, first + games)):
                wins[record.winner] += 1
                vp[0] += record.vp[0]
                vp[1] += record.vp[1]
            return wins, vp
        for seed in range(first, first + games):
            game = Game(content, seed, options, log=False)
            play_out(game, [RandomBot(seed, 0), RandomBot(seed, 1)])
            wins[game.state.result.winner] += 1
            vp[0] += game.state.vp[0]
            vp[1] += game.state.vp[1]
        return wins, vp

    play(20, 10**6, Options())  # warm up: compiled tables, caches
    print(json.dumps({"ready": True, "batch": batch is not None}), flush=True)
    for line in sys.stdin:
        games, first, event_discard = (int(x) for x in line.split())
        options = Options(event_discard=bool(event_discard))
        started = time.process_time()
        wins, vp = play(games, first, options)
        cpu = time.process_time() - started
        print(json.dumps({"cpu": cpu, "wins": wins, "vp": vp}), flush=True)


if __name__ == "__main__":
    main()
