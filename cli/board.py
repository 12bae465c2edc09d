"""Drawing the game for a person: the board, the crisis tracks, a player's
private cards and the recent log.

Everything here reads the engine's state and the content's names; every word
comes from the locale catalog (keys ``cli.*``) through the Presenter.  There
is no game logic: control is asked of the engine, never worked out here.
"""

from __future__ import annotations

import textwrap
from typing import List, Sequence

from crisis.interpreter.state import NOBODY

from .terminal import Style
from .text import Presenter


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - len(text))


class Screen:
    """Text blocks for one game, in one locale and style."""

    def __init__(self, game, show: Presenter, style: Style, width: int = 100):
        self.game = game
        self.show = show
        self.c = show.catalog
        self.style = style
        self.width = width
        self.t = game.tables

    # ---------------------------------------------------------------- names
    def side(self, index: int) -> str:
        return self.style.side(index, self.show.side(self.t.sides[index]))

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

    def wrap(self, text: str, indent: int) -> List[str]:
        width = max(30, self.width - indent)
        lines: List[str] = []
        for paragraph in text.split("\n"):
            lines.extend(" " * indent + line for line in (textwrap.wrap(paragraph, width) or [""]))
        return lines

    # --------------------------------------------------------------- header
    def header(self) -> List[str]:
        st, board = self.game.state, self.t.board
        phase = self.text(f"cli.phase.{st.phase}")
        first = self.game.first_player()
        title = self.text("cli.board.header", game=self.text("cli.title"), round=st.round, rounds=board.rounds,
                          phase=phase, first=self.side(first))
        vp = "   ".join(self.text("cli.board.vp_side", side=self.side(i), vp=st.vp[i]) for i in (0, 1))
        lines = [self.style.bold(title), vp]
        facts = []
        if st.phase == "card_play":
            played = [self.text("cli.board.played_side", side=self.side(i), n=st.plays[i],
                                of=board.cards_played_per_round) for i in (0, 1)]
            facts.append(self.text("cli.board.played", sides="   ".join(played)))
        facts.append(self.text("cli.board.deck", n=len(st.strategy_deck)))
        lines.append("   ".join(facts))
        return lines

    # ---------------------------------------------------------------- board
    def board(self) -> List[str]:
        st, t, ex, style = self.game.state, self.t, self.game.executor, self.style
        names = [self.show.space(s) for s in t.spaces]
        side_names = [self.show.side(s) for s in t.sides]
        maximum = t.max_per_space
        name_w = max(len(n) for n in names) + 2
        col_w = [max(len(side_names[i]), maximum) + 3 for i in (0, 1)]
        control_w = max(len(n) for n in side_names) + 3
        lines = []
        head = (" " * (name_w + 3) + style.side(0, _pad(side_names[0], col_w[0]))
                + style.side(1, _pad(side_names[1], col_w[1])) + self.text("cli.board.control"))
        lines.append(head)
        for d, spaces in enumerate(t.dimension_spaces):
            title = style.bold(self.c.name("dimensions", t.dimensions[d]))
            owner = next((i for i in (0, 1) if ex.controls_dimension(i, d)), NOBODY)
            if owner != NOBODY:
                title += "  " + self.text("cli.board.dimension_controlled", side=self.side(owner))
            lines.append(title)
            for s in spaces:
                mark = style.pivotal if t.is_pivotal[s] else " "
                row = f" {mark} " + _pad(names[s], name_w)
                for i in (0, 1):
                    n = st.tokens[i][s]
                    pips = style.token * n + style.empty * max(0, maximum - n)
                    row += style.side(i, pips) + " " * (col_w[i] - len(pips))
                controller = next((i for i in (0, 1) if ex.controls(i, s)), NOBODY)
                control = self.side(controller) if controller != NOBODY else style.dim(self.text("cli.board.nobody"))
                visible = len(side_names[controller]) if controller != NOBODY else len(self.text("cli.board.nobody"))
                row += control + " " * max(0, control_w - visible)
                for m, where in enumerate(st.markers):
                    if where == s:
                        row += f"{style.marker} " + style.bold(self.c.name("markers", t.markers[m].name))
                lines.append(row.rstrip())
        for m, marker in enumerate(t.markers):
            name = self.c.name("markers", marker.name)
            blocks = ("both" if marker.blocks_placement and marker.blocks_removal else
                      "placement" if marker.blocks_placement else "removal" if marker.blocks_removal else "none")
            if st.markers[m] == NOBODY:
                lines.append(self.text("cli.board.marker_off", marker=name))
            else:
                lines.append(self.text("cli.board.marker_on", marker=name, space=names[st.markers[m]],
                                       blocks=blocks, symbol=style.marker))
        lines.append(style.dim(self.text("cli.board.legend", pivotal=style.pivotal, token=style.token,
                                          empty=style.empty)))
        return lines

    # --------------------------------------------------------------- tracks
    def tracks(self) -> List[str]:
        st, t, style = self.game.state, self.t, self.style
        zones = t.zones
        side_names = [self.show.side(s) for s in t.sides]
        zone_names = [self.c.name("zones", z.name) for z in zones]
        label = self.text("cli.board.tracks")
        name_w = max(len(label), *(len(n) for n in side_names)) + 2
        cells = [[self._zone_cell(i, z) for z in range(len(zones))] for i in (0, 1)]
        zone_w = [max(len(zone_names[z]), len(cells[0][z][0]), len(cells[1][z][0])) + 2 for z in range(len(zones))]
        pool_label = self.text("cli.board.pool")
        pool_w = len(pool_label) + 2
        head = _pad(label, name_w) + "".join(_pad(zone_names[z], zone_w[z]) for z in range(len(zones)))
        head += _pad(pool_label, pool_w) + self.text("cli.board.breached")
        lines = [style.bold(head)]
        for i in (0, 1):
            row = style.side(i, _pad(side_names[i], name_w))
            for z in range(len(zones)):
                plain, coloured = cells[i][z]
                row += coloured + " " * (zone_w[z] - len(plain))
            row += _pad(str(st.pool[i]).rjust(len(pool_label)), pool_w)
            breached = [zone_names[z] for z in range(len(zones)) if st.breached[i][z] and zones[z].box]
            row += self.join(breached) if breached else style.dim(self.text("cli.board.nothing"))
            lines.append(row.rstrip())
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
    def card_line(self, card: int, detailed: bool) -> List[str]:
        t = self.t
        info = t.strategy_cards[card]
        if info.event is None:
            event_for = self.text("cli.card.no_event")
        elif len(info.event_for) == len(t.sides):
            event_for = self.text("cli.card.event_for_all")
        else:
            event_for = self.join([self.style.side(t.side_index[s], self.show.side(s)) for s in info.event_for])
        line = "   " + self.text("cli.card.summary", title=self.style.bold(self.show.card(info.id)), id=self.show.card_slug("cards", info.id),
                                 value=info.value, event_for=event_for,
                                 dimension=self.c.name("dimensions", info.final_crisis))
        lines = [line]
        if detailed and info.event is not None:
            lines.extend(self.style.dim(x) for x in self.wrap(self.show.card_rule_text("cards", info, inline=True), 7))
        return lines

    def objective_line(self, card: int, key: str) -> List[str]:
        info = self.t.objective_cards[card]
        lines = ["   " + self.text(key, title=self.style.bold(self.show.objective(info.id)), id=self.show.card_slug("objectives", info.id),
                                   space=self.show.space(info.space))]
        if info.event is not None:
            lines.extend(self.style.dim(x) for x in self.wrap(self.show.card_rule_text("objectives", info, inline=True), 7))
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

    def public_cards(self, sides: Sequence[int]) -> List[str]:
        """Card counts everyone may know."""
        st = self.game.state
        return [self.text("cli.panel.counts", side=self.side(i), hand=len(st.hands[i]), aside=len(st.set_aside[i]),
                          kept=int(st.objectives[i] != NOBODY)) for i in sides]

    # ------------------------------------------------------------------ log
    def log_lines(self, start: int, least: int = 4, most: int = 12) -> List[str]:
        """Log entries since ``start`` (at least the last ``least``, at most ``most``)."""
        log = self.game.log or []
        begin = max(0, min(start, len(log) - least))
        entries = log[begin:]
        lines = []
        if len(entries) > most:
            lines.append(self.style.dim("   " + self.text("cli.panel.earlier", n=len(entries) - most)))
            entries = entries[-most:]
        first = len(log) - len(entries)
        for index, entry in enumerate(entries):
            text = self.show.log_line(entry)
            if first + index >= start:
                lines.append(f" {self.style.new} " + text)
            else:
                lines.append(self.style.dim("   " + text))
        return lines
