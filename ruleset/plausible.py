"""Rules that cannot mean what they say, found in their meaning (meaning.py) and the game's
schema: counts no side's pieces could ever make up, conditions that can never hold (errors), and
counts that can never be reached in full, conditions that always hold, a bare word for every
place where a group of them was probably meant (warnings).

The limits are the schema's: how many tokens a side has and a place may hold, how many places,
groups and spaces of a track there are, the range of each counter.  Each problem is reported at
the words it is about, in the schema's own words ("22 tokens can never be placed here: a side
has at most 4 tokens in a space, so at most 4 in 1 space").
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import attrs

from . import meaning as M
from . import nodes as N
from .diagnostics import Diagnostic, Source, a_noun, diagnostic_at, one_of
from .walk import meanings

# the meanings that narrow the places they hold: "spaces you control", "spaces where ...": never bare
_NARROWING = (M.Filtered, M.Related, M.Most, M.WithTerm)


def problems(meaning, schema, source: Optional[Source]) -> List[Diagnostic]:
    """Every such problem of one resolved rule."""
    if meaning is None:
        return []
    check = _Check(schema, source)
    stack: List[Tuple[object, object]] = [(meaning, None)]
    while stack:
        node, parent = stack.pop()
        if isinstance(node, (tuple, list)):
            stack.extend((item, parent) for item in reversed(node))
            continue
        if not isinstance(node, M.Meaning):
            continue
        method = getattr(check, type(node).__name__, None)
        if method is not None:
            method(node)
        if isinstance(node, M.Fixed) and not isinstance(parent, _NARROWING):
            check.bare(node)
        for field in reversed(attrs.fields(type(node))):
            if field.name != "node":
                stack.append((getattr(node, field.name), node))
    return check.found


def _plural(words, default: str) -> str:
    return words[-1] if words else default


def _singular(words, default: str) -> str:
    return words[0] if words else default


class _Check:
    def __init__(self, schema, source: Optional[Source]):
        self.schema = schema
        self.source = source
        self.found: List[Diagnostic] = []
        game_map = schema.map
        self.place, self.places = _singular(game_map.place_words, "place"), _plural(game_map.place_words, "places")
        tokens = schema.tokens
        self.token = _singular(tokens.words, "token") if tokens else "token"
        self.tokens = _plural(tokens.words, "tokens") if tokens else "tokens"

    # ------------------------------------------------------------ report
    def report(self, meaning, message: str, severity: str = "error", **kwargs) -> None:
        pos = getattr(getattr(meaning, "node", None), "pos", None)
        if pos is None:
            self.found.append(diagnostic_at(self.source, None, None, message, severity=severity, **kwargs))
            return
        width = pos.end_column - pos.column if pos.end_line == pos.line else 1
        self.found.append(diagnostic_at(self.source, pos.line, pos.column, message, width=width, severity=severity,
                                        **kwargs))

    def Either(self, node: M.Either) -> None:
        """An option offered only where it would change something (docs/language.md, "either")
        that reads a card the player does not see: offering it or not would tell them what the card
        is (a warning, at the card's words)."""
        piles = self.schema.piles
        for option in node.options:
            for part in meanings(option):
                if not (isinstance(part, M.CardRef) and part.kind == "top" and part.pile is not None
                        and 0 <= part.pile.pile < len(piles)):
                    continue
                pile, side = piles[part.pile.pile], part.pile.side
                if pile.seen_by == "nobody" or (pile.seen_by == "owner" and side is not None
                                                and side.kind == "opponent"):
                    self.report(part, f"whether this option is offered depends on the top card of the "
                                      f"{pile.name}, which the player does not see: an option is offered only "
                                      f"where it would change something, so offering it or not tells what the "
                                      f"card is", severity="warning",
                                hint="make the option do something whatever the card is, or reveal the card "
                                     "before the choice")
                    break

    def no_tokens(self, node, message: str) -> None:
        """A rule about tokens in a game whose state.yaml gives none: it could only do nothing."""
        self.report(node, message, hint="a game's tokens are given under 'tokens:' in its state.yaml "
                                        "(docs/state.md); cards are moved with 'put', 'keep' or 'discard'")

    # ------------------------------------------------------------ sizes
    def count(self, places) -> Optional[int]:
        """At most how many places a set of places names (None: not known, or not only places)."""
        if isinstance(places, M.Fixed):
            return len(places.places)
        if isinstance(places, M.ContextPlace):
            return 1
        if isinstance(places, M.ContextGroupPlaces):
            return max((len(g.places) for g in self.schema.map.groups), default=0)
        if isinstance(places, M.CardPlaces):
            return len(self.schema.sides) if places.cards.revealed else None  # a card of each side revealed
        if isinstance(places, _NARROWING):
            return self.count(places.places)
        if isinstance(places, M.Union_):
            counts = [self.count(item) for item in places.items]
            return None if any(c is None for c in counts) else sum(counts)
        return None

    def holds(self, holder: M.Holder) -> Tuple[Optional[int], str]:
        """At most how many tokens of a side a holder holds, and the holder in words."""
        tokens = self.schema.tokens
        if holder.kind in ("holder", "supply"):
            name = tokens.holders[holder.index].words if 0 <= holder.index < len(tokens.holders) else ()
            return tokens.each_side, a_noun(_singular(name, 'holder'))
        if holder.kind not in ("track", "box", "above") or not 0 <= holder.index < len(self.schema.tracks):
            return None, ""
        track = self.schema.tracks[holder.index]
        if holder.kind == "track":
            return min(track.spaces, tokens.each_side), a_noun(_singular(track.words, track.name))
        zone = track.zones[holder.zone]
        if holder.kind == "box":
            return zone.box, f"the {zone.name} {_singular(track.box_words, 'box')}"
        return track.spaces - 1 - zone.top, f"{a_noun(_singular(track.words, track.name))} above its {zone.name} zone"

    # ------------------------------------------------------------ statements
    def Transfer(self, node: M.Transfer) -> None:
        tokens = self.schema.tokens
        if tokens is None:  # it would do nothing in play, silently
            self.no_tokens(node, f"'{node.verb}' is said of tokens, and this game has none")
            return
        amount = node.amount
        example = f"a number, as in '{node.verb} 1 in each {self.place}'"
        if amount.kind == "all" or amount.number is not None:
            if node.each:
                self.report(amount, f"'each' needs an exact count per {self.place}", expected=example)
            return
        limit = tokens.each_side
        if amount.n < 1:
            self.report(amount, "a count of 0 does nothing", expected="a number of at least 1")
            return
        if amount.n > limit:
            self.report(amount, f"no side has {amount.n} {self.tokens}", expected=f"a number from 1 to {limit}")
            return
        if node.each and amount.kind != "exactly":
            self.report(amount, f"'each' needs an exact count per {self.place}", expected=example)
            return
        places = node.dests if node.verb in ("place", "move") else node.sources
        if node.verb == "move" and node.dests is node.sources:  # "within": as many as the places hold
            return
        counts = []
        for item in getattr(places, "items", ()):
            n = self.count(item) if not isinstance(item, M.Holder) else None
            if n is None:
                return  # a holder has no such limit, and unknown places none known
            counts.append(n)
        sides = len(self.schema.sides) if node.owners.kind == "either" else 1
        per_place = tokens.at_most_per_place * sides
        why = f"a side has at most {tokens.at_most_per_place} {self.tokens} in {a_noun(self.place)}"
        if node.limit is not None and node.limit < per_place:
            per_place, why = node.limit, f"at most {node.limit} per {self.place}"
        if node.each:
            most, where = per_place, f"each {self.place}"
        elif node.one_place:
            most, where = per_place, f"one {self.place}"
        else:
            total = sum(counts)
            most, where = per_place * total, f"{total} {self.place if total == 1 else self.places}"
        if amount.n <= most:
            return
        verb = {"place": "placed", "remove": "removed", "move": "moved"}[node.verb]
        if amount.kind == "exactly":
            self.report(amount, f"{amount.n} {self.tokens} can never be {verb} here: {why}, so at most {most} "
                                f"in {where}", expected=f"a count from 1 to {most}, or 'up to {amount.n}' if fewer "
                                                        f"may do")
        else:
            self.report(amount, f"'up to {amount.n}' can never reach {amount.n} here: {why}, so at most {most} "
                                f"in {where}", severity="warning", hint=f"write 'up to {most}'")

    # ------------------------------------------------------------ conditions
    def possible(self, node, test: M.Comparison, low: int, high: int, why: str) -> None:
        """A comparison no value from ``low`` to ``high`` meets is an error; one all meet, a warning."""
        if test is None or high < low or high - low > 100_000:
            return
        meets = {"==": lambda x: x == test.n, ">=": lambda x: x >= test.n, "<=": lambda x: x <= test.n,
                 ">": lambda x: x > test.n, "<": lambda x: x < test.n}.get(test.op)
        if meets is None:
            return
        first, last = meets(low), meets(high)
        values = [meets(x) for x in range(low, high + 1)] if test.op == "==" else (first, last)
        if not any(values):
            self.report(node, f"this condition can never hold: {why}")
        elif all(values):
            self.report(node, f"this condition always holds: {why}", severity="warning",
                        hint="it tests nothing: leave it out, or test something that can change")

    def TokensIn(self, node: M.TokensIn) -> None:
        tokens = self.schema.tokens
        if tokens is None:  # (the word 'tokens' is unknown in such a game: refused before it gets here)
            return
        where = node.where
        if isinstance(where, M.Holder):
            most, what = self.holds(where)
            if most is not None:
                self.possible(node, node.test, 0, most, f"{what} holds 0 to {most} {self.tokens}")
            return
        n = self.count(where)
        if n is None:
            return
        most = min(n * tokens.at_most_per_place, tokens.each_side)
        what = a_noun(self.place) if n == 1 else f"{n} {self.places}"
        self.possible(node, node.test, 0, most, f"a player has 0 to {most} {self.tokens} in {what}")

    def TokensMore(self, node: M.TokensMore) -> None:
        if self.schema.tokens is None or node.lead is None or not isinstance(node.where, M.Holder):
            return
        most, what = self.holds(node.where)
        if most is not None and node.lead.n > most:
            self.report(node, f"this condition can never hold: {what} holds at most {most} {self.tokens}")

    def NumberTest(self, node: M.NumberTest) -> None:
        if not isinstance(node.number, M.CounterValue) or node.test is None:
            return
        counter = self.schema.counters[node.number.counter]
        word = _singular(counter.words, counter.name)
        self.possible(node, node.test, counter.low, counter.high, f"{word} goes from {counter.low} to {counter.high}")

    def ControlsCount(self, node: M.ControlsCount) -> None:
        if node.within is not None and node.within.kind == "named":
            n = len(self.schema.map.groups[node.within.index].places)
        elif node.within is not None:
            n = max((len(g.places) for g in self.schema.map.groups), default=0)
        else:
            n = len(self.schema.map.places)
        self.possible(node, node.test, 0, n, f"there are {n} {self.place if n == 1 else self.places}"
                      + (" there" if node.within is not None else ""))

    # ------------------------------------------------------------ places
    def bare(self, node: M.Fixed) -> None:
        """"place 2 in spaces": every place of the map, where a group's name was probably lost."""
        phrase = node.node
        if (node.kind != "all" or not isinstance(phrase, N.Phrase) or phrase.determiner is not None
                or len(phrase.words) != 1 or phrase.of or phrase.relation is not None or phrase.at is not None):
            return
        word = phrase.words[0].text
        game_map = self.schema.map
        qualified = [f"{g.name} {word}" for g in game_map.groups] + [f"{a} {word}" for a in game_map.attributes]
        self.report(node, f"a bare '{word}' means every {self.place} on the map", severity="warning",
                    expected=f"'any {word}' if every {self.place} is meant"
                             + (f", or one of: {one_of(qualified)}" if qualified else ""),
                    hint=f"did you mean 'any {word}'?")


