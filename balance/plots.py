"""The report's plots, drawn with matplotlib (the ``report`` extra) as PNG bytes.

Every label comes from the report's words, and numbers on the axes are written the report's
way (a decimal comma in Spanish).  Rates are drawn with their confidence intervals.
"""

from __future__ import annotations

import io
from typing import List, Optional

from .summary import measured


def plots_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


class Plotter:
    def __init__(self, words):
        import matplotlib
        matplotlib.use("Agg")  # files only: no display needed
        import matplotlib.pyplot as plt
        from matplotlib.ticker import FuncFormatter
        self.plt, self.w = plt, words
        self.percent = FuncFormatter(
            lambda x, _: words.number(100 * x, 0 if float(round(100 * x, 6)).is_integer() else 1) + "%")
        self.plain = FuncFormatter(lambda x, _: words.number(x, 0 if float(x).is_integer() else 1))

    def _png(self, figure) -> bytes:
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
        self.plt.close(figure)
        return buffer.getvalue()

    @staticmethod
    def _errors(entries) -> List[List[float]]:
        rates = [e["rate"] or 0.0 for e in entries]
        return [[max(0.0, r - e["low"]) for r, e in zip(rates, entries)],
                [max(0.0, e["high"] - r) for r, e in zip(rates, entries)]]

    # ----------------------------------------------------------- plots
    def wins(self, runs) -> bytes:
        """The first side's win rate in every run, with its interval."""
        w = self.w
        figure, axes = self.plt.subplots(figsize=(8, 0.5 + 0.45 * len(runs)))
        first = list(runs[0]["wins"])[0]
        entries = [run["wins"][first] for run in runs]
        labels = [w.run_title(run) for run in runs]
        axes.barh(range(len(runs)), [e["rate"] or 0 for e in entries], xerr=self._errors(entries),
                  color="#4a7fb5", capsize=3)
        axes.axvline(0.5, color="#888", linewidth=1, linestyle="--")
        axes.set_yticks(range(len(runs)), labels)
        axes.invert_yaxis()
        axes.set_xlim(0, 1)
        axes.xaxis.set_major_formatter(self.percent)
        axes.set_xlabel(w("axis_win_rate", side=w.side(first)))
        axes.set_title(w("plot_wins"))
        return self._png(figure)

    def score(self, run) -> bytes:
        """The final score (VP) of each side, and the margin between the two sides."""
        w = self.w
        figure, (left, right) = self.plt.subplots(1, 2, figsize=(10, 3.4))
        colours = ("#4a7fb5", "#b5534a")
        scored = max(run["score"].get("games", run["games"]), 1)  # shares of the games scored (none won at once)
        for index, (side, entry) in enumerate(run["score"]["sides"].items()):
            histogram = entry["histogram"]
            xs = [int(k) + (index - 0.5) * 0.4 for k in histogram]
            left.bar(xs, [v / scored for v in histogram.values()], width=0.4, color=colours[index % 2],
                     label=w.side(side))
        left.set_xlabel(w("axis_final_score"))
        left.set_ylabel(w("axis_share_of_games"))
        left.yaxis.set_major_formatter(self.percent)
        left.xaxis.set_major_formatter(self.plain)
        left.legend()
        left.set_title(w("plot_score"))
        margin = run["score"]["margin"]["histogram"]
        right.bar([int(k) for k in margin], [v / scored for v in margin.values()], color="#777")
        sides = [w.side(s) for s in run["score"]["sides"]]
        right.set_xlabel(w("axis_margin", first=sides[0], second=sides[1]))
        right.set_ylabel(w("axis_share_of_games"))
        right.yaxis.set_major_formatter(self.percent)
        right.xaxis.set_major_formatter(self.plain)
        right.set_title(w("plot_margin"))
        return self._png(figure)

    def entered(self, run) -> bytes:
        """The share of games in which each side entered each zone (breached it), by zone."""
        w = self.w
        zones = list(dict.fromkeys((b["track"], b["zone"]) for b in run["entered"]))
        sides = list(run["wins"])
        width = 0.76 / max(1, len(sides))
        figure, axes = self.plt.subplots(figsize=(8, 3.2))
        colours = ("#4a7fb5", "#b5534a", "#6a9f4a", "#7a5fa5")
        for index, side in enumerate(sides):
            entries = [next(b["any"] for b in run["entered"] if b["side"] == side and (b["track"], b["zone"]) == z)
                       for z in zones]
            xs = [z + (index - (len(sides) - 1) / 2) * width for z in range(len(zones))]
            axes.bar(xs, [e["rate"] or 0 for e in entries], width=width, yerr=self._errors(entries), capsize=3,
                     color=colours[index % len(colours)], label=w.side(side))
        axes.set_xticks(range(len(zones)), [w.zone(t, z) for t, z in zones])
        axes.set_ylim(0, 1)
        axes.yaxis.set_major_formatter(self.percent)
        axes.set_ylabel(w("axis_games_entered"))
        axes.set_xlabel(w("axis_zone"))
        axes.legend()
        axes.set_title(w("plot_entered"))
        return self._png(figure)

    def cards(self, run) -> bytes:
        """For each card, the win rates of the players whose play carried out its rule (its event)
        and of the others (its value), flagged cards marked."""
        w = self.w
        cards = sorted(run["cards"], key=lambda c: -(c["difference"] if c["difference"] is not None else -9))
        return self._rates(cards, (("rule", "#b5534a", -0.15, w("rule_player_won")),
                                   ("other", "#4a7fb5", 0.15, w("other_player_won"))),
                           [("★ " if c["flagged"] else "") + w.card(c["card"]) for c in cards],
                           w("axis_win_rate_of_player"), w("plot_cards"), reference=0.5)

    def plays(self, run) -> bytes:
        w = self.w
        cards = sorted(run["cards"], key=lambda c: -(c["rule"]["n"] + c["other"]["n"]))
        figure, axes = self.plt.subplots(figsize=(9, 1 + 0.25 * len(cards)))
        rules = [c["rule"]["n"] / run["games"] for c in cards]
        others = [c["other"]["n"] / run["games"] for c in cards]
        axes.barh(range(len(cards)), rules, color="#b5534a", label=w("played_for_rule"))
        axes.barh(range(len(cards)), others, left=rules, color="#4a7fb5", label=w("played_for_other"))
        self._categories(axes, [w.card(c["card"]) for c in cards], self.plain, w("axis_plays_per_game"),
                         w("plot_plays"))
        return self._png(figure)

    def kept(self, run) -> bytes:
        """For each card kept in some game, how often its rule was carried out and its holder won."""
        w = self.w
        kept = [o for o in run["kept"] if o["held"]]
        return self._rates(kept, (("carried_out", "#6a9f4a", -0.15, w("carried_out")),
                                  ("holder_won", "#7a5fa5", 0.15, w("holder_won"))),
                           [w.card(o["card"], o["kind"]) for o in kept],
                           w("axis_share_of_holders"), w("plot_kept"))

    def _rates(self, rows, series, labels, xlabel: str, title: str, reference: Optional[float] = None) -> bytes:
        """Rates with their intervals, one line per row, one colour per series (key, colour, offset, label)."""
        figure, axes = self.plt.subplots(figsize=(9, 1 + 0.28 * max(1, len(rows))))
        for key, colour, offset, label in series:
            shown = [i for i, row in enumerate(rows) if row[key]["n"]]
            entries = [rows[i][key] for i in shown]
            axes.errorbar([e["rate"] for e in entries], [i + offset for i in shown], xerr=self._errors(entries),
                          fmt="o", markersize=4, capsize=2, color=colour, label=label)
        if reference is not None:
            axes.axvline(reference, color="#888", linewidth=1, linestyle="--")
        axes.set_xlim(0, 1)
        self._categories(axes, labels, self.percent, xlabel, title)
        return self._png(figure)

    @staticmethod
    def _categories(axes, labels, formatter, xlabel: str, title: str, legend: bool = True) -> None:
        """One row per label, first at the top; the x axis numbered with ``formatter``."""
        axes.set_yticks(range(len(labels)), labels)
        axes.invert_yaxis()
        axes.xaxis.set_major_formatter(formatter)
        axes.set_xlabel(xlabel)
        if legend:
            axes.legend(loc="lower right")
        axes.set_title(title)

    def compare(self, comparison, rows) -> Optional[bytes]:
        """The change in each card's rule player's win rate (after minus before) with its interval,
        for ``rows`` (``summary.change_rows``: changed cards first, then cards played often enough),
        each labelled with how often its rule was carried out before and after."""
        w = self.w
        if not rows:
            return None
        changed = comparison.get("changed", {})
        figure, axes = self.plt.subplots(figsize=(9, 1 + 0.28 * len(rows)))
        for index, row in enumerate(rows):
            mine = row["card"] in changed
            colour = "#d08a1e" if row["flagged"] else "#b5534a" if mine else "#4a7fb5"
            d = row["rule_difference"]
            axes.errorbar([d], [index], xerr=[[max(0.0, d - row["difference_low"])],
                                              [max(0.0, row["difference_high"] - d)]],
                          fmt="D" if mine else "o", markersize=5 if mine else 4, capsize=2, color=colour)
        mine = sum(1 for r in rows if r["card"] in changed)
        if 0 < mine < len(rows):
            axes.axhline(mine - 0.5, color="#bbb", linewidth=1)
        axes.axvline(0, color="#888", linewidth=1)
        axes.set_xlim(max(-1.0, min(r["difference_low"] for r in rows) - 0.05),
                      min(1.0, max(r["difference_high"] for r in rows) + 0.05))
        labels = [("★ " if r["flagged"] else "") + w("plot_card_plays", card=w.card(r["card"]),
                                                     before=r["before"]["rule"]["n"], after=r["after"]["rule"]["n"])
                  for r in rows]
        self._categories(axes, labels, self.percent, w("axis_rule_difference"), w(measured(comparison, "plot_compare")),
                         legend=False)
        for label, row in zip(axes.get_yticklabels(), rows):
            if row["card"] in changed:
                label.set_fontweight("bold")
        return self._png(figure)
