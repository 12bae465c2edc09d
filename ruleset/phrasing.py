"""Checked rules -> the text a player reads, in any language.

The general front end's rules (their meanings, ruleset/meaning.py) are put
into words through the phrase templates of a catalog's ``render.*`` keys, one
template per construct (content/<game>/locale/<lang>/render.yaml, explained in
docs/localization.md).  A meaning knows what each word refers to (a place, a
group, a holder, a pile...), so names get their grammar (Spanish articles and
gender) from the catalog's ``forms.*``.

Nothing here names a game's things.  Where a template is about one of them, its
key is made from the name the game's schema gives it: the template of a holder
named "pool" is ``render.holder.pool``; the places of a group whose word is
"region" are ``render.spaces.region``; the test of an attribute "walled" is
``render.condition.is_walled``.  The catalog is anything with ``text(key,
**params)``, ``raw(key)``, ``name(kind, name)`` and ``form(kind, name, form,
default)``; the schema and the declarations are those the rules were resolved
against (content/schema.py, ruleset/resolver.py).  A construct with no phrasing
yet shows its template's key (``<render.statement.shuffle>``) and never fails.
"""

from __future__ import annotations

import re
from typing import Callable, List, Optional, Tuple

from . import meaning as M
from . import nodes as N
from .phrasing_play import PlayPhrasing


def phrase_block(block: M.Block, catalog, schema, declarations, inline: bool = False, actor: str = "you",
                 labels: Optional[Callable[[int], str]] = None) -> str:
    """The text of an effect: one sentence per statement.  ``actor`` "solo" shows a rule of
    the side the game plays in an overlay (its first role) as the person reads it ("the Solo
    Opponent places ...").  ``labels`` names line n of a priority list where a rulebook names
    its lines; without it they are numbered."""
    phrasing = Phrasing(catalog, schema, declarations, actor)
    phrasing.labels = labels
    sentences = [phrasing.statement(s) for s in block.statements]
    return (" " if inline else "\n").join(sentences)


def phrase_condition(condition, catalog, schema, declarations, actor: str = "you") -> str:
    return Phrasing(catalog, schema, declarations, actor).condition(condition)


def phrase_places(places, catalog, schema, declarations, actor: str = "you") -> str:
    """A set of places (or holders) on its own, as a row of a selection table reads."""
    return Phrasing(catalog, schema, declarations, actor).locations(places)


def phrase_card(card: M.CardRef, catalog, schema, declarations, actor: str = "you") -> str:
    """One card on its own, as the definition of a term reads ("the current card of your ...")."""
    return Phrasing(catalog, schema, declarations, actor).card(card)


def phrase_card_filter(cards: M.CardFilter, catalog, schema, declarations, actor: str = "you") -> str:
    """Cards a rule lets a player choose ("a card of your hand whose value is at least ...")."""
    return Phrasing(catalog, schema, declarations, actor).card_filter(cards)


def phrase_outline(block, catalog, schema, declarations, actor: str = "you") -> List[Tuple[int, str]]:
    """A long rule (a sequence of play) as a player reads it on paper: (depth, line) pairs, where
    a statement with a body (a step, a loop, "for each player", an "if" of several statements)
    opens with a line of its own ("Each round, up to round 3:") and its body follows one level
    deeper, a sentence per line."""
    return Phrasing(catalog, schema, declarations, actor).outline(block)


def snake(name: str) -> str:
    """A schema name as it appears in a template's key: "discard pile" -> "discard_pile"."""
    return name.lower().replace(" ", "_").replace("-", "_")


def _construct(node) -> str:
    """A meaning's construct as a template's key: ForEachPlace -> "for_each_place"."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type(node).__name__).lower()


# Who carries out the statement being rendered, as the reader sees it: "you"
# (the rule's player, addressed in the imperative), "opponent", "each" (each
# player) or "they" (each player, inside "for each player"), "first" (the first
# player), "register" (the side a register names: "the leader").  A statement
# handed to someone else is one sentence with that subject.  In an overlay
# played by the game (the solo game), the rules of the side it plays are shown
# to the person: "solo" (its first role) acts, and its opponent is "human".
# "all" is every player at once, the subject of a condition ("each player has ...").
ACTORS = ("you", "opponent", "each", "they", "first", "register", "solo", "human", "all")

_THIRD = {"own": "their", "opponent": "their_opponent", "their": "their"}
# A possessive in the rule ("your pool") is relative to the acting player
_WHOSE = {
    "you": {"own": "own", "opponent": "opponent", "their": "their"},
    "opponent": {"own": "their", "opponent": "own", "their": "their"},
    "each": _THIRD, "they": _THIRD, "first": _THIRD, "register": _THIRD, "all": _THIRD,
    "solo": {"own": "solo", "opponent": "human", "their": "their"},
    "human": {"own": "human", "opponent": "solo", "their": "their"},
}
# and so is a player in a condition ("you have ...")
_THEY = {"you": "they", "opponent": "their_opponent"}
_WHO = {
    "you": {"you": "you", "opponent": "opponent"},
    "opponent": {"you": "opponent", "opponent": "you"},
    "each": _THEY, "they": _THEY, "first": _THEY, "register": _THEY,
    "all": {"you": "each", "opponent": "their_opponent"},
    "solo": {"you": "solo", "opponent": "human"},
    "human": {"you": "human", "opponent": "solo"},
}
_OTHER = {"solo": "human", "human": "solo"}
# a side relative to the acting player, as the templates' {who} names it
_RELATIVE = {"me": "you", "opponent": "opponent", "nobody": "nobody"}
_POSSESSIVES = ("own", "their", "opponent")
# what stands for the body of a statement with a body while its opening line is made (outline)
_BODY = "\x00"


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


class Phrasing(PlayPhrasing):
    labels: Optional[Callable[[int], str]] = None  # line n of a priority list -> its name

    def __init__(self, catalog, schema, declarations, actor: str = "you", mood: str = "plain"):
        self.c = catalog
        self.schema = schema
        self.declarations = declarations
        self.actor = actor
        self.mood = mood  # "where" inside a "where" clause (Spanish puts its verbs in the subjunctive there)
        self.owner_kind = "own"  # whose tokens the statement being rendered moves
        self.register = -1  # the register whose side acts (actor "register")
        self.loop: Optional[tuple] = None  # the loop a "stop" leaves: ("counter", index) or ("repeat",)

    # ------------------------------------------------------------ the catalog
    def fill(self, key: str, **params) -> str:
        """The template ``render.<key>`` filled in.  (A key written out in a call is found in the
        source by content/messages.py for the registry of message keys; those made from the
        schema's names are known to ``crisis i18n check`` from the rules themselves.)"""
        return self.c.text("render." + key, **params)

    def has(self, what: str) -> bool:
        """Whether the catalog (or the one it falls back on) has the template."""
        return self.c.raw("render." + what) is not None

    def forms(self, kind: str, name: str, default: Optional[str] = None) -> Tuple[str, str, str]:
        """A name in the catalog's language, its gender and its plural, for agreement; without
        one in the catalog, ``default`` (the word rules use for it), else the name itself."""
        shown = self.c.raw(kind + "." + name)
        if shown is None:
            shown = default if default is not None else name
        return shown, self.c.form(kind, name, "gender"), self.c.form(kind, name, "plural", shown)

    def name_forms(self, kind: str, name: str, param: str, default: Optional[str] = None) -> dict:
        """``forms`` as the parameters ``param``, ``param_g`` and ``param_pl`` of a template."""
        shown, gender, plural = self.forms(kind, name, default)
        return {param: shown, param + "_g": gender, param + "_pl": plural}

    # the words the schema gives the kinds of things names belong to
    def place_word(self, plural: bool = False) -> str:
        words = self.schema.map.place_words
        return words[-1] if plural else words[0]

    def group_word(self, plural: bool = False) -> str:
        words = self.schema.map.group_words
        return words[-1] if plural else words[0]

    def place_name(self, index: int, param: str) -> dict:
        return self.name_forms(self.place_word(True), self.schema.map.places[index], param)

    def group_name(self, index: int, param: str) -> dict:
        return self.name_forms(self.group_word(True), self.schema.map.groups[index].name, param)

    def zone_name(self, track: int, zone: int) -> dict:
        declared = self.schema.tracks[track]
        return self.name_forms(declared.zone_words[-1], declared.zones[zone].name, declared.zone_words[0])

    # (the names below fill fixed parameters, written out, so that content/messages.py reads
    # which parameters a template gets)
    def side_name(self, index: int) -> dict:
        shown, gender, plural = self.forms("sides", self.schema.sides[index])
        return {"side": shown, "side_g": gender, "side_pl": plural}

    def marker_name(self, index: int) -> dict:
        shown, gender, plural = self.forms("markers", self.schema.markers[index].name)
        return {"marker": shown, "marker_g": gender, "marker_pl": plural}

    def term_name(self, index: int) -> str:
        return self.c.name("terms", list(self.declarations.terms)[index])

    def counter_name(self, index: int) -> dict:
        """A counter by its name in the catalog (``counters.<name>``), else the word rules use."""
        declared = self.schema.counters[index]
        shown, gender, plural = self.forms("counters", declared.name, declared.words[0] if declared.words else None)
        return {"counter": shown, "counter_g": gender, "counter_pl": plural}

    def pile_name(self, index: int) -> dict:
        declared = self.schema.piles[index]
        shown, gender, plural = self.forms("piles", declared.name, declared.words[0] if declared.words else None)
        return {"pile": shown, "pile_g": gender, "pile_pl": plural}

    def register_name(self, index: int) -> dict:
        shown, gender, plural = self.forms("registers", self.schema.registers[index])
        return {"register": shown, "register_g": gender, "register_pl": plural}

    def procedure_name(self, index: int) -> dict:
        shown, gender, plural = self.forms("procedures", list(self.declarations.procedures)[index])
        return {"procedure": shown, "procedure_g": gender, "procedure_pl": plural}

    def step_name(self, name: str) -> dict:
        shown, gender, plural = self.forms("steps", name)
        return {"step": shown, "step_g": gender, "step_pl": plural}

    # ------------------------------------------------------------ who acts
    def acting(self, actor: str, register: int = -1, mood: Optional[str] = None) -> "Phrasing":
        if actor == "opponent" and self.actor in _OTHER:
            actor = _OTHER[self.actor]
        other = Phrasing(self.c, self.schema, self.declarations, actor, mood or self.mood)
        other.labels, other.register, other.loop = self.labels, register, self.loop
        return other

    def subject(self) -> dict:
        """The subject of a statement: ``who`` selects the verb form, ``subject`` names the actor."""
        named = self.register_name(self.register) if self.actor == "register" else {}
        return {"who": self.actor, "subject": self.fill("subject." + self.actor, **named)}

    def whose(self, possessive: str) -> str:
        return _WHOSE.get(self.actor, _WHOSE["each"])[possessive]

    def relative(self, side: M.Side) -> str:
        """"you" or "opponent": a side relative to the acting player."""
        return _RELATIVE.get(side.kind, side.kind)

    def possessive_of(self, side: M.Side) -> str:
        return {"me": "own", "opponent": "opponent"}.get(side.kind, "their")

    # ------------------------------------------------------------ statements
    def statement(self, node) -> str:
        """One statement as a sentence."""
        return self.sentence(self.clause(node))

    def sentence(self, clause: str) -> str:
        clause = clause.replace("  ", " ")  # a token phrase folded into its amount leaves an empty part
        return self.fill("sentence", clause=clause[:1].upper() + clause[1:])

    def clause(self, node) -> str:
        """One statement as a clause (no capital, no full stop), to stand in a sentence.  A
        statement with no phrasing yet shows its template's key, never fails."""
        found = self.compound(node)
        if found is not None:
            key, params, inner, body = found
            return self.fill(key, body=inner.clauses(body), **params)
        method = getattr(self, "stmt_" + type(node).__name__, None)
        if method is None:
            return self.fill("statement." + _construct(node), **self.subject())
        return method(node)

    def clauses(self, block) -> str:
        """A block (or a goal's steps) inside one sentence: its statements one after the other."""
        statements = block.statements if isinstance(block, M.Block) else block
        parts = [self.clause(s) for s in statements]
        text = parts[0]
        for part in parts[1:]:
            text = self.fill("statement.then", a=text, b=part)
        return text

    # ------------------------------------------------------------ outline
    def outline(self, block, depth: int = 0) -> List[Tuple[int, str]]:
        statements = block.statements if isinstance(block, M.Block) else block
        lines: List[Tuple[int, str]] = []
        for node in statements:
            lines.extend(self.outline_statement(node, depth))
        return lines

    def outline_statement(self, node, depth: int) -> List[Tuple[int, str]]:
        found = self.compound(node)
        if found is not None:
            key, params, inner, body = found
            head, _, tail = self.fill(key, body=_BODY, **params).partition(_BODY)
            lines = [(depth, capitalised(head.strip()))] + inner.outline(body, depth + 1)
            if tail.strip(" ."):  # a template that goes on after its body
                lines.append((depth, capitalised(tail.strip())))
            return lines
        if isinstance(node, M.If) and self.long(node):
            lines = [(depth, capitalised(self.fill("outline.if", when=self.when(node.condition))))]
            lines += self.outline(node.then, depth + 1)
            if node.otherwise is not None:
                lines.append((depth, capitalised(self.fill("outline.otherwise"))))
                lines += self.outline(node.otherwise, depth + 1)
            return lines
        return [(depth, self.statement(node))]

    def long(self, node: M.If) -> bool:
        """Whether an "if" reads better as an outline: a branch of several statements, or with a body."""
        blocks = [node.then] + ([node.otherwise] if node.otherwise is not None else [])
        return any(len(b.statements) > 1 or any(self.compound(s) is not None or isinstance(s, M.If)
                                                  for s in b.statements) for b in blocks)

    def tokens(self, amount: M.Amount, owners: M.Owners, verb: str):
        """(the amount, the tokens) of a transfer: "up to 2", "opponent tokens"."""
        n = amount.n if amount.kind != "all" else 2
        params = {"n": n, "actor": self.actor, "verb": verb}
        if owners.kind == "side":
            params.update(self.side_name(owners.side))
        if amount.number is not None:  # "tokens, up to the value of the revealed card,"
            params["n"] = 2
            tokens = self.fill("tokens." + owners.kind, **params)
            read = "card_" if isinstance(amount.number, M.CardField) else "number_"
            return self.fill("amount." + read + amount.kind, card=self.number_card(amount.number), tokens=tokens), ""
        return self.fill("amount." + amount.kind, n=amount.n or 0), self.fill("tokens." + owners.kind, **params)

    def number_card(self, number) -> str:
        """The card whose field a number reads ("the value of the revealed card")."""
        return self.card(number.card) if isinstance(number, M.CardField) else ""

    def card(self, ref: M.CardRef) -> str:
        """One card: "the card", "the top card of the discard pile", "your final crisis card".  A
        pile's card has a template of its own where the catalog gives one (``card.top.<pile>``)."""
        if ref.kind == "term":  # a term's card ("your final crisis card"): the term's pile is its side
            name = list(self.declarations.terms)[ref.pile.pile]
            whose = self.pile_whose(ref.pile.side) if ref.pile.side is not None else ""
            key = "card.term." + snake(name)
            return self.fill(key if self.has(key) else "card.named_term", whose=whose,
                             **self.name_forms("terms", name, "term"))
        if ref.pile is not None and ref.kind in ("top", "pile", "current"):
            key = "card.{}.{}".format(ref.kind, snake(self.schema.piles[ref.pile.pile].name))
            if self.has(key):
                return self.fill(key)
            return self.fill("card.{}_of".format(ref.kind), pile=self.pile(ref.pile))
        return self.fill("card." + ref.kind)

    # ------------------------------------------------------------ piles of cards
    def pile_whose(self, side: M.Side) -> str:
        """Whose pile, as the reader sees it: "own" (your), "opponent", "their", "their_opponent",
        "side" (a named side's); a pile of the side the game plays is "their" pile in its rules."""
        if side.kind == "me":
            whose = self.whose("own")
            return "their" if whose in _OTHER else whose
        if side.kind == "opponent":
            return self.whose("opponent")
        return "side" if side.kind == "side" else "their"

    def pile(self, ref: M.PileRef) -> str:
        """A pile: "the strategy deck", "your hand", "each player's objective".  Its template is
        ``pile.<name>`` where the catalog gives one, else ``pile.owned`` for a pile each side
        has (with ``{whose}``) or ``pile.shared``; ``{pile}`` is its name (``piles.<name>``)."""
        declared = self.schema.piles[ref.pile]
        whose = "each" if ref.each else "" if ref.side is None else self.pile_whose(ref.side)
        # a named side's pile ("the Unionist's hand"): the side's name, else none
        side = self.side_name(ref.side.index)["side"] if ref.side is not None and ref.side.kind == "side" else ""
        key = "pile." + snake(declared.name)
        if not self.has(key):
            key = "pile.owned" if declared.each_side else "pile.shared"
        return self.fill(key, whose=whose, side=side, **self.pile_name(ref.pile))

    def noun(self, kind_name: str, n: int) -> str:
        """Cards of a kind counted: "4 cards", "an objective" (``noun.<kind>``, else ``noun.cards``)."""
        key = "noun." + snake(kind_name)
        return self.fill(key if self.has(key) else "noun.cards", n=n)

    def pile_noun(self, ref: M.PileRef, n: int) -> str:
        return self.noun(self.schema.piles[ref.pile].kind, n)

    def card_filter(self, node: M.CardFilter) -> str:
        """"a card of your hand whose value is at least the value of the card" (``cards.whose_<field>``)."""
        return self.fill("cards.whose_" + self.card_field(node.field, "number"), op=node.op,
                         card=self.noun(self.schema.card_kinds[node.cards.kind].name, 1),
                         piles=self.cards(node.cards), other=self.number(node.other))

    def cards(self, cards: M.Cards) -> str:
        """Cards of piles, or those revealed ("the revealed objectives")."""
        if cards.piles:
            return self.join([self.pile(p) for p in cards.piles])
        return self.fill("cards.revealed", cards=self.noun(self.schema.card_kinds[cards.kind].name, 2))

    def selection(self, node: M.Transfer) -> str:
        """", at random" or ", your opponent choosing": who makes the statement's choices."""
        if node.random:
            return self.fill("selection.random")
        if node.chooser:
            other = _WHO.get(self.actor, {}).get("opponent", "their_opponent")
            return self.fill("selection." + {"all": "all", "pieces": "tokens"}[node.chooser],
                             player=self.fill("player." + other))
        return ""

    def limit(self, node: M.Transfer) -> str:
        if node.one_place:
            return self.fill("limit.one_space") + self.selection(node)
        if node.limit is not None:
            return self.fill("limit.per_space", n=node.limit) + self.selection(node)
        return self.selection(node)

    @staticmethod
    def form(amount: M.Amount) -> str:
        """One token goes to "any space"; several to "any spaces"."""
        return "one" if amount.kind != "all" and amount.n == 1 and amount.number is None else "many"

    def stmt_Transfer(self, node: M.Transfer) -> str:
        self.owner_kind = node.owners.kind
        written = node.node
        amount, tokens = self.tokens(node.amount, node.owners, node.verb)
        form = self.form(node.amount)
        if node.verb == "place":
            if node.each:
                return self.fill("statement.place_each", amount=amount, tokens=tokens,
                                 dest=self.locations(node.dests, "each"), **self.subject())
            if isinstance(written, N.Place) and written.source is not None:
                return self.fill("statement.place_from", amount=amount, tokens=tokens,
                                 source=self.locations(node.sources), dest=self.locations(node.dests, form),
                                limit=self.limit(node), **self.subject())
            return self.fill("statement.place", amount=amount, tokens=tokens, dest=self.locations(node.dests, form),
                             limit=self.limit(node), **self.subject())
        if node.verb == "remove":
            if node.each:
                return self.fill("statement.remove_each", amount=amount, tokens=tokens,
                                 source=self.locations(node.sources, "each"), **self.subject())
            return self.fill("statement.remove", amount=amount, tokens=tokens,
                             source=self.locations(node.sources, form), limit=self.limit(node), **self.subject())
        if isinstance(written, N.Move) and written.within:
            return self.fill("statement.move_within", amount=amount, tokens=tokens,
                             source=self.locations(node.sources), limit=self.limit(node), **self.subject())
        if node.each:
            return self.fill("statement.move_each", amount=amount, tokens=tokens, source=self.locations(node.sources),
                             dest=self.locations(node.dests, "each"), **self.subject())
        return self.fill("statement.move", amount=amount, tokens=tokens, source=self.locations(node.sources, form),
                         dest=self.locations(node.dests, form), limit=self.limit(node), **self.subject())

    def stmt_ChangeCounter(self, node: M.ChangeCounter) -> str:
        """"gain 1 VP" (the counter by its name: VP, or any other), "add 1 to the round"."""
        if not isinstance(node.node, N.Gain):
            whose = self.pile_whose(node.side) if node.side is not None else ""
            return self.fill("statement.add", n=self.number(node.amount), whose=whose,
                             **self.counter_name(node.counter), **self.subject())
        verb = "gain" if node.sign > 0 else "lose"
        n = node.amount.value if isinstance(node.amount, M.Literal) else 0
        if node.per is None:
            return self.fill("statement." + verb, n=n, **self.counter_name(node.counter), **self.subject())
        return self.fill("statement.{}_per".format(verb), n=n, per=self.countable(node.per),
                         **self.counter_name(node.counter), **self.subject())

    def stmt_SetCounter(self, node: M.SetCounter) -> str:
        # {each}: "yes" (each player's), "own" (a counter each side keeps, set for the acting side alone:
        # "set your might to ...", as {whose} reads it: own, their...) or "no"
        own = self.schema.counters[node.counter].each_side and not node.each_side
        each = "yes" if node.each_side else self.whose("own") if own else "no"
        return self.fill("statement.set_counter", value=self.number(node.value), each=each,
                         **self.counter_name(node.counter), **self.subject())

    def stmt_SetRegister(self, node: M.SetRegister) -> str:
        return self.fill("statement.set_register", **self.register_name(node.register), **self.subject())

    def number(self, node) -> str:
        """A number in words: "2", "the round", "the value of the card", "the number of cards in your hand"."""
        if isinstance(node, M.Literal):
            return str(node.value)
        if isinstance(node, M.CounterValue):
            whose = self.pile_whose(node.side) if node.side is not None else ""
            return self.fill("number.counter", whose=whose, **self.counter_name(node.counter))
        if isinstance(node, M.CardField):
            return self.fill("number.card_" + self.card_field(node.field, "number"), card=self.card(node.card))
        if isinstance(node, M.Count) and node.kind == "cards":
            what = _one_pile(node.what)
            if isinstance(what, M.Cards):  # "the number of revealed objectives", of several piles
                cards = self.noun(self.schema.card_kinds[what.kind].name, 2)
                if not what.piles:
                    return self.fill("number.revealed", cards=cards)
                return self.fill("number.cards", cards=cards, pile=self.cards(what))
            return self.fill("number.cards", cards=self.pile_noun(what, 2), pile=self.pile(what))
        if isinstance(node, M.Count) and node.kind == "places":
            return self.fill("number.places", places=self.spaces(node.what))
        if isinstance(node, M.Count) and node.kind == "groups":
            return self.fill("number.groups", groups=self.countable(node))
        if isinstance(node, M.Sum):
            text = self.number(node.terms[0])
            for term, sign in zip(node.terms[1:], node.signs):  # a sign before each term after the first
                text = self.fill("number.plus" if sign > 0 else "number.minus", a=text, b=self.number(term))
            return text
        found = self.play_number(node)  # cards in play (phrasing_play.py)
        return found if found is not None else self.fill("number." + _construct(node))

    def stmt_PlaceMarker(self, node: M.PlaceMarker) -> str:
        what = "statement.move_marker" if isinstance(node.node, N.Move) else "statement.place_marker"
        return self.fill(what, dest=self.locations(node.places, "one"), **self.marker_name(node.marker),
                         **self.subject())

    def stmt_RemoveMarker(self, node: M.RemoveMarker) -> str:
        return self.fill("statement.remove_marker", **self.marker_name(node.marker), **self.subject())

    def when(self, condition) -> str:
        """The opening of an "if": a counter's own words where the catalog has them ("from
        round 2"), else "if ..."."""
        number = condition.number if isinstance(condition, M.NumberTest) else None
        if isinstance(number, M.CounterValue) and number.side is None and condition.test is not None:
            counter = snake(self.schema.counters[number.counter].name)
            if self.has("when." + counter):
                return self.fill("when." + counter, op=condition.test.op, n=condition.test.n)
        return self.fill("when.if", condition=self.condition(condition))

    def stmt_If(self, node: M.If) -> str:
        when, then = self.when(node.condition), self.clauses(node.then)
        if node.otherwise is None:
            return self.fill("statement.if", when=when, then=then)
        return self.fill("statement.if_otherwise", when=when, then=then, otherwise=self.clauses(node.otherwise))

    def stmt_Either(self, node: M.Either) -> str:
        options = [self.fill("statement.either_option", n=i + 1, text=self.clauses(o))
                   for i, o in enumerate(node.options)]
        return self.fill("statement.either", options=self.fill("statement.either_separator").join(options),
                         **self.subject())

    def compound(self, node):
        """A statement with a body, as (its template, the template's parameters, the phrasing of
        the body, the body); None for any other.  The template has ``{body}``: the statements of
        the body in one sentence, or (an outline) on lines of their own below its opening."""
        if isinstance(node, M.ForEachPlayer):
            inner = self.acting("they")
            if node.who is None:  # the whole block is one sentence, so where it ends is plain
                return "statement.for_each_player", {}, inner, node.body
            return "statement.for_each_player_if", {"condition": inner.condition(node.who)}, inner, node.body
        if isinstance(node, M.Step):
            return "statement.step", self.step_name(node.name), self, node.body
        if isinstance(node, M.ForEachCounter):
            inner = self.acting(self.actor, self.register)
            inner.loop = ("counter", node.counter)
            params = dict(self.counter_name(node.counter), to=self.schema.counters[node.counter].high)
            return "statement.for_each_counter", params, inner, node.body
        if isinstance(node, M.Repeat):
            inner = self.acting(self.actor, self.register)
            inner.loop = ("repeat",)
            condition = self.acting(self.actor, self.register, "where").condition(node.condition)
            return "statement.repeat", {"condition": condition}, inner, node.body
        if isinstance(node, M.Alternate):
            params = dict(self.register_name(node.first), n=node.n, **self.counter_name(node.counter))
            return "statement.alternate", params, self, node.body
        if isinstance(node, M.ForEachPlace):
            action = self.fill("as." + snake(node.action)) if node.action else ""
            params = dict(places=self.spaces(node.places, "each"), action=action, **self.chooser(node.chooser))
            return "statement.for_each_place", params, self, node.body
        if isinstance(node, M.Acting) and self.compound(node.statement) is not None:
            return self.acting_phrasing(node).compound(node.statement)
        return self.play_compound(node)

    def chooser(self, chooser: str) -> dict:
        """Who chooses an order ("you", "opponent", an overlay's role or a register), as ``who``
        and ``player`` of a condition."""
        roles = tuple(self.declarations.roles)
        if chooser in ("you", "opponent"):
            who = _WHO.get(self.actor, _THEY).get(chooser, chooser)
        elif chooser in roles[:2]:
            who = ("solo", "human")[roles.index(chooser)]
        else:
            registers = list(self.schema.registers)
            index = registers.index(chooser) if chooser in registers else 0
            return {"who": "register", "player": self.fill("player.register", **self.register_name(index))}
        return {"who": who, "player": self.fill("player." + who)}

    def acting_phrasing(self, node: M.Acting) -> "Phrasing":
        if node.actor == "role":  # an overlay's roles: the side the game plays, the person's
            return self.acting(("solo", "human")[node.register] if node.register < 2 else "role")
        if node.actor == "register":
            return self.acting("register", node.register)
        return self.acting(node.actor)  # "opponent", "each", "first"

    def stmt_Acting(self, node: M.Acting) -> str:
        return self.acting_phrasing(node).clause(node.statement)

    def stmt_FirstOf(self, node: M.FirstOf) -> str:
        options = [self.fill("statement.first_of_option", n=i + 1, text=self.clauses(o)) if self.labels is None
                   else self.fill("statement.first_of_labelled", label=self.labels(i + 1), text=self.clauses(o))
                   for i, o in enumerate(node.options)]
        return self.fill("statement.first_of", options=self.fill("statement.either_separator").join(options),
                         **self.subject())

    def stmt_Goal(self, node: M.Goal) -> str:
        return self.fill("statement.goal", change=self.change(node.change), body=self.clauses(node.steps))

    def stmt_CarryOut(self, node: M.CarryOut) -> str:
        if node.card is not None:  # "carry out the event of the card": by the rule field's name
            return self.fill("statement.use_" + self.card_field(node.field, "rule"), card=self.card(node.card),
                             **self.subject())
        if node.bind is not None:  # "carry out the final crisis matching for your final crisis card"
            return self.fill("statement.carry_out_for", card=self.card(node.bind),
                             **self.procedure_name(node.procedure), **self.subject())
        return self.fill("statement.carry_out", **self.procedure_name(node.procedure), **self.subject())

    def stmt_Score(self, node: M.Score) -> str:
        return self.fill("statement.score", **self.procedure_name(node.procedure), **self.counter_name(node.counter),
                         **self.subject())

    def stmt_Win(self, node: M.Win) -> str:
        if node.counter < 0:  # a sudden-death win
            return self.fill("statement.win", **self.subject())
        ties = self.procedure_name(node.ties)["procedure"] if node.ties >= 0 else ""
        return self.fill("statement.win_most", ties=ties, tied="yes" if ties else "no",
                         **self.counter_name(node.counter))

    def stmt_Stop(self, node: M.Stop) -> str:
        if self.loop is not None and self.loop[0] == "counter":  # "this is the last round"
            return self.fill("statement.stop_counter", **self.counter_name(self.loop[1]))
        return self.fill("statement.stop")

    def stmt_Forget(self, node: M.Forget) -> str:
        return self.fill("statement.forget", **self.subject())

    def stmt_Shuffle(self, node: M.Shuffle) -> str:
        if node.into is None:
            return self.fill("statement.shuffle", pile=self.pile(node.pile), **self.subject())
        return self.fill("statement.shuffle_into", pile=self.pile(node.pile), into=self.pile(node.into),
                         **self.subject())

    def stmt_Put(self, node: M.Put) -> str:
        return self.fill("statement.put", source=self.pile(node.source), dest=self.pile(node.dest), **self.subject())

    def stmt_Order(self, node: M.Order) -> str:
        return self.fill("statement.order", source=self.pile(node.source), dest=self.pile(node.dest),
                         **self.subject())

    def stmt_Keep(self, node: M.Keep) -> str:
        """"keep 1 objective of your objective offer as your objective"; ``assign`` an open choice."""
        text = self.fill("statement." + snake(node.verb), n=node.n, cards=self.pile_noun(node.source, node.n),
                         source=self.pile(node.source), dest=self.pile(node.dest), **self.subject())
        return text + self.fill("selection.random") if node.random else text

    def stmt_Play(self, node: M.Play) -> str:
        return self.fill("statement.play", card=self.pile_noun(node.source, 1), source=self.pile(node.source),
                         **self.subject())

    def stmt_Reveal(self, node: M.Reveal) -> str:
        piles = self.join([self.pile(p) for p in node.piles])
        return self.fill("statement.reveal_current" if node.current else "statement.reveal_cards", piles=piles,
                         **self.subject())

    def card_field(self, field: int, type_name: str) -> str:
        """The name of a field of cards of that type, by its index, as it appears in a key."""
        for kind in self.schema.card_kinds:
            if field < len(kind.fields) and kind.fields[field][1] == type_name:
                return snake(kind.fields[field][0])
        return type_name

    def stmt_Discard(self, node: M.Discard) -> str:
        return self.fill("statement.discard", card=self.card(node.card), **self.subject())

    def stmt_Resolve(self, node: M.Resolve) -> str:
        entered = self.schema.tracks[node.track].entered_words
        return self.fill("statement.resolve_" + snake(entered[0] if entered else "entered"), **self.subject())

    def stmt_Draw(self, node: M.Draw) -> str:
        """Drawing into a pile: "draw 4 cards from the strategy deck into your hand", "... until
        you have 3"; where the catalog has words for drawing into that pile, those ("reveal the
        top card of the deck" for a pile of one revealed card)."""
        key = "statement.draw_into." + snake(self.schema.piles[node.dest.pile].name)
        if self.has(key):
            return self.fill(key, n=node.n, **self.subject())
        source, dest = self.pile(node.source), self.pile(node.dest)
        if node.n < 0:
            return self.fill("statement.draw_until", n=node.until, cards=self.pile_noun(node.source, 2),
                             source=source, dest=dest, **self.subject())
        return self.fill("statement.draw", n=node.n, cards=self.pile_noun(node.source, node.n), source=source,
                         dest=dest, **self.subject())

    def change(self, node: M.Change, verb: str = "") -> str:
        """A change of control: "you gain control of this dimension" (``verb``: the "would" form)."""
        if node.target_kind == "places":  # "a space of this dimension"
            shown = self.fill("target.a_space_of", **{self.group_word(): self.target(node.target)})
        else:
            shown = self.target(node.target)
        kind = "gain" if node.gain else "lose"
        return self.fill("change." + (verb or kind), target=shown, **self.party(node.side))

    # ------------------------------------------------------------- places
    def locations(self, places, form: str = "many") -> str:
        items = places.items if isinstance(places, M.Union_) else (places,)
        return self.join([self.holder(i) if isinstance(i, M.Holder) else self.spaces(i, form) for i in items])

    def join(self, parts: List[str]) -> str:
        if len(parts) == 1:
            return parts[0]
        text = parts[0]
        for part in parts[1:-1]:
            text = self.fill("list.more", a=text, b=part)
        return self.fill("list.two", a=text, b=parts[-1])

    def holder(self, node: M.Holder) -> str:
        possessive = node.possessive if node.possessive in _POSSESSIVES else "their"
        if possessive == "their" and (self.owner_kind == "own" or (self.owner_kind == "opponent"
                                                                  and self.actor != "you")):
            # the tokens' owner's holder; "their pool" after "opponent tokens" already reads right
            possessive = self.owner_kind
        whose = self.whose(possessive)
        if node.kind in ("supply", "removed"):  # where a rule says nothing: no words of their own yet
            return self.fill("holder." + node.kind, whose=whose)
        if node.kind == "holder":
            return self.fill("holder." + snake(self.schema.tokens.holders[node.index].name), whose=whose)
        track = snake(self.schema.tracks[node.index].name)
        if node.kind == "above":
            return self.fill("holder.{}_above".format(track), whose=whose, **self.zone_name(node.index, node.zone))
        if node.kind == "track":
            return self.fill("holder." + track, whose=whose)
        return self.fill("holder.box", whose=whose, **self.zone_name(node.index, node.zone))

    def base(self, node, form: str) -> str:
        """Places before a filter: named, a group's, an attribute's, every place, the place a
        rule runs for, a card's place."""
        if isinstance(node, M.Fixed):
            if node.kind == "named":
                return self.fill("spaces.named", **self.place_name(node.places[0], self.place_word()))
            if node.kind == "group":
                return self.fill("spaces." + snake(self.group_word()), form=form,
                                 **self.group_name(node.index, self.group_word()))
            if node.kind == "attribute":
                return self.fill("spaces." + snake(list(self.schema.map.attributes)[node.index]), form=form)
            return self.fill("spaces.all", form=form)
        if isinstance(node, M.ContextGroupPlaces):
            return self.fill("spaces.{}_{}".format(node.kind, snake(self.group_word())), form=form)
        if isinstance(node, M.ContextPlace):
            return self.fill("spaces." + {"this": "this_" + snake(self.place_word()), "it": "it",
                                         "that": "that_" + snake(self.place_word())}[node.kind])
        if isinstance(node, M.CardPlaces):
            cards = node.cards
            if cards.revealed or not cards.piles:
                return self.fill("spaces.revealed", form=form)
            pile = cards.piles[0]
            return self.fill("spaces." + snake(self.schema.piles[pile.pile].name),
                             whose=self.whose(self.possessive_of(pile.side or M.ME)))
        found = self.play_places(node, form)  # where cards in play stand, the line's places (phrasing_play.py)
        return found if found is not None else ""

    def spaces(self, node, form: str = "many") -> str:
        if isinstance(node, M.Related):
            text = self.base(node.places, form)
            who = self.relative(node.who)
            if self.actor in _OTHER:
                who = _WHO[self.actor].get(who, who)
            elif self.actor not in ("you", "opponent") and who in ("you", "opponent"):
                who = _THEY[who]  # "each pivotal space they control" inside "for each player"
            key = {"you": "you_control", "they": "they_control"}.get(who, who + "_controls")
            return self.fill("spaces." + key, spaces=text)
        if isinstance(node, M.Filtered):
            inner = Phrasing(self.c, self.schema, self.declarations, self.actor, "where")
            return self.fill("spaces.where", spaces=self.base(node.places, form),
                             condition=inner.condition(node.test))
        if isinstance(node, M.Most):
            return self.fill("spaces." + ("most" if node.most else "fewest"), spaces=self.base(node.places, form),
                             tokens=self.token_owner(node.owner, plural=True))
        if isinstance(node, M.WithTerm):
            return self.fill("spaces.with_term", spaces=self.base(node.places, form), term=self.term_name(node.term))
        return self.base(node, form)

    def token_owner(self, owner: M.Owners, plural: bool = False) -> str:
        """Whose token, for a hypothetical step or a count ("a token", "an opponent token")."""
        kind = owner.kind if owner.kind == "side" else self.whose(owner.kind)
        params = self.side_name(owner.side) if owner.kind == "side" else {}
        return self.fill("token." + kind, n=2 if plural else 1, **params)

    def countable(self, node) -> str:
        """What a "for each" counts: groups a side holds, or places."""
        if isinstance(node, M.Count) and node.kind == "groups":
            suffix = "_" + self.relative(node.who) if node.who is not None else ""
            return self.fill("per." + snake(self.group_word(True)) + suffix)
        if isinstance(node, M.Count):
            return self.spaces(node.what, form="each")
        return ""

    # ---------------------------------------------------------- conditions
    def condition(self, node) -> str:
        """A condition as a clause; one with no phrasing yet shows its template's key."""
        method = getattr(self, "cond_" + type(node).__name__, None)
        if method is None:
            return self.fill("condition." + _construct(node))
        return method(node)

    def party(self, side: M.Side) -> dict:
        """A player in a condition: ``who`` selects the verb form, ``player`` names them."""
        if side.kind == "side":
            return {"who": "side", "mood": self.mood,
                    "player": self.fill("player.side", **self.side_name(side.index))}
        if side.kind == "register":  # "the leader"
            return {"who": "register", "mood": self.mood,
                    "player": self.fill("player.register", **self.register_name(side.index))}
        who = _WHO.get(self.actor, {}).get(self.relative(side), self.relative(side))
        return {"who": who, "player": self.fill("player." + who), "mood": self.mood}

    def other(self, side: M.Side) -> str:
        return self.party(side)["player"]

    def target(self, target) -> str:
        """What is controlled: a place, a group, the place or group a rule runs for."""
        if isinstance(target, M.Fixed) and target.kind == "group":
            return self.fill("target." + snake(self.group_word(True)), **self.group_name(target.index, "name"))
        if isinstance(target, M.Fixed):
            return self.fill("target." + snake(self.place_word(True)), **self.place_name(target.places[0], "name"))
        if isinstance(target, M.GroupRef) and target.kind == "named":
            return self.fill("target." + snake(self.group_word(True)), **self.group_name(target.index, "name"))
        if isinstance(target, (M.GroupRef, M.ContextGroupPlaces)):
            return self.fill("target.{}_{}".format(target.kind, snake(self.group_word())))
        if isinstance(target, M.CardPlaces):
            return self.base(target, "one")
        if isinstance(target, M.ContextPlace):
            return self.fill("target." + {"this": "this_" + snake(self.place_word()), "it": "it",
                                         "that": "that_" + snake(self.place_word())}[target.kind])
        return ""

    def where(self, where) -> str:
        if isinstance(where, M.ContextPlace) and where.kind == "it":
            return self.fill("target.it")
        if isinstance(where, M.Holder):
            return self.holder(where)
        return self.locations(where)

    def compared(self, comparison: M.Comparison) -> dict:
        """The comparison in words, and ``cmp`` (its operator, or "none" for "no") for templates
        that phrase "no tokens" their own way ("no tienes fichas")."""
        none = comparison.op == "==" and comparison.n == 0
        text = self.fill("comparison.none") if none else self.fill("comparison." + comparison.op, n=comparison.n)
        return {"comparison": text, "cmp": "none" if none else comparison.op, "n": comparison.n}

    def chain(self, node, what: str) -> str:
        # an "or" inside an "and" keeps its grouping: "A and (B or C)"
        parts = [self.fill("condition.group", condition=self.condition(i))
                 if isinstance(node, M.AllOf) and isinstance(i, M.AnyOf) else self.condition(i) for i in node.items]
        text = parts[0]
        for part in parts[1:]:
            text = self.fill(what, a=text, b=part)
        return text

    def cond_AnyOf(self, node):
        return self.chain(node, "condition.any_of")

    def cond_AllOf(self, node):
        return self.chain(node, "condition.all_of")

    def cond_Not(self, node):
        return self.fill("condition.not", condition=self.condition(node.item), mood=self.mood)

    def cond_Controls(self, node: M.Controls):
        if node.nobody:
            return self.fill("condition.nobody_controls", target=self.target(node.target), mood=self.mood)
        return self.fill("condition.controls", target=self.target(node.target), **self.party(node.side))

    def counted_at(self, where) -> dict:
        """Where tokens are counted; ``at`` is "it" for the place a "where" clause tests."""
        it = isinstance(where, M.ContextPlace) and where.kind == "it"
        return {"where": self.where(where), "at": "it" if it else "place"}

    @staticmethod
    def about_holder(node: M.Meaning) -> bool:
        """"your pool has ...": the condition's subject is the holder, not the player."""
        return isinstance(node.where, M.Holder) and isinstance(getattr(node.node, "subject", None), N.Phrase)

    def cond_TokensIn(self, node: M.TokensIn):
        if self.about_holder(node):
            holder = snake(self.schema.tokens.holders[node.where.index].name)
            return self.fill("condition.{}_has".format(holder), whose=self.whose(self.possessive_of(node.side)),
                             **self.compared(node.test))
        return self.fill("condition.has_tokens", **self.compared(node.test), **self.counted_at(node.where),
                         **self.party(node.side))

    def cond_TokensMore(self, node: M.TokensMore):
        lead = node.lead
        if self.about_holder(node):
            holder = snake(self.schema.tokens.holders[node.where.index].name)
            return self.fill("condition.{}_lead".format(holder), whose=self.whose(self.possessive_of(node.side)),
                             n=lead.n if lead is not None else 1, other=self.whose(self.possessive_of(node.other)))
        if lead is not None and lead.n == 0 and lead.op == "<=":
            return self.fill("condition.has_no_more_tokens", other=self.other(node.other),
                             **self.counted_at(node.where), **self.party(node.side))
        if lead is not None:
            return self.fill("condition.has_lead", other=self.other(node.other), op=lead.op, n=lead.n,
                             **self.counted_at(node.where), **self.party(node.side))
        return self.fill("condition.has_more_tokens", other=self.other(node.other), **self.counted_at(node.where),
                         **self.party(node.side))

    def cond_NumberTest(self, node: M.NumberTest):
        found = self.play_count_test(node)  # cards in play, cards of a pile by their noun (phrasing_play.py)
        if found is not None:
            return found
        number = node.number
        if isinstance(number, M.CounterValue) and node.test is not None:
            counter = snake(self.schema.counters[number.counter].name)
            if number.side is not None:  # "you have at least 3 VP"
                key = "condition.has_" + counter
                if self.has(key):
                    return self.fill(key, **self.compared(node.test), **self.party(number.side))
                return self.fill("condition.has_counter", **self.compared(node.test), **self.party(number.side),
                                 **self.counter_name(number.counter))
            key = "condition.{}_is".format(counter)
            if self.has(key):  # "it is round 2 or later"
                return self.fill(key, op=node.test.op, n=node.test.n)
        if isinstance(number, M.CardField):  # "the value of the revealed card is at most 2"
            field = "condition.card_" + self.card_field(number.field, "number")
            if node.other is None:
                return self.fill(field, card=self.card(number.card), **self.compared(node.test))
            return self.fill(field + "_vs", card=self.card(number.card), op=node.op,
                             other=self.number_card(node.other))
        if isinstance(number, M.GroupRef) and number.kind == "card" and isinstance(node.other, M.GroupRef):
            # "the final crisis of your card is the same as the final crisis of the opponent's card"
            return self.fill("condition.card_{}_vs".format(self.card_field(number.field, "group")),
                             card=self.card(number.card), op=node.op, other=self.card(node.other.card), mood=self.mood)
        if isinstance(number, M.Count) and number.kind == "cards" and isinstance(_one_pile(number.what), M.PileRef):
            return self.cards_test(node, _one_pile(number.what))
        if node.test is not None:
            return self.fill("condition.number_is", number=self.number(number), **self.compared(node.test),
                             mood=self.mood)
        return self.fill("condition.number_vs", number=self.number(number), op=node.op,
                         other=self.number(node.other), mood=self.mood)

    def cards_test(self, node: M.NumberTest, pile: M.PileRef) -> str:  # pile: a Count's pile (_one_pile)
        """How many cards a pile holds: "you have at least 1 objective in your objective offer" (the
        pile's side is the subject), "there are 2 cards in the discard pile"."""
        cards = self.pile_noun(pile, node.test.n if node.test is not None else 2)
        owner = pile.side if pile.side is not None and not pile.each else None
        if node.test is not None:
            if owner is None:
                return self.fill("condition.cards_in", pile=self.pile(pile), cards=self.pile_noun(pile, 2),
                                 mood=self.mood, **self.compared(node.test))
            return self.fill("condition.has_cards", pile=self.pile(pile), cards=cards, **self.compared(node.test),
                             **self.party(owner))
        other = self.number(node.other)
        if owner is None or node.op != ">":
            return self.fill("condition.number_vs", number=self.number(node.number), op=node.op, other=other,
                             mood=self.mood)
        return self.fill("condition.has_more_cards", pile=self.pile(pile), cards=cards, other=other,
                         **self.party(owner))

    def cond_EachSide(self, node: M.EachSide):
        """"each player has ...": the condition with every player as its subject at once."""
        return self.acting("all").condition(node.item)

    def cond_PlayedBy(self, node: M.PlayedBy):
        return self.fill("condition.played_by", card=self.card(node.card), **self.party(node.side))

    def cond_Named(self, node: M.Named):
        """A named condition of the content, by its name ("the Final Crisis condition is met")."""
        return self.fill("condition.holds", mood=self.mood, **self.procedure_name(node.procedure))

    def cond_Term(self, node: M.Term):
        return self.fill("condition.term", term=self.term_name(node.term), mood=self.mood)

    def cond_AllInOneGroup(self, node: M.AllInOneGroup):
        """"the drawn objectives are all in one dimension" (their places, by the group's word)."""
        also = self.cards(node.also) if node.also is not None else ""
        return self.fill("condition.all_in_one_" + snake(self.group_word()), cards=self.cards(node.cards),
                         also=also, more="yes" if also else "no", mood=self.mood)

    def cond_CounterMore(self, node: M.CounterMore):
        counter = snake(self.schema.counters[node.counter].name)
        return self.fill("condition.has_{}_{}".format("fewer" if node.fewer else "more", counter),
                         other=self.other(node.other), **self.party(node.side))

    def cond_IsFirstPlayer(self, node: M.IsFirstPlayer):
        return self.fill("condition.is_first_player", **self.party(node.side))

    def cond_IsSide(self, node: M.IsSide):
        return self.fill("condition.is_side", **self.side_name(node.named), **self.party(node.side))

    def cond_IsRole(self, node: M.IsRole):
        key = "condition.is_" + snake(node.role)
        negated = "yes" if node.negated else "no"
        if self.has(key):
            return self.fill(key, negated=negated, **self.party(node.side))
        role = self.c.raw("registers." + node.role) or self.c.raw("roles." + node.role) or node.role
        return self.fill("condition.is_role", role=role, negated=negated, **self.party(node.side))

    def cond_HasAttribute(self, node: M.HasAttribute):
        return self.fill("condition.is_" + snake(node.attribute), target=self.target(node.place))

    def cond_ZoneEntered(self, node: M.ZoneEntered):
        zone = node.zone
        entered = self.schema.tracks[zone.track].entered_words
        return self.fill("condition.zone_" + snake(entered[0] if entered else "entered"),
                         whose=self.whose(self.possessive_of(zone.side)), **self.zone_name(zone.track, zone.zone))

    def cond_ControlsCount(self, node: M.ControlsCount):
        if node.within is not None:
            return self.fill("condition.controls_count_of", **{self.group_word(): self.target(node.within)},
                             **self.compared(node.test), **self.party(node.side))
        return self.fill("condition.controls_count", **self.compared(node.test), **self.party(node.side))

    def cond_ControlsMore(self, node: M.ControlsMore):
        return self.fill("condition.controls_more", other=self.other(node.other), **self.party(node.side))

    def cond_MarkerAt(self, node: M.MarkerAt):
        place = "off" if node.off else "map" if node.where is None else "at"
        where = self.locations(node.where, "one") if node.where is not None else ""
        return self.fill("condition.marker_at", place=place, where=where, mood=self.mood,
                         **self.marker_name(node.marker))

    def cond_Would(self, node: M.Would):
        change = self.change(node.change, verb="would_" + ("gain" if node.change.gain else "lose"))
        return self.fill("condition.would", verb=node.verb, token=self.token_owner(node.owners),
                         negated="yes" if node.negated else "no", change=change)

    def cond_CardIs(self, node: M.CardIs):
        return self.fill("condition.card_is", card=self.card(node.card), term=self.term_name(node.term))

    def cond_CardFor(self, node: M.CardFor):
        return self.fill("condition.card_for", card=self.card(node.card), only="yes" if node.only else "no",
                         **self.party(node.side))

    def cond_CardWould(self, node: M.CardWould):
        return self.fill("condition.card_would", card=self.card(node.card))


def _one_pile(what):
    """What a count of cards counts, as a pile where it is the cards of one pile ("the number of
    cards of your hand" counts the hand as "the number of cards in your hand" does)."""
    if isinstance(what, M.Cards) and len(what.piles) == 1 and not what.revealed and what.type is None:
        return what.piles[0]
    return what
