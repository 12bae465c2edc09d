"""Frozen attrs classes that cost less to define.

attrs writes a ``__repr__``, an ``__eq__`` and a ``__hash__`` for each class
it makes and compiles them with its ``__init__``; over the few hundred classes
of the syntax tree (nodes.py), the checked rules (meaning.py) and the game's
schema, that compiling is most of what importing those modules costs, and
every start of every command pays it.  ``frozen`` makes the same frozen class
with only its ``__init__`` compiled and shares the rest among all of them:

- ``fields_repr`` writes what attrs' own would: the class's name, then each
  field shown (``repr=False`` on a field still hides it) with its value's
  ``repr``;
- ``fields_eq`` and ``fields_hash`` compare and hash what attrs' own would:
  the fields compared (``eq=False`` on a field, a node's position, leaves it
  out), and only between instances of the very same class.
"""

from __future__ import annotations

import operator

import attrs


def fields_repr(self) -> str:
    cls = type(self)
    shown = []
    for field in attrs.fields(cls):
        if field.repr is False:
            continue
        value = getattr(self, field.name)
        shown.append(f"{field.name}={field.repr(value) if callable(field.repr) else repr(value)}")
    return f"{cls.__qualname__.rsplit('>.', 1)[-1]}({', '.join(shown)})"


def _fields_key(cls):
    """The values attrs' own ``__eq__`` and ``__hash__`` compare: the fields with ``eq``."""
    names = tuple(field.name for field in attrs.fields(cls) if field.eq)
    if not names:
        return lambda self: ()
    return operator.attrgetter(*names)  # one name: the value itself, which compares the same


def fields_eq(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    key = self.__fields_key__
    return key(self) == key(other)


def fields_hash(self):
    return hash((self.__class__.__qualname__, self.__fields_key__(self)))


def frozen(cls):
    """``attrs.frozen``, its ``__repr__``, ``__eq__`` and ``__hash__`` the shared ones."""
    made = attrs.frozen(cls, repr=False, eq=False)
    made.__fields_key__ = staticmethod(_fields_key(made))
    made.__repr__ = fields_repr
    made.__eq__ = fields_eq
    made.__hash__ = fields_hash
    return made
