"""The engine knows no game (issue 19): Fort Sumter's words are not in its code.

The identifiers and string literals of ``ruleset/``, ``interpreter/``,
``cli/`` and ``balance/`` (comments and docstrings may cite a rulebook), and
the rules language's grammar, hold none of Fort Sumter's words.  Every name a
game gives its things comes from its content.

While the commands move onto the general engine, the modules of the Fort Sumter
engine that are still in use are listed below; the list only shrinks: a module
that no longer holds these words, or no longer exists, must leave it.
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("ruleset", "interpreter", "cli", "balance")
WORDS = re.compile(r"crisis|breach|pivotal|dimension|objective|peace|commissioner|escalation|tension|unionist|"
                   r"secessionist|sumter|solo[ _]opponent|event[ _-]?discard", re.IGNORECASE)
# the tool's own name: the package, the program, its environment variables and files
TOOL = re.compile(r"^(crisis([.\-/ ].*)?|CRISIS_\w*)$")


def _docstrings(tree) -> set:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found


def names_and_strings(tree, keywords: bool = True):
    """(line, text, whether it is a string literal) of each name a module gives or uses (variables, attributes, functions, classes,
    arguments, keyword arguments when ``keywords``) and each string literal but its docstrings:
    where a game's word would be a concept the code knows (comments and docstrings may cite a
    rulebook).  Also read by tests/test_civil_war.py."""
    docstrings = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            yield node.lineno, node.id, False
        elif isinstance(node, ast.Attribute):
            yield node.lineno, node.attr, False
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.lineno, node.name, False
        elif isinstance(node, ast.arg):
            yield node.lineno, node.arg, False
        elif keywords and isinstance(node, ast.keyword) and node.arg:
            yield node.value.lineno, node.arg, False
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value, True


def words_in_python(path: Path) -> list:
    """(line, text) of each identifier or string literal holding one of the words."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(line, text) for line, text, literal in names_and_strings(tree)
            if WORDS.search(text) and not (literal and TOOL.match(text))]


def words_in_grammar(path: Path) -> list:
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        code = line.split("//", 1)[0]
        if WORDS.search(code):
            found.append((number, code.strip()))
    return found


def sources():
    for folder in FOLDERS:
        yield from sorted((ROOT / folder).rglob("*.py"))
    yield from sorted((ROOT / "ruleset").glob("*.lark"))


def test_no_fort_sumter_word_in_the_engine():
    offending = {}
    for path in sources():
        name = path.relative_to(ROOT).as_posix()
        found = words_in_grammar(path) if path.suffix == ".lark" else words_in_python(path)
        if found:
            offending[name] = found[:5]
    assert offending == {}, "Fort Sumter's words in the engine (names come from content): " + repr(offending)


@pytest.mark.parametrize("text, found", [("final_crisis_order", True), ("log.zone_entered", False),
                                         ("Pivotal", True), ("crisis.interpreter", False)])
def test_the_words_are_found_in_any_case_and_inside_names(tmp_path, text, found):
    module = tmp_path / "module.py"
    module.write_text(f"x = {text!r}\n")
    assert bool(words_in_python(module)) is found
