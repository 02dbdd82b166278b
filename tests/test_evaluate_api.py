"""The public file-index API end to end: write rows, read the container lazily, evaluate."""

from __future__ import annotations

import paimon_codec.fileindex as fi
from paimon_codec.expressions import col, parse_where
from paimon_codec.fileio import ByteSource
from paimon_codec.types import parse_row_type


def test_every_exported_name_resolves():
    for name in fi.__all__:
        assert getattr(fi, name) is not None, name


def _rows(n: int):
    return [(i, ["PENDING", "DONE", "FAILED", None][i % 4], f"k{i}") for i in range(n)]


def test_write_read_evaluate_round_trip():
    schema = parse_row_type("id INT, status STRING, key STRING")
    writer = fi.FileIndexWriter(schema, {"file-index.bitmap.columns": "status",
                                         "file-index.bloom-filter.columns": "key"})
    rows = _rows(1000)
    writer.write_rows(rows)
    container = fi.FileIndexContainerReader(writer.serialize())

    r = fi.evaluate(col("status") == "FAILED", container, schema)
    assert r.to_dict()["cardinality"] == 250 and set(r.bitmap) == {i for i in range(1000) if i % 4 == 2}
    r = fi.evaluate(parse_where("status IS NULL OR status = 'DONE'"), container, schema)
    assert set(r.bitmap) == {i for i in range(1000) if i % 4 in (1, 3)}
    absent = [fi.evaluate(col("key") == f"absent-{i}", container, schema).kind for i in range(50)]
    assert set(absent) <= {"SKIP", "REMAIN"} and absent.count("SKIP") > 40  # bloom: few false positives
    assert fi.evaluate(col("key") == "k17", container, schema) is fi.REMAIN
    # an un-indexed column never prunes; AND with it keeps the bitmap
    r = fi.evaluate((col("id") == 5) & (col("status") == "DONE"), container, schema)
    assert r.kind == "BITMAP" and len(r.bitmap) == 250
    # deletion vector on top
    r = fi.apply_deletion_vector(fi.evaluate(col("status") == "DONE", container, schema), 1000, range(0, 1000, 2))
    assert r.kind == "BITMAP" and len(r.bitmap) == 250
    r = fi.apply_deletion_vector(fi.evaluate(col("status") == "DONE", container, schema), 1000,
                                 [i for i in range(1000) if i % 4 != 1])
    assert r is fi.REMAIN  # the index removes nothing beyond the deletion vector


def test_evaluation_reads_only_the_queried_columns_indexes():
    schema = parse_row_type("id INT, status STRING, key STRING")
    writer = fi.FileIndexWriter(schema, {"file-index.bitmap.columns": "status",
                                         "file-index.bloom-filter.columns": "key"})  # default items: ~585 KiB
    writer.write_rows(_rows(2000))
    data = writer.serialize()
    assert len(data) > 500_000
    source = ByteSource(data)
    container = fi.FileIndexContainerReader(source)
    fi.evaluate(col("status") == "DONE", container, schema)
    assert source.bytes_read < 20_000  # the bloom filter of `key` was never read
