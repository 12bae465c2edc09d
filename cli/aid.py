"""``crisis aid``: the Solo Opponent Aid of a side, rendered from the rules in the player's language.

Everything printed comes from the solo content (``content/<game>/solo/``):
the two space-selection tables of the side's aid, and the rules every aid
shares (definitions, the turn, the priorities).  "you" in those rules is the
solo opponent; they are shown from the player's side ("the Solo Opponent",
"the player"), as a printed aid reads.
"""

from __future__ import annotations

import textwrap
from typing import List

from crisis.content.model import Content
from crisis.ruleset.render import render_block, render_condition, render_locations

from .text import Presenter

WIDTH = 96


def _wrapped(text: str, indent: str = "  ", hanging: str = "     ") -> List[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=hanging) or [indent]


def aid_lines(content: Content, show: Presenter, side: str) -> List[str]:
    c, solo = show.catalog, content.solo
    aid = solo.aids[side]
    other = next(s for s in content.board.sides if s != side)
    lines = [c.text("cli.aid.title", side=show.side(side), player=show.side(other)), ""]
    # rows not from the printed aid (its rows are not public): said once, before the tables; a
    # mark on each such row only when some rows are the printed aid's
    authored = [row.provenance == "authored" for table in ("place", "remove") for row in aid.tables[table]]
    marked = any(authored) and not all(authored)
    if any(authored):
        lines.extend(_wrapped(c.text("cli.aid.authored.some" if marked else "cli.aid.authored.all"), "", ""))
        lines.append("")
    for table in ("place", "remove"):
        lines.append(c.text(f"cli.aid.{table}"))
        for index, row in enumerate(aid.tables[table], 1):
            text = render_locations(row.rule.tree, c, "solo")
            if row.tokens:
                text += c.text(f"cli.aid.for_tokens.{row.tokens}")
            mark = c.text(f"cli.aid.provenance.{row.provenance}") if marked else ""
            lines.extend(_wrapped(c.text("cli.aid.row", n=index, text=text, provenance=mark)))
        lines.append("")
    lines.extend(_wrapped(c.text("cli.aid.selection"), "", ""))
    lines.append("")
    for marker, priorities in solo.markers.items():
        lines.append(c.text("cli.aid.priorities", marker=c.name("markers", marker)))
        for index, line in enumerate(priorities, 1):
            ties = c.text(f"cli.aid.ties.{line.ties}") if line.ties else ""
            lines.extend(_wrapped(c.text("cli.aid.line", n=index, text=render_locations(line.rule.tree, c, "solo"),
                                         ties=ties)))
        lines.append("")
    lines.append(c.text("cli.aid.definitions"))
    for case in solo.available:
        sources = render_locations(case.tokens.tree, c, "solo")
        if case.when is None:
            lines.extend(_wrapped(c.text("cli.aid.available", tokens=sources)))
        else:
            lines.extend(_wrapped(c.text("cli.aid.available_when", tokens=sources,
                                         condition=render_condition(case.when.tree, c, "solo"))))
    for name, (kind, rule) in solo.terms.items():
        lines.extend(_wrapped(c.text(f"cli.aid.term_{kind}", term=c.name("terms", name),
                                     text=render_condition(rule.tree, c, "solo"))))
    lines.append("")
    procedures = (("turn", "turn"), ("pivotal_bonus", "pivotal_bonus"),
                  ("final_crisis_matching", "matching"), ("final_crisis_not_matching", "not_matching"))
    for key, label in procedures:
        lines.append(c.text(f"cli.aid.procedure.{label}"))
        # a list the solo rulebook letters is lettered as it is, with what happens when no line can be
        named = c.has(f"trace.line_labels.{key}")
        labels = show.line_labels(key) if named else None
        for sentence in render_block(solo.opponent[key].tree, c, actor="solo", labels=labels).split("\n"):
            lines.extend(_wrapped(sentence))
        if named:
            lines.extend(_wrapped(c.text("cli.aid.none_of_these", label=labels("none"))))
        lines.append("")
    criteria = ", ".join(c.text(f"cli.aid.criterion.{name}") for name in solo.exclusive_options)
    lines.extend(_wrapped(c.text("cli.aid.exclusive_options", criteria=criteria), "", ""))
    levels = ", ".join(c.text("cli.aid.level", name=c.name("difficulty", name), vp=vp) for name, vp in solo.difficulty)
    lines.extend(_wrapped(c.text("cli.aid.difficulty", levels=levels), "", ""))
    return lines
