"""Rule coverage: which rules, ``either`` options and ``if`` branches a run exercised.

A designer asks of a set of scenarios (or a batch of simulated games): does
every card event run, every option get chosen, every branch get taken?  The
items are found by walking every ``Rule`` the content loaded (generically,
so rules added later, such as solo tables, are counted without code here),
and their nodes.  To cost nothing when nobody asks, the rules are compiled a
second time, instrumented, for a copy of the content: plain games never see
the recorder.

Kinds of items: one per rule (card event, objective event, breach effect,
procedure, or the content field the rule sits in), one per ``either`` option,
and two per ``if`` (its branch, and its ``otherwise``, or the condition
being false when there is none).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

import attrs

from crisis.content.model import Content, Rule
from crisis.ruleset import ast as A

from .compile import BlockOp, Compiler, Op
from .tables import _CACHE, Tables

RULE_KINDS = {"strategy_cards": "card_event", "objective_cards": "objective_event",
              "breach_effects": "breach_effect", "procedures": "procedure",
              # the solo game: a row of a Solo Opponent Aid, a priority line, any other solo rule
              "aids": "solo_table_row", "markers": "solo_priority_line", "solo": "solo_rule"}
EITHER, IF = "either_option", "if_branch"


@attrs.define
class Item:
    kind: str  # card_event, objective_event, breach_effect, procedure, either_option, if_branch, or a content field
    label: str  # the rule: "card major-anderson", "Tension (first breacher)", "pivotal_bonus"
    path: Optional[str]
    line: Optional[int]
    branch: str = ""  # for options and branches: the option's number, "then", "otherwise" or "false"

    @property
    def where(self) -> str:
        return f"{self.path or '<rules>'}:{self.line or 1}"


def content_rules(content: Content) -> Iterator[Tuple[str, str, Rule]]:
    """(kind, label, rule) for every rule the content holds, found by walking it."""
    def walk(value: Any, path: Tuple[str, ...]):
        if isinstance(value, Rule):
            yield path, value
        elif attrs.has(type(value)):
            for field in attrs.fields(type(value)):
                if field.name not in ("catalogs", "warnings", "board"):
                    yield from walk(getattr(value, field.name), path + (field.name,))
        elif isinstance(value, dict):
            for key, item in value.items():
                yield from walk(item, path + (str(key),))
        elif isinstance(value, (tuple, list)):
            for index, item in enumerate(value):
                yield from walk(item, path + (_name_of(item, index),))

    for path, rule in walk(content, ()):
        kind = next((RULE_KINDS[p] for p in reversed(path[:-1] or path) if p in RULE_KINDS), path[0])
        yield kind, _label(path), rule


def _name_of(item: Any, index: int) -> str:
    """A card by its id, a (label, rule) pair by its label, else the position."""
    if getattr(item, "id", None):
        return str(item.id)
    if isinstance(item, tuple) and item and isinstance(item[0], str):
        return item[0]
    return str(index + 1)


def _label(path: Tuple[str, ...]) -> str:
    if path[:2] == ("solo", "aids"):  # solo, aids, side, tables, table, row number, rule
        return f"{path[2]} aid, {path[4]} table, row {path[5]}"
    if path[:2] == ("solo", "markers"):  # solo, markers, marker, line number, rule
        return f"{path[2]} priorities, line {path[3]}"
    if path[0] in ("strategy_cards", "objective_cards"):
        return f"{'card' if path[0] == 'strategy_cards' else 'objective'} {path[1]}"
    parts = [p for p in path if p not in ("procedures", "event", "tree")]
    if len(parts) == 3 and parts[0] == "breach_effects":  # (first, second) pairs per zone
        return f"{parts[1]} ({ {'1': 'first breacher', '2': 'second breacher'}.get(parts[2], parts[2]) })"
    if len(parts) == 3 and parts[2] == "2":  # (label, rule) pairs: the rule is the second element
        parts = parts[:2]
    if parts and parts[-1].isdigit():
        parts[-1] = "#" + parts[-1]
    return " ".join(parts)


def _merge(first: str, second: str) -> str:
    """'Escalation (first breacher)' and 'Escalation (second breacher)' -> 'Escalation (first and second breacher)'."""
    head, _, role = first.partition(" (")
    other_head, _, other_role = second.partition(" (")
    if head == other_head and role and other_role:
        return f"{head} ({role.split()[0]} and {other_role}"
    return f"{first}; {second}"


class Coverage:
    """The items of a content, and which runs exercised each."""

    def __init__(self, content: Content):
        self.source_content = content
        self.items: List[Item] = []
        self.rule_items: Dict[int, int] = {}  # id(rule tree) -> item
        self.branch_items: Dict[Tuple[int, str], int] = {}  # (id(node), which) -> item
        self.hits: Dict[int, Set[str]] = defaultdict(set)
        self.current = "?"
        for kind, label, rule in content_rules(content):
            if id(rule.tree) in self.rule_items:
                # one rule in two places (a zone whose breachers get the same effect): one item
                item = self.items[self.rule_items[id(rule.tree)]]
                item.label = _merge(item.label, label)
                continue
            self.rule_items[id(rule.tree)] = self._add(kind, label, rule, rule.tree)
            for node in rule.tree.walk():
                if isinstance(node, A.Either):
                    for index, option in enumerate(node.options):
                        self.branch_items[(id(node), str(index))] = self._add(
                            EITHER, label, rule, option, str(index + 1))
                elif isinstance(node, A.If):
                    self.branch_items[(id(node), "then")] = self._add(IF, label, rule, node, "then")
                    self.branch_items[(id(node), "else")] = self._add(
                        IF, label, rule, node.otherwise if node.otherwise is not None else node,
                        "otherwise" if node.otherwise is not None else "false")
        # a copy of the content whose compiled rules record into this object
        self.content = attrs.evolve(content)
        tables = _CACHE[id(self.content)] = Tables(self.content, compiler=lambda tables: CoverageCompiler(tables, self))
        self._record_cases(tables)

    def _record_cases(self, tables: Tables) -> None:
        """Rules read once, when the rules are compiled, and chosen among in play: the holders of
        each case of the solo game's Available tokens.  A case counts as exercised each time it is
        the one that applies (its condition holds, or it is the last), as a branch does."""
        solo = getattr(tables, "solo", None)
        cases = getattr(self.source_content.solo, "available", None) if self.source_content.solo else None
        if solo is None or not cases or len(solo.available) != len(cases):
            return
        recorded = []
        for (test, codes), case in zip(solo.available, cases):
            item = self.rule_items.get(id(case.tokens.tree))
            recorded.append((test if item is None else self._applies(test, item), codes))
        solo.available = tuple(recorded)

    def _applies(self, test, item: int):
        def applies(ex, ctx, it):
            if test is not None and not test(ex, ctx, it):
                return False
            self.hit(item)
            return True
        return applies

    def _add(self, kind: str, label: str, rule: Rule, node, branch: str = "") -> int:
        path, line = None, None
        source = rule.source
        if isinstance(node, A.Block) and node.statements:
            node = node.statements[0]  # a block is where its first statement is
        pos = getattr(node, "pos", None) or _first_pos(node)
        if source is not None:
            path = source.path
            line = source.locate(pos.line, pos.column)[0] if pos else source.locate(1, 1)[0]
        self.items.append(Item(kind, label, path, line, branch))
        return len(self.items) - 1

    # ------------------------------------------------------------ recording
    def start(self, label: str) -> None:
        """What runs next (a scenario's file:line, or 'sim')."""
        self.current = label

    def hit(self, item: int) -> None:
        self.hits[item].add(self.current)

    # ------------------------------------------------------------ reporting
    def kinds(self) -> List[str]:
        """Kinds of item present: events first, then options and branches, rules of play, anything else."""
        order = ["card_event", "objective_event", EITHER, IF, "breach_effect", "procedure"]
        present = list(dict.fromkeys(item.kind for item in self.items))
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


def _first_pos(node) -> Optional[A.Pos]:
    for child in node.walk() if hasattr(node, "walk") else ():
        if child.pos is not None:
            return child.pos
    return None


class Recorded(Op):
    """An op that notes, each time it really runs (not when its effect is only probed), an item."""

    def __init__(self, op: Op, coverage: Coverage, item: int):
        self.op, self.coverage, self.item, self.node = op, coverage, item, op.node
        self.asks = op.asks  # the same protocol as the op it wraps (see compile.Op)

    def run(self, ex, ctx):
        self.coverage.hit(self.item)
        return self.op.run(ex, ctx)

    def can_act(self, ex, ctx):
        return self.op.can_act(ex, ctx)


class CoverageCompiler(Compiler):
    """The plain compiler, with each rule, option and branch wrapped to record when it runs."""

    def __init__(self, tables, coverage: Coverage):
        super().__init__(tables)
        self.coverage = coverage

    def block(self, block: A.Block) -> Op:
        op = super().block(block)
        item = self.coverage.rule_items.get(id(block))
        return op if item is None else Recorded(op, self.coverage, item)

    def condition(self, node):
        test = super().condition(node)
        item = self.coverage.rule_items.get(id(node))
        if item is None:
            return test
        coverage = self.coverage

        def recorded(ex, ctx, it):
            coverage.hit(item)
            return test(ex, ctx, it)
        return recorded

    def op_If(self, node: A.If) -> Op:
        op = super().op_If(node)
        items = self.coverage.branch_items
        op.then = Recorded(op.then, self.coverage, items[(id(node), "then")])
        # no otherwise: an empty one, so the condition being false is seen too (it does nothing, as before)
        otherwise = op.otherwise if op.otherwise is not None else BlockOp([], None)
        op.otherwise = Recorded(otherwise, self.coverage, items[(id(node), "else")])
        return op

    def row(self, locations):
        """A space-selection row counts as exercised when it decides something: it keeps some
        of the spaces left and drops others."""
        keep = super().row(locations)
        item = self.coverage.rule_items.get(id(locations))
        if item is None:
            return keep
        coverage = self.coverage

        def recorded(ex, ctx, left):
            kept = keep(ex, ctx, left)
            if kept and len(kept) < len(left):
                coverage.hit(item)
            return kept
        return recorded

    def op_Either(self, node: A.Either) -> Op:
        op = super().op_Either(node)
        items = self.coverage.branch_items
        op.options = tuple(Recorded(option, self.coverage, items[(id(node), str(index))])
                           for index, option in enumerate(op.options))
        return op
