"""Choosing a game: ``crisis games`` lists the games shipped with the tool, and ``--game NAME``
picks one for any command that reads a game (the same as ``--content`` with its folder).

Kept light: the parser is built for ``crisis --help`` too, so nothing is read until a name is given.
"""

from __future__ import annotations

import argparse
import sys

from . import words
from .exits import EXIT_OK, EXIT_USAGE


class GameAction(argparse.Action):
    """``--game NAME``: the shipped game's folder becomes the command's content; an unknown name
    is refused on one line, with the closest name and the list (exit status 2)."""

    catalog = None  # the command line's catalog, set by add_game_option

    def __call__(self, parser, namespace, value, option_string=None):
        from crisis.content.games import closest_game, game_path, shipped_games
        path = game_path(value)
        if path is None:
            guess = closest_game(value)
            key = "cli.error.unknown_game_guess" if guess else "cli.error.unknown_game"
            parser.exit(EXIT_USAGE, self.catalog.text(key, name=value, guess=guess or "",
                                                      games=", ".join(shipped_games())) + "\n")
        setattr(namespace, self.dest, value)
        namespace.content = str(path)


def add_game_option(sub: argparse.ArgumentParser, catalog, help_text: str, metavar: str) -> None:
    action = type("GameOption", (GameAction,), {"catalog": catalog})
    sub.add_argument("--game", action=action, metavar=metavar, help=help_text)


def cmd_games(args) -> int:
    """The games shipped: folder name (what --game takes), name in the player's language, players,
    solo or not; the default marked."""
    from crisis.content.games import game_summary, shipped_games
    from crisis.content.loader import GAME_DIR
    catalog = words.cli_catalog(["--lang", args.lang] if getattr(args, "lang", None) else [])
    names = shipped_games()
    width = max(map(len, names), default=0)
    for name in names:
        game = game_summary(name, catalog.lang)
        print(catalog.text("cli.games.line", name=name.ljust(width), title=game["title"], players=game["players"],
                           solo="yes" if game["solo"] else "no", default="yes" if name == GAME_DIR else "no",
                           langs=", ".join(game["langs"])))
    print(catalog.text("cli.games.hint"), file=sys.stdout)
    return EXIT_OK
