"""Invariants over random games: after every action, whatever the players choose.

- each side's 25 tokens are all accounted for (map, pool, track, boxes);
- no side has more than 4 tokens in a space;
- a space holding the Peace Commissioner gains or loses no token;
- VP change only through a rule that says so (each change is logged with its reason);
- every card lies in exactly one pile;
- every game ends, with a winner.
"""

from hypothesis import given, strategies as st

from crisis.interpreter.designer.invariants import check_transition, counters_logged
from crisis.interpreter.engine.game import Game, Options
from crisis.interpreter.engine.machine import Machine
from crisis.interpreter.engine.ops import Ctx

from helpers import resolved
from crisis.interpreter.engine.program import program_of

MAX_ACTIONS = 2000


@given(seed=st.integers(0, 2**31), event_discard=st.booleans(), data=st.data())
def test_random_games_keep_the_invariants_and_end(content, seed, event_discard, data):
    game = Game.of(content, seed, Options(frozenset({"event_discard"}) if event_discard else frozenset()))
    program = game.program
    for _ in range(MAX_ACTIONS):
        if game.over:
            break
        decision = game.decision
        assert decision.actions, "a decision must offer at least one action"
        assert len({a.text.lower() for a in decision.actions}) == len(decision.actions), \
            "action texts must be unique within a decision"
        index = data.draw(st.integers(0, len(decision.actions) - 1), label=f"choice at {decision.kind}")
        before, log_start = game.position.copy(), len(game.log)
        game.apply(decision.actions[index])
        problems = check_transition(program, before, game.position, counters_logged(program, game.log, log_start))
        assert not problems, problems
    assert game.over, "the game did not end"
    assert game.result.winner in (0, 1)
    assert game.legal_actions() == []


@given(seed=st.integers(0, 2**31), data=st.data())
def test_every_legal_action_text_applies_to_the_same_action(content, seed, data):
    """The text notation of an action, typed back, selects that same action."""
    game = Game.of(content, seed)
    for _ in range(60):
        if game.over:
            break
        decision = game.decision
        index = data.draw(st.integers(0, len(decision.actions) - 1))
        chosen = decision.actions[index]
        assert decision.find(chosen.text.upper()) is chosen
        assert game.apply(chosen.text).text == chosen.text


def test_all_is_bounded_even_between_overlapping_places(content):
    """Loops in the language are bounded: "all" counts the tokens there when it starts."""
    program = program_of(content)
    rule = program.compiler.block(resolved(content.definition,
                                           "move all tokens from Texas or Washington to Texas or Washington"))
    game = Game.of(content, 1, log=False)
    position = game.position.copy()
    layout, places = program.layout, program.schema.map.places
    texas, washington = places.index("Texas"), places.index("Washington")
    tokens = layout.tokens_of(0)
    position.values[tokens + texas], position.values[tokens + washington] = 2, 1
    position.values[layout.track_of(0, 0)] -= 3  # the three tokens come off the first side's track
    machine = Machine(program, position, base=len(position.stack))
    decision = machine.start(rule, Ctx(0))
    steps = 0
    while decision is not None:
        steps += 1
        assert steps <= 3, "the move of all tokens never ended"
        decision = machine.answer(decision.actions[0])
    assert position.values[tokens + texas] + position.values[tokens + washington] == 3
