"""Locale catalogs: every text a player reads, looked up by key.

A catalog is the merge of the YAML files in ``locale/<lang>/``; nested keys are
joined with dots (``spaces.Fort Sumter``).  Messages use a small placeholder
syntax of our own (no ``str.format``: content is untrusted):

* ``{name}``                   the value of parameter ``name``;
* ``{n|token|tokens}``         a plural choice on number ``n`` (first form when n is 1);
* ``{g?m:el|f:la}``            a choice on a text parameter ``g`` (``*:`` is the default);
* ``{{`` and ``}}``            literal braces.
"""

from __future__ import annotations

import re
from typing import Dict, Iterator, List, Mapping, Optional, Tuple

import attrs

_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")


class MessageError(ValueError):
    pass


def placeholders(message: str) -> List[str]:
    """Parameter names a message uses, in order of first use."""
    names: List[str] = []
    for match in _PLACEHOLDER.finditer(message):
        body = match.group(1)
        if body is None:
            continue
        name = re.split(r"[|?]", body, maxsplit=1)[0].strip()
        if name and name not in names:
            names.append(name)
    return names


def format_message(message: str, params: Mapping[str, object]) -> str:
    def replace(match: re.Match) -> str:
        whole, body = match.group(0), match.group(1)
        if body is None:
            return whole[0]
        if "?" in body and ("|" not in body or body.index("?") < body.index("|")):
            name, _, choices = body.partition("?")
            value = str(params.get(name.strip(), ""))
            default = ""
            for choice in choices.split("|"):
                key, sep, text = choice.partition(":")
                if not sep:
                    raise MessageError(f"choice '{choice}' needs the form key:text")
                if key.strip() == value:
                    return text
                if key.strip() == "*":
                    default = text
            return default
        if "|" in body:
            name, *forms = body.split("|")
            value = params.get(name.strip())
            if not isinstance(value, int) or len(forms) < 2:
                raise MessageError(f"plural '{{{body}}}' needs a number and two forms")
            return forms[0] if value == 1 else forms[1]
        name = body.strip()
        if name not in params:
            raise MessageError(f"no value for '{{{name}}}'")
        return str(params[name])

    return _PLACEHOLDER.sub(replace, message)


@attrs.define
class Catalog:
    """The messages of one language; ``fallback`` is used for a missing key."""

    lang: str
    messages: Dict[str, str]
    positions: Dict[str, Tuple[str, int, int]] = attrs.field(factory=dict, repr=False)
    fallback: Optional["Catalog"] = attrs.field(default=None, repr=False)

    def has(self, key: str) -> bool:
        return key in self.messages

    def raw(self, key: str) -> Optional[str]:
        if key in self.messages:
            return self.messages[key]
        if self.fallback is not None:
            return self.fallback.raw(key)
        return None

    def text(self, key: str, **params) -> str:
        """The message for ``key`` with its parameters filled in; never raises."""
        message = self.raw(key)
        if message is None:
            return f"<{key}>"
        try:
            return format_message(message, params)
        except MessageError:
            return f"<{key}>"

    def name(self, kind: str, name: str) -> str:
        """Display name of a game thing: kind is sides, spaces, dimensions, zones or markers."""
        message = self.raw(f"{kind}.{name}")
        return message if message is not None else name

    def keys(self) -> Iterator[str]:
        return iter(self.messages)


def flatten(tree: Mapping, prefix: str = "") -> Iterator[Tuple[str, object, Mapping, object]]:
    """(dotted key, value, parent mapping, key in parent) for every leaf."""
    for key, value in tree.items():
        full = f"{prefix}{key}"
        if isinstance(value, Mapping):
            yield from flatten(value, full + ".")
        else:
            yield full, value, tree, key
