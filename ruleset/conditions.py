"""The resolver's part for conditions: what each condition of a rule means (meaning.py), from
"you control ..." and "... has at least 2 tokens" to "the card would ...".  Mixed into the
resolver's ``_Run`` (resolver.py), with the phrases and the reports it needs."""

from __future__ import annotations

from typing import Optional

import attrs

from . import meaning as M
from . import nodes as N
from .diagnostics import one_of
from .resolving import a_noun, described, relative_side


class Conditions:
    """Mixed into ``_Run``: ``condition`` and one ``cond_<Node>`` per condition of the language."""

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
            return relative_side(subject.kind)
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
            return relative_side(subject.kind), None
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
                                      f"{a_noun(self.holder_words())}")
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
            self.error(node, f"{described(subject)} is not a card that comes into play" if self.r.play_kinds
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
            self.error(node, f"'{node.word}' cannot be said of {described(subject)}")
            return M.AllOf(())
        if kind == "role":
            side = self.subject_side(subject)
            if node.word not in self.r.declarations.roles and node.word not in self.r.register_index:
                self.error(node, f"'the {node.word}' is not a part a side can have",
                           expected=one_of(list(self.r.declarations.roles) + list(self.r.register_index)))
            return M.IsRole(side, node.word, node.negated, node=node)
        if kind == "for":
            card = self.card_phrase(subject) if isinstance(subject, N.Phrase) else None
            return M.CardFor(card, relative_side(node.player.kind), node.only, node=node) if card else M.AllOf(())
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
        self.error(phrase, f"{described(phrase)} are not cards")
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
        side = relative_side(node.player.kind)
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
