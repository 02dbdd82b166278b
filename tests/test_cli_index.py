"""``paimon-codec index build / query``: golden payload queries, builds from sidecar rows, errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import GOLDEN_09, latest_cases, load_json
from pyroaring import BitMap

from paimon_codec.cli import main
from paimon_codec.fileindex.container import FileIndexContainerReader
from paimon_codec.fileio import ByteSource
from paimon_codec.positions import positions_from_json
from paimon_codec.types import parse_type
from paimon_codec.values import from_json

SINGLE = [c for kind in ("bitmap", "bloom-filter", "range-bitmap", "bsi") for c in latest_cases(kind)]


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _semantic(dtype, rows: list, query: dict) -> BitMap | None:
    """Rows truly satisfying a single-column query (full precision), or None if not computable."""
    vals = [None if v is None else from_json(dtype, v) for v in rows]
    key = (lambda v: v.to_nanos()) if dtype.is_timestamp else (lambda v: v)
    op = query["op"]
    lits = [key(from_json(dtype, x)) for x in query.get("literals") or [query.get("literal")]] \
        if op not in ("is_null", "is_not_null", "between") else []
    tests = {
        "eq": lambda v: v == lits[0], "neq": lambda v: v != lits[0], "in": lambda v: v in lits,
        "not_in": lambda v: v not in lits, "lt": lambda v: v < lits[0], "lte": lambda v: v <= lits[0],
        "gt": lambda v: v > lits[0], "gte": lambda v: v >= lits[0],
    }
    if op == "is_null":
        return BitMap(i for i, v in enumerate(vals) if v is None)
    if op == "is_not_null":
        return BitMap(i for i, v in enumerate(vals) if v is not None)
    if op not in tests:
        return None
    return BitMap(i for i, v in enumerate(vals) if v is not None and tests[op](key(v)))


@pytest.mark.parametrize("case", SINGLE, ids=lambda c: c["case"])
def test_single_payload_queries_match_sidecar(case, capsys):
    side = load_json(case["json"])
    code, out, err = run_cli(capsys, "index", "query", case["file"], "--index-type", case["kind"],
                             "--type", side["type"], "--predicates-json", case["json"], "--json")
    assert code == 0, err
    results = json.loads(out)
    assert len(results) == len(side["queries"])
    dtype = parse_type(side["type"])
    collapsed = dtype.is_timestamp and (dtype.precision or 0) > 6
    for q, got in zip(side["queries"], results, strict=True):
        want = q["result"]  # Java's answer: the index layer gives it exactly, ±0.0 / NaN literals too
        if collapsed:  # Java drops rows here; ours must be sound
            truth = _semantic(dtype, side["rows"], q)
            if got["kind"] == "SKIP":
                assert truth is not None and not truth
            elif got["kind"] == "BITMAP" and truth is not None:
                assert truth <= BitMap([i for a, b in got["ranges"] for i in range(a, b)]), q
            if q["op"] in ("neq", "not_in") and not isinstance(want, str) and \
                    len(positions_from_json(want)) == side["row_count"]:
                # no row holds the literals' micros: nothing collapses, Java's answer is exact
                assert got == {"kind": "BITMAP", "cardinality": side["row_count"],
                               "ranges": [[0, side["row_count"]]]}, q
            continue
        if isinstance(want, str):
            assert got["kind"] == want, q
        else:
            assert got["kind"] == "BITMAP", q
            assert BitMap([i for a, b in got["ranges"] for i in range(a, b)]) == positions_from_json(want), q
            assert got["cardinality"] == len(positions_from_json(want))


def test_timestamp9_bitmap_not_equal_is_sound_where_java_is_not(tmp_path, capsys):
    """Rows differing only below a microsecond share one bitmap key; Java's <> / NOT IN drop them."""
    from paimon_codec.fileindex.bitmap import create_writer

    ts = [{"millis": 1_700_000_000_000, "nanos_of_milli": n} for n in (5_001, 5_999, 5_500, 0)] + [None]
    dtype = parse_type("TIMESTAMP(9)")
    for version in ("1", "2"):
        writer = create_writer(dtype, {"version": version})
        writer.write_array([None if v is None else from_json(dtype, v) for v in ts])
        payload = tmp_path / f"ts9_v{version}.bin"
        payload.write_bytes(writer.serialize())
        queries = [
            {"op": "neq", "literal": ts[2]},
            {"op": "not_in", "literals": [ts[2], ts[3]]},
            {"op": "eq", "literal": ts[2]},
            {"op": "in", "literals": [ts[0], ts[3]]},
            {"op": "neq", "literal": {"millis": 5, "nanos_of_milli": 1}},
        ]
        qfile = tmp_path / "q.json"
        qfile.write_text(json.dumps(queries))
        code, out, err = run_cli(capsys, "index", "query", payload, "--index-type", "bitmap", "--type",
                                 "TIMESTAMP(9)", "--predicates-json", qfile, "--json")
        assert code == 0, err
        results = json.loads(out)
        for q, got in zip(queries, results, strict=True):
            truth = _semantic(dtype, ts, q)
            assert got["kind"] == "REMAIN" or truth <= BitMap([i for a, b in got["ranges"] for i in range(a, b)]), q
        # rows 0 and 1 differ from the literal: a Java-style complement of the micros key would lose them
        assert results[0] == {"kind": "REMAIN"} or {0, 1} <= set(
            i for a, b in results[0]["ranges"] for i in range(a, b))
        # an absent key: every row (nulls included, as Java's complement) or REMAIN
        assert results[4] in ({"kind": "REMAIN"}, {"kind": "BITMAP", "cardinality": 5, "ranges": [[0, 5]]})


# ---- build -----------------------------------------------------------------------------------

CASES_09 = [p for p in sorted(GOLDEN_09.glob("file_index/*.json*")) if ".rows." not in p.name]


def _table_options(side: dict) -> list[str]:
    opts: dict[str, str] = {}
    for r in side["indexes_requested"]:
        if r.get("force_empty"):
            continue
        key = f"file-index.{r['type']}.columns"
        opts[key] = (opts[key] + "," if key in opts else "") + r["column"]
        if r["type"] == "bitmap":
            opts[f"file-index.bitmap.{r['column']}.version"] = "1"  # 0.9 only had V1
        for k, v in (r.get("options") or {}).items():
            opts[f"file-index.{r['type']}.{r['column']}.{k}"] = str(v)
    return [x for k, v in opts.items() for x in ("--option", f"{k}={v}")]


@pytest.mark.parametrize("name", ["fi_multi_column_combos", "fi_date_timestamp_bitmap", "fi_string_bitmap",
                                  "fi_all_null", "fi_bloom_many_types"])
def test_build_from_sidecar_rows_matches_java_payloads(name, tmp_path, capsys):
    path = next(p for p in CASES_09 if p.name.startswith(name + ".json"))
    side = load_json(path)
    rows = side["rows"] if "rows" in side else load_json(path.parent / side["rows_file"])
    cols = side["columns"]
    jsonl = tmp_path / "rows.jsonl"
    with open(jsonl, "w", encoding="utf-8") as fh:
        for i in range(side["row_count"]):
            fh.write(json.dumps({c["name"]: rows[c["name"]][i] for c in cols}) + "\n")
    out = tmp_path / "built.index"
    code, stdout, err = run_cli(capsys, "index", "build", "--schema", json.dumps(cols), "--input", jsonl,
                                *_table_options(side), "--output", out, "--json")
    assert code == 0, err
    assert json.loads(stdout)["bytes"] == out.stat().st_size
    built = FileIndexContainerReader(ByteSource(out))
    java = FileIndexContainerReader(ByteSource(path.parent / side["file"]))
    assert sorted(built.order) == sorted(java.order)
    for column, itype in java.order:
        assert built.read_payload(column, itype) == java.read_payload(column, itype), (column, itype)
    # querying what we built answers like the Java file
    q_built = run_cli(capsys, "index", "query", out, "--schema", json.dumps(cols), "--predicates-json", path,
                      "--json")
    q_java = run_cli(capsys, "index", "query", path.parent / side["file"], "--schema", json.dumps(cols),
                     "--predicates-json", path, "--json")
    assert q_built[0] == 0 and q_java[0] == 0

    def norm(results):  # the reader order follows the container order: empty bitmap vs SKIP may differ
        return [{"kind": "SKIP"} if r["kind"] == "BITMAP" and not r["cardinality"] else r for r in results]

    assert norm(json.loads(q_built[1])) == norm(json.loads(q_java[1]))
    assert len(json.loads(q_built[1])) == len(side["predicates"])


def _truth_table():
    status = ["PENDING", "DONE", None, "PENDING", "FAILED", "DONE", "PENDING", None, "DONE", "PENDING"] * 30
    region = ["US", "EU", "APAC", None, "US"] * 60
    qty = [i % 7 if i % 11 else None for i in range(300)]
    return {"status": status, "region": region, "qty": qty}


@pytest.mark.parametrize("fmt", ["parquet", "csv", "jsonl"])
def test_build_and_query_each_input_format(fmt, tmp_path, capsys):
    data = _truth_table()
    schema = "status STRING, region STRING, qty INT"
    src = tmp_path / f"rows.{fmt}"
    if fmt == "parquet":
        pq.write_table(pa.table({"status": pa.array(data["status"]), "region": pa.array(data["region"]),
                                 "qty": pa.array(data["qty"], pa.int32())}), src)
    elif fmt == "csv":
        with open(src, "w", encoding="utf-8") as fh:
            fh.write("status,region,qty\n")
            for s, r, q in zip(data["status"], data["region"], data["qty"], strict=True):
                fh.write(f"{s or ''},{r or ''},{'' if q is None else q}\n")
    else:
        with open(src, "w", encoding="utf-8") as fh:
            for s, r, q in zip(data["status"], data["region"], data["qty"], strict=True):
                fh.write(json.dumps({"status": s, "region": r, "qty": q}) + "\n")
    out = tmp_path / "t.index"
    code, _, err = run_cli(capsys, "index", "build", "--schema", schema, "--input", src,
                           "--option", "file-index.bitmap.columns=status,region",
                           "--option", "file-index.bloom-filter.columns=qty",
                           "--option", "file-index.bloom-filter.qty.items=100", "--output", out)
    assert code == 0, err
    where = "status = 'PENDING' AND region IN ('US','EU') OR status IS NULL"
    code, out_text, err = run_cli(capsys, "index", "query", out, "--schema", schema, "--where", where, "--json")
    assert code == 0, err
    got = json.loads(out_text)
    truth = BitMap(i for i in range(300) if (data["status"][i] == "PENDING" and data["region"][i] in ("US", "EU"))
                   or data["status"][i] is None)
    assert got["kind"] == "BITMAP" and got["cardinality"] == len(truth)
    assert BitMap([i for a, b in got["ranges"] for i in range(a, b)]) == truth
    # bloom filter on qty: 9 is absent -> SKIP; AND with anything stays SKIP
    code, out_text, _ = run_cli(capsys, "index", "query", out, "--schema", schema, "--where",
                                "qty = 9 AND status = 'DONE'", "--json")
    assert json.loads(out_text) == {"kind": "SKIP"}
    # deletion vector applied to the result
    code, out_text, _ = run_cli(capsys, "index", "query", out, "--schema", schema, "--where", "status = 'FAILED'",
                                "--row-count", 300, "--deleted", json.dumps({"ranges": [[0, 150]]}), "--json")
    got = json.loads(out_text)
    assert got["ranges"] == [[i, i + 1] for i in range(154, 300, 10)]
    # human-readable output
    code, out_text, _ = run_cli(capsys, "index", "query", out, "--schema", schema, "--where", "region = 'XX'")
    assert code == 0 and out_text.strip() == "BITMAP cardinality=0"


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["--schema", "a INT", "--where", "a = "], "character 4"),
        (["--schema", "a INT", "--where", "zz = 1"], "unknown column"),
        (["--schema", "a INT", "--index-type", "bitmap", "--type", "INT", "--where", "a = 1"], "either --schema"),
        (["--index-type", "bitmap", "--where", "a = 1"], "--type"),
        (["--where", "a = 1"], "--schema"),
        (["--schema", "a INT", "--predicate-json", "{not json"], "does not parse"),
        (["--schema", "a INT", "--predicates-json", '{"op": "eq"}'], "list"),
        (["--schema", "a INT", "--where", "a = 1", "--deleted", "[[0, 1]]"], "--row-count"),
    ],
)
def test_query_errors_exit_2_with_one_line(argv, needle, capsys):
    container = GOLDEN_09 / "file_index" / "fi_int_bigint_bitmap.index"
    code, out, err = run_cli(capsys, "index", "query", container, *argv)
    assert code == 2 and out == ""
    assert needle in err and err.count("\n") == 1


def test_corrupt_container_is_a_clean_error(tmp_path, capsys):
    bad = tmp_path / "bad.index"
    bad.write_bytes(b"\x00\x05NN\xd0\x1a5\xae" + b"\x00\x00\x00\x07" + b"\x00" * 20)
    code, _, err = run_cli(capsys, "index", "query", bad, "--schema", "a INT", "--where", "a = 1")
    assert code == 2 and "version" in err
    code, _, err = run_cli(capsys, "index", "query", tmp_path / "missing.index", "--schema", "a INT",
                           "--where", "a = 1")
    assert code == 2


def test_build_errors(tmp_path, capsys):
    src = tmp_path / "rows.jsonl"
    src.write_text('{"a": 1}\n{"a": 2}\n')
    code, _, err = run_cli(capsys, "index", "build", "--schema", "a INT", "--input", src, "--output",
                           tmp_path / "o.index")
    assert code == 2 and "no file index" in err
    code, _, err = run_cli(capsys, "index", "build", "--schema", "a INT", "--input", src, "--option",
                           "file-index.bitmap.columns=zz", "--output", tmp_path / "o.index")
    assert code == 2 and "zz" in err
    (tmp_path / "rows.txt").write_text("x")
    code, _, err = run_cli(capsys, "index", "build", "--schema", "a INT", "--input", tmp_path / "rows.txt",
                           "--option", "file-index.bitmap.columns=a", "--output", tmp_path / "o.index")
    assert code == 2 and "format" in err
    assert not (tmp_path / "o.index").exists()


def test_subprocess_query_of_a_latest_container():
    case = next(c for c in latest_cases("file-index-container") if c["case"] == "container_multi_column_small")
    side = load_json(case["json"])
    schema = json.dumps([{"name": c["name"], "type": c["type"]} for c in side["schema"]])
    proc = subprocess.run(
        [sys.executable, "-m", "paimon_codec", "index", "query", str(case["file"]), "--schema", schema,
         "--predicates-json", str(case["json"]), "--json"],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)
    for entry, got in zip(side["predicates"], results, strict=True):
        want = entry["result"]
        if want == "SKIP":
            assert got["kind"] == "SKIP" or (got["kind"] == "BITMAP" and got["cardinality"] == 0)
        elif want == "REMAIN":
            assert got == {"kind": "REMAIN"}
        else:
            assert got["ranges"] == [list(r) for r in positions_from_json(want) and want["ranges"]]
