"""The whole position of a game, as attrs classes.

The state is mutable while a game runs (a token move changes a list entry
rather than building a new state) because that keeps a random game at a few
hundred microseconds; ``copy`` gives an independent snapshot, and replaying
seed + actions rebuilds any earlier position exactly.  Sides, spaces, zones,
cards and markers are indices into the game's ``Tables``.
"""

from __future__ import annotations

import random
from typing import List, Optional, Tuple

import attrs

NOBODY = -1

# Phases of the sequence of play, in order.  A game can start (or a scenario
# can be set up) at the start of any of them.
PHASES = ("deal", "objectives", "card_play", "pivotal", "scoring", "round_end",
          "final_crisis", "final_crisis_order", "final_crisis_reveal", "final_scoring", "game_over")


@attrs.define(slots=True, eq=False)
class LastPlay:
    side: int
    card: int
    mode: str  # "value" | "event" | "claim"


@attrs.define(slots=True, eq=False)
class Result:
    winner: int
    tie_break: int = -1  # index of the tie-break that decided, -1 if VP did
    breakdown: List[List[Tuple[str, int]]] = attrs.field(factory=lambda: [[], []])


@attrs.define(slots=True, eq=False)
class GameState:
    # --- the board
    tokens: List[List[int]]  # tokens[side][space]
    pool: List[int]  # token pool per side
    track: List[int]  # tokens left on each side's crisis track (they fill spaces 0 .. track-1)
    boxes: List[List[int]]  # bonus tokens left in each zone's box: boxes[side][zone]
    markers: List[int]  # space of each marker, NOBODY when off the map
    vp: List[int]
    # --- crisis zones
    breached: List[List[bool]]  # breached[side][zone]
    breach_order: List[List[int]]  # breach_order[zone]: sides in the order they resolved the breach
    pending_breaches: List[List[int]]  # zones breached during the current play, not yet resolved
    # --- cards
    strategy_deck: List[int]
    objective_deck: List[int]
    discard: List[int]  # strategy cards played, in order
    removed_objectives: List[int]
    hands: List[List[int]]
    objective_offer: List[List[int]]  # objective cards dealt, waiting for the keep choice
    objectives: List[int]  # objective kept this round, NOBODY if none
    set_aside: List[List[int]]  # cards kept for the Final Crisis
    final_crisis_order: List[List[int]]
    # --- sequence of play
    round: int
    phase: str
    plays: List[int]  # cards played this round, per side
    leader: int  # the side that played first this round
    last_play: Optional[LastPlay]
    final_crisis_step: int
    result: Optional[Result]
    rng: random.Random
    # count of random draws and reveals so far: undo may not cross one
    reveals: int = 0
    # every card play of the game, in order (for records of many games)
    played: List[LastPlay] = attrs.field(factory=list)
    # die rolls fixed in advance (a scenario's `dice`), used before the generator
    dice: List[int] = attrs.field(factory=list)
    # the card the solo opponent revealed this turn (solo rulebook: step 4)
    revealed: int = NOBODY
    # a public view: the side whose view this copy is (hidden cards removed), else NOBODY
    view: int = NOBODY
    # the first player of each round's card play, then of the Final Crisis (for records)
    first_players: List[int] = attrs.field(factory=list)
    # (round, side, objective card, whether its holder controlled its space when scored)
    objective_outcomes: List[Tuple[int, int, int, bool]] = attrs.field(factory=list)

    def copy(self, rng: Optional[random.Random] = None) -> "GameState":
        """An independent snapshot; ``rng`` replaces the generator (look-ahead that
        samples its own future draws need not pay for copying this one)."""
        if rng is None:
            rng = random.Random(0)
            rng.setstate(self.rng.getstate())
        return GameState(
            tokens=[list(t) for t in self.tokens], pool=list(self.pool), track=list(self.track),
            boxes=[list(b) for b in self.boxes], markers=list(self.markers), vp=list(self.vp),
            breached=[list(b) for b in self.breached], breach_order=[list(o) for o in self.breach_order],
            pending_breaches=[list(p) for p in self.pending_breaches],
            strategy_deck=list(self.strategy_deck), objective_deck=list(self.objective_deck),
            discard=list(self.discard), removed_objectives=list(self.removed_objectives),
            hands=[list(h) for h in self.hands], objective_offer=[list(o) for o in self.objective_offer],
            objectives=list(self.objectives), set_aside=list(list(s) for s in self.set_aside),
            final_crisis_order=[list(o) for o in self.final_crisis_order],
            round=self.round, phase=self.phase, plays=list(self.plays), leader=self.leader,
            last_play=attrs.evolve(self.last_play) if self.last_play else None,
            final_crisis_step=self.final_crisis_step,
            result=attrs.evolve(self.result) if self.result else None, rng=rng, reveals=self.reveals,
            played=list(self.played), dice=list(self.dice), revealed=self.revealed, view=self.view,
            first_players=list(self.first_players), objective_outcomes=list(self.objective_outcomes))

    def board(self) -> tuple:
        """The parts a token step can change, copied (see ``restore``)."""
        return ([list(t) for t in self.tokens], list(self.pool), list(self.track), [list(b) for b in self.boxes],
                [list(b) for b in self.breached], [list(p) for p in self.pending_breaches], list(self.markers),
                list(self.vp))

    def restore(self, board: tuple) -> None:
        (self.tokens, self.pool, self.track, self.boxes, self.breached, self.pending_breaches, self.markers,
         self.vp) = ([list(t) for t in board[0]], list(board[1]), list(board[2]), [list(b) for b in board[3]],
                     [list(b) for b in board[4]], [list(p) for p in board[5]], list(board[6]), list(board[7]))


def below(getrandbits, n: int) -> int:
    """A uniform draw in [0, n): what ``random.Random.randrange(n)`` draws, the same way."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def _shuffle_fast(rng: random.Random, cards: list) -> None:
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        # ``below`` written in: a shuffle is most of the cost of setting up a game
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _same_draws() -> bool:
    """Whether ``below`` and the shuffle above draw as this Python's ``random``
    does (they do in every version this project supports; checked, not assumed)."""
    ours, theirs = random.Random(8), random.Random(8)
    if any(below(ours.getrandbits, n) != theirs.randrange(n) for n in list(range(1, 70)) * 3):
        return False
    mine, reference = list(range(60)), list(range(60))
    _shuffle_fast(ours, mine)
    theirs.shuffle(reference)
    return mine == reference


SAME_DRAWS = _same_draws()


def shuffle(rng: random.Random, cards: list) -> None:
    """``rng.shuffle(cards)``, faster: the same draws, so the same order."""
    if SAME_DRAWS:
        _shuffle_fast(rng, cards)
    else:  # pragma: no cover - another Python's random module
        rng.shuffle(cards)


def initial_state(tables, seed: int) -> GameState:
    """Setup (rulebook: Set Up): tokens on the tracks and in the bonus boxes, decks shuffled."""
    rng = random.Random(seed)
    n_spaces, n_zones = len(tables.spaces), len(tables.zones)
    strategy = list(range(len(tables.strategy_cards)))
    objectives = list(range(len(tables.objective_cards)))
    shuffle(rng, strategy)
    shuffle(rng, objectives)
    return GameState(
        tokens=[[0] * n_spaces for _ in range(2)], pool=[0, 0], track=[tables.track_size] * 2,
        boxes=[[z.box for z in tables.zones] for _ in range(2)], markers=[NOBODY] * len(tables.markers),
        vp=[0, 0], breached=[[False] * n_zones for _ in range(2)], breach_order=[[] for _ in range(n_zones)],
        pending_breaches=[[], []], strategy_deck=strategy, objective_deck=objectives, discard=[],
        removed_objectives=[], hands=[[], []], objective_offer=[[], []], objectives=[NOBODY, NOBODY],
        set_aside=[[], []], final_crisis_order=[[], []], round=1, phase="deal", plays=[0, 0], leader=0,
        last_play=None, final_crisis_step=0, result=None, rng=rng)
