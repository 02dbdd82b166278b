"""Footers read for routing are kept per version of a file: a file replaced at the same path is read again.

:func:`paimon_codec.spark.native._footer` caches by (path, mtime, size): routing reads each footer twice (the
row groups a selection touches, the columns' types) and Paimon's data files never change in place - but a file
that does (a test, a hand-made table) must not be judged by its old footer: a stale schema would send a file
whose column changed type to Spark's reader.
"""

from __future__ import annotations

import os

import pyarrow as pa
import pyarrow.parquet as pq
from pyroaring import BitMap

from paimon_codec.spark import native


def test_a_replaced_file_is_read_again(tmp_path):
    path = str(tmp_path / "f.parquet")
    pq.write_table(pa.table({"a": pa.array([1, 2, 3], pa.int32())}), path, row_group_size=2)
    assert native._file_schema(path, "parquet").field("a").type == pa.int32()
    touched, total = native.selected_bytes(path, "parquet", BitMap([0]))
    assert 0 < touched < total  # one of two row groups
    st = os.stat(path)
    pq.write_table(pa.table({"a": pa.array(["x", "y", "z", "w"], pa.string())}), path, row_group_size=10)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert native._file_schema(path, "parquet").field("a").type == pa.string()
    touched, total = native.selected_bytes(path, "parquet", BitMap([0]))
    assert touched == total  # one row group now


def test_a_missing_file_is_no_footer(tmp_path):
    assert native._file_schema(str(tmp_path / "gone.parquet"), "parquet") is None
    assert native.selected_bytes(str(tmp_path / "gone.parquet"), "parquet", BitMap([0])) is None
