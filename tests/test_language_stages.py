"""Every construct of the rules language has a handler at every stage of the general front end and
engine: the resolver reads each statement and condition of the syntax tree (ruleset/nodes.py) into
what it means (ruleset/meaning.py), the compiler turns each meaning into operations, the bound
costs it (tests/test_rule_bound.py) and the phrasing reads each condition (tests/test_phrasing.py).
A construct added to the grammar but forgotten at a stage fails here, not in a designer's game."""

import inspect
import typing

import attrs
import pytest

from crisis.interpreter.engine.compiler import Compiler
from crisis.interpreter.engine.sequence import SequenceCompiler
from crisis.ruleset import meaning as M
from crisis.ruleset import nodes as N
from crisis.ruleset.resolver import _Run


def names(union) -> list:
    return [t.__forward_arg__ if isinstance(t, typing.ForwardRef) else t.__name__ for t in typing.get_args(union)]


def meaning_statements() -> list:
    """The statements of meaning.py: its classes from the statements' heading on (a block is
    a statement's body, not a statement of its own)."""
    lines = inspect.getsource(M).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# ---") and line.endswith(" statements"))
    return [line[len("class "):].split("(")[0] for line in lines[start:] if line.startswith("class ")
            and not line.startswith("class Block(")]


# a declared verb ("tap the card") is read as the procedure or change it stands for: the resolver
# never leaves a Call in a rule's meaning
NEVER_BUILT = {"Call"}


@pytest.mark.parametrize("name", names(N.Statement))
def test_every_statement_is_resolved(name):
    assert hasattr(_Run, "stmt_" + name)


@pytest.mark.parametrize("name", names(N.Condition))
def test_every_condition_is_resolved(name):
    assert hasattr(_Run, "cond_" + name)


@pytest.mark.parametrize("name", sorted(set(meaning_statements()) - NEVER_BUILT))
def test_every_statement_meaning_is_compiled(name):
    assert hasattr(Compiler, "op_" + name) or hasattr(SequenceCompiler, "op_" + name)


@pytest.mark.parametrize("name", names(M.Condition))
def test_every_condition_meaning_is_compiled(name):
    assert hasattr(Compiler, "cond_" + name)


def test_no_rule_of_the_shipped_games_means_a_call(content):
    """What NEVER_BUILT says: no rule of a definition holds a Call once resolved."""
    from pathlib import Path

    from crisis.content.loader import default_content_dir, read_game
    from crisis.content.phrases import every_rule
    data = Path(__file__).parent / "data"
    games = [default_content_dir().parent / "civil-war-card-game", data / "three-crowns", data / "skirmish"]
    definitions = [content.definition] + [read_game(game) for game in games]
    found, seen = [], 0
    for definition in definitions:
        for label, _, rule, _ in every_rule(definition):
            stack = [rule]
            while stack:
                node = stack.pop()
                if isinstance(node, (tuple, list)):
                    stack.extend(node)
                elif isinstance(node, M.Meaning):
                    seen += 1
                    if type(node).__name__ in NEVER_BUILT:
                        found.append(label)
                    stack.extend(getattr(node, a.name) for a in attrs.fields(type(node)) if a.name != "node")
    assert found == [] and seen > 1000


def test_the_type_lists_name_every_node_class():
    listed = set(names(N.Statement)) | set(names(N.Condition))
    parts = {"Node", "Pos", "Word", "Player", "Possessive", "Relation", "Phrase", "Where", "Most", "WithTerm",
             "Whose", "Filtered", "Places", "Pieces", "Quantity", "Number", "Comparison", "EachPlayer", "Change",
             "Limit", "Selection", "Covering", "Block", "OrderChoice"}
    classes = {name for name, obj in inspect.getmembers(N, inspect.isclass) if obj.__module__ == N.__name__}
    assert classes - parts == listed


def test_syntax_tree_nodes_and_meanings_are_frozen():
    node = N.Gain(1, N.Pieces(noun="VP"))
    with pytest.raises(Exception):
        node.n = 2
    with pytest.raises(Exception):
        M.Literal(1).value = 2


def frozen_classes():
    from crisis.content import schema
    return [cls for module in (N, M, schema) for cls in vars(module).values()
            if isinstance(cls, type) and attrs.has(cls) and cls.__module__ == module.__name__]


def test_a_node_shows_its_class_and_fields_without_its_position():
    """The tree's classes share one repr (ruleset/frozen.py: attrs' own per class cost a third of
    their import) and show what attrs' would: what a developer reads in a failed test."""
    word = N.Word("Washington", "NAME", pos=N.Pos(3, 7, 3, 17))
    assert repr(word) == "Word(text='Washington', kind='NAME')"
    assert repr(N.Player("you")) == "Player(kind='you')"
    assert repr((word,)) == "(Word(text='Washington', kind='NAME'),)"
    assert len(frozen_classes()) > 150
    for cls in frozen_classes():
        fields = [f for f in attrs.fields(cls) if f.init]
        shown = repr(cls(**{f.alias: number for number, f in enumerate(fields)}))
        assert shown == f"{cls.__name__}(" + ", ".join(f"{f.name}={number}" for number, f in enumerate(fields)
                                                        if f.repr) + ")"


def test_nodes_are_equal_when_their_fields_are_whatever_their_positions():
    """The tree's classes share one ``__eq__`` and ``__hash__`` too (ruleset/frozen.py): two nodes
    are equal, and hash alike, when they are of one class and their fields are; a position (a
    field with ``eq=False``) is not compared; nodes of two classes are never equal; each class
    compares as attrs' own ``__eq__`` would."""
    here, there = N.Pos(3, 7, 3, 17), N.Pos(9, 1, 9, 11)
    assert N.Word("Washington", "NAME", pos=here) == N.Word("Washington", "NAME", pos=there)
    assert hash(N.Word("Washington", "NAME", pos=here)) == hash(N.Word("Washington", "NAME", pos=there))
    assert N.Word("Washington", "NAME") != N.Word("Washington", "NUMBER")
    assert N.Word("Washington", "NAME") != N.Word("Richmond", "NAME")
    assert len({N.Player("you"), N.Player("you"), N.Player("opponent")}) == 2
    for cls in frozen_classes():
        fields = [f for f in attrs.fields(cls) if f.init]
        one = cls(**{f.alias: number for number, f in enumerate(fields)})
        same = cls(**{f.alias: number if f.eq else -number for number, f in enumerate(fields)})
        assert one == same and hash(one) == hash(same) and not (one != same), cls
        compared = [f for f in fields if f.eq]
        if compared:
            other = cls(**{f.alias: number + (f is compared[-1]) for number, f in enumerate(fields)})
            assert one != other and not (one == other), cls
        twin = next((c for c in frozen_classes() if c is not cls
                     and [f.alias for f in attrs.fields(c) if f.init] == [f.alias for f in fields]), None)
        if twin is not None:
            assert one != twin(**{f.alias: number for number, f in enumerate(fields)}), (cls, twin)
