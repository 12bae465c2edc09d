"""Forks and samples of a game in progress on the general engine (what the bots that look ahead
stand on): where play stands is part of the position, so a fork is a copy that goes on exactly as
the game would, at any decision, half-way through a card's effect too."""

import random

import pytest

from crisis.interpreter.engine.game import Game, Options, replay
from crisis.interpreter.players.registry import RandomBot
from crisis.interpreter.players.sample import deal_again

from test_players import twins


def same_position(a, b) -> bool:
    return (a.values, a.piles, a.stack, a.rng.getstate()) == (b.values, b.piles, b.stack, b.rng.getstate())


def decision_of(game):
    d = game.decision
    return None if d is None else (d.player, d.kind, [a.text for a in d.actions])


def random_games(content, seeds, event_discard=False):
    """Games between random bots, yielding the game at each of its decisions."""
    for seed in seeds:
        game = Game.of(content, seed, Options(frozenset({"event_discard"}) if event_discard else frozenset()),
                       log=False)
        bots = [RandomBot(seed, 0), RandomBot(seed, 1)]
        while game.decision is not None:
            yield game
            game.apply(bots[game.decision.player].choose(game, game.decision))


@pytest.mark.parametrize("event_discard", [False, True])
def test_a_fork_is_the_game_at_the_same_decision_and_plays_on_the_same(content, event_discard):
    picker = random.Random(4)
    checked = 0
    for game in random_games(content, range(6), event_discard):
        if picker.random() > 0.25:
            continue
        fork = game.fork()
        assert decision_of(fork) == decision_of(game)
        assert same_position(fork.position, game.position)
        # the fork goes on as the game would: the same random draws, the same end
        twin = game.fork()
        bots = [RandomBot(9, 0), RandomBot(9, 1)]
        twins_ = [RandomBot(9, 0), RandomBot(9, 1)]
        while fork.decision is not None:
            fork.apply(bots[fork.decision.player].choose(fork, fork.decision))
            twin.apply(twins_[twin.decision.player].choose(twin, twin.decision))
        assert same_position(fork.position, twin.position) and fork.result == twin.result
        checked += 1
    assert checked > 50


def test_a_fork_half_way_through_an_effect_is_the_game_rebuilt_from_its_actions(content):
    for game in random_games(content, range(3)):
        if game.decision.kind in ("place", "move", "remove") and game.actions_taken > 30:
            break
    rebuilt = replay(game.program, game.seed, game.options, game.history, log=False)
    fork = game.fork()
    assert decision_of(fork) == decision_of(rebuilt) == decision_of(game)
    assert same_position(fork.position, rebuilt.position)
    # and both go on the same
    for g in (fork, rebuilt):
        bots = [RandomBot(2, 0), RandomBot(2, 1)]
        while g.decision is not None:
            g.apply(bots[g.decision.player].choose(g, g.decision))
    assert same_position(fork.position, rebuilt.position)


def test_a_sample_keeps_what_the_side_knows_and_deals_again_what_it_does_not(content):
    changed = 0
    picker = random.Random(2)
    for game in random_games(content, range(4), event_discard=True):
        decision = game.decision
        if picker.random() > 0.3:
            continue
        me, other = decision.player, 1 - decision.player
        program = game.program
        dealt = Game(program, game.seed, game.options, position=deal_again(program, game.position, me,
                                                                            random.Random(1)), log=False)
        true, got = game.view, dealt.view
        # the same decision, the same public position and own cards
        assert decision_of(dealt) == decision_of(game)
        assert got.snapshot() == true.snapshot()
        assert got.pile("discard pile") == true.pile("discard pile")
        for pile in ("hand", "set aside", "objective"):
            assert got.pile(pile, me) == true.pile(pile, me), pile
        # the unseen cards are the same cards, in the same numbers of places
        unseen = lambda v: (sorted(v.pile("hand", other) + v.pile("set aside", other) + v.pile("strategy deck")
                                   + v.pile("final crisis order", other)),
                            sorted(v.pile("objective", other) + v.pile("objective offer", other)
                                   + v.pile("objective deck")))
        assert unseen(got) == unseen(true)
        assert len(got.pile("hand", other)) == len(true.pile("hand", other))
        assert len(got.pile("strategy deck")) == len(true.pile("strategy deck"))
        changed += (got.pile("hand", other), got.pile("strategy deck")) != (true.pile("hand", other),
                                                                         true.pile("strategy deck"))
        # and the sample plays to the end
        bots = [RandomBot(3, 0), RandomBot(3, 1)]
        while dealt.decision is not None:
            dealt.apply(bots[dealt.decision.player].choose(dealt, dealt.decision))
        assert dealt.result is not None
    assert changed > 20


def test_samples_do_not_depend_on_the_cards_the_side_cannot_see(content):
    original, twin = twins(content, 11, "play_card")
    me = original.decision.player
    program = original.program
    for seed in range(5):
        a = deal_again(program, original.position, me, random.Random(seed))
        b = deal_again(program, twin.position, me, random.Random(seed))
        assert (a.values, a.piles, a.rng.getstate()) == (b.values, b.piles, b.rng.getstate())


def test_a_look_ahead_fork_takes_any_action_as_a_sim_rebuilt_at_that_decision_would(content):
    # a look-ahead's fork carries its decision over instead of working it out again (Sim.fork):
    # taking any of its actions must lead where a sim made afresh at the same decision leads
    from crisis.interpreter.players.sim import Sim
    picker = random.Random(7)
    checked = 0
    for game in random_games(content, range(4)):
        if picker.random() > 0.2:
            continue
        sim = Sim.of(game)
        fork = sim.fork()
        assert fork.decision is sim.decision
        for action in picker.sample(sim.decision.actions, min(3, len(sim.decision.actions))):
            taken, rebuilt = sim.fork(), Sim.of(game)
            taken.apply(action)
            rebuilt.apply(next(a for a in rebuilt.decision.actions if a.text == action.text))
            assert same_position(taken.position, rebuilt.position)
            assert decision_of(taken) == decision_of(rebuilt)
            checked += 1
    assert checked > 50
