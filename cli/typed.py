"""What a person types at a prompt, read the same way by every front-end: a number is ASCII digits
(``str.isdigit()`` and ``int()`` also take '²' and '٣'), and a line past ``MAX_TYPED_CHARS`` is
refused before any work is done on it (a megabyte pasted by mistake took seconds to compare with
every choice)."""

from __future__ import annotations

import re
from typing import Optional

from crisis.ruleset import limits

_ASCII_DIGITS = re.compile(r"[0-9]+")  # `\d` would take every script's digits
PAST_EVERY_CHOICE = 10 ** limits.MAX_NUMBER_DIGITS  # a longer number than any menu or game needs


def typed_number(text: str) -> Optional[int]:
    """The whole number ``text`` spells in ASCII digits, else None.  A number of more digits than
    any choice needs is never converted (Python refuses past 4,300 digits): it is
    ``PAST_EVERY_CHOICE``, which every range check refuses."""
    if not _ASCII_DIGITS.fullmatch(text):
        return None
    if len(text.lstrip("0")) > limits.MAX_NUMBER_DIGITS:
        return PAST_EVERY_CHOICE
    return int(text.lstrip("0") or "0")


def too_long(line: str) -> bool:
    """A typed line longer than anything a prompt takes (an action, a card's name, a command)."""
    return len(line) > limits.MAX_TYPED_CHARS


def too_long_text(catalog) -> str:
    """Why a line was not read, in the catalog's language."""
    limit = f"{limits.MAX_TYPED_CHARS:,}".replace(",", catalog.raw("cli.number.thousands") or ",")
    return catalog.text("cli.input.too_long", limit=limit)
