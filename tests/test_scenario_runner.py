"""What `crisis test` tells a designer when a scenario fails or is written wrong.

A scenario must not pass by mistake: each test below is a way one used to.
"""

import pytest

from clirun import run_crisis
from crisis.interpreter.designer.scenario import NOT_RUN, run_file
from crisis.interpreter.engine.program import program_of

BASE = """\
name: value play
position:
  phase: card_play
  hands:
    Unionist: [lincoln, winfield-scott]
    Secessionist: [jefferson-davis, florida-secedes]
actions:
  - value winfield-scott
  - place Texas
  - place Texas
"""
TWO_PLACES = "  - place Texas\n  - place Texas\n"

_CONTENT = {}


@pytest.fixture(autouse=True)
def _content(content):
    _CONTENT["content"] = content


def run(tmp_path, text):
    path = tmp_path / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    content = _CONTENT["content"]
    return run_file(program_of(content), content.root, path)


def not_run(tmp_path, text):
    (outcome,) = run(tmp_path, text)
    assert outcome.status == NOT_RUN, outcome.problems
    return outcome.diagnostics


def test_a_passing_scenario(tmp_path):
    (outcome,) = run(tmp_path, BASE + "expect:\n  tokens: {Texas: {Unionist: 2}}\n  tracks: {Unionist: 14}\n"
                                      "  decision: {player: Secessionist, kind: play_card}\n")
    assert outcome.passed, outcome.problems


def test_a_failing_expectation_shows_expected_and_got(tmp_path):
    (outcome,) = run(tmp_path, BASE + "expect:\n  tokens: {Texas: {Unionist: 3}}\n  vp: {Unionist: 1}\n")
    assert not outcome.passed
    assert outcome.problems == ["tokens.Texas.Unionist: expected 3, got 2", "vp.Unionist: expected 1, got 0"]


def test_an_illegal_action_lists_the_legal_ones_and_is_the_only_failure(tmp_path):
    # the expectations below would fail too, but only as consequences of the illegal action
    (outcome,) = run(tmp_path, BASE.replace(TWO_PLACES, "  - place Washington\n  - event lincoln\n")
                     + "expect:\n  tokens: {Texas: {Unionist: 2}}\n  vp: {Unionist: 3}\n")
    assert not outcome.passed
    (problem,) = outcome.problems
    assert problem.startswith("action 3 ('event lincoln'): 'event lincoln' is not a legal action now; legal: ")


def test_a_check_that_failed_before_an_illegal_action_is_still_reported(tmp_path):
    """The checks before an illegal action say where the game really stood (a designer's
    '{decision: ...}' that did not hold): they are kept, and only what follows is left out."""
    (outcome,) = run(tmp_path, BASE.replace(TWO_PLACES, "  - {decision: {player: Secessionist, kind: place}}\n"
                                                        "  - place Washington\n  - event lincoln\n")
                     + "expect:\n  vp: {Unionist: 3}\n")
    assert not outcome.passed
    checked, illegal = outcome.problems
    assert checked.startswith("action 2: expected a Secessionist place decision")
    assert illegal.startswith("action 4 ('event lincoln'): 'event lincoln' is not a legal action now")


def test_a_misspelt_action_name_is_refused_before_the_game_starts(tmp_path):
    (d,) = not_run(tmp_path, BASE.replace(TWO_PLACES, "  - place Texass\n"))
    # pointed at and underlined where the name stands in the action
    assert (d.line, d.column, d.width, d.message) == (9, 11, 6, "'place Texass': unknown space 'Texass'")
    assert d.hint == "did you mean 'Texas'?"


def test_a_scenarios_options_are_the_games_own(tmp_path):
    """The options a scenario may set are the game's optional rules (and the solo game's side
    and difficulty): a misspelt one is refused with the game's list and the likeliest meant."""
    (d,) = not_run(tmp_path, "options: {event_discrad: true}\n" + BASE)
    assert (d.line, d.message, d.hint) == (1, "unknown key 'event_discrad' in options", "did you mean 'event_discard'?")
    assert d.expected == "event_discard, solo or difficulty"
    (outcome,) = run(tmp_path, "options: {event_discard: true}\n" + BASE)
    assert outcome.passed


def test_a_scenario_key_that_names_nothing_is_refused_where_it_is_declared(tmp_path):
    """Not in each scenario that uses it: at its line in state.yaml, with the name meant."""
    from crisis.content.loader import load_content
    from crisis.content.yamlfile import ContentError
    from helpers import copy_content, replace_in
    root = copy_content(tmp_path)
    replace_in(root / "state.yaml", "  tracks: crisis track\n", "  tracks: crisis trak\n")
    with pytest.raises(ContentError) as caught:
        load_content(root)
    (d,) = caught.value.diagnostics
    assert d.path.endswith("state.yaml") and d.message == "the scenario key 'tracks' names 'crisis trak', which is " \
                                                          "no part of a position"
    assert d.hint == "did you mean 'crisis track'?"


@pytest.mark.parametrize("given, hint", [("row5", "did you mean 'row 5'?"), ("dice", "did you mean 'die'?"),
                                         ("row 55", "did you mean 'row 5'?")])
def test_what_decided_a_solo_choice_is_checked_before_the_run(tmp_path, given, hint):
    """A 'decided_by' that no choice can have would fail whatever the rules do: not run, with the
    ways a choice is decided and the table's rows."""
    from crisis.interpreter.designer.scenario import run_file
    from helpers import copy_content, replace_in
    root = copy_content(tmp_path)
    path = root / "scenarios" / "solo" / "turn.yaml"
    replace_in(path, "decided_by: row 5, chosen: Fire-Eaters", f"decided_by: {given}, chosen: Fire-Eaters")
    from crisis.content.loader import load_content
    content = load_content(root)
    outcomes = run_file(program_of(content), content.root, path)
    (bad,) = [o for o in outcomes if o.status == NOT_RUN]
    (d,) = bad.diagnostics
    assert d.message == f"'decided_by' cannot be '{given}'" and d.hint == hint
    assert d.expected.startswith("die, only legal, row N (N from 1 to ")


def test_a_file_that_lists_no_scenario_is_not_run_rather_than_passed(tmp_path):
    (outcome,) = run(tmp_path, "scenarios: []\n")
    assert outcome.status == NOT_RUN
    (d,) = outcome.diagnostics
    assert (d.line, d.column, d.message) == (1, 1, "'scenarios' lists no scenario")


def test_legal_and_illegal_checks(tmp_path):
    text = BASE.replace(TWO_PLACES, "  - {legal: [place Texas, done]}\n  - {illegal: place Texas}\n")
    (outcome,) = run(tmp_path, text)
    assert outcome.problems == ["action 3: 'place Texas' should be illegal, but is legal"]


@pytest.mark.parametrize("check, message, hint", [
    ("{ilegal: place Washington}", "unknown key 'ilegal' in a check", "did you mean 'illegal'?"),
    ("{legall: place Washington}", "unknown key 'legall' in a check", "did you mean 'legal'?"),
    ("{illegal: place Fort Sumpter}", "'place Fort Sumpter': unknown space 'Fort Sumpter'",
     "did you mean 'Fort Sumter'?"),
    ("{illegal: plac Washington}", "'plac Washington': 'plac' does not start an action", "did you mean 'place'?"),
    ("{illegal: event lincon}", "'event lincon': unknown strategy card 'lincon'", "did you mean 'lincoln'?"),
    ("{legal: [done, Peace Comissioner to Texas]}",
     "'Peace Comissioner to Texas': unknown marker 'Peace Comissioner'", "did you mean 'Peace Commissioner'?"),
    ("{decision: {player: Unionst}}", "unknown side 'Unionst'", "did you mean 'Unionist'?"),
    ("{decision: {kind: plac}}", "unknown decision kind 'plac'", "did you mean 'place'?"),
    ("{decision: {side: Unionist}}", "unknown key 'side' in a decision", None),
])
def test_a_check_that_cannot_mean_anything_is_an_error_not_a_pass(tmp_path, check, message, hint):
    (d,) = not_run(tmp_path, BASE.replace(TWO_PLACES, f"  - {check}\n  - place Texas\n"))
    assert d.line == 9 and d.message == message
    assert d.hint == hint


def test_a_check_at_a_decision_that_cannot_offer_its_action_fails(tmp_path):
    # after 'value winfield-scott' comes a place decision: 'event ...' can never be legal there,
    # so '{illegal: event lincoln}' would pass whatever the rules do
    text = BASE.replace(TWO_PLACES, "  - {illegal: event lincoln}\n  - place Texas\n")
    (outcome,) = run(tmp_path, text)
    (problem,) = outcome.problems
    assert problem.startswith("action 2: 'event lincoln' cannot be illegal here: this is a Unionist place decision")


def test_decision_checks_anywhere_in_the_actions(tmp_path):
    good = BASE.replace(TWO_PLACES, "  - {decision: {player: Unionist, kind: place}}\n  - place Texas\n"
                                    "  - {decision: {kind: place}}\n  - done\n"
                                    "  - {decision: {player: Secessionist, kind: play_card}}\n")
    assert run(tmp_path, good)[0].passed
    bad = BASE.replace(TWO_PLACES, "  - {decision: {player: Secessionist, kind: play_card}}\n")
    (outcome,) = run(tmp_path, bad)
    assert outcome.problems == ["action 2: expected a Secessionist play_card decision, got a Unionist place decision"]
    # a check naming only the kind, or only the player, is said as written
    only_kind = BASE.replace(TWO_PLACES, "  - {decision: {kind: play_card}}\n")
    assert run(tmp_path, only_kind)[0].problems == [
        "action 2: expected a play_card decision, got a Unionist place decision"]
    only_player = BASE.replace(TWO_PLACES, "  - {decision: {player: Secessionist}}\n")
    assert run(tmp_path, only_player)[0].problems == [
        "action 2: expected a decision of Secessionist, got a Unionist place decision"]


@pytest.mark.parametrize("off", ["off", "null", "~", "'off'"])
def test_off_marks_a_marker_off_the_map_in_position_and_expect(tmp_path, off):
    text = BASE.replace("  phase: card_play\n", f"  phase: card_play\n  markers: {{Peace Commissioner: {off}}}\n")
    (outcome,) = run(tmp_path, text + f"expect:\n  markers: {{Peace Commissioner: {off}}}\n")
    assert outcome.passed, outcome.problems + [d.message for d in outcome.diagnostics]
    (outcome,) = run(tmp_path, BASE.replace("  phase: card_play\n",
                                            "  phase: card_play\n  markers: {Peace Commissioner: Fort Sumter}\n")
                     + f"expect:\n  markers: {{Peace Commissioner: {off}}}\n")
    assert outcome.problems == ["markers.Peace Commissioner: expected None, got 'Fort Sumter'"]


def test_an_impossible_position_gives_the_right_count_at_the_offending_key(tmp_path):
    text = BASE.replace("position:\n", "position:\n  pools: {Unionist: 20}\n")
    (d,) = not_run(tmp_path, text)
    # 20 in the pool and the 9 setup tokens of the bonus boxes: 29 off the track
    assert d.message == ("the Unionist position holds 29 tokens off the crisis track (map 0, pool 20, boxes 9), "
                         "more than the 25 a side has")
    assert (d.line, d.column) == (3, 21)


def test_a_given_track_must_add_up(tmp_path):
    text = BASE.replace("position:\n", "position:\n  tracks: {Secessionist: 3}\n")
    (d,) = not_run(tmp_path, text)
    assert d.message == "the Secessionist position holds 12 tokens (map 0, pool 0, boxes 9, track 3), not 25"
    assert (d.line, d.column) == (3, 26)


def test_one_bad_scenario_fails_alone(tmp_path):
    body = BASE.replace("\n", "\n    ").rstrip()
    text = ("scenarios:\n  - " + body + "\n  - " + body.replace("place Texas", "place Texus", 1)
            + "\n  - " + body + "\n    expect: {vp: {Unionist: 9}}\n")
    outcomes = run(tmp_path, text)
    assert [o.status for o in outcomes] == ["passed", NOT_RUN, "failed"]


def test_hands_are_compared_as_multisets(tmp_path):
    text = BASE + "expect:\n  hands: {Unionist: [lincoln], Secessionist: [florida-secedes, jefferson-davis]}\n"
    assert run(tmp_path, text)[0].passed
    (outcome,) = run(tmp_path, text.replace("[lincoln]", "[lincoln, lincoln]"))
    assert outcome.problems == ["hands.Unionist: expected ['lincoln', 'lincoln'] in any order, got ['lincoln'] "
                                "(missing lincoln)"]


def test_the_discard_pile_is_settable_and_the_objective_deck_and_offers_expectable(tmp_path):
    text = BASE.replace("  phase: card_play\n", "  phase: card_play\n  discard: [star-of-the-west, lincoln]\n"
                                                "  objective_deck: [texas, washington]\n")
    text = text.replace("[lincoln, winfield-scott]", "[wide-awakes, winfield-scott]")
    expect = ("expect:\n  discard: [lincoln, winfield-scott, star-of-the-west]\n"
              "  objective_deck: {top: [texas, washington], size: 12}\n"
              "  objective_offer: {Unionist: []}\n")
    assert run(tmp_path, text + expect)[0].passed, run(tmp_path, text + expect)[0].problems
    (outcome,) = run(tmp_path, text + expect.replace("top: [texas, washington]", "top: [washington]")
                     .replace("[]", "[fort-sumter]"))
    assert outcome.problems == ["objective_deck.top: expected ['washington'], got ['texas']",
                                "objective_offer.Unionist: expected ['fort-sumter'] in any order, got [] "
                                "(missing fort-sumter)"]


@pytest.mark.parametrize("expect, message, hint", [
    ("tokens: {Fort Sumpter: {Unionist: 1}}", "unknown space 'Fort Sumpter'", "did you mean 'Fort Sumter'?"),
    ("tokens: {Texas: {Unionists: 1}}", "unknown side 'Unionists'", "did you mean 'Unionist'?"),
    ("hands: {Unionist: [lincon]}", "unknown strategy card 'lincon'", "did you mean 'lincoln'?"),
    ("not_legal: [place Texsa]", "'place Texsa': unknown space 'Texsa'", "did you mean 'Texas'?"),
    ("phase: card_ply", "unknown phase 'card_ply'", "did you mean 'card_play'?"),
    ("objective_deck: {tops: [texas]}", "unknown key 'tops' in objective_deck", "did you mean 'top'?"),
])
def test_names_in_expect_are_checked_before_running(tmp_path, expect, message, hint):
    (d,) = not_run(tmp_path, BASE + "expect:\n  " + expect + "\n")
    assert d.line == 12 and d.message == message and d.hint == hint


def test_an_unknown_name_in_the_position_is_located(tmp_path):
    (d,) = not_run(tmp_path, BASE.replace("[lincoln, winfield-scott]", "[lincoln, winfield-scot]"))
    assert (d.line, d.message) == (5, "unknown strategy card 'winfield-scot'")
    assert d.hint == "did you mean 'winfield-scott'?"


def test_unknown_keys_get_suggestions(tmp_path):
    (d,) = not_run(tmp_path, BASE + "expect:\n  token: {Texas: {Unionist: 2}}\n")
    assert d.message == "unknown key 'token' in expect" and d.hint == "did you mean 'tokens'?"


def test_the_command_prints_failures_and_a_summary_by_default(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text(BASE, encoding="utf-8")
    mixed = tmp_path / "mixed.yaml"
    body = BASE.replace("\n", "\n    ").rstrip()
    mixed.write_text("scenarios:\n  - " + body.replace("value play", "typo", 1).replace("place Texas", "place Tx", 1)
                     + "\n  - " + body.replace("value play", "wrong", 1) + "\n    expect: {vp: {Unionist: 9}}\n",
                     encoding="utf-8")
    result = run_crisis("test", good, mixed)
    assert result.returncode == 1
    out = result.stdout
    assert "PASS" not in out
    assert "NOT RUN  " in out and "mixed.yaml:2: typo" in out and "unknown space 'Tx'" in out
    assert "FAIL  " in out and "vp.Unionist: expected 9, got 0" in out
    assert out.strip().splitlines()[-1] == "1 passed, 1 failed, 1 not run (3 scenarios in 2 files)"
    verbose = run_crisis("test", "-v", good)
    assert "PASS  " in verbose.stdout and "good.yaml:1: value play" in verbose.stdout
    assert verbose.returncode == 0
    assert run_crisis("test", "-q", good).stdout.strip() == "1 passed, 0 failed, 0 not run (1 scenario in 1 file)"


def test_a_file_that_is_not_yaml_is_not_run_and_the_others_still_are(tmp_path):
    (tmp_path / "a.yaml").write_text("name: [unclosed\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text(BASE, encoding="utf-8")
    result = run_crisis("test", tmp_path)
    assert "1 passed, 0 failed, 1 not run" in result.stdout
    assert "a.yaml:2:1: error: this is not valid YAML" in result.stdout or "a.yaml:" in result.stdout


def test_the_documented_keys_are_the_keys_the_runner_reads(content):
    import re
    from pathlib import Path

    from crisis.interpreter.designer.scenario import expect_keys, position_keys
    program = program_of(content)
    doc = (Path(__file__).resolve().parents[1] / "docs" / "scenarios.md").read_text(encoding="utf-8")
    position = doc[doc.index("## The position"):doc.index("## Actions")]
    expect = doc[doc.index("## Expectations"):]
    keys = lambda text: {k for row in re.findall(r"^\| (`[^|]+)\|", text, re.M) for k in re.findall(r"`(\w+)`", row)}
    # the keys of a position are the names Fort Sumter's state.yaml gives under 'scenario keys'
    assert keys(position) == set(position_keys(program)) >= set(program.schema.scenario_keys)
    assert keys(expect) == set(expect_keys(program))


def test_the_documented_example_passes(tmp_path):
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[1] / "docs" / "scenarios.md").read_text(encoding="utf-8")
    example = doc.split("```yaml\n", 1)[1].split("```", 1)[0]
    (outcome,) = run(tmp_path, example)
    assert outcome.passed, outcome.problems + [d.message for d in outcome.diagnostics]


# ------------------------------------------------------------ issue 18, item 10


def peace_commissioner_die_roll(rolls):
    """The shipped scenario where a die decides between two spaces, with other fixed rolls."""
    import yaml

    from crisis.content.loader import default_content_dir
    path = default_content_dir() / "scenarios" / "solo" / "peace-commissioner.yaml"
    specs = yaml.safe_load(path.read_text(encoding="utf-8"))["scenarios"]
    spec = next(s for s in specs if s["position"].get("dice") == [5])
    spec["position"]["dice"] = rolls
    spec["expect"] = {"markers": spec["expect"]["markers"]}
    return yaml.safe_dump(spec, sort_keys=False)


def test_a_die_roll_the_die_cannot_show_is_refused_at_its_place(tmp_path):
    # a six-sided die between two spaces: 1-3 and 4-6 (7 was an IndexError)
    text = peace_commissioner_die_roll([7])
    diagnostics = not_run(tmp_path, text)
    (problem,) = diagnostics
    assert problem.message == "die roll 1: a die roll of 7 cannot come from the 6-sided die rolled here (1 to 6)"
    assert text.splitlines()[problem.line - 1][problem.column - 1:] == "7"


def test_the_die_rolls_a_scenario_fixes_are_checked_one_by_one(tmp_path):
    (outcome,) = run(tmp_path, peace_commissioner_die_roll([6]))
    assert outcome.passed, outcome.problems
    text = peace_commissioner_die_roll([6, 5, 9])  # the rolls left over are never used: no error
    (outcome,) = run(tmp_path, text)
    assert outcome.passed, outcome.problems
    assert not_run(tmp_path, peace_commissioner_die_roll([13]))[0].message.startswith("die roll 1 should be")


@pytest.mark.parametrize("position, message", [
    ("  hands:\n    Unionist: [lincoln, lincoln, winfield-scott]\n    Secessionist: [jefferson-davis, lincoln]\n",
     ["strategy card 'lincoln' is listed twice in hands.Unionist",
      "strategy card 'lincoln' is listed in hands.Unionist and in hands.Secessionist"]),
    ("  hands:\n    Unionist: [lincoln, winfield-scott]\n    Secessionist: [jefferson-davis]\n"
     "  discard: [winfield-scott]\n",
     ["strategy card 'winfield-scott' is listed in hands.Unionist and in discard"]),
    ("  hands:\n    Unionist: [lincoln, winfield-scott]\n    Secessionist: [jefferson-davis]\n"
     "  deck: [major-anderson, lincoln]\n",
     ["strategy card 'lincoln' is listed in hands.Unionist and in deck"]),
    ("  hands:\n    Unionist: [lincoln, winfield-scott]\n    Secessionist: [jefferson-davis]\n"
     "  last_play: {side: Unionist, card: lincoln}\n",
     ["strategy card 'lincoln' is in hands.Unionist, so it cannot be the card just played "
      "(which is on the discard pile)"]),
])
def test_a_card_in_two_places_is_refused_at_its_entry(tmp_path, position, message):
    text = "name: copies\nposition:\n  phase: card_play\n" + position + "actions:\n  - value lincoln\n"
    diagnostics = not_run(tmp_path, text)
    assert [d.message for d in diagnostics] == message
    line = text.splitlines()[diagnostics[-1].line - 1]
    assert line[diagnostics[-1].column - 1:].startswith("lincoln" if "lincoln" in message[-1] else "winfield")


# A name the game does not know is shown where it is written: the key, or the entry of a list, that
# holds it, underlined whole (issue 17, item 13).
AFTER_PHASE = "  phase: card_play\n"
WRONG_NAMES = [
    (BASE.replace("    Unionist: [lincoln", "    Unionst: [lincoln"), "Unionst", "unknown side 'Unionst'"),
    (BASE.replace(AFTER_PHASE, AFTER_PHASE + "  tokens: {Texass: {Unionist: 2}}\n"), "Texass",
     "unknown space 'Texass'"),
    (BASE.replace(AFTER_PHASE, AFTER_PHASE + "  tokens:\n    Texas: {Unionst: 2}\n"), "Unionst",
     "unknown side 'Unionst'"),
    (BASE.replace(AFTER_PHASE, AFTER_PHASE + "  boxes: {Unionist: {Escalaton: 0}}\n"), "Escalaton",
     "unknown zone 'Escalaton'"),
    (BASE.replace(AFTER_PHASE, AFTER_PHASE + "  markers: {Peace Comissioner: Texas}\n"), "Peace Comissioner",
     "unknown marker 'Peace Comissioner'"),
    (BASE.replace(AFTER_PHASE, AFTER_PHASE + "  breached: {Unionist: [Escalation, Tenson]}\n"), "Tenson",
     "unknown zone 'Tenson'"),
    (BASE + "expect:\n  tokens: {Texass: {Unionist: 2}}\n", "Texass", "unknown space 'Texass'"),
    (BASE + "expect:\n  hands: {Unionist: [lincoln, lincon]}\n", "lincon", "unknown strategy card 'lincon'"),
    (BASE + "expect:\n  hands:\n    Unionist:\n      - lincoln\n      - lincon\n", "lincon",
     "unknown strategy card 'lincon'"),
    (BASE + "expect:\n  breached: {Unionist: [Tenson]}\n", "Tenson", "unknown zone 'Tenson'"),
]


@pytest.mark.parametrize("text, word, message", WRONG_NAMES, ids=[f"{m} ({i})" for i, (_, _, m) in enumerate(WRONG_NAMES)])
def test_an_unknown_name_is_pointed_at_where_it_is_written(tmp_path, text, word, message):
    ((line_number, line),) = [(n, line) for n, line in enumerate(text.splitlines(), 1) if word in line]
    column = line.index(word) + 1
    (d,) = not_run(tmp_path, text)
    assert (d.line, d.column, d.width, d.message) == (line_number, column, len(word), message)
    report = d.format()
    assert f"\n{' ' * 6}| {' ' * (column - 1)}^{'~' * (len(word) - 1)}\n" in report


def test_scenarios_in_a_games_folder_are_tested_on_that_game(capsys):
    """`crisis test content/civil-war-card-game/scenarios` needs no --game: the scenarios' folder
    says which game they are of; a path outside any game's folder keeps the default game."""
    from pathlib import Path

    from crisis.cli.main import main
    shipped = Path(__file__).resolve().parent.parent / "content"
    assert main(["test", str(shipped / "civil-war-card-game" / "scenarios")]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert " passed, 0 failed, 0 not run" in last and not last.startswith("0 passed")


def test_a_games_folder_stands_for_its_scenarios(capsys):
    """`crisis test content/civil-war-card-game` runs that game's scenarios, not its cards and
    state as if they were scenarios (each of them 'not run')."""
    from pathlib import Path

    from crisis.cli.main import main
    game = Path(__file__).resolve().parent.parent / "content" / "civil-war-card-game"
    assert main(["test", str(game)]) == 0
    assert " 0 failed, 0 not run" in capsys.readouterr().out.strip().splitlines()[-1]


@pytest.mark.parametrize("inside", ["", "scenarios"])
def test_crisis_test_run_inside_a_games_folder_tests_that_game(capsys, monkeypatch, tmp_path, inside):
    """A designer in their game's folder types `crisis test`: their scenarios run, not the
    default game's (Fort Sumter's 298 scenarios ran instead)."""
    import shutil
    from pathlib import Path

    from crisis.cli.main import main
    game = tmp_path / "three-crowns"
    shutil.copytree(Path(__file__).resolve().parent / "data" / "three-crowns", game)
    monkeypatch.chdir(game / inside)
    assert main(["test"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last == "5 passed, 0 failed, 0 not run (5 scenarios in 1 file)"  # tests/data/three-crowns/scenarios


@pytest.mark.parametrize("folders", [["civil-war-card-game/scenarios", "fort-sumter/scenarios"], ["."]])
def test_scenarios_of_two_games_at_once_are_refused_in_one_line(capsys, folders):
    from pathlib import Path

    from crisis.cli.main import main
    shipped = Path(__file__).resolve().parent.parent / "content"
    code = main(["test"] + [str(shipped / folder) for folder in folders])  # "." : the folder of both games
    out = capsys.readouterr()
    assert code != 0 and "Traceback" not in out.err
    (line,) = [text for text in (out.out + out.err).splitlines() if text.strip()]
    assert "civil-war-card-game" in line and "fort-sumter" in line and "--game" in line


def test_a_scenario_s_mistakes_come_in_file_order_and_name_only_the_game_s_own_kinds(tmp_path):
    """The Civil War has no tokens, markers or orders: a misspelt decision kind or action word is
    told among its own (the list offered 'place, remove, marker, keep, order'); and the mistakes of
    one scenario are listed in the order of its lines (expectations came before the position's)."""
    from crisis.content.games import game_path
    from crisis.content.loader import load_content
    path = tmp_path / "mistakes.yaml"
    path.write_text("name: mistakes\nposition:\n  phase: turn\n  leader: Nroth\nactions:\n"
                    "  - {decision: {player: North, kind: marsh}}\n  - marhc iron-brigade to Manassas\n"
                    "expect:\n  winer: North\n", encoding="utf-8")
    program = program_of(load_content(game_path("civil-war-card-game")))
    (outcome,) = run_file(program, tmp_path, path)
    assert outcome.status == NOT_RUN
    lines = [d.line for d in outcome.diagnostics]
    assert lines == sorted(lines) and len(lines) >= 4
    said = " ".join(f"{d.message} {d.expected}" for d in outcome.diagnostics)
    assert "march" in said
    for word in ("place", "remove", "marker", "keep", "order", "a marker name"):
        assert f" {word}," not in said and f" {word} " not in said.split("expected:")[-1], word


def test_a_failure_shows_what_the_game_did_from_the_last_action_on(tmp_path):
    """The engine takes a choice of one itself and plays on: 'expected a North forfeit decision,
    got a North deploy decision' comes with the log from the last action on, in words."""
    from clirun import run_main
    from crisis.content.games import game_path
    (tmp_path / "run-on.yaml").write_text(
        "name: the game runs on past the forfeit\nposition:\n  phase: turns\n  leader: South\n  in play:\n"
        "    North: {washington-dc: {at: Washington D.C.}, iron-brigade: {at: Manassas}}\n"
        "    South:\n      richmond: {at: Richmond}\n      manassas: {at: Manassas}\n      georgia-farms: {}\n"
        "      stonewall-brigade: {at: Manassas}\n      stonewall-jackson: {at: Manassas}\n"
        "  hands: {North: [ohio-farms], South: []}\n  decks: {South: [robert-e-lee], North: [irish-brigade]}\n"
        "actions:\n  - done\n  - done\n  - battlefield Manassas\n  - {decision: {player: North, kind: forfeit}}\n",
        encoding="utf-8")
    result = run_main("test", "--content", game_path("civil-war-card-game"), tmp_path / "run-on.yaml")
    assert result.returncode == 1
    out = result.stdout
    assert "expected a North forfeit decision, got a North deploy decision" in out
    assert "From 'battlefield Manassas' on, the game logged" in out
    after = out.split("the game logged", 1)[1]
    assert "North forfeits Iron Brigade." in after and after.index("forfeits") < after.index("North draws a card.")


def test_what_the_game_did_is_that_of_the_step_of_the_first_problem(tmp_path):
    """A check that fails before any action shows no log; a later action's would mislead."""
    from crisis.content.games import game_path
    from crisis.content.loader import load_content
    (tmp_path / "early.yaml").write_text(
        "name: wrong from the start\nposition:\n  phase: turns\n  leader: South\n  in play:\n"
        "    North: {washington-dc: {at: Washington D.C.}}\n    South: {richmond: {at: Richmond}}\n"
        "actions:\n  - {decision: {player: North, kind: forfeit}}\n  - done\n  - done\n", encoding="utf-8")
    program = program_of(load_content(game_path("civil-war-card-game")))
    (outcome,) = run_file(program, tmp_path, tmp_path / "early.yaml")
    assert outcome.problems and outcome.last_action is None and outcome.went_on == []


def test_a_scenario_file_may_end_in_yml(tmp_path):
    """A scenario is a test, not content: a file named the other usual way is run, not skipped."""
    from crisis.interpreter.designer.scenario import scenario_files
    (tmp_path / "a.yml").write_text("name: x\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("name: y\n", encoding="utf-8")
    assert [p.name for p in scenario_files([tmp_path])] == ["a.yml", "b.yaml"]


def test_an_expected_counter_is_read_within_its_own_bounds(tmp_path):
    """A Civil War battle total goes from -999 to 999: -3 may be expected, 1000 may not."""
    from crisis.content.games import game_path
    from crisis.content.loader import load_content
    program = program_of(load_content(game_path("civil-war-card-game")))
    for value, runs in ((-3, True), (1000, False)):
        (tmp_path / "bounds.yaml").write_text(
            "name: bounds\nposition:\n  phase: turns\n  leader: South\n  in play:\n"
            "    North: {washington-dc: {at: Washington D.C.}}\n    South: {richmond: {at: Richmond}}\n"
            f"expect:\n  might: {{North: {value}}}\n", encoding="utf-8")
        (outcome,) = run_file(program, tmp_path, tmp_path / "bounds.yaml")
        assert (outcome.status != NOT_RUN) == runs, [d.message for d in outcome.diagnostics]
        if not runs:
            assert "from -999 to 999" in outcome.diagnostics[0].message

