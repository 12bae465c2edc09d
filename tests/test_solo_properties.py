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

from crisis.interpreter.designer.invariants import check_transition, counters_logged
from crisis.interpreter.engine.automa import Automa
from crisis.interpreter.engine.board import Board
from crisis.interpreter.engine.game import Game, Options

MAX_ACTIONS = 2000
SIDES = st.sampled_from(["Unionist", "Secessionist"])
LEVELS = st.sampled_from(["normal", "hard", "challenge"])


@settings(max_examples=15)
@given(seed=st.integers(0, 2**31), opponent=SIDES, difficulty=LEVELS, data=st.data())
def test_random_solo_games_keep_the_invariants_and_end(content, seed, opponent, difficulty, data):
    game = Game.of(content, seed, Options(solo=opponent, difficulty=difficulty))
    program = game.program
    solo = game.automa.side
    for _ in range(MAX_ACTIONS):
        if game.over:
            break
        decision = game.decision
        assert decision.player != solo, "the solo opponent's own choices are made by the engine"
        assert decision.actions
        index = data.draw(st.integers(0, len(decision.actions) - 1), label=f"choice at {decision.kind}")
        before, log_start = game.position.copy(), len(game.log)
        game.apply(decision.actions[index])
        problems = check_transition(program, before, game.position, counters_logged(program, game.log, log_start))
        assert not problems, problems
        for entry in game.log[log_start:]:
            if entry.key == "log.solo.choice":
                assert entry.params["parts"], "a choice of the solo opponent says why"
    assert game.over, "the game did not end"
    assert game.result.winner in (0, 1)


def _hide_differently(program, position, player: int, rng: random.Random):
    """The same position as the solo opponent may see it, with everything hidden from it changed:
    the player's hand and set-aside cards and the deck dealt again, another objective for the player."""
    other = position.copy()
    layout = program.layout
    hand, aside = layout.pile(program.pile_number["hand"], player), layout.pile(program.pile_number["set aside"], player)
    deck = layout.pile(program.pile_number["strategy deck"])
    pool = list(other.piles[deck]) + other.piles[hand] + other.piles[aside]
    rng.shuffle(pool)
    n_hand, n_aside = len(other.piles[hand]), len(other.piles[aside])
    other.piles[hand] = pool[:n_hand]
    other.piles[aside] = pool[n_hand:n_hand + n_aside]
    other.piles[deck] = pool[n_hand + n_aside:]
    kept = layout.pile(program.pile_number["objective"], player)
    if other.piles[kept]:
        objectives = program.cards[program.kind_index["objective cards"]].ids
        taken = {card for number, pile in enumerate(program.schema.piles) if pile.kind == "objective cards"
                 for side in (range(layout.sides) if pile.each_side else (0,))
                 for card in other.piles[layout.pile(number, side)]}
        free = [o for o in range(len(objectives)) if o not in taken and o not in other.piles[kept]]
        if free:
            other.piles[kept] = [rng.choice(free)]
    return other


@settings(max_examples=10)
@given(seed=st.integers(0, 2**31), opponent=SIDES, data=st.data())
def test_the_opponent_reads_no_hidden_information(content, seed, opponent, data):
    game = Game.of(content, seed, Options(solo=opponent))
    checked = []
    real_choose = Automa.choose
    rng = random.Random(seed)

    def checking_choose(self, board, decision, explain=True):
        if explain and board.position.view != self.side:  # a real choice of the real game
            program = board.program
            as_is = Board(program, board.position.copy(), None, self, board.options)
            changed = Board(program, _hide_differently(program, board.position, self.player, rng), None, self,
                            board.options)
            first = real_choose(self, as_is, decision, explain=False)
            second = real_choose(self, changed, decision, explain=False)
            assert first.text == second.text, f"the choice at {decision.kind} changed with hidden cards"
            checked.append(decision.kind)
        return real_choose(self, board, decision, explain)

    Automa.choose = checking_choose
    try:
        bot = random.Random(seed)
        for _ in range(MAX_ACTIONS):
            if game.over:
                break
            actions = game.decision.actions
            game.apply(actions[bot.randrange(len(actions))])
    finally:
        Automa.choose = real_choose
    assert game.over and checked, "the solo opponent made choices, each checked"
