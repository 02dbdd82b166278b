"""``paimon-codec bucket read / hash / assign`` against the golden sidecars."""

from __future__ import annotations

import json

import numpy as np
from conftest import GOLDEN_09, latest_cases, load_json

from paimon_codec.bucket.hash_index import write_hash_index
from paimon_codec.cli import main


def _run(capsys, *argv):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_bucket_read(capsys):
    side = load_json(GOLDEN_09 / "hash_index" / "hash_small.json")
    rc, out, _ = _run(capsys, "bucket", "read", GOLDEN_09 / "hash_index" / side["file"], "--json")
    assert rc == 0 and json.loads(out) == {"hashes": side["hashes"]}


def test_bucket_hash_latest_sidecar(capsys):
    for case in latest_cases("hash-index"):
        side = load_json(case["json"])
        ns = [fn["num_buckets"] for fn in side["default_bucket_function"]]
        rc, out, _ = _run(capsys, "bucket", "hash", "--key-types", ", ".join(side["key_types"]),
                          "--keys-json", case["json"], "--buckets", ",".join(map(str, ns)), "--json")
        got = json.loads(out)
        assert rc == 0
        assert [g["binary_row"] for g in got] == side["binary_rows_hex"]
        assert [g["hash"] for g in got] == side["hashes"]
        for fn in side["default_bucket_function"]:
            assert [g["buckets"][str(fn["num_buckets"])] for g in got] == fn["buckets"]


def test_bucket_assign_and_load(capsys, tmp_path):
    for path in sorted((GOLDEN_09 / "binary_row").glob("*.json")):
        side = load_json(path)
        keys = tmp_path / "keys.json"
        keys.write_text(json.dumps([r["key"] for r in side["rows"]]))
        rc, out, _ = _run(capsys, "bucket", "assign", "--key-types", ", ".join(side["key_types"]),
                          "--keys-json", keys, "--target-row-num", side["dynamic_target_row_num"], "--json")
        assert rc == 0
        assert json.loads(out)["buckets"] == [r["dynamic_bucket_sequential"] for r in side["rows"]]
    # a bucket loaded from its hash file keeps its keys and counts towards the target
    side = load_json(GOLDEN_09 / "binary_row" / "binrow_int.json")
    first = side["rows"][0]
    write_hash_index(tmp_path / "b5", np.array([first["hash_code"]], dtype=np.int32))
    keys = tmp_path / "k.json"
    keys.write_text(json.dumps([first["key"], side["rows"][1]["key"]]))
    rc, out, _ = _run(capsys, "bucket", "assign", "--key-types", "INT", "--keys-json", keys,
                      "--target-row-num", 1, "--load", f"5={tmp_path / 'b5'}", "--json")
    assert rc == 0 and json.loads(out)["buckets"] == [5, 0]


def test_bucket_cli_errors(capsys, tmp_path):
    keys = tmp_path / "k.json"
    keys.write_text("[[1, 2]]")
    rc, _, err = _run(capsys, "bucket", "hash", "--key-types", "INT", "--keys-json", keys, "--json")
    assert rc == 2 and "fields" in err
    rc, _, err = _run(capsys, "bucket", "hash", "--key-types", "MAP<INT, INT>", "--keys-json", keys)
    assert rc == 2
    (tmp_path / "odd").write_bytes(b"\x00" * 5)
    rc, _, err = _run(capsys, "bucket", "read", tmp_path / "odd")
    assert rc == 2 and "multiple of 4" in err


def test_malformed_json_inputs_are_input_errors_in_both_clis(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[[1, ")
    rc, out, err = _run(capsys, "bucket", "hash", "--key-types", "INT", "--keys-json", bad, "--json")
    assert rc == 2 and out == "" and "invalid JSON" in err and "bad.json" in err
    rc, out, err = _run(capsys, "dv", "write", "--input", bad, "--output-dir", tmp_path / "out")
    assert rc == 2 and out == "" and "invalid JSON" in err and not (tmp_path / "out").exists()
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    rc, _, err = _run(capsys, "bucket", "assign", "--key-types", "INT", "--keys-json", deep)
    assert rc == 2 and "nested" in err


def test_json_output_is_one_compact_line(capsys, tmp_path):
    keys = tmp_path / "k.json"
    keys.write_text("[[1], [2]]")
    rc, out, _ = _run(capsys, "bucket", "assign", "--key-types", "INT", "--keys-json", keys, "--json")
    assert rc == 0 and out.count("\n") == 1 and " " not in out
    rc, text, _ = _run(capsys, "bucket", "assign", "--key-types", "INT", "--keys-json", keys)
    assert rc == 0 and text.split() == [str(b) for b in json.loads(out)["buckets"]]
