"""Generated code, part three: token steps -- a transfer's legal steps listed by comprehensions
over tables made once (the same steps in the same order as TransferOp.legal), and a step taken
on the flat values.  ``TransferWriter`` is mixed into codegen.CodeGenerator.
"""

from __future__ import annotations

import re
from typing import List, Optional

from crisis.ruleset import meaning as M

from .layout import NOBODY
from .transfer import TransferOp
from .codegen_values import Scope, Unsupported


class TransferWriter:
    """Listing and taking token steps (a mixin of codegen.CodeGenerator)."""

    # ------------------------------------------------------------ transfers
    def op_TransferOp(self, op: TransferOp, scope: Scope, depth: int) -> None:
        """A transfer as TransferOp.play takes it: a step at a time, each step listed as its
        ``legal`` lists them (written out for the common shapes, and with the counts per place of
        a limit, "all in one space" or "each"), taken on the flat values.  A die, another player
        choosing and "that space" are left to the statement itself."""
        owners = self.owners(op, scope)
        if (op.random or op.chooser or op.remember or op.next_to_source or (op.limit is not None and op.limit < 1)
                or (owners is None and op.counts_steps)):
            self.fallback(op, scope)
            return
        out = self.out
        transfer = self.const(op)
        owner_table = f"{transfer}.owners({scope.me})"
        first_owner = owners[0] if owners is not None else f"{owner_table}[0]"
        counted = op.counts_steps
        used, first = self.name("u"), self.name("i")
        if counted:
            out.line(f"{used} = [0] * {self.integer(len(self.program.locations.names))}")  # steps per place
            if op.one_place:
                out.line(f"{first} = -1")  # the place of the first step
        total, k, legal, action, owner = self.name("t"), self.name("k"), self.name("a"), self.name("a"), self.name("s")
        each = self.name("i")
        remaining = f"{total} - {k}"
        if op.each:
            out.line(f"for {each} in {transfer}.each_places(board, {scope.ctx()}, {owner_table}):")
            out.indent()
            out.line(f"{total} = {self.total(op, scope)}")
            out.line(f"for {k} in range({total}):")
            remaining = "0"
        elif op.all_tokens:
            out.line(f"for _ in range({transfer}.tokens_in_sources(board, {scope.ctx()}, {owner_table})):")
            remaining = "0"
        else:
            out.line(f"{total} = {self.total(op, scope)}")
            out.line(f"for {k} in range({total}):")
        out.indent()
        only = "-1"
        if op.each:
            only = each
        if op.one_place:
            only = f"({first} if {first} >= 0 else {only})" if only != "-1" else first
        listing = self.listing(op, scope) if not counted else self.counted_listing(op, scope, owners, only, used)
        if listing is None:
            listing = f"{transfer}.legal(board, {scope.ctx()}, {owner_table}, ())"
        out.line(f"{legal} = {listing}")
        out.line(f"if not {legal}:")
        if op.all_tokens:
            out.line("    break")
        else:
            out.line(f"    board.shortfall += {remaining if not op.each else f'{total} - {k}'}")
            out.line("    break")
        optional = op.optional and not (op.each or op.all_tokens)
        decision = self.ask(scope.me, op.verb, legal, optional=bool(optional), remaining=remaining, rule=op.node,
                            owner=first_owner, origin=op, ctx=scope.ctx())
        if optional:
            out.line(f"{legal}.append(DONE)")
            out.line(f"{action} = {decision}")  # two steps at least: always a choice
            out.line(f"if {action} is DONE:")
            out.line(f"    board.shortfall += {remaining}")
            out.line("    break")
        elif op.all_tokens:
            # every token ends in its pool: the order cannot matter (TransferOp.play)
            quick = f"len({legal}) == 1"
            if op.verb == "remove":
                quick = "True"
            else:
                quick += (f" or ({legal}[0].b >= {self.integer(self.n)} and "
                          f"len([{action} for {action} in {legal} if {action}.b != {legal}[0].b]) == 0)")
            out.line(f"{action} = {legal}[0] if {quick} else {decision}")
        else:
            out.line(f"{action} = {legal}[0] if len({legal}) == 1 else {decision}")
        if owners is not None and len(owners) == 1:
            who = owners[0]
        else:
            who = f"({action}.side if {action}.side >= 0 else {first_owner})"
        out.line(f"{owner} = {who}")
        self.take(op, owner, f"{action}.a")
        self.put(op, owner, f"{action}.b")
        if counted:
            key = f"{action}.a" if op.limit_on_source else f"{action}.b"
            out.line(f"{used}[{key}] += 1")
            if op.one_place:
                out.line(f"if {first} < 0:")
                out.line(f"    {first} = {key}")
        out.dedent()
        if op.each:
            out.dedent()

    def counted_listing(self, op: TransferOp, scope: Scope, owners: Optional[List[str]], only: str,
                        used: str) -> Optional[str]:
        """The steps of a transfer that counts its steps per place (TransferOp._any_shape): the
        sources with a token and the destinations with room, less the places at their limit; one
        place only (``only``, -1 for none) for "each" and "all in one space"."""
        program = self.program
        n = self.n
        if owners is None:
            return None
        self.prepared(op)  # its tables of steps
        candidates = self.location_list(op.sources, op.node.sources if isinstance(op.node, M.Transfer) else None,
                                        scope)
        dests = self.location_list(op.dests, op.node.dests if isinstance(op.node, M.Transfer) else None, scope)
        on_source = op.limit_on_source
        if only != "-1":
            if on_source:
                candidates = f"(({only},) if {only} >= 0 else {candidates})"
            else:
                dests = f"(({only},) if {only} >= 0 else {dests})"
        named = len(owners) > 1
        maximum = self.integer(program.schema.tokens.at_most_per_place)
        limit = self.integer(op.limit) if op.limit is not None else None
        parts = []
        for owner in owners:
            source, dest, found, grid = self.name("i"), self.name("i"), self.name("p"), self.name("p")
            source_test = self.all_of([f"{self.tokens_at(owner, source)} > 0"] + self.blocked(source, removal=True))
            source_test = (f"({self.paren(source_test)} if {source} < {self.integer(n)} "
                           f"else board.can_take({owner}, {source}))")
            dest_test = self.all_of([f"{self.tokens_at(owner, dest)} < {maximum}"] + self.blocked(dest, removal=False))
            dest_test = (f"({self.paren(dest_test)} if {dest} < {self.integer(n)} "
                         f"else board.can_put({owner}, {dest}))")
            if limit is not None and on_source:
                source_test = f"{used}[{source}] < {limit} and {source_test}"
            elif limit is not None:
                dest_test = f"({dest} >= {self.integer(n)} or {used}[{dest}] < {limit}) and {dest_test}"
            grids = tuple(self.grid(op, side, named) for side in range(self.sides))
            parts.append(f"[{grid}[{source}][{dest}] for {grid} in [{self.owned(owner, grids)}] "
                         f"for {found} in [[{source} for {source} in {candidates} if {source_test}]] "
                         f"for {dest} in {dests} if {dest_test} for {source} in {found} if {source} != {dest}]")
        return " + ".join(parts)

    def location_list(self, resolver, node, scope: Scope) -> str:
        """The location codes of a transfer's sources or destinations (``fixed or resolver()``)."""
        codes = getattr(resolver, "codes", None)
        if codes:
            return self.const(tuple(codes))
        if isinstance(node, M.Union_) and len(node.items) == 1 and not isinstance(node.items[0], M.Holder):
            try:
                return self.place_list(node.items[0], scope, "-1")
            except Unsupported:
                pass
        return f"{self.const(resolver)}(board, {scope.ctx()}, -1)"

    def total(self, op: TransferOp, scope: Scope) -> str:
        if op.count is None:
            return self.integer(op.n)
        amount = op.node.amount if isinstance(op.node, M.Transfer) else None
        return self.number_or_call(op.count, amount.number if amount is not None else None, scope, "-1")

    def owners(self, op: TransferOp, scope: Scope) -> Optional[List[str]]:
        """Expressions for whose tokens the steps move, the acting side first (None: read the
        statement's table)."""
        table = getattr(op.owners, "__self__", None)
        if type(table) is not tuple or not table or len({len(row) for row in table}) != 1:
            return None
        out = []
        for j in range(len(table[0])):
            column = [row[j] for row in table]
            if all(column[s] == s for s in range(self.sides)):
                out.append(scope.me)
            elif self.sides == 2 and all(column[s] == 1 - s for s in range(2)):
                out.append(self.other(scope.me))
            elif len(set(column)) == 1:
                out.append(self.integer(column[0]))
            else:
                return None
        return out

    def prepared(self, op: TransferOp):
        if self._board is None:
            from .board import Board
            self._board = Board(self.program, self.program.initial_position(0))
        op.prepare(self._board)  # the statement picks the way its steps are listed, once
        return getattr(op.legal, "__func__", None)

    def listing(self, op: TransferOp, scope: Scope, joiner: str = " + ") -> Optional[str]:
        """An expression for the legal steps of a plain transfer (a new list: the same steps in
        the same order as its ``legal``), for the shapes met in every game; None for the others.
        Two equal listings are written alike (the names a listing binds are its own), so that a
        test two options share can be made once (op_EitherOp)."""
        start = self._names
        text = self._listing(op, scope, joiner)
        if text is None:
            return None
        end = self._names
        own = re.compile(r"\b([a-z])(\d+)\b")
        key = own.sub(lambda m: m.group(1) + "_" if start < int(m.group(2)) <= end else m.group(0), text)
        return self._listings.setdefault(key, text)

    def _listing(self, op: TransferOp, scope: Scope, joiner: str) -> Optional[str]:
        if not (op.plain or op.all_tokens) or op.limit is not None or op.one_place or op.each:
            return None
        shape = self.prepared(op)
        owners = self.owners(op, scope)
        if owners is None:
            return None
        named = len(owners) > 1
        if shape is TransferOp._from_holder_to_places:
            part = self.from_holder_to_places
        elif shape is TransferOp._between_holders:
            part = self.between_holders
        elif shape is TransferOp._from_places_to_holder:
            part = self.from_places_to_holder
        elif shape is TransferOp._between_places:
            part = self.between_places
        elif shape is TransferOp._from_codes_to_places:
            part = self.from_codes_to_places
        else:
            return None
        parts = []
        for owner in owners:
            found = part(op, scope, owner, named)
            if found is None:
                return None
            parts.append(found)
        return joiner.join(parts) if len(parts) == 1 or joiner == " + " else "(" + joiner.join(parts) + ")"

    def grid(self, op: TransferOp, side: int, named: bool):
        return op._grids[side + 1] if named else op._grids[0]

    def blocked(self, place: str, removal: bool) -> List[str]:
        """Tests that no marker blocks placing on (or removing from) ``place``."""
        markers = self.program.schema.markers
        base = self.program.layout.marker
        return [f"{place} != V[{self.integer(base + m)}]" for m, marker in enumerate(markers)
                if (marker.blocks_removal if removal else marker.blocks_placement)]

    def tokens_at(self, side: str, place: str) -> str:
        """The expression for a side's tokens at a place."""
        layout = self.program.layout
        return f"V[{self.add(self.add(self.integer(layout.tokens), self.times(side, self.integer(self.n))), place)}]"

    def count_at(self, side: str, code: int) -> str:
        """A side's tokens at a holder, track or box (the supply: its holders together)."""
        program = self.program
        if code < self.n:
            return self.tokens_at(side, self.integer(code))
        if code == program.locations.SUPPLY:
            parts = [self.count_at(side, c) for c in program.locations.supply]
            return "(" + " + ".join(parts) + ")" if parts else "0"
        found = program.count_offsets.get(code)
        if found is None:
            raise Unsupported("a count above a zone")
        base, stride = found
        return f"V[{self.add(self.integer(base), self.times(side, self.integer(stride)))}]"

    def can_take(self, side: str, code: int) -> str:
        program = self.program
        if code == program.locations.SUPPLY:
            parts = [f"{self.count_at(side, c)} > 0" for c in program.locations.supply]
            return "(" + " or ".join(parts) + ")" if parts else "False"
        if code in program.count_offsets:
            return f"{self.count_at(side, code)} > 0"
        return f"board.can_take({side}, {self.integer(code)})"

    def can_put(self, side: str, code: int):
        kind = self.program.locations.kind[code]
        if kind[0] == "holder":
            return True
        if kind[0] == "track":
            spaces = self.program.schema.tracks[kind[1]].spaces
            return f"{self.count_at(side, code)} < {self.integer(spaces)}"
        return False

    def owned(self, owner: str, rows) -> str:
        """A table's row for ``owner``: the table is per side (equal tables are one constant, so that
        equal listings read the same)."""
        try:
            table = self.shared(("rows", rows), lambda: rows)
        except TypeError:  # a table of lists (a transfer's grid of steps): one per transfer
            table = self.const(rows)
        return f"{table}[{owner}]"

    def marker_rows(self, entries):
        """Steps to list, as (values, place a step takes from or None, place it puts on or None),
        made ready for the one marker that blocks: a tuple of the values of the steps it does not
        block for each place it may stand on (off the map last, read at -1), and the index that
        reads it.  With no marker that blocks, the values and no index; None with several."""
        markers = self.program.schema.markers
        found = [m for m, marker in enumerate(markers) if marker.blocks_placement or marker.blocks_removal]
        if not found:
            return tuple(v for v, _, _ in entries), ""
        if len(found) > 1:
            return None
        marker = markers[found[0]]

        def kept(place):
            return tuple(v for v, source, dest in entries
                         if not (marker.blocks_removal and source == place)
                         and not (marker.blocks_placement and dest == place))
        table = tuple(kept(place) for place in range(self.n)) + (kept(NOBODY),)
        return table, f"[V[{self.integer(self.program.layout.marker + found[0])}]]"

    def from_holder_to_places(self, op: TransferOp, scope: Scope, owner: str, named: bool):
        """Tokens from one holder into fixed places (a value play)."""
        layout = self.program.layout
        source, dests = op._source, op.fixed_dests
        maximum = self.integer(self.program.schema.tokens.at_most_per_place)
        offset, place, action = self.name("i"), self.name("i"), self.name("a")
        per_side = [self.marker_rows([((layout.tokens + side * self.n + d, self.grid(op, side, named)[source][d]),
                                       None, d) for d in dests]) for side in range(self.sides)]
        if all(found is not None for found in per_side):
            rows = f"{self.owned(owner, tuple(found[0] for found in per_side))}{per_side[0][1]}"
            steps = f"[{action} for {offset}, {action} in {rows} if V[{offset}] < {maximum}]"
        else:
            rows = tuple(tuple((layout.tokens + side * self.n + d, d, self.grid(op, side, named)[source][d])
                               for d in dests) for side in range(self.sides))
            tests = [f"V[{offset}] < {maximum}"] + self.blocked(place, removal=False)
            steps = f"[{action} for {offset}, {place}, {action} in {self.owned(owner, rows)} if {' and '.join(tests)}]"
        return f"({steps} if {self.can_take(owner, source)} else [])"

    def between_holders(self, op: TransferOp, scope: Scope, owner: str, named: bool):
        """Tokens from one holder to another (a bonus box to the pool)."""
        steps = tuple(self.grid(op, side, named)[op._source][op._dest] for side in range(self.sides))
        put = self.can_put(owner, op._dest)
        if put is False:
            return "[]"
        tests = [self.can_take(owner, op._source)] + ([] if put is True else [put])
        return f"([{self.owned(owner, steps)}] if {' and '.join(tests)} else [])"

    def from_places_to_holder(self, op: TransferOp, scope: Scope, owner: str, named: bool):
        """Tokens from places into one holder (a removal)."""
        layout = self.program.layout
        dest = op._dest
        offset, action = self.name("i"), self.name("a")

        def column(side, places):
            entries = [((layout.tokens + side * self.n + s, self.grid(op, side, named)[s][dest]), s, None)
                       for s in places]
            return self.marker_rows(entries)
        if op.fixed_sources is not None:
            per_side = [column(side, op.fixed_sources) for side in range(self.sides)]
            if all(found is not None for found in per_side):
                rows = f"{self.owned(owner, tuple(found[0] for found in per_side))}{per_side[0][1]}"
        elif getattr(op.sources, "by_group", None) is not None:
            # "this dimension": the group's places, none without a group (the last entry, read at -1)
            groups = op.sources.by_group
            per_side = [[column(side, places) for places in groups] + [column(side, ())] for side in range(self.sides)]
            if all(found is not None for side in per_side for found in side):
                table = tuple(tuple(found[0] for found in side) for side in per_side)
                rows = f"{self.owned(owner, table)}[{scope.field('group')}]{per_side[0][0][1]}"
        else:
            return None
        if any(found is None for found in (per_side if op.fixed_sources is not None else per_side[0])):
            return self.from_places_to_holder_marked(op, scope, owner, named)
        put = self.can_put(owner, dest)
        if put is False:
            return "[]"
        steps = f"[{action} for {offset}, {action} in {rows} if V[{offset}] > 0]"
        return steps if put is True else f"({steps} if {put} else [])"

    def from_places_to_holder_marked(self, op: TransferOp, scope: Scope, owner: str, named: bool):
        """As above, where several markers block: each place tested against each marker."""
        layout = self.program.layout
        dest = op._dest
        offset, place, action = self.name("i"), self.name("i"), self.name("a")

        def column(side, places):
            return tuple((layout.tokens + side * self.n + s, s, self.grid(op, side, named)[s][dest]) for s in places)
        if op.fixed_sources is not None:
            rows = self.owned(owner, tuple(column(side, op.fixed_sources) for side in range(self.sides)))
        else:
            groups = op.sources.by_group
            table = tuple(tuple(column(side, places) for places in groups) + ((),) for side in range(self.sides))
            rows = f"{self.owned(owner, table)}[{scope.field('group')}]"
        put = self.can_put(owner, dest)
        if put is False:
            return "[]"
        tests = [f"V[{offset}] > 0"] + self.blocked(place, removal=True)
        steps = f"[{action} for {offset}, {place}, {action} in {rows} if {' and '.join(tests)}]"
        return steps if put is True else f"({steps} if {put} else [])"

    def between_places(self, op: TransferOp, scope: Scope, owner: str, named: bool):
        """Tokens from places to places: the pairs of a fixed set, or of "this dimension"."""
        layout = self.program.layout
        maximum = self.integer(self.program.schema.tokens.at_most_per_place)
        source, dest, s, d, action = self.name("i"), self.name("i"), self.name("i"), self.name("i"), self.name("a")

        def ready(side, pairs):
            return self.marker_rows([((layout.tokens + side * self.n + s, layout.tokens + side * self.n + d, a), s, d)
                                     for s, d, a in pairs])
        if op._pairs_by_group is not None:
            groups = op._pairs_by_group[named]  # per group, per side
            found = [[ready(side, per_side[side]) for per_side in groups] for side in range(self.sides)]
            if all(f is not None for side in found for f in side):
                # read at -1 (no group) as the statement does: the last group's pairs
                table = tuple(tuple(f[0] for f in side) for side in found)
                rows = f"{self.owned(owner, table)}[{scope.field('group')}]{found[0][0][1]}"
                return f"[{action} for {source}, {dest}, {action} in {rows} if V[{source}] > 0 and V[{dest}] < {maximum}]"
        elif op.fixed_sources is not None and op.fixed_dests is not None:
            pairs = op._pairs_between(op.fixed_sources, op.fixed_dests, named)
            found = [ready(side, pairs[side]) for side in range(self.sides)]
            if all(f is not None for f in found):
                rows = f"{self.owned(owner, tuple(f[0] for f in found))}{found[0][1]}"
                return f"[{action} for {source}, {dest}, {action} in {rows} if V[{source}] > 0 and V[{dest}] < {maximum}]"
        else:
            return None

        def offsets(pairs_per_side):
            return tuple(tuple((layout.tokens + side * self.n + s, layout.tokens + side * self.n + d, s, d, a)
                               for s, d, a in pairs) for side, pairs in enumerate(pairs_per_side))
        if op._pairs_by_group is not None:
            groups = op._pairs_by_group[named]
            table = tuple(tuple(offsets(per_side)[side] for per_side in groups) for side in range(self.sides))
            rows = f"{self.owned(owner, table)}[{scope.field('group')}]"
        else:
            rows = self.owned(owner, offsets(op._pairs_between(op.fixed_sources, op.fixed_dests, named)))
        tests = ([f"V[{source}] > 0", f"V[{dest}] < {maximum}"] + self.blocked(s, removal=True)
                 + self.blocked(d, removal=False))
        return f"[{action} for {source}, {dest}, {s}, {d}, {action} in {rows} if {' and '.join(tests)}]"

    def from_codes_to_places(self, op: TransferOp, scope: Scope, owner: str, named: bool):
        """Tokens into places from fixed places and holders ("from your pool or any space"): the
        sources that have a token, then for each destination with room each source but itself."""
        program = self.program
        layout = program.layout
        candidates = op.fixed_sources
        if any(c >= self.n and c not in program.count_offsets for c in candidates):
            return None  # the supply, or tokens above a zone: counted by the board
        if op.fixed_dests is not None:
            dests = self.const(tuple(op.fixed_dests))
        elif getattr(op.dests, "by_group", None) is not None:
            dests = f"{self.shared(('group places',), lambda: tuple(program.group_places) + ((),))}" \
                    f"[{scope.field('group')}]"
        else:
            return None

        def offset(side, code):
            if code < self.n:
                return layout.tokens + side * self.n + code
            base, stride = program.count_offsets[code]
            return base + side * stride
        sources = tuple(tuple((c, offset(side, c)) for c in candidates) for side in range(self.sides))
        grids = tuple(self.grid(op, side, named) for side in range(self.sides))
        maximum = self.integer(program.schema.tokens.at_most_per_place)
        found, source, value, dest, grid = self.name("p"), self.name("i"), self.name("i"), self.name("i"), self.name("p")
        source_tests = [f"V[{value}] > 0"] + self.blocked(source, removal=True)
        dest_tests = [f"{self.tokens_at(owner, dest)} < {maximum}"] + self.blocked(dest, removal=False)
        return (f"[{grid}[{source}][{dest}] for {grid} in [{self.owned(owner, grids)}] "
                f"for {found} in [[{source} for {source}, {value} in {self.owned(owner, sources)} "
                f"if {' and '.join(source_tests)}]] "
                f"for {dest} in {dests} if {' and '.join(dest_tests)} for {source} in {found} if {source} != {dest}]")

    def codes(self, resolver) -> Optional[tuple]:
        """The location codes a statement's places may be: fixed, or places only (None: any)."""
        if getattr(resolver, "codes", None) is not None:
            return tuple(resolver.codes)
        if getattr(resolver, "places_only", False) or getattr(resolver, "by_group", None) is not None:
            return tuple(range(self.n))
        return None

    def take(self, op: TransferOp, owner: str, code: str) -> None:
        """Take one token of ``owner`` from the location ``code`` (board.take written out)."""
        out = self.out
        codes = self.codes(op.sources)
        if codes is not None and all(c < self.n for c in codes):
            out.line(f"{self.tokens_at(owner, code)} -= 1")
        elif codes is not None and len(codes) == 1:
            self.take_from(owner, codes[0])
        else:
            out.line(f"if {code} < {self.integer(self.n)}:")
            out.line(f"    {self.tokens_at(owner, code)} -= 1")
            out.line("else:")
            out.line(f"    board.take({owner}, {code})")

    def take_from(self, owner: str, code: int) -> None:
        program, out = self.program, self.out
        loc = program.locations
        kind = loc.kind[code]
        if code == loc.SUPPLY:
            # the supply's holders in order: the first that has a token gives it; past the first,
            # the board's own take (a token from a track enters a zone)
            for i, holder in enumerate(loc.supply):
                out.line(f"{'if' if i == 0 else 'elif'} {self.count_at(owner, holder)} > 0:")
                out.indent()
                self.take_from(owner, holder)
                out.dedent()
            return
        if kind[0] == "holder" or kind[0] == "box":
            out.line(f"{self.count_at(owner, code)} -= 1")
            return
        if kind[0] != "track":
            out.line(f"board.take({owner}, {self.integer(code)})")
            return
        # the token leaves the highest-numbered space still covered: its zone is entered
        out.line(f"{self.shared(('track', kind[1]), lambda: track_taker(program, kind[1]))}(V, {owner})")

    def put(self, op: TransferOp, owner: str, code: str) -> None:
        """Put one token of ``owner`` at the location ``code`` (board.put written out)."""
        out = self.out
        codes = self.codes(op.dests)
        if codes is not None and all(c < self.n for c in codes):
            out.line(f"{self.tokens_at(owner, code)} += 1")
            return
        if codes is not None and len(codes) == 1:
            kind = self.program.locations.kind[codes[0]]
            if kind[0] in ("holder", "track"):
                out.line(f"{self.count_at(owner, codes[0])} += 1")
                return
        out.line(f"if {code} < {self.integer(self.n)}:")
        out.line(f"    {self.tokens_at(owner, code)} += 1")
        out.line("else:")
        out.line(f"    board.put({owner}, {code})")


def track_taker(program, track: int):
    """``take(values, side)``: a token taken from a side's track (Board._take_from_track, with the
    layout's offsets read once): it leaves the highest space still covered, whose zone is entered."""
    layout = program.layout
    base, stride = layout.track_of(0, track), len(layout.zone_count)
    zone_of, zones, zone_base = program.zone_of_space[track], layout.zones, layout.zone_base[track]
    entered, pending = layout.entered, layout.pending
    effects = tuple(effect is not None for effect in program.entering[track])

    def take(values, side):
        offset = base + side * stride
        space = values[offset] - 1
        values[offset] = space
        zone = zone_of[space]
        slot = side * zones + zone_base + zone
        if not values[entered + slot]:
            values[entered + slot] = 1
            if effects[zone]:
                values[pending + slot] = 1
    return take
