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
GENERATED = re.compile(r"^(f\d+|[acdeikprstuz]\d+|A|V|W|board|ctx|choose|ENTRY|_)$")
ATTRIBUTES = frozenset({
    # the board and its position
    "values", "piles", "options", "position", "plays", "notes", "rng", "breakdown", "shortfall", "first_player",
    "order", "others", "controls", "controls_group", "groups_controlled", "can_take", "can_put", "take", "put",
    "draw_at", "meter", "ask",
    # a rule's context (ops.Ctx) and an action's fields
    "me", "group", "place", "card", "reason", "effect", "as_side", "_replace", "a", "b", "side", "kind",
    # operations called through the constants table
    "play", "run", "can_act", "decision", "enter", "legal", "owners", "rule_and_ctx", "begin_play",
    "actions", "end", "keep", "each_places", "tokens_in_sources", "too_many",
    # lists
    "append", "remove", "pop", "extend", "clear"})
KEYWORDS = frozenset({"me", "reason", "origin", "place", "group"})
# the syntax the generator writes: statements and expressions (walked), and the operators and
# contexts they hold (checked where they stand)
NODES = (ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.Assign, ast.AugAssign, ast.Expr, ast.If, ast.Return,
         ast.While, ast.For, ast.Break, ast.Try, ast.ExceptHandler, ast.Raise, ast.Pass, ast.Call, ast.keyword,
         ast.Name, ast.Attribute, ast.Subscript, ast.Constant, ast.Compare, ast.BoolOp, ast.BinOp, ast.UnaryOp,
         ast.IfExp, ast.ListComp, ast.comprehension, ast.Tuple, ast.List, ast.Dict)
OPERATORS = frozenset({ast.Load, ast.Store, ast.And, ast.Or, ast.Not, ast.USub, ast.Add, ast.Sub, ast.Mult, ast.Mod,
                       ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot, ast.In, ast.NotIn})
_LEAVES = ("ctx", "op", "ops")  # fields holding an operator or a context


class UnsafeSource(Exception):
    """Generated source that holds something the generator never writes."""


def _refuse(node, what: str):
    raise UnsafeSource(f"line {getattr(node, 'lineno', '?')}: {what}")


def _constant(node):
    value = node.value
    if value is not None and type(value) not in (int, bool):
        _refuse(node, f"a {type(value).__name__} constant")
    if type(value) is int and not -MAX_INTEGER <= value <= MAX_INTEGER:
        _refuse(node, "an integer out of range")


def _name(node):
    if node.id not in RUNTIME_NAMES and not GENERATED.match(node.id):
        _refuse(node, f"the name '{node.id}' is not generated")


def _function(node):
    if not GENERATED.match(node.name) or node.decorator_list or node.returns:
        _refuse(node, f"the function '{node.name}' is not generated")


def _argument(node):
    if not GENERATED.match(node.arg) or node.annotation is not None:
        _refuse(node, f"the argument '{node.arg}' is not generated")


def _attribute(node):
    if node.attr not in ATTRIBUTES:
        _refuse(node, f"the attribute '{node.attr}' is not generated")


def _keyword(node):
    if node.arg not in KEYWORDS:
        _refuse(node, f"the keyword '{node.arg}' is not generated")


def _handler(node):
    if node.name is not None or not (isinstance(node.type, ast.Name) and node.type.id in ("Stopped", "Won")):
        _refuse(node, "an exception handler that is not generated")


def _raise(node):
    if node.cause is not None or not (isinstance(node.exc, ast.Name) and node.exc.id in ("Stopped", "Won")):
        _refuse(node, "a raise that is not generated")


_CHECKS = {ast.Constant: _constant, ast.Name: _name, ast.FunctionDef: _function, ast.arg: _argument,
           ast.Attribute: _attribute, ast.keyword: _keyword, ast.ExceptHandler: _handler, ast.Raise: _raise}
# per kind of node: its check, the fields to walk into, the fields holding operators
_RULES = {kind: (_CHECKS.get(kind), tuple(f for f in kind._fields if f not in _LEAVES),
                 tuple(f for f in kind._fields if f in _LEAVES)) for kind in NODES}


def verify(source: str) -> ast.Module:
    """The parsed module, if every node is one the generator writes; else UnsafeSource."""
    tree = ast.parse(source, mode="exec")
    rules, operators, node_type = _RULES, OPERATORS, ast.AST
    stack = [tree]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        rule = rules.get(node.__class__)
        if rule is None:
            _refuse(node, f"{type(node).__name__} is not generated")
        check, fields, leaves = rule
        if check is not None:
            check(node)
        for field in leaves:
            value = getattr(node, field)
            for leaf in (value if value.__class__ is list else (value,)):
                if leaf.__class__ not in operators:
                    _refuse(node, f"{type(leaf).__name__} is not generated")
        for field in fields:
            value = getattr(node, field)
            if value.__class__ is list:
                for item in value:
                    if isinstance(item, node_type):
                        push(item)
                    elif item is not None:
                        _refuse(node, f"a {type(item).__name__} in its {field}")
            elif isinstance(value, node_type):
                push(value)
            elif value is not None and type(value) not in (str, int, bool):
                _refuse(node, f"a {type(value).__name__} in its {field}")
    return tree
