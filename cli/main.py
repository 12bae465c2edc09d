"""The ``crisis`` command: play, simulate, check and test a game's content.

Only the argument parser is built at start-up (its words come from the
command-line catalog alone, see ``words``): the engine and the content are
imported by the commands that need them, so ``crisis --help`` and
``crisis --version`` answer at once.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
import time
from pathlib import Path
from typing import List, Optional, Sequence

from . import games, words
from .commands import (bots_for_sides, choose_language, each_side_once, load, no_catalog, presenter, print_coverage,
                       side_bots, solo_options)

from .exits import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
PROGRAM = "crisis"  # the command's name, which starts its own messages


def version() -> str:
    from importlib.metadata import PackageNotFoundError, version as installed
    try:
        return installed("crisis-engine")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "unknown"


class VersionAction(argparse.Action):
    """--version: the installed version, looked up only when asked (the lookup is slow to import)."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"crisis {version()}")
        parser.exit()


# ------------------------------------------------------------------ commands


def cmd_check(args) -> int:
    from crisis.ruleset.diagnostics import UserError
    started = time.perf_counter()
    content = load(args)
    from crisis.content.i18n import check_all
    from crisis.interpreter.engine.program import program_of
    from crisis.interpreter.players.evaluation import horizon_warnings
    program = program_of(content)  # compiling must succeed too
    # every catalog against the reference, and the reference against what the game asks for
    found = list(content.warnings) + horizon_warnings(program) + check_all(content)
    errors = [d for d in found if d.severity == "error"]
    if errors:
        raise UserError(errors)
    elapsed = time.perf_counter() - started
    for warning in found:
        print(warning.format(), file=sys.stderr)
    c = presenter(args, content).catalog
    failed = bool(found) and args.strict  # under --strict a warning fails the check: never "OK" then
    print(c.text("cli.check.strict_failed" if failed else "cli.check.ok", root=str(content.root),
                 rules=content.rule_count(), locales=len(content.catalogs), langs=", ".join(sorted(content.catalogs)),
                 warnings=len(found), ms=f"{elapsed * 1000:.0f}", **counted_names(content)))
    return EXIT_FAILED if failed else EXIT_OK


def counted_names(content) -> dict:
    """How many places and cards of each kind the content has, each under the plural word its
    schema gives them ({spaces}, {cards}, {objectives}: the placeholders `cli.check.ok` may use)."""
    from crisis.ruleset.phrasing import snake
    schema = content.schema
    counts = {snake(schema.map.place_words[-1] if schema.map.place_words else "places"): len(content.places)}
    for kind in schema.card_kinds:
        counts[snake(kind.words[-1] if kind.words else kind.name)] = len(content.cards(kind.name).ids)
    return counts


MAX_WENT_ON = 12  # the log lines a failed scenario shows from its last action on (the last ones)


def cmd_test(args) -> int:
    from crisis.interpreter.designer.scenario import FAILED, NOT_RUN, run_file, scenario_files
    from crisis.interpreter.engine.program import program_of
    from crisis.ruleset.diagnostics import UserError
    games_of_paths = [] if args.content is not None else sorted(
        {root for path in args.paths for root in _content_folders(path)})
    if args.content is None and not args.paths and _content_folder(".") is not None:
        games_of_paths = [_content_folder(".")]  # run in a game's folder: that game's scenarios
    inferred = bool(games_of_paths)
    if inferred:
        # scenarios in a game's folder are tested on that game, without --game or --content
        args.content = games_of_paths[0]
    content = load(args)
    show = presenter(args, content)
    c = show.catalog
    if inferred and len(games_of_paths) > 1:
        raise UserError(c.text("cli.test.games", games=", ".join(map(str, games_of_paths))))
    # a game's folder given stands for its scenarios (its other files are not scenarios)
    paths = [Path(p) / "scenarios" if _is_game(Path(p)) else Path(p) for p in args.paths] or \
        [Path(content.root) / "scenarios"]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise UserError(c.text("cli.test.missing", paths=", ".join(missing)))
    files = scenario_files(paths)
    if not files:
        raise UserError(c.text("cli.test.none", paths=", ".join(map(str, paths))))
    counts = {"passed": 0, FAILED: 0, NOT_RUN: 0}
    program, on_start = program_of(content), None
    coverage = None
    if args.coverage:  # the rules compiled a second time, recording what runs
        from crisis.interpreter.designer.coverage import Coverage
        coverage = Coverage(content.definition)
        program, on_start = coverage.program, coverage.start
    for path in files:
        outcomes = run_file(program, content.root, path, on_start)
        for outcome in outcomes:
            counts[outcome.status] += 1
            if outcome.status == NOT_RUN:
                print(c.text("cli.test.not_run", where=str(outcome.where), name=outcome.name))
                for diagnostic in outcome.diagnostics:
                    print("    " + diagnostic.format().replace("\n", "\n    "))
            elif outcome.status == FAILED:
                print(c.text("cli.test.fail", where=str(outcome.where), name=outcome.name))
                for problem in outcome.problems:
                    print(f"      {problem}")
                if outcome.last_action is not None:
                    # what the game did from the last action on, in words: it may have played
                    # on by itself (a choice of one, the next turn's draw) past where one looked
                    lines = show.log_lines(outcome.went_on, None)
                    shown = lines[-MAX_WENT_ON:]
                    print("      " + c.text("cli.test.went_on", action=outcome.last_action,
                                            n=len(lines), left=len(lines) - len(shown)))
                    for line in shown:
                        print(f"        {line}")
            elif args.verbose:
                print(c.text("cli.test.pass", where=str(outcome.where), name=outcome.name))
    if coverage is not None:
        print_coverage(coverage, show, args.verbose)
    print(c.text("cli.test.summary", passed=counts["passed"], failed=counts[FAILED], not_run=counts[NOT_RUN],
                 total=sum(counts.values()), files=len(files)))
    return EXIT_OK if counts[FAILED] == 0 and counts[NOT_RUN] == 0 else EXIT_FAILED


def _content_folders(path: str) -> List[Path]:
    """The game folders a scenario path is of: the one it lies in, else, for a folder holding
    games (``content/``), each game folder just below it."""
    found = _content_folder(path)
    if found is not None:
        return [found]
    try:
        here = Path(path)
        return [sub for sub in sorted(here.iterdir()) if _is_game(sub)] if here.is_dir() else []
    except OSError:
        return []


def _is_game(folder: Path) -> bool:
    return (folder / "state.yaml").is_file() and (folder / "sequence.yaml").is_file()


def _content_folder(path: str) -> Optional[Path]:
    """The game folder (the nearest one holding a state.yaml and a sequence.yaml) that a scenario
    path lies in, as written (a designer's copy whose scenarios are links is the copy); None when
    there is none or it cannot be looked at (the command says what is wrong with the path)."""
    import os
    here = Path(os.path.abspath(path))
    try:
        for folder in ([here] if here.is_dir() else []) + list(here.parents):
            if _is_game(folder):
                return folder
    except OSError:
        return None
    return None


def cmd_lsp(args) -> int:
    """The language server, on standard input/output (see docs/editor.md)."""
    from .lsp import library_missing, serve
    if library_missing():
        from .errors import CliError
        raise CliError(words.cli_catalog(sys.argv[1:]).text("cli.error.lsp_missing"))
    serve()
    return EXIT_OK


def game_seed(text: str, catalog) -> int:
    """``--seed`` of a game that is saved: ASCII digits from 0 to the largest seed a saved game
    holds, so that every game played can be resumed; anything else is a one-line error."""
    from crisis.ruleset import limits
    from crisis.ruleset.diagnostics import shown
    from .errors import CliError
    from .typed import typed_number
    seed = typed_number(str(text).strip())
    if seed is not None and seed <= limits.MAX_SEED:
        return seed
    largest = f"{limits.MAX_SEED:,}".replace(",", catalog.raw("cli.number.thousands") or ",")
    raise CliError(catalog.text("cli.error.seed", value=shown(text), max=largest))


def cmd_play(args) -> int:
    from .errors import CliError
    # the seed first, in the command line's own words: a mistake is told before the content loads
    seed = (game_seed(args.seed, words.cli_catalog(["--lang", args.lang] if args.lang else []))
            if args.seed is not None else int(time.time()) % 100000)
    content = load(args)
    show = presenter(args, content)
    options, _player = solo_options(args, content, show)
    if args.solo and args.vs:
        raise CliError(show.catalog.text("cli.error.solo_vs"))
    if not args.bots:
        from .play import cmd_play as play
        return play(args, content, show, seed, options)
    if args.vs or (args.side and not args.solo) or args.save:
        raise CliError(show.catalog.text("cli.error.bots_alone"))
    return play_bots(content, show, seed, options, check=args.check)


def play_bots(content, show, seed: int, options, check: bool = False) -> int:
    """Two random bots play a whole game; its log and the final score are printed.

    With ``check``, the rules' invariants after every action: the first one broken ends the game.
    """
    from crisis.interpreter.engine.game import Game
    from crisis.interpreter.players.registry import RandomBot
    from .board import Screen, fit_all
    from .session import apply_checked, before_result, broken_message
    from .terminal import Style
    import shutil
    width = max(40, min(shutil.get_terminal_size((100, 40)).columns, 160))
    game = Game.of(content, seed, options)
    automa = game.automa.side if game.automa is not None else None
    bots = [RandomBot(seed, side) for side in range(len(game.sides))]
    print(show.catalog.text("cli.bots.seed", seed=seed))
    printed = 0  # log entries printed (what an action adds is said without what came before it)
    while not game.over:
        decision = game.decision
        action = bots[decision.player].choose(game, decision)
        if check:
            problems = apply_checked(game, action)
            if problems:
                print(f"{PROGRAM}: seed {seed}: {broken_message(game, problems)}", file=sys.stderr)
                return EXIT_FAILED
        else:
            game.apply(action)
        shown = show.shown(game.log[printed:], automa)
        if game.over:  # (the score below names the winner: not the log's last line too)
            shown = before_result(shown)
        for line in fit_all([show.log_line(entry) for entry in shown], width):
            print(line)
        printed = len(game.log)
    print("")
    for line in fit_all(Screen(game, show, Style(False), width).result(), width):
        print(line)
    return EXIT_OK


def cmd_resume(args) -> int:
    from .play import cmd_resume as resume
    content = load(saved_games_game(args))
    return resume(args, content, presenter(saved_language(args, content), content))


def cmd_replay(args) -> int:
    from .play import cmd_replay as replay
    content = load(saved_games_game(args))
    return replay(args, content, presenter(saved_language(args, content), content))


def saved_language(args, content):
    """``args``, their language the one the saved file's game is played in when --lang names none
    and this content has that language: a game played with --lang es goes on in Spanish."""
    if args.lang is None:
        from pathlib import Path
        from .saves import language_of
        language = language_of(Path(args.file))
        if language is not None and language in content.catalogs:
            args.lang = language
    return args


def saved_games_game(args):
    """``args``, their content the shipped game the saved file names when neither ``--game`` nor
    ``--content`` names one: ``crisis resume FILE`` continues a Civil War game as it was told to."""
    if args.content is None:
        from pathlib import Path
        from crisis.content.games import game_path
        from .saves import game_of
        name = game_of(Path(args.file))
        path = game_path(name) if name else None
        if path is not None:
            args.content = str(path)
    return args


def cmd_cards(args) -> int:
    """Every card as a player reads it, kind by kind, so a localizer can review a whole deck."""
    import shutil
    from crisis.interpreter.engine.game import Game
    from .board import Screen, fit_all
    from .terminal import Style
    content = load(args)
    show = presenter(args, content)
    width = max(40, min(shutil.get_terminal_size((100, 40)).columns, 160))
    screen = Screen(Game.of(content, 0, log=False), show, Style(False), width)
    lines: list = []
    for kind, cards in enumerate(screen.program.cards):
        lines += ([""] if lines else []) + [screen.kind_heading(kind, len(cards.ids))]
        for card in range(len(cards.ids)):
            lines += [""] + screen.card_text(kind, card)
    for line in fit_all(lines, width):
        print(line)
    return EXIT_OK


def cmd_i18n(args) -> int:
    """Catalogs against the reference: missing, extra, placeholders, glossary, card texts."""
    from crisis.content.i18n import (missing_in_play_problems, missing_key_problems, missing_keys,
                                     names_shown_raw_problems, other_problems, unfilled_in_play_problems,
                                     unnamed_problems)
    from crisis.content.loader import REFERENCE_LANG, load_for_translators
    from crisis.ruleset.diagnostics import UserError
    from .errors import CliError
    from .i18n_play import played_texts
    from .sim import whole_number
    # a translation's own problems (a file that is not YAML, say) are told with the rest of its check
    content, translation_problems, unread = load_for_translators(args.content)
    langs = [args.lang] if args.lang else sorted(content.catalogs)
    for lang in langs:
        if lang not in content.catalogs:
            raise UserError(no_catalog(lang, content))
    # --lang names the catalog to check; the check speaks the language of its problems' words, the
    # environment's (a summary in Spanish under English diagnostics read as two tools)
    c = content.catalog(choose_language(None, content))
    games = whole_number(args.games, 0)
    if games is None:
        raise CliError(c.text("cli.i18n.games", value=args.games))
    failed = False
    told: list = []  # a file every language reads (the glossary) is told of once, not once per language
    for lang in langs:
        # while a file of the catalog cannot be read, its keys would all be counted missing
        gaps = missing_keys(content, lang) if lang != REFERENCE_LANG and lang not in unread else {}
        others = list(translation_problems.get(lang, ()))
        others += [p for p in other_problems(content, lang) if p not in told and p not in others]
        told += others
        if games:
            missed, unfilled, unnamed, shown_raw = played_texts(content, lang, games)
            others += missing_in_play_problems(content, lang, missed, games)
            others += unfilled_in_play_problems(content, lang, unfilled, games, told=others)
            others += names_shown_raw_problems(content, lang, shown_raw, games)
            # (while keys are missing, or a file is unread, their English shows anyway)
            if lang != REFERENCE_LANG and not gaps and lang not in unread:
                others += unnamed_problems(content, lang, unnamed)
        for problem in (missing_key_problems(content, lang, args.all) if lang not in unread else []) + others:
            print(problem.format())
        missing = sum(len(keys) for keys in gaps.values())
        if lang in unread:
            print(c.text("cli.i18n.unread", lang=lang, n=len(others)))
        else:
            print(c.text("cli.i18n.summary", lang=lang, n=len(others), missing=missing, files=len(gaps)))
        failed = failed or bool(gaps or others)
    return EXIT_FAILED if failed else EXIT_OK


def cmd_sim(args) -> int:
    from .sim import cmd_sim as simulate
    return simulate(args)


def cmd_aid(args) -> int:
    """The Solo Opponent Aid of one side (or of each), as a player reads it, from the rules."""
    import shutil

    from .aid import WIDTH, aid_lines
    from .errors import CliError
    from .session import match_side
    content = load(args)
    show = presenter(args, content)
    if content.overlay is None:
        raise CliError(show.catalog.text("cli.error.no_solo", game=show.catalog.text("cli.title"), content=content.root))
    sides = [match_side(args.side, content, show)] if args.side else range(len(content.sides))
    lines: list = []
    width = min(WIDTH, shutil.get_terminal_size((WIDTH, 40)).columns)  # the terminal's, if narrower
    for side in sides:
        if lines:
            lines.append("")
        lines += aid_lines(content, show, content.sides[side], max(40, width))
    for line in lines:
        print(line)
    return EXIT_OK


def cmd_balance(args) -> int:
    """Play many games between good bots and write a report a designer opens in a browser."""
    from crisis.balance.plots import plots_available
    from crisis.balance.report import Words, text_summary, write
    from crisis.balance.run import Plan, balance
    from crisis.content.loader import load_content
    from .errors import CliError
    from .paths import folder_to_write, shown_path, writing_problem
    from .sim import significance, validated
    # the numbers, then the folder: what cannot be run or written is told before the games
    said = words.cli_catalog(["--lang", args.lang] if args.lang else [])
    games, seed, jobs = validated(args, said)
    level = significance(args.level, said)
    out = folder_to_write(args.out, "--out", said)
    content = load(args)
    show = presenter(args, content)
    c = show.catalog
    other = load_content(args.compare) if args.compare else None
    if other is not None and tuple(other.sides) != tuple(content.sides):
        # another game: its bots cannot be matched side for side, nor its cards card for card
        raise CliError(c.text("report.other_game", before=args.compare, game=other.game, sides=", ".join(other.sides),
                              own=content.game, own_sides=", ".join(content.sides)))
    # each side's bots, one pairing per bot (BOT,BOT... in any of the options side_bots reads)
    sides = content.sides
    lineup = [["heuristic"], ["heuristic"]]
    for index, bots in each_side_once(side_bots(args, c), content, show):
        lineup[index] = [b for b in bots.split(",") if b] or ["heuristic"]
    first, second = lineup
    if len(first) != len(second) and 1 not in (len(first), len(second)):
        raise CliError(c.text("cli.error.pairings", side=show.side(sides[0]), count=len(first),
                              other=show.side(sides[1]), other_count=len(second)))
    count = max(len(first), len(second))
    pairings = tuple(bots_for_sides([(sides[0], first[i % len(first)]), (sides[1], second[i % len(second)])],
                                    content, show, "heuristic") for i in range(count))
    # the content's optional rules: those asked for (--option), or without and with them all
    from crisis.interpreter.engine.program import program_of
    from crisis.interpreter.records import reading_of
    optional = reading_of(program_of(content)).options
    from .commands import asked_options
    asked = asked_options(args, optional, c, content.game)
    if args.both_rules and not optional:  # nothing to play without and with: said, not ignored
        raise CliError(c.text("cli.error.no_optional_rules", game=words.game_title(c, content.game),
                              option="--both-rules"))
    rules = ((), optional) if args.both_rules else (tuple(name for name in optional if name in asked),)
    from .sim import progress_bar
    plan = Plan(games=games, seed=seed, pairings=pairings, rules=rules, level=level, jobs=jobs)
    total = games * (len(pairings) * len(rules) + (1 if other is not None else 0))
    print(c.text("report.starting", games=total, runs=len(pairings) * len(rules)), file=sys.stderr)
    bar = progress_bar(c, total)
    started, done = time.perf_counter(), [0]

    def progress(games: int) -> None:
        done[0] += games
        rate = done[0] / max(time.perf_counter() - started, 1e-9)
        bar.update(bar.task_ids[0], completed=done[0], rate=c.text("cli.sim.rate", rate=show.decimal(rate, 1)))
    from .commands import two_step_ctrl_c
    if bar is not None:
        bar.start()
    # the first Ctrl-C ends the games after the chunk under way and writes the report of those
    # played; a second one does not wait, and writes nothing
    try:
        with two_step_ctrl_c() as interrupted:
            data = balance(content, plan, other, progress if bar is not None else None,
                           stopped=lambda: bool(interrupted))
    except KeyboardInterrupt:
        raise CliError(c.text("report.interrupted_twice"), code=130) from None
    finally:
        if bar is not None:
            bar.stop()
    if data["meta"]["interrupted"]:
        played = sum(run["games"] for run in data["runs"])
        if not played:
            raise CliError(c.text("report.interrupted_before_any"), code=130)
        print(c.text("report.interrupted", games=played, requested=total), file=sys.stderr)
    # what reproduces the run: the tool's version and the command (with the digests of the
    # contents, balance() gives): the same command on the same contents plays the same games
    data["meta"]["version"] = version()
    data["meta"]["command"] = " ".join(shlex.quote(arg) for arg in [PROGRAM, *args.argv])
    lang = choose_language(getattr(args, "lang", None), content)
    report_words = Words(show)
    try:
        written = write(out, data, show, lang, before=other)
    except OSError as error:  # a full disk, or the folder taken away meanwhile
        raise writing_problem(c, "--out", args.out, error) from None
    for line in text_summary(data, report_words):
        print(line)
    print(c.text("report.written", seconds=show.decimal(data["meta"]["seconds"], 0),
                 files=", ".join(shown_path(p) for p in written)))
    if not plots_available():
        print(c.text("report.no_plots"), file=sys.stderr)
    return EXIT_INTERRUPTED if data["meta"]["interrupted"] else EXIT_OK  # as sim's: 130 after Ctrl-C


# ------------------------------------------------------------------- parsing


def build_parser(catalog) -> argparse.ArgumentParser:
    """The parser, every text from the command-line catalog (``cli.args.*``)."""
    def say(key: str, **params) -> str:
        return catalog.text("cli.args." + key, **params).replace("%", "%%")

    def metavar(key: str) -> str:
        return catalog.text("cli.args.metavar." + key)

    parser = argparse.ArgumentParser(prog=PROGRAM, description=say("description"))
    parser.add_argument("--version", action=VersionAction, nargs=0, help=catalog.text("cli.argparse.version"))
    # --lang before the command too ('crisis --lang es play'): the command's own --lang wins
    parser.add_argument("--lang", dest="lang_first", metavar=metavar("lang"), help=say("lang"))
    commands = parser.add_subparsers(dest="command", metavar=metavar("command"), title=say("commands"))
    parser.commands = commands.choices  # each command's parser, for its own usage and help

    def command(name: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=say(f"{name}.help"), description=say(f"{name}.help"))
        sub.add_argument("--content", metavar=metavar("dir"), help=say("content", game=words.embedded_locale_dir().parent.name))
        sub.add_argument("--lang", metavar=metavar("lang"), help=say("lang"))
        games.add_game_option(sub, catalog, say("game", game=words.embedded_locale_dir().parent.name), metavar("name"))
        return sub

    def no_color(sub, plain: bool = True) -> None:
        sub.add_argument("--no-color", action="store_true", help=say("no_color"))
        if plain:
            sub.add_argument("--plain", action="store_true", help=say("plain"))

    def game_options(sub) -> None:
        # a game's optional rules: --option NAME, or the option's own flag (--my-rule for an option
        # "my rule"), known only once the content is read (commands.asked_options)
        sub.add_argument("--option", action="append", metavar=metavar("name"), help=say("option"))
        sub.set_defaults(option_flags=[])

    def bot_choices(sub) -> None:
        sub.add_argument("--bot", action="append", metavar=metavar("side_bot"), help=say("bots.bot"))

    play = command("play")
    play.add_argument("--bots", action="store_true", help=say("play.bots"))
    play.add_argument("--seed", metavar=metavar("n"), help=say("play.seed"))  # checked by game_seed
    game_options(play)
    play.add_argument("--vs", metavar=metavar("bot"), help=say("play.vs"))
    play.add_argument("--side", metavar=metavar("side"), help=say("play.side"))
    play.add_argument("--save", metavar=metavar("file"), help=say("play.save"))
    play.add_argument("--solo", action="store_true", help=say("play.solo"))
    play.add_argument("--difficulty", metavar=metavar("level"), help=say("difficulty"))
    no_color(play)
    play.add_argument("--check", action="store_true", help=say("check_invariants"))
    play.set_defaults(run=cmd_play)

    resume = command("resume")
    resume.add_argument("file", metavar=metavar("file"), help=say("file"))
    no_color(resume)
    resume.add_argument("--check", action="store_true", help=say("check_invariants"))
    resume.add_argument("--allow-changed-content", action="store_true", help=say("resume.allow_changed"))
    resume.set_defaults(run=cmd_resume)

    replay = command("replay")
    replay.add_argument("file", metavar=metavar("file"), help=say("file"))
    replay.add_argument("--step", action="store_true", help=say("replay.step"))
    replay.add_argument("--branch", type=int, metavar=metavar("n"), help=say("replay.branch"))
    replay.add_argument("--save", metavar=metavar("file"), help=say("replay.save"))
    no_color(replay)
    replay.add_argument("--allow-changed-content", action="store_true", help=say("replay.allow_changed"))
    replay.set_defaults(run=cmd_replay)

    sim = command("sim")
    # numbers are checked by the command itself, for a one-line message (see cli/sim.py)
    sim.add_argument("--games", default="1000", metavar=metavar("n"), help=say("sim.games"))
    sim.add_argument("--seed", default="1", metavar=metavar("n"), help=say("sim.seed"))
    sim.add_argument("--jobs", "-j", metavar=metavar("n"), help=say("sim.jobs"))
    game_options(sim)
    sim.add_argument("--json", action="store_true", help=say("sim.json"))
    sim.add_argument("--records", metavar=metavar("file"), help=say("sim.records"))
    sim.add_argument("--check", action="store_true", help=say("sim.check"))
    sim.add_argument("--ray", nargs="?", const="", metavar=metavar("address"), help=say("sim.ray"))
    sim.add_argument("--coverage", action="store_true", help=say("sim.coverage"))
    sim.add_argument("--solo", action="store_true", help=say("sim.solo"))
    sim.add_argument("--side", metavar=metavar("side"), help=say("sim.side"))
    sim.add_argument("--difficulty", metavar=metavar("level"), help=say("difficulty"))
    bot_choices(sim)
    sim.set_defaults(run=cmd_sim)

    aid = command("aid")
    aid.add_argument("--side", metavar=metavar("side"), help=say("aid.side"))
    aid.set_defaults(run=cmd_aid)

    report = command("balance")
    # numbers are checked by the command itself, for a one-line message (as sim's)
    report.add_argument("--games", default="200", metavar=metavar("n"), help=say("balance.games"))
    report.add_argument("--seed", default="1", metavar=metavar("n"), help=say("sim.seed"))
    report.add_argument("--bot", action="append", metavar=metavar("side_bots"), help=say("balance.bot"))
    game_options(report)
    report.add_argument("--both-rules", action="store_true", help=say("balance.both_rules"))
    report.add_argument("--out", default="balance-report", metavar=metavar("dir"), help=say("balance.out"))
    report.add_argument("--compare", metavar=metavar("dir"), help=say("balance.compare"))
    report.add_argument("--level", default="0.05", metavar=metavar("p"), help=say("balance.level"))
    report.add_argument("--jobs", metavar=metavar("n"), help=say("sim.jobs"))
    report.set_defaults(run=cmd_balance)

    check = command("check")
    check.add_argument("--strict", action="store_true", help=say("check.strict"))
    check.set_defaults(run=cmd_check)

    cards = command("cards")
    cards.set_defaults(run=cmd_cards)

    i18n = commands.add_parser("i18n", help=say("i18n.help"), description=say("i18n.help"))
    i18n_commands = i18n.add_subparsers(dest="i18n_command", metavar=metavar("action"))
    i18n_check = i18n_commands.add_parser("check", help=say("i18n.check"), description=say("i18n.check"))
    i18n_check.add_argument("--content", metavar=metavar("dir"), help=say("content", game=words.embedded_locale_dir().parent.name))
    i18n_check.add_argument("--lang", metavar=metavar("lang"), help=say("i18n.lang"))
    games.add_game_option(i18n_check, catalog, say("game", game=words.embedded_locale_dir().parent.name), metavar("name"))
    i18n_check.add_argument("--all", action="store_true", help=say("i18n.all"))
    i18n_check.add_argument("--games", default="10", metavar=metavar("n"), help=say("i18n.games"))
    i18n_check.set_defaults(run=cmd_i18n)

    test = command("test")
    test.add_argument("paths", nargs="*", metavar=metavar("path"), help=say("test.paths"))
    test.add_argument("--verbose", "-v", action="store_true", help=say("test.verbose"))
    test.add_argument("--quiet", "-q", action="store_true", help=say("test.quiet"))
    test.add_argument("--coverage", action="store_true", help=say("test.coverage"))

    listing = commands.add_parser("games", help=say("games.help"), description=say("games.help"))
    listing.add_argument("--lang", metavar=metavar("lang"), help=say("lang"))
    listing.set_defaults(run=games.cmd_games)

    lsp = commands.add_parser("lsp", help=say("lsp.help"), description=say("lsp.help"))
    lsp.set_defaults(run=cmd_lsp)
    test.set_defaults(run=cmd_test)
    return parser


def on_terminal(text: str, stream) -> str:
    """A message of the command line broken between words at the terminal's width when ``stream``
    goes to one (a content's report is not: its carets point into quoted lines); piped, as it is."""
    if not stream.isatty():
        return text
    import shutil
    from .terminal import fit_all
    return "\n".join(fit_all(text.split("\n"), max(40, shutil.get_terminal_size().columns)))


# a flag that may be a game option's own (``--my-rule``): no value, words joined by dashes
OPTION_FLAG = re.compile(r"--[^\W\d_][\w]*(-[\w]+)*")


def _misspelt(flag: str, command: argparse.ArgumentParser) -> bool:
    """Whether ``flag`` is close to one of the command's own flags: then it is told as a mistyped
    flag of the command, not as a game option the game lacks."""
    from crisis.ruleset.diagnostics import did_you_mean
    return did_you_mean(flag, [o for o in command._option_string_actions if o.startswith("--")]) is not None


def _say_to_stderr(text: str) -> None:
    """A last message; the process's standard output, which may be what failed, is dropped, so that
    exiting does not fail again (an output a caller put in its place is left alone)."""
    if sys.stdout is sys.__stdout__:
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:  # pragma: no cover - no null device
            pass
    print(text, file=sys.stderr)


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    catalog = words.cli_catalog(argv)
    words.translate_argparse(catalog)
    parser = build_parser(catalog)
    args, extra = parser.parse_known_args(argv)
    # a mistake after the command is told with that command's usage, not the tool's
    command = parser.commands.get(getattr(args, "command", None) or "", parser)
    if extra and hasattr(args, "option_flags") and all(OPTION_FLAG.fullmatch(flag) for flag in extra) \
            and not any(_misspelt(flag, command) for flag in extra):
        args.option_flags, extra = extra, []  # a game option's own flag: checked once the content is read
    if extra:
        command.error(argparse._("unrecognized arguments: %s") % " ".join(extra))
    if not getattr(args, "run", None):
        command.print_help()
        return EXIT_USAGE
    if getattr(args, "lang", None) is None and args.lang_first:
        args.lang = args.lang_first
    args.argv = argv  # the command as typed (a report says how to run it again)
    from crisis.content.loader import NotContent
    from crisis.content.yamlfile import ContentError
    from crisis.ruleset.diagnostics import RulesError, UserError, printable
    from .errors import CliError
    try:
        status = args.run(args)
        if sys.stdout is not None:  # (None where the command was started with its output closed)
            sys.stdout.flush()  # output that cannot be written (a full disk) is found here, not at exit
        return status
    except CliError as error:
        # messages may quote a saved game or content: printed with control characters escaped
        print(on_terminal(printable(str(error), keep="\n\t"), sys.stderr), file=sys.stderr)
        return error.code
    except UserError as error:
        print(printable(error.report(), keep="\n\t"), file=sys.stderr)
        # content with problems fails (check's problems too); a folder that is no content is a
        # mistake on the command line, for check as for any other command
        failed = (isinstance(error, (ContentError, RulesError)) or args.command == "check") \
            and not isinstance(error, NotContent)
        return EXIT_FAILED if failed else EXIT_USAGE
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # e.g. piped into head
        return EXIT_OK
    except OSError as error:  # outside crisis: the disk is full, the output was closed...
        from .paths import os_error_text
        _say_to_stderr(catalog.text("cli.error.system", error=os_error_text(catalog, error)))
        return EXIT_FAILED
    except Exception as error:  # a bug: one sentence, as the line mode says it; the details on demand
        _say_to_stderr(catalog.text("cli.stop.crash_unsaved", error=f"{type(error).__name__}: {error}"))
        if os.environ.get("CRISIS_DEBUG"):
            import traceback
            traceback.print_exc()
        return EXIT_FAILED
    finally:
        saves = sys.modules.get("crisis.cli.saves")  # imported only by the commands that save
        if saves is not None:
            saves.release_all()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
