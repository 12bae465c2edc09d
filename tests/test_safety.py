"""Untrusted content cannot run code: no eval/exec, only safe YAML, no pickles of ours."""

import ast
import re
from pathlib import Path

import pytest

from crisis.content.loader import load_content
from crisis.content.yamlfile import ContentError

from helpers import copy_content

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [p for folder in ("ruleset", "interpreter", "content", "cli") for p in (ROOT / folder).rglob("*.py")]
FORBIDDEN = [r"\beval\(", r"\bexec\(", r"yaml\.load\(", r"yaml\.unsafe_load", r"yaml\.full_load",
             r"FullLoader", r"UnsafeLoader", r"import pickle", r"\.format\(\*\*", r"__import__"]


# The one place that may run code: generated rules, after verify() has walked their syntax tree
# (docs/limits.md).  It is checked below by its shape, not excused by name alone.
GENERATED_CODE_RUNNER = "interpreter/engine/native.py"


@pytest.mark.parametrize("pattern", FORBIDDEN)
def test_no_code_runs_content(pattern):
    offenders = [str(p.relative_to(ROOT)) for p in SOURCES if re.search(pattern, p.read_text(encoding="utf-8"))
                 and not (pattern == r"\bexec\(" and str(p.relative_to(ROOT)) == GENERATED_CODE_RUNNER)]
    assert not offenders, f"{pattern} used in {offenders}"


def test_generated_rules_run_only_after_their_source_is_verified():
    """exec() appears once, on code compiled either from the tree verify() returned or from a text
    whose exact digest passed verify() in an earlier run (verified.py), with builtins cut to a list."""
    tree = ast.parse((ROOT / GENERATED_CODE_RUNNER).read_text(encoding="utf-8"))
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)]
    (run,) = [call for call in calls if call.func.id == "exec"]
    compiled = [call for call in calls if call.func.id == "compile"]
    code_name, namespace_name = (argument.id for argument in run.args)
    # the code run is assigned only from compile() calls, in the two branches of one test
    (branches,) = [node for node in ast.walk(tree) if isinstance(node, ast.If)
                   and any(isinstance(n, ast.Assign) and n.targets[0].id == code_name for n in node.body)]
    test = branches.test
    assert isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr == "was_verified"
    source_name = test.args[0].id
    (cached,) = [n.value for n in branches.body if isinstance(n, ast.Assign)]
    (fresh,) = [n.value for n in branches.orelse if isinstance(n, ast.Assign)]
    assert [cached, fresh] == compiled and len(compiled) == 2
    assert cached.args[0].id == source_name  # the text whose digest was verified, compiled as it is
    walked = fresh.args[0]
    assert isinstance(walked, ast.Call) and walked.func.id == "verify" and walked.args[0].id == source_name
    # and nothing else assigns the code that is run
    assigned = [node for node in ast.walk(tree) if isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == code_name for t in node.targets)]
    assert len(assigned) == 2
    assignments = {target.id: node.value for node in ast.walk(tree) if isinstance(node, ast.Assign)
                   for target in node.targets if isinstance(target, ast.Name)}
    builtins = dict(zip((key.value for key in assignments[namespace_name].keys), assignments[namespace_name].values))
    assert isinstance(builtins["__builtins__"], ast.Dict)
    allowed = {key.value for key in builtins["__builtins__"].keys}
    assert allowed <= {"range", "len"}


def test_a_yaml_tag_that_would_build_a_python_object_is_refused(tmp_path):
    root = copy_content(tmp_path)
    (root / "cards" / "zz-evil.yaml").write_text(
        "strategy_cards: !!python/object/apply:os.system ['echo hacked']\n", encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_content(root)
    (d,) = caught.value.diagnostics
    assert d.message == "the YAML tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed"


def test_a_yaml_tag_on_a_value_is_refused_too(tmp_path):
    root = copy_content(tmp_path)
    (root / "cards" / "zz-evil.yaml").write_text("strategy_cards:\n  - id: !!python/name:os.system x\n",
                                                 encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_content(root)
    assert "not valid YAML" in caught.value.diagnostics[0].message


def test_placeholders_cannot_reach_attributes(content):
    catalog = content.catalog("en")
    catalog.messages["zz.test"] = "{side.__class__}"
    try:
        assert catalog.text("zz.test", side="Unionist") == "<zz.test>"
    finally:
        del catalog.messages["zz.test"]
