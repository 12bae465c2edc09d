"""What `crisis test` tells a designer when a scenario fails or is written wrong."""

import pytest

from crisis.interpreter.scenario import ScenarioError, run_file

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


def run(tmp_path, text):
    path = tmp_path / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    return run_file(content_for(tmp_path), path)


_CONTENT = {}


def content_for(_):
    return _CONTENT["content"]


@pytest.fixture(autouse=True)
def _content(content):
    _CONTENT["content"] = content


def test_a_passing_scenario(tmp_path):
    (outcome,) = run(tmp_path, BASE + "expect:\n  tokens: {Texas: {Unionist: 2}}\n  tracks: {Unionist: 14}\n"
                                      "  decision: {player: Secessionist, kind: play_card}\n")
    assert outcome.passed, outcome.problems


def test_a_failing_expectation_shows_expected_and_got(tmp_path):
    (outcome,) = run(tmp_path, BASE + "expect:\n  tokens: {Texas: {Unionist: 3}}\n  vp: {Unionist: 1}\n")
    assert not outcome.passed
    assert outcome.problems == ["tokens.Texas.Unionist: expected 3, got 2", "vp.Unionist: expected 1, got 0"]


def test_an_illegal_action_lists_the_legal_ones(tmp_path):
    (outcome,) = run(tmp_path, BASE.replace("  - place Texas\n  - place Texas\n", "  - place Texass\n"))
    assert not outcome.passed
    (problem,) = outcome.problems
    assert problem.startswith("action 2 ('place Texass'): 'place Texass' is not a legal action now; legal: ")
    assert problem.endswith("did you mean 'place Texas'?")


def test_legal_and_illegal_checks(tmp_path):
    text = BASE.replace("  - place Texas\n  - place Texas\n",
                        "  - {legal: [place Texas, done]}\n  - {illegal: event lincoln}\n  - {illegal: place Texas}\n")
    (outcome,) = run(tmp_path, text)
    assert outcome.problems == ["action 4: 'place Texas' should be illegal, but is legal"]


def test_an_unknown_name_in_the_position_is_located(tmp_path):
    with pytest.raises(ScenarioError) as caught:
        run(tmp_path, BASE.replace("[lincoln, winfield-scott]", "[lincoln, winfield-scot]"))
    (d,) = caught.value.diagnostics
    assert (d.line, d.message) == (5, "unknown strategy card 'winfield-scot'")
    assert d.hint == "did you mean 'winfield-scott'?"


def test_an_impossible_position_is_refused(tmp_path):
    text = BASE.replace("position:\n", "position:\n  pools: {Unionist: 30}\n")
    with pytest.raises(ScenarioError) as caught:
        run(tmp_path, text)
    assert "the Unionist position holds" in caught.value.diagnostics[0].message


def test_unknown_keys_get_suggestions(tmp_path):
    with pytest.raises(ScenarioError) as caught:
        run(tmp_path, BASE + "expect:\n  token: {Texas: {Unionist: 2}}\n")
    (d,) = caught.value.diagnostics
    assert d.message == "unknown key 'token' in expect" and d.hint == "did you mean 'tokens'?"
