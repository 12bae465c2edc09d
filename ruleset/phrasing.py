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
from typing import Callable, List, Optional

from . import meaning as M
from . import nodes as N


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


def snake(name: str) -> str:
    """A schema name as it appears in a template's key: "discard pile" -> "discard_pile"."""
    return name.lower().replace(" ", "_").replace("-", "_")


def _construct(node) -> str:
    """A meaning's construct as a template's key: ForEachPlace -> "for_each_place"."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type(node).__name__).lower()


# Who carries out the statement being rendered, as the reader sees it: "you"
# (the rule's player, addressed in the imperative), "opponent", "each" (each
# player) or "they" (each player, inside "for each player").  A statement
# handed to someone else is one sentence with that subject.  In an overlay
# played by the game (the solo game), the rules of the side it plays are shown
# to the person: "solo" (its first role) acts, and its opponent is "human".
ACTORS = ("you", "opponent", "each", "they", "solo", "human")

# A possessive in the rule ("your pool") is relative to the acting player
_WHOSE = {
    "you": {"own": "own", "opponent": "opponent", "their": "their"},
    "opponent": {"own": "their", "opponent": "own", "their": "their"},
    "each": {"own": "their", "opponent": "their_opponent", "their": "their"},
    "they": {"own": "their", "opponent": "their_opponent", "their": "their"},
    "solo": {"own": "solo", "opponent": "human", "their": "their"},
    "human": {"own": "human", "opponent": "solo", "their": "their"},
}
# and so is a player in a condition ("you have ...")
_WHO = {
    "you": {"you": "you", "opponent": "opponent"},
    "opponent": {"you": "opponent", "opponent": "you"},
    "each": {"you": "they", "opponent": "their_opponent"},
    "they": {"you": "they", "opponent": "their_opponent"},
    "solo": {"you": "solo", "opponent": "human"},
    "human": {"you": "human", "opponent": "solo"},
}
_OTHER = {"solo": "human", "human": "solo"}
# a side relative to the acting player, as the templates' {who} names it
_RELATIVE = {"me": "you", "opponent": "opponent", "nobody": "nobody"}
_POSSESSIVES = ("own", "their", "opponent")


class Phrasing:
    labels: Optional[Callable[[int], str]] = None  # line n of a priority list -> its name

    def __init__(self, catalog, schema, declarations, actor: str = "you", mood: str = "plain"):
        self.c = catalog
        self.schema = schema
        self.declarations = declarations
        self.actor = actor
        self.mood = mood  # "where" inside a "where" clause (Spanish puts its verbs in the subjunctive there)
        self.owner_kind = "own"  # whose tokens the statement being rendered moves

    # ------------------------------------------------------------ the catalog
    def fill(self, what: str, **params) -> str:
        """The template ``render.<what>`` filled in."""
        return self.c.text("render." + what, **params)

    def has(self, what: str) -> bool:
        """Whether the catalog (or the one it falls back on) has the template."""
        return self.c.raw("render." + what) is not None

    def name_forms(self, kind: str, name: str, param: str) -> dict:
        """A name in the catalog's language, with its gender and plural for agreement."""
        shown = self.c.name(kind, name)
        return {param: shown, param + "_g": self.c.form(kind, name, "gender"),
                param + "_pl": self.c.form(kind, name, "plural", shown)}

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

    def side_name(self, index: int) -> dict:
        return self.name_forms("sides", self.schema.sides[index], "side")

    def marker_name(self, index: int) -> dict:
        return self.name_forms("markers", self.schema.markers[index].name, "marker")

    def term_name(self, index: int) -> str:
        return self.c.name("terms", list(self.declarations.terms)[index])

    # ------------------------------------------------------------ who acts
    def acting(self, actor: str) -> "Phrasing":
        if actor == "opponent" and self.actor in _OTHER:
            actor = _OTHER[self.actor]
        other = Phrasing(self.c, self.schema, self.declarations, actor, self.mood)
        other.labels = self.labels
        return other

    def subject(self) -> dict:
        """The subject of a statement: ``who`` selects the verb form, ``subject`` names the actor."""
        return {"who": self.actor, "subject": self.fill("subject." + self.actor)}

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
        method = getattr(self, "st_" + type(node).__name__, None)
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
        if ref.pile is not None and ref.kind in ("top", "pile", "current"):
            return self.fill("card.{}.{}".format(ref.kind, snake(self.schema.piles[ref.pile.pile].name)))
        return self.fill("card." + ref.kind)

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

    def st_Transfer(self, node: M.Transfer) -> str:
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

    def st_ChangeCounter(self, node: M.ChangeCounter) -> str:
        if not isinstance(node.node, N.Gain):  # "add 1 to the round": no phrasing yet
            return self.fill("statement.add", **self.subject())
        verb = "gain" if node.sign > 0 else "lose"
        n = node.amount.value if isinstance(node.amount, M.Literal) else 0
        if node.per is None:
            return self.fill("statement." + verb, n=n, **self.subject())
        return self.fill("statement.{}_per".format(verb), n=n, per=self.countable(node.per), **self.subject())

    def st_PlaceMarker(self, node: M.PlaceMarker) -> str:
        what = "statement.move_marker" if isinstance(node.node, N.Move) else "statement.place_marker"
        return self.fill(what, dest=self.locations(node.places, "one"), **self.marker_name(node.marker),
                         **self.subject())

    def st_RemoveMarker(self, node: M.RemoveMarker) -> str:
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

    def st_If(self, node: M.If) -> str:
        when, then = self.when(node.condition), self.clauses(node.then)
        if node.otherwise is None:
            return self.fill("statement.if", when=when, then=then)
        return self.fill("statement.if_otherwise", when=when, then=then, otherwise=self.clauses(node.otherwise))

    def st_Either(self, node: M.Either) -> str:
        options = [self.fill("statement.either_option", n=i + 1, text=self.clauses(o))
                   for i, o in enumerate(node.options)]
        return self.fill("statement.either", options=self.fill("statement.either_separator").join(options),
                         **self.subject())

    def st_ForEachPlayer(self, node: M.ForEachPlayer) -> str:
        # the whole block is one sentence, so where it ends is plain
        return self.fill("statement.for_each_player", body=self.acting("they").clauses(node.body))

    def st_Acting(self, node: M.Acting) -> str:
        if node.actor == "role":  # an overlay's roles: the side the game plays, the person's
            actor = ("solo", "human")[node.register] if node.register < 2 else "role"
        else:
            actor = node.actor  # "opponent", "each"; "first" and a register have no words yet
        return self.acting(actor).clause(node.statement)

    def st_FirstOf(self, node: M.FirstOf) -> str:
        options = [self.fill("statement.first_of_option", n=i + 1, text=self.clauses(o)) if self.labels is None
                   else self.fill("statement.first_of_labelled", label=self.labels(i + 1), text=self.clauses(o))
                   for i, o in enumerate(node.options)]
        return self.fill("statement.first_of", options=self.fill("statement.either_separator").join(options),
                         **self.subject())

    def st_Goal(self, node: M.Goal) -> str:
        return self.fill("statement.goal", change=self.change(node.change), body=self.clauses(node.steps))

    def st_CarryOut(self, node: M.CarryOut) -> str:
        if node.card is not None:  # "carry out the event of the card": by the rule field's name
            return self.fill("statement.use_" + self.card_field(node.field, "rule"), card=self.card(node.card),
                             **self.subject())
        return self.fill("statement.carry_out", **self.subject())

    def card_field(self, field: int, type_name: str) -> str:
        """The name of a field of cards of that type, by its index, as it appears in a key."""
        for kind in self.schema.card_kinds:
            if field < len(kind.fields) and kind.fields[field][1] == type_name:
                return snake(kind.fields[field][0])
        return type_name

    def st_Discard(self, node: M.Discard) -> str:
        return self.fill("statement.discard", card=self.card(node.card), **self.subject())

    def st_Resolve(self, node: M.Resolve) -> str:
        entered = self.schema.tracks[node.track].entered_words
        return self.fill("statement.resolve_" + snake(entered[0] if entered else "entered"), **self.subject())

    def st_Draw(self, node: M.Draw) -> str:
        """Drawing into a pile: the catalog's words for drawing into that pile ("reveal the top
        card of the deck" for a pile of one revealed card)."""
        return self.fill("statement.draw_into." + snake(self.schema.piles[node.dest.pile].name), n=node.n,
                         **self.subject())

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
        return ""

    def spaces(self, node, form: str = "many") -> str:
        if isinstance(node, M.Related):
            text = self.base(node.places, form)
            who = self.relative(node.who)
            if self.actor in _OTHER:
                who = _WHO[self.actor].get(who, who)
            key = "you_control" if who == "you" else who + "_controls"
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
        return self.fill("condition.not", condition=self.condition(node.item))

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
        number = node.number
        if isinstance(number, M.CounterValue) and node.test is not None:
            counter = snake(self.schema.counters[number.counter].name)
            if number.side is not None:  # "you have at least 3 VP"
                return self.fill("condition.has_" + counter, **self.compared(node.test), **self.party(number.side))
            return self.fill("condition.{}_is".format(counter), op=node.test.op, n=node.test.n)
        if isinstance(number, M.CardField):  # "the value of the revealed card is at most 2"
            field = "condition.card_" + self.card_field(number.field, "number")
            if node.other is None:
                return self.fill(field, card=self.card(number.card), **self.compared(node.test))
            return self.fill(field + "_vs", card=self.card(number.card), op=node.op,
                             other=self.number_card(node.other))
        return self.fill("condition.number_is")  # a count of cards, a sum: no phrasing yet

    def cond_CounterMore(self, node: M.CounterMore):
        counter = snake(self.schema.counters[node.counter].name)
        return self.fill("condition.has_{}_{}".format("fewer" if node.fewer else "more", counter),
                         other=self.other(node.other), **self.party(node.side))

    def cond_IsFirstPlayer(self, node: M.IsFirstPlayer):
        return self.fill("condition.is_first_player", **self.party(node.side))

    def cond_IsSide(self, node: M.IsSide):
        return self.fill("condition.is_side", **self.side_name(node.named), **self.party(node.side))

    def cond_IsRole(self, node: M.IsRole):
        return self.fill("condition.is_" + snake(node.role), negated="yes" if node.negated else "no",
                         **self.party(node.side))

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
