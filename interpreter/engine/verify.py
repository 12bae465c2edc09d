"""The check every generated module passes before it is compiled (docs/limits.md).

Content is untrusted input, and generated source is made from it, so the
source is parsed again and walked: only the syntax the generator writes, only
its generated identifiers and a short list of runtime names and attributes,
and no constant but small integers, ``True``, ``False`` and ``None``.  A
string, an import, a lambda, a ``global``, a dunder, anything else: refused.
"""

from __future__ import annotations

import ast
import re

from .codegen import MAX_INTEGER

# names the runtime gives a generated module (native.py builds its namespace from these)
RUNTIME_NAMES = frozenset({"K", "Stopped", "Won", "Decision", "DONE", "range", "len", "True", "False", "None"})
# names the generator makes: functions f<op id>, locals letter+number, and its fixed locals
GENERATED = re.compile(r"^(f\d+|[acdeikprstuz]\d+|V|board|ctx|choose|ENTRY|_)$")
ATTRIBUTES = frozenset({
    # the board and its position
    "values", "piles", "options", "position", "plays", "breakdown", "shortfall", "first_player", "order", "others", "controls",
    "controls_group", "groups_controlled", "can_take", "can_put", "take", "put", "draw_at",
    # a rule's context (ops.Ctx) and an action's fields
    "me", "group", "place", "card", "reason", "effect", "as_side", "_replace", "a", "b", "side", "kind",
    # operations called through the constants table
    "play", "run", "can_act", "decision", "enter", "legal", "owners", "rule_and_ctx", "begin_play",
    "actions", "end", "keep", "each_places", "tokens_in_sources",
    # lists
    "append", "remove", "pop", "extend", "clear"})
KEYWORDS = frozenset({"me", "reason", "origin", "place", "group"})
NODES = (ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.Assign, ast.AugAssign, ast.Expr, ast.If,
         ast.While, ast.For, ast.Break, ast.Try, ast.ExceptHandler, ast.Raise, ast.Pass, ast.Call, ast.keyword,
         ast.Name, ast.Attribute, ast.Subscript, ast.Constant, ast.Compare, ast.BoolOp, ast.BinOp, ast.UnaryOp,
         ast.IfExp, ast.ListComp, ast.comprehension, ast.NotIn, ast.In, ast.Tuple, ast.List, ast.Dict, ast.Load, ast.Store, ast.And, ast.Or, ast.Not, ast.USub,
         ast.Add, ast.Sub, ast.Mult, ast.Mod, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is,
         ast.IsNot)


class UnsafeSource(Exception):
    """Generated source that holds something the generator never writes."""


def verify(source: str) -> ast.Module:
    """The parsed module, if every node is one the generator writes; else UnsafeSource."""
    tree = ast.parse(source, mode="exec")
    for node in ast.walk(tree):
        if not isinstance(node, NODES):
            raise UnsafeSource(f"line {getattr(node, 'lineno', '?')}: {type(node).__name__} is not generated")
        if isinstance(node, ast.Constant):
            value = node.value
            if value is not None and type(value) not in (int, bool):
                raise UnsafeSource(f"line {node.lineno}: a {type(value).__name__} constant")
            if type(value) is int and not -MAX_INTEGER <= value <= MAX_INTEGER:
                raise UnsafeSource(f"line {node.lineno}: an integer out of range")
        elif isinstance(node, ast.Name):
            if node.id not in RUNTIME_NAMES and not GENERATED.match(node.id):
                raise UnsafeSource(f"line {node.lineno}: the name '{node.id}' is not generated")
        elif isinstance(node, ast.FunctionDef):
            if not GENERATED.match(node.name) or node.decorator_list or node.returns:
                raise UnsafeSource(f"line {node.lineno}: the function '{node.name}' is not generated")
        elif isinstance(node, ast.arg):
            if not GENERATED.match(node.arg) or node.annotation is not None:
                raise UnsafeSource(f"line {node.lineno}: the argument '{node.arg}' is not generated")
        elif isinstance(node, ast.Attribute):
            if node.attr not in ATTRIBUTES:
                raise UnsafeSource(f"line {node.lineno}: the attribute '{node.attr}' is not generated")
        elif isinstance(node, ast.keyword):
            if node.arg not in KEYWORDS:
                raise UnsafeSource(f"line {getattr(node, 'lineno', '?')}: the keyword '{node.arg}' is not generated")
        elif isinstance(node, ast.ExceptHandler):
            if node.name is not None or not (isinstance(node.type, ast.Name) and node.type.id in ("Stopped", "Won")):
                raise UnsafeSource(f"line {node.lineno}: an exception handler that is not generated")
        elif isinstance(node, ast.Raise):
            if node.cause is not None or not (isinstance(node.exc, ast.Name) and node.exc.id in ("Stopped", "Won")):
                raise UnsafeSource(f"line {node.lineno}: a raise that is not generated")
    return tree
