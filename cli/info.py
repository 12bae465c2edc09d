"""What a player can ask for at a prompt: a card's full text, a short rules
summary, an explanation of the current decision.

Card texts are rendered from the card's rule (ruleset/phrasing.py) in the locale;
rules summaries and help texts are catalog entries (``cli.rules.<topic>``,
``cli.help.<decision kind>``), so a translation adds them without code.  One
topic is the rules themselves: the sequence of play, rendered from the game's
definition (``sequence.yaml``) as a player reads the round structure.
"""

from __future__ import annotations

import re
from typing import Dict, Iterator, List, Optional, Tuple

from crisis.interpreter.actions import Decision, normalize
from crisis.ruleset import meaning as M
from crisis.ruleset.walk import meanings
from crisis.ruleset.phrasing import snake
from crisis.ruleset.diagnostics import did_you_mean, shown
from crisis.content.phrases import outline_lines, phrase, statement_text

from .text import fold
from .paths import shown_path
from .typed import typed_number

from .board import Screen

def catalog_keys(catalog) -> Iterator[str]:
    """Keys of a catalog and of its fallbacks, each once, in file order."""
    seen = set()
    while catalog is not None:
        for key in catalog.keys():
            if key not in seen:
                seen.add(key)
                yield key
        catalog = catalog.fallback


# ------------------------------------------------------------------ cards


def card_names(screen: Screen) -> List[Tuple[int, int, List[str]]]:
    """(kind, card, the names a player may type) for every card of the content, kind by kind (the
    kinds and cards as the game's program numbers them)."""
    out = []
    for kind, cards in enumerate(screen.program.cards):
        for card, card_id in enumerate(cards.ids):
            out.append((kind, card, [card_id, screen.title(kind, card), screen.slug(kind, card)]))
    return out


def find_cards(screen: Screen, query: str) -> Tuple[List[Tuple[int, int]], Optional[str]]:
    """Cards matching ``query`` (id or title, exact, then prefix, then part), and a guess if none."""
    wanted = fold(query)
    names = card_names(screen)
    for test in (lambda n: n == wanted, lambda n: n.startswith(wanted), lambda n: wanted in n):
        found = [(kind, i) for kind, i, ns in names if any(test(fold(n)) for n in ns)]
        if found:
            return found, None
    # a guess among the names, and among each word of the titles ('garison' for William Lloyd
    # Garrison, 'winfeld' for Winfield Scott, not for the id 'springfield'): a word guessed stands
    # for its card's title
    title_of = {}
    for kind, i, ns in names:
        title = screen.title(kind, i)
        title_of.setdefault(fold(title), title)
        for word in re.findall(r"\w{3,}", fold(title)):
            title_of.setdefault(word, title)
    guess = did_you_mean(wanted, list(title_of), cutoff=0.6)
    if guess is not None:
        return [], title_of[guess]
    everything = [n for _, _, ns in names for n in ns]
    return [], did_you_mean(query, everything, cutoff=0.5)


def card_text(screen: Screen, kind: int, index: int) -> List[str]:
    """The full text of a card, as a player reads it, with the meaning of the map's names the
    language keeps untranslated (cli/board.py's ``Screen.card_text``)."""
    return screen.card_text(kind, index)


# ------------------------------------------------------------------ rules


def rules_topics(catalog) -> List[str]:
    """Topic ids in catalog order: every ``cli.rules.<id>.name`` key."""
    topics = []
    for key in catalog_keys(catalog):
        match = re.fullmatch(r"cli\.rules\.([^.]+)\.name", key)
        if match and match.group(1) not in topics:
            topics.append(match.group(1))
    return topics


def find_topic(catalog, query: str) -> Tuple[List[str], Optional[str]]:
    wanted = normalize(query)
    topics = rules_topics(catalog)
    names = {topic: [normalize(n) for n in catalog.text(f"cli.rules.{topic}.name").split("|")] + [topic]
             for topic in topics}
    for test in (lambda n: n == wanted, lambda n: n.startswith(wanted)):
        found = [topic for topic in topics if any(test(n) for n in names[topic])]
        if found:
            return found, None
    # a guess is told by its topic's name as the list shows it, whichever of its names came close
    topic_of = {n: topic for topic, ns in names.items() for n in ns}
    guess = did_you_mean(wanted, list(topic_of), cutoff=0.6)
    return [], topic_title(catalog, topic_of[guess]) if guess is not None else None


def topic_title(catalog, topic: str) -> str:
    return catalog.text(f"cli.rules.{topic}.name").split("|")[0]


def rules_params(screen: Screen) -> Dict[str, int]:
    """Numbers of the content that rules summaries and help texts may quote, by names made from
    the names the game gives its things: each counter's bounds (``{round_to}``), the tokens'
    (``{tokens_each_side}``, ``{tokens_at_most}``), each track's spaces (``{crisis_track_spaces}``),
    each pile's limit (``{objective_at_most}``), and the numbers the sequence of play writes: the
    cards its first draw into a pile deals (``{draw_hand}``), the hand a ``draw ... until`` fills
    (``{draw_until_hand}``), the turns players alternate for (``{turns_plays}``)."""
    schema = screen.schema
    params: Dict[str, int] = {}
    for counter in schema.counters:
        params[f"{snake(counter.name)}_from"] = counter.low
        params[f"{snake(counter.name)}_to"] = counter.high
    if schema.tokens is not None:
        params["tokens_each_side"] = schema.tokens.each_side
        params["tokens_at_most"] = schema.tokens.at_most_per_place
    for track in schema.tracks:
        params[f"{snake(track.name)}_spaces"] = track.spaces
    for pile in schema.piles:
        if pile.at_most is not None:
            params[f"{snake(pile.name)}_at_most"] = pile.at_most
    definition = screen.definition
    for node in meanings(definition.setup, definition.play):
        if isinstance(node, M.Draw):
            pile = snake(schema.piles[node.dest.pile].name)
            if node.n >= 0:
                params.setdefault(f"draw_{pile}", node.n)
            else:
                params.setdefault(f"draw_until_{pile}", node.until)
        elif isinstance(node, M.Alternate):
            params.setdefault(f"turns_{snake(schema.counters[node.counter].name)}", node.n)
    return params


# --------------------------------------------------------------- decisions


def rule_text(screen: Screen, decision: Decision) -> Optional[str]:
    """The rule being carried out at a decision, rendered, if the engine names one."""
    node = decision.rule
    if node is None:
        return None
    try:
        return statement_text(screen.show.content, screen.c, node)
    except (AttributeError, KeyError, TypeError):  # a construct the renderer does not know as a statement
        return None


# ------------------------------------------------------------- commands


def card_query(screen: Screen, query: str, decision: Optional[Decision], word: str = "card"):
    """(cards, problem): the cards ``card QUERY`` asks for (a name, an id, the start of one, or a
    choice number), or what to tell the player instead."""
    c = screen.c
    if not query:
        return [], c.text("cli.card.usage", card=word)
    number = typed_number(query)
    if number is None and re.fullmatch(r"\s*-\s*\d+\s*", query) and decision is not None:
        # a negative number is a choice's number mistyped, not part of a card's id
        return [], c.text("cli.input.out_of_range", number=shown(query), n=len(decision.actions))
    if number is not None and decision is not None:
        if not 1 <= number <= len(decision.actions):
            return [], c.text("cli.input.out_of_range", number=shown(query), n=len(decision.actions))
        action = decision.actions[number - 1]
        found = screen.action_card(decision, action)
        if found is None:  # a card the action names by its id (a card kept, deployed ...)
            named = screen.show.action_card(action)
            if named is not None:
                found = next((kind, action.a) for kind, cards in enumerate(screen.program.cards)
                             if cards is named[0])
        if found is not None:
            return [found], None
        return [], c.text("cli.card.no_card_choice", number=number)
    found, guess = find_cards(screen, query)
    if not found:
        return [], (c.text("cli.card.unknown_guess", name=query, guess=guess) if guess
                    else c.text("cli.card.unknown", name=query))
    if len(found) > 6:
        names = [screen.title(kind, i) for kind, i in found]
        return [], c.text("cli.card.ambiguous", name=query, n=len(found), names=", ".join(names[:8]))
    return found, None


def rules_query(screen: Screen, query: str, word: str = "rules"):
    """(lines, problem): the list of rules summaries, or the topics ``query`` names."""
    c, style = screen.c, screen.style
    if not query:
        topics = rules_topics(c)
        # the example names a topic of this game: the last one listed, a written summary
        example = next((t for t in reversed(topics) if t != SEQUENCE), topics[-1] if topics else "")
        lines = [c.text("cli.rules_list.title", rules=word,
                        topic=topic_title(c, example) if example else "")]
        for topic in topics:
            lines.append("  " + c.text("cli.rules_list.item", name=topic_title(c, topic),
                                       summary=c.text(f"cli.rules.{topic}.summary")))
        lines.append(c.text("cli.rules_list.usage"))
        return lines, None
    found, guess = find_topic(c, query)
    if not found:
        return [], (c.text("cli.rules_list.unknown_guess", name=query, guess=guess) if guess
                    else c.text("cli.rules_list.unknown", name=query, rules=word))
    lines = []
    params = rules_params(screen)
    for topic in found[:3]:
        lines.append("")
        lines.append(style.bold(c.text("cli.rules_list.item", name=topic_title(c, topic),
                                       summary=c.text(f"cli.rules.{topic}.summary"))))
        if topic == SEQUENCE:
            shown = sequence_lines(screen)
            text = "\n".join(shown)
            lines += shown
        else:
            text = c.text(f"cli.rules.{topic}.text", **params)
            lines += screen.wrap(text, 2)
        lines += [f"  {line}" for line in glosses(screen, text)]
    lines.append("")
    return lines, None


# the topic that is the rules themselves: the sequence of play, rendered (it has a name and a
# summary in the catalog, and no text)
SEQUENCE = "steps"


def sequence_lines(screen: Screen) -> List[str]:
    """The sequence of play as written in the game's definition (sequence.yaml), rendered: the
    setup, the play (steps and loops open with a line of their own, their statements below
    them), who is the first player, the procedures the steps carry out by name, and, in a game
    an overlay plays (the solo game), the steps and procedures it plays its own way."""
    c, definition = screen.c, screen.show.content.definition
    out: List[str] = []

    def outline(rule, indent: int = 2, actor: str = "you") -> None:
        for depth, line in outline_lines(definition, c, rule, actor):
            out.extend(_hanging(screen, line, indent + 2 * depth))

    def heading(text: str, indent: int = 2) -> None:
        out.extend(screen.wrap(text, indent))

    heading(c.text("cli.rules_sequence.setup"))
    outline(definition.setup, 4)
    heading(c.text("cli.rules_sequence.play"))
    outline(definition.play, 4)
    heading(c.text("cli.rules_sequence.first_player"))
    for index, rule in enumerate(definition.first_player, 1):
        out.extend(_hanging(screen, c.text("cli.aid.line", n=index, ties="",
                                           text=phrase("condition", rule, c, definition)), 4))
    if definition.uses:  # the ways to play a card ("playing a card"), each by the word a player types
        heading(c.text("cli.rules_sequence.uses"))
        for use in definition.uses:
            condition = phrase("condition", use.condition, c, definition) if use.condition is not None else ""
            # the option by the name the balance report gives it (report.options.<name>), else as written
            option = (c.raw(f"report.options.{use.option}") or use.option.replace("_", " ")) if use.option else ""
            out.extend(screen.wrap(c.text("cli.rules_sequence.use", name=screen.show.typed_word(use.name),
                                          condition=condition,
                                          option=option), 4))
            outline(use.rule, 6)
    heading(c.text("cli.rules_sequence.procedures"))
    for name, (kind, rule) in definition.procedures.items():
        _procedure_lines(screen, out, definition, c.text("cli.rules_sequence.procedure",
                                                         name=_capital(c.name("procedures", name))), kind, rule)
    overlay = definition.overlay
    game = getattr(screen, "game", None)
    if overlay is not None and getattr(getattr(game, "options", None), "solo", None) is not None:
        heading(c.text("cli.rules_sequence.overlay"))
        role = overlay.roles[0] if overlay.roles else ""
        for part in (overlay.steps, overlay.procedures):
            for name, variants in part.items():
                kind = definition.procedures.get(name, ("block", None))[0]
                for who, rule in variants.items():
                    shown = _capital(c.name("steps" if part is overlay.steps else "procedures", name))
                    title = (c.text("cli.rules_sequence.for_role", name=shown, role=c.text("render.subject.solo"))
                             if who == role else c.text("cli.rules_sequence.procedure", name=shown))
                    _procedure_lines(screen, out, definition, title, kind, rule, "solo" if who == role else "you")
    return out


def _procedure_lines(screen: Screen, out: List[str], definition, title: str, kind: str, rule,
                     actor: str = "you") -> None:
    """A procedure under its name: its rule (an outline), its condition, its conditions in
    order, or its labelled lines."""
    c = screen.c
    out.extend(screen.wrap(title, 4))
    if kind == "block":
        for depth, line in outline_lines(definition, c, rule, actor):
            out.extend(_hanging(screen, line, 6 + 2 * depth))
    elif kind == "condition":
        out.extend(_hanging(screen, _capital(phrase("condition", rule, c, definition, actor)), 6))
    elif kind == "conditions":
        for index, condition in enumerate(rule, 1):
            out.extend(_hanging(screen, c.text("cli.aid.line", n=index, ties="",
                                               text=phrase("condition", condition, c, definition, actor)), 6))
    else:  # labelled lines
        for label, block in rule:
            text = phrase("block", block, c, definition, actor).replace("\n", " ")
            out.extend(_hanging(screen, c.text("cli.rules_sequence.line", label=c.raw(f"scoring.{label}") or label,
                                               text=text), 6))


def _hanging(screen: Screen, text: str, indent: int) -> List[str]:
    """A line wrapped at ``indent``, its continuation two columns further in."""
    first, *rest = screen.wrap(text, indent) or [""]
    if not rest:
        return [first]
    return [first] + screen.wrap(" ".join(line.strip() for line in rest), indent + 2)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def glosses(screen: Screen, text: str) -> List[str]:
    """Where a language keeps the map's printed names (the Spanish rulebook keeps Border States,
    Newspapers ...), the meaning of each one the text uses (cli/board.py's ``Screen.glosses``)."""
    return screen.glosses(text)


def decision_help(screen: Screen, decision: Decision) -> List[str]:
    """What a kind of decision asks of a player (``cli.help.<kind>``), if the game's catalog
    says; the rule carried out says the rest."""
    key = f"cli.help.{decision.kind}"
    if not screen.has(key):
        return []
    return screen.wrap(screen.c.text(key, **rules_params(screen)), 2)


def typed_example(screen, decision) -> dict:
    """The help's example of an action typed short, from this decision's own actions ("march
    iro" for "march iron-brigade to Boston"): ``n`` the choices, ``short`` what is typed and
    ``full`` what it stands for (both empty where no action has a name to shorten)."""
    for action in decision.actions:
        words = screen.show.notation(screen.game, action).split(" ")
        if len(words) >= 2 and len(words[1]) > 3:
            start = ""
            for part in words[1].split("-"):  # three letters of a word, not "el-" of "el-puerto"
                if len(part) >= 3:
                    start += part[:3]
                    break
                start += part + "-"
            return {"n": len(decision.actions), "short": f"{words[0]} {start}", "full": " ".join(words)}
    return {"n": len(decision.actions), "short": "", "full": ""}


def help_lines(screen: Screen, decision: Decision, hotseat: bool, path, words: dict,
               why: Optional[str] = None) -> List[str]:
    """What ``?`` says about the current decision: the rule, what it is part of, the commands;
    ``why``: the word that asks why the game's side or a bot chose as it did, where one does."""
    c = screen.c
    lines = [""]
    lines += decision_help(screen, decision)
    part = screen.show.part_of(screen.game)
    if part:
        lines += screen.wrap(c.text("cli.help.cause", line=part), 2)
    rule = rule_text(screen, decision)
    if rule:
        lines += screen.wrap(c.text("cli.help.rule", rule=rule), 2)
    if decision.optional:
        # the choice as the menu shows it, and as it is typed (the full screen may show only the first)
        lines += screen.wrap(c.text("cli.help.optional", stop=c.text("action.done"), done=c.name("notation", "done")),
                             2)
    if decision.hidden and hotseat:
        lines += screen.wrap(c.text("cli.help.hidden"), 2)
    lines += screen.wrap(c.text("cli.help.commands", **typed_example(screen, decision), **words), 2)
    if why is not None:
        lines += screen.wrap(c.text("cli.help.why", why=why), 2)
    lines += screen.wrap(c.text("cli.help.saved", file=shown_path(path)), 2)
    lines.append("")
    return lines


def explained(session) -> bool:
    """Whether ``why`` has something to say in this game: the game plays a side (its choices are
    traced), or a bot keeps its reasons."""
    return session.game.automa is not None or any(getattr(bot, "explain", None) for bot in session.bots)


def why_lines(session) -> List[str]:
    """The reasons a bot gave for its recent actions, for bots that keep them (``explain()``);
    in a game where the game plays a side, the trace of its last choice (from the game's log)."""
    c = session.c
    lines = solo_why_lines(session)
    for side, bot in enumerate(session.bots):
        explain = getattr(bot, "explain", None)
        if explain is None:
            continue
        reasons = explain(session.game)
        if reasons:
            lines.append(c.text("cli.why.title", side=session.show.side(session.sides[side])))
            lines += [f"  {line}" for line in reasons]
    return lines or [c.text("cli.why.nothing")]


def solo_why_lines(session) -> List[str]:
    """The automa's last choice: the line it explains and why (the table and row, or the list)."""
    game = session.game
    automa = game.automa
    if automa is None:
        return []
    log = game.log or []
    found = [i for i, entry in enumerate(log) if entry.key in _SOLO_REASONS]
    c, show = session.c, session.show
    if not found:
        return [c.text("cli.why.solo_none")]
    index = found[-1]
    lines = [c.text("cli.why.solo", side=show.side(session.sides[automa.side]))]
    if log[index].key != "log.solo.choice":
        # a test of its turn or a priority list (its own procedures): the run of them that led
        # to its last step, with the card it revealed if the run starts its turn
        first = index
        while first > 0 and log[first - 1].key in _SOLO_REASONS[1:]:
            first -= 1
        if first > 0 and show.shown(log[first - 1:first], automa.side) and log[first - 1].key == "log.draw":
            first -= 1
        lines += ["  " + show.log_line(entry).strip() for entry in show.shown(log[first:index + 1], automa.side)]
        after = show.shown(log[index + 1:index + 2], automa.side)
        if after and log[index + 1].key not in _SOLO_REASONS:
            lines.append("  → " + show.log_line(after[0]).strip())
        return lines
    if index > 0 and log[index - 1].key in ("log.place", "log.remove", "log.move", "log.marker"):
        lines.append("  " + show.log_line(log[index - 1]))
    lines.append("    " + show.trace(log[index]))
    return lines


# the log lines that say why the solo opponent did something: a choice among legal steps (its
# tables, priorities, options), then the tests of its procedures
_SOLO_REASONS = ("log.solo.choice", "log.solo.if", "log.solo.first_of")
