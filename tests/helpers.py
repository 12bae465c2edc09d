"""Small helpers shared by tests."""

import shutil
from pathlib import Path

from crisis.content.loader import default_content_dir


def copy_content(tmp_path: Path) -> Path:
    """A designer's own copy of the shipped content, to break on purpose."""
    target = tmp_path / "content"
    shutil.copytree(default_content_dir(), target)
    return target


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
