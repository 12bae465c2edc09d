"""Rules written out as Python (interpreter/engine/codegen.py) play the same games, and the
generated source holds nothing content could have put there (docs/limits.md)."""

import os
import shutil
from pathlib import Path

import pytest

from crisis.content.loader import read_game
from crisis.interpreter.players.registry import RandomBot
from crisis.interpreter.engine.board import Board
from crisis.interpreter.engine.game import play_game
from crisis.interpreter.engine.native import generate, native
from crisis.interpreter.engine.ops import Ctx
from crisis.interpreter.engine.program import GameProgram, program_of
from crisis.interpreter.engine.verify import UnsafeSource, verify


THREE_CROWNS = Path(__file__).parent / "data" / "three-crowns"


def played(program, seed, generated: bool):
    previous = os.environ.get("CRISIS_INTERPRET")
    os.environ["CRISIS_INTERPRET"] = "0" if generated else "1"
    try:
        bots = [RandomBot(seed, side).pick for side in range(len(program.schema.sides))]
        decisions = []

        def choose(decision):
            origin = decision.origin
            decisions.append((decision.player, decision.kind, [a.text for a in decision.actions], decision.optional,
                              decision.remaining, decision.hidden, decision.owner, decision.on_behalf,
                              None if origin is None else (origin[0].id, tuple(origin[1]))))
            return decision.actions[bots[decision.player](len(decision.actions))]
        position, _ = play_game(program, seed, choose, frozenset({"event_discard"}) if seed % 2 else frozenset())
        return (decisions, list(position.values), [list(p) for p in position.piles], position.plays,
                position.breakdown, native(program) is not None)
    finally:
        if previous is None:
            del os.environ["CRISIS_INTERPRET"]
        else:
            os.environ["CRISIS_INTERPRET"] = previous


@pytest.mark.parametrize("seed", [1, 2, 3, 17, 99, 1234, 65537])
def test_generated_rules_play_the_same_games_as_the_operations(content, seed):
    generated, interpreted = played(program_of(content), seed, True), played(program_of(content), seed, False)
    assert generated[-1] and not interpreted[-1]  # each way was the one played
    assert generated[:-1] == interpreted[:-1]


@pytest.fixture(scope="module")
def three_crowns():
    return GameProgram(read_game(THREE_CROWNS))


@pytest.mark.parametrize("seed", range(1, 13))
def test_a_game_of_three_sides_plays_the_same_generated(three_crowns, seed):
    """Three Crowns (tests/data/three-crowns) has no "opponent" and three sides to a place's control:
    the generated rules take the general ways, and still play the same games."""
    generated, interpreted = played(three_crowns, seed, True), played(three_crowns, seed, False)
    assert generated[-1] and not interpreted[-1]
    assert generated[:-1] == interpreted[:-1]


@pytest.mark.parametrize("seed", range(1, 7))
def test_a_way_of_playing_offered_by_the_position_plays_the_same_generated(tmp_path, seed):
    """A use whose 'if' reads the position (not only whose card it is) is listed by the play
    itself; its generated form once read an attribute the check refuses, and sim stopped with a
    traceback while play ran it."""
    folder = tmp_path / "three-crowns"
    shutil.copytree(THREE_CROWNS, folder)
    sequence = folder / "sequence.yaml"
    text = sequence.read_text(encoding="utf-8")
    limited = "    order:\n      if: the round is at least 2\n      then: carry out the event of the card\n"
    sequence.write_text(text.replace("    order:\n      then: carry out the event of the card\n", limited),
                        encoding="utf-8")
    assert limited in sequence.read_text(encoding="utf-8")
    program = GameProgram(read_game(folder))
    generated, interpreted = played(program, seed, True), played(program, seed, False)
    assert generated[-1] and not interpreted[-1]
    assert generated[:-1] == interpreted[:-1]
    uses = [play[2] for play in generated[3]]
    assert 0 in uses and 1 in uses  # both ways of playing were taken


@pytest.mark.parametrize("seed", range(1, 9))
def test_a_turn_whose_first_statement_may_do_nothing_is_still_taken_generated(tmp_path, seed):
    """Players alternating skip a player only when no statement of the turn can act (C24): a
    Skirmish whose turn opens with a draw, which does nothing once the deck is out, plays the same
    games generated as by the operations (the generated loop tested only the first statement)."""
    folder = tmp_path / "skirmish"
    shutil.copytree(Path(__file__).parent / "data" / "skirmish", folder)
    sequence = folder / "sequence.yaml"
    text = sequence.read_text(encoding="utf-8")
    opened = text.replace("          draw 1 card from your deck into your hand\n", "", 1).replace(
        "        step turn:\n", "        draw 1 card from your deck into your hand\n        step turn:\n", 1)
    assert opened.count("draw 1 card from your deck into your hand") == text.count(
        "draw 1 card from your deck into your hand")
    sequence.write_text(opened, encoding="utf-8")
    program = GameProgram(read_game(folder))
    generated, interpreted = played(program, seed, True), played(program, seed, False)
    assert generated[-1] and not interpreted[-1]
    assert generated[:-1] == interpreted[:-1]


def test_the_main_sequence_runs_generated_only_from_the_context_a_game_starts_in(content):
    """The main function is written for the root context; any other is played by the operations."""
    program = program_of(content)
    generated = generate(program)
    board = Board(program, program.initial_position(1))
    assert generated.play(program.main, board, Ctx(1), lambda decision: decision.actions[0]) is False
    assert board.values == program.initial_position(1).values  # nothing was run


def test_no_text_of_the_content_reaches_the_generated_source(content):
    native = generate(program_of(content))
    source = native.source
    for card_id in program_of(content).cards[0].ids + program_of(content).cards[1].ids:
        assert card_id not in source
    for name in program_of(content).schema.map.places + program_of(content).schema.sides:
        assert name not in source
    assert "'" not in source and '"' not in source  # no string at all
    verify(source)  # what was compiled passes the check


@pytest.mark.parametrize("smuggled", [
    "x = 'text'",                       # a string
    "import os",                        # an import
    "def f1(board, ctx, choose):\n    board.__class__",  # an attribute not written by the generator
    "def f1(board, ctx, choose):\n    open(1)",           # a name that is not generated
    "def f1(board, ctx, choose):\n    return (lambda: 1)()",
    "f1 = 10 ** 20",                    # an integer out of range
])
def test_the_check_refuses_what_the_generator_never_writes(smuggled):
    with pytest.raises(UnsafeSource):
        verify(smuggled)


# ------------------------------------------------------------------ the evaluation's rules


def evaluators(program):
    """The content's evaluation compiled twice: with its rule terms written out, and with the
    closures alone (CRISIS_INTERPRET=1)."""
    from crisis.interpreter.players.evaluation import Evaluator
    previous = os.environ.get("CRISIS_INTERPRET")
    try:
        os.environ["CRISIS_INTERPRET"] = "0"
        written = Evaluator(program, program.definition.evaluation)
        os.environ["CRISIS_INTERPRET"] = "1"
        closures = Evaluator(program, program.definition.evaluation)
    finally:
        if previous is None:
            del os.environ["CRISIS_INTERPRET"]
        else:
            os.environ["CRISIS_INTERPRET"] = previous
    return written, closures


CIVIL_WAR = Path(__file__).parent.parent / "content" / "civil-war-card-game"


@pytest.mark.parametrize("game, seeds, at_least", [(None, range(1, 9), 3), (CIVIL_WAR, range(1, 5), 1)])
def test_the_evaluation_judges_the_same_with_its_rules_written_out(content, game, seeds, at_least):
    """A bot judges positions by terms some of which are the rules' own words ("you control your
    objective space", "project: final scoring"); written out as Python they give each side the
    same worth as the closures, all game long, for every term; and so does the weighted sum of
    the terms, written out as one function (Fort Sumter) or left a loop (the Civil War Card
    Game, whose terms count cards in play)."""
    from crisis.interpreter.engine.game import Game
    program = program_of(content) if game is None else GameProgram(read_game(game))
    written, closures = evaluators(program)
    generated = sum(a.difference is not b.difference for a, b in zip(written.terms, closures.terms))
    assert generated >= at_least  # Fort Sumter: both objective terms and the final scoring
    sides = range(len(program.schema.sides))
    judged = set()
    for seed in seeds:
        game = Game(program, seed, log=False)
        bots = [RandomBot(seed, side) for side in sides]
        while game.decision is not None:
            board = Board(program, game.position)
            for side in sides:
                worth = [term.difference(board, side) for term in written.terms]
                assert worth == [term.difference(board, side) for term in closures.terms], (seed, side)
                judged.add(tuple(worth))
                for quick in (False, True):  # the weighted sum too, to the last bit
                    assert repr(written.value(board, side, quick)) == repr(closures.value(board, side, quick))
            game.apply(bots[game.decision.player].choose(game, game.decision))
    assert len(judged) > 20  # positions that differ were judged, not one position again and again


def test_no_text_of_the_content_reaches_the_evaluation_s_generated_source(content):
    from crisis.interpreter.engine.codegen_terms import terms_module
    program = program_of(content)
    evaluation = program.definition.evaluation
    written, _ = evaluators(program)
    rules = [written._compile(term)[1] for term in evaluation.terms if term.kind in ("condition", "project")]
    source, _, names = terms_module(program, rules)
    assert len(names) == len(rules) == 3  # both objective terms and the final scoring
    assert "'" not in source and '"' not in source  # no string at all
    texts = tuple(program.schema.map.places) + tuple(program.schema.sides) + tuple(t.text for t in evaluation.terms)
    for text in texts:
        assert text not in source
    verify(source)  # what is compiled passes the check


def test_a_name_that_reads_like_python_reaches_neither_generated_module(tmp_path, content_dir):
    """Names are the content's (untrusted) text: a space named "Exec Import-Os" is an index in
    the rules' module and in the evaluation's (its terms, its weighted sum), never text of any."""
    from crisis.content.loader import load_content
    from crisis.interpreter.engine.codegen_terms import WeightedSum, terms_module
    from crisis.interpreter.players.evaluation import Evaluator
    folder = tmp_path / "fort-sumter"
    shutil.copytree(content_dir, folder)
    for path in folder.rglob("*.yaml"):
        path.write_text(path.read_text(encoding="utf-8").replace("Fort Sumter", "Exec Import-Os"), encoding="utf-8")
    program = program_of(load_content(str(folder)))
    assert "Exec Import-Os" in program.schema.map.places
    evaluator = Evaluator(program, program.definition.evaluation)
    rules = [evaluator._compile(term)[1] for term in program.definition.evaluation.terms
             if term.kind in ("condition", "project")]
    summed = WeightedSum(tuple((term.weight, term.shape, term.difference) for term in evaluator.terms))
    for source in (generate(program).source, terms_module(program, rules)[0], terms_module(program, [summed])[0]):
        assert "Exec" not in source and "Import" not in source and "Os" not in source
        verify(source)


def test_a_sum_calls_what_it_cannot_write_in_place(content):
    """A lead counted without a cap has no cap to write (the evaluation's "no cap" is 2**30, past
    the integers the generator writes): the sum calls that term, and still adds the same total."""
    from crisis.interpreter.engine.codegen_terms import WeightedSum, terms_module
    from crisis.interpreter.engine.game import Game
    from crisis.interpreter.engine.native import load
    from crisis.interpreter.players.evaluation import Evaluator
    program = program_of(content)
    evaluator = Evaluator(program, program.definition.evaluation)
    uncapped, capped = evaluator._lead_difference(0), evaluator._lead_difference(2)
    parts = ((0.45, ("lead", 1 << 30), uncapped), (0.3, ("lead", 2), capped), (1.5, None, uncapped))
    source, constants, names = terms_module(program, [WeightedSum(parts)])
    assert names and source.count("](board, ") == 2  # the uncapped lead called twice, the capped one written
    summed = load(source, constants)["ENTRY"][0]
    game, bots, totals = Game(program, 4, log=False), [RandomBot(4, 0), RandomBot(4, 1)], set()
    while game.decision is not None:
        board = Board(program, game.position)
        for side in (0, 1):
            total = 0.0
            for weight, _, difference in parts:
                total += weight * difference(board, side)
            assert repr(summed(board, side)) == repr(total)
            totals.add(total)
        game.apply(bots[game.decision.player].choose(game, game.decision))
    assert len(totals) > 5


@pytest.fixture(scope="module")
def civil_war():
    return GameProgram(read_game(CIVIL_WAR))


@pytest.mark.parametrize("seed", range(1, 9))
def test_the_civil_war_card_game_plays_the_same_generated(civil_war, seed):
    """The Civil War Card Game sets counters of the game (the damage, the battle of the turn),
    written out in place: the same games as the operations, whichever side gives battle."""
    generated, interpreted = played(civil_war, seed, True), played(civil_war, seed, False)
    assert generated[-1] and not interpreted[-1]
    assert generated[:-1] == interpreted[:-1]
