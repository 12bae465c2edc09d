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
from .conditions import Conditions
from .diagnostics import Diagnostic, Source, did_you_mean, diagnostic_at, one_of
from .entities import EntityPhrases
from .resolving import ANYWHERE, Slot, a_noun, category_of, described, kind_text, term_name
from .statements import Statements

__all__ = ["ANYWHERE", "Declarations", "Resolver", "Slot"]


@attrs.frozen
class Declarations:
    """What the content declares besides the state: named procedures and terms, registers, roles."""

    procedures: Mapping[str, str] = attrs.field(factory=dict)  # name -> "block" | "condition" | "conditions" | "lines"
    terms: Mapping[str, str] = attrs.field(factory=dict)  # name -> "place" | "card" | "holders"
    registers: Tuple[str, ...] = ()  # side-valued registers ("leader")
    roles: Tuple[str, ...] = ()  # sides an overlay gives a part ("solo opponent")
    options: Tuple[str, ...] = ()  # game options ("event discard")


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


class _Run(EntityPhrases, Statements, Conditions):
    """One pass over one rule: its phrases here; its statements (ruleset/statements.py), conditions
    (ruleset/conditions.py) and cards in play (ruleset/entities.py) in the parts mixed in."""

    def __init__(self, resolver: Resolver, slot: Slot, source: Optional[Source]):
        self.r = resolver
        self.schema = resolver.schema
        self.slot = slot
        self.source = source
        self.diagnostics: List[Diagnostic] = []
        self.chosen = False  # an earlier statement of this effect chooses a place ("that space")
        self.in_where = False
        self.steps_named: dict = {}  # step name -> where this rule names it first (a name is one step's)

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
                   expected=f"{a_noun(place)} named instead of 'there', or the condition inside '{places} where ...'",
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
            hint = None
            if kind == "tokens" and p.determiner == "a" and "number" in want:
                # "place an agent in Temple": one token is counted with a number, as any other count
                noun = p.words[-1].text if p.words else "token"
                self.error(p, f"'a' and 'an' count no tokens: one {noun} is written '1 {noun}'",
                           expected=f"a number: '1 {noun}'",
                           hint="'a' and 'an' pick one card or one place of several; they never count")
                return None
            if kind == "tokens" and set(want) & {"pile", "cards", "number"}:
                # "up to the value of the card of your regiments": a count of tokens read from a number
                tokens = ("of your " if p.determiner == "own" else "") + described(p)[1:-1]
                hint = (f"a number of tokens read from a number is written 'as many {tokens} as NUMBER' "
                        f"('up to as many {tokens} as the value of the card')")
            self.error(p, f"{described(p)} is {kind_text(kind)}, not {' or '.join(kind_text(w) for w in want)}",
                       hint=hint)
            return None
        return value

    def _phrase(self, p: N.Phrase, want: Sequence[str]):
        found = self._phrase_of(p, want)
        if p.at is not None and found is not None and found[0] not in ("entities", "entity"):
            self.error(p.at, f"'at' says where cards in play stand, and {described(p)} is {kind_text(found[0])}",
                       hint="name the place alone, or cards in play: 'units at Ridge'")
            return None
        if p.carrying is not None and found is not None and found[0] not in ("entities", "places"):
            self.error(p.carrying, f"'carrying' says what cards in play carry, and {described(p)} is "
                                   f"{kind_text(found[0])}", hint="'units carrying a banner'")
            return None
        if p.within is not None and found is not None and found[0] != "places":
            self.error(p, f"'within' says where a card in play may go, and {described(p)} is {kind_text(found[0])}",
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
        order = sorted(meanings, key=lambda m: (category_of(m) not in want, meanings.index(m)))
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
                self.error(head, f"'{name}' is {a_noun(self.group_word())}, not {a_noun(self.place_word())}",
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
        self.error(head, f"unknown {what} '{name}'", expected=f"{a_noun(what)}: {one_of(wanted)}",
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

    def tokens_word(self) -> str:
        """What the schema calls tokens ("regiments"; "tokens" where it gives them no word)."""
        tokens = self.schema.tokens
        return tokens.words[-1] if tokens is not None and tokens.words else "tokens"

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
                              "goes, counted from where it stands",
                           hint=f"only a card in play that moves has places within steps of it ('... to "
                                f"{a_noun(head.text)} within its speed'); the places near a place named are "
                                "not a phrase of the language")
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
                              f"same effect, and no statement before this one chooses {a_noun(self.place_word())}",
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
                self.error(word, f"'{word.text}' is {a_noun(self.place_word())}, not {a_noun(self.group_word())}",
                           hint=f"'{word.text}' is in the {group} {self.group_word()}" if group else None)
                return None
            elif word.kind == "NAME":
                guess = did_you_mean(word.text, list(r.group_index))
                self.error(word, f"unknown {self.group_word()} '{word.text}'",
                           expected=f"{a_noun(self.group_word())}: {one_of(list(r.group_index))}",
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
                if not (self.moving or self.moving_tokens):
                    self.error(word, f"adjacent to what? {a_noun('adjacent ' + head.text)} is next to where a token "
                                     "or a card in play moves from",
                               hint=f"name the {self.places_word()}, or move: 'move 1 of your {self.tokens_word()} "
                                    f"from any {self.places_word()} into {a_noun('adjacent ' + head.text)}'")
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
        elif kind == "term" and self.r.declarations.terms.get(term_name(self.r, value)) == "card":
            card = M.CardRef("term", M.PileRef(value, self.side_of(p.determiner)), node=p)
        else:
            self.error(p, f"{described(p)} is not a card")
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
                    f"and in a procedure carried out for a card that has {a_noun(word)} field ('carry out ... for CARD')")
        return (f"'this {word}' is known in the body of a 'for each' over {places}, in the rules of a card that has "
                f"{a_noun(word)} field, and in a procedure carried out for such a card ('carry out ... for CARD')")

    def head_procedure(self, p, head, name, modifiers, want):
        return "procedure", self.r.procedure_index[name]

    def head_term(self, p, head, name, modifiers, want):
        index = self.r.term_index[name]
        if self.r.declarations.terms[name] == "card":
            return "card", M.CardRef("term", M.PileRef(index, self.side_of(p.determiner) or M.ME), node=p)
        return "term", index
