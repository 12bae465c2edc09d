"""YAML that remembers where each value came from.

Built on PyYAML's ``SafeLoader`` (no Python objects can be constructed), it
returns plain dicts, lists and scalars, where dicts and lists also know the
line and column of each entry, and strings know how to locate rule text
inside themselves.  Duplicate keys, which PyYAML silently accepts, are errors.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import yaml

from crisis.ruleset.diagnostics import Diagnostic, Source, UserError


class ContentError(UserError):
    """The game content is wrong; nothing of it was loaded."""


Position = Tuple[int, int]  # 1-based line and column


class Text(str):
    """A YAML string that can give rule text a ``Source`` pointing into the file."""

    path: str
    line: int
    column: int
    style: Optional[str]
    file_lines: Tuple[str, ...]
    _offsets: Tuple[int, Tuple[int, ...]]

    def source(self, label: Optional[str] = None) -> Source:
        line_offset, column_offsets = self._offsets
        return Source(text=str(self), path=self.path, file_lines=self.file_lines,
                      line_offset=line_offset, column_offsets=column_offsets, label=label)


class Map(dict):
    """A YAML mapping with the position of each key and each value."""

    path: str
    line: int
    column: int
    key_positions: Dict[Any, Position]
    value_positions: Dict[Any, Position]


class Seq(list):
    path: str
    line: int
    column: int
    positions: List[Position]


class YamlFile:
    """One parsed YAML file, its lines kept for quoting in diagnostics."""

    def __init__(self, path: str, text: str):
        self.path = path
        self.text = text
        self.lines = tuple(text.split("\n"))

    def diagnostic(self, position: Optional[Position], message: str, *, width: int = 1,
                   expected: Optional[str] = None, hint: Optional[str] = None) -> Diagnostic:
        if position is None:
            return Diagnostic(message=message, path=self.path, expected=expected, hint=hint)
        line, column = position
        source_line = self.lines[line - 1] if 1 <= line <= len(self.lines) else None
        return Diagnostic(message=message, path=self.path, line=line, column=column,
                          width=width, source_line=source_line, expected=expected, hint=hint)

    def load(self) -> Any:
        loader = yaml.SafeLoader(self.text)
        try:
            node = loader.get_single_node()
            if node is None:
                return None
            errors: List[Diagnostic] = []
            value = self._convert(node, loader, errors)
        except yaml.MarkedYAMLError as error:
            mark = error.problem_mark or error.context_mark
            position = (mark.line + 1, mark.column + 1) if mark else None
            raise ContentError([self.diagnostic(position, f"this is not valid YAML: {error.problem}",
                                                hint=error.context)]) from None
        finally:
            loader.dispose()
        if errors:
            raise ContentError(errors)
        return value

    # ------------------------------------------------------------- nodes
    def _convert(self, node, loader, errors):
        expected_tag = {yaml.MappingNode: "map", yaml.SequenceNode: "seq"}.get(type(node))
        if expected_tag and node.tag != f"tag:yaml.org,2002:{expected_tag}":
            # collections are built here, not by PyYAML: refuse tags that ask for objects
            errors.append(self.diagnostic(_pos(node), f"the YAML tag '{node.tag}' is not allowed",
                                          hint="content files hold plain mappings, lists, text and numbers"))
            return Map() if expected_tag == "map" else Seq()
        if isinstance(node, yaml.MappingNode):
            result = Map()
            result.path, result.line, result.column = self.path, node.start_mark.line + 1, node.start_mark.column + 1
            result.key_positions, result.value_positions = {}, {}
            for key_node, value_node in node.value:
                key = self._convert(key_node, loader, errors)
                if isinstance(key, (dict, list)):
                    errors.append(self.diagnostic(_pos(key_node), "a key must be a plain word or number"))
                    continue
                key = str(key) if isinstance(key, Text) else key
                if key in result:
                    first = result.key_positions[key]
                    errors.append(self.diagnostic(_pos(key_node), f"'{key}' is given twice",
                                                  width=len(str(key)),
                                                  hint=f"it was first given on line {first[0]}"))
                    continue
                result[key] = self._convert(value_node, loader, errors)
                result.key_positions[key] = _pos(key_node)
                result.value_positions[key] = _pos(value_node)
            return result
        if isinstance(node, yaml.SequenceNode):
            result = Seq(self._convert(item, loader, errors) for item in node.value)
            result.path, result.line, result.column = self.path, node.start_mark.line + 1, node.start_mark.column + 1
            result.positions = [_pos(item) for item in node.value]
            return result
        value = loader.construct_object(node, deep=True)
        if isinstance(value, str):
            return self._text(value, node)
        return value

    def _text(self, value: str, node) -> Text:
        text = Text(value)
        text.path, text.file_lines, text.style = self.path, self.lines, node.style
        text.line, text.column = node.start_mark.line + 1, node.start_mark.column + 1
        if node.style in ("|", ">"):
            # the text starts on the line after the indicator, at the block's indentation
            first = node.start_mark.line + 1
            indent = 0
            for line in self.lines[first:node.end_mark.line + 1]:
                if line.strip():
                    indent = len(line) - len(line.lstrip(" "))
                    break
            text._offsets = (first, (indent,))
        else:
            quote = 1 if node.style in ("'", '"') else 0
            text._offsets = (node.start_mark.line, (node.start_mark.column + quote,))
        return text


def _pos(node) -> Position:
    return node.start_mark.line + 1, node.start_mark.column + 1
