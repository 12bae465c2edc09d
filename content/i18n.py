"""Checks a localizer runs (``crisis i18n check``): is a catalog complete,
do its placeholders match the reference, are glossary terms used the same
way everywhere, and do hand-written card texts agree with the card's rule.

Every problem is located at a file and line.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import attrs

from crisis.ruleset import meaning as M
from crisis.ruleset.diagnostics import Diagnostic, a_noun, did_you_mean, one_of

from .locale import GRAMMAR_FORMS, REFERENCE_LANG, SENTENCE_GRAMMAR, Catalog, interface_dir, placeholders, selectors_only
from .model import Content
from .yamlfile import ContentError, Map, Seq, YamlFile, display_path, read_text

GLOSSARY = "glossary.yaml"


@attrs.frozen
class Term:
    forms: Dict[str, Tuple[str, ...]]  # language -> accepted forms (the first is the preferred one)
    avoid: Dict[str, Tuple[str, ...]]  # language -> forms that must not be used
    line: int


def _at(catalog: Catalog, key: str, message: str, hint: Optional[str] = None,
        expected: Optional[str] = None, severity: str = "error") -> Diagnostic:
    path, line, column = catalog.positions.get(key, (None, None, None))
    return Diagnostic(message=message, path=path, line=line, column=column, hint=hint, expected=expected,
                      severity=severity, source_line=_line_of(path, line))


def _at_key(catalog: Catalog, key: str, part: str, message: str, **kwargs) -> Diagnostic:
    """A problem of a key itself (misspelt), pointed at the part of it that is wrong (``part``, a
    word of the dotted key: the card id of 'cards.major-andersn.title'), where it is written: on
    the line of the value or a line above it (a section's key); else at the value, as ``_at``."""
    found = _at(catalog, key, message, **kwargs)
    if not found.path or not found.line:
        return found
    try:
        with open(found.path, encoding="utf-8") as handle:
            lines = handle.read().split("\n")
    except (OSError, UnicodeDecodeError):
        return found
    pattern = re.compile(r"(?:^|[\s{,])(" + re.escape(part) + r")\s*:")
    for number in range(found.line, max(found.line - 200, 0), -1):
        text = lines[number - 1] if number <= len(lines) else ""
        end = found.column - 1 if number == found.line else len(text)
        match = pattern.search(text[:end])
        if match:
            return attrs.evolve(found, line=number, column=match.start(1) + 1, width=len(part), source_line=text)
    return found


def _at_text(catalog: Catalog, key: str, names: Sequence[str], message: str, **kwargs) -> Diagnostic:
    """A problem of a text's placeholders, pointed at the first of ``names`` written in it (a
    misspelt '{sid'), where the text is on one line; else at the text, as ``_at``."""
    found = _at(catalog, key, message, **kwargs)
    line = found.source_line or ""
    for name in names:
        # the whole name ('{sid' is not the start of '{side}')
        match = re.compile(r"\{" + re.escape(name) + r"(?=[}|?:\s])").search(line, (found.column or 1) - 1)
        if match:
            return attrs.evolve(found, column=match.start() + 1, width=len(name) + 1)
    return found


def _line_of(path: Optional[str], line: Optional[int]) -> Optional[str]:
    """The text of a catalog file's line, shown under a problem with a caret (None if unreadable)."""
    if not path or not line:
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            for number, text in enumerate(handle, 1):
                if number == line:
                    return text.rstrip("\r\n")
    except (OSError, UnicodeDecodeError):
        return None
    return None


def check_reference(content: Content) -> List[Diagnostic]:
    """The reference catalog against what the program asks for: every key it uses, every placeholder filled.

    A mistake here shows to every player whatever their language, so it is
    reported in the reference file itself, never in a translation.
    """
    # imported here: a content load (check_card_texts) needs none of the registry
    from .messages import allowed_placeholders, closest, used_messages
    reference = content.catalogs[REFERENCE_LANG]
    problems: List[Diagnostic] = []
    rules = rule_templates(content)
    problems.extend(_tool_words_unlike_the_game_s(content, reference, rules))
    problems.extend(_play_texts_unlike_the_game_s(content, reference))
    problems.extend(_keys_of_no_name(content, reference))
    for key, passed in sorted(_merged(used_messages(), rules).items()):
        if key not in reference.messages:
            neighbour = _own_file_for(content, reference, key) if key in rules else _file_for(reference, key)
            section = key.rsplit(".", 1)[0]
            asked = f"the rule '{rules[key][1]}' needs it" if key in rules else None
            # what its text may use: a template's placeholders are the names the game gives its
            # things, which a designer cannot guess
            given = ("" if passed is None else f", whose text may use the placeholders {_names(passed)}" if passed
                     else ", a text without placeholders (none is filled)")
            problems.append(Diagnostic(
                message=f"'{key}' is missing in the '{REFERENCE_LANG}' catalog: players would see <{key}>",
                path=neighbour, expected=f"{a_noun(repr(key.split('.')[-1] + ':'))} entry under '{section}:'{given}",
                hint="; ".join(filter(None, (asked, _close_key(key, reference), _looked_in(content)))) or None))
            continue
        if passed is None:
            continue
        unfilled = set(placeholders(reference.messages[key])) - allowed_placeholders(passed)
        if unfilled and key in rules and _tool_s(reference, key):
            problems.append(_tool_template_unfilled(content, reference, key, unfilled, passed, rules[key][1]))
            continue
        for name in sorted(unfilled):
            guess = closest(name, passed)
            problems.append(_at(reference, key, f"'{key}' uses the placeholder {{{name}}}, which the game never "
                                                f"fills (it gives {_names(passed)})",
                                hint=f"did you mean {{{guess[0]}}}?" if guess else None))
    return problems


def game_names(content: Content) -> Dict[str, List[Tuple[str, Tuple[str, ...]]]]:
    """The sections of a catalog whose keys are made from the names the game gives its things
    (section -> (what the names are, the names)): 'steps.<step>', 'log.step.<step>',
    '<cards>.<card id>.title', '<places>.<place>', 'counters.<counter>'... A key there that
    names none of them is read by nothing (a name misspelt, or changed in the rules only)."""
    from crisis.ruleset.walk import meanings
    definition = getattr(content, "definition", None)
    if definition is None:
        return {}
    schema = definition.schema

    def section(words, default: str) -> str:
        return words[-1] if words else default

    overlay = definition.overlay
    roots = [definition.setup, definition.play] + [rule for rule, _ in definition.sources]
    roots += [meaning for _, meaning in definition.procedures.values()]
    if overlay is not None:
        roots += [body for bodies in overlay.steps.values() for body in bodies.values()]
    steps = {node.name for node in meanings(*roots) if isinstance(node, M.Step)}
    if overlay is not None:
        steps |= set(overlay.steps)
    procedures = set(definition.procedures) | (set(overlay.procedures) if overlay is not None else set())
    counters = {counter.name for counter in schema.counters}
    # section -> each kind of name made into its keys (two kinds may share one: location cards
    # titled under 'locations.<id>.title' on a map of locations named 'locations.<place>')
    found: Dict[str, List[Tuple[str, Tuple[str, ...]]]] = {}

    def add(prefix: str, what: str, names) -> None:
        if not names:
            return
        kinds = found.setdefault(prefix, [])
        same = next((i for i, (kind, _) in enumerate(kinds) if kind == what), None)
        if same is None:
            kinds.append((what, tuple(dict.fromkeys(names))))
        else:
            kinds[same] = (what, tuple(dict.fromkeys(kinds[same][1] + tuple(names))))

    add("sides", "side", schema.sides)
    add(section(schema.map.place_words, "places"), section(schema.map.place_words[:1], "place"), schema.map.places)
    add(section(schema.map.group_words, "groups"), section(schema.map.group_words[:1], "group"),
        [group.name for group in schema.map.groups])
    for track in schema.tracks:
        add(section(track.zone_words, "zones"), section(track.zone_words[:1], "zone"),
            [zone.name for zone in track.zones])
    add("markers", "marker", [marker.name for marker in schema.markers])
    for kind in schema.card_kinds:
        cards = definition.cards.get(kind.name)
        add(section(kind.words, "cards"), "card id", cards.ids if cards else ())
    for prefix in ("steps", "log.step"):
        add(prefix, "step", sorted(steps))
    for prefix in ("counters", "log.counter", "log.counter_set"):
        add(prefix, "counter", sorted(counters))
    add("procedures", "procedure", sorted(procedures))
    add("piles", "pile", [pile.name for pile in schema.piles])
    add("registers", "register", schema.registers)
    return found


def _keys_of_no_name(content: Content, reference: Catalog) -> List[Diagnostic]:
    """Keys of the game's own reference catalog made from a name the game does not give
    ('log.step.dawnn' for the step 'dawn'): nothing ever reads them, so a log line or a title
    silently goes missing (warnings, at the name in the key, with the name likely meant)."""
    sections = game_names(content)
    if not sections:
        return []
    own = os.path.join(os.path.abspath(str(content.root)), "locale", REFERENCE_LANG) + os.sep
    # the longest section first ('log.step.' before a section 'log.')
    prefixes = sorted(sections, key=len, reverse=True)
    problems: List[Diagnostic] = []
    for key, (path, _, _) in reference.positions.items():
        if not os.path.abspath(path).startswith(own):
            continue
        prefix = next((p for p in prefixes if key.startswith(p + ".")), None)
        if prefix is None:
            continue
        kinds = sections[prefix]
        rest = key[len(prefix) + 1:]
        if any((rest.split(".")[0] if what == "card id" else rest) in names for what, names in kinds):
            continue
        what, names = kinds[0]
        name = rest.split(".")[0] if what == "card id" else rest
        guess = did_you_mean(name, list(names))
        shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
        problems.append(_at_key(
            reference, key, name, f"'{key}' names no {what} of this game ('{name}'): nothing reads its text",
            severity="warning",
            hint=f"did you mean '{prefix}.{guess}'?" if guess else
            f"the game's {what}s: {shown}; a key left over from a name changed in the rules?"))
    return problems


def _tool_s(catalog: Catalog, key: str) -> bool:
    """Whether the text ``catalog`` has for ``key`` is the tool's own (content/interface/)."""
    path = catalog.positions.get(key, (None,))[0]
    return path is not None and path.startswith(_shared_folder())


def _tool_template_unfilled(content: Content, reference: Catalog, key: str, unfilled, passed,
                            rule: str) -> Diagnostic:
    """A template of the tool's that a rule of this game reads through, naming a placeholder in
    Fort Sumter's words ('{space}') where this game fills its own ('{stall}'): the designer gives
    the key in the game's catalog (the tool's file is not theirs to edit), so it is told there."""
    from .messages import allowed_placeholders, closest
    tool_text = reference.messages[key]
    example = tool_text
    # the game's own name of the same thing: the one spelt alike, else (one name unfilled) the one
    # name the game gives that the text leaves unused ({stall} beside its forms {stall_g}, {stall_pl})
    unused = [name for name in sorted(passed) if name not in placeholders(tool_text)]
    roots = [name for name in unused if not any(name.startswith(other + "_") for other in unused)]
    for name in sorted(unfilled):
        guess = closest(name, passed) or (roots if len(unfilled) == 1 and len(roots) == 1 else ())
        if guess:
            example = re.sub(r"\{" + re.escape(name) + r"(?=[}|?:\s])", "{" + guess[0], example)
    path, line, _ = reference.positions[key]
    names = sorted(unfilled)
    said = (f"placeholder {{{names[0]}}}" if len(names) == 1
            else "placeholders " + ", ".join(f"{{{name}}}" for name in names))
    own = set(placeholders(example)) <= allowed_placeholders(passed)
    return Diagnostic(
        message=f"'{key}' is the tool's text, whose {said} this game never fills (it gives {_names(passed)})",
        path=_own_file_for(content, reference, key),
        expected=f"'{key}' in this game's catalog" + (f", e.g. \"{example}\"" if own else
                                                        f", with the placeholders {_names(passed)}"),
        hint=f"the rule '{rule}' reads through it; the tool's text is \"{tool_text}\" ({path}:{line})")


_RULE_TEMPLATES: Dict[int, Tuple[Content, Dict[str, Tuple[frozenset, str]]]] = {}


def rule_templates(content: Content) -> Dict[str, Tuple[frozenset, str]]:
    """The ``render.*`` templates the content's rules ask for (key -> the parameters they fill,
    the first rule that asks), found by putting every rule into words (content/phrases.py): a
    template's key is made from the names the game's schema gives its things, so no list in the
    program can name them all."""
    found = _RULE_TEMPLATES.get(id(content))
    if found is None or found[0] is not content:
        from .phrases import templates_used
        definition = getattr(content, "definition", None)
        used = templates_used(definition, content.catalogs[REFERENCE_LANG]) if definition is not None else {}
        if len(_RULE_TEMPLATES) >= 4:
            _RULE_TEMPLATES.clear()
        found = _RULE_TEMPLATES[id(content)] = (content, used)
    return found[1]


_TOOL_NOUNS = re.compile(r"\b(spaces?|tokens?|control(?:s|led)?)\b")


def _own_nouns(schema) -> Dict[str, Tuple[str, ...]]:
    """The game's own words for what the tool's texts call 'space', 'token' and 'control'."""
    tokens = schema.tokens
    return {"space": tuple(schema.map.place_words), "token": tuple(tokens.words) if tokens is not None else (),
            "control": tuple(tokens.control_words) if tokens is not None else ()}


def _tool_nouns_unlike(text: str, own: Dict[str, Tuple[str, ...]]) -> List[str]:
    """The tool's nouns a text says ('space', 'controls'), by root, where the game has words of
    its own for them: the words read, not its placeholders' names ({space} is a place's name)."""
    read = re.sub(r"\{[a-z_]+(?=[}?|])", "{", text)
    roots = []
    for match in _TOOL_NOUNS.finditer(read):
        word = match.group(1)
        root = "control" if word.startswith("control") else word.rstrip("s")
        if own[root] and word not in own[root] and root not in own[root] and root not in roots:
            roots.append(root)
    return roots


def _tool_words_unlike_the_game_s(content: Content, reference: Catalog, rules) -> List[Diagnostic]:
    """The tool's own templates a rule of this game reads through that name its places or pieces
    in Fort Sumter's words ('space', 'token') where the game has its own ('area', 'regiment'):
    a player would read "at most 1 per space" in a game of areas (warnings, at the game's catalog)."""
    own = _own_nouns(content.schema)
    problems: List[Diagnostic] = []
    for key in sorted(rules):
        if not _tool_s(reference, key) or key not in reference.messages:
            continue
        said = _tool_nouns_unlike(reference.messages[key], own)
        if said:
            problems.append(Diagnostic(
                message=f"'{key}' is the tool's text, which says '{said[0]}' where this game says "
                        f"'{sorted(own[said[0]])[0]}'", path=_own_file_for(content, reference, key),
                severity="warning",
                expected=f"'{key}' in this game's catalog, in its own words",
                hint=f"the rule '{rules[key][1]}' reads through it: \"{reference.messages[key]}\""))
    return problems


# the tool's texts play shows about the pieces and places of a game with tokens (docs/new-game.md,
# "The game's catalog"): in Fort Sumter's words until the game gives them in its own
_PLAY_SECTIONS = ("token.", "decision.", "cli.board.legend", "cli.consequence.", "cli.help.", "cli.move.")


def _play_texts_unlike_the_game_s(content: Content, reference: Catalog) -> List[Diagnostic]:
    """The tool's texts that play shows (prompts, the board's legend, what a choice would change)
    and that name pieces, places or holding a place in Fort Sumter's words ('token', 'space',
    'control') where this game has its own ('banner', 'town', 'occupy'), not given in its catalog:
    a player would read "place a token" in a game of banners (one warning a word, naming the keys)."""
    schema = content.schema
    if schema.tokens is None:
        return []
    own = _own_nouns(schema)
    said: Dict[str, List[str]] = {}
    for key, text in reference.messages.items():
        if not key.startswith(_PLAY_SECTIONS) or not _tool_s(reference, key):
            continue  # (given in the game's catalog, or not a text play shows about pieces)
        if not schema.markers and ("marker" in key or "blocked" in key):
            continue  # (what a marker does: never shown in a game without one)
        for root in _tool_nouns_unlike(text, own):
            said.setdefault(root, []).append(key)
    return [Diagnostic(message=f"{len(keys)} of the tool's texts that play shows say '{root}' where this game "
                               f"says '{own[root][0]}'",
                       path=_own_file_for(content, reference, keys[0]), severity="warning",
                       expected=f"these keys in this game's catalog, in its own words: {one_of(keys, limit=6)}",
                       hint="docs/new-game.md, \"The game's catalog\", lists them with what players read")
            for root, keys in said.items()]


def _merged(registry, rules) -> Dict[str, Optional[frozenset]]:
    """The registry's keys and the rules' templates, with the parameters filled: what the rules
    fill where the source does not say (the registry's None), else those of both."""
    merged = dict(registry)
    for key, (params, _) in rules.items():
        merged[key] = params if merged.get(key) is None else merged[key] | params
    return merged


def _looked_in(content: Content) -> str:
    """Where a text is looked for: the tool's catalog, then the game's (content/loader.py)."""
    from .locale import looked_in
    return looked_in(content.root, REFERENCE_LANG)


def _close_key(key: str, catalog: Catalog) -> Optional[str]:
    from crisis.ruleset.diagnostics import did_you_mean
    guess = did_you_mean(key, list(catalog.messages), cutoff=0.85)
    return f"did you mean '{guess}'? (keys must match exactly)" if guess else None


def _expected_placeholders(content: Content, key: str) -> Optional[set]:
    """What a translation of ``key`` must use: what the program fills, or else what the reference
    uses; None for a template made from the game's names (``render.*``) that neither the source
    nor any rule of the content asks for: what it would be given is not known."""
    from .messages import used_messages
    passed = _merged(used_messages(), rule_templates(content)).get(key)
    if passed is not None:
        return set(passed)
    if key.startswith("render.") and key not in used_messages():
        return None
    return set(placeholders(content.catalogs[REFERENCE_LANG].messages[key]))


def _asked_by_name(content: Content, key: str) -> bool:
    """Whether the program or a rule asks for ``key`` by name (then its reference text is the one
    to measure a translation by), rather than making it from a name of the game."""
    from .messages import used_messages
    return key in _merged(used_messages(), rule_templates(content))


def load_glossary(root: str) -> Tuple[List[Term], List[Diagnostic]]:
    from pathlib import Path
    path = Path(root) / "locale" / GLOSSARY
    if not os.path.lexists(path):
        return [], []
    try:
        file = YamlFile(display_path(path), read_text(path, Path(root))[0])
        data = file.load()
    except ContentError as error:
        return [], error.diagnostics
    problems: List[Diagnostic] = []
    terms: List[Term] = []
    entries = data.get("terms") if isinstance(data, Map) else None
    if not isinstance(entries, Seq):
        return [], [file.diagnostic((1, 1), "the glossary needs a 'terms:' list")]
    for index, entry in enumerate(entries):
        if not isinstance(entry, Map):
            problems.append(file.diagnostic(entries.positions[index], "a glossary term maps languages to forms"))
            continue
        forms, avoid = {}, {}
        for lang, value in entry.items():
            if lang == "avoid":
                if isinstance(value, Map):
                    avoid = {k: tuple(_as_list(v)) for k, v in value.items()}
                continue
            forms[str(lang)] = tuple(_as_list(value))
        terms.append(Term(forms, avoid, entries.positions[index][0]))
    return terms, problems


def _as_list(value) -> List[str]:
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


_PLACEHOLDER_NAME = re.compile(r"\{[\w]+(?=[}|?])")


def _contains(text: str, form: str) -> bool:
    # placeholder names ({tokens}) are not words of the text
    text = _PLACEHOLDER_NAME.sub("{", text)
    return re.search(r"(?<![\w])" + re.escape(form.lower()) + r"(?![\w])", text.lower()) is not None


FEW_MISSING = 5  # missing keys shown by name in each file's summary (``--all`` shows every one)


def check_catalog(content: Content, lang: str, every_missing: bool = False) -> List[Diagnostic]:
    """Problems of one catalog against the reference catalog (and the glossary).

    Missing keys are summarized per file (a new language lacks hundreds), unless ``every_missing``."""
    if lang == REFERENCE_LANG:
        return other_problems(content, lang)
    return (missing_key_problems(content, lang, every_missing) + generic_wording_problems(content, lang, every_missing)
            + other_problems(content, lang))


def generic_wording_problems(content: Content, lang: str, every_missing: bool = False) -> List[Diagnostic]:
    """Texts the game words its own way in the reference language (its catalog gives a key of the
    tool's) that this language has only in the tool's wording: its players read the tool's
    general words ('the game', 'no rule') where the game's reference players read its own ('the
    Solo Opponent', 'no event').  Per file of the game's own catalog, or one per key."""
    reference, catalog = content.catalogs[REFERENCE_LANG], content.catalogs[lang]
    by_file: Dict[str, List[str]] = {}
    for key in reference.messages:
        if _overridden_in_reference_only(reference, catalog, key):
            english_file = reference.positions[key][0]
            path = display_path(Path(content.root) / "locale" / lang / os.path.basename(english_file))
            by_file.setdefault(path, []).append(key)
    problems = []
    for path, keys in by_file.items():
        shown = keys if every_missing else keys[:FEW_MISSING]
        named = ", ".join(shown) + (f" and {len(keys) - len(shown)} more" if len(keys) > len(shown) else "")
        problems.append(Diagnostic(
            message=f"{len(keys)} {'text' if len(keys) == 1 else 'texts'} the game words its own way in "
                    f"{REFERENCE_LANG} {'is' if len(keys) == 1 else 'are'} only the tool's in '{lang}' "
                    f"(players read the tool's general wording)",
            path=path, severity="warning",
            hint=f"to give here: {named}\n  the game's {REFERENCE_LANG} texts are in "
                 f"{reference.positions[keys[0]][0]}; the tool's '{lang}' ones in "
                 f"{catalog.positions[keys[0]][0]}"))
    return problems


def other_problems(content: Content, lang: str) -> List[Diagnostic]:
    """A catalog's problems other than missing keys: extra keys, placeholders, command words,
    glossary, hand-written card texts (for the reference: what the program asks of it)."""
    from .messages import allowed_placeholders
    reference = content.catalogs[REFERENCE_LANG]
    catalog = content.catalogs[lang]
    problems: List[Diagnostic] = []
    problems.extend(check_forms(content, lang))
    if lang == REFERENCE_LANG:
        problems.extend(check_reference(content))
    else:
        for key in catalog.messages:
            if _own_grammar(key):
                continue
            if key not in reference.messages and not _optional(content, key):
                hint, meant = _misspelt_key_hint(key, reference, catalog)
                # the word of the key that differs from the one meant (the last, where none is)
                parts, meant_parts = key.split("."), (meant.split(".") if meant else [])
                part = next((mine for mine, theirs in zip(parts, meant_parts) if mine != theirs), parts[-1]) \
                    if len(meant_parts) == len(parts) else parts[-1]
                problems.append(_at_key(catalog, key, part, f"'{key}' is not in the {REFERENCE_LANG} catalog",
                                        hint=hint, severity="warning"))
            elif key in reference.messages:
                mine = set(placeholders(catalog.messages[key]))
                # measured against what the game fills, so a typo in the reference is not blamed on a translation
                expected = _expected_placeholders(content, key)
                if expected is None:  # not known: only a placeholder of the reference left out is a problem
                    filled = allowed_placeholders(frozenset(mine | set(placeholders(reference.messages[key]))))
                else:
                    filled = allowed_placeholders(frozenset(expected))
                # a placeholder the reference only chooses forms by ({actor?you:...}) is its grammar,
                # which this language may not need
                grammar = selectors_only(reference.messages[key]) & SENTENCE_GRAMMAR
                required = (set(placeholders(reference.messages[key])) - grammar) & filled
                if _overridden_in_reference_only(reference, catalog, key):
                    continue  # the game's own text to write in this language (generic_wording_problems)
                if (required - mine or mine - filled) and not _asked_by_name(content, key) \
                        and not reference.positions.get(key, ("",))[0].startswith(_shared_folder()):
                    # what the game fills is not known (a key made from a name of the game, such as
                    # a step's, with the game's own text): which of the two is misspelt cannot be
                    # told, so both are named
                    path, line, _ = reference.positions.get(key, (None, None, None))
                    where = f"{path}:{line}" if path and line else REFERENCE_LANG
                    theirs = set(placeholders(reference.messages[key]))
                    if mine <= theirs:  # only left out: nothing is misspelt
                        message = (f"'{key}' leaves out {_names(theirs - mine)} of the {REFERENCE_LANG} text "
                                   f"({where})")
                    elif theirs <= mine:  # only added: nothing is misspelt either
                        message = (f"'{key}' uses {_names(mine - theirs)}, which the {REFERENCE_LANG} text "
                                   f"({where}) does not: the game may not fill it")
                    else:
                        message = (f"'{key}' uses placeholders {_names(mine)} here, but {_names(theirs)} in the "
                                   f"{REFERENCE_LANG} text ({where}): one of the two is misspelt")
                    problems.append(_at_text(catalog, key, sorted(mine - theirs), message,
                                             hint="a placeholder the game does not fill shows as an error; "
                                                  "one left out loses information"))
                elif required - mine or mine - filled:
                    # the difference first: which placeholder is not the game's, which one is left out
                    said = []
                    if mine - filled:
                        said.append(f"uses {_names(mine - filled)}, which the game does not fill")
                    if required - mine:
                        said.append(f"leaves out {_names(required - mine)}")
                    problems.append(_at_text(catalog, key, sorted(mine - filled), f"'{key}' " + " and ".join(said),
                                        expected=f"the placeholders of the {REFERENCE_LANG} text: "
                                                 f"{_names(required)}",
                                        hint="a placeholder the game does not fill shows as an error; "
                                             "one left out loses information"))
        problems.extend(check_command_words(content, lang))
    problems.extend(check_glossary(content, lang))
    problems.extend(check_card_texts(content, lang))
    problems.extend(check_place_cards(content, lang))
    problems.extend(check_same_titles(content, lang))
    return problems


def check_same_titles(content: Content, lang: str) -> List[Diagnostic]:
    """Two cards titled alike in one language ('<kind>.<id>.title', of any kinds of cards): a menu
    shows the same title twice, and a title typed names neither card (warnings, at the second)."""
    catalog = content.catalogs[lang]
    sections = tuple(f"{section}." for section in card_sections(content))
    # the titles of the game's cards (a key of no card is told of by check_reference)
    cards = {f"{prefix}.{card}.title" for prefix, kinds in game_names(content).items()
             for what, names in kinds if what == "card id" for card in names}
    first: Dict[str, str] = {}  # a title as typed (case and spaces aside) -> the key that gives it first
    reference = content.catalogs[REFERENCE_LANG]
    problems: List[Diagnostic] = []
    for key, text in catalog.messages.items():
        if not (key.startswith(sections) and key.endswith(".title") and key.count(".") == 2) \
                or (cards and key not in cards):
            continue
        typed = " ".join(text.casefold().split())
        if not typed:
            continue
        other = first.setdefault(typed, key)
        if other == key:
            continue
        path, line, _ = catalog.positions.get(other, ("?", "?", None))
        english = [reference.raw(k) for k in (other, key)] if lang != REFERENCE_LANG else []
        told = (f" (in {REFERENCE_LANG}: '{english[0]}' and '{english[1]}')"
                if english and all(english) and english[0] != english[1] else "")
        problems.append(_at(catalog, key, f"'{key}' is '{text}', as is '{other}' ({path}:{line}): players "
                                          f"cannot tell the two cards apart",
                            hint=f"a menu shows the title twice, and the title typed names neither card; "
                                 f"give each card its own title{told}", severity="warning"))
    return problems


def check_place_cards(content: Content, lang: str) -> List[Diagnostic]:
    """A card that stands for a place (a field of type place: the Civil War's location cards) and
    bears the place's name in English should bear it in every language: 'Nueva Orleáns' on the
    card and 'Nueva Orleans' on the map read as two places (warnings, at the card's title)."""
    reference, catalog = content.catalogs[REFERENCE_LANG], content.catalogs[lang]
    schema = content.schema
    place_words = schema.map.place_words
    if not place_words:
        return []
    problems = []
    for kind in schema.card_kinds:
        fields = [name for name, type_name in kind.fields if type_name == "place"]
        section = kind.words[-1] if kind.words else "cards"
        for card_id in content.cards(kind.name).ids if fields else ():
            values = content.card_fields(kind.name, card_id)
            for field in fields:
                index = values[field]
                if not isinstance(index, int) or not 0 <= index < len(schema.map.places):
                    continue
                place = schema.map.places[index]
                title = f"{section}.{card_id}.title"
                if reference.raw(title) != reference.name(place_words[-1], place):
                    continue  # a card named otherwise than its place in English: its own name
                shown, named = catalog.raw(title), catalog.name(place_words[-1], place)
                if shown is not None and shown != named:
                    problems.append(_at(catalog, title, f"'{title}' is '{shown}', where the {place_words[0]} it "
                                                       f"stands for is named '{named}': players would read two "
                                                       f"names for one {place_words[0]}",
                                        hint=f"as in {REFERENCE_LANG}, the card bears its {place_words[0]}'s name",
                                        severity="warning"))
    return problems


GENDERS = ("m", "f", "mpl", "fpl", "")
_FORMS = "forms."


def check_forms(content: Content, lang: str) -> List[Diagnostic]:
    """The grammar a catalog gives names (``forms.<kind>.<name>.<form>``), which nothing else reads
    strictly: a misspelt kind, name or form, or a gender outside the list, would otherwise only
    leave an article out, silently."""
    catalog = content.catalogs[lang]
    known = set(content.catalogs[REFERENCE_LANG].messages) | set(catalog.messages)
    known = {key for key in known if not key.startswith(_FORMS)}
    kinds: Dict[str, List[str]] = {}  # kind of names -> its names (their keys' rest)
    for key in known:
        kind, _, name = key.partition(".")
        if name:
            kinds.setdefault(kind, []).append(name)
    forms = [form for _, form in GRAMMAR_FORMS]
    problems: List[Diagnostic] = []
    for key, value in catalog.messages.items():
        if not key.startswith(_FORMS):
            continue
        kind, _, rest = key[len(_FORMS):].partition(".")
        name, _, form = rest.rpartition(".")
        if not name:
            problems.append(_at(catalog, key, f"'{key}' names no form of a name",
                                expected=f"forms.<kind>.<name>.gender or .plural, as "
                                         f"'forms.sides.<side>: {{gender: m}}'"))
        elif form not in forms:
            guess = did_you_mean(form, forms)
            problems.append(_at_key(catalog, key, form, f"'{form}' is not a form of a name ('{key}')",
                                expected=" or ".join(forms),
                                hint=f"did you mean '{guess}'?" if guess else None))
        elif kind not in kinds:
            guess = did_you_mean(kind, [k for k, names in kinds.items() if len(names) > 1])
            problems.append(_at_key(catalog, key, kind, f"'{kind}' is no kind of names the catalogs give ('{key}')",
                                hint=f"did you mean 'forms.{guess}'?" if guess else
                                "the kind is the section that names the thing: sides, spaces, ..."))
        elif f"{kind}.{name}" not in known:
            guess = did_you_mean(name, kinds[kind])
            problems.append(_at_key(catalog, key, name, f"'{name}' is not among the {kind} the catalogs name ('{key}')",
                                hint=f"did you mean '{guess}'?" if guess else
                                f"a name is written as the key of '{kind}.<name>' in the {REFERENCE_LANG} catalog"))
        elif form == "gender" and value not in GENDERS:
            guess = did_you_mean(value, GENDERS[:-1])
            problems.append(_at(catalog, key, f"the gender of '{name}' is '{value}'",
                                expected="m, f, mpl, fpl, or empty for a name used without an article",
                                hint=f"did you mean '{guess}'?" if guess else None))
    return problems


def _misspelt_key_hint(key: str, reference: Catalog, catalog: Catalog) -> Tuple[str, Optional[str]]:
    """(the hint, the key meant) for a key the reference lacks: the key likely meant, by its last word among the
    keys of the same section (one this catalog lacks, or has already: the same text given
    twice), else among every key (a misspelt section, or card id, inside the key)."""
    section, _, leaf = key.rpartition(".")
    leaves = [k.rpartition(".")[2] for k in reference.messages if k.rpartition(".")[0] == section]
    near = did_you_mean(leaf, [k for k in leaves if f"{section}.{k}" not in catalog.messages]) \
        or did_you_mean(leaf, leaves)
    guess = f"{section}.{near}" if near else \
        did_you_mean(key, [k for k in reference.messages if not _own_grammar(k)], cutoff=0.8)
    if guess is None:
        return "a key the game never asks for: misspelt, or left over", None
    if guess not in catalog.messages:
        return f"did you mean '{guess}'? (this catalog lacks it)", guess
    path, line, _ = catalog.positions.get(guess, ("?", "?", None))
    return f"did you mean '{guess}'? (this catalog has it too, at {path}:{line}: one of the two is left over)", guess


def _own_grammar(key: str) -> bool:
    """Keys of a language's own grammar, which no other language needs to match."""
    return key.startswith(("forms.", "grammar.", "glosses."))


def missing_keys(content: Content, lang: str) -> Dict[str, List[str]]:
    """The reference keys a catalog lacks, by the file of the catalog each belongs in (reference order)."""
    reference = content.catalogs[REFERENCE_LANG]
    catalog = content.catalogs[lang]
    by_file: Dict[str, List[str]] = {}
    prefixes = _prefix_files(catalog)
    for key in reference.messages:
        if not _own_grammar(key) and key not in catalog.messages:
            by_file.setdefault(_file_for(catalog, key, reference, prefixes), []).append(key)
    return by_file


def missing_in_play_problems(content: Content, lang: str, found: Dict[str, str], games: int) -> List[Diagnostic]:
    """The keys ``games`` random games asked ``lang``'s catalog for and it lacks, even in its
    fallback (``found``: key -> the action or moment that asked, from cli/i18n_play.py): made in
    play from what the sequence of play asks, so the content alone does not name them."""
    catalog, reference = content.catalogs[lang], content.catalogs[REFERENCE_LANG]
    prefixes = _prefix_files(catalog)
    # what play asks for is made from the game's own words (its verbs, its steps): it belongs
    # in the game's catalog where that holds keys of the same section, not in the tool's
    shared = _shared_folder()
    own = _prefixes(where for where in catalog.positions.items() if not where[1][0].startswith(shared))

    def home(key: str) -> Optional[str]:
        found = next(_neighbour_files(own, key), None)
        if found is not None:
            return found
        # no key of its section in the game's catalog yet: the file of the same name there (the
        # tool's file holds the section for the tool's own keys, which the designer does not edit)
        shared_file = _file_for(catalog, key, reference, prefixes)
        return display_path(Path(content.root) / "locale" / lang / os.path.basename(shared_file or "messages.yaml"))

    return [Diagnostic(message=f"'{key}' is missing in the '{lang}' catalog: players see <{key}> in play",
                       path=home(key),
                       expected=a_noun(f"'{key.split('.')[-1]}:' entry under '{key.rsplit('.', 1)[0]}:'"),
                       hint=f"asked for at '{example}' in one of {games} random games played to find "
                            f"the texts only play asks for")
            for key, example in sorted(found.items())]


def unfilled_in_play_problems(content: Content, lang: str, found: Dict[str, Tuple[str, str, Tuple[str, ...]]],
                              games: int, told: Sequence[Diagnostic] = ()) -> List[Diagnostic]:
    """The texts of ``lang``'s catalog that play could not fill (``found``: key -> where, why, the
    names play gave, from cli/i18n_play.py): a log line or a prompt whose parameters only play
    knows, with a placeholder misspelt or one play never gives.  Players see <key> there, or the
    reference's text where this language's is the one at fault.  A text whose placeholders a
    problem of ``told`` (the file's own check) is already about, at its line, is not told again."""
    from .messages import closest
    catalog = content.catalogs[lang]
    reference = content.catalogs[REFERENCE_LANG]
    problems = []
    for key, (example, why, given) in sorted(found.items()):
        holder = catalog if key in catalog.messages else (catalog.fallback or catalog)
        path, line, _ = holder.positions.get(key, (None, None, None))
        if line is not None and any(p.path == path and p.line == line and p.message.startswith(f"'{key}' ")
                                    for p in told):
            continue
        text = catalog.raw(key) or ""
        unknown = [name for name in placeholders(text) if name not in given]
        guess = closest(unknown[0], given) if unknown else ()
        found_at = f"found at '{example}' in one of {games} random games"
        falls_back = holder is catalog and lang != REFERENCE_LANG and reference.raw(key) is not None
        seen = f"players read the {REFERENCE_LANG} text instead" if falls_back else f"players see <{key}>"
        problems.append(_at_text(holder, key, unknown,
                                 f"'{key}' cannot be filled in play ({why}): {seen}; play gives "
                                 f"{_names(frozenset(given)) if given else 'no value'}",
                                 hint=f"did you mean {{{guess[0]}}}? ({found_at})" if guess else found_at))
    return problems


def names_shown_raw_problems(content: Content, lang: str, found: Dict[str, Tuple[str, str, str, str]],
                             games: int) -> List[Diagnostic]:
    """The texts that showed a name as the rules write it where ``lang``'s catalog names it otherwise
    (``found``: the last of cli/i18n_play.py's ``played_texts``), at the placeholder given it: the
    program gave the text a name it did not put in the player's language, which no catalog mends."""
    catalog = content.catalogs[lang]
    return [_at_text(catalog, key, [placeholder],
                     f"'{key}' shows '{raw}' as state.yaml writes it, where the '{lang}' catalog names it '{named}'",
                     severity="warning",
                     hint=f"{{{placeholder}}} was given it unnamed at {where} in one of {games} random games: "
                          f"a fault of the program, not of the catalog (please report it)")
            for key, (where, placeholder, raw, named) in sorted(found.items())]


def unnamed_problems(content: Content, lang: str, found: Dict[str, Tuple[str, str]]) -> List[Diagnostic]:
    """Words ``lang``'s players read in the reference language, as ``state.yaml`` writes them,
    because no catalog names them (``found``: key -> where, from cli/i18n_play.py): a key to give
    in the game's reference catalog first (a key only a translation has is an extra), then here."""
    reference = content.catalogs[REFERENCE_LANG]
    own = Path(content.root) / "locale"
    return [Diagnostic(message=f"'{key}' is in no catalog: '{lang}' players read '{shown}' as "
                               f"state.yaml writes it",
                       path=_own_file_for(content, reference, key), severity="warning",
                       expected=f"'{key.rsplit('.', 1)[0]}: {{{key.rsplit('.', 1)[1]}: ...}}' in "
                                f"{display_path(own / REFERENCE_LANG)} and in {display_path(own / lang)}",
                       hint=f"shown in {where}")
            for key, (where, shown) in sorted(found.items())]


def missing_key_problems(content: Content, lang: str, every_missing: bool = False) -> List[Diagnostic]:
    """One warning per file of missing keys (the first few named), or one per key.

    A gap falls back to the reference text: incomplete, not broken."""
    reference = content.catalogs[REFERENCE_LANG]
    problems: List[Diagnostic] = []

    def english(key: str) -> str:
        path, line, _ = reference.positions[key]
        return f"{path}:{line}: {reference.messages[key]!r}"

    for path, keys in missing_keys(content, lang).items():
        if every_missing or len(keys) == 1:
            problems.extend(Diagnostic(message=f"'{key}' is missing in the '{lang}' catalog", path=path,
                                       hint=f"the {REFERENCE_LANG} text is at {english(key)}", severity="warning")
                            for key in keys)
            continue
        named = ", ".join(keys[:FEW_MISSING]) + (f" and {len(keys) - FEW_MISSING} more" if len(keys) > FEW_MISSING else "")
        english_file = reference.positions[keys[0]][0]
        problems.append(Diagnostic(
            message=f"{len(keys)} keys of the {REFERENCE_LANG} catalog are missing in the '{lang}' catalog "
                    f"(players see the {REFERENCE_LANG} texts)",
            path=path,
            hint=f"missing: {named}\n  the {REFERENCE_LANG} texts are in {english_file}; "
                 f"crisis i18n check --lang {lang} --all{_content_flag(content)} lists each with its "
                 f"{REFERENCE_LANG} text",
            severity="warning"))
    return problems


def _content_flag(content: Content) -> str:
    """What names this content on a command line: nothing for the game played by default,
    ' --game NAME' for another shipped one, ' --content DIR' for a folder of the user's."""
    from .games import DEFAULT_GAME, games_dir
    root = Path(os.path.abspath(str(content.root)))
    if root.parent == Path(os.path.abspath(str(games_dir()))):
        return "" if root.name == DEFAULT_GAME else f" --game {root.name}"
    import shlex
    return f" --content {shlex.quote(display_path(root))}"


# English words quoted as words (a mention, not an instruction): «help», "help", 'help'
_QUOTED = re.compile(r"«[^»]*»|“[^”]*”|\"[^\"]*\"|'[^']*'")


def check_command_words(content: Content, lang: str) -> List[Diagnostic]:
    """A translation that tells the player to type a reference-language command word ("type log")
    where the language shows its own word ("registro").

    The words come from the catalogs' ``cli.command.*`` lists (the first word of each is the one
    shown); a word the language itself shows is never flagged, and a quoted word is a mention."""
    reference = content.catalogs[REFERENCE_LANG]
    catalog = content.catalogs[lang]
    prefix = "cli.command."
    shown_words = {(catalog.raw(key) or "").split()[0].lower()
                   for key in reference.messages if key.startswith(prefix) and (catalog.raw(key) or "").split()}
    foreign: Dict[str, str] = {}  # word -> the command it names
    for key, words in reference.messages.items():
        if key.startswith(prefix):
            for word in words.split():
                # one- and two-letter shortcuts are also words of many languages ("u", "a")
                if len(word) >= 3 and word.isalpha() and word.lower() not in shown_words:
                    foreign.setdefault(word.lower(), key[len(prefix):])
    if not foreign:
        return []
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(foreign))) + r")(?![\w-])", re.IGNORECASE)
    problems: List[Diagnostic] = []
    for key, text in catalog.messages.items():
        if _own_grammar(key) or key.startswith((prefix, "cli.argparse.")):
            continue
        bare = _QUOTED.sub(" ", _PLACEHOLDER_NAME.sub("{", text))
        found = list(dict.fromkeys(match.group(1) for match in pattern.finditer(bare)))
        if not found:
            continue
        commands = list(dict.fromkeys(foreign[word.lower()] for word in found))
        own = ", ".join(f"'{(catalog.raw(prefix + command) or command).split()[0]}'" for command in commands)
        problems.append(_at(catalog, key, f"'{key}' tells the player to type "
                                          + ", ".join(f"'{word}'" for word in found)
                                          + f", the {REFERENCE_LANG} {'word' if len(found) == 1 else 'words'} "
                                            f"for {', '.join(commands)}",
                            hint=f"the '{lang}' screens show {own} (the first word of each {prefix}*); "
                                 f"quote a word that is only mentioned", severity="warning"))
    return problems


def card_sections(content) -> Tuple[str, ...]:
    """The catalog sections of the kinds of cards: the last word the schema gives each ("cards",
    "objectives"), under which a card's title and text are."""
    definition = getattr(content, "definition", None)
    if definition is None:
        return ("cards",)
    return tuple(kind.words[-1] if kind.words else "cards" for kind in definition.schema.card_kinds)


def _optional(content, key: str) -> bool:
    """Keys a catalog may add on its own: hand-written card texts."""
    return key.endswith(".text") and key.startswith(tuple(f"{section}." for section in card_sections(content)))


def _names(names) -> str:
    return "{" + ", ".join(sorted(names)) + "}" if names else "none"


def _overridden_in_reference_only(reference: Catalog, catalog: Catalog, key: str) -> bool:
    """The reference's text of ``key`` is the game's own, the language's is still the tool's."""
    shared = _shared_folder()
    return (key in reference.positions and key in catalog.positions
            and not reference.positions[key][0].startswith(shared) and catalog.positions[key][0].startswith(shared))


def _shared_folder() -> str:
    """The tool's own catalogs' folder, as catalog positions name their files (relative to the
    working folder, where it is below it)."""
    return _shared_folder_from(os.getcwd())


@functools.lru_cache(maxsize=4)
def _shared_folder_from(working_folder: str) -> str:
    return display_path(interface_dir())


def _prefix_files(catalog: Catalog) -> Dict[str, str]:
    """Each dotted prefix of the catalog's keys ("cli.", "cli.rules.") -> the first file holding one."""
    return _prefixes(catalog.positions.items())


def _prefixes(positions) -> Dict[str, str]:
    """``_prefix_files`` of (key, (path, line, column)) pairs."""
    files: Dict[str, str] = {}
    for key, (path, _, _) in positions:
        parts = key.split(".")
        for length in range(1, len(parts)):
            files.setdefault(".".join(parts[:length]) + ".", path)
    return files


def _neighbour_files(prefixes: Dict[str, str], key: str):
    """The files holding keys that share a dotted prefix with ``key``, the longest prefix first."""
    parts = key.split(".")
    for length in range(len(parts) - 1, 0, -1):
        path = prefixes.get(".".join(parts[:length]) + ".")
        if path is not None:
            yield path


def _own_file_for(content: Content, reference: Catalog, key: str) -> str:
    """Where a template a rule needs belongs: its key is made of the game's own words ('that_area'),
    so in the game's own reference catalog (the file holding its nearest keys there, else
    locale/en/render.yaml), never in the tool's shared one, which the designer does not edit."""
    own = os.path.join(os.path.abspath(str(content.root)), "locale", REFERENCE_LANG) + os.sep
    # the neighbours among the game's own keys only: the tool's file holds a key of most sections
    # ('render.spaces.') first, which would hide the game's file holding the others
    mine = [(other, where) for other, where in reference.positions.items()
            if os.path.abspath(where[0]).startswith(own)]
    found = next(_neighbour_files(_prefixes(mine), key), None)
    if found is not None:
        return found
    files = {os.path.basename(where[0]): where[0] for _, where in mine}
    if key.startswith("render."):
        # no template in the game's catalog yet: its render.yaml, as docs/new-game.md says (a
        # file to make, where it has none), not whichever file comes first
        return files.get("render.yaml") or display_path(Path(own) / "render.yaml")
    # no key of its section there yet: the file such keys usually live in (names in board.yaml),
    # else a file the game's catalog has (one game keeps all its texts in one)
    usual = ("board.yaml", "texts.yaml", "messages.yaml")
    found = next((files[name] for name in usual if name in files), None) or \
        next((files[name] for name in sorted(files)), None)
    return found if found is not None else display_path(Path(own) / "render.yaml")


def _file_for(catalog: Catalog, key: str, reference: Optional[Catalog] = None,
              prefixes: Optional[Dict[str, str]] = None) -> Optional[str]:
    """The catalog file a missing key belongs in: the one holding its closest neighbours (the
    longest shared prefix of dotted parts), else the file of the same name as the reference's."""
    prefixes = _prefix_files(catalog) if prefixes is None else prefixes
    # a key the game's own reference catalog holds belongs in the game's catalog of the language,
    # not in the tool's shared one (content/interface/), even where the two share a prefix
    marker = os.sep + REFERENCE_LANG + os.sep
    english = reference.positions[key][0] if reference is not None and key in reference.positions else None
    own = english is not None and marker in english and not english.startswith(_shared_folder())
    home = english.rsplit(marker, 1)[0] + os.sep + catalog.lang + os.sep if own else None
    # a key of the tool's belongs in the tool's catalog of the language, or in a file of the game's
    # that a translator already gives the tool's keys in (a language kept with one game), never in
    # a game's file only because a game's own key shares its prefix ('cli.')
    tool_homes = None if own or english is None else _tool_key_files(catalog, reference)
    for path in _neighbour_files(prefixes, key):
        if (path.startswith(home) if home is not None else tool_homes is None or path in tool_homes):
            return path
    if english is not None:
        if home is not None:
            return home + os.path.basename(english)
        if english.startswith(_shared_folder()) and (interface_dir() / catalog.lang).is_dir():
            return os.path.join(_shared_folder(), catalog.lang, os.path.basename(english))
        # a language the tool does not speak is given the tool's keys in the game's own folder
        # (docs/localization.md), where the catalog's files are: the package has no folder for it
        folder = next((os.path.dirname(path) for path, _, _ in catalog.positions.values()
                       if not path.startswith(_shared_folder())), None)
        if folder is None:
            folder = os.path.join(os.path.dirname(os.path.dirname(english)), catalog.lang)
        return os.path.join(folder, os.path.basename(english))
    return next((path for path, _, _ in catalog.positions.values()), None)


def _tool_key_files(catalog: Catalog, reference: Catalog) -> set:
    """The files of ``catalog`` holding a key whose reference text is the tool's."""
    shared = _shared_folder()
    return {path for key, (path, _, _) in catalog.positions.items()
            if key in reference.positions and reference.positions[key][0].startswith(shared)}


def check_glossary(content: Content, lang: str) -> List[Diagnostic]:
    terms, problems = load_glossary(content.root)
    reference = content.catalogs[REFERENCE_LANG]
    catalog = content.catalogs[lang]
    lacking = [term for term in terms if not term.forms.get(lang)]
    if lang != REFERENCE_LANG and lacking:
        # without its column, nothing of the language is checked against the glossary: say so
        from pathlib import Path
        path = display_path(Path(content.root) / "locale" / GLOSSARY)
        names = ", ".join(term.forms.get(REFERENCE_LANG, ("?",))[0] for term in lacking[:FEW_MISSING])
        if len(lacking) > FEW_MISSING:
            names += f" and {len(lacking) - FEW_MISSING} more"
        message = (f"the glossary has no '{lang}' column: no term is checked in the '{lang}' catalog"
                   if len(lacking) == len(terms) else
                   f"{len(lacking)} of the glossary's {len(terms)} terms have no '{lang}' form, so they are "
                   f"not checked in the '{lang}' catalog")
        problems.append(Diagnostic(message=message, path=path, line=lacking[0].line, severity="warning",
                                   hint=f"add '{lang}: [...]' to each term ({names}): the words every "
                                        f"'{lang}' text must use for it"))
    for term in terms:
        reference_forms = term.forms.get(REFERENCE_LANG, ())
        wanted = term.forms.get(lang, ())
        for key, text in catalog.messages.items():
            if key.startswith(("forms.", "grammar.", "glosses.")):
                continue
            for form in term.avoid.get(lang, ()):
                if _contains(text, form):
                    problems.append(_at(catalog, key, f"'{key}' says '{form}', which the glossary avoids",
                                        hint=f"write '{wanted[0]}'" if wanted else None))
            if lang == REFERENCE_LANG or not wanted:
                continue
            original = reference.messages.get(key)
            if original is None or not any(_contains(original, f) for f in reference_forms):
                continue
            if not any(_contains(text, f) for f in wanted):
                problems.append(_at(catalog, key, f"'{key}' translates '{reference_forms[0]}' without the "
                                                  f"glossary term '{wanted[0]}'",
                                    expected=" or ".join(f"'{w}'" for w in wanted)))
    return problems


# ------------------------------------------------------- hand-written card texts


def rule_facts(rule) -> Tuple[set, set, set]:
    """Numbers, places and groups of places a rule (the general front end's) mentions."""
    from crisis.ruleset.walk import meanings
    numbers, places, groups = set(), set(), set()
    for node in meanings(rule):
        if isinstance(node, M.Amount) and node.kind != "all" and node.number is None:
            numbers.add(node.n)
        elif isinstance(node, M.Transfer) and node.limit is not None:
            numbers.add(node.limit)
        elif isinstance(node, M.Literal):
            numbers.add(node.value)
        elif isinstance(node, M.Comparison) and node.n:
            numbers.add(node.n)
        elif isinstance(node, M.Fixed) and node.kind == "named":
            places.update(node.places)
        elif (isinstance(node, M.Fixed) and node.kind == "group") or (isinstance(node, M.GroupRef)
                                                                      and node.kind == "named"):
            groups.add(node.index)
    return numbers, places, groups


def text_facts(text: str, catalog: Catalog, schema) -> Tuple[set, set, set, set]:
    """Digits, numbers written as words, places and groups a text mentions (by their names in
    the catalog's language).

    Number words only ever vouch for a number the rule has: many double as
    articles ("una casilla"), so they are never counted as extra numbers.
    """
    digits = {int(n) for n in re.findall(r"\d+", text)}
    worded = set()
    words = catalog.raw("numbers.words")
    if words:
        for index, alternatives in enumerate(words.split(",")):
            if any(w.strip() and _contains(text, w.strip()) for w in alternatives.split("/")):
                worded.add(index)
    places_kind, groups_kind = schema.map.place_words[-1], schema.map.group_words[-1]
    places = {i for i, place in enumerate(schema.map.places) if _contains(text, catalog.name(places_kind, place))}
    groups = {i for i, group in enumerate(schema.map.groups) if _contains(text, catalog.name(groups_kind, group.name))}
    return digits, worded, places, groups


def _written_texts(content, catalog: Catalog) -> Dict[str, str]:
    """Card id -> the key of its hand-written text in the catalog (``<kind>.<id>.text``)."""
    return {key.split(".")[1]: key for key in catalog.messages if key.count(".") == 2 and _optional(content, key)}


def check_card_texts(content: Content, lang: str) -> List[Diagnostic]:
    """A designer's hand-written text must mention what the rule mentions, and nothing else:
    the numbers, places and groups of the card's rule (as the general front end reads it), and
    the card's own place (an objective's space)."""
    from .phrases import card_rule
    definition = getattr(content, "definition", None)
    if definition is None:
        return []
    catalog = content.catalogs[lang]
    schema = definition.schema
    problems: List[Diagnostic] = []
    written = _written_texts(content, catalog)
    for card_id, key in written.items():
        rule = card_rule(definition, card_id)
        if rule is None:
            continue
        text = catalog.messages[key]
        rule_numbers, rule_places, rule_groups = rule_facts(rule)
        rule_places |= _card_places(definition, card_id)
        digits, worded, places, groups = text_facts(text, catalog, schema)
        places_kind, groups_kind = schema.map.place_words[-1], schema.map.group_words[-1]
        missing_all, extra_all = [], []
        for what, want, have, show in (
                ("numbers", rule_numbers, digits | worded, str),
                ("places", rule_places, places, lambda i: catalog.name(places_kind, schema.map.places[i])),
                ("groups", rule_groups, groups, lambda i: catalog.name(groups_kind, schema.map.groups[i].name))):
            missing, extra = want - have, have - want
            if what == "numbers":
                extra = digits - want
            missing_all += sorted(map(show, missing))
            extra_all += sorted(map(show, extra))
        if missing_all or extra_all:
            parts = []
            if missing_all:
                parts.append("does not mention " + ", ".join(missing_all))
            if extra_all:
                parts.append("mentions " + ", ".join(extra_all) + " which the rule does not")
            problems.append(_at(catalog, key, f"the hand-written text of {card_id} disagrees with its rule: "
                                              + "; ".join(parts),
                                hint="fix the text, or remove it to use the text rendered from the rule"))
    return problems


def _card_places(definition, card_id: str) -> set:
    """The places a card's own fields name (an objective card's space)."""
    found = set()
    for kind in definition.schema.card_kinds:
        cards = definition.cards.get(kind.name)
        if cards is None or card_id not in cards.ids:
            continue
        index = cards.ids.index(card_id)
        for field, (_, type_name) in enumerate(kind.fields):
            value = cards.fields[field][index]
            if type_name == "place" and isinstance(value, int) and value >= 0:
                found.add(value)
    return found


def check_all(content: Content, langs: Optional[Sequence[str]] = None,
              every_missing: bool = False) -> List[Diagnostic]:
    langs = list(langs) if langs else sorted(content.catalogs)
    problems: List[Diagnostic] = []
    for lang in langs:
        # a file every language reads (the glossary) is told of once, not once per language
        problems.extend(p for p in check_catalog(content, lang, every_missing) if p not in problems)
    return problems
