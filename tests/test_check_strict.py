"""`crisis check` refuses content that cannot mean what it says.

Each case used to pass `check`: a count the per-space limit makes impossible,
a condition the game's constants make impossible, a qualifier lost from
'Secession spaces', a typo or a gap in the English catalog (which every
player would see), blamed on the right file.
"""

import pytest

from clirun import run_crisis, run_main
from crisis.content.definition import card_slot
from crisis.content.loader import load_content
from crisis.ruleset.reader import parse
from crisis.ruleset.resolver import Resolver
from helpers import copy_content, replace_in


@pytest.fixture(scope="module")
def check(content):
    """What the rules front end says of a text as a strategy card's event."""
    definition = content.definition
    resolver = Resolver(definition.schema, definition.declarations, definition.lexicon)
    event = card_slot(definition.schema, definition.schema.card_kind("strategy cards"), "event")
    return lambda text: resolver.block(parse(text, definition.lexicon), event)[1]


@pytest.mark.parametrize("text, message", [
    ("place 22 in Washington", "22 tokens can never be placed here: a side has at most 4 tokens in a space, "
                               "so at most 4 in 1 space"),
    ("place 5 in Fort Pickens", "5 tokens can never be placed here: a side has at most 4 tokens in a space, "
                                "so at most 4 in 1 space"),
    ("place 13 in Secession spaces", "13 tokens can never be placed here: a side has at most 4 tokens in a "
                                     "space, so at most 12 in 3 spaces"),
    ("place 4 in Secession spaces, at most 1 per space", "4 tokens can never be placed here: at most 1 per "
                                                         "space, so at most 3 in 3 spaces"),
    ("place 5 in each Armaments space", "5 tokens can never be placed here: a side has at most 4 tokens in a "
                                        "space, so at most 4 in each space"),
    ("remove 5 opponent tokens from Texas", "5 tokens can never be removed here: a side has at most 4 tokens "
                                            "in a space, so at most 4 in 1 space"),
    ("move 5 tokens from your pool to Washington", "5 tokens can never be moved here: a side has at most 4 "
                                                   "tokens in a space, so at most 4 in 1 space"),
    ("if the round is 11: gain 1 VP", "this condition can never hold: round goes from 1 to 3"),
    ("if the round is more than 3: gain 1 VP", "this condition can never hold: round goes from 1 to 3"),
    ("if you have at least 5 tokens in Texas: gain 1 VP",
     "this condition can never hold: a player has 0 to 4 tokens in a space"),
    ("if you control at least 13 spaces: gain 1 VP", "this condition can never hold: there are 12 spaces"),
    ("if your pool has more than 25 tokens: gain 1 VP", "this condition can never hold: a pool holds 0 to 25 tokens"),
    ("if you have fewer than 0 VP: gain 1 VP", "this condition can never hold: VP goes from 0 to 99"),
])
def test_impossible_counts_and_conditions_are_errors(check, text, message):
    (d,) = check(text)
    assert (d.severity, d.message) == ("error", message)


@pytest.mark.parametrize("text", [
    "place 4 in Washington", "place 8 in Washington or Montgomery", "place 12 in Secession spaces",
    "remove up to 8 tokens of either side from Texas", "move 5 tokens from your pool to your crisis track",
    "if the round is at least 2: gain 1 VP", "if you have 4 tokens in Texas: gain 1 VP",
])
def test_possible_counts_pass(check, text):
    assert check(text) == []


@pytest.mark.parametrize("text, message", [
    ("place up to 6 in Washington", "'up to 6' can never reach 6 here: a side has at most 4 tokens in a space, "
                                    "so at most 4 in 1 space"),
    ("if the round is at least 1: gain 1 VP", "this condition always holds: round goes from 1 to 3"),
])
def test_counts_that_cannot_be_reached_in_full_are_warnings(check, text, message):
    (d,) = check(text)
    assert (d.severity, d.message) == ("warning", message)


def test_a_bare_spaces_is_a_warning_with_a_suggestion(check):
    (d,) = check("place 2 in spaces")
    assert (d.severity, d.message, d.column) == ("warning", "a bare 'spaces' means every space on the map", 12)
    assert d.hint == "did you mean 'any spaces'?"
    assert "Secession spaces" in d.expected
    for fine in ("place 2 in any spaces", "place 2 in Secession spaces", "remove 1 opponent token from spaces "
                                                                        "the opponent controls"):
        assert check(fine) == [], fine


def test_the_command_fails_on_errors_warns_on_warnings_and_strict_fails_on_them(tmp_path):
    root = copy_content(tmp_path)
    cards = root / "cards" / "strategy-unionist.yaml"
    replace_in(cards, "place 3 in Fort Sumter", "place 22 in Fort Sumter")
    result = run_crisis("check", "--content", root)
    assert result.returncode == 1
    assert "strategy-unionist.yaml:" in result.stderr and "22 tokens can never be placed here" in result.stderr
    replace_in(cards, "place 22 in Fort Sumter", "place up to 6 in Fort Sumter")
    result = run_main("check", "--content", root)
    assert result.returncode == 0, result.stderr
    assert "warning: 'up to 6' can never reach 6 here" in result.stderr and "1 warning;" in result.stdout
    assert run_main("check", "--strict", "--content", root).returncode == 1


def test_the_shipped_content_is_clean_even_under_strict():
    result = run_crisis("check", "--strict")
    assert result.returncode == 0 and result.stderr == ""


def test_a_placeholder_typo_in_the_english_catalog_is_blamed_on_the_english_file(tmp_path):
    root = copy_content(tmp_path)
    # the game's own English text of a key of the tool's catalog (content/interface/en/)
    (root / "locale" / "en" / "zz-mine.yaml").write_text(
        'cli:\n  save:\n    write_failed: "Warning: the game could not be saved in {flie} ({error})."\n',
        encoding="utf-8")
    result = run_crisis("check", "--content", root)
    assert result.returncode == 1
    (error,) = [l for l in result.stderr.splitlines() if ": error:" in l]
    assert "locale/en/zz-mine.yaml:" in error
    assert "'cli.save.write_failed' uses the placeholder {flie}, which the game never fills" in error
    assert "did you mean {file}?" in result.stderr
    # i18n check says the same, and does not blame the (correct) Spanish text
    i18n = run_main("i18n", "check", "--content", root)
    assert "locale/es/" not in i18n.stdout and "locale/en/zz-mine.yaml" in i18n.stdout


def test_a_deleted_english_section_is_an_error_in_check(tmp_path):
    import yaml
    root = copy_content(tmp_path)
    en = root / "locale" / "en" / "board.yaml"
    data = yaml.safe_load(en.read_text(encoding="utf-8"))
    assert "scoring" in data
    del data["scoring"]  # the game's own words: the tool's catalog has none of them
    en.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    result = run_main("check", "--content", root)
    assert result.returncode == 1
    assert "locale 'en' has no text for 'scoring.dimensions'" in result.stderr


def test_an_untranslated_text_is_only_a_warning_in_check(tmp_path):
    root = copy_content(tmp_path)
    es = root / "locale" / "es" / "messages.yaml"
    text = es.read_text(encoding="utf-8")
    line = next(l for l in text.splitlines() if l.strip().startswith("final crisis:"))
    replace_in(es, line + "\n", "")
    result = run_main("check", "--content", root)
    assert result.returncode == 0, result.stderr
    assert "warning: 'log.step.final crisis' is missing in the 'es' catalog" in result.stderr


def test_content_warnings_do_not_stop_a_game(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "cards" / "strategy-unionist.yaml", "place 3 in Fort Sumter", "place up to 6 in Fort Sumter")
    content = load_content(root)
    assert [w.message.split(":")[0] for w in content.warnings] == ["'up to 6' can never reach 6 here"]
