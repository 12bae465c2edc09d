"""Playing the games of a balance report and putting its numbers together.

A report has one run per pairing of bots and set of rules (without and, with ``both_rules``,
with the optional Event Discard rule), each on the same seeds; with a second content
(``compare``) the first run is played again on it, on the same seeds, and the two are set
side by side card by card.  Games are played through the batch API (``crisis.interpreter.batch``),
on every core, as ``crisis sim`` plays them.
"""

from __future__ import annotations

import json
import time
from typing import Callable, List, Optional, Sequence, Tuple

import attrs

from crisis.interpreter import batch
from crisis.interpreter.game import Options

from .stats import z_for
from .summary import RunSummary, changed_cards, compare


@attrs.frozen
class Plan:
    games: int
    seed: int = 1
    pairings: Tuple[Tuple[str, str], ...] = (("heuristic", "heuristic"),)
    rules: Tuple[bool, ...] = (False,)  # Event Discard off / on, one run each
    level: float = 0.05  # significance level of the flags
    confidence: float = 0.95  # of the intervals
    jobs: int = 1  # processes (batch.default_jobs(): every core)


def play_run(content, plan: Plan, bots: Sequence[str], event_discard: bool,
             progress: Optional[Callable[[int], None]] = None) -> dict:
    label = "/".join(bots) + (" +event-discard" if event_discard else "")
    summary = RunSummary(content, label, bots, event_discard)
    job = batch.Job(content, Options(event_discard=event_discard), tuple(bots))
    for chunk in batch.run(job, plan.seed, plan.games, plan.jobs, records=True):
        for line in chunk.records:
            summary.add(json.loads(line))
        if progress is not None:
            progress(chunk.games)
    return summary.analysis(plan.level, z_for(plan.confidence))


def balance(content, plan: Plan, other=None, progress: Optional[Callable[[int], None]] = None) -> dict:
    """Every run of the plan (and the comparison with ``other``, a second content): the report's data."""
    started = time.perf_counter()
    runs: List[dict] = []
    for bots in plan.pairings:
        for event_discard in plan.rules:
            runs.append(play_run(content, plan, bots, event_discard, progress))
    data = {"meta": {"content": str(content.root), "games": plan.games, "seed": plan.seed,
                     "level": plan.level, "confidence": plan.confidence,
                     "test": "Fisher's exact test, two-sided, of the win rate of the side that played a card "
                             "for its event against the side that played it for its value",
                     "correction": "Holm's step-down adjustment over the cards of a run (family-wise error rate)",
                     "interval": "Wilson score interval",
                     "compare": str(other.root) if other is not None else None}}
    if other is not None:
        bots, event_discard = plan.pairings[0], plan.rules[0]
        before = play_run(other, plan, bots, event_discard, progress)
        comparison = compare(before, runs[0], plan.level)
        comparison["changed"] = changed_cards(other, content)
        comparison["before"] = before
        data["compare"] = comparison
    data["runs"] = runs
    data["meta"]["seconds"] = time.perf_counter() - started
    return data
