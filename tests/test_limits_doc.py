"""docs/limits.md gives the limits that ruleset/limits.py enforces, and Fort Sumter's own figures truly."""

import re
from pathlib import Path

import pytest

from crisis.ruleset import limits
from crisis.ruleset.work import game_decisions

DOC = (Path(__file__).resolve().parents[1] / "docs" / "limits.md").read_text(encoding="utf-8")
ROWS = [[cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in DOC.splitlines() if line.startswith("| ") and "---" not in line]
CONSTANTS = {name: value for name, value in vars(limits).items()
             if name.startswith("MAX_") and isinstance(value, int)}


def row_for(name):
    found = [row for row in ROWS if f"`{name}`" in row]
    assert found, f"docs/limits.md has no row for {name}"
    return found[0]


@pytest.mark.parametrize("name", sorted(CONSTANTS))
def test_every_limit_is_documented_with_its_value(name):
    assert any(f"{CONSTANTS[name]:,}" in cell for cell in row_for(name)), (name, CONSTANTS[name])


@pytest.mark.parametrize("key", sorted(limits.GAME_NUMBERS))
def test_every_game_number_is_documented_with_its_limit_and_fort_sumters_value(key, content):
    row = row_for(key)
    assert row[2] == f"{limits.GAME_NUMBERS[key]:,}"
    assert row[3] == str(getattr(content.board, key))


def test_the_documented_game_bound_is_fort_sumters(content):
    assert f"the bound is {game_decisions(content):,} decisions" in re.sub(r"\s+", " ", DOC)


def test_the_documented_heaviest_rule_is_fort_sumters(content):
    from crisis.ruleset.cost import content_costs
    costs = content_costs(content)
    assert row_for("MAX_RULE_WORK")[3] == f"{max(costs.values()):,}"
    text = re.sub(r"\s+", " ", DOC)
    assert f"pivotal bonus (four goals, each searched), {max(costs.values()):,} steps" in text
    events = [cost for label, cost in costs.items() if label.startswith("event of")]
    assert f"a card event costs at most {max(events)}" in text
