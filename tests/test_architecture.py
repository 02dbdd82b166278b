"""The package's import structure, read from the code with ``ast`` (nothing is imported or run).

docs/architecture.md draws it; this test holds the code to it:

* no import cycle among ``paimon_codec`` modules, generated code included.  Every import counts: at module
  level, inside a function (a "lazy" import) and under ``if TYPE_CHECKING:`` - each is an arrow a reader of
  the code must follow;
* no arrow runs down the floors: a module imports only modules of its own floor or of floors below it
  (:data:`FLOORS`, the order docs/architecture.md documents); a package missing from the list fails, so a new
  package gets a floor when it is made;
* no import for its side effect: no module fills another module's table when imported (a call or an item
  assignment at module level), and no module imports a ``paimon_codec`` module it never uses.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "paimon_codec"

# Lowest first.  A package (or a top-level module) may import its own floor and the floors below it.
FLOORS: list[tuple[str, ...]] = [
    # foundation: errors, types and values, storage and byte sources
    ("paimon_codec", "errors", "modes", "types", "values", "binary_row_values", "javahash", "checksum", "memory_size", "jit", "report", "storage",
     "fileio", "lazy_exports"),
    # codecs: the generated Construct codecs and the runtime they import, bitmaps, BinaryRow values,
    # format detection
    ("codec_runtime", "generated", "roaring", "runs", "positions", "binary_row", "global_index_files", "formats",
     "kaitai_plain", "schemas"),
    # predicates over typed values
    ("expressions",),
    # the index and file layers: file indexes, deletion vectors, buckets, global indexes
    ("fileindex", "dv", "bucket", "globalindex"),
    ("table",),        # the stored table's metadata
    ("evolution",),    # schema evolution, used by planning and reading alike
    ("planning",),
    ("reading",),
    ("writing",),
    ("maintenance",),
    ("catalog",),      # table names: the filesystem catalog (creates tables through writing)
    ("spark",),
    ("cli", "explore", "__main__"),
]


def _modules() -> dict[str, tuple[Path, bool]]:
    """Module name -> (file, is a package): the library, and the generated code of the top-level
    ``generated/`` folder, installed as ``paimon_codec.generated`` (pyproject's package-dir)."""
    out = {}
    for top, prefix in ((PACKAGE, ["paimon_codec"]), (ROOT / "generated", ["paimon_codec", "generated"])):
        for path in top.rglob("*.py"):
            parts = prefix + list(path.relative_to(top).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts = parts[:-1]
            out[".".join(parts)] = (path, is_package)
    return out


MODULES = _modules()
TREES = {name: ast.parse(path.read_text(encoding="utf-8"), str(path)) for name, (path, _) in MODULES.items()}


def _owner(name: str) -> str:
    """The module ``name`` lives in (an imported name's module; the nearest package for a dotted path)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def _imports(name: str) -> dict[str, set[str]]:
    """Module -> the names bound from it, for every import of a ``paimon_codec`` module in ``name``."""
    _, is_package = MODULES[name]
    base = name if is_package else name.rpartition(".")[0]
    out: dict[str, set[str]] = {}
    for node in ast.walk(TREES[name]):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "paimon_codec":
                    out.setdefault(_owner(alias.name), set()).add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                pkg = base
                for _ in range(node.level - 1):
                    pkg = pkg.rpartition(".")[0]
                full = pkg + ("." + node.module if node.module else "")
            else:
                full = node.module or ""
            if full.split(".")[0] != "paimon_codec":
                continue
            for alias in node.names:
                sub = f"{full}.{alias.name}"
                target = sub if sub in MODULES else _owner(full)
                out.setdefault(target, set()).add(alias.asname or alias.name)
    out.pop(name, None)
    return out


IMPORTS = {name: _imports(name) for name in MODULES}


def _cycles() -> list[frozenset[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    counter = 0
    for start in sorted(IMPORTS):
        if start in index:
            continue
        work = [(start, iter(sorted(IMPORTS[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(IMPORTS.get(nxt, ())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
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


def _floor(module: str) -> int:
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else parts[0]
    for level, names in enumerate(FLOORS):
        if top in names:
            return level
    raise AssertionError(f"{module}: package {top!r} has no floor in FLOORS (docs/architecture.md)")


def test_the_walk_sees_the_package():
    # the graph is read from the files: a walk that found nothing would pass everything below
    assert len(MODULES) > 150 and "paimon_codec.planning.plan" in MODULES
    assert any(name.startswith("paimon_codec.generated.") for name in MODULES)
    assert "paimon_codec.table.table" in IMPORTS["paimon_codec.planning.plan"]


def test_no_import_cycle():
    cycles = [sorted(c) for c in _cycles()]
    assert not cycles, f"import cycles: {cycles}"


def test_the_cycle_finder_finds_a_cycle():
    # the check above can fail: two modules naming each other (a TYPE_CHECKING import counts) are one cycle
    saved = {name: IMPORTS[name] for name in ("paimon_codec.expressions.predicate",)}
    try:
        IMPORTS["paimon_codec.expressions.predicate"] = {**saved["paimon_codec.expressions.predicate"],
                                                          "paimon_codec.expressions.visitor": {"visit"}}
        assert {"paimon_codec.expressions.predicate", "paimon_codec.expressions.visitor"} <= set().union(*_cycles())
    finally:
        IMPORTS.update(saved)


def test_no_import_runs_down_the_floors():
    upward = [f"{name} -> {target}" for name, targets in IMPORTS.items() for target in targets
              if _floor(target) > _floor(name)]
    assert not upward, "imports of a higher floor:\n" + "\n".join(sorted(upward))


def _module_level(tree: ast.Module):
    """The statements that run when the module is imported (not inside a function or a class)."""
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(node, ast.If) and "__name__" in ast.unparse(node.test):
            continue  # run as a script, not when imported
        yield node
        for field in ("body", "orelse", "finalbody", "handlers"):
            todo.extend(getattr(node, field, ()) or ())


def test_no_registration_by_import():
    found = []
    for name, tree in TREES.items():
        if name.startswith("paimon_codec.generated") or name == "paimon_codec.__main__":
            continue
        imported = set().union(*IMPORTS[name].values()) if IMPORTS[name] else set()
        for node in _module_level(tree):
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
                found.append(f"{name}:{node.lineno}: {ast.unparse(node)[:80]}")
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            for target in targets:
                root = target
                while isinstance(root, (ast.Subscript, ast.Attribute)):
                    root = root.value
                if root is not target and isinstance(root, ast.Name) and root.id in imported:
                    found.append(f"{name}:{node.lineno}: {ast.unparse(node)[:80]}")
    assert not found, "module-level statements that change another module when imported:\n" + "\n".join(found)


def test_no_import_for_effect():
    used_from: dict[str, set[str]] = {}  # module -> names other modules import from it
    for targets in IMPORTS.values():
        for target, names in targets.items():
            used_from.setdefault(target, set()).update(names)
    found = []
    for name, (_, is_package) in MODULES.items():
        if is_package or name.startswith("paimon_codec.generated"):
            continue  # a package's face hands its names on
        tree = TREES[name]
        referenced = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        referenced |= {n.value.id for n in ast.walk(tree) if isinstance(n, ast.Attribute)
                       and isinstance(n.value, ast.Name)}
        exported = set()
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__"
                                                    for t in node.targets):
                exported = {e.value for e in ast.walk(node.value) if isinstance(e, ast.Constant)}
        for target, names in IMPORTS[name].items():
            for bound in names:
                if bound not in referenced and bound not in exported and bound not in used_from.get(name, ()):
                    found.append(f"{name} imports {bound} from {target} and never uses it")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("face, names", [
    ("paimon_codec.table", {"PaimonTable", "TableSchema", "Snapshot"}),
    ("paimon_codec.planning", {"plan_scan", "ScanPlan"}),
    ("paimon_codec.reading", {"read_table"}),
    ("paimon_codec.writing", {"create_table", "append_arrow"}),
])
def test_each_entry_point_has_one_face(face, names):
    # each public entry point is exported from one package, the one that owns it: no re-export
    # from a lower floor (paimon_codec.table does not hand out read_table)
    exported: dict[str, set[str]] = {}
    for package in ("paimon_codec.table", "paimon_codec.planning", "paimon_codec.reading", "paimon_codec.writing"):
        for node in TREES[package].body:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__"
                                                    for t in node.targets):
                exported[package] = {e.value for e in ast.walk(node.value) if isinstance(e, ast.Constant)}
    assert names <= exported[face]
    for other, its in exported.items():
        if other != face:
            assert not names & its, f"{other} also exports {sorted(names & its)}"
