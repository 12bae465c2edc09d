"""The ``crisis`` command: play, simulate, check and test a game's content."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Optional, Sequence

from crisis.content.loader import default_content_dir, load_content
from crisis.content.model import Content
from crisis.ruleset.diagnostics import UserError

from .text import Presenter

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def choose_language(requested: Optional[str], content: Content) -> str:
    """--lang, else the usual locale variables, else English."""
    candidates = [requested] if requested else []
    if not requested:
        for variable in ("LC_ALL", "LC_MESSAGES", "LANGUAGE", "LANG"):
            value = os.environ.get(variable)
            if value:
                candidates.extend(part.split("_")[0].split(".")[0].lower() for part in value.split(":"))
                break
    for lang in candidates:
        if lang in content.catalogs:
            return lang
    if requested:
        raise UserError(f"no '{requested}' catalog in this content (available: {', '.join(sorted(content.catalogs))})")
    return "en"


def load(args) -> Content:
    return load_content(args.content)


def presenter(args, content: Content) -> Presenter:
    return Presenter(content, content.catalog(choose_language(getattr(args, "lang", None), content)))


# ------------------------------------------------------------------ commands


def cmd_check(args) -> int:
    started = time.perf_counter()
    content = load(args)
    from crisis.content.i18n import check_all
    from crisis.interpreter.tables import Tables
    Tables(content)  # compiling must succeed too
    # every catalog against the reference, and the reference against what the game asks for
    found = list(content.warnings) + check_all(content)
    errors = [d for d in found if d.severity == "error"]
    if errors:
        raise UserError(errors)
    elapsed = time.perf_counter() - started
    for warning in found:
        print(warning.format(), file=sys.stderr)
    rules = (sum(1 for c in content.strategy_cards if c.event) + sum(1 for c in content.objective_cards if c.event))
    warned = f", {len(found)} {'warning' if len(found) == 1 else 'warnings'}" if found else ""
    print(f"{content.root}: OK -- {len(content.board.spaces)} spaces, {len(content.strategy_cards)} strategy cards, "
          f"{len(content.objective_cards)} objective cards, {rules} card events, "
          f"{len(content.catalogs)} {'locale' if len(content.catalogs) == 1 else 'locales'} "
          f"({', '.join(sorted(content.catalogs))}){warned}; checked in {elapsed * 1000:.0f} ms")
    return EXIT_FAILED if found and args.strict else EXIT_OK


def cmd_test(args) -> int:
    from crisis.interpreter.scenario import FAILED, NOT_RUN, run_file, scenario_files
    content = load(args)
    paths = [Path(p) for p in args.paths] or [Path(content.root) / "scenarios"]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise UserError(f"no such file or folder: {', '.join(missing)}")
    files = scenario_files(paths)
    if not files:
        raise UserError(f"no scenario files in {', '.join(map(str, paths))}")
    counts = {"passed": 0, FAILED: 0, NOT_RUN: 0}
    for path in files:
        for outcome in run_file(content, path):
            counts[outcome.status] += 1
            if outcome.status == NOT_RUN:
                print(f"NOT RUN  {outcome.where}: {outcome.name}")
                for diagnostic in outcome.diagnostics:
                    print("    " + diagnostic.format().replace("\n", "\n    "))
            elif outcome.status == FAILED:
                print(f"FAIL  {outcome.where}: {outcome.name}")
                for problem in outcome.problems:
                    print(f"      {problem}")
            elif args.verbose:
                print(f"PASS  {outcome.where}: {outcome.name}")
    print(f"{counts['passed']} passed, {counts[FAILED]} failed, {counts[NOT_RUN]} not run "
          f"({sum(counts.values())} scenarios in {len(files)} {'file' if len(files) == 1 else 'files'})")
    return EXIT_OK if counts[FAILED] == 0 and counts[NOT_RUN] == 0 else EXIT_FAILED


def print_result(game, show: Presenter, out=sys.stdout) -> None:
    st, t, c = game.state, game.tables, show.catalog
    result = st.result
    print("", file=out)
    print(c.text("result.title"), file=out)
    for side in (0, 1):
        print(c.text("result.line", side=show.side(t.sides[side]), vp=st.vp[side]), file=out)
        for label, n in result.breakdown[side]:
            print(c.text("result.breakdown", label=c.text(f"scoring.{label}"), n=n), file=out)
    winner = show.side(t.sides[result.winner])
    if result.tie_break >= 0:
        from crisis.ruleset.render import render_condition
        rule = game.content.procedures.tie_breaks[result.tie_break]
        print(c.text("result.tie_break", rule=render_condition(rule.tree, c)), file=out)
    print(c.text("result.winner", side=winner), file=out)


def cmd_play(args) -> int:
    from crisis.interpreter.controllers import RandomBot
    from crisis.interpreter.game import Game, Options
    content = load(args)
    show = presenter(args, content)
    seed = args.seed if args.seed is not None else int(time.time()) % 100000
    options = Options(event_discard=args.event_discard)
    if not args.bots:
        from .session import play_interactive
        return play_interactive(args, content, show, seed, options)
    if args.vs or args.side or args.save:
        from .errors import CliError
        raise CliError(show.catalog.text("cli.error.bots_alone"))
    game = Game(content, seed, options)
    bots = [RandomBot(seed, 0), RandomBot(seed, 1)]
    printed = 0
    print(f"seed {seed}")
    while not game.over:
        decision = game.decision
        game.apply(bots[decision.player].choose(game, decision))
        for line in show.log_lines(game.log[printed:]):
            print(line)
        printed = len(game.log)
    for line in show.log_lines(game.log[printed:]):
        print(line)
    print_result(game, show)
    return EXIT_OK


def cmd_resume(args) -> int:
    from .session import cmd_resume as resume
    content = load(args)
    return resume(args, content, presenter(args, content))


def cmd_replay(args) -> int:
    from .session import cmd_replay as replay
    content = load(args)
    return replay(args, content, presenter(args, content))


def cmd_cards(args) -> int:
    """Every card as a player reads it, so a localizer can review a whole deck."""
    import textwrap
    content = load(args)
    show = presenter(args, content)
    c = show.catalog
    print(c.text("cli.cards.strategy_heading", n=len(content.strategy_cards)))
    for card in content.strategy_cards:
        if card.event is None:
            users = c.text("cli.card.no_event")
        elif len(card.event_for) == len(content.board.sides):
            users = c.text("cli.card.event_for_all")
        else:
            users = ", ".join(show.side(s) for s in card.event_for)
        print("")
        print(c.text("cli.card.summary", title=show.card(card.id), id=show.card_slug("cards", card.id), value=card.value,
                     event_for=users, dimension=c.name("dimensions", card.final_crisis)))
        for line in textwrap.wrap(show.card_rule_text("cards", card), 96):
            print("    " + line)
    print("")
    print(c.text("cli.cards.objective_heading", n=len(content.objective_cards)))
    for card in content.objective_cards:
        print("")
        print(c.text("cli.card.objective", title=show.objective(card.id), id=show.card_slug("objectives", card.id), space=show.space(card.space)))
        for line in textwrap.wrap(show.card_rule_text("objectives", card), 96):
            print("    " + line)
    return EXIT_OK


def cmd_i18n(args) -> int:
    """Catalogs against the reference: missing, extra, placeholders, glossary, card texts."""
    from crisis.content.i18n import check_all
    content = load(args)
    langs = [args.lang] if args.lang else sorted(content.catalogs)
    for lang in langs:
        if lang not in content.catalogs:
            raise UserError(f"no '{lang}' catalog in this content (available: {', '.join(sorted(content.catalogs))})")
    problems = check_all(content, langs)
    for problem in problems:
        print(problem.format())
    print(f"{', '.join(langs)}: {len(problems)} {'problem' if len(problems) == 1 else 'problems'}")
    return EXIT_FAILED if problems else EXIT_OK


def cmd_sim(args) -> int:
    from crisis.interpreter.controllers import RandomBot, play_out
    from crisis.interpreter.game import Game, Options
    content = load(args)
    show = presenter(args, content)
    options = Options(event_discard=args.event_discard)
    wins, vp_total = [0, 0], [0, 0]
    started = time.perf_counter()
    for index in range(args.games):
        seed = args.seed + index
        game = Game(content, seed, options, log=False)
        play_out(game, [RandomBot(seed, 0), RandomBot(seed, 1)])
        wins[game.result.winner] += 1
        for side in (0, 1):
            vp_total[side] += game.state.vp[side]
    elapsed = time.perf_counter() - started
    c, t = show.catalog, game.tables
    for side in (0, 1):
        print(c.text("summary.sim_side", side=show.side(t.sides[side]), wins=wins[side],
                     percent=f"{100 * wins[side] / args.games:.1f}", vp=f"{vp_total[side] / args.games:.2f}"))
    print(c.text("summary.sim", games=args.games, seconds=f"{elapsed:.2f}", rate=f"{args.games / elapsed:.0f}"))
    return EXIT_OK


# ------------------------------------------------------------------- parsing


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="crisis", description="A rules engine for card-driven board games, playing Fort Sumter.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.add_argument("--content", metavar="DIR", help="play on this content directory "
                                                         f"(default: the embedded {default_content_dir().name})")
        sub.add_argument("--lang", metavar="LANG", help="language of texts (default: from the locale, else en)")
        return sub

    play = command("play", "play a game: two people at one terminal, one against a bot, or two bots")
    play.add_argument("--bots", action="store_true", help="two random bots play a whole game and print its log")
    play.add_argument("--seed", type=int, help="seed for shuffles and bots (default: from the clock)")
    play.add_argument("--event-discard", action="store_true", help="use the optional Event Discard rule")
    play.add_argument("--vs", metavar="BOT", help="play against a bot: 'bot' (for now a bot that picks random "
                                                  "legal moves) or a controller's name")
    play.add_argument("--side", help="your side against the bot: the start of a side's name, "
                                     "such as union or secession (default: the first side)")
    play.add_argument("--save", metavar="FILE", help="where to save the game (default: a new file in the current "
                                                     "folder named from the date, time and seed)")
    play.add_argument("--no-color", action="store_true", help="no colours (also when NO_COLOR is set, or on a pipe)")
    play.set_defaults(run=cmd_play)

    resume = command("resume", "continue a saved game")
    resume.add_argument("file", metavar="FILE", help="the saved game (written by crisis play)")
    resume.add_argument("--no-color", action="store_true", help="no colours")
    resume.add_argument("--allow-changed-content", action="store_true",
                        help="resume even if the content files changed since the game was saved "
                             "(the actions must still be legal; the game may not be the same)")
    resume.set_defaults(run=cmd_resume)

    replay = command("replay", "show a saved game from the start")
    replay.add_argument("file", metavar="FILE", help="the saved game (written by crisis play)")
    replay.add_argument("--step", action="store_true", help="show the board and wait for Enter before each action")
    replay.add_argument("--no-color", action="store_true", help="no colours")
    replay.add_argument("--allow-changed-content", action="store_true",
                        help="replay even if the content files changed since the game was saved")
    replay.set_defaults(run=cmd_replay)

    sim = command("sim", "play many games between random bots and report win rates and speed")
    sim.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    sim.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    sim.add_argument("--event-discard", action="store_true", help="use the optional Event Discard rule")
    sim.set_defaults(run=cmd_sim)

    check = command("check", "load and check all content; report every problem")
    check.add_argument("--strict", action="store_true", help="fail on warnings too (a bare 'spaces', a condition "
                                                             "that always holds, an untranslated text...)")
    check.set_defaults(run=cmd_check)

    cards = command("cards", "print every card as a player reads it (title, value, side, Final Crisis "
                             "dimension, text)")
    cards.set_defaults(run=cmd_cards)

    i18n = commands.add_parser("i18n", help="check the locale catalogs", description="check the locale catalogs")
    i18n_commands = i18n.add_subparsers(dest="i18n_command", metavar="ACTION")
    i18n_check = i18n_commands.add_parser(
        "check", help="report keys missing or extra, placeholders that differ from English, glossary terms used "
                      "inconsistently, and hand-written card texts that disagree with their rules")
    i18n_check.add_argument("--content", metavar="DIR", help="content directory (default: the embedded game)")
    i18n_check.add_argument("--lang", metavar="LANG", help="check only this language (default: all)")
    i18n_check.set_defaults(run=cmd_i18n)

    test = command("test", "run scenario files (default: the content's scenarios/)")
    test.add_argument("paths", nargs="*", metavar="PATH", help="scenario files or folders")
    test.add_argument("--verbose", "-v", action="store_true", help="also print a PASS line for each scenario "
                                                                   "(by default only failures and the summary)")
    test.add_argument("--quiet", "-q", action="store_true", help="print failures and the summary only (the default)")
    test.set_defaults(run=cmd_test)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return EXIT_USAGE
    from .errors import CliError
    try:
        return args.run(args)
    except CliError as error:
        print(str(error), file=sys.stderr)
        return EXIT_USAGE
    except UserError as error:
        print(error.report(), file=sys.stderr)
        return EXIT_USAGE if args.command != "check" else EXIT_FAILED
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. piped into head
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
