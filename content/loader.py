"""Load a game's content directory: read, validate, parse and check everything.

Every problem found is collected and reported together, each with its file,
line and column; if there is any, ``ContentError`` is raised and nothing is
returned, so a game never runs on half-loaded content.

Layout of a content directory (docs/state.md, docs/sequence.md)::

    state.yaml           the game's name, sides, counters, map, pieces, tracks, cards and piles
    sequence.yaml        the sequence of play, the uses of a card, procedures, in the rules language
    cards/*.yaml         the cards, one list per kind of card
    solo/                a way of playing where the game plays a side (overlay.yaml, aid-*.yaml)
    bots/*.yaml          the bots' settings (not rules)
    layout.yaml          how the board is drawn (not rules)
    locale/<lang>/*.yaml text players read, by key

Rule texts are read by the rules front end (ruleset/reader.py, resolver.py), their syntax trees
kept between runs (ruleset/rulecache.py).
"""

from __future__ import annotations

import hashlib
from fractions import Fraction
import os
import re
import stat
from importlib import resources
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Tuple

import attrs

from crisis.ruleset import limits
from crisis.ruleset import rulecache
from crisis.ruleset.diagnostics import Diagnostic, UserError, a_noun, did_you_mean, shown

from . import bots as B
from . import catalogcache
from .bots import BotSettings
from .locale import (REFERENCE_LANG, Catalog, MessageError, flatten, format_message, interface_dir, looked_in,
                     placeholders)
from .games import DEFAULT_GAME
from .model import Content
from .reading import Reader
from .yamlfile import ContentError, Map, YamlFile, display_path, list_folder, real_inside, size_text

GAME_DIR = DEFAULT_GAME
# files whose text is not rules: a change to them changes no game (nor the digest)
NOT_RULES = ("locale", "bots", "layout.yaml", "scenarios")


def default_content_dir() -> Path:
    """The content shipped inside the package."""
    return Path(str(resources.files("crisis.content") / GAME_DIR))


class NotContent(ContentError):
    """The folder named is not a content folder at all (a mistake on the command line, usually)."""


class _Loader(Reader):
    def __init__(self, root: Path, required_messages: Iterable[str], overrides: Optional[Dict[str, str]] = None,
                 translating: bool = False):
        super().__init__(root, overrides)
        self.required_messages = tuple(required_messages)
        # for `crisis i18n check` (load_for_translators): a translation's own problems are kept per
        # language instead of stopping the load, so that a broken file hides no other problem
        self.translating = translating
        self.translation_problems: Dict[str, List[Diagnostic]] = {}
        self.unread_translations: set = set()  # the languages with a catalog file that could not be read

    # ----------------------------------------------------------------- bots
    def bots(self, horizon: Optional[Tuple[str, ...]] = ()) -> BotSettings:
        """bots/search.yaml, optional (defaults: content/bots.py).  Its decisions are kinds the
        engine asks or the evaluation's ``horizon`` names (not checked when ``horizon`` is None:
        the rules could not be read)."""
        folder = self.root / "bots"
        settings = BotSettings()
        retired = folder / "heuristic.yaml"
        if os.path.lexists(retired):  # read by the earlier engine only: its settings would do nothing
            self.warnings.append(Diagnostic(
                message="bots/heuristic.yaml is not read: its weights and settings would change nothing",
                path=display_path(retired), severity="warning",
                hint="the bots' judgement, 'order playouts' and 'quick steps' are in bots/evaluation.yaml "
                     "(docs/bots.md); delete this file"))
        search = self.bot_file(folder / "search.yaml", {"decisions": list, **_types(B.SEARCH_KEYS)})
        if search is not None:
            file, spec = search
            numbers = self.bot_numbers(file, spec, B.SEARCH_KEYS, settings.search)
            budget = settings.search.budget
            if "milliseconds" in numbers and numbers["milliseconds"] > 0:
                budget = B.Budget(iterations=0, milliseconds=float(numbers.pop("milliseconds")))
                numbers.pop("iterations", None)
                if "iterations" in spec:
                    self.problems.add(file.diagnostic(spec.key_positions["iterations"],
                                                      "give the search either iterations or milliseconds, not both"))
            elif "iterations" in numbers:
                budget = B.Budget(iterations=numbers.pop("iterations"))
            numbers.pop("milliseconds", None)
            for key, most, given in (("iterations", limits.MAX_SEARCH_ITERATIONS, budget.iterations),
                                     ("milliseconds", limits.MAX_SEARCH_MILLISECONDS, budget.milliseconds)):
                if given > most and key in spec:
                    self.problems.add(file.diagnostic(spec.value_positions[key],
                                                      f"{key} may be at most {most:,} (docs/limits.md)"))
            decisions = settings.search.decisions
            if "decisions" in spec:
                kinds = spec["decisions"]
                known = tuple(dict.fromkeys(B.ENGINE_DECISIONS + tuple(horizon or ())))
                good = [isinstance(kind, str) if horizon is None
                        else self.searched_kind(file, kind, kinds.positions[i], known)
                        for i, kind in enumerate(kinds)]
                if all(good):
                    decisions = tuple(str(kind) for kind in kinds)
            settings = attrs.evolve(settings, search=B.SearchSettings(budget=budget, decisions=decisions, **numbers))
        return settings

    def searched_kind(self, file, kind, position, known) -> bool:
        """Whether the search may search decisions of ``kind``: those the evaluation's horizon lists
        (bots/evaluation.yaml) and the engine's own.  A misspelt one is told with the one meant;
        any other is told as missing from the horizon, where a look-ahead stops, not as unknown
        (it may be a kind the game asks)."""
        if isinstance(kind, str) and kind in known:
            return True
        if not isinstance(kind, str) or did_you_mean(kind, known):
            return self.name(file, kind, position, known, "kind of decision")
        self.problems.add(file.diagnostic(
            position, f"'{kind}' is not in the evaluation's horizon: the search searches only the kinds of "
                      "decision a look-ahead stops at", width=len(kind),
            expected=f"a kind of decision of the horizon (bots/evaluation.yaml) or the engine's: {', '.join(known)}",
            hint=f"add '{kind}' to 'horizon:' in bots/evaluation.yaml, or leave it out here"))
        return False

    def bot_file(self, path: Path, known: Dict[str, type]):
        if not os.path.lexists(path):
            return None
        file, data = self.read(path)
        if file is None or data is None:
            return None
        spec, _ = self.fields(file, data, path.name, {}, known)
        return None if spec is None else (file, spec)

    def bot_numbers(self, file: YamlFile, spec: Map, keys, defaults) -> Dict[str, Any]:
        """The numbers ``keys`` names that ``spec`` gives, checked against their least value."""
        out = {}
        for key, (kind, least) in keys.items():
            if key not in spec:
                continue
            value = spec[key]
            if least is not None and value < least:
                self.problems.add(file.diagnostic(spec.value_positions[key], f"'{key}' must be at least {least}"))
                continue
            out[key] = kind(value)
        return out

    # -------------------------------------------------------------- locales
    def catalogs(self, definition) -> Dict[str, Catalog]:
        folder = self.root / "locale"
        langs = self.listing(folder, folders=True)
        if langs is None:
            return {}
        if not langs:
            self.problems.add(Diagnostic(message="no locale catalogs", path=display_path(folder),
                                         expected="a folder per language, such as locale/en/"))
            return {}
        catalogs: Dict[str, Catalog] = {}
        files_of: Dict[str, List[YamlFile]] = {}
        unread: Dict[str, List[str]] = {}  # language -> its catalog files that could not be read
        for lang_dir in langs:
            lang = lang_dir.name
            # the tool's words first (shared by every game), then the game's, key by key: a game's text wins
            shared, problems = interface_catalog(lang)
            self.problems.extend(problems)
            messages, positions = dict(shared.messages), dict(shared.positions)
            contractions = _Contractions()
            for key, value in shared.messages.items():
                if key.startswith(CONTRACTIONS):
                    contractions.add(key[len(CONTRACTIONS):], value)
            files_of[lang] = []
            before = len(self.problems.items)
            own = read_catalog(self, lang_dir, files_of[lang], contractions, unread.setdefault(lang, []))
            if self.translating and lang != REFERENCE_LANG and len(self.problems.items) > before:
                # a translation falls back to the reference wherever its texts are missing: the
                # rest of it is checked, and what could not be read is told with the rest
                self.translation_problems[lang] = self.problems.items[before:]
                del self.problems.items[before:]
                if unread[lang]:
                    self.unread_translations.add(lang)
            messages.update(own.messages)
            positions.update(own.positions)
            catalogs[lang] = Catalog(lang, messages, positions)
        if REFERENCE_LANG not in catalogs:
            self.problems.add(Diagnostic(message=f"no '{REFERENCE_LANG}' catalog",
                                         path=display_path(folder / REFERENCE_LANG),
                                         expected="the reference catalog, which every other language follows"))
            return catalogs
        required = list(self.required_keys(definition)) if definition is not None else []
        # Only the reference catalog must be complete: another language may be
        # partly translated (its gaps fall back to the reference, and
        # `crisis i18n check` lists them), so a translation in progress never
        # stops a game.
        for lang, catalog in ((REFERENCE_LANG, catalogs[REFERENCE_LANG]),):
            if unread.get(lang):
                # a file that could not be read (told at its line) held keys: every one of them
                # would be told as missing too, elsewhere; they are counted once it reads
                continue
            missing = 0
            for key in required:
                if not catalog.has(key):
                    files = files_of.get(lang) or [None]
                    file = _file_for_key(files, catalog, key)
                    missing += 1
                    # each guess compares the key with every message: only the first few are
                    # guessed, so a thousand new cards without texts are reported in a second
                    guess = (did_you_mean(key, list(catalog.messages), cutoff=0.85)
                             if missing <= _GUESSED_KEYS else None)
                    # a near key is most often the one meant (a name changed in the rules, not in the
                    # texts): the problem is told at its line
                    path, line, column = catalog.positions.get(guess, (None, None, None)) if guess else (None,) * 3
                    diagnostic = Diagnostic(message=f"locale '{lang}' has no text for '{key}'",
                                            path=path or (file.path if file else display_path(self.root / "locale" / lang)),
                                            line=line, column=column,
                                            expected=a_noun(f"'{key.split('.')[-1]}:' entry")
                                                     + (f" under '{key.rsplit('.', 1)[0]}:'" if "." in key else ""),
                                            hint="; ".join(filter(None, (
                                                f"did you mean '{guess}'? (keys must match exactly)" if guess else None,
                                                looked_in(self.root, lang)))))
                    self.problems.add(diagnostic)
        reference = catalogs[REFERENCE_LANG]
        for catalog in catalogs.values():
            if catalog is not reference:
                catalog.fallback = reference
        return catalogs

    def required_keys(self, definition) -> Iterable[str]:
        """The texts players need of the names the game defines: each under the catalog section
        the schema's word for its kind names (its last form: "spaces", "dimensions", "cards"),
        and the labels of the lines of a procedure of lines ("scoring.<label>")."""
        yield from names_to_translate(definition)
        yield from self.required_messages

    # ---------------------------------------------------------------- all
    def measure(self) -> None:
        """The size of the whole content, from the folders' listings, before any file is parsed.

        Problems with single files are left to the reading that follows, which reports them in place.
        """
        root = self.root
        paths = [root / "state.yaml", root / "sequence.yaml", root / "layout.yaml", root / "locale" / "glossary.yaml"]
        folders = [root / "cards", root / "bots", root / "solo"]
        try:
            folders += list_folder(root / "locale", root, folders=True)
        except ContentError:
            pass
        for folder in folders:
            try:
                paths += list_folder(folder, root, ".yaml")
            except ContentError:
                continue
        total = 0
        for path in paths:
            try:
                info = os.stat(real_inside(path, root))
            except (ContentError, OSError):
                continue
            if stat.S_ISREG(info.st_mode):
                total += info.st_size
        if total > self.budget.max_bytes:
            raise ContentError(Diagnostic(message=f"the content's files add up to more than the limit of "
                                                  f"{size_text(self.budget.max_bytes)}",
                                          path=display_path(root), hint="docs/limits.md lists the limits on content"))

    def load(self) -> Content:
        if os.path.lexists(self.root):
            real_inside(self.root, None)  # a folder that is a loop of links is refused here
        else:  # (a mistyped --content, most often)
            raise NotContent([Diagnostic(message="there is no such folder", path=display_path(self.root),
                                           expected="a content folder, with state.yaml, sequence.yaml, cards/ "
                                                    "and locale/")])
        if not os.path.lexists(self.root / "state.yaml"):
            raise NotContent([Diagnostic(message="this is not a content directory: it has no state.yaml",
                                           path=display_path(self.root),
                                           expected="a folder with state.yaml, sequence.yaml, cards/ and locale/")])
        self.measure()
        from .definition import DefinitionReader
        definition = DefinitionReader(self).read(self.root)
        self.schema = definition.schema if definition is not None else None
        # the catalogs and the bots' settings are read whatever the rules' problems: all are reported at once
        catalogs = self.catalogs(definition)
        # the kinds search.yaml may list are known only from a definition read without errors (else
        # a problem elsewhere would make every kind of its own look unknown)
        horizon = None if definition is None or self.problems.items else (
            definition.evaluation.horizon if definition.evaluation is not None else ())
        bots = self.bots(horizon)
        if definition is None:
            raise ContentError(self.problems.items or [Diagnostic(message="the game's definition could not be read",
                                                                  path=display_path(self.root / "state.yaml"))])
        if self.problems.items:
            raise ContentError(self.problems.items)
        # The digest names the game as played: the files that define it.  Catalogs, the bots'
        # settings and the board's layout are left out, so fixing a translation never makes a
        # saved game refuse to resume.
        digest = hashlib.sha256()
        for name in sorted(self.files):
            if Path(name).parts[0] not in NOT_RULES:
                digest.update(name.encode() + b"\0" + self.files[name] + b"\0")
        schema = definition.schema
        content = Content(root=str(self.root), game=schema.game or self.root.name, definition=definition,
                          catalogs=catalogs, digest=digest.hexdigest()[:16], replaces=schema.replaces,
                          warnings=tuple(self.warnings), bots=bots)
        # a hand-written card text may never disagree with the card's rule (a translation's are
        # among what `crisis i18n check` tells of it, when it loads for translators)
        from .i18n import check_card_texts
        disagreements = [d for lang in sorted(catalogs) for d in check_card_texts(content, lang)
                         if not (self.translating and lang != REFERENCE_LANG)]
        if disagreements:
            raise ContentError(disagreements)
        return content


def read_catalog(reader: Reader, lang_dir: Path, files: List[YamlFile], contractions: "_Contractions",
                 unread: Optional[List[str]] = None) -> Catalog:
    """The messages of one folder of catalog files (``locale/<lang>/``), each checked: a key given
    twice in the folder, a text that is no text, broken or too deep placeholders, contractions
    beyond their bound are reported through ``reader``.  ``files``: the files read, appended;
    ``unread``: the files (or the folder) that could not be read at all, appended."""
    unread = [] if unread is None else unread
    sources = []
    listed = reader.listing(lang_dir, ".yaml")
    if listed is None:
        unread.append(display_path(lang_dir))
    for path in listed or ():
        found = reader.source(path)
        if found is not None:
            sources.append((path, *found))
        else:
            unread.append(display_path(path))
    folder_key = catalogcache.key_of([(file.path, file.text) for _, file, _ in sources])
    kept = _kept_catalog(reader, folder_key, contractions)
    if kept is not None:  # read before, without a problem: the same texts, not parsed again
        for path, file, raw in sources:
            reader.kept(path, raw)
            files.append(file)
        reader.budget.values += kept.values
        return Catalog(lang_dir.name, dict(kept.messages), dict(kept.positions))
    messages: Dict[str, str] = {}
    positions: Dict[str, Tuple[str, int, int]] = {}
    problems, values = len(reader.problems.items), reader.budget.values
    for path, file, raw in sources:
        parsed, data = reader.parse(path, file, raw)
        if parsed is None:
            unread.append(file.path)
            continue
        if data is None:
            continue
        file = parsed
        files.append(file)
        if not isinstance(data, Map):
            unread.append(file.path)
            reader.problems.add(file.diagnostic((1, 1), "a catalog file is a mapping of keys to texts"))
            continue
        for key, value, parent, leaf in flatten(data):
            position = parent.value_positions[leaf]
            if key in messages:
                first = positions[key]
                reader.problems.add(file.diagnostic(parent.key_positions[leaf], f"message '{shown(key)}' is given twice",
                                                    hint=f"also at {first[0]}:{first[1]}"))
                continue
            if not isinstance(value, str):
                if value is None:  # 'title:' with nothing after it
                    hint = "the text is missing after the colon: write it there, in quotes (\"...\")"
                elif isinstance(value, list):  # 'title: [a, b]': a list, not a text
                    hint = "brackets make a list: write the text in quotes (\"...\"), brackets and commas inside"
                else:
                    hint = "quote it if it looks like a number or yes/no"
                reader.problems.add(file.diagnostic(position, f"message '{shown(key)}' should be text", hint=hint))
                continue
            # a text without braces has no placeholders to check (most texts: every load reads them all)
            braces = "{" in value or "}" in value
            depth = _brace_depth(value) if braces else 0
            if depth > limits.MAX_MESSAGE_DEPTH:  # formatting recurses once per level
                reader.problems.add(file.diagnostic(position, f"message '{shown(key)}' nests placeholders "
                                                              f"{depth} deep; at most {limits.MAX_MESSAGE_DEPTH}"))
                continue
            try:
                if braces:
                    format_message(value, _sample_params(value))
            except MessageError as error:
                at, width = _fault_in_line(file, position, error.fragment)
                reader.problems.add(file.diagnostic(at, f"message '{shown(key)}': {error}", width=width))
                continue
            if key.startswith(CONTRACTIONS):
                problem = contractions.add(key[len(CONTRACTIONS):], str(value))
                if problem:
                    reader.problems.add(file.diagnostic(
                        parent.key_positions[leaf], problem,
                        hint="a contraction joins words ('de el' -> 'del'): it seldom lengthens a text, "
                             "and never many times over (docs/limits.md)"))
                    continue
            messages[key] = str(value)
            positions[key] = (file.path, position[0], position[1])
    if len(reader.problems.items) == problems:
        catalogcache.put(folder_key, catalogcache.Kept(messages, positions, reader.budget.values - values))
    return Catalog(lang_dir.name, messages, positions)


def _fault_in_line(file: YamlFile, position, fragment: str):
    """Where a text's fault is on its line (the unclosed '{', the plural's braces), for the caret,
    and how wide; the text's start where it cannot be found there (a text of several lines, or
    written with escapes)."""
    line, column = position
    text = file.lines[line - 1] if 1 <= line <= len(file.lines) else ""
    found = text.find(fragment[:40], column - 1) if fragment else -1
    if found < 0:
        return position, 1
    width = len(fragment) if fragment.startswith("{") and fragment.endswith("}") else 1
    return (line, found + 1), min(width, max(len(text) - found, 1))


def _kept_catalog(reader: Reader, key: str, contractions: "_Contractions") -> Optional[catalogcache.Kept]:
    """What an earlier reading of these very files gave, if it is kept and still holds here: its
    placeholders within the limit, its values within what the content has left, its contractions
    taken beside those already known (each added to ``contractions``)."""
    kept = catalogcache.get(key)
    if kept is None or reader.budget.values + kept.values > reader.budget.max_values:
        return None  # (read afresh: the reading says what is wrong)
    if any(("{" in text or "}" in text) and _brace_depth(text) > limits.MAX_MESSAGE_DEPTH
           for text in kept.messages.values()):
        return None
    trial = _Contractions()
    trial.count, trial.growth = contractions.count, contractions.growth
    for name, text in kept.messages.items():
        if name.startswith(CONTRACTIONS) and trial.add(name[len(CONTRACTIONS):], text):
            return None
    contractions.count, contractions.growth = trial.count, trial.growth
    return kept


_INTERFACE: Dict[Tuple[str, str], Tuple[Catalog, List[Diagnostic]]] = {}


def interface_catalog(lang: str) -> Tuple[Catalog, List[Diagnostic]]:
    """The tool's catalog of ``lang`` (empty for a language the tool does not speak) and the
    problems found reading it; read once per process (and working folder: the files are named
    relative to it)."""
    if not re.fullmatch(r"[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})?", lang):
        return Catalog(lang, {}, {}), []
    cache_key = (lang, os.getcwd())
    found = _INTERFACE.get(cache_key)
    if found is None:
        folder = interface_dir()
        reader = Reader(folder)
        catalog = read_catalog(reader, folder / lang, [], _Contractions()) if (folder / lang).is_dir() \
            else Catalog(lang, {}, {})
        found = _INTERFACE[cache_key] = (catalog, list(reader.problems.items))
    return found


def names_to_translate(definition) -> Iterable[str]:
    """The catalog keys of the names a game's definition gives its things (sides, places, groups,
    zones, markers, the titles of its cards, the labels of the lines of a procedure)."""
    schema = definition.schema

    def section(words, default: str) -> str:
        return words[-1] if words else default

    yield from (f"sides.{side}" for side in schema.sides)
    yield from (f"{section(schema.map.place_words, 'places')}.{place}" for place in schema.map.places)
    yield from (f"{section(schema.map.group_words, 'groups')}.{group.name}" for group in schema.map.groups)
    for track in schema.tracks:
        yield from (f"{section(track.zone_words, 'zones')}.{zone.name}" for zone in track.zones)
    yield from (f"markers.{marker.name}" for marker in schema.markers)
    for kind in schema.card_kinds:
        cards = definition.cards.get(kind.name)
        yield from (f"{section(kind.words, 'cards')}.{card_id}.title" for card_id in (cards.ids if cards else ()))
    for kind, meaning in definition.procedures.values():
        if kind == "lines":
            yield from (f"scoring.{label}" for label, _ in meaning)


def _file_for_key(files: List[YamlFile], catalog: Catalog, key: str) -> Optional[YamlFile]:
    """The catalog file that holds the key's neighbours, where a missing key most likely belongs."""
    prefix = key.split(".")[0] + "."
    for other, (path, _, _) in catalog.positions.items():
        if other.startswith(prefix):
            for file in files:
                if file is not None and file.path == path:
                    return file
    return files[0]


_GUESSED_KEYS = 20  # missing catalog keys given a 'did you mean'


_BRACES = re.compile(r"\{\{|\}\}|[{}]")


CONTRACTIONS = "grammar.contractions."


class _Contractions:
    """A language's contractions, bounded as they are read: each is a pass over every text the
    language formats, and together they may lengthen a text at most ``MAX_CONTRACTION_GROWTH``
    times (docs/limits.md), whichever texts they meet and however one feeds another."""

    def __init__(self):
        self.count = 0
        self.growth = Fraction(1)

    def add(self, old: str, new: str) -> Optional[str]:
        """The problem with one more contraction ``old`` -> ``new``, or None."""
        if not old:
            return "a contraction replaces some text: its key is empty"
        self.count += 1
        if self.count > limits.MAX_CONTRACTIONS:
            return f"more than {limits.MAX_CONTRACTIONS:,} contractions in one language"
        growth = self.growth * _pass_growth(old, new) * _pass_growth(*map(Catalog.capitalized, (old, new)))
        if growth > limits.MAX_CONTRACTION_GROWTH:
            return (f"the contractions could make a text {_times(growth)} times longer "
                    f"(at most {limits.MAX_CONTRACTION_GROWTH} times)")
        self.growth = growth
        return None


def _pass_growth(old: str, new: str) -> Fraction:
    """At most how many times longer one replacement of ``old`` by ``new`` makes any text (it can
    replace no more than one ``old`` for each len(old) characters)."""
    return max(Fraction(1), Fraction(len(new), len(old)))


def _times(growth: Fraction) -> str:
    return f"{round(growth):,}" if growth >= 10 else f"{float(growth):.3g}"


def _brace_depth(message: str) -> int:
    """How deep a message's placeholders nest ('{{' and '}}' outside them are plain braces).

    Only the braces are visited (every message with a brace is measured at each load)."""
    depth = deepest = 0
    for match in _BRACES.finditer(message):
        braces = match.group()
        if len(braces) == 2 and depth == 0:
            continue
        for brace in braces:  # inside a placeholder, a doubled brace is two braces
            if brace == "{":
                depth += 1
                deepest = max(deepest, depth)
            elif depth:
                depth -= 1
    return deepest


def _sample_params(message: str) -> Dict[str, object]:
    """Parameters that let a message be formatted, to catch broken placeholder syntax."""
    return {name: 1 for name in placeholders(message)}


def _types(keys) -> Dict[str, type]:
    return {key: kind for key, (kind, _) in keys.items()}


def load_content(path: Optional[os.PathLike | str] = None, required_messages: Iterable[str] = (),
                 overrides: Optional[Dict[str, str]] = None) -> Content:
    """Load and check the content in ``path`` (the embedded game if None).

    ``overrides`` maps absolute file paths to text that stands for the file's
    (an editor's unsaved buffer)."""
    root = Path(os.path.abspath(path)) if path is not None else default_content_dir()
    with rulecache.session():  # rule texts parsed in an earlier run are not parsed again
        return _Loader(root, required_messages, overrides).load()


def load_for_translators(path: Optional[os.PathLike | str] = None) -> Tuple[Content, Dict[str, List[Diagnostic]], set]:
    """The content as ``load_content`` checks it, except that the problems of a translation (a
    catalog other than the reference: a file that is not YAML, a text that is no text, a broken
    placeholder, a card text that disagrees with its rule) do not stop it: they are given per
    language, and that language's texts fall back to the reference where they could not be read,
    as a game shows them; with the languages one of whose files could not be read at all (whose
    keys would all be missing).  For `crisis i18n check`, which tells them with the catalog's
    other problems; never for play (a translation with problems stops a game's load, as ever)."""
    root = Path(os.path.abspath(path)) if path is not None else default_content_dir()
    loader = _Loader(root, (), None, translating=True)
    with rulecache.session():
        content = loader.load()
    return content, loader.translation_problems, loader.unread_translations


def read_game(root, option_names: Tuple[str, ...] = ()):
    """A game's definition alone (no catalogs, no bots' settings), checked: ContentError with
    every problem, nothing half-loaded (a game written without texts for players, such as a toy
    game of the tests)."""
    from .definition import DefinitionReader
    root = Path(os.path.abspath(root))
    loader = _Loader(root, (), None)
    with rulecache.session():
        definition = DefinitionReader(loader).read(root, option_names)
    if loader.problems.items or definition is None:
        raise ContentError(list(loader.problems.items))
    return definition


def read_schema(root):
    """The game's schema (its state.yaml) read alone, or None where state.yaml has a problem: the
    names it declares, for an editor's completions while the rest of the content has errors."""
    from crisis.ruleset.rulecache import keywords
    from .schema import SchemaReader
    root = Path(os.path.abspath(root))
    loader = _Loader(root, (), None)
    try:
        schema = SchemaReader(loader, keywords=keywords()).read(root)
    except UserError:
        return None
    return None if loader.problems.items else schema


def load_definition(root):
    """The definition of the content at ``root`` (read with the rest of it)."""
    return load_content(root).definition
