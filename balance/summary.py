"""What a balance report counts, folded from game records as they arrive (no record is kept):
the records are the lines ``crisis sim --records`` writes (``batch.record_json``), so they come
back from every process the batch API plays on.

``RunSummary`` is one run: the games of one pairing of bots under one set of rules.  Its
``analysis`` gives every rate with its Wilson interval, and for each strategy card the
event-against-value comparison (Fisher's exact test, Holm's adjustment over the cards);
``compare`` sets two runs of the same seeds side by side, card by card.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence

from .stats import Z95, fisher, histogram_mean, histogram_quantile, holm, newcombe, wilson


def rate(successes: int, trials: int, z: float = Z95) -> dict:
    p, low, high = wilson(successes, trials, z)
    return {"n": trials, "k": successes, "rate": None if trials == 0 else p, "low": low, "high": high}


class RunSummary:
    def __init__(self, content, label: str, bots: Sequence[str], event_discard: bool):
        board = content.board
        self.label, self.bots, self.event_discard = label, tuple(bots), event_discard
        self.sides = board.sides
        self.zones = [z.name for z in board.zones if z.box]  # a zone without a bonus box is never "breached"
        self.cards = [c.id for c in content.strategy_cards]
        self.card_index = {card: i for i, card in enumerate(self.cards)}
        self.objective_ids = [c.id for c in content.objective_cards]
        self.objective_index = {card: i for i, card in enumerate(self.objective_ids)}
        self.tie_break_texts = [r.text for r in content.procedures.tie_breaks]
        self.rounds = board.rounds
        self.games = 0
        self.seeds: List[int] = []
        self.wins = [0, 0]
        self.vp = [{}, {}]  # side -> {final VP: games}
        self.margin: Dict[int, int] = {}  # first side's VP minus the second's -> games
        self.tie_breaks: Dict[int, int] = {}  # -1: VP decided
        self.final_crisis: Dict[int, int] = {}  # round after which the Final Crisis began -> games
        self.breaches = [[[0, 0] for _ in self.zones] for _ in (0, 1)]  # [side][zone] = [first, second]
        # [card] = {mode: [plays, wins of the side that played it]}
        self.card_plays = [{"event": [0, 0], "value": [0, 0], "claim": [0, 0]} for _ in self.cards]
        self.objectives = [[0, 0, 0] for _ in self.objective_ids]  # [held, scored, holder won]
        self.first_player: Dict[int, List[int]] = {}  # round (rounds + 1: Final Crisis) -> [games, won]
        self.problems = 0

    # ------------------------------------------------------------ folding
    def add(self, record: dict) -> None:
        """Count one game, given as a line of ``crisis sim --records`` (``batch.record_json``)."""
        side_index = {side: i for i, side in enumerate(self.sides)}
        winner = side_index.get(record["winner"], -1)
        self.games += 1
        self.seeds.append(record["seed"])
        if record.get("problems"):
            self.problems += 1
        if winner >= 0:
            self.wins[winner] += 1
        vp = [record["vp"][side] for side in self.sides]
        for side in (0, 1):
            _count(self.vp[side], vp[side])
        _count(self.margin, vp[0] - vp[1])
        _count(self.tie_breaks, (record["tie_break"] or 0) - 1)
        _count(self.final_crisis, record["rounds"])
        zones = {zone: i for i, zone in enumerate(self.zones)}
        for breach in record["breaches"]:
            self.breaches[side_index[breach["side"]]][zones[breach["zone"]]][breach["order"] - 1] += 1
        cards = self.card_index
        for side, plays in record["played"].items():
            won = side_index[side] == winner
            claimed = list(plays["claimed"])
            for card in plays["event"]:
                if card in claimed:  # a claim plays the claimed card's event
                    claimed.remove(card)
                    mode = "claim"
                else:
                    mode = "event"
                entry = self.card_plays[cards[card]][mode]
                entry[0] += 1
                entry[1] += won
            for card in plays["value"]:
                entry = self.card_plays[cards[card]]["value"]
                entry[0] += 1
                entry[1] += won
        objectives = self.objective_index
        for kept in record.get("objectives", ()):
            entry = self.objectives[objectives[kept["objective"]]]
            entry[0] += 1
            entry[1] += bool(kept["scored"])
            entry[2] += side_index[kept["side"]] == winner
        first_players = record.get("first_players", ())
        for index, side in enumerate(first_players):
            # the last entry is the Final Crisis's first player (numbered rounds + 1)
            key = index + 1 if index < len(first_players) - 1 else self.rounds + 1
            entry = self.first_player.setdefault(key, [0, 0])
            entry[0] += 1
            entry[1] += side_index[side] == winner

    # ----------------------------------------------------------- analysis
    def analysis(self, level: float = 0.05, z: float = Z95) -> dict:
        n = self.games
        cards = []
        for index, card in enumerate(self.cards):
            plays = self.card_plays[index]
            event_n = plays["event"][0] + plays["claim"][0]  # a claimed event is played for its event
            event_k = plays["event"][1] + plays["claim"][1]
            value_n, value_k = plays["value"]
            p = fisher(event_k, event_n - event_k, value_k, value_n - value_k)
            cards.append({"card": card, "event": rate(event_k, event_n, z), "value": rate(value_k, value_n, z),
                          "claims": plays["claim"][0],
                          "difference": (None if not event_n or not value_n
                                         else event_k / event_n - value_k / value_n),
                          "p": p})
        for entry, adjusted in zip(cards, holm([c["p"] for c in cards])):
            entry["p_holm"] = adjusted
            entry["flagged"] = adjusted < level
        objectives = [{"objective": card, "held": held, "scored": rate(scored, held, z),
                       "holder_won": rate(won, held, z)}
                      for card, (held, scored, won) in zip(self.objective_ids, self.objectives)]
        return {
            "label": self.label, "bots": {side: bot for side, bot in zip(self.sides, self.bots)},
            "event_discard": self.event_discard, "games": n, "first_seed": min(self.seeds, default=None),
            "games_with_problems": self.problems,
            "wins": {side: rate(self.wins[i], n, z) for i, side in enumerate(self.sides)},
            "vp": {side: {"histogram": _keys(self.vp[i]), "mean": histogram_mean(self.vp[i]),
                          "median": histogram_quantile(self.vp[i], 0.5)} for i, side in enumerate(self.sides)},
            "margin": {"histogram": _keys(self.margin), "mean": histogram_mean(self.margin),
                       "median": histogram_quantile(self.margin, 0.5)},
            "tie_breaks": [{"tie_break": i, "text": None if i < 0 else self.tie_break_texts[i],
                            **rate(self.tie_breaks.get(i, 0), n, z)}
                           for i in [-1] + list(range(len(self.tie_break_texts)))],
            "final_crisis": [{"after_round": r, **rate(self.final_crisis.get(r, 0), n, z)}
                             for r in range(1, self.rounds + 1)],
            "breaches": [{"side": side, "zone": zone, "first": rate(self.breaches[i][j][0], n, z),
                          "second": rate(self.breaches[i][j][1], n, z),
                          "any": rate(self.breaches[i][j][0] + self.breaches[i][j][1], n, z)}
                         for i, side in enumerate(self.sides) for j, zone in enumerate(self.zones)],
            "first_player": [{"round": r, "final_crisis": r > self.rounds,
                              **rate(self.first_player[r][1], self.first_player[r][0], z)}
                             for r in sorted(self.first_player)],
            "cards": cards, "objectives": objectives,
        }


def compare(base: dict, other: dict, level: float = 0.05, z: float = Z95) -> dict:
    """Two analyses of the same seeds (``other``: the changed deck) card by card: the event
    player's win rate and how often each card was played each way, with Fisher's exact test
    of the event win rates and of the sides' win rates (Holm's adjustment over the cards), and
    the change in each card's event win rate with Newcombe's interval."""
    by_id = {c["card"]: c for c in base["cards"]}
    rows = []
    for card in other["cards"]:
        was = by_id.get(card["card"])
        if was is None:
            rows.append({"card": card["card"], "only_in": "compare", "p": 1.0})
            continue
        a, b = was["event"], card["event"]
        _, low, high = newcombe(b["k"], b["n"], a["k"], a["n"], z)
        rows.append({"card": card["card"], "before": was, "after": card,
                     "event_difference": (None if not a["n"] or not b["n"] else b["k"] / b["n"] - a["k"] / a["n"]),
                     "difference_low": low, "difference_high": high,
                     "p": fisher(b["k"], b["n"] - b["k"], a["k"], a["n"] - a["k"])})
    for card_id in by_id:
        if card_id not in {c["card"] for c in other["cards"]}:
            rows.append({"card": card_id, "only_in": "content", "p": 1.0})
    for row, adjusted in zip(rows, holm([r["p"] for r in rows])):
        row["p_holm"] = adjusted
        row["flagged"] = adjusted < level
    sides = {}
    for side, before in base["wins"].items():
        after = other["wins"].get(side)
        if after is not None:
            p = fisher(after["k"], after["n"] - after["k"], before["k"], before["n"] - before["k"])
            sides[side] = {"before": before, "after": after, "p": p, "flagged": p < level}
    return {"cards": rows, "wins": sides}


MIN_PLAYS = 10  # the change plot leaves out unchanged cards played for their event fewer times in a content


def change_rows(comparison: dict, minimum: int = MIN_PLAYS):
    """The rows the change plot draws, and the cards it leaves out: every changed card played
    for its event in both contents, and every other card played for its event at least
    ``minimum`` times in each; changed cards first, then by the change (lowest first).  Each
    row keeps its interval (``difference_low``, ``difference_high``)."""
    changed = comparison.get("changed", {})
    drawn, left_out = [], []
    for row in comparison["cards"]:
        if row.get("event_difference") is None:
            continue
        plays = min(row["before"]["event"]["n"], row["after"]["event"]["n"])
        if row["card"] in changed or plays >= minimum:
            drawn.append(row)
        else:
            left_out.append(row)
    drawn.sort(key=lambda r: (r["card"] not in changed, r["event_difference"]))
    return drawn, left_out


def _count(histogram: dict, key: int) -> None:
    histogram[key] = histogram.get(key, 0) + 1


def _keys(histogram: dict) -> Dict[str, int]:
    """A histogram with its keys in order, as JSON keeps them (text)."""
    return {str(k): histogram[k] for k in sorted(histogram)}


def changed_cards(content, other) -> Dict[str, List[dict]]:
    """What differs in each strategy card from ``content`` (before) to ``other`` (after): for each
    changed card, its changed fields as ``{"field", "before", "after"}``, where a field is
    ``value``, ``event_for`` (the sides), ``final_crisis`` (the dimension), ``event`` (the rule
    text as the designer wrote it), or ``new`` / ``removed`` for a whole card."""
    mine = {c.id: c for c in content.strategy_cards}
    out: Dict[str, List[dict]] = {}
    for card in other.strategy_cards:
        was: Optional[object] = mine.get(card.id)
        if was is None:
            out[card.id] = [{"field": "new", "before": None, "after": _rule_text(card)}]
            continue
        changes = [{"field": name, "before": a, "after": b} for name, a, b in (
            ("value", was.value, card.value), ("event_for", list(was.event_for), list(card.event_for)),
            ("final_crisis", was.final_crisis, card.final_crisis),
            ("event", _rule_text(was), _rule_text(card)))
            if a != b]
        if changes:
            out[card.id] = changes
    for card_id, card in mine.items():
        if card_id not in {c.id for c in other.strategy_cards}:
            out[card_id] = [{"field": "removed", "before": _rule_text(card), "after": None}]
    return out


def _rule_text(card) -> Optional[str]:
    """A card's event as written, without the trailing spaces and blank lines YAML leaves."""
    if card.event is None:
        return None
    return "\n".join(line.rstrip() for line in card.event.text.strip("\n").splitlines())
