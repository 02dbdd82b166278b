"""BinaryRow bytes, key hashes, fixed/dynamic buckets and HASH index files against Java's goldens."""

from __future__ import annotations

import decimal

import numpy as np
import pytest
from conftest import GOLDEN_09, latest_cases, load_json

from paimon_codec.bucket.assign import DynamicBucketAssigner, fixed_bucket, fixed_buckets
from paimon_codec.bucket.binary_row import EMPTY_ROW, EMPTY_ROW_HASH, KeyEncoder, murmur3_rows
from paimon_codec.bucket.hash_index import encode_hash_index, read_hash_index, write_hash_index
from paimon_codec.errors import CorruptDataError, UnsupportedTypeError
from paimon_codec.javahash import murmur_words
from paimon_codec.values import Timestamp, from_json

BINROW = sorted((GOLDEN_09 / "binary_row").glob("*.json"))
HASH09 = sorted((GOLDEN_09 / "hash_index").glob("*.json"))
HASH_LATEST = latest_cases("hash-index")


def _rows(enc: KeyEncoder, keys: list) -> list[list]:
    return [[from_json(t, v) for t, v in zip(enc.types, k, strict=True)] for k in keys]


@pytest.mark.parametrize("path", BINROW, ids=lambda p: p.stem)
def test_09_binary_row_hash_and_buckets(path):
    side = load_json(path)
    enc = KeyEncoder(side["key_types"])
    rows = _rows(enc, [r["key"] for r in side["rows"]])
    for row, r in zip(rows, side["rows"], strict=True):
        assert enc.encode(row).hex() == r["binary_row_hex"]
        assert enc.hash(row) == r["hash_code"] == r["bucket_key_hash_code"]
        for n, bucket in r["fixed_bucket"].items():
            assert fixed_bucket(r["hash_code"], int(n)) == bucket
    hashes = enc.hash_many(rows)
    assert hashes.tolist() == [r["hash_code"] for r in side["rows"]]
    for n in side["num_buckets"]:
        assert fixed_buckets(hashes, n).tolist() == [r["fixed_bucket"][str(n)] for r in side["rows"]]
    assigner = DynamicBucketAssigner(side["dynamic_target_row_num"])
    assert assigner.assign_many(hashes).tolist() == [r["dynamic_bucket_sequential"] for r in side["rows"]]


@pytest.mark.parametrize("case", HASH_LATEST, ids=[c["case"] for c in HASH_LATEST])
def test_latest_hash_cases(case, tmp_path):
    side = load_json(case["json"])
    enc = KeyEncoder(side["key_types"])
    rows = _rows(enc, side["keys"])
    assert [enc.encode(r).hex() for r in rows] == side["binary_rows_hex"]
    hashes = enc.hash_many(rows)
    assert hashes.tolist() == side["hashes"]
    for fn in side["default_bucket_function"]:
        assert fixed_buckets(hashes, fn["num_buckets"]).tolist() == fn["buckets"]
    assert EMPTY_ROW.hex() == side["empty_partition_row_hex"]
    assert EMPTY_ROW_HASH == side["empty_partition_row_hash"]
    raw = case["file"].read_bytes()
    stored = read_hash_index(raw)
    distinct = list(dict.fromkeys(side["hashes"]))
    assert stored.tolist() == distinct
    out = tmp_path / "index-x-0"
    assert write_hash_index(out, stored) == len(distinct)
    assert out.read_bytes() == raw


@pytest.mark.parametrize("path", HASH09, ids=lambda p: p.stem)
def test_09_hash_index_files(path, tmp_path):
    side = load_json(path)
    raw = (path.parent / side["file"]).read_bytes()
    hashes = read_hash_index(path.parent / side["file"])
    assert hashes.dtype == np.int32
    assert hashes.tolist() == side["hashes"]
    assert encode_hash_index(side["hashes"]) == raw
    out = tmp_path / side["file"]
    write_hash_index(out, hashes)
    assert out.read_bytes() == raw and len(raw) == side["file_size"]


def test_warehouse_dynamic_and_fixed_buckets():
    desc = load_json(GOLDEN_09 / "warehouse" / "warehouse.json")
    root = GOLDEN_09 / "warehouse" / "warehouse" / "golden.db"
    enc = KeyEncoder(["INT NOT NULL"])
    for table in desc["tables"]:
        if "key_hash_bucket" not in table:
            continue
        ids = np.array([k for k, _, _ in table["key_hash_bucket"]], dtype=np.int64)
        hashes = enc.hash_columns([ids])
        assert hashes.tolist() == [h for _, h, _ in table["key_hash_bucket"]]
        expected = [b for _, _, b in table["key_hash_bucket"]]
        if table["options"]["bucket"] == "-1":
            fresh = DynamicBucketAssigner(int(table["options"]["dynamic-bucket.target-row-num"]))
            assert fresh.assign_many(hashes).tolist() == expected
            # a restarted writer loads the HASH files and keeps every key in its bucket
            loaded = DynamicBucketAssigner(int(table["options"]["dynamic-bucket.target-row-num"]))
            name = table["table"].split(".")[-1]
            for e in table["index_manifest"]["entries"]:
                if e["index_type"] == "HASH":
                    loaded.load(e["bucket"], root / name / "index" / e["file_name"])
            assert loaded.assign_many(hashes).tolist() == expected
        else:
            assert fixed_buckets(hashes, int(table["options"]["bucket"])).tolist() == expected


def test_vectorised_columns_match_row_encoding():
    types = ["TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "BOOLEAN", "DATE", "TIME",
             "TIMESTAMP(3)", "DECIMAL(10, 2)"]
    enc = KeyEncoder(types)
    assert enc.fixed_width_only
    rng = np.random.default_rng(7)
    n = 200
    cols = [rng.integers(-128, 128, n), rng.integers(-2**15, 2**15, n), rng.integers(-2**31, 2**31, n),
            rng.integers(-2**63, 2**63 - 1, n), rng.standard_normal(n).astype(np.float32), rng.standard_normal(n),
            rng.integers(0, 2, n).astype(bool), rng.integers(-10000, 10000, n), rng.integers(0, 86400000, n),
            rng.integers(-2**40, 2**40, n), rng.integers(-10**9, 10**9, n)]
    nulls = [rng.random(n) < 0.2 for _ in types]
    rows = []
    for i in range(n):
        row = []
        for t, c, m in zip(types, cols, nulls, strict=True):
            v = c[i].item()
            if m[i]:
                v = None
            elif t == "TIMESTAMP(3)":
                v = Timestamp(v, 0)
            elif t.startswith("DECIMAL"):
                v = decimal.Decimal(v).scaleb(-2)
            row.append(v)
        rows.append(row)
    matrix = enc.encode_columns(cols, nulls)
    assert [bytes(r) for r in matrix] == enc.encode_many(rows)
    assert enc.hash_columns(cols, nulls).tolist() == [murmur_words(enc.encode(r)) for r in rows]


def test_non_compact_types_layout():
    enc = KeyEncoder(["TIMESTAMP(6)", "DECIMAL(20, 2)", "VARBINARY"])
    row = enc.encode([Timestamp(1_700_000_000_123, 456_000), decimal.Decimal("-1.28"), b"\x01\x02"])
    header, fixed = 8, 8 + 24
    assert len(row) == fixed + 8 + 16
    slot0 = int.from_bytes(row[header:header + 8], "little")
    assert slot0 >> 32 == fixed and slot0 & 0xFFFFFFFF == 456_000
    assert int.from_bytes(row[fixed:fixed + 8], "little", signed=True) == 1_700_000_000_123
    slot1 = int.from_bytes(row[header + 8:header + 16], "little")
    assert slot1 >> 32 == fixed + 8 and slot1 & 0xFFFFFFFF == 1
    assert row[fixed + 8:fixed + 9] == b"\x80"  # BigInteger(-128).toByteArray()
    assert row[header + 16:header + 24] == b"\x01\x02" + bytes(5) + b"\x82"
    null_row = enc.encode([None, None, None])
    assert null_row[1] == 0b111  # null bits 8, 9, 10
    assert len(null_row) == fixed + 8 + 16  # null non-compact fields still reserve their bytes


def test_murmur_rows_and_errors():
    data = np.random.default_rng(1).integers(0, 256, (50, 24), dtype=np.uint8)
    assert murmur3_rows(data).tolist() == [murmur_words(bytes(r)) for r in data]
    with pytest.raises(UnsupportedTypeError):
        KeyEncoder(["ARRAY<INT>"])
    with pytest.raises(CorruptDataError):
        read_hash_index(b"\x00\x00\x00\x01\x02")


def test_dynamic_assigner_rules():
    # only buckets this assigner owns (bucket % 2 == 1), filled to the target in ascending order
    a = DynamicBucketAssigner(2, num_assigners=2, assign_id=1)
    assert a.assign_many([10, 11, 12, 13, 10, 14]).tolist() == [1, 1, 3, 3, 1, 5]
    # max-buckets reached: new keys go to an existing bucket, abs(hash % count) among the sorted ids
    b = DynamicBucketAssigner(1, max_buckets=2)
    assert b.assign_many([100, 101]).tolist() == [0, 1]
    assert b.assign(7) == 7 % 2 and b.assign(-8) == 0
    # loaded buckets: known hashes keep their bucket, partly filled buckets take new keys first
    c = DynamicBucketAssigner(3)
    c.load(4, np.array([1, 2], dtype=np.int32))
    c.load(0, np.array([3, 4, 5], dtype=np.int32))
    assert c.assign_many([2, 5, 99, 98, 97]).tolist() == [4, 0, 4, 1, 1]
    # partitions are independent
    d = DynamicBucketAssigner(1)
    assert [d.assign(1, b"p1"), d.assign(2, b"p1"), d.assign(3, b"p2")] == [0, 1, 0]
    assert {k: v.tolist() for k, v in d.bucket_hashes(b"p1").items()} == {0: [1], 1: [2]}


@pytest.mark.parametrize("seed", range(6))
def test_assign_many_in_bulk_equals_one_by_one(seed):
    """``assign_many`` (runs of new keys filled in slices, the overflow vectorised) answers exactly as
    ``assign`` called per hash and leaves the same state: repeated hashes, loaded buckets, several
    partitions, assigner ownership, ``max-buckets`` reached mid-batch."""
    rng = np.random.default_rng(seed)
    target, max_buckets = int(rng.integers(1, 6)), int(rng.choice([-1, 3, 7]))
    num_assigners = int(rng.integers(1, 3))
    make = lambda: DynamicBucketAssigner(target, max_buckets=max_buckets, num_assigners=num_assigners,  # noqa: E731
                                         assign_id=num_assigners - 1)
    bulk, single = make(), make()
    for a in (bulk, single):
        a.load(num_assigners - 1, [7, 8], partition=b"p")
    for _ in range(4):
        part = bytes([int(rng.integers(0, 2))]) if rng.random() < 0.5 else b"p"
        hashes = rng.integers(-60, 60, size=int(rng.integers(0, 40)))
        got = bulk.assign_many(hashes, part).tolist()
        assert got == [single.assign(int(h), part) for h in hashes.tolist()]
    for part in (b"p", b"\x00", b"\x01"):
        assert {b: h.tolist() for b, h in bulk.bucket_hashes(part).items()} == \
            {b: h.tolist() for b, h in single.bucket_hashes(part).items()}  # first-assignment order too
