"""The heuristic and search bots: they play on what their side may know, reproducibly, and
everywhere a bot is (batch jobs, `crisis sim`, `crisis play --vs`).  Their strength is
measured in benchmarks/bots.py, not here."""

import random

import pytest

from crisis.interpreter import lookahead as L
from crisis.interpreter.batch import Job
from crisis.interpreter.controllers import RandomBot, controller_factory
from crisis.interpreter.evaluation import Evaluator, _projection
from crisis.interpreter.game import Game, Options
from crisis.interpreter.heuristic import HeuristicBot, judge_for
from crisis.interpreter.search import SearchBot
from crisis.interpreter.tables import tables_for

from clirun import run_crisis, run_main
from test_lookahead import position_at, random_games, same_position, swap_hidden_cards

BOTS = {"heuristic": lambda seed, side: HeuristicBot(seed, side),
        "search": lambda seed, side: SearchBot.configured("3")(seed, side)}


def twins(content, seed, kind, round_=2):
    """A position at a ``kind`` decision, and the same position with the other side's hidden
    cards (hand, set-aside cards, objective, deck order, the game's generator) swapped."""
    game = position_at(content, seed, kind, round_)
    me = game.decision.player
    state = game.state.copy()
    swap_hidden_cards(state, me)
    original = Game(content, game.seed, game.options, state=game.state.copy(), log=False)
    twin = Game(content, game.seed, game.options, state=state, log=False)
    assert L.unseen(original.state, me) != L.unseen(twin.state, me)
    return original, twin


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("seed,kind,round_", [(11, "play_card", 2), (5, "play_card", 3), (7, "keep_objective", 2),
                                              (3, "order", 3), (8, "order", 3)])
def test_the_other_sides_hidden_cards_do_not_change_the_choice(content, name, seed, kind, round_):
    original, twin = twins(content, seed, kind, round_)
    me = original.decision.player
    bots = [BOTS[name](original.seed, me), BOTS[name](original.seed, me)]
    chosen = [bot.choose(game, game.decision).text for bot, game in zip(bots, (original, twin))]
    assert chosen[0] == chosen[1]
    if name == "search":
        # the same determinizations: every action's visits and results are the same
        stats = [{t: (e.visits, round(e.total, 9)) for t, e in bot.last.root.edges.items()} for bot in bots]
        assert stats[0] == stats[1]


def test_the_check_would_see_a_bot_that_peeks(content):
    """A bot reading the true hidden cards gives a different choice on the twin positions."""
    def peeking(game):
        other = 1 - game.decision.player
        return game.decision.actions[sum(game.state.hands[other]) % len(game.decision.actions)]
    differs = 0
    for seed in (11, 5, 21, 8, 13):
        original, twin = twins(content, seed, "play_card")
        differs += peeking(original).text != peeking(twin).text
    assert differs


@pytest.mark.parametrize("name", ["heuristic", "search:2"])
def test_the_same_seed_plays_the_same_game(content, name):
    histories = []
    for _ in range(2):
        game = Game(content, 17, Options(), log=False)
        bots = [controller_factory(name)(17, 0), RandomBot(17, 1)]
        while game.decision is not None:
            game.apply(bots[game.decision.player].choose(game, game.decision))
        histories.append(list(game.history))
    assert histories[0] == histories[1]


def test_bots_play_whole_games_in_batch_jobs_with_the_invariants_checked(content):
    """Batch jobs play the general engine's bots (interpreter/players/) by name, with settings."""
    from crisis.interpreter.engine.game import Options as GameOptions
    from crisis.interpreter.players.heuristic import HeuristicBot
    from crisis.interpreter.players.search import SearchBot
    job = Job(content, GameOptions(frozenset({"event_discard"})), ("search:1", "heuristic"), check=True)
    assert job.factories[0].func is SearchBot and job.factories[1] is HeuristicBot
    records = list(job.play([4]))
    assert records[0].problems == () and records[0].winner in (0, 1)


def test_the_heuristic_beats_random_play(content):
    """Not a measurement (benchmarks/bots.py is): a sign that it plays at all."""
    wins = 0
    for seed in range(4):
        me = seed % 2
        game = Game(content, seed, Options(), log=False)
        bots = [None, None]
        bots[me], bots[1 - me] = HeuristicBot(seed, me), RandomBot(seed, 1 - me)
        while game.decision is not None:
            game.apply(bots[game.decision.player].choose(game, game.decision))
        wins += game.result.winner == me
    assert wins >= 3


def test_judging_a_step_leaves_the_position_as_it_was(content):
    judge = judge_for(tables_for(content))
    checked = 0
    for game in random_games(content, range(3)):
        decision = game.decision
        if decision.kind in ("place", "remove", "move") and len(decision.actions) > 1:
            before = game.state.copy()
            judge.step(game.state, decision, random.Random(1))
            assert same_position(game.state, before)
            checked += 1
    assert checked > 30


def test_projected_scoring_is_what_the_scoring_rules_give(content):
    """The evaluation works the scoring rules out without running them; running them agrees."""
    tables = tables_for(content)
    evaluator = Evaluator(tables, content.bots.heuristic.weights)
    rules = [rule for _, rule in tables.final_scoring] + [tables.dimension_scoring]
    direct = _projection(rules)
    run = _projection(rules + [_Opaque()])  # a rule not made of VP statements alone: projected by running them all
    ex, ctx = evaluator._ex, evaluator._ctx
    for game in random_games(content, range(2)):
        ex.look_at(game.state)
        vp = list(game.state.vp)
        for side in (0, 1):
            assert direct(ex, ctx[side], ctx[1 - side]) == run(ex, ctx[side], ctx[1 - side])
        assert game.state.vp == vp


class _Opaque:
    def run(self, ex, ctx):
        return
        yield


def test_the_command_line_knows_the_bots(tmp_path):
    result = run_crisis("sim", "--games", "1", "--union", "heuristic", "--secessionist", "search:1", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "1 games" in result.stdout
    unknown = run_main("sim", "--games", "2", "--union", "clever", cwd=tmp_path)  # the rest in the process
    assert unknown.returncode == 2 and "no bot is called 'clever'" in unknown.stderr and "search" in unknown.stderr
    budget = run_main("sim", "--games", "2", "--bot", "Secessionist=search:fast", cwd=tmp_path)
    assert budget.returncode == 2 and "not a search budget" in budget.stderr
    game = run_main("play", "--vs", "heuristic", "--side", "union", "--seed", "3", input="quit\n", cwd=tmp_path)
    assert game.returncode in (0, 3) and "heuristic" in game.stdout


def test_the_quick_value_in_parts_adds_up_to_the_quick_value(content):
    """Steps are judged by the parts of the quick value they change; the parts must add up."""
    tables = tables_for(content)
    evaluator = Evaluator(tables, content.bots.heuristic.weights)
    w = evaluator.w
    everywhere = range(len(tables.spaces))
    checked = 0
    for game in random_games(content, range(3), event_discard=True):
        state = game.state
        for side in (0, 1):
            parts = (w.vp * (state.vp[side] - state.vp[1 - side]) + evaluator.local(state, side, everywhere)
                     + evaluator.spread(state, side))
            assert parts == pytest.approx(evaluator.value(state, side, quick=True))
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("name", sorted(BOTS))
def test_half_way_through_a_card_the_other_sides_hidden_cards_do_not_change_the_choice(content, name):
    """The twins are followed from a card play (where each keeps its line) into the card's
    effect: at each step the bot's choice is the same on both."""
    original, twin = twins(content, 11, "play_card", 2)
    me = original.decision.player
    for game in (original, twin):
        L.track(game)
        game.apply(next(a for a in game.decision.actions if a.kind == "value" and a.a == max(
            (x.a for x in game.decision.actions if x.kind == "value"), key=lambda c: game.tables.card_value[c])))
    steps = 0
    while original.decision is not None and original.decision.kind in ("place", "move", "remove"):
        assert original.decision.player == me and L._same_decision(original.decision, twin.decision)
        chosen = [BOTS[name](original.seed, me).choose(g, g.decision).text for g in (original, twin)]
        assert chosen[0] == chosen[1]
        for game in (original, twin):
            game.apply(chosen[0])
        steps += 1
    assert steps >= 1


def _search(game, **changes):
    """A search from ``game``'s decision with the content's settings changed by ``changes``."""
    import attrs
    from crisis.interpreter.heuristic import decision_rng
    from crisis.interpreter.search import Search, settings_for
    tables = game.tables
    settings = attrs.evolve(settings_for(tables), **changes)
    me = game.decision.player
    search = Search(judge_for(tables), settings, me, decision_rng("search", game.seed, me, game))
    return search, search.run(game).text


@pytest.mark.parametrize("changes", [{"widen": 2}, {"replies": 1}, {"rollout": 1}, {"widen": 2, "replies": 1, "rollout": 2}])
def test_widening_and_rollouts_use_only_what_the_side_may_know(content, changes):
    """The leaf's play-out and the widening's ranking run on the determinizations, never on the
    true hidden cards: the twin positions get the same choice and the same visits."""
    from crisis.content.bots import Budget
    original, twin = twins(content, 11, "play_card")
    runs = [_search(game, budget=Budget(iterations=6), **changes) for game in (original, twin)]
    assert runs[0][1] == runs[1][1]
    stats = [{t: (e.visits, round(e.total, 9)) for t, e in search.root.edges.items()} for search, _ in runs]
    assert stats[0] == stats[1]


@pytest.mark.parametrize("iterations", [1, 5, 12])
def test_a_budget_of_n_iterations_is_respected(content, iterations):
    """At most N iterations; the first expands the root, each later one adds one visit there."""
    from crisis.content.bots import Budget
    game = position_at(content, 5, "play_card", 3)
    search, _ = _search(game, budget=Budget(iterations=iterations), prior=2)
    assert 1 <= search.iterations <= iterations
    edges = search.root.edges.values()
    assert sum(e.visits for e in edges) - 2 * len(edges) == search.iterations - 1


def test_widening_searches_only_the_heuristics_best_actions(content):
    from crisis.content.bots import Budget
    game = position_at(content, 11, "play_card", 2)
    search, chosen = _search(game, budget=Budget(iterations=10), widen=2, prior=1)
    edges = search.root.edges
    assert len(edges) > 2
    best = sorted(edges, key=lambda t: -edges[t].chance)[:2]
    assert {t for t, e in edges.items() if e.visits > 1} <= set(best) and chosen in best
