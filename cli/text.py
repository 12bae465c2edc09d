"""Turning engine events, decisions and actions into words, in a locale.

Every player-visible string comes from the catalog; engine parameters carry
ids (side, space, card ...) that are translated here.
"""

from __future__ import annotations

from typing import Dict, List, Optional

from crisis.content.locale import Catalog
from crisis.content.model import Content
from crisis.interpreter.actions import Action, Decision
from crisis.interpreter.compile import LogEntry

_SIDE_PARAMS = ("side", "actor", "winner", "player", "other")
_LOCATION_PARAMS = ("source", "dest")
_CARD_PARAMS = ("card", "discarded", "card0", "card1")
_DIMENSION_PARAMS = ("dimension", "dimension0", "dimension1")


class Presenter:
    def __init__(self, content: Content, catalog: Catalog):
        self.content = content
        self.catalog = catalog
        self.spaces = set(content.board.spaces)
        self.zones = {z.name for z in content.board.zones}

    # --------------------------------------------------------------- names
    def side(self, name: str) -> str:
        return self.catalog.name("sides", name)

    def space(self, name: str) -> str:
        return self.catalog.name("spaces", name)

    def card(self, card_id: str) -> str:
        return self.catalog.text(f"cards.{card_id}.title")

    def objective(self, card_id: str) -> str:
        return self.catalog.text(f"objectives.{card_id}.title")

    def card_rule_text(self, kind: str, card, inline: bool = False) -> str:
        """What a card's event says in this language: the designer's hand-written
        text if there is one (crisis check has verified it against the rule),
        else the text rendered from the rule.  ``kind`` is "cards" or "objectives"."""
        from crisis.ruleset.render import render_block
        written = self.catalog.raw(f"{kind}.{card.id}.text")
        if written is not None:
            return written
        return render_block(card.event.tree, self.catalog, inline=inline) if card.event else ""

    def location(self, name: str) -> str:
        if name in self.spaces:
            return self.space(name)
        if name.endswith(" box") and name[:-4] in self.zones:
            return self.catalog.text("location.box", zone=self.catalog.name("zones", name[:-4]))
        return self.catalog.text(f"location.{name}")

    def token(self, side: str, actor: Optional[str]) -> str:
        if actor is None or side == actor:
            return self.catalog.text("token.own")
        return self.catalog.text("token.side", side=self.side(side))

    def reason(self, reason: str) -> str:
        kind, _, rest = reason.partition(":")
        if not rest:
            if kind in ("dimension_scoring", "objective_scoring", "pivotal_bonus", "final_crisis"):
                return self.catalog.text(f"reason.{kind}")
            return self.catalog.text("reason.card", card=self.card(kind))
        if kind == "objective":
            return self.catalog.text("reason.objective", objective=self.objective(rest))
        if kind == "breach":
            return self.catalog.text("reason.breach", zone=self.catalog.name("zones", rest))
        return self.catalog.text("reason.scoring", label=self.catalog.text(f"scoring.{rest}"))

    def params(self, raw: Dict[str, object]) -> Dict[str, object]:
        """Engine parameters (ids) as display names, each with its grammatical
        forms (``x_g``, ``x_pl``) so a language can make articles agree."""
        out = dict(raw)
        for key, value in raw.items():
            if not isinstance(value, str):
                continue
            kind = None
            if key in _SIDE_PARAMS:
                kind = "sides"
            elif key in _LOCATION_PARAMS:
                out[key] = self.location(value)
                if value in self.spaces:
                    kind = "spaces"
            elif key == "space":
                kind = "spaces"
            elif key in _CARD_PARAMS:
                out[key] = self.card(value)
            elif key == "objective":
                out[key] = self.objective(value)
            elif key == "zone":
                kind = "zones"
            elif key == "marker":
                kind = "markers"
            elif key in _DIMENSION_PARAMS:
                kind = "dimensions"
            elif key == "reason":
                out[key] = self.reason(value)
            if kind is not None:
                shown = self.catalog.name(kind, value)
                if key not in _LOCATION_PARAMS:
                    out[key] = shown
                out[f"{key}_g"] = self.catalog.form(kind, value, "gender")
                out[f"{key}_pl"] = self.catalog.form(kind, value, "plural", shown)
        if "side" in raw and "actor" in raw:
            out["token"] = self.token(str(raw["side"]), str(raw["actor"]))
        return out

    # ----------------------------------------------------------------- log
    def log_line(self, entry: LogEntry) -> str:
        key = entry.key
        if key == "log.place" and entry.params.get("source") not in (None, "supply"):
            key = "log.place_from"
        return self.catalog.text(key, **self.params(entry.params))

    def log_lines(self, entries: List[LogEntry]) -> List[str]:
        return [self.log_line(e) for e in entries]

    # ------------------------------------------------------------ decisions
    def prompt(self, game, decision: Decision) -> str:
        t = game.tables
        key = f"decision.{decision.kind}"
        if decision.optional:
            key += "_optional"
        params = {"player": self.side(t.sides[decision.player]), "n": decision.remaining}
        if decision.kind == "marker" and decision.actions:
            params["marker"] = self.catalog.name("markers", t.markers[decision.actions[0].b].name)
        return self.catalog.text(key, **params)

    def action(self, game, decision: Decision, action: Action) -> str:
        """A player-facing description of an action, in the locale."""
        t = game.tables
        c = self.catalog
        names = t.locations.names
        kind = action.kind
        if kind == "keep":
            card = t.objective_cards[action.a]
            return c.text("action.keep", objective=f"{self.objective(card.id)} ({self.space(card.space)})")
        if kind in ("value", "event"):
            card = t.strategy_cards[action.a]
            return c.text(f"action.{kind}", card=self.card(card.id), n=card.value)
        if kind == "claim":
            return c.text("action.claim", card=self.card(t.strategy_cards[action.a].id),
                          discarded=self.card(t.strategy_cards[action.b].id))
        if kind in ("place", "remove", "move"):
            owner = action.side if action.side >= 0 else decision.owner
            token = self.token(t.sides[owner], t.sides[decision.player])
            return c.text(f"action.{kind}", token=token, source=self.location(names[action.a]),
                          dest=self.location(names[action.b]))
        if kind == "done":
            return c.text("action.done")
        if kind == "option":
            return c.text("action.option", n=action.a + 1, text=self.option_text(decision, action.a))
        if kind == "marker":
            return c.text("action.marker", marker=c.name("markers", t.markers[action.b].name),
                          space=self.space(t.spaces[action.a]))
        if kind == "bonus":
            return c.text("action.bonus", space=self.space(t.spaces[action.a]))
        if kind == "order":
            return c.text("action.order", cards=", ".join(self.card(t.strategy_cards[x].id) for x in action.cards))
        return action.text

    def option_text(self, decision: Decision, index: int) -> str:
        """The text of one option of an "either" rule."""
        from crisis.ruleset.render import render_block
        node = decision.rule
        if node is None or not hasattr(node, "options"):
            return ""
        return render_block(node.options[index], self.catalog, inline=True)
