"""What must hold after every action, read from the game's schema.

Used by scenario files (after each step), the property tests over random
games, ``crisis play --check`` / ``crisis resume --check`` and ``crisis sim
--check``: each stops at the first action that breaks a rule of the game (an
engine or content bug, never a player's mistake).
"""

from __future__ import annotations

import operator
import weakref
from typing import List, Sequence

from crisis.interpreter.engine.layout import AT_ONCE, NOBODY


def check_position(program, position) -> List[str]:
    """The schema's own rules: every side's tokens are all somewhere, no place holds more than it
    may, no count is negative, counters stay within their bounds, every card lies in one pile."""
    problems: List[str] = []
    schema, values = program.schema, position.values
    shape = _shape_of(program)
    tokens = schema.tokens
    each, most = (tokens.each_side, tokens.at_most_per_place) if tokens is not None else (0, 0)
    for side, name in enumerate(schema.sides):
        if tokens is not None:
            base = shape.tokens[side]
            on_map = values[base:base + shape.places]
            off_map = shape.off_map[side](values)
            total = sum(on_map) + sum(off_map)
            if total != each:
                problems.append(f"{name} has {total} tokens in all, not {each}")
            if on_map and (min(on_map) < 0 or max(on_map) > most):
                problems.extend(f"{name} has {count} tokens in {schema.map.places[place]}"
                                for place, count in enumerate(on_map) if not 0 <= count <= most)
            if off_map and min(off_map) < 0:
                problems.append(f"{name} has a negative count of tokens off the map")
            for offset, track in shape.tracks[side]:
                if not 0 <= values[offset] <= track.spaces:
                    problems.append(f"{name}'s {track.name} holds {values[offset]} tokens")
        for offset, counter in shape.counters[side]:
            value = values[offset]
            if not counter.low <= value <= counter.high:
                problems.append(f"{name} has {value} {counter.name}, outside {counter.low} to {counter.high}")
    for offset, counter in shape.game_counters:
        value = values[offset]
        if not counter.low <= value <= counter.high:
            problems.append(f"the {counter.name} is {value}, outside {counter.low} to {counter.high}")
    plays = shape.plays
    in_play = [frame[4] for frame in position.stack if frame[0] in plays and frame[2] == 1]
    # (a card being played is in no pile until its play ends)
    entities = _entities(program, position, problems)
    if position.view != NOBODY:  # a view has taken hidden cards out
        return problems
    piles = position.piles
    for kind_index, indices in enumerate(_piles_of_kinds(program)):
        ids = program.cards[kind_index].ids
        held = [card for index in indices for card in piles[index]]
        held.extend(entities.get(kind_index, ()))  # a card in play lies in no pile
        if kind_index == program.played_kind:
            held.extend(in_play)
        if len(held) == len(ids) and len(set(held)) == len(ids):
            continue  # each card once
        seen = [0] * len(ids)
        for card in held:
            seen[card] += 1
        if kind_index == program.played_kind and values[program.layout.tie_break] == AT_ONCE and seen.count(0) == 1:
            # "you win" in a card's rule ends the game at once, that card's play too: the card never
            # reaches the pile played cards go to (docs/language.md)
            seen[seen.index(0)] = 1
        problems.extend(f"{ids[card]} lies in {n} piles, not 1" for card, n in enumerate(seen) if n != 1)
    return problems


class _Shape:
    """Where check_position reads each count of a position, worked out once per program."""

    def __init__(self, program):
        schema, layout = program.schema, program.layout
        sides = range(len(schema.sides))
        self.places = layout.places
        self.tokens = [layout.tokens_of(side) for side in sides] if schema.tokens is not None else []
        # a side's tokens off the map: its holders, tracks and boxes (their total is checked)
        self.off_map = [_getter([layout.holder_of(side, h) for h in range(layout.holders)]
                                + [layout.track_of(side, t) for t in range(len(schema.tracks))]
                                + [layout.box + layout.zone_slot(side, t, z) for t, track in enumerate(schema.tracks)
                                   for z in range(len(track.zones))]) for side in sides] \
            if schema.tokens is not None else []
        self.tracks = [[(layout.track_of(side, t), track) for t, track in enumerate(schema.tracks)] for side in sides]
        # (offset, counter): each side's counters, and the game's own
        self.counters = [[(layout.counter[i] + side, counter) for i, counter in enumerate(schema.counters)
                          if counter.each_side] for side in sides]
        self.game_counters = [(layout.counter[i], counter) for i, counter in enumerate(schema.counters)
                              if not counter.each_side]
        from crisis.interpreter.engine.sequence import PlayOp
        self.plays = frozenset(op.id for op in program.ops if isinstance(op, PlayOp))  # ops that play a card


def _getter(offsets: List[int]):
    """values -> the values at ``offsets``, as a tuple (one call, whatever their number)."""
    if not offsets:
        return lambda values: ()
    if len(offsets) == 1:
        offset = offsets[0]
        return lambda values: (values[offset],)
    return operator.itemgetter(*offsets)


_SHAPES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _shape_of(program) -> _Shape:
    found = _SHAPES.get(program)
    if found is None:
        found = _SHAPES[program] = _Shape(program)
    return found


_PILES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _piles_of_kinds(program) -> List[List[int]]:
    """For each kind of card, the indices (in Position.piles) of the piles that hold it (once per program)."""
    found = _PILES.get(program)
    if found is None:
        schema, layout = program.schema, program.layout
        found = _PILES[program] = [[layout.pile(number, side) for number, pile in enumerate(schema.piles)
                                    if pile.kind == kind.name
                                    for side in range(len(schema.sides) if pile.each_side else 1)]
                                   for kind in schema.card_kinds]
    return found


def _entities(program, position, problems: List[str]) -> dict:
    """Cards in play (each counted where it lies, for the rule that every card is in one place): whose
    each is, where it stands, and the card that carries it, which is in play and stands there too."""
    layout, values = program.layout, position.values
    found: dict = {}
    if not layout.entities:
        return found
    from crisis.interpreter.engine.entities import place_on_map, tables
    from crisis.interpreter.engine.layout import CARRIER, OWNER, PLACE
    entity_tables = tables(program)
    ids = entity_tables.ids
    for entity in range(layout.entities):
        record = layout.entity_of(entity)
        owner, place, carrier = values[record + OWNER], values[record + PLACE], values[record + CARRIER]
        if owner == NOBODY:
            continue
        found.setdefault(entity_tables.kind_of[entity], {})[entity_tables.card_of[entity]] = 1
        if not 0 <= owner < len(program.schema.sides) or not NOBODY <= place < layout.places:
            problems.append(f"{ids[entity]} is in play for side {owner} at place {place}")
        elif place != NOBODY and not place_on_map(program, values, place, entity_tables):
            # a line of cards: a place is on the map only while its card is in play (docs/state.md)
            problems.append(f"{ids[entity]} stands at {program.schema.map.places[place]}, which is not on the map")
        if carrier != NOBODY and (values[layout.entity_of(carrier) + OWNER] == NOBODY
                                  or values[layout.entity_of(carrier) + PLACE] != place):
            problems.append(f"{ids[entity]} is carried by {ids[carrier]}, which is not in play where it is")
    return found


def check_transition(program, before, after, counters_logged) -> List[str]:
    """Rules between two positions one action apart: nothing changes under a marker that blocks
    it, and counters change only through a rule that says so (and is logged)."""
    problems = check_position(program, after)
    schema, layout = program.schema, program.layout
    for index, marker in enumerate(schema.markers):
        place = before.values[layout.marker + index]
        if place == NOBODY or after.values[layout.marker + index] != place:
            continue
        for side, name in enumerate(schema.sides):
            offset = layout.tokens_of(side) + place
            if before.values[offset] != after.values[offset] and (marker.blocks_placement or marker.blocks_removal):
                problems.append(f"{name} tokens changed in {schema.map.places[place]} under the {marker.name}")
    for index, counter in enumerate(schema.counters):
        for side in range(len(schema.sides) if counter.each_side else 1):
            offset = layout.counter[index] + side
            change = after.values[offset] - before.values[offset]
            logged = counters_logged.get((counter.name, side), 0)
            if change != logged and counter.each_side:
                problems.append(f"{schema.sides[side]} {counter.name} went from {before.values[offset]} to "
                                f"{after.values[offset]} but the rules logged {logged:+d}")
    return problems


def counters_logged(program, log: Sequence, since: int) -> dict:
    change = {}
    sides = program.schema.sides
    for entry in log[since:]:
        if entry.key == "log.counter" and entry.params.get("side") is not None:
            key = (entry.params["counter"], sides.index(entry.params["side"]))
            change[key] = change.get(key, 0) + entry.params["n"]
    return change
