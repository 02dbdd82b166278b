"""Run the ``compat`` test matrix and render it, with every refusal the reader can give, into docs/compatibility.md.

    python tools/compat_matrix.py            # run tests/test_compat_matrix.py, rewrite the page's section
    python tools/compat_matrix.py --from out.json --print   # render a saved result, print instead

The matrix (rows = writer x table kind, columns = predicates) goes between ``<!-- compat-matrix:start -->``
and ``<!-- compat-matrix:end -->``.  The refusal list is collected from the source, not written by hand:
every ``UnsupportedTypeError(...)`` / ``UnsupportedVersionError(...)`` message of the table, Spark and
inspect code (placeholders shown as ``‹expression›``), the reasons :mod:`paimon_codec.planning.read_options`
gives for refused options, grouped by the feature (module) that refuses.  The README's count line (between
``<!-- compat-summary -->`` and ``<!-- /compat-summary -->``) is rewritten with the page.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PAGE = REPO / "docs" / "compatibility.md"  # the README links it and shows a summary
START, END = "<!-- compat-matrix:start -->", "<!-- compat-matrix:end -->"
README = REPO / "README.md"
#: the README's one-line summary of the matrix (its counts), kept equal to the page's first line
SUMMARY_START, SUMMARY_END = "<!-- compat-summary -->", "<!-- /compat-summary -->"
TEST = "tests/test_compat_matrix.py"

REFUSING_CALLS = {"UnsupportedTypeError", "UnsupportedVersionError", "_refuse"}
SOURCES = ["paimon_codec/table", "paimon_codec/evolution", "paimon_codec/planning", "paimon_codec/reading",
           "paimon_codec/writing", "paimon_codec/maintenance", "paimon_codec/spark", "paimon_codec/cli/inspect.py",
           "paimon_codec/global_index_files.py", "paimon_codec/globalindex"]
#: module (relative path prefix) -> feature; the first match wins
FEATURES = [
    ("paimon_codec/planning/read_options.py", "Table options that change a read"),
    ("paimon_codec/table/merge_spec.py", "Primary-key merge read"),
    ("paimon_codec/planning/merge_", "Primary-key merge read"),  # merge_plan.py, merge_float_keys.py
    ("paimon_codec/reading/merge/", "Primary-key merge read"),
    ("paimon_codec/planning/data_evolution.py", "Data-evolution tables"),
    ("paimon_codec/reading/data_evolution.py", "Data-evolution tables"),
    ("paimon_codec/planning/blob_", "BLOB columns (.blob files)"),
    ("paimon_codec/reading/blob_", "BLOB columns (.blob files)"),
    ("paimon_codec/planning/fallback.py", "Branches (scan.fallback-branch)"),
    ("paimon_codec/reading/fallback_read.py", "Branches (scan.fallback-branch)"),
    ("paimon_codec/evolution/casts", "Schema evolution: older data files"),  # casts.py, casts_temporal.py
    ("paimon_codec/evolution/file_evolution.py", "Schema evolution: older data files"),
    ("paimon_codec/reading/read.py", "Data-file formats"),
    ("paimon_codec/table/table.py", "Branches (scan.fallback-branch)"),
    # the rest of the table's metadata, planning, reading, writing and maintenance
    ("paimon_codec/table/", "Metadata versions (schema, snapshot, manifests)"),
    ("paimon_codec/evolution/", "Metadata versions (schema, snapshot, manifests)"),
    ("paimon_codec/planning/", "Metadata versions (schema, snapshot, manifests)"),
    ("paimon_codec/reading/", "Metadata versions (schema, snapshot, manifests)"),
    ("paimon_codec/writing/", "Metadata versions (schema, snapshot, manifests)"),
    ("paimon_codec/maintenance/", "Metadata versions (schema, snapshot, manifests)"),
    ("paimon_codec/spark/", "Spark scan"),
    ("paimon_codec/cli/inspect.py", "Global-index files (inspect)"),
    ("paimon_codec/global_index_files.py", "Global-index files (inspect)"),
    ("paimon_codec/globalindex/", "Global indexes (lookups, scans, inspect, audit)"),
]


# -- running the matrix ----------------------------------------------------------------------------------
def run_matrix(out: Path) -> int:
    """Run the test module with ``PAIMON_CODEC_COMPAT_OUT=out``; returns pytest's exit code."""
    python = sys.executable
    env = dict(os.environ, PAIMON_CODEC_COMPAT_OUT=str(out))
    env.setdefault("PYSPARK_PYTHON", python)
    env.setdefault("PYSPARK_DRIVER_PYTHON", python)
    return subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", TEST], cwd=REPO,
                          env=env).returncode


# -- rendering the matrix --------------------------------------------------------------------------------
def _cell_text(cell: dict | None, predicate: str) -> str:
    if cell is None and predicate == "spark":
        return "–"  # Spark cells run on some writers only
    if cell is None or "status" not in cell:
        return "✗ error (see the test)"
    if cell["status"] == "exact":
        return f"✓ {cell['rows']}"
    if cell["status"] == "refused":
        return "refused: " + _md(cell["message"])
    return "✗ **WRONG rows**"


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_matrix(doc: dict) -> list[str]:
    writers, kinds, preds = doc["writers"], doc["kinds"], doc["predicates"]
    cells = {(c["writer"], c["kind"], c["predicate"]): c for c in doc["cells"]}
    cannot = {(c["writer"], c["kind"]): c["reason"] for c in doc["cannot"]}
    notes = {(n["writer"], n["kind"]): n["note"] for n in doc["notes"]}
    lines = ["| writer | table kind | " + " | ".join(preds.values()) + " |",
             "|---|---|" + "---|" * len(preds)]
    for w, w_label in writers.items():
        for k, k_label in kinds.items():
            label = k_label
            if (w, k) in notes:
                label += f" — *{_md(notes[w, k])}*"
            if (w, k) in cannot:
                row = [f"n/a writer cannot: {_md(cannot[w, k])}"] + ["n/a"] * (len(preds) - 1)
            else:
                row = [_cell_text(cells.get((w, k, p)), p) for p in preds]
            lines.append(f"| {w_label} | {label} | " + " | ".join(row) + " |")
    return lines


# -- collecting the refusals from the source -------------------------------------------------------------
def _text(node: ast.AST) -> str | None:
    """A message expression as text: literal parts kept, formatted values as ``‹expr›``; else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            else:
                parts.append(f"‹{ast.unparse(v.value)}›")
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _text(node.left), _text(node.right)
        return None if left is None or right is None else left + right
    return None


def _bare_placeholder(text: str) -> bool:
    """A message that is only a run-time value (``UnsupportedTypeError(msg)``): nothing to list."""
    return text.startswith("‹") and text.endswith("›") and text.count("‹") == 1


def _call_name(node: ast.Call) -> str | None:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _messages(path: Path, unrendered: list[str] | None = None) -> list[str]:
    """The refusal messages of one module; call sites whose message is not text go to ``unrendered``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    refuse_fmt = None
    inside_refuse: set[int] = set()
    for node in ast.walk(tree):  # the message template of the module's _refuse helper, if any
        if isinstance(node, ast.FunctionDef) and node.name == "_refuse":
            for call in ast.walk(node):
                inside_refuse.add(id(call))
                if isinstance(call, ast.Call) and _call_name(call) == "UnsupportedTypeError" and call.args:
                    refuse_fmt = _text(call.args[0])
    for node in ast.walk(tree):
        if id(node) in inside_refuse:
            continue
        if isinstance(node, ast.Call) and _call_name(node) in REFUSING_CALLS and node.args:
            text = _text(node.args[0])
            if _call_name(node) == "_refuse":
                if text is None or refuse_fmt is None:
                    continue
                text = refuse_fmt.replace("‹what›", text)
            if text is not None and not _bare_placeholder(text):
                out.append(text)
            elif unrendered is not None:
                unrendered.append(f"{path.name}:{node.lineno}: {ast.unparse(node)[:80]}")
        elif isinstance(node, ast.FunctionDef) and node.name == "refusal":  # messages built by a method
            for ret in ast.walk(node):
                if isinstance(ret, ast.Return) and ret.value is not None and _text(ret.value):
                    out.append(_text(ret.value))
        elif isinstance(node, ast.Tuple) and len(node.elts) == 2:
            first, second = node.elts  # read_options: ``return REFUSED, "why"``
            if isinstance(first, ast.Name) and first.id == "REFUSED" and _text(second):
                out.append(f"{_OPTION}‹option›: {_text(second)}")
        elif (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript)
              and isinstance(node.targets[0].value, ast.Attribute) and node.targets[0].value.attr == "refused"
              and _text(node.targets[0].slice) and _text(node.value)):  # read_options: refused[column] = why
            out.append(f"{_OPTION}{_text(node.targets[0].slice)}: {_text(node.value)}")
    return out


_OPTION = "table option not supported by this reader: "


def _feature(rel: str) -> str:
    return next((f for prefix, f in FEATURES if rel.startswith(prefix)), rel)


def collect_refusals(repo: Path = REPO, unrendered: list[str] | None = None) -> dict[str, list[str]]:
    """feature -> the distinct one-line refusal messages of its modules (in source order); call sites
    whose message is no text (a variable, a method's result) are added to ``unrendered``."""
    groups: dict[str, list[str]] = {}
    for src in SOURCES:
        root = repo / src
        files = sorted(root.rglob("*.py")) if root.is_dir() else [root]
        for path in files:
            rel = path.relative_to(repo).as_posix()
            for msg in _messages(path, unrendered):
                if msg.startswith("table option not supported by this reader: ‹text›"):
                    continue  # the wrapper of the option reasons, listed one by one
                bucket = groups.setdefault(_feature(rel), [])
                if msg not in bucket:
                    bucket.append(msg)
    return groups


def render_refusals(groups: dict[str, list[str]]) -> list[str]:
    lines = []
    for feature in sorted(groups):
        lines.append(f"- **{feature}**")
        lines.extend(f"  - `{_md(m).replace('`', '')}`" for m in groups[feature])
    return lines


# -- the page's section ------------------------------------------------------------------------------------
REFUSALS_HEADING = "### Refusals"


def render_refusal_part() -> list[str]:
    return [REFUSALS_HEADING, "",
            "Every one-line refusal a read (`scan`, `read_table`, `inspect`) gives on a real table, from the "
            "source (`‹…›` = filled in at run time):", "",
            *render_refusals(collect_refusals())]


def summary(doc: dict) -> str:
    """The counts of the matrix, one sentence: what the README shows."""
    cells = doc["cells"]
    exact = sum(c.get("status") == "exact" for c in cells)
    refused = sum(c.get("status") == "refused" for c in cells)
    return f"{len(cells)} cells: {exact} read exactly, {refused} refused, {len(cells) - exact - refused} failing"


def render_section(doc: dict) -> str:
    lines = [START,
             f"{summary(doc)}; {len(doc['cannot'])} writer x kind pairs the writer "
             "cannot produce. `✓ N` = our rows equal the writer's own read (N rows); `refused:` = a one-line "
             "`paimon_codec.errors` refusal; `–` = not run (the Spark column covers newest Java's tables).", "",
             *render_matrix(doc), "",
             *render_refusal_part(), END]
    return "\n".join(lines)


def current_section(page: Path = PAGE) -> str:
    text = page.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise SystemExit(f"{page}: markers {START} / {END} not found")
    return START + text.split(START, 1)[1].split(END, 1)[0] + END


def with_current_refusals(section: str) -> str:
    """``section`` (as in the page) with its refusal list collected again from the source."""
    matrix_part = section.split(REFUSALS_HEADING, 1)[0]
    return matrix_part + "\n".join([*render_refusal_part(), END])


def section_summary(section: str) -> str:
    """The counts sentence a rendered section starts with."""
    return section.split(START, 1)[1].lstrip("\n").split(";", 1)[0]


def readme_summary(readme: Path = README) -> str:
    text = readme.read_text(encoding="utf-8")
    if SUMMARY_START not in text or SUMMARY_END not in text:
        raise SystemExit(f"{readme}: markers {SUMMARY_START} / {SUMMARY_END} not found")
    return text.split(SUMMARY_START, 1)[1].split(SUMMARY_END, 1)[0].rstrip(".")


def update_readme_summary(section: str, readme: Path = README) -> None:
    text = readme.read_text(encoding="utf-8")
    readme_summary(readme)  # the markers are there
    head, rest = text.split(SUMMARY_START, 1)
    _, tail = rest.split(SUMMARY_END, 1)
    readme.write_text(f"{head}{SUMMARY_START}{section_summary(section)}.{SUMMARY_END}{tail}", encoding="utf-8")


def update_page(section: str, page: Path = PAGE) -> None:
    text = page.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise SystemExit(f"{page}: markers {START} / {END} not found")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    page.write_text(head + section + tail, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="source", type=Path, help="a saved PAIMON_CODEC_COMPAT_OUT JSON")
    parser.add_argument("--print", action="store_true", help="print the section instead of writing docs/compatibility.md")
    parser.add_argument("--refusals-only", action="store_true",
                        help="keep the page's matrix, collect its refusal list again from the source (no test run)")
    args = parser.parse_args(argv)
    if args.refusals_only:
        section = with_current_refusals(current_section())
        if args.print:
            print(section)
        else:
            update_page(section)
            update_readme_summary(section)
        return 0
    code = 0
    if args.source is not None:
        out = args.source
    else:
        out = Path(tempfile.mkdtemp(prefix="compat-matrix-")) / "matrix.json"
        code = run_matrix(out)
        if not out.exists():
            print(f"the test run wrote no results (pytest exit {code})", file=sys.stderr)
            return code or 1
    section = render_section(json.loads(out.read_text(encoding="utf-8")))
    if args.print:
        print(section)
    else:
        update_page(section)
        update_readme_summary(section)
        print(f"{PAGE.relative_to(REPO)}: compat matrix written ({out})")
    return code


if __name__ == "__main__":
    sys.exit(main())
