"""The general engine's bots (interpreter/players/): they judge positions by the content's
bots/evaluation.yaml, decide on what their side may know, play whole games reproducibly, and
beat a random player.  Their strength and cost are measured in benchmarks/players.py."""

import random

import attrs
import pytest

from crisis.content.yamlfile import ContentError
from crisis.content.loader import load_content
from crisis.interpreter.players.registry import RandomBot
from crisis.interpreter.engine.game import Game
from crisis.interpreter.players.heuristic import HeuristicBot, judge_for
from crisis.interpreter.players.sample import deal_again, hidden_places
from crisis.interpreter.players.search import SearchBot
from crisis.content.bots import Budget

from helpers import assert_same_choice_on_twins, copy_content
from crisis.interpreter.engine.program import program_of

BOTS = {"heuristic": lambda seed, side: HeuristicBot(seed, side),
        "search": lambda seed, side: SearchBot(seed, side, Budget(iterations=3))}


def game_at(content, seed: int, kind: str, round_: int = 2) -> Game:
    """A random game stopped at a decision of ``kind`` in round ``round_`` or later."""
    game = Game.of(content, seed, log=False)
    bots = [RandomBot(seed, 0), RandomBot(seed, 1)]
    while game.decision is not None:
        if game.decision.kind == kind and game.view.counter("round") >= round_:
            return game
        game.apply(bots[game.decision.player].choose(game, game.decision))
    raise AssertionError(f"no {kind} decision in round {round_} for seed {seed}")


def twins(content, seed: int, kind: str, round_: int = 2):
    """The game at a decision, and the same game with the cards the chooser cannot see swapped
    around: the other side's hand and objective with cards of the decks, the decks reordered,
    and the game's own generator reseeded."""
    game = game_at(content, seed, kind, round_)
    me = game.decision.player
    other = 1 - me
    position = game.position.copy()
    twin = Game(game.program, game.seed, game.options, position=position, log=False, content=content)
    view = twin.view
    hand, deck = view.pile("hand", other), view.pile("strategy deck")
    for i in range(min(len(hand), len(deck))):
        hand[i], deck[-1 - i] = deck[-1 - i], hand[i]
    random.Random(5).shuffle(deck)
    kept, objectives = view.pile("objective", other), view.pile("objective deck")
    if kept and objectives:
        kept[0], objectives[0] = objectives[0], kept[0]
    random.Random(6).shuffle(objectives)
    position.rng.seed(12345)
    original = Game(game.program, game.seed, game.options, position=game.position.copy(), log=False,
                    content=content)
    original.actions_taken = twin.actions_taken = game.actions_taken
    assert sorted(view.pile("hand", other)) != sorted(original.view.pile("hand", other)) or \
        view.pile("strategy deck") != original.view.pile("strategy deck")
    return original, twin


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("seed,kind,round_", [(11, "play_card", 2), (5, "play_card", 3),
                                              (7, "keep_objective", 2), (3, "order", 3)])
def test_the_cards_a_side_cannot_see_do_not_change_its_choice(content, name, seed, kind, round_):
    original, twin = twins(content, seed, kind, round_)
    me = original.decision.player
    assert_same_choice_on_twins(lambda: BOTS[name](original.seed, me), original, twin)


def test_the_twins_would_catch_a_bot_that_peeks(content):
    """A choice read off the other side's hand differs on the twins: the test above can fail."""
    def peeking(game):
        other = 1 - game.decision.player
        return game.decision.actions[sum(game.view.pile("hand", other)) % len(game.decision.actions)]
    differs = 0
    for seed in (11, 5, 21, 8, 13):
        original, twin = twins(content, seed, "play_card")
        differs += peeking(original).text != peeking(twin).text
    assert differs


def test_a_deal_keeps_what_the_side_sees_and_deals_the_rest_again(content):
    game = game_at(content, 11, "play_card")
    me, other = game.decision.player, 1 - game.decision.player
    dealt = deal_again(game.program, game.position, me, random.Random(3))
    view, before = Game(game.program, position=dealt, log=False).view, game.view
    assert view.pile("hand", me) == before.pile("hand", me)
    assert view.pile("discard pile") == before.pile("discard pile")
    assert len(view.pile("hand", other)) == len(before.pile("hand", other))
    hidden = lambda v: sorted(v.pile("hand", other) + v.pile("strategy deck") + v.pile("set aside", other))
    assert hidden(view) == hidden(before)
    assert (view.pile("hand", other), view.pile("strategy deck")) != (before.pile("hand", other),
                                                                      before.pile("strategy deck"))
    # the other side sees nothing of this side's hand either
    assert any(index == game.program.layout.pile(game.program.pile_number["hand"], me)
               for index, _ in hidden_places(game.program, game.position, other))


@pytest.mark.parametrize("name", sorted(BOTS))
def test_the_same_seed_plays_the_same_game(content, name):
    histories = []
    for _ in range(2):
        game = Game.of(content, 17, log=False)
        bots = [BOTS[name](17, 0), RandomBot(17, 1)]
        while game.decision is not None:
            game.apply(bots[game.decision.player].choose(game, game.decision))
        histories.append(list(game.history))
    assert histories[0] == histories[1]


def test_the_heuristic_beats_a_random_player_on_each_side(content):
    wins = [0, 0]
    for seed in range(1, 7):
        for side in (0, 1):
            game = Game.of(content, seed, log=False)
            bots = [None, None]
            bots[side], bots[1 - side] = HeuristicBot(seed, side), RandomBot(seed, 1 - side)
            while game.decision is not None:
                game.apply(bots[game.decision.player].choose(game, game.decision))
            wins[side] += game.view.winner == side
    assert wins[0] >= 5 and wins[1] >= 5


def test_a_token_step_that_gains_control_is_judged_better(content):
    """The evaluation prefers the step that takes a space to one that adds to a space held."""
    game = game_at(content, 2, "place", 1)
    judge = judge_for(game.program)
    board = game.machine.board
    me = game.decision.player
    before = judge.value(board, me, quick=True)
    values = board.values
    layout = game.program.layout
    place = next(p for p in range(layout.places) if values[layout.tokens_of(me) + p] ==
                 values[layout.tokens_of(1 - me) + p])
    values[layout.tokens_of(me) + place] += 1
    assert judge.value(board, me, quick=True) > before


@pytest.mark.parametrize("table", [True, False], ids=["worth-table", "summed"])
def test_a_token_step_is_judged_as_the_whole_position_would_be(content, table, monkeypatch):
    """Token steps are judged only where they change the position (the places and groups they
    touch, the terms that read what they change); every step gets the value the whole position
    gets after it, less before it, and the position is left as it was.  Both ways of working out
    a place's worth: read off a table by the lead, and (for leads capped too high for a table)
    summed at the place."""
    from crisis.interpreter.players import evaluation
    from crisis.interpreter.players.heuristic import STEPS, Judge
    from crisis.interpreter.players.sim import Sim
    if not table:
        monkeypatch.setattr(evaluation, "_WORTH_ROWS_BOUND", 0)
    program = program_of(content)
    judge = Judge(program, program.definition.evaluation)  # its own plans, made under this setting
    evaluator = judge.evaluator
    made = evaluator._step_plan(program.layout, 0, True, frozenset())
    assert (made.worth_rows is not None) == table
    checked = 0
    for seed in (3, 4):
        game = Game.of(content, seed, log=False)
        bots = [RandomBot(seed, 0), RandomBot(seed, 1)]
        while game.decision is not None:
            decision = game.decision
            if decision.kind in STEPS and len(decision.actions) > 1:
                board = Sim.of(game).board
                owner = decision.owner if decision.owner >= 0 else decision.player
                steps = evaluator.steps_under_way(board.position)
                before = list(board.values)
                for quick in (True, False):
                    for side in (0, 1):
                        fast = evaluator.step_judge(board, side, quick, steps, owner)
                        base = judge.value(board, side, quick, steps)
                        for action in decision.actions:
                            change = fast(action)
                            assert board.values == before
                            if action.kind in STEPS:
                                board.take(action.side if action.side >= 0 else owner, action.a)
                                board.put(action.side if action.side >= 0 else owner, action.b)
                                whole = judge.value(board, side, quick, steps) - base
                                board.values[:] = before
                            else:
                                whole = 0.0
                            assert change == pytest.approx(whole, abs=1e-9), (seed, action.text, side, quick)
                            checked += 1
            game.apply(bots[decision.player].choose(game, decision))
    assert checked > 1000


def test_a_projected_score_is_what_carrying_the_procedure_out_would_give(content):
    """'project: final scoring' is worked out from its lines (gains, some under a test) without
    carrying them out on a copy of the position, by closures or by generated code: the same VP,
    for each side, all game long."""
    from crisis.interpreter.engine.codegen_terms import terms_module
    from crisis.interpreter.engine.native import load
    from crisis.interpreter.players.evaluation import Evaluator
    from crisis.interpreter.players.sim import Sim
    program = program_of(content)
    evaluator = Evaluator(program, program.definition.evaluation)
    index = program.procedure_names.index("final scoring")
    rules = [rule for _, rule in program.procedure_lines[index]]
    found = evaluator._linear_projection(rules)
    assert found is not None
    worked_out, gains = found
    # and written out as Python (interpreter/engine/codegen_terms.py): the side's own VP
    source, constants, _ = terms_module(program, [attrs.evolve(gains, difference=False)])
    written_out = load(source, constants)["ENTRY"][0]
    evaluator._linear_projection = lambda rules: None  # now the projection carries the lines out
    carried_out, _ = evaluator._projection("final scoring")
    seen = set()
    for seed in (5, 6):
        game = Game.of(content, seed, log=False)
        bots = [RandomBot(seed, 0), RandomBot(seed, 1)]
        while game.decision is not None:
            board = Sim.of(game).board
            for side in (0, 1):
                gained = carried_out(board, side)
                assert worked_out(board, side) == gained == written_out(board, side)
                seen.add(gained)
            game.apply(bots[game.decision.player].choose(game, game.decision))
    assert len(seen) > 2


def test_card_plays_that_do_the_same_are_tried_once(content):
    """Playing a card for its value does the same whichever card of that value it is: the
    judge groups such plays (never events, which differ card by card) and tries each group
    once, the others judged on the position with the cards swapped."""
    from crisis.interpreter.players.sim import Sim
    judge = judge_for(program_of(content))
    game = game_at(content, 11, "play_card", 2)
    values = program_of(content).cards[program_of(content).played_kind]
    groups = {}
    for action in game.decision.actions:
        key = judge.alike(action)
        if action.kind == "value":
            assert key is not None
            groups.setdefault(key, []).append(action)
        else:
            assert key is None or key not in groups
    assert any(len(group) > 1 for group in groups.values())
    for group in groups.values():
        assert len({values.fields[0][action.a] for action in group}) == 1
    forks = []
    fork = Sim.fork
    root = Sim.of(game)

    def counting(sim, *args, **kwargs):
        forks.append(sim is root)
        return fork(sim, *args, **kwargs)
    Sim.fork = counting
    try:
        judged = judge.trials(root, random.Random(1), 1)
    finally:
        Sim.fork = fork
    assert sum(forks) == len(game.decision.actions) - sum(len(g) - 1 for g in groups.values())
    by_text = {action.text: value for action, value, _ in judged}
    for group in groups.values():
        assert len({by_text[action.text] for action in group}) == 1


def test_the_search_tries_every_card_of_an_order_it_plays_no_games_for(content):
    """With 'order_playouts: 0' the cards of an order are judged by the search's own iterations:
    each card is tried before any is tried twice, and the most tried is played."""
    import attrs
    from crisis.interpreter.players.search import Search
    game = game_at(content, 3, "order", 3)
    cards = len(game.decision.actions)
    settings = attrs.evolve(content.bots.search, order_playouts=0, decisions=("order",),
                            budget=Budget(iterations=cards + 1))
    search = Search(judge_for(game.program), settings, game.decision.player, random.Random(4))
    chosen = search.run(game)
    visits = sorted(edge.visits for edge in search.root.edges.values())
    assert len(visits) == cards and visits[0] >= 1 and sum(visits) == cards + 1
    assert search.root.edges[chosen.text].visits == visits[-1]


@pytest.mark.parametrize("term, message, line", [
    ("your treasure: 1.0", "unknown word 'treasure'", 2),
    ("dimensions you control:\n    weight: 0.3\n    during: [card plays]", "unknown step 'card plays'", 4),
    ("final scoring:\n    project: final scorin\n    weight: 0.7", "unknown procedure 'final scorin'", 3),
])
def test_a_wrong_term_is_refused_at_its_place(tmp_path, term, message, line):
    root = copy_content(tmp_path)
    (root / "bots" / "evaluation.yaml").write_text(f"terms:\n  {term}\nwin: 20\n", encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_content(root)
    found = [d for d in caught.value.diagnostics if message in d.message]
    assert found, [d.message for d in caught.value.diagnostics]
    assert found[0].path.endswith("evaluation.yaml") and found[0].line == line
