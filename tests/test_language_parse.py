"""The rules language: rule text -> syntax tree (ruleset/reader.py, ruleset/nodes.py), read with
the words of the game in force (its lexicon).  Structure only: positions are not compared, and
what the words refer to is the resolver's business (tests/test_language_errors.py)."""

from pathlib import Path

import pytest

from crisis.ruleset import nodes as N
from crisis.ruleset.diagnostics import RulesError
from crisis.ruleset.reader import parse


@pytest.fixture(scope="module")
def lexicon(content):
    return content.definition.lexicon


def W(text, kind=None):
    """A word of a phrase: a capitalised one is a name of the game, any other a noun."""
    return N.Word(text, kind or ("NAME" if text[:1].isupper() else "NOUN"))


def P(determiner, *words, **fields):
    return N.Phrase(determiner, tuple(w if isinstance(w, N.Word) else W(w) for w in words), **fields)


def places(*phrases):
    return N.Places(tuple(phrases))


def named(name):
    return P(None, name)


def exactly(n, pieces=None):
    return N.Quantity("exactly", n, pieces)


def up_to(n, pieces=None):
    return N.Quantity("up_to", n, pieces)


def pieces(owner=None, noun="tokens", either=False):
    return N.Pieces(owner, noun, either)


VP = N.Pieces(noun="VP")
YOU, OPPONENT = N.Player("you"), N.Player("opponent")
PC = P("the", "Peace Commissioner")
THIS_DIMENSION = places(P("this", "dimension"))


def you_control(phrase):
    return N.Relates(YOU, "control", phrase)


STATEMENTS = [
    ("place 3 in Fort Sumter",
     N.Place(exactly(3), None, places(named("Fort Sumter")))),
    ("place up to 2 tokens in Secession spaces, at most 1 per space",
     N.Place(up_to(2, pieces()), None, places(P(None, "Secession", "spaces")), limit=N.Limit("per", 1, "space"))),
    ("place up to 4 from your pool in any spaces",
     N.Place(up_to(4), places(P("own", "pool")), places(P("any", "spaces")))),
    ("place 1 in each Secession space",
     N.Place(exactly(1), None, places(P("each", "Secession", "space")))),
    ("place 2 in Political spaces, all in one space",
     N.Place(exactly(2), None, places(P(None, "Political", "spaces")), limit=N.Limit("one", None, "space"))),
    ("place 2 Secessionist tokens in Texas or Deep South",
     N.Place(exactly(2, pieces("Secessionist")), None, places(named("Texas"), named("Deep South")))),
    ("place a token in Washington, Montgomery or Springfield",
     N.Place(N.Quantity("thing", phrase=P("a", "token")), None,
             places(named("Washington"), named("Montgomery"), named("Springfield")))),
    ("remove up to 2 opponent tokens from Political spaces",
     N.Remove(up_to(2, pieces("opponent")), places(P(None, "Political", "spaces")))),
    ("remove 1 of the opponent's tokens from each Political space",
     N.Remove(exactly(1, pieces("opponent")), places(P("each", "Political", "space")))),
    ("remove all opponent tokens from Fort Sumter",
     N.Remove(N.Quantity("all", pieces=pieces("opponent")), places(named("Fort Sumter")))),
    ("move up to 2 tokens of either side within this dimension",
     N.Move(up_to(2, pieces("either", either=True)), THIS_DIMENSION, THIS_DIMENSION, within=True)),
    ("move 2 from your Escalation box to your pool",
     N.Move(exactly(2), places(P("own", "Escalation", "box")), places(P("own", "pool")))),
    ("move up to 2 of your tokens from your pool or any space into this dimension",
     N.Move(up_to(2, pieces("own")), places(P("own", "pool"), P("any", "space")), THIS_DIMENSION)),
    ("gain 1 VP", N.Gain(1, VP)),
    ("lose 2 VP", N.Gain(2, VP, lose=True)),
    ("gain 1 VP for each dimension you control",
     N.Gain(1, VP, per=P(None, "dimension", relation=N.Relation("you", "control")))),
    ("gain 1 VP for each revealed objective space you control",
     N.Gain(1, VP, per=P(None, W("revealed", "ADJ"), "objective", "space", relation=N.Relation("you", "control")))),
    ("place the Peace Commissioner in any space",
     N.Place(N.Quantity("thing", phrase=PC), None, places(P("any", "space")))),
    ("move the Peace Commissioner to a space you control",
     N.Move(N.Quantity("thing", phrase=PC), None, places(P("a", "space", relation=N.Relation("you", "control"))))),
    ("remove the Peace Commissioner", N.Remove(N.Quantity("thing", phrase=PC), None)),
    ("the opponent loses 1 VP", N.Acting("opponent", N.Gain(1, VP, lose=True))),
    ("each player gains 1 VP", N.Acting("each", N.Gain(1, VP))),
    ("then gain 1 VP  # a comment", N.Gain(1, VP)),
]


@pytest.mark.parametrize("text,expected", STATEMENTS, ids=[s[0] for s in STATEMENTS])
def test_statement_parses_to_its_tree(lexicon, text, expected):
    assert parse(text, lexicon).statements == (expected,)


def test_blocks_follow_indentation(lexicon):
    block = parse("if you control Fort Sumter:\n    gain 1 VP\n    place 1 in Texas\notherwise:\n  lose 1 VP\n",
                  lexicon)
    (stmt,) = block.statements
    assert isinstance(stmt, N.If) and stmt.condition == you_control(named("Fort Sumter"))
    assert len(stmt.then.statements) == 2
    assert stmt.otherwise.statements == (N.Gain(1, VP, lose=True),)


def test_either_has_its_options_in_printed_order(lexicon):
    (either,) = parse("either:\n  gain 1 VP\nor:\n  lose 1 VP\nor: place 1 in Texas", lexicon).statements
    assert [o.statements for o in either.options] == [
        (N.Gain(1, VP),), (N.Gain(1, VP, lose=True),), (N.Place(exactly(1), None, places(named("Texas"))),)]


def test_for_each_player_wraps_its_body(lexicon):
    (stmt,) = parse("for each player:\n  if you control Fort Sumter: gain 1 VP", lexicon).statements
    assert isinstance(stmt, N.ForEachPlayer)
    assert isinstance(stmt.body.statements[0], N.If)


def test_comment_lines_do_not_disturb_indentation(lexicon):
    block = parse("either:\n  # the first option\n  gain 1 VP\n# between\nor:\n  lose 1 VP\n", lexicon)
    assert len(block.statements[0].options) == 2


CONDITIONS = [
    ("you control Fort Sumter", you_control(named("Fort Sumter"))),
    ("the opponent controls Political", N.Relates(OPPONENT, "controls", named("Political"))),
    ("nobody controls Washington", N.NobodyRelates("controls", named("Washington"))),
    ("you have at least 2 tokens in Fort Sumter",
     N.HasCount(YOU, N.Comparison(">=", 2), pieces(), places(named("Fort Sumter")))),
    ("you have more VP than the opponent", N.HasMore(YOU, VP, OPPONENT)),
    ("you have fewer VP than the opponent", N.HasFewer(YOU, VP, OPPONENT)),
    ("you are Unionist", N.IsState(YOU, "named", word="Unionist")),
    ("the Unionist is the first player", N.IsFirstPlayer(P("the", "Unionist"))),
    ("the round is at least 2", N.Compares(P("the", "round"), N.Comparison(">=", 2))),
    ("your Tension zone is breached", N.IsState(P("own", "Tension", "zone"), "adjective", word="breached")),
    ("the opponent's Final Crisis zone is breached",
     N.IsState(P("opponent", "Final Crisis", "zone"), "adjective", word="breached")),
    ("your pool has no tokens", N.HasCount(P("own", "pool"), N.Comparison("==", 0), pieces())),
    ("your pool has at least 3 more tokens than the opponent's pool",
     N.HasMore(P("own", "pool"), pieces(), P("opponent", "pool"), lead=N.Comparison(">=", 3))),
    ("you control more spaces than the opponent", N.Relates(YOU, "control", P(None, "spaces"), more_than=OPPONENT)),
    ("you control fewer than 3 spaces",
     N.Relates(YOU, "control", P(None, "spaces"), comparison=N.Comparison("<", 3))),
    ("not you control Texas", N.Not(you_control(named("Texas")))),
    ("the Peace Commissioner is in Political spaces",
     N.IsState(PC, "in", where=places(P(None, "Political", "spaces")))),
    ("the Peace Commissioner is on the map", N.IsState(PC, "on_map")),
    ("the Peace Commissioner is off the map", N.IsState(PC, "off_map")),
    ("the Peace Commissioner is there", N.IsState(PC, "there")),
    ("you control that space", you_control(P("that", "space"))),
]


@pytest.mark.parametrize("text,expected", CONDITIONS, ids=[c[0] for c in CONDITIONS])
def test_condition_parses_to_its_tree(lexicon, text, expected):
    assert parse(text, lexicon, "condition_rule") == expected


def test_and_binds_tighter_than_or_and_chains_flatten(lexicon):
    tree = parse("you control Texas or you control Washington and you control Montgomery or you are Unionist",
                 lexicon, "condition_rule")
    assert tree == N.AnyOf((you_control(named("Texas")),
                            N.AllOf((you_control(named("Washington")), you_control(named("Montgomery")))),
                            N.IsState(YOU, "named", word="Unionist")))


def test_parentheses_group(lexicon):
    tree = parse("(you control Texas or you control Washington) and you are Unionist", lexicon, "condition_rule")
    assert isinstance(tree, N.AllOf) and isinstance(tree.items[0], N.AnyOf)


def test_where_filter_keeps_the_whole_condition(lexicon):
    (place,) = parse("place 1 in spaces where you have no tokens there or nobody controls it", lexicon).statements
    (where_spaces,) = place.dest.items
    assert where_spaces.phrase == P(None, "spaces")
    assert where_spaces.filter == N.Where(N.AnyOf((
        N.HasCount(YOU, N.Comparison("==", 0), pieces(), there=True),
        N.NobodyRelates("controls", N.Phrase(None, (), it=True)))))


def test_nodes_carry_positions_that_equality_ignores(lexicon):
    (place,) = parse("\nplace 3 in   Fort Sumter", lexicon).statements
    name = place.dest.items[0].words[0]
    assert (name.pos.line, name.pos.column, name.pos.end_column) == (2, 14, 25)
    assert place == N.Place(exactly(3), None, places(named("Fort Sumter")))


# "or" after a marker's places: another place, or a whole condition (issue 17, item 13)


def test_or_between_whole_conditions_after_a_marker_place(lexicon):
    def condition(text):
        return parse(text, lexicon, "condition_rule")
    in_texas = N.IsState(PC, "in", where=places(named("Texas")))
    assert condition("the Peace Commissioner is in Texas or the Peace Commissioner is off the map") == \
        N.AnyOf((in_texas, N.IsState(PC, "off_map")))
    assert condition("the Peace Commissioner is in Texas or Texas is pivotal") == \
        N.AnyOf((in_texas, N.IsState(named("Texas"), "adjective", word="pivotal")))
    assert condition("the Peace Commissioner is in Texas or you control Washington") == \
        N.AnyOf((in_texas, you_control(named("Washington"))))


def test_and_binds_tighter_than_an_or_after_a_marker_place(lexicon):
    tree = parse("the Peace Commissioner is in Texas or the Peace Commissioner is off the map "
                 "and you control Washington", lexicon, "condition_rule")
    assert tree == N.AnyOf((N.IsState(PC, "in", where=places(named("Texas"))),
                            N.AllOf((N.IsState(PC, "off_map"), you_control(named("Washington"))))))


def test_or_between_a_markers_places_still_joins_places(lexicon):
    assert parse("the Peace Commissioner is in Washington or Texas", lexicon, "condition_rule") == \
        N.IsState(PC, "in", where=places(named("Washington"), named("Texas")))
    tree = parse("the Peace Commissioner is in Washington, Texas or Deep South or you are Unionist", lexicon,
                 "condition_rule")
    assert tree == N.AnyOf((N.IsState(PC, "in", where=places(named("Washington"), named("Texas"),
                                                              named("Deep South"))),
                            N.IsState(YOU, "named", word="Unionist")))
    (place,) = parse("place 2 in Washington or Border States", lexicon).statements
    assert place.dest == places(named("Washington"), named("Border States"))


# ------------------------------------------------------------ the words of the game in force

THREE_CROWNS = Path(__file__).parent / "data" / "three-crowns"


@pytest.fixture(scope="module")
def toy_lexicon():
    from crisis.content.loader import read_game
    return read_game(THREE_CROWNS).lexicon


def test_the_words_are_the_games_own(lexicon, toy_lexicon):
    """The same grammar reads another game's rules with that game's words (Three Crowns: towns,
    regions, banners), and a word only another game declares is unknown, at its place."""
    (place,) = parse("place 2 banners in Highland towns", toy_lexicon).statements
    assert place == N.Place(exactly(2, pieces(noun="banners")), None, places(P(None, "Highland", "towns")))
    with pytest.raises(RulesError) as caught:
        parse("place 2 in Highland towns", lexicon)
    (d,) = caught.value.diagnostics
    assert (d.line, d.column, d.message) == (1, 21, "unknown word 'towns'")
