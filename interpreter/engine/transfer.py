"""Placing, removing and moving tokens, one token per step.

Exactly n: every step must be taken while one is legal.  Up to n: the player
may stop ("done") after any step.  All: until none is legal.  Each: n tokens
into every place of the set in turn.  A limit ("at most 1 per space") and "all
in one space" count the steps per place.  A step is chosen by the acting
player, by the other player ("the opponent choosing"), or by a die roll ("at
random").

The legal steps are listed by destination, then by source: the order is part
of what a seed means, since a random bot picks by position.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from crisis.interpreter.actions import DONE, Action, Decision

from .layout import NOBODY
from .ops import WAITING, Op, choose_place

# stages of a transfer's frame
START, LOOP, ASKED, ASKED_WHICH = 0, 1, WAITING, -2


class TransferOp(Op):
    """``sources`` and ``dests``: resolvers ``(board, ctx, it) -> location codes``."""

    def __init__(self, verb: str, amount: str, n: int, owners, sources, dests, each: bool,
                 limit: Optional[int], node=None, one_place: bool = False, count=None, random: bool = False,
                 chooser: Optional[str] = None):
        self.verb, self.amount, self.n = verb, amount, n
        self.count = count  # (board, ctx, it) -> n, for an amount read when the statement starts
        self.random, self.chooser = random, chooser
        self.owners = owners  # ctx.me -> the owners of the tokens, acting side first
        self.sources, self.dests = sources, dests
        self.each, self.limit, self.node = each, limit, node
        self.one_place = one_place
        self.limit_on_source = verb == "remove"
        self.all_tokens = amount == "all"
        self.optional = amount == "up_to"
        self.counts_steps = limit is not None or each or one_place
        self.fixed_sources = getattr(sources, "codes", None)
        self.fixed_dests = getattr(dests, "codes", None)
        self.remember = False  # set when the effect says "that space": each step records its place
        self._grids = None

    # ------------------------------------------------------------ helpers
    def owners_of(self, ctx) -> Tuple[int, ...]:
        return self.owners(ctx.me)

    def total(self, board, ctx) -> int:
        return self.count(board, ctx, NOBODY) if self.count is not None else self.n

    def grids(self, board):
        if self._grids is None:
            table = board.program.actions
            self._grids = (table.steps(self.verb, -1),) + tuple(table.steps(self.verb, side)
                                                               for side in range(board.sides))
        return self._grids

    def legal(self, board, ctx, owners, counts, only: int = -1) -> List[Action]:
        """The legal one-token steps; ``only`` restricts the counted side to one place."""
        n = board.n
        limit, on_source = self.limit, self.limit_on_source
        if self.one_place and counts:
            only = counts[0][0]
        if board.markers_changed():
            board.see_markers()
        no_place, no_remove = board.no_place, board.no_remove
        maximum = board.max_per_place
        if on_source and only >= 0:
            candidates = (only,)
        else:
            candidates = self.fixed_sources or self.sources(board, ctx, NOBODY)
        if only >= 0 and not on_source:
            all_dests = (only,)
        else:
            all_dests = self.fixed_dests or self.dests(board, ctx, NOBODY)
        if limit is not None and counts:
            used = dict(counts)
            if on_source:
                candidates = [s for s in candidates if used.get(s, 0) < limit]
            else:
                all_dests = [d for d in all_dests if d >= n or used.get(d, 0) < limit]
        grids = self.grids(board)
        named = len(owners) > 1
        values, base = board.values, board.tokens_base
        out: List[Action] = []
        for owner in owners:
            row_base = base + owner * n
            sources = [s for s in candidates
                       if ((values[row_base + s] > 0 and s not in no_remove) if s < n else board.can_take(owner, s))]
            if not sources:
                continue
            dests = [d for d in all_dests
                     if ((values[row_base + d] < maximum and d not in no_place) if d < n else board.can_put(owner, d))]
            grid = grids[owner + 1] if named else grids[0]
            if len(sources) == 1:
                source = sources[0]
                row = grid[source]
                out += [row[d] for d in dests if d != source]
            else:
                out += [grid[s][d] for d in dests for s in sources if s != d]
        return out

    def steps(self, board, ctx, owners, counts, only: int = -1) -> List[Action]:
        """The legal steps, less those the solo opponent may not take (solo rulebook,
        Performing Events: it places only Available tokens, only in places with Room)."""
        legal = self.legal(board, ctx, owners, counts, only)
        solo = board.solo
        if solo is not None and legal and ctx.me == solo.side:
            legal = solo.placeable(board, owners, legal)
        return legal

    def describe(self, board, action: Action) -> str:
        """The place a step is about, for a die roll's trace."""
        names = board.locations.names
        return names[action.a] if self.verb == "remove" else names[action.b]

    def apply(self, board, ctx, owners, action: Action, counts: tuple) -> tuple:
        """Take the step; the counts per place afterwards."""
        owner = action.side if action.side >= 0 else owners[0]
        source, dest = action.a, action.b
        board.take(owner, source)
        board.put(owner, dest)
        if self.counts_steps:
            key = source if self.limit_on_source else dest
            found = False
            updated = []
            for place, count in counts:
                if place == key:
                    updated.append((place, count + 1))
                    found = True
                else:
                    updated.append((place, count))
            if not found:
                updated.append((key, 1))
            counts = tuple(updated)
        if self.remember:
            n = board.n
            place = dest if dest < n else source if source < n else NOBODY
            if place != NOBODY:
                choose_place(board, ctx, place)
        if board.log is not None:
            names = board.locations.names
            sides = board.program.schema.sides
            board.emit("log." + self.verb, side=sides[owner], actor=sides[ctx.me], source=names[source],
                       dest=names[dest])
        return counts

    def tokens_in_sources(self, board, ctx, owners) -> int:
        total = 0
        for owner in owners:
            for code in self.sources(board, ctx, owner):
                total += board.count_at(owner, code)
        return total

    def each_places(self, board, ctx, owners) -> tuple:
        side = self.sources if self.limit_on_source else self.dests
        return tuple(p for p in side(board, ctx, owners[0]) if p < board.n)

    # ------------------------------------------------------------ running
    # frame: [id, ctx, stage, step, total, counts, each places, each index, legal-at-ask (None), first choice]
    def begin(self, machine, ctx):
        machine.stack.append([self.id, ctx, START, 0, 0, (), (), 0, None, -1])

    def step(self, machine, frame):
        board, ctx = machine.board, frame[1]
        owners = self.owners(ctx.me)
        if frame[2] == ASKED or frame[2] == ASKED_WHICH:
            return self.decision(board, ctx, frame, owners)
        if frame[2] == START:
            frame[2] = LOOP
            if self.each:
                frame[6] = self.each_places(board, ctx, owners)
                frame[7] = 0
                frame[3] = 0
                frame[4] = self.total(board, ctx) if frame[6] else 0
            elif self.all_tokens:
                frame[4] = self.tokens_in_sources(board, ctx, owners)
            else:
                frame[4] = self.total(board, ctx)
        while True:
            legal, optional = self.next_legal(board, ctx, frame, owners)
            if legal is None:
                machine.stack.pop()
                return None
            action = self.pick(board, ctx, frame, legal, owners, optional)
            if action is None:  # a player must choose
                return self.decision(board, ctx, frame, owners)
            if action is DONE:
                board.shortfall += frame[4] - frame[3]
                machine.stack.pop()
                return None
            self.take(board, ctx, frame, owners, action)

    def next_legal(self, board, ctx, frame, owners):
        """The legal steps for the next token (None when the statement is over), and whether
        the player may stop."""
        if self.each:
            while frame[7] < len(frame[6]):
                if frame[3] < frame[4]:
                    legal = self.steps(board, ctx, owners, frame[5], only=frame[6][frame[7]])
                    if legal:
                        return legal, False
                    board.shortfall += frame[4] - frame[3]
                frame[7] += 1
                frame[3] = 0
                if frame[7] < len(frame[6]):
                    frame[4] = self.total(board, ctx)
            return None, False
        if frame[3] >= frame[4]:
            return None, False
        legal = self.steps(board, ctx, owners, frame[5])
        if not legal:
            if not self.all_tokens:
                board.shortfall += frame[4] - frame[3]
            return None, False
        if self.optional and not self.all_tokens:
            legal.append(DONE)
            return legal, True
        return legal, False

    def pick(self, board, ctx, frame, legal, owners, optional) -> Optional[Action]:
        """The step taken without asking (a single choice, a die roll, an order that cannot
        matter), or None when a player must choose."""
        if self.all_tokens and (len(legal) == 1 or self.verb == "remove"
                                or (all(a.b == legal[0].b for a in legal) and legal[0].b >= board.n)):
            return legal[0]  # every token ends in its pool: the order cannot matter
        action = self.auto(board, legal)
        if action is None:
            frame[2], frame[9] = ASKED, -1
        return action

    def auto(self, board, legal) -> Optional[Action]:
        """A die roll's step ("at random"), or the only step; None when a player chooses."""
        if self.random:
            choices = [a for a in legal if a is not DONE]
            index = board.roll_among(len(choices), [self.describe(board, a) for a in choices]) \
                if len(choices) > 1 else 0
            return choices[index]
        if len(legal) == 1:
            return legal[0]
        return None

    def ask(self, board, ctx, legal, owners, optional, remaining, stage, which) -> Decision:
        """Who chooses the step, and among what: the acting player; or, with "the opponent
        choosing", the other player -- who, with "the opponent choosing the tokens", picks only
        which token once the acting player has picked where it goes."""
        if self.chooser is None:
            return Decision(ctx.me, self.verb, legal, optional, remaining, False, self.node, owners[0])
        other = board.others(ctx.me)[0]
        if stage == ASKED and self.two_stages(legal):
            return Decision(ctx.me, self.verb, legal, optional, remaining, False, self.node, owners[0],
                            stage="destination")
        if stage == ASKED_WHICH:
            legal = [a for a in legal if a is not DONE and a.b == which]
            optional = False
        return Decision(other, self.verb, legal, optional, remaining, False, self.node, owners[0], on_behalf=ctx.me)

    def two_stages(self, legal) -> bool:
        return self.chooser == "pieces" and self.verb == "move" and len({a.b for a in legal if a is not DONE}) > 1

    def interpret(self, legal, action, stage):
        """(the step to take, or None while the other player is still to pick which token; the
        destination picked)."""
        if action is DONE or stage != ASKED or not self.two_stages(legal):
            return action, -1
        which = [a for a in legal if a is not DONE and a.b == action.b]
        if len(which) > 1:
            return None, action.b
        return which[0], -1

    def decision(self, board, ctx, frame, owners) -> Decision:
        legal, optional = self.legal_again(board, ctx, frame, owners)
        remaining = 0 if (self.each or self.all_tokens) else frame[4] - frame[3]
        return self.ask(board, ctx, legal, owners, optional, remaining, frame[2], frame[9])

    def legal_again(self, board, ctx, frame, owners):
        if self.each:
            return self.steps(board, ctx, owners, frame[5], only=frame[6][frame[7]]), False
        legal = self.steps(board, ctx, owners, frame[5])
        if self.optional and not self.all_tokens:
            legal.append(DONE)
            return legal, True
        return legal, False

    def answer(self, machine, frame, action):
        board, ctx = machine.board, frame[1]
        owners = self.owners(ctx.me)
        if action is DONE:
            board.shortfall += frame[4] - frame[3]
            machine.stack.pop()
            return
        legal, _ = self.legal_again(board, ctx, frame, owners)
        step, which = self.interpret(legal, action, frame[2])
        if step is None:
            frame[2], frame[9] = ASKED_WHICH, which
            return
        frame[2] = LOOP
        self.take(board, ctx, frame, owners, step)

    def take(self, board, ctx, frame, owners, action):
        frame[5] = self.apply(board, ctx, owners, action, frame[5])
        frame[3] += 1

    def can_act(self, board, ctx):
        owners = self.owners(ctx.me)
        if self.each:
            return any(self.legal(board, ctx, owners, (), only=p) for p in self.each_places(board, ctx, owners))
        if board.solo is not None:
            return self.total(board, ctx) > 0 and bool(self.steps(board, ctx, owners, ()))
        if self.all_tokens:
            return bool(self.legal(board, ctx, owners, ()))
        return self.total(board, ctx) > 0 and bool(self.legal(board, ctx, owners, ()))
