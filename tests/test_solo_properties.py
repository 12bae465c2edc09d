"""The solo game over random games (docs/solo.md), whatever the player chooses:

- after every action of the player the invariants hold (25 tokens a side, at most 4 in a space, no
  token moves under the Peace Commissioner, VP change only through logged rules);
- the solo opponent is never asked for its own choices, and every choice it makes says why;
- every game ends, with a winner;
- the solo opponent reads no hidden information: at each of its choices, giving the player another
  hand, other set-aside cards, another objective card and another deck order does not change it.
"""

import random

from hypothesis import given, settings, strategies as st

from crisis.interpreter.compile import Executor
from crisis.interpreter.game import Game, Options
from crisis.interpreter.invariants import check_transition, vp_logged
from crisis.interpreter.solo import SoloOpponent
from crisis.interpreter.state import NOBODY

MAX_ACTIONS = 2000
SIDES = st.sampled_from(["Unionist", "Secessionist"])
LEVELS = st.sampled_from(["normal", "hard", "challenge"])


@settings(max_examples=15)
@given(seed=st.integers(0, 2**31), opponent=SIDES, difficulty=LEVELS, data=st.data())
def test_random_solo_games_keep_the_invariants_and_end(content, seed, opponent, difficulty, data):
    game = Game(content, seed, Options(solo=opponent, difficulty=difficulty))
    solo = game.solo.side
    for _ in range(MAX_ACTIONS):
        if game.over:
            break
        decision = game.decision
        assert decision.player != solo, "the solo opponent's own choices are made by the engine"
        assert decision.actions
        index = data.draw(st.integers(0, len(decision.actions) - 1), label=f"choice at {decision.kind}")
        before, log_start = game.state.copy(), len(game.log)
        game.apply(decision.actions[index])
        problems = check_transition(game.tables, before, game.state, vp_logged(game, log_start))
        assert not problems, problems
        for entry in game.log[log_start:]:
            if entry.key == "log.solo.choice":
                assert entry.params["parts"], "a choice of the solo opponent says why"
    assert game.over, "the game did not end"
    assert game.result.winner in (0, 1)


def _hide_differently(state, player: int, rng: random.Random, n_objectives: int):
    """The same position as the solo opponent may see it, with everything hidden from it changed."""
    other = state.copy()
    pool = list(other.strategy_deck) + other.hands[player] + other.set_aside[player]
    rng.shuffle(pool)
    n_hand, n_aside = len(other.hands[player]), len(other.set_aside[player])
    other.hands[player] = pool[:n_hand]
    other.set_aside[player] = pool[n_hand:n_hand + n_aside]
    other.strategy_deck = pool[n_hand + n_aside:]
    if other.objectives[player] != NOBODY:
        taken = {o for o in other.objectives if o != NOBODY} | set(other.removed_objectives)
        free = [o for o in range(n_objectives) if o not in taken]
        if free:
            other.objectives[player] = rng.choice(free)
    return other


@settings(max_examples=10)
@given(seed=st.integers(0, 2**31), opponent=SIDES, data=st.data())
def test_the_opponent_reads_no_hidden_information(content, seed, opponent, data):
    game = Game(content, seed, Options(solo=opponent))
    checked = []
    real_choose = SoloOpponent.choose
    rng = random.Random(seed)

    def checking_choose(self, ex, decision, explain=True):
        if explain and ex.state.view != self.side:  # a real choice of the real game
            as_is = Executor(ex.tables, ex.state.copy(), None, self)
            changed = Executor(ex.tables, _hide_differently(ex.state, self.player, rng, len(ex.tables.objective_cards)), None, self)
            first = real_choose(self, as_is, decision, explain=False)
            second = real_choose(self, changed, decision, explain=False)
            assert first.text == second.text, f"the choice at {decision.kind} changed with hidden cards"
            checked.append(decision.kind)
        return real_choose(self, ex, decision, explain)

    SoloOpponent.choose = checking_choose
    try:
        bot = random.Random(seed)
        for _ in range(MAX_ACTIONS):
            if game.over:
                break
            actions = game.decision.actions
            game.apply(actions[bot.randrange(len(actions))])
    finally:
        SoloOpponent.choose = real_choose
    assert game.over and checked, "the solo opponent made choices, each checked"
