"""The resolver's part for statements: what each statement of a rule means (meaning.py), from
"place 2 of your tokens in ..." to "players alternate ...", with the amounts, piles, cards and
transfers they name.  Mixed into the resolver's ``_Run`` (resolver.py), which gives it the
phrases (``_phrase``, ``location_union``...) and the reports (``error``, ``warning``)."""

from __future__ import annotations

from typing import Optional

import attrs

from . import meaning as M
from . import nodes as N
from .diagnostics import did_you_mean, one_of
from .resolving import a_noun, any_number, described, each_place, kind_text
from .walk import meanings


class Statements:
    """Mixed into ``_Run``: ``block`` and one ``stmt_<Node>`` per statement of the language."""

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
        number = self.number_phrase(quantity.phrase)  # "as many ... as NUMBER", "up to as many ... as NUMBER"
        kind = "up_to" if quantity.kind == "up_to_as_many" else "exactly"
        return M.Amount(kind, number=number, node=quantity) if number is not None else None

    def number_phrase(self, p: N.Phrase):
        return self.phrase(p, ("number",))

    def transfer(self, verb: str, node, quantity: N.Quantity, sources, dests, limit, selection, within=False):
        amount = self.amount(quantity)
        pieces = quantity.pieces
        self.pieces_noun(pieces)
        owners = self.owners(pieces)
        each = each_place(node.source if verb == "remove" else node.dest)
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
                               hint=f"{a_noun(self.holder_words())} always belongs to the owner of the tokens in it")

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
        self.moving_tokens = True  # "into an adjacent area": next to the place each token leaves
        try:
            dests = sources if node.within else self.location_union(node.dest, places_ok=True, holders_ok=True)
        finally:
            self.moving_tokens = False
        if not node.within and not self.next_to_sources(node, sources, dests):
            return None
        self.destinations(dests)
        self.chosen = True
        return self.transfer("move", node, node.quantity, sources, dests, node.limit, node.selection, node.within)

    def next_to_sources(self, node: N.Move, sources: M.Union_, dests: M.Union_) -> bool:
        """"into an adjacent area" is where each token goes from the place it leaves: it stands
        alone as the destination (no filter, no other place or holder, no 'each'), and every source
        is a place (a token from a pool leaves no place to be next to).  False: refused here."""
        items = getattr(dests, "items", ())
        nested = any(isinstance(meaning, M.Adjacent) and meaning.of is None
                     for item in items for meaning in meanings(item))
        if not nested:
            return True
        word = self.place_word()
        alone = len(items) == 1 and isinstance(items[0], M.Adjacent) and items[0].of is None
        if not alone or each_place(node.dest):
            self.error(node.dest, f"{a_noun('adjacent ' + word)} stands alone as where a move goes: next to the "
                                  f"{word} each token leaves",
                       expected=f"'into {a_noun('adjacent ' + word)}', with no other {self.places_word()}, "
                                "holder, 'each' or condition")
            return False
        holders = [item for item in getattr(sources, "items", ()) if isinstance(item, M.Holder)]
        if holders:
            self.error(node.source, f"a token taken from a holder leaves no {word}, so no {word} is adjacent "
                                    "to where it leaves",
                       expected=f"{self.places_word()} to move from, for a move into {a_noun('adjacent ' + word)}")
            return False
        return True

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
        return described(node)

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
                self.error(item, f"{described(item)} is {kind_text(kind)}, not a place"
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
                           f"'{filt.term}' is a term about {a_noun(kind)}, not about {a_noun(self.place_word())}",
                           expected=f"a term about {a_noun(self.place_word())}: {one_of(names)}" if names else
                           f"a term about {a_noun(self.place_word())} (this game defines none)",
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
            self.error(item, f"{described(item)} is {kind_text(kind)}, not a number",
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
        self.error(p, f"{described(p)} cannot be counted")
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
            self.error(item.phrase, f"{described(item.phrase)} are not cards")
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
        if quantity.kind == "thing" and any_number(quantity.phrase):  # "play any number of cards ..."
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
            self.error(node.register, f"{described(node.register)} holds no place",
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
        if node.selection is not None and node.selection.kind != "random":
            self.error(node.selection, "the opponent cannot choose the cards another player keeps",
                       expected="', at random', or nothing (the player keeping chooses)",
                       hint="for the opponent's choice, say who keeps: 'the opponent keeps 1 card of their hand ...'")
            return None
        if source is None or dest is None:
            return None
        if node.selection is None and not self.sees(source):
            # the decision would list the hidden cards to the player keeping one
            name = self.schema.piles[source.pile].name
            owned = source.side is not None and source.side.kind == "opponent"
            self.error(node.source, f"the player keeping a card cannot see the cards of "
                                    f"{'the opponent' + chr(39) + 's ' if owned else 'the '}{name}: the choice "
                                    "would show them",
                       expected="', at random' (a card drawn by lot), or a pile the player sees",
                       hint=f"for the owner's choice, say who keeps: 'the opponent keeps 1 card of their {name} ...'"
                       if owned else None)
            return None
        return M.Keep(node.n, source, dest, node.noun, node.verb, node.selection is not None, node=node)

    def sees(self, pile: M.PileRef) -> bool:
        """Whether the acting player sees the cards of ``pile`` (state.yaml's 'seen by'): a pile seen
        by everyone, or one's own pile seen by its owner."""
        seen_by = self.schema.piles[pile.pile].seen_by
        if seen_by == "everyone":
            return True
        # a pile named by a register or a side ("the attacker's hand") may be the keeper's own: not refused
        return seen_by == "owner" and not pile.each and (pile.side is None or pile.side.kind != "opponent")

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
        self.error(node.what, f"{described(node.what.items[0])} cannot be carried out",
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
        self.error(node.what, f"{described(node.what)} cannot be gone through one by one")
        return None

    def stmt_Step(self, node: N.Step):
        # the log, the board's layout, the bots' evaluation and scenarios' 'phase' name a step: two
        # of one name would be one step to all of them
        named = self.word_in(node, node.name)
        first = self.steps_named.setdefault(node.name, named)
        if first is not named:
            pos = getattr(first, "pos", None)
            line = self.source.locate(pos.line, pos.column)[0] if pos is not None and self.source is not None \
                else None
            self.error(named, f"there is already a step named '{node.name}'" + (f" (line {line})" if line else ""),
                       expected="a name of its own for each step",
                       hint="the log, the layout, the bots' evaluation and a scenario's 'phase' name a step by it")
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
