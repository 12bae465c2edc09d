"""``crisis sim``: many games between bots, on every core (or a Ray cluster).

Game *i* uses seed *S + i* whatever the number of processes, so a run's
results do not depend on how it was split.  What a person running a long job
expects: a progress bar on a terminal (standard error), Ctrl-C that stops and
still reports the games finished (marked partial), ``--json`` for tools,
``--records FILE`` with one JSON line per game, numbers in the player's
language.
"""

from __future__ import annotations

import atexit
import errno
import gc
import json
import os
import stat
import sys
import time
from typing import Iterator, Optional

from .errors import CliError
from .paths import file_to_write, os_error_text, shown_path, writing_problem
from crisis.interpreter.engine.program import program_of

from .exits import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE


def whole_number(text, smallest: int) -> Optional[int]:
    """``text`` as a whole number of at least ``smallest``, else None."""
    try:
        value = int(str(text).strip())
    except ValueError:
        return None
    return value if value >= smallest else None


def validated(args, catalog) -> tuple:
    """(games, seed, jobs) from the command line, or a one-line error (exit status 2).  Every game's
    seed is one a saved game holds (at most limits.MAX_SEED), so any record can be played again
    with ``crisis play --seed``."""
    from crisis.interpreter.batch import default_jobs
    from crisis.ruleset import limits
    checks = (("games", args.games, 1), ("seed", args.seed, 0),
              ("jobs", args.jobs if args.jobs is not None else default_jobs(), 1))
    largest = f"{limits.MAX_SEED:,}".replace(",", catalog.raw("cli.number.thousands") or ",")
    values = []
    for name, text, smallest in checks:
        value = whole_number(text, smallest)
        if value is None or (name == "seed" and value > limits.MAX_SEED):
            raise CliError(catalog.text(f"cli.sim.error.{name}", value=text, max=largest))
        values.append(value)
    games, seed, _ = values
    if seed + games - 1 > limits.MAX_SEED:
        raise CliError(catalog.text("cli.sim.error.last_seed", games=games, seed=seed, max=largest))
    return tuple(values)


def significance(text, catalog) -> float:
    """``--level``: a significance level strictly between 0 and 1, or a one-line error."""
    try:
        level = float(str(text).strip().replace(",", "."))
    except ValueError:
        level = None
    if level is None or not 0 < level < 1:
        raise CliError(catalog.text("cli.error.level", given=text))
    return level


def refuse_with_solo(args, catalog) -> None:
    """The solo statistics (``--solo``) print win rates (``--json``: the summary as JSON) only: an
    option they would silently ignore is a one-line error (exit status 2) instead."""
    if not getattr(args, "solo", False):
        return
    given = (("--records", args.records), ("--check", args.check),
             ("--ray", getattr(args, "ray", None) is not None), ("--coverage", getattr(args, "coverage", False)),
             ("--bot", getattr(args, "bot", None)))
    for option, value in given:
        if value:
            raise CliError(catalog.text("cli.sim.error.solo", option=option))


def progress_bar(catalog, total: int) -> Optional["Progress"]:
    """A bar on standard error when it is a terminal that can redraw a line, else None."""
    if not sys.stderr.isatty() or os.environ.get("TERM") == "dumb":
        return None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
                        console=Console(stderr=True), transient=True)
    progress.add_task(catalog.text("cli.sim.progress"), total=total, rate="")
    return progress


def cmd_sim(args) -> int:
    spare_the_last_collection()
    start = StartUp()
    try:
        return _cmd_sim(args, start)
    finally:
        start.end()


def _cmd_sim(args, start: "StartUp") -> int:
    from . import words
    from .commands import chosen_bots, load, presenter, print_coverage, two_step_ctrl_c
    # the numbers first, with the command line's own words: a mistake is told at once
    catalog = words.cli_catalog(["--lang", args.lang] if args.lang else [])
    games, seed, jobs = validated(args, catalog)
    refuse_with_solo(args, catalog)
    if args.records:
        file_to_write(args.records, "--records", catalog)
    ray_address = getattr(args, "ray", None)
    if ray_address is not None:
        ray_address = ray_address or os.environ.get("RAY_ADDRESS", "")
        check_ray_address(ray_address, catalog)
    content = load(args)
    show = presenter(args, content)
    c = show.catalog
    if getattr(args, "solo", False):
        from .commands import asked_options, optional_rules
        # the solo statistics play the solo game's own options; one the game lacks is still a mistake
        asked_options(args, optional_rules(content), c, content.game)
        start.games()
        args.games, args.seed, args.jobs = games, seed, jobs
        if args.json:
            print(json.dumps(solo_summary(args, content, show), ensure_ascii=False, indent=1))
            return EXIT_OK
        return sim_solo(args, content, show)
    from crisis.interpreter import batch
    from crisis.interpreter.records import reading_of
    reading = reading_of(program_of(content))
    options = game_options(args, reading, c, content.game)
    coverage = None
    if getattr(args, "coverage", False):
        from crisis.interpreter.designer.coverage import Coverage
        coverage = Coverage(content.definition)
        coverage.start("sim")
    if ray_address is not None:
        try:
            import ray  # noqa: F401 - only to tell, at once, that it is missing
        except ImportError:
            raise CliError(c.text("cli.sim.error.ray")) from None
        connect_ray(ray_address, c)
    job = batch.Job(content, options, chosen_bots(args, content, show), check=args.check)
    batch.prepare(job)  # the generated rules, before the games (and before worker processes fork)
    start.games()
    records = open_records(args.records, c)
    total = batch.Summary()
    started = time.perf_counter()
    bar = progress_bar(c, games) if not args.json else None
    chunks = run_chunks(args, job, seed, games, jobs, records is not None)
    records_failed: Optional[OSError] = None
    # the first Ctrl-C ends the run after the chunk under way (its games are kept and written
    # whole); a second one does not wait
    with two_step_ctrl_c() as interrupted:
        try:
            if bar is not None:
                bar.start()
            for chunk in chunks:
                total.merge(chunk.summary)
                if records is not None:
                    try:
                        records.write("".join(line + "\n" for line in chunk.records))
                    except OSError as error:  # a full disk: the games so far are reported, then the error
                        records_failed = error
                        break
                if bar is not None:
                    rate = total.games / max(time.perf_counter() - started, 1e-9)
                    bar.update(bar.task_ids[0], completed=total.games,
                               rate=c.text("cli.sim.rate", rate=show.decimal(rate, 0)))
                if interrupted:
                    break
        except KeyboardInterrupt:
            pass
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()  # stops the worker processes
            if bar is not None:
                bar.stop()
            if records is not None:
                try:
                    records.close()
                except OSError as error:
                    records_failed = records_failed or error
    if records_failed is not None:
        raise writing_problem(c, "--records", args.records, records_failed)
    partial = total.games < games
    elapsed = time.perf_counter() - started
    summary = dict(total.to_json(reading), requested=games, partial=partial, first_seed=seed,
                   last_seed=seed + total.games - 1, options=options_json(reading, job.options),
                   controllers=list(job.controllers),
                   processes="ray" if getattr(args, "ray", None) is not None else batch.processes(games, jobs),
                   checked=args.check,
                   seconds=elapsed, games_per_second=total.games / elapsed if elapsed else 0.0)
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=1))
    else:
        print_summary(show, reading, total, summary, args.records)
    if coverage is not None and not args.json:
        cover(coverage, options, job.controllers, range(seed, seed + total.games))
        print_coverage(coverage, show)
    if partial:
        return EXIT_INTERRUPTED
    return EXIT_FAILED if total.broken else EXIT_OK


def game_options(args, reading, catalog, game: Optional[str] = None):
    """The options of a two-player run: each of the content's optional rules asked for on the
    command line (commands.asked_options)."""
    from crisis.interpreter.engine.game import Options
    if getattr(args, "difficulty", None):
        raise CliError(catalog.text("cli.error.difficulty_without_solo"))
    if getattr(args, "side", None):
        raise CliError(catalog.text("cli.error.side_without_solo"))
    from .commands import asked_options
    return Options(asked_options(args, reading.options, catalog, game))


def options_json(reading, options) -> dict:
    """The game's options as the summary gives them: each optional rule of the content, on or
    off, and the solo game's side and difficulty when it is one."""
    out = {name: name in options.flags for name in reading.options}
    out.update({k: v for k, v in (("solo", options.solo), ("difficulty", options.difficulty)) if v is not None})
    return out


def cover(coverage, options, controllers, seeds) -> None:
    """``--coverage``: the games of the run played again on the rules compiled a second time to
    record what runs (interpreter/designer/coverage.py): the same games, seed for seed."""
    from crisis.interpreter.batch import controller_factory
    from crisis.interpreter.engine.game import Game
    factories = [controller_factory(name) for name in controllers]
    for seed in seeds:
        game = Game(coverage.program, seed, options, log=False)
        players = [factory(seed, side) for side, factory in enumerate(factories)]
        while game.decision is not None:
            game.apply(players[game.decision.player].choose(game, game.decision))


def solo_summary(args, content, show) -> dict:
    """``sim --solo --json``: the games of the Solo Opponent against a random player, for each side
    asked (``--side``, else each), as JSON.  Each run has the two-player summary's fields (wins,
    win rates, mean VP... by side; options; controllers) and ``solo``: the side the game plays,
    the player's, the difficulty, and the Solo Opponent's wins, win rate and mean VP against the
    player's; the whole command has the two-player summary's fields that apply to it."""
    from crisis.interpreter import batch
    from crisis.interpreter.records import reading_of
    from .commands import solo_game
    from .session import match_side
    reading = reading_of(program_of(content))
    sides = reading.sides
    players = [match_side(args.side, content, show)] if args.side else list(range(len(sides)))
    started = time.perf_counter()
    runs = []
    for player in players:
        job = batch.Job(content, solo_game(content, show, player, args.difficulty))
        options = job.options
        played_by = sides.index(options.solo)
        total = batch.play_batch(job, range(args.seed, args.seed + args.games), args.jobs)
        decided = max(total.games - total.broken, 1)
        controllers = ["solo" if side == played_by else name for side, name in enumerate(job.controllers)]
        runs.append(dict(total.to_json(reading), options=options_json(reading, options), controllers=controllers,
                         solo={"side": sides[played_by], "player": sides[player], "difficulty": options.difficulty,
                               "wins": total.wins.get(played_by, 0),
                               "win_rate": total.wins.get(played_by, 0) / decided,
                               "mean_score": total.mean(reading.score, played_by),
                               "player_mean_score": total.mean(reading.score, player)}))
    elapsed = time.perf_counter() - started
    played = sum(run["games"] for run in runs)
    return dict(games=played, requested=args.games * len(players), partial=False, first_seed=args.seed,
                last_seed=args.seed + args.games - 1, processes=batch.processes(args.games, args.jobs),
                checked=False, seconds=elapsed, games_per_second=played / elapsed if elapsed else 0.0, runs=runs)


def spare_the_last_collection() -> None:
    """At exit, Python's last garbage collections walk every object still alive: the content,
    its compiled rules, the modules -- a tenth of a second, more than the games of many short
    runs.  Freezing them first (in an exit handler, so only when the process really ends)
    leaves them to the operating system; nothing of ours needs the collector then: the
    records file and the worker processes are closed by the command itself."""
    atexit.unregister(gc.freeze)  # once, however often the command runs in one process
    atexit.register(gc.freeze)


class StartUp:
    """Start-up makes a few hundred thousand objects (modules, the content, the generated rules
    and their syntax tree), nearly all kept for the whole run, and Python's collector walks them
    again and again as they are made: a sixth of the start-up's time, for almost nothing freed.
    So the command runs without collections until its games start (``games``); then what is
    alive is frozen (the games' collections, and worker processes forked from this one, leave it
    alone) and collections resume as they were.  ``end``: as before the command, for a process
    that goes on (tests): collections as they were, the frozen objects collectable again."""

    def __init__(self):
        self.collecting = gc.isenabled()
        self.frozen = False
        self.none_frozen = gc.get_freeze_count() == 0  # (else someone else's, left as they are)
        gc.disable()

    def games(self) -> None:
        if not self.frozen:
            gc.freeze()
            self.frozen = True
            if self.collecting:
                gc.enable()

    def end(self) -> None:
        if self.frozen and self.none_frozen:
            gc.unfreeze()
        if self.collecting:
            gc.enable()


def run_chunks(args, job, seed: int, games: int, jobs: int, records: bool) -> Iterator:
    ray_address = getattr(args, "ray", None)
    if ray_address is not None:  # already joined (connect_ray)
        from crisis.interpreter import distributed
        return distributed.run(job, seed, games, address=ray_address or None, records=records)
    from crisis.interpreter import batch
    return batch.run(job, seed, games, jobs, records)


def open_records(path: Optional[str], catalog):
    """The records file (checked by ``paths.file_to_write``), opened without waiting: a FIFO put
    there since the check is refused rather than waited on."""
    if not path:
        return None
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as error:
        raise writing_problem(catalog, "--records", path, error) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise writing_problem(catalog, "--records", path, OSError(errno.EINVAL, "not a regular file"))
    os.set_blocking(fd, True)
    return os.fdopen(fd, "w", encoding="utf-8")


# A Ray cluster that does not answer is given up: a TCP connection first (quick to fail on a wrong
# address), then Ray's own start, which waits for ever on a port that is open but not Ray's.
RAY_REACH_SECONDS = 10
RAY_CONNECT_SECONDS = 60


def check_ray_address(address: str, catalog) -> None:
    """``--ray ADDRESS`` (or RAY_ADDRESS): HOST:PORT (or ray://HOST:PORT) that accepts a connection
    within RAY_REACH_SECONDS; "auto", "local" and none are Ray's own to find."""
    from crisis.ruleset.diagnostics import shown

    from .typed import typed_number
    if address in ("", "auto", "local"):
        return
    where = address[len("ray://"):] if address.startswith("ray://") else address
    host, colon, port = where.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    number = typed_number(port)
    if not colon or not host or number is None or not 1 <= number <= 65535:
        raise CliError(catalog.text("cli.sim.error.ray_address", address=shown(address)))
    import socket
    try:
        socket.create_connection((host, number), timeout=RAY_REACH_SECONDS).close()
        return
    except socket.gaierror:
        reason = catalog.text("cli.sim.error.ray_unknown_host", host=shown(host))
    except socket.timeout:
        reason = catalog.text("cli.sim.error.ray_no_answer", seconds=RAY_REACH_SECONDS)
    except OSError as error:
        reason = os_error_text(catalog, error)
    raise CliError(catalog.text("cli.sim.error.ray_unreachable", address=shown(address), reason=reason))


def connect_ray(address: str, catalog) -> None:
    """Join the Ray cluster, or give up in one line after RAY_CONNECT_SECONDS (the environment's
    CRISIS_RAY_CONNECT_SECONDS, for tests): Ray's start cannot be interrupted, so a watchdog
    thread says so and ends the process (nothing is written yet)."""
    import threading

    from crisis.interpreter import distributed
    from crisis.ruleset.diagnostics import printable, shown

    from .typed import typed_number
    seconds = typed_number(os.environ.get("CRISIS_RAY_CONNECT_SECONDS", "")) or RAY_CONNECT_SECONDS
    shown_address = shown(address or os.environ.get("RAY_ADDRESS", "") or "local")

    def give_up() -> None:
        message = catalog.text("cli.sim.error.ray_timeout", address=shown_address, seconds=seconds)
        print(printable(message), file=sys.stderr, flush=True)
        os._exit(EXIT_USAGE)
    watchdog = threading.Timer(seconds, give_up)
    watchdog.daemon = True
    watchdog.start()
    try:
        distributed.connect(address or None)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as error:
        raise CliError(catalog.text("cli.sim.error.ray_unreachable", address=shown_address,
                                    reason=shown(error, 200))) from None
    finally:
        watchdog.cancel()


def say(text: str) -> None:
    """A line of the report, broken between words at the terminal's width when it goes to one;
    piped, each result stays on one line for the tools that read it."""
    if not sys.stdout.isatty():
        print(text)
        return
    import shutil
    from .terminal import fit
    for part in fit(text, max(40, shutil.get_terminal_size().columns)):
        print(part)


def print_summary(show, reading, total, summary: dict, records: Optional[str]) -> None:
    c = show.catalog
    games = max(total.games, 1)
    if summary["partial"]:
        say(c.text("cli.sim.partial", games=total.games, requested=summary["requested"],
                   first=summary["first_seed"], last=summary["last_seed"]))
    for side, name in enumerate(reading.sides):
        wins = total.wins.get(side, 0)
        mean = total.scored_mean(reading.score, side)  # a game won at once was not scored
        say(c.text("summary.sim_side", side=show.side(name), wins=wins, percent=show.decimal(100 * wins / games, 1),
                   vp="–" if mean != mean else show.decimal(mean, 2)))
    for index, count in sorted(total.tie_breaks.items()):
        say(c.text("cli.sim.tie_break", index=index + 1, n=count, percent=show.decimal(100 * count / games, 1)))
    if total.at_once:
        say(c.text("cli.sim.at_once", n=total.at_once, percent=show.decimal(100 * total.at_once / games, 1)))
        say(c.text("cli.sim.scored_only", n=total.games - total.at_once))
    for counter in reading.game_loops:  # the game's own loop over a counter stopped before its last value
        early = total.stopped_early(reading, counter)
        # (as many as were won at once: those games, which the line above told already)
        if early and early != total.at_once:
            say(c.text("cli.sim.early", last=reading.counters[counter].high, n=early,
                       percent=show.decimal(100 * early / games, 1)))
    if total.broken:
        say(c.text("cli.sim.broken", n=total.broken))
        for problem in total.problems:
            say(c.text("cli.sim.problem", problem=problem))
    elif summary.get("checked"):
        say(c.text("cli.sim.all_held"))
    say(speed(c, show, total.games, summary["seconds"]))
    if summary["processes"] == "ray":
        say(c.text("cli.sim.ray"))
    else:
        say(c.text("cli.sim.processes", n=summary["processes"]))
    if records:
        say(c.text("cli.sim.records", file=shown_path(records)))


def sim_solo(args, content, show) -> int:
    """The solo opponent against a random player: its win rate for each side asked, and the speed
    (``args``' numbers checked by ``cli.sim``)."""
    from crisis.interpreter.batch import Job, play_batch, processes
    from crisis.interpreter.records import reading_of
    from .commands import solo_game
    from .session import match_side
    reading = reading_of(program_of(content))
    c, sides = show.catalog, reading.sides
    players = [match_side(args.side, content, show)] if args.side else list(range(len(sides)))
    started = time.perf_counter()
    played = 0
    for player in players:
        job = Job(content, solo_game(content, show, player, args.difficulty))
        opponent = sides.index(job.options.solo)
        total = play_batch(job, range(args.seed, args.seed + args.games), args.jobs)
        wins = total.wins.get(opponent, 0)
        played += args.games
        say(c.text("summary.sim_solo", opponent=show.side(sides[opponent]), player=show.side(sides[player]),
                   difficulty=c.name("difficulty", job.options.difficulty), wins=wins,
                   percent=show.decimal(100 * wins / args.games, 1),
                   vp=show.decimal(total.mean(reading.score, opponent), 2),
                   player_vp=show.decimal(total.mean(reading.score, player), 2)))
    elapsed = time.perf_counter() - started
    say(speed(c, show, played, elapsed))
    say(c.text("cli.sim.processes", n=processes(args.games, args.jobs)))  # as the two-player summary says
    return EXIT_OK


def speed(c, show, games: int, seconds: float) -> str:
    """How long the games took: games a second, or seconds a game where one took over a second
    (a run of search bots said '0 games per second')."""
    rate = games / max(seconds, 1e-9)
    return c.text("summary.sim", games=games, seconds=show.decimal(seconds, 2), rate=round(rate) if rate >= 1 else 0,
                  per_game=show.decimal(seconds / games if games else 0, 1))
