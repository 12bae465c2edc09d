"""What the commands share: the content named on the command line and the presenter it is read
with (its language), the bots chosen for each side, a coverage report, the options of a game
against the automated opponent.  Below every command module (cli/main.py, cli/sim.py...), so that
none imports another; the engine and the content are imported when a function needs them."""

from __future__ import annotations

import contextlib
import re
import signal
import sys
from typing import TYPE_CHECKING, Optional

from . import words
from .words import choose_language, no_catalog  # noqa: F401 - where the commands have always found them

if TYPE_CHECKING:
    from crisis.content.model import Content
    from .text import Presenter


def load(args):
    from crisis.content.loader import load_content
    return load_content(args.content)


def presenter(args, content):
    from .text import Presenter
    return Presenter(content, content.catalog(choose_language(getattr(args, "lang", None), content)))


def print_coverage(coverage, show, verbose: bool = False, out=None) -> None:
    """Per kind of item, how many were exercised; then each one never exercised, at its file:line."""
    out = out or sys.stdout
    c = show.catalog

    def kind(item_kind: str) -> str:
        shown = c.raw(f"cli.coverage.kind.{item_kind}")
        if shown is not None:
            return shown
        # a card kind's rule field ('card_effect', as coverage names it): by the field's name as
        # this language shows it
        from crisis.interpreter.designer.coverage import rule_field_kind
        for card_kind in show.schema.card_kinds:
            for field, field_type in card_kind.fields:
                if field_type == "rule" and rule_field_kind(card_kind, field) == item_kind:
                    return c.text("cli.coverage.kind.card_rule", field=c.name("fields", field))
        return item_kind  # a kind of rule this catalog does not know yet

    def named(item) -> str:
        """A card's rule by the card's title and id as this language shows them; else the label."""
        if not item.card:
            return item.label
        kind, card_id = item.card
        cards = show.kind_of(card_id, kind)
        return c.text("cli.coverage.card", title=show.card(card_id, kind),
                      id=show.card_slug(show.card_section(cards), card_id))

    def label(item) -> str:
        if not item.branch:
            return named(item)
        if item.branch.isdigit():
            return c.text("cli.coverage.branch.option", label=named(item), n=int(item.branch))
        return c.text(f"cli.coverage.branch.{item.branch}", label=named(item))

    print(c.text("cli.coverage.title"), file=out)
    for item_kind, hit, total in coverage.summary():
        percent = show.decimal(100.0 * hit / total if total else 100.0, 1)
        print(c.text("cli.coverage.line", kind=kind(item_kind), hit=hit, total=total, percent=percent), file=out)
    missed = sorted(coverage.missed(), key=in_file_order)
    if missed:
        print(c.text("cli.coverage.missed", n=len(missed)), file=out)
        for item in missed:
            print(c.text("cli.coverage.item", where=item.where, kind=kind(item.kind), label=label(item)), file=out)
    if verbose:
        print(c.text("cli.coverage.by"), file=out)
        for item, runs in sorted(coverage.by_item(), key=lambda pair: in_file_order(pair[0])):
            if runs:
                shown = ", ".join(runs[:5])
                if len(runs) > 5:
                    shown = c.text("cli.coverage.more", runs=shown, n=len(runs) - 5)
                print(c.text("cli.coverage.exercised", where=item.where, kind=kind(item.kind), label=label(item),
                             runs=shown), file=out)


def in_file_order(item):
    """A coverage item's place for sorting: its file, then its line as a number ('sequence.yaml:6'
    before 'sequence.yaml:36'); items on one line keep the order they were found in, their columns'.
    An item with no file comes last."""
    return item.path is None, item.path or "", item.line or 1


def solo_options(args, content: Content, show: Presenter):
    """(options, the player's side) of a solo game (``--solo``; ``--side`` is the player's), or
    of a two-player game (side -1) with the optional rules asked for (``asked_options``)."""
    from crisis.interpreter.engine.game import Options
    from .errors import CliError
    if not getattr(args, "solo", False):
        if getattr(args, "difficulty", None):
            raise CliError(show.catalog.text("cli.error.difficulty_without_solo"))
        return Options(asked_options(args, optional_rules(content), show.catalog, content.game)), -1
    from .session import match_side  # the interactive session's module: not for a two-player `crisis sim`
    asked = asked_options(args, optional_rules(content), show.catalog, content.game)
    player = match_side(args.side, content, show) if args.side else 0
    options = solo_game(content, show, player, getattr(args, "difficulty", None))
    # the solo game's own options (its overlay's), and any other the player asks for
    if asked:
        import attrs
        options = attrs.evolve(options, flags=options.flags | asked)
    return options, player


def solo_game(content: Content, show: Presenter, player: int, difficulty: Optional[str]):
    """Options for the player on side ``player`` against the Solo Opponent, at a difficulty
    (its content name, or its name in the player's language)."""
    from crisis.interpreter.engine.game import Options
    from crisis.interpreter.engine.program import program_of
    from .errors import CliError
    c = show.catalog
    automa = program_of(content).automa_rules
    if automa is None:
        raise CliError(c.text("cli.error.no_solo", game=c.text("cli.title"), content=content.root))
    levels = list(automa.difficulty)
    if difficulty is not None and difficulty not in levels:
        matches = [name for name in levels if c.name("difficulty", name).lower() == difficulty.lower()]
        if not matches:
            shown = [c.name("difficulty", name) for name in levels]
            raise CliError(c.text("cli.error.difficulty", given=difficulty, levels=", ".join(shown)))
        difficulty = matches[0]
    sides = content.sides
    automa_side = next(i for i in range(len(sides)) if i != player)
    return Options(frozenset(name for name, on in automa.options.items() if on), solo=sides[automa_side],
                   difficulty=difficulty or levels[0])


def asked_options(args, options, catalog, game: Optional[str] = None) -> frozenset:
    """The optional rules asked for on the command line, of the game's ``options`` (their names
    with underscores): each ``--option NAME`` (the name as the rules write it, or as the player's
    language names it (``option_name``), with spaces, underscores or dashes, in any case) and each
    option's own flag (``--my-rule`` for an option "my rule", main.OPTION_FLAG).  One the game does
    not have is a one-line error naming the game by its title, with the game's options in the
    player's language and the likeliest meant, never silently ignored."""
    from crisis.ruleset.diagnostics import did_you_mean
    from .errors import CliError

    def key(name: str) -> str:
        return re.sub(r"[\s_-]+", "_", name.strip()).lower()

    named = {key(option_name(catalog, option)): option for option in options}
    named.update((key(option), option) for option in options)
    asked = [(given, given) for given in getattr(args, "option", None) or ()]
    asked += [(flag, flag[2:]) for flag in getattr(args, "option_flags", None) or ()]
    found = set()
    game = words.game_title(catalog, game)
    for given, name in asked:
        if key(name) in named:
            found.add(named[key(name)])
            continue
        if not options:
            raise CliError(catalog.text("cli.error.no_optional_rules", game=game, option=given))
        is_flag = given.startswith("--")
        if is_flag:
            shown = ["--" + o.replace("_", "-") for o in options]
            guess = did_you_mean(given, shown)
        else:
            shown = [option_name(catalog, o) for o in options]
            # the likeliest of the names either way, said as the player's language names it
            spelt = {option_name(catalog, o): o for o in options}
            spelt.update({o.replace("_", " "): o for o in options})
            guess = did_you_mean(name.replace("_", " "), list(spelt))
            guess = option_name(catalog, spelt[guess]) if guess else None
        if guess:
            raise CliError(catalog.text("cli.error.unknown_option_guess", game=game, option=given, guess=guess,
                                        options=", ".join(shown)))
        raise CliError(catalog.text("cli.error.unknown_option", game=game, option=given, options=", ".join(shown)))
    return frozenset(found)


def option_name(catalog, option: str) -> str:
    """An optional rule's name in the catalog's language (``report.options.<name>``, as the balance
    report and the rules summary name it), else as the rules write it, with spaces."""
    return catalog.raw(f"report.options.{option}") or option.replace("_", " ")


def optional_rules(content) -> tuple:
    """The content's optional rules, as options name them (with underscores)."""
    from crisis.interpreter.engine.game import option_names
    from crisis.interpreter.engine.program import program_of
    return option_names(program_of(content))


def side_bots(args, catalog) -> list:
    """(side as given, bot) from each ``--bot SIDE=BOT`` (SIDE: the start of a side's name, in any
    game's content), in the order given."""
    from .errors import CliError
    given = []
    for pair in getattr(args, "bot", None) or ():
        side, equals, bot = pair.partition("=")
        if not equals or not side or not bot:
            raise CliError(catalog.text("cli.error.bot_pair", given=pair))
        given.append((side, bot))
    return given


def chosen_bots(args, content, show, default: str = "random") -> tuple:
    """The bot playing each side (``side_bots``); unknown names are refused."""
    return bots_for_sides(side_bots(args, show.catalog), content, show, default)


def bots_for_sides(given, content, show, default: str) -> tuple:
    from crisis.interpreter.players.registry import UnknownController, controller_for
    from .errors import CliError
    names = [default] * len(content.sides)
    for index, bot in each_side_once(given, content, show):
        try:
            controller_for(bot, content)
        except (UnknownController, ValueError) as error:
            from .session import bot_problem
            raise CliError(show.catalog.text("cli.error.bot", given=bot, reason=bot_problem(show.catalog, error)))
        names[index] = bot
    return tuple(names)


def each_side_once(given, content, show):
    """(side index, bots) for each (side as typed, bots) of ``--bot``; a side named twice is refused
    (the last would win, silently: which was meant is not known)."""
    from .errors import CliError
    named = {}  # side -> how it was named first
    for side, bot in given:
        from .session import match_side  # only when a side is named: `crisis sim` alone needs none
        index = match_side(side, content, show)
        if index in named:
            raise CliError(show.catalog.text("cli.error.bot_twice", side=show.side(content.sides[index]),
                                             first=named[index], second=f"{side}={bot}"))
        named[index] = f"{side}={bot}"
        yield index, bot


@contextlib.contextmanager
def two_step_ctrl_c():
    """A long run's Ctrl-C in two steps: the first only sets the flag this yields (``bool(flag)``
    true), for the run to end after the work under way and report it; a second raises
    KeyboardInterrupt at once.  The earlier handler is restored after."""
    flag: list = []

    def on_ctrl_c(signum, frame):
        if flag:
            raise KeyboardInterrupt
        flag.append(True)
    previous = signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, previous)

