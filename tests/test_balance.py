"""`crisis balance`: its statistics, a rigged deck it must catch, an unchanged deck it must
not, and the files it writes."""

import csv
import json
import math
import re

import pytest

from crisis.balance import stats
from crisis.balance.report import write
from crisis.balance.run import Plan, balance
from crisis.cli.text import Presenter
from crisis.content.loader import load_content

from clirun import run_crisis, run_main
from helpers import copy_content, replace_in

RIGGED = "seizing-federal-armories"


# ------------------------------------------------------------------ statistics

def test_wilson_intervals_match_published_values():
    p, low, high = stats.wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    p, low, high = stats.wilson(0, 20)
    assert p == 0 and low == 0 and round(high, 4) == 0.1611
    assert stats.wilson(0, 0)[1:] == (0.0, 1.0)


def brute_fisher(a, b, c, d):
    """Fisher's two-sided p by listing every table with the same margins."""
    row, col, n = a + b, a + c, a + b + c + d

    def prob(x):
        return math.comb(row, x) * math.comb(n - row, col - x) / math.comb(n, col)
    seen = prob(a)
    return sum(prob(x) for x in range(max(0, col - (n - row)), min(row, col) + 1) if prob(x) <= seen * (1 + 1e-7))


@pytest.mark.parametrize("table", [(3, 1, 1, 3), (1, 9, 11, 3), (10, 0, 0, 10), (7, 12, 5, 30), (0, 5, 0, 9), (20, 13, 9, 25)])
def test_fisher_exact_test_lists_every_table(table):
    assert stats.fisher(*table) == pytest.approx(min(1.0, brute_fisher(*table)), rel=1e-9)
    assert stats.fisher(3, 1, 1, 3) == pytest.approx(0.4857142857)


def test_holm_adjustment():
    assert stats.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert stats.holm([0.5]) == [0.5]


# ------------------------------------------------------------------ decks

@pytest.fixture(scope="module")
def rigged(tmp_path_factory):
    """A copy of the content where one card, played for its event, decides the game."""
    folder = copy_content(tmp_path_factory.mktemp("rigged"))
    text = (folder / "cards" / "strategy-both.yaml").read_text(encoding="utf-8")
    start = text.index(f"id: {RIGGED}")
    event = text.index("event: |", start)
    end = text.index("note:", event)
    text = text[:event] + "event: gain 15 VP\n    " + text[end:]
    (folder / "cards" / "strategy-both.yaml").write_text(text, encoding="utf-8")
    return load_content(folder)


@pytest.fixture(scope="module")
def unchanged(tmp_path_factory):
    return load_content(copy_content(tmp_path_factory.mktemp("same")))


PLAN = Plan(games=150, seed=1, pairings=(("random", "random"),))


def test_a_card_that_decides_every_game_is_flagged(rigged):
    run = balance(rigged, PLAN)["runs"][0]
    flagged = [c["card"] for c in run["cards"] if c["flagged"]]
    assert flagged == [RIGGED]
    card = next(c for c in run["cards"] if c["card"] == RIGGED)
    assert card["event"]["rate"] > 0.95 and card["event"]["n"] >= 20 and card["p_holm"] < 0.001


def test_an_unchanged_copy_shows_no_difference_and_the_rigged_card_does(content, rigged, unchanged):
    same = balance(unchanged, PLAN, other=content)["compare"]
    assert not [r for r in same["cards"] if r["flagged"]]
    assert not any(s["flagged"] for s in same["wins"].values())
    assert same["changed"] == {}
    changed = balance(rigged, PLAN, other=content)["compare"]
    assert [r["card"] for r in changed["cards"] if r["flagged"]] == [RIGGED]
    assert changed["changed"] == {RIGGED: ["event"]}


# ------------------------------------------------------------------ files

@pytest.fixture(scope="module")
def report(content, rigged, tmp_path_factory):
    data = balance(rigged, Plan(games=60, seed=3, pairings=(("random", "random"),), rules=(True,)), other=content)
    out = tmp_path_factory.mktemp("report")
    write(out, data, Presenter(rigged, rigged.catalog("es")), "es")
    return out, data


def test_the_html_page_is_self_contained_with_its_plots(report):
    out, data = report
    page = (out / "report.html").read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)=["'](?!data:)""", page)  # nothing fetched from elsewhere
    assert "<link" not in page and "<script" not in page
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    assert len(images) >= 6  # a run: VP and margin, breaches, cards twice, objectives; the comparison
    assert all(__import__("base64").b64decode(i)[:8] == b"\x89PNG\r\n\x1a\n" for i in images)


def test_the_report_speaks_the_reports_language(report):
    out, data = report
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "Informe de equilibrio" in page and "con Descarte de Eventos" in page
    assert re.search(r"\d+,\d%", page) and not re.search(r"\d+\.\d%", page)  # decimal commas


def test_json_and_csv_hold_the_same_numbers(report):
    out, data = report
    assert json.loads((out / "report.json").read_text(encoding="utf-8")) == json.loads(json.dumps(data))
    with (out / "cards.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    cards = [(run["label"], c) for run in data["runs"] for c in run["cards"]]
    assert len(rows) == len(cards) == len(data["runs"][0]["cards"])
    for row, (label, card) in zip(rows, cards):
        assert (row["run"], row["card"]) == (label, card["card"])
        assert int(row["event_plays"]) == card["event"]["n"] and int(row["value_wins"]) == card["value"]["k"]
        assert float(row["p_holm"]) == pytest.approx(card["p_holm"]) and row["flagged"] == str(card["flagged"])
    with (out / "runs.csv").open(encoding="utf-8") as handle:
        runs = list(csv.DictReader(handle))
    assert [int(r["wins"]) for r in runs] == [w["k"] for run in data["runs"] for w in run["wins"].values()]
    with (out / "compare.csv").open(encoding="utf-8") as handle:
        compared = {r["card"]: r for r in csv.DictReader(handle)}
    flagged = {r["card"]: r["flagged"] for r in data["compare"]["cards"]}
    assert all(compared[card]["flagged"] == str(flag) for card, flag in flagged.items())
    assert compared[RIGGED]["changed"] == "event"


def rates(value):
    """Every rate in a report's data (a mapping with n, k, rate, low and high)."""
    if isinstance(value, dict):
        if {"n", "k", "rate", "low", "high"} <= set(value):
            yield value
        for item in value.values():
            yield from rates(item)
    elif isinstance(value, list):
        for item in value:
            yield from rates(item)


def test_every_game_is_counted_once_and_every_rate_has_its_interval(report):
    _, data = report
    found = list(rates(data))
    assert len(found) > 200
    for entry in found:
        assert 0 <= entry["k"] <= entry["n"]
        assert (entry["rate"], entry["low"], entry["high"]) == pytest.approx(stats.wilson(entry["k"], entry["n"]),
                                                                           nan_ok=True)
    for run in data["runs"]:
        games = run["games"]
        assert sum(w["k"] for w in run["wins"].values()) == games
        assert sum(t["k"] for t in run["tie_breaks"]) == games
        assert sum(f["k"] for f in run["final_crisis"]) == games
        assert sum(run["margin"]["histogram"].values()) == games


def test_the_command_writes_the_report_without_matplotlib_and_refuses_bad_counts(tmp_path):
    fake = tmp_path / "fake"  # an installation without the report extra
    (fake / "matplotlib").mkdir(parents=True)
    (fake / "matplotlib" / "__init__.py").write_text("raise ImportError('not installed')\n")
    result = run_crisis("balance", "--games", "6", "--union", "random", "--secessionist", "random,heuristic",
                        "--out", tmp_path / "r", cwd=tmp_path, env={"PYTHONPATH": str(fake)})
    assert result.returncode == 0, result.stderr
    assert "Unionist won" in result.stdout and "matplotlib is not installed" in result.stderr
    data = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    assert [run["bots"]["Secessionist"] for run in data["runs"]] == ["random", "heuristic"]
    page = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert "<img" not in page and "<table" in page
    for args in (["--games", "0"], ["--level", "2"], ["--union", "a,b", "--secessionist", "c,d,e"]):
        bad = run_main("balance", *args, "--out", tmp_path / "x", cwd=tmp_path)  # usage errors: in the process
        assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_the_bots_of_any_contents_sides_are_named_side_by_side(tmp_path):
    """``--bot SIDE=BOT[,BOT...]`` names a side by the start of its name, as ``crisis sim`` does;
    a side or a pairing count that does not fit is a usage error naming the sides."""
    result = run_main("balance", "--games", "2", "--jobs", "1", "--bot", "union=random",
                      "--bot", "Secession=random,heuristic", "--out", tmp_path / "r", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    assert [(run["bots"]["Unionist"], run["bots"]["Secessionist"]) for run in data["runs"]] == [
        ("random", "random"), ("random", "heuristic")]
    for args, says in ((["--bot", "confederacy=random"], "confederacy"), (["--bot", "union"], "joined by '='"),
                       (["--bot", "union=a,b", "--bot", "secession=c,d,e"],
                        "The Unionist side has 2 bots and the Secessionist side 3")):
        bad = run_main("balance", *args, "--out", tmp_path / "x", cwd=tmp_path)
        assert bad.returncode == 2 and says in bad.stderr, (args, bad.stderr)
