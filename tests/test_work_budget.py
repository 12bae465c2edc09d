"""The general engine's work budget (issue 18): between two decisions it counts its work, and a
rule that goes past MAX_WORK_BETWEEN_DECISIONS stops the game with one error at its statement in
its file -- never a hang, never a traceback -- in every form the engine plays: the framed form
(people's games, the solo game, the bots) and the direct form (batch play, generated or not).
No loop of the sequence of play goes round more often than the content's check assumes
(ruleset/bound.py): a loop that would stops the game the same way (docs/limits.md).

The check refuses such rules, so each test lets one through by raising the check's limits (as if
it had missed it), or by a loop that sets back what counts its passes, which no check can see."""

import time

import pytest

from crisis.cli.main import main
from crisis.content.loader import load_content
from crisis.interpreter.players.registry import RandomBot
from crisis.interpreter.engine.game import Game, Options, play_game, random_chooser
from crisis.interpreter.engine.machine import Machine
from crisis.interpreter.engine.ops import Ctx, RuleWorkError
from crisis.ruleset import limits

from helpers import copy_content, replace_in, resolved
from crisis.interpreter.engine.program import program_of

SIDES = ("Unionist", "Secessionist")


def nested(levels: int, opener: str, body: str, indent: str) -> str:
    lines = [indent + "  " * level + opener + ":" for level in range(levels)]
    return "\n".join(lines + [indent + "  " * levels + body])


def content_with(tmp_path, old: str, new: str, file: str = "sequence.yaml"):
    root = copy_content(tmp_path)
    replace_in(root / file, old, new)
    return root, load_content(root)


@pytest.fixture(scope="module")
def runaway(tmp_path_factory):
    """A scoring procedure that runs 2^30 times, accepted as if the check had missed it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(limits, "MAX_RULE_WORK", 10 ** 12)
        patch.setattr(limits, "MAX_GAME_WORK", 10 ** 15)
        return content_with(tmp_path_factory.mktemp("runaway"),
                            "  dimension scoring: gain 1 VP for each dimension you control",
                            "  dimension scoring: |\n" + nested(30, "for each player", "gain 1 VP", "    "))


@pytest.fixture
def budget(monkeypatch):
    monkeypatch.setattr(limits, "MAX_WORK_BETWEEN_DECISIONS", 20_000)
    return 20_000


def framed(content, seed: int, solo=None) -> Game:
    """A whole game on the engine's Game (the framed form), random players."""
    game = Game(program_of(content), seed, Options(solo=solo), log=False, content=content)
    bots = [RandomBot(seed, 0), RandomBot(seed, 1)]
    while game.decision is not None:
        game.apply(bots[game.decision.player].choose(game, game.decision))
    return game


def direct(content, seed: int, solo=None, generated: bool = True, monkeypatch=None):
    """A whole game in the direct form (batch play): generated code, or the operations' own."""
    monkeypatch.setenv("CRISIS_INTERPRET", "0" if generated else "1")
    return play_game(program_of(content), seed, random_chooser([RandomBot(seed, 0).rng, RandomBot(seed, 1).rng]),
                     solo=solo)


def stopped(play):
    started = time.perf_counter()
    with pytest.raises(RuleWorkError) as caught:
        play()
    assert time.perf_counter() - started < 30
    (d,) = caught.value.diagnostics
    return d


def at(d) -> tuple:
    return d.path, d.line, d.column


def written(d) -> str:
    """The text at the diagnostic's place in its file."""
    return open(d.path, encoding="utf-8").read().splitlines()[d.line - 1][d.column - 1:]


# ------------------------------------------------------------------ the budget


def test_a_rule_past_the_budget_stops_the_game_at_its_statement(runaway, budget):
    root, content = runaway
    d = stopped(lambda: framed(content, 1))
    assert d.path == str(root / "sequence.yaml") and written(d).startswith("for each player:")
    assert d.message == ("the rule did more than 20,000 steps of work without a decision, "
                         "so the game stops here")
    assert "dimension scoring" in d.label and "please report it" in d.hint


@pytest.mark.parametrize("generated", [True, False], ids=["generated", "operations"])
def test_the_direct_form_stops_at_the_same_statement(runaway, budget, monkeypatch, generated):
    _, content = runaway
    expected = at(stopped(lambda: framed(content, 1)))
    assert at(stopped(lambda: direct(content, 1, generated=generated, monkeypatch=monkeypatch))) == expected


@pytest.mark.parametrize("side", SIDES)
def test_the_solo_game_stops_at_the_same_statement(runaway, budget, monkeypatch, side):
    _, content = runaway
    d = stopped(lambda: framed(content, 2, solo=side))
    assert written(d).startswith("for each player:")
    assert at(stopped(lambda: direct(content, 2, solo=side, monkeypatch=monkeypatch))) == at(d)


@pytest.mark.parametrize("extra", [[], ["--solo"], ["--bot", "union=heuristic"]], ids=["random", "solo", "heuristic"])
def test_the_commands_report_it_in_one_located_error(runaway, budget, capsys, monkeypatch, extra):
    root, _ = runaway
    monkeypatch.setattr(limits, "MAX_RULE_WORK", 10 ** 12)  # the command checks the content again
    monkeypatch.setattr(limits, "MAX_GAME_WORK", 10 ** 15)
    assert main(["sim", "--content", str(root), "--games", "2", "--jobs", "1"] + extra) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("error:") == 1
    assert f"{root / 'sequence.yaml'}:" in err and "20,000 steps of work without a decision" in err


def test_the_budget_starts_again_at_each_decision(content, monkeypatch):
    # the shipped game's work between two decisions: a few hundred steps at most (the solo game's
    # automa looking ahead at options, about 500); a whole solo game does more than twice that
    from crisis.interpreter.engine import machine
    monkeypatch.setattr(limits, "MAX_WORK_BETWEEN_DECISIONS", 700)
    between = []
    monkeypatch.setattr(machine, "decided", lambda board: between.append(700 - board.meter[0]) or
                        board.meter.__setitem__(0, 700))
    totals = []
    for seed in range(1, 6):
        for side in SIDES:
            between.clear()
            assert framed(content, seed, solo=side).over
            totals.append(sum(between))
            direct(content, seed, solo=side, monkeypatch=monkeypatch)
        assert framed(content, seed).over
        for generated in (True, False):
            direct(content, seed, generated=generated, monkeypatch=monkeypatch)
    assert max(totals) > 2 * 700


def test_a_goals_search_counts_every_position_it_looks_at(tmp_path, monkeypatch):
    content = load_content(copy_content(tmp_path))
    program = program_of(content)
    goal = program.compiler.block(resolved(content.definition, "so that you gain control of Political:\n"
                                                                "  move 8 tokens of either side within any spaces"))
    game = Game.of(content, 1, log=False)
    bots = [RandomBot(1, 0), RandomBot(1, 1)]
    for _ in range(40):  # tokens on the map to search the moves of
        game.apply(bots[game.decision.player].choose(game, game.decision))
    monkeypatch.setattr(limits, "MAX_WORK_BETWEEN_DECISIONS", 10_000)
    position = game.position.copy()
    d = stopped(lambda: Machine(program, position, base=len(position.stack)).start(goal, Ctx(0)))
    assert d.message == "a rule: the rule did more than 10,000 steps of work without a decision, so the game stops here"


# ------------------------------------------------------------------ loops


LOOPS = {
    # 'for each round' whose rounds set the round back: rounds 1, 2, 3 and a fourth would start
    "for each counter": ("    step round end:\n", "    step round end:\n      set the round to 1\n",
                         "for each round:", "this loop went round 3 times, once for each value round can have, "
                                            "and would go round again (something in it sets round back)"),
    # 'repeat while' whose condition never stops holding
    "repeat while": ("      add 1 to the final crisis step\n", "",
                     "repeat while", "this loop went round 1,000 times, the most a 'repeat while' may, "
                                     "and its condition still holds"),
    # players alternating whose turns set the count of turns back: 3 each, and a seventh would start
    "players alternate": ("          play a card from your hand\n",
                          "          play a card from your hand\n          set each player's played cards to 0\n",
                          "players alternate", "the players took 6 turns, 3 each, and would take another "
                                               "(something in the turns sets played cards back)"),
}


@pytest.fixture(scope="module", params=sorted(LOOPS))
def looping(request, tmp_path_factory):
    old, new, word, message = LOOPS[request.param]
    root, content = content_with(tmp_path_factory.mktemp("loop"), old, new)
    return content, word, message


def test_a_loop_goes_round_no_more_than_its_bound(looping, monkeypatch):
    content, word, message = looping
    seed = next(s for s in range(1, 40) if _ends_in_error(content, s))  # the final crisis may end play first
    d = stopped(lambda: framed(content, seed))
    assert written(d).startswith(word) and d.path.endswith("sequence.yaml")
    assert d.message == message + ", so the game stops here"
    for generated in (True, False):
        assert at(stopped(lambda: direct(content, seed, generated=generated, monkeypatch=monkeypatch))) == at(d)
    for side in SIDES:
        try:
            framed(content, seed, solo=side)
        except RuleWorkError as error:
            assert error.diagnostics[0].message == d.message


def _ends_in_error(content, seed) -> bool:
    try:
        framed(content, seed)
    except RuleWorkError:
        return True
    return False
