"""What one run of a rule can cost the engine is bounded when content is checked
(ruleset/bound.py, docs/limits.md; tests/test_rule_bound.py costs each construct), and
a runtime budget backs the bound up: content that `crisis check` accepts never hangs a
game (issue 18, item 2).  The budget in each form the engine plays: tests/test_work_budget.py."""

import re
import time

import pytest
import yaml

from crisis.cli.main import main
from crisis.content.loader import load_content
from crisis.content.yamlfile import ContentError
from crisis.interpreter.engine.game import Game
from crisis.interpreter.players.registry import controller_factory, play_out
from crisis.ruleset import limits

from helpers import copy_content, replace_in


def nested(levels, opener, body, sibling=None):
    """``levels`` blocks each inside the one before (``opener:``), ``body`` innermost; with ``sibling``,
    each level's block is followed by an ``or:`` holding it (so every level offers two options)."""
    lines, indent = [], ""
    for _ in range(levels):
        lines.append(indent + opener + ":")
        indent += "  "
    lines.append(indent + body)
    if sibling is not None:
        for level in reversed(range(levels)):
            lines += ["  " * level + "or:", "  " * (level + 1) + sibling]
    return "\n".join(lines)


def first_of_chain(levels):
    """A priority list whose first line is another priority list, ``levels`` deep."""
    lines, indent = [], ""
    for _ in range(levels):
        lines.append(indent + "first of:")
        indent += "  "
    lines.append(indent + "place 1 in any space")
    for level in reversed(range(levels)):
        lines += ["  " * level + "or:", "  " * (level + 1) + "gain 1 VP"]
    return "\n".join(lines)


GOAL = "so that you gain control of Political:\n  move 8 tokens of either side within any spaces"


@pytest.fixture(scope="module")
def refusals(tmp_path_factory):
    """The rules of issue 18 that hung a game, each written into a copy of the content."""
    root = copy_content(tmp_path_factory.mktemp("heavy"))
    replace_in(root / "sequence.yaml", "  dimension scoring: gain 1 VP for each dimension you control",
               "  dimension scoring: |\n" + "\n".join("    " + line for line in
                                                      nested(30, "for each player", "gain 1 VP").splitlines()))
    path = root / "cards" / "strategy-both.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    events = [card for card in data["strategy_cards"] if card.get("event")]
    events[0]["event"] = first_of_chain(24)
    events[1]["event"] = GOAL
    events[2]["event"] = nested(16, "either", "gain 1 VP", sibling="lose 1 VP")
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_content(root)
    return root, caught.value.diagnostics


def test_the_rules_that_hung_a_game_are_refused_where_written(refusals):
    root, diagnostics = refusals
    heavy = [d for d in diagnostics if "steps of work" in d.message]
    assert len(heavy) == 4 and len(diagnostics) == 4
    for d in heavy:
        assert d.message.endswith(f"the limit is {limits.MAX_RULE_WORK:,}")
    files = sorted({d.path.rsplit("/", 1)[-1] for d in heavy})
    assert files == ["sequence.yaml", "strategy-both.yaml"]
    # each at its first word, in the file
    for d in heavy:
        text = open(d.path, encoding="utf-8").read().splitlines()[d.line - 1]
        assert text[d.column - 1:].startswith(("for each player", "first of", "so that", "either", '"'))


def test_crisis_check_refuses_them_with_locations(refusals, capsys):
    root, _ = refusals
    assert main(["check", "--content", str(root)]) == 1
    err = capsys.readouterr().err
    assert err.count("steps of work in one run") == 4 and "Traceback" not in err


@pytest.mark.parametrize("levels", [8])
def test_a_first_of_chain_within_the_limit_plays(tmp_path, levels):
    root = copy_content(tmp_path)
    path = root / "cards" / "strategy-unionist.yaml"
    replace_in(path, "event: place 3 in Fort Sumter", "event: |\n" + "\n".join(
        "      " + line for line in first_of_chain(levels).splitlines()))
    content = load_content(root)
    factory = controller_factory("heuristic")
    started = time.perf_counter()
    game = Game.of(content, 1, log=False)
    play_out(game, [factory(1, 0), factory(1, 1)])
    assert game.over and time.perf_counter() - started < 60


# ------------------------------------------------------------ the runtime budget


def test_a_game_on_a_rule_past_the_budget_ends_with_one_located_error(tmp_path, monkeypatch, capsys):
    # as if the check had missed it: the game stops at the rule, naming its file and line
    monkeypatch.setattr(limits, "MAX_RULE_WORK", 10 ** 12)
    monkeypatch.setattr(limits, "MAX_GAME_WORK", 10 ** 15)
    monkeypatch.setattr(limits, "MAX_WORK_BETWEEN_DECISIONS", 100_000)
    root = copy_content(tmp_path)
    heavy = nested(30, "for each player", "gain 1 VP").splitlines()
    replace_in(root / "sequence.yaml", "  dimension scoring: gain 1 VP for each dimension you control",
               "  dimension scoring: |\n" + "\n".join("    " + line for line in heavy))
    started = time.perf_counter()
    assert main(["play", "--bots", "--content", str(root), "--seed", "1"]) == 2
    assert time.perf_counter() - started < 30
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.count("error:") == 1 and "the rule did more than 100,000 steps of work" in err
    lines = (root / "sequence.yaml").read_text(encoding="utf-8").splitlines()
    first = next(i for i, text in enumerate(lines, 1) if text == "  dimension scoring: |")
    found = re.search(re.escape(str(root / "sequence.yaml")) + r":(\d+):(\d+): error:", err)
    line, column = int(found.group(1)), int(found.group(2))
    assert first < line <= first + 31  # a statement of the rule, at its first word
    assert lines[line - 1][column - 1:].startswith(("for each player:", "gain 1 VP"))
