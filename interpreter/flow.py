"""The sequence of play (rulebook: Game Play, Sequence of Actions Each Round).

The order of steps is fixed here; what each step does is content: card
events, breach effects, the pivotal bonus, scoring and the Final Crisis
procedures are compiled rules.  Each phase is a generator that yields
``Decision``s; a game (or a scenario) may start at the start of any phase,
because every phase reads where it is from the state.
"""

from __future__ import annotations

from .actions import Action, Decision
from .compile import Ctx, Executor
from .state import NOBODY, LastPlay, Result, shuffle


def run(ex: Executor, options):
    """The whole game from the current phase; returns when it is over."""
    st = ex.state
    while st.phase != "game_over":
        yield from PHASES[st.phase](ex, options)


# ------------------------------------------------------------------ cards


def draw_strategy(ex: Executor) -> int:
    """The top card of the strategy deck, or NOBODY if there are none at all.

    When the deck runs out, the played cards are shuffled into a new deck
    (docs/rulings.md, "An empty deck").
    """
    st = ex.state
    if not st.strategy_deck and st.discard:
        st.strategy_deck = st.discard
        st.discard = []
        shuffle(st.rng, st.strategy_deck)
        if ex.log is not None:
            ex.emit("log.reshuffle")
    if not st.strategy_deck:
        return NOBODY
    return st.strategy_deck.pop()


def deal(ex: Executor, options) -> None:
    st, t, solo = ex.state, ex.tables, ex.solo
    st.reveals += 1
    order = ex.order()
    for side in order:
        # solo rulebook, step 1: the content says how many cards each role is dealt
        count = solo.dealt(side) if solo is not None else t.board.strategy_cards_dealt
        for _ in range(count):
            card = draw_strategy(ex)
            if card != NOBODY:
                st.hands[side].append(card)
    for side in order if solo is None else ():  # the solo game draws its objectives face up, later
        for _ in range(t.board.objective_cards_dealt):
            if st.objective_deck:
                st.objective_offer[side].append(st.objective_deck.pop())
    if ex.log is not None:
        ex.emit("log.round", round=st.round)
    st.phase = "objectives"


def choose_objectives(ex: Executor, options):
    """Each player keeps one objective and shuffles the rest back, unseen."""
    st, t = ex.state, ex.tables
    if ex.solo is not None:
        yield from shared_objectives(ex)
        return
    for side in ex.order():
        offer = st.objective_offer[side]
        if not offer:
            continue
        if len(offer) == 1:
            kept = offer[0]
        else:
            action = yield Decision(side, "keep_objective", [t.keep_actions[card] for card in offer], hidden=True)
            kept = action.a
        st.objectives[side] = kept
        offer.remove(kept)
        st.objective_deck.extend(offer)
        offer.clear()
        shuffle(st.rng, st.objective_deck)
        if ex.log is not None:
            ex.emit("log.objective_kept", side=t.sides[side])
    st.phase = "card_play"
    st.plays = [0, 0]
    st.leader = ex.first_player()
    st.first_players.append(st.leader)
    st.last_play = None


def shared_objectives(ex: Executor):
    """solo rulebook, steps 2-3: objectives drawn face up (drawn again while they all lie in one
    dimension, if the content says so); the player keeps one, the solo opponent gets another."""
    st, t, solo = ex.state, ex.tables, ex.solo
    sequence = solo.rules.sequence
    dimension = lambda card: t.dimension_of[t.objective_space[card]]
    drawn = []
    for _ in range(100):  # bounded: a redraw needs another dimension still in the deck
        drawn = [st.objective_deck.pop() for _ in range(min(sequence.objectives_drawn, len(st.objective_deck)))]
        same = len(drawn) > 1 and len({dimension(c) for c in drawn}) == 1
        if not (sequence.redraw_same_dimension and same):
            break
        if len({dimension(c) for c in st.objective_deck + drawn}) < 2:
            break
        ex.emit("log.solo.objective_redraw", objectives=[t.objective_cards[c].id for c in drawn],
                dimension=t.dimensions[dimension(drawn[0])])
        st.objective_deck.extend(drawn)
        st.rng.shuffle(st.objective_deck)
    st.reveals += 1
    if drawn:
        ex.emit("log.solo.objectives_drawn", objectives=[t.objective_cards[c].id for c in drawn])
        actions = [t.keep_actions[c] for c in drawn]
        action = actions[0] if len(actions) == 1 else (yield Decision(solo.player, "assign_objective", actions))
        st.objectives[solo.player] = action.a
        rest = [c for c in drawn if c != action.a]
        if rest:
            st.objectives[solo.side] = rest[0]
            st.objective_deck.extend(rest[1:])
            ex.emit("log.solo.objectives_assigned", side=t.sides[solo.side], objective=t.objective_cards[rest[0]].id,
                    kept=t.objective_cards[action.a].id, player=t.sides[solo.player])
    st.phase = "card_play"
    st.plays = [0, 0]
    st.leader = ex.first_player()
    st.last_play = None


def play_actions(ex: Executor, side: int, options) -> list:
    st, t = ex.state, ex.tables
    actions = []
    choices = t.play_choices[side]
    for card in st.hands[side]:
        actions += choices[card]
    last = st.last_play
    if options.event_discard and last is not None and last.side != side:
        claimed = last.card
        # rulebook: Event Discard -- a card solely of my colour, just played by my opponent
        if t.usable_by[claimed][side] and not t.usable_by[claimed][1 - side] and t.card_events[claimed]:
            for card in st.hands[side]:
                if t.card_value[card] >= t.card_value[claimed]:
                    actions.append(Action("claim", f"claim {t.strategy_cards[claimed].id} discard "
                                                   f"{t.strategy_cards[card].id}", a=claimed, b=card))
    return actions


def card_play(ex: Executor, options):
    """Alternate card plays, the leader first, until each side has played its cards."""
    st, t = ex.state, ex.tables
    per_side = t.board.cards_played_per_round
    solo = ex.solo
    # the solo opponent holds no hand: it plays from the deck (solo rulebook, step 4)
    can_play = lambda side: bool(st.hands[side]) or (solo is not None and side == solo.side
                                                      and bool(st.strategy_deck or st.discard))
    while st.plays[0] < per_side or st.plays[1] < per_side:
        played = st.plays[0] + st.plays[1]
        side = st.leader if played % 2 == 0 else 1 - st.leader
        if st.plays[side] >= per_side or not can_play(side):
            side = 1 - side
            if st.plays[side] >= per_side or not can_play(side):
                break  # neither side can play (only with a short deck)
        if solo is not None and side == solo.side:
            yield from solo.rules.turn.run(ex, Ctx(side, reason="solo_turn"))
        else:
            actions = play_actions(ex, side, options)
            action = actions[0] if len(actions) == 1 else (yield Decision(side, "play_card", actions, False, 0, True))
            # the play is not a generator of its own: one less to resume at each of its decisions
            yield from start_play(ex, side, action)
            end_play(ex, side, action)
        if st.pending_breaches[0] or st.pending_breaches[1]:
            yield from resolve_breaches(ex, side)
        st.plays[side] += 1
    # marks where the round's end begins in the log (front-ends show it as one screen)
    if ex.log is not None:
        ex.emit("log.card_play_over", round=st.round)
    for side in (0, 1):
        st.set_aside[side].extend(st.hands[side])
        if st.hands[side]:
            if ex.log is not None:
                ex.emit("log.set_aside", side=t.sides[side], n=len(st.hands[side]))
        st.hands[side] = []
    st.phase = "pivotal"


def start_play(ex: Executor, side: int, action: Action):
    """A card played for its value, its event, or claimed (Event Discard): it leaves the hand;
    returns the decisions its value or event asks (an iterator; ``end_play`` follows it)."""
    st, t = ex.state, ex.tables
    card = action.a
    if action.kind == "claim":
        st.hands[side].remove(action.b)
        st.discard.append(action.b)
        st.discard.remove(card)
        if ex.log is not None:
            ex.emit("log.claim", side=t.sides[side], card=t.strategy_cards[card].id,
                    discarded=t.strategy_cards[action.b].id)
    else:
        st.hands[side].remove(card)
    st.reveals += 1
    ctx = t.play_ctx[side][card]
    if action.kind == "value":
        if ex.log is not None:
            ex.emit("log.play_value", side=t.sides[side], card=ctx.reason, n=t.card_value[card])
        return t.value_play.run(ex, ctx)
    if ex.log is not None:
        ex.emit("log.play_event", side=t.sides[side], card=ctx.reason)
    return t.card_events[card].run(ex, ctx)


def end_play(ex: Executor, side: int, action: Action) -> None:
    """The played card goes to the discard pile and becomes the last play."""
    st = ex.state
    st.discard.append(action.a)
    st.last_play = LastPlay(side, action.a, action.kind)
    st.played.append(st.last_play)


def resolve_breaches(ex: Executor, active: int):
    """rulebook: Crisis Zones -- when a play ends, each newly breached zone, in
    track order, gives its bonus; the active player's breaches come first."""
    st, t = ex.state, ex.tables
    for side in (active, 1 - active):
        pending = st.pending_breaches[side]
        while pending:
            # Escalation > Tension > Final Crisis
            zone = pending[0] if len(pending) == 1 else min(pending, key=lambda z: -t.zones[z].top)
            pending.remove(zone)
            order = st.breach_order[zone]
            first = not order
            order.append(side)
            if ex.log is not None:
                ex.emit("log.breach", side=t.sides[side], zone=t.zones[zone].name,
                        nth="first" if first else "second")
            effects = t.breach_effects.get(zone)
            if effects is not None:
                effect = effects[0] if first else effects[1]
                yield from effect.run(ex, t.breach_ctx[side][zone])


def pivotal(ex: Executor, options):
    """rulebook: Pivotal Space Bonus -- the first player, then the other, once
    per pivotal space controlled when its turn comes (the player picks the order)."""
    st, t = ex.state, ex.tables
    for side in ex.order():
        used = set()
        while True:
            mine, theirs = st.tokens[side], st.tokens[1 - side]  # control, as Executor.controls has it
            dims = [d for d, space in enumerate(t.pivotal) if d not in used and mine[space] > theirs[space]]
            if not dims:
                break
            opponent = ex.solo is not None and side == ex.solo.side
            if len(dims) == 1:
                dim = dims[0]
            else:
                # solo rulebook: "You determine the order ... for the Solo Opponent's bonus actions"
                chooser = ex.solo.bonus_orderer() if opponent else side
                action = yield Decision(chooser, "bonus", [t.bonus_actions[d] for d in dims], False, 0,
                                        on_behalf=side if chooser != side else -1)
                dim = t.dimension_of[action.a]
            used.add(dim)
            if ex.log is not None:
                ex.emit("log.bonus", side=t.sides[side], space=t.spaces[t.pivotal[dim]])
            yield from (ex.solo.rules.pivotal_bonus if opponent else t.pivotal_bonus).run(ex, t.bonus_ctx[side][dim])
            if st.pending_breaches[0] or st.pending_breaches[1]:
                yield from resolve_breaches(ex, side)
    st.phase = "scoring"


def scoring(ex: Executor, options):
    """rulebook: Crisis Dimension Scoring, Objective Card Scoring."""
    st, t = ex.state, ex.tables
    for side in ex.order():
        yield from t.dimension_scoring.run(ex, Ctx(side, reason="dimension_scoring"))
    kept = [(side, st.objectives[side]) for side in (0, 1) if st.objectives[side] != NOBODY]
    revealed = tuple(t.objective_space[card] for _, card in kept)
    if kept:
        st.reveals += 1
        for side, card in kept:
            if ex.log is not None:
                ex.emit("log.objective_revealed", side=t.sides[side], objective=t.objective_cards[card].id,
                        space=t.spaces[t.objective_space[card]])
    objective_scoring = t.objective_scoring
    if ex.solo is not None and ex.solo.rules.objective_scoring is not None:
        objective_scoring = ex.solo.rules.objective_scoring  # solo rulebook, step 8
    for side in ex.order():
        yield from objective_scoring.run(ex, Ctx(side, revealed=revealed, reason="objective_scoring"))
    # who earns an objective event is settled before any event changes the map
    earned = [side for side in ex.order()
              if st.objectives[side] != NOBODY and ex.controls(side, t.objective_space[st.objectives[side]])]
    for side in earned:
        card = st.objectives[side]
        event = t.objective_events[card]
        if event is None:
            continue
        if ex.log is not None:
            ex.emit("log.objective_event", side=t.sides[side], objective=t.objective_cards[card].id)
        ctx = Ctx(side, space=t.objective_space[card], revealed=revealed,
                  reason=f"objective:{t.objective_cards[card].id}")
        yield from event.run(ex, ctx)
        if st.pending_breaches[0] or st.pending_breaches[1]:
            yield from resolve_breaches(ex, side)
    for side, card in kept:
        st.objective_outcomes.append((st.round, side, card, side in earned))
        st.removed_objectives.append(card)
        st.objectives[side] = NOBODY
    st.phase = "round_end"


def round_end(ex: Executor, options):
    """rulebook: Final Crisis -- after a round in which both Final Crisis zones
    were breached, or after the last round."""
    st, t = ex.state, ex.tables
    if st.round >= t.board.rounds or t.final_crisis_trigger(ex, Ctx(0), NOBODY):
        st.phase = "final_crisis"
    else:
        st.round += 1
        st.phase = "deal"
    return
    yield


def final_crisis(ex: Executor, options):
    st, t = ex.state, ex.tables
    if ex.log is not None:
        ex.emit("log.final_crisis")
    st.first_players.append(ex.first_player())
    if t.final_crisis_start is not None:
        yield from t.final_crisis_start.run(ex, Ctx(ex.first_player(), reason="final_crisis"))
    size = t.board.final_crisis_hand
    for side in (0, 1):
        st.hands[side].extend(st.set_aside[side])
        st.set_aside[side] = []
    if any(len(st.hands[side]) < size for side in (0, 1)):
        st.reveals += 1
        for side in ex.order():
            while len(st.hands[side]) < size:
                card = draw_strategy(ex)
                if card == NOBODY:
                    break
                st.hands[side].append(card)
    st.phase = "final_crisis_order"


def final_crisis_order(ex: Executor, options):
    """Each player secretly orders his Final Crisis cards, first on top: he
    picks the card he will reveal first, then the next, and so on; the last
    card left goes last without asking.  A choice per card keeps the work
    bounded for any hand (a whole order at once would be n! choices), and a
    position may stop half-way through an order (the cards already placed are
    in ``final_crisis_order``, the rest still in the hand)."""
    st, t = ex.state, ex.tables
    for side in ex.order():
        hand = st.hands[side]
        if not hand:
            continue
        if ex.solo is not None and side == ex.solo.side:
            # solo rulebook: Final Crisis -- drawn face down, played in the order drawn
            st.final_crisis_order[side].extend(hand)
            hand.clear()
            ex.emit("log.solo.final_crisis_cards", side=t.sides[side], n=len(st.final_crisis_order[side]))
            continue
        order = st.final_crisis_order[side]
        while len(hand) > 1:
            actions = [t.order_actions[card] for card in sorted(hand, key=t.card_rank.__getitem__)]
            action = yield Decision(side, "order", actions, remaining=len(hand), hidden=True)
            hand.remove(action.a)
            order.append(action.a)
        order.append(hand.pop())
        if ex.log is not None:
            ex.emit("log.order_chosen", side=t.sides[side])
    st.final_crisis_step = 0
    st.phase = "final_crisis_reveal"


def final_crisis_reveal(ex: Executor, options):
    """Reveal the cards pair by pair; matching dimensions cost tokens,
    different ones let each player move tokens into his card's dimension."""
    st, t = ex.state, ex.tables
    steps = min(len(st.final_crisis_order[0]), len(st.final_crisis_order[1]))
    while st.final_crisis_step < steps:
        k = st.final_crisis_step
        cards = (st.final_crisis_order[0][k], st.final_crisis_order[1][k])
        dims = (t.card_dimension[cards[0]], t.card_dimension[cards[1]])
        st.reveals += 1
        if ex.log is not None:
            ex.emit("log.final_crisis_reveal", step=k + 1,
                    card0=t.strategy_cards[cards[0]].id, dimension0=t.dimensions[dims[0]],
                    card1=t.strategy_cards[cards[1]].id, dimension1=t.dimensions[dims[1]])
        matching = dims[0] == dims[1]
        for side in ex.order():
            procedure = t.final_crisis_matching if matching else t.final_crisis_not_matching
            if ex.solo is not None and side == ex.solo.side:
                rules = ex.solo.rules
                procedure = rules.final_crisis_matching if matching else rules.final_crisis_not_matching
            yield from procedure.run(ex, t.final_crisis_ctx[side][dims[side]])
            if st.pending_breaches[0] or st.pending_breaches[1]:
                yield from resolve_breaches(ex, side)
        st.final_crisis_step = k + 1
    st.phase = "final_scoring"


def final_scoring(ex: Executor, options):
    """rulebook: Final Crisis Scoring, and the tie-breaks."""
    st, t = ex.state, ex.tables
    result = Result(winner=NOBODY)
    for index, (label, rule) in enumerate(t.final_scoring):
        for side in ex.order():
            before = st.vp[side]
            yield from rule.run(ex, t.final_scoring_ctx[side][index])
            result.breakdown[side].append((label, st.vp[side] - before))
    if st.vp[0] != st.vp[1]:
        result.winner = 0 if st.vp[0] > st.vp[1] else 1
    else:
        tie_breaks = t.tie_breaks
        if ex.solo is not None and ex.solo.rules.tie_breaks is not None:
            tie_breaks = ex.solo.rules.tie_breaks  # solo rulebook: Game End
        for index, rule in enumerate(tie_breaks):
            holds = [rule(ex, Ctx(side), NOBODY) for side in (0, 1)]
            if holds[0] != holds[1]:
                result.winner = 0 if holds[0] else 1
                result.tie_break = index
                break
        else:
            result.winner = 0  # no tie-break decided: the content's tie-breaks should prevent this
    st.result = result
    if ex.log is not None:
        # the winner's VP first: "X wins, 8 VP to 3 VP", whichever side X is
        ex.emit("log.game_over", winner=t.sides[result.winner], vp0=st.vp[result.winner],
                vp1=st.vp[1 - result.winner], tie_break=result.tie_break)
    st.phase = "game_over"


PHASES = {
    "deal": lambda ex, options: _no_decisions(deal, ex, options),
    "objectives": choose_objectives,
    "card_play": card_play,
    "pivotal": pivotal,
    "scoring": scoring,
    "round_end": round_end,
    "final_crisis": final_crisis,
    "final_crisis_order": final_crisis_order,
    "final_crisis_reveal": final_crisis_reveal,
    "final_scoring": final_scoring,
}


def _no_decisions(step, ex, options):
    step(ex, options)
    return
    yield
