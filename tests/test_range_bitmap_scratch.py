"""The range-bitmap reader's first compiled comparison over a local file: the whole BSI read in one system call into
a per-thread scratch buffer (``_compiled.scratch_bsi`` / ``ByteSource.read_into``), and the answers a reader
remembers for the planner's exactness check.

Every answer is held to the same reader over the payload's bytes in memory (which never takes the scratch path) and
to the pyroaring reference path; hostile files get the same answer or the same error.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles.quick_guard import examples
from test_range_bitmap_jit import (  # noqa: F401 - the module's autouse fixture: kernels from the first comparison
    _both,
    _jit_from_the_first_comparison,
    _outcome,
    _questions,
    _reference_path,
    hostile_golden_payload,
)

from paimon_codec.errors import TruncatedDataError
from paimon_codec.fileindex.range_bitmap import RangeBitmapReader, RangeBitmapWriter
from paimon_codec.fileio import ByteSource

pytest.importorskip("numba")


def _payload(values: list, chunk: str = "64b") -> bytes:
    w = RangeBitmapWriter("INT", {"chunk-size": chunk})
    w.write_batch(values)
    return w.serialize()


def _file(tmp_path, name: str, data: bytes, pad: int = 0) -> str:
    """``data`` in a file, after ``pad`` bytes (the payload's window then starts inside the file)."""
    path = tmp_path / name
    path.write_bytes(b"\xee" * pad + data)
    return str(path)


def _reader(path: str, size: int, pad: int = 0) -> RangeBitmapReader:
    return RangeBitmapReader(ByteSource(path).sub(pad, size), "INT")


def test_read_into_counts_bounds_and_heads(tmp_path):
    data = bytes(range(256)) * 40
    path = _file(tmp_path, "f.bin", data)
    buf = bytearray(1 << 14)
    with ByteSource(path) as src:
        assert src.local_file
        win = src.sub(100, 5000)
        assert bytes(win.read_into(7, buf, 300)) == data[107:407]
        assert src.bytes_read == 300
        with pytest.raises(TruncatedDataError):
            win.read_into(4900, buf, 101)
        with pytest.raises(ValueError):
            win.read_into(0, bytearray(10), 11)
        src.keep_head(4096)  # answered from the head already read: counted once, when it was read
        before = src.bytes_read
        assert bytes(src.read_into(10, buf, 50)) == data[10:60]
        assert src.bytes_read == before
    mem = ByteSource(data)
    assert not mem.local_file
    assert bytes(mem.read_into(3, buf, 9)) == data[3:12]
    assert mem.bytes_read == 9


def test_file_answers_equal_memory_answers_and_later_questions_read_again(tmp_path):
    """The first comparison of a file's reader goes through the scratch buffer and keeps no view of it: other
    questions on the same reader afterwards (the EBM, the slices, top-N) read what they need, and readers of
    other files overwriting the buffer change no earlier answer."""
    values = [None if i % 11 == 0 else (i * 7919) % 3001 - 1500 for i in range(70_001)]
    other = [(i * 31) % 50 for i in range(5_000)]
    one, two = _payload(values), _payload(other, "16kb")
    p1, p2 = _file(tmp_path, "a.idx", one, pad=13), _file(tmp_path, "b.idx", two)
    first = _reader(p1, len(one), pad=13)
    lt = first.visit_lt(17)
    assert "_slice_area" not in first.__dict__  # answered from the scratch buffer
    kept = lt.bitmap.copy()
    _reader(p2, len(two)).visit_gte(20).bitmap  # noqa: B018 - the buffer now holds another file's BSI
    assert lt.bitmap == kept == RangeBitmapReader(one, "INT").visit_lt(17).bitmap
    assert set(kept) == {r for r, v in enumerate(values) if v is not None and v < 17}
    mem = RangeBitmapReader(one, "INT")
    for name, ask in _questions([17, -1500, 3000], (-20, 40)):
        assert _outcome(lambda ask=ask: ask(first)) == _outcome(lambda ask=ask: ask(mem)), name
    assert first.top_values(5, None, False, True) == mem.top_values(5, None, False, True)


def test_bytes_read_do_not_depend_on_the_comparison_path(tmp_path):
    """A plan's ``index_bytes_read`` is the same whether a process compares with the compiled kernels (the scratch
    read) or on pyroaring: the first comparison reads the same bytes either way, the head page's share counted
    once (found by CI: a Spark-distributed plan, its workers on the other path, reported other byte counts)."""
    # a BSI starting inside the head page and running past it (few keys, many rows), one after it, one inside it
    for rows, keys, chunk in ((20_000, 50, "16kb"), (70_001, 3001, "64b"), (400, 3001, "16kb")):
        data = _payload([(i * 7919) % keys - keys // 2 for i in range(rows)], chunk)
        path = _file(tmp_path, f"r{rows}.idx", data, pad=13)
        counts = []
        for reference in (False, True):
            with ByteSource(path) as src:
                src.keep_head(4096)
                r = RangeBitmapReader(src.sub(13, len(data)), "INT")
                if reference:
                    with _reference_path():
                        answer = set(r.visit_lt(17).bitmap)
                else:
                    answer = set(r.visit_lt(17).bitmap)
                    assert "_slice_area" not in r.__dict__  # answered from the scratch buffer
                counts.append((src.bytes_read, answer))
        assert counts[0] == counts[1], rows


def test_an_answer_is_remembered_per_literal_and_type():
    """The exactness check asks again: the same answer object, for the same literal of the same type only (10 and
    10.0 compare equal; only ints, strings and bytes are remembered)."""
    r = RangeBitmapReader(_payload(list(range(-5, 60))), "INT")
    a = r.visit_lt(10)
    assert r.visit_lt(10) is a and r.visit_between(3, 9) is r.visit_between(3, 9)
    assert r.visit_lte(10) is not a and r.visit_gt(10) is not a
    assert set(a.bitmap) == set(range(15))
    as_float = r.visit_lt(10.0)
    assert as_float is not a and as_float.bitmap == a.bitmap


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hostile_files_same_answer_or_same_error_as_bytes_and_reference(tmp_path_factory, data):
    """Bit flips, truncations and planted numbers in a golden payload, read from a file: each question gets the
    answer, or the error, the same bytes in memory give (compiled and through pyroaring)."""
    payload = hostile_golden_payload(data)
    path = _file(tmp_path_factory.mktemp("hostile"), "p.idx", payload)
    lits = data.draw(st.lists(st.integers(-5, 80), min_size=1, max_size=3))
    for name, ask in _questions(lits, (min(lits), max(lits))):
        from_file = _outcome(lambda ask=ask: ask(RangeBitmapReader(ByteSource(path), "INT")))
        if from_file[0] == "error":  # the same error, naming the file
            assert from_file[2].startswith(f"{path}: "), from_file
            from_file = (*from_file[:2], from_file[2][len(path) + 2:])
        jit, ref = _both(lambda ask=ask: ask(RangeBitmapReader(payload, "INT")))
        assert from_file == jit == ref, name
