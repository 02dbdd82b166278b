"""BSI (deprecated) conformance against every paimon-latest golden case: every query's result, and
the optional writer rebuilds every payload byte-identically from the sidecar rows."""

from __future__ import annotations

import pytest
from conftest import latest_cases, load_json
from test_range_bitmap_golden import assert_result, run_query

from paimon_codec.fileindex.bsi import BsiReader, BsiWriter
from paimon_codec.fileio import ByteSource
from paimon_codec.types import parse_type
from paimon_codec.values import from_json

CASES = latest_cases("bsi")
IDS = [c["case"] for c in CASES]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_query(case):
    sidecar = load_json(case["json"])
    dtype = parse_type(sidecar["type"])
    reader = BsiReader(ByteSource(case["file"]), dtype)
    assert reader.row_count == sidecar["row_count"]
    assert sidecar["queries"]
    for q in sidecar["queries"]:
        try:
            assert_result(run_query(reader, dtype, q), q["result"])
        except AssertionError as exc:
            raise AssertionError(f"query {q['op']} {q.get('literal', q.get('literals'))} failed") from exc


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_writer_byte_identical(case):
    sidecar = load_json(case["json"])
    dtype = parse_type(sidecar["type"])
    writer = BsiWriter(dtype)
    writer.write_batch([from_json(dtype, v) for v in sidecar["rows"]])
    assert writer.serialize() == case["file"].read_bytes()
