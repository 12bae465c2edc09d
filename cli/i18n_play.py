"""Texts a game asks its catalogs for only in play, found by playing it (``crisis i18n check``).

Most of what a player reads is known from the content alone: the rules are put into words and
every template they use is checked (content/i18n.py).  A few keys are made in play from what
the sequence of play asks: a decision's prompt is ``decision.<what is chosen>`` (``_optional``
where the player may stop), an action's description ``action.<verb>``, and the log lines of
the verbs a game's state defines.  No list in the program can name them all, so a few seeded
games between random players are played and everything a player would read at each step is
drawn: the prompt, every action offered, the log as shown, the header and the board, the result.  A key
the catalog lacks there is a player seeing ``<decision.forfeit>``.

The games are the same on every run (seeds 1..N), so the check's answer is too.
"""

from __future__ import annotations

import re
from typing import Dict, List, Tuple

from crisis.content.locale import Catalog, MessageError, format_message
from crisis.content.model import Content

# The header and the board are drawn at one decision in this many (they ask for the same
# keys at every one; the prompt, the actions offered and the log are drawn at each).
BOARD_EVERY = 7


class _Recording(Catalog):
    """A catalog that notes each key asked for that neither it nor its fallback has, with the
    first example of where (what the player was choosing)."""

    def __init__(self, catalog: Catalog):
        super().__init__(catalog.lang, catalog.messages, catalog.positions, catalog.fallback)
        self.missed: Dict[str, str] = {}
        # texts it has that play could not fill: key -> (where, what went wrong, the names play gave)
        self.unfilled: Dict[str, Tuple[str, str, Tuple[str, ...]]] = {}
        self.unnamed: Dict[str, Tuple[str, str]] = {}  # names no catalog gives: key -> (where, word shown)
        self.listed: List[str] = []  # the cards as listed (where an unnamed name may show)
        self.where = ""
        # the names of places, groups and sides this catalog gives otherwise than the rules write
        # them (rules' name -> this catalog's), and the texts that showed one as the rules write it:
        # key -> (where, the placeholder given it, the rules' name, this catalog's)
        self.renamed: Dict[str, str] = {}
        self.shown_raw: Dict[str, Tuple[str, str, str, str]] = {}

    def text(self, key: str, **params) -> str:
        message = self.raw(key)
        if message is None:
            self.missed.setdefault(key, self.where)
            return f"<{key}>"
        shown = self.formatted(message, params)
        if shown is None:  # the player reads the fallback's text, or <key>: why, once
            if key not in self.unfilled:
                try:
                    format_message(message, self.with_grammar(message, params))
                except MessageError as error:
                    self.unfilled[key] = (self.where, str(error), tuple(sorted(params)))
            return super().text(key, **params)
        if self.renamed and key not in self.shown_raw:
            self._raw_name_in(key, shown, params)
        return shown

    def _raw_name_in(self, key: str, shown: str, params) -> None:
        """Note a name given to the text as the rules write it ('New York') that the player reads
        so, where this catalog names it otherwise ('Nueva York'): a value the program forgot to
        name in the player's language."""
        for name, value in params.items():
            if not isinstance(value, str) or value not in self.renamed:
                continue
            # (the catalog's own name may hold the rules' one: 'Washington D.C.' and 'Washington')
            rest = shown.replace(self.renamed[value], "")
            if re.search(r"(?<!\w)" + re.escape(value) + r"(?!\w)", rest):
                self.shown_raw[key] = (self.where, name, value, self.renamed[value])
                return

    def name(self, kind: str, name: str, default=None) -> str:
        shown = super().name(kind, name, default)
        if self.raw(f"{kind}.{name}") is None:
            self.unnamed.setdefault(f"{kind}.{name}", (self.where, shown))
        return shown


def texts_wrong_in_play(content: Content, lang: str, games: int):
    """What ``games`` random games asked ``lang``'s catalog (fallback included) for and could not
    read: (the keys it lacks: key -> an example of the choice or moment that asked, an action as
    typed; the texts it has that play could not fill: key -> (where, why, the names play gave))."""
    catalog = _played(content, lang, games)
    return catalog.missed, catalog.unfilled


def played_texts(content: Content, lang: str, games: int):
    """(``texts_wrong_in_play``'s two: the keys missing, the texts play could not fill (a misspelt
    placeholder of a text only play fills); the words ``lang``'s players read as ``state.yaml`` writes them
    because no catalog gives them: a card field's name, a kind of cards' name, a word they type for
    a way to play a card), the second found by listing every card as ``crisis cards`` does too and
    every action as typed (key -> where).  Proper names (places,
    sides) are left out: a game may keep them in one language on purpose; and the texts that
    showed a proper name as the rules write it where the catalog names it otherwise (key ->
    (where, the placeholder, the rules' name, the catalog's)): ``_Recording._raw_name_in``)."""
    catalog = _played(content, lang, games, cards=True)
    listed = "\n".join(catalog.listed).lower()
    # a name asked for is not always shown (a card's line may leave its fields out): those shown
    words = {key: (where, shown) for key, (where, shown) in catalog.unnamed.items()
             if key.rsplit(".", 1)[0] in _COMMON_NOUNS and re.search(r"\b" + re.escape(shown.lower()) + r"\b", listed)}
    return catalog.missed, catalog.unfilled, words, catalog.shown_raw


_COMMON_NOUNS = ("fields", "card_kinds", "notation", "counters", "piles", "holders", "cli.board.attribute",
                 "cli.board.flag")


def _played(content: Content, lang: str, games: int, cards: bool = False) -> "_Recording":
    from crisis.interpreter.engine.game import Game
    from crisis.interpreter.players.registry import RandomBot

    from .board import Screen
    from .terminal import Style
    from .text import Presenter
    catalog = _Recording(content.catalog(lang))
    show = Presenter(content, catalog)
    named = [(place, show.space(place)) for place in content.places]
    named += [(group.name, show.group(group.name)) for group in content.schema.map.groups]
    named += [(side, show.side(side)) for side in content.sides]
    catalog.renamed = {name: shown for name, shown in named if shown != name}
    catalog.unnamed.clear()  # (names asked for above, not in play)
    for seed in range(1, games + 1):
        game = Game.of(content, seed)
        bots = [RandomBot(seed, side) for side in range(len(game.sides))]
        automa = game.automa.side if game.automa is not None else None
        logged = 0
        for step in range(100_000):  # a game's decisions are bounded; this only guards the loop
            decision = game.decision
            if decision is None:
                break
            catalog.where = decision.actions[0].text if decision.actions else decision.kind
            show.prompt(game, decision)
            show.prompt_rule(decision)
            for action in decision.actions:
                catalog.where = action.text
                show.action(game, decision, action)
                if cards:  # what a player types, where a word of it may be the rules' own
                    catalog.listed.append(show.notation(game, action))
            if step % BOARD_EVERY == 0:
                screen = Screen(game, show, Style(False), 100)
                drawn = screen.header() + screen.board()
                if cards:
                    catalog.listed.extend(drawn)
            game.apply(bots[decision.player].choose(game, decision))
            catalog.where = "the log"  # (an entry the catalog has no words for is not shown: silence by choice)
            logged_lines = show.log_lines(game.log[logged:], automa)
            if cards:
                catalog.listed.extend(logged_lines)
            logged = len(game.log)
        catalog.where = "the game's result"
        Screen(game, show, Style(False), 100).result()
    if cards:
        screen = Screen(Game.of(content, 1), show, Style(False), 100)
        catalog.where = "crisis cards"
        for kind, declared in enumerate(content.schema.card_kinds):
            catalog.listed.append(screen.kind_heading(kind, 1))
            for card in range(len(content.cards(declared.name).ids)):
                catalog.listed.extend(screen.card_text(kind, card))
    return catalog
