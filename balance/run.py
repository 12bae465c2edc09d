"""Playing the games of a balance report and putting its numbers together.

A report has one run per pairing of bots and set of rules (the content's optional rules on or
off: each set in ``Plan.rules``), each on the same seeds; with a second content (``compare``)
the first run is played again on it, on the same seeds, and the two are set side by side card
by card.  Games are played through the batch API (``crisis.interpreter.batch``), on every core,
as ``crisis sim`` plays them, and counted from their records.
"""

from __future__ import annotations

import json
import time
from typing import Callable, List, Optional, Sequence, Tuple

import attrs

from crisis.interpreter import batch
from crisis.interpreter.engine.game import Options

from .stats import detectable_difference, games_needed, z_for
from .summary import MIN_PLAYS, RunSummary, changed_cards, compare

POWER = 0.8  # the chance of finding a true difference that the report's power figures are for
ENOUGH = 0.10  # a comparison that cannot find a change this large in a side's win rate is warned about


@attrs.frozen
class Plan:
    games: int
    seed: int = 1
    pairings: Tuple[Tuple[str, str], ...] = (("heuristic", "heuristic"),)
    rules: Tuple[Tuple[str, ...], ...] = ((),)  # the optional rules on in each run (the others are off)
    level: float = 0.05  # significance level of the flags
    confidence: float = 0.95  # of the intervals
    jobs: int = 1  # processes (batch.default_jobs(): every core)


def play_run(content, plan: Plan, bots: Sequence[str], options: Sequence[str] = (),
             progress: Optional[Callable[[int], None]] = None, stopped: Optional[Callable[[], bool]] = None) -> dict:
    """One run's games and figures; ``stopped()`` true after a chunk ends the run there (its games
    so far are the run's)."""
    label = "/".join(bots) + "".join(f" +{name.replace('_', '-')}" for name in options)
    summary = RunSummary(content, label, bots, options)
    job = batch.Job(content, Options(frozenset(options)), tuple(bots))
    # bots' games are slow (a search game takes seconds): small chunks, so that a Ctrl-C, which
    # waits for the chunk under way, is answered soon
    fast = all(bot == "random" for bot in bots)
    chunks = batch.run(job, plan.seed, plan.games, plan.jobs, records=True, largest_chunk=500 if fast else 16)
    try:
        for chunk in chunks:
            for line in chunk.records:
                summary.add(json.loads(line))
            if progress is not None:
                progress(chunk.games)
            if stopped is not None and stopped():
                break
    finally:
        chunks.close()  # stops the worker processes
    return summary.analysis(plan.level, z_for(plan.confidence))


def power(games: int, level: float, rows: Sequence[dict], changed=()) -> dict:
    """What a comparison of ``games`` games on each content can find (80% power, normal
    approximation, win rates near one half): the smallest change in a side's win rate, the
    games needed to find a change of ``ENOUGH``, and for each changed card the smallest change
    in the win rate of the player who carried out its rule, given how often its rule was carried
    out before and after, at the level a card must pass first under Holm's adjustment (``level``
    over the cards compared)."""
    sides = detectable_difference(games, games, level, POWER)
    cards = []
    for row in rows:
        if row["card"] in changed and "before" in row:
            plays = (row["before"]["rule"]["n"], row["after"]["rule"]["n"])
            smallest = detectable_difference(plays[0], plays[1], level / max(1, len(rows)), POWER)
            cards.append({"card": row["card"], "before_plays": plays[0], "after_plays": plays[1],
                          "detectable": smallest if smallest < float("inf") else None})
    return {"power": POWER, "threshold": ENOUGH, "games": games, "detectable": sides,
            "games_for_threshold": games_needed(ENOUGH, level, POWER), "too_few_games": sides > ENOUGH,
            "cards": cards,
            "method": "normal approximation of a two-sided test of two proportions near 50%, at the level for the "
                      "sides and at the level divided by the number of cards for a card (Holm's first step)"}


# what a game is made of besides its cards (compared card by card) and its texts, which play
# no part in a game: a change there changes the games too, and the report must say so
_GAME_FILES = ("state.yaml", "sequence.yaml", "bots", "solo")


def changed_files(before, after) -> List[str]:
    """The files of a game other than its cards and texts that differ between two contents
    (or are in only one), by their paths in the content folder: the rules of play, the bots'
    settings, the solo opponent's tables."""
    import os
    from pathlib import Path
    found = {}
    for root in (Path(before), Path(after)):
        for name in _GAME_FILES:
            path = root / name
            paths = sorted(path.rglob("*.yaml")) if path.is_dir() else [path] if path.is_file() else []
            for file in paths:
                found.setdefault(file.relative_to(root).as_posix(), []).append(file.read_bytes())
    return sorted(name for name, texts in found.items() if len(texts) == 1 or texts[0] != texts[1])


def balance(content, plan: Plan, other=None, progress: Optional[Callable[[int], None]] = None,
            stopped: Optional[Callable[[], bool]] = None) -> dict:
    """Every run of the plan (and the comparison with ``other``, a second content): the report's
    data.  ``stopped()`` true (a first Ctrl-C) ends the runs after the chunk of games under way:
    the report is of the games played, ``meta.interrupted`` set, and no comparison."""
    started = time.perf_counter()
    runs: List[dict] = []
    for bots in plan.pairings:
        for options in plan.rules:
            if stopped is not None and stopped():
                break
            runs.append(play_run(content, plan, bots, options, progress, stopped))
    before = None  # the compared content's run, played unless stopped already (a Ctrl-C during it
    # ends it too: a comparison of part of one run against the whole of the other means nothing)
    if other is not None and not (stopped is not None and stopped()):
        before = play_run(other, plan, plan.pairings[0], plan.rules[0], progress, stopped)
    interrupted = stopped is not None and stopped()
    if interrupted:
        before = None
    data = {"meta": {"content": str(content.root), "digest": content.digest,
                     "compare_digest": other.digest if other is not None else None,
                     "games": plan.games, "seed": plan.seed,
                     "level": plan.level, "confidence": plan.confidence,
                     "test": "the exact test of no association, two-sided, of the win rate of the side whose "
                             "play of a card carried out the card's rule against the side whose play did not, "
                             "within each side (Fisher's exact test where one side played it both ways); the "
                             "difference weighed over the sides by Mantel-Haenszel",
                     "correction": "Holm's step-down adjustment over the cards of a run (family-wise error rate)",
                     "interval": "Wilson score interval",
                     "compare": str(other.root) if other is not None and not interrupted else None,
                     "interrupted": interrupted}}
    if before is not None:
        comparison = compare(before, runs[0], plan.level, z_for(plan.confidence))
        changed = changed_cards(other, content)
        comparison["cards"].sort(key=lambda row: row["card"] not in changed)  # changed cards first
        comparison["changed"] = changed
        comparison["files"] = changed_files(other.root, content.root)
        comparison["minimum_plays"] = MIN_PLAYS
        comparison["power"] = power(plan.games, plan.level, comparison["cards"], changed)
        comparison["before"] = before
        data["compare"] = comparison
    data["runs"] = runs
    data["meta"]["seconds"] = time.perf_counter() - started
    return data
