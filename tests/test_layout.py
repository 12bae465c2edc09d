"""The code is a pipeline a newcomer can read from the folder names (issue 19): layers import
only downwards (ruleset <- content <- interpreter <- balance <- cli) and no modules import each
other in a circle, counting imports made inside functions too.

While the commands move onto the general engine, the circles and upward imports of the modules
not yet moved are listed; the lists only shrink (an entry that no longer holds fails too).
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("ruleset", "content", "interpreter", "balance", "cli")

# circles among modules still to be moved or deleted (issue 19): none left
KNOWN_CIRCLES: set = set()
KNOWN_UPWARD: set = set()


def modules() -> dict:
    found = {}
    for layer in LAYERS:
        for path in (ROOT / layer).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found["crisis." + ".".join(parts)] = path
    return found


def import_graph() -> dict:
    known = modules()
    graph = {}
    for name, path in known.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = ".".join(package[:len(package) - node.level + 1]) if node.level else ""
                module = ".".join(p for p in (base, node.module or "") if p)
                targets.add(module)
                targets.update(f"{module}.{alias.name}" for alias in node.names)
        graph[name] = {t for t in targets if t in known and t != name}
    return graph


def circles(graph) -> list:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return found


def test_no_new_import_circles():
    found = set(circles(import_graph()))
    assert found - KNOWN_CIRCLES == set(), "modules that import each other in a circle"
    assert KNOWN_CIRCLES - found == set(), "these circles are gone: take them off KNOWN_CIRCLES"


def test_layers_import_only_downwards():
    upward = {(name, target) for name, targets in import_graph().items() for target in targets
              if LAYERS.index(target.split(".")[1]) > LAYERS.index(name.split(".")[1])}
    assert upward - KNOWN_UPWARD == set(), "imports up the layers"
    assert KNOWN_UPWARD - upward == set(), "these upward imports are gone: take them off KNOWN_UPWARD"


def test_a_circle_is_found_however_the_imports_are_written():
    graph = {"crisis.a": {"crisis.b"}, "crisis.b": {"crisis.c"}, "crisis.c": {"crisis.a"}, "crisis.d": {"crisis.a"}}
    assert circles(graph) == [frozenset({"crisis.a", "crisis.b", "crisis.c"})]
