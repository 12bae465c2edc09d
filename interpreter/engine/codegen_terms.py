"""Generated code, part four: what the bots' evaluation reads of the rules, written out as Python.

The evaluation (players/evaluation.py) judges a position by terms; most are sums it works out
itself, but some are the rules' own words: a condition ("you control your objective space"), a
number, or the VP a procedure would give if it were carried out now ("final scoring"). Those are
compiled closures, called for each side at every position a bot judges. Here each becomes a
function of ``(board, side)`` in a small module of its own, written with the same expressions as
the rules' generated code (codegen_values.py) and checked and compiled the same way (native.py:
verify.py first, then a namespace without builtins; docs/limits.md).

The evaluation's weighted sum of the terms that count at a kind of moment is one more function
(``WeightedSum``), in a game of two: the shapes the evaluation works out itself (a count's
difference, the places and groups held, the capped leads) are written in place on the token
counts, the other terms called, each added in the evaluation's order to a total that starts at
0.0, so the total is the same to the last bit.

A condition or a number is written only where it has a template as a whole (else its closure
stays: a function that only called it would cost a call more). A projection is written for rules
that merely add to the side's score under tests (the evaluation's "linear" projection), gain by
gain in the order the closures work them out, so both give the same number; a test or an amount
without a template calls its closure there.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import attrs

from .codegen import CodeGenerator
from .codegen_values import DEFAULTS, MAX_INTEGER, Scope, Unsupported


@attrs.frozen
class ValueTerm:
    """A condition (1 where it holds, else 0) or a number, for "you" as the side given."""
    kind: str  # "condition" | "number"
    meaning: object  # the checked condition or number (ruleset/meaning.py)
    difference: bool  # also written: the side's value less the other's (a game of two)


@attrs.frozen
class Gain:
    """A change of the score the projection counts: added when every test holds."""
    tests: Tuple[tuple, ...]  # (condition meaning or None, its closure, negated)
    op: object  # the CounterOp (ops.py) that adds it: amount, per and sign


@attrs.frozen
class ProjectionTerm:
    """The VP the gains would give the side now, each added within the score's bounds."""
    gains: Tuple[Gain, ...]
    score: int  # the offset of the score kept per side
    low: int
    high: int
    difference: bool


@attrs.frozen
class WeightedSum:
    """The evaluation's weighted sum, for a game of two: each part (weight, shape, difference)
    adds ``weight * difference(board, side)`` in turn to a total that starts at 0.0, as the
    evaluation's loop does.  Where the shape is one of these, the difference is worked out in
    place instead, the side's value less the other's -- ("pair", base, stride): two numbers
    ``stride`` apart; ("groups",): the groups of places led in every place, less those trailed
    in every place; ("places", codes): the places led, less those trailed; ("lead", cap): each
    place's lead, at most ``cap`` either way; any other shape (or None): the function is called."""
    parts: Tuple[Tuple[float, Optional[tuple], object], ...]
    difference = False  # a total for the side given, never the difference of two totals


def terms_module(program, terms: List[object]) -> Tuple[str, tuple, Dict[int, str]]:
    """(source, constants, {index of a term written: its function's name}) for ``terms``
    (ValueTerm, ProjectionTerm or WeightedSum); the source ends with ``ENTRY``, index -> function."""
    gen = CodeGenerator(program)
    out = gen.out
    written: Dict[int, str] = {}
    for index, term in enumerate(terms):
        start = len(out.lines)
        try:
            written[index] = _function(gen, term)
        except Unsupported:
            del out.lines[start:]
            out.depth = 0
    out.line("ENTRY = {" + ", ".join(f"{gen.integer(index)}: {name}" for index, name in written.items()) + "}")
    return out.text(), tuple(gen.constants), written


def _function(gen: CodeGenerator, term) -> str:
    out = gen.out
    name, side = gen.name("e"), gen.name("s")
    out.line(f"def {name}(board, {side}):")
    out.indent()
    out.line("V = board.values")
    scope = Scope(gen, f"{gen.contexts_by_side(DEFAULTS)}[{side}]", side, dict(DEFAULTS), slot=out.slot())
    if isinstance(term, ProjectionTerm):
        _projection(gen, term, scope)
    elif isinstance(term, WeightedSum):
        _sum(gen, term, side)
    else:
        out.line(f"return {_value(gen, term, scope)}")
    out.dedent()
    out.line("")
    if not term.difference:
        return name
    if gen.sides != 2:
        raise Unsupported("a difference between more than two sides")
    difference, side = gen.name("e"), gen.name("s")
    out.line(f"def {difference}(board, {side}):")
    out.line(f"    return {name}(board, {side}) - {name}(board, {gen.other(side)})")
    out.line("")
    return difference


def _value(gen: CodeGenerator, term: ValueTerm, scope: Scope) -> str:
    """The term's expression; Unsupported where it has no template as a whole (its closure,
    called through a function of this module, would only cost a call more)."""
    if term.kind == "condition":
        test = gen.condition(term.meaning, scope, "-1")
        if test is True or test is False:
            return "1" if test else "0"
        return f"1 if {gen.paren(test)} else 0"
    if term.kind != "number":
        raise Unsupported(term.kind)
    return gen.number(term.meaning, scope, "-1")


def _projection(gen: CodeGenerator, term: ProjectionTerm, scope: Scope) -> None:
    out = gen.out
    before, total, delta = gen.name("t"), gen.name("t"), gen.name("t")
    low, high = gen.integer(term.low), gen.integer(term.high)
    out.line(f"{before} = V[{gen.offset(term.score, scope.me)}]")
    out.line(f"{total} = {before}")
    for gain in term.gains:
        tests = []
        for node, closure, negated in gain.tests:
            test = gen.test(closure, node, scope, "-1")
            tests.append(gen.negate(test) if negated else test)
        held = gen.all_of(tests)
        if held is False:
            continue
        op = gain.op
        node = op.node
        amount = gen.number_or_call(op.amount, getattr(node, "amount", None), scope, "-1")
        per = "1" if op.per is None else gen.number_or_call(op.per, getattr(node, "per", None), scope, "-1")
        change = gen.times(gen.times(amount, per), gen.integer(op.sign))
        if held is not True:
            out.line(f"if {held}:")
            out.indent()
        # op.delta added, then held within the bounds: max(low, min(high, total + delta))
        out.line(f"{delta} = {total} + {gen.paren(change)}")
        out.line(f"{total} = {low} if {delta} < {low} else ({high} if {delta} > {high} else {delta})")
        if held is not True:
            out.dedent()
    out.line(f"return {total} - {before}")


def _sum(gen: CodeGenerator, term: WeightedSum, side: str) -> None:
    out, layout = gen.out, gen.program.layout
    if gen.sides != 2:
        raise Unsupported("a sum for more than two sides")
    tokens, n = layout.tokens, layout.places
    other = gen.other(side)
    total, lead, ahead = gen.name("t"), gen.name("t"), gen.name("d")
    out.line(f"{total} = {gen.const(0.0)}")
    if tokens >= 0:  # where each side's tokens in places start: "V[i5 + 3]", the side's in place 3
        mine, theirs = gen.name("i"), gen.name("i")
        out.line(f"{mine} = {gen.add(gen.integer(tokens), gen.times(side, gen.integer(n)))}")
        out.line(f"{theirs} = {gen.add(gen.integer(tokens), gen.times(other, gen.integer(n)))}")

    def tokens_at(start: str, place: int) -> str:
        return f"V[{gen.add(start, gen.integer(place))}]"

    for weight, part, difference in term.parts:
        shape = part[0] if part else None
        if shape == "pair":
            _, base, stride = part
            worked = (f"V[{gen.add(gen.integer(base), gen.times(side, gen.integer(stride)))}] - "
                      f"V[{gen.add(gen.integer(base), gen.times(other, gen.integer(stride)))}]")
        elif shape == "groups" and tokens >= 0:
            counted = []
            for places in gen.program.group_places:
                leads = gen.all_of([f"{tokens_at(mine, p)} > {tokens_at(theirs, p)}" for p in places])
                trails = gen.all_of([f"{tokens_at(theirs, p)} > {tokens_at(mine, p)}" for p in places])
                counted.append(f"(1 if {gen.paren(leads)} else (-1 if {gen.paren(trails)} else 0))")
            worked = " + ".join(counted) if counted else "0"
        elif shape == "places" and tokens >= 0:
            worked = " + ".join(f"(({tokens_at(mine, p)} > {tokens_at(theirs, p)}) - "
                                f"({tokens_at(theirs, p)} > {tokens_at(mine, p)}))" for p in part[1]) or "0"
        elif shape == "lead" and tokens >= 0 and part[1] <= MAX_INTEGER:
            cap = gen.integer(part[1])
            out.line(f"{lead} = 0")
            for place in range(n):  # each place's lead, at most the cap either way
                out.line(f"{ahead} = {tokens_at(mine, place)} - {tokens_at(theirs, place)}")
                out.line(f"{lead} += {ahead} if -{cap} < {ahead} < {cap} else ({cap} if {ahead} > 0 else -{cap})")
            worked = lead
        else:
            worked = f"{gen.const(difference)}(board, {side})"
        out.line(f"{total} += {gen.const(weight)} * {gen.paren(worked)}")
    out.line(f"return {total}")


def load_terms(program, terms: List[object]) -> Dict[int, object]:
    """The functions of ``terms`` that could be written, by index (the caller decides whether
    code is generated at all: ``CRISIS_INTERPRET=1``)."""
    from .native import load
    source, constants, written = terms_module(program, terms)
    if not written:
        return {}
    return dict(load(source, constants)["ENTRY"])
