"""Locale catalogs: every text a player reads, looked up by key.

A catalog is the merge of the YAML files in ``locale/<lang>/``; nested keys are
joined with dots (``spaces.Fort Sumter``).  Messages use a small placeholder
syntax of our own (no ``str.format``: content is untrusted):

* ``{name}``                   the value of parameter ``name``;
* ``{n|token|tokens}``         a plural choice on number ``n`` (first form when n is 1);
* ``{g?m:el|f:la}``            a choice on a text parameter ``g`` (``*:`` is the default);
* ``{{`` and ``}}``            literal braces.

Grammar a language needs is data too:

* ``forms.<kind>.<name>.gender`` / ``.plural``: e.g. the gender of a space
  name (``m``, ``f``, ``mpl``, ``fpl``; empty for a name used without an
  article) so templates can choose ``el``/``la``/``los``/``las``;
* ``grammar.contractions``: replacements made after formatting, such as
  Spanish ``de el`` -> ``del``.

A message may use the grammar of any name it is given, ``{x_g}`` and ``{x_pl}``
for a parameter ``x``: where the program passes ``x`` as a display name and not
its grammar, ``Catalog.text`` finds them by that name in ``forms.*`` (so
``{side_g?m:el |f:la |*:}{side}`` reads "el Unionista" wherever a side is named).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Dict, Iterator, List, Mapping, Optional, Tuple

class MessageError(ValueError):
    """A text that cannot be filled; ``fragment``: the part of it at fault, from its start (an
    unclosed '{' and what follows it, a plural's braces), for a caret under it."""

    def __init__(self, message: str, fragment: str = ""):
        super().__init__(message)
        self.fragment = fragment


# the grammar a message may ask of a name it is given: x_g (gender and number), x_pl (plural)
REFERENCE_LANG = "en"  # the catalog every other language is checked against
GRAMMAR_FORMS = (("_g", "gender"), ("_pl", "plural"))


def _split_top(text: str, separator: str) -> List[str]:
    """Split on a separator that is not inside nested braces."""
    parts, depth, current = [], 0, []
    for char in text:
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        if char == separator and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return parts


_BRACE = re.compile(r"[{}]")
_COLOURS = re.compile(r"\x1b\[[0-9;]*m")  # a terminal's colour codes around a name (SGR sequences)


@lru_cache(maxsize=4096)
def _parse(message: str) -> tuple:
    """Message -> literal strings and ('ph', body) placeholders.

    Kept per message: a load checks each message's placeholders and then formats it,
    and a game formats the same few messages again and again."""
    out, i, literal = [], 0, []
    while i < len(message):
        # the text up to the next brace is literal: taken whole (every catalog message is parsed at load)
        brace = _BRACE.search(message, i)
        if brace is None:
            literal.append(message[i:])
            break
        if brace.start() > i:
            literal.append(message[i:brace.start()])
            i = brace.start()
        char = message[i]
        if message.startswith("{{", i) or message.startswith("}}", i):
            literal.append(char)
            i += 2
            continue
        if char == "}":
            raise MessageError("a '}' closes nothing (write '}}' for a brace)", message[i:])
        if char != "{":
            literal.append(char)
            i += 1
            continue
        depth, j = 1, i + 1
        while j < len(message) and depth:
            if message[j] == "{":
                depth += 1
            elif message[j] == "}":
                depth -= 1
            j += 1
        if depth:
            raise MessageError("a '{' is never closed (write '{{' for a brace)", message[i:])
        if literal:
            out.append("".join(literal))
            literal = []
        out.append(("ph", message[i + 1:j - 1]))
        i = j
    if literal:
        out.append("".join(literal))
    return tuple(out)


def _placeholder_name(body: str) -> str:
    return re.split(r"[|?]", body, maxsplit=1)[0].strip()


def placeholders(message: str) -> List[str]:
    """Parameter names a message uses (nested ones included), in order of first use."""
    names: List[str] = []
    for part in _parse(message):
        if isinstance(part, str):
            continue
        body = part[1]
        name = _placeholder_name(body)
        if name and name not in names:
            names.append(name)
        rest = body[len(body.split("|")[0].split("?")[0]):]
        for form in _split_top(rest[1:], "|") if rest else []:
            form = form.split(":", 1)[1] if "?" in body.split("|")[0] and ":" in form else form
            for nested in placeholders(form):
                if nested not in names:
                    names.append(nested)
    return names


# the presenter's words about the sentence a text sits in, not about what happened: who acts
# ("you", "they"), the statement's verb, the form asked (one, many, each), the mood ("where ..."):
# grammar one language marks and another may not
SENTENCE_GRAMMAR = frozenset({"actor", "verb", "who", "form", "mood"})


def selectors_only(message: str) -> set:
    """Parameter names a message uses only to choose between forms (``{actor?you:...|*:...}``),
    never printed nor counted."""
    chosen, shown = set(), set()
    stack = [message]
    while stack:
        for part in _parse(stack.pop()):
            if isinstance(part, str):
                continue
            body = part[1]
            head = body.split("|")[0]
            (chosen if "?" in head else shown).add(_placeholder_name(body))
            rest = body[len(head.split("?")[0]):]
            for form in _split_top(rest[1:], "|") if rest else []:
                stack.append(form.split(":", 1)[1] if "?" in head and ":" in form else form)
    return chosen - shown


def format_message(message: str, params: Mapping[str, object]) -> str:
    out = []
    for part in _parse(message):
        if isinstance(part, str):
            out.append(part)
            continue
        body = part[1]
        head = _split_top(body, "|")[0]
        if "?" in head:
            name, _, first_choice = head.partition("?")
            choices = [first_choice] + _split_top(body, "|")[1:]
            value = str(params.get(name.strip(), ""))
            chosen, default = None, None
            for choice in choices:
                key, sep, text = choice.partition(":")
                if not sep:
                    raise MessageError(f"choice '{choice}' needs the form key:text")
                if key.strip() == value and chosen is None:
                    chosen = text
                if key.strip() == "*":
                    default = text
            out.append(format_message(chosen if chosen is not None else (default or ""), params))
        elif "|" in body:
            name, *forms = _split_top(body, "|")
            value = params.get(name.strip())
            if not isinstance(value, int) or len(forms) != 2:
                # a third form would be dropped unseen: a language that says 0, 1 and more apart
                # chooses on the number instead ({n?0:...|1:...|*:...})
                raise MessageError(f"plural '{{{body}}}' needs a number and two forms, one and more"
                                   + (f", not {len(forms)} (to choose among more, write "
                                      f"'{{{name.strip()}?0:...|1:...|*:...}}')" if len(forms) > 2 else ""),
                                   "{" + body + "}")
            out.append(format_message(forms[0] if value == 1 else forms[1], params))
        else:
            name = body.strip()
            if name not in params:
                raise MessageError(f"no value for '{{{name}}}'")
            out.append(str(params[name]))
    return "".join(out)


INTERFACE_DIR = "interface"  # the tool's own words: content/interface/<lang>/*.yaml, shared by every game


def interface_dir():
    """The folder of the tool's catalogs, one folder per language (a game's catalogs come after)."""
    from importlib import resources
    from pathlib import Path
    return Path(str(resources.files("crisis.content") / INTERFACE_DIR))


def looked_in(root, lang: str) -> str:
    """Where a text of ``lang`` is looked for: the tool's catalog, then the game's at ``root``."""
    from pathlib import Path
    from .yamlfile import display_path
    return (f"looked in {display_path(interface_dir() / lang)}/ and then "
            f"{display_path(Path(root) / 'locale' / lang)}/")


def _one_full_stop(text: str) -> str:
    """A sentence that ends on a name ending in a period ("... to Washington D.C.") takes no second
    one; an ellipsis stays as it is."""
    if text.endswith("..") and not text.endswith("..."):
        return text[:-1]
    return text


class Catalog:
    """The messages of one language; ``fallback`` is used for a missing key.

    A plain class (no attrs): ``crisis --help`` reads the command line's catalog through it
    and must start at once."""

    def __init__(self, lang: str, messages: Dict[str, str],
                 positions: Optional[Dict[str, Tuple[str, int, int]]] = None, fallback: Optional["Catalog"] = None):
        self.lang = lang
        self.messages = messages
        self.positions = positions if positions is not None else {}
        self.fallback = fallback

    def __repr__(self) -> str:
        return f"Catalog(lang={self.lang!r}, {len(self.messages)} messages)"

    def has(self, key: str) -> bool:
        return key in self.messages

    def raw(self, key: str) -> Optional[str]:
        if key in self.messages:
            return self.messages[key]
        if self.fallback is not None:
            return self.fallback.raw(key)
        return None

    def text(self, key: str, **params) -> str:
        """The message for ``key`` with its parameters filled in; never raises.  A text of this
        language that cannot be filled (a placeholder misspelt in a translation) gives way to the
        fallback's, as a missing one does; ``<key>`` only where none can be read."""
        message = self.raw(key)
        if message is None:
            return f"<{key}>"
        text = self.formatted(message, params)
        if text is not None:
            return text
        if key in self.messages and self.fallback is not None:
            return self.fallback.text(key, **params)
        return f"<{key}>"

    def formatted(self, message: str, params: Mapping[str, object]) -> Optional[str]:
        """``message`` (a text of this catalog) filled in with ``params`` and this language's
        grammar; None where it cannot be."""
        try:
            text = self.contract(format_message(message, self.with_grammar(message, params)))
        except MessageError:
            return None
        return _one_full_stop(text) if message.endswith(".") else text

    def with_grammar(self, message: str, params: Mapping[str, object]) -> Mapping[str, object]:
        """``params`` and, for each ``x_g`` or ``x_pl`` the message uses but was not given, the
        grammar of the name ``x`` shows (from ``forms.*``): a name passed as its display text
        still gets its article.  A text that is no name (or two names with different forms) has
        no gender, and is its own plural."""
        if "_g" not in message and "_pl" not in message:
            return params
        wanted = [name for name in placeholders(message) if name not in params]
        if not wanted:
            return params
        found = dict(params)
        by_name = self._forms_by_name()
        for name in wanted:
            for suffix, form in GRAMMAR_FORMS:
                base = name[:-len(suffix)]
                if name.endswith(suffix) and isinstance(params.get(base), str):
                    shown = params[base]
                    if "\x1b" in shown:  # a name coloured for the terminal keeps its grammar
                        shown = _COLOURS.sub("", shown)
                    found[name] = by_name.get(shown, {}).get(form, shown if form == "plural" else "")
        return found

    def _forms_by_name(self) -> Dict[str, Dict[str, str]]:
        """Display name -> its forms ({"gender": "m", ...}), for every name with forms."""
        cached = getattr(self, "_forms_cache", None)
        if cached is None:
            cached, clashes = {}, set()
            prefix = "forms."
            for key, value in self.messages.items():
                if not key.startswith(prefix) or key.count(".") < 3:
                    continue
                kind, rest = key[len(prefix):].split(".", 1)
                name, form = rest.rsplit(".", 1)
                shown = self.name(kind, name)
                forms = cached.setdefault(shown, {})
                if forms.get(form, value) != value:
                    clashes.add((shown, form))
                forms[form] = value
            for shown, form in clashes:  # one display text, two names of different grammar: unknown
                del cached[shown][form]
            self._forms_cache = cached
        return cached

    def contract(self, text: str) -> str:
        """Apply the language's contractions (Spanish "de el" -> "del")."""
        pairs = self._contractions()
        for old, new in pairs:
            if old in text:
                text = text.replace(old, new)
            capital = self.capitalized(old)
            if capital in text:
                text = text.replace(capital, self.capitalized(new))
        return text

    @staticmethod
    def capitalized(text: str) -> str:
        """A contraction at the start of a sentence ("De el" -> "Del")."""
        return text[:1].upper() + text[1:]

    def _contractions(self) -> List[Tuple[str, str]]:
        cached = getattr(self, "_contraction_cache", None)
        if cached is None:
            prefix = "grammar.contractions."
            cached = [(k[len(prefix):], v) for k, v in self.messages.items() if k.startswith(prefix)]
            self._contraction_cache = cached
        return cached

    def form(self, kind: str, name: str, form: str, default: str = "") -> str:
        """A grammatical form of a name (gender, plural ...), from ``forms.*``."""
        value = self.messages.get(f"forms.{kind}.{name}.{form}")
        return value if value is not None else default

    def name(self, kind: str, name: str, default: Optional[str] = None) -> str:
        """Display name of a game thing: kind is sides, spaces, dimensions, zones or markers; where
        the catalog has none, ``default`` (the word the rules use), else the name as written."""
        message = self.raw(f"{kind}.{name}")
        if message is not None:
            return message
        return default if default is not None else name

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
