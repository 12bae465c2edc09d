"""Small helpers shared by tests."""

import shutil
from pathlib import Path

from crisis.content.loader import default_content_dir


def copy_content(tmp_path: Path) -> Path:
    """A designer's own copy of the shipped content, to break on purpose."""
    target = tmp_path / "content"
    shutil.copytree(default_content_dir(), target)
    return target


def line_of(path: Path, text: str) -> int:
    """The line of ``path`` where ``text`` starts (1 the first): where a message should point."""
    content = path.read_text(encoding="utf-8")
    return content[:content.index(text)].count("\n") + 1


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not found in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def designer_card(event: str) -> str:
    """A card file holding one designer's card, whose event is ``event`` (YAML written after 'event: ')."""
    return ("strategy_cards:\n  - id: designer-card\n    value: 2\n    event_for: both\n"
            "    final_crisis: Armaments\n    provenance: authored\n    event: " + event + "\n")


def add_designer_card(root: Path, card_yaml: str, card_id: str, title: str) -> None:
    """Add a card file to a content copy, with its title in the English and Spanish catalogs."""
    (root / "cards" / "zz-designer.yaml").write_text(card_yaml, encoding="utf-8")
    for lang in ("en", "es"):
        (root / "locale" / lang / "zz-designer.yaml").write_text(
            f"cards:\n  {card_id}:\n    title: {title}\n", encoding="utf-8")


def resolved(definition, text: str, how: str = "block"):
    """A rule text read by the general front end against a game's definition, anywhere a rule may
    stand (a card's rule, the sequence of play): a block, a condition, places or holders."""
    from crisis.ruleset.reader import parse
    from crisis.ruleset.resolver import ANYWHERE, Resolver
    start = {"block": "block", "condition": "condition_rule", "places": "places_rule", "holders": "places_rule"}[how]
    resolver = Resolver(definition.schema, definition.declarations, definition.lexicon)
    tree = parse(text, definition.lexicon, start)
    if how == "block":
        result, found = resolver.block(tree, ANYWHERE)
    elif how == "condition":
        result, found = resolver.condition(tree, ANYWHERE)
    else:
        result, found = resolver.places(tree, ANYWHERE, holders=how == "holders")
    errors = [d.message for d in found if d.severity == "error"]
    assert errors == [], errors
    return result


def phrased(content, text: str, lang: str = "en", how: str = "block", inline: bool = False, actor: str = "you"):
    """A rule text as a player reads it (ruleset/phrasing.py), in ``lang``."""
    from crisis.ruleset.phrasing import phrase_block, phrase_condition, phrase_places
    definition = content.definition
    rule = resolved(definition, text, how)
    catalog, schema, declarations = content.catalog(lang), definition.schema, definition.declarations
    if how == "block":
        return phrase_block(rule, catalog, schema, declarations, inline=inline, actor=actor)
    if how == "condition":
        return phrase_condition(rule, catalog, schema, declarations, actor)
    return phrase_places(rule, catalog, schema, declarations, actor)


def assert_same_choice_on_twins(make_bot, original, twin) -> None:
    """A bot made twice by ``make_bot()`` chooses the same on a game and its twin (the same game
    with what the chooser cannot see changed); a search bot also grows the same tree: the same
    visits and results for every action at its root."""
    bots = [make_bot(), make_bot()]
    chosen = [bot.choose(game, game.decision).text for bot, game in zip(bots, (original, twin))]
    assert chosen[0] == chosen[1]
    if getattr(bots[0], "last", None) is not None:
        stats = [{t: (e.visits, round(e.total, 9)) for t, e in bot.last.root.edges.items()} for bot in bots]
        assert stats[0] == stats[1]
