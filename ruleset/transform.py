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

    def locations_rule(self, meta, children):
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

    def first_of(self, meta, children):
        return A.FirstOf(tuple(children), pos=_pos(meta))

    def so_that(self, meta, children):
        return A.Goal(children[0], children[1], pos=_pos(meta))

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
                       limit=_limit(children), one_space=_one_space(children), pos=_pos(meta),
                       **_selection(children))

    def remove(self, meta, children):
        tokens = children[0]
        source = _first(children, A.Locations)
        return A.Remove(tokens.amount, tokens.owner, source, limit=_limit(children),
                        each=any(isinstance(c, _Each) for c in children),
                        one_space=_one_space(children), pos=_pos(meta), **_selection(children))

    def move(self, meta, children):
        tokens = children[0]
        places = [c for c in children if isinstance(c, A.Locations)]
        return A.Move(tokens.amount, tokens.owner, places[0], places[1],
                      each=any(isinstance(c, _Each) for c in children),
                      limit=_limit(children), one_space=_one_space(children), pos=_pos(meta),
                      **_selection(children))

    def move_within(self, meta, children):
        tokens = children[0]
        return A.Move(tokens.amount, tokens.owner, children[1], children[1],
                      limit=_limit(children), within=True, one_space=_one_space(children), pos=_pos(meta),
                      **_selection(children))

    def at_random(self, meta, children):
        return _Selection(random=True)

    def opponent_choosing(self, meta, children):
        return _Selection(chooser="tokens" if any(isinstance(c, _TheTokens) for c in children) else "all")

    def the_tokens(self, meta, children):
        return _TheTokens()

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

    # ---------------------------------------------------------- cards in play
    def reveal(self, meta, children):
        return A.Reveal(pos=_pos(meta))

    def use_event(self, meta, children):
        return A.UseEvent(children[0], pos=_pos(meta))

    def discard_card(self, meta, children):
        return A.DiscardCard(children[0], pos=_pos(meta))

    def resolve_breaches(self, meta, children):
        return A.ResolveBreaches(pos=_pos(meta))

    def revealed_card(self, meta, children):
        return A.CardRef("revealed", pos=_pos(meta))

    def discard_top(self, meta, children):
        return A.CardRef("discard_top", pos=_pos(meta))

    def this_card(self, meta, children):
        return A.CardRef("this", pos=_pos(meta))

    def card_value(self, meta, children):
        return _CardValue(children[0])

    def up_to_card_value(self, meta, children):
        return A.Amount("up_to", card=children[0].card, pos=_pos(meta))

    def card_value_amount(self, meta, children):
        return A.Amount("exactly", card=children[0].card, pos=_pos(meta))

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
        possessive = next((c for c in children if isinstance(c, str)), None)
        above = _first(children, _Above)
        return A.CrisisTrack(possessive, above.zone if above else None, pos=_pos(meta))

    def above(self, meta, children):
        return _Above(_name(children[-1]))

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

    def objective_space(self, meta, children):
        return A.ObjectiveSpace(children[0], pos=_pos(meta))

    def its_dimension(self, meta, children):
        return A.ItsDimension(pos=_pos(meta))

    def most(self, meta, children):
        owner = _first(children, A.Owner) or A.Owner("own")
        return A.Most(children[0], owner, pos=_pos(meta))

    def most_kind(self, meta, children):
        return str(children[0])

    def with_term(self, meta, children):
        return A.WithTerm(_name(children[0]), pos=_pos(meta))

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
        players = [c for c in children if isinstance(c, A.Player)]
        margin = _first(children, A.Comparison)
        rest = [c for c in children if not isinstance(c, (A.Player, A.Comparison))]
        where = rest[0] if rest else A.It(pos=_pos(meta))
        return A.HasMoreTokens(players[0], players[1], where, margin, pos=_pos(meta))

    def lead_ge(self, meta, children):
        return A.Comparison(">=", int(children[0]), pos=_pos(meta))

    def lead_le(self, meta, children):
        return A.Comparison("<=", int(children[0]), pos=_pos(meta))

    def lead_none(self, meta, children):
        return A.Comparison("<=", 0, pos=_pos(meta))

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
        scope = children[2] if len(children) > 2 else None
        return A.ControlsCount(children[0], children[1], scope, pos=_pos(meta))

    def would(self, meta, children):
        verb = "place" if children[0] == "placing" else "remove"
        owner = _first(children, A.Owner) or A.Owner("own")
        return A.Would(verb, owner, _first(children, A.Change),
                       negated=any(isinstance(c, _Negated) for c in children), pos=_pos(meta))

    def hypothetical_verb(self, meta, children):
        return str(children[0])

    def negated(self, meta, children):
        return _Negated()

    def would_give(self, meta, children):
        return A.Change("gain", children[0], children[1], pos=_pos(meta))

    def would_cost(self, meta, children):
        return A.Change("lose", children[0], children[1], pos=_pos(meta))

    change_gain = would_give
    change_lose = would_cost

    def change_target(self, meta, children):
        return children[0]

    def a_space_of(self, meta, children):
        return A.ASpaceOf(children[0], pos=_pos(meta))

    def is_solo_opponent(self, meta, children):
        return A.IsSoloOpponent(children[0], any(isinstance(c, _Negated) for c in children), pos=_pos(meta))

    def card_is(self, meta, children):
        return A.CardIs(children[0], _name(children[1]), pos=_pos(meta))

    def card_for(self, meta, children):
        return A.CardFor(children[0], children[1], any(isinstance(c, _Only) for c in children), pos=_pos(meta))

    def only(self, meta, children):
        return _Only()

    def card_value_is(self, meta, children):
        return A.CardValue(children[0].card, comparison=children[1], pos=_pos(meta))

    def card_value_at_most(self, meta, children):
        return A.CardValue(children[0].card, op="<=", other=children[1].card, pos=_pos(meta))

    def card_value_at_least(self, meta, children):
        return A.CardValue(children[0].card, op=">=", other=children[1].card, pos=_pos(meta))

    def card_would(self, meta, children):
        return A.CardWould(children[0], pos=_pos(meta))

    def controls_more(self, meta, children):
        return A.ControlsMore(children[0], children[1], pos=_pos(meta))

    def has_fewer_vp(self, meta, children):
        return A.HasFewerVP(children[0], children[1], pos=_pos(meta))

    def marker_at(self, meta, children):
        # a pool or a box is kept: the checker says a marker is only ever on a map space
        where = children[1] if len(children) == 2 else A.Locations(tuple(children[1:]), pos=_pos(meta))
        return A.MarkerAt(_marker(children[0]), where, pos=_pos(meta))

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


class _Selection:
    def __init__(self, random: bool = False, chooser=None):
        self.random = random
        self.chooser = chooser


class _TheTokens:
    pass


class _Above:
    def __init__(self, zone):
        self.zone = zone


class _CardValue:
    def __init__(self, card):
        self.card = card


class _Negated:
    pass


class _Only:
    pass


def _selection(children) -> dict:
    found = _first(children, _Selection)
    return {"random": found.random, "chooser": found.chooser} if found else {}


def _one_space(children) -> bool:
    return any(isinstance(c, _OneSpace) for c in children)


def _limit(children):
    found = _first(children, _Limit)
    return found.n if found else None
