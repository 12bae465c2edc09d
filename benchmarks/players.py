"""The general engine's bots (interpreter/players/) against each other, or against the bots of
Fort Sumter's own engine while both exist: win rates per side with 95% Wilson intervals, and
CPU seconds per game.

    python benchmarks/players.py --bot heuristic --against random --games 200 [--jobs 2]
    python benchmarks/players.py --bot heuristic --against old:heuristic --games 200

Seeds S .. S+N-1, the bot playing the first side, then the same seeds with it playing the
second.  ``old:NAME`` is a bot of the old engine: both engines play the game in step (they play
the same games: tests/test_engine_differential.py), each bot choosing on its own engine's game.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crisis.balance.stats import wilson  # noqa: E402
from crisis.content.loader import load_content  # noqa: E402

_CONTENT = None


def content():
    global _CONTENT
    if _CONTENT is None:
        _CONTENT = load_content()
    return _CONTENT


def new_bot(name: str, seed: int, side: int):
    from crisis.interpreter.controllers import RandomBot
    from crisis.interpreter.players.heuristic import HeuristicBot
    from crisis.interpreter.players.search import SearchBot
    from crisis.content.bots import Budget
    base, _, setting = name.partition(":")
    if base == "random":
        return RandomBot(seed, side)
    if base == "heuristic":
        return HeuristicBot(seed, side)
    if base == "search":
        return SearchBot(seed, side, Budget.parse(setting) if setting else None)
    raise SystemExit(f"unknown bot {name}")


def play(task):
    """One game: (seed, side the bot plays, bot, opponent) -> (bot won, CPU seconds)."""
    seed, side, bot, against = task
    started = time.process_time()
    c = content()
    from crisis.interpreter.engine.game import Game
    game = Game.of(c, seed, log=False)
    names = [None, None]
    names[side], names[1 - side] = bot, against
    old = None
    if any(n.startswith("old:") for n in names):
        from crisis.interpreter import controllers
        from crisis.interpreter.game import Game as OldGame
        old = OldGame(c, seed, log=False)
    players = []
    for s, name in enumerate(names):
        if name.startswith("old:"):
            players.append(("old", controllers.controller_factory(name[4:])(seed, s)))
        else:
            players.append(("new", new_bot(name, seed, s)))
    while game.decision is not None:
        decision = game.decision
        engine, player = players[decision.player]
        if engine == "old":
            text = player.choose(old, old.decision).text
        else:
            text = player.choose(game, decision).text
        game.apply(text)
        if old is not None:
            old.apply(text)
    return game.view.winner == side, time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--against", default="random")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    tasks = [(seed, side, args.bot, args.against) for side in (0, 1)
             for seed in range(args.seed, args.seed + args.games)]
    started = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            results = pool.map(play, tasks, chunksize=1)
    else:
        results = [play(task) for task in tasks]
    sides = content().program.schema.sides
    n = args.games
    for side in (0, 1):
        won = sum(w for w, _ in results[side * n:(side + 1) * n])
        rate, low, high = wilson(won, n)
        print(f"{args.bot} as {sides[side]} against {args.against}: {won}/{n} = {rate:.1%} ({low:.1%}-{high:.1%})")
    won = sum(w for w, _ in results)
    rate, low, high = wilson(won, 2 * n)
    cpu = sum(c for _, c in results) / len(results)
    print(f"both sides: {won}/{2 * n} = {rate:.1%} ({low:.1%}-{high:.1%}); {cpu:.2f} CPU s per game; "
          f"{time.perf_counter() - started:.0f} s wall")


if __name__ == "__main__":
    main()
