"""docs/limits.md gives the limits that ruleset/limits.py enforces, and Fort Sumter's own figures truly."""

import re
from pathlib import Path

import pytest

from crisis.ruleset import limits
from crisis.ruleset.bound import definition_costs

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


@pytest.mark.parametrize("name, fort_sumter", [
    ("MAX_SIDES", lambda c: len(c.sides)), ("MAX_PLACES", lambda c: len(c.places)),
    ("MAX_GROUPS", lambda c: len(c.schema.map.groups)), ("MAX_ZONES", lambda c: len(c.schema.tracks[0].zones)),
    ("MAX_MARKERS", lambda c: len(c.schema.markers)), ("MAX_TOKENS", lambda c: c.schema.tokens.each_side),
    ("MAX_TRACK_SPACES", lambda c: c.schema.tracks[0].spaces),
    ("MAX_CARDS", lambda c: max(len(cards.ids) for cards in c.definition.cards.values())),
])
def test_every_number_of_the_state_is_documented_with_fort_sumters_value(name, fort_sumter, content):
    assert row_for(name)[3] == f"{fort_sumter(content):,}"


def test_the_documented_heaviest_rule_is_fort_sumters(content):
    costs = {label: cost for label, cost in definition_costs(content.definition).items()
             if label != "the whole game" and not label.startswith("the step")}  # rules, not steps of the sequence
    assert row_for("MAX_RULE_WORK")[3] == f"{max(costs.values()):,}"
    text = re.sub(r"\s+", " ", DOC)
    assert f"pivotal bonus (four goals, each searched), {max(costs.values()):,} steps" in text
    events = [cost for label, cost in costs.items() if "event of" in label]
    assert f"a card event costs at most {max(events)}" in text


def test_the_documented_whole_game_is_fort_sumters(content):
    whole = definition_costs(content.definition)["the whole game"]
    assert row_for("MAX_GAME_WORK")[3] == f"{whole:,}"
