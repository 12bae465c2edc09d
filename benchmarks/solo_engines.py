"""Solo games (a random player against the content's automa) on the general engine and on Fort
Sumter's own, side by side in one process.

    python benchmarks/solo_engines.py [--games 100] [--rounds 3] [--best-of 3] [--profile framed|direct]

Three ways to play the same seeds, game by game, in turn (so a busy machine slows each alike):

- ``old``: the old engine's ``Game`` with the solo option and a ``RandomBot`` (what ``crisis sim
  --solo`` played before the commands moved);
- ``framed``: the general engine's ``Game`` (the framed form: the machine's frames, the automa
  answering its side in ``drive``), a ``RandomBot`` for the person: what people's solo games,
  logged games and scenarios run on;
- ``direct``: the general engine's ``play_game`` (the direct form, the operations' ``play``, the
  automa answering through ``choose``): what ``crisis sim --solo`` runs on.

The automa plays each side in turn (even seeds one, odd the other).  Prints games per CPU second
of each and the ratios to the old engine; the medians over the rounds are the figures to report.
The winners must agree (the engines play the same solo games: tests/test_solo*.py).
"""

from __future__ import annotations

import argparse
import statistics
import time

from crisis.content.loader import load_content
from crisis.interpreter.controllers import RandomBot


def old_game(content, seed: int, side: str) -> int:
    from crisis.interpreter.game import Game, Options
    game = Game(content, seed, Options(solo=side), log=False)
    person = 1 - game.tables.sides.index(side)
    bot = RandomBot(seed, person)
    while game.decision is not None:
        game.apply(bot.choose(game, game.decision))
    return game.state.result.winner


def framed_game(content, seed: int, side: str) -> int:
    from crisis.interpreter.engine.game import Game, Options
    game = Game(content.program, seed, Options(solo=side), log=False, content=content)
    person = 1 - content.program.schema.sides.index(side)
    bot = RandomBot(seed, person)
    decision = game.decision
    while decision is not None:
        game.advance(bot.choose(game, decision))
        decision = game.decision
    return game.position.values[content.program.layout.winner]


def direct_game(content, seed: int, side: str) -> int:
    from crisis.interpreter.engine.game import play_game
    program = content.program
    person = 1 - program.schema.sides.index(side)
    pick = RandomBot(seed, person).pick

    def choose(decision):
        actions = decision.actions
        return actions[pick(len(actions))]
    position, _ = play_game(program, seed, choose, solo=side)
    return position.values[program.layout.winner]


WAYS = {"old": old_game, "framed": framed_game, "direct": direct_game}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--ways", default="old,framed,direct")
    parser.add_argument("--best-of", type=int, default=1,
                        help="play each game N times in each way and keep its least CPU time (a busy machine)")
    parser.add_argument("--profile", choices=sorted(WAYS), help="profile one way instead")
    args = parser.parse_args()
    content = load_content()
    content.program  # compiled once, outside the timing
    from crisis.interpreter.tables import tables_for
    tables_for(content)
    sides = content.program.schema.sides
    seeds = range(args.first_seed, args.first_seed + args.games)
    if args.profile:
        import cProfile
        import pstats
        play = WAYS[args.profile]
        scope = dict(globals(), content=content, seeds=seeds, play=play, sides=sides)
        cProfile.runctx("[play(content, s, sides[s % 2]) for s in seeds]", scope, scope, "/tmp/solo.prof")
        pstats.Stats("/tmp/solo.prof").sort_stats("tottime").print_stats(30)
        return
    ways = args.ways.split(",")
    for way in ways:  # warm: anything made once per program
        WAYS[way](content, 0, sides[0])
    rates = {way: [] for way in ways}
    for index in range(args.rounds):
        times = dict.fromkeys(ways, 0.0)
        winners = {way: [] for way in ways}
        for seed in seeds:
            side = sides[seed % 2]
            order = ways[(seed + index) % len(ways):] + ways[:(seed + index) % len(ways)]
            for way in order:
                best = None
                for _ in range(args.best_of):
                    started = time.process_time()
                    winner = WAYS[way](content, seed, side)
                    spent = time.process_time() - started
                    best = spent if best is None else min(best, spent)
                winners[way].append(winner)
                times[way] += best
        for way in ways[1:]:
            assert winners[way] == winners[ways[0]], f"{way} played other games than {ways[0]}"
        line = ", ".join(f"{way} {args.games / times[way]:.1f} games/s" for way in ways)
        print(f"round {index + 1}: {line}")
        for way in ways:
            rates[way].append(args.games / times[way])
    medians = {way: statistics.median(r) for way, r in rates.items()}
    print("median games per CPU second: " + ", ".join(f"{w} {m:.1f}" for w, m in medians.items()))
    if "old" in medians:
        print("ratio to the old engine: " + ", ".join(f"{w} {m / medians['old']:.2f}"
                                                     for w, m in medians.items() if w != "old"))


if __name__ == "__main__":
    main()
