"""Rule coverage: which rules, ``either`` options and ``if`` branches a run exercised.

A designer asks of a set of scenarios (or a batch of simulated games): does
every card's rule run, every option get chosen, every branch get taken?  The
items are found in the game's definition (content/definition.py), generically:
every rule field of every card kind, what entering each zone of a track does,
the procedures and first-player rules, the setup, each step of the sequence of
play, each way to play a card, each defined term, and the overlay's rules
(its definitions, replaced steps and procedures, priority lines and table
rows).  To cost nothing when nobody asks, the game is compiled a second time,
by compilers that record into this object (``GameProgram.compiler_for``):
plain programs never see the recorder, and the recording program runs no
generated code.

What happens on a board that only looks ahead (a prediction of what an option
would do, a goal's search: ``Board.probe``) never happened, and is not counted.

Kinds of items: one per rule (named ``WORD_FIELD`` for a card kind's rule
field, after the first word the schema gives the kind: ``card_event``), one
per ``either`` option, two per ``if`` (its branch, and its ``otherwise``, or
the condition being false when there is none).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable, Dict, Iterator, List, Optional, Set, Tuple

import attrs

from crisis.interpreter.engine.native import Native
from crisis.interpreter.engine.program import GameProgram
from crisis.ruleset import meaning as M
from crisis.ruleset.walk import meanings

EITHER, IF = "either_option", "if_branch"
ZONE, PROCEDURE, SEQUENCE = "zone_effect", "procedure", "sequence"
# the overlay (a side the game plays itself): its rules, its priority lines, its tables' rows
OVERLAY, PRIORITY, ROW = "solo_rule", "solo_priority_line", "solo_table_row"


def rule_field_kind(card_kind, field: str) -> str:
    """The kind of coverage item of a kind of cards' rule field: the kind's first word, then the
    field, spaces made '_' ('card_event', 'order_card_event')."""
    word = card_kind.words[0] if card_kind.words else card_kind.name
    return f"{word}_{field}".replace(" ", "_")


@attrs.define
class Item:
    kind: str  # card_event, either_option, if_branch, zone_effect, procedure, sequence, solo_rule...
    label: str  # the rule: "card major-anderson", "Tension (first)", "pivotal bonus", "step deal"
    path: Optional[str]
    line: Optional[int]
    branch: str = ""  # for options and branches: the option's number, "then", "otherwise" or "false"
    card: Tuple[str, str] = ()  # a card's rule: (its kind, its id), which a language shows its own way

    @property
    def where(self) -> str:
        return f"{self.path or '<rules>'}:{self.line or 1}"


def _first_pos(meaning):
    """The position (in its rule text) of a meaning node: a block is where its first statement is."""
    if isinstance(meaning, M.Block) and meaning.statements:
        meaning = meaning.statements[0]
    syntax = getattr(meaning, "node", None)
    pos = getattr(syntax, "pos", None)
    if pos is None and syntax is not None and hasattr(syntax, "walk"):
        pos = next((child.pos for child in syntax.walk() if child.pos is not None), None)
    return pos


class Coverage:
    """The items of a game's definition, which runs exercised each, and the program that records them."""

    def __init__(self, definition):
        self.definition = definition
        self.items: List[Item] = []
        self.blocks: Dict[int, int] = {}  # id(block) -> item: a rule, an option, a branch, run when it begins
        self.conditions: Dict[int, int] = {}  # id(condition) -> item, counted when it is evaluated
        self.cards: Dict[int, int] = {}  # id(card reference) of a defined card term -> item, when read
        self.false: Dict[int, int] = {}  # id(if) without otherwise -> item: its condition was false
        self.steps: Dict[int, int] = {}  # id(step) of the sequence of play -> item, when it starts
        self.rows: Dict[int, int] = {}  # id(places) of a row or priority line -> item, when it decides
        self.cases: List[Tuple[int, int]] = []  # the overlay's holder cases: (item of 'when' or -1, item)
        self.hits: Dict[int, Set[str]] = defaultdict(set)
        self.current = "?"
        self._sources = {id(rule): source for rule, source in getattr(definition, "sources", ())}
        self._find_items(definition)
        self.program = CoveredProgram(definition, self)

    # ------------------------------------------------------------ items
    def _add(self, kind: str, label: str, source, node, branch: str = "", card: Tuple[str, str] = ()) -> int:
        path = line = None
        if source is not None:
            pos = _first_pos(node)
            path = source.path
            line = source.locate(pos.line, pos.column)[0] if pos is not None else source.locate(1, 1)[0]
        self.items.append(Item(kind, label, path, line, branch, card))
        return len(self.items) - 1

    def _rule(self, kind: str, label: str, rule, into: Optional[Dict[int, int]] = None,
              card: Tuple[str, str] = ()) -> None:
        """A rule (a block, or a condition with ``into=self.conditions``), and its options and
        branches; ``card``: the card it is a rule of (kind, id)."""
        if rule is None:
            return
        into = self.blocks if into is None else into
        if id(rule) in into:
            # one rule in two places (both sides entering a zone do the same): one item
            item = self.items[into[id(rule)]]
            item.label = _merge(item.label, label)
            item.card = ()  # (told by the label that names both)
            return
        source = self._sources.get(id(rule))
        into[id(rule)] = self._add(kind, label, source, rule, card=card)
        self._branches(label, source, rule, card)

    def _branches(self, label: str, source, rule, card: Tuple[str, str] = ()) -> None:
        for node in meanings(rule):
            if isinstance(node, M.Either):
                for index, option in enumerate(node.options):
                    self.blocks.setdefault(id(option), self._add(EITHER, label, source, option, str(index + 1),
                                                                 card))
            elif isinstance(node, M.If):
                self.blocks.setdefault(id(node.then), self._add(IF, label, source, node, "then", card))
                if node.otherwise is not None:
                    self.blocks.setdefault(id(node.otherwise),
                                           self._add(IF, label, source, node.otherwise, "otherwise", card))
                else:
                    self.false.setdefault(id(node), self._add(IF, label, source, node, "false", card))

    def _find_items(self, definition) -> None:
        schema = definition.schema
        # the rule fields of each kind of card
        for kind in schema.card_kinds:
            word = kind.words[0] if kind.words else kind.name
            cards = definition.cards[kind.name]
            for f, (field, type_name) in enumerate(kind.fields):
                if type_name != "rule":
                    continue
                name = rule_field_kind(kind, field)
                for card_id, rule in zip(cards.ids, cards.fields[f]):
                    self._rule(name, f"{word} {card_id}", rule, card=(kind.name, card_id))
        # what entering each zone of a track does, for the first side to enter it and the others
        for (track, zone), (first, second) in definition.entering.items():
            name = schema.tracks[track].zones[zone].name
            self._rule(ZONE, f"{name} (first)", first)
            self._rule(ZONE, f"{name} (second)", second)
        # procedures and the first-player rules
        for name, (kind, meaning) in definition.procedures.items():
            if kind == "block":
                self._rule(PROCEDURE, name, meaning)
            elif kind == "condition":
                self._rule(PROCEDURE, name, meaning, self.conditions)
            elif kind == "conditions":
                for index, condition in enumerate(meaning):
                    self._rule(PROCEDURE, f"{name} #{index + 1}", condition, self.conditions)
            elif kind == "lines":
                for label, rule in meaning:
                    self._rule(PROCEDURE, f"{name} {label}", rule)
        for index, condition in enumerate(definition.first_player):
            self._rule(PROCEDURE, f"first player #{index + 1}", condition, self.conditions)
        # the sequence of play: the setup, each step, each way to play a card, each defined term
        overlay = definition.overlay
        self._rule(SEQUENCE, "setup", definition.setup)
        play = definition.play
        source = self._sources.get(id(play))
        for node in meanings(play):
            if isinstance(node, M.Step):
                self.steps[id(node)] = self._add(SEQUENCE, f"step {node.name}", source, node)
        self._branches("sequence of play", source, play)
        for use in definition.uses:
            self._rule(SEQUENCE, f"use {use.name}", use.rule)
        overlay_terms = set()
        if overlay is not None:
            overlay_paths = {getattr(self._sources.get(id(rule)), "path", None) for rule in _overlay_rules(overlay)}
            overlay_terms = {name for name, (kind, meaning) in definition.terms.items()
                             if getattr(self._sources.get(id(meaning)), "path", None) in overlay_paths - {None}}
        for name, (kind, meaning) in definition.terms.items():
            if meaning is None or name in overlay_terms:
                continue
            self._rule(SEQUENCE, f"term {name}", meaning, self.cards if kind == "card" else self.conditions)
        if overlay is not None:
            self._overlay(definition, overlay, overlay_terms)

    def _overlay(self, definition, overlay, terms) -> None:
        schema = definition.schema
        holders = next((name for name, (kind, meaning) in definition.terms.items() if kind == "holders"), "cases")
        for index, (when, places) in enumerate(overlay.available):
            if when is not None:
                self._rule(OVERLAY, f"solo {holders} {index + 1} when", when, self.conditions)
            source = self._sources.get(id(places))
            item = self._add(OVERLAY, f"solo {holders} {index + 1}", source, places)
            self.cases.append((self.conditions.get(id(when), -1), item))
        for name in sorted(terms, key=list(definition.terms).index):
            self._rule(OVERLAY, f"solo {name}", definition.terms[name][1], self.conditions)
        for index, condition in enumerate(overlay.first_player or ()):
            self._rule(OVERLAY, f"solo first player #{index + 1}", condition, self.conditions)
        for name, variants in overlay.procedures.items():
            for role, meaning in variants.items():
                label = f"{role or 'solo'} {name}"
                if isinstance(meaning, tuple):
                    for index, condition in enumerate(meaning):
                        self._rule(OVERLAY, f"{label} #{index + 1}", condition, self.conditions)
                else:
                    self._rule(OVERLAY, label, meaning)
        for name, variants in overlay.steps.items():
            for role, block in variants.items():
                self._rule(OVERLAY, f"{role or 'solo'} step {name}" if not role else f"{role} {name}", block)
        for marker, rows in overlay.markers.items():
            for index, row in enumerate(rows):
                self._row(PRIORITY, f"{schema.markers[marker].name} priorities, line {index + 1}", row)
        for side, tables in overlay.aids.items():
            for table, rows in tables.items():
                for index, row in enumerate(rows):
                    self._row(ROW, f"{schema.sides[side]} aid, {table} table, row {index + 1}", row)

    def _row(self, kind: str, label: str, row) -> None:
        if row.places is not None and id(row.places) not in self.rows:
            self.rows[id(row.places)] = self._add(kind, label, self._sources.get(id(row.places)), row.places)

    # ------------------------------------------------------------ recording
    def start(self, label: str) -> None:
        """What runs next (a scenario's file:line, or 'sim')."""
        self.current = label

    def hit(self, item: int) -> None:
        self.hits[item].add(self.current)

    # ------------------------------------------------------------ reporting
    def kinds(self) -> List[str]:
        """Kinds of item present: cards' rules first, then options and branches, rules of play, the rest."""
        present = list(dict.fromkeys(item.kind for item in self.items))
        first = [k for k in present if k not in (EITHER, IF, ZONE, PROCEDURE, SEQUENCE, OVERLAY, PRIORITY, ROW)]
        order = first + [EITHER, IF, ZONE, PROCEDURE, SEQUENCE]
        return [k for k in order if k in present] + [k for k in present if k not in order]

    def summary(self) -> List[Tuple[str, int, int]]:
        """(kind, exercised, total) per kind of item."""
        out = []
        for kind in self.kinds():
            indices = [i for i, item in enumerate(self.items) if item.kind == kind]
            out.append((kind, sum(1 for i in indices if self.hits.get(i)), len(indices)))
        return out

    def missed(self, kinds: Optional[Set[str]] = None) -> List[Item]:
        return [item for i, item in enumerate(self.items)
                if not self.hits.get(i) and (kinds is None or item.kind in kinds)]

    def by_item(self) -> List[Tuple[Item, List[str]]]:
        return [(item, sorted(self.hits.get(i, ()))) for i, item in enumerate(self.items)]


def _overlay_rules(overlay) -> Iterator[Any]:
    for when, places in overlay.available:
        yield when
        yield places
    yield from overlay.first_player or ()
    for variants in overlay.steps.values():
        yield from variants.values()
    for variants in overlay.procedures.values():
        for meaning in variants.values():
            yield from (meaning if isinstance(meaning, tuple) else (meaning,))


def _merge(first: str, second: str) -> str:
    """'Escalation (first)' and 'Escalation (second)' -> 'Escalation (first and second)'."""
    head, _, role = first.partition(" (")
    other_head, _, other_role = second.partition(" (")
    if head == other_head and role and other_role:
        return f"{head} ({role.rstrip(')')} and {other_role}"
    return f"{first}; {second}"


# ---------------------------------------------------------------- recording program


class CoveredProgram(GameProgram):
    """The game compiled a second time, every rule, option and branch recording when it really runs."""

    def __init__(self, definition, coverage: Coverage):
        self.coverage = coverage
        self._native = Native("", (), {})  # no generated code: the operations themselves run, and record
        super().__init__(definition)
        rules = self.automa_rules
        if rules is not None and len(rules.available) == len(coverage.cases):
            rules.available = tuple((_case(condition, coverage, item), codes)
                                    for (condition, codes), (_, item) in zip(rules.available, coverage.cases))

    def compiler_for(self, kind, **options):
        return _recording(kind)(self, self.coverage, **options)


def _case(condition, coverage: Coverage, item: int):
    """One case of the overlay's holders: counted each time it is the one that applies (its
    condition holds, or it is the last), as a branch is."""
    def applies(board, ctx, it):
        if condition is not None and not condition(board, ctx, it):
            return False
        if not board.probe:
            coverage.hit(item)
        return True
    return applies


_RECORDING: Dict[type, type] = {}


def _recording(kind: type) -> type:
    """``kind`` (a compiler class) with every item of the coverage recording when it runs."""
    found = _RECORDING.get(kind)
    if found is None:
        found = _RECORDING[kind] = type(f"Recording{kind.__name__}", (_Recording, kind), {})
    return found


class _Recording:
    """Mixed into a compiler: what it compiles records, on boards that really play, when it runs."""

    def __init__(self, program, coverage: Coverage, **options):
        self.coverage = coverage
        super().__init__(program, **options)

    def block(self, block):
        op = super().block(block)
        item = self.coverage.blocks.get(id(block))
        if item is not None:
            _record_start(op, self.coverage, item)
        return op

    def statement(self, node):
        op = super().statement(node)
        item = self.coverage.steps.get(id(node))
        if item is not None:
            _record_step(op, self.coverage, item)
        return op

    def op_If(self, node):
        op = super().op_If(node)
        item = self.coverage.false.get(id(node))
        if item is not None:
            _record_false(op, self.coverage, item)
        return op

    def condition(self, node):
        test = super().condition(node)
        item = self.coverage.conditions.get(id(node))
        return test if item is None else _recorded_test(test, self.coverage, item)

    def card(self, ref):
        read = super().card(ref)
        item = self.coverage.cards.get(id(ref))
        if item is None:
            return read
        coverage = self.coverage

        def recorded(board, ctx):
            if board is not None and not board.probe:
                coverage.hit(item)
            return read(board, ctx)
        return recorded

    def row(self, places):
        """A selection row (or a priority line) counts when it decides something: it keeps some
        of the places left and drops others."""
        keep = super().row(places)
        item = self.coverage.rows.get(id(places))
        if item is None:
            return keep
        coverage = self.coverage

        def recorded(board, ctx, left):
            kept = keep(board, ctx, left)
            if kept and len(kept) < len(left) and not board.probe:
                coverage.hit(item)
            return kept
        return recorded


def _recorded_test(test: Callable, coverage: Coverage, item: int) -> Callable:
    def recorded(board, ctx, it):
        if board is not None and not board.probe:
            coverage.hit(item)
        return test(board, ctx, it)
    return recorded


def _record_start(op, coverage: Coverage, item: int) -> None:
    """``op`` notes the item each time it starts: run at once, begun as a frame, or played."""
    run, begin, play = op.run, op.begin, op.play

    def recorded_run(board, ctx):
        if not board.probe:
            coverage.hit(item)
        return run(board, ctx)

    def recorded_begin(machine, ctx):
        if not machine.board.probe:
            coverage.hit(item)
        return begin(machine, ctx)

    def recorded_play(board, ctx, choose):
        if not board.probe:
            coverage.hit(item)
        return play(board, ctx, choose)
    op.run, op.begin, op.play = recorded_run, recorded_begin, recorded_play


def _record_step(op, coverage: Coverage, item: int) -> None:
    """A step of the sequence of play notes the item when it starts (frame[2] is 0 until then)."""
    step, play = op.step, op.play

    def recorded_step(machine, frame):
        if not frame[2] and not machine.board.probe:
            coverage.hit(item)
        return step(machine, frame)

    def recorded_play(board, ctx, choose):
        if not board.probe:
            coverage.hit(item)
        return play(board, ctx, choose)
    op.step, op.play = recorded_step, recorded_play


def _record_false(op, coverage: Coverage, item: int) -> None:
    """An ``if`` without ``otherwise`` notes the item when its condition is false."""
    branch_of = op._branch

    def recorded(board, ctx):
        branch = branch_of(board, ctx)
        if branch is None and not board.probe:
            coverage.hit(item)
        return branch
    op._branch = recorded
