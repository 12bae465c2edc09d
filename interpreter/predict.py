"""What a rule would do, found by carrying it out on a copy of the position.

The language's predicates about effects ("would place or remove pieces",
"can be carried out fully", the lines of a priority list) are answered here,
the same way for every rule: run it on a copy, with no log, and look at what
changed.  Choices met on the way are made as they would be in play when the
engine makes them (the solo opponent's resolver); a person's choices are
imagined as the first legal one that is not "stop here".
"""

from __future__ import annotations

import attrs

from .actions import DONE
from crisis.ruleset.cost import LOOK

from .compile import Executor, decisions

MAX_DECISIONS = 500  # rules are short; the bound keeps a faulty rule from running away


@attrs.frozen
class Outcome:
    acted: bool  # anything changed: tokens anywhere, markers, VP
    pieces: bool  # pieces on the map changed: tokens in spaces, or markers
    shortfall: int  # token steps (and other effects) that could not be taken


def predict(ex: Executor, op, ctx) -> Outcome:
    solo = ex.solo
    state = solo.public_copy(ex.state) if solo is not None else ex.state.copy()
    sim = Executor(ex.tables, state, None, solo)
    sim.work = ex.work  # the look-ahead is part of the work of the rule that asks for it
    sim.charge(LOOK, op.node, ctx)
    if ctx.chosen is not None:  # "that space" is remembered in the context: the copy keeps its own
        ctx = ctx._replace(chosen=list(ctx.chosen))
    before = (_map(state), list(state.pool), list(state.track), [list(b) for b in state.boxes], list(state.vp))
    run = decisions(op, sim, ctx)
    action = None
    for _ in range(MAX_DECISIONS):
        try:
            decision = run.send(action) if action is not None else next(run)
        except StopIteration:
            break
        if solo is not None and decision.player == solo.side:
            action = solo.choose(sim, decision, explain=False)
        else:
            action = next((a for a in decision.actions if a is not DONE), DONE)
    ex.work = sim.work
    pieces = _map(state) != before[0]
    acted = pieces or (list(state.pool), list(state.track), [list(b) for b in state.boxes],
                       list(state.vp)) != before[1:]
    return Outcome(acted, pieces, sim.shortfall)


def _map(state):
    return ([list(t) for t in state.tokens], list(state.markers))
