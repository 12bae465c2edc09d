"""Rule coverage: which rules, either options and if branches scenarios (or simulated games) exercise."""

import re

from clirun import run_crisis
from crisis.content.loader import default_content_dir, load_content
from crisis.interpreter.controllers import RandomBot, play_out
from crisis.interpreter.coverage import Coverage
from crisis.interpreter.game import Game
from crisis.interpreter.scenario import run_file, scenario_files
from helpers import copy_content

SHIPPED = scenario_files([default_content_dir() / "scenarios"])


def test_the_shipped_scenarios_exercise_every_rule_option_and_branch(content):
    coverage = Coverage(content)
    for path in SHIPPED:
        for outcome in run_file(coverage.content, path, coverage.start):
            assert outcome.passed, (outcome.name, outcome.problems)
    summary = {kind: (hit, total) for kind, hit, total in coverage.summary()}
    # every card event, every either option and every if/otherwise branch (the condition false included)
    for kind in ("card_event", "objective_event", "either_option", "if_branch", "breach_effect", "procedure"):
        hit, total = summary[kind]
        assert hit == total, (kind, [f"{i.where} {i.label} {i.branch}" for i in coverage.missed({kind})])
    assert summary["card_event"] == (40, 40) and summary["objective_event"] == (12, 12)
    assert summary["either_option"][1] >= 17 and summary["if_branch"][1] >= 30
    # and every rule of the solo game (docs/scenarios.md says the shipped scenarios cover everything)
    assert {"solo_rule", "solo_priority_line", "solo_table_row"} <= set(summary)
    assert [(kind, hit, total) for kind, (hit, total) in summary.items() if hit != total] == [], \
        [f"{i.where} {i.label}" for i in coverage.missed()]


def test_a_case_of_available_tokens_counts_when_it_applies(content):
    """The cases of the solo game's Available tokens are read once, when the rules are compiled:
    each counts as exercised when it is the one that applies, not merely because it was compiled."""
    coverage = Coverage(content)
    solo = default_content_dir() / "scenarios" / "solo" / "definitions.yaml"
    labels = {}
    for outcome in run_file(coverage.content, solo, coverage.start):
        assert outcome.passed, (outcome.name, outcome.problems)
    for item, runs in coverage.by_item():
        if item.kind == "solo_rule" and item.label.startswith("solo available") and item.label.endswith("tokens"):
            labels[item.label] = {run.rsplit(":", 1)[1] for run in runs}
    # the first case (the player's Final Crisis zone breached) only where the player has breached it
    names = {str(o.line): o.name for o in run_file(content, solo)}
    first, otherwise = labels["solo available 1 tokens"], labels["solo available 2 tokens"]
    assert [names[line] for line in sorted(first)] == [
        "Available -- once the player has breached the Final Crisis zone, the solo opponent's is Available too"]
    assert "Available -- tokens in the solo opponent's Final Crisis zone are not placed" in {names[l] for l in otherwise}


def test_coverage_names_what_was_never_exercised_at_its_line(tmp_path):
    root = copy_content(tmp_path)
    (root / "cards" / "zz-designer.yaml").write_text(
        "strategy_cards:\n  - id: designer-card\n    value: 2\n    event_for: both\n    final_crisis: Political\n"
        "    provenance: authored\n    event: |\n      either:\n        place 1 in Texas\n      or:\n"
        "        if you control Texas: gain 1 VP\n", encoding="utf-8")
    for lang in ("en", "es"):
        (root / "locale" / lang / "zz-designer.yaml").write_text("cards:\n  designer-card:\n    title: D\n",
                                                                 encoding="utf-8")
    scenario = tmp_path / "one.yaml"
    scenario.write_text("name: option 1 only\nposition:\n  phase: card_play\n  hands:\n"
                        "    Unionist: [designer-card, lincoln]\n    Secessionist: [florida-secedes]\n"
                        "actions:\n  - event designer-card\n  - {decision: {player: Secessionist}}\n", encoding="utf-8")
    coverage = Coverage(load_content(root))
    (outcome,) = run_file(coverage.content, scenario, coverage.start)
    assert outcome.passed, outcome.problems
    missed = {(i.kind, i.branch): i for i in coverage.missed() if i.label == "card designer-card"}
    assert set(missed) == {("either_option", "2"), ("if_branch", "then"), ("if_branch", "false")}
    assert missed[("either_option", "2")].where.endswith("cards/zz-designer.yaml:11")
    hit = [runs for item, runs in coverage.by_item() if item.label == "card designer-card" and item.branch == "1"]
    assert hit == [[f"{outcome.file}:1"]]


def test_instrumented_rules_play_exactly_the_same_games(content):
    coverage = Coverage(content)
    for seed in (3, 4):
        plain, covered = Game(content, seed, log=False), Game(coverage.content, seed, log=False)
        play_out(plain, [RandomBot(seed, 0), RandomBot(seed, 1)])
        play_out(covered, [RandomBot(seed, 0), RandomBot(seed, 1)])
        assert plain.history == covered.history and plain.state.vp == covered.state.vp
    assert coverage.hits and not any(Game(content, 1, log=False).tables is t for t in [coverage.content])


def test_crisis_test_coverage_reports_per_kind_and_by_which_scenarios():
    result = run_crisis("test", "--coverage", "-v", default_content_dir() / "scenarios" / "cards" / "sam-houston.yaml")
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "Coverage:" in out
    assert re.search(r"^  card events: 1 of 40 \(2\.5%\)$", out, re.M)
    assert re.search(r"^  if branches: 2 of \d+ ", out, re.M)
    assert re.search(r"strategy-unionist\.yaml:\d+: if branches: card sam-houston, if \.\.\. then: "
                     r"content/fort-sumter/scenarios/cards/sam-houston\.yaml:\d+", out)
    assert "Never exercised (" in out and "card lincoln" in out


def test_crisis_sim_coverage():
    result = run_crisis("sim", "--games", "5", "--seed", "2", "--coverage")
    assert result.returncode == 0, result.stderr
    assert re.search(r"^  either options: \d+ of \d+ \(", result.stdout, re.M)
    assert "Never exercised" in result.stdout
