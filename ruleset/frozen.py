"""Frozen attrs classes that cost less to define.

attrs writes a ``__repr__`` for each class it makes and compiles it with the
class's other methods; over the few hundred classes of the syntax tree
(nodes.py), the checked rules (meaning.py) and the game's schema, the repr
is about a third of what importing those modules costs, and every start of
every command pays it.  ``frozen`` makes the same frozen class without that
method and gives it ``fields_repr``, one function shared by all of them,
which writes what attrs' own would: the class's name, then each field shown
(``repr=False`` on a field still hides it) with its value's ``repr``.
"""

from __future__ import annotations

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


def frozen(cls):
    """``attrs.frozen``, its ``__repr__`` the shared one."""
    made = attrs.frozen(cls, repr=False)
    made.__repr__ = fields_repr
    return made
