"""A side the game plays itself (the solo game's opponent), from its content (docs/solo.md).

Nothing here knows a card, a place, a row or a step of any solo rulebook: the
content's overlay says all of that, and this module runs it.  Three parts:

- ``AutomaRules``: the overlay compiled once per game program (its tables and
  priorities as filters, its steps and procedures as operations);
- ``Automa``: the rules for one game, with the side the game plays; it answers
  every decision of that side (``choose``) by the generic machinery of space-
  selection tables, priority lists and criteria for exclusive options, always
  looking at a view of the position without what that side may not see, and
  explains each choice in the log;
- ``drive``: answers that side's decisions in place, so only the person's reach a
  controller.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from crisis.interpreter.actions import DONE, Action, Decision

from crisis.ruleset import meaning as M

from .compiler import Compiler
from .layout import NOBODY
from .ops import Ctx, IfOp

PLACE, REMOVE = "place", "remove"


class AutomaRules:
    """The overlay, compiled: tables and priorities as filters, steps and procedures as operations."""

    def __init__(self, program, overlay):
        self.overlay = overlay
        self.program = program
        compiler = program.compiler_for(Compiler)
        traced = program.compiler_for(_ExplainingCompiler, trace=True)  # the automa's own rules log each test they make
        roles = overlay.roles
        terms = list(program.term_names)
        self.room = tuple(compiler.term(terms.index(name)) for name in overlay.placement)
        self.available = tuple((compiler.condition(when) if when is not None else None,
                                frozenset(code for item in holders.items for code in compiler.holder(item).codes))
                               for when, holders in overlay.available)
        self.tables: Dict[int, Dict[str, tuple]] = {
            side: {table: tuple((compiler.row(row.places), row.whose) for row in rows) for table, rows in aid.items()}
            for side, aid in overlay.aids.items()}
        self.markers = {marker: tuple((compiler.row(row.places), row.ties) for row in rows)
                        for marker, rows in overlay.markers.items()}
        self.steps: Dict[str, Dict[int, object]] = {}
        for name, variants in overlay.steps.items():
            self.steps[name] = {(roles.index(role) if role else -1): (traced if role else compiler).block(block)
                                for role, block in variants.items()}
        names = list(program.procedure_names)
        self.procedures: Dict[int, Dict[int, object]] = {}
        self.conditions: Dict[int, tuple] = {}
        for name, variants in overlay.procedures.items():
            index = names.index(name)
            for role, meaning in variants.items():
                if isinstance(meaning, tuple):
                    self.conditions[index] = tuple(compiler.condition(c) for c in meaning)
                else:
                    which = roles.index(role) if role else -1
                    self.procedures.setdefault(index, {})[which] = (traced if role else compiler).block(meaning)
        self.first_player = (tuple(compiler.condition(c) for c in overlay.first_player)
                             if overlay.first_player else None)
        self.difficulty = dict(overlay.difficulty)
        self.default_difficulty = overlay.difficulty[0][0] if overlay.difficulty else None
        self.criteria = overlay.criteria
        self.options = overlay.options
        self._holders: Dict[int, Tuple[int, ...]] = {}
        self.compiler = compiler

    def holder_order(self, op) -> Tuple[int, ...]:
        """The holders a move names as sources, in the order written."""
        from crisis.ruleset import meaning as M
        found = self._holders.get(op.id)
        if found is None:
            sources = getattr(op.node, "sources", None)
            items = sources.items if isinstance(sources, M.Union_) else ()
            found = self._holders[op.id] = tuple(self.compiler.holder(item).codes[0] for item in items
                                                 if isinstance(item, M.Holder))
        return found


class Automa:
    """The side the game plays in one game, and how it decides."""

    def __init__(self, rules: AutomaRules, side: int, program):
        self.rules = rules
        self.side = side
        sides = len(program.schema.sides)
        self.player = (side + 1) % sides
        self.program = program
        self.ctx = Ctx(side)
        # the first role is the side the game plays, the second the person's
        self.first_player = rules.first_player
        self.on_tracks = None  # the location codes of tokens on tracks (source_ok), worked out once

    # --------------------------------------------------------- roles
    def role(self, role: int) -> int:
        return self.side if role == 0 else self.player

    def role_chooser(self, name: str, me: int) -> int:
        roles = self.rules.overlay.roles
        return self.role(roles.index(name)) if name in roles else me

    def role_of(self, side: int) -> int:
        return 0 if side == self.side else 1

    # --------------------------------------------------------- replaced rules
    def step(self, name: str, side: int):
        variants = self.rules.steps.get(name)
        if variants is None:
            return None
        return variants.get(self.role_of(side), variants.get(-1))

    def procedure(self, procedure: int, side: int):
        variants = self.rules.procedures.get(procedure)
        if variants is None:
            return None
        return variants.get(self.role_of(side), variants.get(-1))

    def conditions(self, procedure: int):
        return self.rules.conditions.get(procedure)

    # ------------------------------------------------ what it may place
    def room(self, board, place: int) -> bool:
        ctx = self.ctx
        for term in self.rules.room:
            if not term(board, ctx, place):
                return False
        return True

    def available(self, board) -> frozenset:
        for condition, codes in self.rules.available:
            if condition is None or condition(board, self.ctx, NOBODY):
                return codes
        return frozenset()

    def source_ok(self, board, source: int) -> bool:
        """Whether a token the automa puts on the map may come from ``source``."""
        codes, loc, side = self.available(board), board.locations, self.side
        if source in codes:
            return True
        on_tracks = self.on_tracks
        if on_tracks is None:
            on_tracks = self.on_tracks = frozenset(code for code, kind in enumerate(loc.kind)
                                                   if kind[0] in ("track", "above"))
        track_ok = any(code in on_tracks and board.can_take(side, code) for code in codes)
        if source == loc.SUPPLY:  # the supply's holders in order: the first that has tokens
            for code in loc.supply:
                if board.count_at(side, code) > 0:
                    return track_ok if loc.kind[code][0] == "track" else code in codes
            return track_ok
        if loc.kind[source][0] == "track":
            return track_ok
        return False

    def placeable(self, board, owners, legal: List[Action]) -> List[Action]:
        """The steps of ``legal`` the automa may take with its own tokens: onto the map only
        Available tokens, only into places with Room."""
        n, side = board.n, self.side
        room: Dict[int, bool] = {}  # each destination's and each source's answer, asked once
        sources: Dict[int, bool] = {}
        out = []
        for action in legal:
            owner = action.side if action.side >= 0 else owners[0]
            if action is DONE or owner != side or action.b >= n:
                out.append(action)
                continue
            dest = action.b
            fits = room.get(dest)
            if fits is None:
                fits = room[dest] = self.room(board, dest)
            if not fits:
                continue
            source = action.a
            if source < n:
                out.append(action)
                continue
            ok = sources.get(source)
            if ok is None:
                ok = sources[source] = self.source_ok(board, source)
            if ok:
                out.append(action)
        return out

    # ----------------------------------------------------- what it sees
    def public_copy(self, program, position, rng=None):
        """A copy of the position without what the automa's side may not see: the other sides'
        hidden piles and the order of piles nobody sees.  ``rng``: as for Position.copy."""
        view = position.copy(rng)
        if view.view == self.side:
            return view
        layout = program.layout
        for number, pile in enumerate(program.schema.piles):
            if pile.seen_by == "nobody":
                view.piles[layout.pile(number)] = []
            elif pile.seen_by == "owner" and pile.each_side:
                for side in range(layout.sides):
                    if side != self.side:
                        view.piles[layout.pile(number, side)] = []
        view.view = self.side
        return view

    # ------------------------------------------------------- decisions
    def choose(self, board, decision: Decision, explain: bool = True) -> Action:
        """The automa's answer to one of its decisions (logged with why, if ``explain``)."""
        from .board import Board
        view_board = board
        if board.position.view != self.side:
            # the view shares the game's generator: nothing here rolls on the view (dice come from
            # the real position, after any look-ahead, which rolls on a copy of its own)
            view = self.public_copy(board.program, board.position, board.position.rng)
            view_board = Board(board.program, view, None, self, board.options)
            view_board.meter = board.meter  # looking ahead at options is work of the rule that offers them
        dice = _Dice(board)  # dice come from the real position, so the roll is the game's own
        parts: List[dict] = []
        kind = decision.kind
        if kind in (PLACE, REMOVE, "move"):
            action = self._step(view_board, decision, parts, dice)
        elif kind == "option":
            action = self._option(view_board, decision, parts)
        elif kind == "marker":
            action = self._marker(view_board, decision, parts, dice)
        else:  # nothing in the rules asks the automa this: the first legal choice, said so
            action = decision.actions[0]
            parts.append({"kind": "first"})
        if explain and board.log is not None:
            self._explain(view_board, parts, board.log)
            board.emit("log.solo.choice", side=board.program.schema.sides[self.side], parts=parts, action=action.text)
        return action

    def _explain(self, board, parts: List[dict], log) -> None:
        """What a reader of the choice needs besides the choice itself (nothing here changes it):
        a table's legal places as they were for the token just before, when its choice came just
        before; and, for a row skipped, the legal places it names that an earlier row set aside."""
        before = _previous_legal(log)
        codes = {name: code for code, name in enumerate(board.program.schema.map.places)}
        for part in parts:
            if part["kind"] != "table":
                continue
            if part["table"] in before:
                part["before"] = before[part["table"]]
            rows = self.rules.tables[self.side][part["table"]]
            legal = [codes[name] for name in part["legal"]]
            for index, kept in part["rows"]:
                if kept is None:  # one place at a time: the row's test alone, as the table reads it
                    keep = rows[index][0]
                    fit = [part["legal"][i] for i, place in enumerate(legal) if keep(board, self.ctx, [place])]
                    if fit:
                        part.setdefault("set_aside", {})[index] = fit

    def _step(self, board, decision: Decision, parts: List[dict], dice) -> Action:
        n = board.n
        actions = [a for a in decision.actions if a is not DONE]
        if not actions:
            return DONE
        verb = decision.kind
        # tokens of either side: the player's are removed, the automa's own are placed and moved
        wanted = self.player if verb == REMOVE else self.side
        mine = [a for a in actions if a.side in (-1, wanted)]
        if not mine and DONE in decision.actions:
            parts.append({"kind": "stop"})
            return DONE
        actions = mine or actions
        owner = actions[0].side if actions[0].side >= 0 else decision.owner
        whose = "own" if owner == self.side else "opponent"
        if verb == PLACE or decision.stage == "destination":
            place = self._select(board, PLACE, sorted({a.b for a in actions if a.b < n}), parts, dice, whose)
            return next(a for a in actions if a.b == place)
        if verb == REMOVE:
            place = self._select(board, REMOVE, sorted({a.a for a in actions if a.a < n}), parts, dice, whose)
            return next(a for a in actions if a.a == place)
        # a move: where the token comes from, then where it goes
        op = decision.origin[0] if decision.origin else None
        holders = [code for code in (self.rules.holder_order(op) if op is not None else ())
                   if any(a.a == code for a in actions)]
        if holders:
            parts.append({"kind": "holder", "holder": board.locations.names[holders[0]]})
            actions = [a for a in actions if a.a == holders[0]]
        else:
            source = self._select(board, REMOVE, sorted({a.a for a in actions if a.a < n}), parts, dice, whose)
            actions = [a for a in actions if a.a == source]
        destinations = sorted({a.b for a in actions})
        if len(destinations) > 1 and all(d < n for d in destinations):
            dest = self._select(board, PLACE, destinations, parts, dice, whose)
            actions = [a for a in actions if a.b == dest]
        return actions[0]

    def _select(self, board, table: str, legal: Sequence[int], parts: List[dict], dice, whose: str = "own") -> int:
        """Selecting places: filter the legal places row by row (the rows for whose tokens these are)."""
        names = board.program.schema.map.places
        part = {"kind": "table", "table": table, "legal": [names[p] for p in legal], "rows": []}
        parts.append(part)
        left = list(legal)
        for index, (keep, for_tokens) in enumerate(self.rules.tables[self.side][table]):
            if len(left) <= 1:
                break
            if for_tokens is not None and for_tokens != whose:
                continue
            kept = keep(board, self.ctx, left)
            if not kept:
                part["rows"].append((index, None))  # would leave no place: skipped
            elif len(kept) == len(left):
                part["rows"].append((index, "all"))
            else:
                part["rows"].append((index, [names[p] for p in kept]))
                left = kept
        chosen = left[dice.pick([names[p] for p in left], part)] if len(left) > 1 else left[0]
        part["chosen"] = names[chosen]
        return chosen

    def _option(self, board, decision: Decision, parts: List[dict]) -> Action:
        """Among exclusive options, the first that meets the first criterion, else the second..."""
        from .machine import predict
        op, ctx = decision.origin
        offered = [a.a for a in decision.actions]
        outcomes = {i: predict(board, op.options[i], ctx) for i in offered}
        found = {i: ("full" if o.shortfall == 0 and o.acted else "pieces" if o.pieces else "none")
                 for i, o in outcomes.items()}
        chosen = None
        criterion = None
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

    def _marker(self, board, decision: Decision, parts: List[dict], dice) -> Action:
        """A priority list for a marker."""
        marker = decision.actions[0].b
        names = board.program.schema.map.places
        legal = sorted({a.a for a in decision.actions})
        part = {"kind": "priority", "marker": board.program.schema.markers[marker].name,
                "legal": [names[p] for p in legal], "lines": []}
        parts.append(part)
        chosen = None
        for index, (keep, ties) in enumerate(self.rules.markers.get(marker, ())):
            kept = keep(board, self.ctx, legal)
            part["lines"].append((index, [names[p] for p in kept] if kept else None))
            if not kept:
                continue
            if len(kept) == 1:
                chosen = kept[0]
            elif ties in (PLACE, REMOVE):
                chosen = self._select(board, ties, kept, parts, dice, "own")
            else:
                chosen = kept[dice.pick([names[p] for p in kept], part)]
            break
        if chosen is None:  # no line names a legal place: a die among them all
            chosen = legal[dice.pick([names[p] for p in legal], part)] if len(legal) > 1 else legal[0]
        part["chosen"] = names[chosen]
        return next(a for a in decision.actions if a.a == chosen)


class _Dice:
    """Die rolls for a choice, from the real game (never from a view's copy of the generator)."""

    def __init__(self, board):
        self.board = board

    def pick(self, names: Sequence[str], part: dict) -> int:
        index, rolls, faces = self.board.roll(len(names))
        part["left"] = list(names)
        part["dice"] = rolls
        part["faces"] = faces
        return index


# log lines of a token step or a marker: a choice's reason is shown after the line it explains
_ACTION_LINES = ("log.place", "log.remove", "log.move", "log.marker")


def _previous_legal(log) -> Dict[str, List[str]]:
    """The legal places of each table of the automa's choice just before, when nothing but the
    token steps came between (the same run of placements or removals)."""
    for entry in reversed(log[-4:]):
        if entry.key == "log.solo.choice":
            return {part["table"]: part["legal"] for part in entry.params["parts"] if part["kind"] == "table"}
        if entry.key not in _ACTION_LINES:
            break
    return {}


class _ExplainedIf(IfOp):
    """A test of the automa's own rules that says, when it is made of parts, which part decided:
    the first that fails in "A and B" answered no, the first that holds in "A or B" answered yes."""

    def __init__(self, condition, then, otherwise, node, any_of: bool, parts):
        super().__init__(condition, then, otherwise, node, True)
        self.any_of, self.parts = any_of, parts

    def _branch(self, board, ctx):
        holds = self.condition(board, ctx, NOBODY)
        if board.log is not None:
            board.emit("log.solo.if", side=board.program.schema.sides[ctx.me], rule=self.node.condition
                       if self.node is not None else None, holds=holds, part=self.deciding(board, ctx, holds))
        return self.then if holds else self.otherwise

    def deciding(self, board, ctx, holds: bool) -> Optional[int]:
        if holds != self.any_of:  # every part had to be looked at: none decided alone
            return None
        return next((i for i, part in enumerate(self.parts) if part(board, ctx, NOBODY) == holds), None)


class _ExplainingCompiler(Compiler):
    """The compiler of the automa's own rules: their "if" tests of several parts say which part decided."""

    def op_If(self, node: M.If):
        if not self.trace or not isinstance(node.condition, (M.AllOf, M.AnyOf)):
            return super().op_If(node)
        return self.register(_ExplainedIf(self.condition(node.condition), self.block(node.then),
                                          self.block(node.otherwise) if node.otherwise else None, node,
                                          isinstance(node.condition, M.AnyOf),
                                          tuple(self.condition(part) for part in node.condition.items)))


def drive(machine, automa: Automa, decision: Optional[Decision]) -> Optional[Decision]:
    """The game's next decision for a person: the automa's own are answered in place."""
    board = machine.board
    log = board.log
    while decision is not None and decision.player == automa.side:
        action = automa.choose(board, decision)
        reason = len(log) - 1 if log and log[-1].key == "log.solo.choice" and decision.kind != "option" else None
        decision = machine.answer(action)
        if reason is not None and reason + 1 < len(log) and log[reason + 1].key in _ACTION_LINES:
            log.insert(reason + 1, log.pop(reason))
    return decision
