"""Turning engine events, decisions and actions into words, in a locale.

Every player-visible string comes from the catalog; engine parameters carry
names (a side, a place, a card's id...) that are translated here.  Nothing here
names a game's things: the catalog section of a name is the word the game's
schema gives its kind (a card kind whose words are "objective, objectives" has
its titles under ``objectives.<id>.title``), and the log's generic entries are
said by keys made from the names they carry (``log.step.<step>``,
``log.counter.<counter>``, ``log.use.<use>``, ``log.draw.<pile drawn into>``...).
An entry whose key the catalog lacks, or gives as "", is not shown: a catalog
says what of a game is worth a line.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Dict, List, Optional, Sequence, Tuple

from crisis.content.locale import Catalog
from crisis.content.model import Content
from crisis.interpreter.actions import Action, Decision
from crisis.interpreter.engine.board import LogEntry
from crisis.interpreter.engine.program import program_of

_SIDE_PARAMS = ("side", "actor", "winner", "player", "other")
_LOCATION_PARAMS = ("source", "dest")

# log entries of the automa's explanations: said between what it does, never what it does
TRACE_KEYS = ("log.solo.if", "log.solo.first_of", "log.solo.choice")
# the log entries of a token step or a marker placed (an automa's choice explains the one before it)
STEP_KEYS = ("log.place", "log.remove", "log.move", "log.marker")
# log entries that start what the decisions after them are part of (a card played, a place chosen
# for a rule, a zone entered, a card's rule carried out, cards revealed)
CAUSE_KEYS = ("log.play", "log.claim", "log.place_chosen", "log.zone_entered", "log.carry_out", "log.reveal_all",
              "log.reveal")


def snake(name: str) -> str:
    """A name as a catalog key or a placeholder: lowercase words joined by underscores."""
    return re.sub(r"[^a-z0-9]+", "_", str(name).lower()).strip("_")


class Presenter:
    def __init__(self, content: Content, catalog: Catalog):
        self.content = content
        self.catalog = catalog
        self._program = None

    # ------------------------------------------------------------ the game's names
    @property
    def program(self):
        """The game program (compiled once per content, when a text first needs it)."""
        if self._program is None:
            self._program = program_of(self.content)
        return self._program

    @property
    def schema(self):
        return self.program.schema

    def section(self, what: str) -> str:
        """The catalog section of a kind of name: the plural word the schema gives it."""
        schema = self.schema
        if what == "places":
            return schema.map.place_words[-1] if schema.map.place_words else "places"
        if what == "groups":
            return schema.map.group_words[-1] if schema.map.group_words else "groups"
        if what == "zones":
            words = next((t.zone_words for t in schema.tracks if t.zone_words), ())
            return words[-1] if words else "zones"
        return what

    def kind_of(self, card_id: str, kind: Optional[str] = None):
        """The cards of the kind named (or of the first kind that has a card of that id)."""
        for cards in self.program.cards:
            if (kind is None or cards.kind.name == kind) and card_id in cards.index:
                return cards
        return None

    def card_section(self, cards) -> str:
        words = cards.kind.words if cards is not None else ()
        return words[-1] if words else "cards"

    def card_param(self, cards) -> str:
        """The placeholder a card of this kind fills: its kind's word ("card", "objective")."""
        words = cards.kind.words if cards is not None else ()
        return snake(words[0]) if words else "card"

    # --------------------------------------------------------------- names
    def side(self, name: str) -> str:
        return self.catalog.name("sides", name)

    def space(self, name: str) -> str:
        return self.catalog.name(self.section("places"), name)

    def group(self, name: str) -> str:
        return self.catalog.name(self.section("groups"), name)

    def zone(self, name: str) -> str:
        return self.catalog.name(self.section("zones"), name)

    def marker(self, name: str) -> str:
        return self.catalog.name("markers", name)

    def card(self, card_id: str, kind: Optional[str] = None) -> str:
        """A card's title, from the catalog section its kind's word names."""
        cards = self.kind_of(card_id, kind)
        return self.catalog.text(f"{self.card_section(cards)}.{card_id}.title")

    def card_fields(self, card_id: str, kind: Optional[str] = None, suffix: str = "") -> Dict[str, object]:
        """A card's title under its kind's word, and its printed fields by name (numbers, places and
        groups named in this language): what a message about the card may quote."""
        cards = self.kind_of(card_id, kind)
        if cards is None:
            return {f"card{suffix}": card_id}
        index = cards.index[card_id]
        out: Dict[str, object] = {f"{self.card_param(cards)}{suffix}": self.card(card_id, cards.kind.name)}
        for field, (name, type_name) in enumerate(cards.kind.fields):
            value = cards.fields[field][index]
            if type_name == "number":
                out[snake(name) + suffix] = value
            elif type_name == "place" and value is not None:
                out[snake(name) + suffix] = self.space(self.schema.map.places[value] if isinstance(value, int) else value)
            elif type_name == "group" and value is not None:
                out[snake(name) + suffix] = self.group(self.schema.map.groups[value].name
                                                       if isinstance(value, int) else value)
        return out

    def card_rule_text(self, kind: str, card, inline: bool = False) -> str:
        """What a card's rule says in this language: the designer's hand-written text if there is
        one (crisis check has verified it against the rule), else the text rendered from the rule.
        ``kind`` is the catalog section of its kind; ``card`` the card (or its id)."""
        from crisis.content.phrases import card_text
        card_id = getattr(card, "id", card)
        written = self.catalog.raw(f"{kind}.{card_id}.text")
        if written is not None:
            return written
        return card_text(self.content, self.catalog, card_id, inline)

    def location(self, name: str) -> str:
        """Where tokens are, by the notation's name: a place, a holder, a track, the supply, a
        zone's box or the track above a zone."""
        program = self.program
        names = program.locations.names
        if name not in names:
            return self.catalog.text(f"location.{name}")
        kind = program.locations.kind[names.index(name)]
        if kind[0] == "place":
            return self.space(name)
        if kind[0] == "box":
            return self.catalog.text("location.box", zone=self.zone(self.schema.tracks[kind[1]].zones[kind[2]].name))
        if kind[0] == "above":
            return self.catalog.text("location.track_above",
                                     zone=self.zone(self.schema.tracks[kind[1]].zones[kind[2]].name))
        return self.catalog.text(f"location.{name}")

    def token(self, side: str, actor: Optional[str]) -> str:
        if actor is None or side == actor:
            return self.catalog.text("token.own")
        return self.catalog.text("token.side", side=self.side(side))

    def reason(self, reason: str) -> str:
        """Why a counter changed: a card's rule, a named procedure, a zone entered, a line of a scoring."""
        c = self.catalog
        kind, _, rest = str(reason).partition(":")
        if rest and kind == "scoring":
            return c.text("reason.scoring", label=c.text(f"scoring.{rest}"))
        if rest and kind == "entered":
            return c.text("reason.entered", zone=self.zone(rest))
        key = f"reason.{snake(reason)}"
        if c.raw(key) is not None:
            return c.text(key)
        cards = self.kind_of(reason)
        if cards is not None:
            param = self.card_param(cards)
            return c.text(f"reason.{param}", **{param: self.card(reason, cards.kind.name)})
        if reason in self.program.procedure_names:
            return c.name("procedures", reason)
        return reason

    def _pile_names(self) -> frozenset:
        found = self.__dict__.get("_piles")
        if found is None:
            found = self.__dict__["_piles"] = frozenset(p.name for p in self.schema.piles)
        return found

    def params(self, raw: Dict[str, object]) -> Dict[str, object]:
        """Engine parameters (names) as display names, each with its grammatical forms (``x_g``,
        ``x_pl``) so a language can make articles agree."""
        out = dict(raw)
        places = self.section("places")
        for key, value in raw.items():
            if not isinstance(value, str):
                continue
            kind = None
            if key in _SIDE_PARAMS:
                kind = "sides"
            elif key in _LOCATION_PARAMS:
                out[key] = self.location(value)
                if value in self.schema.map.places:
                    kind = places
            elif key == "space" or (key == "place" and value in self.schema.map.places):
                kind = places  # (a card's place in an entity's log line: log.march's {place})
            elif key == "zone":
                kind = self.section("zones")
            elif key == "marker":
                kind = "markers"
            elif key in ("pile", "refill") and value in self._pile_names():
                kind = "piles"
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

    # ------------------------------------------------------------- actions
    def action_card(self, action: Action):
        """(cards of its kind, card id) of an action that names a card by its text, or None."""
        words = action.text.split(" ")
        if len(words) < 2 or action.a < 0:
            return None
        for cards in self.program.cards:
            if action.a < len(cards.ids) and cards.ids[action.a] == words[1]:
                return cards, words[1]
        return None

    def notation(self, game, action: Action) -> str:
        """An action's notation as a player of this language types it.

        In the reference language it is the canonical notation (saved games
        and scenarios use that); in another language the keywords come from
        the catalog (``notation.*``), names are translated and cards are
        named by a slug of their translated title.  Both forms are accepted.
        """
        if not self._localized_notation():
            return action.text
        c = self.catalog
        word = lambda key: c.name("notation", key)  # a word the catalog does not give: as the rules write it
        program = self.program
        names = program.locations.names
        kind = action.kind

        def location(code: int) -> str:
            where = program.locations.kind[code]
            if where[0] == "place":
                return self.space(names[code])
            if where[0] == "box":
                return word("box").replace("ZONE", self.zone(self.schema.tracks[where[1]].zones[where[2]].name))
            return word(names[code])

        who = f"{self.side(self.schema.sides[action.side])} " if action.side >= 0 else ""
        if kind in ("place", "remove", "move"):
            if kind == "place":
                return f"{word('place')} {who}{location(action.b)}"
            if kind == "remove":
                return f"{word('remove')} {who}{location(action.a)}"
            return f"{word('move')} {who}{location(action.a)} {word('to')} {location(action.b)}"
        if kind == "done":
            return word("done")
        if kind == "option":
            return f"{word('option')} {action.a + 1}"
        if kind == "marker":
            return f"{self.marker(self.schema.markers[action.b].name)} {word('to')} {self.space(names[action.a])}"
        found = self.action_card(action)
        if found is not None:
            cards, card_id = found
            text = f"{word(kind)} {self.card_slug(self.card_section(cards), card_id)}"
            other = card_action_other(action, cards, self.schema.map.places)
            if other is not None:
                role, name = other
                if role == "place":
                    text += f" {word(action.how)} {self.space(name)}"
                else:
                    text += f" {word(role)} {self.card_slug(self.card_section(cards), name)}"
            return text
        if action.a >= 0 and action.a < len(names) and action.text.split(" ", 1)[-1] == names[action.a]:
            return f"{word(kind)} {self.space(names[action.a])}"  # a place chosen ("bonus Washington")
        return action.text

    def typed_word(self, word: str) -> str:
        """An action word as a player of this language types it ('interrupt': 'interrupción')."""
        return self.catalog.name("notation", word) if self._localized_notation() else word

    def _localized_notation(self) -> bool:
        from crisis.content.loader import REFERENCE_LANG
        return self.catalog.lang != REFERENCE_LANG and self.catalog.has("notation.place")

    def card_slug(self, kind: str, card_id: str) -> str:
        """A card's name for typing in this language (its id in the reference language); ``kind``
        is the catalog section of its kind."""
        if not self._localized_notation():
            return card_id
        slugs = self._slugs()
        return slugs.get((kind, card_id), card_id)

    def _slugs(self) -> Dict[tuple, str]:
        cached = getattr(self, "_slug_cache", None)
        if cached is None:
            cached, seen = {}, {}
            cards = [(self.card_section(kind), card_id) for kind in self.program.cards for card_id in kind.ids]
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
        who = f"{self.side(self.schema.sides[action.side])} " if action.side >= 0 else ""
        return self.catalog.text("cli.move.source", source=who + self.location(self.program.locations.names[action.a]))

    def move_source_text(self, game, decision: Decision, action: Action, count: int) -> str:
        sides = self.schema.sides
        owner = action.side if action.side >= 0 else decision.owner
        token = self.token(sides[owner], sides[decision.player])
        params = self.params({"source": self.program.locations.names[action.a]})
        return self.catalog.text("cli.move.source_text", token=token, n=count, **params)

    def decimal(self, value: float, digits: int) -> str:
        """A number with decimals, written as the language writes them (decimal comma in Spanish)."""
        text = f"{value:.{digits}f}"
        mark = self.catalog.raw("cli.number.decimal")
        return text.replace(".", mark) if mark else text

    # ----------------------------------------------------------------- log
    def shown(self, log: Sequence[LogEntry], automa: Optional[int] = None) -> List[LogEntry]:
        """The entries of a log a player reads, one line each: an entry the catalog does not say
        is left out, the rule of a card just played is not said again, an entry about each side
        (cards revealed) becomes one per side.  ``automa``: the side the game plays, if any (its
        entries say so).  A log's first entries are shown the same however long it grows, and the
        entries after a decision the same without those before it."""
        return [entry for _, entry in self.shown_at(log, automa)]

    def shown_at(self, log: Sequence[LogEntry], automa: Optional[int] = None, start: int = 0) -> List[tuple]:
        """``shown``, each line with the index in ``log`` of the entry it says (``start`` added)."""
        out: List[tuple] = []
        played = None  # (side, card) of the last card played, while its rule may follow
        automa_name = self.schema.sides[automa] if automa is not None and automa >= 0 else None
        for index, entry in enumerate(log, start):
            key, p = entry.key, entry.params
            if key in ("log.play", "log.claim"):
                played = (p.get("side"), p.get("card"))
            elif key == "log.carry_out" and played == (p.get("side"), p.get("card")):
                played = None
                continue  # (the play said which rule is carried out)
            elif key not in TRACE_KEYS:
                played = None
            for item in self._expanded(entry, automa_name):
                if self._says(item):
                    out.append((index, item))
        return out

    def _expanded(self, entry: LogEntry, automa: Optional[str]) -> List[LogEntry]:
        key, p = entry.key, entry.params
        if key == "log.reveal" and p.get("cards"):
            together = [pile for pile in p.get("piles", ()) if self.catalog.raw(f"log.reveal_all.{pile}")]
            out = [LogEntry("log.reveal_all", {"pile": pile, "cards": [c for c in p["cards"] if c[1] == pile]})
                   for pile in together]
            out += [LogEntry("log.reveal", {"side": side, "pile": pile, "cards": list(ids),
                                            "automa": "yes" if side == automa else "no"})
                    for side, pile, ids, *_ in p["cards"] if pile not in together]
            return out
        if automa is not None and "side" in p and "automa" not in p:
            return [LogEntry(key, dict(p, automa="yes" if p["side"] == automa else "no"))]
        return [entry]

    def _key(self, entry: LogEntry) -> Optional[str]:
        """The catalog key that says an entry ("" or None: not said)."""
        key, p = entry.key, entry.params
        named = {"log.step": "step", "log.counter": "counter", "log.play": "use", "log.keep": "noun",
                 "log.draw": "into", "log.put": "into", "log.shuffle": "pile", "log.place_chosen": "word",
                 "log.reveal": "pile", "log.reveal_all": "pile"}
        if key == "log.counter" and p.get("set") == "yes":
            # a value set: told by log.counter_set.<counter> where the catalog has it (whatever the
            # change, none included: a battle's total), else as any change, and not when none
            told = f"log.counter_set.{p.get('counter', '')}"
            if self.catalog.raw(told) is not None:
                return told
            return f"log.counter.{p.get('counter', '')}" if p.get("n") else None
        if key in named:
            return f"{key}.{p.get(named[key], '')}"
        if key == "log.carry_out":
            cards = self.kind_of(str(p.get("card", "")), p.get("kind"))
            return f"log.carry_out.{self.card_section(cards)}"
        if key == "log.place" and p.get("source") not in (None, "supply"):
            return "log.place_from"
        return key

    def _says(self, entry: LogEntry) -> bool:
        key = self._key(entry)
        if entry.key in ("log.put", "log.draw", "log.shuffle") and not entry.params.get("n"):
            return False
        return bool(key and self.catalog.raw(key))

    def log_line(self, entry: LogEntry) -> str:
        key = self._key(entry)
        special = _SOLO_LINES.get(entry.key)
        if special is not None:
            return getattr(self, special)(entry)
        p = entry.params
        params = self.params({k: v for k, v in p.items() if k not in ("card", "cards", "counters", "discarded")})
        if entry.key == "log.step":
            params.update({snake(name): value for name, value in (p.get("counters") or {}).items()})
        elif entry.key == "log.counter":
            n = p.get("n", 0)
            params.update(gain="yes" if n > 0 else "no", amount=abs(n))
        elif entry.key == "log.reveal_all":
            for index, (side, _, ids, *at) in enumerate(p.get("cards", ())):
                params.update(self.card_fields(ids[0], suffix=str(index)) if ids else {})
                params[f"side{index}"] = self.side(side)
                if at:
                    params["n"] = at[0] + 1
        elif p.get("card"):
            params.update(self.card_fields(str(p["card"]), p.get("kind")))
        if p.get("discarded"):
            params["discarded"] = self.card(str(p["discarded"]))
        if p.get("cards") and entry.key != "log.reveal_all":
            ids = list(p["cards"])
            params["cards"] = ", ".join(self.card(i) for i in ids)
            params.update(self.card_fields(ids[0]))
        params.setdefault("seen", "yes" if p.get("card") else "no")
        return self.catalog.text(key, **params)

    def log_lines(self, entries: Sequence[LogEntry], automa: Optional[int] = None) -> List[str]:
        return [self.log_line(e) for e in self.shown(entries, automa)]

    # ------------------------------------------------ what a decision is part of
    def part_of(self, game) -> Optional[str]:
        """What the current decision of ``game`` belongs to, in words (``?`` says it): the latest
        line of the log since the last step began that started something (a card played, a place
        chosen for a rule, a zone entered, a card's rule carried out, cards revealed), else the
        procedure or step of the sequence of play under way (``frame_part``)."""
        log = game.log or []
        start = next((i for i in range(len(log) - 1, -1, -1) if log[i].key == "log.step"), 0)
        automa = game.automa.side if getattr(game, "automa", None) is not None else None
        for _, entry in reversed(self.shown_at(log[start:], automa)):
            if entry.key in CAUSE_KEYS:
                return self.log_line(entry)
        return self.frame_part(game)

    def frame_part(self, game) -> Optional[str]:
        """The innermost procedure or step of the sequence of play under way, in words: the
        catalog's ``cli.help.part.procedure.<procedure>`` or ``cli.help.part.step.<step>``, else
        the general ``cli.help.part_procedure`` or ``cli.help.part_step`` with its name; the
        game's counters ({round}...) are parameters.  None outside any step."""
        from crisis.interpreter.engine.sequence import ProcedureOp, StepOp
        program = game.program
        step, procedure = None, None
        for frame in getattr(game.position, "stack", ()):
            op = program.ops[frame[0]] if 0 <= frame[0] < len(program.ops) else None
            if isinstance(op, StepOp):
                step, procedure = op.name, None
            elif isinstance(op, ProcedureOp) and step is not None:
                procedure = program.procedure_names[op.procedure]
        if step is None:
            return None
        params: Dict[str, object] = {snake(counter.name): game.view.counter(counter.name, 0)
                                     for counter in self.schema.counters if not counter.each_side}
        params.update(step=self.catalog.name("steps", step))
        if procedure is not None:
            params.update(procedure=self.catalog.name("procedures", procedure))
            key = f"cli.help.part.procedure.{snake(procedure)}"
            if self.catalog.raw(key):
                return self.catalog.text(key, **params)
            return self.catalog.text("cli.help.part_procedure", **params)
        key = f"cli.help.part.step.{snake(step)}"
        if self.catalog.raw(key):
            return self.catalog.text(key, **params)
        return self.catalog.text("cli.help.part_step", **params)

    # ---------------------------------------------------- the automa
    def names(self, kind: str, names) -> str:
        return ", ".join(self.catalog.name(kind, n) for n in names)

    def places(self, names) -> str:
        return self.names(self.section("places"), names)

    def _die(self, entry: LogEntry) -> str:
        p = entry.params
        return self.catalog.text("log.die", rolls=", ".join(map(str, p["rolls"])), faces=p["faces"],
                                 among=self.places(p["among"]), chosen=self.space(p["chosen"]))

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
        """How the lines of a priority list of the automa's ``procedure`` are called (line n;
        "none": none could be carried out): by a rulebook's letters where the catalog gives them
        for that procedure, else by number."""
        c = self.catalog
        key = f"trace.line_labels.{snake(procedure)}" if procedure is not None else ""
        key = key if key and c.has(key) else "trace.line_label"
        return lambda n: c.text(key, n=n)

    def procedure_of(self, rule) -> Optional[str]:
        """The overlay's procedure (or step) of which ``rule`` is a statement, if any."""
        from crisis.content.phrases import meaning_of
        overlay = self.content.definition.overlay if self.content.definition is not None else None
        if overlay is None:
            return None
        try:
            rule = meaning_of(self.content, rule)
        except KeyError:
            return None
        for name, variants in list(overlay.procedures.items()) + list(overlay.steps.items()):
            for block in variants.values():
                if any(statement is rule for statement in getattr(block, "statements", ())):
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
        """Why the automa made a choice, in words: the table and rows, or the list and line.
        ``in_feed``: read just after the choice before it, so legal places already listed for the
        token before are not listed again, only what changed."""
        c = self.catalog
        side = entry.params["side"]
        return c.text("trace.separator").join(self._trace_part(side, part, in_feed) for part in entry.params["parts"])

    def _legal(self, part: dict, in_feed: bool) -> str:
        """The legal places of a selection: all of them, or how they differ from the token before's."""
        c, legal, before = self.catalog, part["legal"], part.get("before")
        if in_feed and before is not None:
            gone = [s for s in before if s not in legal]
            new = [s for s in legal if s not in before]
            if len(gone) + len(new) < len(legal):
                key = "trace.legal_changed" if gone and new else "trace.legal_less" if gone else \
                    "trace.legal_more" if new else "trace.legal_same"
                return c.text(key, gone=self.places(gone), new=self.places(new))
        return c.text("trace.legal", spaces=self.places(legal))

    def _trace_part(self, side: str, part: dict, in_feed: bool = False) -> str:
        from crisis.content.phrases import places_text
        c, kind = self.catalog, part["kind"]
        overlay = self.content.definition.overlay
        schema = self.schema
        spaces = self.places
        dice = ""
        if "dice" in part:
            dice = c.text("trace.dice", rolls=", ".join(map(str, part["dice"])), among=spaces(part.get("left", [])))
        if kind == "table":
            rows = overlay.aids[schema.sides.index(side)][part["table"]]
            shown = []
            set_aside = part.get("set_aside", {})
            for index, kept in part["rows"]:
                text = places_text(self.content, c, rows[index].places, "solo")
                if kept is None and set_aside.get(index):  # it names legal places, but none still left
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
                          chosen=self.space(part["chosen"]))
        if kind == "priority":
            marker = [m.name for m in schema.markers].index(part["marker"])
            lines = overlay.markers[marker]
            shown = []
            for index, kept in part["lines"]:
                text = places_text(self.content, c, lines[index].places, "solo")
                key = "trace.line_none" if kept is None else "trace.line"
                shown.append(c.text(key, n=index + 1, text=text, kept=spaces(kept or [])))
            return c.text("trace.priority", marker=self.marker(part["marker"]), legal=spaces(part["legal"]),
                          lines="".join(shown) + dice, chosen=self.space(part["chosen"]))
        if kind == "options":
            found = c.text("trace.separator").join(c.text("trace.option", n=i + 1, found=f) for i, f in part["found"])
            return c.text("trace.options", found=found, chosen=part["chosen"] + 1, criterion=part["criterion"] or "")
        if kind == "holder":
            return c.text("trace.holder", holder=self.location(part["holder"]))
        return c.text(f"trace.{kind}")

    # ------------------------------------------------------------ decisions
    def prompt(self, game, decision: Decision) -> str:
        sides = self.schema.sides
        key = f"decision.{decision.kind}"
        if decision.stage:
            key += f"_{decision.stage}"
        elif decision.on_behalf >= 0:
            key += "_for"
        if decision.optional:
            key += "_optional"
        params = {"player": self.side(sides[decision.player]), "n": decision.remaining}
        if decision.on_behalf >= 0:
            params["other"] = self.side(sides[decision.on_behalf])
        if decision.kind == "marker" and decision.actions:
            params["marker"] = self.marker(self.schema.markers[decision.actions[0].b].name)
        return self.catalog.text(key, **params)

    def prompt_rule(self, decision: Decision) -> Optional[str]:
        """The statement a decision about cards in play comes from, as a sentence ("Deploy any
        number of farms from your hand."), where one prompt ("deploy a card, or stop") serves
        statements that follow one another: the player reads which one asks, and that stopping
        ends it, not the whole step.  None for any other decision."""
        from crisis.content.phrases import statement_text
        from crisis.ruleset import meaning as M
        if not isinstance(decision.rule, (M.EnterPlay, M.MoveEntity)):
            return None
        try:
            return statement_text(self.content, self.catalog, decision.rule, actor="you")
        except (KeyError, AttributeError):
            return None

    def action(self, game, decision: Decision, action: Action) -> str:
        """A player-facing description of an action, in the locale."""
        c = self.catalog
        program = self.program
        names = program.locations.names
        sides = self.schema.sides
        kind = action.kind
        if kind in ("place", "remove", "move"):
            owner = action.side if action.side >= 0 else decision.owner
            token = self.token(sides[owner], sides[decision.player])
            params = self.params({"source": names[action.a], "dest": names[action.b]})
            return c.text(f"action.{kind}", token=token, **params)
        if kind == "done":
            return c.text("action.done")
        if kind == "option":
            return c.text("action.option", n=action.a + 1, text=self.option_text(decision, action.a))
        if kind == "marker":
            return c.text("action.marker", **self.params({"marker": self.schema.markers[action.b].name,
                                                          "space": names[action.a]}))
        found = self.action_card(action)
        if found is not None:
            cards, card_id = found
            params = self.card_fields(card_id, cards.kind.name)
            key = f"action.{kind}"
            other = card_action_other(action, cards, self.schema.map.places)
            if other is not None and other[0] == "place":
                params.update(self.params({"space": other[1]}))
            elif other is not None:
                params["discarded"] = params["onto"] = self.card(other[1], cards.kind.name)
            if action.how and c.raw(f"{key}_{action.how}") is not None:  # "march X to a place": its own words
                key = f"{key}_{action.how}"
            return c.text(key, **params)
        if 0 <= action.a < len(self.schema.map.places):  # a place chosen ("bonus Washington")
            return c.text(f"action.{kind}", **self.params({"space": names[action.a]}))
        return action.text

    def option_text(self, decision: Decision, index: int) -> str:
        """The text of one option of an "either" rule."""
        from crisis.content.phrases import block_text, meaning_of
        node = decision.rule
        if node is None:
            return ""
        try:
            options = meaning_of(self.content, node).options
        except (KeyError, AttributeError):
            return ""
        return block_text(self.content, self.catalog, options[index], inline=True)


_SOLO_LINES = {"log.die": "_die", "log.solo.if": "_solo_if", "log.solo.first_of": "_solo_first_of",
               "log.solo.choice": "_solo_choice"}


def card_action_other(action: Action, cards, places) -> Optional[Tuple[str, str]]:
    """What a card action names besides its card: ``("onto", card id)`` for the card it is put
    on ("deploy rifle onto brigade"), ``("discard", card id)`` for a card of the same kind paid
    with it, ``("place", place)`` for where it goes ("march brigade to Boston"), or None."""
    if action.b < 0:
        return None
    if not action.how and len(action.text.split(" ")) <= 2:  # a location deployed at its own place
        return None  # ("deploy boston": b is the place its card stands for, said by the card itself)
    if action.how in ("", "onto"):
        return ("onto" if action.how else "discard"), cards.ids[action.b]
    if action.b < len(places):
        return "place", places[action.b]
    return None


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
