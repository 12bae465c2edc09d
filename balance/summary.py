"""What a balance report counts, folded from game records as they arrive (no record is kept):
the records are the lines ``crisis sim --records`` writes (docs/sim.md), so they come back from
every process the batch API plays on.  Every name comes from the content: its sides, counters,
tracks and zones, the ways a card is played, the steps of its sequence of play.

``RunSummary`` is one run: the games of one pairing of bots under one set of rules.  Its
``analysis`` gives every rate with its Wilson interval, and for each card of the kind players
play the comparison of the plays that carried out the card's own rule (its event) against the
other plays (for its value): Fisher's exact test, Holm's adjustment over the cards; ``compare``
sets two runs of the same seeds side by side, card by card.
"""

from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence

from crisis.interpreter.engine.sequence import KeepOp
from crisis.interpreter.batch import finite as _finite
from crisis.interpreter.records import reading_of

from .stats import (Z95, fisher, histogram_mean, histogram_quantile, holm, mean_difference, newcombe, stratified,
                    wilson, within)
from crisis.interpreter.engine.program import program_of


def rate(successes: int, trials: int, z: float = Z95) -> dict:
    p, low, high = wilson(successes, trials, z)
    return {"n": trials, "k": successes, "rate": None if trials == 0 else p, "low": low, "high": high}


class RunSummary:
    def __init__(self, content, label: str, bots: Sequence[str], options: Sequence[str] = ()):
        program = program_of(content)
        reading = self.reading = reading_of(program)
        self.label, self.bots, self.options = label, tuple(bots), tuple(options)
        self.sides = reading.sides
        self.side_index = {side: i for i, side in enumerate(self.sides)}
        # the counter the winner is decided on, and the loop over a counter the game may leave early
        self.score = reading.counters[reading.score].name if reading.score >= 0 else None
        # the game's own loop (its rounds, its turns), not a loop within a turn (a turn's battles)
        loop = reading.counters[reading.game_loops[0]] if reading.game_loops else None
        self.loop = (loop.name, loop.low, loop.high) if loop is not None else None
        self.zones = [(reading.schema.tracks[t].name, reading.schema.tracks[t].zones[z].name) for t, z in reading.zones]
        self.cards = list(program.cards[reading.played_kind].ids)
        self.card_index = {card: i for i, card in enumerate(self.cards)}
        self.uses = list(reading.uses)
        self.use_rule = dict(zip(reading.uses, reading.use_rule))  # use -> the card's rule it carries out
        self.rule_field = next((field for field in reading.use_rule if field), None)
        self.tie_breaks_count = len(program.procedure_condition_lists[program.procedure_names.index(
            reading.tie_break_rules)]) if reading.tie_break_rules else 0
        self.steps = _step_order(program)
        reference = content.catalogs.get("en") if getattr(content, "catalogs", None) else None
        if reference is not None and self.tie_breaks_count:
            self.tie_break_texts = tie_break_texts(content, reference)
        else:
            self.tie_break_texts = []
        kinds = list(dict.fromkeys(op.kind for op in program.ops if isinstance(op, KeepOp)))
        self.kept_cards = [(reading.kinds[k], card) for k in kinds for card in program.cards[k].ids]
        self.games = 0
        self.seeds: List[int] = []
        self.wins = [0] * len(self.sides)
        self.scores: List[Dict[int, int]] = [{} for _ in self.sides]  # side -> {final score: games}
        self.margin: Dict[int, int] = {}  # first side's score minus the second's -> games
        self.scored = 0  # games that ran to their end (the score's figures are theirs)
        self.tie_breaks: Dict[int, int] = {}  # -1: the score decided; -2: a rule ended the game at once
        self.loop_ends: Dict[int, int] = {}  # the loop counter's value at the end -> games
        self.entered = [[[0, 0] for _ in self.zones] for _ in self.sides]  # [side][zone] = [first, later]
        # [card][side] = {use: [plays by that side, of them won]}: kept per side, so that the test of
        # a card compares each side's plays with its own (docs/balance.md, "within each side")
        self.card_plays = [[{use: [0, 0] for use in self.uses} for _ in self.sides] for _ in self.cards]
        self.kept: Dict[tuple, List[int]] = {}  # (kind, card) -> [held, rule carried out, holder won]
        self.first_player: Dict[tuple, List[int]] = {}  # (step, loop counters) -> [games, won]
        self.first_sides: Dict[str, set] = {}  # step -> the sides that were ever its first player
        self.problems = 0

    # ------------------------------------------------------------ folding
    def add(self, record: dict) -> None:
        """Count one game, given as a line of ``crisis sim --records``."""
        side_index = self.side_index
        winner = side_index.get(record["winner"], -1)
        self.games += 1
        self.seeds.append(record["seed"])
        if record.get("problems"):
            self.problems += 1
        if winner >= 0:
            self.wins[winner] += 1
        counters = record["counters"]
        if self.score is not None and not record.get("at_once"):  # a game won at once was not scored
            self.scored += 1
            scores = [counters[self.score][side] for side in self.sides]
            for side, value in enumerate(scores):
                _count(self.scores[side], value)
            if len(scores) == 2:
                _count(self.margin, scores[0] - scores[1])
        # a game a rule won at once ("you win") was decided neither by the score nor by a tie-break
        _count(self.tie_breaks, -2 if record.get("at_once") else (record["tie_break"] or 0) - 1)
        if self.loop is not None:
            _count(self.loop_ends, counters[self.loop[0]])
        zones = {zone: i for i, zone in enumerate(self.zones)}
        for track, entries in record["entered"].items():
            for zone, order in entries.items():
                for nth, side in enumerate(order):
                    self.entered[side_index[side]][zones[(track, zone)]][min(nth, 1)] += 1
        cards = self.card_index
        for play in record["plays"]:
            side = side_index[play["side"]]
            entry = self.card_plays[cards[play["card"]]][side][play["use"]]
            entry[0] += 1
            entry[1] += side == winner
        for kept in record["kept"]:
            entry = self.kept.setdefault((kept["kind"], kept["card"]), [0, 0, 0])
            entry[0] += 1
            entry[1] += kept["carried_out"] is not None
            entry[2] += side_index[kept["side"]] == winner
        for first in record["first_players"]:
            key = (first["step"], tuple(sorted(first["counters"].items())))
            entry = self.first_player.setdefault(key, [0, 0])
            entry[0] += 1
            entry[1] += side_index[first["side"]] == winner
            self.first_sides.setdefault(first["step"], set()).add(side_index[first["side"]])

    # ----------------------------------------------------------- analysis
    def analysis(self, level: float = 0.05, z: float = Z95) -> dict:
        n = self.games
        rule_uses = [use for use in self.uses if self.use_rule[use]]
        other_uses = [use for use in self.uses if not self.use_rule[use]]
        cards = []
        for index, card in enumerate(self.cards):
            by_side = self.card_plays[index]
            # one table a side: [rule plays won, lost], [other plays won, lost]
            tables = []
            for plays in by_side:
                side_rule = [sum(plays[use][i] for use in rule_uses) for i in (0, 1)]
                side_other = [sum(plays[use][i] for use in other_uses) for i in (0, 1)]
                tables.append((side_rule[1], side_rule[0] - side_rule[1], side_other[1], side_other[0] - side_other[1]))
            rule_n, rule_k = sum(t[0] + t[1] for t in tables), sum(t[0] for t in tables)
            other_n, other_k = sum(t[2] + t[3] for t in tables), sum(t[2] for t in tables)
            difference = within(tables)
            cards.append({"card": card, "rule": rate(rule_k, rule_n, z), "other": rate(other_k, other_n, z),
                          "uses": {use: {"n": sum(plays[use][0] for plays in by_side),
                                         "k": sum(plays[use][1] for plays in by_side)} for use in self.uses},
                          # compared within each side: a side's edge is not the card's
                          "difference": None if math.isnan(difference) else difference,
                          "p": stratified(tables),
                          # a test was made: some side played it both ways (Holm counts those alone)
                          "tested": any(t[0] + t[1] and t[2] + t[3] for t in tables),
                          # each side's plays each way, [plays, won]: a comparison of two runs tests within sides too
                          "by_side": [{"rule": [t[0] + t[1], t[0]], "other": [t[2] + t[3], t[2]]} for t in tables]})
        _adjusted(cards, level)
        kept = []
        for kind, card in self.kept_cards:  # every card of a kind some 'keep' statement keeps
            held, done, won = self.kept.get((kind, card), (0, 0, 0))
            kept.append({"kind": kind, "card": card, "held": held, "carried_out": rate(done, held, z),
                         "holder_won": rate(won, held, z)})
        score = None
        if self.score is not None:
            score = {"counter": self.score, "games": self.scored,
                     # (None where no game ran to its end: every one was won at once)
                     "sides": {side: {"histogram": _keys(self.scores[i]),
                                      "mean": _finite(histogram_mean(self.scores[i])),
                                      "median": _finite(histogram_quantile(self.scores[i], 0.5))}
                               for i, side in enumerate(self.sides)},
                     "margin": ({"histogram": _keys(self.margin), "mean": _finite(histogram_mean(self.margin)),
                                 "median": _finite(histogram_quantile(self.margin, 0.5))}
                                if len(self.sides) == 2 else None)}
        return {
            "label": self.label, "bots": {side: bot for side, bot in zip(self.sides, self.bots)},
            "options": list(self.options), "games": n, "first_seed": min(self.seeds, default=None),
            "games_with_problems": self.problems,
            "wins": {side: rate(self.wins[i], n, z) for i, side in enumerate(self.sides)},
            "score": score,
            "tie_breaks": [{"tie_break": i, "text": self.tie_break_texts[i] if 0 <= i < len(self.tie_break_texts)
                            else None, **rate(self.tie_breaks.get(i, 0), n, z)}
                           for i in ([-2] if self.tie_breaks.get(-2) else []) + [-1] + list(range(self.tie_breaks_count))],
            "loop": None if self.loop is None else {
                "counter": self.loop[0],
                "ends": [{"value": v, **rate(self.loop_ends.get(v, 0), n, z)}
                         for v in range(self.loop[1], self.loop[2] + 1)]},
            "entered": [{"side": side, "track": track, "zone": zone, "first": rate(self.entered[i][j][0], n, z),
                         "later": rate(self.entered[i][j][1], n, z),
                         "any": rate(self.entered[i][j][0] + self.entered[i][j][1], n, z)}
                        for i, side in enumerate(self.sides) for j, (track, zone) in enumerate(self.zones)],
            # a step whose first player was the same side in every game (the Civil War's South):
            # one line, not a row per pass repeating that side's wins
            "first_player_always": [{"step": step, "side": self.sides[next(iter(found))]}
                                    for step, found in self.first_sides.items() if len(found) == 1],
            "first_player": [{"step": step, "counters": dict(counters), **rate(won, games, z)}
                             for (step, counters), (games, won) in sorted(self.first_player.items(),
                                                                          key=self._first_order)
                             if len(self.first_sides.get(step, ())) != 1],
            "rule_field": self.rule_field, "rule_uses": rule_uses, "other_uses": other_uses,
            "cards": cards, "kept": kept,
        }

    def _first_order(self, item) -> tuple:
        (step, counters), _ = item
        return (self.steps.get(step, len(self.steps)), counters)


def tie_break_texts(content, catalog) -> List[str]:
    """The conditions the content breaks ties with (the winner's rule's), put into words."""
    from crisis.ruleset.phrasing import phrase_condition
    program = program_of(content)
    rules = reading_of(program).tie_break_rules
    if rules is None:
        return []
    definition = program.definition
    _, conditions = definition.procedures[rules]
    return [phrase_condition(c, catalog, definition.schema, definition.declarations) for c in conditions]


def _step_order(program) -> Dict[str, int]:
    """The named steps in the order the sequence of play writes them."""
    return {name: index for index, name in enumerate(program.step_names())}


def _adjusted(rows: list, level: float) -> None:
    """Holm's adjustment over the rows a test was made of (``tested``): each row's ``p_holm`` and
    whether it is ``flagged``; a row not tested is neither."""
    for row in rows:
        row["p_holm"], row["flagged"] = 1.0, False
    tested = [row for row in rows if row["tested"]]
    for row, adjusted in zip(tested, holm([r["p"] for r in tested])):
        row["p_holm"], row["flagged"] = adjusted, adjusted < level


def compare(base: dict, other: dict, level: float = 0.05, z: float = Z95) -> dict:
    """Two analyses of the same seeds (``other``: the changed content) card by card: the win rate of
    the player who carried out the card's rule (in a game whose cards carry out no rule of their
    own, of the player who played it: ``measure`` "plays"), and how often each card was played each way, with
    the exact test of those win rates within each side (Holm's adjustment over the cards played in
    both), Fisher's of the sides' win rates, and the change in each card's rule player's win rate
    with Newcombe's interval."""
    # a game where no way of playing a card carries out a rule of its own (the Civil War Card
    # Game): each card's measure is the win rate of the side that played it, any way
    plays = not other.get("rule_uses", True)
    measure = "other" if plays else "rule"
    if plays:
        base = dict(base, cards=[dict(c, rule=c["other"]) for c in base["cards"]])
        other = dict(other, cards=[dict(c, rule=c["other"]) for c in other["cards"]])
    by_id = {c["card"]: c for c in base["cards"]}
    rows = []
    for card in other["cards"]:
        was = by_id.get(card["card"])
        if was is None:
            rows.append({"card": card["card"], "only_in": "compare", "p": 1.0, "tested": False})
            continue
        a, b = was["rule"], card["rule"]
        _, low, high = newcombe(b["k"], b["n"], a["k"], a["n"], z)
        # after against before, within each side (a side's edge is not the card's): one table a side
        tables = [(after[measure][1], after[measure][0] - after[measure][1],
                   before[measure][1], before[measure][0] - before[measure][1])
                  for after, before in zip(card.get("by_side", ()), was.get("by_side", ()))] \
            or [(b["k"], b["n"] - b["k"], a["k"], a["n"] - a["k"])]
        rows.append({"card": card["card"], "before": was, "after": card,
                     "rule_difference": (None if not a["n"] or not b["n"] else b["k"] / b["n"] - a["k"] / a["n"]),
                     "difference_low": low, "difference_high": high,
                     "p": stratified(tables), "tested": bool(a["n"] and b["n"])})
    for card_id in by_id:
        if card_id not in {c["card"] for c in other["cards"]}:
            rows.append({"card": card_id, "only_in": "content", "p": 1.0, "tested": False})
    _adjusted(rows, level)  # over the cards played in both contents (no test is made of the others)
    sides = {}
    for side, before in base["wins"].items():
        after = other["wins"].get(side)
        if after is not None:
            p = fisher(after["k"], after["n"] - after["k"], before["k"], before["n"] - before["k"])
            sides[side] = {"before": before, "after": after, "p": p, "flagged": p < level}
    scores = {}  # each side's mean final score before and after (a stronger card shows there first)
    if base.get("score") and other.get("score"):
        for side, before in base["score"]["sides"].items():
            after = other["score"]["sides"].get(side)
            found = mean_difference(before["histogram"], after["histogram"], z) if after else None
            if found is not None:
                scores[side] = found
    return {"cards": rows, "wins": sides, "scores": scores, "measure": "plays" if plays else "rule"}


MIN_PLAYS = 10  # the change plot leaves out unchanged cards whose rule was carried out fewer times in a content


def change_rows(comparison: dict, minimum: int = MIN_PLAYS):
    """The rows the change plot draws, and the cards it leaves out: every changed card whose rule
    was carried out in both contents, and every other card whose rule was carried out at least
    ``minimum`` times in each; changed cards first, then by the change (lowest first).  Each row
    keeps its interval (``difference_low``, ``difference_high``)."""
    changed = comparison.get("changed", {})
    drawn, left_out = [], []
    for row in comparison["cards"]:
        if row.get("rule_difference") is None:
            continue
        plays = min(row["before"]["rule"]["n"], row["after"]["rule"]["n"])
        if row["card"] in changed or plays >= minimum:
            drawn.append(row)
        else:
            left_out.append(row)
    drawn.sort(key=lambda r: (r["card"] not in changed, r["rule_difference"]))
    return drawn, left_out


def _count(histogram: dict, key: int) -> None:
    histogram[key] = histogram.get(key, 0) + 1


def _keys(histogram: dict) -> Dict[str, int]:
    """A histogram with its keys in order, as JSON keeps them (text)."""
    return {str(k): histogram[k] for k in sorted(histogram)}


def changed_cards(content, other) -> Dict[str, List[dict]]:
    """What differs in each card from ``content`` (before) to ``other`` (after), for every kind of
    card: for each changed card, its changed fields as ``{"field", "before", "after"}``, a field
    by its name in the state schema (a number, the sides or the place or group by name, a rule as
    the designer wrote it), or ``new`` / ``removed`` for a whole card (with its rule)."""
    mine, theirs = _cards(content), _cards(other)
    # a field whose default is another field's value ("defense: its power") follows that field
    # where the card gives it no value of its own: a change of the one is not an edit of the other
    follows = {name: default for kind in program_of(other).definition.schema.card_kinds
               for name, default in kind.defaults
               if isinstance(default, str) and default in {field for field, _ in kind.fields}}
    out: Dict[str, List[dict]] = {}
    for card_id, (fields, rule) in theirs.items():
        was = mine.get(card_id)
        if was is None:
            out[card_id] = [{"field": "new", "before": None, "after": rule}]
            continue
        changes = [{"field": name, "before": was[0].get(name), "after": value}
                   for name, value in fields.items() if was[0].get(name) != value
                   and not (name in follows and was[0].get(name) == was[0].get(follows[name])
                            and value == fields.get(follows[name]) and follows[name] in fields)]
        if changes:
            out[card_id] = changes
    for card_id, (_, rule) in mine.items():
        if card_id not in theirs:
            out[card_id] = [{"field": "removed", "before": rule, "after": None}]
    return out


def _cards(content) -> Dict[str, tuple]:
    """card id -> ({field: its value as the designer wrote it}, its first rule as written), for
    the cards of every kind."""
    definition = program_of(content).definition
    schema = definition.schema
    out: Dict[str, tuple] = {}
    for kind in schema.card_kinds:
        cards = definition.cards[kind.name]
        for index, card_id in enumerate(cards.ids):
            fields: Dict[str, object] = {}
            rule = None
            for f, (name, type_name) in enumerate(kind.fields):
                value = cards.fields[f][index]
                if type_name == "rule":
                    value = _written(cards.texts[f][index] if cards.texts else None)
                    rule = value if rule is None else rule
                elif type_name == "sides":
                    value = [schema.sides[s] for s in value]
                elif type_name in ("side", "place", "group"):
                    names = {"side": schema.sides, "place": schema.map.places,
                             "group": [g.name for g in schema.map.groups]}[type_name]
                    value = names[value] if isinstance(value, int) and value >= 0 else None
                fields[name] = value
            out[card_id] = (fields, rule)
    return out


def _written(text: Optional[str]) -> Optional[str]:
    """A rule as written, without the trailing spaces and blank lines YAML leaves."""
    if text is None:
        return None
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def measured(comparison: dict, key: str) -> str:
    """A comparison's text in its measure's words: 'the event player's win rate', or where the
    game's cards carry out no rule of their own, 'the win rate of the side that played it'."""
    return f"{key}_plays" if comparison.get("measure") == "plays" else key

