"""Rule coverage: which rules, either options and if branches scenarios (or simulated games) exercise."""

import random
import re
from pathlib import Path

import pytest

from clirun import run_crisis
from crisis.content.loader import default_content_dir, load_content, read_game
from crisis.interpreter.designer.coverage import Coverage
from crisis.interpreter.designer.scenario import run_file, scenario_files
from crisis.interpreter.engine.game import Game, Options
from crisis.interpreter.engine.program import program_of
from helpers import copy_content

SHIPPED = scenario_files([default_content_dir() / "scenarios"])
TOY = Path(__file__).parent / "data" / "three-crowns"


def covered(definition, root, paths) -> Coverage:
    """The coverage of the scenario files ``paths``; each of their scenarios must pass."""
    coverage = Coverage(definition)
    for path in paths:
        for outcome in run_file(coverage.program, root, path, coverage.start):
            assert outcome.passed, (outcome.name, outcome.problems, [d.message for d in outcome.diagnostics])
    return coverage


def test_the_shipped_scenarios_exercise_every_rule_option_and_branch(content):
    coverage = covered(content.definition, content.root, SHIPPED)
    summary = {kind: (hit, total) for kind, hit, total in coverage.summary()}
    assert summary["card_event"] == (40, 40) and summary["objective_event"] == (12, 12)
    assert summary["either_option"] == (17, 17) and summary["if_branch"][1] >= 38
    # the breach effects, the procedures and first-player rules, the sequence of play, the solo game
    assert summary["zone_effect"] == (5, 5) and summary["procedure"] == (15, 15)
    assert {"sequence", "solo_rule", "solo_priority_line", "solo_table_row"} <= set(summary)
    assert summary["solo_table_row"] == (40, 40) and summary["solo_priority_line"] == (4, 4)
    # docs/scenarios.md says the shipped scenarios cover everything
    assert [(kind, hit, total) for kind, (hit, total) in summary.items() if hit != total] == [], \
        [f"{i.where} {i.label} {i.branch}" for i in coverage.missed()]


def test_the_documented_report_is_the_report():
    doc = (Path(__file__).resolve().parents[1] / "docs" / "scenarios.md").read_text(encoding="utf-8")
    example = doc.split("## Coverage", 1)[1].split("```\n", 1)[1].split("```", 1)[0]
    result = run_crisis("test", "--coverage", "--lang", "en")
    assert result.returncode == 0, result.stdout + result.stderr
    report = result.stdout.split("Coverage:\n", 1)[1].splitlines()
    assert ["Coverage:"] + report[:len(example.splitlines()) - 1] == example.splitlines()


def test_a_case_of_available_tokens_counts_when_it_applies(content):
    """The cases of the solo game's Available tokens are read once, when the rules are compiled:
    each counts as exercised when it is the one that applies, not merely because it was compiled."""
    solo = default_content_dir() / "scenarios" / "solo" / "definitions.yaml"
    coverage = covered(content.definition, content.root, [solo])
    runs = {item.label: {run.rsplit(":", 1)[1] for run in found} for item, found in coverage.by_item()
            if item.kind == "solo_rule" and item.label.startswith("solo Available")}
    names = {str(o.line): o.name for o in run_file(program_of(content), content.root, solo)}
    # the first case (the player's Final Crisis zone breached) only where the player has breached it
    assert [names[line] for line in sorted(runs["solo Available 1"])] == [
        "Available -- once the player has breached the Final Crisis zone, the solo opponent's is Available too"]
    assert "Available -- tokens in the solo opponent's Final Crisis zone are not placed" in {
        names[line] for line in runs["solo Available 2"]}
    # its condition is looked at far more often than it holds
    assert runs["solo Available 1 when"] > runs["solo Available 1"]


DESIGNER_CARD = ("strategy_cards:\n  - id: designer-card\n    value: 2\n    event_for: {side}\n"
                 "    final_crisis: Political\n    provenance: authored\n    event: |\n      either:\n"
                 "        place 1 in Texas\n      or:\n        {second}\n")


def designer_copy(tmp_path, side: str = "both", second: str = "if you control Texas: gain 1 VP"):
    root = copy_content(tmp_path)
    (root / "cards" / "zz-designer.yaml").write_text(DESIGNER_CARD.format(side=side, second=second),
                                                     encoding="utf-8")
    for lang in ("en", "es"):
        (root / "locale" / lang / "zz-designer.yaml").write_text("cards:\n  designer-card:\n    title: D\n",
                                                                 encoding="utf-8")
    return root


def test_coverage_names_what_was_never_exercised_at_its_line(tmp_path):
    root = designer_copy(tmp_path)
    scenario = tmp_path / "one.yaml"
    scenario.write_text("name: option 1 only\nposition:\n  phase: card_play\n  hands:\n"
                        "    Unionist: [designer-card, lincoln]\n    Secessionist: [florida-secedes]\n"
                        "actions:\n  - event designer-card\n  - {decision: {player: Secessionist}}\n", encoding="utf-8")
    coverage = covered(load_content(root).definition, root, [scenario])
    missed = {(i.kind, i.branch): i for i in coverage.missed() if i.label == "card designer-card"}
    assert set(missed) == {("either_option", "2"), ("if_branch", "then"), ("if_branch", "false")}
    assert missed[("either_option", "2")].where.endswith("cards/zz-designer.yaml:11")
    hit = [runs for item, runs in coverage.by_item() if item.label == "card designer-card" and item.branch == "1"]
    assert hit == [[f"{scenario}:1"]]


def test_looking_ahead_at_an_option_does_not_exercise_it(tmp_path):
    """The solo opponent tries each option of the card's either to choose one (docs/rulings.md, R6):
    only the option it carries out counts."""
    root = designer_copy(tmp_path, "Secessionist", "gain 1 VP")
    scenario = tmp_path / "solo.yaml"
    scenario.write_text("name: the solo opponent reveals the card and chooses option 1\n"
                        "options: {solo: Secessionist}\nposition:\n  phase: card_play\n  leader: Unionist\n"
                        "  plays: {Unionist: 1}\n  hands: {Unionist: [winfield-scott, major-anderson]}\n"
                        "  deck: [designer-card]\nexpect:\n  tokens: {Texas: {Secessionist: 1}}\n"
                        "  choices: [{option: 1, criterion: fully}]\n", encoding="utf-8")
    coverage = covered(load_content(root).definition, root, [scenario])
    options = {item.branch: runs for item, runs in coverage.by_item()
               if item.label == "card designer-card" and item.kind == "either_option"}
    assert options == {"1": [f"{scenario}:1"], "2": []}


def test_recording_rules_play_exactly_the_same_games(content):
    coverage = Coverage(content.definition)
    program = program_of(content)
    assert coverage.program is not program
    for seed, options in ((3, None), (4, Options(solo="Unionist", difficulty="hard"))):
        games = [Game(p, seed, options) for p in (program, coverage.program)]
        for game in games:
            rng = random.Random(seed)
            while game.decision is not None:
                game.apply(rng.choice(game.decision.actions))
        plain, recorded = games
        assert recorded.history == plain.history and recorded.position.values == plain.position.values
        assert [(e.key, e.params) for e in recorded.log] == [(e.key, e.params) for e in plain.log]
    assert coverage.hits


def test_the_toy_game_gets_coverage_from_its_own_names():
    """Three Crowns (three sides, written only as content) is covered like any game: its card
    events, procedures and steps, named as its content names them."""
    coverage = covered(read_game(TOY), TOY, sorted((TOY / "scenarios").glob("*.yaml")))
    summary = {kind: (hit, total) for kind, hit, total in coverage.summary()}
    assert set(summary) == {"card_event", "if_branch", "procedure", "sequence"}
    # region scoring, the first tie-break and the first-player rule; no scenario ties past the first
    assert summary["procedure"] == (3, 4)
    assert [item.label for item in coverage.missed({"procedure"})] == ["tie-breaks #2"]
    assert summary["sequence"] == (8, 8)  # the setup, five steps (a turn among them), two ways to play a card
    labels = {item.label for item, runs in coverage.by_item() if runs}
    assert {"card levy", "card fortify", "region scoring", "tie-breaks #1", "step orders", "step tally",
            "use muster", "use order"} <= labels
    assert {"card beacon"} <= {item.label for item in coverage.missed({"card_event"})}
    assert all("three-crowns" in item.where for item in coverage.items)


def test_crisis_test_coverage_reports_per_kind_and_by_which_scenarios():
    result = run_crisis("test", "--coverage", "-v", default_content_dir() / "scenarios" / "cards" / "sam-houston.yaml")
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "Coverage:" in out
    assert re.search(r"^  card events: 1 of 40 \(2\.5%\)$", out, re.M)
    assert re.search(r"^  if branches: 2 of \d+ ", out, re.M)
    assert re.search(r"strategy-unionist\.yaml:\d+: if branches: Sam Houston \[sam-houston\], if \.\.\. then: "
                     r"content/fort-sumter/scenarios/cards/sam-houston\.yaml:\d+", out)
    assert re.search(r"sequence\.yaml:\d+: sequence of play \(.*\): step card play: "
                     r"content/fort-sumter/scenarios/cards/sam-houston\.yaml:2, ", out)
    assert "Never exercised (" in out and "Lincoln's Inaugural [lincoln]" in out


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_kind_of_item_has_its_words_in_the_catalogs(content, lang):
    coverage = Coverage(content.definition)
    catalog = content.catalog(lang)
    assert [kind for kind in coverage.kinds() if catalog.raw(f"cli.coverage.kind.{kind}") is None] == []


def test_a_cards_rule_is_named_by_its_title_and_id_in_the_players_language():
    from clirun import run_main
    result = run_main("sim", "--games", "2", "--seed", "2", "--jobs", "1", "--coverage", "--lang", "es")
    never = result.stdout[result.stdout.index("Nunca ejercitado"):]
    assert re.search(r"eventos de carta: .+ \[[a-z0-9-]+\]$", never, re.M)
    assert ": card " not in never  # (the English label 'card <id>' the designer's copy once showed)


def test_crisis_sim_coverage():
    result = run_crisis("sim", "--games", "5", "--seed", "2", "--coverage")
    assert result.returncode == 0, result.stderr
    assert re.search(r"^  either options: \d+ of \d+ \(", result.stdout, re.M)
    assert "Never exercised" in result.stdout


def test_what_was_never_exercised_is_listed_file_by_file_line_by_line():
    """The items never exercised, and with -v those exercised, in the order a designer reads the files:
    by file, then by line as a number (sequence.yaml:6 before sequence.yaml:36), not as found."""
    from clirun import run_main
    result = run_main("test", "--coverage", "-v", "--lang", "en",
                      default_content_dir() / "scenarios" / "cards" / "sam-houston.yaml")
    assert result.returncode == 0, result.stdout + result.stderr
    never, exercised = result.stdout.split("Never exercised (", 1)[1].split("Exercised by:", 1)
    for part, least in ((never, 20), (exercised, 5)):
        places = [(m.group(1), int(m.group(2))) for m in re.finditer(r"^  (\S+\.yaml):(\d+): ", part, re.M)]
        assert len(places) > least and len({path for path, _ in places}) > 1
        assert places == sorted(places)


@pytest.mark.parametrize("lang, named", [("en", "card rules (effect): "), ("es", "reglas de carta (efecto): ")])
def test_a_card_kind_s_rule_field_of_another_name_is_named_by_its_field(lang, named):
    """The Civil War's cards carry their rules under 'effect', not 'event': coverage counts them as
    the kind 'card_effect', which no catalog lists; the report names them by the field, in the
    report's language, never by the internal name."""
    from clirun import run_main
    report = run_main("test", "--game", "civil-war-card-game", "--coverage", "--lang", lang)
    assert report.returncode == 0, report.stderr
    assert named in report.stdout and "card_effect" not in report.stdout


def test_a_rule_field_of_a_kind_named_in_several_words_is_named_by_its_field(tmp_path, monkeypatch):
    """A kind of cards whose first word has a space ('order card') gives coverage the kind
    'order_card_event': the report still names it by its field, not by that internal name."""
    import shutil
    from clirun import run_main
    root = tmp_path / "three-crowns"
    shutil.copytree(Path(__file__).parent / "data" / "three-crowns", root)
    replace = (root / "state.yaml").read_text(encoding="utf-8").replace(
        "    words: [card, cards]", "    words: [order card, order cards, card, cards]", 1)
    (root / "state.yaml").write_text(replace, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    report = run_main("test", "--content", root, "--coverage")
    assert "card rules (event): " in report.stdout and "order_card_event" not in report.stdout
