"""Context words are held to where a rule stands (docs/language.md, Context words).

Each rule is read for the place it has in the game: a card's rules know their card ("the card")
and its place, the sequence of play knows a place only inside a 'for each' over places, a
procedure knows what every rule that carries it out knows, and the overlay's steps, rows and
definitions know what they are about.  A word used where it names nothing is refused at its
file, line and column, with what would do, instead of loading and then doing nothing in play.
"""

import pytest

from crisis.content.games import game_path, shipped_games
from crisis.content.loader import load_content, read_game
from crisis.content.yamlfile import ContentError
from helpers import copy_content, line_of, replace_in

TURN_END = "      discard the revealed card\n"  # the last line of the solo opponent's turn (overlay.yaml)
EVENT = "      place 1 in any space\n      place the Peace Commissioner in any space\n"  # peace-commissioner


def problems(root):
    with pytest.raises(ContentError) as caught:
        load_content(root)
    return caught.value.diagnostics


def only(found):
    errors = [d for d in found if d.severity == "error"]
    assert len(errors) == 1, [d.format() for d in errors]
    return errors[0]


def test_the_card_in_the_solo_opponents_turn_is_refused_at_the_word(tmp_path):
    root = copy_content(tmp_path)
    overlay = root / "solo" / "overlay.yaml"
    replace_in(overlay, TURN_END, "      if the card is Friendly: gain 1 VP\n" + TURN_END)
    d = only(problems(root))
    assert d.path.endswith("solo/overlay.yaml")
    assert (d.line, d.column, d.width) == (line_of(overlay, "      if the card is Friendly"), 10, len("the card"))
    assert d.message == "'the card' means nothing in the solo step 'turn'"
    assert "'the revealed card'" in d.expected  # a card the turn does know


def test_a_definition_about_a_card_names_the_card_it_tests(tmp_path):
    root = copy_content(tmp_path)
    overlay = root / "solo" / "overlay.yaml"
    replace_in(overlay, "card: the card is for you only", "card: the revealed card is for you only")
    d = only(problems(root))
    assert (d.line, d.column) == (line_of(overlay, "card: the revealed card"), 11)
    assert d.message.startswith("'the revealed card' is a card of a pile")
    assert d.expected == "'the card'"


def test_there_outside_a_where_clause_is_refused_at_there(tmp_path):
    root = copy_content(tmp_path)
    cards = root / "cards" / "strategy-both.yaml"
    replace_in(cards, EVENT, "      if placing a token there would give you control of Texas: gain 1 VP\n" + EVENT)
    d = only(problems(root))
    assert (d.line, d.column, d.width) == (line_of(cards, "      if placing a token there"), 26, len("there"))
    assert d.message.startswith("'there' refers to the space tested in a 'where' clause")
    assert "spaces where ..." in d.expected


@pytest.mark.parametrize("condition", ["you have more tokens than the opponent there",
                                       "the Peace Commissioner is there"])
def test_other_conditions_on_there_outside_where_are_refused(tmp_path, condition):
    root = copy_content(tmp_path)
    cards = root / "cards" / "strategy-both.yaml"
    replace_in(cards, EVENT, f"      if {condition}: gain 1 VP\n" + EVENT)
    d = only(problems(root))
    assert d.column == len("      if ") + condition.index("there") + 1
    assert d.message.startswith("'there' refers to the space tested")


@pytest.mark.parametrize("choice, word", [(", at random", "at random"),
                                          (", the opponent choosing", "the opponent choosing")])
def test_each_with_a_choice_is_refused_at_the_choice(tmp_path, choice, word):
    root = copy_content(tmp_path)
    cards = root / "cards" / "strategy-both.yaml"
    replace_in(cards, EVENT, f"      place 1 in each Political space{choice}\n" + EVENT)
    d = only(problems(root))
    assert (d.line, d.column, d.width) == (line_of(cards, "      place 1 in each Political"), 40, len(word))
    assert d.message.startswith("with 'each' the spaces are fixed: there is nothing")
    assert "'each' alone" in d.expected


@pytest.mark.parametrize("file", ["strategy-both.yaml", "objectives.yaml"])
def test_a_cards_rules_name_no_card_of_a_pile(tmp_path, file):
    root = copy_content(tmp_path)
    cards = root / "cards" / file
    replace_in(cards, "    event: |\n", "    event: |\n      carry out the event of the revealed card\n")
    d = only(problems(root))
    assert (d.line, d.column, d.width) == (line_of(cards, "      carry out the event of the revealed"), 30,
                                           len("the revealed card"))
    assert "is a card of a pile" in d.message and d.expected == "'the card'"


def test_a_misspelt_term_is_reported_at_its_name_with_a_suggestion(tmp_path):
    root = copy_content(tmp_path)
    cards = root / "cards" / "strategy-both.yaml"
    replace_in(cards, EVENT, "      place 1 in spaces with Rooom\n" + EVENT)
    d = only(problems(root))
    assert (d.line, d.column, d.width) == (line_of(cards, "      place 1 in spaces with Rooom"), 30, 5)
    assert d.message == "unknown term 'Rooom'"
    assert d.hint == "did you mean 'Room'?"


def test_a_procedure_knows_only_what_every_rule_carrying_it_out_knows(tmp_path):
    root = copy_content(tmp_path)
    overlay = root / "solo" / "overlay.yaml"
    replace_in(overlay, "        move 2 of your tokens from your pool into this dimension\n",
               "        move 2 of your tokens from your pool into this space\n")
    d = only(problems(root))
    assert (d.line, d.column) == (line_of(overlay, "into this space"), 51)
    assert d.message == "'this space' means nothing in the procedure 'final crisis not matching'"
    # the final crisis procedures are carried out for a strategy card, which has no space
    assert d.hint.startswith("the sequence of play (") and "sequence.yaml:" in d.hint


def test_a_procedure_carried_out_for_a_card_may_name_the_card(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "sequence.yaml", "  final crisis start: remove the Peace Commissioner\n",
               "  final crisis start: remove the Peace Commissioner\n"
               "  final crisis matching: |\n    if the card is for you: gain 1 VP\n", )
    replace_in(root / "sequence.yaml", "  final crisis matching: |\n    either:", "  unused: |\n    either:")
    load_content(root)  # "for your final crisis card": the card is known there


def test_the_card_in_a_procedure_carried_out_without_one_is_refused(tmp_path):
    root = copy_content(tmp_path)
    sequence = root / "sequence.yaml"
    replace_in(sequence, "  final crisis start: remove the Peace Commissioner\n",
               "  final crisis start: |\n    remove the Peace Commissioner\n    if the card is for you: gain 1 VP\n")
    d = only(problems(root))
    assert (d.line, d.column) == (line_of(sequence, "    if the card is for you"), 8)
    assert d.message == "'the card' means nothing in the procedure 'final crisis start'"
    assert "carries it out, and no card is known there" in d.hint


@pytest.mark.parametrize("line, column, message", [
    ("gain 0 VP", 1, "gaining 0 VP does nothing"),
    ("place 2 in each Political space, all in one space", 34, "'all in one space' cannot be said with 'each'"),
    ("if your pool has at least 3 more tokens than your pool: gain 1 VP", 4,
     "'your pool' cannot have more than itself"),
    ("so that you gain control of Texas:\n        place all in Texas", 3,
     "a goal's steps place, remove or move a number of pieces"),
])
def test_mistakes_the_earlier_checker_refused_are_refused(tmp_path, line, column, message):
    root = copy_content(tmp_path)
    cards = root / "cards" / "strategy-both.yaml"
    replace_in(cards, EVENT, f"      {line}\n" + EVENT)
    d = only(problems(root))
    last = line.split("\n")[-1]
    assert (d.line, d.column - len("      ")) == (line_of(cards, last), column)
    assert d.message == message


@pytest.mark.parametrize("game", shipped_games())
def test_the_shipped_games_load_clean(game):
    read_game(game_path(game))  # every rule of every game in the slot it stands in
    if game == "fort-sumter":
        assert load_content(game_path(game)).warnings == ()


THREE_CROWNS = "tests/data/three-crowns"


def three_crowns_copy(tmp_path):
    import shutil
    from pathlib import Path
    root = tmp_path / "three-crowns"
    shutil.copytree(Path(__file__).parent / "data" / "three-crowns", root)
    return root


@pytest.mark.parametrize("line", ["gain 1 VP", "place 1 in Dunmore", "draw 1 card from the deck into your hand",
                                  "if you occupy Dunmore: gain 1 VP", "set your VP to 5",
                                  "if the round is 1: you win", "keep 1 card of the discard pile as the deck",
                                  "for each walled town, in the order you choose: gain 1 VP"])
def test_you_where_the_sequence_has_named_no_player_is_refused(tmp_path, line):
    """The sequence of play runs for no player until a statement names them: a bare 'you' there
    (written, or meant by 'gain 1 VP') once went to the first side of 'sides:', silently."""
    root = three_crowns_copy(tmp_path)
    sequence = root / "sequence.yaml"
    replace_in(sequence, "    step tally:\n", f"    step tally:\n      {line}\n")
    with pytest.raises(ContentError) as caught:
        read_game(root)
    errors = [d for d in caught.value.diagnostics if d.severity == "error"]
    assert len(errors) == 1, [d.format() for d in errors]
    assert errors[0].path.endswith("sequence.yaml")
    at = 7 + (line.index("you win") if "you win" in line else 0)  # the innermost statement: 'you win'
    assert (errors[0].line, errors[0].column) == (line_of(sequence, f"      {line}\n"), at)
    assert "names no player" in errors[0].message
    assert "for each player" in errors[0].hint


def test_a_procedure_the_sequence_carries_out_for_no_player_is_refused_at_its_own_line(tmp_path):
    root = three_crowns_copy(tmp_path)
    sequence = root / "sequence.yaml"
    replace_in(sequence, "    step tally:\n", "    step tally:\n      carry out the bonus\n")
    replace_in(sequence, "procedures:\n", "procedures:\n  bonus: |\n    gain 1 VP\n")
    with pytest.raises(ContentError) as caught:
        read_game(root)
    errors = [d for d in caught.value.diagnostics if d.severity == "error"]
    assert len(errors) == 1, [d.format() for d in errors]
    assert errors[0].line == line_of(sequence, "    gain 1 VP\n")
    assert "carries out 'bonus'" in errors[0].message


@pytest.mark.parametrize("line", ["for each player: gain 1 VP", "each player draws 1 card from the deck into their hand",
                                  "the first player gains 1 VP", "for each player: carry out the region scoring"])
def test_you_where_the_sequence_names_the_players_is_accepted(tmp_path, line):
    root = three_crowns_copy(tmp_path)
    replace_in(root / "sequence.yaml", "    step tally:\n", f"    step tally:\n      {line}\n")
    read_game(root)


def test_no_shipped_game_says_you_where_no_player_is_named():
    for game in shipped_games():
        read_game(game_path(game))


def card_error(tmp_path, old: str, new: str):
    """The one error of a Three Crowns copy whose card file has ``old`` replaced by ``new``."""
    root = three_crowns_copy(tmp_path)
    (cards,) = (root / "cards").glob("*.yaml")
    replace_in(cards, old, new)
    with pytest.raises(ContentError) as caught:
        read_game(root)
    (error,) = [d for d in caught.value.diagnostics if d.severity == "error"]
    return error


def test_another_game_s_word_after_that_is_told_this_game_s(tmp_path):
    """'that space' in a game whose places are towns: the hint names 'town', not the nearest word
    by spelling ('distance')."""
    error = card_error(tmp_path, "      otherwise:\n        place 1 banner in Ashford\n",
                       "      otherwise:\n        place 1 banner in Ashford or Brackenby\n"
                       "        if you occupy that space: gain 1 VP\n")
    assert error.message == "unknown word 'space'" and error.hint == "did you mean 'town'?"


def test_a_misspelt_word_after_this_is_still_told_by_its_spelling(tmp_path):
    """After 'this', a near spelling of one of the game's words wins over its word for places."""
    error = card_error(tmp_path, "    event: gain 1 VP for each region you occupy\n",
                       "    event: gain 1 VP for each town of this regoin\n")
    assert error.hint == "did you mean 'region'?"


def test_tokens_in_a_game_that_calls_them_otherwise_hints_the_game_s_word(tmp_path):
    """The language's docs say 'tokens'; Three Crowns calls them banners: 'place 2 tokens ...'
    hints 'banners' (not the nearest spelling)."""
    error = card_error(tmp_path, "    event: gain 1 VP for each region you occupy\n",
                       "    event: place 2 tokens in any towns\n")
    assert error.message == "unknown word 'tokens'" and error.hint == "did you mean 'banners'?"


def test_an_order_the_opponent_chooses_where_no_player_is_named_is_refused(tmp_path):
    """'in the order the opponent chooses' at the top of the setup: the opponent of nobody."""
    root = copy_content(tmp_path)
    replace_in(root / "sequence.yaml", "  shuffle the objective deck\n",
               "  shuffle the objective deck\n  for each pivotal space, in the order the opponent chooses: "
               "shuffle the strategy deck\n")
    (error,) = [d for d in problems(root) if d.severity == "error"]
    assert "names no player" in error.message
