"""The library's import graph has no cycle, and its modules stay small.

Every import counts - module level and inside functions (a function-level import hides a cycle, it does
not remove it) - except those under ``if TYPE_CHECKING:``.  Importing ``a.b.c`` from outside package
``a.b`` also runs ``a/b/__init__.py``, so that edge is counted too.  Generated code is outside the
graph (it imports only the runtime).
"""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "paimon_codec"
#: lines a hand-written module may have; modules over it are listed (with why) in ALLOWED_LARGE
MAX_LINES = 400
#: deliberate exceptions to MAX_LINES: module -> (line cap, why)
ALLOWED_LARGE: dict[str, tuple[int, str]] = {}

#: deliberate exceptions to "no cycle": the modules of the cycle -> why it is still there
ALLOWED_CYCLES: dict[frozenset[str], str] = {}


def _modules() -> dict[str, Path]:
    out = {}
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG.parent)
        if "generated" in rel.parts:
            continue
        parts = list(rel.with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _type_checking_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for sub in node.body:
                lines.update(range(sub.lineno, (sub.end_lineno or sub.lineno) + 1))
    return lines


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text())
    skip = _type_checking_lines(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(tree):
        if getattr(node, "lineno", 0) in skip:
            continue
        if isinstance(node, ast.Import):
            targets.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            subs = {f"{mod}.{a.name}" for a in node.names}  # ``from pkg import submodule``
            targets.update(subs)
            # ``from . import sibling`` inside package ``mod`` runs no more of ``mod/__init__.py`` than being
            # inside it does (as for the packages on the way below); importing a name it defines does
            if not (name.startswith(mod + ".") and subs <= modules.keys()):
                targets.add(mod)
    edges = set()
    for t in targets:
        if t not in modules or t == name:
            continue
        edges.add(t)
        parts = t.split(".")
        for i in range(1, len(parts)):  # the packages the import initialises on the way
            parent = ".".join(parts[:i])
            if parent in modules and not (name == parent or name.startswith(parent + ".")):
                edges.add(parent)
    return edges


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def test_no_import_cycle():
    cycles = [c for c in _cycles(_graph()) if frozenset(c) not in ALLOWED_CYCLES]
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_every_listed_cycle_is_still_there():
    cycles = {frozenset(c) for c in _cycles(_graph())}
    for cycle, why in ALLOWED_CYCLES.items():
        assert why
        assert cycle in cycles, f"{sorted(cycle)} is no cycle any more: drop it from ALLOWED_CYCLES"


def test_the_graph_sees_function_level_imports():
    """The checker is not blind: a function-level import is an edge."""
    graph = _graph()
    assert "paimon_codec.fileindex.topn" in graph["paimon_codec.cli.index"]  # imported inside a function


def test_a_cycle_is_reported():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_over_the_line_cap():
    too_big = {}
    for name, path in _modules().items():
        n = len(path.read_text().splitlines())
        cap = ALLOWED_LARGE.get(name, (MAX_LINES, ""))[0]
        if n > cap:
            too_big[name] = n
    assert not too_big, f"modules over {MAX_LINES} lines (or their listed cap): {too_big}"


def test_every_listed_exception_is_still_needed():
    modules = _modules()
    for name, (_cap, why) in ALLOWED_LARGE.items():
        assert why, name
        assert name in modules, f"{name} is gone: drop it from ALLOWED_LARGE"
        n = len(modules[name].read_text().splitlines())
        assert n > MAX_LINES, f"{name} has {n} lines: drop it from ALLOWED_LARGE"
