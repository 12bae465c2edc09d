"""``crisis aid``: the Solo Opponent Aid of a side, rendered from the rules in the player's language.

Everything printed comes from the solo overlay (``content/<game>/solo/``):
the two space-selection tables of the side's aid, and the rules every aid
shares (definitions, the turn, the priorities).  "you" in those rules is the
solo opponent; they are shown from the player's side ("the Solo Opponent",
"the player"), as a printed aid reads.
"""

from __future__ import annotations

import textwrap
from typing import List

from crisis.content.model import Content
from crisis.content.phrases import key
from crisis.ruleset.phrasing import capitalised, phrase_block, phrase_condition, phrase_places

from .text import Presenter

WIDTH = 96

# the kinds of the overlay's definitions, as the aid's templates name them (cli.aid.term_*)
TERM_KINDS = {"card_term": "card", "place": "space"}


def aid_lines(content: Content, show: Presenter, side: str, width: int = WIDTH) -> List[str]:
    """The aid of ``side``, from the solo overlay of the game's definition (solo/overlay.yaml and
    its aid-*.yaml), its rules put into words by ruleset/phrasing.py, in lines of at most
    ``width`` characters."""
    def _wrapped(text: str, indent: str = "  ", hanging: str = "     ") -> List[str]:
        return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=hanging) or [indent]

    def heading(text: str) -> List[str]:
        return _wrapped(text, "", "")

    c, definition = show.catalog, content.definition
    overlay, schema = definition.overlay, definition.schema
    declarations = definition.declarations

    def places(rule) -> str:
        return phrase_places(rule, c, schema, declarations, "solo")

    def condition(rule) -> str:
        return phrase_condition(rule, c, schema, declarations, "solo")

    tables = overlay.aids[schema.sides.index(side)]
    other = next(s for s in schema.sides if s != side)
    lines = heading(c.text("cli.aid.title", side=show.side(side), player=show.side(other))) + [""]
    # rows not from the printed aid (its rows are not public): said once, before the tables; a
    # mark on each such row only when some rows are the printed aid's
    authored = [row.provenance == "authored" for table in ("place", "remove") for row in tables[table]]
    marked = any(authored) and not all(authored)
    if any(authored):
        lines.extend(_wrapped(c.text("cli.aid.authored.some" if marked else "cli.aid.authored.all"), "", ""))
        lines.append("")
    for table in ("place", "remove"):
        lines.extend(heading(c.text(f"cli.aid.{table}")))
        for index, row in enumerate(tables[table], 1):
            text = places(row.places)
            if row.whose:
                text += c.text(f"cli.aid.for_tokens.{row.whose}")
            mark = c.text(f"cli.aid.provenance.{row.provenance}") if marked else ""
            lines.extend(_wrapped(c.text("cli.aid.row", n=index, text=text, provenance=mark)))
        lines.append("")
    lines.extend(_wrapped(c.text("cli.aid.selection"), "", ""))
    lines.append("")
    for marker, priorities in overlay.markers.items():
        lines.extend(heading(c.text("cli.aid.priorities", marker=c.name("markers", schema.markers[marker].name))))
        for index, line in enumerate(priorities, 1):
            ties = c.text(f"cli.aid.ties.{line.ties}") if line.ties else ""
            lines.extend(_wrapped(c.text("cli.aid.line", n=index, text=places(line.places), ties=ties)))
        lines.append("")
    lines.extend(heading(c.text("cli.aid.definitions")))
    for when, holders in overlay.available:
        if when is None:
            lines.extend(_wrapped(c.text("cli.aid.available", tokens=places(holders))))
        else:
            lines.extend(_wrapped(c.text("cli.aid.available_when", tokens=places(holders),
                                         condition=condition(when))))
    for name, (kind, rule) in definition.terms.items():
        if kind in TERM_KINDS:
            lines.extend(_wrapped(c.text(f"cli.aid.term_{TERM_KINDS[kind]}", term=c.name("terms", name),
                                         text=condition(rule))))
    lines.append("")
    role = overlay.roles[0]
    # the steps and procedures the overlay gives the game's side a way of its own to play, in the
    # order it writes them, each under its label (cli.aid.procedure.<name>, else its name)
    played = [(section, name, variants[role]) for section, part in (("steps", overlay.steps),
                                                                    ("procedures", overlay.procedures))
              for name, variants in part.items() if role in variants]
    for section, written, rule in played:
        name = key(written)
        title = f"cli.aid.procedure.{name}"
        lines.extend(heading(c.text(title) if c.has(title) else capitalised(c.name(section, written))))
        # a list the solo rulebook letters is lettered as it is, with what happens when no line can be
        named = c.has(f"trace.line_labels.{name}")
        labels = show.line_labels(name) if named else None
        for sentence in phrase_block(rule, c, schema, declarations, actor="solo",
                                     labels=labels).split("\n"):
            lines.extend(_wrapped(sentence))
        if named:
            lines.extend(_wrapped(c.text("cli.aid.none_of_these", label=labels("none"))))
        lines.append("")
    criteria = ", ".join(c.text(f"cli.aid.criterion.{name}") for name in overlay.criteria)
    lines.extend(_wrapped(c.text("cli.aid.exclusive_options", criteria=criteria), "", ""))
    # each level with what the game's side starts with (its first counter's start: the solo game's VP)
    levels = ", ".join(c.text("cli.aid.level", name=c.name("difficulty", name), vp=starts[0][1] if starts else 0)
                       for name, starts in overlay.difficulty)
    lines.extend(_wrapped(c.text("cli.aid.difficulty", levels=levels), "", ""))
    return lines
