"""Writing a balance report: ``report.json`` (every number), CSV tables (``runs.csv``,
``cards.csv``, ``kept.csv``, ``compare.csv``) and ``report.html``, one self-contained
page (styles inline, plots embedded as PNG data) a designer opens in a browser.

Every word comes from the content's catalog (``report.*`` keys), so ``--lang es`` gives a
Spanish report with decimal commas, plots included; the names of sides, zones, cards, steps
and counters are the content's, and a heading about one of them may be the content's own
(``report.loops.round.heading``, ``report.first_player_at.<step>``), else a general one.  Plots
need matplotlib (the ``report`` extra); without it the page has the tables only and
``plots_available()`` says so.
"""

from __future__ import annotations

import base64
import csv
import difflib
import html
import json
import re
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from crisis.interpreter.records import reading_of

from .plots import Plotter, plots_available
from .summary import change_rows, measured as _measured, tie_break_texts
from crisis.interpreter.engine.program import program_of

FILES = ("report.html", "report.json", "runs.csv", "cards.csv", "kept.csv")


def snake(name: str) -> str:
    """A content name as a catalog key's part: "card play" -> "card_play"."""
    return name.lower().replace(" ", "_").replace("-", "_")


class Words:
    """The report's texts and numbers in the report's language."""

    def __init__(self, show):
        self.show, self.c = show, show.catalog
        content = getattr(show, "content", None)
        self.schema = program_of(content).schema if content is not None else None
        reading = reading_of(program_of(content)) if content is not None else None
        self.every_option = reading.options if reading is not None else ()
        self.played = reading.kinds[reading.played_kind] if reading is not None else None  # the cards players play

    def __call__(self, key: str, **params) -> str:
        return self.c.text("report." + key, **params)

    def either(self, key: str, general: str, **params) -> str:
        """The content's own text for ``key`` if its catalog has one, else the general ``general``."""
        return self(key if self.c.raw("report." + key) is not None else general, **params)

    def number(self, value, digits: int = 1) -> str:
        if value is None or value != value:  # nan
            return "–"
        if round(value, digits) == 0:
            value = 0.0  # never "-0.0"
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

    def zone(self, track: str, name: str) -> str:
        """A zone's name, from the catalog section its track's zone word names ("zones")."""
        words = next((t.zone_words for t in self.schema.tracks if t.name == track), ()) if self.schema else ()
        return self.c.name(words[-1] if words else "zones", name)

    def card(self, card_id: str, kind: Optional[str] = None) -> str:
        """A card's title: from the catalog section its kind's word names ("cards" for cards);
        without a kind, the played kind's, else the first other kind that has the card (a
        changed card of any kind is named by its id alone)."""
        if kind is None and self.schema is not None:
            for other in [None] + [k.name for k in self.schema.card_kinds]:
                if self.c.raw(f"{self.card_section(other)}.{card_id}.title") is not None:
                    kind = other
                    break
        return self.c.text(f"{self.card_section(kind)}.{card_id}.title")

    def card_section(self, kind: Optional[str] = None) -> str:
        """The catalog section of a kind of card (by default the kind players play)."""
        kinds = self.schema.card_kinds if self.schema else ()
        found = next((k for k in kinds if k.name == (kind or self.played)), None)
        return found.words[-1] if found is not None and found.words else "cards"

    def step(self, entry: dict) -> str:
        """A step of the sequence of play with the loop counters it ran in: the content's own words
        (``report.first_player_at.<step>``, counters as placeholders), else the general ones."""
        params = {snake(k): v for k, v in entry["counters"].items()}
        key = f"first_player_at.{snake(entry['step'] or '')}"
        if self.c.raw("report." + key) is not None:
            return self(key, **params)
        counters = ", ".join(f"{self.c.name('counters', name)} {value}" for name, value in entry["counters"].items())
        return self("step", step=self.c.name("steps", entry["step"] or ""), counters=counters,
                    n=len(entry["counters"]))

    def loop(self, part: str, counter: str, **params) -> str:
        """The loop over a counter (the round): the content's words for it, else the general ones
        with the counter's name in the report's language."""
        return self.either(f"loops.{snake(counter)}.{part}", f"loop_{part}", counter=self.c.name("counters", counter),
                           **params)

    def tie_break_texts(self) -> List[str]:
        """The tie-breaks' conditions as players read them in the report's language."""
        content = getattr(self.show, "content", None)
        return tie_break_texts(content, self.c) if content is not None else []

    def option(self, name: str) -> str:
        return self("options." + name) if self.c.raw("report.options." + name) is not None else name

    def options(self, run: dict) -> str:
        """The optional rules a run played with ("with Event Discard"), or the content's, without."""
        if run["options"]:
            return self("with_options", options=self.names([self.option(o) for o in run["options"]]))
        return self("without_options", options=self.names([self.option(o) for o in self.every_option])) \
            if self.every_option else ""

    def points(self, difference) -> str:
        """A difference of two rates in points of percentage, signed: '+3.2', '−12'."""
        if difference is None or difference != difference:
            return "–"
        text = self.number(abs(100 * difference), 1)
        return ("+" if difference > 0 else "−" if difference < 0 else "") + text

    def names(self, items: List[str]) -> str:
        """'A', 'A and B', 'A, B and C' in the report's language."""
        if len(items) < 2:
            return "".join(items)
        return self("and", first=", ".join(items[:-1]), last=items[-1])

    def field_type(self, field: str) -> Optional[str]:
        """A card field's type in the state schema (None for a whole card, new or removed)."""
        for kind in self.schema.card_kinds if self.schema else ():
            found = kind.field_type(field)
            if found is not None:
                return found
        return None

    def is_text(self, change: dict) -> bool:
        """Whether a change is about a rule's text (shown before and after, not in a few words)."""
        return change["field"] in ("new", "removed") or self.field_type(change["field"]) == "rule"

    def change(self, change: dict) -> str:
        """One changed field of a card in a few words: 'value 2 → 3', 'event text'."""
        field, before, after = change["field"], change["before"], change["after"]
        if field in ("new", "removed"):
            return self("change_" + field)
        kind = self.field_type(field)
        if kind == "sides":
            before, after = (self.names([self.side(s) for s in sides or ()]) for sides in (before, after))
        elif kind == "side":
            before, after = (self.side(s) if s else None for s in (before, after))
        elif kind in ("place", "group") and self.schema is not None:
            words = self.schema.map.place_words if kind == "place" else self.schema.map.group_words
            before, after = (self.c.name(words[-1], name) if name else None for name in (before, after))
        return self.either(f"change.{snake(field)}", "change_field", field=field,
                           before="–" if before is None else before, after="–" if after is None else after)

    def bots(self, run: dict) -> str:
        return ", ".join(f"{self.side(side)}: {bot}" for side, bot in run["bots"].items())

    def run_title(self, run: dict) -> str:
        rules = self.options(run)
        return f"{self.bots(run)} · {rules}" if rules else self.bots(run)


def write(out: Path, data: dict, show, lang: str, before=None) -> List[Path]:
    """Write every file of the report into ``out``; the paths written.  ``before``: the content
    compared against (``--compare``), whose changed card texts the page shows as players read
    them; without it the page shows the rules as written."""
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
    path.write_text(page(data, words, lang, before), encoding="utf-8")
    written.append(path)
    for name in REPORT_FILES:  # an earlier report's file this one has not (compare.csv of a --compare run)
        stale = out / name
        if stale not in written and stale.is_file():
            stale.unlink()
    return written


# every file a report may write: a folder written again holds none of an earlier report's
REPORT_FILES = ("report.json", "runs.csv", "cards.csv", "kept.csv", "compare.csv", "report.html")


def _plain(value):
    raise TypeError(f"cannot write {type(value).__name__} in a report")


# ------------------------------------------------------------------ CSV


def tables(data: dict):
    """(file name, header, rows): the report's numbers as tables (the same as in the JSON)."""
    runs, cards, kept = [], [], []
    uses = list(data["runs"][0]["cards"][0]["uses"]) if data["runs"] and data["runs"][0]["cards"] else []
    for run in data["runs"]:
        label = run["label"]
        score = run["score"]
        for side, entry in run["wins"].items():
            runs.append([label, side, run["bots"][side], "+".join(run["options"]), run["games"], entry["k"],
                         _n(entry["rate"]), _n(entry["low"]), _n(entry["high"]),
                         _n(score["sides"][side]["mean"] if score else None)])
        for card in run["cards"]:
            e, v = card["rule"], card["other"]
            cards.append([label, card["card"], e["n"], e["k"], _n(e["rate"]), _n(e["low"]), _n(e["high"]),
                          v["n"], v["k"], _n(v["rate"]), _n(v["low"]), _n(v["high"]),
                          *[card["uses"][use]["n"] for use in uses],
                          _n(card["difference"]), card["p"], card["p_holm"], card["flagged"]])
        for entry in run["kept"]:
            c, w = entry["carried_out"], entry["holder_won"]
            kept.append([label, entry["kind"], entry["card"], entry["held"], c["k"], _n(c["rate"]), w["k"],
                         _n(w["rate"]), _n(w["low"]), _n(w["high"])])
    out = [
        ("runs.csv", ["run", "side", "bot", "options", "games", "wins", "win_rate", "low", "high",
                      "mean_score"], runs),
        ("cards.csv", ["run", "card", "rule_plays", "rule_wins", "rule_win_rate", "rule_low", "rule_high",
                       "other_plays", "other_wins", "other_win_rate", "other_low", "other_high",
                       *[f"plays_{use}" for use in uses], "difference", "p", "p_holm", "flagged"], cards),
        ("kept.csv", ["run", "kind", "card", "held", "rule_carried_out", "rule_carried_out_rate", "holder_wins",
                      "holder_win_rate", "low", "high"], kept),
    ]
    if data.get("compare"):
        rows = []
        tested = {row["card"] for row in data["compare"]["cards"]}
        for card, changes in data["compare"]["changed"].items():  # a changed card with no plays to test first
            if card not in tested:
                rows.append([card, ",".join(c["field"] for c in changes),
                             "; ".join(f"{c['field']}: {_flat(c['before'])}" for c in changes),
                             "; ".join(f"{c['field']}: {_flat(c['after'])}" for c in changes),
                             "", "", "", "", "", "", "", "", "", ""])
        for row in data["compare"]["cards"]:
            before, after = row.get("before"), row.get("after")
            changes = data["compare"]["changed"].get(row["card"], [])
            rows.append([row["card"], ",".join(c["field"] for c in changes),
                         "; ".join(f"{c['field']}: {_flat(c['before'])}" for c in changes),
                         "; ".join(f"{c['field']}: {_flat(c['after'])}" for c in changes),
                         before["rule"]["n"] if before else "", _n(before["rule"]["rate"]) if before else "",
                         after["rule"]["n"] if after else "", _n(after["rule"]["rate"]) if after else "",
                         _n(row.get("rule_difference")), _n(row.get("difference_low")),
                         _n(row.get("difference_high")), row["p"], row["p_holm"], row["flagged"]])
        out.append(("compare.csv", ["card", "changed", "was", "now", "before_rule_plays", "before_rule_win_rate",
                                    "after_rule_plays", "after_rule_win_rate", "difference", "difference_low",
                                    "difference_high", "p", "p_holm", "flagged"], rows))
    return out


def _n(value):
    return "" if value is None else value


def _flat(value) -> str:
    """A changed field's value on one line of a table: sides joined by '+', rule lines by ' / '."""
    if value is None:
        return "–"
    if isinstance(value, list):
        return "+".join(value)
    return " / ".join(str(value).splitlines())


# ------------------------------------------------------------------ HTML

_STYLE = """
body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.6rem}h2{margin-top:2.5rem;border-bottom:1px solid #ccc}h3{margin-top:1.8rem}
table{border-collapse:collapse;margin:.8rem 0;font-size:.9rem}
th,td{border:1px solid #ddd;padding:.25rem .55rem;text-align:right;vertical-align:top}th{background:#f3f3f3}
td.l,th.l{text-align:left}tr.flag td{background:#fff1d6;font-weight:600}tr.changed td{background:#eef4fb}
td.change{text-align:left;max-width:32rem}.change .text{margin:.2rem 0}
del{background:#fbd9d3;text-decoration:line-through}ins{background:#d3f2d9;text-decoration:none}
pre{white-space:pre-wrap;margin:.2rem 0;font-size:.85rem}
.note{color:#555;font-size:.9rem}.plot{max-width:100%;height:auto;display:block;margin:.8rem 0}
.headline{font-size:1.1rem;background:#f6f8fa;padding:.6rem 1rem;border-left:4px solid #4a7}
.warn{background:#fff4e0;padding:.6rem 1rem;border-left:4px solid #d08a1e}
"""


class Markup(str):
    """A table cell that is HTML already (not escaped again)."""


def page(data: dict, w: Words, lang: str, before=None) -> str:
    meta = data["meta"]
    plotter = Plotter(w) if plots_available() else None
    parts = [f"<!DOCTYPE html><html lang=\"{html.escape(lang)}\"><head><meta charset=\"utf-8\">",
             f"<title>{_e(w('title'))}</title><style>{_STYLE}</style></head><body>",
             f"<h1>{_e(w('title'))}</h1>",
             f"<p>{_e(w('subtitle', content=meta['content'], games=meta['games'], first=meta['seed'], last=meta['seed'] + meta['games'] - 1, seconds=w.number(meta['seconds'], 0)))}</p>"]
    if meta.get("command"):  # how to play the same games again
        parts.append(f"<p class=\"note\">{_e(w('reproduce', command=meta['command'], version=meta.get('version', '?'), digest=meta.get('digest') or '?'))}</p>")
    if meta.get("interrupted"):  # stopped with Ctrl-C: each run's own count of games says how far it went
        parts.append(f"<p class=\"note\"><b>{_e(w('interrupted_note', runs=len(data['runs'])))}</b></p>")
    if plotter is None:
        parts.append(f"<p class=\"note\">{_e(w('no_plots'))}</p>")
    # a game whose cards carry out no rule of their own has no flags to explain
    method = "method" if any(run["rule_uses"] for run in data["runs"]) or not data["runs"] else "method_plays"
    parts.append(f"<p class=\"note\">{_e(w(method, level=w.percent(meta['level']), confidence=w.percent(meta['confidence'])))}</p>")
    parts.append(_headlines(data, w))
    if data.get("compare"):  # what the designer changed comes before the runs' details
        parts.append(_compare(data, w, plotter, _CardTexts(w, before, lang)))
    if plotter is not None and len(data["runs"]) > 1:
        parts.append(_img(plotter.wins(data["runs"]), _alt_wins(data["runs"], w, meta)))
    for run in data["runs"]:
        parts.append(_run(run, w, plotter, meta))
    parts.append("</body></html>\n")
    return "".join(parts)


def _e(text) -> str:
    return html.escape(str(text))


def _img(png: Optional[bytes], alt: str) -> str:
    """A plot, with ``alt``: what it shows and what it says, for a reader who cannot see it."""
    if not png:
        return ""
    return (f"<img class=\"plot\" alt=\"{html.escape(alt, quote=True)}\" "
            f"src=\"data:image/png;base64,{base64.b64encode(png).decode()}\">")


def _table(header: List[str], rows: List[List[str]], flags: Optional[List[bool]] = None, left: int = 1,
           classes: Optional[List[str]] = None) -> str:
    out = ["<table><tr>"]
    out += [f"<th class=\"{'l' if i < left else ''}\">{_e(h)}</th>" for i, h in enumerate(header)]
    out.append("</tr>")
    for index, row in enumerate(rows):
        kinds = [classes[index]] if classes is not None and classes[index] else []
        if flags is not None and flags[index]:
            kinds.append("flag")
        out.append(f"<tr class=\"{' '.join(kinds)}\">" if kinds else "<tr>")
        for i, cell in enumerate(row):
            kind = "change" if isinstance(cell, Markup) else "l" if i < left else ""
            out.append(f"<td class=\"{kind}\">{cell if isinstance(cell, Markup) else _e(cell)}</td>")
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def _flagged_line(w: Words, key: str, cards: List[str]) -> str:
    return w(key, n=len(cards), cards=", ".join(cards))


def _headlines(data: dict, w: Words) -> str:
    lines = []
    for run in data["runs"]:
        wins = "; ".join(f"{w.side(side)} {w.rate(entry)}" for side, entry in run["wins"].items())
        flagged = [w.card(c["card"]) for c in run["cards"] if c["flagged"]]
        lines.append(f"<p class=\"headline\"><b>{_e(w.run_title(run))}</b><br>{_e(w('wins_line', wins=wins))}<br>"
                     f"{_e(_flagged_line(w, 'flagged_line', flagged))}</p>")
    return "".join(lines)


def _run(run: dict, w: Words, plotter, meta: dict) -> str:
    out = [f"<h2>{_e(w.run_title(run))}</h2>",
           f"<p>{_e(w('games_line', games=run['games'], first=run['first_seed']))}</p>"]
    sides = list(run["wins"])
    confidence = w.percent(meta["confidence"])
    score = run["score"]
    # wins and the score (VP)
    out.append(f"<h3>{_e(w('wins_heading'))}</h3>")
    rows = [[w.side(side), w.rate(run["wins"][side])]
            + ([w.number(score["sides"][side]["mean"], 2), w.number(score["sides"][side]["median"], 0)]
               if score else []) for side in sides]
    out.append(_table([w("side"), w("win_rate")] + ([w("mean_score"), w("median_score")] if score else []), rows))
    if score and score.get("games", run["games"]) < run["games"]:
        out.append(f"<p class=\"note\">{_e(w('scored_only', n=score['games'], games=run['games']))}</p>")
    if score and score["margin"] and score.get("games", run["games"]):  # (no plot of no game scored)
        margin = score["margin"]
        out.append(f"<p>{_e(w('margin_line', mean=w.number(margin['mean'], 2), median=w.number(margin['median'], 0), first=w.side(sides[0]), second=w.side(sides[1])))}</p>")
        if plotter is not None:
            means = [w.number(score["sides"][side]["mean"], 1) for side in sides]
            out.append(_img(plotter.score(run), w("alt_score", first=w.side(sides[0]), second=w.side(sides[1]),
                                                  first_mean=means[0], second_mean=means[1],
                                                  margin=w.number(margin["mean"], 1))))
    # what decided the games, and when the game's loop ended (the Final Crisis)
    out.append(f"<h3>{_e(w('tie_breaks_heading'))}</h3>")
    texts = w.tie_break_texts()
    rows = [[w("decided_at_once") if t["tie_break"] == -2 else w("decided_by_score") if t["tie_break"] < 0
             else w("tie_break", n=t["tie_break"] + 1, text=texts[t["tie_break"]] if t["tie_break"] < len(texts) else ""),
             w.rate(t)] for t in run["tie_breaks"]]
    out.append(_table([w("decided_by"), w("share_of_games")], rows))
    loop = run["loop"]
    if loop is not None:
        counter = loop["counter"]
        out.append(f"<h3>{_e(w.loop('heading', counter))}</h3>")
        rows = [[w.loop("value", counter, n=end["value"]), w.rate(end)] for end in loop["ends"]]
        out.append(_table([w.loop("column", counter), w("share_of_games")], rows))
    # zones entered
    if run["entered"]:
        out.append(f"<h3>{_e(w('entered_heading'))}</h3>")
        rows = [[w.zone(b["track"], b["zone"]), w.side(b["side"]), w.rate(b["any"]), w.rate(b["first"])]
                for b in run["entered"]]
        out.append(_table([w("zone"), w("side"), w("entered"), w("entered_first")], rows, left=2))
        if plotter is not None:
            top = max(run["entered"], key=lambda b: b["any"]["rate"] or 0)
            out.append(_img(plotter.entered(run), w("alt_entered", confidence=confidence, side=w.side(top["side"]),
                                                    zone=w.zone(top["track"], top["zone"]),
                                                    rate=w.percent(top["any"]["rate"]))))
    # first player
    if run["first_player"] or run.get("first_player_always"):
        out.append(f"<h3>{_e(w('first_player_heading'))}</h3>")
        for always in run.get("first_player_always", ()):
            step = w.c.name("steps", always["step"] or "")
            out.append(f"<p>{_e(w('first_player_always', side=w.side(always['side']), step=step))}</p>")
    if run["first_player"]:
        rows = [[w.step(f), w.rate(f)] for f in run["first_player"]]
        out.append(_table([w("first_player_of"), w("first_player_won")], rows))
    # cards
    if not run["rule_uses"]:
        out.append(_cards_played(run, w))
    else:
        out.append(_cards_compared(run, w, plotter, confidence))
    # cards kept by a 'keep' statement (the objectives)
    if run["kept"]:
        out.append(f"<h3>{_e(w('kept_heading'))}</h3>")
        rows = [[w.card(o["card"], o["kind"]), o["held"], w.rate(o["carried_out"]), w.rate(o["holder_won"])]
                for o in run["kept"]]
        out.append(_table([w("kept_card"), w("held"), w("carried_out"), w("holder_won")], rows))
        if plotter is not None:
            out.append(_img(plotter.kept(run), w("alt_kept", n=len(run["kept"]), confidence=confidence)))
    return "".join(out)


def _cards_compared(run: dict, w: Words, plotter, confidence: str) -> str:
    """Each card played to carry out its rule against played otherwise (Fisher's test, Holm)."""
    out = [f"<h3>{_e(w('cards_heading'))}</h3><p class=\"note\">{_e(w('cards_note'))}</p>"]
    cards = sorted(run["cards"], key=lambda c: (c["p_holm"], c["p"]))
    extra = run["rule_uses"][1:]  # the plays of the other uses that carry out the rule (claims), counted apart
    rows = [[w.card(c["card"]), w.rate(c["rule"]), w.rate(c["other"]), *[c["uses"][use]["n"] for use in extra],
             "–" if c["difference"] is None else w.number(100 * c["difference"], 1), w.p(c["p"]),
             w.p(c["p_holm"]), w("yes") if c["flagged"] else ""] for c in cards]
    out.append(_table([w("card"), w("rule_player_won"), w("other_player_won"),
                       *[_use_column(w, use) for use in extra],
                       w("difference"), w("p"), w("p_holm"), w("flagged")], rows, [c["flagged"] for c in cards]))
    if plotter is not None:
        flagged = [w.card(c["card"]) for c in run["cards"] if c["flagged"]]
        out.append(_img(plotter.cards(run), w("alt_cards", n=len(run["cards"]), confidence=confidence,
                                              flagged=len(flagged), cards=w.names(flagged))))
        most = sorted(run["cards"], key=lambda c: -(c["rule"]["n"] + c["other"]["n"]))[:3]
        out.append(_img(plotter.plays(run), w("alt_plays", n=len(run["cards"]),
                                              cards=w.names([w.card(c["card"]) for c in most]))))
    return "".join(out)


def _use_column(w: Words, use: str) -> str:
    """The heading of a column counting a card's plays of one use (the content's word, else general)."""
    return w.either(f"use_plays.{snake(use)}", "use_plays_any", use=w.c.name("notation", use))


def _cards_played(run: dict, w: Words) -> str:
    """Each card's plays in each way and the games won by the side that played it, where no way of
    playing a card carries out a rule of its own (nothing to compare it with)."""
    uses = run["other_uses"]
    out = [f"<h3>{_e(w('cards_played_heading'))}</h3><p class=\"note\">{_e(w('cards_played_note'))}</p>"]
    cards = sorted(run["cards"], key=lambda c: -c["other"]["n"])
    rows = [[w.card(c["card"]), *[c["uses"][use]["n"] for use in uses], w.rate(c["other"])] for c in cards]
    out.append(_table([w("card"), *[_use_column(w, use) for use in uses],
                       w("player_won")], rows))
    return "".join(out)


def _alt_wins(runs: List[dict], w: Words, meta: dict) -> str:
    first = list(runs[0]["wins"])[0]
    return w("alt_wins", side=w.side(first), confidence=w.percent(meta["confidence"]),
             runs="; ".join(f"{w.run_title(run)}: {w.rate(run['wins'][first])}" for run in runs))


class _CardTexts:
    """A card's rule as players read it in the report's language, before and after the change
    (``before``: the content compared against; the content of the report is the presenter's):
    the designer's own text in the catalog if there is one (checked against the rule), else the
    rule put into words (ruleset/phrasing.py)."""

    def __init__(self, w: Words, before, lang: str):
        after = getattr(w.show, "content", None)
        self.sides = {"before": (before, None if before is None else before.catalogs.get(lang)),
                      "after": (after, w.c if after is not None else None)}

    def text(self, card_id: str, which: str, field: Optional[str]) -> Optional[str]:
        content, catalog = self.sides[which]
        if content is None or catalog is None:
            return None
        definition = program_of(content).definition
        for kind in definition.schema.card_kinds:
            cards = definition.cards[kind.name]
            if card_id not in cards.ids:
                continue
            rules = [f for f, (name, type_name) in enumerate(kind.fields)
                     if type_name == "rule" and (field is None or name == field)]
            rule = cards.fields[rules[0]][cards.ids.index(card_id)] if rules else None
            if rule is None:
                return None
            written = catalog.raw(f"{kind.words[-1]}.{card_id}.text") if kind.words else None
            if written is not None and rules[0] == next(f for f, (_, t) in enumerate(kind.fields) if t == "rule"):
                return written
            from crisis.ruleset.phrasing import phrase_block
            return phrase_block(rule, catalog, definition.schema, definition.declarations)
        return None


def _diff(before: str, after: str) -> Tuple[str, str]:
    """Both texts as HTML, the words taken out marked <del> in the first, those put in <ins> in the second."""
    a, b = re.findall(r"\s+|\S+", before), re.findall(r"\s+|\S+", after)
    old, new = [], []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        was, now = html.escape("".join(a[i1:i2])), html.escape("".join(b[j1:j2]))
        if op == "equal":
            old.append(was)
            new.append(now)
            continue
        if was:
            old.append(f"<del>{was}</del>")
        if now:
            new.append(f"<ins>{now}</ins>")
    return "".join(old).replace("\n", "<br>"), "".join(new).replace("\n", "<br>")


def _change_cell(card_id: str, changes: List[dict], w: Words, texts: _CardTexts) -> Markup:
    """What changed in a card, old → new: short fields on a line, a rule's text before and after
    (as players read it, the changed words marked; the rule as written below it)."""
    out = []
    for change in changes:
        field = change["field"]
        if not w.is_text(change):
            out.append(f"<div>{_e(w.change(change))}</div>")
            continue
        out.append(f"<div><b>{_e(w.change(dict(change, before='', after='')).strip())}</b></div>")
        rule = None if field in ("new", "removed") else field
        shown = (texts.text(card_id, "before", rule) if field != "new" else "",
                 texts.text(card_id, "after", rule) if field != "removed" else "")
        written = (change["before"] or "", change["after"] or "")
        if None not in shown:
            was, now = _diff(*shown)
            out.append(_was_now(w, was, now, field))
            rule_was, rule_now = _diff(*written)
            out.append(f"<details><summary>{_e(w('rule_as_written'))}</summary>"
                       f"{_was_now(w, rule_was, rule_now, field, pre=True)}</details>")
        else:  # the compared content has no catalog in this language: the rules as written
            rule_was, rule_now = _diff(*written)
            out.append(_was_now(w, rule_was, rule_now, field, pre=True))
    return Markup("".join(out))


def _was_now(w: Words, was: str, now: str, field: str, pre: bool = False) -> str:
    tag = "pre" if pre else "div"
    out = []
    if field != "new":
        out.append(f"<{tag} class=\"text\">{_e(w('was'))} {was}</{tag}>")
    if field != "removed":
        out.append(f"<{tag} class=\"text\">{_e(w('now'))} {now}</{tag}>")
    return "".join(out)


def _round_up(count: int) -> int:
    """A count of games to suggest, rounded up to two significant digits (393 -> 400)."""
    step = 10 ** max(0, len(str(count)) - 2)
    return -(-count // step) * step


def power_lines(comparison: dict, w: Words) -> Tuple[List[str], List[str]]:
    """(warning, details): a plain warning when the comparison had too few games to find a
    change of the threshold in a side's win rate (else nothing), and what it could find: in a
    side's win rate, and in each changed card's rule player's win rate."""
    power = comparison.get("power")
    if not power:
        return [], []
    figures = dict(games=power["games"], points=w.number(100 * power["detectable"], 0),
                   power=w.percent(power["power"]), threshold=w.number(100 * power["threshold"], 0),
                   needed=_round_up(power["games_for_threshold"]))
    warning = [w("power_warning", **figures)] if power["too_few_games"] else []
    details = [] if warning else [w("power_sides", **figures)]
    for card in power["cards"]:
        found = card["detectable"]
        details.append(w(_measured(comparison, "power_card" if found is not None and found < 1 else "power_card_none"),
                         card=w.card(card["card"]), before=card["before_plays"], after=card["after_plays"],
                         points=w.number(100 * (found or 1), 0), power=figures["power"]))
    return warning, details


def _compare(data: dict, w: Words, plotter, texts: _CardTexts) -> str:
    comparison, meta = data["compare"], data["meta"]
    changed: Dict[str, List[dict]] = comparison["changed"]
    out = [f"<h2>{_e(w('compare_heading', before=meta['compare'], after=meta['content']))}</h2>",
           f"<p class=\"note\">{_e(w(_measured(comparison, 'compare_note')))}</p>"]
    names = [f"{w.card(card)} ({', '.join(w.change(c) for c in changes)})" for card, changes in changed.items()]
    out.append(f"<p>{_e(w('changed_line', n=len(names), cards='; '.join(names)))}</p>")
    if comparison.get("files"):  # the rules of play or the bots differ too: not only the cards changed
        out.append(f"<p class=\"warn\"><b>{_e(w('files_line', files=', '.join(comparison['files'])))}</b></p>")
    warning, details = power_lines(comparison, w)
    if warning or details:
        out.append(f"<div class=\"{'warn' if warning else 'note'}\">"
                   + "".join(f"<p><b>{_e(line)}</b></p>" for line in warning)
                   + ("<ul>" + "".join(f"<li>{_e(line)}</li>" for line in details) + "</ul>" if details else "")
                   + "</div>")
    rows = [[w.side(side), w.rate(s["before"]), w.rate(s["after"]), w.p(s["p"])]
            for side, s in comparison["wins"].items()]
    out.append(_table([w("side"), w("before"), w("after"), w("p")], rows))
    scores = comparison.get("scores") or {}
    if scores:  # the mean final score moves before the win rate does
        rows = [[w.side(side), w.number(s["before"], 2), w.number(s["after"], 2),
                 w("score_difference", difference=w.number(s["difference"], 2), low=w.number(s["low"], 2),
                   high=w.number(s["high"], 2)), w.p(s["p"])] for side, s in scores.items()]
        out.append(_table([w("side"), w("mean_score_before"), w("mean_score_after"), w("difference"), w("p")], rows))
    cards = sorted(comparison["cards"], key=lambda r: (r["card"] not in changed, r["p_holm"], w.card(r["card"])))
    rows, flags, classes = [], [], []
    for row in cards:
        before, after = row.get("before"), row.get("after")
        difference = row.get("rule_difference")
        rows.append([w.card(row["card"]),
                     _change_cell(row["card"], changed[row["card"]], w, texts) if row["card"] in changed else "",
                     w.rate(before["rule"]) if before else "–", w.rate(after["rule"]) if after else "–",
                     "–" if difference is None else w("difference_interval", difference=w.points(difference),
                                                      low=w.points(row["difference_low"]),
                                                      high=w.points(row["difference_high"])),
                     w.p(row["p"]), w.p(row["p_holm"]), w("yes") if row["flagged"] else ""])
        flags.append(row["flagged"])
        classes.append("changed" if row["card"] in changed else "")
    # a changed card of another kind than the played one (an objective) has no plays to test: its
    # changes are listed all the same, first
    tested = {row["card"] for row in cards}
    untested = [card for card in changed if card not in tested]
    rows[:0] = [[w.card(card), _change_cell(card, changed[card], w, texts), "–", "–", "–", "–", "–", ""]
                for card in untested]
    flags[:0], classes[:0] = [False] * len(untested), ["changed"] * len(untested)
    out.append(_table([w("card"), w("changed"), w("before"), w("after"), w("difference"), w("p"), w("p_holm"),
                       w("flagged")], rows, flags, classes=classes))
    if plotter is not None:
        drawn, left_out = change_rows(comparison, comparison.get("minimum_plays", 0))
        if drawn:
            shown = [r for r in drawn if r["card"] in changed]
            alt = w(_measured(comparison, "alt_compare"), n=len(drawn), confidence=w.percent(meta["confidence"]),
                    changed=len(shown), cards="; ".join(
                        w("alt_compare_card", card=w.card(r["card"]), difference=w.points(r["rule_difference"]),
                          low=w.points(r["difference_low"]), high=w.points(r["difference_high"])) for r in shown),
                    left=len(left_out), minimum=comparison["minimum_plays"])
            out.append(_img(plotter.compare(comparison, drawn), alt))
        if left_out:
            out.append(f"<p class=\"note\">{_e(w('compare_left_out', n=len(left_out), minimum=comparison['minimum_plays'], cards=w.names([w.card(r['card']) for r in left_out])))}</p>")
    return "".join(out)


def text_summary(data: dict, w: Words) -> List[str]:
    """The headline figures as lines for the terminal."""
    lines = []
    for run in data["runs"]:
        lines.append(w.run_title(run))
        for side, entry in run["wins"].items():
            lines.append("  " + w("side_won", side=w.side(side), rate=w.rate(entry)))
        flagged = [w.card(c["card"]) for c in run["cards"] if c["flagged"]]
        if run["rule_uses"]:  # (no card can be flagged where no play carries out a rule of the card's)
            lines.append("  " + _flagged_line(w, "flagged_line", flagged))
    comparison = data.get("compare")
    if comparison:
        files = comparison.get("files", [])
        lines.append(w("compare_console" if not files else "compare_console_files", before=data["meta"]["compare"],
                       files=", ".join(files)))
        names = [f"{w.card(card)} ({', '.join(w.change(c) for c in changes)})"
                 for card, changes in comparison["changed"].items()]
        lines.append("  " + w("changed_line", n=len(names), cards="; ".join(names)))
        for side, entry in comparison["wins"].items():
            lines.append("  " + w("side_before_after", side=w.side(side), before=w.percent(entry["before"]["rate"]),
                                  after=w.percent(entry["after"]["rate"]), p=w.p(entry["p"])))
        for side, entry in (comparison.get("scores") or {}).items():
            lines.append("  " + w("score_before_after", side=w.side(side), before=w.number(entry["before"], 2),
                                  after=w.number(entry["after"], 2), p=w.p(entry["p"])))
        flagged = [w.card(r["card"]) for r in comparison["cards"] if r["flagged"]]
        lines.append("  " + _flagged_line(w, _measured(comparison, "compare_line"), flagged))
        warning, _ = power_lines(comparison, w)
        lines += ["  " + line for line in warning]
    return lines
