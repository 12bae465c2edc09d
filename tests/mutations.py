"""Random damage to a content folder and to a saved game, for fuzzing.

Shared by the hypothesis tests (tests/test_fuzz.py, a few dozen cases per
run) and the long fuzz run (tools/fuzz_inputs.py, tens of thousands).  Each
mutation takes a ``random.Random`` and returns a short description, so that
a failing case can be told and replayed from its seed.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path
from typing import Callable, List

from crisis.content.yamlfile import read_regular

# ------------------------------------------------------------------ values

HOSTILE_SCALARS = [
    "9" * 5000, "1000000000", "999999999", "-1", "0", "1e400", "0x7fffffff", "0b" + "1" * 200, "1:2:3:4:5:6",
    '""', "~", "null", "yes", "no", "2001-12-14", "!!int abc", "!!bool maybe", "!!timestamp x", "!!binary x@",
    "!!python/object/apply:os.system ['true']", "!!set {a}", "*nothing", "&a [*a]", "[" * 300, "{" * 300,
    "[" * 50 + "]" * 50, '"\\e]0;pwned\\a"', '"\\x9b2J"', '"\\u202e"', '"\\N\\L\\P"', "'it''s'", "x" * 100_000,
    "U" + "x" * 2_000, "|\n  place 1 in Texas", ">\n  place 1\n\n  in Texas", "|2\n    gain 1 VP",
    "[Unionist, Unionist]", "{top: 15}", '"' + "{n|" * 300 + "x" + "|y}" * 300 + '"', '"{n|a|{n|b|c}}"', "[]", "{}", "Texas", "unionist", "Fort Sumpter",
]

RULE_PIECES = [
    "for each player:", "if you control Texas:", "either:", "or:", "otherwise:", "not ", "(", ")", " and ",
    " or ", "9" * 40, "9" * 5000, "place 25 in each space", "move 25 tokens of either side from any space to any space",
    "remove all tokens of either side from any space", "gain 1000000 VP", "\t", "  ", "\n", "#", "each player ",
    "the opponent ", "place the Peace Commissioner in any space", "Fort Sumpter", "tokens", "VP", "$", "\x07",
]

INSERTS = ["\x00", "\x07", "\x1b[2J", "\x85", "\u2028", "\u2029", "\ufeff", "\ufffe", "\t", "\r", "\r\n", ": ",
           "- ", "&a ", "*a", "!!", "'", '"', "\\", "#", "{", "}", "[", "]", "|", ">", "%YAML 1.1\n", "---\n",
           "...\n", "? ", "\n  ", "\n\n"]


def copy_content(source: Path, target: Path) -> Path:
    """A copy of the content folder ``source`` at ``target``: the files a game is read from."""
    import shutil
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("scenarios"))
    return target


# The harness reads what it damages through the loader's own reader: an earlier mutation of the
# same case may have left a FIFO there (whose opening would block the harness itself, before
# crisis ever runs) or a link to /dev/zero; a file it grew may be large, hence the high limit.
_READ_LIMIT = 1 << 30


def _files(root: Path) -> List[Path]:
    """The files load_content reads (docs/state.md, docs/sequence.md, docs/solo.md)."""
    files = [root / "state.yaml", root / "sequence.yaml", root / "layout.yaml"]
    files += sorted((root / "cards").glob("*.yaml"))
    files += sorted((root / "locale").glob("*/*.yaml")) + [root / "locale" / "glossary.yaml"]
    files += [root / "solo" / "overlay.yaml"] + sorted((root / "solo").glob("aid-*.yaml"))
    files += sorted((root / "bots").glob("*.yaml"))
    return [f for f in files if f.is_file() and not f.is_symlink()]


def _text(path: Path) -> str:
    return read_regular(path, _READ_LIMIT).decode("utf-8", "replace")


def _read(path: Path) -> str:
    return read_regular(path, _READ_LIMIT).decode("utf-8")


# ------------------------------------------------------------------ content


def byte_damage(rng: random.Random, path: Path) -> str:
    data = bytearray(path.read_bytes())
    if not data:
        data = bytearray(b"x")
    at = rng.randrange(len(data))
    how = rng.choice(["flip", "insert", "delete", "repeat", "truncate", "bad-utf8"])
    if how == "flip":
        data[at] = rng.randrange(256)
    elif how == "insert":
        data[at:at] = rng.choice(INSERTS).encode("utf-8")
    elif how == "delete":
        del data[at:at + rng.randint(1, 200)]
    elif how == "repeat":
        span = data[at:at + rng.randint(1, 400)]
        data[at:at] = span * rng.randint(1, 50)
    elif how == "truncate":
        del data[at:]
    else:
        data[at:at] = bytes([rng.choice([0x80, 0xc0, 0xff, 0xed])])
    path.write_bytes(bytes(data))
    return f"{how} at byte {at}"


def scalar_swap(rng: random.Random, path: Path) -> str:
    lines = _text(path).split("\n")
    candidates = [i for i, line in enumerate(lines) if re.match(r"^\s*(- )?[\w-]+: ", line)]
    if not candidates:
        return byte_damage(rng, path)
    i = rng.choice(candidates)
    key, _, _ = lines[i].partition(": ")
    value = rng.choice(HOSTILE_SCALARS)
    indent = " " * (len(key) - len(key.lstrip()) + 2)
    lines[i] = key + ": " + value.replace("\n", "\n" + indent)
    path.write_text("\n".join(lines), encoding="utf-8")
    return f"line {i + 1} value -> {value[:30]!r}"


def rule_damage(rng: random.Random, path: Path) -> str:
    text = _text(path)
    # where a rule's text starts: after a card's event or a zone's effects, or a block of text (the
    # sequence of play, procedures, the overlay's steps)
    spots = [m.end() for m in re.finditer(r"\b(event|first|second|then): ?|: [|>]-?\n", text)]
    if not spots:
        return byte_damage(rng, path)
    at = rng.choice(spots) + rng.randint(0, 40)
    pieces = "".join(rng.choice(RULE_PIECES) for _ in range(rng.randint(1, 6)))
    if rng.random() < 0.2:
        pieces = pieces * rng.randint(2, 600)
    path.write_text(text[:at] + pieces + text[at:], encoding="utf-8")
    return f"rule text at {at} + {pieces[:40]!r}"


def line_damage(rng: random.Random, path: Path) -> str:
    lines = _text(path).split("\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    how = rng.choice(["swap", "indent", "dedent", "duplicate", "drop"])
    if how == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    elif how == "indent":
        lines[i] = " " * rng.randint(1, 9) + lines[i]
    elif how == "dedent":
        lines[i] = lines[i].lstrip()
    elif how == "duplicate":
        lines.insert(i, lines[j])
    else:
        del lines[i]
    path.write_text("\n".join(lines), encoding="utf-8")
    return f"{how} line {i + 1}"


def nesting(rng: random.Random, path: Path) -> str:
    depth = rng.choice([10, 39, 41, 100, 1000, 5000])
    how = rng.choice(["flow", "block", "aliases"])
    if how == "flow":
        extra = "zz: " + "[" * depth + "]" * depth + "\n"
    elif how == "block":
        extra = "".join("  " * i + f"k{i}:\n" for i in range(min(depth, 400))) + "  " * min(depth, 400) + "v\n"
    else:
        extra = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n" + "".join(
            f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]\n" for i in range(1, rng.randint(2, 12)))
    with open(path, "a", encoding="utf-8") as handle:
        handle.write("\n" + extra)
    return f"{how} nesting {depth}"


def game_numbers(rng: random.Random, root: Path) -> str:
    """A number of the game changed: one of state.yaml's (counters' ranges, tokens, track and
    zones, piles' sizes) or one written in sequence.yaml's rules (cards dealt, rounds)."""
    name = rng.choice(["state.yaml", "state.yaml", "sequence.yaml"])
    path = root / name
    if not path.is_file() or path.is_symlink():
        return f"{name} is not there to change"
    text = _text(path)
    # a number after a key (state.yaml: "to: 99", "each side: 25", "{from: 15, to: 11}"), or in a rule's words
    pattern = r"(?<=[\w ]: )\d+" if name == "state.yaml" else r"(?<=[a-z] )\d+(?= [a-z])"
    spots = [m for m in re.finditer(pattern, text) if "#" not in text[text.rfind("\n", 0, m.start()) + 1:m.start()]]
    if not spots:
        return f"{name} has no numbers left to change"
    spot = rng.choice(spots)
    value = rng.choice([0, 1, 2, 9, 12, 30, 31, 99, 100, 999, 1000, 10**6, 10**9 - 1, 10**9, 10**12, -5])
    path.write_text(text[:spot.start()] + str(value) + text[spot.end():], encoding="utf-8")
    line = text.count("\n", 0, spot.start()) + 1
    return f"{name}:{line} {spot.group()} -> {value}"


def filesystem(rng: random.Random, root: Path) -> str:
    target = rng.choice(_files(root) + [root / "cards", root / "locale" / "es", root / "solo", root / "bots"])
    how = rng.choice(["link-outside", "link-loop", "link-zero", "fifo", "folder", "remove", "empty", "link-inside"])
    if target.is_dir() and not target.is_symlink():
        os.rename(target, target.with_name(target.name + ".moved"))
    elif target.exists() or target.is_symlink():
        target.unlink()
    if how == "link-outside":
        target.symlink_to("/etc/passwd")
    elif how == "link-loop":
        target.symlink_to(target)
    elif how == "link-zero":
        target.symlink_to("/dev/zero")
    elif how == "fifo":
        os.mkfifo(target)
    elif how == "folder":
        target.mkdir()
    elif how == "empty":
        target.write_bytes(b"")
    elif how == "link-inside":
        target.symlink_to(root / "state.yaml")
    return f"{how}: {target.relative_to(root)}"


def new_file(rng: random.Random, root: Path) -> str:
    if not (root / "cards").is_dir() or (root / "cards").is_symlink():
        return "no cards folder to add a file to"
    path = root / "cards" / f"zz-{rng.randrange(1000)}.yaml"
    if path.exists() or path.is_symlink():
        return "that file is there already"
    body = rng.choice([
        "strategy_cards:\n  - id: zz\n    value: {v}\n    event_for: both\n    final_crisis: Armaments\n"
        "    provenance: authored\n    event: {r}\n",
        "objective_cards: {v}\n", "{r}\n", "- {v}\n- {r}\n",
    ]).format(v=rng.choice(HOSTILE_SCALARS).replace("\n", " "), r=json.dumps("".join(
        rng.choice(RULE_PIECES) for _ in range(rng.randint(1, 12)))))
    path.write_text(body, encoding="utf-8")
    return f"new file {path.name}"


# ------------------------------------------------------------ well-formed rules
# Damage mostly makes rules that do not parse; these make rules that do, built from the
# language's constructs nested at random (now and then very deep), so that what `crisis check`
# accepts is played: the look-ahead, the bots and the Solo Opponent meet every shape of rule.


def _names(root: Path) -> dict:
    """The board's names, read from the copy's state.yaml: the map's groups of places (dimensions)
    and its markers (a damaged file: none)."""
    import yaml
    state = None
    try:
        state = yaml.safe_load(_read(root / "state.yaml"))
        groups = state["map"]["groups"]
        dimensions = {name: list(places) for name, places in groups.items() if name != "words"}
        if not dimensions or not all(dimensions.values()):
            raise ValueError("no groups")
        markers = list(state.get("markers") or {})
    except Exception:  # a damaged file: the rules will simply not check
        dimensions, markers = {"Nowhere": ["Nowhere"]}, []
    return {"dimensions": dimensions, "spaces": [s for spaces in dimensions.values() for s in spaces],
            "markers": markers, "lines": _own_lines(root, state)}


def _own_lines(root: Path, state) -> List[str]:
    """For a game without tokens (whose rules the token steps below cannot be): the one-line
    statements of its own rules (procedures of sequence.yaml, rules of its cards), to be nested
    anew; none for a game with tokens, whose cases stay as they were."""
    import yaml
    if not isinstance(state, dict) or state.get("tokens"):
        return []
    texts = []
    try:
        sequence = yaml.safe_load(_read(root / "sequence.yaml"))
        texts += [v for v in (sequence.get("procedures") or {}).values() if isinstance(v, str)]
    except Exception:
        pass
    for path in sorted((root / "cards").glob("*.yaml")) if (root / "cards").is_dir() else ():
        try:
            data = yaml.safe_load(_read(path))
        except Exception:
            continue
        if not isinstance(data, dict):  # a file damaged by an earlier mutation
            continue
        texts += [card[field] for cards in data.values() if isinstance(cards, list) for card in cards
                  if isinstance(card, dict) for field in _RULE_FIELDS if isinstance(card.get(field), str)]
    lines = {line.strip() for text in texts for line in text.splitlines()
             if line.strip() and not line.startswith(" ") and not line.rstrip().endswith(":")
             and not line.startswith(("or", "otherwise"))}
    return sorted(lines)


_RULE_FIELDS = ("event", "effect")


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())


def _place(rng: random.Random, names: dict) -> str:
    dimension = rng.choice(list(names["dimensions"]))
    return rng.choice([rng.choice(names["spaces"]), f"{dimension} spaces", "any space", "pivotal spaces",
                       "spaces you control", "spaces the opponent controls", "a space nobody controls"])


def _token_step(rng: random.Random, names: dict, plain: bool = False) -> str:
    n = rng.choice([1, 1, 2, 3, 4, 8, 25])
    upto = "" if plain or rng.random() < 0.6 else "up to "
    place = _place(rng, names)
    return rng.choice([
        f"place {upto}{n} in {place}",
        f"remove {upto}{n} opponent tokens from {place}",
        f"move {upto}{n} tokens of either side within {place}",
        f"move {upto}{n} of your tokens from your pool to {place}",
        f"remove {upto}{n} of your tokens from {place}",
    ])


def _statement(rng: random.Random, names: dict, depth: int) -> str:
    leaf = rng.random() < 0.45 or depth <= 0
    if leaf and names["lines"] and rng.random() < 0.7:
        return rng.choice(names["lines"])
    if leaf:
        marker = names["markers"][0] if names["markers"] else None
        return rng.choice([
            "gain 1 VP", "lose 1 VP", "gain 2 VP", "gain 1 VP for each dimension you control",
            _token_step(rng, names), _token_step(rng, names),
            f"place the {marker} in any space" if marker else "gain 1 VP",
            f"remove the {marker}" if marker else "lose 1 VP"])
    kind = rng.choice(["for each", "either", "first of", "if", "goal", "opponent"])
    inner = lambda: _rule(rng, names, depth - 1)  # noqa: E731 - a nested block
    if kind == "for each":
        return "for each player:\n" + _indent(inner())
    if kind in ("either", "first of"):
        options = [inner() for _ in range(rng.randint(2, 3))]
        return (kind + ":\n" + _indent(options[0]) + "".join("\nor:\n" + _indent(o) for o in options[1:]))
    if kind == "if":
        text = f"if you control {rng.choice(names['spaces'])}:\n" + _indent(inner())
        return text + ("\notherwise:\n" + _indent(inner()) if rng.random() < 0.5 else "")
    if kind == "goal":
        dimension = rng.choice(list(names["dimensions"]))
        steps = "\n".join(_token_step(rng, names, plain=True) for _ in range(rng.randint(1, 2)))
        return f"so that you gain control of {dimension}:\n" + _indent(steps)
    return "the opponent " + _token_step(rng, names)


def _rule(rng: random.Random, names: dict, depth: int) -> str:
    return "\n".join(_statement(rng, names, depth) for _ in range(rng.choice([1, 1, 1, 2, 3])))


def random_rule(rng: random.Random, names: dict) -> str:
    """A well-formed rule: usually a few levels deep, now and then a chain of one construct."""
    if rng.random() < 0.15:  # one construct inside itself, as deep as rules that once hung a game
        levels = rng.choice([4, 8, 12, 16, 24, 30])
        opener = rng.choice(["for each player", "either", "first of"])
        text = "gain 1 VP"
        for _ in range(levels):
            text = (opener + ":\n" + _indent(text) + ("" if opener == "for each player" else "\nor:\n  gain 1 VP"))
        return text
    return _rule(rng, names, rng.choice([1, 2, 3, 4, 6]))


def _rewrite_yaml(path: Path, change) -> None:
    import yaml
    data = yaml.safe_load(_read(path))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def rule_structure(rng: random.Random, root: Path) -> str:
    """Replace a card event, a procedure of sequence.yaml or a step or procedure of the game's side
    in solo/overlay.yaml by a random well-formed rule."""
    names = _names(root)
    rule = random_rule(rng, names)
    where = rng.choice(["card", "card", "card", "rules", "solo"])
    found = sorted((root / "cards").glob("*.yaml")) if (root / "cards").is_dir() else []
    found = [path for path in found if path.is_file()]  # not a FIFO an earlier mutation left
    cards = [path for path in found if path.name.startswith("strategy-")] or found
    try:
        if where == "card" and cards:
            path = rng.choice(cards)
            picked = []

            def change(data):
                with_events = [(card, field) for cards in data.values() if isinstance(cards, list)
                               for card in cards if isinstance(card, dict)
                               for field in _RULE_FIELDS if card.get(field)]
                card, field = rng.choice(with_events)
                card[field] = rule
                picked.append(card["id"])
            _rewrite_yaml(path, change)
            return f"event of {picked[0]} -> {rule[:60]!r}"
        overlay = root / "solo" / "overlay.yaml"
        if where == "solo" and overlay.is_file():
            # the role the game plays: the first of the overlay's roles
            key = rng.choice(["turn", "pivotal bonus"])

            def change(data):
                role = next(iter(data["roles"]))
                data["steps" if key == "turn" else "procedures"][key] = {role: rule}
            _rewrite_yaml(overlay, change)
            return f"solo {key} -> {rule[:60]!r}"
        every, texts = _procedures(root)
        key = rng.choice([k for k in ("pivotal bonus", "dimension scoring", "objective scoring") if k in every]
                         or texts)
        _rewrite_yaml(root / "sequence.yaml", lambda data: data["procedures"].__setitem__(key, rule))
        return f"{key} -> {rule[:60]!r}"
    except Exception:  # a file already damaged by another mutation: left as it is
        return "no rule to replace"


def _procedures(root: Path):
    """The names of sequence.yaml's procedures, and of those whose rule is one text (none of a
    damaged file)."""
    import yaml
    try:
        procedures = yaml.safe_load(_read(root / "sequence.yaml"))["procedures"]
        return list(procedures), [k for k, v in procedures.items() if isinstance(v, str)]
    except Exception:
        return [], []


def definitions(rng: random.Random, root: Path) -> str:
    """A definition of the solo game (solo/overlay.yaml) that uses itself, another, or goes round a circle."""
    path = root / "solo" / "overlay.yaml"
    if not path.is_file():
        return "no overlay.yaml"
    text = rng.choice(["the card is Friendly", "the card is Loyal", "the card is for you only and the card is Loyal",
                       "the card would place or remove pieces", "the card is for you or the card is Friendly"])
    loyal = rng.choice(["the card is Friendly", "the card is for you only", "the value of the card is at least 2"])
    try:
        def change(data):
            data["definitions"]["Friendly"] = {"card": text}
            data["definitions"]["Loyal"] = {"card": loyal}
        _rewrite_yaml(path, change)
    except Exception:
        return "no definitions to change"
    return f"Friendly: {text}; Loyal: {loyal}"


def contractions(rng: random.Random, root: Path) -> str:
    """Contractions added to a language: some shorten, some lengthen, some feed each other."""
    langs = sorted(p for p in (root / "locale").glob("*") if (p / "board.yaml").is_file())
    if not langs:
        return "no locale to change"
    path = rng.choice(langs) / "board.yaml"
    pairs = {}
    for _ in range(rng.randint(1, 4)):
        old = rng.choice(["e", "ee", " de ", "a", " the ", "s", "", "É"])
        pairs[old] = rng.choice([old * rng.choice([1, 2, 3, 10, 1000]), old[:1], "x", ""])
    try:
        _rewrite_yaml(path, lambda data: data.setdefault("grammar", {}).setdefault("contractions", {}).update(pairs))
    except Exception:
        return "no catalog to change"
    return f"{path.parent.name} contractions {list(pairs.items())[:3]!r}"[:120]


CONTENT_MUTATIONS: List[Callable] = [byte_damage, scalar_swap, rule_damage, line_damage, nesting]
ROOT_MUTATIONS: List[Callable] = [game_numbers, filesystem, new_file, rule_structure, rule_structure,
                                  rule_structure, definitions, contractions]


def mutate_content(rng: random.Random, root: Path) -> str:
    """One to three random mutations of the content folder at ``root``."""
    done = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        if rng.random() < 0.25:
            if not (root / "state.yaml").is_file():
                break
            done.append(rng.choice(ROOT_MUTATIONS)(rng, root))
        else:
            files = _files(root)
            if not files:
                break
            path = rng.choice(files)
            done.append(f"{path.relative_to(root)}: " + rng.choice(CONTENT_MUTATIONS)(rng, path))
    return "; ".join(done)


# ------------------------------------------------------------------ saves

ODD_VALUES = [0, -1, 1, 2, 10**30, True, False, None, "", "1", "yes", [], {}, [1], {"a": 1}, 1.5,
              "\x1b]0;pwned\x07", "x" * 10_000, "../../etc/passwd"]


def mutate_save(rng: random.Random, data: dict, path: Path) -> str:
    """Write a damaged copy of the saved game ``data`` to ``path``."""
    data = json.loads(json.dumps(data))
    how = rng.choice(["type", "drop", "add", "option", "action", "actions", "deep", "number", "text", "bytes",
                      "truncate", "file", "version", "controllers", "twice", "solo", "seed", "long"])
    if how == "type":
        key = rng.choice(list(data))
        data[key] = rng.choice(ODD_VALUES)
    elif how == "drop":
        data.pop(rng.choice(list(data)))
    elif how == "add":
        data[rng.choice(["extra", "Version", "options2", "\x1b"])] = rng.choice(ODD_VALUES)
    elif how == "option":
        options = data.setdefault("options", {})
        options[rng.choice(["event_discard", "house_rule", ""])] = rng.choice(ODD_VALUES)
    elif how == "action" and data.get("actions"):
        actions = data["actions"]
        i = rng.randrange(len(actions))
        actions[i] = rng.choice([actions[rng.randrange(len(actions))], "\x1b[2J", "place Nowhere", "", "x" * 10_000,
                                 actions[i].upper(), actions[i] + " extra", "order " + actions[i]])
    elif how == "actions":
        actions = data.get("actions") or []
        cut = rng.randrange(len(actions) + 1)
        data["actions"] = actions[:cut] + rng.choice([[], actions[cut:][::-1], ["done"] * 5, actions])
    elif how == "version":
        data["version"] = rng.choice([0, -1, 1, 2, 99, "1", 1.0, True, 10**40])
    elif how == "controllers":
        data["controllers"] = rng.choice([{}, {"Unionist": "human"}, {"Unionist": "bot", "Secessionist": 1},
                                          {"Unionist": "random", "Secessionist": "human", "Other": "human"}])
    elif how == "solo":  # the Solo Opponent's controller and the options, agreeing or not (issue 18)
        sides = list(data.get("controllers") or {"Unionist": "human", "Secessionist": "human"})
        side = rng.choice(sides + ["Nobody"])
        data["controllers"] = {s: rng.choice(["solo", "human", "random"]) if s == side else rng.choice(["human", "solo"])
                               for s in sides}
        options = data.setdefault("options", {})
        if rng.random() < 0.7:
            options["solo"] = rng.choice([side, sides[0], "Nobody", None, 1])
        if rng.random() < 0.5:
            options["difficulty"] = rng.choice(["easy", "normal", "hard", "impossible", "", None, 3])
    elif how == "seed":
        data["seed"] = rng.choice([-42, -1, 0, 999_999_999, 1_000_000_000, 10_000_000_000, 2 ** 63, True, 4.5, "42"])
    elif how == "long":  # a long text: reading it must cost a few times its size, not a hundred
        size = rng.choice([100_000, 1_000_000, 8_000_000])
        data[rng.choice(["created", "game", "content_digest"])] = rng.choice(["x", "é", "\U0001f600", "\\", '"']) * size
    text = json.dumps(data)
    if how == "twice":  # a key given twice: Python's decoder would keep the last one
        key = rng.choice(list(data) or ["actions"])
        again = rng.choice([json.dumps(data.get(key)), "[]", '["done"]', "0", '"x"'])
        at = rng.choice(["start", "end"])
        text = ("{" + json.dumps(key) + ": " + again + ", " + text[1:]) if at == "start" else \
            (text[:-1] + ", " + json.dumps(key) + ": " + again + "}")
    if how == "deep":
        depth = rng.choice([9, 100, 2000, 100_000])
        text = text[:-1] + ', "x": ' + "[" * depth + "]" * depth + "}"
    elif how == "number":
        text = text.replace('"seed": ', '"seed": ' + "9" * rng.choice([9, 10, 400, 5000]), 1)
    elif how == "text":
        at = rng.randrange(len(text))
        text = text[:at] + rng.choice(INSERTS + ["NaN", "Infinity", "\\u0000", "\\ud800"]) + text[at:]
    elif how == "truncate":
        text = text[:rng.randrange(len(text))]
    raw = text.encode("utf-8")
    if how == "bytes":
        raw = bytearray(raw)
        raw[rng.randrange(len(raw))] = rng.randrange(256)
        raw = bytes(raw)
    if path.exists() or path.is_symlink():
        path.unlink()
    if how == "file":
        kind = rng.choice(["fifo", "folder", "loop", "empty", "outside"])
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "folder":
            path.mkdir()
        elif kind == "loop":
            path.symlink_to(path)
        elif kind == "outside":
            path.symlink_to("/etc/passwd")
        else:
            path.write_bytes(b"")
        return f"file: {kind}"
    path.write_bytes(raw)
    return how


# ------------------------------------------------------------------ outcomes

_RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


class Unclean(AssertionError):
    """A refusal that is not a clean error: raw control characters, a huge message, a file outside shown."""


def _clean(report: str) -> None:
    if _RAW_CONTROL.search(report):
        raise Unclean(f"raw control character in the message: {report[:200]!r}")
    if "root:x:0:0" in report:
        raise Unclean("a file outside the content folder was quoted")
    if any(len(line) > 2000 for line in report.splitlines()):
        raise Unclean("a message line longer than 2,000 characters")


def game_decisions(content) -> int:
    """An upper bound on the decisions of a whole game on ``content``: the general front end's bound
    (ruleset/bound.py) on what the sequence of play can ask, every loop at its most passes and every
    step at its heavier rule, its own or the solo game's.  Each of its numbers is bounded by a limit
    checked when the content is read, so a game on content ``crisis check`` accepts always ends."""
    from crisis.ruleset.bound import RuleBound
    definition = content.definition
    bound = RuleBound(definition, {})
    edges = bound.graph()
    if bound.circles(edges):  # refused when read: no content that loads has one
        raise AssertionError("accepted content whose rules carry each other out in a circle")
    for unit in bound.topological(edges):
        bound.done[unit] = bound.cost_unit(unit)
    return bound.asks(definition.setup) + bound.asks(definition.play)


def content_outcome(root: Path) -> str:
    """'error' (a clean ContentError) or 'valid' (loaded, and a whole game played by random players
    on the general engine within its bound).

    Anything else propagates: a traceback, as the fuzz run counts it.
    """
    from crisis.content.loader import load_content
    from crisis.content.yamlfile import ContentError
    from crisis.interpreter.engine.game import Game
    from crisis.interpreter.engine.ops import RuleWorkError
    from crisis.interpreter.players.registry import RandomBot
    try:
        content = load_content(root)
    except ContentError as error:
        _clean(error.report())
        return "error"
    bound = game_decisions(content)
    try:
        game = Game.of(content, 7, log=False)
        players = [RandomBot(7, side) for side in range(len(content.sides))]
        for _ in range(bound + 1):
            if game.over:
                return "valid"
            decision = game.decision
            game.apply(players[decision.player].choose(game, decision))
    except RuleWorkError as error:
        # a loop of the sequence of play that would go round more often than the check assumes
        # ('repeat while' past MAX_REPEATS, a counter set back) stops the game, at the loop, as
        # docs/limits.md says: a clean error.  Work past the limit is one the check should have
        # refused: that propagates.
        if any("steps of work" in d.message for d in error.diagnostics):
            raise
        _clean(error.report())
        return "error"
    raise AssertionError(f"a game on accepted content took more than its bound of {bound} decisions")


def save_outcome(path: Path, content) -> str:
    """'error' (a clean refusal, printed as the command line prints it) or 'valid' (read and replayed
    on the general engine, as ``crisis resume`` does)."""
    from crisis.cli import saves
    from crisis.cli.session import KnownBots, options_of
    from crisis.interpreter.engine.game import Game, IllegalAction
    from crisis.ruleset.diagnostics import printable, shown
    try:
        saved = saves.read(path, content, KnownBots())
    except saves.SaveProblem as problem:
        message = content.catalog("en").text(problem.key, **{k: str(v) for k, v in problem.params.items()})
        _clean(printable(message, keep="\n\t"))
        return "error"
    game = Game.of(content, saved.seed, options_of(content, saved.options), log=False)
    for index, text in enumerate(saved.actions):
        if game.over:
            return "error"  # cli.save.too_many
        try:
            game.apply(text)
        except IllegalAction:
            message = content.catalog("en").text("cli.save.bad_action", file=str(path), n=index + 1, text=shown(text),
                                                 version=saved.version)
            _clean(printable(message, keep="\n\t"))
            return "error"
    return "valid"


# ------------------------------------------------------------ playing what is accepted

STRUCTURE_MUTATIONS: List[Callable] = [rule_structure, rule_structure, rule_structure, definitions, contractions]

# What a designer does with content `crisis check` accepts (issue 18): two-player games with each
# bot, the Solo Opponent, the cards and the aid printed in every language.
PLAYS = ("heuristic", "search", "solo", "log", "cards", "aid")


def mutate_rules(rng: random.Random, root: Path) -> str:
    """One or two well-formed changes: rules, definitions, contractions (most are accepted)."""
    return "; ".join(rng.choice(STRUCTURE_MUTATIONS)(rng, root) for _ in range(rng.choice([1, 1, 2])))


class PlayTimeout(BaseException):
    """A play past its time limit (a BaseException: no ``except Exception`` in crisis can swallow it)."""


class Alarm:
    """``PlayTimeout`` after ``seconds`` of the process's CPU time (the main thread only).

    CPU time, not wall time: on a machine shared with other work (two cores, a test suite
    beside the run) a play's wall time says more about the machine than about the play.  A
    play that waits without working is caught by the run's wall-time limit on the whole case."""

    def __init__(self, seconds: float):
        self.seconds = seconds

    def __enter__(self):
        import signal

        def stop(signum, frame):
            raise PlayTimeout(f"more than {self.seconds} s of CPU time")
        self.previous = signal.signal(signal.SIGPROF, stop)
        signal.setitimer(signal.ITIMER_PROF, self.seconds)

    def __exit__(self, *exc):
        import signal
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, self.previous)


def play(root: Path, which: str, seed: int, content=None, search_budget: int = 2) -> str:
    """Carry out one play on accepted content (``content``: the folder at ``root``, loaded already):
    'ok', or 'refused' (a clean error from crisis, which accepted content should never give either).
    Anything else propagates.  The commands run in this process, given the loaded content."""
    import contextlib
    import io
    import os

    from crisis.cli.main import main
    from crisis.content import loader
    from crisis.interpreter.engine.game import Game
    from crisis.interpreter.players.registry import controller_factory, play_out
    from crisis.ruleset.diagnostics import UserError
    content = content or loader.load_content(root)
    load_content = loader.load_content

    def loaded(path=None, *args, **kwargs):  # the commands' own load: the same folder, read already
        if path is not None and not args and not kwargs and os.path.abspath(path) == os.path.abspath(root):
            return content
        return load_content(path, *args, **kwargs)
    loader.load_content = loaded
    try:
        if which in ("heuristic", "search"):
            if content.definition.evaluation is None:
                return "ok"  # no bots/evaluation.yaml: the commands refuse these bots in one line (test_bots.py)
            factory = controller_factory("heuristic" if which == "heuristic" else f"search:{search_budget}")
            game = Game.of(content, seed, log=False)
            play_out(game, [factory(seed, side) for side in range(len(content.sides))])
        elif which in ("solo", "log", "cards", "aid"):
            if which in ("solo", "aid") and content.overlay is None:
                return "ok"
            # (a case's seed may pass the largest seed a game takes: a long run's --seed 4201 makes
            # case seeds of ten digits, which play refuses in one line, as it should)
            game_seed = str(seed % 1_000_000_000)
            command = {"solo": ["play", "--bots", "--solo", "--seed", game_seed],  # the whole log, with reasons
                       "log": ["play", "--bots", "--seed", game_seed]}.get(which, [which])
            for lang in sorted(content.catalogs):
                out, err = io.StringIO(), io.StringIO()
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    code = main(command + ["--content", str(root), "--lang", lang])
                if code != 0:
                    _clean(err.getvalue())
                    return "refused"
        else:
            raise ValueError(f"no play '{which}'")
    except UserError as error:
        _clean(error.report())
        return "refused"
    finally:
        loader.load_content = load_content
    return "ok"


# ------------------------------------------------------------ a failing disk (issue 18)
# A game played and saved while the disk fails under it, for real (a file-size limit set on the
# process: every write past it fails as on a full disk) or at the rename that makes a save (a
# read-only folder, a full disk, a quota, an I/O error); and two processes resuming one game.
# The promises kept: 'saved' is never said unless it was, what the file holds is said and true,
# the file is always a save that reads, and no temporary or lock file is left behind.


class BrokenPromise(AssertionError):
    """The command said something untrue about the save, or left the folder untidy."""


DISK_FAULTS = ("file-size", "file-size", "rename", "rename", "two-writers")


def _leftovers(folder: Path) -> List[str]:
    """Temporary and lock files left in the folder or its cache folder."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                  if p.name.endswith((".tmp", ".lock")) or p.name.startswith(".g.json"))


def _held(path: Path, content) -> List[str]:
    from crisis.cli import saves
    from crisis.cli.session import KnownBots
    try:
        return saves.read(path, content, KnownBots()).actions
    except saves.SaveProblem as problem:
        raise BrokenPromise(f"the save does not read: {problem.key} {problem.params}") from None


def _complete(actions: List[str], seed: int, content) -> bool:
    from crisis.interpreter.engine.game import Game
    game = Game.of(content, seed, log=False)
    for text in actions:
        game.apply(text)
    return game.over


def disk_case(rng: random.Random, folder: Path, content) -> str:
    """One game on a failing disk in ``folder`` (empty); a description.  BrokenPromise if a promise is broken."""
    import errno
    import resource
    import signal
    from clirun import run_main
    import sys
    fault = rng.choice(DISK_FAULTS)
    seed = rng.randrange(1000)
    # under a file-size limit Python's own cache of compiled modules would be written cut short
    # (a partial write it does not check), breaking every later import: none is written meanwhile
    sys.dont_write_bytecode = True
    env = {"XDG_CACHE_HOME": str(folder / "cache"), "CRISIS_NO_CACHE": ""}
    if fault == "two-writers":
        return _two_writers(rng, folder, seed, env, content)
    play = ["play", "--vs", "random", "--seed", str(seed), "--plain", "--save", "g.json"]
    answers = "1\n" * rng.choice([3, 20, 600])  # stopped early, or played to the end
    if fault == "file-size":
        limit = rng.choice([0, 100, 300, 600, 1200, 2500, 5000])
        what = f"seed {seed}: files past {limit} bytes cannot be written"
        previous = resource.getrlimit(resource.RLIMIT_FSIZE)
        handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, previous[1]))
        try:
            result = run_main(*play, input=answers, cwd=folder, env=env)
        finally:
            resource.setrlimit(resource.RLIMIT_FSIZE, previous)
            signal.signal(signal.SIGXFSZ, handler)
    else:
        number = rng.choice([errno.ENOSPC, errno.EROFS, errno.EDQUOT, errno.EIO, errno.EACCES])
        first, last = rng.randrange(0, 40), rng.choice([None, None, 1, 5, 20])
        what = f"seed {seed}: saves {first + 1}-{'' if last is None else first + last} fail with {errno.errorcode[number]}"
        real, done = os.replace, [0]

        def rename(source, target, *args, **kwargs):
            if os.path.basename(str(target)) == "g.json":
                done[0] += 1
                if done[0] > first and (last is None or done[0] <= first + last):
                    raise OSError(number, os.strerror(number))
            return real(source, target, *args, **kwargs)
        os.replace = rename
        try:
            result = run_main(*play, input=answers, cwd=folder, env=env)
        finally:
            os.replace = real
    _judge(result, folder, seed, content, what)
    return what


def _judge(result, folder: Path, seed: int, content, what: str) -> None:
    out, err = result.stdout, result.stderr
    if "Traceback" in out + err or "went wrong" in out + err:
        raise BrokenPromise(f"{what}: a traceback\n{(out + err)[-2000:]}")
    _clean(err)
    path = folder / "g.json"
    code = result.returncode
    if code in (1, 2):  # the game's file could not even be made: said in one line
        if len(err.strip().splitlines()) != 1:
            raise BrokenPromise(f"{what}: exit {code} without one line saying why: {err[-500:]!r}")
        if "tried again" in err:
            raise BrokenPromise(f"{what}: said the save would be tried again, and the command ended "
                                f"(exit {code}): {err.strip()[-300:]!r}")
        if path.exists():
            _held(path, content)
    elif code in (0, 3):
        held = _held(path, content)
        last = out.rsplit("\n\n", 2)[-2:]  # what the command said at its end
        end = "\n".join(last)
        told = re.findall(r"g\.json holds (\d+) actions? of the (\d+) played", end)
        if code == 0 and "The whole game is saved in g.json" in end:
            if not _complete(held, seed, content):
                raise BrokenPromise(f"{what}: 'the whole game is saved' but the file holds {len(held)} actions")
        elif code == 3 and "The game is saved in g.json" in end:
            pass  # every action played, as the file was written after the last one
        elif told:
            if int(told[-1][0]) != len(held):
                raise BrokenPromise(f"{what}: said the file holds {told[-1][0]} actions, it holds {len(held)}")
        else:
            raise BrokenPromise(f"{what}: ended without saying what the file holds\n{end[-800:]}")
    else:
        raise BrokenPromise(f"{what}: exit status {code}\n{err[-800:]}")
    left = _leftovers(folder)
    if left:
        raise BrokenPromise(f"{what}: files left behind: {left}")


def _two_writers(rng: random.Random, folder: Path, seed: int, env: dict, content) -> str:
    """A game resumed by two processes at once: the second is refused naming the first, the file stays whole."""
    from clirun import Session, run_main
    what = f"seed {seed}: two resumes at once"
    started = run_main("play", "--vs", "random", "--seed", str(seed), "--plain", "--save", "g.json",
                       input="1\n" * rng.randint(1, 6), cwd=folder, env=env)
    _judge(started, folder, seed, content, what + " (the first game)")
    if started.returncode != 3:
        return what + ": the game ended at once"
    first = Session("resume", "g.json", "--plain", cwd=folder, env=env)
    try:
        if first.prompt(60) is None:
            raise BrokenPromise(f"{what}: the first resume ended at once: {first.stderr()[-500:]}")
        second = run_main("resume", "g.json", "--plain", input="1\n" * 5, cwd=folder, env=env)
        line = second.stderr.strip()
        if second.returncode != 1 or f"(process {first.proc.pid})" not in line or len(line.splitlines()) != 1:
            raise BrokenPromise(f"{what}: the second resume was not refused naming the first: "
                                f"{second.returncode} {line[-300:]!r}")
        for _ in range(rng.randint(0, 4)):
            first.send("1")
            if first.prompt(60) is None:
                break
    finally:
        if rng.random() < 0.5:
            first.kill()  # kill -9: the lock goes with it
        else:
            first.close_input()
            first.wait(60)
    held = _held(folder / "g.json", content)
    again = run_main("resume", "g.json", "--plain", input="1\n" * 600, cwd=folder, env=env)
    _judge(again, folder, seed, content, what + " (resumed again)")
    if len(_held(folder / "g.json", content)) < len(held):
        raise BrokenPromise(f"{what}: the game lost actions when resumed again")
    return what


# ------------------------------------------------------------ the language server under hostile messages
# `crisis lsp` spoken to byte by byte: broken frames, requests with params that do not fit,
# documents that are no content file (FIFOs, links to /dev/zero or out of the folder, loops),
# hostile texts, floods, oversized messages, a scenario file that runs for minutes.  Every
# request must be answered, the server must keep answering, never die, never print a
# traceback, and stay within its memory.

LSP_PROBE = "file:///nonexistent-crisis-probe/x.yaml"  # in no content folder: answered by the event loop alone
LSP_REQUESTS = ("textDocument/hover", "textDocument/definition", "textDocument/completion")
LSP_CHECK_SECONDS = 5  # the server's time limit on a check during the run (CRISIS_LSP_CHECK_SECONDS)


class LspServer:
    """`crisis lsp` in a subprocess, with its answers, diagnostics and messages collected."""

    def __init__(self, env=None):
        import itertools
        import queue
        import subprocess
        import threading
        from clirun import crisis_command
        environment = dict(os.environ, NO_COLOR="1", PYTHONDONTWRITEBYTECODE="1",
                           CRISIS_LSP_CHECK_SECONDS=str(LSP_CHECK_SECONDS), **(env or {}))
        self.proc = subprocess.Popen([*crisis_command(), "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=environment)
        self.inbox = queue.Queue()
        self.answers, self.diagnostics, self.shown, self.logged = {}, {}, [], []
        self.error_lines: List[str] = []
        self.tracebacks = 0
        self.ids = itertools.count(1)
        threading.Thread(target=self._out, daemon=True).start()
        threading.Thread(target=self._err, daemon=True).start()

    def _out(self):
        stream = self.proc.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    self.inbox.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            body = stream.read(length or 0)
            try:
                self.inbox.put(json.loads(body))
            except ValueError:
                self.inbox.put({"unreadable": body[:200]})

    def _err(self):
        for line in self.proc.stderr:
            text = line.decode("utf-8", "replace").rstrip("\n")
            if "Traceback" in text:
                self.tracebacks += 1
            self.error_lines = (self.error_lines + [text])[-60:]

    def take(self, timeout: float) -> bool:
        """Sort what the server sent within ``timeout`` seconds; False once it has closed its output."""
        import queue
        try:
            message = self.inbox.get(timeout=max(timeout, 0))
        except queue.Empty:
            return True
        if message is None:
            return False
        if not isinstance(message, dict):
            return True
        method = message.get("method")
        if method == "textDocument/publishDiagnostics":
            params = message.get("params") or {}
            self.diagnostics[params.get("uri")] = params.get("diagnostics")
        elif method == "window/showMessage":
            self.shown.append((message.get("params") or {}).get("message", ""))
        elif method == "window/logMessage":
            text = (message.get("params") or {}).get("message", "")
            self.logged.append(text)
            if "Traceback" in text:
                self.tracebacks += 1
        elif "id" in message and method is None:
            self.answers[message["id"]] = message
        return True

    def send(self, data: bytes) -> None:
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass

    def message(self, payload) -> None:
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode("utf-8")
        self.send(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def request(self, method: str, params, msg_id=None):
        msg_id = f"fuzz-{next(self.ids)}" if msg_id is None else msg_id
        self.message({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        return msg_id

    def notify(self, method: str, params) -> None:
        self.message({"jsonrpc": "2.0", "method": method, "params": params})

    def answered(self, msg_id, timeout: float):
        import time
        end = time.monotonic() + timeout
        while msg_id not in self.answers:
            if self.proc.poll() is not None or time.monotonic() > end or not self.take(min(0.5, end - time.monotonic())):
                return self.answers.get(msg_id)
        return self.answers[msg_id]

    def probe(self, timeout: float) -> bool:
        """Whether the server answers a request that needs nothing but its event loop."""
        return self.answered(self.request("textDocument/completion", {
            "textDocument": {"uri": LSP_PROBE}, "position": {"line": 0, "character": 0}}), timeout) is not None

    def diagnostic_for(self, uri: str, timeout: float, wanted):
        """The first diagnostics for ``uri`` that ``wanted`` accepts, within ``timeout`` seconds (None otherwise)."""
        import time
        end = time.monotonic() + timeout
        self.diagnostics.pop(uri, None)
        while time.monotonic() < end and self.proc.poll() is None:
            if uri in self.diagnostics:
                found = self.seen = self.diagnostics.pop(uri)
                if wanted(found):
                    return found
            if not self.take(min(0.5, end - time.monotonic())):
                break
        return None

    def peak_mb(self) -> int:
        try:
            with open(f"/proc/{self.proc.pid}/status", encoding="ascii") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) // 1024
        except OSError:
            pass
        return 0

    def start(self, root: Path) -> bool:
        ready = self.answered(self.request("initialize", {"processId": None, "rootUri": root.as_uri(),
                                                          "capabilities": {}}), 120)
        self.notify("initialized", {})
        return ready is not None

    def close(self, timeout: float = 30) -> int:
        import subprocess
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
            return -9


def lsp_folders(folder: Path) -> dict:
    """Two copies of the shipped content (the files a game is read from): one as shipped, with its
    scenarios, one whose cards folder holds a FIFO, a link to /dev/zero, a link to itself and a
    link out of the folder."""
    import shutil
    from crisis.content.loader import default_content_dir
    clean, hostile = folder / "clean", folder / "hostile"
    shutil.copytree(default_content_dir(), clean)
    copy_content(default_content_dir(), hostile)
    cards = hostile / "cards"
    os.mkfifo(cards / "a-fifo.yaml")
    (cards / "a-zero.yaml").symlink_to("/dev/zero")
    (cards / "a-loop.yaml").symlink_to(cards / "a-loop.yaml")
    (cards / "a-outside.yaml").symlink_to("/etc/passwd")
    (cards / "a-folder.yaml").mkdir()
    files = sorted(p for p in clean.rglob("*.yaml") if p.is_file())
    return {"clean": clean, "hostile": hostile, "files": files,
            "odd": [cards / name for name in ("a-fifo.yaml", "a-zero.yaml", "a-loop.yaml", "a-outside.yaml",
                                             "a-folder.yaml", "missing.yaml")] + [cards]}


_ODD_URIS = ["", "untitled:Untitled-1", "file:relative/x.yaml", "file:///", "file:///dev/zero",
             "file:///tmp/%00x.yaml", "file:///tmp/x%2F..%2F..%2Fetc%2Fpasswd.yaml", "http://example.com/x.yaml",
             "file:///proc/self/fd/0.yaml", "file:///%ff%fe.yaml", "file://host/share/x.yaml"]
_ODD_VALUES = [None, -1, 2 ** 31, 2 ** 63, 1.5, "1", True, [], {}, "\x1b[2J"]


def _uri(rng: random.Random, folders: dict):
    pick = rng.random()
    if pick < 0.45:
        return rng.choice(folders["files"]).as_uri()
    if pick < 0.75:
        return rng.choice(folders["odd"]).as_uri()
    if pick < 0.8:
        return "file:///" + "a/" * rng.choice([100, 3000, 60_000]) + "x.yaml"
    if pick < 0.85:
        return rng.choice(_ODD_VALUES)
    return rng.choice(_ODD_URIS)


def _position(rng: random.Random):
    pick = rng.random()
    if pick < 0.5:
        return {"line": rng.randrange(200), "character": rng.randrange(80)}
    if pick < 0.6:
        return {"line": 2 ** 31 - 1, "character": 2 ** 31 - 1}
    if pick < 0.9:
        position = {"line": rng.randrange(50), "character": rng.randrange(50)}
        position[rng.choice(["line", "character"])] = rng.choice(_ODD_VALUES)
        return position
    return rng.choice([None, {}, {"line": 1}, [], 7])


def _hostile_text(rng: random.Random, path: Path) -> str:
    text = _text(path) if path.is_file() else ""
    pick = rng.random()
    if pick < 0.35:
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(text) + 1)
            piece = rng.choice(HOSTILE_SCALARS + INSERTS + RULE_PIECES)
            text = text[:at] + piece + text[at:]
        return text
    return rng.choice([
        lambda: text + "\n# " + "x" * rng.choice([1_100_000, 2_000_000]),  # past a content file's size
        lambda: "a: &a [" + ", ".join(["x"] * 9) + "]\n" + "".join(
            f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1 if i > 1 else ''}"] * 9) + "]\n" for i in range(1, 10)),
        lambda: "[" * 5000 + "]" * 5000,
        lambda: "\n" * 500_000,
        lambda: "x" * 900_000,
        lambda: text.replace("a", "\ud800", 3),  # half a surrogate pair: no UTF-8 text holds it
        lambda: text.replace("e", "\U0001f600"),
        lambda: "".join(chr(rng.randrange(1, 0x3000)) for _ in range(2000)),
        lambda: text.replace(": ", ":\t", 5),
        lambda: "strategy_cards:\n" + "".join(f"  - id: c{i}\n" for i in range(20_000)),
    ])()


def _runaway(folders: dict) -> List[tuple]:
    """A card event as heavy as check accepts (unsaved) and a scenario file that plays it a thousand times."""
    cards = folders["clean"] / "cards" / "strategy-unionist.yaml"
    rule = "gain 1 VP"
    for _ in range(13):
        rule = "for each player:\n" + _indent(rule)
    heavy = _text(cards).replace("event: place 3 in Fort Sumter", "event: |\n" + "\n".join(
        "      " + line for line in rule.splitlines()), 1)
    scenario = folders["clean"] / "scenarios" / "cards" / "major-anderson.yaml"
    one = _text(scenario).rstrip("\n").split("\n")
    many = "scenarios:\n" + "".join("  - " + "\n    ".join(one) + "\n" for _ in range(1000))
    return [("open", cards.as_uri(), heavy), ("open", scenario.as_uri(), many), ("stopped", scenario.as_uri())]


def lsp_case(rng: random.Random, folders: dict):
    """(description, steps) of one hostile case; a step is ("request", method, params),
    ("notify", method, params), ("open", uri, text), ("raw", bytes), ("big",), ("stopped", uri)."""
    kind = rng.choices(["params", "uri", "document", "frame", "flood", "protocol", "rare"],
                       [20, 20, 25, 15, 5, 10, 1])[0]
    if kind == "params":
        params = {"textDocument": {"uri": _uri(rng, folders)}, "position": _position(rng)}
        for _ in range(rng.randint(0, 2)):
            key = rng.choice(["textDocument", "position", "extra", "workDoneToken", "context"])
            params[key] = rng.choice(_ODD_VALUES + [{"uri": rng.choice(_ODD_VALUES)}])
        if rng.random() < 0.1:
            params = rng.choice(_ODD_VALUES)
        method = rng.choice(LSP_REQUESTS)
        return f"{method} with {str(params)[:80]}", [("request", method, params)]
    if kind == "uri":
        uri = _uri(rng, folders)
        method = rng.choice(LSP_REQUESTS + ("textDocument/didOpen", "textDocument/didSave", "textDocument/didClose",
                                            "textDocument/didChange"))
        if method in LSP_REQUESTS:
            return f"{method} on {str(uri)[:80]}", [("request", method, {"textDocument": {"uri": uri},
                                                                           "position": _position(rng)})]
        document = {"uri": uri, "languageId": "yaml", "version": 1, "text": "a: 1\n"} if method.endswith("Open") \
            else {"uri": uri, "version": 2}
        params = {"textDocument": document}
        if method.endswith("Change"):
            params["contentChanges"] = [{"text": "b: 2\n"}]
        return f"{method} on {str(uri)[:80]}", [("notify", method, params), ("request", rng.choice(LSP_REQUESTS), {
            "textDocument": {"uri": uri}, "position": _position(rng)})]
    if kind == "document":
        path = rng.choice(folders["files"])
        text = _hostile_text(rng, path)
        steps = [("open", path.as_uri(), text)]
        for _ in range(rng.randint(1, 3)):
            steps.append(("request", rng.choice(LSP_REQUESTS), {"textDocument": {"uri": path.as_uri()},
                                                                "position": _position(rng)}))
        return f"document {path.name}: {text[:60]!r} ({len(text):,} characters)", steps
    if kind == "frame":
        frame = rng.choice([
            b"Content-Length: 9\r\n\r\n{not json", b"Content-Length: 5\r\n\r\n[1,2]", b"Content-Length: 4\r\n\r\nnull",
            b"Content-Length: 200011\r\n\r\n" + b"[" * 100_000 + b"1" + b"]" * 100_000 + b"\n" * 10,
            b"Content-Length: " + b"9" * rng.choice([20, 5000]) + b"\r\n\r\n{}",
            b"Content-Length: -5\r\n\r\n{}", b"Content-Length: 0x10\r\n\r\n{}", b"Content-Length: 0\r\n\r\n",
            b"Content-Type: x\r\n\r\n{}\r\n", b"garbage\r\n\r\n", b"\r\n" * 1000, b"x" * 100_000 + b"\r\n\r\n",
            bytes(rng.randrange(256) for _ in range(rng.randint(1, 3000))),
            json.dumps({"jsonrpc": "1.0", "id": "v1", "method": "textDocument/hover", "params": {}}).encode(),
            json.dumps({"jsonrpc": "2.0", "id": {"a": 1}, "method": "textDocument/hover", "params": {}}).encode(),
            json.dumps({"jsonrpc": "2.0", "id": 1.5, "method": "textDocument/definition", "params": {}}).encode(),
            json.dumps({"jsonrpc": "2.0", "id": "no-such-request", "result": {"x": 1}}).encode(),
            json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": 1, "message": "x"}}).encode(),
            json.dumps([{"jsonrpc": "2.0", "id": "batch", "method": "textDocument/hover", "params": {}}]).encode(),
            json.dumps({"jsonrpc": "2.0", "id": 10 ** 30, "method": "textDocument/hover"}).encode(),
            json.dumps({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": {"x": []}}}).encode(),
            json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
                "textDocument": {"uri": 5, "text": None}}}).encode(),
        ])
        if frame.startswith((b"{", b"[")) and rng.random() < 0.8:
            frame = b"Content-Length: %d\r\n\r\n" % len(frame) + frame
        return f"frame {frame[:60]!r} ({len(frame):,} bytes)", [("raw", frame)]
    if kind == "flood":
        path = rng.choice(folders["files"])
        method = rng.choice(["textDocument/didSave", "textDocument/didChange"])
        steps = [("open", path.as_uri(), _text(path))]
        for version in range(rng.choice([50, 300, 1000])):
            params = {"textDocument": {"uri": path.as_uri(), "version": version + 2}}
            if method.endswith("Change"):
                params["contentChanges"] = [{"text": _text(path) + "#" * (version % 7)}]
            steps.append(("notify", method, params))
        return f"{len(steps) - 1} x {method} {path.name}", steps
    if kind == "protocol":
        method = rng.choice(["initialize", "textDocument/documentSymbol", "workspace/symbol", "crisis/nothing",
                             "textDocument/formatting", "$/cancelRequest", "workspace/didChangeConfiguration",
                             "textDocument/willSaveWaitUntil"])
        params = rng.choice([{}, None, {"processId": None, "rootUri": None, "capabilities": {}},
                             {"textDocument": {"uri": _uri(rng, folders)}}, {"id": "fuzz-1"}, {"settings": [1] * 1000}])
        step = "request" if not method.startswith("$") and not method.endswith("Configuration") else "notify"
        return f"{step} {method} {str(params)[:60]}", [(step, method, params)]
    pick = rng.choice(["big", "runaway", "huge document"])
    if pick == "big":
        return "a message past the size limit", [("big",)]
    if pick == "runaway":
        return "a scenario file that runs for minutes", _runaway(folders)
    path = rng.choice(folders["files"])
    return f"a 30 MB document {path.name}", [("open", path.as_uri(), "# " + "x" * 30_000_000)]


def lsp_run(rng: random.Random, folder: Path, cases: int, answer_seconds: float = 60.0, log=None) -> dict:
    """``cases`` hostile cases against one server (a new one if it dies or goes deaf): the counts."""
    import time
    folders = lsp_folders(folder)
    counts = {"cases": 0, "requests": 0, "answered": 0, "unanswered": 0, "deaf": 0, "died": 0, "traceback": 0,
              "memory": 0, "not said": 0, "not working": 0, "server starts": 0, "peak_mb": 0, "slowest_s": 0.0}
    failures: List[dict] = []

    def fail(outcome, what, detail=""):
        counts[outcome] += 1
        failures.append({"kind": "lsp", "outcome": outcome, "case": what, "detail": str(detail)[-2000:]})
        if log:
            log(f"lsp {outcome}: {what} {str(detail)[-300:]}")

    def start():
        counts["server starts"] += 1
        server = LspServer()
        if not server.start(folders["clean"]):
            fail("died", "start", "\n".join(server.error_lines))
        return server

    server = start()
    tracebacks = 0
    for index in range(cases):
        what, steps = lsp_case(rng, folders)
        t0 = time.monotonic()
        opened, asked = [], []
        for step in steps:
            if step[0] == "request":
                asked.append(server.request(step[1], step[2]))
            elif step[0] == "notify":
                server.notify(step[1], step[2])
                if step[1] == "textDocument/didOpen":
                    opened.append(((step[2] or {}).get("textDocument") or {}).get("uri"))
            elif step[0] == "open":
                server.notify("textDocument/didOpen", {"textDocument": {
                    "uri": step[1], "languageId": "yaml", "version": 1, "text": step[2]}})
                opened.append(step[1])
            elif step[0] == "raw":
                server.send(step[1])
            elif step[0] == "big":
                from crisis.cli.lsp import MAX_MESSAGE_BYTES
                shown = len(server.shown)
                server.message(b'{"jsonrpc": "2.0", "method": "x", "params": "' + b"x" * MAX_MESSAGE_BYTES + b'"}')
                if not server.probe(answer_seconds) or not any(
                        "larger than the limit" in m for m in server.shown[shown:]):
                    fail("not said", what, "no message said the message was skipped")
            elif step[0] == "stopped":
                found = server.diagnostic_for(step[1], LSP_CHECK_SECONDS + answer_seconds,
                                              lambda items: any("was stopped" in d.get("message", "") for d in items))
                if found is None:
                    fail("not said", what, f"no diagnostic said the check was stopped: {getattr(server, 'seen', '')}")
        for msg_id in asked:
            counts["requests"] += 1
            if server.answered(msg_id, answer_seconds) is not None:
                counts["answered"] += 1
            elif server.proc.poll() is None:
                fail("unanswered", what, f"request {msg_id}")
        wreck = steps[0][0] == "raw"
        alive = server.probe(15) or (wreck and server.probe(15))
        for uri in opened:  # the next case starts from the files on disk
            server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        counts["slowest_s"] = max(counts["slowest_s"], round(time.monotonic() - t0, 1))
        counts["cases"] += 1
        peak = server.peak_mb()
        counts["peak_mb"] = max(counts["peak_mb"], peak)
        if server.tracebacks > tracebacks:
            fail("traceback", what, "\n".join(server.error_lines[-30:] + server.logged[-3:]))
            tracebacks = server.tracebacks
        if peak > 1024:
            fail("memory", what, f"{peak} MB")
        if server.proc.poll() is not None:
            fail("died", what, f"exit {server.proc.returncode}: " + "\n".join(server.error_lines[-20:]))
        elif not alive:
            fail("deaf", what, "\n".join(server.error_lines[-20:]))
        if server.proc.poll() is not None or not alive or peak > 1024:
            server.close(5)
            server, tracebacks = start(), 0
        if log and (index + 1) % 100 == 0:
            log(f"lsp: {index + 1} cases, peak {counts['peak_mb']} MB")
    # at the end, the server still does its work: a misspelt space is found where it is
    cards = folders["clean"] / "cards" / "strategy-unionist.yaml"
    broken = _text(cards).replace("place 3 in Fort Sumter", "place 3 in Fort Sumpter", 1)
    server.notify("textDocument/didOpen", {"textDocument": {"uri": cards.as_uri(), "languageId": "yaml",
                                                            "version": 99, "text": broken}})
    if server.diagnostic_for(cards.as_uri(), 120, lambda items: any(
            "Fort Sumpter" in d.get("message", "") for d in items)) is None:
        fail("not working", "after the run", "no diagnostic for a misspelt space")
    # and a message claiming more bytes than any memory holds, then the editor gone: a clean end
    server.send(b"Content-Length: 100000000000\r\n\r\n{}")
    time.sleep(1)
    code = server.close(30)
    if code != 0 or server.tracebacks > tracebacks:
        fail("died", "a message of 100 GB, then the end of input", f"exit {code}: " + "\n".join(server.error_lines[-20:]))
    counts["peak_mb"] = max(counts["peak_mb"], server.peak_mb())
    return {"counts": counts, "failures": failures}
