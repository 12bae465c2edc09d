"""The record of a finished game: what a designer analyses of it (``crisis sim --records``, the
balance report), read from the game's schema and its final position.

Every name in a record is one the content declares: its sides, counters, tracks and zones,
card ids, the ways a card is played (``playing a card``'s uses), piles and named steps.  The
engine keeps what the final position cannot show: every card play, as ``(side, card, use)``
(``Position.plays``), and ``Position.notes``: each card kept by a ``keep`` statement, each
card's rule carried out, the side that went first each time players alternated, and each
statement carried out by the first player, with the game's counters as they stood then.

``Reading`` is what a program's records say, worked out once per program; ``GameRecord`` is one
game, as numbers (what a batch run counts); ``Reading.json`` gives it names (one line of
``crisis sim --records``, described in docs/sim.md).
"""

from __future__ import annotations

import weakref
from typing import Dict, List, Optional, Tuple

import attrs

from .engine.layout import AT_ONCE, NOBODY
from .engine.ops import ActingOp, Op
from .engine.sequence import AlternateOp, CardRuleOp, ForEachCounterOp, KeepOp, ProcedureOp, StepOp, WinOp


@attrs.frozen
class GameRecord:
    """One finished game, as numbers (``Reading`` gives them names)."""

    seed: int
    winner: int  # NOBODY when the game was stopped (an invariant broke)
    tie_break: int  # index of the tie-break that decided, NOBODY when the score did, AT_ONCE when a rule did
    counters: Tuple[Tuple[int, ...], ...]  # each counter's final value: one per side, or one
    plays: Tuple[Tuple[int, int, int], ...]  # (side, card, use), in order
    entered: Tuple[Tuple[int, ...], ...]  # per zone of ``Reading.zones``: the sides in the order they entered it
    notes: Tuple[tuple, ...]  # Position.notes: (operation, side, card, the game's counters then)
    actions: int  # decisions taken by the players
    problems: Tuple[str, ...] = ()  # invariants broken (only when the job checks them)


class Reading:
    """What a program's records say: its names, and what each noted operation means."""

    def __init__(self, program):
        self.program = program
        schema = self.schema = program.schema
        layout = program.layout
        self.sides = tuple(schema.sides)
        self.counters = tuple(schema.counters)
        # (offset, how many values) of each counter in a position
        self.counter_slots = tuple((layout.counter[i], len(self.sides) if c.each_side else 1)
                                   for i, c in enumerate(self.counters))
        # the counters a note carries (those kept for the game, not per side), in schema order
        self.game_counters = tuple(i for i, c in enumerate(self.counters) if not c.each_side)
        self.score = next((op.counter for op in program.ops if isinstance(op, WinOp) and op.counter >= 0), NOBODY)
        self.loops = tuple(dict.fromkeys(op.counter for op in program.ops if isinstance(op, ForEachCounterOp)))
        ties = next((op.ties for op in program.ops if isinstance(op, WinOp) and op.counter >= 0), NOBODY)
        self.tie_break_rules = program.procedure_names[ties] if ties >= 0 else None
        # zones whose entering is resolved (they have a rule): their order of entry is kept
        self.zones = tuple((t, z) for t, track in enumerate(schema.tracks) for z in range(len(track.zones))
                           if program.entering[t][z] is not None)
        self.entry_offsets = tuple(layout.entry_order + (layout.zone_base[t] + z) * len(self.sides)
                                   for t, z in self.zones)
        self.played_kind = program.played_kind
        self.kinds = tuple(kind.name for kind in schema.card_kinds)
        self.uses = tuple(use.name for use in program.uses)
        played = program.cards[program.played_kind].kind
        # the card's own rule field a use carries out ("event" for a use "carry out the event of the card")
        self.use_rule = tuple(played.fields[use.needs_field][0] if use.needs_field >= 0 else None
                              for use in program.uses)
        # the content's optional rules, as options name them
        self.options = tuple(dict.fromkeys(use.option for use in program.definition.uses if use.option))
        self.where = _enclosing(program)
        # the loops no other loop holds: the game's own length (its rounds), not a loop within a turn
        self.game_loops = tuple(counter for counter in self.loops
                                if any(isinstance(op, ForEachCounterOp) and op.counter == counter
                                       and not self.where.get(op.id, (None, ()))[1] for op in program.ops))

    # ------------------------------------------------------------ a game
    def record(self, position, seed: int, actions: int, problems=()) -> GameRecord:
        values = position.values
        layout = self.program.layout
        sides = len(self.sides)
        return GameRecord(
            seed=seed, winner=values[layout.winner], tie_break=values[layout.tie_break],
            counters=tuple(tuple(values[offset:offset + n]) for offset, n in self.counter_slots),
            plays=tuple(position.plays),
            entered=tuple(tuple(side for side in values[offset:offset + sides] if side != NOBODY)
                          for offset in self.entry_offsets),
            notes=tuple(position.notes) if position.notes is not None else (), actions=actions,
            problems=tuple(problems))

    def card_id(self, kind: int, card: int) -> str:
        return self.program.cards[kind].ids[card]

    def kept(self, record: GameRecord) -> List[tuple]:
        """(side, kind, card, the game's counters then, the rule field carried out after, or None)
        of each card kept by a ``keep`` statement; the rule counts when the side that kept the
        card carried it out later in the game."""
        ops = self.program.ops
        out = []
        notes = record.notes
        for index, (op_id, side, card, counters) in enumerate(notes):
            op = ops[op_id]
            if not isinstance(op, KeepOp):
                continue
            carried = next((self.rule_field(ops[later]) for later, by, which, _ in notes[index + 1:]
                            if isinstance(ops[later], CardRuleOp) and ops[later].kind == op.kind
                            and by == side and which == card), None)
            out.append((op_id, side, op.kind, card, counters, carried))
        return out

    def first_players(self, record: GameRecord) -> List[tuple]:
        """(operation, side, the game's counters then) each time players alternated (the side that
        went first) or the first player carried out a statement."""
        ops = self.program.ops
        return [(op_id, side, counters) for op_id, side, _, counters in record.notes
                if isinstance(ops[op_id], (AlternateOp, ActingOp))]

    def pile_into(self, op_id: int) -> Optional[str]:
        """The pile a ``keep`` statement keeps its cards in."""
        dest = getattr(self.program.ops[op_id].node, "dest", None)
        return self.schema.piles[dest.pile].name if dest is not None else None

    def rule_field(self, op: CardRuleOp) -> str:
        return self.schema.card_kinds[op.kind].fields[op.field][0]

    def step_of(self, op_id: int) -> Optional[str]:
        """The named step an operation is carried out in (None outside any)."""
        return self.where.get(op_id, (None, ()))[0]

    def loop_counters(self, op_id: int, counters: tuple) -> Dict[str, int]:
        """The counters of the loops around an operation, by name, from a note's counters."""
        loops = self.where.get(op_id, (None, ()))[1]
        return {self.counters[c].name: counters[self.game_counters.index(c)]
                for c in loops if c in self.game_counters}

    # ------------------------------------------------------------ names
    def json(self, record: GameRecord) -> dict:
        """A record with names (one line of ``crisis sim --records``; docs/sim.md)."""
        sides = self.sides

        def side(index: int):
            return sides[index] if index >= 0 else None

        counters = {}
        for counter, values in zip(self.counters, record.counters):
            counters[counter.name] = ({sides[s]: v for s, v in enumerate(values)} if counter.each_side
                                      else values[0])
        entered: Dict[str, Dict[str, List[str]]] = {}
        for (t, z), order in zip(self.zones, record.entered):
            track = self.schema.tracks[t]
            entered.setdefault(track.name, {})[track.zones[z].name] = [sides[s] for s in order]
        kind = self.played_kind
        data = {
            "seed": record.seed,
            "winner": side(record.winner),
            "tie_break": record.tie_break + 1 if record.tie_break >= 0 else None,
            "at_once": record.tie_break == AT_ONCE,
            "counters": counters,
            "plays": [{"side": sides[s], "card": self.card_id(kind, card), "use": self.uses[use],
                       "carried_out": self.use_rule[use]} for s, card, use in record.plays],
            "entered": entered,
            "kept": [{"side": sides[s], "card": self.card_id(k, card), "kind": self.kinds[k],
                      "into": self.pile_into(op_id),
                      "counters": self.loop_counters(op_id, counters_then), "carried_out": carried}
                     for op_id, s, k, card, counters_then, carried in self.kept(record)],
            "first_players": [{"side": sides[s], "step": self.step_of(op_id),
                               "counters": self.loop_counters(op_id, counters_then)}
                              for op_id, s, counters_then in self.first_players(record)],
            "actions": record.actions,
        }
        if record.problems:
            data["problems"] = list(record.problems)
        return data


_READINGS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def reading_of(program) -> Reading:
    """A program's ``Reading``, made once."""
    found = _READINGS.get(program)
    if found is None:
        found = _READINGS[program] = Reading(program)
    return found


def _enclosing(program) -> Dict[int, Tuple[Optional[str], Tuple[int, ...]]]:
    """Operation id -> (the innermost named step around it, the counters of the loops around it),
    walking the sequence of play from its start, and the procedures it carries out by name."""
    found: Dict[int, Tuple[Optional[str], Tuple[int, ...]]] = {}
    stack = [(program.main, None, ())]
    while stack:
        op, step, loops = stack.pop()
        if op.id in found:
            continue
        found[op.id] = (step, loops)
        if isinstance(op, StepOp):
            step = op.name
        elif isinstance(op, ForEachCounterOp):
            loops = loops + (op.counter,)
        elif isinstance(op, ProcedureOp):
            procedure = program.procedures[op.procedure]
            if procedure is not None:
                stack.append((procedure, step, loops))
        for value in vars(op).values():
            children = value if isinstance(value, (list, tuple)) else (value,)
            for child in children:
                if isinstance(child, Op):
                    stack.append((child, step, loops))
    return found
