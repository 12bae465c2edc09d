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

from typing import Dict

from crisis.content.locale import Catalog
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
        self.where = ""

    def text(self, key: str, **params) -> str:
        if self.raw(key) is None:
            self.missed.setdefault(key, self.where)
        return super().text(key, **params)


def keys_missing_in_play(content: Content, lang: str, games: int) -> Dict[str, str]:
    """The keys of ``lang``'s catalog (fallback included) that ``games`` random games asked for
    and it lacks: key -> an example of the choice or moment that asked (an action as typed)."""
    from crisis.interpreter.engine.game import Game
    from crisis.interpreter.players.registry import RandomBot

    from .board import Screen
    from .terminal import Style
    from .text import Presenter
    catalog = _Recording(content.catalog(lang))
    show = Presenter(content, catalog)
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
            for action in decision.actions:
                catalog.where = action.text
                show.action(game, decision, action)
            if step % BOARD_EVERY == 0:
                screen = Screen(game, show, Style(False), 100)
                screen.header()
                screen.board()
            game.apply(bots[decision.player].choose(game, decision))
            catalog.where = "the log"  # (an entry the catalog has no words for is not shown: silence by choice)
            show.log_lines(game.log[logged:], automa)
            logged = len(game.log)
        catalog.where = "the game's result"
        Screen(game, show, Style(False), 100).result()
    return catalog.missed
