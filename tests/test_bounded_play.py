"""What `crisis check` accepts can be played to the end: every effect's work is
bounded when content is loaded, and a whole game stays under a bound computed
from the content (docs/limits.md).  `crisis play --check` checks the rules'
invariants after every action."""

import io
import json
import sys

import pytest
import yaml

from crisis.cli.main import main
from crisis.content.loader import load_content
from crisis.content.yamlfile import ContentError
from crisis.interpreter.engine.game import Game
from crisis.interpreter.players.registry import RandomBot
from crisis.ruleset import limits
from crisis.ruleset.bound import RuleBound
from crisis.interpreter.engine.program import program_of

from helpers import copy_content, resolved


def nested_for_each(levels, statement):
    return "\n".join("  " * i + "for each player:" for i in range(levels)) + "\n" + "  " * levels + statement


# Rules as heavy as the limit on one effect allows, each accepted by `crisis check`.
HEAVY = [
    nested_for_each(8, "place 3 in any space"),  # 2^8 x 3 = 768 decisions at most
    "move 25 tokens of either side from any space to any space",  # moves can go round in circles
    "either:\n  place 4 in each space\nor:\n  remove all tokens of either side from any space",
]


def bound_of(content) -> RuleBound:
    """The content's work bounds (ruleset/bound.py), every rule costed as the loader costs it."""
    bound = RuleBound(content.definition, {})
    edges = bound.graph()
    for unit in bound.topological(edges):
        bound.done[unit] = bound.cost_unit(unit)
    return bound


def decisions_asked(content, text: str) -> int:
    """At most how many decisions one run of a rule asks for."""
    return bound_of(content).asks(resolved(content.definition, text))


def game_decisions(content) -> int:
    """At most how many decisions a whole game asks for: its set-up and its sequence of play, every
    loop at its most passes."""
    bound, definition = bound_of(content), content.definition
    return bound.asks(definition.setup) + bound.asks(definition.play)


def test_the_decisions_of_an_effect_double_with_each_for_each_player(content):
    assert decisions_asked(content, nested_for_each(1, "place 1 in any space")) == 2
    assert decisions_asked(content, HEAVY[0]) == 768
    assert decisions_asked(content, nested_for_each(9, "place 2 in any space")) == 1024 > limits.MAX_EFFECT_DECISIONS
    assert decisions_asked(content, HEAVY[2]) == 1 + max(4 * 12, 2 * 25)


@pytest.fixture(scope="module")
def heavy_content(tmp_path_factory):
    root = copy_content(tmp_path_factory.mktemp("heavy"))
    n = 0
    for path in sorted((root / "cards").glob("strategy-*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for card in data["strategy_cards"]:
            if card.get("event"):
                card["event"] = HEAVY[n % len(HEAVY)]
                n += 1
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return load_content(root)  # what `crisis check` does: it must accept all of it


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_game_on_the_heaviest_accepted_rules_ends_within_its_bound(heavy_content, seed):
    bound = game_decisions(heavy_content)
    assert bound < 1_000_000
    game = Game.of(heavy_content, seed, log=False)
    bots = [RandomBot(seed, 0), RandomBot(seed, 1)]
    decisions = 0
    while not game.over and decisions <= bound:
        decision = game.decision
        game.apply(bots[decision.player].choose(game, decision))
        decisions += 1
    assert game.over and decisions <= bound


def test_the_shipped_game_stays_well_within_its_bound(content):
    bound = game_decisions(content)
    for seed in range(20):
        game = Game.of(content, seed, log=False)
        bots = [RandomBot(seed, 0), RandomBot(seed, 1)]
        decisions = 0
        while not game.over:
            decision = game.decision
            game.apply(bots[decision.player].choose(game, decision))
            decisions += 1
        assert decisions <= bound


def test_one_level_more_is_refused_where_it_is_written(tmp_path):
    root = copy_content(tmp_path)
    path = root / "cards" / "strategy-both.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["strategy_cards"][0]["event"] = nested_for_each(9, "place 3 in any space")
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_content(root)
    (d,) = caught.value.diagnostics
    assert d.message == "this rule can ask for up to 1,536 decisions in one run; the limit is 1,000"
    assert d.source_line[d.column - 1:].startswith('for each player:\\n')  # in the double-quoted YAML text


# ------------------------------------------------------------ crisis play --check


def test_play_check_plays_a_whole_game(capsys):
    assert main(["play", "--bots", "--check", "--seed", "4"]) == 0
    assert "wins" in capsys.readouterr().out


def break_the_rules_at(monkeypatch, n):
    """An engine bug from action n on: VP change without a rule that logs it (in the engine the
    play session runs)."""
    from crisis.interpreter.engine.game import Game as EngineGame
    real_apply = EngineGame.apply

    def apply(game, action):
        chosen = real_apply(game, action)
        if len(game.history) >= n:
            program = game.program
            vp = next(i for i, counter in enumerate(program.schema.counters) if counter.name == "VP")
            game.position.values[program.layout.counter[vp]] += 1  # the first side's VP
        return chosen
    monkeypatch.setattr(EngineGame, "apply", apply)


def test_play_check_stops_at_the_first_broken_rule(monkeypatch, capsys):
    break_the_rules_at(monkeypatch, 10)
    assert main(["play", "--bots", "--check", "--seed", "4"]) == 1
    err = capsys.readouterr().err
    assert "after action 10 (" in err and "the rules were broken" in err and "Unionist VP went from" in err


def test_without_check_the_same_bug_goes_unnoticed(monkeypatch, capsys):
    break_the_rules_at(monkeypatch, 10)
    assert main(["play", "--bots", "--seed", "4"]) == 0


def test_interactive_play_check_reports_and_keeps_the_game(monkeypatch, capsys, tmp_path):
    save = tmp_path / "game.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 40))
    break_the_rules_at(monkeypatch, 6)
    code = main(["play", "--vs", "bot", "--check", "--seed", "5", "--save", str(save), "--no-color"])
    assert code == 1
    assert "the rules were broken" in capsys.readouterr().err
    assert len(json.loads(save.read_text(encoding="utf-8"))["actions"]) == 6  # saved up to the action that broke them


def test_interactive_play_check_plays_through(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 600))
    code = main(["play", "--vs", "bot", "--check", "--seed", "5", "--save", str(tmp_path / "g.json"), "--no-color"])
    assert code == 0, capsys.readouterr().err


def test_loading_content_after_content_does_not_grow_the_process(content):
    """Each content's compiled program (and its generated code) goes with the content."""
    import gc
    import weakref

    from crisis.interpreter.engine.game import play_game, random_chooser
    programs = []
    for seed in range(6):
        loaded = load_content()
        Game.of(loaded, seed, log=False)
        play_game(program_of(loaded), seed, random_chooser([RandomBot(seed, 0).rng, RandomBot(seed, 1).rng]))
        programs.append(weakref.ref(program_of(loaded)))
        del loaded
    gc.collect()
    assert sum(program() is not None for program in programs) <= 1
