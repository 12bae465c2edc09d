"""The designer's reference stays true: its examples parse and check, and the
examples it attributes to cards are really in those cards."""

import re
from pathlib import Path

import pytest

from crisis.ruleset.reader import parse
from crisis.ruleset.resolver import ANYWHERE, Resolver

DOC = (Path(__file__).resolve().parents[1] / "docs" / "language.md").read_text(encoding="utf-8")
EXAMPLES = [block for lang, block in re.findall(r"```(\w*)\n(.*?)\n```", DOC, re.S)
            if lang == "" and "error:" not in block]
FILTERS_ONLY = ("each ", "pivotal spaces", "Public Opinion spaces")


def rule_text(block):
    return "\n".join(re.sub(r"\s+#.*$", "", line) for line in block.split("\n"))


@pytest.mark.parametrize("block", [b for b in EXAMPLES if not b.lstrip().startswith(FILTERS_ONLY)],
                         ids=lambda b: b.split("\n")[0][:50])
def test_every_example_parses_and_checks(content, block):
    """Read as the rules front end reads Fort Sumter's rules, anywhere a rule may stand."""
    definition = content.definition
    resolver = Resolver(definition.schema, definition.declarations, definition.lexicon)
    _, found = resolver.block(parse(rule_text(block), definition.lexicon), ANYWHERE)
    assert [d.message for d in found] == []


def test_examples_attributed_to_cards_are_in_those_cards(content):
    cards = content.cards("strategy cards")
    events = cards.texts[[name for name, _ in content.schema.card_kind("strategy cards").fields].index("event")]
    titles = {content.catalog("en").text(f"cards.{card_id}.title"): event or ""
              for card_id, event in zip(cards.ids, events)}
    checked = 0
    for block in EXAMPLES:
        for line in block.split("\n"):
            match = re.match(r"^(.*?\S)\s+# ([^;:(]+?)\s*(;.*)?$", line)
            if not match or match.group(2) not in titles:
                continue
            event = titles[match.group(2)]
            assert match.group(1).strip() in event, (match.group(2), match.group(1))
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


def test_the_new_game_guide_lists_every_keyword_of_the_language():
    """docs/new-game.md tells designers which words a game may not take; the list is the
    grammar's, so a keyword added to the language must be added there."""
    import re
    from pathlib import Path
    from crisis.ruleset.reader import _keywords
    text = (Path(__file__).resolve().parents[1] / "docs" / "new-game.md").read_text(encoding="utf-8")
    listed = re.search(r"<!-- keywords:[^>]*-->\n(.*?)<!-- /keywords -->", text, re.S).group(1)
    assert sorted(word.strip() for word in listed.replace("\n", " ").split(",")) == sorted(_keywords())
