"""'Spaces where placing a token there would give you control of it': the Solo Opponent Aid asks
it of every legal space at every choice, so the engine compares the tokens directly; it must
answer as the general form of the condition does, on any position."""

import random

import attrs

from crisis.interpreter.engine.board import Board
from crisis.interpreter.engine.compiler import Compiler
from crisis.interpreter.engine.ops import Ctx
from crisis.interpreter.engine.program import program_of
from crisis.ruleset import meaning as M


class GeneralForm(Compiler):
    def _would_here(self, node):
        return None


def conditions(definition):
    found = []

    def walk(node):
        if isinstance(node, M.Would):
            found.append(node)
        for field in attrs.fields(type(node)):
            value = getattr(node, field.name) if field.name != "node" else None
            for item in value if isinstance(value, tuple) else (value,):
                if attrs.has(type(item)):
                    walk(item)
    for tables in definition.overlay.aids.values():
        for rows in tables.values():
            for row in rows:
                walk(row.places)
    return found


def test_would_is_answered_as_the_general_form_does(content):
    program = program_of(content)
    found = conditions(content.definition)
    fast, general = Compiler(program), GeneralForm(program)
    assert sum(fast._would_here(w) is not None for w in found) >= 8  # the aid's rows take the direct way
    position = program.initial_position(1)
    board, layout, rng = Board(program, position), program.layout, random.Random(5)
    for _ in range(300):
        for side in range(2):
            for place in range(layout.places):
                position.values[layout.tokens_of(side) + place] = rng.randint(0, 4)
        before = list(position.values)
        for would in found:
            a, b = fast.cond_Would(would), general.cond_Would(would)
            for me in (0, 1):
                for place in range(layout.places):
                    assert a(board, Ctx(me), place) == b(board, Ctx(me), place), (would.node, me, place)
        assert position.values == before
