"""Range-bitmap conformance against every paimon-latest golden case.

* every payload is rebuilt byte-identically from the sidecar's rows and options;
* the decoded structure equals ``expected_meta`` (header, chunk headers, keys_by_code, row_codes);
* every query (comparisons, IN, nulls and every top-N query) gives the sidecar's result.
"""

from __future__ import annotations

import math

import pytest
from conftest import latest_cases, load_json

from paimon_codec.fileindex.range_bitmap import RangeBitmapReader, RangeBitmapWriter
from paimon_codec.fileindex.topn import answer_topn_query
from paimon_codec.fileio import ByteSource
from paimon_codec.positions import positions_from_json
from paimon_codec.types import parse_type
from paimon_codec.values import from_json

CASES = latest_cases("range-bitmap")
IDS = [c["case"] for c in CASES]


def _rows(sidecar: dict, dtype) -> list:
    bits = sidecar.get("rows_bits")
    return [from_json(dtype, v, bits=bits[i] if bits and v is not None else None)
            for i, v in enumerate(sidecar["rows"])]


def _lit(dtype, q: dict, key: str):
    return from_json(dtype, q[key], bits=q.get(key + "_bits"))


def _lits(dtype, q: dict) -> list:
    bits = q.get("literals_bits") or [None] * len(q["literals"])
    return [from_json(dtype, v, bits=b) for v, b in zip(q["literals"], bits, strict=True)]


def run_query(reader, dtype, q: dict):
    op = q["op"]
    if op in ("top_k", "bottom_k"):
        return answer_topn_query(reader, q)
    if op == "between":
        return reader.visit_between(_lit(dtype, q, "from"), _lit(dtype, q, "to"))
    if op == "in":
        return reader.visit_in(_lits(dtype, q))
    if op == "not_in":
        return reader.visit_not_in(_lits(dtype, q))
    if op == "is_null":
        return reader.visit_is_null()
    if op == "is_not_null":
        return reader.visit_is_not_null()
    visit = {"eq": reader.visit_equal, "neq": reader.visit_not_equal, "lt": reader.visit_lt,
             "lte": reader.visit_lte, "gt": reader.visit_gt, "gte": reader.visit_gte}[op]
    return visit(_lit(dtype, q, "literal"))


def assert_result(res, expected) -> None:
    if isinstance(expected, str):
        assert res.kind == expected
    else:
        assert res.kind == "BITMAP"
        assert res.bitmap == positions_from_json(expected)


def _same_key(dtype, got, expected) -> bool:
    if dtype.root in ("FLOAT", "DOUBLE"):
        a, b = float(got), from_json(dtype, expected)
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    return got == expected


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_rebuild_byte_identical(case):
    sidecar = load_json(case["json"])
    dtype = parse_type(sidecar["type"])
    writer = RangeBitmapWriter(dtype, sidecar["options"])
    writer.write_batch(_rows(sidecar, dtype))
    assert writer.serialize() == case["file"].read_bytes()


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_rebuild_row_by_row(case):
    sidecar = load_json(case["json"])
    dtype = parse_type(sidecar["type"])
    writer = RangeBitmapWriter(dtype, sidecar["options"])
    for v in _rows(sidecar, dtype):
        writer.write(v)
    assert writer.serialize() == case["file"].read_bytes()


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_decoded_structure(case):
    sidecar = load_json(case["json"])
    dtype = parse_type(sidecar["type"])
    meta = RangeBitmapReader(ByteSource(case["file"]), dtype).describe()
    expected = sidecar["expected_meta"]
    for key in ("header_length", "version", "row_count", "cardinality", "dictionary_offset",
                "dictionary_length", "bsi_offset"):
        assert meta[key] == expected[key], key
    for key in ("min", "max"):
        assert (meta[key] is None) == (expected[key] is None)
        if expected[key] is not None:
            assert _same_key(dtype, meta[key], expected[key]), key
    assert meta["bsi"] == expected["bsi"]
    if "dictionary" in expected:
        d, e = meta["dictionary"], expected["dictionary"]
        for key in ("chunks", "offsets_length", "chunks_length", "body_offset"):
            assert d[key] == e[key], key
        assert len(d["chunk_headers"]) == len(e["chunk_headers"])
        for got, exp in zip(d["chunk_headers"], e["chunk_headers"], strict=True):
            assert {k: v for k, v in got.items() if k != "key"} == {k: v for k, v in exp.items() if k != "key"}
            assert _same_key(dtype, got["key"], exp["key"])
        if "keys_by_code_bits" in e:
            assert d["keys_by_code_bits"] == e["keys_by_code_bits"]
        else:
            assert d["keys_by_code"] == e["keys_by_code"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_query(case):
    sidecar = load_json(case["json"])
    dtype = parse_type(sidecar["type"])
    reader = RangeBitmapReader(ByteSource(case["file"]), dtype)
    assert sidecar["queries"]
    for q in sidecar["queries"]:
        res = run_query(reader, dtype, q)
        try:
            assert_result(res, q["result"])
        except AssertionError as exc:
            raise AssertionError(f"query {q['op']} {q.get('literal', q.get('k'))} failed") from exc
