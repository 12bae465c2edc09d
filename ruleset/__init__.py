"""The rules language: grammar, parser, typed AST, checker."""
