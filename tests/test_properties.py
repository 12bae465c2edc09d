"""Invariants over random games: after every action, whatever the players choose.

- each side's 25 tokens are all accounted for (map, pool, track, boxes);
- no side has more than 4 tokens in a space;
- a space holding the Peace Commissioner gains or loses no token;
- VP change only through a rule that says so (each change is logged with its reason);
- every game ends, with a winner.
"""

from hypothesis import given, strategies as st

from crisis.interpreter.game import Game, Options
from crisis.interpreter.invariants import check_transition, vp_logged

MAX_ACTIONS = 2000


@given(seed=st.integers(0, 2**31), event_discard=st.booleans(), data=st.data())
def test_random_games_keep_the_invariants_and_end(content, seed, event_discard, data):
    game = Game(content, seed, Options(event_discard=event_discard))
    for _ in range(MAX_ACTIONS):
        if game.over:
            break
        decision = game.decision
        assert decision.actions, "a decision must offer at least one action"
        assert len({a.text.lower() for a in decision.actions}) == len(decision.actions), \
            "action texts must be unique within a decision"
        index = data.draw(st.integers(0, len(decision.actions) - 1), label=f"choice at {decision.kind}")
        before, log_start = game.state.copy(), len(game.log)
        game.apply(decision.actions[index])
        problems = check_transition(game.tables, before, game.state, vp_logged(game, log_start))
        assert not problems, problems
    assert game.over, "the game did not end"
    assert game.result.winner in (0, 1)
    assert game.state.phase == "game_over"


@given(seed=st.integers(0, 2**31), data=st.data())
def test_every_legal_action_text_applies_to_the_same_action(content, seed, data):
    """The text notation of an action, typed back, selects that same action."""
    game = Game(content, seed)
    for _ in range(60):
        if game.over:
            break
        decision = game.decision
        index = data.draw(st.integers(0, len(decision.actions) - 1))
        chosen = decision.actions[index]
        assert decision.find(chosen.text.upper()) is chosen
        game.apply(chosen.text)


def test_all_is_bounded_even_between_overlapping_places(content):
    """Loops in the language are bounded: "all" counts the tokens there when it starts."""
    from crisis.interpreter.compile import Compiler, Ctx, Executor
    from crisis.interpreter.tables import tables_for
    from crisis.interpreter.state import initial_state
    from crisis.ruleset.parser import parse_block
    tables = tables_for(content)
    state = initial_state(tables, 1)
    texas, washington = tables.space_index["Texas"], tables.space_index["Washington"]
    state.tokens[0][texas], state.tokens[0][washington], state.track[0] = 2, 1, state.track[0] - 3
    op = Compiler(tables).block(parse_block("move all tokens from Texas or Washington to Texas or Washington"))
    run = op.run(Executor(tables, state), Ctx(0))
    steps = 0
    decision = next(run, None)
    while decision is not None:
        steps += 1
        assert steps <= 3, "the move of all tokens never ended"
        try:
            decision = run.send(decision.actions[0])
        except StopIteration:
            decision = None
    assert state.tokens[0][texas] + state.tokens[0][washington] == 3
