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

from . import flow
from .compile import Executor
from .controllers import RandomBot, controller_factories
from .game import Game, Options
from .invariants import check_state
from .state import SAME_DRAWS, initial_state
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
    controllers = [factory(seed, side) for side, factory in enumerate(factories)]
    # the loop without a Game serves two random bots; the solo game needs its driver (Game)
    if not check and SAME_DRAWS and options.solo is None and all(type(c) is RandomBot for c in controllers):
        state = initial_state(tables, seed)
        actions = _random_play(tables, options, state, controllers)
        return record_of(tables, state, seed, actions, [])
    game = Game(content, seed, options, log=False)
    problems: List[str] = []
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
    return record_of(tables, game.state, seed, actions, problems)


def _random_play(tables, options, state, bots) -> int:
    """Two random bots play a game to its end: what ``Game`` with ``RandomBot``
    controllers does, in one loop (a random bot's pick is always one of the
    decision's actions; no log, no history).  The same draws from the same
    generators, so the same game."""
    ex = Executor(tables, state, None)
    bits = [bot.rng.getrandbits for bot in bots]
    actions = 0
    while state.phase != "game_over":
        phase = flow.PHASES[state.phase](ex, options)
        try:
            decision = next(phase)
            while True:
                choices = decision.actions
                n = len(choices)
                # ``below`` written in: one draw per decision of every game
                getrandbits = bits[decision.player]
                k = n.bit_length()
                pick = getrandbits(k)
                while pick >= n:
                    pick = getrandbits(k)
                actions += 1
                decision = phase.send(choices[pick])
        except StopIteration:
            pass
    return actions


def record_of(tables, st, seed: int, actions: int, problems: List[str]) -> GameRecord:
    result = st.result
    breaches = tuple((zone, side, nth + 1) for zone, order in enumerate(st.breach_order)
                     for nth, side in enumerate(order))
    return GameRecord(
        seed=seed, winner=result.winner if result else -1, vp=(st.vp[0], st.vp[1]),
        tie_break=result.tie_break if result else -1, rounds=st.round,
        final_crisis_early=st.round < tables.board.rounds,
        played=tuple([(p.side, p.card, p.mode) for p in st.played]), breaches=breaches,
        actions=actions, problems=tuple(problems))
