"""Checked rules (ruleset/meaning.py) to executable operations for one game program.

Conditions become closures ``(board, ctx, it) -> bool`` and place sets
closures ``(board, ctx, it) -> codes``, where ``it`` is the place a "where"
clause tests; numbers become ``(board, ctx, it) -> int``.  Names were resolved
by the resolver; here everything is an index already, and what does not depend
on the position is worked out once.
"""

from __future__ import annotations

import operator
from typing import Callable, List, Optional, Tuple

from crisis.ruleset import meaning as M
from crisis.ruleset.walk import meanings

from .entities import EntityCompiler
from .layout import NOBODY
from .ops import (ActingOp, BlockOp, CounterOp, EachPlayerOp, EffectOp, EitherOp, IfOp, Op, PlaceMarkerOp,
                  RegisterOp, RemoveMarkerOp, chosen_place)
from .transfer import TransferOp

_COMPARE = {"==": operator.eq, ">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt}


def fixed(codes: Tuple[int, ...]) -> Callable:
    """A resolver that does not depend on the position; it carries its codes so that
    operations can read them once, when compiled."""
    def resolver(board, ctx, it):
        return codes
    resolver.codes = codes
    return resolver


def _union(parts: List[Callable]) -> Callable:
    if len(parts) == 1:
        return parts[0]
    if all(hasattr(part, "codes") for part in parts):
        joined = fixed(tuple(dict.fromkeys(code for part in parts for code in part.codes)))
        if all(getattr(part, "places_only", False) for part in parts):
            joined.places_only = True
        return joined

    def union(board, ctx, it):
        seen = []
        for part in parts:
            for code in part(board, ctx, it):
                if code not in seen:
                    seen.append(code)
        return seen
    if all(getattr(part, "places_only", False) for part in parts):
        union.places_only = True
    return union


def _mentions_that(meaning) -> bool:
    """Whether a rule says "that space" anywhere."""
    return any(isinstance(node, M.ContextPlace) and node.kind == "that" for node in meanings(meaning))


class Compiler(EntityCompiler):
    """Turns checked rules into operations of one game program (cards in play: entities.py)."""

    def __init__(self, program, trace: bool = False):
        self.program = program
        self.schema = program.schema
        self.trace = trace  # "if" tests log themselves (the solo opponent explains its choices)
        self._in_effect = False
        self._terms = {}

    def register(self, op: Op) -> Op:
        return self.program.add_op(op)

    # ============================================================ statements
    def block(self, block: M.Block) -> Op:
        if self._in_effect or not _mentions_that(block):
            return self.register(BlockOp([self.statement(s) for s in block.statements], block))
        # an effect that says "that space" (rare): its steps record the place they choose
        self._in_effect = True
        try:
            inner = self.register(BlockOp([self.statement(s) for s in block.statements], block))
            return self.register(EffectOp(inner))
        finally:
            self._in_effect = False

    def statement(self, node) -> Op:
        method = getattr(self, "op_" + type(node).__name__, None)
        if method is None:
            from . import sequence
            method = getattr(sequence.SequenceCompiler, "op_" + type(node).__name__)
            return method(self, node)
        return method(node)

    def op_Transfer(self, node: M.Transfer) -> Op:
        amount = node.amount
        count = self.number(amount.number) if amount.number is not None else None
        op = TransferOp(node.verb, amount.kind, amount.n, self.owners(node.owners), self.locations(node.sources),
                        self.locations(node.dests), node.each, node.limit, node, node.one_place, count,
                        node.random, node.chooser,
                        next_to_source=any(isinstance(item, M.Adjacent) and item.of is None
                                           for item in getattr(node.dests, "items", ())))
        op.remember = self._in_effect
        return self.register(op)

    def op_PlaceMarker(self, node: M.PlaceMarker) -> Op:
        return self.register(PlaceMarkerOp(node.marker, self.places(node.places), node))

    def op_RemoveMarker(self, node: M.RemoveMarker) -> Op:
        return self.register(RemoveMarkerOp(node.marker, node))

    def op_ChangeCounter(self, node: M.ChangeCounter) -> Op:
        per = self.number(node.per) if node.per is not None else None
        side = self.side(node.side) if node.side is not None else None
        return self.register(CounterOp(node.counter, self.number(node.amount), node.sign, per,
                                       (lambda board, ctx: side(board, ctx)) if side else None, node))

    def op_SetCounter(self, node: M.SetCounter) -> Op:
        return self.register(CounterOp(node.counter, self.number(node.value), 1, None,
                                       lambda board, ctx: ctx.me, node, set_to=True, each_side=node.each_side))

    def op_SetRegister(self, node: M.SetRegister) -> Op:
        return self.register(RegisterOp(node.register, node))

    def op_If(self, node: M.If) -> Op:
        return self.register(IfOp(self.condition(node.condition), self.block(node.then),
                                  self.block(node.otherwise) if node.otherwise else None, node, self.trace))

    def op_Either(self, node: M.Either) -> Op:
        actions = self.program.actions
        return self.register(EitherOp([self.block(option) for option in node.options], node,
                                      [actions.option(i) for i in range(len(node.options))]))

    def op_FirstOf(self, node: M.FirstOf) -> Op:
        from .goals import FirstOfOp
        return self.register(FirstOfOp([self.block(option) for option in node.options], node))

    def op_Goal(self, node: M.Goal) -> Op:
        from .goals import GoalOp
        return self.register(GoalOp(self.change(node.change), [self.statement(s) for s in node.steps], node))

    def op_ForEachPlayer(self, node: M.ForEachPlayer) -> Op:
        who = self.condition(node.who) if node.who is not None else None
        return self.register(EachPlayerOp(self.block(node.body), node, who))

    def op_Acting(self, node: M.Acting) -> Op:
        body = self.statement(node.statement)
        if node.actor == "each":
            return self.register(EachPlayerOp(body, node))
        if node.actor == "opponent":
            return self.register(ActingOp(body, lambda board, ctx: board.others(ctx.me)[0], node))
        if node.actor == "first":
            return self.register(ActingOp(body, lambda board, ctx: board.first_player(), node))
        if node.actor == "role":
            role = node.register
            return self.register(ActingOp(body, lambda board, ctx: board.solo.role(role), node))
        offset = self.program.layout.register[node.register]
        return self.register(ActingOp(body, lambda board, ctx: board.values[offset], node))

    # ============================================================ sides
    def side(self, side: M.Side) -> Callable:
        """(board, ctx) -> a side."""
        if side.kind == "me":
            return lambda board, ctx: ctx.me
        if side.kind == "opponent":
            if len(self.schema.sides) == 2:
                return lambda board, ctx: 1 - ctx.me
            return lambda board, ctx: board.others(ctx.me)[0]
        if side.kind == "side":
            index = side.index
            return lambda board, ctx: index
        if side.kind == "first":
            return lambda board, ctx: board.first_player()
        if side.kind == "register":
            offset = self.program.layout.register[side.index]
            return lambda board, ctx: board.values[offset]
        if side.kind == "role":
            role = side.index
            return lambda board, ctx: board.solo.role(role) if board.solo is not None else NOBODY
        raise ValueError(side.kind)

    def relative(self, side: Optional[M.Side]) -> Optional[int]:
        """0 for "you", 1 for "the opponent" in a two-sided game (the side is ``ctx.me ^ relative``)."""
        if side is None or len(self.schema.sides) != 2:
            return None
        return {"me": 0, "opponent": 1}.get(side.kind)

    def owners(self, owners: M.Owners) -> Callable:
        """ctx.me -> whose tokens a step may move, the acting side first (worked out once per side)."""
        sides = len(self.schema.sides)
        if owners.kind == "own":
            table = tuple((s,) for s in range(sides))
        elif owners.kind == "opponent":
            table = tuple(tuple(o for o in range(sides) if o != s)[:1] for s in range(sides))
        elif owners.kind == "either":
            table = tuple((s,) + tuple(o for o in range(sides) if o != s) for s in range(sides))
        else:
            table = tuple((owners.side,) for _ in range(sides))
        return table.__getitem__

    # ============================================================ places
    def locations(self, union) -> Callable:
        """(board, ctx, it) -> the location codes of places and holders, in order, without repeats."""
        items = union.items if isinstance(union, M.Union_) else (union,)
        parts = [self.holder(item) if isinstance(item, M.Holder) else self.place_set(item) for item in items]
        result = _union(parts)
        return result

    def places(self, union) -> Callable:
        items = union.items if isinstance(union, M.Union_) else (union,)
        return _union([self.place_set(item) for item in items])

    def holder(self, holder: M.Holder) -> Callable:
        loc = self.program.locations
        if holder.kind == "supply":
            return fixed((loc.SUPPLY,))
        if holder.kind == "removed":
            return fixed((loc.removed,))
        if holder.kind == "holder":
            return fixed((loc.holder_code[holder.index],))
        if holder.kind == "track":
            return fixed((loc.track_code[holder.index],))
        if holder.kind == "box":
            return fixed((loc.box_code[(holder.index, holder.zone)],))
        return fixed((loc.above_code[(holder.index, holder.zone)],))

    def place_set(self, places) -> Callable:
        method = getattr(self, "places_" + type(places).__name__)
        resolver = method(places)
        try:
            resolver.places_only = True  # never a holder: operations list their steps the faster way
        except AttributeError:
            pass
        return resolver

    def places_Union_(self, node):
        return self.places(node)

    def places_Fixed(self, node: M.Fixed):
        return fixed(tuple(node.places))

    def places_ContextPlace(self, node: M.ContextPlace):
        if node.kind == "this":
            return lambda board, ctx, it: (ctx.place,) if ctx.place >= 0 else ()
        if node.kind == "it":
            return lambda board, ctx, it: (it,)
        return lambda board, ctx, it: (p,) if (p := chosen_place(board, ctx)) != NOBODY else ()

    def places_ContextGroupPlaces(self, node: M.ContextGroupPlaces):
        groups = self.program.group_places
        if node.kind == "this":
            resolver = lambda board, ctx, it: groups[ctx.group] if ctx.group >= 0 else ()
            resolver.by_group = groups
            return resolver
        group_of = self.program.group_of
        return lambda board, ctx, it: groups[group_of[it]] if it >= 0 and group_of[it] >= 0 else ()

    def places_CardPlaces(self, node: M.CardPlaces):
        cards = self.cards(node.cards)
        values = self.program.cards[node.cards.kind].fields[node.field]
        return lambda board, ctx, it: tuple(values[c] for c in cards(board, ctx) if values[c] >= 0)

    def places_Filtered(self, node: M.Filtered):
        base = self.place_set(node.places)
        test = self.condition(node.test)
        return lambda board, ctx, it: [p for p in base(board, ctx, it) if test(board, ctx, p)]

    def places_Related(self, node: M.Related):
        base = self.place_set(node.places)
        if node.who.kind == "nobody":
            test = lambda board, ctx, p: not any(board.controls(s, p) for s in range(board.sides))
        else:
            codes = getattr(base, "codes", None)
            layout = self.program.layout
            if (node.who.kind in ("me", "opponent") and codes is not None and len(self.schema.sides) == 2
                    and layout.tokens >= 0):
                # "X you control" in a game of two: the places' tokens compared directly (a hot path)
                first, n, other = layout.tokens, layout.places, 0 if node.who.kind == "me" else 1

                def controlled(board, ctx, it):
                    values = board.values
                    mine = first + (ctx.me ^ other) * n
                    theirs = first + (1 - (ctx.me ^ other)) * n
                    return [p for p in codes if values[mine + p] > values[theirs + p]]
                return controlled
            side = self.side(node.who)
            test = lambda board, ctx, p: board.controls(side(board, ctx), p)
        return lambda board, ctx, it: [p for p in base(board, ctx, it) if test(board, ctx, p)]

    def places_Most(self, node: M.Most):
        base = self.place_set(node.places)
        owner = self.owners(node.owner)
        pick = max if node.most else min

        def most(board, ctx, it, among=None):
            places = list(base(board, ctx, it)) if among is None else among
            if not places:
                return []
            side = owner(ctx.me)[0]
            best = pick(board.tokens_at(side, p) for p in places)
            return [p for p in places if board.tokens_at(side, p) == best]
        return most

    def places_WithTerm(self, node: M.WithTerm):
        base = self.place_set(node.places)
        term = self.term(node.term)
        return lambda board, ctx, it: [p for p in base(board, ctx, it) if term(board, ctx, p)]

    def row(self, union) -> Callable:
        """A selection row: (board, ctx, candidates) -> the candidates it keeps, in order.  A
        superlative ("spaces with the most opponent tokens") is relative to the candidates still
        left, not to the whole map (docs/rulings.md)."""
        items = union.items if isinstance(union, M.Union_) else (union,)
        parts = []
        for item in items:
            if isinstance(item, M.Most):
                base, most = self.place_set(item.places), self.places_Most(item)
                parts.append(lambda board, ctx, left, base=base, most=most:
                             most(board, ctx, NOBODY, [p for p in left if p in base(board, ctx, NOBODY)]))
            else:
                places = self.place_set(item)
                parts.append(lambda board, ctx, left, places=places: places(board, ctx, NOBODY))

        def keep(board, ctx, left):
            named = set()
            for part in parts:
                named.update(part(board, ctx, left))
            return [p for p in left if p in named]
        return keep

    def term(self, index: int) -> Callable:
        """A defined term, compiled once: (board, ctx, it) -> bool."""
        compiled = self._terms.get(index)
        if compiled is None:
            compiled = self._terms[index] = self.condition(self.program.term_meanings[index])
        return compiled

    # ============================================================ cards
    def pile_sides(self, ref: M.PileRef) -> Callable:
        """(board, ctx) -> the pile indices (in Position.piles) a reference names, in order."""
        layout = self.program.layout
        pile = ref.pile
        declared = self.schema.piles[pile]
        if not declared.each_side:
            index = layout.pile(pile)
            return lambda board, ctx: (index,)
        if ref.each:
            indices = tuple(layout.pile(pile, s) for s in range(len(self.schema.sides)))
            return lambda board, ctx: indices
        per_side = tuple((layout.pile(pile, s),) for s in range(len(self.schema.sides)))
        if ref.side is None or ref.side.kind == "me":
            return lambda board, ctx: per_side[ctx.me]
        side = self.side(ref.side)
        return lambda board, ctx: per_side[side(board, ctx)]

    def pile(self, ref: M.PileRef) -> Callable:
        """(board, ctx) -> the one pile (its index in Position.piles)."""
        layout = self.program.layout
        pile = ref.pile
        if not self.schema.piles[pile].each_side:
            index = layout.pile(pile)
            return lambda board, ctx: index
        per_side = tuple(layout.pile(pile, s) for s in range(len(self.schema.sides)))
        if ref.each:
            return lambda board, ctx: per_side[0]
        if ref.side is None or ref.side.kind == "me":
            return lambda board, ctx: per_side[ctx.me]
        side = self.side(ref.side)
        return lambda board, ctx: per_side[side(board, ctx)]

    def card(self, ref: M.CardRef) -> Callable:
        """(board, ctx) -> a card (its index in its kind), or NOBODY."""
        if ref.kind == "this":
            return lambda board, ctx: ctx.card
        if ref.kind == "last_played":
            offset = self.program.layout.last_card
            return lambda board, ctx: board.values[offset]
        if ref.kind == "term":
            term = self.program.term_cards[ref.pile.pile]
            side = self.side(ref.pile.side or M.ME)
            return lambda board, ctx: term(board, ctx.as_side(side(board, ctx)))
        pile = self.pile(ref.pile)
        if ref.kind == "current":
            counter = self.schema.piles[ref.pile.pile].position
            offset = self.program.layout.counter[self.program.counter_index[counter]]

            def current(board, ctx):
                cards = board.piles[pile(board, ctx)]
                step = board.values[offset]
                return cards[step] if 0 <= step < len(cards) else NOBODY
            return current
        # the top card (the last of the list), or the only card of a pile of one
        return lambda board, ctx: cards[-1] if (cards := board.piles[pile(board, ctx)]) else NOBODY

    def card_kind(self, ref: M.CardRef) -> int:
        if ref.pile is not None and ref.kind != "term":
            return self.program.kind_index[self.schema.piles[ref.pile.pile].kind]
        if ref.kind == "term":
            return self.program.term_kinds[ref.pile.pile]
        return self.program.played_kind

    def cards(self, node: M.Cards) -> Callable:
        """(board, ctx) -> the cards, in order: those in piles, or those face up."""
        if node.piles and node.type is not None:  # "presidents in your captured cards": of a kind field's values
            parts = [self.pile_sides(p) for p in node.piles]
            kind, field, values = node.type
            column = self.program.cards[kind].fields[field]
            members = frozenset(c for c, v in enumerate(column) if v in values)
            return lambda board, ctx: [c for part in parts for index in part(board, ctx) for c in board.piles[index]
                                       if c in members]
        if node.piles:
            parts = [self.pile_sides(p) for p in node.piles]
            return lambda board, ctx: [c for part in parts for index in part(board, ctx) for c in board.piles[index]]
        revealed = self.program.revealed_piles(node.kind)
        return lambda board, ctx: [c for flag, index in revealed if board.values[flag] for c in board.piles[index]]

    def card_filter(self, node: M.CardFilter) -> Callable:
        """(board, ctx, card) -> whether the card is one of those named and its field compares so."""
        cards = self.cards(node.cards)
        values = self.program.cards[node.cards.kind].fields[node.field]
        other, op = self.number(node.other), _COMPARE[node.op]
        return lambda board, ctx, card: card in cards(board, ctx) and op(values[card], other(board, ctx, NOBODY))

    # ============================================================ numbers
    def number(self, node) -> Callable:
        """(board, ctx, it) -> an integer."""
        if isinstance(node, M.Literal):
            value = node.value
            return lambda board, ctx, it: value
        if isinstance(node, M.CounterValue):
            counter = self.schema.counters[node.counter]
            offset = self.program.layout.counter[node.counter]
            if not counter.each_side:
                return lambda board, ctx, it: board.values[offset]
            side = self.side(node.side or M.ME)
            return lambda board, ctx, it: board.values[offset + side(board, ctx)]
        if isinstance(node, M.CardField):
            card = self.card(node.card)
            kind = self.card_kind(node.card)
            values = self.program.cards[kind].fields[node.field]
            return lambda board, ctx, it: values[c] if (c := card(board, ctx)) >= 0 else 0
        if isinstance(node, M.Count):
            return self.count(node)
        if isinstance(node, M.Sum):
            terms = [self.number(t) for t in node.terms]
            signs = (1,) + tuple(node.signs)
            return lambda board, ctx, it: sum(s * t(board, ctx, it) for s, t in zip(signs, terms))
        if isinstance(node, M.GroupRef):
            return self.group(node)
        if isinstance(node, (M.EntityField, M.EntityTotal, M.EntityExtreme, M.Distance, M.CardsTotal)):
            return self.entity_number(node)
        raise TypeError(type(node).__name__)

    def count(self, node: M.Count) -> Callable:
        if node.kind == "groups":
            groups = len(self.program.group_places)
            if node.who is None:
                return lambda board, ctx, it: groups
            if node.who.kind == "nobody":
                return lambda board, ctx, it: sum(1 for g in range(groups)
                                                  if not any(board.controls_group(s, g) for s in range(board.sides)))
            side = self.side(node.who)
            return lambda board, ctx, it: board.groups_controlled(side(board, ctx))
        if node.kind == "entities":
            members = self.entities(node.what)
            return lambda board, ctx, it: len(members(board, ctx, it))
        if node.kind == "cards":
            if isinstance(node.what, M.PileRef):
                pile = self.pile(node.what)
                return lambda board, ctx, it: len(board.piles[pile(board, ctx)])
            cards = self.cards(node.what)
            return lambda board, ctx, it: len(cards(board, ctx))
        places = self.place_set(node.what)
        return lambda board, ctx, it: len(places(board, ctx, it))

    def group(self, node: M.GroupRef) -> Callable:
        """(board, ctx, it) -> a group index, or NOBODY."""
        if node.kind == "named":
            index = node.index
            return lambda board, ctx, it: index
        if node.kind == "this":
            return lambda board, ctx, it: ctx.group
        if node.kind == "its":
            group_of = self.program.group_of
            return lambda board, ctx, it: group_of[it] if it >= 0 else NOBODY
        card = self.card(node.card)
        kind = self.card_kind(node.card)
        values = self.program.cards[kind].fields[node.field]
        return lambda board, ctx, it: values[c] if (c := card(board, ctx)) >= 0 else NOBODY

    # ============================================================ conditions
    def condition(self, node) -> Callable:
        return getattr(self, "cond_" + type(node).__name__)(node)

    def cond_AnyOf(self, node):
        items = [self.condition(i) for i in node.items]
        if len(items) == 2:  # the common case, without a generator (the Solo Opponent's Room is tested often)
            first, second = items
            return lambda board, ctx, it: True if first(board, ctx, it) or second(board, ctx, it) else False
        return lambda board, ctx, it: any(c(board, ctx, it) for c in items)

    def cond_AllOf(self, node):
        items = [self.condition(i) for i in node.items]
        if len(items) == 2:
            first, second = items
            return lambda board, ctx, it: True if first(board, ctx, it) and second(board, ctx, it) else False
        return lambda board, ctx, it: all(c(board, ctx, it) for c in items)

    def cond_Not(self, node):
        item = self.condition(node.item)
        return lambda board, ctx, it: not item(board, ctx, it)

    def cond_EachSide(self, node):
        item = self.condition(node.item)
        return lambda board, ctx, it: all(item(board, ctx.as_side(s), it) for s in range(board.sides))

    def target(self, target, kind: str) -> Callable:
        """(board, ctx, it) -> a place or a group index (NOBODY when there is none)."""
        if kind == "group":
            return self.group(target)
        places = self.place_set(target)
        return lambda board, ctx, it: p[0] if (p := places(board, ctx, it)) else NOBODY

    def cond_Controls(self, node: M.Controls):
        target = self.target(node.target, node.target_kind)
        if node.nobody:
            if node.target_kind == "group":
                return lambda board, ctx, it: ((g := target(board, ctx, it)) >= 0
                                               and not any(board.controls_group(s, g) for s in range(board.sides)))
            return lambda board, ctx, it: ((p := target(board, ctx, it)) >= 0
                                           and not any(board.controls(s, p) for s in range(board.sides)))
        side = self.side(node.side)
        if node.target_kind == "group":
            return lambda board, ctx, it: (g := target(board, ctx, it)) >= 0 and board.controls_group(side(board, ctx), g)
        return lambda board, ctx, it: (p := target(board, ctx, it)) >= 0 and board.controls(side(board, ctx), p)

    def cond_ControlsCount(self, node: M.ControlsCount):
        side, test = self.side(node.side), self.compare(node.test)
        if node.within is not None:
            group = self.group(node.within)
            places = self.program.group_places
            return lambda board, ctx, it: ((g := group(board, ctx, it)) >= 0
                                           and test(sum(1 for p in places[g] if board.controls(side(board, ctx), p))))
        everywhere = range(self.program.layout.places)
        return lambda board, ctx, it: test(sum(1 for p in everywhere if board.controls(side(board, ctx), p)))

    def cond_ControlsMore(self, node: M.ControlsMore):
        side, other = self.side(node.side), self.side(node.other)
        everywhere = range(self.program.layout.places)

        def more(board, ctx, it):
            a, b = side(board, ctx), other(board, ctx)
            return (sum(1 for p in everywhere if board.controls(a, p))
                    > sum(1 for p in everywhere if board.controls(b, p)))
        return more

    def compare(self, comparison: M.Comparison) -> Callable:
        op, n = _COMPARE[comparison.op], comparison.n
        return lambda value: op(value, n)

    def token_count(self, where) -> Callable:
        """(board, ctx, it, side) -> tokens of that side in the place set or holder."""
        if isinstance(where, M.ContextPlace) and where.kind == "it":
            return lambda board, ctx, it, side: board.tokens_at(side, it)
        if isinstance(where, M.Holder):
            code = self.holder(where).codes[0]
            return lambda board, ctx, it, side: board.count_at(side, code)
        places = self.place_set(where)
        return lambda board, ctx, it, side: sum(board.tokens_at(side, p) for p in places(board, ctx, it))

    def cond_TokensIn(self, node: M.TokensIn):
        side, test, count = self.side(node.side), self.compare(node.test), self.token_count(node.where)
        return lambda board, ctx, it: test(count(board, ctx, it, side(board, ctx)))

    def cond_TokensMore(self, node: M.TokensMore):
        side, other, count = self.side(node.side), self.side(node.other), self.token_count(node.where)
        if node.lead is None:
            return lambda board, ctx, it: (count(board, ctx, it, side(board, ctx))
                                           > count(board, ctx, it, other(board, ctx)))
        lead = self.compare(node.lead)
        return lambda board, ctx, it: lead(count(board, ctx, it, side(board, ctx))
                                           - count(board, ctx, it, other(board, ctx)))

    def cond_NumberTest(self, node: M.NumberTest):
        number = self.number(node.number)
        if node.test is not None:
            test = self.compare(node.test)
            return lambda board, ctx, it: test(number(board, ctx, it))
        other, op = self.number(node.other), _COMPARE[node.op]
        if isinstance(node.number, M.CardField) or isinstance(node.number, M.GroupRef):
            # a card's field compared: false when there is no card
            return lambda board, ctx, it: ((a := number(board, ctx, it)) is not None
                                           and (b := other(board, ctx, it)) is not None and a >= 0 and b >= 0
                                           and op(a, b))
        return lambda board, ctx, it: op(number(board, ctx, it), other(board, ctx, it))

    def cond_CounterMore(self, node: M.CounterMore):
        offset = self.program.layout.counter[node.counter]
        a, b = self.relative(node.side), self.relative(node.other)
        if a is not None and b is not None and not node.fewer:  # the usual form, asked at every first-player check
            return lambda board, ctx, it: board.values[offset + (ctx.me ^ a)] > board.values[offset + (ctx.me ^ b)]
        side, other = self.side(node.side), self.side(node.other)
        if node.fewer:
            return lambda board, ctx, it: board.values[offset + side(board, ctx)] < board.values[offset + other(board, ctx)]
        return lambda board, ctx, it: board.values[offset + side(board, ctx)] > board.values[offset + other(board, ctx)]

    def cond_IsFirstPlayer(self, node: M.IsFirstPlayer):
        side = self.side(node.side)
        return lambda board, ctx, it: board.first_player() == side(board, ctx)

    def cond_IsSide(self, node: M.IsSide):
        named, relative = node.named, self.relative(node.side)
        if relative is not None:
            return lambda board, ctx, it: ctx.me ^ relative == named
        side = self.side(node.side)
        return lambda board, ctx, it: side(board, ctx) == named

    def cond_IsRole(self, node: M.IsRole):
        side, negated = self.side(node.side), node.negated
        if node.role in self.program.declarations.registers:
            offset = self.program.layout.register[self.program.declarations.registers.index(node.role)]
            return lambda board, ctx, it: (board.values[offset] == side(board, ctx)) != negated
        role = self.program.declarations.roles.index(node.role)
        return lambda board, ctx, it: (board.solo is not None and board.solo.role(role) == side(board, ctx)) != negated

    def cond_HasAttribute(self, node: M.HasAttribute):
        places = self.place_set(node.place)
        members = frozenset(self.program.place_index[p] for p in self.schema.map.attributes[node.attribute])
        if isinstance(node.place, M.ContextPlace) and node.place.kind == "that":
            return lambda board, ctx, it: bool(p := places(board, ctx, it)) and p[0] in members
        return lambda board, ctx, it: bool(p := places(board, ctx, it)) and p[0] >= 0 and p[0] in members

    def cond_ZoneEntered(self, node: M.ZoneEntered):
        zone = node.zone
        side = self.side(zone.side)
        layout = self.program.layout
        return lambda board, ctx, it: bool(board.values[layout.entered + layout.zone_slot(side(board, ctx), zone.track,
                                                                                           zone.zone)])

    def cond_MarkerAt(self, node: M.MarkerAt):
        offset = self.program.layout.marker + node.marker
        if node.where is None:
            off = node.off
            return lambda board, ctx, it: (board.values[offset] == NOBODY) == off
        places = self.places(node.where)
        return lambda board, ctx, it: board.values[offset] in places(board, ctx, it)

    def cond_CardIs(self, node: M.CardIs):
        card, term = self.card(node.card), self.term(node.term)
        return lambda board, ctx, it: (c := card(board, ctx)) >= 0 and term(board, ctx._replace(card=c), NOBODY)

    def cond_CardFor(self, node: M.CardFor):
        card, side = self.card(node.card), self.side(node.side)
        kind = self.card_kind(node.card)
        usable = self.program.cards[kind].sides_field()
        only = node.only

        def card_for(board, ctx, it):
            c = card(board, ctx)
            if c < 0:
                return False
            s = side(board, ctx)
            return s in usable[c] and not (only and len(usable[c]) > 1)
        return card_for

    def cond_PlayedBy(self, node: M.PlayedBy):
        card, side = self.card(node.card), self.side(node.side)
        layout = self.program.layout
        return lambda board, ctx, it: ((c := card(board, ctx)) >= 0 and board.values[layout.last_card] == c
                                       and board.values[layout.last_side] == side(board, ctx))

    def cond_CardWould(self, node: M.CardWould):
        from .sequence import card_rule
        card = self.card(node.card)
        kind = self.card_kind(node.card)
        program = self.program

        def would(board, ctx, it):
            from .machine import predict
            c = card(board, ctx)
            rule = card_rule(program, kind, c)
            if rule is None:
                return False
            event_ctx = program.card_ctx(ctx.me, kind, c)
            return rule.can_act(board, event_ctx) and predict(board, rule, event_ctx).pieces
        return would

    def change(self, node: M.Change) -> "_Change":
        if node.target_kind == "places":
            return _Change(node.gain, self.side(node.side), "places", self.group(node.target), self.program)
        return _Change(node.gain, self.side(node.side), node.target_kind, self.target(node.target, node.target_kind),
                       self.program)

    def cond_Would(self, node: M.Would):
        here = self._would_here(node)
        if here is not None:
            return here
        change, owner = self.change(node.change), self.owners(node.owners)
        step = 1 if node.verb == "place" else -1
        negated = node.negated
        layout = self.program.layout

        def would(board, ctx, it):
            side = owner(ctx.me)[0]
            tokens = board.tokens_at(side, it)
            if (tokens >= board.max_per_place) if step > 0 else (tokens == 0):
                return negated  # the step cannot be taken, so it changes nothing
            before = change.before(board, ctx, it)
            offset = layout.tokens_of(side) + it
            board.values[offset] += step
            try:
                happened = change.happened(board, ctx, it, before)
            finally:
                board.values[offset] -= step
            return happened != negated
        return would

    def _would_here(self, node: M.Would):
        """"placing (removing) a token there would give (cost) you control of it / of its group" in a
        game of two, where "there" is the place tested: the tokens compared directly, as
        ``cond_Would`` would (the solo aid's rows ask it of every legal place, at every choice)."""
        change, layout = node.change, self.program.layout
        who = self.relative(change.side)
        if who is None or layout.tokens < 0 or node.owners.kind not in ("own", "opponent"):
            return None
        target = change.target
        if change.target_kind == "place" and isinstance(target, M.ContextPlace) and target.kind == "it":
            group = False
        elif change.target_kind == "group" and isinstance(target, M.GroupRef) and target.kind == "its":
            group = True
        else:
            return None
        mover = 0 if node.owners.kind == "own" else 1
        step = 1 if node.verb == "place" else -1
        gain, negated = change.gain, node.negated
        first, n, most = layout.tokens, layout.places, self.schema.tokens.at_most_per_place
        group_places, group_of = self.program.group_places, self.program.group_of

        def held(values, mine, theirs, places):
            for p in places:
                if values[mine + p] <= values[theirs + p]:
                    return False
            return True

        def would(board, ctx, it):
            values = board.values
            offset = first + (ctx.me ^ mover) * n + it
            tokens = values[offset]
            if (tokens >= most) if step > 0 else (tokens == 0):
                return negated  # the step cannot be taken, so it changes nothing
            mine = first + (ctx.me ^ who) * n
            theirs = first + (1 - (ctx.me ^ who)) * n
            if group:
                if group_of[it] < 0:
                    return negated  # no group: nobody controls it, before or after
                places = group_places[group_of[it]]
                before = held(values, mine, theirs, places)
                values[offset] += step
                after = held(values, mine, theirs, places)
            else:
                before = values[mine + it] > values[theirs + it]
                values[offset] += step
                after = values[mine + it] > values[theirs + it]
            values[offset] -= step
            return ((after and not before) if gain else (before and not after)) != negated
        return would

    def cond_AllInOneGroup(self, node: M.AllInOneGroup):
        cards = self.cards(node.cards)
        also = self.cards(node.also) if node.also is not None else (lambda board, ctx: ())
        values = self.program.cards[node.cards.kind].fields[self.program.cards[node.cards.kind].place_field()]
        group_of = self.program.group_of
        return lambda board, ctx, it: len({group_of[values[c]] for c in list(cards(board, ctx)) +
                                           list(also(board, ctx))}) <= 1

    def cond_Named(self, node: M.Named):
        program = self.program
        index = node.procedure
        return lambda board, ctx, it: program.procedure_conditions[index](board, ctx, it)

    def cond_Term(self, node: M.Term):
        return self.term(node.term)


class _Change:
    """A change of control, compiled: what held before, and whether it changed."""

    def __init__(self, gain: bool, side, target_kind: str, target, program):
        self.gain, self.side, self.target_kind, self.target, self.program = gain, side, target_kind, target, program

    def _held(self, board, side, target):
        if self.target_kind == "places":
            return frozenset(p for p in self.program.group_places[target] if board.controls(side, p))
        if target < 0:
            return False
        if self.target_kind == "place":
            return board.controls(side, target)
        return board.controls_group(side, target)

    def before(self, board, ctx, it):
        return self._held(board, self.side(board, ctx), self.target(board, ctx, it))

    def happened(self, board, ctx, it, before) -> bool:
        now = self._held(board, self.side(board, ctx), self.target(board, ctx, it))
        if self.target_kind == "places":
            return bool(now - before) if self.gain else bool(before - now)
        return (now and not before) if self.gain else (before and not now)
