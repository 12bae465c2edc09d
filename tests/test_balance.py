"""`crisis balance`: its statistics, a rigged deck it must catch, an unchanged deck it must
not, and the files it writes."""

import csv
import json
import math
import os
import re

import pytest

from crisis.balance import stats
from crisis.balance.report import Words, text_summary, write
from crisis.balance.run import Plan, balance
from crisis.cli.text import Presenter
from crisis.content.loader import load_content

from clirun import run_crisis, run_main
from helpers import copy_content, replace_in
from crisis.interpreter.engine.program import program_of

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


def brute_stratified(tables):
    """The stratified exact test by listing every combination of tables with the same margins."""
    import itertools
    supports = []
    for a, b, c, d in tables:
        row, col, n = a + b, a + c, a + b + c + d
        if n == 0 or row in (0, n) or col in (0, n):
            continue
        supports.append([(x, math.comb(row, x) * math.comb(n - row, col - x) / math.comb(n, col))
                         for x in range(max(0, col - (n - row)), min(row, col) + 1)])
    if not supports:
        return 1.0
    by_sum = {}
    for combination in itertools.product(*supports):
        total = sum(x for x, _ in combination)
        by_sum[total] = by_sum.get(total, 0.0) + math.prod(p for _, p in combination)
    seen = by_sum[sum(t[0] for t in tables if t[0] + t[1] not in (0, sum(t)) and t[0] + t[2] not in (0, sum(t)))]
    return min(1.0, sum(p for p in by_sum.values() if p <= seen * (1 + 1e-7)))


@pytest.mark.parametrize("tables", [[(3, 1, 1, 3)], [(3, 1, 1, 3), (2, 5, 4, 1)], [(0, 9, 0, 0), (6, 3, 10, 12)],
                                    [(7, 2, 3, 8), (1, 1, 0, 0), (4, 4, 6, 2)]])
def test_the_test_within_sides_lists_every_table(tables):
    assert stats.stratified(tables) == pytest.approx(brute_stratified(tables), rel=1e-9)
    assert stats.stratified([tables[0]]) == pytest.approx(stats.fisher(*tables[0]), rel=1e-9)


def test_a_side_s_edge_is_not_taken_for_its_cards():
    """A card whose event only the weaker side plays: over all plays its event player loses far
    more often (that side loses), yet within each side the event and the value do alike."""
    strong, weak = (30, 10, 60, 20), (2, 8, 4, 16)  # [event won, lost], [value won, lost], per side
    pooled = (2, 8, 90, 30)  # the event played by the weak side only, the value by both
    assert stats.fisher(*pooled) < 0.001  # what the report tested before
    assert stats.stratified([(0, 0, 30 + 60, 10 + 20), (2, 8, 4, 16)]) == pytest.approx(1.0)
    assert stats.within([strong, weak]) == pytest.approx(0.0)
    assert stats.stratified([(30, 2, 10, 30), (8, 2, 3, 9)]) < 0.001  # and a real difference still shows


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
    assert card["rule"]["rate"] > 0.95 and card["rule"]["n"] >= 20 and card["p_holm"] < 0.001
    assert card["rule"]["n"] == card["uses"]["event"]["n"] + card["uses"]["claim"]["n"]
    assert card["other"]["n"] == card["uses"]["value"]["n"]
    # Holm's adjustment counts the cards a test was made of: some side played them both ways
    tested = [c for c in run["cards"] if c["tested"]]
    assert 0 < len(tested) <= len(run["cards"])
    assert card["p_holm"] == pytest.approx(min(1.0, len(tested) * card["p"]))
    assert all(c["p_holm"] == 1.0 and not c["flagged"] for c in run["cards"] if not c["tested"])


def test_an_unchanged_copy_shows_no_difference_and_the_rigged_card_does(content, rigged, unchanged):
    same = balance(unchanged, PLAN, other=content)["compare"]
    assert not [r for r in same["cards"] if r["flagged"]]
    assert not any(s["flagged"] for s in same["wins"].values())
    assert same["changed"] == {}
    changed = balance(rigged, PLAN, other=content)["compare"]
    assert [r["card"] for r in changed["cards"] if r["flagged"]] == [RIGGED]
    assert [c["field"] for c in changed["changed"][RIGGED]] == ["event"]
    assert "gain 15 VP" in changed["changed"][RIGGED][0]["after"]


def test_a_comparison_gives_each_side_s_mean_final_score_before_and_after(content, rigged, unchanged):
    """A card that gains 15 VP moves the mean final score by several VP, plainly; a copy changes
    nothing. (The win rate may move less: a stronger card shows in the score first.)"""
    same = balance(unchanged, PLAN, other=content)["compare"]["scores"]
    assert set(same) == {"Unionist", "Secessionist"}
    assert all(s["difference"] == 0 and s["p"] == 1.0 for s in same.values())
    changed = balance(rigged, PLAN, other=content)["compare"]["scores"]
    assert max(s["difference"] for s in changed.values()) > 2
    assert min(s["p"] for s in changed.values()) < 0.001
    for s in changed.values():
        assert s["low"] <= s["difference"] <= s["high"]


# ------------------------------------------------------------------ files

@pytest.fixture(scope="module")
def report(content, rigged, tmp_path_factory):
    data = balance(rigged, Plan(games=60, seed=3, pairings=(("random", "random"),), rules=(("event_discard",),)),
                   other=content)
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
        assert int(row["rule_plays"]) == card["rule"]["n"] and int(row["other_wins"]) == card["other"]["k"]
        assert int(row["plays_claim"]) == card["uses"]["claim"]["n"]
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
        assert sum(f["k"] for f in run["loop"]["ends"]) == games and run["loop"]["counter"] == "round"
        assert sum(run["score"]["margin"]["histogram"].values()) == games
        assert all(b["first"]["k"] + b["later"]["k"] == b["any"]["k"] for b in run["entered"])
        assert [(f["step"], f["counters"]) for f in run["first_player"]] == [
            ("card play", {"round": 1}), ("card play", {"round": 2}), ("card play", {"round": 3}),
            ("final crisis", {})]
        assert all(f["n"] == games for f in run["first_player"][:2] + run["first_player"][3:])


def test_the_command_writes_the_report_without_matplotlib_and_refuses_bad_counts(tmp_path):
    fake = tmp_path / "fake"  # an installation without the report extra
    (fake / "matplotlib").mkdir(parents=True)
    (fake / "matplotlib" / "__init__.py").write_text("raise ImportError('not installed')\n")
    result = run_crisis("balance", "--games", "6", "--bot", "union=random", "--bot", "secessionist=random,heuristic",
                        "--out", tmp_path / "r", cwd=tmp_path, env={"PYTHONPATH": str(fake)})
    assert result.returncode == 0, result.stderr
    assert "Unionist won" in result.stdout and "matplotlib is not installed" in result.stderr
    data = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    assert [run["bots"]["Secessionist"] for run in data["runs"]] == ["random", "heuristic"]
    page = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert "<img" not in page and "<table" in page
    for args in (["--games", "0"], ["--level", "2"], ["--bot", "union=a,b", "--bot", "secessionist=c,d,e"]):
        bad = run_main("balance", *args, "--out", tmp_path / "x", cwd=tmp_path)  # usage errors: in the process
        assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_a_folder_that_refuses_files_is_told_before_any_game_and_none_is_left(tmp_path, monkeypatch):
    """Permissions may allow what the file system refuses (/sys, a read-only mount): found by
    trying to write a file there before the games, not after an hour of them; the folders made
    for the try are taken away again."""
    import errno
    import tempfile

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))
    monkeypatch.setattr(tempfile, "NamedTemporaryFile", read_only)
    refused = run_main("balance", "--games", "5000", "--out", "new/report", cwd=tmp_path)
    assert refused.returncode == 2 and "--out" in refused.stderr and "Traceback" not in refused.stderr
    assert "Playing" not in refused.stderr and refused.stdout == ""
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("arguments", [("--games", "abc"), ("--games", "1.0"), ("--games", "0"), ("--seed", "-3"),
                                       ("--seed", "1000000000"), ("--jobs", "abc"), ("--level", "abc"),
                                       ("--level", "0")])
def test_bad_numbers_get_one_line_before_anything_is_written(arguments, tmp_path):
    """As ``crisis sim``'s: one line naming the option, exit status 2, no usage block, and no
    report folder made."""
    result = run_main("balance", *arguments, "--out", tmp_path / "r", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(arguments[0]) and "usage:" not in result.stderr
    assert not (tmp_path / "r").exists()


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


# ------------------------------------------------------------------ a designer's comparison

EDITED_VALUE = "fugitive-slave-law"  # value 2 -> 3; RIGGED's event: "remove up to 2" -> "remove up to 3"


@pytest.fixture(scope="module")
def edited(tmp_path_factory):
    """A designer's copy with two small changes: one card's event text, another card's value."""
    folder = copy_content(tmp_path_factory.mktemp("edited"))
    path = folder / "cards" / "strategy-both.yaml"
    replace_in(path, "remove up to 2 opponent tokens from Federal Arsenals",
               "remove up to 3 opponent tokens from Federal Arsenals")
    replace_in(path, f"id: {EDITED_VALUE}\n    value: 2", f"id: {EDITED_VALUE}\n    value: 3")
    return load_content(folder)


@pytest.fixture(scope="module")
def edited_report(content, edited, tmp_path_factory):
    """``crisis balance --content COPY --compare SHIPPED`` with few games, in English and in Spanish."""
    data = balance(edited, Plan(games=40, seed=1, pairings=(("random", "random"),)), other=content)
    folders = {}
    for lang in ("en", "es"):
        folders[lang] = tmp_path_factory.mktemp("edited-" + lang)
        write(folders[lang], data, Presenter(edited, edited.catalog(lang)), lang, before=content)
    return data, folders


def compare_table(page):
    """The comparison's card table as rows of cells (text, tags taken out, <br> as a new line)."""
    table = next(t for t in re.findall(r"<table>.*?</table>", page, re.S) if "<th class=\"\">What changed" in t
                 or "<th class=\"\">Qué cambió" in t)
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)[1:]
    return [[re.sub(r"<[^>]+>", "", cell.replace("<br>", "\n")) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in rows]


def test_a_changed_objective_is_named_by_its_title_and_listed_first(content, tmp_path):
    """An objective card has no plays to test, yet its change is the designer's: named by its
    title (not a catalog key) in the console and the page, and first in the table and compare.csv."""
    folder = copy_content(tmp_path / "objective")
    replace_in(folder / "cards" / "objectives.yaml", "event: place up to 2 in Political spaces, all in one space",
               "event: place up to 4 in Political spaces, all in one space")
    edited = load_content(folder)
    data = balance(edited, Plan(games=5, seed=1, pairings=(("random", "random"),)), other=content)
    assert list(data["compare"]["changed"]) == ["montgomery"]
    write(tmp_path / "r", data, Presenter(edited, edited.catalog("en")), "en", before=content)
    title = edited.catalog("en").text("objectives.montgomery.title")
    console = "\n".join(text_summary(data, Words(Presenter(edited, edited.catalog("en")))))
    assert title in console and "<" not in console
    page = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert compare_table(page)[0][0] == title
    rows = list(csv.reader((tmp_path / "r" / "compare.csv").open(encoding="utf-8")))
    assert rows[1][:2] == ["montgomery", "event"]


def test_a_report_written_again_in_its_folder_keeps_nothing_of_the_last_one(content, edited, edited_report, tmp_path):
    """A --compare run, then a plain one in the same folder: its compare.csv goes, so no table
    of another run lies beside the new report."""
    import shutil
    data, folders = edited_report
    folder = tmp_path / "again"
    shutil.copytree(folders["en"], folder)
    assert (folder / "compare.csv").is_file()
    plain = balance(content, Plan(games=5, seed=7, pairings=(("random", "random"),)))
    written = write(folder, plain, Presenter(content, content.catalog("en")), "en")
    assert sorted(p.name for p in folder.iterdir()) == sorted(p.name for p in written)
    assert "compare.csv" not in [p.name for p in written]


def test_the_changed_cards_come_first_with_their_old_and_new_texts(content, edited, edited_report):
    data, folders = edited_report
    for lang in ("en", "es"):
        before, after = Presenter(content, content.catalog(lang)), Presenter(edited, edited.catalog(lang))
        rows = compare_table((folders[lang] / "report.html").read_text(encoding="utf-8"))
        assert {rows[0][0], rows[1][0]} == {after.card(RIGGED), after.card(EDITED_VALUE)}
        assert all(row[1] == "" for row in rows[2:])  # the unchanged cards, after them, say nothing changed
        event = next(row[1] for row in rows[:2] if row[0] == after.card(RIGGED))
        was = before.card_rule_text("cards", RIGGED)
        now = after.card_rule_text("cards", RIGGED)
        assert was != now and was in event and now in event  # as players read it, in the report's language
        assert event.index(was) < event.index(now)
        assert "remove up to 2 opponent tokens" in event and "remove up to 3 opponent tokens" in event  # as written
        value = next(row[1] for row in rows[:2] if row[0] == after.card(EDITED_VALUE))
        assert "2 → 3" in value
    changes = data["compare"]["changed"]
    assert changes[EDITED_VALUE] == [{"field": "value", "before": 2, "after": 3}]
    assert [c["field"] for c in changes[RIGGED]] == ["event"]
    assert changes[RIGGED][0]["before"].startswith("remove up to 2 opponent tokens from Federal Arsenals\n")
    assert changes[RIGGED][0]["after"].startswith("remove up to 3 opponent tokens from Federal Arsenals\n")
    assert {r["card"] for r in data["compare"]["cards"][:2]} == {RIGGED, EDITED_VALUE}
    with (folders["en"] / "compare.csv").open(encoding="utf-8") as handle:
        csv_rows = list(csv.DictReader(handle))
    assert {r["card"] for r in csv_rows[:2]} == {RIGGED, EDITED_VALUE}
    value = next(r for r in csv_rows if r["card"] == EDITED_VALUE)
    assert (value["changed"], value["was"], value["now"]) == ("value", "value: 2", "value: 3")
    lines = text_summary(data, Words(Presenter(edited, edited.catalog("en"))))
    assert any("Seizing Federal Armories (event text)" in line and "Fugitive Slave Law (value 2 → 3)" in line
               for line in lines), lines


def warnings(page):
    return re.findall(r'<div class="warn">(.*?)</div>', page, re.S)


def test_too_few_games_are_said_plainly_and_enough_games_are_not(content, edited, edited_report):
    from crisis.balance.run import power
    data, folders = edited_report
    needed = stats.games_needed(0.10)
    assert 380 <= needed <= 400  # the textbook sample: about 390 a group for 45% against 55% at 80% power
    assert stats.detectable_difference(100, 100) == pytest.approx(0.198, abs=0.001)
    for lang in ("en", "es"):
        page = (folders[lang] / "report.html").read_text(encoding="utf-8")
        (warning,) = warnings(page)
        assert "40" in warning and "400" in warning  # the games played, and about how many are needed
        for card in (RIGGED, EDITED_VALUE):  # how little each changed card's plays can show
            assert Presenter(edited, edited.catalog(lang)).card(card) in warning
    lines = text_summary(data, Words(Presenter(edited, edited.catalog("en"))))
    assert [line for line in lines if "Too few games" in line and " 40 games" in line and " 400 games" in line]
    # the same comparison with 1,000 games on each content: no warning, on the page or the console
    many = json.loads(json.dumps(data))
    many["compare"]["power"] = power(1000, data["meta"]["level"], many["compare"]["cards"],
                                     many["compare"]["changed"])
    words = Words(Presenter(edited, edited.catalog("en")))
    from crisis.balance.report import page as html_page
    assert warnings(html_page(many, words, "en", content)) == []
    assert not [line for line in text_summary(many, words) if "Too few games" in line]
    assert "1000 games on each content" in html_page(many, words, "en", content)


def test_every_plot_says_in_words_what_it_shows(report, edited_report):
    _, folders = edited_report
    for page in [(report[0] / "report.html").read_text(encoding="utf-8")] + [
            (folder / "report.html").read_text(encoding="utf-8") for folder in folders.values()]:
        images = re.findall(r"<img[^>]*>", page)
        assert len(images) >= 6
        alts = [re.search(r'alt="([^"]*)"', image) for image in images]
        assert all(alt and len(alt.group(1)) > 40 for alt in alts), images
        assert len({alt.group(1) for alt in alts}) == len(alts)  # each its own
    page = (folders["en"] / "report.html").read_text(encoding="utf-8")
    alt = next(a for a in re.findall(r'alt="([^"]*)"', page) if "after minus before" in a)
    assert "Seizing Federal Armories" in alt and "Fugitive Slave Law" in alt


def test_the_change_plot_draws_every_card_with_its_interval(edited, edited_report, monkeypatch):
    from crisis.balance.plots import Plotter
    from crisis.balance.summary import MIN_PLAYS, change_rows
    data, _ = edited_report
    comparison = data["compare"]
    drawn, left_out = change_rows(comparison)
    assert {r["card"] for r in drawn[:2]} == {RIGGED, EDITED_VALUE}  # the changed cards first
    assert left_out, "40 games leave some cards with a handful of event plays"
    for row in drawn + left_out:
        before, after = row["before"]["rule"], row["after"]["rule"]
        assert (row["rule_difference"], row["difference_low"], row["difference_high"]) == pytest.approx(
            stats.newcombe(after["k"], after["n"], before["k"], before["n"]))
        assert row["difference_low"] <= row["rule_difference"] <= row["difference_high"]
        few = min(before["n"], after["n"]) < MIN_PLAYS
        assert few == (row in left_out) or row["card"] in (RIGGED, EDITED_VALUE)
    figures = []
    monkeypatch.setattr(Plotter, "_png", lambda self, figure: figures.append(figure) or b"png")
    Plotter(Words(Presenter(edited, edited.catalog("en")))).compare(comparison, drawn)
    (axes,) = figures[0].axes
    bars = [c for c in axes.containers if c.has_xerr]
    assert len(bars) == len(drawn)
    for bar, row in zip(bars, drawn):
        (x, y), = bar.lines[0].get_xydata()
        assert x == pytest.approx(row["rule_difference"])
        (segment,) = bar.lines[2][0].get_segments()
        assert [p[0] for p in segment] == pytest.approx([row["difference_low"], row["difference_high"]])


def flag(data, count):
    """The report's data with ``count`` cards flagged, in the run and in the comparison."""
    data = json.loads(json.dumps(data))
    for rows in (data["runs"][0]["cards"], data["compare"]["cards"]):
        for index, row in enumerate(rows):
            row["flagged"] = index < count
    return data


@pytest.mark.parametrize("lang, none, flagged, changed", [
    ("en", "Cards flagged: none", "Cards flagged: {n} ({cards})", "Cards whose event results changed significantly: "),
    ("es", "Cartas señaladas: ninguna", "Cartas señaladas: {n} ({cards})",
     "Cartas cuyos resultados por evento cambiaron significativamente: ")])
def test_the_console_counts_in_words(edited, edited_report, lang, none, flagged, changed):
    data, _ = edited_report
    words = Words(Presenter(edited, edited.catalog(lang)))
    for count in (0, 1, 2):
        lines = [line.strip() for line in text_summary(flag(data, count), words)]
        names = ", ".join(words.card(c["card"]) for c in data["runs"][0]["cards"][:count])
        expected = none if count == 0 else flagged.format(n=count, cards=names)
        assert expected in lines, lines
        names = ", ".join(words.card(c["card"]) for c in data["compare"]["cards"][:count])
        assert changed + (none.split(": ")[1] if count == 0 else f"{count} ({names})") in lines, lines
        assert not [line for line in lines if "()" in line or "(–)" in line or ": 0" in line]


@pytest.mark.parametrize("lang, one, two", [("en", "Playing 1 game (1 run)...", "Playing 4 games (2 runs)..."),
                                            ("es", "Jugando 1 partida (1 serie)...", "Jugando 4 partidas (2 series)...")])
def test_the_command_counts_games_and_runs_in_words(tmp_path, lang, one, two):
    for args, says in ((["--games", "1", "--bot", "secessionist=random"], one),
                       (["--games", "2", "--bot", "secessionist=random,random"], two)):
        result = run_main("balance", "--lang", lang, "--jobs", "1", "--bot", "union=random",
                          *args, "--out", tmp_path / "r", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert says in result.stderr.splitlines(), result.stderr


def test_the_page_names_the_contents_own_things_in_the_reports_language(content, tmp_path):
    """The rounds, the first players, the zones entered, the cards kept and the tie-breaks are
    named as the content names them, in the report's language (the tie-breaks as players read
    them, not as the rules are written)."""
    data = balance(content, Plan(games=12, seed=5, pairings=(("random", "random"),)))
    says = {"en": ["When the Final Crisis began", "after round 3", "round 1", "the Final Crisis",
                   "Crisis zones breached", "Escalation", "Objective cards", "Fort Sumter", "Scored by its holder",
                   "tie-break 1: you control Fort Sumter", "without Event Discard"],
            "es": ["Cuándo empezó la Crisis Final", "tras la ronda 3", "la ronda 1", "la Crisis Final",
                   "Brechas en las zonas de crisis", "Escalada", "Cartas de objetivo", "Puntuada por quien la guardó",
                   "desempate 1: controlas Fort Sumter", "sin Descarte de Eventos"]}
    for lang, texts in says.items():
        write(tmp_path / lang, data, Presenter(content, content.catalog(lang)), lang)
        page = (tmp_path / lang / "report.html").read_text(encoding="utf-8")
        missing = [text for text in texts if text not in page]
        assert missing == [], (lang, missing)
    run = data["runs"][0]
    assert len(run["kept"]) == len(program_of(content).definition.cards["objective cards"].ids)
    assert sum(k["held"] for k in run["kept"]) == sum(2 * int(r) * n for r, n in
                                                      ((e["value"], e["k"]) for e in run["loop"]["ends"]))


# ------------------------------------------------------------------ another game

@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_game_without_a_rule_of_its_cards_reports_how_its_cards_were_played_and_its_turns(tmp_path, lang):
    """The Civil War Card Game plays no card for a rule of its own (only as an interrupt), so there is
    no event against value to compare: the report counts each card's plays and the games its player
    won, with no test of significance; how far the game went is told in turns (its own loop), not in
    the battles of a turn."""
    from crisis.content.games import game_path
    cwcg = load_content(game_path("civil-war-card-game"))
    data = balance(cwcg, Plan(games=12, seed=1, pairings=(("random", "random"),)))
    run = data["runs"][0]
    assert run["rule_uses"] == [] and run["loop"]["counter"] == "turn"
    assert [end["value"] for end in run["loop"]["ends"]] == list(range(1, 26))
    write(tmp_path, data, Presenter(cwcg, cwcg.catalog(lang)), lang)
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    words = cwcg.catalog(lang)
    assert words.text("report.cards_played_heading") in page and words.text("report.cards_heading") not in page
    assert words.text("report.p_holm") not in page
    played = max(run["cards"], key=lambda card: card["other"]["n"])
    assert played["other"]["n"] > 0
    # the South goes first in every turn of every game: one line, not 25 rows of the South's wins
    assert run["first_player_always"] == [{"step": "turns", "side": "South"}] and run["first_player"] == []
    south = words.name("sides", "South")
    assert re.search(re.escape(south) + r" (was the first player of|fue el primer jugador de) ", page)


def test_the_score_s_figures_are_those_of_the_games_that_were_scored(tmp_path):
    """A Civil War game won at once never scores its VP: its 0 to 0 is left out of the means, the
    medians and the margins, and the page says over how many games they are."""
    from crisis.content.games import game_path
    game = load_content(game_path("civil-war-card-game"))
    run = balance(game, Plan(games=20, seed=1, pairings=(("random", "heuristic"),)))["runs"][0]
    at_once = next(t for t in run["tie_breaks"] if t["tie_break"] == -2)["k"]
    score = run["score"]
    assert 0 < at_once < 20 and score["games"] == 20 - at_once
    assert sum(score["sides"]["North"]["histogram"].values()) == score["games"]
    assert sum(score["margin"]["histogram"].values()) == score["games"]
    write(tmp_path / "r", {"meta": {**balance(game, Plan(games=1, seed=1))["meta"]}, "runs": [run]},
          Presenter(game, game.catalog("en")), "en")
    said = "game" if score["games"] == 1 else f"{score['games']} games"
    assert f"those of the {said} of 20 that ran to their end" in \
        (tmp_path / "r" / "report.html").read_text(encoding="utf-8")


def test_ctrl_c_writes_the_report_of_the_games_played_and_says_so(tmp_path):
    import signal
    import subprocess
    import time
    from clirun import crisis_command
    proc = subprocess.Popen(crisis_command() + ["balance", "--games", "100000", "--jobs", "1", "--out", "r"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, LANG="C", LC_ALL="", LANGUAGE=""))
    time.sleep(4)  # the content loaded and a chunk of games under way
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    data = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    assert data["meta"]["interrupted"] is True
    played = data["runs"][0]["games"]
    assert 0 < played < 100000 and f"the report is of the {played} games played, of 100000 asked" in err
    assert "was interrupted (Ctrl-C)" in (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert "Traceback" not in err


def test_a_game_whose_cards_carry_out_no_rule_compares_the_players_of_each_card(tmp_path):
    """The Civil War Card Game's cards are played as interrupts, none for an event: its comparison
    measures the win rate of the side that played each card (it was 'no games' for all 116), in
    those words, and flags nothing in a run."""
    from crisis.content.games import game_path
    game = load_content(game_path("civil-war-card-game"))
    data = balance(game, Plan(games=20, seed=1, pairings=(("heuristic", "heuristic"),)), other=game)
    comparison = data["compare"]
    assert comparison["measure"] == "plays"
    played = [r for r in comparison["cards"] if r["before"]["rule"]["n"]]
    assert played and all(r["before"]["rule"] == r["after"]["rule"] for r in played)  # the same games
    run = data["runs"][0]
    assert {r["card"]: r["before"]["rule"]["n"] for r in played} == \
        {c["card"]: c["other"]["n"] for c in run["cards"] if c["other"]["n"]}
    show = Presenter(game, game.catalog("en"))
    write(tmp_path / "r", data, show, "en", before=game)
    page = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert "the win rate of the side that played it" in page and "for its event" not in page
    console = "\n".join(text_summary(data, Words(show)))
    assert "Cards flagged" not in console and "players' results changed significantly: none" in console


def test_a_comparison_says_which_files_beyond_the_cards_differ(content, tmp_path):
    """A copy whose bots judge otherwise plays other games: the comparison no longer says 'same
    bots' and names the file, on the console and the page."""
    folder = copy_content(tmp_path / "bots")
    replace_in(folder / "bots" / "evaluation.yaml", "your VP: 1.0", "your VP: -1.0")
    edited = load_content(folder)
    data = balance(edited, Plan(games=3, seed=1, pairings=(("random", "random"),)), other=content)
    assert data["compare"]["files"] == ["bots/evaluation.yaml"] and data["compare"]["changed"] == {}
    show = Presenter(edited, edited.catalog("en"))
    console = "\n".join(text_summary(data, Words(show)))
    assert "same bots" not in console and "these files differ" in console and "bots/evaluation.yaml" in console
    write(tmp_path / "r", data, show, "en", before=content)
    assert "bots/evaluation.yaml" in (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    same = balance(load_content(copy_content(tmp_path / "same")), Plan(games=1, seed=1), other=content)
    assert same["compare"]["files"] == []


def test_the_report_says_how_to_play_the_same_games_again(tmp_path):
    result = run_main("balance", "--games", "4", "--seed", "9", "--bot", "union=random", "--bot", "secessionist=random",
                      "--out", "r", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    meta = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))["meta"]
    assert meta["command"] == "crisis balance --games 4 --seed 9 --bot union=random --bot secessionist=random --out r"
    assert meta["version"] and len(meta["digest"]) == 16
    page = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert "The same games again: crisis balance --games 4 --seed 9" in page and meta["digest"] in page


def test_a_field_that_follows_another_by_default_is_not_an_edit_of_its_own(tmp_path):
    """Grant's defense is his power unless written: raising his power is one change, not two."""
    import shutil
    from crisis.balance.summary import changed_cards
    from crisis.content.games import game_path
    folder = tmp_path / "cw"
    shutil.copytree(game_path("civil-war-card-game"), folder)
    replace_in(folder / "cards" / "north.yaml", "  - id: ulysses-s-grant\n    type: soldier\n    side: North\n"
               "    price: 5\n    power: 2\n", "  - id: ulysses-s-grant\n    type: soldier\n    side: North\n"
               "    price: 5\n    power: 9\n")
    before = load_content(game_path("civil-war-card-game"))
    assert changed_cards(before, load_content(folder)) == {
        "ulysses-s-grant": [{"field": "power", "before": 2, "after": 9}]}
    replace_in(folder / "cards" / "north.yaml", "    power: 9\n", "    power: 9\n    defense: 4\n")
    assert changed_cards(before, load_content(folder))["ulysses-s-grant"][1] == \
        {"field": "defense", "before": 2, "after": 4}  # written, it is an edit


def test_a_comparison_with_another_game_is_refused_before_any_game(tmp_path):
    from crisis.content.games import game_path
    result = run_main("balance", "--games", "5000", "--compare", str(game_path("civil-war-card-game")),
                      "--out", "r", cwd=tmp_path)
    assert result.returncode == 2 and "is another game" in result.stderr and "Playing" not in result.stderr


def test_a_report_in_spanish_names_the_game_s_counters_steps_and_ways_of_play_in_spanish(tmp_path):
    """The Civil War report read 'Hasta dónde llegó turn', 'turn 1', 'Jugadas por interrupt': the
    general texts now take the counter's, step's and way of play's names from the catalog."""
    import re
    from crisis.content.games import game_path
    game = load_content(game_path("civil-war-card-game"))
    data = balance(game, Plan(games=10, seed=1, pairings=(("random", "random"),)))
    write(tmp_path / "r", data, Presenter(game, game.catalog("es")), "es")
    text = re.sub(r"<[^>]+>", " ", re.sub(r"<img[^>]*>", "", (tmp_path / "r" / "report.html").read_text(encoding="utf-8")))
    assert "Hasta qué turno llegó la partida" in text and "turno 1" in text and "interrupción" in text
    assert not re.search(r"\bturns?\b|\binterrupt\b", text), re.findall(r".{30}\bturns?\b.{30}", text)[:3]


def test_a_ctrl_c_while_the_compared_content_plays_ends_the_report_without_a_comparison(content, unchanged):
    """The first Ctrl-C stops the run under way, the compared content's too: its games so far
    would be a comparison of part of one run against the whole of the other."""
    played = [0]

    def progress(games):
        played[0] += games
    data = balance(unchanged, Plan(games=40, seed=1, pairings=(("random", "random"),)), other=content,
                   progress=progress, stopped=lambda: played[0] > 40)
    assert data["meta"]["interrupted"] is True and not data.get("compare") and data["meta"]["compare"] is None
    assert [run["games"] for run in data["runs"]] == [40] and 40 < played[0] < 80


def test_the_score_plot_shows_shares_of_the_games_scored(monkeypatch):
    """Most Civil War games are won at once, unscored: each side's bars and the margin's add up
    to all the games scored, not to the scored share of every game."""
    pytest.importorskip("matplotlib")
    from crisis.balance.plots import Plotter
    from crisis.content.games import game_path
    game = load_content(game_path("civil-war-card-game"))
    run = balance(game, Plan(games=20, seed=1, pairings=(("random", "heuristic"),)))["runs"][0]
    assert 0 < run["score"]["games"] < run["games"]
    figures = []
    monkeypatch.setattr(Plotter, "_png", lambda self, figure: figures.append(figure) or b"png")
    Plotter(Words(Presenter(game, game.catalog("en")))).score(run)
    left, right = figures[0].axes
    for bars in left.containers:
        assert sum(bar.get_height() for bar in bars) == pytest.approx(1.0)
    assert sum(bar.get_height() for bar in right.containers[0]) == pytest.approx(1.0)


def test_a_comparison_tests_each_card_within_each_side_and_adjusts_over_the_cards_played_in_both():
    from crisis.balance.summary import compare

    def card(name, sides):  # sides: [(rule plays, won), ...] a side
        rule = [sum(n for n, _ in sides), sum(k for _, k in sides)]
        return {"card": name, "rule": {"n": rule[0], "k": rule[1]}, "other": {"n": 0, "k": 0},
                "by_side": [{"rule": [n, k], "other": [0, 0]} for n, k in sides]}
    before = {"cards": [card("a", [(10, 2), (10, 8)]), card("b", [(0, 0), (0, 0)]), card("c", [(5, 2), (5, 3)])],
              "wins": {}, "rule_uses": ["event"]}
    after = {"cards": [card("a", [(2, 0), (18, 15)]), card("b", [(0, 0), (0, 0)]), card("c", [(5, 3), (5, 2)])],
             "wins": {}, "rule_uses": ["event"]}
    rows = {r["card"]: r for r in compare(before, after)["cards"]}
    # 'a': the pooled rate rose from 50% to 75% only because the side that wins played it more
    assert rows["a"]["p"] == pytest.approx(stats.stratified([(0, 2, 2, 8), (15, 3, 8, 2)]))
    assert rows["a"]["p"] > 0.5 and stats.fisher(15, 5, 10, 10) < rows["a"]["p"]
    assert not rows["b"]["tested"] and rows["b"]["p_holm"] == 1.0  # never played: not counted
    assert rows["a"]["p_holm"] == pytest.approx(min(1.0, 2 * rows["a"]["p"]))


def test_both_rules_on_a_game_without_optional_rules_is_refused_before_any_game(tmp_path):
    """--both-rules on a game with no optional rule had nothing to compare and was silently
    ignored; it is now refused in one line, before any folder is made."""
    from clirun import run_main
    result = run_main("balance", "--game", "civil-war-card-game", "--both-rules", "--games", "2", "--jobs", "1",
                      "--out", str(tmp_path / "out"))
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "has no optional rules" in result.stderr and "--both-rules" in result.stderr
    assert not (tmp_path / "out").exists()

