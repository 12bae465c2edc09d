"""The bots' settings are content (bots/heuristic.yaml, bots/search.yaml): read and checked
like the rest, with errors that point at the file, line and column."""

import pytest

from crisis.content.loader import load_content
from crisis.content.yamlfile import ContentError
from crisis.interpreter.engine.game import Game
from crisis.interpreter.players.heuristic import judge_for
from crisis.interpreter.players.search import settings_for

from helpers import copy_content, replace_in
from crisis.interpreter.engine.program import program_of


def problems(folder) -> str:
    with pytest.raises(ContentError) as caught:
        load_content(folder)
    return caught.value.report()


def test_a_misspelt_weight_is_shown_where_it_is_with_a_guess(tmp_path):
    folder = copy_content(tmp_path)
    replace_in(folder / "bots" / "heuristic.yaml", "  pivotal: 0.3", "  pivotl: 0.3")
    report = problems(folder)
    assert "bots/heuristic.yaml:" in report and "unknown key 'pivotl' in the evaluation" in report
    assert "did you mean 'pivotal'?" in report and "^" in report


def test_a_breach_weight_names_a_zone_of_the_board(tmp_path):
    folder = copy_content(tmp_path)
    replace_in(folder / "bots" / "heuristic.yaml", "    Final Crisis: 0.0", "    Final Crises: 0.0")
    report = problems(folder)
    assert "unknown zone 'Final Crises'" in report and "did you mean 'Final Crisis'?" in report


@pytest.mark.parametrize("old,new,expected", [
    ("iterations: 20", "iterations: 0", "'iterations' must be at least 1"),
    ("iterations: 20", "iterations: many", "'iterations' in search.yaml should be a whole number"),
    ("iterations: 20", "iterations: 12\nmilliseconds: 50", "either iterations or milliseconds"),
    ("decisions: [play_card,", "decisions: [play_cards,", "unknown kind of decision 'play_cards'"),
    ("exploration: 0.7", "exploration: -1", "'exploration' must be at least 0"),
    ("widen: 3", "widen: -1", "'widen' must be at least 0"),
    ("rollout: 0", "rollout: two", "'rollout' in search.yaml should be a whole number"),
])
def test_search_settings_are_checked(tmp_path, old, new, expected):
    folder = copy_content(tmp_path)
    replace_in(folder / "bots" / "search.yaml", old, new)
    report = problems(folder)
    assert "bots/search.yaml:" in report and expected in report


def test_settings_change_how_the_bots_play_but_not_the_rules(tmp_path, content):
    folder = copy_content(tmp_path)
    replace_in(folder / "bots" / "evaluation.yaml", "  your pool: 0.1", "  your pool: 0.75")
    replace_in(folder / "bots" / "search.yaml", "iterations: 20", "milliseconds: 250")
    changed = load_content(folder)
    weights = [term.weight for term in judge_for(program_of(changed)).evaluator.terms]
    assert 0.75 in weights and 0.75 not in [term.weight for term in judge_for(program_of(content)).evaluator.terms]
    assert str(settings_for(Game.of(changed, 1, log=False)).budget) == "250ms"
    assert changed.digest == content.digest  # saved games still resume


def test_without_settings_files_the_bots_use_their_defaults(tmp_path):
    folder = copy_content(tmp_path)
    for name in ("heuristic.yaml", "search.yaml"):
        (folder / "bots" / name).unlink()
    assert load_content(folder).bots.search.budget.iterations > 0
