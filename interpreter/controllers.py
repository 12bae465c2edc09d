"""Controllers choose actions at decision points: people, bots, scripts.

The engine never chooses for a player; a controller does, and only from the
decision's legal actions.  Bots own their random generator (seeded from the
game's seed) so that their choices never disturb the game's own generator:
replaying the recorded actions gives the same game without the bots.
"""

from __future__ import annotations

import random
from typing import Optional

from .actions import Action, Decision


class Controller:
    name = "controller"

    def choose(self, game, decision: Decision) -> Action:  # pragma: no cover - interface
        raise NotImplementedError


class RandomBot(Controller):
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: Optional[int] = None, side: int = 0):
        # a different stream per side, fixed by the game seed
        self.rng = random.Random(f"random-bot/{seed}/{side}")

    def choose(self, game, decision: Decision) -> Action:
        actions = decision.actions
        return actions[self.rng.randrange(len(actions))]


def play_out(game, controllers) -> None:
    """Let controllers (one per side) play until the game is over."""
    while game.decision is not None:
        decision = game.decision
        game.apply(controllers[decision.player].choose(game, decision))
