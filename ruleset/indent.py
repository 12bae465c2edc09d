"""Indented blocks: Lark's ``Indenter`` post-lexer, with the faulty line kept for the error."""

from __future__ import annotations

from lark import Token
from lark.indenter import Indenter


class IndentationProblem(Exception):
    """A line whose indentation matches no enclosing block."""

    def __init__(self, token: Token):
        self.token = token


class RulesIndenter(Indenter):
    """Lark's indenter, as in its Python example, keeping the token where indentation goes wrong."""

    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR"]
    CLOSE_PAREN_types = ["RPAR"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8

    def handle_NL(self, token):
        # Lark's Indenter raises a bare DedentError; keep the token so the
        # designer sees where the indentation went wrong.
        if self.paren_level > 0:
            return
        yield token
        indent_str = token.rsplit("\n", 1)[1]
        indent = indent_str.count(" ") + indent_str.count("\t") * self.tab_len
        if indent > self.indent_level[-1]:
            self.indent_level.append(indent)
            yield Token.new_borrow_pos(self.INDENT_type, indent_str, token)
        else:
            while indent < self.indent_level[-1]:
                self.indent_level.pop()
                yield Token.new_borrow_pos(self.DEDENT_type, indent_str, token)
            if indent != self.indent_level[-1]:
                raise IndentationProblem(token)
