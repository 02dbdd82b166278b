"""Parsed index heads remembered by their bytes (paimon_codec.fileindex.parse_memo): a reader of other bytes
never gets another file's parse, and bytes that fail the checks still fail after good ones were seen."""

from __future__ import annotations

import numpy as np
import pytest
from pyroaring import BitMap

from paimon_codec.errors import PaimonCodecError
from paimon_codec.fileindex import parse_memo
from paimon_codec.fileindex.container import FileIndexContainerReader, write_container
from paimon_codec.fileindex.range_bitmap import RangeBitmapReader, RangeBitmapWriter
from paimon_codec.fileio import ByteSource
from paimon_codec.types import parse_type

BIGINT = parse_type("BIGINT")


def _payload(values: list[int | None], chunk: str = "64b") -> bytes:
    w = RangeBitmapWriter(BIGINT, {"chunk-size": chunk})
    w.write_batch(values)
    return w.serialize()


def _truth(values: list[int | None], test) -> BitMap:
    return BitMap([i for i, v in enumerate(values) if v is not None and test(v)])


def test_same_heads_other_rows_answer_their_own_rows():
    rng = np.random.default_rng(7)
    a = [int(v) for v in rng.integers(0, 500, 2000)]
    b = list(reversed(a))  # same keys, so the same header and dictionary; other rows in the slices
    parse_memo.clear()
    ra, rb = RangeBitmapReader(_payload(a), BIGINT), RangeBitmapReader(_payload(b), BIGINT)
    for lit in (0, 17, 250, 499, 1000):
        assert ra.visit_lt(lit).bitmap == _truth(a, lambda x, k=lit: x < k)
        assert rb.visit_lt(lit).bitmap == _truth(b, lambda x, k=lit: x < k)
        assert rb.visit_equal(lit).bitmap == _truth(b, lambda x, k=lit: x == k)
    assert len(parse_memo._MEMO) > 0  # the second reader's heads came from the memo


def test_corrupt_directory_fails_after_a_good_parse_of_the_same_file():
    values = list(range(300))
    good = _payload(values)
    parse_memo.clear()
    assert RangeBitmapReader(good, BIGINT).visit_lte(10).bitmap == BitMap(range(11))
    reader = RangeBitmapReader(good, BIGINT)
    chunks = len(reader._directory[1])
    # dictionary: int32 header length, 13-byte header, int32 offset per chunk, then chunk 0: version, key, code
    code_at = reader.dictionary_offset + 4 + 13 + 4 * chunks + 1 + 8
    bad = bytearray(good)
    bad[code_at] ^= 0x40
    with pytest.raises(PaimonCodecError, match="chunk code"):
        RangeBitmapReader(bytes(bad), BIGINT).visit_lte(10).bitmap  # noqa: B018


def test_container_heads_of_other_files_are_their_own():
    one = write_container([("a", [("range-bitmap", _payload([1, 2, 3]))])])
    two = write_container([("a", [("range-bitmap", _payload([1, 2, 3, 4]))])])
    parse_memo.clear()
    c1, c2 = FileIndexContainerReader(one), FileIndexContainerReader(two)
    assert c1.columns != c2.columns
    assert FileIndexContainerReader(one).columns == c1.columns


def test_a_closed_source_never_reads_another_file(tmp_path):
    p, q = tmp_path / "p", tmp_path / "q"
    p.write_bytes(b"p" * 64)
    q.write_bytes(b"q" * 64)
    src = ByteSource(str(p))
    window = src.sub(8, 16)
    assert window.read(0, 4) == b"pppp"
    src.close()
    with open(q, "rb") as other:  # may reuse the closed descriptor's number
        assert other.read(1) == b"q"
        with pytest.raises(ValueError):
            window.read(0, 4)


def _string_bitmap(values: list[str]) -> bytes:
    from paimon_codec.fileindex.bitmap import BitmapIndexWriter

    w = BitmapIndexWriter("STRING", {"version": "1"})
    for v in values:
        w.write(v)
    return w.serialize()


def test_fresh_string_readers_share_the_walk_and_answer_their_own_bytes():
    from paimon_codec.fileindex.bitmap import BitmapIndexReader

    rng = np.random.default_rng(11)
    values = [f"key-{int(k)}" for k in rng.integers(0, 300, 3000)]
    other = [f"key-{int(k)}" for k in rng.integers(0, 300, 3000)]  # same keys, other rows
    blob, blob2 = _string_bitmap(values), _string_bitmap(other)
    parse_memo.clear()
    readers = [BitmapIndexReader(blob, "STRING") for _ in range(3)]
    for lit in ("key-0", "key-17", "key-299", "key-300", "nope"):
        truth = BitMap([i for i, v in enumerate(values) if v == lit])
        for r in readers + [BitmapIndexReader(blob, "STRING")]:  # first, second and later readers of the bytes
            assert r.visit_equal(lit).bitmap == truth
        assert BitmapIndexReader(blob2, "STRING").visit_equal(lit).bitmap == \
            BitMap([i for i, v in enumerate(other) if v == lit])
    assert readers[0]._load_v1().walk is readers[2]._load_v1().walk  # one walk of these bytes


def test_a_key_stored_twice_is_refused_by_every_reader_of_the_bytes():
    from paimon_codec.fileindex.bitmap import BitmapIndexReader

    values = ["key-1", "key-2", "key-3"] * 10
    blob = bytearray(_string_bitmap(values))
    at = blob.index(b"key-2")
    blob[at:at + 5] = b"key-1"  # the dictionary now holds key-1 twice
    parse_memo.clear()
    for _ in range(3):  # the first reader of the bytes scans, later ones share the walk
        r = BitmapIndexReader(bytes(blob), "STRING")
        assert r.visit_equal("key-3").bitmap == BitMap(range(2, 30, 3))
        with pytest.raises(PaimonCodecError, match="twice"):
            BitmapIndexReader(bytes(blob), "STRING").visit_equal("key-1").bitmap  # noqa: B018


def test_the_memo_forgets_the_oldest_beyond_its_byte_budget(monkeypatch):
    monkeypatch.setattr(parse_memo, "MAX_TOTAL_BYTES", 10_000)
    parse_memo.clear()
    calls = []

    def parse(i: int):
        calls.append(i)
        return i

    for i in range(5):  # 5 x 4000 key bytes: only the last two fit the budget
        assert parse_memo.remembered("test", i, 4000, lambda i=i: parse(i)) == i
    assert parse_memo._TOTAL[0] <= 10_000
    for i in (3, 4):
        assert parse_memo.remembered("test", i, 4000, lambda i=i: parse(i)) == i
    assert calls == [0, 1, 2, 3, 4]  # the two newest were remembered
    assert parse_memo.remembered("test", 0, 4000, lambda: parse(0)) == 0
    assert calls == [0, 1, 2, 3, 4, 0]  # the oldest was forgotten
    parse_memo.clear()


def test_large_fixed_dictionaries_share_their_sorted_table_and_still_refuse_a_key_stored_twice():
    from paimon_codec.fileindex.bitmap import BitmapIndexReader, BitmapIndexWriter
    from paimon_codec.fileindex.bitmap._dictionary import SHARED_MIN_BYTES

    values = np.arange(20_000, dtype=np.int32) * 7 - 5000  # 20,000 keys of 8-byte entries: above SHARED_MIN_BYTES
    assert len(values) * 8 >= SHARED_MIN_BYTES
    w = BitmapIndexWriter("INT", {"version": "1"})
    w.write_array(values)
    blob = w.serialize()
    parse_memo.clear()
    readers = [BitmapIndexReader(blob, "INT") for _ in range(2)]
    for lit in (-5000, -4993, 2, 5, 134_993, 134_994):  # keys and values between them
        truth = BitMap(np.flatnonzero(values == lit).tolist())
        for r in readers:
            assert r.visit_equal(lit).bitmap == truth
    assert readers[0]._load_v1()._table is readers[1]._load_v1()._table  # sorted once for both
    # the dictionary with the second key overwritten by the first: a key stored twice
    first = np.array([-5000], dtype=">i4").tobytes()
    second = np.array([-4993], dtype=">i4").tobytes()
    bad = bytearray(blob)
    head = readers[0]
    entry = head._load_v1().raw_keys.dtype.itemsize + head._load_v1().offsets.dtype.itemsize  # key, offset
    at = next(i for i in range(head._dict_start, head.body_start, entry) if blob[i:i + 4] == second)
    bad[at:at + 4] = first
    for _ in range(2):  # a reader asked twice builds the table, and refuses, whether or not the table is shared
        r = BitmapIndexReader(bytes(bad), "INT")
        assert r.visit_equal(-4986).bitmap == BitMap([2])  # the first lookup scans
        with pytest.raises(PaimonCodecError, match="twice"):
            r.visit_equal(-4979).bitmap  # noqa: B018
    parse_memo.clear()
