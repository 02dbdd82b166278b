"""Read every Paimon table of a peer's test corpus with Paimon Java 1.4.2 and with paimon_codec; compare the rows.

    python tools/peer_corpus.py /tmp/cpp-corpus/test/test_data            # print the summary
    python tools/peer_corpus.py ROOT --json out.json --doc docs/peer-corpus.md

The corpus is one we do not write: alibaba/paimon-cpp's ``test/test_data`` (tables written by Paimon Java
0.9 - 1.x and by paimon-cpp, ORC / Parquet / Avro, deletion vectors, data evolution, file and global
indexes, branches, external paths).  Get it with::

    git clone --depth 1 https://github.com/alibaba/paimon-cpp /tmp/paimon-cpp   # or an existing mirror:
    git --git-dir=MIRROR archive HEAD test/test_data | tar -x -C /tmp/cpp-corpus

A table is a directory holding ``schema/`` (branches: ``<table>/branch/branch-<name>``, read with that
branch).  Each table is read at its latest snapshot, at every older snapshot it keeps and at every tag,
without a predicate and under a few predicates per table (the shapes paimon-cpp's ``test/inte`` tests
use: =, <>, <, >=, IN, NOT IN, IS NULL, IS NOT NULL, AND / OR, with literals drawn from the rows
Java returned).  Java's rows are the truth (the oracle worker, ``tests/oracles/java_worker.py``); ours
come from :func:`paimon_codec.reading.read_table` with ``semantics="paimon"`` and are compared as the
random-table test compares them (``tests/oracles/compare.py``, floats bit-exact).

Each read is classified ``exact``, ``wrong`` (rows differ), ``crashed`` (an exception outside the
library's error family, or one that is not a refusal), ``refused`` (a one-line
:class:`~paimon_codec.errors.UnsupportedFeatureError`), ``absent`` (we stop on a data or index file the
table names and the corpus lacks) or ``java-cannot-read`` (Java fails; nothing to compare).  A table
takes its worst read's class.  Needs Java 17 and the Paimon 1.4.2 jars (``tests/oracles/java_jars.py``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import logging
import os
import random
import sys
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "tests"), str(REPO)]  # the oracles live with the tests

import pyarrow as pa  # noqa: E402
from oracles.compare import row_set_difference  # noqa: E402
from oracles.java_newest import NEWEST, JavaError, JavaPaimon, OracleError  # noqa: E402

from paimon_codec.errors import MissingFileError, PaimonCodecError, UnsupportedFeatureError  # noqa: E402
from paimon_codec.expressions import And, Or, make_leaf  # noqa: E402
from paimon_codec.reading import read_table  # noqa: E402

log = logging.getLogger("peer_corpus")
#: worst first: a table takes the first class any of its reads has
CLASSES = ("wrong", "crashed", "refused", "absent", "java-cannot-read", "exact")
PREDICATES_PER_TABLE = 6


@dataclass
class Read:
    """One read of one table: what was asked and how ours compared with Java's."""

    snapshot_id: int | None
    tag: str | None
    where: str | None
    outcome: str
    rows: int | None = None
    detail: str = ""


@dataclass
class TableResult:
    path: str  # relative to the corpus root
    branch: str | None
    outcome: str = "exact"
    reads: list[Read] = field(default_factory=list)


# -- finding tables --------------------------------------------------------------------------------------
def find_tables(root: Path) -> list[tuple[Path, str | None]]:
    """``(table dir, branch or None)`` of every table under ``root``: a dir with ``schema/``; a branch is
    ``<table>/branch/branch-<name>`` and is read through its table."""
    out = []
    for d, subdirs, _ in os.walk(root):
        if "schema" not in subdirs:
            continue
        here = Path(d)
        if here.parent.name == "branch" and here.name.startswith("branch-"):
            out.append((here.parent.parent, here.name[len("branch-"):]))
        else:
            out.append((here, None))
    return sorted(out, key=lambda t: (str(t[0]), t[1] or ""))


def _branch_dir(table: Path, branch: str | None) -> Path:
    return table if branch is None else table / "branch" / f"branch-{branch}"


def snapshot_ids(table: Path, branch: str | None) -> list[int]:
    d = _branch_dir(table, branch) / "snapshot"
    if not d.is_dir():
        return []
    return sorted(int(p.name.split("-", 1)[1]) for p in d.iterdir()
                  if p.name.startswith("snapshot-") and p.name.split("-", 1)[1].isdigit())


def tags(table: Path, branch: str | None) -> list[str]:
    d = _branch_dir(table, branch) / "tag"
    return sorted(p.name[len("tag-"):] for p in d.iterdir() if p.name.startswith("tag-")) if d.is_dir() else []


# -- predicates ------------------------------------------------------------------------------------------
def _filterable(t: pa.DataType) -> bool:
    return (pa.types.is_integer(t) or pa.types.is_string(t) or pa.types.is_large_string(t)
            or pa.types.is_date32(t) or pa.types.is_decimal(t) or pa.types.is_boolean(t)
            or pa.types.is_floating(t))


def _literal(v: Any) -> Any:
    return v.isoformat() if isinstance(v, dt.date) else v


def predicates(rows: pa.Table, seed: str, n: int = PREDICATES_PER_TABLE) -> list[Any]:
    """``n`` predicates over ``rows``' scalar columns in the shapes paimon-cpp's inte tests use, literals
    taken from ``rows`` (deterministic per ``seed``)."""
    cols = [f.name for f in rows.schema if _filterable(f.type)]
    if not cols:
        return []
    rng = random.Random(seed)
    out: list[Any] = []
    for _ in range(n):
        leaves = []
        for _ in range(rng.choice([1, 1, 2])):
            name = rng.choice(cols)
            seen = [v for v in rows.column(name).to_pylist() if v is not None]
            op = rng.choice(["eq", "neq", "lt", "gte", "in", "not_in", "is_null", "is_not_null"] if seen
                            else ["is_null", "is_not_null"])
            if op in ("is_null", "is_not_null"):
                leaves.append(make_leaf(op, name))
            elif op in ("in", "not_in"):
                leaves.append(make_leaf(op, name, [_literal(v) for v in rng.sample(seen, min(2, len(seen)))]))
            else:
                leaves.append(make_leaf(op, name, [_literal(rng.choice(seen))]))
        out.append(leaves[0] if len(leaves) == 1 else rng.choice([And, Or])(tuple(leaves)))
    return out


# -- reading ---------------------------------------------------------------------------------------------
def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:400]


def _ours_alone(table: Path, branch: str | None, snapshot_id: int | None, tag: str | None, where: Any,
                time_zone: str = "UTC") -> str:
    """What our read does where Java's fails: a library error (a file absent, a refusal) or a crash."""
    try:
        rows = read_table(table, where, snapshot_id=snapshot_id, tag=tag, branch=branch, semantics="paimon",
                          time_zone=time_zone)
    except PaimonCodecError as exc:
        return _first_line(exc)
    except Exception as exc:  # noqa: BLE001 - reported
        return f"CRASH {_first_line(exc)}"
    return f"{rows.num_rows} rows"


def compare_read(java: JavaPaimon, table: Path, branch: str | None, snapshot_id: int | None, tag: str | None,
                 where: Any, time_zone: str = "UTC") -> tuple[Read, pa.Table | None]:
    """Java's rows and ours for one read, classified; also Java's rows (``None`` when Java failed).
    ``time_zone`` is the zone Java's JVM runs in, so the zone our read converts in."""
    label = None if where is None else str(where)
    try:
        theirs = java.read(table, where=where, snapshot_id=snapshot_id, tag=tag, branch=branch)
    except (JavaError, OracleError) as exc:
        return Read(snapshot_id, tag, label, "java-cannot-read",
                    detail=f"{_first_line(exc)} | ours: {_ours_alone(table, branch, snapshot_id, tag, where, time_zone)}"), None
    try:
        ours = read_table(table, where, snapshot_id=snapshot_id, tag=tag, branch=branch, semantics="paimon",
                          time_zone=time_zone)
    except MissingFileError as exc:
        return Read(snapshot_id, tag, label, "absent", theirs.num_rows, _first_line(exc)), theirs
    except UnsupportedFeatureError as exc:
        return Read(snapshot_id, tag, label, "refused", theirs.num_rows, _first_line(exc)), theirs
    except Exception as exc:  # noqa: BLE001 - a crash is a finding, reported, and the run goes on
        kind = "library error" if isinstance(exc, PaimonCodecError) else "crash"
        log.debug("crash reading %s", table, exc_info=True)
        return Read(snapshot_id, tag, label, "crashed", theirs.num_rows, f"{kind}: {_first_line(exc)}"), theirs
    missing = [c for c in theirs.column_names if c not in ours.column_names]
    if missing:
        return Read(snapshot_id, tag, label, "wrong", theirs.num_rows, f"columns missing: {missing}"), theirs
    diff = row_set_difference(ours.select(theirs.column_names), theirs, exact_floats=True)
    return Read(snapshot_id, tag, label, "exact" if diff is None else "wrong", theirs.num_rows, diff or ""), theirs


def run_table(java: JavaPaimon, root: Path, table: Path, branch: str | None, time_zone: str = "UTC") -> TableResult:
    result = TableResult(str(table.relative_to(root)), branch)
    ids = snapshot_ids(table, branch)
    latest, rows = compare_read(java, table, branch, None, None, None, time_zone)
    result.reads.append(latest)
    for sid in ids[:-1]:  # older snapshots (the latest is the read above)
        result.reads.append(compare_read(java, table, branch, sid, None, None, time_zone)[0])
    for tag in tags(table, branch):
        result.reads.append(compare_read(java, table, branch, None, tag, None, time_zone)[0])
    if rows is not None and rows.num_rows:
        for where in predicates(rows, f"{result.path}@{branch}"):
            result.reads.append(compare_read(java, table, branch, None, None, where, time_zone)[0])
    # a table's class: its worst read without a predicate, or a wrong / crashed read under one (a refused
    # predicate is listed in the notes but leaves the table's rows exact)
    # a read Java cannot do (an older snapshot, say) has nothing to compare: it leaves the class alone
    # unless ours crashed there
    outcomes = {r.outcome for r in result.reads if r.where is None or r.outcome in ("wrong", "crashed")}
    outcomes |= {"crashed" for r in result.reads if "| ours: CRASH" in r.detail}
    if latest.outcome == "java-cannot-read" and "crashed" not in outcomes:
        result.outcome = "java-cannot-read"
    else:
        result.outcome = next(c for c in CLASSES if c in outcomes - {"java-cannot-read"})
    return result


# -- reporting -------------------------------------------------------------------------------------------
def summary(results: list[TableResult]) -> dict[str, Any]:
    reads = [r for t in results for r in t.reads]
    plain = [r for r in reads if r.where is None]
    filtered = [r for r in reads if r.where is not None]
    return {"tables": len(results), "by_outcome": dict(Counter(t.outcome for t in results)),
            "reads": len(plain), "reads_by_outcome": dict(Counter(r.outcome for r in plain)),
            "filtered_reads": len(filtered), "filtered_by_outcome": dict(Counter(r.outcome for r in filtered))}


def _table_name(t: TableResult) -> str:
    return t.path + (f" (branch {t.branch})" if t.branch else "")


def render_markdown(results: list[TableResult], root: str, when: str, java_version: str, local_root: str = "",
                    time_zone: str = "UTC") -> str:
    """The page; ``local_root`` (the corpus dir of this run) is cut from the notes' paths."""
    s = summary(results)
    counts = ", ".join(f"{s['by_outcome'].get(c, 0)} {c}" for c in CLASSES)
    read_counts = ", ".join(f"{s['reads_by_outcome'].get(c, 0)} {c}" for c in CLASSES if s['reads_by_outcome'].get(c))
    filtered_counts = ", ".join(f"{s['filtered_by_outcome'].get(c, 0)} {c}" for c in CLASSES
                                if s['filtered_by_outcome'].get(c))
    lines = [
        "# Peer corpus: paimon-cpp's test tables, read by Paimon Java and by paimon_codec",
        "",
        "Every Paimon table in [alibaba/paimon-cpp](https://github.com/alibaba/paimon-cpp)'s `test/test_data` "
        f"(tables written by Paimon Java and by paimon-cpp; none written by this project) is read with Paimon Java "
        f"{java_version} (JVM in {time_zone}) and with `read_table(..., semantics=\"paimon\", "
        f"time_zone=\"{time_zone}\")`, at the latest snapshot, every older "
        "snapshot and tag, and under a few predicates per table; the rows are compared exactly.",
        "",
        f"Generated {when} by `python tools/peer_corpus.py {root} --doc docs/peer-corpus.md` "
        "(the script's docstring says how to get the corpus; it is not vendored: CI has no GitHub).",
        "",
        f"**{s['tables']} tables: {counts}.**  {s['reads']} reads without a predicate (latest, older snapshots, "
        f"tags): {read_counts}; {s['filtered_reads']} reads under a predicate: {filtered_counts}.",
        "",
        "Classes: *exact* - every read returns Java's rows; *wrong* - some read's rows differ; *crashed* - an "
        "error that is not a refusal; *refused* - a one-line refusal naming the feature; *absent* - the read "
        "needs a file the corpus lacks; *java-cannot-read* - Java itself fails (nothing to compare).  A table's "
        "class is its worst read without a predicate (or a wrong / crashed read under one); refused predicates "
        "are listed in its notes.",
        "",
        "| table | class | reads | note |",
        "| --- | --- | --- | --- |",
    ]
    for t in results:
        notes = sorted({f"{r.outcome}: {r.detail.splitlines()[0] if r.detail else ''}".replace(local_root + "/", "")
                        .replace("|", "\\|")[:240] for r in t.reads if r.outcome != "exact"})
        lines.append(f"| `{_table_name(t)}` | {t.outcome} | {len(t.reads)} | {'; '.join(notes)} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("root", type=Path, help="the corpus root (paimon-cpp's test/test_data)")
    ap.add_argument("--json", type=Path, help="write every read's result here")
    ap.add_argument("--doc", type=Path, help="write the markdown summary here (e.g. docs/peer-corpus.md)")
    ap.add_argument("--only", help="only tables whose path contains this")
    ap.add_argument("--time-zone", default="UTC", help="the JVM's default zone, and so our reads' time_zone")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    root = args.root.resolve()
    found = [t for t in find_tables(root) if args.only is None or args.only in str(t[0])]
    results = []
    with JavaPaimon(NEWEST, jvm_args=["-XX:TieredStopAtLevel=1", f"-Duser.timezone={args.time_zone}"]) as java:
        for table, branch in found:
            res = run_table(java, root, table, branch, args.time_zone)
            results.append(res)
            print(f"{res.outcome:17} {_table_name(res)}", flush=True)
            for r in res.reads:
                if r.outcome not in ("exact", "java-cannot-read") or (r.outcome == "java-cannot-read"
                                                                      and r is res.reads[0]):
                    print(f"    {r.outcome}: snapshot={r.snapshot_id} tag={r.tag} where={r.where}: "
                          f"{r.detail.splitlines()[0] if r.detail else ''}", flush=True)
    s = summary(results)
    print(json.dumps(s))
    when = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d")
    if args.json:
        args.json.write_text(json.dumps({"root": str(root), "date": when, "java": NEWEST, "summary": s,
                                         "tables": [asdict(t) for t in results]}, indent=1))
    if args.doc:
        args.doc.write_text(render_markdown(results, "<paimon-cpp>/test/test_data", when, NEWEST, str(root),
                                           args.time_zone))
    return 0 if not s["by_outcome"].get("wrong") and not s["by_outcome"].get("crashed") else 1


if __name__ == "__main__":
    sys.exit(main())
