"""Forks and samples of a game in progress (what the bots that look ahead stand on)."""

import random

import pytest

from crisis.interpreter import lookahead as L
from crisis.interpreter.controllers import RandomBot
from crisis.interpreter.game import Game, Options, replay
from crisis.interpreter.state import NOBODY


def same_position(a, b) -> bool:
    fields = ("tokens", "pool", "track", "boxes", "markers", "vp", "breached", "breach_order", "strategy_deck",
              "objective_deck", "discard", "hands", "objective_offer", "objectives", "set_aside",
              "final_crisis_order", "round", "phase", "plays", "leader", "final_crisis_step")
    return all(getattr(a, f) == getattr(b, f) for f in fields) and a.rng.getstate() == b.rng.getstate()


def random_games(content, seeds, event_discard=False):
    """Games between random bots, yielding the game at each of its decisions."""
    for seed in seeds:
        game = Game(content, seed, Options(event_discard=event_discard), log=False)
        bots = [RandomBot(seed, 0), RandomBot(seed, 1)]
        while game.decision is not None:
            yield game
            game.apply(bots[game.decision.player].choose(game, game.decision))


@pytest.mark.parametrize("event_discard", [False, True])
def test_a_fork_is_the_game_at_the_same_decision_and_plays_on_the_same(content, event_discard):
    picker = random.Random(4)
    checked = 0
    for game in random_games(content, range(6), event_discard):
        L.track(game)
        if picker.random() > 0.25:
            continue
        fork = L.fork(game)
        assert L._same_decision(fork.decision, game.decision)
        assert same_position(fork.state, game.state)
        # the fork goes on as the game would: the same random draws, the same end
        twin = L.fork(game)
        bots = [RandomBot(9, 0), RandomBot(9, 1)]
        twins = [RandomBot(9, 0), RandomBot(9, 1)]
        while fork.decision is not None:
            fork.apply(bots[fork.decision.player].choose(fork, fork.decision))
            twin.apply(twins[twin.decision.player].choose(twin, twin.decision))
        assert same_position(fork.state, twin.state)
        checked += 1
    assert checked > 50


def test_a_game_followed_from_half_way_through_an_effect_is_rebuilt_from_its_actions(content):
    for game in random_games(content, range(3)):
        if game.decision.kind in ("place", "move", "remove") and game.actions_taken > 30:
            break
    rebuilt = replay(content, game.seed, game.options, game.history, log=False)
    fork = L.fork(rebuilt)  # mid-effect: its line comes from the seed and the actions
    assert L._same_decision(fork.decision, game.decision)
    assert same_position(fork.state, game.state)


def test_a_sample_keeps_what_the_side_knows_and_deals_again_what_it_does_not(content):
    changed = 0
    picker = random.Random(2)
    for game in random_games(content, range(4), event_discard=True):
        decision = game.decision
        if picker.random() > 0.3:
            continue
        me, other = decision.player, 1 - decision.player
        true = game.state
        sample = L.sample(game, me, random.Random(1))
        got = sample.state
        # the same decision, the same public position and own cards
        assert L._same_decision(sample.decision, decision)
        for name in ("tokens", "pool", "track", "vp", "discard", "markers", "breached", "round", "phase"):
            assert getattr(got, name) == getattr(true, name), name
        assert got.hands[me] == true.hands[me] and got.set_aside[me] == true.set_aside[me]
        assert got.objectives[me] == true.objectives[me]
        # the unseen cards are the same cards, in the same numbers of places
        hidden, hidden_objectives = L.unseen(true, me)
        dealt, dealt_objectives = L.unseen(got, me)
        assert sorted(hidden) == sorted(dealt) and sorted(hidden_objectives) == sorted(dealt_objectives)
        assert len(got.hands[other]) == len(true.hands[other])
        assert len(got.strategy_deck) == len(true.strategy_deck)
        changed += hidden != dealt
        # and the sample plays to the end
        bots = [RandomBot(3, 0), RandomBot(3, 1)]
        while sample.decision is not None:
            sample.apply(bots[sample.decision.player].choose(sample, sample.decision))
        assert sample.state.result is not None
    assert changed > 20


def swap_hidden_cards(state, side):
    """The same position as ``side`` sees it, with the other side's hidden cards swapped
    with cards of the deck, and both decks in another order."""
    other = 1 - side
    hand, deck = state.hands[other], state.strategy_deck
    for i in range(min(len(hand), len(deck))):
        hand[i], deck[-1 - i] = deck[-1 - i], hand[i]
    taken = len(hand)
    for cards in (state.set_aside[other], state.final_crisis_order[other]):
        for i in range(min(len(cards), len(deck) - taken)):
            cards[i], deck[taken + i] = deck[taken + i], cards[i]
        taken += len(cards)
    random.Random(5).shuffle(deck)
    if state.objectives[other] != NOBODY and state.objective_deck:
        state.objectives[other], state.objective_deck[0] = state.objective_deck[0], state.objectives[other]
    random.Random(6).shuffle(state.objective_deck)
    state.rng.seed(12345)  # the game's own future draws are hidden too


def position_at(content, seed, kind, round_=2):
    for game in random_games(content, [seed]):
        other = 1 - game.decision.player if game.decision else 0
        state = game.state
        if (game.decision.kind == kind and state.round >= round_
                and len(state.set_aside[other]) + len(state.final_crisis_order[other]) > 0):
            return game
    raise AssertionError("no such decision")


def test_samples_do_not_depend_on_the_cards_the_side_cannot_see(content):
    game = position_at(content, 11, "play_card")
    me = game.decision.player
    twin_state = game.state.copy()
    swap_hidden_cards(twin_state, me)
    twin = Game(content, game.seed, game.options, state=twin_state, log=False)
    original = Game(content, game.seed, game.options, state=game.state.copy(), log=False)
    assert twin_state.hands[1 - me] != original.state.hands[1 - me]
    assert twin_state.set_aside[1 - me] != original.state.set_aside[1 - me]
    assert L.unseen(twin_state, me) != L.unseen(original.state, me)
    for seed in range(5):
        a = L.sample(original, me, random.Random(seed)).state
        b = L.sample(twin, me, random.Random(seed)).state
        assert same_position(a, b)
