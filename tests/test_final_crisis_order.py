"""The Final Crisis order is chosen card by card; the older whole-order
notation (`order a b c`) is still read (docs/notation.md)."""

import pytest

from crisis.interpreter.engine.game import Game, IllegalAction, replay
from crisis.interpreter.players.registry import RandomBot
from crisis.interpreter.engine.program import program_of


def at_first_order(content, seed=3):
    """A random game stopped at its first Final Crisis order decision."""
    game = Game.of(content, seed)
    bots = [RandomBot(seed, 0), RandomBot(seed, 1)]
    while game.decision.kind != "order":
        game.apply(bots[game.decision.player].choose(game, game.decision))
    return game


def pile(game, name, side=0):
    """The card ids in a pile, bottom first."""
    program = game.program
    ids = program.cards[program.kind_index["strategy cards"]].ids
    return [ids[c] for c in game.position.piles[program.layout.pile(program.pile_number[name], side)]]


def test_each_choice_lists_the_cards_left_and_the_last_card_needs_none(content):
    game = at_first_order(content)
    player = game.decision.player
    hand = pile(game, "hand", player)
    assert sorted(a.text for a in game.decision.actions) == sorted(f"order {c}" for c in hand)
    assert game.decision.hidden and game.decision.remaining == len(hand)
    chosen = []
    while game.decision.player == player and game.decision.kind == "order":
        left = pile(game, "hand", player)
        assert len(game.decision.actions) == len(left) > 1
        action = game.decision.actions[-1]
        chosen.append(action.text.split()[1])
        game.apply(action)
    assert len(chosen) == len(hand) - 1
    assert pile(game, "final crisis order", player) == chosen + [c for c in hand if c not in chosen]
    assert pile(game, "hand", player) == []


def test_a_whole_order_written_at_once_is_applied_card_by_card(content):
    game = at_first_order(content)
    player = game.decision.player
    hand = sorted(pile(game, "hand", player), reverse=True)
    before = len(game.history)
    game.apply("ORDER  " + " ".join(hand))  # case and spacing are ignored, as for any action
    assert game.history[before:] == [f"order {c}" for c in hand[:-1]]
    assert pile(game, "final crisis order", player) == hand
    # and the game replays from its (card-by-card) history
    replayed = replay(program_of(content), 3, None, game.history, content=content)
    assert [pile(replayed, "final crisis order", side) for side in (0, 1)] == \
        [pile(game, "final crisis order", side) for side in (0, 1)]


@pytest.mark.parametrize("cards", ["first-two-only", "repeat", "foreign"])
def test_a_whole_order_must_name_each_card_in_the_hand_once(content, cards):
    game = at_first_order(content)
    player = game.decision.player
    hand = pile(game, "hand", player)
    other = pile(game, "hand", 1 - player) or pile(game, "discard pile")
    text = {"first-two-only": hand[:2], "repeat": [hand[0]] + hand[:-1], "foreign": hand[:-1] + other[:1]}[cards]
    before = (len(game.history), pile(game, "hand", player))
    with pytest.raises(IllegalAction, match="is not a legal action now"):
        game.apply("order " + " ".join(text))
    assert (len(game.history), pile(game, "hand", player)) == before  # nothing half-applied


def test_random_games_never_offer_more_order_choices_than_cards(content):
    for seed in range(20):
        game = Game.of(content, seed, log=False)
        bots = [RandomBot(seed, 0), RandomBot(seed, 1)]
        while not game.over:
            decision = game.decision
            if decision.kind == "order":
                assert len(decision.actions) == len(pile(game, "hand", decision.player))
            game.apply(bots[decision.player].choose(game, decision))
        assert all(len(pile(game, "final crisis order", side)) >= 1 for side in (0, 1))
