"""The games shipped with the tool: every folder beside this module with a ``state.yaml``.

``crisis games`` lists them and ``--game NAME`` picks one by its folder's name; what a listing
shows (the name in the player's language, how many sides, whether the game can be played alone)
is read from the game's files without loading its rules, so the list comes at once.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import List, Optional

TITLE_KEY = "cli.title"  # the game's name, in each of its catalogs
DEFAULT_GAME = "fort-sumter"  # the game played when no --game or --content names one


def games_dir() -> Path:
    return Path(str(resources.files("crisis.content")))


def shipped_games() -> List[str]:
    """The names (folder names) of the games shipped, sorted."""
    root = games_dir()
    return sorted(entry.name for entry in os.scandir(root)
                  if entry.is_dir() and (Path(entry.path) / "state.yaml").is_file())


def game_path(name: str) -> Optional[Path]:
    """The folder of the shipped game ``name``, or None."""
    return games_dir() / name if name in shipped_games() else None


def closest_game(name: str) -> Optional[str]:
    from crisis.ruleset.diagnostics import did_you_mean  # not at start-up: crisis --help reads this module
    return did_you_mean(name, shipped_games())


def _yaml(path: Path):
    import yaml
    try:
        with open(path, encoding="utf-8") as handle:
            return yaml.safe_load(handle)
    except (OSError, yaml.YAMLError):
        return None


def game_summary(name: str, lang: str) -> dict:
    """What ``crisis games`` shows of a game: its title in ``lang`` (else English, else its folder's
    name), the number of its sides, whether it has a solo way of playing, its languages."""
    root = games_dir() / name
    state = _yaml(root / "state.yaml")
    sides = state.get("sides") if isinstance(state, dict) else None
    locale = root / "locale"
    langs = sorted(entry.name for entry in os.scandir(locale) if entry.is_dir()) if locale.is_dir() else []
    title = None
    for wanted in (lang, "en"):
        folder = locale / wanted
        if title is None and folder.is_dir():
            for path in sorted(folder.glob("*.yaml")):
                data = _yaml(path)
                section = data.get("cli") if isinstance(data, dict) else None
                if isinstance(section, dict) and isinstance(section.get("title"), str):
                    title = section["title"]
                    break
    return {"name": name, "title": title or name, "players": len(sides) if isinstance(sides, list) else 0,
            "solo": (root / "solo" / "overlay.yaml").is_file(), "langs": langs}
