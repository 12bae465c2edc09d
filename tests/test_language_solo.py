"""The words the solo game added to the rules language (docs/language.md): how they parse, what
`crisis check` says when they are misused (file:line:column), what they do in the general engine,
how they read in English and Spanish, and what the solo content loader refuses."""

import pytest

from crisis.cli.main import main
from crisis.content.definition import card_slot
from crisis.content.loader import load_content
from crisis.content.yamlfile import ContentError
from crisis.interpreter.engine.board import Board
from crisis.interpreter.engine.compiler import Compiler
from crisis.interpreter.engine.game import Game, Options
from crisis.interpreter.engine.ops import Ctx, play
from crisis.interpreter.engine.program import program_of
from crisis.interpreter.players.registry import RandomBot, play_out
from crisis.ruleset import nodes as N
from crisis.ruleset.diagnostics import Source
from crisis.ruleset.reader import parse
from crisis.ruleset.resolver import Resolver

from helpers import copy_content, replace_in, resolved


@pytest.fixture(scope="module")
def lexicon(content):
    return content.definition.lexicon


def P(determiner, *words, **fields):
    return N.Phrase(determiner, tuple(N.Word(w, "NAME" if w[:1].isupper() else "NOUN") for w in words), **fields)


YOU, OPPONENT = N.Player("you"), N.Player("opponent")
IT = N.Phrase(None, (), it=True)
REVEALED = P("the", "revealed card")


def value_of(phrase):
    return P("the", "value", of=(phrase,))


# ------------------------------------------------------------------ parsing

@pytest.mark.parametrize("text, node", [
    ("first of:\n  place 1 in Texas\nor:\n  gain 1 VP", N.FirstOf),
    ("so that you gain control of this dimension:\n  remove 2 opponent tokens from this dimension", N.Goal),
    ("reveal the top card of the strategy deck", N.Reveal),
    ("carry out the event of the revealed card", N.CarryOut),
    ("discard the revealed card", N.Discard),
    ("resolve breached zones", N.Resolve),
])
def test_the_new_statements_parse(lexicon, text, node):
    assert isinstance(parse(text, lexicon).statements[0], node)


def test_amounts_modifiers_and_filters_parse_into_their_fields(lexicon):
    (place,) = parse("place up to the value of the revealed card in spaces with Room", lexicon).statements
    assert place.quantity == N.Quantity("up_to_number", phrase=value_of(REVEALED))
    assert place.dest.items[0].filter == N.WithTerm("Room")
    (remove,) = parse("remove 2 of your tokens from any spaces at random", lexicon).statements
    assert remove.selection == N.Selection("random")
    (move,) = parse("move 1 token from spaces into Texas, the opponent choosing the tokens", lexicon).statements
    assert move.selection == N.Selection("opponent", pieces_only=True)
    (most,) = parse("spaces with the most opponent tokens", lexicon, "places_rule").items
    assert most.filter == N.Most("most", N.Pieces("opponent", "tokens"))
    assert parse("your crisis track above your Final Crisis zone", lexicon, "places_rule").items[0] == \
        P("own", "crisis track", above=P("own", "Final Crisis", "zone"))


@pytest.mark.parametrize("text, expected", [
    ("placing a token there would give you control of its dimension",
     N.Would("place", N.Pieces(noun="token"), False, N.Change(YOU, True, "control", P("its", "dimension")))),
    ("removing an opponent token there would not cost you control of it",
     N.Would("remove", N.Pieces("opponent", "token"), True, N.Change(YOU, False, "control", IT))),
    ("you have no more tokens than the opponent there",
     N.HasMore(YOU, N.Pieces(noun="tokens"), OPPONENT, lead=N.Comparison("<=", 0), there=True)),
    ("you have at most 1 more token than the opponent there",
     N.HasMore(YOU, N.Pieces(noun="token"), OPPONENT, lead=N.Comparison("<=", 1), there=True)),
    ("you control 2 spaces of its dimension",
     N.Relates(YOU, "control", P(None, "spaces", of=(P("its", "dimension"),)), comparison=N.Comparison("==", 2))),
    ("you are not the solo opponent", N.IsState(YOU, "role", negated=True, word="solo opponent")),
    ("the revealed card is Friendly", N.IsState(REVEALED, "named", word="Friendly")),
    ("the card is for you only", N.IsState(P("the", "card"), "for", player=YOU, only=True)),
    ("the value of the top card of the discard pile is at most the value of the revealed card",
     N.Compares(value_of(P("top", "card", of=(P("the", "discard pile"),))), op="<=", other=value_of(REVEALED))),
    ("the revealed card would place or remove pieces", N.CardWould(REVEALED)),
    ("you control your objective space", N.Relates(YOU, "control", P("own", "objective", "space"))),
])
def test_the_new_conditions_parse(lexicon, text, expected):
    assert parse(text, lexicon, "condition_rule") == expected


# ------------------------------------------------------------- checking


def check(content, text):
    """What the general front end says of a text as a strategy card's event."""
    definition = content.definition
    source = Source(text=text, path="rule.yaml")
    event = card_slot(definition.schema, definition.schema.card_kind("strategy cards"), "event")
    resolver = Resolver(definition.schema, definition.declarations, definition.lexicon)
    return resolver.block(parse(text, definition.lexicon, "block", source), event, source)[1]


@pytest.mark.parametrize("text, line, column, message", [
    ("place 1 in the opponent's objective space", 1, 12,
     "the opponent's objective is hidden: no rule may look at it"),
    ("so that you gain control of Texas:\n  gain 1 VP", 2, 3, "a goal's steps place, remove or move tokens"),
    ("if you control its dimension: gain 1 VP", 1, 16,
     "'its dimension' is the dimension of the place tested in a 'where' clause"),
])
def test_misused_words_are_reported_at_their_place(content, text, line, column, message):
    found = check(content, text)
    assert found, f"'{text}' should be refused"
    assert (found[0].line, found[0].column, found[0].message) == (line, column, message)


def test_an_unknown_term_is_refused(content):
    (problem,) = check(content, "place 1 in spaces with Rooom")
    assert (problem.line, problem.message) == (1, "unknown term 'Rooom'")


def test_a_row_names_spaces_not_holders(tmp_path):
    root = copy_content(tmp_path)
    aid = root / "solo" / "aid-unionist.yaml"
    replace_in(aid, "  - row: Fort Sumter\n", "  - row: your pool\n")
    (problem,) = solo_problems(root)
    line = aid.read_text(encoding="utf-8").splitlines().index("  - row: your pool") + 1
    assert (problem.path.endswith("aid-unionist.yaml"), problem.line, problem.column) == (True, line, 10)
    assert problem.message == "tokens are taken on map spaces here, not in 'your pool'"


# ---------------------------------------------------------------- running


@pytest.fixture
def board(content):
    """The general engine's board on a fresh position, and a way to set a side's tokens in a place."""
    program = program_of(content)
    position = program.initial_position(1)

    def tokens(side, place, n):
        position.values[program.layout.tokens_of(side) + program.place_index[place]] = n
    return program, Board(program, position), tokens


def test_a_hypothetical_step_changes_nothing_and_answers_for_each_space(content, board):
    program, board, tokens = board
    tokens(1, "Texas", 1)  # the Secessionist (side 1) has Texas; Deep South is empty
    tokens(0, "Washington", 1)  # one more would only tie
    index = program.place_index
    row = Compiler(program).row(resolved(content.definition,
                                         "spaces where placing a token there would give you control of it", "places"))
    before = list(board.values)
    assert row(board, Ctx(1), [index["Texas"], index["Deep South"], index["Washington"]]) == [index["Deep South"]]
    assert board.values == before


def test_a_superlative_row_compares_the_spaces_left_only(content, board):
    program, board, tokens = board
    tokens(0, "Washington", 4)
    tokens(0, "Texas", 2)
    tokens(0, "Deep South", 1)
    index = program.place_index
    row = Compiler(program).row(resolved(content.definition, "spaces with the most opponent tokens", "places"))
    assert row(board, Ctx(1), [index["Texas"], index["Deep South"]]) == [index["Texas"]]


def test_a_goal_offers_only_the_steps_that_can_still_reach_it(content, board):
    program, board, tokens = board
    tokens(1, "Washington", 3)
    tokens(0, "Montgomery", 1)
    tokens(1, "Springfield", 1)
    op = Compiler(program).block(resolved(content.definition, "so that you gain control of Political:\n"
                                                              "  move 2 tokens of either side within Political spaces"))

    class Asked(Exception):
        pass

    def choose(decision):
        raise Asked(decision)
    with pytest.raises(Asked) as asked:
        play(op, board, Ctx(1), choose)
    assert {a.text for a in asked.value.args[0].actions} == {"move Secessionist Washington to Montgomery",
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
    # a step the sequence of play does not have would never be replaced: refused, not ignored
    ("  turn:\n    solo opponent: |", "  trun:\n    solo opponent: |", "unknown step of the sequence of play 'trun'"),
])
def test_the_solo_settings_are_checked(tmp_path, old, new, message):
    root = copy_content(tmp_path)
    replace_in(root / "solo" / "overlay.yaml", old, new)
    assert message in [p.message for p in solo_problems(root)]


def test_an_option_set_in_a_game_without_options_says_the_game_has_none(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "sequence.yaml", "      option: event discard\n", "")
    (problem,) = [p for p in solo_problems(root) if p.message == "unknown game option 'event discard'"]
    assert problem.expected == "no game option (this game declares none)"


def test_a_rows_setting_and_a_rows_missing_place_are_told_in_the_tables_words(tmp_path):
    root = copy_content(tmp_path)
    aid = root / "solo" / "aid-secessionist.yaml"
    text = aid.read_text(encoding="utf-8")
    setting = next(line for line in text.splitlines() if line.strip().startswith("tokens: "))
    replace_in(aid, setting, setting.split("tokens:")[0] + "tokens: mine")
    found = {p.message: p for p in solo_problems(root)}
    assert "'tokens' cannot be 'mine'" in found and found["'tokens' cannot be 'mine'"].expected == "own or opponent"
    root = copy_content(tmp_path / "other")
    aid = root / "solo" / "aid-unionist.yaml"
    replace_in(aid, "  - row: spaces where placing a token there would give you control of it\n",
               "  - rows: spaces where placing a token there would give you control of it\n")
    messages = [p.message for p in solo_problems(root)]
    # one problem: the misspelt key, in the table's words (not also a row without its 'row')
    assert messages == ["unknown key 'rows' in row 2 of the table"], messages


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
    game = Game.of(content, 2, Options(solo="Secessionist"), log=False)
    play_out(game, [RandomBot(2, 0), RandomBot(2, 1)])
    assert game.over
