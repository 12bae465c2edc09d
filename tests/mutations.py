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


def _files(root: Path) -> List[Path]:
    files = [root / "game.yaml", root / "rules.yaml"]
    files += sorted((root / "cards").glob("*.yaml"))
    files += sorted((root / "locale").glob("*/*.yaml"))
    files += sorted((root / "solo").glob("*.yaml"))
    return [f for f in files if f.is_file() and not f.is_symlink()]


def _text(path: Path) -> str:
    return path.read_bytes().decode("utf-8", "replace")


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
    spots = [m.end() for m in re.finditer(r"(event|first|second|pivotal_bonus|dimension_scoring|matching): ?\|?\n?", text)]
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
    path = root / "game.yaml"
    text = _text(path)
    keys = re.findall(r"^\s*(\w+): \d+", text, re.M)
    if not keys:
        return "game.yaml has no numbers left to change"
    key = rng.choice(keys)
    value = rng.choice([0, 1, 2, 9, 12, 30, 31, 99, 100, 999, 1000, 10**6, 10**9 - 1, 10**9, 10**12, -5])
    path.write_text(re.sub(rf"^(\s*{key}): \d+", rf"\g<1>: {value}", text, count=1, flags=re.M), encoding="utf-8")
    return f"game.yaml {key}: {value}"


def filesystem(rng: random.Random, root: Path) -> str:
    target = rng.choice(_files(root) + [root / "cards", root / "locale" / "es"])
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
        target.symlink_to(root / "game.yaml")
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
    """The board's names, read from the copy (its game.yaml may be damaged: then none)."""
    import yaml
    try:
        game = yaml.safe_load((root / "game.yaml").read_text(encoding="utf-8"))
        dimensions = {d["name"]: list(d["spaces"]) for d in game["dimensions"]}
        markers = list(game.get("markers") or {})
    except Exception:  # a damaged file: the rules will simply not check
        dimensions, markers = {"Nowhere": ["Nowhere"]}, []
    return {"dimensions": dimensions, "spaces": [s for spaces in dimensions.values() for s in spaces],
            "markers": markers}


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
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def rule_structure(rng: random.Random, root: Path) -> str:
    """Replace a card event, a procedure or a Solo Opponent procedure by a random well-formed rule."""
    names = _names(root)
    rule = random_rule(rng, names)
    where = rng.choice(["card", "card", "card", "rules", "solo"])
    cards = sorted((root / "cards").glob("strategy-*.yaml")) if (root / "cards").is_dir() else []
    try:
        if where == "card" and cards:
            path = rng.choice(cards)
            picked = []

            def change(data):
                with_events = [card for card in data["strategy_cards"] if card.get("event")]
                card = rng.choice(with_events)
                card["event"] = rule
                picked.append(card["id"])
            _rewrite_yaml(path, change)
            return f"event of {picked[0]} -> {rule[:60]!r}"
        if where == "solo" and (root / "solo" / "solo.yaml").is_file():
            key = rng.choice(["turn", "pivotal_bonus"])
            _rewrite_yaml(root / "solo" / "solo.yaml", lambda data: data["opponent"].__setitem__(key, rule))
            return f"solo {key} -> {rule[:60]!r}"
        key = rng.choice(["pivotal_bonus", "dimension_scoring", "objective_scoring"])
        _rewrite_yaml(root / "rules.yaml", lambda data: data.__setitem__(key, rule))
        return f"{key} -> {rule[:60]!r}"
    except Exception:  # a file already damaged by another mutation: left as it is
        return "no rule to replace"


def definitions(rng: random.Random, root: Path) -> str:
    """A Solo Opponent definition that uses itself, another, or goes round a circle."""
    path = root / "solo" / "solo.yaml"
    if not path.is_file():
        return "no solo.yaml"
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
            if not (root / "game.yaml").is_file():
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
                      "truncate", "file", "version", "controllers"])
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
    text = json.dumps(data)
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


def content_outcome(root: Path) -> str:
    """'error' (a clean ContentError) or 'valid' (loaded, and a whole game played within its bound).

    Anything else propagates: a traceback, as the fuzz run counts it.
    """
    from crisis.content.loader import load_content
    from crisis.content.yamlfile import ContentError
    from crisis.interpreter.controllers import RandomBot
    from crisis.interpreter.game import Game
    from crisis.ruleset.work import game_decisions
    try:
        content = load_content(root)
    except ContentError as error:
        _clean(error.report())
        return "error"
    bound = game_decisions(content)
    game = Game(content, 7, log=False)
    bots = [RandomBot(7, 0), RandomBot(7, 1)]
    for _ in range(bound + 1):
        if game.over:
            return "valid"
        decision = game.decision
        game.apply(bots[decision.player].choose(game, decision))
    raise AssertionError(f"a game on accepted content took more than its bound of {bound} decisions")


def save_outcome(path: Path, content) -> str:
    """'error' (a clean refusal, printed as the command line prints it) or 'valid' (read and replayed)."""
    from crisis.cli import saves
    from crisis.cli.session import bots
    from crisis.interpreter.game import Game, IllegalAction, Options
    from crisis.ruleset.diagnostics import printable, shown
    try:
        saved = saves.read(path, content, bots())
    except saves.SaveProblem as problem:
        message = content.catalog("en").text(problem.key, **{k: str(v) for k, v in problem.params.items()})
        _clean(printable(message, keep="\n\t"))
        return "error"
    game = Game(content, saved.seed, Options.from_dict(saved.options), log=False)
    for index, text in enumerate(saved.actions):
        if game.over:
            return "error"  # cli.save.too_many
        try:
            game.apply(text)
        except IllegalAction:
            message = content.catalog("en").text("cli.save.bad_action", file=str(path), n=index + 1, text=shown(text))
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
    """``PlayTimeout`` after ``seconds`` of wall time (the main thread only)."""

    def __init__(self, seconds: float):
        self.seconds = seconds

    def __enter__(self):
        import signal

        def stop(signum, frame):
            raise PlayTimeout(f"more than {self.seconds} s")
        self.previous = signal.signal(signal.SIGALRM, stop)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def __exit__(self, *exc):
        import signal
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.previous)


def play(root: Path, which: str, seed: int, content=None, search_budget: int = 2) -> str:
    """Carry out one play on accepted content (``content``: the folder at ``root``, loaded already):
    'ok', or 'refused' (a clean error from crisis, which accepted content should never give either).
    Anything else propagates.  The commands run in this process, given the loaded content."""
    import contextlib
    import io
    import os

    from crisis.cli.main import main
    from crisis.content import loader
    from crisis.interpreter.controllers import controller_factory, play_out
    from crisis.interpreter.game import Game
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
            factory = controller_factory("heuristic" if which == "heuristic" else f"search:{search_budget}")
            game = Game(content, seed, log=False)
            play_out(game, [factory(seed, 0), factory(seed, 1)])
        elif which in ("solo", "log", "cards", "aid"):
            if which in ("solo", "aid") and content.solo is None:
                return "ok"
            command = {"solo": ["play", "--bots", "--solo", "--seed", str(seed)],  # the whole log, with reasons
                       "log": ["play", "--bots", "--seed", str(seed)]}.get(which, [which])
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
