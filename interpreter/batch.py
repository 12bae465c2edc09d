"""Many games on the general engine: the engine side of ``crisis sim`` and of every long job that
plays games by the thousand (balance reports, solo statistics...).

A ``Job`` is what every game of a run shares: the content, the options, the controller (by
name, see ``controller_factory``) playing each side, and whether to check the invariants after
every action.  Game *i* of a run always uses seed *S + i*, and a game depends on nothing but
its seed, so a run gives the same results however it is split:

- ``Job.play(seeds)`` plays the games here, one after the other, and yields a ``GameRecord``
  (interpreter/records.py) as each ends;
- ``run(job, first_seed, games, jobs=N)`` splits the seeds into chunks played by N processes and
  yields, in seed order, one ``Chunk`` per chunk: its ``Summary`` (and, when asked, its records
  as JSON lines), so a caller can show progress, write records as they arrive and stop at any
  time with the results of a prefix of the games.  Memory does not grow with the number of
  games: summaries are counts, records are streamed.

Two random players play in the engine's direct form (``engine.game.play_game``, the generated
rules), drawing what ``RandomBot`` draws; any other controller, the invariants' check and
nothing else need the engine's ``Game``, one decision at a time.  A solo game (``Options.solo``)
has the content's automa play its side either way.

The content and the job travel to each process once (when the process starts), never with
each chunk.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections import Counter
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import attrs

from crisis.content.model import Content

from .designer.invariants import check_position
from .engine.game import Game, Options, RandomPlayers, play_game
from .engine.layout import AT_ONCE, NOBODY
from .players.registry import RandomBot, UnknownController, controller_factory  # noqa: F401 - exported
from .records import GameRecord, Reading, reading_of
from crisis.interpreter.engine.program import program_of

MAX_PROBLEMS_KEPT = 10  # broken invariants described in a summary (all are counted)

__all__ = ["Job", "GameRecord", "Summary", "Chunk", "run", "chunks", "play_batch", "play_chunk", "default_jobs",
           "processes", "controller_factory", "check_position"]


# ------------------------------------------------------------------ jobs


@attrs.frozen
class Job:
    """The games of one run: same content, options and controllers; one game per seed."""

    content: Content
    options: Options = Options()
    controllers: Tuple[str, ...] = ("random", "random")
    check: bool = False  # check the invariants after every action (slower)
    # the controllers' factories, looked up once by name (a class travels to other processes by name)
    factories: Tuple[Callable, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self):
        if not isinstance(self.options, Options):  # options as a two-player game's API gives them
            known = reading_of(program_of(self.content)).options
            object.__setattr__(self, "options", Options.from_dict(self.options.to_dict(), known))
        try:
            factories = tuple(controller_factory(name) for name in self.controllers)
        except ValueError as error:
            raise KeyError(str(error)) from None
        object.__setattr__(self, "factories", factories)

    def play(self, seeds: Iterable[int], notes: bool = True) -> Iterator[GameRecord]:
        """The games of ``seeds``, one record each; without ``notes``, records whose notes are
        left empty where leaving them costs less (what a summary reads is all there)."""
        content = self.content
        program = program_of(content)
        reading = reading_of(program)
        direct = not self.check and all(f is RandomBot for f in self.factories)
        for seed in seeds:
            if direct:
                yield _random_game(program, reading, self.options, seed, notes)
            else:
                yield _game(content, reading, self.options, self.factories, seed, self.check)


def _random_game(program, reading: Reading, options: Options, seed: int, notes: bool = True) -> GameRecord:
    """Random players in the direct form: what ``Game`` with ``RandomBot`` controllers plays
    (the same draws from the same generators, so the same game), without frames or history."""
    players = RandomPlayers([RandomBot(seed, side).rng for side in range(len(reading.sides))])
    position, _ = play_game(program, seed, players, options.flags, options.solo, options.difficulty, notes=notes)
    return reading.record(position, seed, players.decisions)


def _game(content, reading: Reading, options: Options, factories, seed: int, check: bool) -> GameRecord:
    """Any controllers, one decision at a time on the engine's ``Game``; with ``check``, the
    invariants after every action (the first one broken stops the game)."""
    program = program_of(content)
    game = Game(program, seed, options, log=False, content=content)
    controllers = [factory(seed, side) for side, factory in enumerate(factories)]
    problems: List[str] = []
    actions = 0
    decision = game.decision
    while decision is not None:
        game.apply(controllers[decision.player].choose(game, decision))
        actions += 1
        decision = game.decision
        if check:
            found = check_position(program, game.position)
            if found:
                problems.extend(f"after action {actions}: {p}" for p in found)
                break
    record = reading.record(game.position, seed, actions, problems)
    if problems:  # a game stopped has no winner
        record = attrs.evolve(record, winner=NOBODY, tie_break=NOBODY)
    return record


# ------------------------------------------------------------------ summaries


def _add(histogram: dict, key, n: int = 1) -> None:
    histogram[key] = histogram.get(key, 0) + n


@attrs.define
class Summary:
    """Counts over any number of games, merged in any order to the same totals."""

    games: int = 0
    wins: Dict[int, int] = attrs.field(factory=dict)  # side -> games won
    sums: Dict[Tuple[int, int], int] = attrs.field(factory=dict)  # (counter, side or 0) -> summed final value
    finals: Dict[Tuple[int, int], int] = attrs.field(factory=dict)  # (counter, final value) -> games (one value)
    tie_breaks: Dict[int, int] = attrs.field(factory=dict)  # tie-break index -> games it decided
    at_once: int = 0  # games a rule ended at once ("you win"), before the game's own end
    # (counter, side or 0) -> summed final value over those games alone: a score they never reached
    # (the Civil War Card Game scores VP only at the armistice) is left out of the score's mean
    at_once_sums: Dict[Tuple[int, int], int] = attrs.field(factory=dict)
    actions: int = 0
    # (side, card, use) -> plays: a game's plays as its record gives them, counted in one call
    card_plays: Counter = attrs.field(factory=Counter)
    broken: int = 0  # games in which an invariant broke (they are stopped, with no winner)
    problems: List[str] = attrs.field(factory=list)  # the first few, with their seeds

    def add(self, record: GameRecord) -> None:
        self.games += 1
        winner = record.winner
        if winner >= 0:
            wins = self.wins
            wins[winner] = wins.get(winner, 0) + 1
        sums, finals = self.sums, self.finals
        get = sums.get
        for counter, values in enumerate(record.counters):
            if len(values) == 1:
                value = values[0]
                key = (counter, 0)
                sums[key] = get(key, 0) + value
                key = (counter, value)
                finals[key] = finals.get(key, 0) + 1
            else:
                for side, value in enumerate(values):
                    key = (counter, side)
                    sums[key] = get(key, 0) + value
        if record.tie_break >= 0:
            _add(self.tie_breaks, record.tie_break)
        elif record.tie_break == AT_ONCE:
            self.at_once += 1
            for counter, values in enumerate(record.counters):
                for side, value in enumerate(values if len(values) > 1 else ()):
                    _add(self.at_once_sums, (counter, side), value)
        self.actions += record.actions
        self.card_plays.update(record.plays)
        if record.problems:
            self.broken += 1
            room = MAX_PROBLEMS_KEPT - len(self.problems)
            self.problems.extend(f"seed {record.seed}: {p}" for p in record.problems[:max(room, 0)])

    def merge(self, other: "Summary") -> None:
        """Add another summary's games (the other must be of later seeds, for ``problems`` to stay in order)."""
        self.games += other.games
        for mine, theirs in ((self.wins, other.wins), (self.sums, other.sums), (self.finals, other.finals),
                             (self.tie_breaks, other.tie_breaks), (self.card_plays, other.card_plays),
                             (self.at_once_sums, other.at_once_sums)):
            for key, count in theirs.items():
                _add(mine, key, count)
        self.actions += other.actions
        self.at_once += other.at_once
        self.broken += other.broken
        self.problems.extend(other.problems[:max(MAX_PROBLEMS_KEPT - len(self.problems), 0)])

    # ------------------------------------------------------------ figures
    def plays_by_card(self) -> Dict[Tuple[int, int], int]:
        """(card, use) -> plays, by either side."""
        out: Dict[Tuple[int, int], int] = {}
        for (_, card, use), count in self.card_plays.items():
            _add(out, (card, use), count)
        return out

    def mean(self, counter: int, side: int = 0) -> float:
        return self.sums.get((counter, side), 0) / max(self.games, 1)

    def scored_mean(self, counter: int, side: int = 0) -> float:
        """A side's counter's mean over the games that ran to their end (none a rule won at once):
        what the score averages where a game won at once never scored; nan without such games."""
        games = self.games - self.at_once
        if games <= 0:
            return float("nan")
        return (self.sums.get((counter, side), 0) - self.at_once_sums.get((counter, side), 0)) / games

    def stopped_early(self, reading: Reading, counter: int) -> int:
        """Games in which the loop over ``counter`` stopped before the counter's highest value."""
        high = reading.counters[counter].high
        return sum(n for (c, value), n in self.finals.items() if c == counter and value < high)

    def to_json(self, reading: Reading) -> dict:
        sides = reading.sides
        n = max(self.games, 1)
        decided = self.games - self.broken
        kind = reading.played_kind
        cards: Dict[int, Dict[str, int]] = {}
        for (card, use), count in sorted(self.plays_by_card().items()):
            cards.setdefault(card, {})[reading.uses[use]] = count
        return {
            "games": self.games,
            "wins": {side: self.wins.get(i, 0) for i, side in enumerate(sides)},
            "win_rate": {side: self.wins.get(i, 0) / max(decided, 1) for i, side in enumerate(sides)},
            # half the width of a 95% confidence interval on a win rate (normal approximation)
            "win_rate_margin95": 1.96 * (0.25 / max(decided, 1)) ** 0.5,
            "score": reading.counters[reading.score].name if reading.score >= 0 else None,
            # the score's mean over the games that ran to their end (a game won at once was not scored)
            "mean_score": ({side: finite(self.scored_mean(reading.score, s)) for s, side in enumerate(sides)}
                           if reading.score >= 0 else None),
            "mean_counters": {c.name: {side: self.sums.get((i, s), 0) / n for s, side in enumerate(sides)}
                              for i, c in enumerate(reading.counters) if c.each_side},
            "final_counters": {c.name: {str(value): count for (counter, value), count in sorted(self.finals.items())
                                        if counter == i}
                               for i, c in enumerate(reading.counters) if not c.each_side},
            "stopped_early": {reading.counters[c].name: self.stopped_early(reading, c) for c in reading.loops},
            "tie_breaks": {str(index + 1): count for index, count in sorted(self.tie_breaks.items())},
            "won_at_once": self.at_once,
            "mean_actions": self.actions / n,
            "card_plays": {reading.card_id(kind, card): uses for card, uses in cards.items()},
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
    reading = reading_of(program_of(job.content))
    summary = Summary()
    lines: Optional[List[str]] = [] if records else None
    for record in job.play(range(first, first + games), notes=records):
        summary.add(record)
        if lines is not None:
            lines.append(json.dumps(reading.json(record), ensure_ascii=False, separators=(",", ":")))
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


def prepare(job: Job) -> None:
    """What every game of a job shares, made once per process: the program, its generated rules
    and what its records read."""
    from .engine.native import native
    program = program_of(job.content)
    native(program)
    reading_of(program)


def run(job: Job, first_seed: int, games: int, jobs: int = 1, records: bool = False,
        largest_chunk: int = 500) -> Iterator[Chunk]:
    """Play ``games`` games from seed ``first_seed`` in ``jobs`` processes; the chunks come back in
    seed order.  Stopping the iteration (or an interrupt) stops the processes."""
    jobs = processes(games, jobs)
    parts = chunks(first_seed, games, jobs, largest_chunk)
    prepare(job)  # before the processes fork: they inherit it
    if jobs <= 1:
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
    prepare(job)  # once per process (inherited when forked)


def _worker_chunk(task: Tuple[int, int, bool]) -> Chunk:
    first, count, records = task
    return play_chunk(_WORKER_JOB, first, count, records)


def play_batch(job: Job, seeds: Sequence[int], jobs: int = 1) -> Summary:
    """The summary of games ``seeds`` (consecutive), played in ``jobs`` processes."""
    total = Summary()
    for chunk in run(job, seeds[0], len(seeds), jobs):
        total.merge(chunk.summary)
    return total


def finite(value: Optional[float]) -> Optional[float]:
    """A figure for JSON: None for nan (a mean of no games)."""
    return None if value is None or value != value else value
