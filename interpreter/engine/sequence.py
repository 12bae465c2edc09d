"""The sequence of play's operations: steps, loops, turns, and what is done with cards.

Every loop keeps its progress in its frame or in the position's counters and
piles, so a game (or a scenario) may stand at any point of it.
"""

from __future__ import annotations

from typing import NoReturn

from crisis.interpreter.actions import Decision
from crisis.ruleset import limits
from crisis.ruleset import meaning as M
from crisis.ruleset.limits import MAX_REPEATS  # noqa: F401 - read from limits when a loop runs

from .layout import AT_ONCE, NOBODY
from .ops import LOOP_HINT, WAITING, Op, RuleWorkError, Stopped, Won, call, play, spend
from .position import note


class SequenceCompiler:
    """The compiler's methods for the statements of the sequence of play (see compiler.Compiler)."""

    def op_Step(self, node: M.Step):
        return self.register(StepOp(node.name, self.block(node.body), node))

    def op_ForEachCounter(self, node: M.ForEachCounter):
        return self.register(ForEachCounterOp(node.counter, self.block(node.body), node))

    def op_Repeat(self, node: M.Repeat):
        return self.register(RepeatOp(self.condition(node.condition), self.block(node.body), node))

    def op_Stop(self, node: M.Stop):
        return self.register(StopOp(node))

    def op_Alternate(self, node: M.Alternate):
        return self.register(AlternateOp(node.first, node.n, node.counter, self.block(node.body), node))

    def op_ForEachPlace(self, node: M.ForEachPlace):
        chooser = {"you": None, "opponent": "opponent"}.get(node.chooser, node.chooser)
        return self.register(ForEachPlaceOp(self.places(node.places), self.block(node.body), chooser,
                                            node.action or "choose", node))

    def op_Draw(self, node: M.Draw):
        return self.register(DrawOp(self.pile(node.source), node.source.pile, self.pile(node.dest), node.n,
                                    node.until, node))

    def op_Shuffle(self, node: M.Shuffle):
        return self.register(ShuffleOp(self.pile(node.pile), self.pile(node.into) if node.into else None, node))

    def op_Put(self, node: M.Put):
        return self.register(PutOp(self.pile_sides(node.source), self.pile_sides(node.dest), node))

    def op_Reveal(self, node: M.Reveal):
        return self.register(RevealOp([self.pile_sides(p) for p in node.piles], [p.pile for p in node.piles],
                                      node.current, node))

    def op_Discard(self, node: M.Discard):
        return self.register(DiscardOp(self.card(node.card), node))

    def op_Play(self, node: M.Play):
        return self.register(PlayOp(self.pile(node.source), node))

    def op_Keep(self, node: M.Keep):
        return self.register(KeepOp(self.pile(node.source), self.pile(node.dest), node.n, node.noun,
                                    self.program.kind_index[self.schema.piles[node.dest.pile].kind], node,
                                    node.verb, node.random))

    def op_Order(self, node: M.Order):
        return self.register(OrderOp(self.pile(node.source), self.pile(node.dest),
                                     self.program.kind_index[self.schema.piles[node.dest.pile].kind], node))

    def op_CarryOut(self, node: M.CarryOut):
        bind = self.card(node.bind) if node.bind is not None else None
        bind_kind = self.card_kind(node.bind) if node.bind is not None else -1
        if node.procedure >= 0:
            return self.register(ProcedureOp(node.procedure, bind, bind_kind, node))
        return self.register(CardRuleOp(self.card(node.card), self.card_kind(node.card), node.field, node))

    def op_Score(self, node: M.Score):
        return self.register(ScoreOp(node.procedure, node.counter, node))

    def op_Resolve(self, node: M.Resolve):
        return self.register(ResolveOp(node.track, node))

    def op_Win(self, node: M.Win):
        return self.register(WinOp(node.counter, node.ties, node))

    def op_Forget(self, node: M.Forget):
        return self.register(ForgetOp(node))


# ------------------------------------------------------------------ steps and loops


class StepOp(Op):
    """A named step: where a game may start, and what the log marks."""

    def __init__(self, name: str, body: Op, node=None):
        self.name, self.body, self.node = name, body, node

    def carries_out(self, program):
        rules = program.automa_rules
        return (self.body,) + (tuple(rules.steps.get(self.name, {}).values()) if rules is not None else ())

    def body_for(self, board, side: int):
        """The step's rules for this side: the solo game's, where its overlay replaces them."""
        solo = board.solo
        if solo is not None:
            replaced = solo.step(self.name, side)
            if replaced is not None:
                return replaced
        return self.body

    def step(self, machine, frame):
        if frame[2]:
            machine.stack.pop()
            return None
        frame[2] = 1
        board = machine.board
        if board.log is not None:
            board.emit("log.step", step=self.name, counters=game_counters(board))
        call(machine, self.body_for(board, frame[1].me), frame[1])
        return None

    def can_act(self, board, ctx):
        return self.body_for(board, ctx.me).can_act(board, ctx)

    def play(self, board, ctx, choose):
        if board.log is not None:
            board.emit("log.step", step=self.name, counters=game_counters(board))
        play(self.body_for(board, ctx.me), board, ctx, choose)


def game_counters(board) -> dict:
    """The counters kept for the game (not per side), by name, as they stand: what a log entry
    of a step carries (the round it is in)."""
    schema, layout, values = board.program.schema, board.layout, board.values
    return {counter.name: values[layout.counter[i]] for i, counter in enumerate(schema.counters)
            if not counter.each_side}


def seen_by_all(board, pile: int) -> bool:
    return board.program.schema.piles[pile].seen_by == "everyone"


def card_ids(board, pile: int, cards) -> list:
    """The ids of cards of a pile (for the log)."""
    program = board.program
    return [program.card_id(program.kind_index[program.schema.piles[pile].kind], card) for card in cards]


class ForEachCounterOp(Op):
    """"for each round:": the body once for each value of the counter, from where it stands to
    its highest; "stop" ends it early.  It goes round at most once per value the counter can
    have: a body that sets the counter back stops the game (docs/limits.md)."""

    loop = True

    def __init__(self, counter: int, body: Op, node=None):
        self.counter, self.body, self.node = counter, body, node

    def carries_out(self, program):
        return (self.body,)

    def passes(self, program) -> int:
        declared = program.schema.counters[self.counter]
        return max(declared.high - declared.low + 1, 1)

    def too_many(self, board) -> NoReturn:
        name = _counter_word(board.program.schema.counters[self.counter])
        passes = self.passes(board.program)
        raise RuleWorkError.at(board.program, self.node,
                               f"this loop went round {passes:,} times, once for each value {name} can have, "
                               f"and would go round again (something in it sets {name} back), "
                               f"so the game stops here", LOOP_HINT)

    # frame: [id, ctx, started, passes]
    def begin(self, machine, ctx):
        machine.stack.append([self.id, ctx, 0, 0])

    def step(self, machine, frame):
        board = machine.board
        if frame[2]:  # a pass of the body is over: the next value, if there is one
            offset = board.layout.counter[self.counter]
            if board.values[offset] >= board.program.schema.counters[self.counter].high:
                machine.stack.pop()
                return None
            board.values[offset] += 1
        frame[2] = 1
        if len(frame) < 4:  # a frame made where play was stood at a step (a scenario's): counted from here
            frame.append(0)
        frame[3] += 1
        if frame[3] > self.passes(board.program):
            self.too_many(board)
        if self.multiplies(board.program):
            spend(board, self.node)
        call(machine, self.body, frame[1])
        return None

    def can_act(self, board, ctx):
        return True

    def play(self, board, ctx, choose):
        offset = board.layout.counter[self.counter]
        high = board.program.schema.counters[self.counter].high
        for _ in range(self.passes(board.program)):
            if self.multiplies(board.program):
                spend(board, self.node)
            try:
                play(self.body, board, ctx, choose)
            except Stopped:
                return
            if board.values[offset] >= high:
                return
            board.values[offset] += 1
        self.too_many(board)


class RepeatOp(Op):
    """"repeat while ...:": the body while the condition holds, at most MAX_REPEATS times; a
    condition that still holds then stops the game (docs/limits.md)."""

    loop = True

    def __init__(self, condition, body: Op, node=None):
        self.condition, self.body, self.node = condition, body, node

    def carries_out(self, program):
        return (self.body,)

    def too_many(self, board) -> NoReturn:
        raise RuleWorkError.at(board.program, self.node,
                               f"this loop went round {limits.MAX_REPEATS:,} times, the most a 'repeat while' may, "
                               f"and its condition still holds, so the game stops here", LOOP_HINT)

    def step(self, machine, frame):
        # frame: [id, ctx, passes so far]
        board = machine.board
        if not self.condition(board, frame[1], NOBODY):
            machine.stack.pop()
            return None
        if frame[2] >= limits.MAX_REPEATS:
            self.too_many(board)
        frame[2] += 1
        if self.multiplies(board.program):
            spend(board, self.node)
        call(machine, self.body, frame[1])
        return None

    def can_act(self, board, ctx):
        return self.condition(board, ctx, NOBODY)

    def play(self, board, ctx, choose):
        for _ in range(limits.MAX_REPEATS):  # bounded: a rule may not keep the game going for ever
            if not self.condition(board, ctx, NOBODY):
                return
            if self.multiplies(board.program):
                spend(board, self.node)
            try:
                play(self.body, board, ctx, choose)
            except Stopped:
                return
        if self.condition(board, ctx, NOBODY):
            self.too_many(board)


LOOPS = (ForEachCounterOp, RepeatOp)


def _counter_word(counter) -> str:
    """What the rules call a counter (its first word, else its name)."""
    return counter.words[0] if counter.words else counter.name


class StopOp(Op):
    """"stop": leave the loop it stands in (every frame up to and including the loop's)."""

    def __init__(self, node=None):
        self.node = node

    def carries_out(self, program):
        return ()

    def begin(self, machine, ctx):
        stack, ops = machine.stack, machine.ops
        while len(stack) > machine.base:
            frame = stack.pop()
            if frame[0] >= 0 and isinstance(ops[frame[0]], LOOPS):
                return
        raise Stopped  # the loop is played in the direct form, below these frames

    def can_act(self, board, ctx):
        return True

    def play(self, board, ctx, choose):
        raise Stopped


class AlternateOp(Op):
    """"players alternate, the leader first, until each has 3 played cards": turn by turn,
    skipping a player who is done or can do nothing in a turn; over when nobody can.  At most N turns
    for each player: turns that set the counter back stop the game (docs/limits.md)."""

    loop = True

    def __init__(self, first: int, n: int, counter: int, body: Op, node=None):
        self.first, self.n, self.counter, self.body, self.node = first, n, counter, body, node

    def carries_out(self, program):
        return (self.body,)

    def turns(self, board) -> int:
        return max(self.n, 1) * board.sides

    def too_many(self, board) -> NoReturn:
        name = _counter_word(board.program.schema.counters[self.counter])
        raise RuleWorkError.at(board.program, self.node,
                               f"the players took {self.turns(board):,} turns, {self.n:,} each, and would take "
                               f"another (something in the turns sets {name} back), so the game stops here",
                               LOOP_HINT)

    # frame: [id, ctx, side whose turn is under way, or NOBODY; turns so far]
    def begin(self, machine, ctx):
        self.note_first(machine.board)
        if self.multiplies(machine.board.program):
            spend(machine.board, self.node, self.turns(machine.board))  # as many turns as it may take
        machine.stack.append([self.id, ctx, NOBODY, 0])

    def note_first(self, board) -> None:
        """The side that goes first (the register's, else the first side), for records."""
        leader = board.values[board.layout.register[self.first]]
        note(board, self.id, leader if leader >= 0 else 0)

    def step(self, machine, frame):
        board = machine.board
        counts = board.layout.counter[self.counter]
        values = board.values
        if frame[2] != NOBODY:  # a turn is over
            values[counts + frame[2]] += 1
            if board.log is not None:
                self.counted(board, frame[2])
            frame[2] = NOBODY
        sides = board.sides
        played = sum(values[counts + s] for s in range(sides))
        if all(values[counts + s] >= self.n for s in range(sides)):
            machine.stack.pop()
            return None
        leader = values[board.layout.register[self.first]]
        turn = (leader + played) % sides if leader >= 0 else played % sides
        for k in range(sides):
            side = (turn + k) % sides
            if values[counts + side] < self.n and self.can_take_turn(board, frame[1].as_side(side)):
                break
        else:
            machine.stack.pop()  # nobody can take a turn (only with a short deck)
            return None
        if len(frame) < 4:  # a frame made elsewhere (a scenario's): its turns counted from here
            frame.append(0)
        frame[3] += 1
        if frame[3] > self.turns(board):
            self.too_many(board)
        frame[2] = side
        call(machine, self.body, frame[1].as_side(side))
        return None

    def play(self, board, ctx, choose):
        self.note_first(board)
        counts = board.layout.counter[self.counter]
        values = board.values
        sides = board.sides
        most = self.turns(board)
        if self.multiplies(board.program):
            spend(board, self.node, most)
        for taken in range(most + 1):
            if all(values[counts + s] >= self.n for s in range(sides)):
                return
            played = sum(values[counts + s] for s in range(sides))
            leader = values[board.layout.register[self.first]]
            turn = (leader + played) % sides if leader >= 0 else played % sides
            for k in range(sides):
                side = (turn + k) % sides
                if values[counts + side] < self.n and self.can_take_turn(board, ctx.as_side(side)):
                    break
            else:
                return
            if taken == most:
                self.too_many(board)
            play(self.body, board, ctx.as_side(side), choose)
            values[counts + side] += 1
            if board.log is not None:
                self.counted(board, side)

    def counted(self, board, side: int) -> None:
        """The log's entry for a turn counted (a counter changes only as the log says)."""
        schema = board.program.schema
        board.emit("log.counter", counter=schema.counters[self.counter].name, side=schema.sides[side], n=1,
                   value=board.values[board.layout.counter[self.counter] + side], reason="")

    def can_take_turn(self, board, ctx) -> bool:
        """Whether a player can take a turn: some statement of it can be carried out.  (Not only
        its first: a turn that opens with a draw from an empty deck still has its marches and
        battles to come.)"""
        return self.body.can_act(board, ctx)

    def can_act(self, board, ctx):
        return True


class ForEachPlaceOp(Op):
    """"for each pivotal space you control, in the order you choose, as a bonus": the places are
    looked at again each time (a bonus may change who controls what); each is done once."""

    loop = True

    def __init__(self, places, body: Op, chooser, word: str, node=None):
        self.places, self.body, self.chooser, self.word, self.node = places, body, chooser, word, node

    def carries_out(self, program):
        return (self.body,)

    # frame: [id, ctx, places done, stage]
    def begin(self, machine, ctx):
        machine.stack.append([self.id, ctx, (), 0])

    def left(self, board, frame):
        return [p for p in self.places(board, frame[1], NOBODY) if p not in frame[2]]

    def step(self, machine, frame):
        board, ctx = machine.board, frame[1]
        left = self.left(board, frame)
        if frame[3] == WAITING:
            return self.decision(board, ctx, left)
        if not left:
            machine.stack.pop()
            return None
        if len(left) == 1:
            self.run_for(machine, frame, left[0])
            return None
        frame[3] = WAITING
        return self.decision(board, ctx, left)

    def chooser_of(self, board, ctx) -> int:
        if self.chooser is None:
            return ctx.me
        if self.chooser == "opponent":
            return board.others(ctx.me)[0]
        solo = board.solo
        return solo.role_chooser(self.chooser, ctx.me) if solo is not None else ctx.me

    def decision(self, board, ctx, left):
        chooser = self.chooser_of(board, ctx)
        actions = [board.program.actions.place_word(self.word, p) for p in left]
        return Decision(chooser, self.word, actions, False, 0, on_behalf=ctx.me if chooser != ctx.me else -1)

    def answer(self, machine, frame, action):
        frame[3] = 0
        self.run_for(machine, frame, action.a)

    def play(self, board, ctx, choose):
        done: tuple = ()
        while True:
            left = [p for p in self.places(board, ctx, NOBODY) if p not in done]
            if not left:
                return
            place = left[0] if len(left) == 1 else choose(self.decision(board, ctx, left)).a
            done += (place,)
            if self.multiplies(board.program):
                spend(board, self.node)
            program = board.program
            if board.log is not None:
                board.emit("log.place_chosen", side=program.schema.sides[ctx.me], word=self.word,
                           space=program.schema.map.places[place])
            play(self.body, board, ctx._replace(place=place, group=program.group_of[place]), choose)

    def run_for(self, machine, frame, place):
        board, ctx = machine.board, frame[1]
        frame[2] = frame[2] + (place,)
        if self.multiplies(board.program):
            spend(board, self.node)
        program = board.program
        if board.log is not None:
            board.emit("log.place_chosen", side=program.schema.sides[ctx.me], word=self.word,
                       space=program.schema.map.places[place])
        call(machine, self.body, ctx._replace(place=place, group=program.group_of[place]))

    def can_act(self, board, ctx):
        return bool(self.places(board, ctx, NOBODY))


# ------------------------------------------------------------------ cards


class DrawOp(Op):
    """Draw cards from a pile into another, n of them or until the player holds so many."""

    asks = False

    def __init__(self, source, source_pile: int, dest, n: int, until: int, node=None):
        self.source, self.source_pile, self.dest, self.n, self.until, self.node = source, source_pile, dest, n, until, node
        self.dest_pile = node.dest.pile if node is not None else -1

    def carries_out(self, program):
        return ()

    def run(self, board, ctx):
        dest = board.piles[self.dest(board, ctx)]
        source_index = self.source(board, ctx)
        drawn = 0
        if self.until >= 0:
            if len(dest) < self.until:
                board.revealed_something()
            while len(dest) < self.until:
                card = self.draw_one(board, source_index)
                if card == NOBODY:
                    break
                dest.append(card)
            return
        board.revealed_something()
        for _ in range(self.n):
            card = self.draw_one(board, source_index)
            if card != NOBODY:
                dest.append(card)
                drawn += 1
        if board.log is not None:
            piles = board.program.schema.piles
            into = self.dest_pile
            # cards drawn into a pile everyone sees are named
            cards = card_ids(board, into, dest[len(dest) - drawn:]) if into >= 0 and seen_by_all(board, into) else []
            board.emit("log.draw", side=board.program.schema.sides[ctx.me], n=drawn,
                       pile=piles[self.source_pile].name, into=piles[into].name if into >= 0 else "", cards=cards)

    def draw_one(self, board, source_index: int) -> int:
        return board.draw_at(source_index, self.source_pile)

    def can_act(self, board, ctx):
        if board.piles[self.source(board, ctx)]:
            return True
        refill = board.program.refill[self.source_pile]
        return refill is not None and bool(board.piles[board.layout.pile(refill)])


class ShuffleOp(Op):
    """Shuffle a pile; with ``into``, put its cards into another pile first, and shuffle that."""

    asks = False

    def __init__(self, pile, into, node=None):
        self.pile, self.into, self.node = pile, into, node

    def carries_out(self, program):
        return ()

    def run(self, board, ctx):
        cards = board.piles[self.pile(board, ctx)]
        if self.into is not None:
            target = board.piles[self.into(board, ctx)]
            if board.log is not None and self.node is not None:
                piles = board.program.schema.piles
                board.emit("log.shuffle", side=board.program.schema.sides[ctx.me], n=len(cards),
                           pile=piles[self.node.pile.pile].name, into=piles[self.node.into.pile].name)
            target.extend(cards)
            cards.clear()
            cards = target
        # (a shuffle shows nothing: a card drawn from the pile later does, and is the reveal an undo
        # may not cross; a player may take back the card kept before the other was shuffled back)
        board.program.shuffle(board.position.rng, cards)

    def can_act(self, board, ctx):
        return True


class PutOp(Op):
    """Put every card of a pile into another (for each side, for piles each side has)."""

    asks = False

    def __init__(self, source, dest, node=None):
        self.source, self.dest, self.node = source, dest, node

    def carries_out(self, program):
        return ()

    def run(self, board, ctx):
        flags = board.layout.pile_flag
        for source, dest in zip(self.source(board, ctx), self.dest(board, ctx)):
            cards = board.piles[source]
            if cards:
                if board.log is not None:
                    self.note(board, ctx, source, dest, len(cards))
                board.piles[dest].extend(cards)
                cards.clear()
                board.values[flags[dest]] = board.values[flags[source]] = 0  # cards put away are face down

    def note(self, board, ctx, source: int, dest: int, n: int) -> None:
        """The log's entry: whose pile went where (a pile each side has: that side's)."""
        program, layout = board.program, board.layout
        number = next(number for (number, _), index in layout.pile_index.items() if index == source)
        into = next(number for (number, _), index in layout.pile_index.items() if index == dest)
        side = _side_of(layout, number, source) if program.schema.piles[number].each_side else ctx.me
        board.emit("log.put", side=program.schema.sides[side], n=n, pile=program.schema.piles[number].name,
                   into=program.schema.piles[into].name)

    def can_act(self, board, ctx):
        return any(board.piles[p] for p in self.source(board, ctx))


class RevealOp(Op):
    """Turn piles face up (every card), or show the current card of piles."""

    asks = False

    def __init__(self, piles, pile_numbers, current: bool, node=None):
        self.piles, self.pile_numbers, self.current, self.node = piles, pile_numbers, current, node

    def carries_out(self, program):
        return ()

    def run(self, board, ctx):
        layout = board.layout
        shown = False
        cards = []  # (side, pile, card ids shown) for the log
        for resolver, number in zip(self.piles, self.pile_numbers):
            for index in resolver(board, ctx):
                if not board.piles[index]:
                    continue
                shown = True
                side = _side_of(layout, number, index)
                if not self.current:
                    board.values[layout.revealed[number] + side] = 1
                    cards.append((side, number, board.piles[index], 0))
                else:  # a pile with a position: its cards up to the current one are face up
                    declared = board.program.schema.piles[number]
                    counter = board.program.counter_index[declared.position]
                    at = layout.counter[counter] + (side if board.program.schema.counters[counter].each_side else 0)
                    board.values[layout.revealed[number] + side] = board.values[at] + 1
                    cards.append((side, number, board.piles[index][board.values[at]:board.values[at] + 1],
                                  board.values[at]))
        if shown:
            board.revealed_something()
            if board.log is not None:
                schema = board.program.schema
                # (side, pile, the cards shown, the place in the pile of the first of them)
                board.emit("log.reveal", piles=[schema.piles[n].name for n in self.pile_numbers],
                           cards=[(schema.sides[side], schema.piles[number].name, card_ids(board, number, shown), at)
                                  for side, number, shown, at in cards])

    def can_act(self, board, ctx):
        return True


def _side_of(layout, pile: int, index: int) -> int:
    return index - layout.pile(pile, 0)


class DiscardOp(Op):
    """Discard a card: it goes to the pile played cards go to, and is the last card played."""

    asks = False

    def __init__(self, card, node=None):
        self.card, self.node = card, node

    def carries_out(self, program):
        return ()

    def run(self, board, ctx):
        card = self.card(board, ctx)
        program = board.program
        if card == NOBODY:
            return
        source = program.where_is(board, card)
        if source is None or source == program.played_pile_index:
            return
        board.piles[source].remove(card)
        board.piles[program.played_pile_index].append(card)
        layout = board.layout
        board.values[layout.last_side], board.values[layout.last_card] = ctx.me, card
        board.values[layout.last_use] = NOBODY
        if board.log is not None:
            board.emit("log.discard", side=program.schema.sides[ctx.me], card=program.card_id(program.played_kind, card))

    def can_act(self, board, ctx):
        card = self.card(board, ctx)
        return card != NOBODY and board.program.where_is(board, card) not in (None, board.program.played_pile_index)


class ForgetOp(Op):
    asks = False

    def __init__(self, node=None):
        self.node = node

    def carries_out(self, program):
        return ()

    def run(self, board, ctx):
        layout = board.layout
        board.values[layout.last_side] = board.values[layout.last_card] = board.values[layout.last_use] = NOBODY

    def can_act(self, board, ctx):
        return True


class KeepOp(Op):
    """"keep 1 objective of your objective offer as your objective": a secret choice."""

    def __init__(self, source, dest, n: int, noun: str, kind: int, node=None, verb: str = "keep",
                 random: bool = False):
        self.source, self.dest, self.n, self.noun, self.kind, self.node = source, dest, n, noun, kind, node
        self.verb, self.random = verb, random

    def carries_out(self, program):
        return ()

    # frame: [id, ctx, kept so far, stage]
    def begin(self, machine, ctx):
        machine.stack.append([self.id, ctx, 0, 0])

    def step(self, machine, frame):
        board, ctx = machine.board, frame[1]
        offer = board.piles[self.source(board, ctx)]
        if frame[3] == WAITING:
            return self.decision(board, ctx, offer)
        while frame[2] < self.n and offer:
            if len(offer) == 1 or self.random:
                self.keep(board, frame, self.drawn(board, offer))
                continue
            frame[3] = WAITING
            return self.decision(board, ctx, offer)
        machine.stack.pop()
        return None

    def drawn(self, board, offer) -> int:
        """The card kept without a choice: the only one, or one drawn by lot (", at random")."""
        if len(offer) == 1:
            return offer[0]
        board.revealed_something()  # chance: undo may not cross it
        return offer[board.position.rng.randrange(len(offer))]  # any number of cards alike (a die has 12 faces)

    def decision(self, board, ctx, offer):
        actions = board.program.actions.keep(self.kind)
        return Decision(ctx.me, f"{self.verb}_{self.noun}", [actions[c] for c in offer], hidden=self.verb == "keep")

    def answer(self, machine, frame, action):
        frame[3] = 0
        self.keep(machine.board, frame, action.a)

    def play(self, board, ctx, choose):
        frame = [self.id, ctx, 0, 0]
        offer = board.piles[self.source(board, ctx)]
        while frame[2] < self.n and offer:
            card = self.drawn(board, offer) if len(offer) == 1 or self.random else \
                choose(self.decision(board, ctx, offer)).a
            self.keep(board, frame, card)

    def keep(self, board, frame, card):
        ctx = frame[1]
        board.piles[self.source(board, ctx)].remove(card)
        dest = self.dest(board, ctx)
        board.piles[dest].append(card)
        board.values[board.layout.pile_flag[dest]] = 0  # a card kept is face down (docs/state.md)
        frame[2] += 1
        note(board, self.id, ctx.me, card)
        if board.log is not None:
            source = self.node.source.pile if self.node is not None else -1
            # a card kept from a pile everyone sees is named
            shown = card_ids(board, source, [card]) if source >= 0 and seen_by_all(board, source) else []
            board.emit("log.keep", side=board.program.schema.sides[ctx.me], noun=self.noun,
                       card=shown[0] if shown else "")

    def can_act(self, board, ctx):
        return bool(board.piles[self.source(board, ctx)])


class OrderOp(Op):
    """"order your hand into your final crisis order": one card at a time, first on top; the
    last card left goes last without asking.  A choice per card keeps the work bounded for any
    hand, and a position may stop half-way through an order."""

    def __init__(self, source, dest, kind: int, node=None):
        self.source, self.dest, self.kind, self.node = source, dest, kind, node

    def carries_out(self, program):
        return ()

    def step(self, machine, frame):
        board, ctx = machine.board, frame[1]
        hand = board.piles[self.source(board, ctx)]
        if not hand:
            machine.stack.pop()
            return None
        if len(hand) > 1:
            frame[2] = WAITING
            return self.decision(board, ctx, hand)
        board.piles[self.dest(board, ctx)].append(hand.pop())
        if board.log is not None:
            board.emit("log.order_chosen", side=board.program.schema.sides[ctx.me])
        machine.stack.pop()
        return None

    def decision(self, board, ctx, hand):
        program = board.program
        actions = program.actions.order(self.kind)
        rank = program.cards[self.kind].rank
        return Decision(ctx.me, "order", [actions[c] for c in sorted(hand, key=rank.__getitem__)],
                        remaining=len(hand), hidden=True)

    def answer(self, machine, frame, action):
        board, ctx = machine.board, frame[1]
        board.piles[self.source(board, ctx)].remove(action.a)
        board.piles[self.dest(board, ctx)].append(action.a)
        frame[2] = 0

    def play(self, board, ctx, choose):
        hand = board.piles[self.source(board, ctx)]
        if not hand:
            return
        dest = board.piles[self.dest(board, ctx)]
        while len(hand) > 1:
            card = choose(self.decision(board, ctx, hand)).a
            hand.remove(card)
            dest.append(card)
        dest.append(hand.pop())
        if board.log is not None:
            board.emit("log.order_chosen", side=board.program.schema.sides[ctx.me])

    def can_act(self, board, ctx):
        return bool(board.piles[self.source(board, ctx)])


def card_rule(program, kind: int, card: int):
    """A card's rule (its event), or None."""
    if card < 0:
        return None
    field = program.cards[kind].rule_field()
    return program.cards[kind].fields[field][card] if field >= 0 else None


class PlayOp(Op):
    """"play a card from your hand": each card of the pile for each use it has (sequence.yaml's
    'playing a card'), then the use's rule; the card played goes to the played cards' pile."""

    def __init__(self, source, node=None):
        self.source, self.node = source, node

    def carries_out(self, program):
        return tuple(use.rule for use in program.uses)

    # frame: [id, ctx, stage, use, card, payment]
    def begin(self, machine, ctx):
        machine.stack.append([self.id, ctx, 0, -1, NOBODY, NOBODY])

    def step(self, machine, frame):
        board, ctx = machine.board, frame[1]
        if frame[2] == 1:  # the use's rule is over: the card is played
            self.end(board, ctx, frame)
            machine.stack.pop()
            return None
        actions = self.actions(board, ctx)
        if frame[2] == WAITING:
            return Decision(ctx.me, "play_card", actions, False, 0, True)
        if not actions:
            machine.stack.pop()
            return None
        if len(actions) == 1:
            self.start(machine, frame, actions[0])
            return None
        frame[2] = WAITING
        return Decision(ctx.me, "play_card", actions, False, 0, True)

    def actions(self, board, ctx):
        program = board.program
        hand = board.piles[self.source(board, ctx)]
        out = []
        uses = program.uses
        for card in hand:
            card_ctx = None
            for use in uses:
                if use.target is not None:
                    continue
                if use.table is not None:
                    if (use.option is None or use.option in board.options) and use.table[ctx.me][card]:
                        out.append(use.actions[card])
                    continue
                if card_ctx is None:
                    card_ctx = ctx._replace(card=card)
                if use.offered(board, card_ctx, card):
                    out.append(use.actions[card])
        for use in uses:
            if use.target is None:
                continue
            target = use.target(board, ctx)
            if target == NOBODY or not use.offered(board, ctx._replace(card=target), target):
                continue
            for card in hand:
                if use.payment(board, ctx._replace(card=target), card):
                    out.append(program.actions.use_paid(use.index, target, card))
        return out

    def answer(self, machine, frame, action):
        self.start(machine, frame, action)

    def play(self, board, ctx, choose):
        actions = self.actions(board, ctx)
        if not actions:
            return
        action = actions[0] if len(actions) == 1 else choose(Decision(ctx.me, "play_card", actions, False, 0, True))
        frame = [self.id, ctx, 0, -1, NOBODY, NOBODY]
        use = self.begin_play(board, frame, action)
        program = board.program
        play(use.rule, board, program.card_ctx(ctx.me, program.played_kind, action.a), choose)
        self.end(board, ctx, frame)

    def start(self, machine, frame, action):
        use = self.begin_play(machine.board, frame, action)
        program = machine.board.program
        call(machine, use.rule, program.card_ctx(frame[1].me, program.played_kind, action.a))

    def begin_play(self, board, frame, action):
        """The card leaves the hand (with a card paid for it, if the use asks one); the use."""
        ctx = frame[1]
        program = board.program
        use = program.uses[action.kind_index] if hasattr(action, "kind_index") else program.use_named[action.kind]
        card = action.a
        hand = board.piles[self.source(board, ctx)]
        if action.b >= 0:  # paid for with a card of the hand: it goes where played cards go
            hand.remove(action.b)
            played = board.piles[program.played_pile_index]
            played.append(action.b)
            played.remove(card)
            if board.log is not None:
                board.emit("log.claim", side=program.schema.sides[ctx.me], card=program.card_id(program.played_kind, card),
                           discarded=program.card_id(program.played_kind, action.b))
        else:
            hand.remove(card)
        board.revealed_something()
        frame[2], frame[3], frame[4], frame[5] = 1, use.index, card, action.b
        if board.log is not None:
            board.emit("log.play", side=program.schema.sides[ctx.me], use=use.name,
                       card=program.card_id(program.played_kind, card))
        return use

    def end(self, board, ctx, frame):
        program = board.program
        card = frame[4]
        board.piles[program.played_pile_index].append(card)
        layout = board.layout
        values = board.values
        values[layout.last_side], values[layout.last_card], values[layout.last_use] = ctx.me, card, frame[3]
        board.position.plays.append((ctx.me, card, frame[3]))

    def can_act(self, board, ctx):
        return bool(board.piles[self.source(board, ctx)])


class ProcedureOp(Op):
    """A named procedure carried out; ``for`` a card binds "the card", "this space" (its place)
    and "this dimension" (its group) for it."""

    def __init__(self, procedure: int, bind, bind_kind: int, node=None):
        self.procedure, self.bind, self.bind_kind, self.node = procedure, bind, bind_kind, node

    def carries_out(self, program):
        rules = program.automa_rules
        return (program.procedures[self.procedure],) + (
            tuple(rules.procedures.get(self.procedure, {}).values()) if rules is not None else ())

    def rule_and_ctx(self, board, ctx):
        program = board.program
        rule = program.procedure_for(board, self.procedure, ctx.me)
        ctx = ctx._replace(reason=program.procedure_names[self.procedure])
        if self.bind is not None:
            card = self.bind(board, ctx)
            ctx = program.bound_ctx(ctx, self.bind_kind, card)
        return rule, ctx

    def step(self, machine, frame):
        machine.stack.pop()
        rule, ctx = self.rule_and_ctx(machine.board, frame[1])
        if rule is not None:
            call(machine, rule, ctx)
        return None

    def can_act(self, board, ctx):
        rule, ctx = self.rule_and_ctx(board, ctx)
        return rule is not None and rule.can_act(board, ctx)

    def play(self, board, ctx, choose):
        rule, ctx = self.rule_and_ctx(board, ctx)
        if rule is not None:
            play(rule, board, ctx, choose)


class CardRuleOp(Op):
    """"carry out the event of your objective": a card's rule, as the acting player; the card
    stays where it is."""

    def __init__(self, card, kind: int, field: int, node=None):
        self.card, self.kind, self.field, self.node = card, kind, field, node

    def carries_out(self, program):
        return tuple(program.cards[self.kind].fields[self.field])

    def rule_and_ctx(self, board, ctx):
        program = board.program
        card = self.card(board, ctx)
        if card == NOBODY:
            return None, None
        rule = program.cards[self.kind].fields[self.field][card]
        if rule is None:
            return None, None
        return rule, program.card_ctx(ctx.me, self.kind, card)

    def step(self, machine, frame):
        machine.stack.pop()
        board = machine.board
        rule, ctx = self.rule_and_ctx(board, frame[1])
        if rule is None:
            board.shortfall += 1
            return None
        if board.log is not None:
            board.emit("log.carry_out", side=board.program.schema.sides[ctx.me], card=ctx.reason,
                       kind=board.program.schema.card_kinds[self.kind].name)
        note(board, self.id, ctx.me, ctx.card)
        call(machine, rule, ctx)
        return None

    def can_act(self, board, ctx):
        rule, rule_ctx = self.rule_and_ctx(board, ctx)
        return rule is not None and rule.can_act(board, rule_ctx)

    def play(self, board, ctx, choose):
        rule, rule_ctx = self.rule_and_ctx(board, ctx)
        if rule is None:
            board.shortfall += 1
            return
        if board.log is not None:
            board.emit("log.carry_out", side=board.program.schema.sides[rule_ctx.me], card=rule_ctx.reason,
                       kind=board.program.schema.card_kinds[self.kind].name)
        note(board, self.id, rule_ctx.me, rule_ctx.card)
        play(rule, board, rule_ctx, choose)


class ScoreOp(Op):
    """"score the final scoring in VP": each line for each player in turn order, the change of the
    counter kept per line and side (the final score's breakdown)."""

    def __init__(self, procedure: int, counter: int, node=None):
        self.procedure, self.counter, self.node = procedure, counter, node

    def carries_out(self, program):
        return tuple(rule for _, rule in program.procedure_lines[self.procedure])

    # frame: [id, ctx, line, k (twice the player's place in the order, +1 once its line ran), order, before]
    def begin(self, machine, ctx):
        board = machine.board
        board.position.breakdown = [[] for _ in range(board.sides)]
        machine.stack.append([self.id, ctx, 0, 0, (), 0])

    def step(self, machine, frame):
        board = machine.board
        lines = board.program.procedure_lines[self.procedure]
        while frame[2] < len(lines):
            k = frame[3]
            if k == 0:  # each line in turn order as it stands then (a line may change who is first)
                frame[4] = board.order()
            order = frame[4]
            if k >= 2 * len(order):
                frame[2], frame[3] = frame[2] + 1, 0
                continue
            side = order[k // 2]
            label, rule = lines[frame[2]]
            frame[3] += 1
            if k % 2 == 0:  # the line starts for this player
                frame[5] = board.counter(self.counter, side)
                call(machine, rule, frame[1]._replace(me=side, reason=f"scoring:{label}"))
                if machine.stack[-1] is not frame:
                    return None
                continue
            board.position.breakdown[side].append((label, board.counter(self.counter, side) - frame[5]))
        machine.stack.pop()
        return None

    def can_act(self, board, ctx):
        return True

    def play(self, board, ctx, choose):
        board.position.breakdown = [[] for _ in range(board.sides)]
        for label, rule in board.program.procedure_lines[self.procedure]:
            for side in board.order():
                before = board.counter(self.counter, side)
                play(rule, board, ctx._replace(me=side, reason=f"scoring:{label}"), choose)
                board.position.breakdown[side].append((label, board.counter(self.counter, side) - before))


class ResolveOp(Op):
    """"resolve breached zones": what entering each zone does, for the acting player's zones
    first, each side's in track order; "first" is for the first side to resolve that zone."""

    def __init__(self, track: int, node=None):
        self.track, self.node = track, node

    def carries_out(self, program):
        return tuple(rule for effect in program.entering[self.track] if effect is not None for rule in effect)

    def begin(self, machine, ctx):
        if machine.board.any_pending():  # nothing entered: nothing to resolve, no frame
            machine.stack.append([self.id, ctx, 0])

    # frame: [id, ctx, k (side in order)]
    def step(self, machine, frame):
        board, ctx = machine.board, frame[1]
        layout = board.layout
        values = board.values
        program = board.program
        order = (ctx.me,) + board.others(ctx.me)
        zones = program.schema.tracks[self.track].zones
        while frame[2] < len(order):
            side = order[frame[2]]
            for zone in range(len(zones)):  # zones are in track order, top first
                if not values[layout.pending + layout.zone_slot(side, self.track, zone)]:
                    continue
                rule = self.enter(board, side, zone)
                if rule is not None:
                    call(machine, rule, ctx._replace(me=side, reason=f"entered:{zones[zone].name}"))
                    if machine.stack[-1] is not frame:
                        return None
                break
            else:
                frame[2] += 1
        machine.stack.pop()
        return None

    def can_act(self, board, ctx):
        return board.any_pending()

    def play(self, board, ctx, choose):
        if not board.any_pending():
            return
        layout, values, program = board.layout, board.values, board.program
        zones = program.schema.tracks[self.track].zones
        for side in (ctx.me,) + board.others(ctx.me):
            while True:
                zone = next((z for z in range(len(zones))
                             if values[layout.pending + layout.zone_slot(side, self.track, z)]), None)
                if zone is None:
                    break
                rule = self.enter(board, side, zone)
                if rule is not None:
                    play(rule, board, ctx._replace(me=side, reason=f"entered:{zones[zone].name}"), choose)

    def enter(self, board, side: int, zone: int):
        """The zone's entering is resolved: who entered it is recorded; its effect, first or second."""
        layout, values, program = board.layout, board.values, board.program
        zones = program.schema.tracks[self.track].zones
        values[layout.pending + layout.zone_slot(side, self.track, zone)] = 0
        base = layout.entry_order + (layout.zone_base[self.track] + zone) * board.sides
        entries = [values[base + k] for k in range(board.sides)]
        first = entries[0] == NOBODY  # nobody resolved this zone before
        if NOBODY in entries:
            values[base + entries.index(NOBODY)] = side
        if board.log is not None:
            board.emit("log.zone_entered", side=program.schema.sides[side], zone=zones[zone].name,
                       nth="first" if first else "second")
        effect = program.entering[self.track][zone]
        return None if effect is None else (effect[0] if first else effect[1])


class WinOp(Op):
    """"the player with more VP wins, ties broken by the tie-breaks"; "you win"."""

    asks = False

    def __init__(self, counter: int, ties: int, node=None):
        self.counter, self.ties, self.node = counter, ties, node

    def carries_out(self, program):
        return ()

    def run(self, board, ctx):
        layout = board.layout
        values = board.values
        program = board.program
        if self.counter < 0:
            values[layout.winner], values[layout.tie_break] = ctx.me, AT_ONCE
            board.position.stack[:] = []
            raise Won  # a sudden-death win ends the game at once
        scores = [board.counter(self.counter, side) for side in range(board.sides)]
        best = max(scores)
        leaders = [side for side, score in enumerate(scores) if score == best]
        winner, tie_break = leaders[0], NOBODY
        if len(leaders) > 1:
            rules = program.procedure_for_conditions(board, self.ties)
            contexts = program.side_contexts
            for index, rule in enumerate(rules):
                holds = [side for side in leaders if rule(board, contexts[side], NOBODY)]
                if len(holds) == 1:
                    winner, tie_break = holds[0], index
                    break
        values[layout.winner], values[layout.tie_break] = winner, tie_break
        if board.log is not None:
            others = [s for s in range(board.sides) if s != winner]
            board.emit("log.game_over", winner=program.schema.sides[winner], vp0=scores[winner],
                       vp1=scores[others[0]] if others else 0, tie_break=tie_break)

    def can_act(self, board, ctx):
        return True
