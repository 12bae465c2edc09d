"""Card text is rendered from the rule (ruleset/phrasing.py, the general front end's rules):
every construct, as a player reads it."""

import pytest
from helpers import phrased

from crisis.content.phrases import card_text

ENGLISH = [
    ("place 3 in Fort Sumter", "Place 3 tokens in Fort Sumter."),
    ("place 1 token in Texas", "Place 1 token in Texas."),
    ("place up to 2 in Secession spaces, at most 1 per space",
     "Place up to 2 tokens in Secession spaces, at most 1 per space."),
    ("place up to 4 from your pool in any spaces", "Place up to 4 tokens from your pool in any spaces."),
    ("place 1 in each Secession space", "Place 1 token in each Secession space."),
    ("place 2 in Political spaces, all in one space", "Place 2 tokens in Political spaces, all in one space."),
    ("place 2 Secessionist tokens in Texas, Deep South or Border States",
     "Place 2 Secessionist tokens in Texas, Deep South or Border States."),
    ("remove up to 2 opponent tokens from pivotal spaces", "Remove up to 2 opponent tokens from pivotal spaces."),
    ("remove 1 opponent token from each Political space", "Remove 1 opponent token from each Political space."),
    ("remove all opponent tokens from Fort Sumter", "Remove all opponent tokens from Fort Sumter."),
    ("move up to 2 tokens of either side within Armaments spaces",
     "Move up to 2 tokens of either side within Armaments spaces."),
    ("move 2 from your Escalation box to your pool", "Move 2 tokens from your Escalation box to your pool."),
    ("move 2 opponent tokens from their pool to their crisis track",
     "Move 2 opponent tokens from their pool to their crisis track."),
    ("move 1 token from Texas to each Political space", "Move 1 token from Texas to each Political space."),
    ("gain 2 VP", "Gain 2 VP."),
    ("lose 1 VP", "Lose 1 VP."),
    ("gain 1 VP for each dimension you control", "Gain 1 VP for each dimension you control."),
    ("gain 1 VP for each Armaments space you control", "Gain 1 VP for each Armaments space you control."),
    ("place the Peace Commissioner in any space", "Place the Peace Commissioner in any space."),
    ("move the Peace Commissioner to a Political space", "Move the Peace Commissioner to a Political space."),
    ("remove the Peace Commissioner", "Remove the Peace Commissioner from the map."),
    ("the opponent loses 1 VP", "Your opponent loses 1 VP."),
    ("if you control Fort Sumter: gain 1 VP", "If you control Fort Sumter, gain 1 VP."),
    ("if the opponent controls Texas:\n  remove 1 opponent token from Texas\notherwise:\n  place 1 in Texas",
     "If your opponent controls Texas, remove 1 opponent token from Texas; otherwise, place 1 token in Texas."),
    ("either:\n  gain 1 VP\nor:\n  place 2 in Newspapers",
     "Choose one: (1) gain 1 VP; (2) place 2 tokens in Newspapers."),
    ("for each player:\n  gain 1 VP", "Each player, first player first: they gain 1 VP."),
    ("place 1 in spaces you control", "Place 1 token in any space you control."),
    ("place 1 in Secession spaces nobody controls", "Place 1 token in a Secession space nobody controls."),
    ("remove 1 opponent token from spaces the opponent controls",
     "Remove 1 opponent token from any space your opponent controls."),
    ("remove 2 opponent tokens from spaces the opponent controls",
     "Remove 2 opponent tokens from any spaces your opponent controls."),
    ("place 1 in spaces where you have no tokens there",
     "Place 1 token in any space where you have no tokens."),
]


@pytest.mark.parametrize("rule,text", ENGLISH, ids=[e[0] for e in ENGLISH])
def test_english_text_of_each_statement(content, rule, text):
    assert phrased(content, rule) == text


CONDITIONS = [
    ("you have at least 2 tokens in Fort Sumter", "you have at least 2 tokens in Fort Sumter"),
    ("the opponent has more tokens than you in Political spaces",
     "your opponent has more tokens than you in Political spaces"),
    ("you have more VP than the opponent", "you have more VP than your opponent"),
    ("the opponent has at most 3 VP", "your opponent has at most 3 VP"),
    ("you are the first player", "you are the first player"),
    ("the Unionist is the first player", "the Unionist is the first player"),
    ("you are Unionist", "you are Unionist"),
    ("the round is at least 2", "it is round 2 or later"),
    ("the opponent's Tension zone is breached", "your opponent's Tension zone is breached"),
    ("your pool has fewer than 2 tokens", "your pool has fewer than 2 tokens"),
    ("your pool has at least 3 more tokens than the opponent's pool",
     "your pool has at least 3 more tokens than your opponent's"),
    ("Washington is pivotal", "Washington is a pivotal space"),
    ("you control more than 5 spaces", "you control more than 5 spaces"),
    ("you control more spaces than the opponent", "you control more spaces than your opponent"),
    ("nobody controls Political", "nobody controls Political"),
    ("you control Texas and not the opponent controls Washington or you are Unionist",
     "you control Texas and it is not so that your opponent controls Washington or you are Unionist"),
]


@pytest.mark.parametrize("rule,text", CONDITIONS, ids=[c[0] for c in CONDITIONS])
def test_english_text_of_each_condition(content, rule, text):
    assert phrased(content, rule, how="condition") == text


def test_every_shipped_card_renders_without_a_missing_phrase(content):
    catalog = content.catalog("en")
    for _kind, card_id, _field, _rule in content.rule_texts():
        text = card_text(content, catalog, card_id)
        assert "<render." not in text, (card_id, text)
        assert text.strip()


# ------------------------------------------- whose sentence is it (issue 11)
CARDS = [
    # an actor applies to its own sentence only: the next imperative is yours again
    ("peace-conference", "Each player places 1 token in Border States. Place 2 tokens in Washington or Border "
                         "States. Place the Peace Commissioner in Washington or Border States."),
    ("buchanans-cabinet-crisis", "Your opponent removes 2 of their tokens from Political spaces. Place 1 token in "
                                 "Washington."),
    ("baltimore-plot", "If you have fewer VP than your opponent, your opponent loses 1 VP; otherwise, remove up to 2 "
                       "opponent tokens from pivotal spaces your opponent controls, at most 1 per space."),
    # an if and its otherwise are one sentence, so what follows is plainly outside them
    ("guarding-the-capital", "If your opponent controls Washington, remove 2 opponent tokens from Washington; "
                             "otherwise, place 2 tokens in Washington. Place 1 token in Federal Arsenals."),
    # a "for each player" block is one sentence: it ends at its full stop
    ("crittenden-compromise", "Place 3 tokens in Washington or Border States. Each player, first player first: if "
                              "they have no tokens in Border States, they place 1 token in Border States."),
    ("texas-secession-convention", "Place 3 tokens in Texas. From round 2, place 1 token in Montgomery."),
    ("south-carolina-secedes", "Place 2 tokens in Deep South. In round 1, place 2 tokens in Secession spaces, at "
                               "most 1 per space; otherwise, place 1 token in Fire-Eaters."),
]


@pytest.mark.parametrize("card_id,text", CARDS, ids=[c[0] for c in CARDS])
def test_card_texts_read_one_way(content, card_id, text):
    assert card_text(content, content.catalog("en"), card_id, inline=True) == text


SCOPES = [
    ("for each player:\n  place 1 in Texas\n  remove 1 opponent token from Texas\nplace 1 in Washington",
     "Each player, first player first: they place 1 token in Texas, then they remove 1 of their opponent's tokens "
     "from Texas.\nPlace 1 token in Washington."),
    ("the opponent moves 2 opponent tokens from their pool to their crisis track",
     "Your opponent moves 2 of your tokens from your pool to your crisis track."),
    ("the opponent moves 2 from your pool to Texas", "Your opponent moves 2 tokens from their pool to Texas."),
    ("the opponent removes 1 opponent token from Texas", "Your opponent removes 1 of your tokens from Texas."),
    ("each player removes all of their tokens from Texas", "Each player removes all of their tokens from Texas."),
    ("the opponent gains 1 VP for each dimension you control", "Your opponent gains 1 VP for each dimension you control."),
    ("if the round is 3: gain 1 VP", "In round 3, gain 1 VP."),
    ("if the round is at most 2: gain 1 VP", "Up to round 2, gain 1 VP."),
    ("if the round is fewer than 3 and you control Texas: gain 1 VP",
     "If it is before round 3 and you control Texas, gain 1 VP."),
]


@pytest.mark.parametrize("rule,text", SCOPES, ids=[s[0] for s in SCOPES])
def test_actors_and_rounds_read_naturally(content, rule, text):
    assert phrased(content, rule) == text
