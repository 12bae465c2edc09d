"""Drawing the game for a person: the board, the tracks, a player's own cards, the feed, the end
of a round and the final score, for any game.

Everything here is read from the game's schema (its sides, counters, map, tokens, holders,
tracks, markers, cards, piles and cards in play) through the general engine's ``View`` of a
position, laid out as the game's ``layout.yaml`` says (content/boardlayout.py; a game without
one gets one made from its schema).  Every word comes from the locale catalog, by the names the
schema gives things (``cli.board.counter.<counter>``, ``cli.board.own.<pile>``...), with
general wordings for names the catalog has none for; no game's words are in this file.  There is
no game logic: control is asked of the engine, never worked out here.  Both front-ends draw with
these blocks: the line mode prints them, the full-screen interface puts them in its panes.

``Screen(game, show, style, width)`` takes a game of the general engine (its ``view``, its
``program``, ``first_player()``, ``result``, ``automa``).  What a viewer may see is what the
schema says (piles ``seen by``): ``private(viewer)`` shows the viewer's own piles,
``public_cards(sides)`` what everyone may know of the others'.
"""

from __future__ import annotations

import re
import textwrap
from typing import Dict, Iterable, List, Optional, Sequence

from crisis.content.boardlayout import INLINE, LIST, NONE, default_layout
from crisis.interpreter.engine.layout import NOBODY
from crisis.ruleset.phrasing import capitalised, phrase_block, phrase_condition, snake

from .terminal import Style, _pad, fit, fit_all, visible  # noqa: F401 (fit, fit_all: the front-ends draw with them)

# The cards in play at a place follow its row when this many columns are left for them (the
# longest card titles are about 20 letters); else they go on lines of their own, this far in.
CARD_ROOM = 18
UNDER_PLACE = 6


def short_names(names: Sequence[str], least: int = 3) -> List[str]:
    """The shortest starts of the names (at least ``least`` letters) that tell them apart."""
    size = least
    while size < max(len(n) for n in names) and len({n[:size].lower() for n in names}) < len(names):
        size += 1
    return [n[:size] for n in names]


# ------------------------------------------------------------------ the position


def _steps(game) -> List[str]:
    """The steps of the sequence of play under way, the outermost first."""
    from crisis.interpreter.engine.sequence import StepOp
    ops = game.program.ops
    return [op.name for op in (ops[frame[0]] for frame in game.position.stack if frame[0] >= 0)
            if isinstance(op, StepOp)]


def current_step(game) -> Optional[str]:
    """The step of the sequence of play a position is in (the outermost: a step's own steps, such
    as a turn in the card play, are part of it), or None."""
    steps = _steps(game)
    return steps[0] if steps else None


def innermost_step(game) -> Optional[str]:
    """The step a position is in, the innermost of those under way (the battle of a side's
    turn), or None."""
    steps = _steps(game)
    return steps[-1] if steps else None


def steps_under_way(game) -> frozenset:
    """Every step of the sequence of play a position is in, the outermost and those inside it."""
    return frozenset(_steps(game))


def whose_turn(game) -> int:
    """The side whose turn is under way (the innermost "players alternate" taking one), or NOBODY."""
    from crisis.interpreter.engine.sequence import AlternateOp
    ops = game.program.ops
    for frame in reversed(game.position.stack):
        if frame[0] >= 0 and isinstance(ops[frame[0]], AlternateOp) and frame[2] != NOBODY:
            return frame[2]
    return NOBODY


def win_statement(program):
    """The rule that decides the winner by a counter (its counter and tie-breaks), if any."""
    from crisis.interpreter.engine.sequence import WinOp
    return next((op for op in program.ops if isinstance(op, WinOp) and op.counter >= 0), None)


# ------------------------------------------------------------------ the screen


class Screen:
    """Text blocks for one game, in one locale and style, for a screen ``width`` columns wide."""

    def __init__(self, game, show, style: Style, width: int = 100):
        self.game = game
        self.show = show
        self.c = show.catalog
        self.style = style
        self.width = width
        self.program = game.program
        self.schema = self.program.schema
        self.definition = self.program.definition
        self.layout = getattr(self.definition, "board", None) or default_layout(self.schema)
        self.sides = range(len(self.schema.sides))
        self.side_names = [self.c.name("sides", s) for s in self.schema.sides]
        self.shorts = short_names(self.side_names)
        self._piles = {p.name: p for p in self.schema.piles}

    # ------------------------------------------------------------ the game
    @property
    def engine(self):
        """The game drawn (the general engine's)."""
        return self.game

    @property
    def view(self):
        return self.game.view

    # ---------------------------------------------------------------- names
    def side(self, index: int) -> str:
        return self.style.side(index, self.side_names[index])

    def text(self, key: str, **params) -> str:
        return self.c.text(key, **params)

    def has(self, key: str) -> bool:
        return self.c.raw(key) is not None

    def named(self, key: str, names: Sequence[str] = (), **params) -> str:
        """The first of ``names`` (keys made from the names of a game's things) the catalog has,
        else ``key``: the general wording."""
        return self.text(next((k for k in names if self.has(k)), key), **params)

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

    def place_name(self, place: int) -> str:
        return self.c.name(self.schema.map.place_words[-1], self.schema.map.places[place])

    def group_name(self, group: int) -> str:
        return self.c.name(self.schema.map.group_words[-1], self.schema.map.groups[group].name)

    def zone_name(self, track, zone) -> str:
        return self.c.name(track.zone_words[-1], zone.name)

    def marker_name(self, marker) -> str:
        return self.c.name("markers", marker.name)

    def thing(self, kind: str, name: str, words: Sequence[str] = ()) -> str:
        """A counter's, pile's or holder's name (``counters.VP``), else the word rules use for it."""
        return self.c.name(kind, name, words[0] if words else name)

    def counter_name(self, name: str) -> str:
        counter = self.schema.counters[self.program.counter_index[name]]
        return self.thing("counters", name, counter.words)

    def pile_name(self, name: str) -> str:
        return self.thing("piles", name, self._piles[name].words)

    # ---------------------------------------------------------------- cards
    def kind_of(self, pile: str) -> int:
        return self.program.kind_index[self._piles[pile].kind]

    def section(self, kind: int) -> str:
        """Where a kind's cards are in the catalog: under the word rules use for them ("cards")."""
        return self.schema.card_kinds[kind].words[-1]

    def title(self, kind: int, card: int) -> str:
        card_id = self.program.cards[kind].ids[card]
        found = self.c.raw(f"{self.section(kind)}.{card_id}.title")
        return self.c.text(f"{self.section(kind)}.{card_id}.title") if found is not None else card_id

    def slug(self, kind: int, card: int) -> str:
        card_id = self.program.cards[kind].ids[card]
        slug = getattr(self.show, "card_slug", None)
        return slug(self.section(kind), card_id) if slug is not None else card_id

    def has_rule(self, kind: int, card: int) -> bool:
        cards = self.program.cards[kind]
        field = cards.rule_field()
        return field >= 0 and cards.fields[field][card] is not None

    def rule_text(self, kind: int, card: int, inline: bool = False) -> str:
        """A card's rule as a player reads it: the designer's own text if the catalog has one (crisis
        check has held it to the rule), else the rule put into words."""
        card_id = self.program.cards[kind].ids[card]
        written = self.c.raw(f"{self.section(kind)}.{card_id}.text")
        if written is not None:
            return written
        kind_name = self.schema.card_kinds[kind].name
        cards = self.definition.cards[kind_name]
        field = self.program.cards[kind].rule_field()
        rule = cards.fields[field][cards.ids.index(card_id)] if field >= 0 else None
        if rule is None:
            return ""
        return phrase_block(rule, self.c, self.schema, self.definition.declarations, inline)

    def sides_for(self, kind: int, card: int, sides, short: bool = False) -> str:
        """A card's sides (whom its rule is for): each, every side, or none when it has no rule."""
        if not self.has_rule(kind, card):
            return self.text("cli.card.no_event")
        if len(sides) == len(self.side_names):
            return self.text("cli.card.event_for_all_short" if short else "cli.card.event_for_all")
        names = self.shorts if short else self.side_names
        return self.join([self.style.side(s, names[s]) for s in sides])

    def card_params(self, kind: int, card: int, short: bool = False, bold: bool = True) -> Dict[str, object]:
        """A card's title, id and each field but its rules, by the field's name ("event for":
        {event_for}), as players read them."""
        title = self.title(kind, card)
        params: Dict[str, object] = {"title": self.style.bold(title) if bold else title, "id": self.slug(kind, card)}
        cards = self.program.cards[kind]
        for (name, type_name), values in zip(cards.kind.fields, cards.fields):
            value = values[card]
            if type_name == "sides":
                shown = self.sides_for(kind, card, value, short)
            elif type_name == "side":
                shown = self.style.side(value, self.side_names[value]) if value is not None and value >= 0 else ""
            elif type_name == "group":
                shown = self.group_name(value) if value is not None and value >= 0 else ""
            elif type_name == "place":
                shown = self.place_name(value) if value is not None and value >= 0 else ""
            elif type_name == "rule":
                continue
            elif type_name == "kind" and value:
                # a kind of card by the noun the game's rules give a card of it ("soldier")
                noun = f"render.play.noun.{snake(value)}"
                shown = self.c.text(noun, n=1, form="") if self.has(noun) else value
            elif type_name == "text" and value is not None:
                # a text printed on the card (a caption): the catalog's, in this language
                written = self.c.raw(f"{self.section(kind)}.{cards.ids[card]}.{name}")
                shown = written if written is not None else value
            else:
                shown = value
            params[snake(name)] = shown
        return params

    def card_fields(self, kind: int, card: int) -> str:
        """The fields of a card of a kind the catalog has no line for: "  ·  soldier  ·  North  ·
        price 2  ·  power 3", each as the catalog says that field (``cli.board.field.<field>``),
        else its type (``cli.board.field_type.<type>``: a side or a kind by its name alone), else
        ``cli.board.card_field`` with the field's name in this language (``fields.<field>``).  A
        field that says nothing is left out: empty, or at a default of 0 or none the card does not
        change.  Its texts (a caption) are not on its line: the card in full says them (``card_texts``)."""
        declared = self.schema.card_kinds[kind]
        params = self.card_params(kind, card)
        own = self._card_values(kind, card)
        out = []
        for (name, type_name), values in zip(declared.fields, self.program.cards[kind].fields):
            if type_name in ("rule", "text") or self._says_none(declared, name, type_name, values[card], own):
                continue
            value = params[snake(name)]
            keys = [f"cli.board.field.{snake(name)}", f"cli.board.field_type.{type_name}"]
            out.append(self.named("cli.board.card_field", keys, field=self.c.name("fields", name), value=value))
        return "".join(out)

    def _card_values(self, kind: int, card: int) -> dict:
        """Each field of a card by its name: what a default naming another field reads."""
        declared = self.schema.card_kinds[kind]
        return {name: values[card] for (name, _), values in zip(declared.fields, self.program.cards[kind].fields)}

    @staticmethod
    def _says_none(declared, name: str, type_name: str, value, own: Optional[dict] = None) -> bool:
        """A card's field that tells nothing: no value, an empty text, no side, place or group, or
        a number at its default, which the card does not change (a card without a rank or a
        price; a skill of 1 where every card has 1 unless it says otherwise; a defense equal to
        the power it defaults to): what is printed on a card is what sets it apart."""
        if value is None or value == "" or value == ():
            return True
        if type_name in ("side", "place", "group") and isinstance(value, int) and value < 0:
            return True
        if type_name != "number":
            return False
        default = declared.default(name)
        if isinstance(default, str):  # a default that names another field of the card
            default = (own or {}).get(default)
        return default is not None and value == default

    def card_texts(self, kind: int, card: int) -> List[str]:
        """The texts printed on a card (a caption), each as the catalog gives it in this language."""
        declared = self.schema.card_kinds[kind]
        params = self.card_params(kind, card)
        return [str(params[snake(name)]) for (name, type_name), values
                in zip(declared.fields, self.program.cards[kind].fields)
                if type_name == "text" and not self._says_none(declared, name, type_name, values[card])]

    def card_line(self, card: int, detailed: bool, indent: int = 3, kind: Optional[int] = None) -> List[str]:
        """A card on a line of its own (``cli.board.card.<kind>``), and its rule under it when
        ``detailed``.  ``kind``: the kind played from a hand, unless given."""
        kind = self.program.played_kind if kind is None else kind
        name = self.schema.card_kinds[kind].name
        params = self.card_params(kind, card)
        lines = [" " * indent + self.named("cli.board.card_line", [f"cli.board.card.{name}"],
                                            fields=self.card_fields(kind, card), **params)]
        if detailed and self.has_rule(kind, card):
            lines.extend(self.style.dim(x) for x in self.wrap(self.rule_text(kind, card, inline=True), indent + 4))
        return lines

    def card_compact(self, kind: int, card: int, short: bool = False) -> str:
        """A card in a few words (the full screen's lists): ``cli.board.card_compact.<kind>``, or
        ``card_short`` by title and a number only, on a narrow column."""
        name = self.schema.card_kinds[kind].name
        keys = [f"cli.board.card_short.{name}"] if short else []
        keys.append(f"cli.board.card_compact.{name}")
        return self.named("cli.board.card_compact_line", keys, fields=self.card_fields(kind, card),
                          **self.card_params(kind, card, short=True))

    def action_card(self, decision, action):
        """(kind, card) of the card an action plays, keeps or orders, or None: a card played from
        a hand is of the kind played; one kept is of the kind the decision names ("keep_NOUN")."""
        if action is None or action.a < 0:
            return None
        if action.kind in {use.name for use in self.program.uses} or action.kind == "order":
            return self.program.played_kind, action.a
        noun = decision.kind.partition("_")[2]
        if decision.kind.startswith(action.kind + "_") and noun:
            kind = next((k for k, declared in enumerate(self.schema.card_kinds) if noun in declared.words), None)
            if kind is not None and action.a < len(self.program.cards[kind].ids):
                return kind, action.a
        return None

    def card_preview(self, kind: int, card: int) -> List[str]:
        """A card in a few lines: its compact line, then its rule's text."""
        head = self.card_compact(kind, card)
        if not self.has_rule(kind, card):
            return [head]
        return [head] + self.rule_text(kind, card, inline=True).split("\n")

    def kind_word(self, kind: int) -> str:
        """The word a catalog's keys use for a kind of cards: its name without its last word
        ("strategy" for "strategy cards"), or its name when it has one word."""
        name = self.schema.card_kinds[kind].name
        return snake(name.rsplit(" ", 1)[0])

    def kind_heading(self, kind: int, n: int) -> str:
        """The heading of a whole kind of cards (``cli.cards.<word>_heading``, see ``kind_word``)."""
        found = f"cli.cards.{self.kind_word(kind)}_heading"
        if self.has(found):
            return self.text(found, n=n)
        name = self.schema.card_kinds[kind].name
        return self.text("cli.cards.heading", cards=capitalised(self.c.name("card_kinds", name)), n=n)

    def card_text(self, kind: int, card: int) -> List[str]:
        """A card in full, as a player reads it (``crisis cards``): its line (``cli.card.<word>``,
        else the board's line for its kind), its texts (a caption) under it, its rule under its
        label (``cli.card.<word>_event_label``, else ``cli.card.event_label``), and the meaning of
        the map's names the language keeps."""
        word = self.kind_word(kind)
        name = self.schema.card_kinds[kind].name
        head = self.named("cli.board.card_line", [f"cli.card.{word}", f"cli.board.card.{name}"],
                          fields=self.card_fields(kind, card), **self.card_params(kind, card))
        lines, text = [head], ""
        for written in self.card_texts(kind, card):  # (a caption: under the card's line)
            lines.extend(self.wrap(self.text("cli.card.text_field", text=written), 3))
        if self.has_rule(kind, card):
            lines.append("   " + self.named("cli.card.event_label", [f"cli.card.{word}_event_label"]))
            text = self.rule_text(kind, card)
            lines.extend(self.wrap(text, 5))
        lines.extend("     " + gloss for gloss in self.glosses(head + "\n" + text))
        return lines

    def glosses(self, text: str) -> List[str]:
        """Where a language keeps the map's printed names (the catalog's ``glosses.<places>.<name>``),
        the meaning of each one ``text`` uses."""
        words = self.schema.map.place_words
        section = words[-1] if words else "places"
        out = []
        for place, name in enumerate(self.schema.map.places):
            meaning = self.c.raw(f"glosses.{section}.{name}")
            shown = self.place_name(place)
            if meaning and re.search(rf"(?<!\w){re.escape(shown)}(?!\w)", text):
                out.append(self.text("cli.card.gloss", name=shown, meaning=meaning))
        return out

    # --------------------------------------------------------------- header
    def counter_text(self, name: str, side: int = NOBODY, compact: bool = False, short: bool = False) -> str:
        """One counter as the board shows it (``cli.board.counter.<name>``: {n}, {to} its highest,
        {side} whose)."""
        counter = self.schema.counters[self.program.counter_index[name]]
        value = self.view.counter(name, max(side, 0))
        params = dict(n=value, to=counter.high, counter=capitalised(self.counter_name(name)))
        keys = [f"cli.board.counter_short.{name}"] if compact else []
        keys.append(f"cli.board.counter.{name}")
        if side == NOBODY:
            return self.named("cli.board.counter_game", keys, **params)
        names = self.shorts if short else self.side_names
        return self.named("cli.board.counter_side", keys, side=self.style.side(side, names[side]),
                           **dict(params, counter=self.counter_name(name)))

    def step_text(self) -> str:
        step = innermost_step(self.engine) if self.layout.step == "innermost" else current_step(self.engine)
        if step is None:
            return self.text("cli.phase.game_over") if self.engine.over else ""
        found = self.c.raw(f"steps.{step}")
        return self.named("cli.board.step", [f"cli.phase.{snake(step)}"],
                           step=found if found is not None else capitalised(step))

    def header(self, compact: bool = False, width: Optional[int] = None) -> List[str]:
        """The game's name, its counters, the step and the first player; each side's counters and
        the piles counted (``compact``: in two lines of 80 columns, the full-screen interface's).
        The title's rows are at most ``width`` wide (the screen's, by default)."""
        width = width or self.width
        layout = self.layout
        parts = [self.text("cli.title")] if self.has("cli.title") else []
        parts += [self.counter_text(name, compact=compact) for name in layout.title]
        turn = whose_turn(self.engine) if layout.turn and not self.engine.over else NOBODY
        if turn != NOBODY:
            parts.append(self.text("cli.board.turn_of", side=self.side(turn)))
        step = self.step_text()
        if step:
            parts.append(step)
        first = self.side(self.engine.first_player())
        parts.append(self.text("cli.board.first_short", first=first) if compact
                     else self.text("cli.board.first", first=first))
        separator = self.text("cli.board.separator_short") if compact else self.text("cli.board.separator")
        # parts joined while they fit the width, then on the next row: a row never ends in a separator
        rows = [parts[0]] if parts else [""]
        for part in parts[1:]:
            joined = rows[-1] + separator + part
            if visible(joined) <= width or rows[-1].strip() == "":
                rows[-1] = joined
            else:
                rows.append("  " + part)
        facts = []
        now = steps_under_way(self.engine)
        for fact in layout.facts:
            if fact.during and now.isdisjoint(fact.during):
                continue
            facts.append(self.counter_fact(fact, compact) if fact.counter else self.pile_fact(fact.pile, compact))
        return [self.style.bold(row) for row in rows] + ["   ".join(f for f in facts if f)]

    def counter_fact(self, fact, compact: bool) -> str:
        name = fact.counter
        counter = self.schema.counters[self.program.counter_index[name]]
        if not counter.each_side:
            return self.counter_text(name, compact=compact)
        short = compact and fact.short_sides
        sides = "   ".join(self.counter_text(name, side, compact, short) for side in self.sides)
        keys = [f"cli.board.counters_short.{name}"] if compact else []
        keys.append(f"cli.board.counters.{name}")
        key = next((k for k in keys if self.has(k)), None)
        return self.text(key, sides=sides) if key else sides

    def pile_fact(self, name: str, compact: bool) -> str:
        """A pile by how many cards it holds (each side's, for a pile each side keeps)."""
        keys = [f"cli.board.pile_short.{name}"] if compact else []
        keys.append(f"cli.board.pile.{name}")
        pile = capitalised(self.pile_name(name))
        if not self._piles[name].each_side:
            return self.named("cli.board.pile_count", keys, n=len(self.view.pile(name)), pile=pile)
        return "   ".join(self.named("cli.board.pile_count_side", keys, n=len(self.view.pile(name, side)), pile=pile,
                                     side=self.side(side))
                          for side in self.sides)

    # ---------------------------------------------------------------- board
    def _controller(self, place: int) -> int:
        board = self.engine.machine.board
        return next((side for side in self.sides if board.controls(side, place)), NOBODY)

    def _marked(self) -> frozenset:
        mark = self.layout.mark
        places = self.schema.map.attributes.get(mark, ()) if mark else ()
        return frozenset(self.program.place_index[p] for p in places)

    def _in_play_at(self) -> Dict[int, List[int]]:
        """The cards in play at each place (those carried stand with their carrier)."""
        out: Dict[int, List[int]] = {}
        in_play = self.schema.in_play
        if in_play is None or not in_play.at_places:
            return out
        for entity in self.view.in_play():
            record = self.view.entity(entity)
            if record["at"] is not None and record["on"] is None:
                out.setdefault(self.program.place_index[record["at"]], []).append(entity)
        return out

    def entity_text(self, entity: int) -> str:
        """A card in play: its title, its flags set, the cards it carries."""
        from crisis.interpreter.engine.entities import tables
        t = tables(self.program)
        record = self.view.entity(entity)
        text = self.title(t.kind_of[entity], t.card_of[entity])
        flags = [self.thing("cli.board.flag", flag.name, flag.words) for flag in self.schema.in_play.flags
                 if record["flags"].get(flag.name)]
        if flags:
            text = self.text("cli.board.in_play_flags", card=text, flags=", ".join(flags))
        carried = [self.entity_text(other) for other in self.view.in_play()
                   if self.view.entity(other)["on"] == record["card"]]
        if carried:
            text = self.text("cli.board.in_play_carrying", card=text, cards=self.join(carried))
        side = self.sides_index(record["side"])
        return self.style.side(side, text)

    def sides_index(self, name: Optional[str]) -> int:
        return self.schema.sides.index(name) if name is not None else NOBODY

    def _group_block(self, group: int, changed, marked, in_play, width: Optional[int] = None) -> List[str]:
        """One group of places: its name (and who controls it whole), then a row per place:
        changed mark, attribute mark, marker, name, each side's tokens, the controller, the cards
        in play there."""
        style, view, tokens = self.style, self.view, self.schema.tokens
        names = [self.place_name(p) for p in range(len(self.schema.map.places))]
        name_w = max(len(n) for n in names)
        title = style.bold(self.group_name(group))
        control = tokens is not None and bool(tokens.control_words)
        board = self.engine.machine.board
        owner = next((s for s in self.sides if board.controls_group(s, group)), NOBODY) if control else NOBODY
        if owner != NOBODY:
            title += " " + self.text("cli.board.group_controlled", side=self.side(owner))
        lines = [title]
        markers = {self.view.marker(m.name) for m in self.schema.markers}
        for place in self.program.group_places[group]:
            new = style.new if place in changed else " "
            mark = style.attribute if place in marked else " "
            marker = style.marker if place in markers else " "
            name = _pad(names[place], name_w)
            if place in changed:
                name = style.highlight(name)
            row = f"{new}{mark}{marker} {name} "
            if tokens is not None:
                pips_w = tokens.at_most_per_place
                for side in self.sides:
                    n = view.tokens(side, place)
                    if pips_w:
                        row += style.side(side, style.token * n) + style.empty * max(0, pips_w - n) + " "
                    else:
                        row += style.side(side, str(n).rjust(len(str(tokens.each_side)))) + " "
            if control:
                controller = self._controller(place)
                row += (style.side(controller, self.shorts[controller]) if controller != NOBODY
                        else style.dim(self.text("cli.board.nobody")))
            if place in in_play:
                lines += self._row_with_cards(row, self.cards_at(in_play[place]), width)
            else:
                lines.append(row.rstrip())
        return lines

    def cards_at(self, entities: Sequence[int]) -> str:
        """The cards in play at a place, each in its side's colour; without colour (a pipe, a
        screen reader, NO_COLOR), after the name of the side they belong to ("North: Washington
        D.C.; South: J.E.B. Stuart"), which nothing else on the row would tell."""
        if self.style.enabled:
            return self.join([self.entity_text(e) for e in entities])
        by_side: Dict[int, List[str]] = {}
        for entity in entities:
            by_side.setdefault(self.sides_index(self.view.entity(entity)["side"]), []).append(self.entity_text(entity))
        return self.text("cli.board.in_play_sides_separator").join(
            self.text("cli.board.in_play_side", side=self.side(side), cards=self.join(texts))
            if side != NOBODY else self.join(texts) for side, texts in sorted(by_side.items()))

    @staticmethod
    def _row_with_cards(row: str, cards: str, width: Optional[int]) -> List[str]:
        """A place's row and the cards in play there: on the row, broken under their first line
        where a ``width`` is given and they pass it, or, where the row leaves too little room
        for a card's name, on lines of their own under it."""
        line = f"{row} {cards}"
        if width is None or visible(line) <= width:
            return [line]
        column = visible(row) + 1
        if width - column >= CARD_ROOM:
            return fit(line, width, indent=column)
        return [row.rstrip()] + fit(" " * UNDER_PLACE + cards, width, indent=UNDER_PLACE)

    def board(self, changed: Iterable[int] = (), legend: bool = True) -> List[str]:
        """The map, two groups side by side when the screen is wide enough, then the markers
        (without the column heads and the legend, for the full-screen interface: ``legend=False``)."""
        changed = set(changed)
        style = self.style
        marked, in_play = self._marked(), self._in_play_at()
        blocks = [self._group_block(g, changed, marked, in_play) for g in range(len(self.schema.map.groups))]
        block_w = max(visible(line) for block in blocks for line in block)
        head = self._column_head()
        lines: List[str] = []
        side_by_side = self.width >= 2 * block_w + 3 and len(blocks) > 1
        if not side_by_side and block_w > self.width:  # one under the other, each broken to fit
            blocks = [self._group_block(g, changed, marked, in_play, self.width)
                      for g in range(len(self.schema.map.groups))]
        if side_by_side:
            if legend and head:
                lines.append((_pad(head, block_w + 3) + head).rstrip())
            for left in range(0, len(blocks), 2):
                pair = blocks[left:left + 2]
                height = max(len(b) for b in pair)
                for row in range(height):
                    cells = [b[row] if row < len(b) else "" for b in pair]
                    lines.append((_pad(cells[0], block_w + 3) + (cells[1] if len(cells) > 1 else "")).rstrip())
        else:
            if legend and head:
                lines.append(head)
            for block in blocks:
                lines.extend(block)
        lines += self.line_of_places()
        lines += self.off_map()
        placed = self.marker_lines()
        if not legend:
            return lines + [line for m, line in zip(self.schema.markers, placed)
                            if self.view.marker(m.name) != NOBODY]
        lines += placed
        legend = self.legend()
        if legend:  # (a map of places and cards alone has no symbols to explain)
            lines.append(style.dim(legend))
        return lines

    def legend(self) -> str:
        """What the map's symbols mean."""
        style, parts = self.style, []
        if self.layout.mark:
            parts.append(self.text("cli.board.legend_mark", symbol=style.attribute,
                                   attribute=self.thing("cli.board.attribute", self.layout.mark)))
        if self.schema.markers:
            parts.append(self.text("cli.board.legend_marker", symbol=style.marker))
        tokens = self.schema.tokens
        if tokens is not None:  # (what changed is told by tokens; the sides' short names head their columns)
            parts.append(self.text("cli.board.legend_new", symbol=style.new))
            if tokens.at_most_per_place:
                parts.append(self.text("cli.board.legend_tokens", token=style.token, empty=style.empty))
            parts.append("  ".join(style.side(i, f"{self.shorts[i]} {self.side_names[i]}") for i in self.sides))
        return "  ".join(parts)

    def _column_head(self) -> str:
        """The names over the token columns."""
        tokens = self.schema.tokens
        if tokens is None:
            return ""
        names = [self.place_name(p) for p in range(len(self.schema.map.places))]
        lead = 4 + max(len(n) for n in names) + 1
        pips_w = tokens.at_most_per_place or len(str(tokens.each_side))
        head = " " * lead
        for side in self.sides:
            head += self.style.side(side, _pad(self.shorts[side], pips_w)) + " "
        return head.rstrip()

    def line_of_places(self) -> List[str]:
        """A map of cards in a line (docs/state.md, 'line'): the places on the map in the line's
        order, where distances are counted (the groups above list every place, on the map or
        not, in their own order)."""
        from crisis.interpreter.engine.entities import tables
        t = tables(self.program)
        if not t.line:
            return []
        in_play = set(self.view.in_play())
        places = [self.place_name(p) for p in t.line_order if t.place_card[p] in in_play]
        if not places:
            return []
        return fit(self.text("cli.board.line", places=self.text("cli.board.line_separator").join(places)),
                   self.width, indent=2)

    def off_map(self) -> List[str]:
        """Each side's cards in play that stand at no place."""
        in_play = self.schema.in_play
        if in_play is None:
            return []
        lines = []
        for side in self.sides:
            cards = [e for e in self.view.in_play(side) if self.view.entity(e)["at"] is None
                     and self.view.entity(e)["on"] is None]
            if cards:
                lines += fit(self.text("cli.board.in_play_off_map", side=self.side(side),
                                       cards=", ".join(self.entity_text(e) for e in cards)), self.width)
        return lines

    def markers_placed(self) -> List[str]:
        """Each marker on the map and where, in a few words (what it forbids is said where it
        matters: under the question, and in help)."""
        out = []
        for marker in self.schema.markers:
            place = self.view.marker(marker.name)
            if place != NOBODY:
                out.append(self.text("cli.board.marker_short", symbol=self.style.marker,
                                     marker=self.marker_name(marker), space=self.place_name(place)))
        return out

    def marker_lines(self) -> List[str]:
        lines = []
        for marker in self.schema.markers:
            name, place = self.marker_name(marker), self.view.marker(marker.name)
            if place == NOBODY:
                lines.append(self.text("cli.board.marker_off", marker=name, symbol=self.style.marker))
            else:
                lines.append(self.text("cli.board.marker_on", marker=name, space=self.place_name(place),
                                       blocks=blocks_word(marker), symbol=self.style.marker))
        return lines

    # --------------------------------------------------------------- tracks
    def tracks(self, legend: bool = True) -> List[str]:
        """Each track as a table of the sides' rows by zone, the holders and the zones entered (a
        narrower form when the table does not fit), then the holders shown on their own."""
        lines: List[str] = []
        for table in self.layout.tables:
            lines += self._track_table(table)
        for holder in self.layout.holders:
            lines.append(self.text("cli.board.holder_line", holder=self.holder_label(holder),
                                   sides="   ".join(self.text("cli.board.holder_side", side=self.side(s),
                                                              n=self.view.holder(holder, s)) for s in self.sides)))
        if legend and self.layout.tables:
            lines.append(self.style.dim(self.text("cli.board.tracks_legend", token=self.style.token,
                                                  empty=self.style.empty)))
        return lines

    def holder_label(self, name: str) -> str:
        holder = next(h for h in self.schema.tokens.holders if h.name == name)
        return self.named("cli.board.holder_name", [f"cli.board.holder.{name}"],
                           holder=capitalised(self.thing("holders", name, holder.words)))

    def _track_table(self, table) -> List[str]:
        style, view = self.style, self.view
        track = next(t for t in self.schema.tracks if t.name == table.track)
        t_index = self.schema.tracks.index(track)
        zones = track.zones
        zone_names = [self.zone_name(track, z) for z in zones]
        label = self.named("cli.board.track_name", [f"cli.board.track.{track.name}"],
                            track=capitalised(track.words[0] if track.words else track.name))
        cells = [[self._zone_cell(side, track, z) for z in range(len(zones))] for side in self.sides]
        holders = [self.holder_label(h) for h in table.holders]
        counts = [[view.holder(h, side) for h in table.holders] for side in self.sides]
        matters = [bool(zone.box) or (t_index, z) in self.definition.entering for z, zone in enumerate(zones)]
        entered = [[zone_names[z] for z in range(len(zones)) if matters[z] and view.entered(track.name, z, side)]
                   for side in self.sides]
        entered_label = self.named("cli.board.entered_zones", [f"cli.board.entered.{track.name}"])
        name_w = max(len(label), *(len(n) for n in self.side_names)) + 2
        zone_w = [max(len(zone_names[z]), *(len(cells[s][z][0]) for s in self.sides)) + 2 for z in range(len(zones))]
        holder_w = [len(h) + 2 for h in holders]
        table_w = name_w + sum(zone_w) + sum(holder_w) + max(len(entered_label),
                                                              *(len(self.join(e)) for e in entered))
        if table_w <= self.width:
            head = _pad(label, name_w) + "".join(_pad(zone_names[z], zone_w[z]) for z in range(len(zones)))
            head += "".join(_pad(h, w) for h, w in zip(holders, holder_w)) + entered_label
            lines = [style.bold(head)]
            for side in self.sides:
                row = style.side(side, _pad(self.side_names[side], name_w))
                for z in range(len(zones)):
                    plain, coloured = cells[side][z]
                    row += coloured + " " * (zone_w[z] - len(plain))
                for h, w, n in zip(holders, holder_w, counts[side]):
                    row += _pad(str(n).rjust(len(h)), w)
                row += self.join(entered[side]) if entered[side] else style.dim(self.text("cli.board.nothing"))
                lines.append(row.rstrip())
            return lines
        holder_names = ", ".join(holders)
        title = self.text("cli.board.tracks_short", label=label, zones=" | ".join(zone_names), holders=holder_names)
        if len(title) > self.width:
            title = self.text("cli.board.tracks_shorter", label=label, holders=holder_names)
        lines = [style.bold(title)]
        cell_w = sum(len(plain.replace(" +", "+")) + 1 for plain, _ in cells[0]) \
            + sum(2 + len(str(max(c[h] for c in counts))) for h in range(len(holders)))
        names = self.side_names if max(len(n) for n in self.side_names) + 2 + cell_w <= self.width else self.shorts
        name_w = max(len(n) for n in names) + 2
        for side in self.sides:
            row = style.side(side, _pad(names[side], name_w))
            row += " ".join(coloured.replace(" +", "+") for _, coloured in cells[side])
            row += "".join(f"  {n}" for n in counts[side])
            lines.append(row)
        return lines

    def _zone_cell(self, side: int, track, zone: int):
        """(plain, coloured) text of one zone of one side's track: spaces from the top down, and the box."""
        z = track.zones[zone]
        left = self.view.track(track.name, side)  # tokens fill spaces 0 .. left-1
        pips = "".join(self.style.token if number < left else self.style.empty
                       for number in range(z.top, z.bottom - 1, -1))
        box = self.view.box(track.name, zone, side) if z.box else 0
        extra = f" +{box}" if box else ""
        return pips + extra, self.style.side(side, pips) + self.style.dim(extra)

    # -------------------------------------------------------- private cards
    def _own(self, pile: str):
        return next((o for o in self.layout.own if o.pile == pile), None)

    def _pile_params(self, name: str, side: int, cards: Sequence[int], items: Sequence[str]) -> Dict[str, object]:
        params: Dict[str, object] = dict(side=self.side(side), n=len(cards), cards=self.join(items),
                                         pile=self.pile_name(name), pile_capital=capitalised(self.pile_name(name)),
                                         pile_g=self.c.form("piles", name, "gender"))
        position = self._piles[name].position
        if position is not None:
            counter = self.schema.counters[self.program.counter_index[position]]
            params["done"] = self.view.counter(position, side if counter.each_side else 0)
        return params

    def _item(self, name: str, kind: int, card: int) -> str:
        """A card of a pile listed on one line (``cli.board.item.<pile>``, else its title)."""
        return self.named("cli.board.item_title", [f"cli.board.item.{name}"],
                           **self.card_params(kind, card, bold=False))

    def pile_lines(self, name: str, side: int, how: str, rules: str, detailed: bool, heading) -> List[str]:
        """A pile's cards under its heading (``heading(params)``): a line each, or on one line."""
        cards = self.view.pile(name, side)
        if not cards:
            return []
        kind = self.kind_of(name)
        if how == INLINE:
            items = [self._item(name, kind, card) for card in cards]
            return [heading(self._pile_params(name, side, cards, items))]
        lines = [heading(self._pile_params(name, side, cards, []))]
        show_rules = rules == "always" or (rules == "detailed" and detailed)
        for card in cards:
            lines.extend(self.card_line(card, show_rules, kind=kind))
        return lines

    def own_heading(self, name: str):
        """The heading of one of the viewer's piles (``cli.board.own.<pile>``)."""
        return lambda params: self.named("cli.board.own_pile", [f"cli.board.own.{name}"], **params)

    def side_heading(self, params) -> str:
        """A side's pile headed by the side's name (a replay's): a line of its cards, or a heading
        over them."""
        return self.text("cli.board.side_pile_inline" if params.get("cards") else "cli.board.side_pile", **params)

    def private(self, viewer: int, detailed: bool, named: bool = False) -> List[str]:
        """What only ``viewer`` may see: their own piles, as the layout lists them; ``named``: for
        someone else looking on (a replay shows every side's), each heading names the side."""
        lines: List[str] = []
        for own in self.layout.own:
            heading = self.side_heading if named else self.own_heading(own.pile)
            lines += self.pile_lines(own.pile, viewer, own.show, own.rules, detailed, heading)
        return lines

    def hand_compact(self, viewer: int, counts: bool = True, short: bool = False) -> List[str]:
        """``viewer``'s piles in a few lines (a card a line: its title and a few words, or its title
        and a number when ``short``), then (``counts``) the other sides' cards, counted, and what
        the automa's piles show: the few lines the full-screen interface has room for (a card in
        full is shown when its choice is highlighted)."""
        lines: List[str] = []
        for own in self.layout.own:
            if own.compact == NONE:
                continue
            lines += self._compact_pile(own, viewer, short)
        if counts:
            lines += [self.counts_line(side, compact=True) for side in self.sides if side != viewer]
        automa = getattr(self.engine, "automa", None)
        if automa is not None:
            for name in self.layout.automa:
                cards = self.view.pile(name, automa.side)
                if cards:
                    kind = self.kind_of(name)
                    items = [self.card_compact(kind, card) for card in cards]
                    lines.append(self.named("cli.board.automa_compact_pile", [f"cli.board.automa_compact.{name}"],
                                            **self._pile_params(name, automa.side, cards, items)))
        return lines

    def _compact_pile(self, own, viewer: int, short: bool) -> List[str]:
        name = own.pile
        cards = self.view.pile(name, viewer)
        if not cards:
            return []
        kind = self.kind_of(name)
        if own.compact == INLINE:
            if not self.has(f"cli.board.own_compact.{name}"):
                return self.pile_lines(name, viewer, INLINE, own.rules, False, self.own_heading(name))
            items = [self.card_compact(kind, card) for card in cards]
            return [self.text(f"cli.board.own_compact.{name}", **self._pile_params(name, viewer, cards, items))]
        keys = [f"cli.board.own_short.{name}"] if short else []
        keys += [f"cli.board.own_compact.{name}", f"cli.board.own.{name}"]
        lines = [self.named("cli.board.own_pile", keys, **self._pile_params(name, viewer, cards, []))]
        lines += ["  " + self.card_compact(kind, card, short) for card in cards]
        return lines

    def counts_line(self, side: int, compact: bool = False) -> str:
        """How many cards a side holds in each of its piles the others may not see."""
        names = self.layout.counts_compact if compact else self.layout.counts
        parts = []
        for name in names:
            keys = [f"cli.board.count_short.{name}"] if compact else []
            keys.append(f"cli.board.count.{name}")
            part = self.named("cli.board.count_pile", keys, n=len(self.view.pile(name, side)),
                              pile=self.pile_name(name))
            if part:
                parts.append(part)
        counts = self.text("cli.board.counts_separator").join(parts)
        if compact:
            return self.text("cli.board.counts_short", side=self.side(side), counts=counts)
        return self.text("cli.board.counts", side=self.side(side), counts=counts)

    def public_cards(self, sides: Sequence[int]) -> List[str]:
        """What everyone may know of the cards of ``sides``: their hidden piles counted, those
        turned face up; the piles everyone sees; in a game against the automa, the piles of its
        the person is shown."""
        lines = [self.counts_line(side) for side in sides] if self.layout.counts else []
        for side in sides:
            for name in self.layout.face_up:
                if self._piles[name].each_side and self.view.face_up(name, side):
                    own = self._own(name)
                    lines += self.pile_lines(name, side, own.show if own else LIST, "never", False,
                                             lambda params: self.named("cli.board.face_up_pile",
                                                                       [f"cli.board.face_up.{name}"], **params))
        for name in self.layout.shared:
            lines += self.shared_lines(name)
        automa = getattr(self.engine, "automa", None)
        if automa is not None:
            for name in self.layout.automa:
                own = self._own(name)
                lines += self.pile_lines(name, automa.side, own.show if own else LIST,
                                         own.rules if own else "always", False,
                                         lambda params: self.named("cli.board.automa_pile",
                                                                   [f"cli.board.automa.{name}"], **params))
        return lines

    def shared_lines(self, name: str) -> List[str]:
        """A pile everyone sees: how many cards, and the top one (each side's, if each keeps one)."""
        pile = self._piles[name]
        kind = self.kind_of(name)
        out = []
        for side in (self.sides if pile.each_side else (0,)):
            cards = self.view.pile(name, side)
            params = dict(pile=capitalised(self.pile_name(name)), n=len(cards),
                          top=self.title(kind, cards[-1]) if cards else "")
            if pile.each_side:
                out.append(self.named("cli.board.shared_pile_side", [f"cli.board.shared.{name}"],
                                      side=self.side(side), pile=self.pile_name(name), n=params["n"],
                                      top=params["top"]))
            else:
                out.append(self.named("cli.board.shared_pile", [f"cli.board.shared.{name}"], **params))
        return out

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
        for i in self.sides:
            lines.append(self.text("cli.round_end.vp", side=self.side(i), before=summary.vp_before[i],
                                   after=summary.vp_after[i]))
        return lines

    def result(self, reveal_seed: Optional[int] = None) -> List[str]:
        """The final score, the winner first: each side's score before the final scoring, each
        final scoring line, the tie-break in words if one decided."""
        style, c = self.style, self.c
        result = self.engine.result
        winner = result.winner
        win = win_statement(self.program)
        if result.at_once:
            # a rule declared the winner before the end: no final scoring took place
            others = [s for s in self.sides if s != winner]
            lines = [style.bold(self.text("cli.result.over")),
                     style.bold(self.text("cli.result.at_once", winner=self.side(winner),
                                          other=self.side(others[0]) if others else ""))]
            if reveal_seed is not None:
                lines.append(self.text("cli.result.seed", seed=reveal_seed))
            return lines
        lines = [style.bold(c.text("result.title"))]
        if win is None:
            lines.append(style.bold(c.text("result.winner", side=self.side(winner))))
        else:
            name = self.schema.counters[win.counter].name
            score = [self.view.counter(name, side) for side in self.sides]
            others = sorted((s for s in self.sides if s != winner), key=lambda s: -score[s])
            lines.append(style.bold(self.text("cli.result.headline", winner=self.side(winner), vp=score[winner],
                                              other=self.side(others[0]), other_vp=score[others[0]])))
            for side in [winner] + others:
                lines.append(c.text("result.line", side=self.side(side), vp=score[side]))
                breakdown = result.breakdown[side] if side < len(result.breakdown) else ()
                if breakdown:  # ('score ... in VP'); a scoring carried out otherwise has no lines to part from
                    final = sum(n for _, n in breakdown)
                    lines.append(self.text("cli.result.before", n=score[side] - final))
                for label, n in breakdown:
                    shown = c.raw(f"scoring.{label}")
                    lines.append(c.text("result.breakdown", label=shown if shown is not None else label, n=n))
        if result.tie_break >= 0 and win is not None:
            lines.append(c.text("cli.result.tie_break", rule=self.tie_break_text(win, result.tie_break),
                                winner=self.side(winner)))
        if reveal_seed is not None:
            lines.append(self.text("cli.result.seed", seed=reveal_seed))
        return lines

    def tie_break_text(self, win, index: int) -> str:
        """The tie-break that decided, in words (the automa's game's own, where it has them)."""
        name = self.program.procedure_names[win.ties]
        rules = self.definition.procedures[name][1]
        overlay = self.definition.overlay
        if getattr(self.engine, "automa", None) is not None and overlay is not None and name in overlay.procedures:
            replaced = overlay.procedures[name]
            rules = replaced.get("", next(iter(replaced.values())))
            rules = rules[1] if isinstance(rules, tuple) and len(rules) == 2 and isinstance(rules[0], str) else rules
        return phrase_condition(rules[index], self.c, self.schema, self.definition.declarations)


def blocks_word(marker) -> str:
    """What a marker forbids in its place, as the catalogs' choice word."""
    if marker.blocks_placement and marker.blocks_removal:
        return "both"
    return "placement" if marker.blocks_placement else "removal" if marker.blocks_removal else "none"
