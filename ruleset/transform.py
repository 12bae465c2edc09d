"""Lark parse tree -> typed AST.  Lark's trees never leave this package."""

from __future__ import annotations

from lark import Token, Transformer, v_args

from . import ast as A


def _pos(meta) -> A.Pos | None:
    if getattr(meta, "empty", True):
        return None
    return A.Pos(meta.line, meta.column, meta.end_line, meta.end_column)


def _tok_pos(token: Token) -> A.Pos:
    return A.Pos(token.line, token.column, token.end_line, token.end_column)


def _name(token: Token) -> A.Name:
    return A.Name(str(token), pos=_tok_pos(token))


def _first(children, kind):
    for child in children:
        if isinstance(child, kind):
            return child
    return None


@v_args(meta=True)
class ToAst(Transformer):
    """One method per grammar rule or alias; each returns an AST node."""

    # ----------------------------------------------------------- structure
    def block(self, meta, children):
        return A.Block(tuple(children), pos=_pos(meta))

    suite = block

    def condition_rule(self, meta, children):
        return children[0]

    def if_stmt(self, meta, children):
        condition, then = children[0], children[1]
        otherwise = children[2] if len(children) > 2 else None
        return A.If(condition, then, otherwise, pos=_pos(meta))

    def otherwise(self, meta, children):
        return children[0]

    def either_stmt(self, meta, children):
        return A.Either(tuple(children), pos=_pos(meta))

    def or_option(self, meta, children):
        return children[0]

    def for_each_player(self, meta, children):
        return A.ForEachPlayer(children[0], pos=_pos(meta))

    def simple_stmt(self, meta, children):
        if len(children) == 2:
            return A.Acting(children[0], children[1], pos=_pos(meta))
        return children[0]

    def opponent_acts(self, meta, children):
        return "opponent"

    def each_player_acts(self, meta, children):
        return "each_player"

    # ------------------------------------------------------------ actions
    def place(self, meta, children):
        tokens = children[0]
        source = _first(children, _FromHolder)
        dests = [c for c in children if isinstance(c, A.Locations)]
        return A.Place(tokens.amount, tokens.owner, dests[0],
                       source=source.holder if source else None,
                       each=any(isinstance(c, _Each) for c in children),
                       limit=_limit(children), one_space=_one_space(children), pos=_pos(meta))

    def remove(self, meta, children):
        tokens = children[0]
        source = _first(children, A.Locations)
        return A.Remove(tokens.amount, tokens.owner, source, limit=_limit(children),
                        each=any(isinstance(c, _Each) for c in children),
                        one_space=_one_space(children), pos=_pos(meta))

    def move(self, meta, children):
        tokens = children[0]
        places = [c for c in children if isinstance(c, A.Locations)]
        return A.Move(tokens.amount, tokens.owner, places[0], places[1],
                      each=any(isinstance(c, _Each) for c in children),
                      limit=_limit(children), one_space=_one_space(children), pos=_pos(meta))

    def move_within(self, meta, children):
        tokens = children[0]
        return A.Move(tokens.amount, tokens.owner, children[1], children[1],
                      limit=_limit(children), within=True, one_space=_one_space(children), pos=_pos(meta))

    def from_holder(self, meta, children):
        return _FromHolder(children[0])

    def each(self, meta, children):
        return _Each()

    def limit(self, meta, children):
        return _Limit(int(children[-1]))

    def one_space(self, meta, children):
        return _OneSpace()

    def gain_vp(self, meta, children):
        per = children[1] if len(children) > 1 else None
        return A.ChangeVP(True, int(children[0]), per, pos=_pos(meta))

    def lose_vp(self, meta, children):
        per = children[1] if len(children) > 1 else None
        return A.ChangeVP(False, int(children[0]), per, pos=_pos(meta))

    def per(self, meta, children):
        return children[0]

    def dimensions(self, meta, children):
        return A.Dimensions(children[0] if children else None, pos=_pos(meta))

    def place_marker(self, meta, children):
        return A.PlaceMarker(_name(children[0]), children[1], "place", pos=_pos(meta))

    def move_marker(self, meta, children):
        return A.PlaceMarker(_name(children[0]), children[1], "move", pos=_pos(meta))

    def remove_marker(self, meta, children):
        return A.RemoveMarker(_name(children[0]), pos=_pos(meta))

    # ----------------------------------------------------------- token phrases
    def tokens(self, meta, children):
        amount = children[0]
        owner = _first(children[1:], A.Owner)
        if any(isinstance(c, _EitherSide) for c in children):
            owner = A.Owner("either", pos=_pos(meta))
        return _Tokens(amount, owner or A.Owner("own"))

    def exactly(self, meta, children):
        return A.Amount("exactly", int(children[0]), pos=_pos(meta))

    def up_to(self, meta, children):
        return A.Amount("up_to", int(children[0]), pos=_pos(meta))

    def all_tokens(self, meta, children):
        return A.Amount("all", pos=_pos(meta))

    def one_token(self, meta, children):
        return A.Amount("exactly", 1, pos=_pos(meta))

    def owner(self, meta, children):
        kind = "opponent" if children[0] == "opponent" else "own"
        return A.Owner(kind, pos=_pos(meta))

    def opponent_owner(self, meta, children):
        return A.Owner("opponent", pos=_pos(meta))

    def side_owner(self, meta, children):
        return A.Owner("side", _name(children[0]), pos=_pos(meta))

    def either_side(self, meta, children):
        return _EitherSide()

    # ------------------------------------------------------------ locations
    def locations(self, meta, children):
        return A.Locations(tuple(children), pos=_pos(meta))

    def pool(self, meta, children):
        return A.Pool(children[0] if children else None, pos=_pos(meta))

    def crisis_track(self, meta, children):
        return A.CrisisTrack(children[0] if children else None, pos=_pos(meta))

    def bonus_box(self, meta, children):
        possessive = children[0] if len(children) == 2 else None
        return A.BonusBox(_name(children[-1]), possessive, pos=_pos(meta))

    def spaces(self, meta, children):
        base = children[0]
        filt = children[1] if len(children) > 1 else None
        return A.Spaces(base, filt, pos=_pos(meta))

    def named(self, meta, children):
        return A.Named(_name(children[0]), pos=_pos(meta))

    def dimension_spaces(self, meta, children):
        return A.DimensionSpaces(_name(children[0]), pos=_pos(meta))

    def pivotal_spaces(self, meta, children):
        return A.PivotalSpaces(pos=_pos(meta))

    def all_spaces(self, meta, children):
        return A.AllSpaces(pos=_pos(meta))

    def this_dimension(self, meta, children):
        return A.ThisDimension(pos=_pos(meta))

    def this_space(self, meta, children):
        return A.ThisSpace(pos=_pos(meta))

    def it(self, meta, children):
        return A.It(pos=_pos(meta))

    def that_space(self, meta, children):
        return A.ThatSpace(pos=_pos(meta))

    def revealed_objective_spaces(self, meta, children):
        return A.RevealedObjectiveSpaces(pos=_pos(meta))

    def where(self, meta, children):
        return A.Where(children[0], pos=_pos(meta))

    def you_control(self, meta, children):
        return A.ControlledBy("you", pos=_pos(meta))

    def opponent_controls(self, meta, children):
        return A.ControlledBy("opponent", pos=_pos(meta))

    def nobody_controls(self, meta, children):
        return A.ControlledBy("nobody", pos=_pos(meta))

    # ----------------------------------------------------------- conditions
    def any_of(self, meta, children):
        items = []
        for child in children:
            items.extend(child.items if isinstance(child, A.AnyOf) else [child])
        return A.AnyOf(tuple(items), pos=_pos(meta))

    def all_of(self, meta, children):
        items = []
        for child in children:
            items.extend(child.items if isinstance(child, A.AllOf) else [child])
        return A.AllOf(tuple(items), pos=_pos(meta))

    def not_(self, meta, children):
        return A.Not(children[0], pos=_pos(meta))

    def controls(self, meta, children):
        return A.Controls(children[0], children[1], pos=_pos(meta))

    def nobody_controls_cond(self, meta, children):
        return A.NobodyControls(children[0], pos=_pos(meta))

    def has_tokens(self, meta, children):
        where = children[2] if len(children) > 2 else A.It(pos=_pos(meta))
        return A.HasTokens(children[0], children[1], where, pos=_pos(meta))

    def has_more_tokens(self, meta, children):
        where = children[2] if len(children) > 2 else A.It(pos=_pos(meta))
        return A.HasMoreTokens(children[0], children[1], where, pos=_pos(meta))

    def has_vp(self, meta, children):
        return A.HasVP(children[0], children[1], pos=_pos(meta))

    def has_more_vp(self, meta, children):
        return A.HasMoreVP(children[0], children[1], pos=_pos(meta))

    def is_first_player(self, meta, children):
        return A.IsFirstPlayer(children[0], pos=_pos(meta))

    def is_side(self, meta, children):
        return A.IsSide(children[0], _name(children[1]), pos=_pos(meta))

    def round_is(self, meta, children):
        return A.RoundIs(children[0], pos=_pos(meta))

    def zone_breached(self, meta, children):
        return A.ZoneBreached(children[0], _name(children[1]), pos=_pos(meta))

    def pool_has(self, meta, children):
        return A.PoolHas(children[0], children[1], pos=_pos(meta))

    def pool_lead(self, meta, children):
        return A.PoolLead(children[0], int(children[1]), children[2], pos=_pos(meta))

    def is_pivotal(self, meta, children):
        return A.IsPivotal(children[0], pos=_pos(meta))

    def controls_count(self, meta, children):
        return A.ControlsCount(children[0], children[1], pos=_pos(meta))

    def controls_more(self, meta, children):
        return A.ControlsMore(children[0], children[1], pos=_pos(meta))

    def has_fewer_vp(self, meta, children):
        return A.HasFewerVP(children[0], children[1], pos=_pos(meta))

    def marker_at(self, meta, children):
        # a pool or a box is kept: the checker says a marker is only ever on a map space
        return A.MarkerAt(_marker(children[0]), children[1], pos=_pos(meta))

    def marker_there(self, meta, children):
        return A.MarkerAt(_marker(children[0]), A.Spaces(A.It(pos=_pos(meta)), pos=_pos(meta)), pos=_pos(meta))

    def marker_on_map(self, meta, children):
        return A.MarkerAt(_marker(children[0]), pos=_pos(meta))

    def marker_off_map(self, meta, children):
        return A.MarkerAt(_marker(children[0]), off=True, pos=_pos(meta))

    def cmp_eq(self, meta, children):
        return A.Comparison("==", int(children[0]), pos=_pos(meta))

    def cmp_ge(self, meta, children):
        return A.Comparison(">=", int(children[0]), pos=_pos(meta))

    def cmp_le(self, meta, children):
        return A.Comparison("<=", int(children[0]), pos=_pos(meta))

    def cmp_gt(self, meta, children):
        return A.Comparison(">", int(children[0]), pos=_pos(meta))

    def cmp_lt(self, meta, children):
        return A.Comparison("<", int(children[0]), pos=_pos(meta))

    def cmp_none(self, meta, children):
        return A.Comparison("==", 0, pos=_pos(meta))

    # -------------------------------------------------------------- players
    def player_self(self, meta, children):
        return A.Player("you", pos=_pos(meta))

    def player_other(self, meta, children):
        return A.Player("opponent", pos=_pos(meta))

    def side_player(self, meta, children):
        return A.Player("side", _name(children[0]), pos=_pos(meta))

    def own_possessive(self, meta, children):
        return "own"

    def their_possessive(self, meta, children):
        return "their"

    def opponent_possessive(self, meta, children):
        return "opponent"


def _marker(player: A.Player) -> A.Name:
    """The marker named where the grammar read a player ("the Peace Commissioner is ...")."""
    if player.side is not None:
        return player.side
    return A.Name({"you": "you", "opponent": "the opponent"}[player.kind], pos=player.pos)


class _FromHolder:
    def __init__(self, holder):
        self.holder = holder


class _Each:
    pass


class _EitherSide:
    pass


class _Limit:
    def __init__(self, n: int):
        self.n = n


class _OneSpace:
    pass


class _Tokens:
    def __init__(self, amount, owner):
        self.amount = amount
        self.owner = owner


def _one_space(children) -> bool:
    return any(isinstance(c, _OneSpace) for c in children)


def _limit(children):
    found = _first(children, _Limit)
    return found.n if found else None
