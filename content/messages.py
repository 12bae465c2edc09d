"""Which catalog messages the program asks for, and with which placeholders.

The reference catalog (English) is the one every other language follows, so a
mistake in it (a key deleted, a placeholder misspelt: ``{lmiit}``) shows to
every player as ``<log.game_over>`` or a message that cannot be filled.  To
catch that, ``crisis check`` compares the catalogs with the registry in
``message_keys.py``: every message key the program asks for with a literal key
(``text("log.game_over", winner=...)``, ``emit(...)``) and the parameters that
fill it.  Keys built at run time (``f"scoring.{label}"``) are left to the
loader's own list of required keys.

The registry is written from the program's own source, read with ``ast``
(never run), by ``python -m crisis.content.messages``; reading the source at
every ``check`` cost about a second, so it is done once, when the code changes,
and a test (``tests/test_i18n.py``) fails while the registry and the source
disagree, or while the registry names a key the English catalog lacks.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import re
from pathlib import Path
from typing import Dict, FrozenSet, Iterator, Optional, Tuple

_KEY = re.compile(r"[a-z_]+(\.[A-Za-z0-9_]+)+")
# where the program asks for messages
PACKAGES = ("crisis.cli", "crisis.cli.tui", "crisis.interpreter", "crisis.ruleset", "crisis.content")
# the presenter adds each name's grammar (x_g, x_pl) and the token word when a step names side and actor
GRAMMAR_SUFFIXES = ("_g", "_pl")


def _sources() -> Iterator[Path]:
    for package in PACKAGES:
        spec = importlib.util.find_spec(package)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            yield from sorted(Path(folder).glob("*.py"))


def used_messages() -> Dict[str, Optional[FrozenSet[str]]]:
    """Message key -> the placeholders the program fills (None: not known, some call passes **params)."""
    from .message_keys import MESSAGES
    return MESSAGES


@functools.lru_cache(maxsize=1)
def scan_messages() -> Dict[str, Optional[FrozenSet[str]]]:
    """``used_messages`` read from the program's source (what the registry must say)."""
    trees = []
    for path in _sources():
        try:
            trees.append(ast.parse(path.read_text(encoding="utf-8")))
        except (OSError, SyntaxError, UnicodeDecodeError):
            continue
    takes_key, prefixes, returns = _message_functions(trees)
    found: Dict[str, Optional[FrozenSet[str]]] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = _called(node)
            if name not in takes_key:
                continue
            for key in _literals(node.args[0]):
                key = prefixes.get(name, "") + key
                if not _KEY.fullmatch(key):
                    continue
                names = _keywords(node, returns)
                if names is None:  # **params: which ones is not known here
                    found[key] = None
                elif key not in found:
                    found[key] = frozenset(names)
                elif found[key] is not None:
                    found[key] = found[key] | names
    return found


def _literals(node) -> Tuple[str, ...]:
    """The keys an argument can be, where each is written out: a string, or a choice between
    such (``"cli.card.x_short" if short else "cli.card.x"``); none where any part is worked out."""
    if isinstance(node, ast.Constant):
        return (node.value,) if isinstance(node.value, str) else ()
    if isinstance(node, ast.IfExp):
        body, orelse = _literals(node.body), _literals(node.orelse)
        return body + orelse if body and orelse else ()
    return ()


def _called(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _keywords(call: ast.Call, returns) -> Optional[set]:
    """The parameter names a call passes, following ``**self.f(...)`` into f's dict literal; None if unknown."""
    names = set()
    for keyword in call.keywords:
        if keyword.arg is not None:
            names.add(keyword.arg)
            continue
        value = keyword.value
        if not isinstance(value, ast.Call) or _called(value) not in returns:
            return None
        params, dicts = returns[_called(value)]
        bound = {p: a.value for p, a in zip(params, value.args) if isinstance(a, ast.Constant)}
        for keys in dicts:
            for key in keys:
                name = _evaluate(key, bound)
                if name is None:
                    return None
                names.add(name)
    return names


def _evaluate(node, bound: Dict[str, object]) -> Optional[str]:
    """A dict key: a literal, a parameter given as a literal, or an f-string of those."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and isinstance(bound.get(node.id), str):
        return bound[node.id]
    if isinstance(node, ast.JoinedStr):
        parts = []
        for part in node.values:
            value = _evaluate(part.value if isinstance(part, ast.FormattedValue) else part, bound)
            if value is None:
                return None
            parts.append(value)
        return "".join(parts)
    return None


def _message_functions(trees):
    """Functions (and classes) of the program whose first parameter is a message ``key``, those that
    add a prefix to it (``def t(self, key): return text("render." + key)``), and those that return
    only dict literals (whose keys a ``**f(...)`` passes)."""
    first: Dict[str, set] = {}
    prefixes: Dict[str, str] = {}
    returns: Dict[str, tuple] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                init = next((f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
                if init is not None:
                    first.setdefault(node.name, set()).add(_first_param(init))
            if not isinstance(node, ast.FunctionDef):
                continue
            param = _first_param(node)
            first.setdefault(node.name, set()).add(param)
            results = [r.value for r in ast.walk(node) if isinstance(r, ast.Return)]
            if results and all(isinstance(r, ast.Dict) and None not in r.keys for r in results):
                params = [a.arg for a in node.args.args if a.arg not in ("self", "cls")]
                if node.name in returns:  # two functions of that name: not known which
                    returns[node.name] = (params, [[ast.Constant(None)]])
                else:
                    returns[node.name] = (params, [r.keys for r in results])
            if param != "key":
                continue
            for call in ast.walk(node):
                arg = call.args[0] if isinstance(call, ast.Call) and call.args else None
                if (isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Add) and isinstance(arg.left, ast.Constant)
                        and isinstance(arg.right, ast.Name) and arg.right.id == "key"):
                    prefixes[node.name] = arg.left.value
    # a name some function defines with a first parameter "key" (the call must also pass a literal
    # that looks like a key: another function of that name, say(text), is not mistaken for one)
    return {name for name, params in first.items() if "key" in params}, prefixes, returns


def _first_param(func: ast.FunctionDef) -> str:
    params = [a.arg for a in func.args.args if a.arg not in ("self", "cls")]
    return params[0] if params else ""


def allowed_placeholders(passed: FrozenSet[str]) -> FrozenSet[str]:
    """What a message may use when the program passes ``passed``."""
    allowed = set(passed)
    allowed.update(f"{name}{suffix}" for name in passed for suffix in GRAMMAR_SUFFIXES)
    if {"side", "actor"} <= passed:
        allowed.add("token")
    return frozenset(allowed)


def closest(name: str, names) -> Tuple[Optional[str], ...]:
    """The name of ``names`` a misspelt placeholder most likely meant, as a tuple (empty: none):
    the language's own did-you-mean (the same choice among close names as everywhere, and a
    name too long to be a typo left alone: a placeholder is content)."""
    from crisis.ruleset.diagnostics import did_you_mean
    match = did_you_mean(name, sorted(names), cutoff=0.5)
    return (match,) if match else ()


def registry_source(found: Dict[str, Optional[FrozenSet[str]]]) -> str:
    """The text of ``message_keys.py`` for the keys ``found``."""
    lines = ['"""Every message key the program asks for by name, and the parameters it fills (None: some call',
             'passes ``**params``, so which is not known).  Written by ``python -m crisis.content.messages``',
             'from the source; tests/test_i18n.py fails while it disagrees with the source."""',
             "",
             "MESSAGES = {"]
    for key, names in sorted(found.items()):
        value = "None" if names is None else ("frozenset({" + ", ".join(f'"{n}"' for n in sorted(names)) + "})"
                                               if names else "frozenset()")
        lines.append(f'    "{key}": {value},')
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # write the registry again after changing which messages the code asks for
    target = Path(__file__).with_name("message_keys.py")
    target.write_text(registry_source(scan_messages()), encoding="utf-8")
    print(f"{target}: {len(scan_messages())} message keys")
