"""Many games in a row: the engine side of ``crisis sim`` and of every long
job that plays games by the thousand.

A ``Job`` is what every game of a run shares: the content, the options and
the controller (by registered name) playing each side.  ``Job.play(seeds)``
plays one game per seed and yields a ``GameRecord`` for each as it ends, so a
caller can stream records to a file and fold them into a ``Summary`` without
keeping them.  The same seed always gives the same game: the game's own
generator and each controller's are seeded from it alone.
"""

from __future__ import annotations

from typing import Dict, Iterable, Iterator, List, Optional, Tuple

import attrs

from crisis.content.model import Content

from .controllers import RandomBot, controller_factories
from .game import Game, Options
from .invariants import check_state
from .tables import tables_for


@attrs.frozen
class GameRecord:
    """What a designer analyses of one finished game."""

    seed: int
    winner: int
    vp: Tuple[int, int]
    tie_break: int  # index of the tie-break that decided, -1 when VP did
    rounds: int  # rounds played before the Final Crisis
    final_crisis_early: bool  # the Final Crisis came before the last round (both zones breached)
    played: Tuple[Tuple[int, int, str], ...]  # (side, card index, "value" | "event" | "claim"), in order
    breaches: Tuple[Tuple[int, int, int], ...]  # (zone index, side, 1 for the first breacher, 2 for the second)
    actions: int  # decisions taken by the players
    problems: Tuple[str, ...] = ()  # invariants broken (only when the job checks them)


@attrs.frozen
class Job:
    """The games of one run: same content, options and controllers; one game per seed."""

    content: Content
    options: Options = Options()
    controllers: Tuple[str, str] = ("random", "random")
    check: bool = False  # check the invariants after every action (slower)

    def play(self, seeds: Iterable[int]) -> Iterator[GameRecord]:
        tables = tables_for(self.content)
        registry = controller_factories()
        factories = [registry[name] for name in self.controllers]
        for seed in seeds:
            yield play_game(self.content, tables, self.options, factories, seed, self.check)


def play_game(content, tables, options, factories, seed: int, check: bool = False) -> GameRecord:
    game = Game(content, seed, options, log=False)
    controllers = [factory(seed, side) for side, factory in enumerate(factories)]
    problems: List[str] = []
    if not check and all(type(c) is RandomBot for c in controllers):
        actions = _random_play(game, controllers)
    else:
        actions = 0
        choose = [c.choose for c in controllers]
        decision = game.decision
        while decision is not None:
            game.advance(choose[decision.player](game, decision))
            actions += 1
            decision = game.decision
            if check:
                found = check_state(tables, game.state)
                if found:
                    problems.extend(f"after action {actions}: {p}" for p in found)
                    break
    return record_of(game, seed, actions, problems)


def _random_play(game: Game, bots) -> int:
    """Two random bots to the end: what ``RandomBot.choose`` and ``Game.advance``
    do, in one loop (a random bot's pick is always one of the decision's actions).
    The same draws from the same generators, so the same game."""
    below = [bot.pick for bot in bots]
    send = game._flow.send
    decision = game.decision
    actions = 0
    try:
        while decision is not None:
            options = decision.actions
            decision = send(options[below[decision.player](len(options))])
            actions += 1
    except StopIteration:
        actions += 1
    game.decision = None
    return actions


def record_of(game: Game, seed: int, actions: int, problems: List[str]) -> GameRecord:
    st, t = game.state, game.tables
    result = st.result
    breaches = tuple((zone, side, nth + 1) for zone, order in enumerate(st.breach_order)
                     for nth, side in enumerate(order))
    return GameRecord(
        seed=seed, winner=result.winner if result else -1, vp=(st.vp[0], st.vp[1]),
        tie_break=result.tie_break if result else -1, rounds=st.round,
        final_crisis_early=st.round < t.board.rounds,
        played=tuple((p.side, p.card, p.mode) for p in st.played), breaches=breaches,
        actions=actions, problems=tuple(problems))
