"""Executable operations: statements compiled for one game, run against positions.

An operation that can never ask a player (``asks`` is False) runs to its end at
once (``run``).  One that may ask keeps where it stands in a frame on the
position's stack -- a list ``[op id, ctx, state...]`` of plain values -- and the
machine (machine.py) steps it: ``step`` goes on from the frame until it needs
a decision (returned), starts a child (pushed), or ends (popped); ``answer``
takes the chosen action.  ``step`` on a frame that waits for a decision only
works the decision out again, so a copied position goes on exactly where its
original stood.
"""

from __future__ import annotations

from typing import NamedTuple, NoReturn, Optional, Sequence

from crisis.interpreter.actions import Action, Decision
from crisis.ruleset import limits
from crisis.ruleset import meaning as M
from crisis.ruleset.walk import meanings
from crisis.ruleset.diagnostics import UserError, diagnostic_at

from .layout import NOBODY
from .position import note

# what a frame waits for
WAITING = -1


class Ctx(NamedTuple):
    """Who is acting, and what the rule is running for.  Immutable; a named tuple because
    effects make many of them and a tuple is the cheapest immutable record to build."""

    me: int
    group: int = -1  # "this dimension"
    place: int = -1  # "this space"
    card: int = -1  # "the card" (of the card kind of the rule)
    reason: str = ""  # what the effect is part of (a card's id, a procedure, a zone entered)
    effect: int = -1  # the stack depth of the effect's frame, for "that space"
    entity: int = -1  # "the unit": the card in play a "for each" over cards in play runs for

    def as_side(self, me: int) -> "Ctx":
        return _new_ctx(Ctx, (me,) + self[1:])


_new_ctx = tuple.__new__


def with_entity(ctx: Ctx, entity: int) -> Ctx:
    """``ctx`` for another card in play ("its", "their"): ``ctx._replace(entity=entity)``, made
    the cheap way (rules that read each card's fields make one per card, per listing)."""
    return _new_ctx(Ctx, ctx[:6] + (entity,))


class Op:
    """An operation; ``id`` is its index in the program's operation list (frames name it)."""

    id = -1
    node = None
    asks = True
    loop = False  # a loop of the rules: its passes are work when its body holds loops (holds_loops)

    def carries_out(self, program):
        """The operations this one may carry out, those of the rules it names included (for
        ``holds_loops``); None when not known, and then it is taken to hold loops."""
        return None

    _multiplies = None

    def multiplies(self, program) -> bool:
        """Whether the passes of this loop are counted as work: its body holds loops."""
        found = self._multiplies
        if found is None:
            found = self._multiplies = any(holds_loops(program, part) for part in self.carries_out(program))
        return found

    def run(self, board, ctx: Ctx) -> None:  # pragma: no cover - ops that ask have no direct run
        raise NotImplementedError

    def begin(self, machine, ctx: Ctx) -> None:
        machine.stack.append([self.id, ctx, 0])

    def step(self, machine, frame: list) -> Optional[Decision]:  # pragma: no cover
        raise NotImplementedError

    def answer(self, machine, frame: list, action: Action) -> Optional[Decision]:  # pragma: no cover
        """Take the chosen action; the next decision if the operation knows it at once, else None."""
        raise NotImplementedError

    def can_act(self, board, ctx: Ctx) -> bool:  # pragma: no cover
        raise NotImplementedError

    def play(self, board, ctx: Ctx, choose) -> None:
        """The direct form: carry the operation out to its end, asking ``choose(decision)`` for each
        decision (bots and batch play: no frames).  The same decisions, in the same order, with the
        same actions as the framed form; every operation that may ask has a direct form of its own."""
        if self.asks:
            raise NotImplementedError(f"{type(self).__name__} has no direct form")
        self.run(board, ctx)


class Stopped(Exception):
    """"stop" in the direct form: the loop it stands in ends."""


class Won(Exception):
    """"you win" in the direct form: the game ends at once."""


# ------------------------------------------------------------------ the work budget
#
# Between two decisions the engine counts its work (docs/limits.md), in every form alike
# (framed, direct, generated), so that a rule gets the same error wherever it runs:
#
# - a pass of a loop whose body holds loops (holds_loops): "for each player" (and its test
#   whether it can be carried out) and players alternating (N turns each), counted when they
#   start; "for each" place, "for each" counter and "repeat while", counted at each pass;
# - a position a goal's search looks at, and a look-ahead on a copy (LOOK, besides its work).
#
# Work multiplies only through loops inside loops, searches and look-aheads, so only they are
# counted: what a statement does (a transfer's token steps...) is bounded by the content's
# numbers, and so is the work of a loop with no loop inside, each time the loop around it goes
# round.  A game does little counting that way (Fort Sumter: about a dozen a game).
#
# What is left is kept on the board (``board.meter[0]``, one list shared by the boards of the
# look-aheads and searches made from it), set to MAX_WORK_BETWEEN_DECISIONS at each decision; a
# rule that takes it below 0 stops the game with RuleWorkError, at its statement.  Loops go
# round at most as often as the content's check assumes (ruleset/bound.py): "repeat while"
# MAX_REPEATS times, "for each" counter once per value of the counter, players alternating N
# turns each; one that would go round again stops the game the same way.

LOOK = 50  # a look-ahead on a copy of the position, besides its own work (as ruleset/bound.py)
WORK_HINT = "crisis check should have refused this rule: please report it"
LOOP_HINT = ("a loop of the sequence of play goes round at most once for each value of its counter, "
             f"or {limits.MAX_REPEATS:,} times for 'repeat while' (docs/limits.md)")


class RuleWorkError(UserError):
    """A rule did more work between two decisions than any rule ``crisis check`` accepts can, or
    a loop would go round more often than its bound: the game stops there (docs/limits.md)."""

    @classmethod
    def work(cls, board, node) -> "RuleWorkError":
        return cls.at(board.program, node, f"the rule did more than {limits.MAX_WORK_BETWEEN_DECISIONS:,} steps of "
                                           f"work without a decision, so the game stops here", WORK_HINT)

    @classmethod
    def at(cls, program, node, message: str, hint: str) -> "RuleWorkError":
        """The error at ``node``'s first word in its file, when the content's rules hold it."""
        found = _source_holding(program, node)
        syntax = getattr(node, "node", None)
        if isinstance(node, M.Block) and node.statements:
            syntax = getattr(node.statements[0], "node", None)
        pos = getattr(syntax, "pos", None)
        if found is None or pos is None:
            return cls(f"a rule: {message}")
        return cls(diagnostic_at(found, pos.line, pos.column, message, hint=hint))


def _source_holding(program, node):
    """Where the text of the rule holding ``node`` is (its source), or None."""
    if node is None:
        return None
    for rule, source in getattr(getattr(program, "definition", None), "sources", ()):
        if any(found is node for found in meanings(rule)):
            return source
    return None


def holds_loops(program, op) -> bool:
    """Whether carrying out ``op`` may run a loop, in itself or in a rule it carries out (a
    procedure, a card's rule, the solo game's rules in their place...).  Work multiplies only
    through loops inside loops, so only a loop whose body holds loops counts its passes: the
    others do a bounded amount of work each time the loop around them (counted) goes round."""
    known = program.__dict__.get("_holds_loops")
    if known is None:
        known = program.__dict__["_holds_loops"] = {}
    found = known.get(id(op))
    if found is None:
        found = known[id(op)] = _holds_loops(program, op)
    return found


def _holds_loops(program, op) -> bool:
    seen, stack = set(), [op]
    while stack:  # every operation reachable from it, without recursion
        found = stack.pop()
        if found is None or id(found) in seen:
            continue
        seen.add(id(found))
        parts = found.carries_out(program)
        if found.loop or parts is None:
            return True
        stack.extend(parts)
    return False


def spend(board, node, steps: int = 1) -> None:
    """Count ``steps`` of work against what is left until the next decision."""
    meter = board.meter
    meter[0] -= steps
    if meter[0] < 0:
        raise RuleWorkError.work(board, node)


def overspent(board, node) -> NoReturn:
    """The work left went below 0 at ``node`` (generated code counts in place, and calls this)."""
    raise RuleWorkError.work(board, node)


def decided(board) -> None:
    """A decision was made: the work of what follows is counted from nothing."""
    board.meter[0] = limits.MAX_WORK_BETWEEN_DECISIONS


def play(op: Op, board, ctx: Ctx, choose) -> None:
    if op.asks:
        op.play(board, ctx, choose)
    else:
        op.run(board, ctx)


def call(machine, op: Op, ctx: Ctx) -> None:
    """Carry out ``op``: at once if it never asks, else as a new frame."""
    if op.asks:
        op.begin(machine, ctx)
    else:
        op.run(machine.board, ctx)


class BlockOp(Op):
    def __init__(self, ops: Sequence[Op], node=None):
        self.ops = tuple(ops)
        self.node = node
        self.asks = any(op.asks for op in self.ops)

    def carries_out(self, program):
        return self.ops

    def run(self, board, ctx):
        for op in self.ops:
            op.run(board, ctx)

    def begin(self, machine, ctx):
        if len(self.ops) == 1:  # nothing to sequence: no frame of its own
            self.ops[0].begin(machine, ctx)
        else:
            machine.stack.append([self.id, ctx, 0])

    def step(self, machine, frame):
        # frame: [id, ctx, next statement]
        ops, ctx = self.ops, frame[1]
        stack = machine.stack
        depth = len(stack)
        while frame[2] < len(ops):
            op = ops[frame[2]]
            frame[2] += 1
            if op.asks:
                op.begin(machine, ctx)
                if len(stack) != depth or stack[-1] is not frame:  # a child goes on, or a loop was left
                    return None
            else:
                op.run(machine.board, ctx)
        stack.pop()
        return None

    def can_act(self, board, ctx):
        return any(op.can_act(board, ctx) for op in self.ops)

    def play(self, board, ctx, choose):
        for op in self.ops:
            if op.asks:
                op.play(board, ctx, choose)
            else:
                op.run(board, ctx)


class EffectOp(Op):
    """A whole effect that says "that space": its frame remembers the place each step chooses."""

    def __init__(self, block: BlockOp):
        self.block, self.node = block, block.node
        self.asks = True

    def carries_out(self, program):
        return (self.block,)

    def begin(self, machine, ctx):
        # frame: [id, ctx, started, chosen place]
        machine.stack.append([self.id, ctx, 0, NOBODY])

    def step(self, machine, frame):
        if frame[2]:
            machine.stack.pop()
            return None
        frame[2] = 1
        call(machine, self.block, frame[1]._replace(effect=len(machine.stack) - 1))
        return None

    def can_act(self, board, ctx):
        return self.block.can_act(board, ctx)

    def play(self, board, ctx, choose):
        stack = board.position.stack
        stack.append([-1, ctx, 1, NOBODY])  # the effect's chosen place, where "that space" reads it
        depth = len(stack) - 1
        try:
            play(self.block, board, ctx._replace(effect=depth), choose)
        finally:
            del stack[depth:]


def choose_place(machine_or_board, ctx: Ctx, place: int) -> None:
    """Remember the place a step chose, for "that space" later in the same effect."""
    if ctx.effect >= 0:
        machine_or_board.position.stack[ctx.effect][3] = place


def chosen_place(board, ctx: Ctx) -> int:
    if ctx.effect < 0 or ctx.effect >= len(board.position.stack):
        return NOBODY
    return board.position.stack[ctx.effect][3]


class IfOp(Op):
    def __init__(self, condition, then: BlockOp, otherwise: Optional[BlockOp], node=None, trace: bool = False):
        self.condition, self.then, self.otherwise, self.node = condition, then, otherwise, node
        self.asks = then.asks or (otherwise is not None and otherwise.asks)
        self.trace = trace  # log the test and its answer (the solo opponent's procedures explain themselves)

    def carries_out(self, program):
        return (self.then, self.otherwise)

    def _branch(self, board, ctx):
        holds = self.condition(board, ctx, NOBODY)
        if self.trace and board.log is not None:
            board.emit("log.solo.if", side=board.program.schema.sides[ctx.me], rule=self.node.condition
                       if self.node is not None else None, holds=holds)
        return self.then if holds else self.otherwise

    def run(self, board, ctx):
        branch = self._branch(board, ctx)
        if branch is not None:
            branch.run(board, ctx)

    def step(self, machine, frame):
        machine.stack.pop()
        branch = self._branch(machine.board, frame[1])
        if branch is not None:
            call(machine, branch, frame[1])
        return None

    def can_act(self, board, ctx):
        branch = self.then if self.condition(board, ctx, NOBODY) else self.otherwise
        return branch is not None and branch.can_act(board, ctx)

    def play(self, board, ctx, choose):
        branch = self._branch(board, ctx)
        if branch is not None:
            play(branch, board, ctx, choose)


class EitherOp(Op):
    """Exclusive options.  An option that would change nothing cannot be chosen while another
    would change something (docs/rulings.md)."""

    def __init__(self, options: Sequence[BlockOp], node=None, actions: Sequence[Action] = ()):
        self.options, self.node = tuple(options), node
        self.actions = tuple(actions)

    def carries_out(self, program):
        return self.options

    def possible(self, board, ctx):
        return [index for index, option in enumerate(self.options) if option.can_act(board, ctx)]

    def step(self, machine, frame):
        # frame: [id, ctx, stage]; stage 0: not yet looked; WAITING: asking
        ctx = frame[1]
        board = machine.board
        if frame[2] == WAITING:
            return self.decision(board, ctx, self.possible(board, ctx))
        possible = self.possible(board, ctx)
        if not possible:
            board.shortfall += 1
            machine.stack.pop()
            return None
        if len(possible) == 1:
            machine.stack.pop()
            call(machine, self.options[possible[0]], ctx)
            return None
        frame[2] = WAITING
        return self.decision(board, ctx, possible)

    def decision(self, board, ctx, possible):
        return Decision(ctx.me, "option", [self.actions[i] for i in possible], False, 0, False, self.node,
                        origin=(self, ctx))

    def answer(self, machine, frame, action):
        machine.stack.pop()
        call(machine, self.options[action.a], frame[1])

    def can_act(self, board, ctx):
        return any(option.can_act(board, ctx) for option in self.options)

    def play(self, board, ctx, choose):
        possible = self.possible(board, ctx)
        if not possible:
            board.shortfall += 1
            return
        index = possible[0] if len(possible) == 1 else choose(self.decision(board, ctx, possible)).a
        play(self.options[index], board, ctx, choose)


class EachPlayerOp(Op):
    """Run for each player, in turn order (first player first); the body's "you" is that player.
    With ``who``, only the players for whom it held before any ran."""

    loop = True

    def __init__(self, body: Op, node=None, who=None):
        self.body, self.node, self.who = body, node, who
        self.asks = body.asks or who is not None

    def carries_out(self, program):
        return (self.body,)

    def sides(self, board, ctx):
        order = board.order()
        if self.who is not None:
            order = tuple(side for side in order if self.who(board, ctx.as_side(side), NOBODY))
        return order

    def run(self, board, ctx):
        sides = self.sides(board, ctx)
        if self.multiplies(board.program):
            spend(board, self.node, len(sides))  # a pass for each
        for side in sides:
            self.body.run(board, ctx.as_side(side))

    def begin(self, machine, ctx):
        # frame: [id, ctx, sides (worked out when it starts), next]
        board = machine.board
        sides = self.sides(board, ctx)
        if self.multiplies(board.program):
            spend(board, self.node, len(sides))
        machine.stack.append([self.id, ctx, sides, 0])

    def step(self, machine, frame):
        sides = frame[2]
        if frame[3] >= len(sides):
            machine.stack.pop()
            return None
        side = sides[frame[3]]
        frame[3] += 1
        call(machine, self.body, frame[1].as_side(side))
        return None

    def can_act(self, board, ctx):
        if self.multiplies(board.program):
            spend(board, self.node, board.sides)
        return any(self.body.can_act(board, ctx.as_side(side)) for side in range(board.sides))

    def play(self, board, ctx, choose):
        body = self.body
        sides = self.sides(board, ctx)
        if self.multiplies(board.program):
            spend(board, self.node, len(sides))
        for side in sides:
            play(body, board, ctx.as_side(side), choose)


class ActingOp(Op):
    """A statement carried out by another player: the opponent, the first player, a register's side."""

    def __init__(self, body: Op, who, node=None):
        self.body, self.who, self.node = body, who, node  # who: (board, ctx) -> side
        self.asks = body.asks
        self.first = getattr(node, "actor", None) == "first"  # "the first player ...": noted for records

    def carries_out(self, program):
        return (self.body,)

    def actor(self, board, ctx) -> int:
        side = self.who(board, ctx)
        if self.first:
            note(board, self.id, side)
        return side

    def run(self, board, ctx):
        self.body.run(board, ctx.as_side(self.actor(board, ctx)))

    def step(self, machine, frame):
        machine.stack.pop()
        call(machine, self.body, frame[1].as_side(self.actor(machine.board, frame[1])))
        return None

    def can_act(self, board, ctx):
        return self.body.can_act(board, ctx.as_side(self.who(board, ctx)))

    def play(self, board, ctx, choose):
        play(self.body, board, ctx.as_side(self.actor(board, ctx)), choose)


class CounterOp(Op):
    """Gain or lose on a counter ("gain 1 VP for each dimension you control"), add to one, set one."""

    asks = False

    def __init__(self, counter: int, amount, sign: int, per, side, node=None, set_to: bool = False,
                 each_side: bool = False):
        self.counter, self.amount, self.sign, self.per, self.side = counter, amount, sign, per, side
        self.node, self.set_to, self.each_side = node, set_to, each_side

    def carries_out(self, program):
        return ()

    def delta(self, board, ctx) -> int:
        count = 1 if self.per is None else self.per(board, ctx, NOBODY)
        return self.amount(board, ctx, NOBODY) * count * self.sign

    def run(self, board, ctx):
        side = self.side(board, ctx) if self.side is not None else 0
        if self.set_to:
            value = self.amount(board, ctx, NOBODY)
            if not board.program.schema.counters[self.counter].each_side:  # one counter of the game
                board.change_counter(self.counter, 0, value - board.counter(self.counter), ctx.reason, True)
                return
            for s in range(board.sides) if self.each_side else (side,):
                board.change_counter(self.counter, s, value - board.counter(self.counter, s), ctx.reason, True)
            return
        board.change_counter(self.counter, side, self.delta(board, ctx), ctx.reason)

    def can_act(self, board, ctx):
        if self.set_to:
            return True
        side = self.side(board, ctx) if self.side is not None else 0
        delta = self.delta(board, ctx)
        declared = board.program.schema.counters[self.counter]
        value = board.counter(self.counter, side if declared.each_side else 0)
        return (delta > 0 and value < declared.high) or (delta < 0 and value > declared.low)


class RegisterOp(Op):
    """"set the leader to the first player"."""

    asks = False

    def __init__(self, register: int, node=None):
        self.register, self.node = register, node

    def carries_out(self, program):
        return ()

    def run(self, board, ctx):
        board.values[board.layout.register[self.register]] = board.first_player()

    def can_act(self, board, ctx):
        return True


class PlaceMarkerOp(Op):
    def __init__(self, marker: int, places, node=None):
        self.marker, self.places, self.node = marker, places, node

    def carries_out(self, program):
        return ()

    def step(self, machine, frame):
        # frame: [id, ctx, stage]
        board, ctx = machine.board, frame[1]
        places = self.places(board, ctx, NOBODY)
        if frame[2] == WAITING:
            return self.decision(board, ctx, places)
        if not places:
            board.shortfall += 1
            machine.stack.pop()
            return None
        if len(places) == 1:
            machine.stack.pop()
            self.put(machine, ctx, places[0])
            return None
        frame[2] = WAITING
        return self.decision(board, ctx, places)

    def decision(self, board, ctx, places):
        marker = board.program.actions.marker
        return Decision(ctx.me, "marker", [marker(self.marker, p) for p in places], rule=self.node)

    def answer(self, machine, frame, action):
        machine.stack.pop()
        self.put(machine, frame[1], action.a)

    def play(self, board, ctx, choose):
        places = self.places(board, ctx, NOBODY)
        if not places:
            board.shortfall += 1
            return
        place = places[0] if len(places) == 1 else choose(self.decision(board, ctx, places)).a
        self.put_on(board, ctx, place)

    def put(self, machine, ctx, place):
        self.put_on(machine.board, ctx, place)

    def put_on(self, board, ctx, place):
        board.values[board.layout.marker + self.marker] = place
        choose_place(board, ctx, place)
        board.emit("log.marker", side=board.program.schema.sides[ctx.me],
                   marker=board.program.schema.markers[self.marker].name, space=board.program.schema.map.places[place])

    def can_act(self, board, ctx):
        return bool(self.places(board, ctx, NOBODY))


class RemoveMarkerOp(Op):
    asks = False

    def __init__(self, marker: int, node=None):
        self.marker, self.node = marker, node

    def carries_out(self, program):
        return ()

    def run(self, board, ctx):
        offset = board.layout.marker + self.marker
        if board.values[offset] != NOBODY:
            board.values[offset] = NOBODY
            board.emit("log.marker_removed", marker=board.program.schema.markers[self.marker].name)

    def can_act(self, board, ctx):
        return board.values[board.layout.marker + self.marker] != NOBODY
