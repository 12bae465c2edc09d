"""Generated code, loaded: the direct form of a program as Python functions.

``native(program)`` generates the program's module (codegen.py), verifies it
(verify.py), compiles it and runs it in a namespace holding only the runtime
names the generator uses (no builtins beyond ``range`` and ``len``).  The
result is kept on the program.  A module whose exact text was verified in an
earlier run (verified.py) is compiled without being walked again.
``CRISIS_INTERPRET=1`` in the environment turns generated code off: every game
then runs the operations themselves, which play the same games
(tests/test_generated_code.py).
"""

from __future__ import annotations

import os
from typing import Callable, Dict, Optional

from crisis.interpreter.actions import DONE, Decision

from .codegen import ROOT_CTX, CodeGenerator, roots
from .ops import Stopped, Won
from . import verified
from .verify import verify


class Native:
    """A program's generated functions: ``ENTRY[op id](board, ctx, choose)`` for the ops play starts
    from, written for the root context (ROOT_CTX)."""

    def __init__(self, source: str, constants: tuple, entry: Dict[int, Callable]):
        self.source, self.constants, self.entry = source, constants, entry

    def play(self, op, board, ctx, choose, ask=None) -> bool:
        """Play ``op`` by its generated function; False when it has none (or cannot be used here).
        ``ask(player, actions, spec, remaining, owner, on_behalf, ctx)`` (codegen's ``ask``): what
        ``choose`` answers to the Decision of those fields, for a player that needs no Decision
        (random players); by default one is made and given to ``choose``."""
        function = self.entry.get(op.id)
        if function is None or board.log is not None or board.solo is not None or ctx != ROOT_CTX:
            return False
        board.ask = ask if ask is not None else asking(choose)
        function(board, ctx, choose)
        return True


def asking(choose) -> Callable:
    """``ask`` for a player that is given Decisions: the Decision of the generated code's fields
    (``spec``: kind, optional, hidden, rule, stage and the operation asking, made by the generator)."""
    def ask(player, actions, spec, remaining, owner, on_behalf, ctx):
        kind, optional, hidden, rule, stage, origin = spec
        return choose(Decision(player, kind, actions, optional, remaining, hidden, rule, owner, on_behalf, stage,
                               None if origin is None else (origin, ctx)))
    return ask


def interpreting() -> bool:
    return os.environ.get("CRISIS_INTERPRET", "") not in ("", "0")


def load(source: str, constants) -> dict:
    """The namespace of a generated module (its ``ENTRY`` among its names): verified (or known to
    have been, verified.py), compiled, and run with the constants table ``K`` and the runtime's
    few names, no builtins beyond ``range`` and ``len``."""
    if verified.was_verified(source):  # this very text passed verify in an earlier run (verified.py)
        code = compile(source, "<generated rules>", "exec")
    else:
        code = compile(verify(source), "<generated rules>", "exec")
        verified.remember(source)
    namespace = {"__builtins__": {"range": range, "len": len}, "K": tuple(constants),
                 "Stopped": Stopped, "Won": Won, "Decision": Decision, "DONE": DONE}
    exec(code, namespace)  # the verified module: only generated definitions (verify.py)
    return namespace


def generate(program) -> Native:
    generator = CodeGenerator(program)
    source = generator.module(roots(program))
    return Native(source, tuple(generator.constants), load(source, generator.constants)["ENTRY"])


def native(program) -> Optional[Native]:
    """The program's generated code, made once; None when interpreting."""
    if interpreting():
        return None
    found = getattr(program, "_native", None)
    if found is None:
        found = program._native = generate(program)
    return found
