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

from typing import List, Optional

from crisis.interpreter.actions import DONE, Action, Decision

from .layout import NOBODY
from .ops import WAITING, Op, choose_place

# stages of a transfer's frame
START, LOOP, ASKED, ASKED_WHICH = 0, 1, WAITING, -2


class TransferOp(Op):
    """``sources`` and ``dests``: resolvers ``(board, ctx, it) -> location codes``."""

    def __init__(self, verb: str, amount: str, n: int, owners, sources, dests, each: bool,
                 limit: Optional[int], node=None, one_place: bool = False, count=None, random: bool = False,
                 chooser: Optional[str] = None, next_to_source: bool = False):
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
        # nothing but steps to take: no limit, no "each" or "all", no die, nobody else choosing
        # "into an adjacent area": each source's own destinations, next to it (dests read with it)
        self.next_to_source = next_to_source
        self.plain = not (self.counts_steps or self.all_tokens or random or chooser or next_to_source)

    def carries_out(self, program):
        return ()

    # ------------------------------------------------------------ helpers
    def total(self, board, ctx) -> int:
        return self.count(board, ctx, NOBODY) if self.count is not None else self.n

    def grids(self, board):
        if self._grids is None:
            table = board.program.actions
            self._grids = (table.steps(self.verb, -1),) + tuple(table.steps(self.verb, side)
                                                               for side in range(board.sides))
        return self._grids

    def legal(self, board, ctx, owners, counts, only: int = -1) -> List[Action]:
        """The legal one-token steps; ``only`` restricts the counted side to one place.

        The hot path of every game.  At the first call the statement picks, once, the way to
        list its steps that fits its shape (below); every way gives the same steps in the same
        order: by destination, then by source."""
        self.prepare(board)
        return self.legal(board, ctx, owners, counts, only)

    def prepare(self, board) -> None:
        n = board.n
        self.grids(board)
        sources, dests = self.fixed_sources, self.fixed_dests
        plain = self.limit is None and not self.each and not self.one_place
        from_places = getattr(self.sources, "places_only", False) or (
            sources is not None and all(c < n for c in sources))
        to_places = getattr(self.dests, "places_only", False) or (dests is not None and all(c < n for c in dests))
        one_holder = sources is not None and len(sources) == 1 and sources[0] >= n
        self._whole_rows = None
        self._pairs_by_group = None
        if self.next_to_source:
            self.legal = self._any_shape
        elif plain and one_holder and dests is not None and to_places:
            source = self._source = sources[0]
            # into every place (a value play): while no place is full, the steps are the whole row,
            # or the whole row but the place a marker blocks -- lists made here, once
            if tuple(dests) == tuple(range(n)):
                self._whole_rows = tuple([grid[source][d] for d in dests] for grid in self._grids)
                self._rows_without = tuple([[a for a in whole if a.b != place] for place in range(n)]
                                           for whole in self._whole_rows)
            self.legal = self._from_holder_to_places
        elif plain and one_holder and dests is not None and len(dests) == 1 and n <= dests[0] != sources[0]:
            self._source, self._dest = sources[0], dests[0]
            self.legal = self._between_holders
        elif plain and from_places and dests is not None and len(dests) == 1 and dests[0] >= n:
            dest = self._dest = dests[0]
            self._columns = tuple([grid[s][dest] for s in range(n)] for grid in self._grids)
            self.legal = self._from_places_to_holder
        elif plain and to_places and from_places:
            self._pairs = {}
            self.legal = self._between_places
            # places that are fixed or "this dimension": every group's pairs, listed now
            source_sets = sources or getattr(self.sources, "by_group", None)
            dest_sets = dests or getattr(self.dests, "by_group", None)
            if source_sets is not None and dest_sets is not None and (sources is None or dests is None):
                groups = range(len(board.program.group_places))
                self._pairs_by_group = tuple(
                    tuple(self._pairs_between(sources or source_sets[g], dests or dest_sets[g], named)
                          for g in groups) for named in (False, True))
        elif plain and to_places and sources is not None:
            self.legal = self._from_codes_to_places
        else:
            self.legal = self._any_shape

    def _from_holder_to_places(self, board, ctx, owners, counts, only: int = -1) -> List[Action]:
        """Tokens from one holder (the supply, the pool, a box) into fixed places: a value play."""
        source, dests = self._source, self.fixed_dests
        values, n = board.values, board.n
        maximum = board.max_per_place
        if board.markers_changed():
            board.see_markers()
        blocked = board.no_place
        out = []
        for owner in owners:
            if not board.can_take(owner, source):
                continue
            base = board.tokens_base + owner * n
            mine = values[base:base + n]
            grid = owner + 1 if len(owners) > 1 else 0
            if self._whole_rows is not None and max(mine) < maximum and len(blocked) < 2:
                out += self._rows_without[grid][blocked[0]] if blocked else self._whole_rows[grid]
                continue
            row = self._grids[grid][source]
            if blocked:
                out += [row[d] for d in dests if mine[d] < maximum and d not in blocked]
            else:
                out += [row[d] for d in dests if mine[d] < maximum]
        return out

    def _between_holders(self, board, ctx, owners, counts, only: int = -1) -> List[Action]:
        """Tokens from one holder to another (a bonus box to the pool)."""
        source, dest = self._source, self._dest
        grids = self._grids
        return [(grids[owner + 1] if len(owners) > 1 else grids[0])[source][dest] for owner in owners
                if board.can_take(owner, source) and board.can_put(owner, dest)]

    def _from_places_to_holder(self, board, ctx, owners, counts, only: int = -1) -> List[Action]:
        """Tokens from places to one holder (the pool): a removal."""
        candidates = self.fixed_sources or self.sources(board, ctx, NOBODY)
        values, n = board.values, board.n
        if board.markers_changed():
            board.see_markers()
        blocked = board.no_remove
        out = []
        for owner in owners:
            if not board.can_put(owner, self._dest):
                continue
            base = board.tokens_base + owner * n
            column = self._columns[owner + 1] if len(owners) > 1 else self._columns[0]
            if blocked:
                out += [column[s] for s in candidates if values[base + s] > 0 and s not in blocked]
            else:
                out += [column[s] for s in candidates if values[base + s] > 0]
        return out

    def _from_codes_to_places(self, board, ctx, owners, counts, only: int = -1) -> List[Action]:
        """Tokens into places from fixed places and holders ("from your pool or any space")."""
        candidates = self.fixed_sources
        all_dests = self.fixed_dests or self.dests(board, ctx, NOBODY)
        values, n = board.values, board.n
        maximum = board.max_per_place
        if board.markers_changed():
            board.see_markers()
        no_remove, no_place = board.no_remove, board.no_place
        grids = self._grids
        out = []
        for owner in owners:
            base = board.tokens_base + owner * n
            sources = [s for s in candidates if (values[base + s] if s < n else board.count_at(owner, s)) > 0
                       and s not in no_remove]
            if not sources:
                continue
            dests = [d for d in all_dests if values[base + d] < maximum and d not in no_place]
            grid = grids[owner + 1] if len(owners) > 1 else grids[0]
            out += [grid[s][d] for d in dests for s in sources if s != d]
        return out

    def _between_places(self, board, ctx, owners, counts, only: int = -1) -> List[Action]:
        """Tokens from places to places: the (source, destination) pairs of these places are
        listed once and kept (the places come from the content: few different ones)."""
        by_group = self._pairs_by_group
        pairs = (by_group[len(owners) > 1][ctx.group] if by_group is not None
                 else self._pairs_for(board, ctx, owners))
        if pairs is None:  # places filtered by the position: listed anew each time
            return self._any_shape(board, ctx, owners, counts, only)
        values, n = board.values, board.n
        maximum = board.max_per_place
        if board.markers_changed():
            board.see_markers()
        no_remove, no_place = board.no_remove, board.no_place
        out = []
        for owner in owners:
            base = board.tokens_base + owner * n
            if no_remove or no_place:
                out += [a for s, d, a in pairs[owner] if values[base + s] > 0 and values[base + d] < maximum
                        and s not in no_remove and d not in no_place]
            else:
                out += [a for s, d, a in pairs[owner] if values[base + s] > 0 and values[base + d] < maximum]
        return out

    def _pairs_for(self, board, ctx, owners):
        """Per owner, the (source, destination, step) of every two places, in the order of ``legal``."""
        candidates = self.fixed_sources or self.sources(board, ctx, NOBODY)
        all_dests = self.fixed_dests or self.dests(board, ctx, NOBODY)
        if type(candidates) is not tuple or type(all_dests) is not tuple:
            return None
        named = len(owners) > 1
        key = (candidates, all_dests, named)
        pairs = self._pairs.get(key)
        if pairs is None:
            pairs = self._pairs_between(candidates, all_dests, named)
            if len(self._pairs) < 256:
                self._pairs[key] = pairs
        return pairs

    def _pairs_between(self, candidates, all_dests, named: bool):
        sides = len(self._grids) - 1
        grids = self._grids[1:] if named else self._grids[:1] * sides
        return tuple([(s, d, grid[s][d]) for d in all_dests for s in candidates if s != d] for grid in grids)

    def _any_shape(self, board, ctx, owners, counts, only: int = -1) -> List[Action]:
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
        elif self.next_to_source:  # every place next to a source, in the map's order
            near = {d for s in candidates if s < n for d in self.dests(board, ctx, s)}
            all_dests = [d for d in range(n) if d in near]
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
            if self.next_to_source:  # each source's destinations are its own: by destination, then source
                reach = {s: set(self.dests(board, ctx, s)) if s < n else set() for s in sources}  # (check refuses holders)
                out += [grid[s][d] for d in dests for s in sources if s != d and d in reach[s]]
            elif len(sources) == 1:
                source = sources[0]
                row = grid[source]
                out += [row[d] for d in dests if d != source]
            else:
                out += [grid[s][d] for d in dests for s in sources if s != d]
        return out

    def steps(self, board, ctx, owners, counts, only: int = -1) -> List[Action]:
        """The legal steps, less those the solo opponent may not take (solo rulebook,
        Performing Events: it places only Available tokens, only in places with Room)."""
        solo = board.solo
        if solo is None:
            return self.legal(board, ctx, owners, counts, only)
        legal = self.legal(board, ctx, owners, counts, only)
        if legal and ctx.me == solo.side:
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
            if action is None:  # a player must choose: the steps are kept for the answer
                frame[8] = (legal, optional)
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
        origin = (self, ctx)
        if self.chooser is None:
            return Decision(ctx.me, self.verb, legal, optional, remaining, False, self.node, owners[0], origin=origin)
        other = board.others(ctx.me)[0]
        if stage == ASKED and self.two_stages(legal):
            return Decision(ctx.me, self.verb, legal, optional, remaining, False, self.node, owners[0],
                            stage="destination", origin=origin)
        if stage == ASKED_WHICH:
            legal = [a for a in legal if a is not DONE and a.b == which]
            optional = False
        return Decision(other, self.verb, legal, optional, remaining, False, self.node, owners[0], on_behalf=ctx.me,
                        origin=origin)

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
        legal, optional = frame[8] if frame[8] is not None else self.legal_again(board, ctx, frame, owners)
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
        if self.plain and board.log is None and board.solo is None and not self.remember:
            return self.answer_plain(machine, board, ctx, frame, action)
        owners = self.owners(ctx.me)
        if action is DONE:
            board.shortfall += frame[4] - frame[3]
            machine.stack.pop()
            return
        step, which = action, -1
        if self.chooser == "pieces":
            legal = frame[8][0] if frame[8] is not None else self.legal_again(board, ctx, frame, owners)[0]
            step, which = self.interpret(legal, action, frame[2])
        if step is None:
            frame[2], frame[9] = ASKED_WHICH, which
            return
        frame[2], frame[8] = LOOP, None
        self.take(board, ctx, frame, owners, step)

    def answer_plain(self, machine, board, ctx, frame, action):
        """The common case, written out: take the step, and answer with the next decision."""
        if action is DONE:
            board.shortfall += frame[4] - frame[3]
            machine.stack.pop()
            return None
        owners = self.owners(ctx.me)
        while True:
            owner = action.side if action.side >= 0 else owners[0]
            source, dest = action.a, action.b
            values, n = board.values, board.n
            if source < n:
                values[board.tokens_base + owner * n + source] -= 1
            else:
                board.take(owner, source)
            if dest < n:
                values[board.tokens_base + owner * n + dest] += 1
            else:
                board.put(owner, dest)
            frame[3] += 1
            total = frame[4]
            if frame[3] >= total:
                machine.stack.pop()
                return None
            legal = self.legal(board, ctx, owners, ())
            if not legal:
                board.shortfall += total - frame[3]
                machine.stack.pop()
                return None
            if self.optional:
                legal.append(DONE)
                frame[2], frame[8] = ASKED, (legal, True)
                return Decision(ctx.me, self.verb, legal, True, total - frame[3], False, self.node, owners[0],
                                origin=(self, ctx))
            if len(legal) > 1:
                frame[2], frame[8] = ASKED, (legal, False)
                return Decision(ctx.me, self.verb, legal, False, total - frame[3], False, self.node, owners[0],
                                origin=(self, ctx))
            action = legal[0]

    def take(self, board, ctx, frame, owners, action):
        frame[5] = self.apply(board, ctx, owners, action, frame[5])
        frame[3] += 1

    # ------------------------------------------------------------ direct form
    def play(self, board, ctx, choose):
        owners = self.owners(ctx.me)
        counts: tuple = ()
        if self.each:
            for place in self.each_places(board, ctx, owners):
                count = self.total(board, ctx)
                for k in range(count):
                    legal = self.steps(board, ctx, owners, counts, only=place)
                    if not legal:
                        board.shortfall += count - k
                        break
                    action = self.choose_step(board, ctx, legal, owners, False, 0, choose)
                    counts = self.apply(board, ctx, owners, action, counts)
            return
        if self.all_tokens:
            for _ in range(self.tokens_in_sources(board, ctx, owners)):
                legal = self.steps(board, ctx, owners, counts)
                if not legal:
                    return
                if len(legal) == 1 or self.verb == "remove" or (
                        all(a.b == legal[0].b for a in legal) and legal[0].b >= board.n):
                    action = legal[0]
                else:
                    action = self.choose_step(board, ctx, legal, owners, False, 0, choose)
                counts = self.apply(board, ctx, owners, action, counts)
            return
        total = self.total(board, ctx)
        optional = self.optional
        for k in range(total):
            legal = self.steps(board, ctx, owners, counts)
            if not legal:
                board.shortfall += total - k
                return
            if optional:
                legal.append(DONE)
            action = self.choose_step(board, ctx, legal, owners, optional, total - k, choose)
            if action is DONE:
                board.shortfall += total - k
                return
            counts = self.apply(board, ctx, owners, action, counts)

    def choose_step(self, board, ctx, legal, owners, optional, remaining, choose) -> Action:
        """The step taken: without asking (a die, the only one), or as ``choose`` answers (twice,
        when the other player picks which token once the acting player has picked where)."""
        action = self.auto(board, legal)
        if action is not None:
            return action
        action = choose(self.ask(board, ctx, legal, owners, optional, remaining, ASKED, -1))
        step, which = self.interpret(legal, action, ASKED)
        if step is not None:
            return step
        return choose(self.ask(board, ctx, legal, owners, optional, remaining, ASKED_WHICH, which))

    def can_act(self, board, ctx):
        owners = self.owners(ctx.me)
        if self.each:
            return any(self.legal(board, ctx, owners, (), only=p) for p in self.each_places(board, ctx, owners))
        if board.solo is not None:
            return self.total(board, ctx) > 0 and bool(self.steps(board, ctx, owners, ()))
        if self.all_tokens:
            return bool(self.legal(board, ctx, owners, ()))
        return self.total(board, ctx) > 0 and bool(self.legal(board, ctx, owners, ()))
