"""Drawing the game for a person: the board, the crisis tracks, a player's
private cards, the feed, the end of a round and the final score.

Everything here reads the engine's state and the content's names; every word
comes from the locale catalog (keys ``cli.*``) through the Presenter.  There
is no game logic: control is asked of the engine, never worked out here.
Both front-ends draw with these blocks: the line mode prints them, the
full-screen interface puts them in its panes.
"""

from __future__ import annotations

import re
import textwrap
from typing import Iterable, List, Optional, Sequence

from crisis.interpreter.state import NOBODY

from .terminal import Style
from .text import Presenter

_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def visible(text: str) -> int:
    """Width of a line on screen, colour codes left out."""
    return len(_ESCAPE.sub("", text))


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - visible(text))


def fit(line: str, width: int, indent: Optional[int] = None) -> List[str]:
    """A (possibly coloured) line broken between words so that no piece is wider than ``width``;
    pieces after the first are indented like the line, plus two (or by ``indent``)."""
    if visible(line) <= width:
        return [line]
    lead = len(line) - len(line.lstrip(" "))
    hang = " " * min(width // 2, lead + 2 if indent is None else indent)
    out: List[str] = []
    current, size, empty = " " * lead, lead, True
    for word in line[lead:].split(" "):
        length = visible(word)
        if not empty and size + 1 + length > width:
            out.append(current)
            current, size, empty = hang, len(hang), True
        if not empty:
            current += " "
            size += 1
        while length > width - size > 0 and not _ESCAPE.search(word):  # a word longer than a line is cut
            room = width - size
            out.append(current + word[:room])
            word, length = word[room:], length - room
            current, size = hang, len(hang)
        current += word
        size += length
        empty = False
    out.append(current)
    return [piece.rstrip(" ") for piece in out]


def fit_all(lines: Iterable[str], width: int) -> List[str]:
    out: List[str] = []
    for line in lines:
        for part in line.split("\n"):
            out.extend(fit(part, width))
    return out


def short_names(names: Sequence[str], least: int = 3) -> List[str]:
    """The shortest starts of the names (at least ``least`` letters) that tell them apart."""
    size = least
    while size < max(len(n) for n in names) and len({n[:size].lower() for n in names}) < len(names):
        size += 1
    return [n[:size] for n in names]


class Screen:
    """Text blocks for one game, in one locale and style, for a screen ``width`` columns wide."""

    def __init__(self, game, show: Presenter, style: Style, width: int = 100):
        self.game = game
        self.show = show
        self.c = show.catalog
        self.style = style
        self.width = width
        self.t = game.tables
        self.side_names = [show.side(s) for s in self.t.sides]
        self.shorts = short_names(self.side_names)

    # ---------------------------------------------------------------- names
    def side(self, index: int) -> str:
        return self.style.side(index, self.side_names[index])

    def text(self, key: str, **params) -> str:
        return self.c.text(key, **params)

    def join(self, parts: Sequence[str]) -> str:
        parts = list(parts)
        if not parts:
            return ""
        if len(parts) == 1:
            return parts[0]
        text = parts[0]
        for part in parts[1:-1]:
            text = self.text("cli.list.more", a=text, b=part)
        return self.text("cli.list.two", a=text, b=parts[-1])

    def wrap(self, text: str, indent: int, width: Optional[int] = None) -> List[str]:
        width = max(20, (width or self.width) - indent)
        lines: List[str] = []
        for paragraph in text.split("\n"):
            lines.extend(" " * indent + line for line in (textwrap.wrap(paragraph, width) or [""]))
        return lines

    # --------------------------------------------------------------- header
    def header(self, compact: bool = False) -> List[str]:
        """Round, phase and first player; VP, cards played, the deck.  ``compact`` fits 80 columns
        in two lines (the full-screen interface's header)."""
        st, board = self.game.state, self.t.board
        phase = self.text(f"cli.phase.{st.phase}")
        first = self.game.first_player()
        key = "cli.board.header_short" if compact else "cli.board.header"
        title = self.text(key, game=self.text("cli.title"), round=st.round, rounds=board.rounds,
                          phase=phase, first=self.side(first))
        vp = "   ".join(self.text("cli.board.vp_side", side=self.side(i), vp=st.vp[i]) for i in (0, 1))
        facts = [vp]
        if st.phase == "card_play":
            names = self.shorts if compact else self.side_names
            played = [self.text("cli.board.played_side", side=self.style.side(i, names[i]), n=st.plays[i],
                                of=board.cards_played_per_round) for i in (0, 1)]
            facts.append(self.text("cli.board.played_short" if compact else "cli.board.played",
                                   sides="   ".join(played)))
        facts.append(self.text("cli.board.deck_short" if compact else "cli.board.deck", n=len(st.strategy_deck)))
        return [self.style.bold(title), "   ".join(facts)]

    # ---------------------------------------------------------------- board
    def _controller(self, space: int) -> int:
        ex = self.game.executor
        return next((i for i in (0, 1) if ex.controls(i, space)), NOBODY)

    def _dimension_block(self, d: int, changed) -> List[str]:
        """One dimension: its name (and who controls it whole), then a row per space:
        changed mark, pivotal mark, marker, name, each side's tokens, the controller."""
        st, t, style, ex = self.game.state, self.t, self.style, self.game.executor
        names = [self.show.space(s) for s in t.spaces]
        name_w = max(len(n) for n in names)
        pips_w = t.max_per_space
        title = style.bold(self.c.name("dimensions", t.dimensions[d]))
        owner = next((i for i in (0, 1) if ex.controls_dimension(i, d)), NOBODY)
        if owner != NOBODY:
            title += " " + self.text("cli.board.dimension_controlled", side=self.side(owner))
        lines = [title]
        for s in t.dimension_spaces[d]:
            new = style.new if s in changed else " "
            pivotal = style.pivotal if t.is_pivotal[s] else " "
            marker = style.marker if any(where == s for where in st.markers) else " "
            name = _pad(names[s], name_w)
            if s in changed:
                name = style.highlight(name)
            row = f"{new}{pivotal}{marker} {name} "
            for i in (0, 1):
                n = st.tokens[i][s]
                row += style.side(i, style.token * n) + style.empty * max(0, pips_w - n) + " "
            controller = self._controller(s)
            row += (style.side(controller, self.shorts[controller]) if controller != NOBODY
                    else style.dim(self.text("cli.board.nobody")))
            lines.append(row.rstrip())
        return lines

    def board(self, changed: Iterable[int] = (), legend: bool = True) -> List[str]:
        """The map, two dimensions side by side when the screen is wide enough, then the markers
        (without the column heads and the legend, for the full-screen interface: ``legend=False``)."""
        changed = set(changed)
        t, style = self.t, self.style
        blocks = [self._dimension_block(d, changed) for d in range(len(t.dimensions))]
        block_w = max(visible(line) for block in blocks for line in block)
        head = self._column_head(block_w)
        lines: List[str] = []
        if self.width >= 2 * block_w + 3 and len(blocks) > 1:
            if legend:
                lines.append(_pad(head, block_w + 3) + head)
            for left in range(0, len(blocks), 2):
                pair = blocks[left:left + 2]
                height = max(len(b) for b in pair)
                for row in range(height):
                    cells = [b[row] if row < len(b) else "" for b in pair]
                    lines.append((_pad(cells[0], block_w + 3) + (cells[1] if len(cells) > 1 else "")).rstrip())
        else:
            if legend:
                lines.append(head)
            for block in blocks:
                lines.extend(block)
        if not legend:
            return lines + [line for m, line in enumerate(self.marker_lines()) if self.game.state.markers[m] != NOBODY]
        lines += self.marker_lines()
        keys = {"pivotal": style.pivotal, "token": style.token, "empty": style.empty, "marker": style.marker,
                "new": style.new, "sides": "  ".join(style.side(i, f"{self.shorts[i]} {self.side_names[i]}")
                                                     for i in (0, 1))}
        lines.append(style.dim(self.text("cli.board.legend", **keys)))
        return lines

    def _column_head(self, block_w: int) -> str:
        """The names over the token columns."""
        t = self.t
        names = [self.show.space(s) for s in t.spaces]
        lead = 4 + max(len(n) for n in names) + 1
        pips_w = t.max_per_space
        head = " " * lead
        for i in (0, 1):
            head += self.style.side(i, _pad(self.shorts[i], pips_w)) + " "
        return head.rstrip()

    def markers_placed(self) -> List[str]:
        """Each marker on the map and where, in a few words (what it forbids is said where it
        matters: under the question, and in help)."""
        st, t = self.game.state, self.t
        return [self.text("cli.board.marker_short", symbol=self.style.marker, marker=self.c.name("markers", marker.name),
                          space=self.show.space(t.spaces[st.markers[m]]))
                for m, marker in enumerate(t.markers) if st.markers[m] != NOBODY]

    def marker_lines(self) -> List[str]:
        st, t, style = self.game.state, self.t, self.style
        lines = []
        from .session import _blocks
        for m, marker in enumerate(t.markers):
            name = self.c.name("markers", marker.name)
            blocks = _blocks(marker)
            if st.markers[m] == NOBODY:
                lines.append(self.text("cli.board.marker_off", marker=name, symbol=style.marker))
            else:
                lines.append(self.text("cli.board.marker_on", marker=name, space=self.show.space(t.spaces[st.markers[m]]),
                                       blocks=blocks, symbol=style.marker))
        return lines

    # --------------------------------------------------------------- tracks
    def tracks(self, legend: bool = True) -> List[str]:
        """Each side's crisis track by zone, its pool and the zones breached; a narrower form
        when the table does not fit."""
        st, t, style = self.game.state, self.t, self.style
        zones = t.zones
        zone_names = [self.c.name("zones", z.name) for z in zones]
        label = self.text("cli.board.tracks")
        cells = [[self._zone_cell(i, z) for z in range(len(zones))] for i in (0, 1)]
        pool_label = self.text("cli.board.pool")
        breached = [[zone_names[z] for z in range(len(zones)) if st.breached[i][z] and zones[z].box] for i in (0, 1)]
        name_w = max(len(label), *(len(n) for n in self.side_names)) + 2
        zone_w = [max(len(zone_names[z]), len(cells[0][z][0]), len(cells[1][z][0])) + 2 for z in range(len(zones))]
        pool_w = len(pool_label) + 2
        table_w = name_w + sum(zone_w) + pool_w + max(len(self.text("cli.board.breached")),
                                                      *(len(self.join(b)) for b in breached))
        if table_w <= self.width:
            head = _pad(label, name_w) + "".join(_pad(zone_names[z], zone_w[z]) for z in range(len(zones)))
            head += _pad(pool_label, pool_w) + self.text("cli.board.breached")
            lines = [style.bold(head)]
            for i in (0, 1):
                row = style.side(i, _pad(self.side_names[i], name_w))
                for z in range(len(zones)):
                    plain, coloured = cells[i][z]
                    row += coloured + " " * (zone_w[z] - len(plain))
                row += _pad(str(st.pool[i]).rjust(len(pool_label)), pool_w)
                row += self.join(breached[i]) if breached[i] else style.dim(self.text("cli.board.nothing"))
                lines.append(row.rstrip())
        else:
            title = self.text("cli.board.tracks_short", label=label, zones=" | ".join(zone_names), pool=pool_label)
            if len(title) > self.width:
                title = self.text("cli.board.tracks_shorter", label=label, pool=pool_label)
            lines = [style.bold(title)]
            cell_w = sum(len(plain.replace(" +", "+")) + 1 for plain, _ in cells[0]) + 2 + len(str(max(st.pool)))
            names = self.side_names if max(len(n) for n in self.side_names) + 2 + cell_w <= self.width else self.shorts
            name_w = max(len(n) for n in names) + 2
            for i in (0, 1):
                row = style.side(i, _pad(names[i], name_w))
                row += " ".join(coloured.replace(" +", "+") for _, coloured in cells[i])
                row += f"  {st.pool[i]}"
                lines.append(row)
        if legend:
            lines.append(style.dim(self.text("cli.board.tracks_legend", token=style.token, empty=style.empty)))
        return lines

    def _zone_cell(self, side: int, zone: int):
        """(plain, coloured) text of one zone of one side's track: spaces from the top down, and the box."""
        st, z = self.game.state, self.t.zones[zone]
        left = st.track[side]  # tokens fill spaces 0 .. left-1
        pips = "".join(self.style.token if number < left else self.style.empty
                       for number in range(z.top, z.bottom - 1, -1))
        box = st.boxes[side][zone] if z.box else 0
        extra = f" +{box}" if box else ""
        return pips + extra, self.style.side(side, pips) + self.style.dim(extra)

    # -------------------------------------------------------- private cards
    def event_for(self, info, short: bool = False) -> str:
        """Whom a card's event is for (``short``: the sides' short names)."""
        t = self.t
        if info.event is None:
            return self.text("cli.card.no_event")
        if len(info.event_for) == len(t.sides):
            return self.text("cli.card.event_for_all_short" if short else "cli.card.event_for_all")
        names = self.shorts if short else self.side_names
        return self.join([self.style.side(t.side_index[s], names[t.side_index[s]]) for s in info.event_for])

    def card_line(self, card: int, detailed: bool, indent: int = 3) -> List[str]:
        info = self.t.strategy_cards[card]
        line = " " * indent + self.text("cli.card.summary", title=self.style.bold(self.show.card(info.id)),
                                         id=self.show.card_slug("cards", info.id), value=info.value,
                                         event_for=self.event_for(info),
                                         dimension=self.c.name("dimensions", info.final_crisis))
        lines = [line]
        if detailed and info.event is not None:
            lines.extend(self.style.dim(x) for x in self.wrap(self.show.card_rule_text("cards", info, inline=True),
                                                                indent + 4))
        return lines

    def objective_line(self, card: int, key: str, indent: int = 3) -> List[str]:
        info = self.t.objective_cards[card]
        lines = [" " * indent + self.text(key, title=self.style.bold(self.show.objective(info.id)),
                                          id=self.show.card_slug("objectives", info.id),
                                          space=self.show.space(info.space))]
        if info.event is not None:
            lines.extend(self.style.dim(x) for x in self.wrap(self.show.card_rule_text("objectives", info, inline=True),
                                                                indent + 4))
        return lines

    def private(self, viewer: int, detailed: bool) -> List[str]:
        """What only ``viewer`` may see: hand, objective, Final Crisis cards."""
        st, t = self.game.state, self.t
        lines: List[str] = []
        hand = st.hands[viewer]
        if hand:
            lines.append(self.text("cli.panel.hand", side=self.side(viewer), n=len(hand)))
            for card in hand:
                lines.extend(self.card_line(card, detailed))
        if st.objective_offer[viewer]:
            lines.append(self.text("cli.panel.offer", side=self.side(viewer)))
            for card in st.objective_offer[viewer]:
                lines.extend(self.objective_line(card, "cli.panel.objective_card"))
        if st.objectives[viewer] != NOBODY:
            lines.append(self.text("cli.panel.objective", side=self.side(viewer)))
            lines.extend(self.objective_line(st.objectives[viewer], "cli.panel.objective_card"))
        if st.set_aside[viewer]:
            lines.append(self.text("cli.panel.set_aside", cards=self.join(
                [self.show.card(t.strategy_cards[c].id) for c in st.set_aside[viewer]])))
        order = st.final_crisis_order[viewer]
        if order:
            cards = [self.text("cli.panel.order_card", card=self.show.card(t.strategy_cards[c].id),
                               dimension=self.c.name("dimensions", t.strategy_cards[c].final_crisis))
                     for c in order]
            lines.append(self.text("cli.panel.order", cards=self.join(cards), done=st.final_crisis_step))
        return lines

    def hand_compact(self, viewer: int, counts: bool = True, short: bool = False) -> List[str]:
        """``viewer``'s cards a line each (title, value and whom the event is for, or only the value
        when ``short``), then the objective kept, the Final Crisis cards and (``counts``) the other
        side's cards, counted: the few lines the full-screen interface has room for (a card in full
        is shown when its choice is highlighted)."""
        st, t = self.game.state, self.t
        lines: List[str] = []
        hand = st.hands[viewer]
        if hand:
            lines.append(self.text("cli.panel.hand_short" if short else "cli.panel.hand_compact"))
            for card in hand:
                info = t.strategy_cards[card]
                title = self.style.bold(self.show.card(info.id))
                if short:
                    lines.append("  " + self.text("cli.card.short", title=title, value=info.value))
                else:
                    lines.append("  " + self.text("cli.card.compact", title=title, value=info.value,
                                                   event_for=self.event_for(info, short=True)))
        if st.objectives[viewer] != NOBODY:
            lines.append(self.text("cli.panel.objective_compact", **self._objective_named(viewer)))
        if st.set_aside[viewer]:
            lines.append(self.text("cli.panel.set_aside", cards=self.join(
                [self.show.card(t.strategy_cards[c].id) for c in st.set_aside[viewer]])))
        order = st.final_crisis_order[viewer]
        if order:
            cards_shown = [self.text("cli.panel.order_card", card=self.show.card(t.strategy_cards[c].id),
                                     dimension=self.c.name("dimensions", t.strategy_cards[c].final_crisis))
                           for c in order]
            lines.append(self.text("cli.panel.order", cards=self.join(cards_shown), done=st.final_crisis_step))
        other = 1 - viewer
        if counts:
            lines.append(self.text("cli.panel.counts_compact", side=self.side(other), hand=len(st.hands[other]),
                                   aside=len(st.set_aside[other])))
        solo = self.game.solo
        if solo is not None and st.objectives[solo.side] != NOBODY:
            lines.append(self.text("cli.panel.solo_objective_compact", side=self.side(solo.side),
                                   **self._objective_named(solo.side)))
        return lines

    def _objective_named(self, side: int) -> dict:
        info = self.t.objective_cards[self.game.state.objectives[side]]
        return {"title": self.style.bold(self.show.objective(info.id)), "space": self.show.space(info.space)}

    def public_cards(self, sides: Sequence[int]) -> List[str]:
        """Card counts everyone may know; in the solo game, the solo opponent's objective (the player chose it)."""
        st = self.game.state
        lines = [self.text("cli.panel.counts", side=self.side(i), hand=len(st.hands[i]), aside=len(st.set_aside[i]),
                           kept=int(st.objectives[i] != NOBODY)) for i in sides]
        solo = self.game.solo
        if solo is not None and st.objectives[solo.side] != NOBODY:
            lines.append(self.text("cli.panel.solo_objective", side=self.side(solo.side)))
            lines.extend(self.objective_line(st.objectives[solo.side], "cli.panel.objective_card"))
        return lines

    # ------------------------------------------------------------------ log
    def feed(self, log, start: int, context: int = 3) -> List[str]:
        """Every log entry from ``start`` on (no cap), marked new; when there is nothing new,
        the last few entries, dimmed, so the screen still says where the game is."""
        lines = []
        if start >= len(log):
            for entry in log[max(0, len(log) - context):]:
                lines.append(self.style.dim("   " + self.show.log_line(entry)))
            return lines
        for entry in log[start:]:
            lines.append(f" {self.style.new} " + self.show.log_line(entry))
        return lines

    def round_end(self, summary) -> List[str]:
        """The end-of-round screen: every bonus, score and objective of the round's end, and VP."""
        lines = [self.style.bold(self.text("cli.round_end.title", round=summary.round))]
        lines += ["   " + self.show.log_line(entry) for entry in summary.entries]
        for i in (0, 1):
            lines.append(self.text("cli.round_end.vp", side=self.side(i), before=summary.vp_before[i],
                                   after=summary.vp_after[i]))
        return lines

    def result(self, reveal_seed: Optional[int] = None) -> List[str]:
        """The final score, the winner first: each side's VP before the final scoring, each final
        scoring line, the tie-break in words if one decided."""
        game, style, c = self.game, self.style, self.c
        st, result = game.state, game.state.result
        winner, loser = result.winner, 1 - result.winner
        lines = [style.bold(c.text("result.title")),
                 style.bold(self.text("cli.result.headline", winner=self.side(winner), vp=st.vp[winner],
                                      other=self.side(loser), other_vp=st.vp[loser]))]
        for side in (winner, loser):
            lines.append(c.text("result.line", side=self.side(side), vp=st.vp[side]))
            final = sum(n for _, n in result.breakdown[side])
            lines.append(self.text("cli.result.before", n=st.vp[side] - final))
            for label, n in result.breakdown[side]:
                lines.append(c.text("result.breakdown", label=c.text(f"scoring.{label}"), n=n))
        if result.tie_break >= 0:
            from crisis.content.phrases import condition_text
            rule = game.tie_break_rules()[result.tie_break]
            lines.append(c.text("cli.result.tie_break", rule=condition_text(game.content, c, rule),
                                winner=self.side(winner)))
        if reveal_seed is not None:
            lines.append(self.text("cli.result.seed", seed=reveal_seed))
        return lines
