"""Loading content: the shipped game loads; a broken copy is refused with every problem located."""

import pytest

from crisis.content.loader import load_content
from crisis.content.yamlfile import ContentError

from helpers import copy_content, designer_card, replace_in


def add_card_file(root, text):
    path = root / "cards" / "zz-designer.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def problems(root):
    with pytest.raises(ContentError) as caught:
        load_content(root)
    return caught.value.diagnostics


CARD = designer_card("|\n      place 2 in Fort Sumter\n      {line}")


def test_shipped_content_loads(content):
    assert len(content.board.spaces) == 12
    assert len(content.strategy_cards) == 40
    assert {d.name for d in content.board.dimensions} == {"Political", "Secession", "Armaments", "Public Opinion"}
    assert "en" in content.catalogs


def test_a_typo_in_a_card_is_reported_at_its_yaml_position(tmp_path):
    root = copy_content(tmp_path)
    path = add_card_file(root, CARD.format(line="remove 1 opponent token from Fort Sumpter"))
    (d,) = problems(root)
    assert d.path.endswith("cards/zz-designer.yaml")
    assert (d.line, d.column) == (9, 36)
    assert d.source_line == "      remove 1 opponent token from Fort Sumpter"
    assert d.hint == "did you mean 'Fort Sumter'?"
    report = d.format()
    assert "zz-designer.yaml:9:36: error: unknown space 'Fort Sumpter' (in card 'designer-card', event)" in report
    assert "^~~~~~~~~~~~" in report
    assert path.exists()


def test_a_syntax_error_in_a_one_line_rule_points_into_the_line(tmp_path):
    root = copy_content(tmp_path)
    add_card_file(root, CARD.replace("event: |\n      place 2 in Fort Sumter\n      {line}\n",
                                     'event: "place 2 in Fort Sumter or Texsa"\n'))
    (d,) = problems(root)
    assert (d.line, d.column) == (7, 39)
    assert d.message == "unknown space 'Texsa'"


def test_every_problem_is_reported_and_nothing_is_loaded(tmp_path):
    root = copy_content(tmp_path)
    add_card_file(root, """\
strategy_cards:
  - id: first-card
    value: 2
    event_for: Unionst
    final_crisis: Armaments
    provenanse: authored
    event: place 1 in Texas
  - id: second-card
    value: 0
    event_for: both
    final_crisis: Politcal
    provenance: authored
    event: gain 1 vp
""")
    found = [(d.line, d.message) for d in problems(root)]
    assert (6, "unknown key 'provenanse' in a strategy card") in found
    assert (2, "a strategy card has no 'provenance'") in found
    assert (4, "unknown side 'Unionst'") in found
    assert (9, "a card's value is at least 1") in found
    assert (11, "unknown dimension 'Politcal'") in found
    assert (13, "unknown word 'vp'") in found


def test_a_duplicate_key_is_an_error_not_silently_overwritten(tmp_path):
    root = copy_content(tmp_path)
    add_card_file(root, CARD.format(line="gain 1 VP").replace("    value: 2\n", "    value: 2\n    value: 3\n"))
    (d,) = problems(root)
    assert (d.line, d.message, d.hint) == (4, "'value' is given twice", "it was first given on line 3")


def test_invalid_yaml_is_located(tmp_path):
    root = copy_content(tmp_path)
    add_card_file(root, "strategy_cards:\n  - id: [unclosed\n")
    (d,) = problems(root)
    assert d.message.startswith("this is not valid YAML")
    assert d.line is not None


def test_a_missing_locale_text_is_reported(tmp_path):
    root = copy_content(tmp_path)
    add_card_file(root, CARD.format(line="gain 1 VP"))
    (d,) = problems(root)
    assert d.message == "locale 'en' has no text for 'cards.designer-card.title'"
    assert d.path.endswith("locale/en/cards-strategy.yaml")


def test_a_broken_message_placeholder_is_reported(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "locale" / "en" / "messages.yaml", 'round: "Round {round} begins',
               'round: "Round {round begins')
    (d,) = problems(root)
    assert "message 'log.round'" in d.message and "never closed" in d.message


def test_board_numbers_must_add_up(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "game.yaml", "tokens_per_side: 25", "tokens_per_side: 24")
    (d,) = problems(root)
    assert d.message == "24 tokens per side, but the track and bonus boxes hold 25"


def test_a_rule_in_rules_yaml_is_checked_like_a_card(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "rules.yaml", "  - you control Fort Sumter", "  - you control Fort Sumtre")
    (d,) = problems(root)
    assert d.path.endswith("rules.yaml")
    assert d.message == "unknown space or dimension 'Fort Sumtre'"
    assert d.hint == "did you mean 'Fort Sumter'?"


def test_not_a_content_directory(tmp_path):
    (d,) = problems(tmp_path)
    assert d.message == "this is not a content directory: it has no game.yaml"


def test_the_digest_follows_the_rules_not_the_texts(tmp_path, content):
    root = copy_content(tmp_path)
    assert load_content(root).digest == content.digest
    replace_in(root / "locale" / "en" / "messages.yaml", '"The Final Crisis begins."', '"The Final Crisis starts."')
    assert load_content(root).digest == content.digest
    replace_in(root / "rules.yaml", "tie_breaks:\n  - you control Fort Sumter\n",
               "tie_breaks:\n  - you control Fort Pickens\n  - you control Fort Sumter\n")
    assert load_content(root).digest != content.digest
