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
