"""Priority lists ("first of") and goals ("so that ... :").

A priority list carries out its first option that can be carried out fully, or,
if none can, the first that can be carried out at all (docs/rulings.md).  A
goal takes its token steps only in a way that makes the change happen: at
each step only the choices from which the change can still be made (with as
few steps short as possible) are offered; the search is over the goal's own
steps, on a copy of the position, so it is small and bounded.
"""

from __future__ import annotations

from typing import Optional, Sequence

from crisis.interpreter.actions import DONE

from .layout import NOBODY
from .machine import Outcome, predict
from .ops import BlockOp, Op, call, play, spend
from .transfer import ASKED, ASKED_WHICH, LOOP


class FirstOfOp(Op):
    def __init__(self, options: Sequence[BlockOp], node=None):
        self.options, self.node = tuple(options), node

    def carries_out(self, program):
        return self.options

    def pick(self, board, ctx):
        """(index of the option to carry out or None, what was found of each option tried)."""
        found, partial = [], None
        for index, option in enumerate(self.options):
            ops = option.ops if isinstance(option, BlockOp) else (option,)
            if len(ops) == 1 and isinstance(ops[0], GoalOp):
                # a goal's own search says how far it can be carried out: no need to play it out
                best = ops[0].shortfall(board, ctx)
                outcome = None if best is None else Outcome(True, True, best)
            else:
                outcome = predict(board, option, ctx) if option.can_act(board, ctx) else None
            if outcome is None or not outcome.acted:
                found.append("none")
            elif outcome.shortfall == 0:
                found.append("full")
                return index, found
            else:
                found.append("part")
                partial = index if partial is None else partial
        return partial, found

    def step(self, machine, frame):
        board, ctx = machine.board, frame[1]
        machine.stack.pop()
        index, found = self.pick(board, ctx)
        if board.log is not None:
            board.emit("log.solo.first_of", side=board.program.schema.sides[ctx.me], rule=self.node, found=found,
                       chosen=index)
        if index is None:
            board.shortfall += 1
            return None
        call(machine, self.options[index], ctx)
        return None

    def can_act(self, board, ctx):
        return any(option.can_act(board, ctx) for option in self.options)

    def play(self, board, ctx, choose):
        index, found = self.pick(board, ctx)
        if board.log is not None:
            board.emit("log.solo.first_of", side=board.program.schema.sides[ctx.me], rule=self.node, found=found,
                       chosen=index)
        if index is None:
            board.shortfall += 1
            return
        play(self.options[index], board, ctx, choose)


class GoalOp(Op):
    def __init__(self, change, steps: Sequence[Op], node=None):
        self.change, self.steps, self.node = change, tuple(steps), node

    def carries_out(self, program):
        return ()  # token steps; its search counts each position it looks at

    # frame: [id, ctx, before, index, step, total, counts, stage, which, the steps offered (or None)]
    def begin(self, machine, ctx):
        machine.stack.append([self.id, ctx, None, 0, 0, 0, (), 0, -1, None])

    def step(self, machine, frame):
        board, ctx = machine.board, frame[1]
        if frame[7] in (ASKED, ASKED_WHICH):
            good, total = self.good(board, frame)
            op = self.steps[frame[3]]
            return op.ask(board, ctx, good, op.owners(ctx.me), DONE in good, total - frame[4], frame[7], frame[8])
        if not frame[7]:
            frame[7] = LOOP
            frame[2] = self.change.before(board, ctx, NOBODY)
            if self.search(board, ctx, frame[2]).best(0, 0, ()) is None:
                board.shortfall += 1
                machine.stack.pop()
                return None
            frame[5] = self.steps[0].total(board, ctx) if self.steps else 0
        while frame[3] < len(self.steps):
            if frame[4] >= frame[5]:
                self.next_statement(board, frame)
                continue
            good, total = self.good(board, frame)
            if not good or good == [DONE]:
                board.shortfall += total - frame[4]
                self.next_statement(board, frame)
                continue
            op = self.steps[frame[3]]
            action = op.auto(board, good)
            if action is not None:
                self.take(board, frame, action)
                continue
            frame[7], frame[8], frame[9] = ASKED, -1, good  # kept for the answer: the same steps
            return op.ask(board, ctx, good, op.owners(ctx.me), DONE in good, total - frame[4], ASKED, -1)
        machine.stack.pop()
        return None

    def next_statement(self, board, frame):
        frame[3] += 1
        frame[4], frame[6] = 0, ()
        if frame[3] < len(self.steps):
            frame[5] = self.steps[frame[3]].total(board, frame[1])

    def good(self, board, frame):
        """The steps from which the change can still be made with as few steps short as possible
        ("done" among them when stopping is as good), and the statement's total; as worked out when
        the step was offered, while the frame waits for its answer."""
        if len(frame) > 9 and frame[9] is not None:
            return frame[9], frame[5]
        return self.good_at(board, frame[1], frame[2], frame[3], frame[4], frame[6], frame[5]), frame[5]

    def good_at(self, board, ctx, before, index, step, counts, total):
        op = self.steps[index]
        search = self.search(board, ctx, before)
        best = search.best(index, step, counts)
        # steps, not legal: the solo opponent's own tokens go only where it may put them (Room,
        # Available), in a goal as anywhere (docs/rulings.md, S7)
        legal = op.steps(board, ctx, op.owners(ctx.me), counts)
        good = [a for a in legal if search.after(index, step, counts, a) == best]
        if (op.amount != "exactly" or not legal) and search.stopping(index, step, total) == best:
            good.append(DONE)
        return good

    def play(self, board, ctx, choose):
        before = self.change.before(board, ctx, NOBODY)
        if self.search(board, ctx, before).best(0, 0, ()) is None:
            board.shortfall += 1
            return
        for index, op in enumerate(self.steps):
            total = op.total(board, ctx)
            owners = op.owners(ctx.me)
            counts: tuple = ()
            for k in range(total):
                good = self.good_at(board, ctx, before, index, k, counts, total)
                if not good or good == [DONE]:
                    board.shortfall += total - k
                    break
                action = op.auto(board, good)
                if action is None:
                    action = choose(op.ask(board, ctx, good, owners, DONE in good, total - k, ASKED, -1))
                    step, which = op.interpret(good, action, ASKED)
                    action = step if step is not None else choose(
                        op.ask(board, ctx, good, owners, DONE in good, total - k, ASKED_WHICH, which))
                if action is DONE:
                    board.shortfall += total - k
                    break
                counts = op.apply(board, ctx, owners, action, counts)

    def take(self, board, frame, action):
        op = self.steps[frame[3]]
        if action is DONE:
            board.shortfall += frame[5] - frame[4]
            self.next_statement(board, frame)
            return
        frame[6] = op.apply(board, frame[1], op.owners(frame[1].me), action, frame[6])
        frame[4] += 1

    def answer(self, machine, frame, action):
        board = machine.board
        good, _ = self.good(board, frame)
        step, which = self.steps[frame[3]].interpret(good, action, frame[7])
        if step is None:
            frame[7], frame[8] = ASKED_WHICH, which
            return
        frame[7], frame[9] = LOOP, None
        self.take(board, frame, step)

    def can_act(self, board, ctx):
        return self.shortfall(board, ctx) is not None

    _last = None  # the last search made

    def search(self, board, ctx, before) -> "_Search":
        """A search from the position ``board`` stands at: the last one made, if it was made in
        the same game but for the tokens (its memo holds for any tokens: a goal's next step, or
        the goal carried out after a priority list asked how far it could go), else a new one."""
        found = self._last
        if found is not None and found.fits(board, ctx, before):
            found.look_from(board)
            return found
        found = self._last = _Search(self, board, ctx, before)
        return found

    def shortfall(self, board, ctx) -> Optional[int]:
        """The fewest token steps short with which the change can be made (0: fully), or None."""
        return self.search(board, ctx, self.change.before(board, ctx, NOBODY)).best(0, 0, ())


class _Search:
    """Depth-first search over a goal's token steps, on a copy of the position."""

    def __init__(self, goal: GoalOp, board, ctx, before):
        from .board import Board
        self.goal, self.ctx, self.before = goal, ctx, before
        position = board.position.copy(rng=board.position.rng)
        self.board = Board(board.program, position, None, board.solo)
        self.board.probe = True
        self.board.meter = board.meter  # each position looked at is work of the rule's
        self.memo = {}
        self.owners = tuple(op.owners(ctx.me) for op in goal.steps)
        layout = board.layout
        sides, zones = layout.sides, layout.zones * layout.sides
        keyed = [(layout.holder, sides * layout.holders), (layout.track, sides * len(layout.zone_count))]
        if layout.tokens >= 0:
            keyed.append((layout.tokens, sides * layout.places))
        # the values the memo's keys hold, from the first to the last: tokens in places, holders and
        # tracks (the others it takes as they are); and those a token step may change besides: the
        # boxes, the zones entered and waiting to be resolved
        changed = keyed + [(layout.box, zones), (layout.entered, zones), (layout.pending, zones)]
        self.start, self.end = min(at for at, _ in keyed), max(at + n for at, n in keyed)
        self.low, self.high = min(at for at, _ in changed), max(at + n for at, n in changed)
        self.rest = self.unkeyed(board.values)

    def unkeyed(self, values) -> list:
        return values[:self.start] + values[self.end:]

    def fits(self, board, ctx, before) -> bool:
        """Whether the memo holds at ``board``: the same game and rule, the same values but tokens."""
        mine = self.board
        return (ctx == self.ctx and before == self.before and board.solo is mine.solo and board.program is mine.program
                and board.position.view == mine.position.view and self.unkeyed(board.values) == self.rest
                and board.piles == mine.piles)

    def look_from(self, board) -> None:
        """Search from where ``board`` stands now (a position that ``fits``)."""
        self.board.values[:] = board.values
        self.board.meter = board.meter

    def best(self, index: int, step: int, counts) -> Optional[int]:
        board, ctx = self.board, self.ctx
        meter = board.meter  # each position looked at is a step of work (ops.spend)
        meter[0] -= 1
        if meter[0] < 0:
            spend(board, self.goal.node, 0)
        values = board.values
        key = (index, step, counts, tuple(values[self.start:self.end]))  # tokens in places, holders, tracks
        memo = self.memo
        if key in memo:
            return memo[key]
        steps = self.goal.steps
        if index == len(steps):
            found = 0 if self.goal.change.happened(board, ctx, NOBODY, self.before) else None
        else:
            op = steps[index]
            total = op.total(board, ctx)
            if step >= total:
                found = self.best(index + 1, 0, ())
            else:
                legal = op.steps(board, ctx, self.owners[index], counts)
                found = None
                for action in legal:
                    result = self.after(index, step, counts, action)
                    if result is not None and (found is None or result < found):
                        found = result
                        if found == 0:
                            break
                if found != 0 and (not legal or op.amount != "exactly"):
                    result = self.stopping(index, step, total)
                    if result is not None and (found is None or result < found):
                        found = result
        memo[key] = found
        return found

    def after(self, index: int, step: int, counts, action) -> Optional[int]:
        board = self.board
        values, low, high = board.values, self.low, self.high
        saved = values[low:high]  # all a token step may change
        more = self.goal.steps[index].apply(board, self.ctx, self.owners[index], action, counts)
        try:
            return self.best(index, step + 1, more)
        finally:
            values[low:high] = saved

    def stopping(self, index: int, step: int, total: int) -> Optional[int]:
        found = self.best(index + 1, 0, ())
        return None if found is None else found + total - step
