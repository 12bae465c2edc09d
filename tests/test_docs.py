"""The designer's reference stays true: its examples parse and check, and the
examples it attributes to cards are really in those cards."""

import re
from pathlib import Path

import pytest

from crisis.content.loader import read_game
from crisis.ruleset.reader import parse
from crisis.ruleset.resolver import Resolver, Slot

DOC = (Path(__file__).resolve().parents[1] / "docs" / "language.md").read_text(encoding="utf-8")
EXAMPLES = [block for lang, block in re.findall(r"```(\w*)\n(.*?)\n```", DOC, re.S)
            if lang == "" and "error:" not in block]
# every context word allowed: an example is quoted without the card or step around it
ANYWHERE = Slot("the reference", this_space=True, this_group=True, the_card=True, revealed=True, sequence=True)
FILTERS_ONLY = ("each ", "pivotal spaces", "Public Opinion spaces")


def rule_text(block):
    return "\n".join(re.sub(r"\s+#.*$", "", line) for line in block.split("\n"))


@pytest.mark.parametrize("block", [b for b in EXAMPLES if not b.lstrip().startswith(FILTERS_ONLY)],
                         ids=lambda b: b.split("\n")[0][:50])
def test_every_example_parses_and_checks(definition, block):
    tree = parse(rule_text(block), definition.lexicon, "block")
    _meaning, found = Resolver(definition.schema, definition.declarations, definition.lexicon).block(tree, ANYWHERE)
    assert [str(problem) for problem in found if problem.severity == "error"] == []


@pytest.fixture(scope="module")
def definition():
    """Fort Sumter as the general front end reads it: the examples are checked against its rules."""
    return read_game(Path(__file__).resolve().parents[1] / "content" / "fort-sumter")


def test_examples_attributed_to_cards_are_in_those_cards(content):
    titles = {content.catalog("en").text(f"cards.{c.id}.title"): c for c in content.strategy_cards}
    checked = 0
    for block in EXAMPLES:
        for line in block.split("\n"):
            match = re.match(r"^(.*?\S)\s+# ([^;:(]+?)\s*(;.*)?$", line)
            if not match or match.group(2) not in titles:
                continue
            card = titles[match.group(2)]
            assert match.group(1).strip() in card.event.text, (card.id, match.group(1))
            checked += 1
    assert checked >= 15


def test_solo_examples_are_in_the_solo_content(content):
    """Rows and definitions quoted from the solo content are really there (docs/solo.md)."""
    from crisis.content.loader import default_content_dir
    shipped = "\n".join(p.read_text(encoding="utf-8") for p in (default_content_dir() / "solo").glob("*.yaml"))
    quoted = [line.strip() for lang, block in re.findall(r"```(\w*)\n(.*?)\n```", DOC, re.S) if lang == "yaml"
              for line in block.split("\n") if line.strip().startswith(("- row:", "card:"))]
    assert len(quoted) >= 6
    for line in quoted:
        assert line in shipped, line
