"""The syntax tree to what it means in one game (meaning.py), with diagnostics.

A phrase is resolved from its last noun (its head) outwards: the head says what
kind of thing it is (places, a pile, a counter, a field...), the words before
it narrow it ("Political spaces", "your Escalation box", "revealed objective
spaces"), the determiner says whose or which ("your", "this", "the top"), and
"of"/"above" parts and relation clauses complete it.  Every word was declared
by the game's schema or content, so the resolver only has to fit them
together; where they do not fit, it says what would.

It never stops at the first problem: every diagnostic of a rule is collected.
"""

from __future__ import annotations

import re
from typing import List, Mapping, Optional, Sequence, Tuple

import attrs

from . import meaning as M
from . import nodes as N
from . import plausible
from .diagnostics import Diagnostic, Source, did_you_mean, diagnostic_at, one_of
from .entities import EntityPhrases


@attrs.frozen
class Declarations:
    """What the content declares besides the state: named procedures and terms, registers, roles."""

    procedures: Mapping[str, str] = attrs.field(factory=dict)  # name -> "block" | "condition" | "conditions" | "lines"
    terms: Mapping[str, str] = attrs.field(factory=dict)  # name -> "place" | "card" | "holders"
    registers: Tuple[str, ...] = ()  # side-valued registers ("leader")
    roles: Tuple[str, ...] = ()  # sides an overlay gives a part ("solo opponent")
    options: Tuple[str, ...] = ()  # game options ("event discard")


@attrs.frozen
class Slot:
    """Where a rule sits, and so what its context words may refer to (docs/language.md, Context
    words): "this space" and "this group" (a rule run for a place, or for a card with a place or a
    group field), "the card" (a card's own rules and uses, a definition about a card, a procedure
    carried out for a card), revealed cards of a kind, and one card of a pile ("the top card of
    the discard pile"), which only rules that play cards name: not a card's own rules, nor a
    definition about a card (they name their card as "the card")."""

    description: str
    this_space: bool = False
    this_group: bool = False
    the_card: bool = False
    revealed: bool = False  # revealed cards are known (objective scoring)
    sequence: bool = False  # statements of the sequence of play are allowed
    pile_cards: bool = True  # one card of a pile may be named ("the revealed card")
    # why a context word is unknown here, by the flag it needs ("the_card" -> "card 'x', event
    # carries it out, and no card is known there"): said as the hint of the error
    why: Tuple[Tuple[str, str], ...] = ()

    def reason(self, flag: str, default: Optional[str] = None) -> Optional[str]:
        return dict(self.why).get(flag, default)


ANYWHERE = Slot("a rule", True, True, True, True, True)


class ResolveError(Exception):
    pass


def _a(noun: str) -> str:
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def _relative(kind: str) -> M.Side:
    return M.ME if kind in ("own", "their", "you") else M.OPPONENT


class Resolver:
    """Resolves the rules of one game: the schema's indices, the content's declarations."""

    def __init__(self, schema, declarations: Declarations = Declarations(), lexicon=None):
        self.schema = schema
        self.declarations = declarations
        self.lexicon = lexicon if lexicon is not None else schema.lexicon()
        self.place_index = {name: i for i, name in enumerate(schema.map.places)}
        self.group_index = {g.name: i for i, g in enumerate(schema.map.groups)}
        self.group_places = tuple(tuple(self.place_index[p] for p in g.places) for g in schema.map.groups)
        self.side_index = {name: i for i, name in enumerate(schema.sides)}
        self.marker_index = {m.name: i for i, m in enumerate(schema.markers)}
        self.counter_index = {c.name: i for i, c in enumerate(schema.counters)}
        self.pile_index = {p.name: i for i, p in enumerate(schema.piles)}
        self.kind_index = {k.name: i for i, k in enumerate(schema.card_kinds)}
        self.track_index = {t.name: i for i, t in enumerate(schema.tracks)}
        self.holder_index = {h.name: i for i, h in enumerate(schema.tokens.holders)} if schema.tokens else {}
        self.procedure_index = {name: i for i, name in enumerate(declarations.procedures)}
        self.term_index = {name: i for i, name in enumerate(declarations.terms)}
        self.register_index = {name: i for i, name in enumerate(declarations.registers)}
        in_play = getattr(schema, "in_play", None)
        self.play_kinds = frozenset(self.kind_index[k] for k in in_play.kinds) if in_play is not None else frozenset()

    def run(self, slot: Slot, source: Optional[Source], tree=None) -> "_Run":
        run = _Run(self, slot, source)
        if tree is not None and len(self.schema.sides) != 2:
            run.opponents(tree)
        return run

    def block(self, block: N.Block, slot: Slot, source: Optional[Source] = None):
        run = self.run(slot, source, block)
        result = run.block(block)
        return result, self.checked(run, result, source)

    def condition(self, condition, slot: Slot, source: Optional[Source] = None, about_a_place: bool = False):
        run = self.run(slot, source, condition)
        result = run.condition(condition, in_where=about_a_place)
        return result, self.checked(run, result, source)

    def places(self, places: N.Places, slot: Slot, source: Optional[Source] = None, holders: bool = False):
        run = self.run(slot, source, places)
        result = run.location_union(places, holders_ok=holders, places_ok=not holders)
        return result, self.checked(run, result, source)

    def checked(self, run: "_Run", result, source: Optional[Source]) -> List[Diagnostic]:
        """The run's diagnostics; when it found no error, those of what the rule means as a whole
        (counts and conditions that cannot be met: plausible.py)."""
        if any(d.severity == "error" for d in run.diagnostics):
            return run.diagnostics
        return run.diagnostics + plausible.problems(result, self.schema, source)

    def card(self, places: N.Places, slot: Slot, source: Optional[Source] = None):
        run = self.run(slot, source, places)
        return run.card(places), run.diagnostics

    def card_filter(self, places: N.Places, slot: Slot, source: Optional[Source] = None):
        """"a card of your hand whose value is at least the value of the card"."""
        run = self.run(slot, source, places)
        return run.card_filter(places), run.diagnostics

    def quantity(self, places: N.Places, slot: Slot, source: Optional[Source] = None):
        """A number a rule text names for a side: a counter ("your VP"), the tokens a holder holds
        ("your pool", an M.Holder), or places and groups counted ("pivotal spaces you control")."""
        run = self.run(slot, source, places)
        return run.quantity(places), run.diagnostics


class _Run(EntityPhrases):
    """One pass over one rule (cards in play: ruleset/entities.py)."""

    def __init__(self, resolver: Resolver, slot: Slot, source: Optional[Source]):
        self.r = resolver
        self.schema = resolver.schema
        self.slot = slot
        self.source = source
        self.diagnostics: List[Diagnostic] = []
        self.chosen = False  # an earlier statement of this effect chooses a place ("that space")
        self.in_where = False

    def opponents(self, tree) -> None:
        """"The opponent" names the other side of a game of two; in a game of more sides it names
        nobody in particular, so it is an error at each place it is said."""
        sides = len(self.schema.sides)
        stack = [(tree, None)]
        while stack:
            node, at = stack.pop()
            if not attrs.has(type(node)):
                continue
            at = node if getattr(node, "pos", None) is not None else at
            for field in attrs.fields(type(node)):
                value = getattr(node, field.name)
                if value == "opponent" and at is not None:
                    self.error(at, f"'the opponent' is for a game of two sides, and this game has {sides}",
                               hint="name the side, or say 'each player'")
                elif isinstance(value, (tuple, list)):
                    stack.extend((item, at) for item in reversed(value))
                elif attrs.has(type(value)):
                    stack.append((value, at))

    # ---------------------------------------------------------------- report
    def error(self, node, message: str, *, expected: Optional[str] = None, hint: Optional[str] = None,
              severity: str = "error") -> None:
        pos = getattr(node, "pos", None)
        if pos is None:
            self.diagnostics.append(diagnostic_at(self.source, None, None, message, expected=expected, hint=hint,
                                                  severity=severity))
            return
        width = pos.end_column - pos.column if pos.end_line == pos.line else 1
        self.diagnostics.append(diagnostic_at(self.source, pos.line, pos.column, message, width=width,
                                              expected=expected, hint=hint, severity=severity))

    def warning(self, node, message: str, **kwargs) -> None:
        self.error(node, message, severity="warning", **kwargs)

    def word_in(self, node, word: str):
        """Where the rule writes ``word`` inside ``node`` (so that an error points at that word, not at
        the whole phrase or condition); the node itself where the text is not at hand."""
        pos = getattr(node, "pos", None)
        lines = self.source.text.split("\n") if self.source is not None and self.source.text else []
        if pos is None or not lines:
            return node
        pattern = re.compile(r"(?<![\w'-])" + re.escape(word) + r"(?![\w'-])")
        for line in range(pos.line, min(pos.end_line, len(lines)) + 1):
            text = lines[line - 1]
            start = pos.column - 1 if line == pos.line else 0
            end = pos.end_column - 1 if line == pos.end_line else len(text)
            found = pattern.search(text, start, end)
            if found is not None:
                return N.Node(pos=N.Pos(line, found.start() + 1, line, found.end() + 1))
        return node

    def not_known(self, node, words: str, flag: str, default_hint: str, expected: Optional[str] = None) -> None:
        """A context word where the rule's slot does not know what it names."""
        self.error(node, f"'{words}' means nothing in {self.slot.description}", expected=expected,
                   hint=self.slot.reason(flag, default_hint))

    def there_outside_where(self, node) -> None:
        """'there' (the place a 'where' clause tests) in a condition that is not inside one."""
        place, places = self.place_word(), self.places_word()
        self.error(self.word_in(node, "there"), f"'there' refers to the {place} tested in a 'where' clause, and "
                                                 "this condition is not inside one",
                   expected=f"a {place} named instead of 'there', or the condition inside '{places} where ...'",
                   hint=f"as in '{places} where placing a token there would give you control of it'")

    # ============================================================ phrases
    def meanings(self, word: N.Word) -> List[str]:
        return [e.refers_to for e in self.r.lexicon.meanings(word.text)]

    def side_of(self, determiner: Optional[str]) -> Optional[M.Side]:
        if determiner in ("own", "their"):
            return M.ME
        if determiner == "opponent":
            return M.OPPONENT
        return None

    def phrase(self, p: N.Phrase, want: Sequence[str]):
        """What a phrase refers to, as one of the ``want``ed kinds, or None (reported)."""
        found = self._phrase(p, want)
        if found is None:
            return None
        kind, value = found
        if kind not in want:
            self.error(p, f"{_describe(p)} is {_kind_text(kind)}, not {' or '.join(_kind_text(w) for w in want)}")
            return None
        return value

    def _phrase(self, p: N.Phrase, want: Sequence[str]):
        found = self._phrase_of(p, want)
        if p.at is not None and found is not None and found[0] not in ("entities", "entity"):
            self.error(p.at, f"'at' says where cards in play stand, and {_describe(p)} is {_kind_text(found[0])}",
                       hint="name the place alone, or cards in play: 'units at Ridge'")
            return None
        if p.carrying is not None and found is not None and found[0] not in ("entities", "places"):
            self.error(p.carrying, f"'carrying' says what cards in play carry, and {_describe(p)} is "
                                   f"{_kind_text(found[0])}", hint="'units carrying a banner'")
            return None
        if p.within is not None and found is not None and found[0] != "places":
            self.error(p, f"'within' says where a card in play may go, and {_describe(p)} is {_kind_text(found[0])}",
                       hint="'march a unit to a site within its speed'")
            return None
        return found

    def _phrase_of(self, p: N.Phrase, want: Sequence[str]):
        if p.it:
            if not self.in_where:
                self.error(p, f"'it' and 'there' refer to the {self.place_word()} tested in a 'where' clause",
                           hint=f"name the {self.place_word()} instead")
            return "places", M.ContextPlace("it", node=p)
        if p.last_played:
            return "card", M.CardRef("last_played", node=p)
        if p.total or p.count or p.extreme:
            return self.count_or_total(p)
        if p.distance is not None:
            return self.distance(p)
        words = p.words
        if not words:
            self.error(p, "this phrase names nothing")
            return None
        head = words[-1]
        if head.kind in ("NAME",) and all(w.kind == "NAME" for w in words):
            found = self.name_phrase(p, head, want)
            if found is not None and found[0] == "places" and p.relation is not None:  # "Fort Sumter you control"
                return "places", self.related(found[1], p.relation)
            return found
        if head.kind == "OWNS":
            self.error(head, f"'{head.text}'s' needs what it owns after it")
            return None
        meanings = self.meanings(head)
        if not meanings:
            self.error(head, f"'{head.text}' names nothing in this game")
            return None
        # a word may name several things: the one that fits what is wanted first
        order = sorted(meanings, key=lambda m: (_category(m) not in want, meanings.index(m)))
        problems = len(self.diagnostics)
        first = None  # what the meaning that fits best says, when none fits: its problems are the ones meant
        for refers_to in order:
            del self.diagnostics[problems:]
            result = self.head(p, head, refers_to, words[:-1], want)
            if result is not None and (result[0] in want or refers_to == order[-1]):
                return result
            if first is None:
                first = self.diagnostics[problems:]
        if result is None and first:
            self.diagnostics[problems:] = first
        return result

    def name_phrase(self, p: N.Phrase, head: N.Word, want):
        name = head.text
        r = self.r
        if name in r.place_index:
            return "places", M.Fixed((r.place_index[name],), "named", r.place_index[name], node=p)
        if name in r.group_index:
            index = r.group_index[name]
            if "group" in want or "places" not in want:
                return "group", M.GroupRef("named", index, node=p)
            if p.relation is None:  # a group's places are named as such ("Political spaces")
                map_ = self.schema.map
                place = map_.place_words[-1] if map_.place_words else "places"
                self.error(head, f"'{name}' is {_a(self.group_word())}, not {_a(self.place_word())}",
                           hint=f"to mean every {self.place_word()} of the {self.group_word()}, write '{name} {place}'")
            return "places", M.Fixed(r.group_places[index], "group", index, node=p)
        if name in r.marker_index:
            return "marker", M.Marker(r.marker_index[name], node=p)
        if name in r.side_index:
            return "side", M.Side("side", r.side_index[name], node=p)
        if name in r.term_index:
            return "term", r.term_index[name]
        if name in r.counter_index:
            return "number", M.CounterValue(r.counter_index[name], self.side_of(p.determiner), node=p)
        names = list(r.place_index) + list(r.group_index) + list(r.marker_index) + list(r.side_index)
        guess = did_you_mean(name, names)
        # named for what the rule wants there, in the schema's words ("unknown space or dimension")
        place_word, group_word = self.place_word(), self.group_word()
        marker_guess = did_you_mean(name, list(r.marker_index)) if "marker" in want else None
        if marker_guess is not None:  # a marker misspelt, where one may stand
            what, wanted, guess = "marker", list(r.marker_index), marker_guess
        elif "places" in want:
            what = place_word + (f" or {group_word}" if "group" in want and r.group_index else "")
            wanted = list(r.place_index) + (list(r.group_index) if "group" in want else [])
        elif "group" in want:
            what, wanted = group_word, list(r.group_index)
        elif "marker" in want and r.marker_index:
            what, wanted = "marker", list(r.marker_index)
        else:
            what, wanted = "name", names
        self.error(head, f"unknown {what} '{name}'", expected=f"a {what}: {one_of(wanted)}",
                   hint=f"did you mean '{guess}'?" if guess else None)
        return None

    def holder_words(self) -> str:
        """The game's words for where tokens wait off the map: "pool, crisis track or box"."""
        schema = self.schema
        words = [h.words[0] for h in schema.tokens.holders if h.words] if schema.tokens else []
        words += [t.words[0] for t in schema.tracks if t.words]
        words += list(dict.fromkeys(t.box_words[0] for t in schema.tracks if t.box_words))
        return one_of(list(dict.fromkeys(words))) if words else "holder"

    def place_word(self) -> str:
        """What the schema calls one place ("space"), and one group of places ("dimension")."""
        return self.schema.map.place_words[0] if self.schema.map.place_words else "place"

    def places_word(self) -> str:
        return self.schema.map.place_words[-1] if self.schema.map.place_words else "places"

    def group_word(self) -> str:
        return self.schema.map.group_words[0] if self.schema.map.group_words else "group"

    def head(self, p: N.Phrase, head: N.Word, refers_to: str, modifiers: Sequence[N.Word], want):
        kind, _, rest = refers_to.partition(":")
        method = getattr(self, "head_" + kind, None)
        if method is None:
            self.error(head, f"'{head.text}' cannot be used here")
            return None
        return method(p, head, rest, list(modifiers), want)

    # ------------------------------------------------------------ places
    def head_places(self, p, head, _rest, modifiers, want):
        r = self.r
        det = p.determiner
        line = self.schema.map.line
        if det == "its" and self.card_context and not modifiers and not p.of:  # where the card tested (moved) is
            return "places", M.EntityPlaces(M.EntityRef("this", node=p), node=p)
        if line is not None and (det in ("own", "their", "opponent") or p.at is not None or p.relation is not None
                                 or p.whose is not None or any(w.kind in ("NAME", "ADJ") and w.text not in
                                                               self.schema.map.attributes for w in modifiers)):
            # a map of cards: "your locations", "North locations" are the places of those cards in play
            found = self.entity_noun(head.text)
            if found is not None:
                result = self.entity_set(p, head, found[0], found[1], modifiers)
                return ("places", M.EntityPlaces(result[1], node=p)) if result is not None else None
        if p.within is not None:
            if not self.moving:
                self.error(p, f"within how many steps of what? '{head.text} within ...' is where a card in play "
                              "goes, counted from where it stands", hint=f"'march a unit to a {head.text} within "
                                                                         f"its speed'")
                return None
            if not self.schema.map.adjacent and line is None:
                self.error(p, "no place is next to another in this game, so none is within a number of steps",
                           hint="the map says which places touch ('adjacent'), or lies in a line ('line')")
                return None
            steps = M.Literal(p.within) if isinstance(p.within, int) else self.number_phrase(p.within)
            return ("places", M.Within(steps, node=p)) if steps is not None else None
        if det == "this" and not modifiers and not p.of:
            if not self.slot.this_space:
                self.not_known(p, f"this {head.text}", "this_space", self.context_hint(head.text))
            return "places", M.ContextPlace("this", node=p)
        if det == "that" and not modifiers and not p.of:
            if not self.chosen:
                self.error(p, f"'that {head.text}' is the {self.place_word()} chosen by an earlier statement of the "
                              f"same effect, and no statement before this one chooses {_a(self.place_word())}",
                           hint=f"name the {self.place_word()}, or place, remove or move tokens (or a marker) first")
            return "places", M.ContextPlace("that", node=p)
        places: object = M.Fixed(tuple(range(len(self.schema.map.places))), "all", node=p)
        cards_mod = [w for w in modifiers if w.kind == "NOUN" and any(m.startswith(("cards:", "pile:"))
                                                                     for m in self.meanings(w))]
        for word in modifiers:
            if word in cards_mod:
                continue
            if word.kind == "NAME" and word.text in r.group_index:
                index = r.group_index[word.text]
                places = M.Fixed(r.group_places[index], "group", index, node=p)
            elif word.kind == "NAME" and word.text in r.place_index:
                group = self.schema.map.group_of(word.text)
                self.error(word, f"'{word.text}' is {_a(self.place_word())}, not {_a(self.group_word())}",
                           hint=f"'{word.text}' is in the {group} {self.group_word()}" if group else None)
                return None
            elif word.kind == "NAME":
                guess = did_you_mean(word.text, list(r.group_index))
                self.error(word, f"unknown {self.group_word()} '{word.text}'",
                           expected=f"{_a(self.group_word())}: {one_of(list(r.group_index))}",
                           hint=f"did you mean '{guess}'?" if guess else None)
                return None
            elif word.kind == "ADJ" and word.text in self.schema.map.attributes:
                members = tuple(r.place_index[n] for n in self.schema.map.attributes[word.text])
                places = M.Fixed(members, "attribute", list(self.schema.map.attributes).index(word.text), node=p)
            elif word.kind == "ADJ" and word.text == "revealed":
                continue
            elif word.kind == "OWNS" and "group" in self.meanings(word) and det == "this":
                if not self.slot.this_group:
                    self.not_known(p, f"this {word.text}", "this_group", self.context_hint(word.text, group=True))
                places = M.ContextGroupPlaces("this", node=p)
            elif word.kind == "ADJACENT":
                if not self.schema.map.adjacent and self.schema.map.line is None:
                    self.error(word, "no place is adjacent to another in this game",
                               hint="the map declares which places touch under 'adjacent' (docs/state.md)")
                    return None
                if not self.moving:
                    self.error(word, f"adjacent to what? an adjacent {head.text} is next to the card in play that "
                                     "moves", hint=f"name the {head.text}s, or move a card in play: "
                                                   f"'move the unit to an adjacent {head.text}'")
                    return None
                places = M.Adjacent(None, node=p)
            else:
                self.error(word, f"'{word.text}' does not describe {head.text}")
                return None
        if cards_mod:
            places = self.card_places(p, head, cards_mod, modifiers)
            if places is None:
                return None
        for part in p.of:
            if self.is_entity_phrase(part):  # "the site of your camp": where cards in play stand
                entities = self.entities_of(part)
                if entities is None:
                    return None
                places = M.EntityPlaces(entities, node=part)
                continue
            group = self.phrase(part, ("group",))
            if group is None:
                return None
            places = self.group_places(group, part)
        if p.relation is not None:
            places = self.related(places, p.relation)
        return "places", places

    def card_places(self, p, head, cards_mod, modifiers):
        """"your objective space", "revealed objective spaces": the place field of cards."""
        word = cards_mod[-1]
        possessive = p.determiner in ("own", "their", "opponent")
        # "your objective space": a pile of yours; "revealed objective spaces": cards of a kind
        meanings = sorted(self.meanings(word), key=lambda m: m.startswith("pile:") != possessive)
        for refers_to in meanings:
            kind, _, name = refers_to.partition(":")
            if kind == "pile" and p.determiner in ("own", "their", "opponent"):
                pile = self.r.pile_index[name]
                if p.determiner == "opponent" and self.schema.piles[pile].seen_by == "owner":
                    self.error(p, f"the opponent's {word.text} is hidden: no rule may look at it",
                               hint=f"rules may name 'your {word.text} {head.text}'")
                    return None
                card_kind = self.r.kind_index[self.schema.piles[pile].kind]
                cards = M.Cards(card_kind, (M.PileRef(pile, self.side_of(p.determiner)),), node=p)
            elif kind == "cards":
                card_kind = self.r.kind_index[name]
                if not self.slot.revealed:
                    self.error(p, f"no {word.text} cards are revealed during {self.slot.description}",
                               hint=f"revealed {word.text} cards are known only while they are face up")
                cards = M.Cards(card_kind, revealed=True, node=p)
            else:
                continue
            field = self.place_field(card_kind, p)
            if field is None:
                return None
            return M.CardPlaces(cards, field, node=p)
        self.error(word, f"'{word.text}' does not describe {head.text}")
        return None

    def place_field(self, card_kind: int, node) -> Optional[int]:
        kind = self.schema.card_kinds[card_kind]
        fields = [i for i, (_, t) in enumerate(kind.fields) if t == "place"]
        if len(fields) != 1:
            self.error(node, f"the {kind.name} have no one field that names a place")
            return None
        return fields[0]

    def group_places(self, group: M.GroupRef, node):
        if group.kind == "named":
            return M.Fixed(self.r.group_places[group.index], "group", group.index, node=node)
        if group.kind in ("this", "its"):
            return M.ContextGroupPlaces(group.kind, node=node)
        self.error(node, "the places of this group cannot be named here")
        return M.Fixed((), node=node)

    def related(self, places, relation: N.Relation):
        if relation.verb not in self.schema.tokens.control_words if self.schema.tokens else True:
            self.error(relation, f"'{relation.verb}' is not a relation of this game")
        who = {"you": M.ME, "opponent": M.OPPONENT, "nobody": M.Side("nobody")}[relation.who]
        return M.Related(places, who, node=relation)

    # ------------------------------------------------------------ groups
    def head_group(self, p, head, _rest, modifiers, want):
        det = p.determiner
        if modifiers:
            self.error(modifiers[0], f"'{modifiers[0].text}' does not describe {head.text}")
            return None
        if det == "this":
            if not self.slot.this_group:
                self.not_known(p, f"this {head.text}", "this_group", self.context_hint(head.text, group=True))
            group = M.GroupRef("this", node=p)
        elif det == "its":
            if not self.in_where:
                self.error(p, f"'its {head.text}' is the {head.text} of the place tested in a 'where' clause")
            group = M.GroupRef("its", node=p)
        elif det in ("each", "a", "any", None) and ("count" in want or p.relation is not None):
            who = None
            if p.relation is not None:
                who = {"you": M.ME, "opponent": M.OPPONENT, "nobody": M.Side("nobody")}[p.relation.who]
            return "count", M.Count(None, "groups", who, node=p)
        else:
            self.error(p, f"which {head.text}?", expected=f"'this {head.text}', 'its {head.text}' or a name")
            return None
        if "places" in want and "group" not in want:
            return "places", self.group_places(group, p)
        return "group", group

    # ------------------------------------------------------------ holders
    def head_holder(self, p, head, name, modifiers, want):
        if modifiers:
            self.error(modifiers[0], f"'{modifiers[0].text}' does not describe {head.text}")
        return "holder", M.Holder("holder", self.r.holder_index[name], possessive=p.determiner, node=p)

    def head_track(self, p, head, name, modifiers, want):
        track = self.r.track_index[name]
        if p.above is not None:
            zone = self.zone_phrase(p.above, track)
            if zone is None:
                return None
            return "holder", M.Holder("above", track, zone, possessive=p.determiner, node=p)
        return "holder", M.Holder("track", track, possessive=p.determiner, node=p)

    def zone_of(self, words: Sequence[N.Word], track: int, node) -> Optional[int]:
        zones = [z.name for z in self.schema.tracks[track].zones]
        names = [w.text for w in words if w.kind == "NAME"]
        if len(names) != 1 or names[0] not in zones:
            given = names[0] if names else ""
            guess = did_you_mean(given, zones) if given else None
            at = next((w for w in words if w.kind == "NAME"), node) if len(names) == 1 else node  # at the name
            self.error(at, f"unknown zone '{given}'" if given else "which zone?", expected=f"a zone: {one_of(zones)}",
                       hint=f"did you mean '{guess}'?" if guess else None)
            return None
        return zones.index(names[0])

    def zone_phrase(self, p: N.Phrase, track: int) -> Optional[int]:
        words = p.words
        if not words or "zone:" + self.schema.tracks[track].name not in self.meanings(words[-1]):
            self.error(p, "a zone is named as 'your ZONE zone'")
            return None
        return self.zone_of(words[:-1], track, p)

    def head_box(self, p, head, name, modifiers, want):
        track = self.r.track_index[name]
        zone = self.zone_of(modifiers, track, p)
        if zone is None:
            return None
        if not self.schema.tracks[track].zones[zone].box:
            boxed = [z.name for z in self.schema.tracks[track].zones if z.box]
            named = next((w for w in modifiers if w.kind == "NAME"), p)  # at the zone's name
            self.error(named, f"the {self.schema.tracks[track].zones[zone].name} zone has no {head.text}",
                       expected=f"a zone with one: {one_of(boxed)}")
            return None
        return "holder", M.Holder("box", track, zone, possessive=p.determiner, node=p)

    def head_zone(self, p, head, name, modifiers, want):
        track = self.r.track_index[name]
        zone = self.zone_of(modifiers, track, p)
        if zone is None:
            return None
        return "zone", M.ZoneRef(track, zone, self.side_of(p.determiner) or M.ME, node=p)

    def head_tokens(self, p, head, _rest, modifiers, want):
        return "tokens", None

    # ------------------------------------------------------------ counters, registers
    def head_counter(self, p, head, name, modifiers, want):
        counter = self.r.counter_index[name]
        each_side = self.schema.counters[counter].each_side
        side = self.side_of(p.determiner)
        if p.determiner == "each_player":
            return "counter_each", counter
        if each_side and side is None:
            side = M.ME
        return "number", M.CounterValue(counter, side if each_side else None, node=p)

    def head_register(self, p, head, name, modifiers, want):
        if self.schema.holds(name) == "place":  # "the battlefield": the place it holds
            return "places", M.RegisterPlace(self.r.register_index[name], node=p)
        return "side", M.Side("register", self.r.register_index[name], node=p)

    def head_role(self, p, head, name, modifiers, want):
        return "side", M.Side("role", self.r.declarations.roles.index(name), node=p)

    # ------------------------------------------------------------ cards and piles
    def head_pile(self, p, head, name, modifiers, want):
        pile = self.r.pile_index[name]
        declared = self.schema.piles[pile]
        det = p.determiner
        if declared.each_side:
            if det == "each_player":
                ref = M.PileRef(pile, each=True, node=p)
            elif det in ("own", "their", "opponent"):
                if det == "opponent" and declared.seen_by == "owner" and "pile" not in want:
                    self.error(p, f"the opponent's {head.text} is hidden: no rule may look at it")
                ref = M.PileRef(pile, self.side_of(det), node=p)
            else:
                self.error(p, f"whose {head.text}?", expected=f"'your {head.text}' or 'each player's {head.text}'")
                return None
        else:
            ref = M.PileRef(pile, node=p)
        if "card" in want and "pile" not in want:
            return "card", M.CardRef("pile", ref, node=p)
        return "pile", ref

    def head_cards(self, p, head, name, modifiers, want):
        kind = self.r.kind_index[name]
        det = p.determiner
        if kind in self.r.play_kinds and ("entities" in want or "entity" in want) and not p.of \
                and det not in ("top", "current", "next"):
            return self.entity_set(p, head, (kind,), None, modifiers)
        if det in ("top", "current", "next"):
            if not p.of:
                self.error(p, f"the {det} {head.text} of what?", expected=f"'the {det} {head.text} of PILE'")
                return None
            pile = self.phrase(p.of[0], ("pile",))
            if pile is None:
                return None
            return "card", M.CardRef("current" if det == "next" else det, pile, node=p)
        if det == "the" and not p.of and not modifiers:
            if not self.slot.the_card:
                self.not_known(p, f"the {head.text}", "the_card",
                               "'the card' is known in a card's own rules and uses, in a definition about a card, "
                               "and in a procedure carried out for a card ('carry out ... for CARD')",
                               expected=self.pile_card_examples(kind))
            return "card", M.CardRef("this", node=p)
        revealed = any(w.text == "revealed" for w in modifiers)
        piles = []
        for part in p.of:
            pile = self.phrase(part, ("pile",))
            if pile is not None:
                piles.append(pile)
        if det in ("own", "their", "opponent"):
            pile = self.pile_of_kind(kind, det, p)
            if pile is not None:
                piles.append(pile)
        return "cards", M.Cards(kind, tuple(piles), revealed, node=p)

    def pile_of_kind(self, kind: int, det: str, node) -> Optional[M.PileRef]:
        """"your objective": the one pile of that kind each side keeps with that word."""
        for index, pile in enumerate(self.schema.piles):
            if pile.each_side and self.r.kind_index[pile.kind] == kind and pile.at_most == 1:
                return M.PileRef(index, self.side_of(det), node=node)
        return None

    def head_field(self, p, head, rest, modifiers, want):
        kind_name, _, field_name = rest.partition(":")
        kind = self.r.kind_index[kind_name]
        fields = [f for f, _ in self.schema.card_kinds[kind].fields]
        field = fields.index(field_name)
        field_type = self.schema.card_kinds[kind].fields[field][1]
        if not p.of:
            if p.determiner in ("own", "their", "opponent") and field_type == "place":
                return None  # "your objective space": read as places
            if p.determiner in ("its", "their") and self.card_context and field_type == "number" \
                    and kind in self.r.play_kinds:  # "its speed": the card tested, or moved
                return "number", M.EntityField(M.EntityRef("this", node=p), field_name, node=p)
            self.error(p, f"the {head.text} of what?", expected=f"'the {head.text} of a card'")
            return None
        found = self.entity_field(p, field_name, field_type) if self.r.play_kinds else None
        if found is not None:
            return found if found[1] is not None else None
        card = self.card_phrase(p.of[0])
        if card is None:
            return None
        if field_type == "number":
            return "number", M.CardField(card, field, node=p)
        if field_type == "rule":
            return "rule", M.CarryOut(card=card, field=field, node=p)
        if field_type == "group":
            return "group", M.GroupRef("card", card=card, field=field, node=p)
        if field_type == "place":
            return "places", M.CardPlaces(M.Cards(kind, node=p), field, node=p)
        return "number", M.CardField(card, field, node=p)

    def card_phrase(self, p: N.Phrase) -> Optional[M.CardRef]:
        found = self._phrase(p, ("card",))
        if found is None:
            return None
        kind, value = found
        if kind == "card":
            card = value
        elif kind == "pile":
            card = M.CardRef("pile", value, node=p)
        elif kind == "term" and self.r.declarations.terms.get(_term_name(self.r, value)) == "card":
            card = M.CardRef("term", M.PileRef(value, self.side_of(p.determiner)), node=p)
        else:
            self.error(p, f"{_describe(p)} is not a card")
            return None
        if card.kind != "this" and not self.slot.pile_cards:
            self.error(p, f"{self.written(p)} is a card of a pile, and in {self.slot.description} a card is named only "
                          "as 'the card'", expected="'the card'",
                       hint="a card's own rules, and a definition about a card, are about that card; the sequence of "
                            "play and its procedures name cards of piles")
            return None
        return card

    def pile_card_examples(self, kind: int) -> str:
        """Cards of piles of a kind, as a rule names them: "'the revealed card', 'the top card of the
        discard pile'"."""
        examples = []
        for pile in sorted(self.schema.piles, key=lambda pile: pile.at_most != 1):  # a pile of one card first
            if self.r.kind_index.get(pile.kind) != kind or pile.each_side or not pile.words or \
                    pile.seen_by != "everyone":
                continue
            examples.append(f"'the {pile.words[0]}'" if pile.at_most == 1 else f"'the top card of the {pile.words[0]}'")
        return "a card of a pile" + (f", such as {' or '.join(examples[:2])}" if examples else "")

    def context_hint(self, word: str, group: bool = False) -> str:
        place, places = self.place_word(), self.places_word()
        if group:
            return (f"'this {word}' is known in the body of a 'for each' over {places} (the {word} of the {place}), "
                    f"and in a procedure carried out for a card that has a {word} field ('carry out ... for CARD')")
        return (f"'this {word}' is known in the body of a 'for each' over {places}, in the rules of a card that has "
                f"a {word} field, and in a procedure carried out for such a card ('carry out ... for CARD')")

    def head_procedure(self, p, head, name, modifiers, want):
        return "procedure", self.r.procedure_index[name]

    def head_term(self, p, head, name, modifiers, want):
        index = self.r.term_index[name]
        if self.r.declarations.terms[name] == "card":
            return "card", M.CardRef("term", M.PileRef(index, self.side_of(p.determiner) or M.ME), node=p)
        return "term", index

    # ============================================================ statements
    def block(self, block: N.Block) -> M.Block:
        return M.Block(tuple(s for s in (self.statement(st) for st in block.statements) if s is not None),
                       node=block)

    def statement(self, node):
        method = getattr(self, "stmt_" + type(node).__name__, None)
        if method is None:  # pragma: no cover - every node has a handler (tested)
            raise TypeError(type(node).__name__)
        return method(node)

    def owners(self, pieces: Optional[N.Pieces]) -> M.Owners:
        if pieces is None or pieces.owner is None or pieces.owner in ("own", "their"):
            return M.Owners("own", node=pieces)
        if pieces.owner == "opponent":
            return M.Owners("opponent", node=pieces)
        if pieces.owner == "either":
            return M.Owners("either", node=pieces)
        if pieces.owner in self.r.side_index:
            return M.Owners("side", self.r.side_index[pieces.owner], node=pieces)
        guess = did_you_mean(str(pieces.owner), list(self.r.side_index))
        self.error(pieces, f"unknown side '{pieces.owner}'", expected=f"a side: {one_of(list(self.r.side_index))}",
                   hint=f"did you mean '{guess}'?" if guess else None)
        return M.Owners("own", node=pieces)

    def pieces_noun(self, pieces: Optional[N.Pieces]) -> None:
        if pieces is not None and pieces.noun is not None and "tokens" not in [
                e.refers_to for e in self.r.lexicon.meanings(pieces.noun)]:
            self.error(pieces, f"'{pieces.noun}' are not pieces that are placed or removed")
        elif pieces is not None and pieces.adjectives:
            self.error(pieces, f"'{pieces.adjectives[0]}' does not describe {pieces.noun or 'tokens'}")

    def amount(self, quantity: N.Quantity) -> Optional[M.Amount]:
        if quantity.kind == "exactly":
            return M.Amount("exactly", quantity.n, node=quantity)
        if quantity.kind == "up_to":
            return M.Amount("up_to", quantity.n, node=quantity)
        if quantity.kind == "all":
            return M.Amount("all", node=quantity)
        if quantity.kind == "up_to_number":
            number = self.number_phrase(quantity.phrase)
            return M.Amount("up_to", number=number, node=quantity) if number is not None else None
        number = self.number_phrase(quantity.phrase)
        return M.Amount("exactly", number=number, node=quantity) if number is not None else None

    def number_phrase(self, p: N.Phrase):
        return self.phrase(p, ("number",))

    def transfer(self, verb: str, node, quantity: N.Quantity, sources, dests, limit, selection, within=False):
        amount = self.amount(quantity)
        pieces = quantity.pieces
        self.pieces_noun(pieces)
        owners = self.owners(pieces)
        each = _each(node.source if verb == "remove" else node.dest)
        if limit is not None and limit.kind == "per" and limit.n < 1:
            self.error(limit, "a limit of 0 per space allows nothing", expected="at least 1 per space")
        if each and selection is not None:
            # "place 1 in each Political space, at random": 'each' names every place already
            what = "to choose at random" if selection.kind == "random" else "for the opponent to choose"
            said = self.word_in(selection, "at random" if selection.kind == "random" else "the opponent choosing")
            self.error(said, f"with 'each' the {self.places_word()} are fixed: there is nothing {what}",
                       expected=f"'each' alone, or {self.places_word()} to choose among without 'each' (as in "
                                f"'{verb} 1 in any {self.places_word()}, at random')")
        if each and limit is not None and limit.kind == "one":
            self.error(self.word_in(limit, "all"), f"'all in one {self.place_word()}' cannot be said with 'each'",
                       expected=f"'each' alone, or 'all in one {self.place_word()}' without 'each'")
        if amount is None:
            return None
        self.holders_agree(owners, sources, dests)
        return M.Transfer(verb, amount, owners, sources, dests, each,
                          limit.n if limit is not None and limit.kind == "per" else None,
                          limit is not None and limit.kind == "one",
                          selection is not None and selection.kind == "random",
                          None if selection is None or selection.kind != "opponent"
                          else ("pieces" if selection.pieces_only else "all"), node=node)

    def holders_agree(self, owners: M.Owners, *unions) -> None:
        """A holder always holds its owner's tokens: "your pool" for your tokens, "their pool" for
        either side's (docs/language.md)."""
        for union in unions:
            for item in getattr(union, "items", ()):
                if not isinstance(item, M.Holder) or item.possessive in (None, "their"):
                    continue
                if owners.kind == "either":
                    self.error(item.node, "tokens of either side are kept in their own owner's holders",
                               hint="write 'their' before the holder (or leave out whose it is)")
                elif owners.kind in ("own", "opponent") and (item.possessive == "opponent") != (owners.kind ==
                                                                                                "opponent"):
                    whose = "your" if owners.kind == "own" else "the opponent's"
                    self.error(item.node, f"{whose} tokens can only be in {whose} holders",
                               hint=f"{_a(self.holder_words())} always belongs to the owner of the tokens in it")

    def marker_of(self, quantity: N.Quantity) -> Optional[int]:
        if quantity.kind != "thing" or quantity.phrase is None:
            return None
        words = quantity.phrase.words
        if len(words) == 1 and words[0].kind == "NAME" and words[0].text in self.r.marker_index:
            return self.r.marker_index[words[0].text]
        r = self.r
        if (len(words) == 1 and words[0].kind == "NAME" and r.marker_index
                and not any(words[0].text in names for names in (r.place_index, r.group_index, r.side_index,
                                                                 r.counter_index, r.term_index))):
            # a name placed, removed or moved that the game does not know: a marker, misspelt
            guess = did_you_mean(words[0].text, list(r.marker_index))
            self.error(words[0], f"unknown marker '{words[0].text}'", expected=f"a marker: {one_of(list(r.marker_index))}",
                       hint=f"did you mean '{guess}'?" if guess else None)
            return -1
        return None

    def stmt_Place(self, node: N.Place):
        marker = self.marker_of(node.quantity)
        if marker == -1:
            return None
        if marker is not None:
            places = self.location_union(node.dest, places_ok=True, holders_ok=False)
            self.chosen = True
            return M.PlaceMarker(marker, places, node=node)
        sources = (self.location_union(node.source, places_ok=False, holders_ok=True) if node.source is not None
                   else M.Union_((M.Holder("supply"),)))
        dests = self.location_union(node.dest, places_ok=True, holders_ok=False, verb="placed")
        self.chosen = True
        return self.transfer("place", node, node.quantity, sources, dests, node.limit, node.selection)

    def stmt_Remove(self, node: N.Remove):
        marker = self.marker_of(node.quantity)
        if marker == -1:
            return None
        if marker is not None:
            return M.RemoveMarker(marker, node=node)
        if node.source is None:
            self.error(node, "remove from where?", expected="'from' and places")
            return None
        sources = self.location_union(node.source, places_ok=True, holders_ok=False, verb="removed")
        dests = M.Union_((M.Holder("removed"),))
        self.chosen = True
        return self.transfer("remove", node, node.quantity, sources, dests, node.limit, node.selection)

    def stmt_Move(self, node: N.Move):
        if self.r.play_kinds:
            moved = self.entity_move(node)
            if moved is not None or self.is_entity_phrase(node.quantity.phrase):
                return moved
        marker = self.marker_of(node.quantity)
        if marker == -1:
            return None
        if marker is not None:
            places = self.location_union(node.dest, places_ok=True, holders_ok=False)
            self.chosen = True
            return M.PlaceMarker(marker, places, node=node)
        if node.source is None:
            self.error(node, "move from where?", expected="'from' and places, or 'within' places")
            return None
        sources = self.location_union(node.source, places_ok=True, holders_ok=True)
        dests = sources if node.within else self.location_union(node.dest, places_ok=True, holders_ok=True)
        self.destinations(dests)
        self.chosen = True
        return self.transfer("move", node, node.quantity, sources, dests, node.limit, node.selection, node.within)

    def destinations(self, dests: M.Union_) -> None:
        """Pieces go to places, a holder or a whole track; a box, and a track's part above a zone,
        only ever give pieces up (docs/rulings.md, R23): play could never move one there."""
        for item in dests.items:
            if isinstance(item, M.Holder) and item.kind in ("box", "above"):
                track = self.schema.tracks[item.index]
                if item.kind == "box":
                    hint = "its pieces go to their owner's holder when its zone is entered; nothing puts them back"
                else:
                    hint = f"to put pieces back on a track, name the whole {track.name}: they fill its lowest " \
                           "empty spaces"
                self.error(item.node, f"{self.written(item.node)} is never a destination: pieces only ever leave it",
                           expected="a destination: places, a holder or a whole track", hint=hint)

    def written(self, node) -> str:
        """A phrase as the rule writes it, quoted (its words, where the text is not at hand)."""
        pos = getattr(node, "pos", None)
        lines = self.source.text.split("\n") if self.source is not None and self.source.text else []
        if pos is not None and pos.line == pos.end_line and 1 <= pos.line <= len(lines):
            return f"'{lines[pos.line - 1][pos.column - 1:pos.end_column - 1]}'"
        return _describe(node)

    def location_union(self, places: N.Places, places_ok: bool = True, holders_ok: bool = True,
                       verb: str = "") -> M.Union_:
        items = []
        for item in places.items:
            if isinstance(item, N.Filtered):
                base = self.phrase(item.phrase, ("places",))
                if base is None:
                    continue
                items.append(self.filtered(base, item.filter))
                continue
            want = (("places",) if places_ok else ()) + (("holder",) if holders_ok else ())
            found = self._phrase(item, want)
            if found is None:
                continue
            kind, value = found
            if kind == "group" and places_ok:
                value, kind = self.group_places(value, item), "places"
            if kind in ("entities", "entity") and places_ok:  # "at your locations": where those cards stand
                value, kind = M.EntityPlaces(value, node=item), "places"
            if kind == "places" and places_ok:
                items.append(value)
            elif kind == "holder" and holders_ok:
                items.append(value)
            elif kind == "holder":
                plural = self.schema.map.place_words[-1] if self.schema.map.place_words else "places"
                self.error(item, f"tokens are {verb or 'taken'} on map {plural} here, not in {self.written(item)}",
                           hint="to take tokens from or to a holder, use 'move'")
            else:
                self.error(item, f"{_describe(item)} is {_kind_text(kind)}, not a place"
                           + (" or a holder" if holders_ok else ""))
        return M.Union_(tuple(items), node=places)

    def filtered(self, base, filt):
        if isinstance(filt, N.Where):
            saved, self.in_where = self.in_where, True
            try:
                test = self.condition(filt.condition, in_where=True)
            finally:
                self.in_where = saved
            return M.Filtered(base, test, node=filt)
        if isinstance(filt, N.Most):
            owners = self.owners(filt.pieces)
            if owners.kind == "either":
                self.error(filt, "count the tokens of one side", hint="write 'opponent tokens' or 'of your tokens'")
            return M.Most(base, filt.kind == "most", owners, node=filt)
        if isinstance(filt, N.WithTerm):
            if self.r.declarations.terms.get(filt.term) != "place":
                names = [n for n, k in self.r.declarations.terms.items() if k == "place"]
                at = self.word_in(filt, filt.term)  # at the term's name, not at 'with'
                kind = self.r.declarations.terms.get(filt.term)
                guess = did_you_mean(filt.term, names) if kind is None else None
                self.error(at, f"unknown term '{filt.term}'" if kind is None else
                           f"'{filt.term}' is a term about {_a(kind)}, not about {_a(self.place_word())}",
                           expected=f"a term about {_a(self.place_word())}: {one_of(names)}" if names else
                           f"a term about {_a(self.place_word())} (this game defines none)",
                           hint=f"did you mean '{guess}'?" if guess else None)
                return base
            return M.WithTerm(base, self.r.term_index[filt.term], node=filt)
        self.error(filt, "this filter does not apply to places")
        return base

    def stmt_Gain(self, node: N.Gain):
        counter = self.counter_of(node.pieces, node)
        if counter is None:
            return None
        if node.n < 1:
            noun = node.pieces.noun if node.pieces is not None and node.pieces.noun else ""
            self.error(node, f"{'losing' if node.lose else 'gaining'} 0 {noun} does nothing".replace("  ", " "),
                       expected="a number of at least 1")
        per = None
        if node.per is not None:
            per = self.countable(node.per)
        return M.ChangeCounter(counter, M.Literal(node.n), -1 if node.lose else 1, per, M.ME, node=node)

    def counter_of(self, pieces: N.Pieces, node) -> Optional[int]:
        noun = pieces.noun if pieces is not None else None
        for entry in self.r.lexicon.meanings(noun or ""):
            if entry.refers_to.startswith("counter:"):
                return self.r.counter_index[entry.refers_to.partition(":")[2]]
        names = [c.name for c in self.schema.counters]
        self.error(pieces or node, f"'{noun}' is not a counter" if noun else "gain what?",
                   expected=f"a counter: {one_of(names)}")
        return None

    def quantity(self, places: N.Places):
        if len(places.items) != 1 or not isinstance(places.items[0], N.Phrase):
            return M.Count(self.location_union(places, holders_ok=False), "places", node=places)
        item = places.items[0]
        found = self._phrase(item, ("number", "count", "places", "holder"))
        if found is None:
            return None
        kind, value = found
        if kind == "places":
            return M.Count(value, "places", node=item)
        if kind not in ("number", "count", "holder"):
            self.error(item, f"{_describe(item)} is {_kind_text(kind)}, not a number",
                       hint="a counter (your VP), a holder (your pool) or places to count (spaces you control)")
            return None
        return value

    def countable(self, p: N.Phrase):
        found = self._phrase(p, ("count", "places"))
        if found is None:
            return None
        kind, value = found
        if kind == "count":
            return value
        if kind == "places":
            return M.Count(value, "places", node=p)
        self.error(p, f"{_describe(p)} cannot be counted")
        return None

    def stmt_Set(self, node: N.Set):
        if len(node.target.items) != 1:
            self.error(node.target, "set one thing at a time")
            return None
        if self.r.play_kinds and isinstance(node.target.items[0], N.Phrase) and node.number is not None:
            changed = self.entity_change(node, node.target.items[0], node.number, True)
            if changed is not None:
                return None if changed == "error" else changed
        found = self._phrase(node.target.items[0], ("counter_each", "number", "side"))
        if found is None:
            return None
        kind, value = found
        if kind == "side" and value.kind == "register" and node.first_player:
            return M.SetRegister(value.index, True, node=node)
        if kind in ("counter_each", "number") and node.number is not None:
            number = self.number(node.number)
            counter = value if kind == "counter_each" else value.counter
            return M.SetCounter(counter, number, kind == "counter_each", node=node)
        self.error(node, "this cannot be set to that")
        return None

    def stmt_Add(self, node: N.Add):
        if self.r.play_kinds and len(node.target.items) == 1 and isinstance(node.target.items[0], N.Phrase):
            changed = self.entity_change(node, node.target.items[0], node.number, False)
            if changed is not None:
                return None if changed == "error" else changed
        found = self._phrase(node.target.items[0], ("number",)) if len(node.target.items) == 1 else None
        if found is None or found[0] != "number" or not isinstance(found[1], M.CounterValue):
            self.error(node.target, "add to a counter", expected="a counter, such as 'the round'")
            return None
        return M.ChangeCounter(found[1].counter, self.number(node.number), 1, None, found[1].side, node=node)

    def number(self, node: N.Number):
        terms = []
        for term in node.terms:
            if isinstance(term, int):
                terms.append(M.Literal(term))
            else:
                value = self.number_phrase(term)
                if value is None:
                    return M.Literal(0)
                terms.append(value)
        if len(terms) == 1:
            return terms[0]
        return M.Sum(tuple(terms), node.signs, node=node)

    def pile(self, places: N.Places, what: str = "") -> Optional[M.PileRef]:
        if len(places.items) != 1 or not isinstance(places.items[0], N.Phrase):
            self.error(places, "name one pile")
            return None
        return self.phrase(places.items[0], ("pile",))

    def stmt_Draw(self, node: N.Draw):
        source, dest = self.pile(node.source), self.pile(node.dest)
        if source is None or dest is None:
            return None
        return M.Draw(node.n if node.n is not None else -1, source, dest,
                      node.until if node.until is not None else -1, node=node)

    def stmt_Shuffle(self, node: N.Shuffle):
        pile = self.pile(node.pile)
        into = self.pile(node.into) if node.into is not None else None
        return M.Shuffle(pile, into, node=node) if pile is not None else None

    def stmt_Put(self, node: N.Put):
        source, dest = self.pile(node.source), self.pile(node.dest)
        return M.Put(source, dest, node=node) if source is not None and dest is not None else None

    def stmt_Reveal(self, node: N.Reveal):
        piles = []
        current = False
        for item in node.what.items:
            found = self._phrase(item, ("pile", "card"))
            if found is None:
                continue
            kind, value = found
            if kind == "pile":
                piles.append(value)
            elif kind == "card" and value.kind == "current":
                piles.append(value.pile)
                current = True
            else:
                self.error(item, "reveal a pile, or the current card of a pile")
        return M.Reveal(tuple(piles), current, node=node)

    def card(self, places: N.Places) -> Optional[M.CardRef]:
        if len(places.items) != 1:
            self.error(places, "name one card")
            return None
        item = places.items[0]
        if isinstance(item, N.Filtered):
            self.error(item, "name one card")
            return None
        return self.card_phrase(item)

    def card_filter(self, places: N.Places) -> Optional[M.CardFilter]:
        item = places.items[0] if len(places.items) == 1 else None
        if not isinstance(item, N.Filtered) or not isinstance(item.filter, N.Whose):
            self.error(places, "name cards and what their field must be",
                       expected="'a card of your hand whose value is at least ...'")
            return None
        found = self._phrase(item.phrase, ("cards",))
        if found is None or found[0] != "cards":
            self.error(item.phrase, f"{_describe(item.phrase)} are not cards")
            return None
        cards = found[1]
        whose = item.filter
        fields = [f for f, _ in self.schema.card_kinds[cards.kind].fields]
        if whose.field not in fields:
            self.error(whose, f"the {self.schema.card_kinds[cards.kind].name} have no '{whose.field}'",
                       expected=one_of(fields))
            return None
        if whose.comparison is not None:
            return M.CardFilter(cards, fields.index(whose.field), whose.comparison.op, M.Literal(whose.comparison.n),
                                node=item)
        other = self.number_phrase(whose.other)
        if other is None:
            return None
        return M.CardFilter(cards, fields.index(whose.field), whose.op, other, node=item)

    def stmt_Discard(self, node: N.Discard):
        card = self.card(node.what)
        return M.Discard(card, node=node) if card is not None else None

    def stmt_Play(self, node: N.Play):
        source = self.pile(node.source)
        if source is None:
            return None
        quantity = node.quantity
        if quantity.kind == "up_to":  # "play up to 2 cards from your hand": the player may stop
            return M.PlayCards(source, quantity.n, self.played_type(quantity.pieces, source), node=node)
        if quantity.kind == "thing" and _any_number(quantity.phrase):  # "play any number of cards ..."
            inner = quantity.phrase.of[0]
            noun = inner.words[-1].text if inner.words and len(inner.words) == 1 and inner.words[0].kind == "NOUN" \
                else None
            return M.PlayCards(source, 0, self.played_type(N.Pieces(noun=noun, pos=inner.pos), source), node=node)
        return M.Play(source, node=node)

    def played_type(self, pieces: Optional[N.Pieces], source: M.PileRef):
        """"play up to 1 interrupt from your hand": only the pile's cards of a kind field's values."""
        if pieces is None or pieces.noun is None:
            return None
        found = self.card_noun(pieces.noun)
        kind = self.r.kind_index[self.schema.piles[source.pile].kind]
        if found is None or found[0] != kind or pieces.owner is not None or pieces.adjectives:
            nouns = sorted({e.text for e in self.r.lexicon.entries if e.refers_to.startswith(
                (f"cardtype:{self.schema.piles[source.pile].kind}:", f"cards:{self.schema.piles[source.pile].kind}"))})
            self.error(pieces, f"'{pieces.noun}' are not cards of the {self.schema.piles[source.pile].name}",
                       expected=one_of(nouns) if nouns else None)
            return None
        return found[1]

    def stmt_Pay(self, node: N.Pay):
        if self.schema.paying is None:
            self.error(node, "this game says nothing of paying", hint="declare 'paying' in state.yaml (docs/state.md)")
            return None
        return M.Pay(self.number(node.number), node=node)

    def stmt_Choose(self, node: N.Choose):
        found = self._phrase(node.register, ("places", "side"))
        if found is None:
            return None
        if not isinstance(found[1], M.RegisterPlace):
            holders = [name for name in self.r.register_index if self.schema.holds(name) == "place"]
            self.error(node.register, f"{_describe(node.register)} holds no place",
                       expected=f"a register that holds a place: {one_of(holders)}" if holders else
                       "a register that holds a place (state.yaml: 'registers: NAME: {holds: place}')")
            return None
        if node.up_to is not None and node.up_to != 1:
            self.error(node, "a register holds one place", expected="'choose a ...' or 'choose up to 1 ...'")
            return None
        places = self.location_union(node.what, places_ok=True, holders_ok=False)
        paying = None
        if node.paying is not None:
            paying = self.paying_number(node.paying, node, place=True, card=False)
            if paying is None:
                return None
        return M.Choose(found[1].register, places, node.up_to is not None, paying, node=node)

    def paying_number(self, number: N.Number, node, place: bool, card: bool):
        """What a choice costs: "its cost" (the card that comes in or moves), "the distance to it"
        (where it goes, for a move; the place chosen)."""
        if self.schema.paying is None:
            self.error(node, "this game says nothing of paying", hint="declare 'paying' in state.yaml (docs/state.md)")
            return None
        saved = self.card_context, self.in_where
        self.card_context, self.in_where = card, place or saved[1]
        try:
            return self.number(number)
        finally:
            self.card_context, self.in_where = saved

    def stmt_Keep(self, node: N.Keep):
        source, dest = self.pile(node.source), self.pile(node.dest)
        if source is None or dest is None:
            return None
        return M.Keep(node.n, source, dest, node.noun, node.verb, node=node)

    def stmt_Order(self, node: N.Order):
        source, dest = self.pile(node.source), self.pile(node.dest)
        return M.Order(source, dest, node=node) if source is not None and dest is not None else None

    def stmt_CarryOut(self, node: N.CarryOut):
        if len(node.what.items) != 1:
            self.error(node.what, "carry out one thing at a time")
            return None
        found = self._phrase(node.what.items[0], ("procedure", "rule"))
        if found is None:
            return None
        kind, value = found
        bind = None
        if node.for_ is not None:
            bind = self.card(node.for_)
        if kind == "procedure":
            return M.CarryOut(procedure=value, bind=bind, node=node)
        if kind == "rule":
            return attrs.evolve(value, bind=bind, node=node)
        self.error(node.what, f"{_describe(node.what.items[0])} cannot be carried out",
                   expected="a procedure or a card's rule, such as 'the event of the card'")
        return None

    def stmt_Score(self, node: N.Score):
        found = self._phrase(node.what.items[0], ("procedure",))
        counter = self.counter_of(node.counter, node)
        if found is None or counter is None or found[0] != "procedure":
            return None
        return M.Score(found[1], counter, node=node)

    def stmt_Resolve(self, node: N.Resolve):
        for track, declared in enumerate(self.schema.tracks):
            entered = [w.text for w in node.words]
            if entered and entered[0] in declared.entered_words and entered[-1] in declared.zone_words:
                return M.Resolve(track, node=node)
        examples = [f"'resolve {t.entered_words[0]} {t.zone_words[-1]}'" for t in self.schema.tracks
                    if t.entered_words and t.zone_words]
        self.error(node, "resolve what?", expected="the entered zones of a track"
                   + (f", such as {examples[0]}" if examples else " (this game declares none)"))
        return None

    def stmt_Win(self, node: N.Win):
        if node.counter is None:
            return M.Win(node=node)
        counter = self.counter_of(node.counter, node)
        ties = -1
        if node.ties is not None:
            found = self._phrase(node.ties.items[0], ("procedure",))
            ties = found[1] if found and found[0] == "procedure" else -1
        return M.Win(counter if counter is not None else -1, ties, node=node)

    def stmt_Stop(self, node: N.Stop):
        return M.Stop(node=node)

    def stmt_Forget(self, node: N.Forget):
        return M.Forget(node=node)

    def stmt_Acting(self, node: N.Acting):
        statement = self.statement(node.statement)
        if statement is None:
            return None
        if node.actor == "role":
            if node.role in self.r.register_index:
                return M.Acting("register", statement, self.r.register_index[node.role], node=node)
            if node.role in self.r.declarations.roles:
                return M.Acting("role", statement, self.r.declarations.roles.index(node.role), node=node)
            self.error(node, f"'the {node.role}' is not a player")
            return None
        return M.Acting(node.actor, statement, node=node)

    def stmt_If(self, node: N.If):
        condition = self.condition(node.condition, False)
        chosen, entity_chosen = self.chosen, self.entity_chosen
        then = self.block(node.then)
        after_then, self.chosen = self.chosen, chosen
        entity_after_then, self.entity_chosen = self.entity_chosen, entity_chosen
        otherwise = self.block(node.otherwise) if node.otherwise is not None else None
        self.chosen = after_then and (self.chosen or otherwise is None)
        self.entity_chosen = entity_after_then and (self.entity_chosen or otherwise is None)
        return M.If(condition, then, otherwise, node=node)

    def stmt_Either(self, node: N.Either):
        return M.Either(tuple(self.option(o) for o in node.options), node=node)

    def option(self, block: N.Block) -> M.Block:
        chosen, entity_chosen = self.chosen, self.entity_chosen
        result = self.block(block)
        self.chosen, self.entity_chosen = chosen, entity_chosen
        return result

    def stmt_FirstOf(self, node: N.FirstOf):
        return M.FirstOf(tuple(self.option(o) for o in node.options), node=node)

    def stmt_Goal(self, node: N.Goal):
        change = self.change(node.change)
        steps = []
        for statement in node.body.statements:
            resolved = self.statement(statement)
            if isinstance(resolved, M.Transfer) and (resolved.amount.kind == "all" or resolved.each or resolved.random):
                # the engine looks for a way to carry the steps out that makes the change happen: a number to
                # try, the places to try it in
                self.error(statement, "a goal's steps place, remove or move a number of pieces",
                           expected="'N' or 'up to N' pieces, without 'all', 'each' or 'at random'")
            elif isinstance(resolved, M.Transfer):
                steps.append(resolved)
            elif resolved is not None:
                self.error(statement, "a goal's steps place, remove or move tokens")
        return M.Goal(change, tuple(steps), node=node) if change is not None else None

    def stmt_ForEachPlayer(self, node: N.ForEachPlayer):
        who = None
        if node.who is not None:
            verb, target = node.who
            who = self.relates(N.Relates(N.Player("you"), verb, target, pos=target.pos))
        return M.ForEachPlayer(self.block(node.body), who, node=node)

    def stmt_ForEach(self, node: N.ForEach):
        found = self._phrase(node.what, ("places", "number", "entities"))
        if found is None:
            return None
        kind, value = found
        if kind in ("entities", "entity"):
            return self.for_each_entity(node, value)
        if kind == "number" and isinstance(value, M.CounterValue):
            if node.order is not None:
                self.error(node.order, "a counter's values come in order")
            return M.ForEachCounter(value.counter, self.block(node.body), node=node)
        if kind == "places":
            order = node.order
            chooser = order.chooser if order is not None else "you"
            # the body runs for each place: "this space" is it, "this dimension" its group
            saved, self.slot = self.slot, attrs.evolve(self.slot, this_space=True, this_group=True)
            try:
                body = self.block(node.body)
            finally:
                self.slot = saved
            return M.ForEachPlace(value, body, chooser, order.action if order else "", node=node)
        self.error(node.what, f"{_describe(node.what)} cannot be gone through one by one")
        return None

    def stmt_Step(self, node: N.Step):
        return M.Step(node.name, self.block(node.body), node=node)

    def stmt_Repeat(self, node: N.Repeat):
        return M.Repeat(self.condition(node.condition, False), self.block(node.body), node=node)

    def stmt_Alternate(self, node: N.Alternate):
        first = self.phrase(node.first, ("side",))
        found = self._phrase(node.counter, ("counter_each", "number"))
        if first is None or found is None:
            return None
        counter = found[1] if found[0] == "counter_each" else getattr(found[1], "counter", None)
        if first.kind != "register" or counter is None:
            self.error(node, "players alternate from a side named by a register, counting a counter of each side")
            return None
        return M.Alternate(first.index, node.n, counter, self.block(node.body), node=node)

    # ============================================================ conditions
    def condition(self, node, in_where: bool = False):
        saved = self.in_where
        self.in_where = in_where or saved
        try:
            method = getattr(self, "cond_" + type(node).__name__, None)
            if method is None:  # pragma: no cover
                raise TypeError(type(node).__name__)
            return method(node)
        finally:
            self.in_where = saved

    def cond_AnyOf(self, node):
        return M.AnyOf(tuple(self.condition(i) for i in node.items), node=node)

    def cond_AllOf(self, node):
        return M.AllOf(tuple(self.condition(i) for i in node.items), node=node)

    def cond_Not(self, node):
        return M.Not(self.condition(node.item), node=node)

    def subject_side(self, subject) -> Optional[M.Side]:
        if isinstance(subject, N.Player):
            return _relative(subject.kind)
        if isinstance(subject, N.Phrase):
            return self.phrase(subject, ("side",))
        return None

    def relation_ok(self, verb: str, node) -> bool:
        words = self.schema.tokens.control_words if self.schema.tokens else ()
        if verb not in words:
            self.error(node, f"'{verb}' is not a relation of this game", expected=one_of(list(words)))
            return False
        return True

    def cond_Relates(self, node: N.Relates):
        return self._each(node.subject, lambda subject: self.relates(attrs.evolve(node, subject=subject)))

    def _each(self, subject, build):
        if isinstance(subject, N.EachPlayer):
            inner = build(N.Player("you", pos=subject.pos))
            return M.EachSide(inner, node=subject)
        return build(subject)

    def relates(self, node: N.Relates):
        self.relation_ok(node.verb, node)
        side = self.subject_side(node.subject)
        if side is None:
            return M.AllOf(())
        if node.comparison is not None:
            within = None
            if node.target.of:
                within = self.phrase(node.target.of[0], ("group",))
            return M.ControlsCount(side, M.Comparison(node.comparison.op, node.comparison.n), within, node=node)
        if node.more_than is not None:
            return M.ControlsMore(side, self.subject_side(node.more_than) or M.OPPONENT, node=node)
        return self.controls(side, node.target, node)

    def controls(self, side: M.Side, target: N.Phrase, node, nobody: bool = False):
        found = self._phrase(target, ("places", "group"))
        if found is None:
            return M.AllOf(())
        kind, value = found
        if kind == "group":
            return M.Controls(side, value, "group", nobody, node=node)
        return M.Controls(side, value, "place", nobody, node=node)

    def cond_NobodyRelates(self, node: N.NobodyRelates):
        self.relation_ok(node.verb, node)
        return self.controls(M.Side("nobody"), node.target, node, nobody=True)

    def subject_holder_or_side(self, subject):
        """A player, or a holder ("your pool has ..."): (side, holder or None)."""
        if isinstance(subject, N.Player):
            return _relative(subject.kind), None
        if isinstance(subject, N.Phrase):
            found = self._phrase(subject, ("side", "holder", "pile"))
            if found is None:
                return None, None
            kind, value = found
            if kind == "side":
                return value, None
            if kind == "holder":
                return self.side_of(value.possessive) or M.ME, value
            if kind == "pile":
                return value.side, value
        return None, None

    def cond_HasCount(self, node: N.HasCount):
        return self._each(node.subject, lambda subject: self.has_count(attrs.evolve(node, subject=subject)))

    def has_count(self, node: N.HasCount):
        side, holder = self.subject_holder_or_side(node.subject)
        test = M.Comparison(node.comparison.op, node.comparison.n, node=node.comparison)
        noun = node.pieces.noun
        typed = self.card_noun(noun) if noun is not None else None
        if typed is not None and typed[1] is not None and node.where is not None and self.names_a_pile(node.where):
            # "the opponent has a president in their captured cards": cards of a pile, of a kind field's values
            pile = self.pile(node.where)
            if pile is None:
                return M.AllOf(())
            if self.r.kind_index[self.schema.piles[pile.pile].kind] != typed[0]:
                self.error(node.where, f"the {self.schema.piles[pile.pile].name} holds no {noun}")
                return M.AllOf(())
            return M.NumberTest(M.Count(M.Cards(typed[0], (pile,), type=typed[1], node=node.pieces), "cards"), test,
                                node=node)
        if noun is not None and self.r.play_kinds and self.entity_noun(noun) is not None:
            if holder is not None:
                self.error(node.subject, "cards in play are a player's", expected="'you have ...', "
                                                                                  "'the opponent has ...'")
            return M.NumberTest(self.entity_count(node, side, node.pieces, node.where, node.there), test, node=node)
        if node.pieces.adjectives:
            self.error(node.pieces, f"'{node.pieces.adjectives[0]}' does not describe {noun or 'tokens'}")
        meanings = [e.refers_to for e in self.r.lexicon.meanings(noun or "")]
        if any(m.startswith("counter:") for m in meanings):
            counter = self.counter_of(node.pieces, node)
            return M.NumberTest(M.CounterValue(counter, side), test, node=node)
        if any(m.startswith("cards:") for m in meanings) or (noun in ("card", "cards")):
            pile = self.pile(node.where) if node.where is not None else holder
            if pile is None:
                return M.AllOf(())
            return M.NumberTest(M.Count(pile, "cards"), test, node=node)
        where = holder
        if node.there:
            if not self.in_where:
                self.there_outside_where(node)
            where = M.ContextPlace("it")
        elif node.where is not None:
            where = self.token_place(node.where)
        if where is None:
            self.error(node, "have tokens where?", expected="'in' a place or a holder, or 'there'")
            return M.AllOf(())
        return M.TokensIn(side or M.ME, where, test, node=node)

    def names_a_pile(self, places: N.Places) -> bool:
        """Whether places name one pile ("your hand"), by the word they end with."""
        if len(places.items) != 1 or not isinstance(places.items[0], N.Phrase) or not places.items[0].words:
            return False
        return any(m.startswith("pile:") for m in self.meanings(places.items[0].words[-1]))

    def token_place(self, places: N.Places):
        union = self.location_union(places, places_ok=True, holders_ok=True)
        if len(union.items) == 1:
            return union.items[0]
        return union

    def cond_HasMore(self, node: N.HasMore):
        return self._each(node.subject, lambda subject: self.has_more(attrs.evolve(node, subject=subject)))

    def has_more(self, node: N.HasMore):
        side, holder = self.subject_holder_or_side(node.subject)
        if node.than_number is not None:
            pile = self.pile(node.where) if node.where is not None else None
            number = self.number_phrase(node.than_number)
            if pile is None or number is None:
                return M.AllOf(())
            return M.NumberTest(M.Count(pile, "cards"), op=">", other=number, node=node)
        noun = node.pieces.noun
        meanings = [e.refers_to for e in self.r.lexicon.meanings(noun or "")]
        other_side, other_holder = self.subject_holder_or_side(node.other)
        if noun is not None and self.r.play_kinds and self.entity_noun(noun) is not None:
            mine = self.entity_count(node, side, node.pieces, node.where, node.there)
            theirs = self.entity_count(node, other_side, node.pieces, node.where, node.there)
            if node.lead is not None:
                self.error(node.lead, "a lead in cards in play is not said yet", hint="compare the numbers: "
                                                                                     "'the number of ...'")
            return M.NumberTest(mine, op=">", other=theirs, node=node)
        if any(m.startswith("counter:") for m in meanings):
            counter = self.counter_of(node.pieces, node)
            return M.CounterMore(counter, side, other_side, node=node)
        where = holder
        if node.there:
            if not self.in_where:
                self.there_outside_where(node)
            where = M.ContextPlace("it")
        elif node.where is not None:
            where = self.token_place(node.where)
        if holder is not None and other_holder is not None and where is holder and \
                (holder.kind, holder.index, holder.zone, self.side_of(holder.possessive) or M.ME) == \
                (other_holder.kind, other_holder.index, other_holder.zone, self.side_of(other_holder.possessive) or M.ME):
            self.error(node, f"{self.written(node.subject)} cannot have more than itself",
                       expected="the other side's: '... than the opponent's ...'")
        lead = M.Comparison(node.lead.op, node.lead.n) if node.lead is not None else None
        return M.TokensMore(side, other_side, where, lead, node=node)

    def cond_HasFewer(self, node: N.HasFewer):
        side, _ = self.subject_holder_or_side(node.subject)
        other, _ = self.subject_holder_or_side(node.other)
        counter = self.counter_of(node.pieces, node)
        return M.CounterMore(counter, side, other, fewer=True, node=node)

    def cond_IsFirstPlayer(self, node: N.IsFirstPlayer):
        return M.IsFirstPlayer(self.subject_side(node.subject), node=node)

    def marker_places(self, where: N.Places) -> M.Union_:
        """Where a marker is tested: places of the map only."""
        union = self.location_union(where, holders_ok=True)
        for item in union.items:
            if isinstance(item, M.Holder):
                self.error(item.node, f"a marker is only ever on a map {self.place_word()}, never in "
                                      f"{_a(self.holder_words())}")
        return M.Union_(tuple(i for i in union.items if not isinstance(i, M.Holder)), node=union.node)

    def cond_IsState(self, node: N.IsState):
        result = self.is_state(node)
        return M.Not(result, node=node) if node.negated and not isinstance(result, M.IsRole) else result

    def is_state(self, node: N.IsState):
        kind = node.kind
        subject = node.subject
        if kind == "a":
            return self.is_a(node)
        if kind in ("on_map", "off_map") and isinstance(subject, N.Phrase):  # "the battlefield is off the map"
            found = self._phrase(subject, ("places", "marker"))
            if found is None:
                return M.AllOf(())
            if isinstance(found[1], M.RegisterPlace):
                return M.RegisterSet(found[1].register, kind == "on_map", node=node)
        if self.r.play_kinds and kind in ("adjective", "at", "in_play"):
            about = self.entity_state(node)
            if about is not None:
                return about
        if kind == "in_play":
            self.error(node, f"{_describe(subject)} is not a card that comes into play" if self.r.play_kinds
                       else "'in play' is about cards in play, and this game declares none")
            return M.AllOf(())
        if kind == "at":
            marker = self.phrase(subject, ("marker",)) if isinstance(subject, N.Phrase) else None
            if marker is None:
                return M.AllOf(())
            return M.MarkerAt(marker.index, self.marker_places(node.where), node=node)
        if kind == "named":
            if node.word in self.r.side_index:
                return M.IsSide(self.subject_side(subject), self.r.side_index[node.word], node=node)
            if node.word in self.r.term_index:
                term = self.r.term_index[node.word]
                if self.r.declarations.terms[node.word] == "card":
                    card = self.card_phrase(subject) if isinstance(subject, N.Phrase) else None
                    return M.CardIs(card, term, node=node) if card is not None else M.AllOf(())
                return M.Term(term, node=node)
            self.error(node, f"unknown name '{node.word}'",
                       expected=f"a side or a term: {one_of(list(self.r.side_index) + list(self.r.term_index))}")
            return M.AllOf(())
        if kind == "adjective":
            if node.word in self.schema.map.attributes:
                place = self.phrase(subject, ("places",)) if isinstance(subject, N.Phrase) else None
                return M.HasAttribute(place, node.word, node=node)
            for track, declared in enumerate(self.schema.tracks):
                if node.word in declared.entered_words:
                    zone = self.phrase(subject, ("zone",)) if isinstance(subject, N.Phrase) else None
                    return M.ZoneEntered(zone, node=node) if zone is not None else M.AllOf(())
            self.error(node, f"'{node.word}' cannot be said of {_describe(subject)}")
            return M.AllOf(())
        if kind == "role":
            side = self.subject_side(subject)
            if node.word not in self.r.declarations.roles and node.word not in self.r.register_index:
                self.error(node, f"'the {node.word}' is not a part a side can have",
                           expected=one_of(list(self.r.declarations.roles) + list(self.r.register_index)))
            return M.IsRole(side, node.word, node.negated, node=node)
        if kind == "for":
            card = self.card_phrase(subject) if isinstance(subject, N.Phrase) else None
            return M.CardFor(card, _relative(node.player.kind), node.only, node=node) if card else M.AllOf(())
        if kind in ("in", "there", "on_map", "off_map"):
            marker = self.phrase(subject, ("marker",)) if isinstance(subject, N.Phrase) else None
            if marker is None:
                return M.AllOf(())
            if kind == "in":
                return M.MarkerAt(marker.index, self.marker_places(node.where), node=node)
            if kind == "there":
                if not self.in_where:
                    self.there_outside_where(node)
                return M.MarkerAt(marker.index, M.ContextPlace("it"), node=node)
            return M.MarkerAt(marker.index, None, kind == "off_map", node=node)
        if kind == "all_in_one":
            cards = self.cards_of(subject) if isinstance(subject, N.Phrase) else None
            also = self.cards_of(node.where) if isinstance(node.where, N.Phrase) else None
            if cards is None:
                return M.AllOf(())
            return M.AllInOneGroup(cards, also, node=node)
        self.error(node, "this cannot be said here")
        return M.AllOf(())

    def is_a(self, node: N.IsState):
        """"the card is an interrupt": a card of a pile, or in play, whose kind field has a value the noun names."""
        found = self.card_noun(node.word)
        if found is None or found[1] is None:
            nouns = sorted({e.text for e in self.r.lexicon.entries if e.refers_to.startswith("cardtype:")})
            self.error(node, f"'{node.word}' is no kind of card", expected=one_of(nouns) if nouns else None)
            return M.AllOf(())
        subject = node.subject
        if not isinstance(subject, N.Phrase):
            self.error(node, "which card?", expected="'the card is a ...'")
            return M.AllOf(())
        if self.r.play_kinds and self.is_entity_phrase(subject):
            card = self.entity_one(subject)
        else:
            card = self.card_phrase(subject)
        return M.CardIsType(card, found[1], node=node) if card is not None else M.AllOf(())

    def cond_CanPay(self, node: N.CanPay):
        if self.schema.paying is None:
            self.error(node, "this game says nothing of paying", hint="declare 'paying' in state.yaml (docs/state.md)")
            return M.AllOf(())
        side = self.subject_side(node.subject)
        return M.CanPay(side or M.ME, self.number(node.number), node=node) if side is not None else M.AllOf(())

    def cards_of(self, phrase: N.Phrase) -> Optional[M.Cards]:
        found = self._phrase(phrase, ("cards", "pile"))
        if found is None:
            return None
        if found[0] == "cards":
            return found[1]
        if found[0] == "pile":
            return M.Cards(self.r.kind_index[self.schema.piles[found[1].pile].kind], (found[1],), node=phrase)
        self.error(phrase, f"{_describe(phrase)} are not cards")
        return None

    def cond_Compares(self, node: N.Compares):
        subject = node.subject
        if not isinstance(subject, N.Phrase):
            self.error(node, "compare a number")
            return M.AllOf(())
        found = self._phrase(subject, ("number", "group"))
        if found is None:
            return M.AllOf(())
        value = found[1]
        if node.comparison is not None:
            return M.NumberTest(value, M.Comparison(node.comparison.op, node.comparison.n), node=node)
        other = self._phrase(node.other, ("number", "group"))
        if other is None:
            return M.AllOf(())
        return M.NumberTest(value, op=node.op, other=other[1], node=node)

    def change(self, node: N.Change) -> Optional[M.Change]:
        self.relation_ok(node.verb, node)
        side = _relative(node.player.kind)
        target = node.target
        if target.determiner == "a" and target.of:  # "a space of this dimension"
            group = self.phrase(target.of[0], ("group",))
            return M.Change(side, node.gain, group, "places", node=node) if group is not None else None
        found = self._phrase(target, ("places", "group"))
        if found is None:
            return None
        kind, value = found
        return M.Change(side, node.gain, value, "group" if kind == "group" else "place", node=node)

    def cond_Would(self, node: N.Would):
        if not self.in_where:
            self.there_outside_where(node)
        change = self.change(node.change)
        return M.Would(node.verb, self.owners(node.pieces), node.negated, change, node=node)

    def cond_CardWould(self, node: N.CardWould):
        card = self.card_phrase(node.subject) if isinstance(node.subject, N.Phrase) else None
        return M.CardWould(card, node=node) if card is not None else M.AllOf(())

    def cond_Played(self, node: N.Played):
        card = self.card_phrase(node.card)
        return M.PlayedBy(card, self.subject_side(node.subject), node=node) if card is not None else M.AllOf(())

    def cond_Holds(self, node: N.Holds):
        found = self._phrase(node.phrase, ("procedure",))
        if found is None or found[0] != "procedure":
            return M.AllOf(())
        return M.Named(found[1], node=node)


# ------------------------------------------------------------------ helpers


_CATEGORIES = {"cardtype": "entities", "places": "places", "group": "group", "holder": "holder", "track": "holder",
               "box": "holder",
               "zone": "zone", "tokens": "tokens", "counter": "number", "register": "side", "role": "role",
               "cards": "cards", "field": "number", "pile": "pile", "procedure": "procedure", "term": "term"}


def _category(refers_to: str) -> str:
    return _CATEGORIES.get(refers_to.partition(":")[0], refers_to)


_KIND_TEXT = {"places": "a set of places", "group": "a group of places", "holder": "a holder of tokens",
              "zone": "a zone", "number": "a number", "side": "a side", "pile": "a pile of cards",
              "card": "a card", "cards": "cards", "procedure": "a procedure", "term": "a defined term",
              "marker": "a marker", "rule": "a rule", "count": "a count", "counter_each": "a counter of each side",
              "tokens": "tokens", "role": "a role", "entities": "cards in play", "entity": "a card in play"}


def _kind_text(kind: str) -> str:
    return _KIND_TEXT.get(kind, kind)


def _describe(node) -> str:
    if isinstance(node, N.Phrase):
        words = " ".join(w.text + ("'s" if w.kind == "OWNS" else "") for w in node.words)
        return f"'{words}'" if words else "this"
    return "this"


def _any_number(p: Optional[N.Phrase]) -> bool:
    """"any number of your units": as many as the player wants, one at a time."""
    return isinstance(p, N.Phrase) and p.count and p.determiner == "any" and len(p.of) == 1


def _each(places: Optional[N.Places]) -> bool:
    """"in each Secession space": the count applies to every place of the set."""
    if places is None:
        return False
    return any((item.phrase if isinstance(item, N.Filtered) else item).determiner == "each" for item in places.items)


def _term_name(resolver: Resolver, index: int) -> str:
    return list(resolver.declarations.terms)[index]
