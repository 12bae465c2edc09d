"""The words the solo game added to the rules language (docs/language.md): how they parse, what
`crisis check` says when they are misused (file:line:column), how they read in English and
Spanish, and what the solo content loader refuses."""

import pytest

from crisis.content.loader import load_content
from crisis.cli.main import main
from crisis.content.yamlfile import ContentError
from crisis.interpreter.controllers import RandomBot, play_out
from crisis.interpreter.game import Game, Options
from crisis.interpreter.compile import Compiler, Ctx, Executor
from crisis.interpreter.state import initial_state
from crisis.interpreter.tables import tables_for
from crisis.ruleset import ast as A
from crisis.ruleset.checker import Checker, Slot, STRATEGY_EVENT
from crisis.ruleset.diagnostics import Source
from crisis.ruleset.parser import parse_block, parse_condition, parse_locations

from helpers import copy_content, replace_in

SOLO_TURN = Slot("the solo opponent's turn", cards=True)
ROW = Slot("a Solo Opponent Aid row")


# ------------------------------------------------------------------ parsing

@pytest.mark.parametrize("text, node", [
    ("first of:\n  place 1 in Texas\nor:\n  gain 1 VP", A.FirstOf),
    ("so that you gain control of this dimension:\n  remove 2 opponent tokens from this dimension", A.Goal),
    ("reveal the top card of the strategy deck", A.Reveal),
    ("carry out the event of the revealed card", A.UseEvent),
    ("discard the revealed card", A.DiscardCard),
    ("resolve breached zones", A.ResolveBreaches),
])
def test_the_new_statements_parse(text, node):
    assert isinstance(parse_block(text).statements[0], node)


def test_amounts_modifiers_and_filters_parse_into_their_fields():
    place = parse_block("place up to the value of the revealed card in spaces with Room").statements[0]
    assert place.amount == A.Amount("up_to", card=A.CardRef("revealed"))
    assert place.dest.items[0].filter == A.WithTerm(A.Name("Room"))
    remove = parse_block("remove 2 of your tokens from any spaces at random").statements[0]
    assert remove.random and remove.chooser is None
    move = parse_block("move 1 token from spaces into Texas, the opponent choosing the tokens").statements[0]
    assert move.chooser == "tokens"
    most = parse_locations("spaces with the most opponent tokens").items[0].filter
    assert most == A.Most("most", A.Owner("opponent"))
    assert parse_locations("your crisis track above your Final Crisis zone").items[0] == \
        A.CrisisTrack("own", A.Name("Final Crisis"))


@pytest.mark.parametrize("text, expected", [
    ("placing a token there would give you control of its dimension",
     A.Would("place", A.Owner("own"), A.Change("gain", A.Player("you"), A.ItsDimension()))),
    ("removing an opponent token there would not cost you control of it",
     A.Would("remove", A.Owner("opponent"), A.Change("lose", A.Player("you"), A.It()), negated=True)),
    ("you have no more tokens than the opponent there",
     A.HasMoreTokens(A.Player("you"), A.Player("opponent"), A.It(), A.Comparison("<=", 0))),
    ("you have at most 1 more token than the opponent there",
     A.HasMoreTokens(A.Player("you"), A.Player("opponent"), A.It(), A.Comparison("<=", 1))),
    ("you control 2 spaces of its dimension",
     A.ControlsCount(A.Player("you"), A.Comparison("==", 2), A.ItsDimension())),
    ("you are not the solo opponent", A.IsSoloOpponent(A.Player("you"), negated=True)),
    ("the revealed card is Friendly", A.CardIs(A.CardRef("revealed"), A.Name("Friendly"))),
    ("the card is for you only", A.CardFor(A.CardRef("this"), A.Player("you"), only=True)),
    ("the value of the top card of the discard pile is at most the value of the revealed card",
     A.CardValue(A.CardRef("discard_top"), op="<=", other=A.CardRef("revealed"))),
    ("the revealed card would place or remove pieces", A.CardWould(A.CardRef("revealed"))),
    ("you control your objective space", A.Controls(A.Player("you"), A.ObjectiveSpace("own"))),
])
def test_the_new_conditions_parse(text, expected):
    assert parse_condition(text) == expected


# ------------------------------------------------------------- checking


def check(content, text, slot=STRATEGY_EVENT):
    source = Source(text=text, path="rule.yaml")
    return Checker(content.vocabulary).check_block(parse_block(text, source), slot, source)


@pytest.mark.parametrize("text, slot, line, column, message", [
    ("place 1 in the opponent's objective space", STRATEGY_EVENT, 1, 12,
     "the opponent's objective card is hidden: no rule may look at it"),
    ("carry out the event of the revealed card", STRATEGY_EVENT, 1, 24,
     "no card is being played by the rule in a strategy card event"),
    ("place 1 in spaces with Rooom", STRATEGY_EVENT, 1, 24, "unknown space term 'Rooom'"),
    ("so that you gain control of Texas:\n  gain 1 VP", STRATEGY_EVENT, 2, 3,
     "a 'so that' block holds only token statements with a number of tokens"),
    ("if you control its dimension: gain 1 VP", STRATEGY_EVENT, 1, 16,
     "'its dimension' is the dimension of the space tested in a 'where' clause"),
    ("place 1 in each Texas space, at random", STRATEGY_EVENT, 1, 1,
     "with 'each' the spaces are fixed: there is nothing to choose at random or for the opponent to choose"),
    ("if the card is Friendly: gain 1 VP", SOLO_TURN, 1, 4, "'the card' means nothing in the solo opponent's turn"),
])
def test_misused_words_are_reported_at_their_place(content, text, slot, line, column, message):
    found = check(content, text, slot)
    assert found, f"'{text}' should be refused"
    assert (found[0].line, found[0].column, found[0].message) == (line, column, message)


def test_a_hypothetical_step_needs_a_space_to_test(content):
    (problem,) = check(content, "if placing a token there would give you control of Texas: gain 1 VP")
    assert problem.message == "'there' refers to the space tested in a 'where' clause"


def test_a_row_names_spaces_not_holders(content):
    text = "your pool"
    source = Source(text=text, path="aid.yaml")
    (problem,) = Checker(content.vocabulary).check_locations(parse_locations(text, source), ROW, source)
    assert problem.message == "a row names map spaces, not a pool, track or box"


# ---------------------------------------------------------------- running


def test_a_hypothetical_step_changes_nothing_and_answers_for_each_space(content):
    tables = tables_for(content)
    state = initial_state(tables, 1)
    texas, deep_south = tables.space_index["Texas"], tables.space_index["Deep South"]
    state.tokens[1][texas] = 1  # the Secessionist (side 1) has Texas; Deep South is empty
    row = Compiler(tables).row(parse_locations("spaces where placing a token there would give you control of it"))
    ex = Executor(tables, state)
    before = [list(t) for t in state.tokens]
    assert row(ex, Ctx(1), [texas, deep_south]) == [deep_south]
    assert state.tokens == before


def test_a_superlative_row_compares_the_spaces_left_only(content):
    tables = tables_for(content)
    state = initial_state(tables, 1)
    names = ("Texas", "Deep South", "Washington")
    texas, deep_south, washington = (tables.space_index[n] for n in names)
    state.tokens[0][washington], state.tokens[0][texas], state.tokens[0][deep_south] = 4, 2, 1
    row = Compiler(tables).row(parse_locations("spaces with the most opponent tokens"))
    assert row(Executor(tables, state), Ctx(1), [texas, deep_south]) == [texas]


def test_a_goal_offers_only_the_steps_that_can_still_reach_it(content):
    tables = tables_for(content)
    state = initial_state(tables, 1)
    index = tables.space_index
    state.tokens[1][index["Washington"]] = 3
    state.tokens[0][index["Montgomery"]] = 1
    state.tokens[1][index["Springfield"]] = 1
    op = Compiler(tables).block(parse_block(
        "so that you gain control of Political:\n  move 2 tokens of either side within Political spaces"))
    ex = Executor(tables, state)
    decision = next(op.run(ex, Ctx(1)))
    assert {a.text for a in decision.actions} == {"move Secessionist Washington to Montgomery",
                                                  "move Unionist Montgomery to Washington"}


# -------------------------------------------------------------- rendering


@pytest.mark.parametrize("lang, text, expected", [
    ("en", "spaces where placing a token there would give you control of its dimension",
     "any spaces where placing a Solo Opponent token there would give the Solo Opponent control of its dimension"),
    ("es", "spaces where placing a token there would give you control of its dimension",
     "cualquier casilla donde colocar una ficha del Oponente en Solitario daría al Oponente en Solitario "
     "el control de su dimensión"),
    ("en", "spaces with the most opponent tokens", "any spaces with the most player tokens"),
    ("es", "your objective space", "la casilla de objetivo del Oponente en Solitario"),
])
def test_rows_read_from_the_players_side(content, lang, text, expected):
    from helpers import phrased
    assert phrased(content, text, lang, how="places", actor="solo") == expected


@pytest.mark.parametrize("lang, text, expected", [
    ("en", "draw 1 card from the strategy deck into the revealed card\ndiscard the revealed card",
     "Reveal the top card of the strategy deck.\nDiscard the revealed card."),
    ("es", "carry out the event of the revealed card", "Lleva a cabo el evento de la carta revelada."),
    ("en", "first of:\n  place 1 in Texas\nor:\n  gain 1 VP",
     "Do the first of these that can be carried out: (1) place 1 token in Texas; (2) gain 1 VP."),
    ("es", "remove 2 of your tokens from any spaces at random",
     "Retira 2 fichas de cualquier casilla, al azar."),
    ("en", "so that you gain control of this dimension:\n  remove 2 opponent tokens from this dimension",
     "So that you gain control of this dimension: remove 2 opponent tokens from the spaces of this dimension."),
])
def test_the_new_statements_read_in_each_language(content, lang, text, expected):
    from helpers import phrased
    assert phrased(content, text, lang) == expected


def test_the_room_definition_keeps_its_grouping(content):
    from crisis.content.phrases import condition_text
    rule = content.definition.terms["Room"][1]
    assert "(the Solo Opponent has no more tokens" in condition_text(content, content.catalog("en"), rule, "solo")


# ------------------------------------------------------------ solo content


def solo_problems(root):
    with pytest.raises(ContentError) as caught:
        load_content(root)
    return caught.value.diagnostics


def test_a_mistake_in_an_aid_row_is_reported_at_its_line(tmp_path):
    root = copy_content(tmp_path)
    aid = root / "solo" / "aid-secessionist.yaml"
    replace_in(aid, "  - row: Secession spaces", "  - row: Secesion spaces")
    (problem,) = solo_problems(root)
    line = next(i for i, text in enumerate(aid.read_text().splitlines(), 1) if "Secesion spaces" in text)
    assert (problem.path.endswith("aid-secessionist.yaml"), problem.line, problem.column) == (True, line, 10)
    assert problem.message == "unknown dimension 'Secesion'" and problem.hint == "did you mean 'Secession'?"


def test_the_solo_rules_may_not_look_at_the_players_objective(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "solo" / "aid-unionist.yaml", "  - row: your objective space",
               "  - row: the opponent's objective space")
    (problem,) = solo_problems(root)
    assert problem.message == "the opponent's objective is hidden: no rule may look at it"


@pytest.mark.parametrize("old, new, message", [
    ("  - can be carried out fully", "  - can be done fully", "unknown criterion 'can be done fully'"),
    ("  hard: {VP: 1}", "  hard: {VP: -1}", "difficulty 'hard' starts VP at -1, and it goes from 0 to 99"),
    ("placement: [Room]", "placement: [Roomy]", "unknown space term 'Roomy'"),
    ("  turn:\n    solo opponent: |", "  turn:\n    anyone: |", "unknown role 'anyone'"),
    ("  event discard: true", "  event discards: true", "unknown game option 'event discards'"),
])
def test_the_solo_settings_are_checked(tmp_path, old, new, message):
    root = copy_content(tmp_path)
    replace_in(root / "solo" / "overlay.yaml", old, new)
    assert message in [p.message for p in solo_problems(root)]


def test_an_aid_is_needed_for_each_side(tmp_path):
    root = copy_content(tmp_path)
    (root / "solo" / "aid-unionist.yaml").unlink()
    assert "no aid for the Unionist side" in [p.message for p in solo_problems(root)]


def test_content_without_a_solo_folder_loads_without_a_solo_game(tmp_path):
    import shutil
    root = copy_content(tmp_path)
    shutil.rmtree(root / "solo")
    assert load_content(root).overlay is None


# ------------------------------------------------------- definitions in a circle (issue 18, item 3)

FRIENDLY = "  Friendly:\n    card: the card is for you only\n"


def with_definitions(tmp_path, definitions):
    root = copy_content(tmp_path)
    replace_in(root / "solo" / "overlay.yaml", FRIENDLY, definitions)
    return root


def test_a_definition_that_uses_itself_is_refused_at_the_word(tmp_path, capsys):
    root = with_definitions(tmp_path, "  Friendly:\n    card: the card is Friendly\n")
    assert main(["check", "--content", str(root)]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "RecursionError" not in err
    (problem,) = solo_problems(root)
    assert problem.message == "the definition of Friendly uses Friendly itself"
    lines = (root / "solo" / "overlay.yaml").read_text(encoding="utf-8").splitlines()
    assert lines[problem.line - 1][problem.column - 1:] == "Friendly"
    assert lines[problem.line - 1].strip() == "card: the card is Friendly"


def test_definitions_in_a_circle_are_refused_naming_the_circle(tmp_path):
    root = with_definitions(tmp_path, "  Friendly:\n    card: the card is for you only and the card is Hostile\n"
                                      "  Hostile:\n    card: the card is Loyal\n"
                                      "  Loyal:\n    card: the card is for you or the card is Friendly\n")
    (problem,) = solo_problems(root)
    assert problem.message == "definitions use each other in a circle: Friendly -> Hostile -> Loyal -> Friendly"
    line = (root / "solo" / "overlay.yaml").read_text(encoding="utf-8").splitlines()[problem.line - 1]
    assert line[problem.column - 1:] == "Hostile" and "Friendly:" not in line


def test_a_definition_may_use_another_that_does_not_lead_back(tmp_path):
    root = with_definitions(tmp_path, "  Friendly:\n    card: the card is Loyal\n"
                                      "  Loyal:\n    card: the card is for you only\n")
    content = load_content(root)
    game = Game(content, 2, Options(solo="Secessionist"), log=False)
    play_out(game, [RandomBot(2, 0), RandomBot(2, 1)])
    assert game.over
