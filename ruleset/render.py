"""Rules -> text a player reads, in any language.

A card's rule is the single source of truth: its printed text is rendered
from the AST through phrase templates found in a catalog under ``render.*``
(one template per construct, see locale/<lang>/render.yaml).  The catalog is
anything with ``text(key, **params)`` and ``name(kind, name)``; this module
imports nothing of the game.
"""

from __future__ import annotations

from typing import List

from . import ast as A


def render_block(block: A.Block, catalog, inline: bool = False, actor: str = "you", labels=None) -> str:
    """The text of an effect: one sentence per statement.  ``actor`` "solo" shows a rule
    of the solo opponent as the player reads it ("the Solo Opponent places ...").  ``labels``
    names line n of a priority list where a rulebook names its lines (its letters); without it
    they are numbered."""
    renderer = Renderer(catalog, actor)
    renderer.labels = labels
    sentences = [renderer.statement(s) for s in block.statements]
    return (" " if inline else "\n").join(sentences)


def render_condition(condition, catalog, actor: str = "you") -> str:
    return Renderer(catalog, actor).condition(condition)


def render_locations(locations: A.Locations, catalog, actor: str = "you") -> str:
    """A set of places on its own, as a space-selection row reads ("pivotal spaces the player controls")."""
    return Renderer(catalog, actor).locations(locations)


# Who carries out the statement being rendered, as the reader sees it: "you"
# (the card's player, addressed in the imperative), "opponent" (your
# opponent), "each" (each player) or "they" (each player, inside a "for each
# player" block).  A statement handed to someone else is one sentence with
# that subject, so its actor never leaks into the next sentence.
# In the solo game the rules of the solo opponent are shown to the player:
# "solo" (the solo opponent) acts, and its opponent is "human" (the player).
ACTORS = ("you", "opponent", "each", "they", "solo", "human")

# A possessive in the rule ("your pool") is relative to the acting player;
# rendered for the reader it depends on who acts.
_WHOSE = {
    "you": {"own": "own", "opponent": "opponent", "their": "their"},
    "opponent": {"own": "their", "opponent": "own", "their": "their"},
    "each": {"own": "their", "opponent": "their_opponent", "their": "their"},
    "they": {"own": "their", "opponent": "their_opponent", "their": "their"},
    "solo": {"own": "solo", "opponent": "human", "their": "their"},
    "human": {"own": "human", "opponent": "solo", "their": "their"},
}
# and so does a player in a condition ("you have ...")
_WHO = {
    "you": {"you": "you", "opponent": "opponent"},
    "opponent": {"you": "opponent", "opponent": "you"},
    "each": {"you": "they", "opponent": "their_opponent"},
    "they": {"you": "they", "opponent": "their_opponent"},
    "solo": {"you": "solo", "opponent": "human"},
    "human": {"you": "human", "opponent": "solo"},
}
# the other player, for a rule handed to the acting player's opponent
_OTHER = {"solo": "human", "human": "solo"}


class Renderer:
    labels = None  # line number -> its name, for the lines of a priority list (render_block)

    def __init__(self, catalog, actor: str = "you", mood: str = "plain"):
        self.c = catalog
        self.actor = actor
        self.mood = mood  # "where" inside a "where" clause (Spanish puts its verbs in the subjunctive there)
        self.owner_kind = "own"  # whose tokens the statement being rendered moves

    def t(self, key: str, **params) -> str:
        return self.c.text("render." + key, **params)

    def named(self, kind: str, name: str, param: str) -> dict:
        """A name in the locale, with its gender and plural for agreement."""
        shown = self.c.name(kind, name)
        return {param: shown, f"{param}_g": self.c.form(kind, name, "gender"),
                f"{param}_pl": self.c.form(kind, name, "plural", shown)}

    def acting(self, actor: str) -> "Renderer":
        if actor == "opponent" and self.actor in _OTHER:
            actor = _OTHER[self.actor]
        other = Renderer(self.c, actor, self.mood)
        other.labels = self.labels
        return other

    def doer(self) -> dict:
        """The subject of a statement: ``who`` selects the verb form, ``subject`` names the actor."""
        return {"who": self.actor, "subject": self.t(f"subject.{self.actor}")}

    def whose(self, possessive: str) -> str:
        return _WHOSE[self.actor][possessive]

    def owned(self, owner: A.Owner) -> "Renderer":
        """This renderer, knowing whose tokens the statement moves ("their pool" is their owner's)."""
        self.owner_kind = owner.kind
        return self

    # ------------------------------------------------------------ statements
    def statement(self, node) -> str:
        """One statement as a sentence."""
        return self.sentence(self.clause(node))

    def sentence(self, clause: str) -> str:
        clause = clause.replace("  ", " ")  # a token phrase folded into its amount leaves an empty part
        return self.t("sentence", clause=clause[:1].upper() + clause[1:])

    def clause(self, node) -> str:
        """One statement as a clause (no capital, no full stop), to stand in a sentence."""
        return getattr(self, "st_" + type(node).__name__)(node)

    def clauses(self, block: A.Block) -> str:
        """A block inside one sentence: its statements one after the other."""
        parts = [self.clause(s) for s in block.statements]
        text = parts[0]
        for part in parts[1:]:
            text = self.t("statement.then", a=text, b=part)
        return text

    def _tokens(self, amount: A.Amount, owner: A.Owner, verb: str):
        n = amount.n if amount.kind != "all" else 2
        amount_text = self.t(f"amount.{amount.kind}", n=amount.n or 0)
        params = {"n": n, "actor": self.actor, "verb": verb}
        if owner.kind == "side":
            params.update(self.named("sides", owner.side.text, "side"))
        if amount.card is not None:  # "tokens, up to the value of the revealed card,"
            params["n"] = 2
            tokens = self.t(f"tokens.{owner.kind}", **params)
            return self.t(f"amount.card_{amount.kind}", card=self.card(amount.card), tokens=tokens), ""
        return amount_text, self.t(f"tokens.{owner.kind}", **params)

    def card(self, ref: A.CardRef) -> str:
        return self.t(f"card.{ref.kind}")

    def _selection(self, node) -> str:
        """", at random" or ", your opponent choosing": who makes the statement's choices."""
        if getattr(node, "random", False):
            return self.t("selection.random")
        chooser = getattr(node, "chooser", None)
        if chooser:
            other = _WHO[self.actor].get("opponent", "their_opponent")
            return self.t(f"selection.{chooser}", player=self.t(f"player.{other}"))
        return ""

    def _limit(self, node) -> str:
        if getattr(node, "one_space", False):
            return self.t("limit.one_space") + self._selection(node)
        if node.limit is not None:
            return self.t("limit.per_space", n=node.limit) + self._selection(node)
        return self._selection(node)

    @staticmethod
    def _form(amount: A.Amount) -> str:
        """One token goes to "any space"; several to "any spaces"."""
        return "one" if amount.kind != "all" and amount.n == 1 else "many"

    def st_Place(self, node: A.Place) -> str:
        self.owned(node.owner)
        amount, tokens = self._tokens(node.amount, node.owner, "place")
        form = self._form(node.amount)
        if node.each:
            return self.t("statement.place_each", amount=amount, tokens=tokens,
                          dest=self.locations(node.dest, form="each"), **self.doer())
        if node.source is not None:
            return self.t("statement.place_from", amount=amount, tokens=tokens, source=self.holder(node.source),
                          dest=self.locations(node.dest, form), limit=self._limit(node), **self.doer())
        return self.t("statement.place", amount=amount, tokens=tokens, dest=self.locations(node.dest, form),
                      limit=self._limit(node), **self.doer())

    def st_Remove(self, node: A.Remove) -> str:
        self.owned(node.owner)
        amount, tokens = self._tokens(node.amount, node.owner, "remove")
        if node.each:
            return self.t("statement.remove_each", amount=amount, tokens=tokens,
                          source=self.locations(node.source, form="each"), **self.doer())
        return self.t("statement.remove", amount=amount, tokens=tokens,
                      source=self.locations(node.source, self._form(node.amount)), limit=self._limit(node),
                      **self.doer())

    def st_Move(self, node: A.Move) -> str:
        self.owned(node.owner)
        amount, tokens = self._tokens(node.amount, node.owner, "move")
        if node.within:
            return self.t("statement.move_within", amount=amount, tokens=tokens,
                          source=self.locations(node.source), limit=self._limit(node), **self.doer())
        if node.each:
            return self.t("statement.move_each", amount=amount, tokens=tokens, source=self.locations(node.source),
                          dest=self.locations(node.dest, form="each"), **self.doer())
        form = self._form(node.amount)
        return self.t("statement.move", amount=amount, tokens=tokens, source=self.locations(node.source, form),
                      dest=self.locations(node.dest, form), limit=self._limit(node), **self.doer())

    def st_ChangeVP(self, node: A.ChangeVP) -> str:
        verb = "gain" if node.gain else "lose"
        counter = self.named("counters", "VP", "counter")  # the only counter this front end gains
        if node.per is None:
            return self.t(f"statement.{verb}", n=node.amount, **counter, **self.doer())
        return self.t(f"statement.{verb}_per", n=node.amount, per=self.countable(node.per), **counter, **self.doer())

    def st_PlaceMarker(self, node: A.PlaceMarker) -> str:
        key = "statement.move_marker" if node.verb == "move" else "statement.place_marker"
        return self.t(key, dest=self.locations(node.dest, form="one"),
                      **self.named("markers", node.marker.text, "marker"), **self.doer())

    def st_RemoveMarker(self, node: A.RemoveMarker) -> str:
        return self.t("statement.remove_marker", **self.named("markers", node.marker.text, "marker"), **self.doer())

    def when(self, condition) -> str:
        """The opening of an "if": natural words for a round ("from round 2"), else "if ..."."""
        if isinstance(condition, A.RoundIs):
            return self.t("when.round", op=condition.comparison.op, n=condition.comparison.n)
        return self.t("when.if", condition=self.condition(condition))

    def st_If(self, node: A.If) -> str:
        when, then = self.when(node.condition), self.clauses(node.then)
        if node.otherwise is None:
            return self.t("statement.if", when=when, then=then)
        return self.t("statement.if_otherwise", when=when, then=then, otherwise=self.clauses(node.otherwise))

    def st_Either(self, node: A.Either) -> str:
        options = [self.t("statement.either_option", n=i + 1, text=self.clauses(o))
                   for i, o in enumerate(node.options)]
        return self.t("statement.either", options=self.t("statement.either_separator").join(options),
                      **self.doer())

    def st_ForEachPlayer(self, node: A.ForEachPlayer) -> str:
        # the whole block is one sentence, so where it ends is plain
        return self.t("statement.for_each_player", body=self.acting("they").clauses(node.body))

    def st_Acting(self, node: A.Acting) -> str:
        return self.acting("opponent" if node.actor == "opponent" else "each").clause(node.statement)

    def st_FirstOf(self, node: A.FirstOf) -> str:
        options = [self.t("statement.first_of_option", n=i + 1, text=self.clauses(o)) if self.labels is None
                   else self.t("statement.first_of_labelled", label=self.labels(i + 1), text=self.clauses(o))
                   for i, o in enumerate(node.options)]
        return self.t("statement.first_of", options=self.t("statement.either_separator").join(options),
                      **self.doer())

    def st_Goal(self, node: A.Goal) -> str:
        return self.t("statement.goal", change=self.change(node.change), body=self.clauses(node.body))

    def st_Reveal(self, node: A.Reveal) -> str:
        return self.t("statement.reveal", **self.doer())

    def st_UseEvent(self, node: A.UseEvent) -> str:
        return self.t("statement.use_event", card=self.card(node.card), **self.doer())

    def st_DiscardCard(self, node: A.DiscardCard) -> str:
        return self.t("statement.discard", card=self.card(node.card), **self.doer())

    def st_ResolveBreaches(self, node: A.ResolveBreaches) -> str:
        return self.t("statement.resolve_breaches", **self.doer())

    def change(self, node: A.Change, verb: str = "") -> str:
        """A change of control: "you gain control of this dimension" (``verb``: the "would" form)."""
        target = node.target
        if isinstance(target, A.ASpaceOf):
            shown = self.t("target.a_space_of", dimension=self.target(target.dimension))
        else:
            shown = self.target(target)
        return self.t(f"change.{verb or node.kind}", target=shown, **self.player(node.player))

    # ------------------------------------------------------------- places
    def locations(self, locations: A.Locations, form: str = "many") -> str:
        parts = [self.holder(i) if isinstance(i, A.HOLDER_TYPES) else self.spaces(i, form) for i in locations.items]
        return self.join(parts)

    def join(self, parts: List[str]) -> str:
        if len(parts) == 1:
            return parts[0]
        text = parts[0]
        for part in parts[1:-1]:
            text = self.t("list.more", a=text, b=part)
        return self.t("list.two", a=text, b=parts[-1])

    def holder(self, node) -> str:
        possessive = node.possessive or "their"
        if possessive == "their" and (self.owner_kind == "own" or (self.owner_kind == "opponent"
                                                                  and self.actor != "you")):
            # the tokens' owner's holder; "their pool" after "opponent tokens" already reads right
            possessive = self.owner_kind
        whose = self.whose(possessive)
        if isinstance(node, A.Pool):
            return self.t("holder.pool", whose=whose)
        if isinstance(node, A.CrisisTrack) and node.above is not None:
            return self.t("holder.crisis_track_above", whose=whose, **self.named("zones", node.above.text, "zone"))
        if isinstance(node, A.CrisisTrack):
            return self.t("holder.crisis_track", whose=whose)
        return self.t("holder.box", whose=whose, **self.named("zones", node.zone.text, "zone"))

    def spaces(self, node: A.Spaces, form: str = "many") -> str:
        base = node.base
        if isinstance(base, A.Named):
            text = self.t("spaces.named", **self.named("spaces", base.name.text, "space"))
        elif isinstance(base, A.DimensionSpaces):
            text = self.t("spaces.dimension", form=form, **self.named("dimensions", base.dimension.text, "dimension"))
        elif isinstance(base, A.PivotalSpaces):
            text = self.t("spaces.pivotal", form=form)
        elif isinstance(base, A.AllSpaces):
            text = self.t("spaces.all", form=form)
        elif isinstance(base, A.ThisDimension):
            text = self.t("spaces.this_dimension", form=form)
        elif isinstance(base, A.ThisSpace):
            text = self.t("spaces.this_space")
        elif isinstance(base, A.It):
            text = self.t("spaces.it")
        elif isinstance(base, A.ThatSpace):
            text = self.t("spaces.that_space")
        elif isinstance(base, A.ObjectiveSpace):
            text = self.t("spaces.objective", whose=self.whose(base.possessive))
        else:
            text = self.t("spaces.revealed", form=form)
        filt = node.filter
        if isinstance(filt, A.ControlledBy):
            who = _WHO[self.actor].get(filt.who, filt.who) if self.actor in _OTHER else filt.who
            key = {"you": "you_control", "opponent": "opponent_controls", "nobody": "nobody_controls",
                   "solo": "solo_controls", "human": "human_controls"}[who]
            text = self.t(f"spaces.{key}", spaces=text)
        elif isinstance(filt, A.Where):
            inner = Renderer(self.c, self.actor, "where")
            text = self.t("spaces.where", spaces=text, condition=inner.condition(filt.condition))
        elif isinstance(filt, A.Most):
            text = self.t(f"spaces.{filt.kind}", spaces=text, tokens=self.token_owner(filt.owner, plural=True))
        elif isinstance(filt, A.WithTerm):
            text = self.t("spaces.with_term", spaces=text, term=self.c.name("terms", filt.term.text))
        return text

    def token_owner(self, owner: A.Owner, plural: bool = False) -> str:
        """Whose token, for a hypothetical step or a count ("a token", "an opponent token")."""
        kind = owner.kind if owner.kind == "side" else self.whose({"own": "own"}.get(owner.kind, owner.kind))
        params = self.named("sides", owner.side.text, "side") if owner.kind == "side" else {}
        return self.t(f"token.{kind}", n=2 if plural else 1, **params)

    def countable(self, node) -> str:
        if isinstance(node, A.Dimensions):
            suffix = f"_{node.filter.who}" if node.filter else ""
            return self.t(f"per.dimensions{suffix}")
        if isinstance(node, A.HOLDER_TYPES):
            return self.holder(node)
        return self.spaces(node, form="each")

    # ---------------------------------------------------------- conditions
    def condition(self, node) -> str:
        return getattr(self, "cond_" + type(node).__name__)(node)

    def player(self, player: A.Player) -> dict:
        if player.kind == "side":
            return {"who": "side", "mood": self.mood,
                    "player": self.t("player.side", **self.named("sides", player.side.text, "side"))}
        who = _WHO[self.actor][player.kind]
        return {"who": who, "player": self.t(f"player.{who}"), "mood": self.mood}

    def other(self, player: A.Player) -> str:
        return self.player(player)["player"]

    def target(self, target) -> str:
        if isinstance(target, A.Named):
            name = target.name.text
            kind = "dimensions" if self.c.raw(f"dimensions.{name}") is not None else "spaces"
            return self.t(f"target.{kind}", **self.named(kind, name, "name"))
        if isinstance(target, A.ObjectiveSpace):
            return self.t("spaces.objective", whose=self.whose(target.possessive))
        key = {A.ThisDimension: "this_dimension", A.ThisSpace: "this_space", A.It: "it",
               A.ThatSpace: "that_space", A.ItsDimension: "its_dimension"}[type(target)]
        return self.t(f"target.{key}")

    def where(self, where) -> str:
        if isinstance(where, A.It):
            return self.t("target.it")
        if isinstance(where, A.HOLDER_TYPES):
            return self.holder(where)
        return self.spaces(where)

    def comparison(self, comparison: A.Comparison) -> dict:
        """The comparison in words, and ``cmp`` (its operator, or "none" for "no") for templates
        that phrase "no tokens" their own way ("no tienes fichas")."""
        none = comparison.op == "==" and comparison.n == 0
        text = self.t("comparison.none") if none else self.t(f"comparison.{comparison.op}", n=comparison.n)
        return {"comparison": text, "cmp": "none" if none else comparison.op, "n": comparison.n}

    def _chain(self, node, key: str) -> str:
        # an "or" inside an "and" keeps its grouping: "A and (B or C)"
        parts = [self.t("condition.group", condition=self.condition(i))
                 if isinstance(node, A.AllOf) and isinstance(i, A.AnyOf) else self.condition(i) for i in node.items]
        text = parts[0]
        for part in parts[1:]:
            text = self.t(key, a=text, b=part)
        return text

    def cond_AnyOf(self, node):
        return self._chain(node, "condition.any_of")

    def cond_AllOf(self, node):
        return self._chain(node, "condition.all_of")

    def cond_Not(self, node):
        return self.t("condition.not", condition=self.condition(node.item))

    def cond_Controls(self, node):
        return self.t("condition.controls", target=self.target(node.target), **self.player(node.player))

    def cond_NobodyControls(self, node):
        return self.t("condition.nobody_controls", target=self.target(node.target), mood=self.mood)

    def _at(self, where) -> dict:
        """Where tokens are counted; ``at`` is "it" for the space a "where" clause tests (no need to name it)."""
        return {"where": self.where(where), "at": "it" if isinstance(where, A.It) else "place"}

    def cond_HasTokens(self, node):
        return self.t("condition.has_tokens", **self.comparison(node.comparison), **self._at(node.where),
                      **self.player(node.player))

    def cond_HasMoreTokens(self, node):
        margin = node.margin
        if margin is not None and margin.n == 0 and margin.op == "<=":
            return self.t("condition.has_no_more_tokens", other=self.other(node.other), **self._at(node.where),
                          **self.player(node.player))
        if margin is not None:
            return self.t("condition.has_lead", other=self.other(node.other), op=margin.op, n=margin.n,
                          **self._at(node.where), **self.player(node.player))
        return self.t("condition.has_more_tokens", other=self.other(node.other), **self._at(node.where),
                      **self.player(node.player))

    def cond_HasVP(self, node):
        return self.t("condition.has_vp", **self.comparison(node.comparison), **self.player(node.player))

    def cond_HasMoreVP(self, node):
        return self.t("condition.has_more_vp", other=self.other(node.other), **self.player(node.player))

    def cond_IsFirstPlayer(self, node):
        return self.t("condition.is_first_player", **self.player(node.player))

    def cond_IsSide(self, node):
        return self.t("condition.is_side", **self.named("sides", node.side.text, "side"), **self.player(node.player))

    def cond_RoundIs(self, node):
        return self.t("condition.round_is", op=node.comparison.op, n=node.comparison.n)

    def cond_ZoneBreached(self, node):
        return self.t("condition.zone_breached", whose=self.whose(node.possessive),
                      **self.named("zones", node.zone.text, "zone"))

    def cond_PoolHas(self, node):
        return self.t("condition.pool_has", whose=self.whose(node.possessive), **self.comparison(node.comparison))

    def cond_PoolLead(self, node):
        return self.t("condition.pool_lead", whose=self.whose(node.possessive), n=node.margin,
                      other=self.whose(node.other))

    def cond_IsPivotal(self, node):
        return self.t("condition.is_pivotal", target=self.target(node.target))

    def cond_ControlsCount(self, node):
        if node.scope is not None:
            return self.t("condition.controls_count_of", dimension=self.target(node.scope),
                          **self.comparison(node.comparison), **self.player(node.player))
        return self.t("condition.controls_count", **self.comparison(node.comparison), **self.player(node.player))

    def cond_HasFewerVP(self, node):
        return self.t("condition.has_fewer_vp", other=self.other(node.other), **self.player(node.player))

    def cond_MarkerAt(self, node):
        place = "off" if node.off else "map" if node.where is None else "at"
        where = node.where
        where = (self.spaces(where, form="one") if isinstance(where, A.Spaces)
                 else self.locations(where, form="one") if isinstance(where, A.Locations) else "")
        return self.t("condition.marker_at", place=place, where=where, mood=self.mood,
                      **self.named("markers", node.marker.text, "marker"))

    def cond_ControlsMore(self, node):
        return self.t("condition.controls_more", other=self.other(node.other), **self.player(node.player))

    def cond_Would(self, node):
        change = self.change(node.change, verb=f"would_{node.change.kind}")
        return self.t("condition.would", verb=node.verb, token=self.token_owner(node.owner),
                      negated="yes" if node.negated else "no", change=change)

    def cond_IsSoloOpponent(self, node):
        return self.t("condition.is_solo_opponent", negated="yes" if node.negated else "no",
                      **self.player(node.player))

    def cond_CardIs(self, node):
        return self.t("condition.card_is", card=self.card(node.card), term=self.c.name("terms", node.term.text))

    def cond_CardFor(self, node):
        return self.t("condition.card_for", card=self.card(node.card), only="yes" if node.only else "no",
                      **self.player(node.player))

    def cond_CardValue(self, node):
        if node.other is None:
            return self.t("condition.card_value", card=self.card(node.card), **self.comparison(node.comparison))
        return self.t("condition.card_value_vs", card=self.card(node.card), op=node.op, other=self.card(node.other))

    def cond_CardWould(self, node):
        return self.t("condition.card_would", card=self.card(node.card))
