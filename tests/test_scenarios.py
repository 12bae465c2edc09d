"""The shipped scenario files: every one passes, and together they exercise every card."""

import pytest

from crisis.content.loader import default_content_dir
from crisis.interpreter.designer.coverage import Coverage
from crisis.interpreter.designer.scenario import run_file, scenario_files

SCENARIOS = scenario_files([default_content_dir() / "scenarios"])


@pytest.fixture(scope="module")
def run(content):
    """Every shipped scenario, run on the rules compiled to record what each one exercises."""
    coverage = Coverage(content.definition)
    outcomes = {path: run_file(coverage.program, content.root, path, coverage.start) for path in SCENARIOS}
    return coverage, outcomes


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(default_content_dir() / "scenarios")))
def test_scenario_file_passes(run, path):
    _, outcomes = run
    failures = [f"{o.name}: " + "; ".join(o.problems + [d.message for d in o.diagnostics])
                for o in outcomes[path] if not o.passed]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("kind, cards", [("card_event", "strategy cards"), ("objective_event", "objective cards")])
def test_every_event_is_carried_out_by_a_passing_scenario(content, run, kind, cards):
    coverage, outcomes = run
    passing = {o.where for results in outcomes.values() for o in results if o.passed}
    covered = {item.label.split(" ", 1)[1] for item, runs in coverage.by_item() if item.kind == kind
               and passing.intersection(runs)}
    with_event = [card_id for found, card_id, _field, _text in content.rule_texts() if found == cards]
    assert with_event
    missing = [card_id for card_id in with_event if card_id not in covered]
    assert not missing, f"no passing scenario carries out the event of: {', '.join(missing)}"
    assert covered  # the kind of item is the one these cards' events make
