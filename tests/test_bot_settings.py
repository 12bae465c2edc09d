"""The bots' settings are content (bots/evaluation.yaml, bots/search.yaml): read and checked
like the rest, with errors that point at the file, line and column."""

import re

import pytest

from crisis.content.loader import default_content_dir, load_content
from crisis.content.yamlfile import ContentError
from crisis.interpreter.engine.game import Game
from crisis.interpreter.players.heuristic import judge_for
from crisis.interpreter.players.search import settings_for

from helpers import copy_content, replace_in
from crisis.interpreter.engine.program import program_of

# the shipped budget's line, whatever its number (tuning changes it; the tests rewrite the line)
ITERATIONS = re.search(r"^iterations: \d+", (default_content_dir() / "bots" / "search.yaml").read_text(
    encoding="utf-8"), re.M).group(0)


def problems(folder) -> str:
    return refused(folder).report()


def refused(folder) -> ContentError:
    """What loading the content at ``folder`` is refused with."""
    with pytest.raises(ContentError) as caught:
        load_content(folder)
    return caught.value


def the_one_problem_of(folder, file: str, old: str, new: str):
    """The content copied to ``folder`` with one edit of ``bots/<file>``: its only problem."""
    replace_in(folder / "bots" / file, old, new)
    (problem,) = refused(folder).diagnostics
    return problem


def test_a_misspelt_term_of_the_evaluation_is_shown_where_it_is_with_a_guess(tmp_path):
    folder = copy_content(tmp_path)
    replace_in(folder / "bots" / "evaluation.yaml", "  pivotal spaces you control: 0.3", "  pivotl spaces you control: 0.3")
    report = problems(folder)
    assert "bots/evaluation.yaml:" in report and "pivotl" in report and "^" in report


def test_an_unknown_step_of_a_term_is_named_with_a_guess(tmp_path):
    folder = copy_content(tmp_path)
    replace_in(folder / "bots" / "evaluation.yaml", "during: [deal, objectives, card play, pivotal]",
               "during: [deal, objectives, card plays, pivotal]", )
    report = problems(folder)
    assert "unknown step 'card plays'" in report and "did you mean 'card play'?" in report


def test_a_heuristic_settings_file_left_from_the_earlier_engine_is_a_warning_not_a_silent_no_op(tmp_path):
    """bots/heuristic.yaml set the earlier engine's weights; the bots now read bots/evaluation.yaml
    only, so a designer editing it would see nothing change: check says so, and --strict fails."""
    from crisis.cli.main import main
    folder = copy_content(tmp_path)
    (folder / "bots" / "heuristic.yaml").write_text("evaluation:\n  vp: 2.0\norder_playouts: 4\n", encoding="utf-8")
    loaded = load_content(folder)
    (warning,) = [w for w in loaded.warnings if "heuristic.yaml" in w.path]
    assert "evaluation.yaml" in warning.hint
    assert main(["check", "--content", str(folder), "--strict"]) != 0
    (folder / "bots" / "heuristic.yaml").unlink()
    assert main(["check", "--content", str(folder), "--strict"]) == 0


@pytest.mark.parametrize("old,new,expected", [
    (ITERATIONS, "iterations: 0", "'iterations' must be at least 1"),
    (ITERATIONS, "iterations: many", "'iterations' in search.yaml should be a whole number"),
    (ITERATIONS, "iterations: 12\nmilliseconds: 50", "either iterations or milliseconds"),
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


def test_a_term_with_a_word_the_game_lacks_gets_the_word_meant(tmp_path):
    """'your VPs': the rule ends too early where the parser stopped, and the hint names the word
    the game does not know and the one it likely meant."""
    d = the_one_problem_of(copy_content(tmp_path), "evaluation.yaml", "  your VP: 1.0", "  your VPs: 1.0")
    assert d.hint == "'VPs' is not a word of this game: did you mean 'VP'?"


def test_a_misspelt_required_key_is_told_once(tmp_path):
    """'wieght' for 'weight': the unknown key, with the key meant; not also a term without a weight."""
    d = the_one_problem_of(copy_content(tmp_path), "evaluation.yaml", "    weight: 0.3\n    during:",
                           "    wieght: 0.3\n    during:")
    assert d.message.startswith("unknown key 'wieght'") and d.hint == "did you mean 'weight'?"


def test_a_searched_kind_left_out_of_the_horizon_is_told_as_such_not_as_unknown(tmp_path):
    """The search searches only kinds a look-ahead stops at: a kind taken out of the evaluation's
    horizon is told at the search's line as missing from the horizon, with how to mend it."""
    folder = copy_content(tmp_path)
    replace_in(folder / "bots" / "evaluation.yaml", "horizon: [play_card, keep_objective, order]",
               "horizon: [play_card, order]")
    report = problems(folder)
    assert "bots/search.yaml:" in report and "unknown kind" not in report
    assert "'keep_objective' is not in the evaluation's horizon" in report
    assert "add 'keep_objective' to 'horizon:' in bots/evaluation.yaml" in report


def test_settings_change_how_the_bots_play_but_not_the_rules(tmp_path, content):
    folder = copy_content(tmp_path)
    replace_in(folder / "bots" / "evaluation.yaml", "  your pool: 0.1", "  your pool: 0.75")
    replace_in(folder / "bots" / "search.yaml", ITERATIONS, "milliseconds: 250")
    changed = load_content(folder)
    weights = [term.weight for term in judge_for(program_of(changed)).evaluator.terms]
    assert 0.75 in weights and 0.75 not in [term.weight for term in judge_for(program_of(content)).evaluator.terms]
    assert str(settings_for(Game.of(changed, 1, log=False)).budget) == "250ms"
    assert changed.digest == content.digest  # saved games still resume


def test_without_settings_files_the_bots_use_their_defaults(tmp_path):
    folder = copy_content(tmp_path)
    (folder / "bots" / "search.yaml").unlink()
    assert load_content(folder).bots.search.budget.iterations > 0


CIVIL_WAR = __import__("pathlib").Path(__file__).resolve().parents[1] / "content" / "civil-war-card-game"


def _first_decision(game, kind, bot_of):
    """Play on (each side by ``bot_of``) to the first decision of ``kind`` with a real choice."""
    while game.decision is not None and not (game.decision.kind == kind and len(game.decision.actions) > 1):
        game.apply(bot_of(game.decision.player).choose(game, game.decision))
    return game


def test_without_a_list_the_search_searches_the_decisions_of_its_games_horizon():
    """The Civil War Card Game's bots/ has no search.yaml: the search bot searches the kinds its
    evaluation's horizon names (deploy, march, ...), not Fort Sumter's card plays and objectives;
    before, it searched only interrupts there and played like the heuristic."""
    from crisis.interpreter.players.registry import RandomBot
    from crisis.interpreter.players.search import SearchBot
    content = load_content(CIVIL_WAR)
    game = _first_decision(Game.of(content, 5, log=False), "deploy", lambda side: RandomBot(5, side))
    assert game.decision is not None, "no deploy decision with a choice in this game"
    bot = SearchBot(5, game.decision.player)
    chosen = bot.choose(game, game.decision)
    assert chosen in game.decision.actions and bot.last is not None and bot.last.iterations > 0


def test_a_search_list_names_a_kind_the_engine_or_the_horizon_knows(tmp_path):
    import shutil
    folder = tmp_path / "cw"
    shutil.copytree(CIVIL_WAR, folder)
    (folder / "bots" / "search.yaml").write_text("iterations: 10\ndecisions: [deploy, marhc]\n", encoding="utf-8")
    report = problems(folder)
    assert "bots/search.yaml:2:" in report and "unknown kind of decision 'marhc'" in report
    assert "did you mean 'march'?" in report
    (folder / "bots" / "search.yaml").write_text("iterations: 10\ndecisions: [deploy, march, option]\n",
                                                 encoding="utf-8")
    assert settings_for(Game.of(load_content(folder), 1, log=False)).decisions == ("deploy", "march", "option")


def test_a_game_without_a_horizon_still_has_a_search_that_searches(tmp_path):
    """No 'decisions' and no 'horizon': the search searches the decisions the engine asks in any
    game (card plays, options...), never nothing at all (it would be the heuristic by another name)."""
    import shutil
    from crisis.content.bots import ENGINE_DECISIONS
    folder = tmp_path / "cw"
    shutil.copytree(CIVIL_WAR, folder)
    shipped = settings_for(Game.of(load_content(CIVIL_WAR), 1, log=False)).decisions
    assert "deploy" in shipped and "march" in shipped
    evaluation = folder / "bots" / "evaluation.yaml"
    text = evaluation.read_text(encoding="utf-8")
    evaluation.write_text("\n".join(line for line in text.splitlines() if not line.startswith("horizon:")) + "\n",
                          encoding="utf-8")
    assert settings_for(Game.of(load_content(folder), 1, log=False)).decisions == ENGINE_DECISIONS


def _horizon_warnings(root):
    from crisis.content.loader import load_content
    from crisis.interpreter.engine.program import program_of
    from crisis.interpreter.players.evaluation import horizon_warnings
    return horizon_warnings(program_of(load_content(root)))


@pytest.mark.parametrize("game", ["fort-sumter", "civil-war-card-game"])
def test_the_shipped_horizons_name_decisions_their_games_ask(game):
    from crisis.content.games import game_path
    assert _horizon_warnings(game_path(game)) == []


def test_a_misspelt_kind_of_the_horizon_is_a_warning_at_its_place_with_a_guess(tmp_path):
    """A horizon names the decisions a look-ahead plays on to; a kind the game never asks is never
    reached (the fuzzer's files cut short made every look-ahead play to the end of the game)."""
    from helpers import copy_content, line_of, replace_in
    root = copy_content(tmp_path)
    replace_in(root / "bots" / "evaluation.yaml", "horizon: [play_card, keep_objective, order]",
               "horizon: [play_crad, keep_objective, order]")
    (warning,) = _horizon_warnings(root)
    assert warning.severity == "warning"
    assert (warning.line, warning.column) == (line_of(root / "bots" / "evaluation.yaml", "horizon:"), 11)
    assert warning.message == "this game never asks a decision of the kind 'play_crad'"
    assert warning.hint == "did you mean 'play_card'?"


def test_an_evaluation_without_a_horizon_is_a_warning_and_check_strict_fails(tmp_path):
    from clirun import run_main
    from helpers import copy_content, replace_in
    root = copy_content(tmp_path)
    replace_in(root / "bots" / "evaluation.yaml", "horizon: [play_card, keep_objective, order]", "")
    replace_in(root / "bots" / "search.yaml", "decisions: [play_card, keep_objective]",
               "decisions: [play_card, order]")
    (warning,) = _horizon_warnings(root)
    assert warning.message.startswith("the evaluation has no horizon: each look-ahead stops at the next decision")
    assert run_main("check", "--content", root).returncode == 0
    assert run_main("check", "--content", root, "--strict").returncode != 0
