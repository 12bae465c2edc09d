"""Controllers choose actions at decision points: people, bots, scripts.

The engine never chooses for a player; a controller does, and only from the
decision's legal actions.  Bots own their random generator (seeded from the
game's seed) so that their choices never disturb the game's own generator:
replaying the recorded actions gives the same game without the bots.

The registry finds every controller by its ``name`` (the name saved in game
files and given on the command line): the random player, the general engine's
bots (``heuristic``, ``search``; a setting after a colon: ``search:40``,
``search:500ms``), any subclass of ``Controller`` with a ``name``, and any
factory made known with ``register``.
"""

from __future__ import annotations

import random
from typing import Callable, Dict, Optional

from crisis.content.bots import SettingError
from crisis.interpreter.actions import Action, Decision


class Controller:
    name = "controller"
    # True for a bot whose choices depend on the game alone (it draws from a generator made
    # for each decision): a game rebuilt from its actions need not ask it again
    stateless = False
    # True for a bot that judges positions by the content's bots/evaluation.yaml
    needs_evaluation = False

    def choose(self, game, decision: Decision) -> Action:  # pragma: no cover - interface
        raise NotImplementedError


class RandomBot(Controller):
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: Optional[int] = None, side: int = 0):
        # a different stream per side, fixed by the game seed
        self.rng = random.Random(f"random-bot/{seed}/{side}")
        # pick(n): what rng.randrange(n) calls for n > 0, without its argument checks: the same draws
        self.pick = self.rng._randbelow

    def choose(self, game, decision: Decision) -> Action:
        actions = decision.actions
        return actions[self.pick(len(actions))]


def play_out(game, controllers) -> None:
    """Let controllers (one per side) play until the game is over."""
    while game.decision is not None:
        decision = game.decision
        game.apply(controllers[decision.player].choose(game, decision))


class UnknownController(SettingError):
    pass


_REGISTERED: Dict[str, Callable] = {}


def register(name: str, factory: Callable) -> None:
    """Make ``factory(seed, side)`` available by ``name`` to batch jobs and the command line."""
    _REGISTERED[name] = factory


def _bots() -> Dict[str, Callable]:
    """The general engine's bots that look ahead, imported when first asked for."""
    from .heuristic import HeuristicBot
    from .search import SearchBot
    return {"heuristic": HeuristicBot, "search": SearchBot}


def _subclasses() -> Dict[str, Callable]:
    found: Dict[str, Callable] = {}

    def walk(cls) -> None:
        for sub in cls.__subclasses__():
            name = getattr(sub, "name", None)
            if name and name != Controller.name:
                found[name] = sub
            walk(sub)

    walk(Controller)
    return found


def controller_factories() -> Dict[str, Callable]:
    """Every controller by its ``name``, built as ``factory(seed, side)`` (the registered ones win)."""
    found = _bots()
    found.update(_subclasses())
    found.update(_REGISTERED)
    return found


def controller_factory(name: str) -> Callable:
    """The factory for a controller name, which may carry a setting after a colon
    (``search:20``, ``search:500ms``: the class's ``configured(setting)`` reads it).
    ``UnknownController`` (a ``ValueError``) says what is known."""
    if name in _REGISTERED:
        return _REGISTERED[name]
    if name == RandomBot.name:  # every simulation's bot: found without importing the bots that look ahead
        return RandomBot
    registry = controller_factories()
    if name in registry:
        return registry[name]
    base, _, setting = name.partition(":")
    factory = registry.get(base)
    if factory is not None and setting and hasattr(factory, "configured"):
        return factory.configured(setting)
    if factory is not None:
        raise UnknownController(f"'{base}' takes no setting after ':'", "no_setting", name=base)
    known = ", ".join(sorted(registry))
    raise UnknownController(f"no controller named '{name}' (known: {known})", "unknown", name=name, known=known)


def controller_for(name: str, content) -> Callable:
    """``controller_factory(name)``, for a game of ``content``: a bot that judges positions by the
    content's bots/evaluation.yaml is refused (``UnknownController``) where the content has none."""
    factory = controller_factory(name)
    made = getattr(factory, "func", factory)  # a bot with a setting: a partial of its class
    definition = getattr(content, "definition", None)
    if getattr(made, "needs_evaluation", False) and (definition is None or definition.evaluation is None):
        base = name.partition(":")[0]
        raise UnknownController(f"'{base}' judges positions by the content's bots/evaluation.yaml, "
                                "and this content has none", "no_evaluation", name=base)
    return factory
