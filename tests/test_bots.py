"""The heuristic and search bots of the general engine (interpreter/players/): they play on what
their side may know, reproducibly, and everywhere a bot is (batch jobs, `crisis sim`, `crisis play
--vs`).  Their strength is measured in benchmarks/players.py, not here; tests/test_players.py holds
what they know and how they judge."""

import random

import attrs
import pytest

from crisis.content.bots import Budget
from crisis.interpreter.batch import Job
from crisis.interpreter.engine.game import Game, Options
from crisis.interpreter.players.heuristic import HeuristicBot, decision_rng, judge_for, sample
from crisis.interpreter.players.registry import RandomBot
from crisis.interpreter.players.search import Search, SearchBot, settings_for

from clirun import run_crisis, run_main
from helpers import assert_same_choice_on_twins
from test_players import game_at, twins
from crisis.interpreter.engine.program import program_of

BOTS = {"heuristic": lambda seed, side: HeuristicBot(seed, side),
        "search": lambda seed, side: SearchBot(seed, side, Budget(iterations=3))}


@pytest.mark.parametrize("name", sorted(BOTS))
def test_the_other_sides_hidden_cards_do_not_change_an_order(content, name):
    """A second order of Final Crisis cards (besides tests/test_players.py's): the same choice, and
    for the search the same visits and results of every action."""
    original, twin = twins(content, 8, "order", 3)
    me = original.decision.player
    assert_same_choice_on_twins(lambda: BOTS[name](original.seed, me), original, twin)


def test_bots_play_whole_games_in_batch_jobs_with_the_invariants_checked(content):
    """Batch jobs play the general engine's bots (interpreter/players/) by name, with settings."""
    job = Job(content, Options(frozenset({"event_discard"})), ("search:1", "heuristic"), check=True)
    assert job.factories[0].func is SearchBot and job.factories[1] is HeuristicBot
    records = list(job.play([4]))
    assert records[0].problems == () and records[0].winner in (0, 1)


def random_games(content, seeds):
    """Games between random bots, yielding the game at each of its decisions."""
    for seed in seeds:
        game = Game.of(content, seed, log=False)
        bots = [RandomBot(seed, 0), RandomBot(seed, 1)]
        while game.decision is not None:
            yield game
            game.apply(bots[game.decision.player].choose(game, game.decision))


def test_judging_a_step_leaves_the_position_as_it_was(content):
    judge = judge_for(program_of(content))
    checked = 0
    for game in random_games(content, range(3)):
        decision = game.decision
        if decision.kind in ("place", "remove", "move") and len(decision.actions) > 1:
            sim = sample(game, decision.player, random.Random(1))
            before = (list(sim.position.values), [list(p) for p in sim.position.piles])
            judge.step(sim, decision, random.Random(1))
            assert (sim.position.values, sim.position.piles) == before
            checked += 1
    assert checked > 30


def test_the_command_line_knows_the_bots(tmp_path):
    result = run_crisis("sim", "--games", "1", "--bot", "union=heuristic", "--bot", "secessionist=search:1", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "1 game in " in result.stdout
    unknown = run_main("sim", "--games", "2", "--bot", "union=clever", cwd=tmp_path)  # the rest in the process
    assert unknown.returncode == 2 and "no bot is called 'clever'" in unknown.stderr and "search" in unknown.stderr
    budget = run_main("sim", "--games", "2", "--bot", "Secessionist=search:fast", cwd=tmp_path)
    assert budget.returncode == 2 and "not a search budget" in budget.stderr
    game = run_main("play", "--vs", "heuristic", "--side", "union", "--seed", "3", input="quit\n", cwd=tmp_path)
    assert game.returncode in (0, 3) and "heuristic" in game.stdout


def test_bots_that_judge_positions_are_refused_in_one_line_for_content_without_an_evaluation(tmp_path):
    """A new game's content may have no bots/evaluation.yaml yet: the random bot plays it, and the
    heuristic and search bots are refused before the game starts (they ended `crisis sim` with a
    traceback), in the player's language, with exit status 2."""
    import shutil
    from helpers import copy_content
    root = copy_content(tmp_path)
    shutil.rmtree(root / "bots")
    folder = str(root)
    for command in (["sim", "--games", "2", "--bot", "union=heuristic"],
                    ["sim", "--games", "2", "--bot", "secessionist=search:2", "--lang", "es"],
                    ["play", "--vs", "search:5", "--save", str(tmp_path / "g.json")],
                    ["balance", "--games", "2", "--out", str(tmp_path / "report")]):
        result = run_main(*command, "--content", folder, input="quit\n", cwd=tmp_path)
        assert result.returncode == 2, (command, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "bots/evaluation.yaml" in lines[0], (command, result.stderr)
        assert ("juzga las posiciones" in lines[0]) == ("es" in command)
        assert not (tmp_path / "g.json").exists() and not (tmp_path / "report").exists()
    played = run_main("sim", "--games", "2", "--bot", "union=random", "--content", folder, cwd=tmp_path)
    assert played.returncode == 0 and "2 games in " in played.stdout


@pytest.mark.parametrize("name", sorted(BOTS))
def test_half_way_through_a_card_the_other_sides_hidden_cards_do_not_change_the_choice(content, name):
    """The twins are followed from a card play into the card's effect: at each step the bot's
    choice is the same on both."""
    original, twin = twins(content, 11, "play_card", 2)
    me = original.decision.player
    value = lambda game, a: game.view.field("strategy cards", a.a, "value")
    for game in (original, twin):
        values = [a for a in game.decision.actions if a.kind == "value"]
        game.apply(max(values, key=lambda a: (value(game, a), a.text)))
    steps = 0
    while original.decision is not None and original.decision.kind in ("place", "move", "remove"):
        assert original.decision.player == me
        assert [a.text for a in original.decision.actions] == [a.text for a in twin.decision.actions]
        chosen = [BOTS[name](original.seed, me).choose(g, g.decision).text for g in (original, twin)]
        assert chosen[0] == chosen[1]
        for game in (original, twin):
            game.apply(chosen[0])
        steps += 1
    assert steps >= 1


def _search(game, **changes):
    """A search from ``game``'s decision with the content's settings changed by ``changes``."""
    settings = attrs.evolve(settings_for(game), **changes)
    me = game.decision.player
    search = Search(judge_for(game.program), settings, me, decision_rng("search", game.seed, me, game))
    return search, search.run(game).text


@pytest.mark.parametrize("changes", [{"widen": 2}, {"replies": 1}, {"rollout": 1},
                                     {"widen": 2, "replies": 1, "rollout": 2}])
def test_widening_and_rollouts_use_only_what_the_side_may_know(content, changes):
    """The leaf's play-out and the widening's ranking run on the determinizations, never on the
    true hidden cards: the twin positions get the same choice and the same visits."""
    original, twin = twins(content, 11, "play_card")
    runs = [_search(game, budget=Budget(iterations=6), **changes) for game in (original, twin)]
    assert runs[0][1] == runs[1][1]
    stats = [{t: (e.visits, round(e.total, 9)) for t, e in search.root.edges.items()} for search, _ in runs]
    assert stats[0] == stats[1]


@pytest.mark.parametrize("iterations", [1, 5, 12])
def test_a_budget_of_n_iterations_is_respected(content, iterations):
    """At most N iterations; the first expands the root, each later one adds one visit there."""
    game = game_at(content, 5, "play_card", 3)
    search, _ = _search(game, budget=Budget(iterations=iterations), prior=2)
    assert 1 <= search.iterations <= iterations
    edges = search.root.edges.values()
    assert sum(e.visits for e in edges) - 2 * len(edges) == search.iterations - 1


def test_widening_searches_only_the_heuristics_best_actions(content):
    game = game_at(content, 11, "play_card", 2)
    search, chosen = _search(game, budget=Budget(iterations=10), widen=2, prior=1)
    edges = search.root.edges
    assert len(edges) > 2
    best = sorted(edges, key=lambda t: -edges[t].chance)[:2]
    assert {t for t, e in edges.items() if e.visits > 1} <= set(best) and chosen in best


# ------------------------------------------------ a look-ahead's work is bounded
def _judged_per_look_ahead(monkeypatch):
    """Patches the heuristic's judge to count, for each outermost look-ahead (``settle``), the
    actions it judged: token steps judged by the evaluation and actions tried on a fork."""
    from crisis.interpreter.players import heuristic
    from crisis.interpreter.players.evaluation import Evaluator
    counts, open_ = [], [0]
    settle, trials, step_judge = heuristic.Judge.settle, heuristic.Judge.trials, Evaluator.step_judge

    def counting_settle(self, *args, **kwargs):
        if open_[0] == 0:
            counts.append(0)
        open_[0] += 1
        try:
            return settle(self, *args, **kwargs)
        finally:
            open_[0] -= 1

    def counting_trials(self, sim, rng, depth=1, record=False, actions=None):
        if open_[0]:
            counts[-1] += len(sim.decision.actions if actions is None else actions)
        return trials(self, sim, rng, depth, record, actions)

    def counting_step_judge(self, *args, **kwargs):
        judge = step_judge(self, *args, **kwargs)

        def counted(action):
            if open_[0]:
                counts[-1] += 1
            return judge(action)
        return counted
    monkeypatch.setattr(heuristic.Judge, "settle", counting_settle)
    monkeypatch.setattr(heuristic.Judge, "trials", counting_trials)
    monkeypatch.setattr(Evaluator, "step_judge", counting_step_judge)
    return counts


def _heuristic_game(content, seed):
    game = Game.of(content, seed, log=False)
    bots = [HeuristicBot(seed, side) for side in range(2)]
    while not game.over:
        game.apply(bots[game.decision.player].choose(game, game.decision))
    return game


def test_a_look_ahead_judges_no_more_actions_than_its_allowance_and_the_game_goes_on(content, monkeypatch):
    """Rules may ask hundreds of token steps between two card plays, each of hundreds of actions;
    a look-ahead judges at most its allowance (docs/limits.md, Bots), then takes the rest unjudged,
    and the game still ends.  A small allowance shows it on the shipped game."""
    from crisis.interpreter.players import heuristic
    monkeypatch.setattr(heuristic, "MAX_JUDGED_PER_LOOK_AHEAD", 60)
    counts = _judged_per_look_ahead(monkeypatch)
    game = _heuristic_game(content, 3)
    assert game.over and game.view.winner in (0, 1)
    assert max(counts) <= 60
    assert sum(1 for n in counts if n > 50) >= 5  # the allowance was reached, not merely respected


def test_the_allowance_leaves_the_shipped_games_look_aheads_untouched(content, monkeypatch):
    """The shipped game's heaviest look-ahead judges well under the allowance: the same game with
    no allowance at all is the same game."""
    from crisis.interpreter.players import heuristic
    from crisis.ruleset import limits
    counts = _judged_per_look_ahead(monkeypatch)
    bounded = [_heuristic_game(content, seed).history for seed in (1, 2)]
    assert max(counts) * 2 < limits.MAX_JUDGED_PER_LOOK_AHEAD
    monkeypatch.setattr(heuristic, "MAX_JUDGED_PER_LOOK_AHEAD", 10 ** 9)
    assert [_heuristic_game(content, seed).history for seed in (1, 2)] == bounded


def test_a_look_ahead_to_a_far_horizon_ends_at_its_allowance(tmp_path, monkeypatch):
    """Found by the fuzzer: an evaluation whose horizon was never reached played every look-ahead
    to the end of the game, unjudged past its allowance: a Civil War game took minutes a decision.
    The actions a look-ahead takes count against its allowance as the actions it judges do; spent,
    it ends where it stands.  (Here the horizon is the Final Crisis order, once a game: from a card
    play of the first rounds no look-ahead reaches it within 40 actions.)"""
    from crisis.content.loader import load_content
    from crisis.interpreter.players import heuristic
    from crisis.interpreter.players.sim import Sim
    from helpers import copy_content, replace_in
    root = copy_content(tmp_path)
    replace_in(root / "bots" / "evaluation.yaml", "horizon: [play_card, keep_objective, order]",
               "horizon: [order]")
    replace_in(root / "bots" / "search.yaml", "decisions: [play_card, keep_objective]",
               "decisions: [play_card, order]")
    monkeypatch.setattr(heuristic, "MAX_JUDGED_PER_LOOK_AHEAD", 40)
    taken, open_, cut_short = [], [0], [0]
    settle, apply = heuristic.Judge.settle, Sim.apply

    def counting_settle(self, sim, *args, **kwargs):
        if open_[0] == 0:
            taken.append(0)
        open_[0] += 1
        try:
            return settle(self, sim, *args, **kwargs)
        finally:
            open_[0] -= 1
            if open_[0] == 0 and sim.decision is not None:
                cut_short[0] += 1  # neither at the horizon (far away) nor at the game's end

    def counting_apply(self, action):
        if open_[0]:
            taken[-1] += 1
        return apply(self, action)
    monkeypatch.setattr(heuristic.Judge, "settle", counting_settle)
    monkeypatch.setattr(Sim, "apply", counting_apply)
    game = Game.of(load_content(root), 1, log=False)
    bots = [HeuristicBot(1, side) for side in range(2)]
    while not game.over:
        game.apply(bots[game.decision.player].choose(game, game.decision))
    assert game.view.winner in (0, 1)
    assert max(taken) <= 40 + 1  # the last action, chosen as the allowance ran out
    assert cut_short[0] >= 5  # reached, not merely respected


@pytest.mark.parametrize("horizon", ["horizon: [never-asked]", ""])
def test_a_horizon_naming_no_decision_of_the_game_stops_each_look_ahead_at_the_next_choice(
        tmp_path, monkeypatch, horizon):
    """Found by the fuzzer: an evaluation cut short before its horizon (Civil War cases 1000228 and
    1000685) made every look-ahead play on until its allowance, 3 s a decision and 11 s the
    slowest.  A horizon that names no kind of decision the game asks, or none at all, stands for
    every kind but token steps: each look-ahead ends at the next such decision, or the game's end,
    and none is cut short by its allowance."""
    from crisis.content.loader import load_content
    from crisis.interpreter.players import heuristic
    from helpers import copy_content, replace_in
    root = copy_content(tmp_path)
    replace_in(root / "bots" / "evaluation.yaml", "horizon: [play_card, keep_objective, order]", horizon)
    replace_in(root / "bots" / "search.yaml", "decisions: [play_card, keep_objective]",
               "decisions: [play_card, order]")
    ended, settle = [], heuristic.Judge.settle

    def recording_settle(self, sim, *args, **kwargs):
        outermost = self._allowance is None
        result = settle(self, sim, *args, **kwargs)
        if outermost:
            ended.append(None if sim.decision is None else sim.decision.kind)
        return result
    monkeypatch.setattr(heuristic.Judge, "settle", recording_settle)
    game = Game.of(load_content(root), 1, log=False)
    bots = [HeuristicBot(1, side) for side in range(2)]
    while not game.over:
        game.apply(bots[game.decision.player].choose(game, game.decision))
    assert game.view.winner in (0, 1)
    assert len(ended) > 50
    assert not any(kind in heuristic.STEPS for kind in ended)  # each at a choice or the game's end
    # one decision ahead, not to the end of the game (those that end it: the Final Crisis, played out)
    assert ended.count(None) < len(ended) / 2
    assert "option" in ended or "marker" in ended  # (not only card plays: every kind but token steps)


def _judged_per_choice(monkeypatch):
    """Patches the heuristic's judge to record, for each outermost choice (``choosing``), the
    actions it judged: its look-aheads and games played out together."""
    import contextlib
    from crisis.interpreter.players import heuristic
    counts, choosing = [], heuristic.Judge.choosing

    @contextlib.contextmanager
    def counting(self):
        outermost = self._choice_left is None
        with choosing(self):
            yield
            if outermost:
                counts.append(heuristic.MAX_JUDGED_PER_CHOICE - self._choice_left)
    monkeypatch.setattr(heuristic.Judge, "choosing", counting)
    return counts


@pytest.mark.parametrize("bot", ["heuristic", "search:2"])
def test_a_choice_judges_no_more_actions_than_its_allowance_and_the_game_goes_on(content, monkeypatch, bot):
    """Found by the fuzzer: on hands of 31 cards a search game took minutes, each card of an order
    judged by games played to the end.  One choice judges at most its allowance (docs/limits.md,
    Bots), past it only the look-ahead under way finishes, and the rest is taken unjudged."""
    from crisis.interpreter.players import heuristic
    from crisis.interpreter.players.registry import controller_factory, play_out
    monkeypatch.setattr(heuristic, "MAX_JUDGED_PER_CHOICE", 500)
    counts = _judged_per_choice(monkeypatch)
    game = Game.of(content, 3, log=False)
    factory = controller_factory(bot)
    play_out(game, [factory(3, side) for side in range(2)])
    assert game.over and game.view.winner in (0, 1)
    assert max(counts) <= 500 + heuristic.MAX_JUDGED_PER_LOOK_AHEAD
    assert sum(1 for n in counts if n > 500) >= 3  # the allowance was reached, not merely respected


def test_the_choice_allowance_leaves_the_shipped_games_untouched(content, monkeypatch):
    """The shipped game's heaviest choice (a card of the final crisis order, judged by games
    played out) judges well under the allowance: the same game with no allowance is the same."""
    from crisis.interpreter.players import heuristic
    from crisis.ruleset import limits
    counts = _judged_per_choice(monkeypatch)
    bounded = [_heuristic_game(content, seed).history for seed in (1, 2)]
    assert max(counts) * 2 < limits.MAX_JUDGED_PER_CHOICE
    monkeypatch.setattr(heuristic, "MAX_JUDGED_PER_CHOICE", 10 ** 9)
    assert [_heuristic_game(content, seed).history for seed in (1, 2)] == bounded


def test_a_process_that_loads_content_after_content_keeps_no_bot_of_content_it_let_go(tmp_path):
    """The language server and long runs load content after content: once a content is let go,
    its program and its bots' judges go too (a table of judges kept every program: the fuzz
    run's workers grew by megabytes a content until they ran out of memory)."""
    import gc
    import weakref
    from crisis.cli.session import rounds_of
    from crisis.content.loader import load_content
    from helpers import copy_content
    root = copy_content(tmp_path)

    def play_a_decision(seed):
        loaded = load_content(root)
        game = Game.of(loaded, seed, log=False)
        for bot in (HeuristicBot(seed, 0), SearchBot(seed, 0, Budget(iterations=1))):
            bot.choose(game, game.decision)
        assert rounds_of(program_of(loaded)).program is program_of(loaded)  # what a play session keeps
        return weakref.ref(program_of(loaded))

    programs = [play_a_decision(seed) for seed in (1, 2)]
    gc.collect()
    assert [ref() for ref in programs] == [None, None]


def test_the_search_bot_plays_with_the_largest_weights_content_may_give(tmp_path):
    """A weight of 999,999,999 VP (the largest number content holds) made the search bot's chance
    of winning overflow (found by tools/fuzz_inputs.py); it now plays the game through."""
    from crisis.content.loader import load_content
    from helpers import copy_content, replace_in
    root = copy_content(tmp_path)
    replace_in(root / "bots" / "evaluation.yaml", "  your VP: 1.0\n", "  your VP: 999999999\n")
    loaded = load_content(root)
    game = Game.of(loaded, 4, log=False)
    players = [SearchBot(4, 0, Budget(iterations=2)), RandomBot(4, 1)]
    while not game.over:
        game.apply(players[game.decision.player].choose(game, game.decision))
    assert game.view.winner in (0, 1)


def test_a_bot_plays_on_where_what_is_offered_depends_on_a_hidden_card(tmp_path):
    """Content may offer an option only where it would do something, and write one that reads a
    hidden card (the top of the player's own deck, whose price may be 0): the bots choose on a
    position with the hidden cards dealt again, where that option may be offered when the game
    does not offer it. They play what the game offers (the heuristic stopped with StopIteration)."""
    import shutil
    from crisis.content.games import game_path
    from crisis.content.loader import load_content
    from crisis.interpreter.engine.game import Game
    from crisis.interpreter.players.registry import controller_factory, play_out
    root = tmp_path / "civil-war"
    shutil.copytree(game_path("civil-war-card-game"), root)
    sequence = root / "sequence.yaml"
    text = sequence.read_text(encoding="utf-8")
    defense = "    the opponent carries out the defense\n"
    assert defense in text
    sequence.write_text(text.replace(defense, "    either:\n      the opponent draws 1 card from their deck into their hand\n"
                                              "    or:\n      untap up to 2 of your tapped farms\n"
                                              "    or:\n      add the price of the top card of your deck to your might\n"
                                     + defense, 1), encoding="utf-8")
    content = load_content(root)
    for bot, seeds in (("heuristic", (2, 3)), ("search:4", (2,))):
        for seed in seeds:
            game = Game.of(content, seed, log=False)
            play_out(game, [controller_factory(bot)(seed, side) for side in range(2)])
            assert game.over, (bot, seed)
