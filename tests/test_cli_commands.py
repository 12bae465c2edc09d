"""The batch commands a designer or tester runs: check, test, play --bots, sim."""

import re

import pytest

from clirun import run_crisis, run_main
from helpers import copy_content


def test_check_passes_on_the_shipped_content():
    result = run_crisis("check")
    assert result.returncode == 0, result.stderr
    assert "OK -- 12 spaces, 40 strategy cards" in result.stdout


def test_check_reports_a_typo_with_file_line_column_and_fails(tmp_path):
    root = copy_content(tmp_path)
    (root / "cards" / "zz-typo.yaml").write_text(
        "strategy_cards:\n  - id: typo-card\n    value: 1\n    event_for: both\n    final_crisis: Political\n"
        "    provenance: authored\n    event: place 1 in Washingtn\n", encoding="utf-8")
    result = run_crisis("check", "--content", root)
    assert result.returncode == 1
    assert "zz-typo.yaml:7:23: error: unknown space 'Washingtn'" in result.stderr
    assert "did you mean 'Washington'?" in result.stderr
    assert "Traceback" not in result.stderr


def test_play_bots_prints_a_whole_game_ending_with_the_score_and_winner():
    result = run_crisis("play", "--bots", "--seed", "5")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0] == "seed 5"
    assert any(line.startswith("Round 1 begins") for line in lines)
    assert "The Final Crisis begins." in lines
    assert "Final score" in lines
    # the final score's headline names the winner, once, with the score (issue 17, item 14)
    headline = lines[lines.index("Final score") + 1]
    assert re.fullmatch(r"(Unionist|Secessionist) wins, \d+ VP to \d+\.", headline)
    assert sum(1 for line in lines if re.search(r"\b(Unionist|Secessionist) wins\b", line)) == 1
    vp = [int(m.group(2)) for m in map(re.compile(r"^(Unionist|Secessionist): (\d+) VP$").match, lines) if m]
    assert len(vp) == 2


def test_play_bots_is_reproducible_from_its_seed():
    # the real command, then in the process: the same seed, the same game
    first, second = run_crisis("play", "--bots", "--seed", "11"), run_main("play", "--bots", "--seed", "11")
    assert first.stdout == second.stdout
    assert first.stdout != run_main("play", "--bots", "--seed", "12").stdout


def test_sim_reports_win_rates_mean_vp_and_speed():
    result = run_crisis("sim", "--games", "50", "--seed", "3")
    assert result.returncode == 0, result.stderr
    sides = re.findall(r"^(Unionist|Secessionist): won (\d+) \(([\d.]+)%\), mean final VP ([\d.]+)$",
                       result.stdout, re.M)
    assert [s[0] for s in sides] == ["Unionist", "Secessionist"]
    assert sum(int(s[1]) for s in sides) == 50
    assert re.search(r"^50 games in [\d.]+ s \(\d+ games? per second\)$", result.stdout, re.M)


def test_test_command_runs_scenarios_and_reports_failures(tmp_path):
    scenario = tmp_path / "wrong.yaml"
    scenario.write_text("name: wrong on purpose\nposition:\n  phase: card_play\n  hands:\n"
                        "    Unionist: [lincoln, winfield-scott]\n    Secessionist: [florida-secedes]\n"
                        "actions:\n  - value lincoln\n  - place Texas\n  - done\n"
                        "expect:\n  tokens: {Texas: {Unionist: 2}}\n", encoding="utf-8")
    result = run_crisis("test", scenario)
    assert result.returncode == 1
    assert "FAIL" in result.stdout and "tokens.Texas.Unionist: expected 2, got 1" in result.stdout
    assert "0 passed, 1 failed, 0 not run (1 scenario in 1 file)" in result.stdout


def test_an_unknown_content_directory_is_a_clear_error(tmp_path):
    (tmp_path / "notes").mkdir()
    for command in (["play", "--bots"], ["check"]):
        result = run_crisis(*command, "--content", tmp_path / "notes")
        assert result.returncode == 2, command
        assert "this is not a content directory" in result.stderr
        assert "Traceback" not in result.stderr
        missing = run_main(*command, "--content", tmp_path / "nowhere")
        assert missing.returncode == 2 and "there is no such folder" in missing.stderr, command


@pytest.mark.parametrize("lang, one, many", [
    ("en", "1 game in 2 s (1 game per second)", "3 games in 2 s (2 games per second)"),
    ("es", "1 partida en 2 s (1 partida por segundo)", "3 partidas en 2 s (2 partidas por segundo)")])
def test_the_sim_summary_counts_in_words(content, lang, one, many):
    catalog = content.catalog(lang)
    assert catalog.text("summary.sim", games=1, seconds="2", rate=1) == one
    assert catalog.text("summary.sim", games=3, seconds="2", rate=2) == many


def test_command_line_mistakes_are_told_with_the_commands_own_usage(tmp_path):
    """A misspelt option after the command shows that command's usage (the tool's said nothing of
    it); a command that needs an action shows its own help; --lang before the command is read."""
    mistyped = run_main("play", "--lang", "es", "--sede", "3", cwd=tmp_path)
    assert mistyped.returncode == 2
    assert mistyped.stderr.startswith("uso: crisis play ") and "--sede 3" in mistyped.stderr
    bare = run_main("i18n", cwd=tmp_path)
    assert bare.returncode == 2 and bare.stdout.startswith("usage: crisis i18n ")
    first = run_main("--lang", "es", "sim", "--games", "2", "--jobs", "1", cwd=tmp_path)
    assert first.returncode == 0 and "2 partidas en" in first.stdout


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_command_line_error_breaks_between_words_on_a_narrow_terminal_and_keeps_one_line_piped(
        monkeypatch, lang):
    """An unknown bot's error names every bot: 87 characters in Spanish, cut by a terminal of 60
    mid-word; on a terminal it is broken between words, piped it stays one line for tools."""
    import io
    import sys
    from crisis.cli.main import main

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setenv("COLUMNS", "60")
    monkeypatch.setenv("NO_COLOR", "1")
    errors = []
    for stream in (Terminal(), io.StringIO()):
        monkeypatch.setattr(sys, "stderr", stream)
        assert main(["play", "--vs", "nobody-at-all", "--lang", lang]) == 2
        errors.append(stream.getvalue().splitlines())
    on_terminal, piped = errors
    assert len(piped) == 1 and len(piped[0]) > 60
    assert max(len(line) for line in on_terminal) <= 60 and len(on_terminal) > 1
    assert " ".join(" ".join(on_terminal).split()) == " ".join(piped[0].split())


@pytest.mark.parametrize("lang, ok, failed", [("en", "OK --", "FAILED -- 1 warning, which --strict counts as failures"),
                                               ("es", "correcto --", "NO SUPERADA -- 1 aviso, que --strict cuenta como fallos")])
def test_check_strict_with_a_warning_says_it_failed_not_ok(tmp_path, lang, ok, failed):
    """Under --strict a warning fails the check: its last line says so and why, never "OK" beside exit status 1."""
    from helpers import replace_in
    root = copy_content(tmp_path)
    replace_in(root / "cards" / "strategy-unionist.yaml", "place 3 in Fort Sumter", "place up to 6 in Fort Sumter")
    lenient = run_main("check", "--lang", lang, "--content", root)
    assert lenient.returncode == 0 and ok in lenient.stdout and failed not in lenient.stdout
    strict = run_main("check", "--strict", "--lang", lang, "--content", root)
    assert strict.returncode == 1 and "can never reach 6" in strict.stderr
    (last,) = strict.stdout.splitlines()
    assert failed in last and ok not in last, last


@pytest.mark.parametrize("lang, said", [
    ("es", "Fort Sumter no tiene ninguna regla opcional «nada». Sus reglas opcionales: Descarte de Eventos."),
    ("en", "Fort Sumter has no optional rule 'nada'. Its optional rules: Event Discard."),
])
def test_an_optional_rule_the_game_lacks_is_told_with_the_games_title_and_the_rules_names_in_the_language(
        lang, said):
    """The refusal names the game by its title and its optional rules as the player's catalog names
    them (not the game's folder name, nor the rules' own spelling 'event discard')."""
    result = run_main("--lang", lang, "play", "--bots", "--option", "nada")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip() == said


def test_an_optional_rule_is_taken_by_the_name_the_refusal_shows_and_a_guess_is_shown_so_too():
    import json
    for lang, name in (("es", "descarte de eventos"), ("en", "Event Discard"), ("es", "event_discard")):
        result = run_main("--lang", lang, "sim", "--games", "2", "--json", "--option", name)
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["options"] == {"event_discard": True}
    result = run_main("--lang", "es", "sim", "--games", "2", "--option", "descarte evento")
    assert result.returncode == 2
    assert "¿Querías decir «Descarte de Eventos»?" in result.stderr and "fort-sumter" not in result.stderr
