"""One JSON style for every command's ``--json`` (issue 9 item 5).

Every command with a ``--json`` flag is found in the real parser (a new one without a case here fails
``test_every_json_command_has_a_case``) and run in-process on small real inputs: its stdout is exactly one
line of JSON (compact, newline-terminated), object keys are snake_case (keys that are data - column,
table or bucket names - aside), and nothing else is printed.  Errors keep one style too: with ``--json``
a bad input is exit status 2, one ``paimon-codec: error: ...`` line on stderr and nothing on stdout.
"""

from __future__ import annotations

import argparse
import json
import re

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from spark_fixtures import spark  # noqa: F401

from paimon_codec.bucket.hash_index import write_hash_index
from paimon_codec.cli import build_parser, main
from paimon_codec.fileindex.bsi import BsiWriter
from paimon_codec.writing import create_table, upsert_arrow
from paimon_codec.writing.append import append_arrow

SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")

#: keys whose value is keyed by data (names of columns, tables, bucket counts), not by the tool
DATA_KEYED = {"tables", "buckets"}
#: keys whose value is data rows (keys are column names): not checked
DATA_ROWS = {"rows"}


def _json_commands() -> set[tuple[str, ...]]:
    """Every command (path of names) whose parser has a ``--json`` flag."""
    found: set[tuple[str, ...]] = set()

    def walk(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    walk(child, (*path, name))
            elif "--json" in action.option_strings:
                found.add(path)

    walk(build_parser(), ())
    return found


def _bad_keys(obj, where: str = "$") -> list[str]:
    bad = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if not (isinstance(k, str) and SNAKE.match(k)):
                bad.append(f"{where}: {k!r}")
            if k in DATA_ROWS:
                continue
            if k in DATA_KEYED and isinstance(v, dict):
                for name, inner in v.items():
                    bad += _bad_keys(inner, f"{where}.{k}[{name!r}]")
            else:
                bad += _bad_keys(v, f"{where}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            bad += _bad_keys(v, f"{where}[{i}]")
    return bad


SCHEMA = pa.schema([("id", pa.int32()), ("s", pa.string()), ("n", pa.int64())])


def _rows(start: int, n: int) -> pa.Table:
    ids = list(range(start, start + n))
    return pa.table({"id": pa.array(ids, pa.int32()), "s": [f"k{i % 3}" for i in ids],
                     "n": pa.array([i * 7 for i in ids], pa.int64())})


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """Small real inputs for every command, written by this library's own writers."""
    d = tmp_path_factory.mktemp("cli_json")
    table = create_table(str(d / "wh" / "db.db" / "t"), SCHEMA,
                         {"file-index.bitmap.columns": "s", "file-index.in-manifest-threshold": "1 mb"})
    append_arrow(table, _rows(0, 40))
    dv_table = create_table(str(d / "dvwh" / "db.db" / "d"), SCHEMA, {"deletion-vectors.enabled": "true"})
    append_arrow(dv_table, _rows(0, 40))
    pk_table = create_table(str(d / "pkwh" / "db.db" / "k"), SCHEMA, {"bucket": "2"}, primary_keys=["id"])
    upsert_arrow(pk_table, _rows(0, 30))
    upsert_arrow(pk_table, _rows(10, 30))  # a second level-0 file per bucket: something to compact
    jsonl = d / "rows.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in _rows(0, 20).to_pylist()))
    parquet = d / "more.parquet"
    pq.write_table(_rows(100, 20), parquet)
    container = d / "c.index"
    assert main(["index", "build", "--schema", "id INT, s STRING, n BIGINT", "--input", str(jsonl),
                 "--option", "file-index.bitmap.columns=s", "--output", str(container)]) == 0
    bsi = BsiWriter("INT")
    bsi.write_batch([5, -3, None, 9, 9, 0])
    bsi_path = d / "col.bsi"
    bsi_path.write_bytes(bsi.serialize())
    positions = d / "positions.json"
    positions.write_text(json.dumps({"data-a.parquet": [[0, 3], [10, 12]], "data-b.parquet": [[5, 6]]}))
    dv_dir = d / "dv"
    assert main(["dv", "write", "--input", str(positions), "--output-dir", str(dv_dir), "--name-prefix", "dv"]) == 0
    dv_file = next(p for p in dv_dir.iterdir())
    puffin = d / "dv.puffin"
    assert main(["dv", "to-puffin", str(positions), "--output", str(puffin)]) == 0
    hashes = d / "hash-index"
    write_hash_index(hashes, np.array([1, -7, 42], dtype=np.int32))
    keys = d / "keys.json"
    keys.write_text(json.dumps([[1], [2], [3]]))
    return {"dir": d, "table": table, "dv_table": dv_table, "pk_table": pk_table, "jsonl": jsonl, "parquet": parquet, "container": container,
            "bsi": bsi_path, "positions": positions, "dv_file": dv_file, "puffin": puffin, "hashes": hashes,
            "keys": keys}


#: a successful run of each command (``--json`` is added); ``f``: the inputs, ``tmp``: a fresh directory
CASES = {
    ("explore",): lambda f, tmp: ["explore", str(f["container"])],
    ("formats",): lambda f, tmp: ["formats"],
    ("inspect",): lambda f, tmp: ["inspect", str(f["container"])],
    ("index", "build"): lambda f, tmp: ["index", "build", "--schema", "id INT, s STRING, n BIGINT", "--input",
                                        str(f["jsonl"]), "--option", "file-index.bitmap.columns=s",
                                        "--output", str(tmp / "out.index")],
    ("index", "query"): lambda f, tmp: ["index", "query", str(f["container"]), "--schema",
                                        "id INT, s STRING, n BIGINT", "--where", "s = 'k1'"],
    ("index", "topn"): lambda f, tmp: ["index", "topn", str(f["bsi"]), "--index-type", "bsi", "--type", "INT",
                                       "--k", "2"],
    ("index", "rewrite"): lambda f, tmp: ["index", "rewrite", str(f["table"]), "--local", "--quiet",
                                          "--option", "file-index.bloom-filter.columns=id"],
    ("dv", "read"): lambda f, tmp: ["dv", "read", str(f["dv_file"])],
    ("dv", "write"): lambda f, tmp: ["dv", "write", "--input", str(f["positions"]), "--output-dir", str(tmp / "dv")],
    ("dv", "to-puffin"): lambda f, tmp: ["dv", "to-puffin", str(f["positions"]), "--output", str(tmp / "x.puffin")],
    ("dv", "from-puffin"): lambda f, tmp: ["dv", "from-puffin", str(f["puffin"])],
    ("bucket", "read"): lambda f, tmp: ["bucket", "read", str(f["hashes"])],
    ("bucket", "hash"): lambda f, tmp: ["bucket", "hash", "--key-types", "INT", "--keys-json", str(f["keys"]),
                                        "--buckets", "1,4"],
    ("bucket", "assign"): lambda f, tmp: ["bucket", "assign", "--key-types", "INT", "--keys-json", str(f["keys"]),
                                          "--target-row-num", "2"],
    ("plan",): lambda f, tmp: ["plan", str(f["table"]), "--where", "s = 'k1'"],
    ("scan",): lambda f, tmp: ["scan", str(f["table"]), "--where", "s = 'k1'"],
    ("audit",): lambda f, tmp: ["audit", str(f["dir"] / "wh")],
    ("remove-orphans",): lambda f, tmp: ["remove-orphans", str(f["dir"] / "wh")],
    ("write",): lambda f, tmp: ["write", str(f["table"]), "--input", str(f["parquet"]), "--quiet"],
    ("delete",): lambda f, tmp: ["delete", str(f["dv_table"]), "--where", "id < 3", "--local"],
    ("compact",): lambda f, tmp: ["compact", str(f["pk_table"]), "--local"],
}


def _argv(cmd: tuple[str, ...], f: dict, tmp) -> list[str]:
    return CASES[cmd](f, tmp) + ["--json"]


#: a bad input per command (a file that is not there, or not what it claims)
def _bad_argv(cmd: tuple[str, ...], f: dict, tmp) -> list[str]:
    argv = _argv(cmd, f, tmp)
    missing = str(tmp / "no-such-file")
    if cmd == ("formats",):
        return ["formats", "--schema", "no-such-schema", "--json"]
    if cmd in (("bucket", "hash"), ("bucket", "assign")):
        return [missing if a == str(f["keys"]) else a for a in argv]
    if cmd == ("write",):  # a missing input Spark is asked to read
        return [missing + ".parquet" if a == str(f["parquet"]) else a for a in argv]
    if cmd in (("index", "build"), ("dv", "write")):
        return [missing if a in (str(f["jsonl"]), str(f["positions"]), str(f["parquet"])) else a for a in argv]
    if cmd == ("dv", "to-puffin"):
        return ["dv", "to-puffin", missing, "--output", str(tmp / "y.puffin"), "--json"]
    if cmd == ("audit",):
        return ["audit", missing, "--json"]
    # the first positional is the file / table
    first = next(i for i, a in enumerate(argv) if i >= len(cmd) and not a.startswith("-"))
    return [*argv[:first], missing, *argv[first + 1:]]


SPARK = {("scan",), ("audit",), ("write",)}
#: commands that serve until stopped: their JSON line is read from a process that is then stopped
SERVERS = {("explore",)}
ALL = sorted(_json_commands())


def test_every_json_command_has_a_case():
    """A new ``--json`` command needs a case here (so its style is checked); a case needs its command."""
    assert ALL and set(ALL) == set(CASES)


def _server_line(argv) -> str:
    """The first line a serving command prints (then it is stopped)."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "paimon_codec", *argv], stdout=subprocess.PIPE, text=True)
    try:
        return proc.stdout.readline()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _check_style(cmd, argv, capsys) -> None:
    if cmd in SERVERS:
        out = _server_line(argv)
    else:
        assert main(argv) == 0, capsys.readouterr().err
        out, _ = capsys.readouterr()
    assert out.endswith("\n") and out.count("\n") == 1, f"{cmd}: not one line: {out[:300]!r}"
    obj = json.loads(out)
    assert isinstance(obj, (dict, list)) and obj, cmd
    assert out == json.dumps(obj, separators=(",", ":"), default=str) + "\n", f"{cmd}: not compact"
    assert not _bad_keys(obj), (cmd, _bad_keys(obj)[:10])


def _check_error(cmd, argv, capsys) -> None:
    assert main(argv) == 2, cmd
    out, err = capsys.readouterr()
    assert out == "", (cmd, out[:300])
    assert err.startswith("paimon-codec: error: ") and err.count("\n") == 1, (cmd, err)


@pytest.mark.parametrize("cmd", [c for c in ALL if c not in SPARK], ids=" ".join)
def test_json_style(cmd, inputs, tmp_path, capsys):
    _check_style(cmd, _argv(cmd, inputs, tmp_path), capsys)
    _check_error(cmd, _bad_argv(cmd, inputs, tmp_path), capsys)


@pytest.mark.spark
@pytest.mark.parametrize("cmd", [c for c in ALL if c in SPARK], ids=" ".join)
def test_json_style_spark(cmd, inputs, tmp_path, capsys, spark):  # noqa: F811
    _check_style(cmd, _argv(cmd, inputs, tmp_path), capsys)
    _check_error(cmd, _bad_argv(cmd, inputs, tmp_path), capsys)


@pytest.mark.spark
def test_write_input_it_cannot_read_is_bad_input(inputs, tmp_path, capsys, spark):  # noqa: F811
    """An input whose format the name does not tell, or an unknown ``--format``: one line, exit 2 (an unknown
    format used to surface as a Java stack trace)."""
    table = str(inputs["table"])
    _check_error(("write",), ["write", table, "--input", str(tmp_path / "rows.txt"), "--quiet"], capsys)
    _check_error(("write",), ["write", table, "--input", str(inputs["parquet"]), "--format", "no-such-format",
                              "--quiet"], capsys)


def test_audit_of_a_missing_warehouse_is_bad_input(tmp_path, capsys):
    """``audit`` of a directory that is not there used to report a clean, empty warehouse (exit 0)."""
    from paimon_codec.table import list_tables

    with pytest.raises(FileNotFoundError):
        list_tables(str(tmp_path / "nowhere"))
