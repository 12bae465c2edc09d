"""The resolver's part for cards in play (entities): phrases, numbers, conditions and statements.

A game that declares ``in play`` (docs/state.md) has nouns for its cards
("card", and a kind field's values: "unit", "farms"), adjectives for their
flags ("tapped", "untapped") and verbs for the engine's actions on them
("deploy", "tap").  This mixin of the resolver's ``_Run`` gives them their
meaning (meaning.py): sets of cards in play ("your untapped farms", "units
you control at Ridge"), one card ("the unit" in a "for each", "that unit" after
a statement that chose one, "the card"), numbers ("the power of the unit", "the
total power of your units at Ridge", "the number of your untapped farms"),
conditions and statements.  Every problem is reported at its words, with what
was expected.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

import attrs

from . import meaning as M
from . import nodes as N
from .diagnostics import did_you_mean, one_of
from .resolving import any_number, described

_ONE = ("a", "any")  # determiners that take one card
_THE = ("the", "this")


class EntityPhrases:
    """Mixed into the resolver's ``_Run``: needs ``r``, ``schema``, ``slot``, ``error``, ``meanings``,
    ``_phrase``, ``location_union``, ``pile``, ``number``, ``number_phrase``, ``side_of``."""

    entity_bound = 0  # inside "for each" over cards in play: "the unit" is the card
    entity_chosen = False  # an earlier statement of this rule chose a card in play ("that unit")
    moving = False  # resolving where cards in play move: "an adjacent site" is next to the card
    moving_tokens = False  # resolving where a token move goes: "an adjacent area" is next to the step's source
    # inside a "whose" clause, or where a card goes (and what it costs): "its"/"their" is the card
    # tested, or the card that goes ("whose range is more than their distance to ...", "within its speed")
    card_context = False

    # ================================================================ words
    def entity_noun(self, text: str) -> Optional[Tuple[Tuple[int, ...], Optional[Tuple[int, int, tuple]]]]:
        """(card kinds, (kind, field, values) or None) for a noun that names cards of kinds that can be
        in play ("cards", "units"); None for any other noun.  A noun may name cards of several values
        of a kind field ("characters": soldiers and presidents)."""
        found = self.card_noun(text)
        if found is None or found[0] not in self.r.play_kinds:
            return None
        return (found[0],), found[1]

    def card_noun(self, text: str) -> Optional[Tuple[int, Optional[Tuple[int, int, tuple]]]]:
        """(card kind, (kind, kind field, its values) or None) for a noun of cards of any kind
        ("unit", "card"); the values are every one the noun names."""
        typed: Optional[Tuple[int, int, tuple]] = None
        for refers_to in (e.refers_to for e in self.r.lexicon.meanings(text)):
            kind, _, rest = refers_to.partition(":")
            if kind == "cardtype":
                name, field, value = rest.rsplit(":", 2)
                index = self.r.kind_index[name]
                fields = [f for f, _ in self.schema.card_kinds[index].fields]
                if typed is None:
                    typed = (index, fields.index(field), (value,))
                elif typed[:2] == (index, fields.index(field)) and value not in typed[2]:
                    typed = (index, typed[1], typed[2] + (value,))
            elif kind == "cards" and typed is None:
                return self.r.kind_index[rest], None
        return (typed[0], typed) if typed is not None else None

    def is_entity_phrase(self, p) -> bool:
        if not isinstance(p, N.Phrase) or p.total or p.count or p.it or not p.words or p.extreme \
                or p.distance is not None or p.determiner in ("top", "current", "next"):
            return False
        head = p.words[-1]
        return head.kind == "NOUN" and self.entity_noun(head.text) is not None

    def flag_of(self, text: str) -> Optional[Tuple[int, bool]]:
        for refers_to in (e.refers_to for e in self.r.lexicon.meanings(text)):
            if refers_to.startswith("flag:"):
                _, name, on = refers_to.split(":")
                return self.schema.in_play.flag_index(name), on == "1"
        return None

    def flag_words(self) -> List[str]:
        in_play = self.schema.in_play
        return [w for f in in_play.flags for w in f.words + f.opposite] if in_play is not None else []

    def no_cards_in_play(self, node, what: str) -> bool:
        if self.schema.in_play is None:
            self.error(node, f"{what} is about cards in play, and this game declares none",
                       hint="declare 'in play' in state.yaml (docs/state.md)")
            return True
        return False

    # ================================================================ phrases
    def head_cardtype(self, p, head, rest, modifiers, want):
        found = self.entity_noun(head.text)
        if found is None:
            kinds = [k for k in self.schema.in_play.kinds] if self.schema.in_play else []
            self.error(head, f"'{head.text}' are cards that never come into play",
                       expected=f"cards of the kinds in play: {one_of(kinds)}" if kinds else None,
                       hint="name them in a pile: 'a card of your hand'" if not kinds else None)
            return None
        kinds, type_ = found
        return self.entity_set(p, head, kinds, type_, modifiers)

    def entity_set(self, p: N.Phrase, head: N.Word, kinds, type_, modifiers: Sequence[N.Word]):
        """("entity", EntityRef) or ("entities", Entities) for a phrase about cards in play."""
        p = _hoisted(p)
        det = p.determiner
        plain = (not modifiers and p.at is None and p.relation is None and not p.of and p.whose is None
                 and p.carrying is None)
        if det == "its" and self.card_context:  # "its gear": the cards the card tested (or moved) carries
            found = self.entity_set(attrs.evolve(p, determiner=None), head, kinds, type_, modifiers)
            if found is None or found[0] != "entities":
                return found
            return "entities", attrs.evolve(found[1], by=M.EntityRef("this", node=p))
        if det in _THE and plain and self.card_context and self.entity_bound:
            self.error(p, f"'{det} {head.text}' cannot be read here: inside a 'whose' clause, and where a card "
                          f"goes, 'its' is the card tested or moved",
                       hint="name the other card another way, or test it outside the clause")
            return None
        if det == "that" and plain:
            if not self.entity_chosen:
                self.error(p, f"'that {head.text}' is the card chosen by an earlier statement of the same rule, "
                              "and no statement before this one chooses one",
                           hint="name the cards, or choose one first (a verb on cards in play)")
            return "entity", M.EntityRef("that", node=p)
        if det in _THE and plain:
            if self.entity_bound:
                return "entity", M.EntityRef("this", node=p)
            if self.slot.the_card and type_ is None:  # "the card": the card the rule is about
                return "entity", M.EntityRef("card", node=p)
            self.error(p, f"'{det} {head.text}' means nothing in {self.slot.description}",
                       hint=f"it is the card a 'for each' over cards in play runs for, or the card a rule is about; "
                            f"elsewhere say which: 'your {head.text}', 'a {head.text} at ...'")
            return None
        owner = self.side_of(det)
        flags: List[Tuple[int, bool]] = []
        for word in modifiers:
            flag = self.flag_of(word.text) if word.kind == "ADJ" else None
            if flag is not None:
                flags.append(flag)
            elif word.kind == "NAME" and word.text in self.r.side_index:
                owner = M.Side("side", self.r.side_index[word.text], node=word)
            else:
                words = self.flag_words()
                guess = did_you_mean(word.text, words) if words else None
                self.error(word, f"'{word.text}' does not describe {head.text}",
                           expected=f"a flag: {one_of(words)}, or a side" if words else "a side",
                           hint=f"did you mean '{guess}'?" if guess else None)
                return None
        if p.of:
            self.error(p.of[0], f"'of' does not go with {head.text} in play",
                       hint=f"say whose with 'your {head.text}', where with '{head.text} at ...'")
            return None
        if p.relation is not None:
            relation = p.relation
            words = self.schema.in_play.control_words
            if relation.verb not in words:
                self.error(relation, f"'{relation.verb}' is not how this game says whose cards in play are",
                           expected=one_of(list(words)) if words else "'your ...' or 'the opponent's ...'")
            elif relation.who == "nobody":
                self.error(relation, "every card in play is somebody's", hint="say 'your' or 'the opponent's'")
            else:
                owner = M.ME if relation.who == "you" else M.OPPONENT
        at = None
        if p.at is not None:
            if not self.schema.in_play.at_places:
                self.error(p.at, "cards in play stand nowhere in this game", hint="declare 'at: places' under 'in play'")
                return None
            at = self.location_union(N.Places((p.at,), pos=p.at.pos), places_ok=True, holders_ok=False)
        whose = self.entity_whose(p.whose, kinds) if p.whose is not None else None
        if p.whose is not None and whose is None:
            return None
        carrying = None
        if p.carrying is not None:
            if not self.schema.in_play.carries:
                self.error(p.carrying, "no card in play carries another in this game",
                           hint="declare 'carries: true' under 'in play'")
                return None
            carrying = self.entities_of(p.carrying)
            if carrying is None:
                return None
            if isinstance(carrying, M.EntityRef):
                self.error(p.carrying, "carrying which cards?", expected="'carrying a unit', 'carrying your banners'")
                return None
        return "entities", M.Entities(tuple(kinds), type_, owner, tuple(flags), at, whose, carrying, node=p)

    def entity_whose(self, whose: N.Whose, kinds) -> Optional[Tuple[str, str, object]]:
        """"whose range is more than their distance to the battlefield": a number field of each card,
        compared with a number read for that card ("its", "their": the card tested)."""
        numbers = sorted({f for k in kinds for f, t in self.schema.card_kinds[k].fields if t == "number"})
        if whose.field not in numbers:
            guess = did_you_mean(whose.field, numbers)
            self.error(whose, f"'{whose.field}' is not a number field of these cards", expected=one_of(numbers),
                       hint=f"did you mean '{guess}'?" if guess else None)
            return None
        if whose.comparison is not None:
            return whose.field, whose.comparison.op, M.Literal(whose.comparison.n)
        saved, self.card_context = self.card_context, True
        try:
            other = self.number_phrase(whose.other)
        finally:
            self.card_context = saved
        return (whose.field, whose.op, other) if other is not None else None

    def entities_of(self, p: N.Phrase, what: str = "cards in play"):
        """A set of cards in play, or one: Entities or EntityRef (None: reported)."""
        found = self._phrase(p, ("entities", "entity"))
        if found is None:
            return None
        kind, value = found
        if kind not in ("entities", "entity"):
            self.error(p, f"{described(p)} are not {what}")
            return None
        return value

    def entity_one(self, p: N.Phrase):
        found = self.entities_of(p)
        if found is None:
            return None
        if not isinstance(found, M.EntityRef):
            self.error(p, f"{described(p)} names several cards, and one is needed here",
                       hint="'the unit' in a 'for each', 'that unit' after a statement that chose one")
            return None
        return found

    def count_or_total(self, p: N.Phrase):
        """"the number of ...", "the total power of ..."."""
        if not p.of:
            self.error(p, "of what?", expected="'the number of your cards', 'the total power of your cards'")
            return None
        target = p.of[0]
        if p.count:
            found = self._phrase(target, ("entities", "entity", "pile", "cards", "places", "count"))
            if found is None:
                return None
            kind, value = found
            if kind in ("entities", "entity"):
                return "number", M.Count(value, "entities", node=p)
            if kind in ("pile", "cards"):
                return "number", M.Count(value, "cards", node=p)
            if kind == "places":
                return "number", M.Count(value, "places", node=p)
            if kind == "count":
                return "number", value
            self.error(target, f"{described(target)} cannot be counted")
            return None
        field = p.words[0].text
        if p.total and not self.is_entity_phrase(_hoisted(target)):  # "the total influence of your captured cards"
            found = self._phrase(target, ("pile", "cards"))
            if found is not None and found[0] in ("pile", "cards"):
                cards = found[1] if found[0] == "cards" else M.Cards(
                    self.r.kind_index[self.schema.piles[found[1].pile].kind], (found[1],), node=target)
                fields = [f for f, t in self.schema.card_kinds[cards.kind].fields]
                if field not in fields or self.schema.card_kinds[cards.kind].fields[fields.index(field)][1] != "number":
                    numbers = [f for f, t in self.schema.card_kinds[cards.kind].fields if t == "number"]
                    self.error(p.words[0], f"'{field}' is not a number field of the "
                                           f"{self.schema.card_kinds[cards.kind].name}", expected=one_of(numbers))
                    return None
                return "number", M.CardsTotal(cards, fields.index(field), node=p)
            if found is None:
                return None
        numbers = self.number_fields()
        if field not in numbers:
            guess = did_you_mean(field, numbers)
            self.error(p.words[0], f"'{field}' is not a number field of the cards in play",
                       expected=one_of(numbers) if numbers else "a number field", hint=f"did you mean '{guess}'?"
                       if guess else None)
            return None
        entities = self.entities_of(target)
        if entities is None:
            return None
        if isinstance(entities, M.EntityRef):
            if p.extreme is not None:
                self.error(p, f"the {p.extreme} {field} of one card is its {field}", hint=f"'the {field} of ...'")
                return None
            return "number", M.EntityField(entities, field, node=p)
        if p.extreme is not None:
            return "number", M.EntityExtreme(entities, field, p.extreme == "highest", node=p)
        return "number", M.EntityTotal(entities, field, node=p)

    def distance(self, p: N.Phrase):
        """"their distance to the battlefield", "the distance to it": steps along the map from the card
        tested (in a 'whose' clause) or moved (where it goes, what it costs) to a place."""
        if not self.card_context:
            self.error(p, "the distance from which card?",
                       hint="'distance' is read in a 'whose' clause ('whose range is more than their distance to "
                            "...') or in what a move costs ('paying the distance to it')")
            return None
        if not self.schema.map.adjacent and self.schema.map.line is None:
            self.error(p, "no place is next to another in this game, so none is at a distance",
                       hint="the map says which places touch ('adjacent'), or lies in a line ('line')")
            return None
        to = self.location_union(N.Places((p.distance,), pos=p.distance.pos), places_ok=True, holders_ok=False)
        return "number", M.Distance(M.EntityRef("this", node=p), to, node=p)

    def number_fields(self) -> List[str]:
        in_play = self.schema.in_play
        if in_play is None:
            return []
        return sorted({f for k in self.schema.card_kinds if k.name in in_play.kinds for f, t in k.fields
                       if t == "number"})

    def entity_field(self, p: N.Phrase, field_name: str, field_type: str):
        """"the power of the unit": a field of one card in play (None: not such a phrase)."""
        target = p.of[0]
        if not self.is_entity_phrase(target):
            return None
        plain = len(target.words) == 1 and target.at is None and target.relation is None and not target.of
        if plain and target.determiner in _THE and not self.entity_bound:
            return None  # "the value of the card": the card the rule is about, read as before
        if not plain or target.determiner not in _THE + ("that",):
            self.error(p, f"{described(target)} names several cards, and '{field_name}' is read from one",
                       hint=f"add them up: 'the total {field_name} of ...'")
            return "error", None
        ref = self.entity_one(target)
        if ref is None:
            return "error", None
        if field_type != "number":
            self.error(p, f"the {field_name} of a card in play is read as a number, and it is a {field_type} field")
            return "error", None
        return "number", M.EntityField(ref, field_name, node=p)

    # ================================================================ amounts
    def entity_amount(self, quantity: Optional[N.Quantity], verb: str, node):
        """(Amount, Entities or EntityRef) for "2 of your untapped farms", "the card", "your units"."""
        if quantity is None:
            self.error(node, f"{verb} what?", expected=f"cards in play: '{verb} the card', '{verb} 2 of your ...'")
            return None, None
        if quantity.kind == "thing":
            p = quantity.phrase
            if p.count and p.determiner == "any" and len(p.of) == 1:  # "any number of your units"
                target = self.entities_of(p.of[0])
                if isinstance(target, M.EntityRef):
                    self.error(p, "any number of one card?", expected=f"'{verb} any number of your ...'")
                    return None, None
                return (M.Amount("any", node=quantity) if target is not None else None), target
            target = self.entities_of(p)
            if target is None:
                return None, None
            if isinstance(target, M.EntityRef) or p.determiner in _ONE:
                return M.Amount("exactly", 1, node=quantity), target
            return M.Amount("all", node=quantity), target
        if quantity.kind == "up_to_number":
            self.error(quantity, "up to how many of which cards?",
                       expected=f"'{verb} up to 2 of your ...', or 'as many of your ... as ...'")
            return None, None
        pieces = quantity.pieces
        target = self.entities_of_pieces(pieces, quantity, verb)
        if target is None:
            return None, None
        if quantity.kind in ("as_many", "up_to_as_many"):
            number = self.number_phrase(quantity.phrase)
            kind = "exactly" if quantity.kind == "as_many" else "up_to"
            return (M.Amount(kind, number=number, node=quantity) if number is not None else None), target
        if quantity.kind in ("exactly", "up_to") and quantity.n < 1:
            self.error(quantity, f"{verb} {quantity.n} cards does nothing", expected="at least 1")
            return None, None
        if quantity.kind == "all":
            return M.Amount("all", node=quantity), target
        return M.Amount(quantity.kind, quantity.n, node=quantity), target

    def entities_of_pieces(self, pieces: Optional[N.Pieces], node, verb: str):
        if pieces is None or pieces.noun is None:
            self.error(node, f"{verb} how many of what?", expected=f"'{verb} 2 of your ...' with the cards' noun")
            return None
        found = self.entity_noun(pieces.noun)
        if found is None:
            self.error(pieces, f"'{pieces.noun}' are not cards in play", expected=self.nouns_expected())
            return None
        kinds, type_ = found
        owner = None
        if pieces.owner in ("own", "their"):
            owner = M.ME
        elif pieces.owner == "opponent":
            owner = M.OPPONENT
        elif pieces.owner in self.r.side_index:
            owner = M.Side("side", self.r.side_index[pieces.owner])
        flags = []
        for word in pieces.adjectives:
            flag = self.flag_of(word)
            if flag is None:
                self.error(pieces, f"'{word}' does not describe {pieces.noun}", expected=one_of(self.flag_words()))
                return None
            flags.append(flag)
        return M.Entities(kinds, type_, owner, tuple(flags), node=pieces)

    def nouns_expected(self) -> str:
        nouns = sorted({e.text for e in self.r.lexicon.entries if e.kind == "NOUN"
                        and self.entity_noun(e.text) is not None})
        return f"cards in play: {one_of(nouns)}" if nouns else "cards in play (this game declares none)"

    # ================================================================ statements
    def stmt_Call(self, node: N.Call):
        verb = next((v for v in self.schema.verbs if node.verb in v.words), None)
        if verb is None:  # pragma: no cover - the lexer makes a VERB only of a declared verb
            self.error(node, f"'{node.verb}' is not a verb this game declares")
            return None
        parts = {}
        for preposition, places in node.parts:
            if preposition in parts:
                self.error(places, f"'{preposition}' is said twice")
            parts[preposition] = places
        allowed = {"enter": ("from", "at", "onto", "on"), "leave": ("into", "to"), "move": ("to", "into", "onto", "on"),
                   "set": (), "clear": ()}[verb.action]
        for preposition, places in node.parts:
            if preposition not in allowed:
                self.error(places, f"'{node.verb}' takes no '{preposition}'",
                           expected=one_of([f"'{a}'" for a in allowed]) if allowed else "nothing after the cards")
                return None
        flag = self.schema.in_play.flag_index(verb.flag) if verb.flag else -1
        if node.paying is not None and verb.action not in ("enter", "move"):
            self.error(node, f"'{node.verb}' takes no 'paying': what is paid for is a card coming into play or "
                             "moving", hint="pay apart: 'pay 2'")
            return None
        if verb.action == "enter":
            found = self.enter_play(node.verb, node.quantity, parts.get("from"), parts.get("at"),
                                    parts.get("onto") or parts.get("on"), flag, node)
            if found is not None and node.covering is not None:
                self.error(node.covering, "'until their total ...' is said of cards in play",
                           hint=f"'{node.verb} up to as many ... as ...'")
                return None
            return self.paid(found, node, place=False)
        amount, target = self.entity_amount(node.quantity, node.verb, node)
        if amount is None:
            return None
        if node.covering is not None:
            amount = self.covering(node.covering, amount, target)
            if amount is None:
                return None
        self.entity_chosen = True
        if verb.action == "leave":
            return self.leave_play(node.verb, amount, target, parts.get("into") or parts.get("to"), verb.pile, node)
        if verb.action == "move":
            found = self.move_entities(node.verb, amount, target, parts.get("to") or parts.get("into"),
                                       parts.get("onto") or parts.get("on"), flag, node)
            return self.paid(found, node, place=not (parts.get("onto") or parts.get("on")))
        return M.SetFlag(node.verb, amount, target, flag, verb.action == "set", node=node)

    def paid(self, found, node: N.Call, place: bool):
        """A statement that comes with ", paying ...": each choice is offered only if it can be paid for."""
        if found is None or node.paying is None:
            return found
        paying = self.paying_number(node.paying, node, place=place, card=True)
        return attrs.evolve(found, paying=paying) if paying is not None else None

    def covering(self, covering: N.Covering, amount: M.Amount, target) -> Optional[M.Amount]:
        """"until their total cost is at least the damage": the cards named, one at a time, until the field
        of those taken adds up to the number."""
        if isinstance(target, M.EntityRef) or amount.kind != "all":
            self.error(covering, "'until their total ...' takes cards one at a time from those named",
                       expected="'forfeit your units at Ridge until their total cost is at least 3'")
            return None
        kinds = target.kinds
        numbers = sorted({f for k in kinds for f, t in self.schema.card_kinds[k].fields if t == "number"})
        if covering.field not in numbers:
            guess = did_you_mean(covering.field, numbers)
            self.error(covering, f"'{covering.field}' is not a number field of these cards", expected=one_of(numbers),
                       hint=f"did you mean '{guess}'?" if guess else None)
            return None
        return M.Amount("cover", number=self.number(covering.number), field=covering.field, node=covering)

    def stmt_PutIntoPlay(self, node: N.PutIntoPlay):
        if self.no_cards_in_play(node, "'into play'"):
            return None
        return self.enter_play("put", node.quantity, node.source, node.at, None, -1, node)

    def stmt_RemoveFromPlay(self, node: N.RemoveFromPlay):
        if self.no_cards_in_play(node, "'from play'"):
            return None
        amount, target = self.entity_amount(node.quantity, "remove", node)
        if amount is None:
            return None
        self.entity_chosen = True
        return self.leave_play("remove", amount, target, node.dest, None, node)

    def enter_play(self, verb: str, quantity, source: Optional[N.Places], at: Optional[N.Places],
                   onto: Optional[N.Places], flag: int, node):
        if source is None:
            self.error(node, f"{verb} from where?", expected=f"'from' and a pile: '{verb} a card from your hand'")
            return None
        items = list(source.items)
        # "deploy a unit from your hand at Ridge": the "at" is read with the pile's phrase; it is the statement's
        if at is None and len(items) == 1:
            phrase = items[0].phrase if isinstance(items[0], N.Filtered) else items[0]
            if phrase.at is not None:
                at = N.Places((phrase.at,), pos=phrase.at.pos)
                stripped = attrs.evolve(phrase, at=None)
                items = [N.Filtered(stripped, items[0].filter, pos=items[0].pos) if isinstance(items[0], N.Filtered)
                         else stripped]
        piles, whose = [], None
        for item in items:
            phrase = item.phrase if isinstance(item, N.Filtered) else item
            if isinstance(item, N.Filtered):
                if not isinstance(item.filter, N.Whose):
                    self.error(item.filter, "cards from a pile are narrowed by 'whose': 'from your hand whose cost "
                                            "is at most 2'")
                    return None
                whose = item.filter
            pile = self.phrase(phrase, ("pile",))
            if pile is None:
                return None
            piles.append(pile)
        amount, cards = self.pile_amount(quantity, verb, piles, node)
        if amount is None:
            return None
        if whose is not None:
            fields = [f for f, _ in self.schema.card_kinds[cards.kind].fields]
            if whose.field not in fields:
                guess = did_you_mean(whose.field, fields)
                self.error(whose, f"the {self.schema.card_kinds[cards.kind].name} have no '{whose.field}'",
                           expected=one_of(fields), hint=f"did you mean '{guess}'?" if guess else None)
                return None
            other = M.Literal(whose.comparison.n) if whose.comparison is not None else self.number_phrase(whose.other)
            if other is None:
                return None
            op = whose.comparison.op if whose.comparison is not None else whose.op
            cards = M.PileCards(cards.piles, cards.kind, cards.type, fields.index(whose.field), op, other,
                                node=cards.node)
        dest, on = None, False
        if at is not None and onto is not None:
            self.error(onto, "a card comes into play at a place or onto another card, not both")
            return None
        if at is not None:
            if not self.schema.in_play.at_places:
                self.error(at, "cards in play stand nowhere in this game", hint="declare 'at: places' under 'in play'")
                return None
            dest = self.location_union(at, places_ok=True, holders_ok=False)
            self.chosen = True
        elif onto is not None:
            dest, on = self.carriers(onto), True
            if dest is None:
                return None
        self.entity_chosen = True
        return M.EnterPlay(verb, amount, cards, dest, on, flag, node=node)

    def pile_amount(self, quantity: Optional[N.Quantity], verb: str, piles, node):
        """(Amount, PileCards) for the cards of piles a statement puts into play."""
        if quantity is None:
            self.error(node, f"{verb} what?", expected=f"'{verb} a card from ...', '{verb} up to 2 cards from ...'")
            return None, None
        if quantity.kind == "thing" and any_number(quantity.phrase):  # "deploy any number of farms from your hand"
            inner = quantity.phrase.of[0]
            head = inner.words[-1] if inner.words else None
            found = self.card_noun(head.text) if head is not None and head.kind == "NOUN" else None
            if found is None or len(inner.words) > 1 or inner.of or inner.determiner is not None:
                self.error(inner, f"the cards {verb} takes are named by their noun: '{verb} any number of "
                                  f"units from ...'", expected=self.nouns_expected())
                return None, None
            cards = self.play_cards(found[0], found[1], piles, inner)
            return (M.Amount("any", node=quantity) if cards is not None else None), cards
        if quantity.kind == "thing":
            p = quantity.phrase
            head = p.words[-1] if p.words else None
            found = self.card_noun(head.text) if head is not None and head.kind == "NOUN" else None
            if found is None:
                self.error(p, f"{described(p)} are not cards", expected=self.nouns_expected())
                return None, None
            kind, type_ = found
            if p.determiner in _THE and not p.of and len(p.words) == 1:
                if not self.slot.the_card:
                    self.error(p, f"'{p.determiner} {head.text}' means nothing in {self.slot.description}",
                               hint=f"say which: 'a {head.text} from your hand'")
                    return None, None
                card = M.CardRef("this", node=p)
                return M.Amount("exactly", 1, node=quantity), self.play_cards(kind, type_, piles, p, card)
            if len(p.words) > 1 or p.of or p.at is not None or p.relation is not None:
                self.error(p, f"the cards {verb} takes are named by their noun: '{verb} a {head.text} from ...'",
                           hint="narrow them with 'whose' after the pile: 'from your hand whose cost is at most 2'")
                return None, None
            amount = M.Amount("exactly", 1, node=quantity) if p.determiner in _ONE else M.Amount("all", node=quantity)
            cards = self.play_cards(kind, type_, piles, p)
            return (amount if cards is not None else None), cards
        if quantity.kind == "up_to_number" or quantity.pieces is None or quantity.pieces.noun is None:
            self.error(quantity, f"{verb} how many of what?", expected=f"'{verb} up to 2 units from your hand'")
            return None, None
        pieces = quantity.pieces
        found = self.card_noun(pieces.noun)
        if found is None or pieces.owner is not None or pieces.adjectives:
            self.error(pieces, f"'{pieces.noun}' from a pile are named by their noun alone",
                       expected=self.nouns_expected())
            return None, None
        kind, type_ = found
        cards = self.play_cards(kind, type_, piles, pieces)
        if cards is None:
            return None, None
        if quantity.kind in ("as_many", "up_to_as_many"):
            number = self.number_phrase(quantity.phrase)
            kind = "exactly" if quantity.kind == "as_many" else "up_to"
            return (M.Amount(kind, number=number, node=quantity) if number is not None else None), cards
        if quantity.kind == "all":
            return M.Amount("all", node=quantity), cards
        return M.Amount(quantity.kind, quantity.n, node=quantity), cards

    def play_cards(self, kind: int, type_, piles, node, card=None) -> Optional[M.PileCards]:
        if kind not in self.r.play_kinds:
            kinds = list(self.schema.in_play.kinds) if self.schema.in_play is not None else []
            self.error(node, f"the {self.schema.card_kinds[kind].name} never come into play",
                       expected=f"cards of the kinds in play: {one_of(kinds)}")
            return None
        for pile in piles:
            if self.r.kind_index[self.schema.piles[pile.pile].kind] != kind:
                self.error(pile.node, f"the {self.schema.piles[pile.pile].name} holds "
                                      f"{self.schema.piles[pile.pile].kind}, not {self.schema.card_kinds[kind].name}")
                return None
        return M.PileCards(tuple(piles), kind, type_, card=card, node=node)

    def carriers(self, onto: N.Places):
        if not self.schema.in_play.carries:
            self.error(onto, "no card in play carries another in this game", hint="declare 'carries: true' under "
                                                                                  "'in play'")
            return None
        item = onto.items[0] if len(onto.items) == 1 else None
        if isinstance(item, N.Filtered) and isinstance(item.filter, N.Whose):  # "onto a unit whose power ..."
            item = attrs.evolve(item.phrase, whose=item.filter)
        if not isinstance(item, N.Phrase):
            self.error(onto, "onto which cards?", expected="cards in play: 'onto a unit you control'")
            return None
        target = self.entities_of(item)
        if target is None:
            return None
        return target

    def leave_play(self, verb: str, amount, target, into: Optional[N.Places], declared: Optional[str], node):
        pile, owner_pile = None, -1
        if into is not None:
            pile = self.pile(into)
            if pile is None:
                return None
        elif declared is not None:
            owner_pile = self.r.pile_index[declared]
            if not self.schema.piles[owner_pile].each_side:
                pile, owner_pile = M.PileRef(owner_pile, node=node), -1
        else:
            self.error(node, f"{verb} from play into which pile?", expected="'into' a pile: 'into your discard pile'",
                       hint="or give the verb a pile in state.yaml ('into: discard pile')")
            return None
        return M.LeavePlay(verb, amount, target, pile, owner_pile, node=node)

    def move_entities(self, verb: str, amount, target, to: Optional[N.Places], onto: Optional[N.Places], flag: int,
                      node):
        if (to is None) == (onto is None):
            self.error(node, f"{verb} to where?", expected="'to' places, or 'onto' a card in play")
            return None
        if onto is not None:
            saved, self.card_context = self.card_context, True
            try:
                dest = self.carriers(onto)
            finally:
                self.card_context = saved
            return M.MoveEntity(verb, amount, target, dest, True, flag, node=node) if dest is not None else None
        if not self.schema.in_play.at_places:
            self.error(to, "cards in play stand nowhere in this game", hint="declare 'at: places' under 'in play'")
            return None
        saved = self.moving, self.card_context
        self.moving = self.card_context = True
        try:
            dest = self.location_union(to, places_ok=True, holders_ok=False)
        finally:
            self.moving, self.card_context = saved
        self.chosen = True
        return M.MoveEntity(verb, amount, target, dest, False, flag, node=node)

    def entity_move(self, node: N.Move):
        """"move the unit to Ridge" (the keyword 'move', on cards in play); None: not about them."""
        quantity = node.quantity
        phrase = quantity.phrase if quantity.kind == "thing" else None
        noun = quantity.pieces.noun if quantity.pieces is not None else None
        if not (self.is_entity_phrase(phrase) if phrase is not None else
                noun is not None and self.entity_noun(noun) is not None):
            return None
        if node.source is not None or node.within or node.limit is not None or node.selection is not None:
            self.error(node, "cards in play move one by one 'to' places", expected="'move the unit to Ridge'")
            return None
        amount, target = self.entity_amount(quantity, "move", node)
        if amount is None:
            return None
        self.entity_chosen = True
        return self.move_entities("move", amount, target, node.dest, None, -1, node)

    def for_each_entity(self, node: N.ForEach, entities):
        if node.order is not None:
            self.error(node.order, "cards in play come in card order", hint="leave out 'in the order ... choose'")
        if isinstance(entities, M.EntityRef):
            self.error(node.what, "for each of which cards?", expected="'for each unit you control'")
            return None
        self.entity_bound += 1
        try:
            body = self.block(node.body)
        finally:
            self.entity_bound -= 1
        return M.ForEachEntity(entities, body, node=node)

    def entity_change(self, node, target: N.Phrase, number: N.Number, set_to: bool):
        """"add 1 to the power of the unit", "set the power of the unit to 2" (None: not such a target)."""
        if not target.of or not self.is_entity_phrase(target.of[0]) or len(target.words) != 1:
            return None
        field = target.words[0].text
        in_play = self.schema.in_play
        if field not in in_play.fields:
            self.error(target, f"the {field} of a card in play does not change in this game",
                       expected=f"a field that changes in play: {one_of(list(in_play.fields))}" if in_play.fields
                       else "none: list them under 'in play', 'fields'")
            return "error"
        ref = self.entity_one(target.of[0])
        if ref is None:
            return "error"
        return M.ChangeEntityField(ref, field, self.number(number), set_to, node=node)

    # ================================================================ conditions
    def entity_count(self, node, side, pieces: N.Pieces, where, there: bool):
        """"you have 2 untapped farms", "the opponent has no units at Ridge": a count of cards in play."""
        kinds, type_ = self.entity_noun(pieces.noun)
        flags = []
        for word in pieces.adjectives:
            flag = self.flag_of(word)
            if flag is None:
                self.error(pieces, f"'{word}' does not describe {pieces.noun}", expected=one_of(self.flag_words()))
            else:
                flags.append(flag)
        at = None
        if there:
            if not self.in_where:
                self.error(node, "'there' refers to the place tested in a 'where' clause")
            at = M.ContextPlace("it")
        elif where is not None:
            at = self.location_union(where, places_ok=True, holders_ok=False)
        return M.Count(M.Entities(kinds, type_, side or M.ME, tuple(flags), at, node=pieces), "entities", node=node)

    def entity_state(self, node: N.IsState):
        """"the card is tapped", "that unit is at Ridge", "the card is in play" (None: not about a card in
        play)."""
        subject = node.subject
        if not self.is_entity_phrase(subject):
            return None
        if node.kind == "adjective":
            flag = self.flag_of(node.word)
            if flag is None:
                self.error(node, f"'{node.word}' is not a flag of cards in play", expected=one_of(self.flag_words()))
                return M.AllOf(())
            ref = self.entity_one(subject)
            return M.EntityFlag(ref, flag[0], flag[1], node=node) if ref is not None else M.AllOf(())
        if node.kind == "at":
            ref = self.entity_one(subject)
            places = self.location_union(node.where, places_ok=True, holders_ok=False)
            return M.EntityAt(ref, places, node=node) if ref is not None else M.AllOf(())
        if node.kind == "in_play":
            ref = self.entity_one(subject)
            return M.EntityIn(ref, node=node) if ref is not None else M.AllOf(())
        return None


def _hoisted(p: N.Phrase) -> N.Phrase:
    """A phrase about cards in play with the "whose" and "carrying" that end it taken from its last
    part ("characters at Ridge whose power ...": the characters' power, not Ridge's)."""
    if p.whose is None:
        phrase, whose = N.hoist_whose(p)
        if whose is not None:
            p = attrs.evolve(phrase, whose=whose)
    if p.carrying is None and p.at is not None and p.at.carrying is not None:
        p = attrs.evolve(p, at=attrs.evolve(p.at, carrying=None), carrying=p.at.carrying)
    return p
