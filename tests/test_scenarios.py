"""The shipped scenario files: every one passes, and together they exercise every card."""

from pathlib import Path

import pytest

from crisis.content.loader import default_content_dir, load_content
from crisis.interpreter.scenario import ScenarioError, run_file, scenario_files

SCENARIOS = scenario_files([default_content_dir() / "scenarios"])


@pytest.fixture(scope="module")
def outcomes(content):
    return {path: run_file(content, path) for path in SCENARIOS}


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(default_content_dir() / "scenarios")))
def test_scenario_file_passes(outcomes, path):
    failures = [f"{o.name}: " + "; ".join(o.problems) for o in outcomes[path] if not o.passed]
    assert not failures, "\n".join(failures)


def test_every_strategy_card_event_has_a_passing_scenario(content, outcomes):
    covered = {event for results in outcomes.values() for o in results if o.passed for event in o.events}
    missing = [c.id for c in content.strategy_cards if c.event and f"card:{c.id}" not in covered]
    assert not missing, f"no passing scenario plays the event of: {', '.join(missing)}"


def test_every_objective_event_has_a_passing_scenario(content, outcomes):
    covered = {event for results in outcomes.values() for o in results if o.passed for event in o.events}
    missing = [c.id for c in content.objective_cards if c.event and f"objective:{c.id}" not in covered]
    assert not missing, f"no passing scenario carries out the objective event of: {', '.join(missing)}"
