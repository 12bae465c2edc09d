"""Where the time of complete random games goes: cProfile's top entries.

    python benchmarks/profile_games.py [--games 2000] [--top 25] [--sort tottime|cumulative] [--event-discard]

Content is loaded and compiled before profiling starts, as in `crisis sim`;
the games are those `crisis sim` plays (seed S+i, two random bots, no log).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats

from crisis.content.loader import load_content
from crisis.interpreter.controllers import RandomBot, play_out
from crisis.interpreter.game import Game, Options
from crisis.interpreter.tables import tables_for


def play(content, games: int, options) -> None:
    for seed in range(1, games + 1):
        game = Game(content, seed, options, log=False)
        play_out(game, [RandomBot(seed, 0), RandomBot(seed, 1)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--sort", default="tottime")
    parser.add_argument("--event-discard", action="store_true")
    args = parser.parse_args()
    content = load_content()
    tables_for(content)
    options = Options(event_discard=args.event_discard)
    profile = cProfile.Profile()
    profile.runcall(play, content, args.games, options)
    pstats.Stats(profile).strip_dirs().sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()
