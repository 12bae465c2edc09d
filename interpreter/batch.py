"""Many games: the engine side of ``crisis sim`` and of every long job that
plays games by the thousand (balance reports, solo statistics...).

A ``Job`` is what every game of a run shares: the content, the options, the
controller (by registered name, see ``controllers.controller_factories``)
playing each side, and whether to check the invariants after every action.
Game *i* of a run always uses seed *S + i*, and a game depends on nothing
but its seed, so a run gives the same results however it is split:

- ``Job.play(seeds)`` plays the games here, one after the other, and yields a
  ``GameRecord`` as each ends;
- ``run(job, first_seed, games, jobs=N)`` splits the seeds into chunks played
  by N processes and yields, in seed order, one ``Chunk`` per chunk: its
  ``Summary`` (and, when asked, its records as JSON lines), so a caller can
  show progress, write records as they arrive and stop at any time with the
  results of a prefix of the games.  Memory does not grow with the number of
  games: summaries are counts, records are streamed.

The content and the job travel to each process once (when the process
starts), never with each chunk.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import attrs

from crisis.content.model import Content

from . import flow
from .compile import Executor
from .controllers import RandomBot, controller_factory
from .game import Game, Options
from .invariants import check_state
from .state import SAME_DRAWS, initial_state
from .tables import tables_for

MAX_PROBLEMS_KEPT = 10  # broken invariants described in a summary (all are counted)


@attrs.frozen
class GameRecord:
    """What a designer analyses of one finished game."""

    seed: int
    winner: int  # -1 when the game was stopped (an invariant broke)
    vp: Tuple[int, int]
    tie_break: int  # index of the tie-break that decided, -1 when VP did
    rounds: int  # rounds played; the Final Crisis followed the last of them
    final_crisis_early: bool  # it came before the last round (both Final Crisis zones breached)
    played: Tuple[Tuple[int, int, str], ...]  # (side, card index, "value" | "event" | "claim"), in order
    breaches: Tuple[Tuple[int, int, int], ...]  # (zone index, side, 1 for the first breacher, 2 for the second)
    actions: int  # decisions taken by the players
    problems: Tuple[str, ...] = ()  # invariants broken (only when the job checks them)
    first_players: Tuple[int, ...] = ()  # of each round's card play, then of the Final Crisis
    objectives: Tuple[Tuple[int, int, int, bool], ...] = ()  # (round, side, card, scored by its holder)


@attrs.frozen
class Job:
    """The games of one run: same content, options and controllers; one game per seed."""

    content: Content
    options: Options = Options()
    controllers: Tuple[str, str] = ("random", "random")
    check: bool = False  # check the invariants after every action (slower)
    # the controllers' factories, looked up once by name (a class travels to other processes by name)
    factories: Tuple[Callable, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self):
        # a name may carry a setting: "search:40" (see controllers.controller_factory)
        try:
            factories = tuple(controller_factory(name) for name in self.controllers)
        except ValueError as error:
            raise KeyError(str(error)) from None
        object.__setattr__(self, "factories", factories)

    def play(self, seeds: Iterable[int]) -> Iterator[GameRecord]:
        tables = tables_for(self.content)
        for seed in seeds:
            yield play_game(self.content, tables, self.options, self.factories, seed, self.check)


def play_game(content, tables, options, factories, seed: int, check: bool = False) -> GameRecord:
    controllers = [factory(seed, side) for side, factory in enumerate(factories)]
    # the loop without a Game serves two random bots; the solo game needs its driver (Game)
    if not check and SAME_DRAWS and options.solo is None and all(type(c) is RandomBot for c in controllers):
        state = initial_state(tables, seed)
        actions = _random_play(tables, options, state, controllers)
        return record_of(tables, state, seed, actions, [])
    game = Game(content, seed, options, log=False)
    problems: List[str] = []
    actions = 0
    choose = [c.choose for c in controllers]
    decision = game.decision
    while decision is not None:
        game.advance(choose[decision.player](game, decision))
        actions += 1
        decision = game.decision
        if check:
            found = check_state(tables, game.state)
            if found:
                problems.extend(f"after action {actions}: {p}" for p in found)
                break
    return record_of(tables, game.state, seed, actions, problems)


def _random_play(tables, options, state, bots) -> int:
    """Two random bots play a game to its end: what ``Game`` with ``RandomBot``
    controllers does, in one loop (a random bot's pick is always one of the
    decision's actions; no log, no history).  The same draws from the same
    generators, so the same game."""
    ex = Executor(tables, state, None)
    bits = [bot.rng.getrandbits for bot in bots]
    actions = 0
    while state.phase != "game_over":
        phase = flow.PHASES[state.phase](ex, options)
        try:
            decision = next(phase)
            while True:
                choices = decision.actions
                n = len(choices)
                # ``below`` written in: one draw per decision of every game
                getrandbits = bits[decision.player]
                k = n.bit_length()
                pick = getrandbits(k)
                while pick >= n:
                    pick = getrandbits(k)
                actions += 1
                ex.work = 0  # counted from the last decision (Executor.charge)
                decision = phase.send(choices[pick])
        except StopIteration:
            pass
    return actions


def record_of(tables, st, seed: int, actions: int, problems: List[str]) -> GameRecord:
    result = st.result
    breaches = tuple((zone, side, nth + 1) for zone, order in enumerate(st.breach_order)
                     for nth, side in enumerate(order))
    return GameRecord(
        seed=seed, winner=result.winner if result else -1, vp=(st.vp[0], st.vp[1]),
        tie_break=result.tie_break if result else -1, rounds=st.round,
        final_crisis_early=st.round < tables.board.rounds,
        played=tuple([(p.side, p.card, p.mode) for p in st.played]), breaches=breaches,
        actions=actions, problems=tuple(problems), first_players=tuple(st.first_players),
        objectives=tuple(st.objective_outcomes))


def record_json(tables, record: GameRecord) -> dict:
    """A record with names instead of indices (one line of ``crisis sim --records``)."""
    sides, cards, zones = tables.sides, tables.strategy_cards, tables.zones
    played = {side: {"event": [], "value": [], "claimed": []} for side in sides}
    for side, card, mode in record.played:
        # a claim (Event Discard) plays the claimed card's event
        played[sides[side]]["value" if mode == "value" else "event"].append(cards[card].id)
        if mode == "claim":
            played[sides[side]]["claimed"].append(cards[card].id)
    data = {
        "seed": record.seed,
        "winner": sides[record.winner] if record.winner >= 0 else None,
        "vp": {side: record.vp[i] for i, side in enumerate(sides)},
        "tie_break": record.tie_break + 1 if record.tie_break >= 0 else None,
        "rounds": record.rounds,
        "final_crisis_round": record.rounds,
        "final_crisis_early": record.final_crisis_early,
        "played": played,
        "breaches": [{"zone": zones[z].name, "side": sides[s], "order": nth} for z, s, nth in record.breaches],
        "actions": record.actions,
        # the first player of each round, then of the Final Crisis
        "first_players": [sides[s] for s in record.first_players],
        "objectives": [{"round": r, "side": sides[s], "objective": tables.objective_cards[card].id, "scored": scored}
                       for r, s, card, scored in record.objectives],
    }
    if record.problems:
        data["problems"] = list(record.problems)
    return data


# ------------------------------------------------------------------ summaries


@attrs.define
class Summary:
    """Counts over any number of games, merged in any order to the same totals."""

    games: int = 0
    wins: List[int] = attrs.field(factory=lambda: [0, 0])
    vp: List[int] = attrs.field(factory=lambda: [0, 0])  # summed final VP per side
    tie_breaks: Dict[int, int] = attrs.field(factory=dict)  # tie-break index -> games it decided
    rounds: Dict[int, int] = attrs.field(factory=dict)  # rounds played -> games
    final_crisis_early: int = 0
    actions: int = 0
    # card index -> [times played for its value, for its event (a claim included)]
    card_plays: Dict[int, List[int]] = attrs.field(factory=dict)
    broken: int = 0  # games in which an invariant broke (they are stopped, with no winner)
    problems: List[str] = attrs.field(factory=list)  # the first few, with their seeds

    def add(self, record: GameRecord) -> None:
        self.games += 1
        if record.winner >= 0:
            self.wins[record.winner] += 1
        self.vp[0] += record.vp[0]
        self.vp[1] += record.vp[1]
        if record.tie_break >= 0:
            self.tie_breaks[record.tie_break] = self.tie_breaks.get(record.tie_break, 0) + 1
        self.rounds[record.rounds] = self.rounds.get(record.rounds, 0) + 1
        self.final_crisis_early += record.final_crisis_early
        self.actions += record.actions
        plays = self.card_plays
        for _, card, mode in record.played:
            counts = plays.get(card)
            if counts is None:
                counts = plays[card] = [0, 0]
            counts[mode != "value"] += 1
        if record.problems:
            self.broken += 1
            room = MAX_PROBLEMS_KEPT - len(self.problems)
            self.problems.extend(f"seed {record.seed}: {p}" for p in record.problems[:max(room, 0)])

    def merge(self, other: "Summary") -> None:
        """Add another summary's games (the other must be of later seeds, for ``problems`` to stay in order)."""
        self.games += other.games
        for side in (0, 1):
            self.wins[side] += other.wins[side]
            self.vp[side] += other.vp[side]
        for mine, theirs in ((self.tie_breaks, other.tie_breaks), (self.rounds, other.rounds)):
            for key, count in theirs.items():
                mine[key] = mine.get(key, 0) + count
        for card, (value, event) in other.card_plays.items():
            counts = self.card_plays.setdefault(card, [0, 0])
            counts[0] += value
            counts[1] += event
        self.final_crisis_early += other.final_crisis_early
        self.actions += other.actions
        self.broken += other.broken
        self.problems.extend(other.problems[:max(MAX_PROBLEMS_KEPT - len(self.problems), 0)])

    def to_json(self, tables) -> dict:
        sides, cards = tables.sides, tables.strategy_cards
        n = max(self.games, 1)
        decided = self.games - self.broken
        return {
            "games": self.games,
            "wins": {side: self.wins[i] for i, side in enumerate(sides)},
            "win_rate": {side: self.wins[i] / max(decided, 1) for i, side in enumerate(sides)},
            # half the width of a 95% confidence interval on a win rate (normal approximation)
            "win_rate_margin95": 1.96 * (0.25 / max(decided, 1)) ** 0.5,
            "mean_vp": {side: self.vp[i] / n for i, side in enumerate(sides)},
            "tie_breaks": {str(index + 1): count for index, count in sorted(self.tie_breaks.items())},
            "rounds": {str(r): count for r, count in sorted(self.rounds.items())},
            "final_crisis_early": self.final_crisis_early,
            "mean_actions": self.actions / n,
            "card_plays": {cards[card].id: {"value": v, "event": e}
                           for card, (v, e) in sorted(self.card_plays.items())},
            "broken_invariants": self.broken,
            "problems": list(self.problems),
        }


# ------------------------------------------------------------------ many processes


@attrs.frozen
class Chunk:
    """The result of consecutive games: seeds ``first`` to ``first + games - 1``."""

    first: int
    games: int
    summary: Summary
    records: Optional[List[str]] = None  # one JSON text per game, when asked


def play_chunk(job: Job, first: int, games: int, records: bool) -> Chunk:
    tables = tables_for(job.content)
    summary = Summary()
    lines: Optional[List[str]] = [] if records else None
    for record in job.play(range(first, first + games)):
        summary.add(record)
        if lines is not None:
            lines.append(json.dumps(record_json(tables, record), ensure_ascii=False, separators=(",", ":")))
    return Chunk(first, games, summary, lines)


def chunks(first_seed: int, games: int, workers: int, largest: int = 500) -> Iterator[Tuple[int, int]]:
    """(first seed, count) of the chunks of a run: small enough for steady progress and a
    prompt stop, large enough that handing them out costs nothing next to playing them."""
    size = max(1, min(largest, games // (workers * 16) or 1))
    for start in range(0, games, size):
        yield first_seed + start, min(size, games - start)


def default_jobs() -> int:
    """Every core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def processes(games: int, jobs: int) -> int:
    """The processes a run of ``games`` games really starts when ``jobs`` are asked: never more
    than there are games (``--jobs 64 --games 4`` starts four, not sixty idle ones)."""
    return max(1, min(jobs, games))


def run(job: Job, first_seed: int, games: int, jobs: int = 1, records: bool = False,
        largest_chunk: int = 500) -> Iterator[Chunk]:
    """Play ``games`` games from seed ``first_seed`` in ``jobs`` processes; the chunks come back in
    seed order.  Stopping the iteration (or an interrupt) stops the processes."""
    jobs = processes(games, jobs)
    parts = chunks(first_seed, games, jobs, largest_chunk)
    if jobs <= 1:
        tables_for(job.content)
        for first, count in parts:
            yield play_chunk(job, first, count, records)
        return
    import multiprocessing
    # fork where it is safe and quick (the job is then inherited, not even copied); else spawn
    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    pool = context.Pool(jobs, initializer=_start_worker, initargs=(job,))
    try:
        tasks = ((first, count, records) for first, count in parts)
        yield from pool.imap(_worker_chunk, tasks)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


_WORKER_JOB: Optional[Job] = None


def _start_worker(job: Job) -> None:
    global _WORKER_JOB
    # an interrupt (Ctrl-C) is for the parent, which stops the workers and reports what is done
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER_JOB = job
    tables_for(job.content)  # compiled once per process


def _worker_chunk(task: Tuple[int, int, bool]) -> Chunk:
    first, count, records = task
    return play_chunk(_WORKER_JOB, first, count, records)


def play_batch(job: Job, seeds: Sequence[int], jobs: int = 1) -> Summary:
    """The summary of games ``seeds`` (consecutive), played in ``jobs`` processes."""
    total = Summary()
    for chunk in run(job, seeds[0], len(seeds), jobs):
        total.merge(chunk.summary)
    return total
