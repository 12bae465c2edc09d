"""The general engine against Fort Sumter's own, side by side in one process.

    python benchmarks/engine_speed.py [--games 300] [--rounds 5] [--profile]

Each round plays the same seeds of complete random games on both engines,
game by game, alternating which goes first (so a busy machine slows both
alike), and prints games per CPU second and their ratio (general / old); the
median ratio is the figure to report.  Both engines play
the same games (tests/test_engine_differential.py); the script checks the
winners agree.  Content is loaded once, outside the timing.
"""

from __future__ import annotations

import argparse
import statistics
import time

from crisis.content.loader import load_content
from crisis.interpreter.controllers import RandomBot
from crisis.interpreter.engine.game import play_game, random_chooser
from crisis.interpreter.game import Options
from crisis.interpreter.tables import tables_for


def old_play_game(tables, options, seed: int) -> int:
    """Two random bots on the old engine, as its batch loop played them (batch.py before the
    commands moved onto the general engine): the winner."""
    from crisis.interpreter import flow
    from crisis.interpreter.compile import Executor
    from crisis.interpreter.state import initial_state
    state = initial_state(tables, seed)
    ex = Executor(tables, state, None)
    bits = [RandomBot(seed, side).rng.getrandbits for side in (0, 1)]
    while state.phase != "game_over":
        phase = flow.PHASES[state.phase](ex, options)
        try:
            decision = next(phase)
            while True:
                choices = decision.actions
                n = len(choices)
                getrandbits = bits[decision.player]
                k = n.bit_length()
                pick = getrandbits(k)
                while pick >= n:
                    pick = getrandbits(k)
                ex.work = 0
                decision = phase.send(choices[pick])
        except StopIteration:
            pass
    return state.result.winner


def old_engine(content, seeds):
    tables = tables_for(content)
    return [old_play_game(tables, Options(), seed) for seed in seeds]


def general_engine(content, seeds):
    program = content.program
    winners = []
    offset = program.layout.winner
    for seed in seeds:
        # the random bots' draws written in, as the old engine's batch loop has them (the same draws)
        choose = random_chooser([RandomBot(seed, 0).rng, RandomBot(seed, 1).rng])
        position, _ = play_game(program, seed, choose)
        winners.append(position.values[offset])
    return winners


def timed(play, content, seeds):
    started = time.process_time()
    winners = play(content, seeds)
    return time.process_time() - started, winners


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="profile the general engine instead")
    args = parser.parse_args()
    content = load_content()
    content.program  # compiled once, as crisis sim does
    seeds = range(args.first_seed, args.first_seed + args.games)
    if args.profile:
        import cProfile
        import pstats
        cProfile.runctx("general_engine(content, seeds)", globals(), {"content": content, "seeds": seeds},
                        "/tmp/engine.prof")
        pstats.Stats("/tmp/engine.prof").sort_stats("tottime").print_stats(25)
        return
    from crisis.interpreter.engine.native import native
    native(content.program)  # generated once, as crisis sim does at start-up
    ratios = []
    for index in range(args.rounds):
        times, results = {"old": 0.0, "general": 0.0}, {"old": [], "general": []}
        for seed in seeds:
            order = [("old", old_engine), ("general", general_engine)]
            if (seed + index) % 2:
                order.reverse()
            for label, play in order:
                spent, winners = timed(play, content, [seed])
                times[label] += spent
                results[label] += winners
        assert results["old"] == results["general"], "the engines played different games"
        ratio = times["old"] / times["general"]
        ratios.append(ratio)
        print(f"round {index + 1}: old {args.games / times['old']:.0f} games/s, "
              f"general {args.games / times['general']:.0f} games/s, ratio {ratio:.2f}")
    print(f"median ratio (general / old games per CPU second): {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
