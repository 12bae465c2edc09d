"""Turning engine events, decisions and actions into words, in a locale.

Every player-visible string comes from the catalog; engine parameters carry
ids (side, space, card ...) that are translated here.
"""

from __future__ import annotations

import re
import unicodedata
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
        from crisis.content.phrases import card_text
        written = self.catalog.raw(f"{kind}.{card.id}.text")
        if written is not None:
            return written
        return card_text(self.content, self.catalog, card.id, inline)

    def location(self, name: str) -> str:
        if name in self.spaces:
            return self.space(name)
        if name.endswith(" box") and name[:-4] in self.zones:
            return self.catalog.text("location.box", zone=self.catalog.name("zones", name[:-4]))
        if name.startswith("track above ") and name[12:] in self.zones:
            return self.catalog.text("location.track_above", zone=self.catalog.name("zones", name[12:]))
        return self.catalog.text(f"location.{name}")

    def token(self, side: str, actor: Optional[str]) -> str:
        if actor is None or side == actor:
            return self.catalog.text("token.own")
        return self.catalog.text("token.side", side=self.side(side))

    def reason(self, reason: str) -> str:
        kind, _, rest = reason.partition(":")
        if not rest:
            if kind in ("dimension_scoring", "objective_scoring", "pivotal_bonus", "final_crisis", "solo_turn"):
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
            elif key in ("objective", "kept"):
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

    def system_reason(self, reason) -> str:
        """An operating-system error in the player's language, when the catalog has it."""
        code = getattr(reason, "code", "")
        translated = self.catalog.raw(f"cli.os_error.{code}") if code else None
        return translated if translated is not None else str(reason)

    # ------------------------------------------------------------- notation
    def notation(self, game, action: Action) -> str:
        """An action's notation as a player of this language types it.

        In the reference language it is the canonical notation (saved games
        and scenarios use that); in another language the keywords come from
        the catalog (``notation.*``), names are translated and cards are
        named by a slug of their translated title.  Both forms are accepted.
        """
        if not self._localized_notation():
            return action.text
        t = game.tables
        word = lambda key: self.catalog.text(f"notation.{key}")
        names = t.locations.names
        kind = action.kind

        def location(code: int) -> str:
            name = names[code]
            if name in self.spaces:
                return self.space(name)
            if name.endswith(" box"):
                return word("box").replace("ZONE", self.catalog.name("zones", name[:-4]))
            return word(name)

        who = f"{self.side(t.sides[action.side])} " if action.side >= 0 else ""
        if kind == "keep":
            return f"{word('keep')} {self.card_slug('objectives', t.objective_cards[action.a].id)}"
        if kind in ("value", "event"):
            return f"{word(kind)} {self.card_slug('cards', t.strategy_cards[action.a].id)}"
        if kind == "claim":
            return (f"{word('claim')} {self.card_slug('cards', t.strategy_cards[action.a].id)} "
                    f"{word('discard')} {self.card_slug('cards', t.strategy_cards[action.b].id)}")
        if kind == "place":
            return f"{word('place')} {who}{location(action.b)}"
        if kind == "remove":
            return f"{word('remove')} {who}{location(action.a)}"
        if kind == "move":
            return f"{word('move')} {who}{location(action.a)} {word('to')} {location(action.b)}"
        if kind == "done":
            return word("done")
        if kind == "option":
            return f"{word('option')} {action.a + 1}"
        if kind == "marker":
            return f"{self.catalog.name('markers', t.markers[action.b].name)} {word('to')} {self.space(t.spaces[action.a])}"
        if kind == "bonus":
            return f"{word('bonus')} {self.space(t.spaces[action.a])}"
        if kind == "order":
            return f"{word('order')} {self.card_slug('cards', t.strategy_cards[action.a].id)}"
        return action.text

    def _localized_notation(self) -> bool:
        from crisis.content.loader import REFERENCE_LANG
        return self.catalog.lang != REFERENCE_LANG and self.catalog.has("notation.place")

    def card_slug(self, kind: str, card_id: str) -> str:
        """A card's name for typing in this language (its id in the reference language)."""
        if not self._localized_notation():
            return card_id
        slugs = self._slugs()
        return slugs.get((kind, card_id), card_id)

    def _slugs(self) -> Dict[tuple, str]:
        cached = getattr(self, "_slug_cache", None)
        if cached is None:
            cached, seen = {}, {}
            cards = [("cards", c.id) for c in self.content.strategy_cards]
            cards += [("objectives", c.id) for c in self.content.objective_cards]
            for kind, card_id in cards:
                slug = slugify(self.catalog.text(f"{kind}.{card_id}.title"))
                seen.setdefault((kind, slug), []).append(card_id)
                cached[(kind, card_id)] = slug
            for (kind, slug), ids in seen.items():
                if len(ids) > 1 or not slug:  # two titles alike: fall back to the ids
                    for card_id in ids:
                        cached[(kind, card_id)] = card_id
            self._slug_cache = cached
        return cached

    def find_action(self, game, decision: Decision, text: str) -> Optional[Action]:
        """The legal action typed as ``text``: canonical or localized notation,
        ignoring case, spacing and accents."""
        action = decision.find(text)
        if action is not None:
            return action
        wanted = fold(text)
        for candidate in decision.actions:
            if fold(self.notation(game, candidate)) == wanted:
                return candidate
        return None

    def prefix_matches(self, game, decision: Decision, text: str) -> List[Action]:
        """Legal actions that ``text`` starts, word by word, in either notation: ``value fox``
        for ``value fox-...``, ``place fort s`` for ``place Fort Sumter``; failing that, typed
        words after the first may skip words (``place sumter``)."""
        typed = _words(text)
        if not typed:
            return []
        forms = [(action, [_words(action.text), _words(self.notation(game, action))]) for action in decision.actions]
        for test in (_aligned, _skipping):
            found = [action for action, words in forms if any(test(typed, w) for w in words)]
            if found:
                return found
        return []

    def move_source(self, game, action: Action) -> str:
        """How the source of a move is typed and shown on its own ("from Washington")."""
        t = game.tables
        who = f"{self.side(t.sides[action.side])} " if action.side >= 0 else ""
        return self.catalog.text("cli.move.source", source=who + self.location(t.locations.names[action.a]))

    def move_source_text(self, game, decision: Decision, action: Action, count: int) -> str:
        t = game.tables
        owner = action.side if action.side >= 0 else decision.owner
        token = self.token(t.sides[owner], t.sides[decision.player])
        params = self.params({"source": t.locations.names[action.a]})
        return self.catalog.text("cli.move.source_text", token=token, n=count, **params)

    def decimal(self, value: float, digits: int) -> str:
        """A number with decimals, written as the language writes them (decimal comma in Spanish)."""
        text = f"{value:.{digits}f}"
        mark = self.catalog.raw("cli.number.decimal")
        return text.replace(".", mark) if mark else text

    # ----------------------------------------------------------------- log
    def log_line(self, entry: LogEntry) -> str:
        key = entry.key
        if key == "log.place" and entry.params.get("source") not in (None, "supply"):
            key = "log.place_from"
        special = _SOLO_LINES.get(key)
        if special is not None:
            return getattr(self, special)(entry)
        return self.catalog.text(key, **self.params(entry.params))

    # ---------------------------------------------------- the solo opponent
    def names(self, kind: str, names) -> str:
        return ", ".join(self.catalog.name(kind, n) for n in names)

    def objectives(self, ids) -> str:
        return ", ".join(self.objective(i) for i in ids)

    def _solo_objectives(self, entry: LogEntry) -> str:
        params = self.params({k: v for k, v in entry.params.items() if k != "objectives"})
        return self.catalog.text(entry.key, objectives=self.objectives(entry.params["objectives"]), **params)

    def _die(self, entry: LogEntry) -> str:
        p = entry.params
        return self.catalog.text("log.die", rolls=", ".join(map(str, p["rolls"])), faces=p["faces"],
                                 among=self.names("spaces", p["among"]), chosen=self.catalog.name("spaces", p["chosen"]))

    def _solo_if(self, entry: LogEntry) -> str:
        from crisis.content.phrases import condition_text, meaning_of
        p = entry.params
        params = {"side": self.side(p["side"]), "holds": "yes" if p["holds"] else "no",
                  "condition": condition_text(self.content, self.catalog, p["rule"], "solo")}
        if p.get("part") is None:
            return self.catalog.text("log.solo.if", **params)
        # a test of several parts: the part that decided ("A and B": the first that fails)
        part = condition_text(self.content, self.catalog, meaning_of(self.content, p["rule"]).items[p["part"]], "solo")
        return self.catalog.text("log.solo.if_part", part=part, **params)

    def line_labels(self, procedure: Optional[str]):
        """How the lines of a priority list of the solo opponent's ``procedure`` are called (line n;
        "none": none could be carried out): by the solo rulebook's letters where the catalog gives
        them for that procedure, else by number."""
        c = self.catalog
        key = f"trace.line_labels.{procedure}"
        key = key if procedure is not None and c.has(key) else "trace.line_label"
        return lambda n: c.text(key, n=n)

    def procedure_of(self, rule) -> Optional[str]:
        """The solo opponent's procedure of which ``rule`` is a statement, if any."""
        solo = self.content.solo
        for name, procedure in (solo.opponent.items() if solo is not None else ()):
            if any(statement is rule for statement in procedure.tree.statements):
                return name
        return None

    def _solo_first_of(self, entry: LogEntry) -> str:
        from crisis.content.phrases import block_text, meaning_of
        p, c = entry.params, self.catalog
        label = self.line_labels(self.procedure_of(p["rule"]))
        found = c.text("trace.separator").join(c.text("trace.found", line=label(i + 1), found=f)
                                                for i, f in enumerate(p["found"]))
        if p["chosen"] is None:
            chosen = label("none")
        else:
            text = block_text(self.content, c, meaning_of(self.content, p["rule"]).options[p["chosen"]], True, "solo")
            chosen = c.text("trace.chosen_line", line=label(p["chosen"] + 1), text=text)
        return c.text("log.solo.first_of", side=self.side(p["side"]), found=found, chosen=chosen)

    def _solo_choice(self, entry: LogEntry) -> str:
        return self.catalog.text("log.solo.choice", trace=self.trace(entry, in_feed=True))

    def trace(self, entry: LogEntry, in_feed: bool = False) -> str:
        """Why the solo opponent made a choice, in words: the table and rows, or the list and line.
        ``in_feed``: read just after the choice before it, so legal spaces already listed for the
        token before are not listed again, only what changed."""
        c = self.catalog
        side = entry.params["side"]
        return c.text("trace.separator").join(self._trace_part(side, part, in_feed) for part in entry.params["parts"])

    def _legal(self, part: dict, in_feed: bool) -> str:
        """The legal spaces of a selection: all of them, or how they differ from the token before's."""
        c, legal, before = self.catalog, part["legal"], part.get("before")
        spaces = lambda names: self.names("spaces", names)
        if in_feed and before is not None:
            gone = [s for s in before if s not in legal]
            new = [s for s in legal if s not in before]
            if len(gone) + len(new) < len(legal):
                key = "trace.legal_changed" if gone and new else "trace.legal_less" if gone else \
                    "trace.legal_more" if new else "trace.legal_same"
                return c.text(key, gone=spaces(gone), new=spaces(new))
        return c.text("trace.legal", spaces=spaces(legal))

    def _trace_part(self, side: str, part: dict, in_feed: bool = False) -> str:
        from crisis.content.phrases import places_text
        c, kind, solo = self.catalog, part["kind"], self.content.solo
        spaces = lambda names: self.names("spaces", names)
        dice = ""
        if "dice" in part:
            dice = c.text("trace.dice", rolls=", ".join(map(str, part["dice"])), among=spaces(part.get("left", [])))
        if kind == "table":
            rows = solo.aids[side].tables[part["table"]]
            shown = []
            set_aside = part.get("set_aside", {})
            for index, kept in part["rows"]:
                text = places_text(self.content, c, rows[index].rule, "solo")
                if kept is None and set_aside.get(index):  # it names legal spaces, but none still left
                    fit = set_aside[index]
                    shown.append(c.text("trace.row_set_aside", n=index + 1, text=text, fit=spaces(fit)))
                elif kept is None:
                    shown.append(c.text("trace.row_skipped", n=index + 1, text=text))
                elif kept == "all":
                    shown.append(c.text("trace.row_all", n=index + 1))
                else:
                    shown.append(c.text("trace.row", n=index + 1, text=text, kept=spaces(kept)))
            return c.text("trace.table", table=c.text(f"trace.tables.{part['table']}"),
                          legal=self._legal(part, in_feed), rows="".join(shown), dice=dice,
                          chosen=c.name("spaces", part["chosen"]))
        if kind == "priority":
            lines = solo.markers[part["marker"]]
            shown = []
            for index, kept in part["lines"]:
                text = places_text(self.content, c, lines[index].rule, "solo")
                key = "trace.line_none" if kept is None else "trace.line"
                shown.append(c.text(key, n=index + 1, text=text, kept=spaces(kept or [])))
            return c.text("trace.priority", marker=c.name("markers", part["marker"]), legal=spaces(part["legal"]),
                          lines="".join(shown) + dice, chosen=c.name("spaces", part["chosen"]))
        if kind == "options":
            found = c.text("trace.separator").join(c.text("trace.option", n=i + 1, found=f) for i, f in part["found"])
            return c.text("trace.options", found=found, chosen=part["chosen"] + 1, criterion=part["criterion"] or "")
        if kind == "holder":
            return c.text("trace.holder", holder=self.location(part["holder"]))
        return c.text(f"trace.{kind}")

    def log_lines(self, entries: List[LogEntry]) -> List[str]:
        return [self.log_line(e) for e in entries]

    # ------------------------------------------------------------ decisions
    def prompt(self, game, decision: Decision) -> str:
        t = game.tables
        key = f"decision.{decision.kind}"
        if decision.stage:
            key += f"_{decision.stage}"
        elif decision.on_behalf >= 0:
            key += "_for"
        if decision.optional:
            key += "_optional"
        params = {"player": self.side(t.sides[decision.player]), "n": decision.remaining}
        if decision.on_behalf >= 0:
            params["other"] = self.side(t.sides[decision.on_behalf])
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
            return c.text("action.keep", objective=self.objective(card.id), space=self.space(card.space))
        if kind in ("value", "event"):
            card = t.strategy_cards[action.a]
            return c.text(f"action.{kind}", card=self.card(card.id), n=card.value)
        if kind == "claim":
            return c.text("action.claim", card=self.card(t.strategy_cards[action.a].id),
                          discarded=self.card(t.strategy_cards[action.b].id))
        if kind in ("place", "remove", "move"):
            owner = action.side if action.side >= 0 else decision.owner
            token = self.token(t.sides[owner], t.sides[decision.player])
            params = self.params({"source": names[action.a], "dest": names[action.b]})
            return c.text(f"action.{kind}", token=token, **params)
        if kind == "done":
            return c.text("action.done")
        if kind == "option":
            return c.text("action.option", n=action.a + 1, text=self.option_text(decision, action.a))
        if kind == "marker":
            return c.text("action.marker", **self.params({"marker": t.markers[action.b].name,
                                                          "space": t.spaces[action.a]}))
        if kind == "bonus":
            return c.text("action.bonus", **self.params({"space": t.spaces[action.a]}))
        if kind == "order":
            card = t.strategy_cards[action.a]
            return c.text("action.order", card=self.card(card.id), dimension=c.name("dimensions", card.final_crisis))
        return action.text

    def option_text(self, decision: Decision, index: int) -> str:
        """The text of one option of an "either" rule."""
        from crisis.content.phrases import block_text, meaning_of
        node = decision.rule
        if node is None or not hasattr(node, "options"):
            return ""
        return block_text(self.content, self.catalog, meaning_of(self.content, node).options[index], inline=True)


_SOLO_LINES = {"log.die": "_die", "log.solo.if": "_solo_if", "log.solo.first_of": "_solo_first_of",
               "log.solo.choice": "_solo_choice", "log.solo.objective_redraw": "_solo_objectives",
               "log.solo.objectives_drawn": "_solo_objectives"}


def fold(text: str) -> str:
    """Lowercase, single-spaced, without accents: how typed notation is compared."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(text.lower().split())


def _words(text: str) -> List[str]:
    return fold(text).replace("-", " ").split()


def _aligned(typed: List[str], words: List[str]) -> bool:
    return len(typed) <= len(words) and all(w.startswith(t) for t, w in zip(typed, words))


def _skipping(typed: List[str], words: List[str]) -> bool:
    if not words or not words[0].startswith(typed[0]):
        return False
    rest = iter(words[1:])
    return all(any(w.startswith(t) for w in rest) for t in typed[1:])


def slugify(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", fold(title)).strip("-")
