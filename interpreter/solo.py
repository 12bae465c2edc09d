"""The solo opponent: the game playing one side from its content (docs/solo.md).

Nothing here knows a card, a space, a row or a step of the solo rulebook:
the content (``content/<game>/solo/``) says all of that, and this module runs
it.  Three parts:

- ``SoloRules``: the solo content compiled once per game definition;
- ``SoloOpponent``: the rules for one game, with the side the game plays; it
  answers every decision of that side (``choose``) by the generic machinery
  of the solo rulebook -- space-selection tables, priority selections, the
  criteria for exclusive options -- always looking at a public view of the
  position, and explains each choice in the log;
- ``drive``: wraps the sequence of play so that the solo opponent's
  decisions are answered in place and only the player's reach a controller.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from crisis.content.solo import SoloContent
from crisis.ruleset import ast as A

from .actions import DONE, Action, Decision
from .compile import NO_DECISIONS, Compiler, Ctx, Executor, IfOp
from .state import NOBODY, GameState

PLACE, REMOVE = "place", "remove"


class SoloRules:
    """The solo content, compiled: tables and priorities as filters, procedures as operations."""

    def __init__(self, tables, solo: SoloContent, compiler_class=Compiler):
        self.content = solo
        compiler = compiler_class(tables)
        # the opponent's own procedures log each test they make, so every choice explains itself
        traced = compiler_class(tables)
        traced.trace = True
        _explaining_compound_tests(traced)
        self.room = tuple(compiler.term(name) for name in solo.placement)
        self.available = tuple(
            (compiler.condition(case.when.tree) if case.when else None,
             frozenset(code for item in case.tokens.tree.items for code in compiler.holder(item)(None, None, None)))
            for case in solo.available)
        # per side and table: (filter, whose tokens the row is for, or None for any)
        self.tables: Dict[int, Dict[str, Tuple]] = {
            tables.side_index[side]: {name: tuple((compiler.row(row.rule.tree), row.tokens) for row in rows)
                                      for name, rows in aid.tables.items()}
            for side, aid in solo.aids.items()}
        self.markers = {tables.marker_index[name]: tuple((compiler.row(line.rule.tree), line.ties) for line in lines)
                        for name, lines in solo.markers.items()}
        self.turn = traced.block(solo.opponent["turn"].tree)
        self.pivotal_bonus = traced.block(solo.opponent["pivotal_bonus"].tree)
        self.final_crisis_matching = traced.block(solo.opponent["final_crisis_matching"].tree)
        self.final_crisis_not_matching = traced.block(solo.opponent["final_crisis_not_matching"].tree)
        rules = solo.rules
        self.first_player = tuple(compiler.condition(r.tree) for r in rules.get("first_player", ())) or None
        self.tie_breaks = tuple(compiler.condition(r.tree) for r in rules.get("tie_breaks", ())) or None
        self.objective_scoring = (compiler.block(rules["objective_scoring"].tree)
                                  if "objective_scoring" in rules else None)
        self.tie_break_rules = rules.get("tie_breaks")
        self.difficulty = dict(solo.difficulty)
        self.default_difficulty = solo.difficulty[0][0]
        self.sequence = solo.sequence
        self.criteria = solo.exclusive_options
        self.options = solo.options
        self._holder_orders: Dict[int, Tuple[int, ...]] = {}
        self._compiler = compiler

    def holder_order(self, node) -> Tuple[int, ...]:
        """The holders a rule names as sources, in the order written (for moves)."""
        key = id(node)
        found = self._holder_orders.get(key)
        if found is None:
            from crisis.ruleset import ast as A
            found = tuple(code for item in node.source.items if isinstance(item, A.HOLDER_TYPES)
                          for code in self._compiler.holder(item)(None, None, None))
            self._holder_orders[key] = found
        return found


class SoloOpponent:
    """The solo opponent in one game: the side the game plays, and how it decides."""

    def __init__(self, rules: SoloRules, side: int, tables):
        self.rules = rules
        self.side = side
        self.player = 1 - side
        self.tables = tables
        self.ctx = Ctx(side)

    # ------------------------------------------- the sequence of play
    def dealt(self, side: int) -> int:
        """Strategy cards dealt to a side each round (solo rulebook, step 1)."""
        return self.rules.sequence.strategy_cards_dealt["opponent" if side == self.side else "player"]

    def bonus_orderer(self) -> int:
        """Who orders the solo opponent's pivotal bonuses."""
        return self.player if self.rules.sequence.pivotal_bonus_order == "player" else self.side

    # ------------------------------------------------ what it may place
    def room(self, ex: Executor, space: int) -> bool:
        """solo rulebook: Definitions, Spaces with Room."""
        return all(term(ex, self.ctx, space) for term in self.rules.room)

    def available(self, ex: Executor) -> frozenset:
        """solo rulebook: Definitions, Available tokens -- the holders they may come from now."""
        for condition, codes in self.rules.available:
            if condition is None or condition(ex, self.ctx, NOBODY):
                return codes
        return frozenset()

    def source_ok(self, ex: Executor, source: int) -> bool:
        """Whether a token the solo opponent puts on the map may come from ``source``."""
        codes, loc, side = self.available(ex), ex.locations, self.side
        if source in codes:
            return True
        track_ok = any(code == loc.TRACK or code >= loc.first_above for code in codes if ex.can_take(side, code))
        if source == loc.SUPPLY:  # the pool first, then the track
            return loc.POOL in codes if ex.state.pool[side] > 0 else track_ok
        if source == loc.TRACK:
            return track_ok
        return False

    def placeable(self, ex: Executor, owners, legal: List[Action]) -> List[Action]:
        """The steps of ``legal`` the solo opponent may take with its own tokens: onto the map only
        Available tokens, only into spaces with Room (solo rulebook: Performing Events)."""
        n, side = ex.locations.n, self.side
        room: Dict[int, bool] = {}
        out = []
        for action in legal:
            owner = action.side if action.side >= 0 else owners[0]
            if action is DONE or owner != side or action.b >= n:
                out.append(action)
                continue
            dest = action.b
            if dest not in room:
                room[dest] = self.room(ex, dest)
            if room[dest] and (action.a < n or self.source_ok(ex, action.a)):
                out.append(action)
        return out

    # ----------------------------------------------------- what it sees
    def public_copy(self, state: GameState) -> GameState:
        """A copy of the position without what the solo opponent may not see: the
        player's hand, set-aside cards, objective and Final Crisis order, and the
        order of the decks."""
        view = state.copy()
        if view.view == self.side:
            return view
        other = self.player
        view.hands[other] = []
        view.set_aside[other] = []
        view.objective_offer[other] = []
        view.objectives[other] = NOBODY
        view.final_crisis_order[other] = []
        view.strategy_deck = []
        view.objective_deck = []
        view.view = self.side
        return view

    # ------------------------------------------------------- decisions
    def choose(self, ex: Executor, decision: Decision, explain: bool = True) -> Action:
        """The solo opponent's answer to one of its decisions (logged with why, if ``explain``)."""
        view_ex = ex if ex.state.view == self.side else Executor(ex.tables, self.public_copy(ex.state), None, self)
        view_ex.work = ex.work  # the look-ahead at options is the work of the rule that offers them
        # dice come from the real position, so the roll is the game's own
        dice = _Dice(ex)
        parts: List[dict] = []
        kind = decision.kind
        if kind in (PLACE, REMOVE, "move"):
            action = self._step(view_ex, decision, parts, dice)
        elif kind == "option":
            action = self._option(view_ex, decision, parts)
        elif kind == "marker":
            action = self._marker(view_ex, decision, parts, dice)
        else:  # nothing in the rules asks the solo opponent this: the first legal choice, said so
            action = decision.actions[0]
            parts.append({"kind": "first"})
        ex.work = view_ex.work
        if explain and ex.log is not None:
            self._explain(view_ex, parts, ex.log)
            ex.emit("log.solo.choice", side=ex.tables.sides[self.side], parts=parts, action=action.text)
        return action

    def _explain(self, ex, parts: List[dict], log) -> None:
        """What a reader of the choice needs besides the choice itself (nothing here changes it):
        a table's legal spaces as they were for the token just before, when its choice came just
        before; and, for a row skipped, the legal spaces it names that an earlier row set aside."""
        before = _previous_legal(log)
        codes = {name: code for code, name in enumerate(ex.tables.spaces)}
        for part in parts:
            if part["kind"] != "table":
                continue
            if part["table"] in before:
                part["before"] = before[part["table"]]
            rows = self.rules.tables[self.side][part["table"]]
            legal = [codes[name] for name in part["legal"]]
            for index, kept in part["rows"]:
                if kept is None:  # one space at a time: the row's test alone, as the table reads it
                    keep = rows[index][0]
                    fit = [part["legal"][i] for i, space in enumerate(legal) if keep(ex, self.ctx, [space])]
                    if fit:
                        part.setdefault("set_aside", {})[index] = fit

    def _step(self, ex, decision: Decision, parts: List[dict], dice) -> Action:
        """One token step (solo rulebook: Selecting Spaces; docs/rulings.md on moves)."""
        n = ex.locations.n
        actions = [a for a in decision.actions if a is not DONE]
        if not actions:
            return DONE  # nothing else can be done
        verb = decision.kind
        # tokens of either side: the player's are removed, the solo opponent's own are placed and moved
        wanted = self.player if verb == REMOVE else self.side
        mine = [a for a in actions if a.side in (-1, wanted)]
        if not mine and DONE in decision.actions:
            parts.append({"kind": "stop"})
            return DONE
        actions = mine or actions
        owner = actions[0].side if actions[0].side >= 0 else decision.owner
        whose = "own" if owner == self.side else "opponent"
        if verb == PLACE or decision.stage == "destination":
            space = self._select(ex, PLACE, sorted({a.b for a in actions if a.b < n}), parts, dice, whose)
            return next(a for a in actions if a.b == space)
        if verb == REMOVE:
            space = self._select(ex, REMOVE, sorted({a.a for a in actions if a.a < n}), parts, dice, whose)
            return next(a for a in actions if a.a == space)
        # a move: where the token comes from, then where it goes
        holders = [code for code in self.rules.holder_order(decision.rule) if any(a.a == code for a in actions)]
        if holders:
            parts.append({"kind": "holder", "holder": ex.locations.names[holders[0]]})
            actions = [a for a in actions if a.a == holders[0]]
        else:
            source = self._select(ex, REMOVE, sorted({a.a for a in actions if a.a < n}), parts, dice, whose)
            actions = [a for a in actions if a.a == source]
        destinations = sorted({a.b for a in actions})
        if len(destinations) > 1 and all(d < n for d in destinations):
            dest = self._select(ex, PLACE, destinations, parts, dice, whose)
            actions = [a for a in actions if a.b == dest]
        return actions[0]

    def _select(self, ex, table: str, legal: Sequence[int], parts: List[dict], dice, whose: str = "own") -> int:
        """solo rulebook: Selecting Spaces -- filter the legal spaces row by row (the rows for
        whose tokens these are: the solo opponent's own, or the player's)."""
        names = ex.tables.spaces
        part = {"kind": "table", "table": table, "legal": [names[s] for s in legal], "rows": []}
        parts.append(part)
        left = list(legal)
        for index, (keep, for_tokens) in enumerate(self.rules.tables[self.side][table]):
            if len(left) <= 1:
                break
            if for_tokens is not None and for_tokens != whose:
                continue
            kept = keep(ex, self.ctx, left)
            if not kept:
                part["rows"].append((index, None))  # would leave no space: skipped
            elif len(kept) == len(left):
                part["rows"].append((index, "all"))
            else:
                part["rows"].append((index, [names[s] for s in kept]))
                left = kept
        chosen = left[dice.pick([names[s] for s in left], part)] if len(left) > 1 else left[0]
        part["chosen"] = names[chosen]
        return chosen

    def _option(self, ex, decision: Decision, parts: List[dict]) -> Action:
        """solo rulebook: Performing Events -- among exclusive options, the first that can be
        carried out fully, else the first that would place or remove pieces (as the content orders)."""
        from .predict import predict
        op, ctx = decision.origin
        offered = [a.a for a in decision.actions]
        outcomes = {i: predict(ex, op.options[i], ctx) for i in offered}
        found = {i: ("full" if o.shortfall == 0 and o.acted else "pieces" if o.pieces else "none")
                 for i, o in outcomes.items()}
        chosen = None
        for criterion in self.rules.criteria:
            for i in offered:
                o = outcomes[i]
                if (criterion == "fully" and o.acted and o.shortfall == 0) or (criterion == "pieces" and o.pieces):
                    chosen = i
                    break
            if chosen is not None:
                break
        part = {"kind": "options", "found": [(i, found[i]) for i in offered], "criterion": None}
        if chosen is None:
            chosen = offered[0]
        else:
            part["criterion"] = criterion
        part["chosen"] = chosen
        parts.append(part)
        return next(a for a in decision.actions if a.a == chosen)

    def _marker(self, ex, decision: Decision, parts: List[dict], dice) -> Action:
        """A priority selection (the Peace Commissioner priorities)."""
        marker = decision.actions[0].b
        names = ex.tables.spaces
        legal = sorted({a.a for a in decision.actions})
        part = {"kind": "priority", "marker": ex.tables.markers[marker].name, "legal": [names[s] for s in legal],
                "lines": []}
        parts.append(part)
        chosen = None
        for index, (keep, ties) in enumerate(self.rules.markers.get(marker, ())):
            kept = keep(ex, self.ctx, legal)
            part["lines"].append((index, [names[s] for s in kept] if kept else None))
            if not kept:
                continue
            if len(kept) == 1:
                chosen = kept[0]
            elif ties in (PLACE, REMOVE):
                chosen = self._select(ex, ties, kept, parts, dice, "own")
            else:
                chosen = kept[dice.pick([names[s] for s in kept], part)]
            break
        if chosen is None:  # no line names a legal space: a die among them all
            chosen = legal[dice.pick([names[s] for s in legal], part)] if len(legal) > 1 else legal[0]
        part["chosen"] = names[chosen]
        return next(a for a in decision.actions if a.a == chosen)


class _Dice:
    """Die rolls for a choice, from the real game (never from a view's copy of the generator)."""

    def __init__(self, ex: Executor):
        self.ex = ex

    def pick(self, names: Sequence[str], part: dict) -> int:
        index, rolls, faces = self.ex.roll(len(names))
        part["left"] = list(names)
        part["dice"] = rolls
        part["faces"] = faces
        return index


# log lines of a token step or a marker: a choice's reason is shown after the line it explains
_ACTION_LINES = ("log.place", "log.remove", "log.move", "log.marker")


def _previous_legal(log) -> Dict[str, List[str]]:
    """The legal spaces of each table of the solo opponent's choice just before, when nothing but
    the token steps came between (the same run of placements or removals)."""
    for entry in reversed(log[-4:]):
        if entry.key == "log.solo.choice":
            return {part["table"]: part["legal"] for part in entry.params["parts"] if part["kind"] == "table"}
        if entry.key not in _ACTION_LINES:
            break
    return {}


def compound_parts(condition):
    """The parts of a test made of parts ("A and B", "A or B"), else None."""
    return tuple(condition.items) if isinstance(condition, (A.AllOf, A.AnyOf)) else None


class _ExplainedIf(IfOp):
    """A test of the solo opponent's procedures that says, when it is made of parts, which part
    decided: the first that fails in "A and B" answered no, the first that holds in "A or B"
    answered yes."""

    def __init__(self, op: IfOp, any_of: bool, parts):
        super().__init__(op.condition, op.then, op.otherwise, op.node, op.trace)
        self.any_of, self.parts = any_of, parts

    def run(self, ex, ctx):
        holds = self.condition(ex, ctx, NOBODY)
        if ex.log is not None:
            ex.emit("log.solo.if", side=ex.tables.sides[ctx.me], rule=self.node.condition, holds=holds,
                    part=self.deciding(ex, ctx, holds))
        branch = self.then if holds else self.otherwise
        return NO_DECISIONS if branch is None else branch.run(ex, ctx)

    def deciding(self, ex, ctx, holds: bool) -> Optional[int]:
        if holds != self.any_of:  # every part had to be looked at: none decided alone
            return None
        work = ex.work  # looking again to explain is no work of the rule's: a game with a log plays the same
        try:
            return next((i for i, part in enumerate(self.parts) if part(ex, ctx, NOBODY) == holds), None)
        finally:
            ex.work = work


def _explaining_compound_tests(compiler) -> None:
    """Have ``compiler``'s "if" tests of several parts say which part decided."""
    plain = compiler.op_If

    def op_If(node):
        op = plain(node)
        parts = compound_parts(node.condition)
        if parts is None or not isinstance(op, IfOp):
            return op
        return _ExplainedIf(op, isinstance(node.condition, A.AnyOf),
                            tuple(compiler.condition(part) for part in parts))
    compiler.op_If = op_If


def drive(flow, solo: SoloOpponent, ex: Executor):
    """The sequence of play with the solo opponent's decisions answered in place."""
    log = ex.log
    try:
        decision = next(flow)
    except StopIteration:
        return
    while True:
        reason = None
        if decision.player == solo.side:
            action = solo.choose(ex, decision)
            if log and log[-1].key == "log.solo.choice" and decision.kind != "option":
                reason = len(log) - 1
        else:
            action = yield decision
        ex.work = 0  # a decision was made: the work of what follows starts from nothing
        try:
            decision = flow.send(action)
        except StopIteration:
            decision = None
        if reason is not None and reason + 1 < len(log) and log[reason + 1].key in _ACTION_LINES:
            log.insert(reason + 1, log.pop(reason))
        if decision is None:
            return
