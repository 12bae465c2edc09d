"""Writing a balance report: ``report.json`` (every number), CSV tables (``runs.csv``,
``cards.csv``, ``objectives.csv``, ``compare.csv``) and ``report.html``, one self-contained
page (styles inline, plots embedded as PNG data) a designer opens in a browser.

Every word comes from the content's catalog (``report.*`` keys), so ``--lang es`` gives a
Spanish report with decimal commas, plots included.  Plots need matplotlib (the ``report``
extra); without it the page has the tables only and ``plots_available()`` says so.
"""

from __future__ import annotations

import base64
import csv
import html
import json
from pathlib import Path
from typing import Dict, List, Optional

from .plots import Plotter, plots_available

FILES = ("report.html", "report.json", "runs.csv", "cards.csv", "objectives.csv")


class Words:
    """The report's texts and numbers in the report's language."""

    def __init__(self, show):
        self.show, self.c = show, show.catalog

    def __call__(self, key: str, **params) -> str:
        return self.c.text("report." + key, **params)

    def number(self, value, digits: int = 1) -> str:
        if value is None or value != value:  # nan
            return "–"
        return self.show.decimal(value, digits)

    def percent(self, value) -> str:
        if value is None:
            return "–"
        whole = float(round(100 * value, 9)).is_integer()  # 95%, not 95.0%
        return self.number(100 * value, 0 if whole else 1) + "%"

    def rate(self, entry: dict) -> str:
        """'52.3% (49.1–55.4%), n = 1000'."""
        if not entry["n"]:
            return self("no_games")
        return self("rate", rate=self.percent(entry["rate"]), low=self.percent(entry["low"]),
                    high=self.percent(entry["high"]), n=entry["n"])

    def p(self, value: float) -> str:
        return "< 0" + self.number(0.0001, 4)[1:] if value < 0.0001 else self.number(value, 4)

    def side(self, name: str) -> str:
        return self.show.side(name)

    def zone(self, name: str) -> str:
        return self.c.name("zones", name)

    def card(self, card_id: str) -> str:
        return self.show.card(card_id)

    def objective(self, card_id: str) -> str:
        return self.c.text(f"objectives.{card_id}.title")

    def bots(self, run: dict) -> str:
        return ", ".join(f"{self.side(side)}: {bot}" for side, bot in run["bots"].items())

    def run_title(self, run: dict) -> str:
        rule = self("with_event_discard") if run["event_discard"] else self("without_event_discard")
        return f"{self.bots(run)} · {rule}"


def write(out: Path, data: dict, show, lang: str) -> List[Path]:
    """Write every file of the report into ``out``; the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    words = Words(show)
    written = []
    path = out / "report.json"
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False, default=_plain) + "\n",
                    encoding="utf-8")
    written.append(path)
    for name, header, rows in tables(data):
        path = out / name
        with path.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(header)
            writer.writerows(rows)
        written.append(path)
    path = out / "report.html"
    path.write_text(page(data, words, lang), encoding="utf-8")
    written.append(path)
    return written


def _plain(value):
    raise TypeError(f"cannot write {type(value).__name__} in a report")


# ------------------------------------------------------------------ CSV


def tables(data: dict):
    """(file name, header, rows): the report's numbers as tables (the same as in the JSON)."""
    runs, cards, objectives = [], [], []
    for run in data["runs"]:
        label = run["label"]
        for side, entry in run["wins"].items():
            runs.append([label, side, run["bots"][side], run["event_discard"], run["games"], entry["k"],
                         _n(entry["rate"]), _n(entry["low"]), _n(entry["high"]), run["vp"][side]["mean"]])
        for card in run["cards"]:
            e, v = card["event"], card["value"]
            cards.append([label, card["card"], e["n"], e["k"], _n(e["rate"]), _n(e["low"]), _n(e["high"]),
                          v["n"], v["k"], _n(v["rate"]), _n(v["low"]), _n(v["high"]), card["claims"],
                          _n(card["difference"]), card["p"], card["p_holm"], card["flagged"]])
        for entry in run["objectives"]:
            s, w = entry["scored"], entry["holder_won"]
            objectives.append([label, entry["objective"], entry["held"], s["k"], _n(s["rate"]), w["k"],
                               _n(w["rate"]), _n(w["low"]), _n(w["high"])])
    out = [
        ("runs.csv", ["run", "side", "bot", "event_discard", "games", "wins", "win_rate", "low", "high",
                      "mean_vp"], runs),
        ("cards.csv", ["run", "card", "event_plays", "event_wins", "event_win_rate", "event_low", "event_high",
                       "value_plays", "value_wins", "value_win_rate", "value_low", "value_high", "claims",
                       "difference", "p", "p_holm", "flagged"], cards),
        ("objectives.csv", ["run", "objective", "held", "scored", "scored_rate", "holder_wins",
                            "holder_win_rate", "low", "high"], objectives),
    ]
    if data.get("compare"):
        rows = []
        for row in data["compare"]["cards"]:
            before, after = row.get("before"), row.get("after")
            rows.append([row["card"], ",".join(data["compare"]["changed"].get(row["card"], [])),
                         before["event"]["n"] if before else "", _n(before["event"]["rate"]) if before else "",
                         after["event"]["n"] if after else "", _n(after["event"]["rate"]) if after else "",
                         _n(row.get("event_difference")), row["p"], row["p_holm"], row["flagged"]])
        out.append(("compare.csv", ["card", "changed", "before_event_plays", "before_event_win_rate",
                                    "after_event_plays", "after_event_win_rate", "difference", "p", "p_holm",
                                    "flagged"], rows))
    return out


def _n(value):
    return "" if value is None else value


# ------------------------------------------------------------------ HTML

_STYLE = """
body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.6rem}h2{margin-top:2.5rem;border-bottom:1px solid #ccc}h3{margin-top:1.8rem}
table{border-collapse:collapse;margin:.8rem 0;font-size:.9rem}
th,td{border:1px solid #ddd;padding:.25rem .55rem;text-align:right}th{background:#f3f3f3}
td.l,th.l{text-align:left}tr.flag td{background:#fff1d6;font-weight:600}
.note{color:#555;font-size:.9rem}.plot{max-width:100%;height:auto;display:block;margin:.8rem 0}
.headline{font-size:1.1rem;background:#f6f8fa;padding:.6rem 1rem;border-left:4px solid #4a7}
"""


def page(data: dict, w: Words, lang: str) -> str:
    meta = data["meta"]
    plotter = Plotter(w) if plots_available() else None
    parts = [f"<!DOCTYPE html><html lang=\"{html.escape(lang)}\"><head><meta charset=\"utf-8\">",
             f"<title>{_e(w('title'))}</title><style>{_STYLE}</style></head><body>",
             f"<h1>{_e(w('title'))}</h1>",
             f"<p>{_e(w('subtitle', content=meta['content'], games=meta['games'], first=meta['seed'], last=meta['seed'] + meta['games'] - 1, seconds=w.number(meta['seconds'], 0)))}</p>"]
    if plotter is None:
        parts.append(f"<p class=\"note\">{_e(w('no_plots'))}</p>")
    parts.append(f"<p class=\"note\">{_e(w('method', level=w.percent(meta['level']), confidence=w.percent(meta['confidence'])))}</p>")
    parts.append(_headlines(data, w))
    if plotter is not None and len(data["runs"]) > 1:
        parts.append(_img(plotter.wins(data["runs"])))
    for run in data["runs"]:
        parts.append(_run(run, w, plotter))
    if data.get("compare"):
        parts.append(_compare(data, w, plotter))
    parts.append("</body></html>\n")
    return "".join(parts)


def _e(text) -> str:
    return html.escape(str(text))


def _img(png: Optional[bytes]) -> str:
    if not png:
        return ""
    return f"<img class=\"plot\" alt=\"\" src=\"data:image/png;base64,{base64.b64encode(png).decode()}\">"


def _table(header: List[str], rows: List[List[str]], flags: Optional[List[bool]] = None, left: int = 1) -> str:
    out = ["<table><tr>"]
    out += [f"<th class=\"{'l' if i < left else ''}\">{_e(h)}</th>" for i, h in enumerate(header)]
    out.append("</tr>")
    for index, row in enumerate(rows):
        flagged = flags is not None and flags[index]
        out.append("<tr class=\"flag\">" if flagged else "<tr>")
        out += [f"<td class=\"{'l' if i < left else ''}\">{_e(cell)}</td>" for i, cell in enumerate(row)]
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def _headlines(data: dict, w: Words) -> str:
    lines = []
    for run in data["runs"]:
        wins = "; ".join(f"{w.side(side)} {w.rate(entry)}" for side, entry in run["wins"].items())
        flagged = [w.card(c["card"]) for c in run["cards"] if c["flagged"]]
        lines.append(f"<p class=\"headline\"><b>{_e(w.run_title(run))}</b><br>{_e(w('wins_line', wins=wins))}<br>"
                     f"{_e(w('flagged_line', n=len(flagged), cards=', '.join(flagged) or '–'))}</p>")
    return "".join(lines)


def _run(run: dict, w: Words, plotter) -> str:
    out = [f"<h2>{_e(w.run_title(run))}</h2>",
           f"<p>{_e(w('games_line', games=run['games'], first=run['first_seed']))}</p>"]
    sides = list(run["wins"])
    # wins and VP
    out.append(f"<h3>{_e(w('wins_heading'))}</h3>")
    rows = [[w.side(side), w.rate(run["wins"][side]), w.number(run["vp"][side]["mean"], 2),
             w.number(run["vp"][side]["median"], 0)] for side in sides]
    out.append(_table([w("side"), w("win_rate"), w("mean_vp"), w("median_vp")], rows))
    out.append(f"<p>{_e(w('margin_line', mean=w.number(run['margin']['mean'], 2), median=w.number(run['margin']['median'], 0), first=w.side(sides[0]), second=w.side(sides[1])))}</p>")
    if plotter is not None:
        out.append(_img(plotter.vp(run)))
    # tie-breaks and the Final Crisis
    out.append(f"<h3>{_e(w('tie_breaks_heading'))}</h3>")
    rows = [[w("decided_by_vp") if t["tie_break"] < 0 else w("tie_break", n=t["tie_break"] + 1, text=t["text"]),
             w.rate(t)] for t in run["tie_breaks"]]
    out.append(_table([w("decided_by"), w("share_of_games")], rows))
    out.append(f"<h3>{_e(w('final_crisis_heading'))}</h3>")
    rows = [[w("after_round", n=f["after_round"]), w.rate(f)] for f in run["final_crisis"]]
    out.append(_table([w("final_crisis_began"), w("share_of_games")], rows))
    # breaches
    out.append(f"<h3>{_e(w('breaches_heading'))}</h3>")
    rows = [[w.zone(b["zone"]), w.side(b["side"]), w.rate(b["any"]), w.rate(b["first"])] for b in run["breaches"]]
    out.append(_table([w("zone"), w("side"), w("breached"), w("breached_first")], rows, left=2))
    if plotter is not None:
        out.append(_img(plotter.breaches(run)))
    # first player
    out.append(f"<h3>{_e(w('first_player_heading'))}</h3>")
    rows = [[w("final_crisis") if f["final_crisis"] else w("round", n=f["round"]), w.rate(f)]
            for f in run["first_player"]]
    out.append(_table([w("first_player_of"), w("first_player_won")], rows))
    # cards
    out.append(f"<h3>{_e(w('cards_heading'))}</h3><p class=\"note\">{_e(w('cards_note'))}</p>")
    cards = sorted(run["cards"], key=lambda c: (c["p_holm"], c["p"]))
    rows = [[w.card(c["card"]), w.rate(c["event"]), w.rate(c["value"]), c["claims"],
             "–" if c["difference"] is None else w.number(100 * c["difference"], 1), w.p(c["p"]),
             w.p(c["p_holm"]), w("yes") if c["flagged"] else ""] for c in cards]
    out.append(_table([w("card"), w("event_player_won"), w("value_player_won"), w("claims"), w("difference"),
                       w("p"), w("p_holm"), w("flagged")], rows, [c["flagged"] for c in cards]))
    if plotter is not None:
        out.append(_img(plotter.cards(run)))
        out.append(_img(plotter.plays(run)))
    # objectives
    out.append(f"<h3>{_e(w('objectives_heading'))}</h3>")
    rows = [[w.objective(o["objective"]), o["held"], w.rate(o["scored"]), w.rate(o["holder_won"])]
            for o in run["objectives"]]
    out.append(_table([w("objective"), w("held"), w("scored"), w("holder_won")], rows))
    if plotter is not None:
        out.append(_img(plotter.objectives(run)))
    return "".join(out)


def _compare(data: dict, w: Words, plotter) -> str:
    comparison, meta = data["compare"], data["meta"]
    out = [f"<h2>{_e(w('compare_heading', before=meta['compare'], after=meta['content']))}</h2>",
           f"<p class=\"note\">{_e(w('compare_note'))}</p>"]
    rows = [[w.side(side), w.rate(s["before"]), w.rate(s["after"]), w.p(s["p"])]
            for side, s in comparison["wins"].items()]
    out.append(_table([w("side"), w("before"), w("after"), w("p")], rows))
    changed: Dict[str, List[str]] = comparison["changed"]
    rows, flags = [], []
    for row in sorted(comparison["cards"], key=lambda r: (r["p_holm"], r["card"])):
        before, after = row.get("before"), row.get("after")
        rows.append([w.card(row["card"]), ", ".join(w("changed_" + c) for c in changed.get(row["card"], [])),
                     w.rate(before["event"]) if before else "–", w.rate(after["event"]) if after else "–",
                     "–" if row.get("event_difference") is None else w.number(100 * row["event_difference"], 1),
                     w.p(row["p"]), w.p(row["p_holm"]), w("yes") if row["flagged"] else ""])
        flags.append(row["flagged"])
    out.append(_table([w("card"), w("changed"), w("before"), w("after"), w("difference"), w("p"), w("p_holm"),
                       w("flagged")], rows, flags))
    if plotter is not None:
        out.append(_img(plotter.compare(comparison)))
    return "".join(out)


def text_summary(data: dict, w: Words) -> List[str]:
    """The headline figures as lines for the terminal."""
    lines = []
    for run in data["runs"]:
        lines.append(w.run_title(run))
        for side, entry in run["wins"].items():
            lines.append("  " + w("side_won", side=w.side(side), rate=w.rate(entry)))
        flagged = [c for c in run["cards"] if c["flagged"]]
        lines.append("  " + w("flagged_line", n=len(flagged), cards=", ".join(w.card(c["card"]) for c in flagged) or "–"))
    if data.get("compare"):
        flagged = [r for r in data["compare"]["cards"] if r["flagged"]]
        lines.append(w("compare_line", n=len(flagged), cards=", ".join(w.card(r["card"]) for r in flagged) or "–"))
    return lines
