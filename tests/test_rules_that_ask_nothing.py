"""Rules that ask the player nothing (VP changes, a "first of" line that only gains VP) are
looked ahead like any other: by the heuristic bot, the search bot and the Solo Opponent
(issue 18, item 1: they stopped the game with a traceback)."""

import pytest
import yaml

from crisis.content.loader import load_content
from crisis.interpreter.engine.game import Game, Options
from crisis.interpreter.engine.machine import Machine, predict
from crisis.interpreter.engine.ops import Ctx
from crisis.interpreter.players.registry import RandomBot, controller_factory, play_out

from helpers import copy_content, replace_in, resolved
from crisis.interpreter.engine.program import program_of

FIRST_OF = "event: |\n      first of:\n        gain 1 VP\n      or:\n        place 1 in any space"
VP_OPTIONS = "event: |\n      either:\n        gain 1 VP\n      or:\n        lose 1 VP"


def content_with_events(tmp_path, events):
    """The shipped content with some cards' events replaced: {card's event line: new event}."""
    root = copy_content(tmp_path)
    for path in (root / "cards").glob("strategy-*.yaml"):
        for old, new in events.items():
            if old in path.read_text(encoding="utf-8"):
                replace_in(path, old, new)
    return load_content(root)


def vp(game, position=None):
    program = game.program
    offset = program.layout.counter[program.counter_index["VP"]]
    return (position or game.position).values[offset:offset + 2]


@pytest.mark.parametrize("rule", ["gain 1 VP", "either:\n  gain 1 VP\nor:\n  lose 1 VP",
                                  "for each player:\n  gain 1 VP"])
def test_what_a_rule_that_asks_nothing_would_do_is_predicted(content, rule):
    program = program_of(content)
    op = program.compiler.block(resolved(content.definition, rule))
    game = Game.of(content, 1, log=False)
    outcome = predict(game.machine.board, op, Ctx(0))
    assert outcome.acted and not outcome.pieces
    assert vp(game) == [0, 0]  # on a copy


def test_a_rule_that_asks_nothing_runs_to_its_end_and_one_that_asks_stops_at_its_choice(content):
    program = program_of(content)
    game = Game.of(content, 1, log=False)
    position = game.position.copy()
    machine = Machine(program, position, base=len(position.stack))
    assert machine.start(program.compiler.block(resolved(content.definition, "gain 2 VP")), Ctx(0)) is None
    assert vp(game, position) == [2, 0]
    decision = machine.start(program.compiler.block(resolved(content.definition, "place 1 in any space")), Ctx(0))
    assert decision.kind == "place" and decision.player == 0


@pytest.fixture(scope="module")
def first_of_content(tmp_path_factory):
    """Every strategy card's event a priority list whose first line only gains VP."""
    root = copy_content(tmp_path_factory.mktemp("first-of"))
    for path in (root / "cards").glob("strategy-*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for card in data["strategy_cards"]:
            if card.get("event"):
                card["event"] = "first of:\n  gain 1 VP\nor:\n  place 1 in any space"
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return load_content(root)


@pytest.mark.parametrize("bot", ["heuristic", "search:10"])
def test_bots_that_look_ahead_play_events_whose_first_line_asks_nothing(first_of_content, bot):
    game = Game.of(first_of_content, 3, log=False)
    factory = controller_factory(bot)
    play_out(game, [factory(3, 0), factory(3, 1)])
    assert game.over


def test_major_anderson_as_a_first_of_line_plays_with_the_heuristic_bot(tmp_path):
    content = content_with_events(tmp_path, {"event: place 3 in Fort Sumter": FIRST_OF})
    factory = controller_factory("heuristic")
    for seed in range(4):
        game = Game.of(content, seed, log=False)
        play_out(game, [factory(seed, 0), factory(seed, 1)])
        assert game.over


def test_the_solo_opponent_weighs_events_and_options_that_only_change_vp(tmp_path):
    content = content_with_events(tmp_path, {
        "event: place 2 in Secession spaces, at most 1 per space": "event: gain 1 VP",  # florida-secedes
        "event: place 3 in Fort Sumter": VP_OPTIONS})  # major-anderson
    for seed in range(6):
        for opponent in program_of(content).schema.sides:
            game = Game.of(content, seed, Options(solo=opponent), log=False)
            player = RandomBot(seed, 1 - game.automa.side)
            play_out(game, [player, player])
            assert game.over
