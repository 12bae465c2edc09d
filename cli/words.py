"""The command line's own words, read without loading the game.

``crisis --help`` must answer at once, so the argument parser's texts come
from the tool's own catalogs alone (their ``cli.*`` keys) (the language's, with
English behind it): no rules are parsed and the engine is not imported.
Python's argparse asks gettext for its own words ("usage:", "options" ...);
they are looked up in the catalog (``cli.argparse.*``) too.
"""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path
from typing import Dict, Optional, Sequence

REFERENCE = "en"

# argparse's own messages (the gettext ids it uses) -> catalog keys under cli.argparse
ARGPARSE_KEYS = {
    "usage: ": "usage",
    "%(prog)s: error: %(message)s\n": "error",
    "positional arguments": "positional",
    "options": "options",
    "show this help message and exit": "help",
    "show program's version number and exit": "version",
    "the following arguments are required: %s": "required",
    "unrecognized arguments: %s": "unrecognized",
    "invalid choice: %(value)r (choose from %(choices)s)": "invalid_choice",
    "argument %(argument_name)s: %(message)s": "argument",
    "expected one argument": "expected_one",
    "invalid %(type)s value: %(value)r": "invalid_value",
    "ambiguous option: %(option)s could match %(matches)s": "ambiguous",
    "not allowed with argument %s": "not_allowed",
}


_LANGUAGE = re.compile(r"[A-Za-z]{2,8}")


def embedded_locale_dir() -> Path:
    """The catalogs of the game played when none is named."""
    from crisis.content.games import DEFAULT_GAME, games_dir
    return games_dir() / DEFAULT_GAME / "locale"


def interface_locale_dir() -> Path:
    """The tool's own catalogs (shared by every game), where the command line's words are."""
    from crisis.content.games import games_dir
    return games_dir() / "interface"


def requested_language(argv: Sequence[str]) -> Optional[str]:
    """``--lang X`` or ``--lang=X`` from the command line, if given."""
    for index, arg in enumerate(argv):
        if arg == "--lang" and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def language_code(name: str) -> str:
    """The language of a locale's name, as the catalogs' folders are named: ``fr_FR.UTF-8``,
    ``fr-FR`` and ``FR`` are ``fr``."""
    return name.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()


def environment_languages() -> list:
    """Languages asked for by the usual locale variables, first the strongest."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANGUAGE", "LANG"):
        value = os.environ.get(variable)
        if value:
            return [language_code(part) for part in value.split(":")]
    return []


_CACHE_FORMAT = "crisis-cli-catalog/3"
_CACHE_MAX_BYTES = 4 * 1024 * 1024  # the tool's command-line texts of one language: a few dozen KiB


def _read(language_folder: Path) -> Dict[str, str]:
    """The command line's messages (``cli.*``) of one language's catalog files, whichever of them
    holds each (a translator splits keys among files at will), from the cache when it was
    written from these very files (same paths, sizes and modification times): reading YAML
    (importing the library, then parsing) is most of what ``crisis --help`` would otherwise
    cost.  The cache is JSON data in the user's private cache folder; anything amiss in it and
    the YAML is read again."""
    import hashlib
    import json
    from crisis.ruleset.cachefolder import cache_folder, read_checked, write_checked
    try:
        paths = sorted(path for path in language_folder.iterdir() if path.suffix == ".yaml")
        stamp = [_CACHE_FORMAT, str(language_folder.resolve())] + [
            [path.name, info.st_size, info.st_mtime_ns] for path, info in ((p, p.stat()) for p in paths)]
    except OSError:
        return {}
    folder = cache_folder()
    name = f"cli-{language_folder.name}.json"
    # (read and written as every cache of the tool is: private, whole, its body's digest checked)
    key = hashlib.sha256(json.dumps(stamp).encode()).hexdigest()[:32]
    if folder:
        body = read_checked(os.path.join(folder, name), _CACHE_FORMAT, key, _CACHE_MAX_BYTES)
        if body is not None:
            try:
                messages = json.loads(body)
                if isinstance(messages, dict) and all(isinstance(k, str) and isinstance(v, str)
                                                      for k, v in messages.items()):
                    return messages
            except ValueError:
                pass
    messages = {}
    for path in paths:
        messages.update((key, text) for key, text in _read_yaml(path).items() if key.startswith("cli."))
    if folder and messages:
        write_checked(folder, name, _CACHE_FORMAT, key, json.dumps(messages).encode())
    return messages


def _read_yaml(path: Path) -> Dict[str, str]:
    import yaml
    safe = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # plain data only; libyaml's when present (fast)
    try:
        with open(path, encoding="utf-8") as handle:
            loader = safe(handle)
            try:
                tree = loader.get_single_data()
            finally:
                loader.dispose()
    except (OSError, yaml.YAMLError):
        return {}
    messages: Dict[str, str] = {}

    def walk(node, prefix):
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, f"{prefix}{key}.")
        elif isinstance(node, (str, int, float)):
            messages[prefix[:-1]] = str(node)

    walk(tree, "")
    return messages


def cli_catalog(argv: Sequence[str]):
    """The command-line catalog for the language the command line or the environment asks for."""
    from crisis.content.locale import Catalog
    folder = interface_locale_dir()
    reference = Catalog(REFERENCE, _read(folder / REFERENCE))
    wanted = requested_language(argv)
    for lang in ([language_code(wanted)] if wanted else environment_languages()):
        if lang and not _LANGUAGE.fullmatch(lang):  # a language code, never a path out of the catalogs
            continue
        if lang and lang != REFERENCE and (folder / lang).is_dir():
            return Catalog(lang, _read(folder / lang), fallback=reference)
        if lang == REFERENCE:
            break
    return reference


def translate_argparse(catalog) -> None:
    """Make argparse's own words those of ``catalog``."""
    def gettext(message: str) -> str:
        key = ARGPARSE_KEYS.get(message)
        text = catalog.raw(f"cli.argparse.{key}") if key else None
        return text if text is not None else message

    argparse._ = gettext


def choose_language(requested: Optional[str], content) -> str:
    """--lang, else the usual locale variables, else English."""
    from crisis.ruleset.diagnostics import UserError
    candidates = [requested, language_code(requested)] if requested else environment_languages()
    for lang in candidates:
        if lang in content.catalogs:  # as named (a folder 'pt_BR'), else its language ('fr' for fr_FR)
            return lang
    if requested:
        raise UserError(no_catalog(requested, content))
    return "en"


def no_catalog(requested: str, content) -> str:
    """The refusal of a language the content has no catalog for, naming those it has
    (in the environment's language when the content has it)."""
    said = next((lang for lang in environment_languages() if lang in content.catalogs), "en")
    return content.catalog(said).text("cli.error.no_catalog", lang=requested, langs=", ".join(sorted(content.catalogs)))


def game_title(catalog, game: Optional[str] = None) -> str:
    """A game as players read its name: its catalog's title (``cli.title``), else, where only the
    tool's own title is there (a game whose catalog gives none), its name in state.yaml."""
    from crisis.content.loader import interface_catalog
    title = catalog.text("cli.title")
    if game and title == interface_catalog(catalog.lang)[0].raw("cli.title"):
        return game
    return title
