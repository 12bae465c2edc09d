"""Cards in play, paying and windows of play, put into words (a mixin of phrasing.Phrasing).

Rules about cards in play (docs/language.md, "Cards in play" and "A line of
locations, paying, battles") read through ``render.*`` templates as every
other rule does.  A game names its own things, so the keys are made from the
words its schema and rules give them:

* ``play.noun.<word>``: a noun of cards as the rule writes it ("characters",
  "farm"), with ``{n}`` for the plural choice;
* ``play.flag.<flag>.set`` / ``.clear``: a flag's adjective ("untapped");
* ``verb.<verb>``: a verb's statement ("{who?you:tap|...} {cards}{rest}"), its
  ``{rest}`` what goes after the cards (where to, what it costs);
* ``play.field.<field>``: a number field's name ("price");
* ``registers.<register>``: a register's name ("battlefield");

and the constructs have templates of their own (``play.cards``,
``statement.pay``, ``condition.can_pay``...).  A construct a catalog lacks a
template for shows the template's key, never fails.
"""

from __future__ import annotations

from typing import Optional

from . import meaning as M
from . import nodes as N


def _snake(name: str) -> str:
    return name.lower().replace(" ", "_").replace("-", "_")


class PlayPhrasing:
    """Mixed into phrasing.Phrasing: needs ``fill``, ``has``, ``subject``, ``whose``, ``party``,
    ``pile``, ``number``, ``condition``, ``locations``, ``compared``, ``side_name``."""

    def made(self, section: str, construct: str, **params) -> str:
        """The template ``render.<section>.<construct>``.  Its key is made from the construct's
        name, as the template of a construct with no phrasing yet is: only a game whose rules use
        cards in play needs these templates (``crisis i18n check`` learns which from the rules),
        and the registry of message keys, which every catalog must hold, does not list them."""
        return self.fill(section + "." + construct, **params)

    # ------------------------------------------------------------ cards in play
    def written_noun(self, node) -> str:
        """The noun a rule wrote for cards ("characters", "an interrupt"), from its syntax."""
        written = getattr(node, "node", None)
        if isinstance(written, N.Phrase) and written.count and written.of:  # "any number of farms"
            written = written.of[0]
        if isinstance(written, N.Phrase) and written.words:
            return written.words[-1].text
        if isinstance(written, N.Pieces) and written.noun:
            return written.noun
        if isinstance(written, N.IsState) and written.word:  # "the card is an interrupt"
            return written.word
        if isinstance(written, N.Play):  # "play up to 1 interrupt", "play any number of interrupts"
            quantity = written.quantity
            if quantity.pieces is not None and quantity.pieces.noun:
                return quantity.pieces.noun
            inner = quantity.phrase.of[0] if quantity.phrase is not None and quantity.phrase.of else quantity.phrase
            if inner is not None and inner.words:
                return inner.words[-1].text
        return "card"

    def play_field(self, name: str) -> str:
        return self.made("play", "field." + _snake(name))

    def play_flags(self, flags, n: int, node=None) -> str:
        in_play = self.schema.in_play
        g = self.play_gender(node) if node is not None else ""
        words = [self.made("play", "flag.{}.{}".format(_snake(in_play.flags[flag].name), "set" if on else "clear"),
                           n=n, g=g) for flag, on in flags]
        return "".join(self.made("play", "adjective", adjective=w, n=n) for w in words)

    def play_owner(self, side: Optional[M.Side]) -> dict:
        """{owner}: own, opponent, their, their_opponent, side (a named side: {side}) or any."""
        if side is None:
            return {"owner": "any", "side": ""}
        if side.kind == "side":
            return dict(owner="side", **self.side_name(side.index))
        return {"owner": self.whose(self.possessive_of(side)), "side": ""}

    def play_at(self, places) -> str:
        """" at the battlefield", " there" (the place a "where" clause tests)."""
        items = places.items if isinstance(places, M.Union_) else (places,)
        if len(items) == 1 and isinstance(items[0], M.ContextPlace) and items[0].kind == "it":
            return self.made("play", "there")
        return self.made("play", "at", places=self.locations(places, "one"))

    def play_cards(self, node, n: int = 2, form: str = "") -> str:
        """Cards in play: "your untapped farms", "characters at the battlefield whose range is ...",
        "the character", "that card"; ``form`` "a": one card with its article ("a location")."""
        if isinstance(node, M.EntityRef):
            written = getattr(node.node, "determiner", None)
            if written in ("its", "their"):
                return self.made("play", "ref.its")
            return self.made("play", "ref." + node.kind, noun=self.play_noun(node, 1), g=self.play_gender(node))
        if not isinstance(node, M.Entities):
            return ""
        if form == "a" and node.owner is not None:  # "one of your characters at its location"
            return self.made("play", "one_of", cards=self.play_cards(node, 2), g=self.play_gender(node))
        at = self.play_at(node.at) if node.at is not None else ""
        whose = ""
        if node.whose is not None:
            field, op, other = node.whose
            whose = self.made("play", "whose", field=self.play_field(field), op=op, number=self.number(other), n=n)
        carrying = self.made("play", "carrying", cards=self.play_cards(node.carrying, 1, "a")) if node.carrying else ""
        by = "its" if node.by is not None else "no"
        return self.made("play", "cards", noun=self.play_noun(node, n, form), flags=self.play_flags(node.flags, n, node),
                         at=at, whose=whose, carrying=carrying, carried=by, n=n, form=form, g=self.play_gender(node),
                         **self.play_owner(node.owner))

    def play_gender(self, node) -> str:
        """The grammatical gender of the noun a rule wrote, where the language has one
        (``play.gender.<word>``: m, f), for articles and adjectives that agree with it."""
        return self.c.raw("render.play.gender." + _snake(self.written_noun(node))) or ""

    def play_noun(self, node, n: int, form: str = "") -> str:
        """The noun a rule names cards by, as it wrote it ("units", "characters"), from
        ``play.noun.<word>``: {n} for the plural, {form} "a" with its article."""
        return self.made("play", "noun." + _snake(self.written_noun(node)), n=n, form=form)

    def play_amount(self, amount: M.Amount, cards) -> str:
        """How many of the cards a statement takes: "2 of your farms", "up to 1 of ...", "any number of ..."."""
        if isinstance(cards, M.EntityRef):
            return self.play_cards(cards, 1)
        if isinstance(cards, M.PileCards):
            if cards.card is not None:
                return self.card(cards.card)
            one = self.pile_cards_text(cards, 1, "a")
            many = self.pile_cards_text(cards, amount.n if amount.kind in ("exactly", "up_to") else 2)
        else:
            owned = cards.owner is not None
            one = self.play_cards(cards, 1, "a") if not owned else ""
            many = self.play_cards(cards, amount.n if amount.kind in ("exactly", "up_to") and amount.n > 1 else 2)
        number = self.number(amount.number) if amount.number is not None else ""
        return self.made("play", "amount." + amount.kind, cards=many, one=one, n=amount.n, number=number,
                         read="yes" if amount.number is not None else "no", g=self.play_gender(cards))

    def pile_cards_text(self, cards: M.PileCards, n: int, form: str = "") -> str:
        """Cards of piles that may come into play: "farms from your hand whose price is at most 2"."""
        whose = ""
        if cards.field >= 0:
            field = self.schema.card_kinds[cards.kind].fields[cards.field][0]
            whose = self.made("play", "whose", field=self.play_field(field), op=cards.op, number=self.number(cards.other),
                              n=n)
        return self.made("play", "from", noun=self.play_noun(cards, n, form),
                         source=self.join([self.pile(p) for p in cards.piles]), whose=whose, n=n,
                         g=self.play_gender(cards))

    def verb(self, word: str, cards: str, dest: str = "", how: str = "", paying: str = "", cover: str = "") -> str:
        """A statement of the game's verb (``verb.<verb>``): {cards}, {how} (to, onto, at, into or
        nothing) and {dest}, {paying}, {cover}."""
        name = next((v.name for v in self.schema.verbs if word in v.words), word)
        return self.made("verb", _snake(name), cards=cards, dest=dest, how=how or "none", paying=paying,
                         cover=cover, **self.subject())

    def paying(self, number) -> str:
        return self.made("play", "paying", number=self.number(number)) if number is not None else ""

    def stmt_EnterPlay(self, node: M.EnterPlay) -> str:
        dest, how = "", ""
        if node.dest is not None and node.onto:
            dest, how = self.play_cards(node.dest, 1, "a"), "onto"
        elif node.dest is not None:
            dest, how = self.locations(node.dest, "one"), "at"
        return self.verb(node.verb, self.play_amount(node.amount, node.cards), dest, how, self.paying(node.paying))

    def stmt_LeavePlay(self, node: M.LeavePlay) -> str:
        dest = self.pile(node.pile) if node.pile is not None else ""
        return self.verb(node.verb, self.play_amount(node.amount, node.entities), dest, "into" if dest else "",
                         cover=self.covering(node.amount))

    def covering(self, amount: M.Amount) -> str:
        if amount.kind != "cover":
            return ""
        return self.made("play", "cover", field=self.play_field(amount.field), number=self.number(amount.number))

    def stmt_MoveEntity(self, node: M.MoveEntity) -> str:
        if node.onto:
            dest, how = self.play_cards(node.dest, 1, "a"), "onto"
        else:
            dest, how = self.locations(node.dest, "one"), "to"
        return self.verb(node.verb, self.play_amount(node.amount, node.entities), dest, how, self.paying(node.paying))

    def stmt_SetFlag(self, node: M.SetFlag) -> str:
        return self.verb(node.verb, self.play_amount(node.amount, node.entities), cover=self.covering(node.amount))

    def stmt_ChangeEntityField(self, node: M.ChangeEntityField) -> str:
        return self.made("statement", "set_field" if node.set_to else "statement.add_to_field",
                         field=self.play_field(node.field), card=self.play_cards(node.entity),
                         number=self.number(node.amount), **self.subject())

    def stmt_Pay(self, node: M.Pay) -> str:
        return self.made("statement", "pay", number=self.number(node.amount), **self.subject())

    def stmt_Choose(self, node: M.Choose) -> str:
        register = self.schema.registers[node.register]
        return self.made("statement", "choose", places=self.locations(node.places, "each"),
                         optional="yes" if node.optional else "no", paying=self.paying(node.paying),
                         **self.name_forms("registers", register, "register"), **self.subject())

    def stmt_PlayCards(self, node: M.PlayCards) -> str:
        n = node.most or 2
        noun = self.play_noun(node, n) if node.type is not None else self.pile_noun(node.source, n)
        return self.made("statement", "play_cards", cards=noun, n=node.most, source=self.pile(node.source),
                         g=self.play_gender(node), **self.subject())

    def play_compound(self, node):
        """"for each unit you control: ..." as a statement with a body (see Phrasing.compound)."""
        if isinstance(node, M.ForEachEntity):
            return "statement.for_each_card", {"cards": self.play_cards(node.entities, 2)}, self, node.body
        return None

    # ------------------------------------------------------------ places and numbers
    def play_places(self, node, form: str) -> Optional[str]:
        if isinstance(node, M.EntityPlaces):
            entities = node.entities
            if isinstance(entities, M.EntityRef) and getattr(entities.node, "determiner", None) in ("its", "their"):
                return self.made("spaces", "its_place")
            line = self.schema.map.line
            if line is not None and isinstance(entities, M.Entities) and entities.type is not None \
                    and set(entities.type[2]) <= set(line.cards.values):
                return self.play_cards(entities, 1)  # the line's cards are its places (the noun as written)
            if isinstance(entities, M.EntityRef):
                return self.made("spaces", "of_card", card=self.play_cards(entities, 1))
            return self.made("spaces", "of_cards", cards=self.play_cards(entities), form=form)
        if isinstance(node, M.Adjacent):
            if node.of is None:
                return self.made("spaces", "adjacent", form=form)
            return self.made("spaces", "adjacent_to", places=self.locations(node.of), form=form)
        if isinstance(node, M.Within):
            return self.made("spaces", "within", steps=self.number(node.steps), form=form)
        if isinstance(node, M.RegisterPlace):
            return self.made("spaces", "register", **self.name_forms("registers", self.schema.registers[node.register],
                                                                  "register"))
        return None

    def play_number(self, node) -> Optional[str]:
        if isinstance(node, M.EntityField):
            written = getattr(node.node, "determiner", None)
            if written in ("its", "their"):  # "its price": the card tested, moved or coming in
                return self.made("number", "its_field", field=self.play_field(node.field))
            return self.made("number", "field_of", field=self.play_field(node.field), card=self.play_cards(node.entity))
        if isinstance(node, M.EntityTotal):
            return self.made("number", "total", field=self.play_field(node.field), cards=self.play_cards(node.entities))
        if isinstance(node, M.EntityExtreme):
            return self.made("number", "highest" if node.highest else "number.lowest", field=self.play_field(node.field),
                             cards=self.play_cards(node.entities))
        if isinstance(node, M.Distance):
            to = node.to.items if isinstance(node.to, M.Union_) else (node.to,)
            if len(to) == 1 and isinstance(to[0], M.ContextPlace) and to[0].kind == "it":
                return self.made("number", "distance_moved")
            return self.made("number", "distance", places=self.locations(node.to, "one"))
        if isinstance(node, M.CardsTotal):
            field = self.schema.card_kinds[node.cards.kind].fields[node.field][0]
            return self.made("number", "total", field=self.play_field(field), cards=self.cards(node.cards))
        if isinstance(node, M.Count) and node.kind == "entities":
            return self.made("number", "count_cards", cards=self.play_cards(node.what))
        return None

    # ------------------------------------------------------------ conditions
    def play_count_test(self, node: M.NumberTest) -> Optional[str]:
        """"you have a character at the battlefield", "the opponent has no presidents"."""
        number = node.number
        if not isinstance(number, M.Count) or node.test is None:
            return None
        if number.kind == "entities" and isinstance(number.what, M.Entities) and number.what.owner is not None:
            what = number.what
            bare = M.Entities(what.kinds, what.type, None, what.flags, what.at, what.whose, what.carrying, what.by,
                              node=what.node)
            return self.made("condition", "has_cards_in_play", cards=self.play_cards(bare, max(node.test.n, 2)),
                             one=self.play_cards(bare, 1, "a"), g=self.play_gender(what),
                             **self.compared(node.test), **self.party(what.owner))
        if number.kind == "cards" and isinstance(number.what, M.Cards) and number.what.type is not None:
            pile = number.what.piles[0]
            return self.made("condition", "has_cards_in_pile", pile=self.pile(pile),
                             cards=self.play_noun(number.what, max(node.test.n, 2)),
                             one=self.play_noun(number.what, 1, "a"), g=self.play_gender(number.what),
                             **self.compared(node.test), **self.party(pile.side or M.ME))
        return None

    def cond_EntityFlag(self, node: M.EntityFlag):
        flag = self.schema.in_play.flags[node.flag].name
        return self.made("condition", "card_flag", card=self.play_cards(node.entity),
                         adjective=self.made("play", "flag.{}.{}".format(_snake(flag), "set" if node.set else "clear"),
                                             n=1), mood=self.mood)

    def cond_EntityAt(self, node: M.EntityAt):
        return self.made("condition", "card_at", card=self.play_cards(node.entity), places=self.locations(node.places),
                         mood=self.mood)

    def cond_EntityIn(self, node: M.EntityIn):
        return self.made("condition", "card_in_play", card=self.play_cards(node.entity), mood=self.mood)

    def cond_CardIsType(self, node: M.CardIsType):
        card = self.play_cards(node.card) if isinstance(node.card, M.EntityRef) else self.card(node.card)
        return self.made("condition", "card_is_a", card=card, noun=self.play_noun(node, 1, "a"), mood=self.mood)

    def cond_CanPay(self, node: M.CanPay):
        return self.made("condition", "can_pay", number=self.number(node.amount), **self.party(node.side))

    def cond_RegisterSet(self, node: M.RegisterSet):
        return self.made("condition", "register_set", held="yes" if node.held else "no", mood=self.mood,
                         **self.name_forms("registers", self.schema.registers[node.register], "register"))
