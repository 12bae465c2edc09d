"""The Final Crisis order is chosen card by card; the older whole-order
notation (`order a b c`) is still read (docs/notation.md)."""

import pytest

from crisis.interpreter.controllers import RandomBot, play_out
from crisis.interpreter.game import Game, IllegalAction, replay


def at_first_order(content, seed=3):
    """A random game stopped at its first Final Crisis order decision."""
    game = Game(content, seed)
    bots = [RandomBot(seed, 0), RandomBot(seed, 1)]
    while game.decision.kind != "order":
        game.apply(bots[game.decision.player].choose(game, game.decision))
    return game


def ids(game, cards):
    return [game.tables.strategy_cards[c].id for c in cards]


def test_each_choice_lists_the_cards_left_and_the_last_card_needs_none(content):
    game = at_first_order(content)
    player = game.decision.player
    hand = ids(game, game.state.hands[player])
    assert sorted(a.text for a in game.decision.actions) == sorted(f"order {c}" for c in hand)
    assert game.decision.hidden and game.decision.remaining == len(hand)
    chosen = []
    while game.decision.player == player and game.decision.kind == "order":
        left = ids(game, game.state.hands[player])
        assert len(game.decision.actions) == len(left) > 1
        action = game.decision.actions[-1]
        chosen.append(action.text.split()[1])
        game.apply(action)
    assert len(chosen) == len(hand) - 1
    assert ids(game, game.state.final_crisis_order[player]) == chosen + [c for c in hand if c not in chosen]
    assert game.state.hands[player] == []


def test_a_whole_order_written_at_once_is_applied_card_by_card(content):
    game = at_first_order(content)
    player = game.decision.player
    hand = sorted(ids(game, game.state.hands[player]), reverse=True)
    before = len(game.history)
    game.apply("ORDER  " + " ".join(hand))  # case and spacing are ignored, as for any action
    assert game.history[before:] == [f"order {c}" for c in hand[:-1]]
    assert ids(game, game.state.final_crisis_order[player]) == hand
    # and the game replays from its (card-by-card) history
    assert replay(content, 3, None, game.history).state.final_crisis_order == game.state.final_crisis_order


@pytest.mark.parametrize("cards", ["first-two-only", "repeat", "foreign"])
def test_a_whole_order_must_name_each_card_in_the_hand_once(content, cards):
    game = at_first_order(content)
    player = game.decision.player
    hand = ids(game, game.state.hands[player])
    other = ids(game, game.state.hands[1 - player]) or ids(game, game.state.discard)
    text = {"first-two-only": hand[:2], "repeat": [hand[0]] + hand[:-1], "foreign": hand[:-1] + other[:1]}[cards]
    before = (len(game.history), list(game.state.hands[player]))
    with pytest.raises(IllegalAction, match="is not a legal action now"):
        game.apply("order " + " ".join(text))
    assert (len(game.history), game.state.hands[player]) == before  # nothing half-applied


def test_random_games_never_offer_more_order_choices_than_cards(content):
    for seed in range(20):
        game = Game(content, seed, log=False)
        bots = [RandomBot(seed, 0), RandomBot(seed, 1)]
        while not game.over:
            decision = game.decision
            if decision.kind == "order":
                assert len(decision.actions) == len(game.state.hands[decision.player])
            game.apply(bots[decision.player].choose(game, decision))
        assert all(len(order) >= 1 for order in game.state.final_crisis_order)
