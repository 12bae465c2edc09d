"""AST -> executable operations.

Each statement becomes an ``Op`` whose ``run`` is a generator: it changes the
state through the ``Executor`` and, whenever a player has a real choice,
yields a ``Decision`` and receives the chosen ``Action``.  A choice with a
single legal action is not a choice, so it is taken without asking.

Conditions become closures ``(ex, ctx, it) -> bool`` and space sets closures
``(ex, ctx, it) -> spaces``, where ``it`` is the space a "where" clause tests.
Names were resolved by the checker; here they become indices, once.
"""

from __future__ import annotations

import operator
from typing import Callable, List, NamedTuple, Optional, Sequence, Tuple

import attrs

from crisis.ruleset import ast as A
from crisis.ruleset import limits
from crisis.ruleset.diagnostics import UserError, diagnostic_at

from .actions import DONE, Action, Decision
from .state import NOBODY

# --------------------------------------------------------------- run context


class Ctx(NamedTuple):
    """Who is acting, and what the rule is running for.

    Immutable; a named tuple because effects make many of them and a tuple is
    the cheapest immutable record to build.
    """

    me: int
    dimension: int = -1
    space: int = -1
    revealed: Tuple[int, ...] = ()
    value: int = 0  # the card's value, for a value play
    reason: str = ""  # what this effect is part of (card, breach, scoring line)
    # [space] chosen by the latest token or marker step of this effect, for "that space"
    # (only effects that say "that space" carry one: see Compiler.block)
    chosen: Optional[list] = None
    card: int = -1  # "the card", in a definition about a card

    def as_side(self, me: int) -> "Ctx":
        """The same context for another player."""
        return Ctx(me, self.dimension, self.space, self.revealed, self.value, self.reason, self.chosen, self.card)


# a bare context per side, for conditions asked about each player (Ctx is immutable)
SIDE_CTX = (Ctx(0), Ctx(1))


class RuleWorkError(UserError):
    """A rule took more work than any rule ``crisis check`` accepts can take (docs/limits.md)."""

    @classmethod
    def at(cls, tables, node, ctx: "Ctx") -> "RuleWorkError":
        """The error, at the statement in its file when the content holds the rule (else named by its reason)."""
        message = (f"the rule did more than {limits.MAX_WORK_BETWEEN_DECISIONS:,} steps of work "
                   f"without a decision, so the game stops here")
        rule = _rule_holding(tables.content, node) if node is not None else None
        pos = getattr(node, "pos", None)
        if rule is None or pos is None:  # named by what it was running for (a card, a procedure)
            return cls(f"{ctx.reason or 'a rule'}: {message}")
        return cls(diagnostic_at(rule.source, pos.line, pos.column, message,
                                 hint="crisis check should have refused this rule: please report it"))


def _rule_holding(content, node):
    """The content's rule whose text holds ``node`` (for locating an error), or None."""
    procedures, solo = content.procedures, content.solo
    rules = [card.event for card in content.strategy_cards + content.objective_cards]
    rules += [getattr(procedures, field) for field in ("pivotal_bonus", "dimension_scoring", "objective_scoring",
                                                       "final_crisis_start", "final_crisis_matching",
                                                       "final_crisis_not_matching")]
    rules += [rule for pair in procedures.breach_effects.values() for rule in pair]
    rules += [rule for _, rule in procedures.final_scoring]
    if solo is not None:
        rules += list(solo.opponent.values()) + list(solo.rules.values())
        rules += [rule for _, rule in solo.terms.values()]
    for rule in rules:
        tree = getattr(rule, "tree", None)
        if isinstance(tree, A.Node) and any(part is node for part in tree.walk()):
            return rule
    return None


class FixedRollError(UserError):
    """A die roll fixed in advance (a scenario's ``dice``) that the die it is used for cannot show."""

    def __init__(self, roll: int, faces: int, left: int):
        self.roll, self.faces, self.left = roll, faces, left  # left: the fixed rolls still unused after it
        super().__init__(f"a die roll of {roll} cannot come from the {faces}-sided die rolled here (1 to {faces})")


@attrs.frozen(slots=True)
class LogEntry:
    key: str
    params: dict


class Executor:
    """Applies operations to a state.  The only code that moves tokens."""

    __slots__ = ("tables", "state", "log", "locations", "max_per_space", "_block_place", "_block_remove",
                 "_first_by_vp", "_first_vp", "_first", "markers_seen", "no_place", "no_remove",
                 "solo", "shortfall", "work")

    def __init__(self, tables, state, log: Optional[list] = None, solo=None):
        self.tables = tables
        self.state = state
        self.log = log
        self.locations = tables.locations
        self.max_per_space = tables.max_per_space
        self._block_place = tables.blocks_placement
        self._block_remove = tables.blocks_removal
        self._first_by_vp = tables.first_player_by_vp
        self._first_vp = None  # VP when the first player was last worked out, and who it was
        self._first = 0
        # spaces where markers block placing / removing, as of ``markers_seen`` (see ``see_markers``)
        self.markers_seen: Optional[list] = None
        self.no_place: Tuple[int, ...] = ()
        self.no_remove: Tuple[int, ...] = ()
        # the solo opponent's rules when the game plays one side (interpreter/solo.py)
        self.solo = solo
        # token steps an effect could not take (for "can be carried out fully")
        self.shortfall = 0
        # steps of work since the last decision (ruleset/cost.py counts the same): whoever drives the
        # game sets it to 0 at each decision, and ``charge`` stops a rule that goes past the budget
        self.work = 0

    def charge(self, steps: int, node, ctx: "Ctx") -> None:
        """Count steps of work; past ``MAX_WORK_BETWEEN_DECISIONS`` the rule is stopped (never a hang)."""
        self.work += steps
        if self.work > limits.MAX_WORK_BETWEEN_DECISIONS:
            raise RuleWorkError.at(self.tables, node, ctx)

    def emit(self, key: str, **params) -> None:
        """Log an event.  Code run often tests ``log is not None`` first: the
        parameters cost something to build even when no log is kept."""
        if self.log is not None:
            self.log.append(LogEntry(key, params))

    # ------------------------------------------------------------ players
    def first_player(self) -> int:
        """rulebook: First Player.  Evaluated each time the rules ask -- or, when the
        rules read nothing but VP (and sides), kept until the VP change."""
        solo = self.solo
        if solo is not None and solo.rules.first_player:  # the solo game's own rule (solo rulebook)
            return self._first_of(solo.rules.first_player)
        if self._first_by_vp:
            vp = self.state.vp
            if vp == self._first_vp:
                return self._first
            self._first_vp = list(vp)
            self._first = self._first_player()
            return self._first
        return self._first_player()

    def _first_player(self) -> int:
        return self._first_of(self.tables.first_player_rules)

    def _first_of(self, rules) -> int:
        for rule in rules:
            holds0 = rule(self, SIDE_CTX[0], NOBODY)
            if holds0 != rule(self, SIDE_CTX[1], NOBODY):
                return 0 if holds0 else 1
        return 0

    def order(self) -> Tuple[int, int]:
        first = self.first_player()
        return first, 1 - first

    def roll(self, count: int) -> Tuple[int, List[int], int]:
        """A die roll choosing one of ``count`` things: (index, the rolls made, faces).

        A six-sided die (twelve-sided for more than six things), from the
        game's generator unless a scenario fixed the rolls.  When the count
        divides the faces each thing gets an equal range (2 things: 1-3, 4-6);
        otherwise a roll above the count is rolled again (docs/rulings.md).
        """
        st = self.state
        faces = 6 if count <= 6 else 12
        rolls: List[int] = []
        for _ in range(1000):  # a reroll is rare; the bound keeps the loop finite
            if st.dice:
                roll = st.dice.pop(0)
                if roll > faces:  # fixed in advance, before anyone knew which die it would be
                    raise FixedRollError(roll, faces, len(st.dice))
            else:
                roll = st.rng.randint(1, faces)
            rolls.append(roll)
            if faces % count == 0:
                index = (roll - 1) // (faces // count)
                break
            if 1 <= roll <= count:
                index = roll - 1
                break
        else:
            index = (rolls[-1] - 1) % count
        st.reveals += 1  # chance made known: undo may not cross it
        return index, rolls, faces

    def roll_among(self, count: int, names: Sequence[str] = ()) -> int:
        """A die roll among ``count`` things, logged with their names; returns the index."""
        index, rolls, faces = self.roll(count)
        if names:
            self.emit("log.die", rolls=rolls, faces=faces, among=list(names), chosen=names[index])
        return index

    def controls(self, side: int, space: int) -> bool:
        tokens = self.state.tokens
        return tokens[side][space] > tokens[1 - side][space]

    def controls_dimension(self, side: int, dimension: int) -> bool:
        tokens = self.state.tokens
        mine, theirs = tokens[side], tokens[1 - side]
        for space in self.tables.dimension_spaces[dimension]:
            if mine[space] <= theirs[space]:
                return False
        return True

    def dimensions_controlled(self, side: int) -> int:
        """How many dimensions ``side`` controls (every space of it)."""
        tokens = self.state.tokens
        mine, theirs = tokens[side], tokens[1 - side]
        count = 0
        for spaces in self.tables.dimension_spaces:
            for space in spaces:
                if mine[space] <= theirs[space]:
                    break
            else:
                count += 1
        return count

    # ------------------------------------------------------------- tokens
    def placement_blocked(self, space: int) -> bool:
        """rulebook: Peace Commissioner, Effect -- no token is placed in its space."""
        return self._marker_in(space, self._block_place)

    def removal_blocked(self, space: int) -> bool:
        """... nor removed from it."""
        return self._marker_in(space, self._block_remove)

    def see_markers(self) -> None:
        """Work out ``no_place`` and ``no_remove`` again.  Callers listing steps do so when
        ``state.markers`` differs from ``markers_seen``: markers seldom move, steps are listed
        all the time."""
        self.markers_seen = list(self.state.markers)
        self.no_place = self.blocked_spaces(self._block_place)
        self.no_remove = self.blocked_spaces(self._block_remove)

    def blocked_spaces(self, markers) -> Tuple[int, ...]:
        """The spaces where these markers are (those on the map)."""
        where = self.state.markers
        if len(markers) == 1:
            space = where[markers[0]]
            return () if space == NOBODY else (space,)
        return tuple(where[m] for m in markers if where[m] != NOBODY)

    def _marker_in(self, space: int, markers) -> bool:
        where = self.state.markers
        return any(where[m] == space for m in markers)

    def can_take(self, side: int, source: int) -> bool:
        st, loc = self.state, self.locations
        if source < loc.n:
            return st.tokens[side][source] > 0 and not self.removal_blocked(source)
        if source == loc.SUPPLY:
            return st.pool[side] > 0 or st.track[side] > 0
        if source == loc.POOL:
            return st.pool[side] > 0
        if source == loc.TRACK:
            return st.track[side] > 0
        if source >= loc.first_above:
            # the next token taken sits on space track-1: is it above the zone?
            return st.track[side] > self.tables.zones[source - loc.first_above].top + 1
        return st.boxes[side][source - loc.first_box] > 0

    def can_put(self, side: int, dest: int) -> bool:
        loc = self.locations
        if dest < loc.n:
            return self.state.tokens[side][dest] < self.max_per_space and not self.placement_blocked(dest)
        if dest == loc.TRACK:
            return self.state.track[side] < self.tables.track_size
        return dest == loc.POOL  # tokens never go back into a bonus box

    def take(self, side: int, source: int) -> None:
        st, loc = self.state, self.locations
        if source < loc.n:
            st.tokens[side][source] -= 1
        elif source == loc.SUPPLY:
            # rulebook: Political Capital Tokens -- the pool first, then the track
            if st.pool[side] > 0:
                st.pool[side] -= 1
            else:
                self._take_from_track(side)
        elif source == loc.POOL:
            st.pool[side] -= 1
        elif source == loc.TRACK or source >= loc.first_above:
            self._take_from_track(side)
        else:
            st.boxes[side][source - loc.first_box] -= 1

    def _take_from_track(self, side: int) -> None:
        st = self.state
        st.track[side] -= 1
        # the token leaves the highest-numbered space still covered
        zone = self.tables.zone_of_track_space[st.track[side]]
        if not st.breached[side][zone]:
            st.breached[side][zone] = True
            if self.tables.zones[zone].box:
                st.pending_breaches[side].append(zone)

    def put(self, side: int, dest: int) -> None:
        st, loc = self.state, self.locations
        if dest < loc.n:
            st.tokens[side][dest] += 1
        elif dest == loc.POOL:
            st.pool[side] += 1
        else:
            st.track[side] += 1

    def change_vp(self, side: int, delta: int, reason: str) -> int:
        """Add (or take away) VP; the VP track has no negative spaces."""
        st = self.state
        if delta < 0:
            delta = -min(-delta, st.vp[side])
        if delta:
            st.vp[side] += delta
            if self.log is not None:
                self.emit("log.vp_gain" if delta > 0 else "log.vp_loss", side=self.tables.sides[side],
                          n=abs(delta), reason=reason)
        return delta


# --------------------------------------------------------------- operations
#
# ``run(ex, ctx)`` returns an iterator of the decisions the operation asks,
# to drive with ``yield from``: a generator when the operation may ask a
# player, else the empty tuple once its effect is done.  Not making a
# generator where nothing is ever asked (and passing a branch's iterator
# through rather than wrapping it) keeps a random game fast; the effect and
# its order are the same either way.

NO_DECISIONS = ()


def decisions(op: "Op", ex: "Executor", ctx: Ctx):
    """Run ``op`` and return its decisions as a generator, to drive with ``next`` and ``send``.

    ``run`` gives the empty tuple when the op asked nothing (its effect is
    already done); code that steps through decisions by hand needs the
    generator protocol either way."""
    run = op.run(ex, ctx)
    return run if hasattr(run, "send") else _asked_nothing()


def _asked_nothing():
    return
    yield


class Op:
    node: Optional[A.Node] = None
    asks = True  # whether running it may ask a player to choose (known when compiled)

    def run(self, ex: Executor, ctx: Ctx):  # pragma: no cover - abstract
        raise NotImplementedError

    def can_act(self, ex: Executor, ctx: Ctx) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError


class BlockOp(Op):
    def __init__(self, ops: Sequence[Op], node=None):
        self.ops = tuple(ops)
        self.node = node
        self.asks = any(op.asks for op in self.ops)
        if len(self.ops) == 1:  # nothing to sequence: no iterator of its own
            self.run = self.ops[0].run
            self.can_act = self.ops[0].can_act

    def run(self, ex, ctx):
        if self.asks:
            return self._sequence(ex, ctx)
        for op in self.ops:
            op.run(ex, ctx)
        return NO_DECISIONS

    def _sequence(self, ex, ctx):
        for op in self.ops:
            yield from op.run(ex, ctx)

    def can_act(self, ex, ctx):
        for op in self.ops:
            if op.can_act(ex, ctx):
                return True
        return False


class EffectOp(Op):
    """A whole effect that says "that space": it remembers the space each step chooses."""

    def __init__(self, block: BlockOp):
        self.block, self.node = block, block.node
        self.asks = block.asks

    def run(self, ex, ctx):
        return self.block.run(ex, ctx._replace(chosen=[NOBODY]))

    def can_act(self, ex, ctx):
        return self.block.can_act(ex, ctx._replace(chosen=[NOBODY]))


class IfOp(Op):
    def __init__(self, condition, then: BlockOp, otherwise: Optional[BlockOp], node=None, trace: bool = False):
        self.condition, self.then, self.otherwise, self.node = condition, then, otherwise, node
        self.asks = then.asks or (otherwise is not None and otherwise.asks)
        self.trace = trace  # log the test and its answer (the solo opponent's procedures explain themselves)

    def _branch(self, ex, ctx):
        return self.then if self.condition(ex, ctx, NOBODY) else self.otherwise

    def run(self, ex, ctx):
        holds = self.condition(ex, ctx, NOBODY)
        if self.trace and ex.log is not None:
            ex.emit("log.solo.if", side=ex.tables.sides[ctx.me], rule=self.node.condition, holds=holds)
        branch = self.then if holds else self.otherwise
        return NO_DECISIONS if branch is None else branch.run(ex, ctx)

    def can_act(self, ex, ctx):
        branch = self._branch(ex, ctx)
        return branch is not None and branch.can_act(ex, ctx)


class EitherOp(Op):
    """Exclusive options.  An option that would change nothing cannot be
    chosen while another would change something (docs/rulings.md)."""

    def __init__(self, options: Sequence[BlockOp], node=None, actions: Sequence[Action] = ()):
        self.options, self.node = tuple(options), node
        self.actions = tuple(actions)  # "option 1", "option 2"...

    def run(self, ex, ctx):
        possible = []
        for index, option in enumerate(self.options):
            if option.can_act(ex, ctx):
                possible.append(index)
        if not possible:
            ex.shortfall += 1
            return NO_DECISIONS
        if len(possible) == 1:
            return self.options[possible[0]].run(ex, ctx)
        return self._choose(ex, ctx, possible)

    def _choose(self, ex, ctx, possible):
        actions = self.actions
        action = yield Decision(ctx.me, "option", [actions[i] for i in possible], False, 0, False, self.node,
                                origin=(self, ctx))
        yield from self.options[action.a].run(ex, ctx)

    def can_act(self, ex, ctx):
        return any(option.can_act(ex, ctx) for option in self.options)


class EachPlayerOp(Op):
    """Run for each player, first player first; the body's "you" is that player."""

    def __init__(self, body: Op, node=None):
        self.body, self.node = body, node
        self.asks = body.asks

    def run(self, ex, ctx):
        ex.charge(2, self.node, ctx)
        if self.asks:
            return self._both(ex, ctx)
        first = ex.first_player()
        self.body.run(ex, ctx.as_side(first))
        self.body.run(ex, ctx.as_side(1 - first))
        return NO_DECISIONS

    def _both(self, ex, ctx):
        for side in ex.order():
            yield from self.body.run(ex, ctx.as_side(side))

    def can_act(self, ex, ctx):
        return any(self.body.can_act(ex, ctx.as_side(side)) for side in (0, 1))


class OpponentOp(Op):
    def __init__(self, body: Op, node=None):
        self.body, self.node = body, node
        self.asks = body.asks

    def run(self, ex, ctx):
        return self.body.run(ex, ctx.as_side(1 - ctx.me))

    def can_act(self, ex, ctx):
        return self.body.can_act(ex, ctx.as_side(1 - ctx.me))


class VpOp(Op):
    asks = False

    def __init__(self, gain: bool, amount: int, per, node=None):
        self.gain, self.amount, self.per, self.node = gain, amount, per, node

    def _delta(self, ex, ctx):
        count = 1 if self.per is None else self.per(ex, ctx)
        return self.amount * count * (1 if self.gain else -1)

    def run(self, ex, ctx):
        ex.change_vp(ctx.me, self._delta(ex, ctx), ctx.reason)
        return NO_DECISIONS

    def can_act(self, ex, ctx):
        delta = self._delta(ex, ctx)
        return delta > 0 or (delta < 0 and ex.state.vp[ctx.me] > 0)


class PlaceMarkerOp(Op):
    def __init__(self, marker: int, spaces, node=None):
        self.marker, self.spaces, self.node = marker, spaces, node

    def run(self, ex, ctx):
        spaces = self.spaces(ex, ctx, NOBODY)
        if not spaces:
            ex.shortfall += 1
            return NO_DECISIONS
        return self._place(ex, ctx, spaces)

    def _place(self, ex, ctx, spaces):
        if len(spaces) == 1:
            space = spaces[0]
        else:
            marker = ex.tables.actions.marker
            action = yield Decision(ctx.me, "marker", [marker(self.marker, s) for s in spaces], rule=self.node)
            space = action.a
        ex.state.markers[self.marker] = space
        if ctx.chosen is not None:
            ctx.chosen[0] = space
        ex.emit("log.marker", side=ex.tables.sides[ctx.me], marker=ex.tables.markers[self.marker].name,
                space=ex.tables.spaces[space])

    def can_act(self, ex, ctx):
        return bool(self.spaces(ex, ctx, NOBODY))


class RemoveMarkerOp(Op):
    asks = False

    def __init__(self, marker: int, node=None):
        self.marker, self.node = marker, node

    def run(self, ex, ctx):
        if ex.state.markers[self.marker] != NOBODY:
            ex.state.markers[self.marker] = NOBODY
            ex.emit("log.marker_removed", marker=ex.tables.markers[self.marker].name)
        return NO_DECISIONS

    def can_act(self, ex, ctx):
        return ex.state.markers[self.marker] != NOBODY


class TransferOp(Op):
    """Place, remove or move tokens, one token per step.

    ``sources``/``dests`` are location resolvers ``(ex, ctx, owner) -> codes``.
    Exactly n: every step must be taken while one is legal.  Up to n: the
    player may stop ("done") after any step.  All: until none is legal.
    Each: n tokens into every destination space in turn.
    """

    remember = False  # set in effects that say "that space": each step records its space

    def __init__(self, verb: str, amount: str, n: int, owners, sources, dests, each: bool,
                 limit: Optional[int], node=None, one_space: bool = False, count=None):
        self.verb, self.amount, self.n = verb, amount, n
        self.count = count  # (ex, ctx) -> n, for an amount read from a card
        # who makes the step's choices: a die roll, or the other player ("all" or only "tokens")
        self.random = bool(getattr(node, "random", False))
        self.chooser = getattr(node, "chooser", None)
        self.owners, self.sources, self.dests = owners, sources, dests
        # whose tokens depend only on who acts (Compiler.owners): looked up, not worked out, in the hot path
        self.owners_of = (owners(SIDE_CTX[0]), owners(SIDE_CTX[1]))
        self.each, self.limit, self.node = each, limit, node
        self.one_space = one_space
        # limits, "each" and "one space" are about the spaces tokens leave for a
        # removal, and the spaces they arrive in otherwise
        self.limit_on_source = verb == "remove"
        self.by_value = amount == "value"
        self.all_tokens = amount == "all"
        self.optional = amount != "exactly"  # "up to": the player may stop ("done") after any step
        # where the tokens went matters only to limits, "each" and "one space"
        self.counts_steps = limit is not None or each or one_space
        self.counted = self.counts_steps or self.all_tokens  # run step by step with ``apply``
        # places that do not depend on the position are resolved once, here
        self.fixed_sources = getattr(sources, "codes", None)
        self.fixed_dests = getattr(dests, "codes", None)
        self._grids = None  # this verb's interned steps: anyone's, then per owner (at the first listing)
        self._source = self._dest = -1
        self._pairs_by_dimension = None
        self._whole_rows = self._rows_without = None
        self.sources_are_spaces = getattr(sources, "spaces_only", False)
        self.dests_are_spaces = getattr(dests, "spaces_only", False)

    def _count(self, ex, ctx) -> int:
        if self.count is not None:
            return self.count(ex, ctx)
        return ctx.value if self.by_value else self.n

    def steps(self, ex, ctx, owners, counts, only: int = -1) -> List[Action]:
        """The legal steps, less those the solo opponent may not take (solo rulebook,
        Performing Events: it places only Available tokens, only in spaces with Room)."""
        legal = self.legal(ex, ctx, owners, counts, only)
        solo = ex.solo
        if solo is not None and legal and ctx.me == solo.side:
            legal = solo.placeable(ex, owners, legal)
        return legal

    def choose(self, ex, ctx, legal, owners, optional: bool = False, remaining: int = 0):
        """The step to take: asked of the acting player (or, with "the opponent
        choosing", of the other one), or rolled for with "at random"."""
        if self.random:
            choices = [a for a in legal if a is not DONE]
            index = ex.roll_among(len(choices), [self.describe(ex, a) for a in choices]) if len(choices) > 1 else 0
            return choices[index]
        if len(legal) == 1:
            return legal[0]
        if self.chooser is None:
            action = yield Decision(ctx.me, self.verb, legal, optional, remaining, False, self.node, owners[0])
            return action
        other = 1 - ctx.me
        if self.chooser == "tokens" and self.verb == "move" and len({a.b for a in legal if a is not DONE}) > 1:
            # the acting player picks where the token goes; the other player, which token
            first = yield Decision(ctx.me, self.verb, legal, optional, remaining, False, self.node, owners[0],
                                   stage="destination")
            if first is DONE:
                return DONE
            legal = [a for a in legal if a is not DONE and a.b == first.b]
            optional = False
            if len(legal) == 1:
                return legal[0]
        action = yield Decision(other, self.verb, legal, optional, remaining, False, self.node, owners[0],
                                on_behalf=ctx.me)
        return action

    def describe(self, ex, action: Action) -> str:
        """The space a step is about, for a die roll's trace."""
        names = ex.locations.names
        return names[action.a] if self.verb == "remove" else names[action.b]

    def legal(self, ex, ctx, owners, counts, only: int = -1) -> List[Action]:
        """Legal one-token steps; ``only`` restricts the limited side to one space.

        The hot path of every game.  At the first call the statement picks, once,
        the way to list its steps that fits its shape (below); every way gives
        the same steps in the same order: by destination, then by source.  The
        order is part of what a seed means, since a random bot picks by position.
        """
        self._prepare(ex)
        return self.legal(ex, ctx, owners, counts, only)

    def has_step(self, ex, ctx, owners) -> bool:
        """Whether a first step is legal (the same rules as ``legal``, stopping at the first)."""
        self._prepare(ex)
        return self.has_step(ex, ctx, owners)

    def _prepare(self, ex) -> None:
        n = ex.locations.n
        table = ex.tables.actions
        self._grids = (table.steps(self.verb, -1), table.steps(self.verb, 0), table.steps(self.verb, 1))
        sources, dests = self.fixed_sources, self.fixed_dests
        plain = self.limit is None and not self.each and not self.one_space
        from_spaces = self.sources_are_spaces or (sources is not None and all(c < n for c in sources))
        to_spaces = self.dests_are_spaces or (dests is not None and all(c < n for c in dests))
        one_holder = sources is not None and len(sources) == 1 and sources[0] >= n
        self.has_step = lambda ex, ctx, owners: bool(self.legal(ex, ctx, owners, {}))
        if plain and one_holder and dests is not None and to_spaces:
            source = self._source = sources[0]
            # into every space (a value play): while no space is full, the steps are the whole
            # row, or the whole row but the space a marker blocks -- lists made here, once
            if tuple(dests) == tuple(range(n)):
                self._whole_rows = tuple([grid[source][d] for d in dests] for grid in self._grids)
                self._rows_without = tuple([[a for a in whole if a.b != space] for space in range(n)]
                                           for whole in self._whole_rows)
            self.legal, self.has_step = self._from_holder_to_spaces, self._has_from_holder_to_spaces
        elif plain and one_holder and dests is not None and len(dests) == 1 and n <= dests[0] != sources[0]:
            self._source, self._dest = sources[0], dests[0]
            self.legal = self._between_holders
        elif plain and from_spaces and dests is not None and len(dests) == 1 and dests[0] >= n:
            dest = dests[0]
            self._dest = dest
            self._columns = tuple([grid[s][dest] for s in range(n)] for grid in self._grids)
            self.legal, self.has_step = self._from_spaces_to_holder, self._has_from_spaces_to_holder
        elif plain and to_spaces and from_spaces:
            self._pairs = {}
            self.legal, self.has_step = self._between_spaces, self._has_between_spaces
            # places that are fixed or "this dimension": every dimension's pairs, listed now
            source_sets = sources or getattr(self.sources, "by_dimension", None)
            dest_sets = dests or getattr(self.dests, "by_dimension", None)
            if source_sets is not None and dest_sets is not None and (sources is None or dests is None):
                dims = range(len(ex.tables.dimensions))
                self._pairs_by_dimension = tuple(
                    tuple(self._pairs_between(sources or source_sets[d], dests or dest_sets[d], named)
                          for d in dims) for named in (False, True))
        elif plain and to_spaces and sources is not None:
            self.legal = self._from_places_to_spaces
        else:
            self.legal = self._any_shape

    def _from_holder_to_spaces(self, ex, ctx, owners, counts, only: int = -1) -> List[Action]:
        """Tokens from one holder (the supply, the pool, a box) into fixed spaces: a value play."""
        source, dests = self._source, self.fixed_dests
        st = ex.state
        maximum = ex.max_per_space
        if ex.state.markers != ex.markers_seen:
            ex.see_markers()
        blocked = ex.no_place
        out = []
        for owner in owners:
            if not ex.can_take(owner, source):
                continue
            mine = st.tokens[owner]
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

    def _has_from_holder_to_spaces(self, ex, ctx, owners) -> bool:
        source = self._source
        maximum = ex.max_per_space
        if ex.state.markers != ex.markers_seen:
            ex.see_markers()
        blocked = ex.no_place
        for owner in owners:
            if ex.can_take(owner, source):
                mine = ex.state.tokens[owner]
                for d in self.fixed_dests:
                    if mine[d] < maximum and d not in blocked:
                        return True
        return False

    def _between_holders(self, ex, ctx, owners, counts, only: int = -1) -> List[Action]:
        """Tokens from one holder to another (a bonus box to the pool)."""
        source, dest = self._source, self._dest
        grids = self._grids
        return [(grids[owner + 1] if len(owners) > 1 else grids[0])[source][dest] for owner in owners
                if ex.can_take(owner, source) and ex.can_put(owner, dest)]

    def _from_spaces_to_holder(self, ex, ctx, owners, counts, only: int = -1) -> List[Action]:
        """Tokens from spaces to one holder (the pool): a removal."""
        candidates = self.fixed_sources or self.sources(ex, ctx, NOBODY)
        st = ex.state
        if ex.state.markers != ex.markers_seen:
            ex.see_markers()
        blocked = ex.no_remove
        out = []
        for owner in owners:
            if not ex.can_put(owner, self._dest):
                continue
            mine = st.tokens[owner]
            column = self._columns[owner + 1] if len(owners) > 1 else self._columns[0]
            if blocked:
                out += [column[s] for s in candidates if mine[s] > 0 and s not in blocked]
            else:
                out += [column[s] for s in candidates if mine[s] > 0]
        return out

    def _has_from_spaces_to_holder(self, ex, ctx, owners) -> bool:
        candidates = self.fixed_sources or self.sources(ex, ctx, NOBODY)
        if ex.state.markers != ex.markers_seen:
            ex.see_markers()
        blocked = ex.no_remove
        for owner in owners:
            if ex.can_put(owner, self._dest):
                mine = ex.state.tokens[owner]
                for s in candidates:
                    if mine[s] > 0 and s not in blocked:
                        return True
        return False

    def _from_places_to_spaces(self, ex, ctx, owners, counts, only: int = -1) -> List[Action]:
        """Tokens into spaces from fixed places, holders among them ("from your pool or any space")."""
        candidates = self.fixed_sources
        all_dests = self.fixed_dests or self.dests(ex, ctx, NOBODY)
        st = ex.state
        maximum = ex.max_per_space
        if ex.state.markers != ex.markers_seen:
            ex.see_markers()
        no_remove, no_place = ex.no_remove, ex.no_place
        grids = self._grids
        out = []
        for owner in owners:
            mine = st.tokens[owner]
            pool, track = st.pool[owner], st.track[owner]
            # tokens at each location code (spaces, then pool, track, supply, boxes: see Locations)
            have = mine + [pool, track, pool + track] + st.boxes[owner]
            sources = [s for s in candidates if have[s] > 0 and s not in no_remove]
            if not sources:
                continue
            dests = [d for d in all_dests if mine[d] < maximum and d not in no_place]
            grid = grids[owner + 1] if len(owners) > 1 else grids[0]
            out += [grid[s][d] for d in dests for s in sources if s != d]
        return out

    def _between_spaces(self, ex, ctx, owners, counts, only: int = -1) -> List[Action]:
        """Tokens from spaces to spaces: the (source, destination) pairs of these
        places are listed once and kept (the places come from the content: few
        different ones)."""
        by_dimension = self._pairs_by_dimension
        pairs = (by_dimension[len(owners) > 1][ctx.dimension] if by_dimension is not None
                 else self._pairs_for(ex, ctx, owners))
        if pairs is None:  # places filtered by the position: listed anew each time
            return self._any_shape(ex, ctx, owners, counts, only)
        st = ex.state
        maximum = ex.max_per_space
        if ex.state.markers != ex.markers_seen:
            ex.see_markers()
        no_remove, no_place = ex.no_remove, ex.no_place
        out = []
        for owner in owners:
            mine = st.tokens[owner]
            if no_remove or no_place:
                out += [a for s, d, a in pairs[owner] if mine[s] > 0 and mine[d] < maximum
                        and s not in no_remove and d not in no_place]
            else:
                out += [a for s, d, a in pairs[owner] if mine[s] > 0 and mine[d] < maximum]
        return out

    def _has_between_spaces(self, ex, ctx, owners) -> bool:
        by_dimension = self._pairs_by_dimension
        pairs = (by_dimension[len(owners) > 1][ctx.dimension] if by_dimension is not None
                 else self._pairs_for(ex, ctx, owners))
        if pairs is None:
            return bool(self._any_shape(ex, ctx, owners, {}))
        st = ex.state
        maximum = ex.max_per_space
        if ex.state.markers != ex.markers_seen:
            ex.see_markers()
        no_remove, no_place = ex.no_remove, ex.no_place
        for owner in owners:
            mine = st.tokens[owner]
            for s, d, _ in pairs[owner]:
                if mine[s] > 0 and mine[d] < maximum and s not in no_remove and d not in no_place:
                    return True
        return False

    def _pairs_for(self, ex, ctx, owners):
        """Per owner, the (source, destination, step) of every two places, in the order of ``legal``."""
        candidates = self.fixed_sources or self.sources(ex, ctx, NOBODY)
        all_dests = self.fixed_dests or self.dests(ex, ctx, NOBODY)
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
        grids = self._grids[1:] if named else self._grids[:1] * 2
        return tuple([(s, d, grid[s][d]) for d in all_dests for s in candidates if s != d] for grid in grids)

    def _any_shape(self, ex, ctx, owners, counts, only: int = -1) -> List[Action]:
        n = ex.locations.n
        limit = self.limit
        on_source = self.limit_on_source
        if self.one_space and counts:
            only = next(iter(counts))
        st = ex.state
        if st.markers != ex.markers_seen:
            ex.see_markers()
        no_place, no_remove = ex.no_place, ex.no_remove
        maximum = ex.max_per_space
        grids = self._grids
        named = len(owners) > 1
        # places never depend on whose tokens move: resolved once for every owner
        if on_source and only >= 0:
            candidates = (only,)
        else:
            candidates = self.fixed_sources or self.sources(ex, ctx, NOBODY)
        if only >= 0 and not on_source:
            all_dests = (only,)
        else:
            all_dests = self.fixed_dests or self.dests(ex, ctx, NOBODY)
        if limit is not None and counts:
            if on_source:
                candidates = [s for s in candidates if counts.get(s, 0) < limit]
            else:
                all_dests = [d for d in all_dests if d >= n or counts.get(d, 0) < limit]
        out = []
        for owner in owners:
            mine = st.tokens[owner]
            sources = [s for s in candidates
                       if ((mine[s] > 0 and s not in no_remove) if s < n else ex.can_take(owner, s))]
            if not sources:
                continue
            dests = [d for d in all_dests
                     if ((mine[d] < maximum and d not in no_place) if d < n else ex.can_put(owner, d))]
            grid = grids[owner + 1] if named else grids[0]
            if len(sources) == 1:
                source = sources[0]
                row = grid[source]
                out += [row[d] for d in dests if d != source]
            else:
                out += [grid[s][d] for d in dests for s in sources if s != d]
        return out

    def run(self, ex, ctx):
        if self.counted or self.remember or ex.log is not None or ex.solo is not None:
            return self._run_counted(ex, ctx)
        # most statements of a game: no limit, no log.  Nothing to do: no generator at all
        total = ctx.value if self.by_value else self.n
        if total <= 0:
            return NO_DECISIONS
        owners = self.owners_of[ctx.me]
        legal = self.legal(ex, ctx, owners, None)
        if not legal:
            return NO_DECISIONS
        return self._run_plain(ex, ctx, owners, total, legal)

    def _run_plain(self, ex, ctx, owners, total: int, legal: List[Action]):
        """The steps, with what ``apply`` does written in (no counts to keep, no log)."""
        legal_steps, verb, node, owner, optional = self.legal, self.verb, self.node, owners[0], self.optional
        n = ex.locations.n
        tokens = ex.state.tokens
        for step in range(total):
            if step:
                legal = legal_steps(ex, ctx, owners, None)
                if not legal:
                    return
            if optional:
                legal.append(DONE)
                action = yield Decision(ctx.me, verb, legal, True, total - step, False, node, owner)
                if action is DONE:
                    return
            elif len(legal) == 1:
                action = legal[0]
            else:
                action = yield Decision(ctx.me, verb, legal, False, total - step, False, node, owner)
            side = action.side if action.side >= 0 else owner
            source, dest = action.a, action.b
            if source < n:
                tokens[side][source] -= 1
            else:
                ex.take(side, source)
            if dest < n:
                tokens[side][dest] += 1
            else:
                ex.put(side, dest)

    def _run_counted(self, ex, ctx):
        owners = self.owners_of[ctx.me]
        counts = {}
        if self.each:
            for space in list(self._each_spaces(ex, ctx, owners)):
                count = self._count(ex, ctx)
                for step in range(count):
                    legal = self.steps(ex, ctx, owners, counts, only=space)
                    if not legal:
                        ex.shortfall += count - step
                        break
                    action = yield from self.choose(ex, ctx, legal, owners)
                    self.apply(ex, ctx, owners, action, counts)
            return
        if self.all_tokens:
            # "all" means the tokens in the sources when the statement starts,
            # so a move between overlapping places still ends
            for _ in range(self._tokens_in_sources(ex, ctx, owners)):
                legal = self.steps(ex, ctx, owners, counts)
                if not legal:
                    return
                if (len(legal) == 1 or self.verb == "remove"
                        or all(a.b == legal[0].b for a in legal) and legal[0].b >= ex.locations.n):
                    action = legal[0]  # order cannot matter: every token ends in its pool
                else:
                    action = yield from self.choose(ex, ctx, legal, owners)
                self.apply(ex, ctx, owners, action, counts)
            return
        total = self._count(ex, ctx)
        optional = self.optional
        for step in range(total):
            legal = self.steps(ex, ctx, owners, counts)
            if not legal:
                ex.shortfall += total - step
                return
            if optional:
                legal.append(DONE)
            action = yield from self.choose(ex, ctx, legal, owners, optional, total - step)
            if action is DONE:
                ex.shortfall += total - step
                return
            self.apply(ex, ctx, owners, action, counts)

    def apply(self, ex, ctx, owners, action: Action, counts) -> None:
        owner = action.side if action.side >= 0 else owners[0]
        source, dest = action.a, action.b
        n = ex.locations.n
        mine = ex.state.tokens[owner]
        if source < n:
            mine[source] -= 1
        else:
            ex.take(owner, source)
        if dest < n:
            mine[dest] += 1
        else:
            ex.put(owner, dest)
        if self.counts_steps:
            key = source if self.limit_on_source else dest
            counts[key] = counts.get(key, 0) + 1
        if self.remember:
            # the space the step is about: where a token arrives, else where it left
            ctx.chosen[0] = dest if dest < n else source if source < n else ctx.chosen[0]
        if ex.log is not None:
            names = ex.locations.names
            ex.emit("log." + self.verb, side=ex.tables.sides[owner], actor=ex.tables.sides[ctx.me],
                    source=names[source], dest=names[dest])

    def _tokens_in_sources(self, ex, ctx, owners) -> int:
        st, loc = ex.state, ex.locations
        total = 0
        for owner in owners:
            for s in self.sources(ex, ctx, owner):
                if s < loc.n:
                    total += st.tokens[owner][s]
                elif s == loc.SUPPLY:
                    total += st.pool[owner] + st.track[owner]
                elif s == loc.POOL:
                    total += st.pool[owner]
                elif s == loc.TRACK:
                    total += st.track[owner]
                elif s >= loc.first_above:
                    total += max(0, st.track[owner] - ex.tables.zones[s - loc.first_above].top - 1)
                else:
                    total += st.boxes[owner][s - loc.first_box]
        return total

    def _each_spaces(self, ex, ctx, owners):
        side = self.sources if self.limit_on_source else self.dests
        return [s for s in side(ex, ctx, owners[0]) if s < ex.locations.n]

    def can_act(self, ex, ctx):
        owners = self.owners_of[ctx.me]
        if self.each:
            return any(self.legal(ex, ctx, owners, {}, only=s) for s in self._each_spaces(ex, ctx, owners))
        if ex.solo is not None:
            return self._count(ex, ctx) > 0 and bool(self.steps(ex, ctx, owners, {}))
        return self._count(ex, ctx) > 0 and self.has_step(ex, ctx, owners)


class FirstOfOp(Op):
    """A priority list (docs/rulings.md): the first option that can be carried
    out fully; if none can, the first that can be carried out at all."""

    def __init__(self, options: Sequence[BlockOp], node=None):
        self.options, self.node = tuple(options), node

    def pick(self, ex, ctx):
        """(index of the option to carry out or None, what was found of each option tried)."""
        from .predict import Outcome, predict
        found, partial = [], None
        for index, option in enumerate(self.options):
            ops = getattr(option, "ops", (option,))
            if len(ops) == 1 and isinstance(ops[0], GoalOp):
                # a goal's own search says how far it can be carried out: no need to play it out
                best = ops[0].shortfall(ex, ctx)
                outcome = None if best is None else Outcome(True, True, best)
            else:
                outcome = predict(ex, option, ctx) if option.can_act(ex, ctx) else None
            if outcome is None or not outcome.acted:
                found.append("none")
            elif outcome.shortfall == 0:
                found.append("full")
                return index, found
            else:
                found.append("part")
                partial = index if partial is None else partial
        return partial, found

    def run(self, ex, ctx):
        index, found = self.pick(ex, ctx)
        if ex.log is not None:
            ex.emit("log.solo.first_of", side=ex.tables.sides[ctx.me], rule=self.node, found=found, chosen=index)
        if index is None:
            ex.shortfall += 1
            return
        yield from self.options[index].run(ex, ctx)

    def can_act(self, ex, ctx):
        return any(option.can_act(ex, ctx) for option in self.options)


class GoalOp(Op):
    """"so that <change>:" -- token steps taken only in a way that makes the
    change happen.  At each step only the choices from which the change can
    still be made (with as few steps short as possible) are offered; the
    search is over the block's own token steps, so it is small and bounded."""

    def __init__(self, change, steps: Sequence["TransferOp"], node=None):
        self.change, self.steps, self.node = change, tuple(steps), node

    def run(self, ex, ctx):
        before = self.change.before(ex, ctx, NOBODY)
        if _GoalSearch(self, ex, ctx, before).done(ex, 0, 0, {}) is None:
            ex.shortfall += 1
            return
        for index, op in enumerate(self.steps):
            owners, counts = op.owners(ctx), {}
            total = op._count(ex, ctx)
            optional = op.amount != "exactly"
            for step in range(total):
                search = _GoalSearch(self, ex, ctx, before)
                best = search.best(index, step, counts)
                # steps, not legal: the solo opponent's own tokens go only where it may put them
                # (Room, Available), in a goal as anywhere (docs/rulings.md, S7)
                legal = op.steps(ex, ctx, owners, counts)
                good = [a for a in legal if search.after(index, step, counts, a) == best]
                if (optional or not legal) and search.stopping(index, step, total) == best:
                    good.append(DONE)
                ex.work = search.ex.work
                if not good or good == [DONE]:
                    ex.shortfall += total - step
                    break
                action = yield from op.choose(ex, ctx, good, owners, DONE in good, total - step)
                if action is DONE:
                    ex.shortfall += total - step
                    break
                op.apply(ex, ctx, owners, action, counts)

    def can_act(self, ex, ctx):
        return self.shortfall(ex, ctx) is not None

    def shortfall(self, ex, ctx) -> Optional[int]:
        """The fewest token steps short with which the change can be made (0: fully), or None."""
        return _GoalSearch(self, ex, ctx, self.change.before(ex, ctx, NOBODY)).done(ex, 0, 0, {})


class _GoalSearch:
    """Depth-first search over a goal's token steps, on a copy of the position."""

    def __init__(self, goal: GoalOp, ex, ctx, before):
        if ctx.chosen is not None:  # the search's steps must not change the effect's "that space"
            ctx = ctx._replace(chosen=list(ctx.chosen))
        self.goal, self.ctx, self.before = goal, ctx, before
        self.ex = Executor(ex.tables, ex.state.copy(), None, ex.solo)
        self.ex.work = ex.work  # each position looked at is a step of the rule's work
        self.memo = {}

    def done(self, ex, index: int, step: int, counts) -> Optional[int]:
        """``best``, its work counted as the rule's on ``ex``."""
        found = self.best(index, step, counts)
        ex.work = self.ex.work
        return found

    def best(self, index: int, step: int, counts) -> Optional[int]:
        """The fewest steps short with which the change can still be made, or None."""
        st, ex, ctx = self.ex.state, self.ex, self.ctx
        ex.charge(1, self.goal.node, ctx)
        key = (index, step, tuple(counts.items()), tuple(map(tuple, st.tokens)), tuple(st.pool), tuple(st.track))
        if key in self.memo:
            return self.memo[key]
        steps = self.goal.steps
        if index == len(steps):
            found = 0 if self.goal.change.happened(ex, ctx, NOBODY, self.before) else None
        else:
            op = steps[index]
            total = op._count(ex, ctx)
            if step >= total:
                found = self.best(index + 1, 0, {})
            else:
                legal = op.steps(ex, ctx, op.owners(ctx), counts)
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
        self.memo[key] = found
        return found

    def after(self, index: int, step: int, counts, action) -> Optional[int]:
        op, ex = self.goal.steps[index], self.ex
        st, loc = ex.state, ex.locations
        owners, more = op.owners(self.ctx), dict(counts)
        source, dest = action.a, action.b
        if (source < loc.n or source == loc.POOL) and (dest < loc.n or dest == loc.POOL):
            # between spaces and the pool (the usual steps): undone by hand, no snapshot needed
            owner = action.side if action.side >= 0 else owners[0]
            op.apply(ex, self.ctx, owners, action, more)
            try:
                return self.best(index, step + 1, more)
            finally:
                if source < loc.n:
                    st.tokens[owner][source] += 1
                else:
                    st.pool[owner] += 1
                if dest < loc.n:
                    st.tokens[owner][dest] -= 1
                else:
                    st.pool[owner] -= 1
        saved = st.board()  # a holder that may breach a zone: the whole board is put back
        op.apply(ex, self.ctx, owners, action, more)
        try:
            return self.best(index, step + 1, more)
        finally:
            st.restore(saved)

    def stopping(self, index: int, step: int, total: int) -> Optional[int]:
        found = self.best(index + 1, 0, {})
        return None if found is None else found + total - step


class RevealOp(Op):
    """Reveal the top card of the strategy deck: it becomes the revealed card."""

    def __init__(self, node=None):
        self.node = node

    def run(self, ex, ctx):
        from .flow import draw_strategy
        st, t = ex.state, ex.tables
        card = draw_strategy(ex)
        st.revealed = card
        st.reveals += 1
        if card != NOBODY:
            ex.emit("log.solo.reveal", side=t.sides[ctx.me], card=t.strategy_cards[card].id, n=t.card_value[card])
        return
        yield

    def can_act(self, ex, ctx):
        return bool(ex.state.strategy_deck or ex.state.discard)


class UseEventOp(Op):
    """Carry out a card's event as the acting player (the card stays where it is)."""

    def __init__(self, card, node=None):
        self.card, self.node = card, node

    def _event(self, ex, ctx):
        card = self.card(ex, ctx)
        if card == NOBODY or ex.tables.card_events[card] is None:
            return None, None
        t = ex.tables
        return t.card_events[card], Ctx(ctx.me, reason=t.strategy_cards[card].id, value=t.card_value[card])

    def run(self, ex, ctx):
        event, event_ctx = self._event(ex, ctx)
        if event is None:
            ex.shortfall += 1
            return
        ex.emit("log.solo.use_event", side=ex.tables.sides[ctx.me], card=event_ctx.reason)
        ex.charge(1, self.node, ctx)
        yield from event.run(ex, event_ctx)

    def can_act(self, ex, ctx):
        event, event_ctx = self._event(ex, ctx)
        return event is not None and event.can_act(ex, event_ctx)


class DiscardOp(Op):
    """Discard the revealed card (a card already in the discard pile stays)."""

    def __init__(self, card, node=None):
        self.card, self.node = card, node

    def run(self, ex, ctx):
        from .state import LastPlay
        st, t = ex.state, ex.tables
        card = self.card(ex, ctx)
        if card != NOBODY and card == st.revealed:
            st.discard.append(card)
            st.revealed = NOBODY
            # rulebook: Event Discard -- the other player may claim it, as any card just played
            st.last_play = LastPlay(ctx.me, card, "revealed")
            ex.emit("log.solo.discard", side=t.sides[ctx.me], card=t.strategy_cards[card].id)
        return
        yield

    def can_act(self, ex, ctx):
        card = self.card(ex, ctx)
        return card != NOBODY and card == ex.state.revealed


class ResolveBreachesOp(Op):
    """Resolve the zones breached so far now (solo rulebook: "before continuing")."""

    def __init__(self, node=None):
        self.node = node

    def run(self, ex, ctx):
        from .flow import resolve_breaches
        yield from resolve_breaches(ex, ctx.me)

    def can_act(self, ex, ctx):
        return any(ex.state.pending_breaches)


class _Change:
    """A change of control, compiled: what held before, and whether it changed."""

    def __init__(self, kind: str, player, target_kind: str, target):
        self.gain = kind == "gain"
        self.player, self.target_kind, self.target = player, target_kind, target

    def _held(self, ex, side, target):
        if self.target_kind == "spaces":
            return frozenset(s for s in ex.tables.dimension_spaces[target] if ex.controls(side, s))
        if target < 0:
            return False
        if self.target_kind == "space":
            return ex.controls(side, target)
        return ex.controls_dimension(side, target)

    def before(self, ex, ctx, it):
        return self._held(ex, self.player(ctx), self.target(ex, ctx, it))

    def happened(self, ex, ctx, it, before) -> bool:
        now = self._held(ex, self.player(ctx), self.target(ex, ctx, it))
        if self.target_kind == "spaces":
            return bool(now - before) if self.gain else bool(before - now)
        return (now and not before) if self.gain else (before and not now)


# ----------------------------------------------------------------- compiler


def fixed(codes: Tuple[int, ...]) -> Callable:
    """A resolver ``(ex, ctx, x) -> codes`` that does not depend on the position;
    it carries its codes so that operations can read them once, when compiled."""
    def resolver(ex, ctx, x):
        return codes
    resolver.codes = codes
    return resolver


def _spaces_only(resolver: Callable) -> Callable:
    """Mark a resolver that only ever gives map spaces (never a pool, track or box)."""
    resolver.spaces_only = True
    return resolver


def _union(parts: List[Callable]) -> Callable:
    """Resolvers ``(ex, ctx, x) -> codes`` joined in order, without repeats."""
    if len(parts) == 1:
        return parts[0]
    if all(hasattr(part, "codes") for part in parts):
        return fixed(tuple(dict.fromkeys(code for part in parts for code in part.codes)))

    def union(ex, ctx, x):
        seen = []
        for part in parts:
            for code in part(ex, ctx, x):
                if code not in seen:
                    seen.append(code)
        return seen
    return union


def _that_space_chosen(target, condition: Callable) -> Callable:
    """A condition on "that space" is false while no space has been chosen (an option skipped it)."""
    if not isinstance(target, A.ThatSpace):
        return condition
    return lambda ex, ctx, it: bool(ctx.chosen) and ctx.chosen[0] != NOBODY and condition(ex, ctx, it)


_OWN = ((0,), (1,))  # a side's own tokens, as the owners of a step
_EITHER = ((0, 1), (1, 0))  # either side's, the acting side first

_COMPARE = {"==": operator.eq, ">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt}


class Compiler:
    """Turns checked AST into operations for one game's tables."""

    def __init__(self, tables, trace: bool = False):
        self.t = tables
        # "if" tests log themselves (the solo opponent's procedures explain every choice)
        self.trace = trace
        self._terms = {}

    # -------------------------------------------------------- statements
    def block(self, block: A.Block) -> Op:
        if getattr(self, "_in_effect", False) or not any(isinstance(n, A.ThatSpace) for n in block.walk()):
            return BlockOp([self.statement(s) for s in block.statements], block)
        # an effect that says "that space" (rare): its steps record the space they choose;
        # other effects compile exactly as before, at no cost
        self._in_effect = True
        try:
            return EffectOp(BlockOp([self.statement(s) for s in block.statements], block))
        finally:
            self._in_effect = False

    def _remembering(self, op: Op) -> Op:
        if getattr(self, "_in_effect", False):
            op.remember = True
        return op

    def statement(self, node) -> Op:
        return getattr(self, "op_" + type(node).__name__)(node)

    def op_Place(self, node: A.Place) -> Op:
        loc = self.t.locations
        source = self.holder(node.source) if node.source is not None else fixed((loc.SUPPLY,))
        return self._remembering(TransferOp("place", node.amount.kind, node.amount.n or 0, self.owners(node.owner),
                                            source, self.locations(node.dest), node.each, node.limit, node,
                                            node.one_space, self.amount_count(node.amount)))

    def op_Remove(self, node: A.Remove) -> Op:
        loc = self.t.locations
        return self._remembering(TransferOp("remove", node.amount.kind, node.amount.n or 0,
                                            self.owners(node.owner), self.locations(node.source),
                                            fixed((loc.POOL,)), node.each, node.limit, node, node.one_space,
                                            self.amount_count(node.amount)))

    def op_Move(self, node: A.Move) -> Op:
        return self._remembering(TransferOp("move", node.amount.kind, node.amount.n or 0, self.owners(node.owner),
                                            self.locations(node.source), self.locations(node.dest), node.each,
                                            node.limit, node, node.one_space, self.amount_count(node.amount)))

    def amount_count(self, amount: A.Amount) -> Optional[Callable]:
        """For an amount read from a card ("up to the value of the revealed card"): (ex, ctx) -> n."""
        if amount.card is None:
            return None
        card, values = self.card_ref(amount.card), self.t.card_value
        return lambda ex, ctx: values[c] if (c := card(ex, ctx)) >= 0 else 0

    def card_ref(self, ref: A.CardRef) -> Callable:
        """(ex, ctx) -> the card a reference names, or NOBODY."""
        if ref.kind == "revealed":
            return lambda ex, ctx: ex.state.revealed
        if ref.kind == "discard_top":
            return lambda ex, ctx: ex.state.discard[-1] if ex.state.discard else NOBODY
        return lambda ex, ctx: ctx.card

    def op_FirstOf(self, node: A.FirstOf) -> Op:
        return FirstOfOp([self.block(option) for option in node.options], node)

    def op_Goal(self, node: A.Goal) -> Op:
        return GoalOp(self.change(node.change), [self.statement(s) for s in node.body.statements], node)

    def op_Reveal(self, node: A.Reveal) -> Op:
        return RevealOp(node)

    def op_UseEvent(self, node: A.UseEvent) -> Op:
        return UseEventOp(self.card_ref(node.card), node)

    def op_DiscardCard(self, node: A.DiscardCard) -> Op:
        return DiscardOp(self.card_ref(node.card), node)

    def op_ResolveBreaches(self, node: A.ResolveBreaches) -> Op:
        return ResolveBreachesOp(node)

    def change(self, node: A.Change) -> _Change:
        player = self.player(node.player)
        if isinstance(node.target, A.ASpaceOf):
            _, dimension = self.target(node.target.dimension)
            return _Change(node.kind, player, "spaces", dimension)
        kind, target = self.target(node.target)
        return _Change(node.kind, player, kind, target)

    def op_ChangeVP(self, node: A.ChangeVP) -> Op:
        return VpOp(node.gain, node.amount, self.countable(node.per) if node.per else None, node)

    def op_PlaceMarker(self, node: A.PlaceMarker) -> Op:
        return PlaceMarkerOp(self.t.marker_index[node.marker.text], self.spaces_of(node.dest), node)

    def op_RemoveMarker(self, node: A.RemoveMarker) -> Op:
        return RemoveMarkerOp(self.t.marker_index[node.marker.text], node)

    def op_If(self, node: A.If) -> Op:
        return IfOp(self.condition(node.condition), self.block(node.then),
                    self.block(node.otherwise) if node.otherwise else None, node, self.trace)

    def op_Either(self, node: A.Either) -> Op:
        return EitherOp([self.block(option) for option in node.options], node,
                        [self.t.actions.option(i) for i in range(len(node.options))])

    def op_ForEachPlayer(self, node: A.ForEachPlayer) -> Op:
        return EachPlayerOp(self.block(node.body), node)

    def op_Acting(self, node: A.Acting) -> Op:
        body = self.statement(node.statement)
        return OpponentOp(body, node) if node.actor == "opponent" else EachPlayerOp(body, node)

    def value_play(self) -> Op:
        """rulebook: Playing Strategy Cards, Value -- up to the card's value of your tokens, anywhere."""
        loc = self.t.locations
        every = self.t.all_spaces
        return TransferOp("place", "value", 0, lambda ctx: _OWN[ctx.me], fixed((loc.SUPPLY,)), fixed(every),
                          False, None, None)

    # ------------------------------------------------------------ pieces
    def owners(self, owner: A.Owner) -> Callable:
        # per acting side, made once: whose tokens a step may move (a function of ``ctx.me`` alone:
        # TransferOp keeps its two answers)
        if owner.kind == "own":
            return lambda ctx: _OWN[ctx.me]
        if owner.kind == "opponent":
            return lambda ctx: _OWN[1 - ctx.me]
        if owner.kind == "either":
            return lambda ctx: _EITHER[ctx.me]
        side = (self.t.side_index[owner.side.text],)
        return lambda ctx: side

    def holder(self, holder) -> Callable:
        loc = self.t.locations
        if isinstance(holder, A.Pool):
            code = loc.POOL
        elif isinstance(holder, A.CrisisTrack) and holder.above is not None:
            code = loc.track_above(self.t.zone_index[holder.above.text])
        elif isinstance(holder, A.CrisisTrack):
            code = loc.TRACK
        else:
            code = loc.box(self.t.zone_index[holder.zone.text])
        return fixed((code,))

    def locations(self, locations: A.Locations) -> Callable:
        """A resolver ``(ex, ctx, owner)`` giving the location codes of a union, in order."""
        parts = []
        for item in locations.items:
            if isinstance(item, A.HOLDER_TYPES):
                parts.append(self.holder(item))
            else:
                spaces = self.spaces(item)
                if isinstance(item.base, A.It):
                    parts.append(_spaces_only(lambda ex, ctx, owner, spaces=spaces: spaces(ex, ctx, NOBODY)))
                else:  # the third argument only matters to "it": the resolver serves as it is
                    parts.append(spaces)
        union = _union(parts)
        if all(getattr(part, "spaces_only", False) for part in parts):
            _spaces_only(union)
        return union

    def spaces_of(self, locations: A.Locations) -> Callable:
        """A resolver ``(ex, ctx, it)`` giving the spaces of a union, in order."""
        return _union([self.spaces(item) for item in locations.items])

    def spaces(self, spaces: A.Spaces) -> Callable:
        return _spaces_only(self._spaces(spaces))

    def _spaces(self, spaces: A.Spaces) -> Callable:
        base = self.space_base(spaces.base)
        filt = spaces.filter
        if filt is None:
            return base
        if isinstance(filt, A.Most):
            return self.most(base, filt)
        if isinstance(filt, A.ControlledBy):
            who = filt.who
            if who == "you":
                test = lambda ex, ctx, s: ex.controls(ctx.me, s)
            elif who == "opponent":
                test = lambda ex, ctx, s: ex.controls(1 - ctx.me, s)
            else:
                test = lambda ex, ctx, s: not ex.controls(0, s) and not ex.controls(1, s)
        elif isinstance(filt, A.WithTerm):
            test = self.term(filt.term.text)
        else:
            condition = self.condition(filt.condition)
            test = lambda ex, ctx, s: condition(ex, ctx, s)
        return lambda ex, ctx, it: [s for s in base(ex, ctx, it) if test(ex, ctx, s)]

    def most(self, base: Callable, filt: A.Most) -> Callable:
        """The spaces of ``base`` holding the most (fewest) tokens of the owner."""
        owner = self.owners(filt.owner)
        pick = max if filt.kind == "most" else min

        def most(ex, ctx, it, among=None):
            spaces = list(base(ex, ctx, it)) if among is None else among
            if not spaces:
                return []
            tokens = ex.state.tokens[owner(ctx)[0]]
            best = pick(tokens[s] for s in spaces)
            return [s for s in spaces if tokens[s] == best]
        return most

    def row(self, locations: A.Locations) -> Callable:
        """A space-selection row: (ex, ctx, candidates) -> the candidates it keeps, in order.

        A superlative ("spaces with the most opponent tokens") is relative to the
        candidates still left, not to the whole map (docs/rulings.md)."""
        parts = []
        for item in locations.items:
            if isinstance(item.filter, A.Most):
                base, most = self.space_base(item.base), self.most(self.space_base(item.base), item.filter)
                parts.append(lambda ex, ctx, left, base=base, most=most:
                             most(ex, ctx, NOBODY, [s for s in left if s in base(ex, ctx, NOBODY)]))
            else:
                spaces = self.spaces(item)
                parts.append(lambda ex, ctx, left, spaces=spaces: spaces(ex, ctx, NOBODY))

        def keep(ex, ctx, left):
            named = set()
            for part in parts:
                named.update(part(ex, ctx, left))
            return [s for s in left if s in named]
        return keep

    def term(self, name: str) -> Callable:
        """A defined term (solo rulebook: Definitions), compiled once: (ex, ctx, it) -> bool."""
        compiled = self._terms.get(name)
        if compiled is None:
            _kind, rule = self.t.content.solo.terms[name]
            compiled = self._terms[name] = self.condition(rule.tree)
        return compiled

    def space_base(self, base) -> Callable:
        t = self.t
        if isinstance(base, A.Named):
            const = (t.space_index[base.name.text],)
        elif isinstance(base, A.DimensionSpaces):
            const = t.dimension_spaces[t.dimension_index[base.dimension.text]]
        elif isinstance(base, A.PivotalSpaces):
            const = t.pivotal_spaces
        elif isinstance(base, A.AllSpaces):
            const = t.all_spaces
        elif isinstance(base, A.ThisDimension):
            resolver = lambda ex, ctx, it: t.dimension_spaces[ctx.dimension]
            resolver.by_dimension = t.dimension_spaces  # lets operations list its steps per dimension, once
            return resolver
        elif isinstance(base, A.ThisSpace):
            return lambda ex, ctx, it: (ctx.space,)
        elif isinstance(base, A.It):
            return lambda ex, ctx, it: (it,)
        elif isinstance(base, A.RevealedObjectiveSpaces):
            return lambda ex, ctx, it: ctx.revealed
        elif isinstance(base, A.ThatSpace):
            return lambda ex, ctx, it: (ctx.chosen[0],) if ctx.chosen and ctx.chosen[0] != NOBODY else ()
        elif isinstance(base, A.ObjectiveSpace):
            objective = self.objective_space(base)
            return lambda ex, ctx, it: (s,) if (s := objective(ex, ctx, it)) >= 0 else ()
        else:  # pragma: no cover - the checker admits no other node
            raise TypeError(type(base).__name__)
        return fixed(const)

    def countable(self, per) -> Callable:
        if isinstance(per, A.Dimensions):
            n_dims = len(self.t.dimensions)
            who = per.filter.who if per.filter else None
            if who is None:
                return lambda ex, ctx: n_dims
            if who == "nobody":
                return lambda ex, ctx: sum(1 for d in range(n_dims) if not ex.controls_dimension(0, d)
                                           and not ex.controls_dimension(1, d))
            relative = 0 if who == "you" else 1
            return lambda ex, ctx: ex.dimensions_controlled(ctx.me ^ relative)
        spaces = self.spaces(per)
        return lambda ex, ctx: len(spaces(ex, ctx, NOBODY))

    # -------------------------------------------------------- conditions
    def condition(self, node) -> Callable:
        return getattr(self, "cond_" + type(node).__name__)(node)

    def relative(self, player: A.Player) -> Optional[int]:
        """0 for "you", 1 for "the opponent" (the side is ``ctx.me ^ relative``); None for a named side."""
        return {"you": 0, "opponent": 1}.get(player.kind)

    def player(self, player: A.Player) -> Callable:
        if player.kind == "you":
            return lambda ctx: ctx.me
        if player.kind == "opponent":
            return lambda ctx: 1 - ctx.me
        side = self.t.side_index[player.side.text]
        return lambda ctx: side

    def possessive(self, possessive: str) -> Callable:
        if possessive == "opponent":
            return lambda ctx: 1 - ctx.me
        return lambda ctx: ctx.me

    def compare(self, comparison: A.Comparison) -> Callable:
        op, n = _COMPARE[comparison.op], comparison.n
        return lambda value: op(value, n)

    def target(self, target) -> Tuple[str, Callable]:
        """('space' | 'dimension', resolver (ex, ctx, it) -> index)."""
        t = self.t
        if isinstance(target, A.Named):
            name = target.name.text
            if name in t.space_index:
                index = t.space_index[name]
                return "space", lambda ex, ctx, it: index
            index = t.dimension_index[name]
            return "dimension", lambda ex, ctx, it: index
        if isinstance(target, A.ThisDimension):
            return "dimension", lambda ex, ctx, it: ctx.dimension
        if isinstance(target, A.ThisSpace):
            return "space", lambda ex, ctx, it: ctx.space
        if isinstance(target, A.ThatSpace):
            return "space", lambda ex, ctx, it: ctx.chosen[0] if ctx.chosen else NOBODY
        if isinstance(target, A.ItsDimension):
            dimension_of = t.dimension_of
            return "dimension", lambda ex, ctx, it: dimension_of[it] if it >= 0 else NOBODY
        if isinstance(target, A.ObjectiveSpace):
            return "space", self.objective_space(target)
        return "space", lambda ex, ctx, it: it

    def objective_space(self, node: A.ObjectiveSpace) -> Callable:
        """(ex, ctx, it) -> the space of the objective the player holds, or NOBODY."""
        side = self.possessive(node.possessive)
        spaces = self.t.objective_space
        return lambda ex, ctx, it: spaces[c] if (c := ex.state.objectives[side(ctx)]) >= 0 else NOBODY

    def cond_AnyOf(self, node):
        items = [self.condition(i) for i in node.items]
        return lambda ex, ctx, it: any(c(ex, ctx, it) for c in items)

    def cond_AllOf(self, node):
        items = [self.condition(i) for i in node.items]
        return lambda ex, ctx, it: all(c(ex, ctx, it) for c in items)

    def cond_Not(self, node):
        item = self.condition(node.item)
        return lambda ex, ctx, it: not item(ex, ctx, it)

    def cond_Controls(self, node):
        return _that_space_chosen(node.target, self._cond_Controls(node))

    def _cond_Controls(self, node):
        player = self.player(node.player)
        kind, target = self.target(node.target)
        if kind == "space":
            return lambda ex, ctx, it: (s := target(ex, ctx, it)) >= 0 and ex.controls(player(ctx), s)
        return lambda ex, ctx, it: (d := target(ex, ctx, it)) >= 0 and ex.controls_dimension(player(ctx), d)

    def cond_NobodyControls(self, node):
        return _that_space_chosen(node.target, self._cond_NobodyControls(node))

    def _cond_NobodyControls(self, node):
        kind, target = self.target(node.target)
        if kind == "space":
            return lambda ex, ctx, it: ((s := target(ex, ctx, it)) >= 0 and not ex.controls(0, s)
                                        and not ex.controls(1, s))
        return lambda ex, ctx, it: ((d := target(ex, ctx, it)) >= 0 and not ex.controls_dimension(0, d)
                                    and not ex.controls_dimension(1, d))

    def token_count(self, where) -> Callable:
        """(ex, ctx, it, side) -> tokens of that side in the place."""
        if isinstance(where, A.It):
            return lambda ex, ctx, it, side: ex.state.tokens[side][it]
        if isinstance(where, A.Pool):
            return lambda ex, ctx, it, side: ex.state.pool[side]
        if isinstance(where, A.CrisisTrack):
            return lambda ex, ctx, it, side: ex.state.track[side]
        if isinstance(where, A.BonusBox):
            zone = self.t.zone_index[where.zone.text]
            return lambda ex, ctx, it, side: ex.state.boxes[side][zone]
        spaces = self.spaces(where)
        return lambda ex, ctx, it, side: sum(ex.state.tokens[side][s] for s in spaces(ex, ctx, it))

    def cond_HasTokens(self, node):
        player, test, count = self.player(node.player), self.compare(node.comparison), self.token_count(node.where)
        return lambda ex, ctx, it: test(count(ex, ctx, it, player(ctx)))

    def cond_HasMoreTokens(self, node):
        player, other, count = self.player(node.player), self.player(node.other), self.token_count(node.where)
        if node.margin is None:
            return lambda ex, ctx, it: count(ex, ctx, it, player(ctx)) > count(ex, ctx, it, other(ctx))
        lead = self.compare(node.margin)
        return lambda ex, ctx, it: lead(count(ex, ctx, it, player(ctx)) - count(ex, ctx, it, other(ctx)))

    def cond_HasVP(self, node):
        player, test = self.player(node.player), self.compare(node.comparison)
        return lambda ex, ctx, it: test(ex.state.vp[player(ctx)])

    def cond_HasMoreVP(self, node):
        a, b = self.relative(node.player), self.relative(node.other)
        if a is not None and b is not None:  # the usual form, asked at every first-player check
            return lambda ex, ctx, it: ex.state.vp[ctx.me ^ a] > ex.state.vp[ctx.me ^ b]
        player, other = self.player(node.player), self.player(node.other)
        return lambda ex, ctx, it: ex.state.vp[player(ctx)] > ex.state.vp[other(ctx)]

    def cond_IsFirstPlayer(self, node):
        player = self.player(node.player)
        return lambda ex, ctx, it: ex.first_player() == player(ctx)

    def cond_IsSide(self, node):
        side, relative = self.t.side_index[node.side.text], self.relative(node.player)
        if relative is not None:
            return lambda ex, ctx, it: ctx.me ^ relative == side
        player = self.player(node.player)
        return lambda ex, ctx, it: player(ctx) == side

    def cond_RoundIs(self, node):
        test = self.compare(node.comparison)
        return lambda ex, ctx, it: test(ex.state.round)

    def cond_ZoneBreached(self, node):
        side, zone = self.possessive(node.possessive), self.t.zone_index[node.zone.text]
        return lambda ex, ctx, it: ex.state.breached[side(ctx)][zone]

    def cond_PoolHas(self, node):
        side, test = self.possessive(node.possessive), self.compare(node.comparison)
        return lambda ex, ctx, it: test(ex.state.pool[side(ctx)])

    def cond_PoolLead(self, node):
        side, other, margin = self.possessive(node.possessive), self.possessive(node.other), node.margin
        return lambda ex, ctx, it: ex.state.pool[side(ctx)] - ex.state.pool[other(ctx)] >= margin

    def cond_IsPivotal(self, node):
        return _that_space_chosen(node.target, self._cond_IsPivotal(node))

    def _cond_IsPivotal(self, node):
        _, target = self.target(node.target)
        pivotal = self.t.is_pivotal
        return lambda ex, ctx, it: (s := target(ex, ctx, it)) >= 0 and pivotal[s]

    def cond_ControlsCount(self, node):
        player, test = self.player(node.player), self.compare(node.comparison)
        if node.scope is not None:
            _, dimension = self.target(node.scope)
            of = self.t.dimension_spaces
            return lambda ex, ctx, it: ((d := dimension(ex, ctx, it)) >= 0
                                        and test(sum(1 for s in of[d] if ex.controls(player(ctx), s))))
        spaces = self.t.all_spaces
        return lambda ex, ctx, it: test(sum(1 for s in spaces if ex.controls(player(ctx), s)))

    def cond_HasFewerVP(self, node):
        player, other = self.player(node.player), self.player(node.other)
        return lambda ex, ctx, it: ex.state.vp[player(ctx)] < ex.state.vp[other(ctx)]

    def cond_MarkerAt(self, node):
        marker = self.t.marker_index[node.marker.text]
        if node.where is None:
            off = node.off
            return lambda ex, ctx, it: (ex.state.markers[marker] == NOBODY) == off
        where = node.where
        spaces = self.spaces_of(where) if isinstance(where, A.Locations) else self.spaces(where)
        return lambda ex, ctx, it: ex.state.markers[marker] in spaces(ex, ctx, it)

    def cond_ControlsMore(self, node):
        player, other = self.player(node.player), self.player(node.other)
        spaces = self.t.all_spaces

        def more(ex, ctx, it):
            a, b = player(ctx), other(ctx)
            return sum(1 for s in spaces if ex.controls(a, s)) > sum(1 for s in spaces if ex.controls(b, s))
        return more

    def cond_Would(self, node):
        change, owner = self.change(node.change), self.owners(node.owner)
        step = 1 if node.verb == "place" else -1
        negated, maximum = node.negated, self.t.max_per_space

        def would(ex, ctx, it):
            tokens = ex.state.tokens[owner(ctx)[0]]
            if (tokens[it] >= maximum) if step > 0 else (tokens[it] == 0):
                return negated  # the step cannot be taken, so it changes nothing
            before = change.before(ex, ctx, it)
            tokens[it] += step
            try:
                happened = change.happened(ex, ctx, it, before)
            finally:
                tokens[it] -= step
            return happened != negated
        return would

    def cond_IsSoloOpponent(self, node):
        player, negated = self.player(node.player), node.negated
        return lambda ex, ctx, it: (ex.solo is not None and ex.solo.side == player(ctx)) != negated

    def cond_CardIs(self, node):
        card, term = self.card_ref(node.card), self.term(node.term.text)
        return lambda ex, ctx, it: (c := card(ex, ctx)) >= 0 and term(ex, ctx._replace(card=c), NOBODY)

    def cond_CardFor(self, node):
        card, player, only, usable = self.card_ref(node.card), self.player(node.player), node.only, self.t.usable_by

        def card_for(ex, ctx, it):
            c, side = card(ex, ctx), player(ctx)
            return c >= 0 and usable[c][side] and not (only and usable[c][1 - side])
        return card_for

    def cond_CardValue(self, node):
        card, values = self.card_ref(node.card), self.t.card_value
        if node.other is None:
            test = self.compare(node.comparison)
            return lambda ex, ctx, it: (c := card(ex, ctx)) >= 0 and test(values[c])
        other, op = self.card_ref(node.other), _COMPARE[node.op]
        return lambda ex, ctx, it: ((c := card(ex, ctx)) >= 0 and (o := other(ex, ctx)) >= 0
                                    and op(values[c], values[o]))

    def cond_CardWould(self, node):
        use = UseEventOp(self.card_ref(node.card))

        def would(ex, ctx, it):
            from .predict import predict
            event, event_ctx = use._event(ex, ctx)
            return event is not None and event.can_act(ex, event_ctx) and predict(ex, event, event_ctx).pieces
        return would
