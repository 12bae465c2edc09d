"""The game definition compiled for play: names become indices, rule text
becomes executable operations.  Built once per content, never on the hot path.
"""

from __future__ import annotations

from typing import Dict, Tuple

from crisis.content.solo import EarlierContent, earlier
from crisis.ruleset import ast as A

from .actions import Action, ActionTable, Locations


class Tables:
    def __init__(self, content, compiler=None):
        """``compiler``: a Compiler class to use instead of the plain one (coverage instruments the rules).
        ``content``: loaded content, or its earlier model (content/solo.py)."""
        from .compile import Compiler, Ctx  # compile needs the tables' indices

        content: EarlierContent = earlier(content)
        board = content.board
        self.content = content
        self.board = board
        self.sides: Tuple[str, ...] = board.sides
        self.side_index = {name: i for i, name in enumerate(self.sides)}
        self.spaces: Tuple[str, ...] = board.spaces
        self.space_index = {name: i for i, name in enumerate(self.spaces)}
        self.dimensions: Tuple[str, ...] = tuple(d.name for d in board.dimensions)
        self.dimension_index = {name: i for i, name in enumerate(self.dimensions)}
        self.dimension_spaces: Tuple[Tuple[int, ...], ...] = tuple(
            tuple(self.space_index[s] for s in d.spaces) for d in board.dimensions)
        self.pivotal: Tuple[int, ...] = tuple(spaces[0] for spaces in self.dimension_spaces)
        self.dimension_of: Tuple[int, ...] = tuple(
            self.dimension_index[next(d.name for d in board.dimensions if s in d.spaces)] for s in self.spaces)
        self.is_pivotal = tuple(s in self.pivotal for s in range(len(self.spaces)))
        self.all_spaces = tuple(range(len(self.spaces)))
        self.pivotal_spaces = tuple(sorted(self.pivotal))
        self.zones = board.zones
        self.zone_index = {z.name: i for i, z in enumerate(self.zones)}
        self.track_size = board.track_size
        # zone of each track space, by space number (0 .. top)
        self.zone_of_track_space = [0] * self.track_size
        for zi, zone in enumerate(self.zones):
            for number in range(zone.bottom, zone.top + 1):
                self.zone_of_track_space[number] = zi
        self.markers = board.markers
        self.marker_index = {m.name: i for i, m in enumerate(self.markers)}
        self.blocks_placement = tuple(i for i, m in enumerate(self.markers) if m.blocks_placement)
        self.blocks_removal = tuple(i for i, m in enumerate(self.markers) if m.blocks_removal)
        self.max_per_space = board.max_tokens_per_space

        self.strategy_cards = content.strategy_cards
        self.objective_cards = content.objective_cards
        self.card_index = {c.id: i for i, c in enumerate(self.strategy_cards)}
        self.objective_index = {c.id: i for i, c in enumerate(self.objective_cards)}
        self.card_value = tuple(c.value for c in self.strategy_cards)
        self.card_dimension = tuple(self.dimension_index[c.final_crisis] for c in self.strategy_cards)
        # usable_by[card][side]: the side's colour is in the card's value box
        self.usable_by = tuple(tuple(side in c.event_for for side in self.sides) for c in self.strategy_cards)
        self.objective_space = tuple(self.space_index[c.space] for c in self.objective_cards)

        self.locations = Locations(self.spaces, [z.name for z in self.zones])
        self.actions = ActionTable(self.sides, self.locations, [m.name for m in self.markers])
        self.value_actions = tuple(Action("value", f"value {c.id}", a=i) for i, c in enumerate(self.strategy_cards))
        self.event_actions = tuple(Action("event", f"event {c.id}", a=i) for i, c in enumerate(self.strategy_cards))
        self.keep_actions = tuple(Action("keep", f"keep {c.id}", a=i) for i, c in enumerate(self.objective_cards))
        # Final Crisis order, one card at a time; choices are listed by card id
        self.order_actions = tuple(Action("order", f"order {c.id}", a=i) for i, c in enumerate(self.strategy_cards))
        by_id = sorted(range(len(self.strategy_cards)), key=lambda i: self.strategy_cards[i].id)
        rank = {card: r for r, card in enumerate(by_id)}
        self.card_rank = tuple(rank[i] for i in range(len(self.strategy_cards)))
        self.bonus_actions = tuple(Action("bonus", f"bonus {self.spaces[p]}", a=p) for p in self.pivotal)

        # the cards a player may play, per side and card: its value, then its event if his colour allows
        self.play_choices = tuple(
            tuple((self.value_actions[i], self.event_actions[i]) if self.usable_by[i][side] and c.event
                  else (self.value_actions[i],) for i, c in enumerate(self.strategy_cards))
            for side in range(len(self.sides)))
        # contexts the sequence of play runs rules in, built once (a context is immutable)
        sides = range(len(self.sides))
        self.play_ctx = tuple(tuple(Ctx(side, -1, -1, (), c.value, c.id) for c in self.strategy_cards)
                              for side in sides)
        self.bonus_ctx = tuple(tuple(Ctx(side, d, p, (), 0, "pivotal_bonus") for d, p in enumerate(self.pivotal))
                               for side in sides)
        self.final_crisis_ctx = tuple(tuple(Ctx(side, d, -1, (), 0, "final_crisis") for d in range(len(self.dimensions)))
                                      for side in sides)
        self.breach_ctx = tuple(tuple(Ctx(side, reason=f"breach:{z.name}") for z in self.zones) for side in sides)

        factory = compiler or Compiler
        compiler = factory(self)
        procedures = content.procedures
        self.card_events = tuple(compiler.block(c.event.tree) if c.event else None for c in self.strategy_cards)
        self.objective_events = tuple(compiler.block(c.event.tree) if c.event else None
                                      for c in self.objective_cards)
        self.first_player_rules = tuple(compiler.condition(r.tree) for r in procedures.first_player)
        # rules that read only VP (and who is who) let a game keep its answer until the VP change
        vp_only = (A.AnyOf, A.AllOf, A.Not, A.HasVP, A.HasMoreVP, A.HasFewerVP, A.IsSide, A.Player, A.Name,
                   A.Comparison)
        self.first_player_by_vp = all(isinstance(node, vp_only)
                                      for rule in procedures.first_player for node in rule.tree.walk())
        self.tie_breaks = tuple(compiler.condition(r.tree) for r in procedures.tie_breaks)
        self.breach_effects: Dict[int, Tuple[object, object]] = {
            self.zone_index[zone]: (compiler.block(first.tree), compiler.block(second.tree))
            for zone, (first, second) in procedures.breach_effects.items()}
        self.pivotal_bonus = compiler.block(procedures.pivotal_bonus.tree)
        self.dimension_scoring = compiler.block(procedures.dimension_scoring.tree)
        self.objective_scoring = compiler.block(procedures.objective_scoring.tree)
        self.final_crisis_trigger = compiler.condition(procedures.final_crisis_trigger.tree)
        self.final_crisis_start = (compiler.block(procedures.final_crisis_start.tree)
                                   if procedures.final_crisis_start else None)
        self.final_crisis_matching = compiler.block(procedures.final_crisis_matching.tree)
        self.final_crisis_not_matching = compiler.block(procedures.final_crisis_not_matching.tree)
        self.final_scoring = tuple((label, compiler.block(rule.tree)) for label, rule in procedures.final_scoring)
        self.final_scoring_ctx = tuple(tuple(Ctx(side, reason=f"scoring:{label}") for label, _ in self.final_scoring)
                                       for side in sides)
        self.value_play = compiler.value_play()
        # the solo game, when the content has one (interpreter/solo.py)
        from .solo import SoloRules
        self.solo = SoloRules(self, content.solo, factory) if content.solo is not None else None


_CACHE: Dict[int, Tables] = {}
_KEEP = 4  # contents whose tables are kept: a process that loads content after content must not grow


def tables_for(content) -> Tables:
    """Compile a content once; later calls reuse the compiled tables (of the last few contents)."""
    content = earlier(content)
    key = id(content)
    tables = _CACHE.get(key)
    if tables is None or tables.content is not content:
        _CACHE.pop(key, None)
        tables = _CACHE[key] = Tables(content)
        while len(_CACHE) > _KEEP:  # the oldest first (dicts keep their order)
            del _CACHE[next(iter(_CACHE))]
    return tables
