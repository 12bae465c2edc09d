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


def render_block(block: A.Block, catalog, inline: bool = False) -> str:
    """The text of an effect: one sentence per statement."""
    renderer = Renderer(catalog)
    sentences = [renderer.statement(s) for s in block.statements]
    return (" " if inline else "\n").join(sentences)


def render_condition(condition, catalog) -> str:
    return Renderer(catalog).condition(condition)


class Renderer:
    def __init__(self, catalog):
        self.c = catalog

    def t(self, key: str, **params) -> str:
        return self.c.text("render." + key, **params)

    def named(self, kind: str, name: str, param: str) -> dict:
        """A name in the locale, with its gender and plural for agreement."""
        shown = self.c.name(kind, name)
        return {param: shown, f"{param}_g": self.c.form(kind, name, "gender"),
                f"{param}_pl": self.c.form(kind, name, "plural", shown)}

    # ------------------------------------------------------------ statements
    def statement(self, node) -> str:
        return getattr(self, "st_" + type(node).__name__)(node)

    def _tokens(self, amount: A.Amount, owner: A.Owner):
        n = amount.n if amount.kind != "all" else 2
        amount_text = self.t(f"amount.{amount.kind}", n=amount.n or 0)
        params = {"n": n}
        if owner.kind == "side":
            params.update(self.named("sides", owner.side.text, "side"))
        return amount_text, self.t(f"tokens.{owner.kind}", **params)

    def _limit(self, node) -> str:
        if getattr(node, "one_space", False):
            return self.t("limit.one_space")
        if node.limit is not None:
            return self.t("limit.per_space", n=node.limit)
        return ""

    @staticmethod
    def _form(amount: A.Amount) -> str:
        """One token goes to "any space"; several to "any spaces"."""
        return "one" if amount.kind != "all" and amount.n == 1 else "many"

    def st_Place(self, node: A.Place) -> str:
        amount, tokens = self._tokens(node.amount, node.owner)
        form = self._form(node.amount)
        if node.each:
            return self.t("statement.place_each", amount=amount, tokens=tokens,
                          dest=self.locations(node.dest, form="each"))
        if node.source is not None:
            return self.t("statement.place_from", amount=amount, tokens=tokens, source=self.holder(node.source),
                          dest=self.locations(node.dest, form), limit=self._limit(node))
        return self.t("statement.place", amount=amount, tokens=tokens, dest=self.locations(node.dest, form),
                      limit=self._limit(node))

    def st_Remove(self, node: A.Remove) -> str:
        amount, tokens = self._tokens(node.amount, node.owner)
        if node.each:
            return self.t("statement.remove_each", amount=amount, tokens=tokens,
                          source=self.locations(node.source, form="each"))
        return self.t("statement.remove", amount=amount, tokens=tokens,
                      source=self.locations(node.source, self._form(node.amount)), limit=self._limit(node))

    def st_Move(self, node: A.Move) -> str:
        amount, tokens = self._tokens(node.amount, node.owner)
        if node.within:
            return self.t("statement.move_within", amount=amount, tokens=tokens,
                          source=self.locations(node.source), limit=self._limit(node))
        if node.each:
            return self.t("statement.move_each", amount=amount, tokens=tokens, source=self.locations(node.source),
                          dest=self.locations(node.dest, form="each"))
        form = self._form(node.amount)
        return self.t("statement.move", amount=amount, tokens=tokens, source=self.locations(node.source, form),
                      dest=self.locations(node.dest, form), limit=self._limit(node))

    def st_ChangeVP(self, node: A.ChangeVP) -> str:
        verb = "gain" if node.gain else "lose"
        if node.per is None:
            return self.t(f"statement.{verb}", n=node.amount)
        return self.t(f"statement.{verb}_per", n=node.amount, per=self.countable(node.per))

    def st_PlaceMarker(self, node: A.PlaceMarker) -> str:
        key = "statement.move_marker" if node.verb == "move" else "statement.place_marker"
        return self.t(key, dest=self.locations(node.dest, form="one"),
                      **self.named("markers", node.marker.text, "marker"))

    def st_RemoveMarker(self, node: A.RemoveMarker) -> str:
        return self.t("statement.remove_marker", **self.named("markers", node.marker.text, "marker"))

    def st_If(self, node: A.If) -> str:
        condition = self.condition(node.condition)
        then = render_block(node.then, self.c, inline=True)
        if node.otherwise is None:
            return self.t("statement.if", condition=condition, then=then)
        return self.t("statement.if_otherwise", condition=condition, then=then,
                      otherwise=render_block(node.otherwise, self.c, inline=True))

    def st_Either(self, node: A.Either) -> str:
        options = [self.t("statement.either_option", n=i + 1, text=render_block(o, self.c, inline=True))
                   for i, o in enumerate(node.options)]
        return self.t("statement.either", options=self.t("statement.either_separator").join(options))

    def st_ForEachPlayer(self, node: A.ForEachPlayer) -> str:
        return self.t("statement.for_each_player", body=render_block(node.body, self.c, inline=True))

    def st_Acting(self, node: A.Acting) -> str:
        key = "statement.opponent" if node.actor == "opponent" else "statement.each_player"
        return self.t(key, statement=self.statement(node.statement))

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
        whose = node.possessive or "their"
        if isinstance(node, A.Pool):
            return self.t("holder.pool", whose=whose)
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
        else:
            text = self.t("spaces.revealed", form=form)
        filt = node.filter
        if isinstance(filt, A.ControlledBy):
            key = {"you": "you_control", "opponent": "opponent_controls", "nobody": "nobody_controls"}[filt.who]
            text = self.t(f"spaces.{key}", spaces=text)
        elif isinstance(filt, A.Where):
            text = self.t("spaces.where", spaces=text, condition=self.condition(filt.condition))
        return text

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
        params = {"who": player.kind}
        if player.kind == "side":
            params["player"] = self.t("player.side", **self.named("sides", player.side.text, "side"))
        else:
            params["player"] = self.t(f"player.{player.kind}")
        return params

    def other(self, player: A.Player) -> str:
        return self.player(player)["player"]

    def target(self, target) -> str:
        if isinstance(target, A.Named):
            name = target.name.text
            kind = "dimensions" if self.c.raw(f"dimensions.{name}") is not None else "spaces"
            return self.t(f"target.{kind}", **self.named(kind, name, "name"))
        key = {A.ThisDimension: "this_dimension", A.ThisSpace: "this_space", A.It: "it"}[type(target)]
        return self.t(f"target.{key}")

    def where(self, where) -> str:
        if isinstance(where, A.It):
            return self.t("target.it")
        if isinstance(where, A.HOLDER_TYPES):
            return self.holder(where)
        return self.spaces(where)

    def comparison(self, comparison: A.Comparison) -> str:
        if comparison.op == "==" and comparison.n == 0:
            return self.t("comparison.none")
        return self.t(f"comparison.{comparison.op}", n=comparison.n)

    def _chain(self, node, key: str) -> str:
        parts = [self.condition(i) for i in node.items]
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
        return self.t("condition.nobody_controls", target=self.target(node.target))

    def cond_HasTokens(self, node):
        return self.t("condition.has_tokens", comparison=self.comparison(node.comparison), n=node.comparison.n,
                      where=self.where(node.where), **self.player(node.player))

    def cond_HasMoreTokens(self, node):
        return self.t("condition.has_more_tokens", other=self.other(node.other), where=self.where(node.where),
                      **self.player(node.player))

    def cond_HasVP(self, node):
        return self.t("condition.has_vp", comparison=self.comparison(node.comparison), **self.player(node.player))

    def cond_HasMoreVP(self, node):
        return self.t("condition.has_more_vp", other=self.other(node.other), **self.player(node.player))

    def cond_IsFirstPlayer(self, node):
        return self.t("condition.is_first_player", **self.player(node.player))

    def cond_IsSide(self, node):
        return self.t("condition.is_side", **self.named("sides", node.side.text, "side"), **self.player(node.player))

    def cond_RoundIs(self, node):
        return self.t("condition.round_is", comparison=self.comparison(node.comparison))

    def cond_ZoneBreached(self, node):
        return self.t("condition.zone_breached", whose=node.possessive, **self.named("zones", node.zone.text, "zone"))

    def cond_PoolHas(self, node):
        return self.t("condition.pool_has", whose=node.possessive, comparison=self.comparison(node.comparison),
                      n=node.comparison.n)

    def cond_PoolLead(self, node):
        return self.t("condition.pool_lead", whose=node.possessive, n=node.margin, other=node.other)

    def cond_IsPivotal(self, node):
        return self.t("condition.is_pivotal", target=self.target(node.target))

    def cond_ControlsCount(self, node):
        return self.t("condition.controls_count", comparison=self.comparison(node.comparison), n=node.comparison.n,
                      **self.player(node.player))

    def cond_ControlsMore(self, node):
        return self.t("condition.controls_more", other=self.other(node.other), **self.player(node.player))
