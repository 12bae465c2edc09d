"""The rules language: rule text -> typed syntax tree (structure only; positions are not compared)."""

import pytest

from crisis.ruleset import ast as A
from crisis.ruleset.parser import parse_block, parse_condition


def spaces(*items):
    return A.Locations(tuple(items))


def named(name):
    return A.Spaces(A.Named(A.Name(name)))


def dim(name):
    return A.Spaces(A.DimensionSpaces(A.Name(name)))


OWN, OPP, EITHER = A.Owner("own"), A.Owner("opponent"), A.Owner("either")
THIS_DIM = A.Spaces(A.ThisDimension())


def exactly(n):
    return A.Amount("exactly", n)


def up_to(n):
    return A.Amount("up_to", n)


STATEMENTS = [
    ("place 3 in Fort Sumter",
     A.Place(exactly(3), OWN, spaces(named("Fort Sumter")))),
    ("place up to 2 tokens in Secession spaces, at most 1 per space",
     A.Place(up_to(2), OWN, spaces(dim("Secession")), limit=1)),
    ("place up to 4 from your pool in any spaces",
     A.Place(up_to(4), OWN, spaces(A.Spaces(A.AllSpaces())), source=A.Pool("own"))),
    ("place 1 in each Secession space",
     A.Place(exactly(1), OWN, spaces(dim("Secession")), each=True)),
    ("place 2 in Political spaces, all in one space",
     A.Place(exactly(2), OWN, spaces(dim("Political")), one_space=True)),
    ("place 2 Secessionist tokens in Texas or Deep South",
     A.Place(exactly(2), A.Owner("side", A.Name("Secessionist")), spaces(named("Texas"), named("Deep South")))),
    ("place a token in Washington, Montgomery or Springfield",
     A.Place(exactly(1), OWN, spaces(named("Washington"), named("Montgomery"), named("Springfield")))),
    ("remove up to 2 opponent tokens from Political spaces",
     A.Remove(up_to(2), OPP, spaces(dim("Political")))),
    ("remove 1 of the opponent's tokens from each Political space",
     A.Remove(exactly(1), OPP, spaces(dim("Political")), each=True)),
    ("remove all opponent tokens from Fort Sumter",
     A.Remove(A.Amount("all"), OPP, spaces(named("Fort Sumter")))),
    ("move up to 2 tokens of either side within this dimension",
     A.Move(up_to(2), EITHER, spaces(THIS_DIM), spaces(THIS_DIM), within=True)),
    ("move 2 from your Escalation box to your pool",
     A.Move(exactly(2), OWN, spaces(A.BonusBox(A.Name("Escalation"), "own")), spaces(A.Pool("own")))),
    ("move up to 2 of your tokens from your pool or any space into this dimension",
     A.Move(up_to(2), OWN, spaces(A.Pool("own"), A.Spaces(A.AllSpaces())), spaces(THIS_DIM))),
    ("gain 1 VP", A.ChangeVP(True, 1)),
    ("lose 2 VP", A.ChangeVP(False, 2)),
    ("gain 1 VP for each dimension you control",
     A.ChangeVP(True, 1, A.Dimensions(A.ControlledBy("you")))),
    ("gain 1 VP for each revealed objective space you control",
     A.ChangeVP(True, 1, A.Spaces(A.RevealedObjectiveSpaces(), A.ControlledBy("you")))),
    ("place the Peace Commissioner in any space",
     A.PlaceMarker(A.Name("Peace Commissioner"), spaces(A.Spaces(A.AllSpaces())))),
    ("move the Peace Commissioner to a space you control",
     A.PlaceMarker(A.Name("Peace Commissioner"), spaces(A.Spaces(A.AllSpaces(), A.ControlledBy("you"))), "move")),
    ("remove the Peace Commissioner", A.RemoveMarker(A.Name("Peace Commissioner"))),
    ("the opponent loses 1 VP", A.Acting("opponent", A.ChangeVP(False, 1))),
    ("each player gains 1 VP", A.Acting("each_player", A.ChangeVP(True, 1))),
    ("then gain 1 VP  # a comment", A.ChangeVP(True, 1)),
]


@pytest.mark.parametrize("text,expected", STATEMENTS, ids=[s[0] for s in STATEMENTS])
def test_statement_parses_to_its_tree(text, expected):
    assert parse_block(text).statements == (expected,)


def test_blocks_follow_indentation():
    block = parse_block("if you control Fort Sumter:\n    gain 1 VP\n    place 1 in Texas\notherwise:\n  lose 1 VP\n")
    (stmt,) = block.statements
    assert isinstance(stmt, A.If)
    assert len(stmt.then.statements) == 2
    assert stmt.otherwise.statements == (A.ChangeVP(False, 1),)


def test_either_has_its_options_in_printed_order():
    block = parse_block("either:\n  gain 1 VP\nor:\n  lose 1 VP\nor: place 1 in Texas")
    (either,) = block.statements
    assert [type(o.statements[0]).__name__ for o in either.options] == ["ChangeVP", "ChangeVP", "Place"]
    assert either.options[1].statements[0].gain is False


def test_for_each_player_wraps_its_body():
    block = parse_block("for each player:\n  if you control Fort Sumter: gain 1 VP")
    (stmt,) = block.statements
    assert isinstance(stmt, A.ForEachPlayer)
    assert isinstance(stmt.body.statements[0], A.If)


def test_comment_lines_do_not_disturb_indentation():
    block = parse_block("either:\n  # the first option\n  gain 1 VP\n# between\nor:\n  lose 1 VP\n")
    assert len(block.statements[0].options) == 2


CONDITIONS = [
    ("you control Fort Sumter", A.Controls(A.Player("you"), A.Named(A.Name("Fort Sumter")))),
    ("the opponent controls Political", A.Controls(A.Player("opponent"), A.Named(A.Name("Political")))),
    ("nobody controls Washington", A.NobodyControls(A.Named(A.Name("Washington")))),
    ("you have at least 2 tokens in Fort Sumter",
     A.HasTokens(A.Player("you"), A.Comparison(">=", 2), named("Fort Sumter"))),
    ("you have more VP than the opponent", A.HasMoreVP(A.Player("you"), A.Player("opponent"))),
    ("you are Unionist", A.IsSide(A.Player("you"), A.Name("Unionist"))),
    ("the Unionist is the first player", A.IsFirstPlayer(A.Player("side", A.Name("Unionist")))),
    ("the round is at least 2", A.RoundIs(A.Comparison(">=", 2))),
    ("your Tension zone is breached", A.ZoneBreached("own", A.Name("Tension"))),
    ("the opponent's Final Crisis zone is breached", A.ZoneBreached("opponent", A.Name("Final Crisis"))),
    ("your pool has no tokens", A.PoolHas("own", A.Comparison("==", 0))),
    ("your pool has at least 3 more tokens than the opponent's pool", A.PoolLead("own", 3, "opponent")),
    ("you control more spaces than the opponent", A.ControlsMore(A.Player("you"), A.Player("opponent"))),
    ("you control fewer than 3 spaces", A.ControlsCount(A.Player("you"), A.Comparison("<", 3))),
    ("not you control Texas", A.Not(A.Controls(A.Player("you"), A.Named(A.Name("Texas"))))),
    ("you have fewer VP than the opponent", A.HasFewerVP(A.Player("you"), A.Player("opponent"))),
    ("the Peace Commissioner is in Political spaces",
     A.MarkerAt(A.Name("Peace Commissioner"), A.Spaces(A.DimensionSpaces(A.Name("Political"))))),
    ("the Peace Commissioner is on the map", A.MarkerAt(A.Name("Peace Commissioner"))),
    ("the Peace Commissioner is off the map", A.MarkerAt(A.Name("Peace Commissioner"), off=True)),
    ("the Peace Commissioner is there", A.MarkerAt(A.Name("Peace Commissioner"), A.Spaces(A.It()))),
    ("you control that space", A.Controls(A.Player("you"), A.ThatSpace())),
]


@pytest.mark.parametrize("text,expected", CONDITIONS, ids=[c[0] for c in CONDITIONS])
def test_condition_parses_to_its_tree(text, expected):
    assert parse_condition(text) == expected


def test_and_binds_tighter_than_or_and_chains_flatten():
    tree = parse_condition("you control Texas or you control Washington and you control Montgomery or you are Unionist")
    assert isinstance(tree, A.AnyOf) and len(tree.items) == 3
    assert isinstance(tree.items[1], A.AllOf)


def test_parentheses_group():
    tree = parse_condition("(you control Texas or you control Washington) and you are Unionist")
    assert isinstance(tree, A.AllOf) and isinstance(tree.items[0], A.AnyOf)


def test_where_filter_keeps_the_whole_condition():
    (place,) = parse_block("place 1 in spaces where you have no tokens there or nobody controls it").statements
    (where_spaces,) = place.dest.items
    assert isinstance(where_spaces.filter, A.Where)
    assert isinstance(where_spaces.filter.condition, A.AnyOf)


def test_nodes_carry_positions_that_equality_ignores():
    (place,) = parse_block("\nplace 3 in   Fort Sumter").statements
    name = place.dest.items[0].base.name
    assert (name.pos.line, name.pos.column, name.pos.end_column) == (2, 14, 25)
    assert place == A.Place(exactly(3), OWN, spaces(named("Fort Sumter")))


# "or" after a marker's places: another place, or a whole condition (issue 17, item 13)
PC = A.Name("Peace Commissioner")


def test_or_between_whole_conditions_after_a_marker_place():
    tree = parse_condition("the Peace Commissioner is in Texas or the Peace Commissioner is off the map")
    assert tree == A.AnyOf((A.MarkerAt(PC, named("Texas")), A.MarkerAt(PC, off=True)))
    assert parse_condition("the Peace Commissioner is in Texas or Texas is pivotal") == A.AnyOf(
        (A.MarkerAt(PC, named("Texas")), A.IsPivotal(A.Named(A.Name("Texas")))))
    assert parse_condition("the Peace Commissioner is in Texas or you control Washington") == A.AnyOf(
        (A.MarkerAt(PC, named("Texas")), A.Controls(A.Player("you"), A.Named(A.Name("Washington")))))


def test_and_binds_tighter_than_an_or_after_a_marker_place():
    tree = parse_condition("the Peace Commissioner is in Texas or the Peace Commissioner is off the map "
                           "and you control Washington")
    assert tree == A.AnyOf((A.MarkerAt(PC, named("Texas")),
                            A.AllOf((A.MarkerAt(PC, off=True),
                                     A.Controls(A.Player("you"), A.Named(A.Name("Washington")))))))


def test_or_between_a_markers_places_still_joins_places():
    assert parse_condition("the Peace Commissioner is in Washington or Texas") == A.MarkerAt(
        PC, spaces(named("Washington"), named("Texas")))
    tree = parse_condition("the Peace Commissioner is in Washington, Texas or Deep South or you are Unionist")
    assert tree == A.AnyOf((A.MarkerAt(PC, spaces(named("Washington"), named("Texas"), named("Deep South"))),
                            A.IsSide(A.Player("you"), A.Name("Unionist"))))
    (place,) = parse_block("place 2 in Washington or Border States").statements
    assert place.dest == spaces(named("Washington"), named("Border States"))
