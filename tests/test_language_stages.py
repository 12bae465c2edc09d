"""Every construct of the old front end's language has a handler at every stage: checker and
compiler.  (Its rules are put into words from the general front end's: tests/test_phrasing.py
checks that every construct of that one reads.)"""

import inspect

import pytest

from crisis.interpreter.compile import Compiler
from crisis.ruleset import ast as A
from crisis.ruleset.checker import _Run


@pytest.mark.parametrize("node", A.STATEMENT_TYPES, ids=lambda n: n.__name__)
def test_every_statement_is_checked_and_compiled(node):
    name = node.__name__
    assert hasattr(_Run, "stmt_" + name)
    assert hasattr(Compiler, "op_" + name)


@pytest.mark.parametrize("node", A.CONDITION_TYPES, ids=lambda n: n.__name__)
def test_every_condition_is_checked_and_compiled(node):
    name = node.__name__
    assert hasattr(_Run, "cond_" + name)
    assert hasattr(Compiler, "cond_" + name)


def test_the_type_lists_name_every_node_class():
    listed = set(A.STATEMENT_TYPES) | set(A.CONDITION_TYPES) | set(A.SPACE_BASE_TYPES) | set(A.HOLDER_TYPES)
    helpers = {A.Node, A.Pos, A.Name, A.Amount, A.Owner, A.Comparison, A.Player, A.ControlledBy, A.Where,
               A.Spaces, A.Locations, A.Dimensions, A.Block, A.CardRef, A.Change, A.Most, A.WithTerm,
               A.ItsDimension, A.ASpaceOf}
    classes = {obj for _, obj in inspect.getmembers(A, inspect.isclass) if obj.__module__ == A.__name__}
    assert classes - helpers == listed


def test_syntax_tree_nodes_are_frozen():
    node = A.ChangeVP(True, 1)
    with pytest.raises(Exception):
        node.amount = 2
