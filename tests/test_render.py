"""Card text is rendered from the rule: every construct, as a player reads it."""

import pytest

from crisis.ruleset.parser import parse_block, parse_condition
from crisis.ruleset.render import render_block, render_condition

ENGLISH = [
    ("place 3 in Fort Sumter", "Place 3 tokens in Fort Sumter."),
    ("place a token in Texas", "Place 1 token in Texas."),
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
    ("the opponent loses 1 VP", "Your opponent: Lose 1 VP."),
    ("if you control Fort Sumter: gain 1 VP", "If you control Fort Sumter: Gain 1 VP."),
    ("if the opponent controls Texas:\n  remove 1 opponent token from Texas\notherwise:\n  place 1 in Texas",
     "If your opponent controls Texas: Remove 1 opponent token from Texas. Otherwise: Place 1 token in Texas."),
    ("either:\n  gain 1 VP\nor:\n  place 2 in Newspapers",
     "Choose one: (1) Gain 1 VP. (2) Place 2 tokens in Newspapers."),
    ("for each player:\n  gain 1 VP", "Each player, first player first: Gain 1 VP."),
    ("place 1 in spaces you control", "Place 1 token in any space you control."),
    ("place 1 in Secession spaces nobody controls", "Place 1 token in a Secession space nobody controls."),
    ("remove 1 opponent token from spaces the opponent controls",
     "Remove 1 opponent token from any space your opponent controls."),
    ("remove 2 opponent tokens from spaces the opponent controls",
     "Remove 2 opponent tokens from any spaces your opponent controls."),
    ("place 1 in spaces where you have no tokens there",
     "Place 1 token in any space where you have no tokens in that space."),
]


@pytest.mark.parametrize("rule,text", ENGLISH, ids=[e[0] for e in ENGLISH])
def test_english_text_of_each_statement(content, rule, text):
    assert render_block(parse_block(rule), content.catalog("en")) == text


CONDITIONS = [
    ("you have at least 2 tokens in Fort Sumter", "you have at least 2 tokens in Fort Sumter"),
    ("the opponent has more tokens than you in Political spaces",
     "your opponent has more tokens than you in Political spaces"),
    ("you have more VP than the opponent", "you have more VP than your opponent"),
    ("the opponent has at most 3 VP", "your opponent has at most 3 VP"),
    ("you are the first player", "you are the first player"),
    ("the Unionist is the first player", "the Unionist is the first player"),
    ("you are Unionist", "you are Unionist"),
    ("the round is at least 2", "the round is at least 2"),
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
    assert render_condition(parse_condition(rule), content.catalog("en")) == text


def test_every_shipped_card_renders_without_a_missing_phrase(content):
    catalog = content.catalog("en")
    for card in content.strategy_cards + content.objective_cards:
        if card.event:
            text = render_block(card.event.tree, catalog)
            assert "<render." not in text, (card.id, text)
            assert text.strip()
