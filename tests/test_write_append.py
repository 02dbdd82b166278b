"""Tables created and appended to by ``paimon_codec.writing``, read back by Paimon itself.

Every table is read by Paimon Java 1.4.2 (JPype oracle), Paimon Java 0.9, pypaimon 2.1 (newest
layout only: pypaimon 2.1 cannot read the 0.9 manifest layout, not even Java 0.9's own) and our
``read_table``; all must return the same rows, also under filters that Java prunes with our value
stats and file indexes.  Appending onto tables Java wrote keeps Java's own manifest layout and Java
keeps reading - and writing - on top of our snapshots.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import os

import fastavro
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from oracles.compare import assert_same_rows

from paimon_codec.errors import PaimonCodecError, UnsupportedTypeError
from paimon_codec.reading import read_table
from paimon_codec.table import PaimonTable
from paimon_codec.writing import append_arrow, create_table
from paimon_codec.writing.commit import index_manifest_schema, manifest_list_schema, manifest_schema

SCHEMA = pa.schema([("id", pa.int32()), ("s", pa.string()), ("p", pa.int32()), ("b", pa.int64()),
                    ("f", pa.float64()), ("ts", pa.timestamp("ms")), ("ts6", pa.timestamp("us")),
                    ("d", pa.decimal128(10, 2)), ("big", pa.decimal128(25, 3)), ("dt", pa.date32()),
                    ("flag", pa.bool_()), ("raw", pa.binary()), ("t8", pa.int8())])
OPTIONS = {"file.format": "parquet", "file-index.bloom-filter.columns": "s",
           "file-index.bitmap.columns": "t8", "file-index.bitmap.t8.version": "1"}


def _rows(start: int, n: int, parts=(1, 2)) -> pa.Table:
    ids = list(range(start, start + n))
    return pa.table({
        "id": pa.array(ids, pa.int32()),
        "s": [None if i % 7 == 0 else f"v{i % 5}" for i in ids],
        "p": pa.array([parts[i % len(parts)] for i in ids], pa.int32()),
        "b": pa.array([i * 1_000_000_007 for i in ids], pa.int64()),
        "f": [float("nan") if i % 11 == 0 else i / 4 for i in ids],
        "ts": pa.array([dt.datetime(2024, 1, 1) + dt.timedelta(seconds=i) for i in ids], pa.timestamp("ms")),
        "ts6": pa.array([dt.datetime(2024, 1, 1, microsecond=i % 1000) for i in ids], pa.timestamp("us")),
        "d": pa.array([decimal.Decimal(i) / 4 for i in ids], pa.decimal128(10, 2)),
        "big": pa.array([decimal.Decimal(i) * 10**15 for i in ids], pa.decimal128(25, 3)),
        "dt": pa.array([dt.date(2024, 1, 1) + dt.timedelta(days=i) for i in ids], pa.date32()),
        "flag": [i % 2 == 0 for i in ids],
        "raw": [bytes([i % 256]) * 3 for i in ids],
        "t8": pa.array([i % 4 for i in ids], pa.int8()),
    })


def _make(tmp_path, layout: str, options=None, partition_keys=("p",)) -> str:
    path = create_table(tmp_path / "wh" / "db.db" / f"t_{layout.replace('.', '')}", SCHEMA,
                        dict(OPTIONS, **(options or {})), partition_keys=list(partition_keys))
    append_arrow(path, _rows(0, 40), layout=layout)
    append_arrow(path, _rows(40, 25, parts=(2, 3)), layout=layout)
    return path


def _writer_schema(path) -> dict:
    with open(path, "rb") as fh:
        return fastavro.reader(fh).writer_schema


def _canon(schema) -> str:
    return json.dumps(fastavro.parse_schema(schema), sort_keys=True)


WHERES = [None, "id = 17", "s = 'v3'", "p = 3", "b > 50000000000", "t8 = 2", "f < 3", "id IN (1, 44)"]


@pytest.mark.parametrize("layout", ["newest", "0.9"])
def test_append_read_by_java_pypaimon_and_ours(tmp_path, layout, java_newest, java09_tables, pypaimon21):
    path = _make(tmp_path, layout)
    expected = pa.concat_tables([_rows(0, 40), _rows(40, 25, parts=(2, 3))])
    assert_same_rows(read_table(path), expected)
    for where in WHERES:
        ours = read_table(path, where)
        assert_same_rows(java_newest.read(path, where=where), ours)
        if "t8" not in (where or ""):  # Paimon 0.9 fails any TINYINT filter, on its own tables too (Byte/Integer cast)
            assert_same_rows(java09_tables.read(path, where=where), ours)
        if layout == "newest":
            assert_same_rows(pypaimon21.read(path, where=where), ours)
    snap = PaimonTable(path).snapshot()
    assert snap.id == 2 and snap.total_record_count == 65 and snap.raw["deltaRecordCount"] == 25
    assert java_newest.snapshot(path)["id"] == 2


def test_newest_layout_is_java_142s(tmp_path, java_newest):
    """Our default Avro schemas are exactly what Java 1.4.2 writes (manifest, list, index manifest)."""
    t = java_newest.create_table(tmp_path, "db.dv", "id INT NOT NULL, s STRING", primary_keys=["id"],
                                 options={"bucket": "1", "deletion-vectors.enabled": "true"})
    java_newest.write(t, pa.table({"id": pa.array(range(50), pa.int32()), "s": ["a"] * 50}))
    java_newest.compact(t, full=True)
    java_newest.write(t, pa.table({"id": pa.array([1], pa.int32()), "s": ["x"]}))
    java_newest.compact(t, full=False)
    table = PaimonTable(t)
    snap = table.snapshot()
    assert snap.index_manifest, "Java wrote no deletion vector"
    meta = table.manifest_list(snap.delta_manifest_list)[0]
    assert _canon(_writer_schema(f"{t}/manifest/{meta.file_name}")) == _canon(manifest_schema("newest"))
    assert _canon(_writer_schema(f"{t}/manifest/{snap.delta_manifest_list}")) == _canon(manifest_list_schema("newest"))
    assert _canon(_writer_schema(f"{t}/manifest/{snap.index_manifest}")) == _canon(index_manifest_schema("newest"))


def test_09_layout_is_java_09s(tmp_path, java09_tables):
    t = java09_tables.create_table(tmp_path, "db.dv", "id INT NOT NULL, s STRING", primary_keys=["id"],
                                   options={"bucket": "1", "deletion-vectors.enabled": "true"})
    java09_tables.write(t, pa.table({"id": pa.array(range(50), pa.int32()), "s": ["a"] * 50}))
    java09_tables.compact(t, full=True)
    java09_tables.write(t, pa.table({"id": pa.array([1], pa.int32()), "s": ["x"]}))
    java09_tables.compact(t, full=False)
    table = PaimonTable(t)
    snap = table.snapshot()
    meta = table.manifest_list(snap.delta_manifest_list)[0]
    assert _canon(_writer_schema(f"{t}/manifest/{meta.file_name}")) == _canon(manifest_schema("0.9"))
    assert _canon(_writer_schema(f"{t}/manifest/{snap.delta_manifest_list}")) == _canon(manifest_list_schema("0.9"))
    if snap.index_manifest:
        assert _canon(_writer_schema(f"{t}/manifest/{snap.index_manifest}")) == _canon(index_manifest_schema("0.9"))


@pytest.mark.parametrize("version", ["1.4.2", "0.9"])
def test_append_onto_java_table(tmp_path, version, java_newest, java09_tables):
    """Java creates and writes; we append; Java reads every row and writes again on top of ours."""
    java = java_newest if version == "1.4.2" else java09_tables
    t = java.create_table(tmp_path, "db.app", "id INT, s STRING, p INT", partition_keys=["p"],
                          options={"file.format": "parquet", "file-index.bloom-filter.columns": "s"})
    java.write(t, pa.table({"id": pa.array([1, 2, 3], pa.int32()), "s": ["a", None, "c"], "p": pa.array([1, 1, 2], pa.int32())}))
    java_schema = _writer_schema(f"{t}/manifest/{PaimonTable(t).manifest_list(PaimonTable(t).snapshot().delta_manifest_list)[0].file_name}")
    res = append_arrow(t, pa.table({"id": pa.array([4, 5], pa.int32()), "s": ["d", "e"], "p": pa.array([2, 3], pa.int32())}))
    assert res.snapshot_id == 2
    table = PaimonTable(t)
    ours = table.manifest_list(table.snapshot().delta_manifest_list)[0].file_name
    assert _canon(_writer_schema(f"{t}/manifest/{ours}")) == _canon(java_schema)  # the table's own layout
    java.write(t, pa.table({"id": pa.array([6], pa.int32()), "s": ["f"], "p": pa.array([1], pa.int32())}))
    expected = read_table(t)
    assert sorted(expected.column("id").to_pylist()) == [1, 2, 3, 4, 5, 6]
    for where in (None, "s = 'e'", "p = 3", "id > 3"):
        assert_same_rows(java.read(t, where=where), read_table(t, where))
    assert_same_rows(java_newest.read(t), expected)


def test_append_onto_pypaimon_table(tmp_path, pypaimon21, java_newest):
    """pypaimon 2.1 writes (its own Avro record names), we append, pypaimon writes again: all read every row."""
    t = pypaimon21.create_table(tmp_path, "db.py", "id BIGINT, s STRING, p INT", partition_keys=["p"],
                                options={"file.format": "parquet"})
    pypaimon21.write(t, pa.table({"id": pa.array([1, 2], pa.int64()), "s": ["a", "b"], "p": pa.array([1, 2], pa.int32())}))
    assert append_arrow(t, pa.table({"id": pa.array([3], pa.int64()), "s": ["c"], "p": pa.array([1], pa.int32())})).snapshot_id == 2
    pypaimon21.write(t, pa.table({"id": pa.array([4], pa.int64()), "s": ["d"], "p": pa.array([3], pa.int32())}))
    ours = read_table(t)
    assert sorted(ours.column("id").to_pylist()) == [1, 2, 3, 4]
    for where in (None, "p = 1", "s = 'c'"):
        expected = read_table(t, where)
        assert_same_rows(pypaimon21.read(t, where=where), expected)
        assert_same_rows(java_newest.read(t, where=where), expected)


KEYS = {  # bucket keys: strings (row-by-row hashing) and fixed-width keys (vectorised hashing), with nulls
    "string": ("k STRING, v BIGINT", "k", pa.table({"k": ["a", "bb", "a-much-longer-key", "d", None, "é"] * 3,
                                                    "v": pa.array(range(18), pa.int64())})),
    "fixed": ("k BIGINT, d DATE, t TIMESTAMP(3), v BIGINT", "k,d,t", pa.table({
        "k": pa.array([1, -7, None, 2**40, 5, 6] * 3, pa.int64()),
        "d": pa.array([dt.date(2024, 1, 1 + i % 5) if i % 4 else None for i in range(18)], pa.date32()),
        "t": pa.array([dt.datetime(2024, 1, 1, 0, 0, i) for i in range(18)], pa.timestamp("ms")),
        "v": pa.array(range(18), pa.int64())})),
}


@pytest.mark.parametrize("keys", sorted(KEYS))
def test_fixed_bucket_assignment_matches_java(tmp_path, keys, java_newest):
    schema, bucket_key, rows = KEYS[keys]
    opts = {"file.format": "parquet", "bucket": "3", "bucket-key": bucket_key}
    ours = create_table(tmp_path / "wh" / "db.db" / "ours", schema, opts)
    append_arrow(ours, rows)
    theirs = java_newest.create_table(tmp_path / "wh", "db.theirs", schema, options=opts)
    java_newest.write(theirs, rows)

    def buckets(path):
        out = {}
        for f in PaimonTable(path).data_files():
            for v in pq.read_table(f.path).column("v").to_pylist():
                out[v] = f.bucket
        return out

    assert buckets(ours) == buckets(theirs)
    assert len(set(buckets(ours).values())) > 1
    assert_same_rows(java_newest.read(ours), rows)
    assert all(e.total_buckets == 3 for e in PaimonTable(ours).manifest_entries(PaimonTable(ours).snapshot()))


def test_hints(tmp_path):
    path = create_table(tmp_path / "t", "id INT", {})  # file.format defaults to Parquet, as in Paimon 0.9+
    for i in range(3):
        append_arrow(path, pa.table({"id": pa.array([i], pa.int32())}))
    assert (tmp_path / "t" / "snapshot" / "LATEST").read_text() == "3"
    assert (tmp_path / "t" / "snapshot" / "EARLIEST").read_text() == "1"
    assert sorted(p.name for p in (tmp_path / "t" / "snapshot").iterdir()) == [
        "EARLIEST", "LATEST", "snapshot-1", "snapshot-2", "snapshot-3"]


def test_refusals(tmp_path):
    pk = create_table(tmp_path / "pk", "id INT, v STRING", {"file.format": "parquet"}, primary_keys=["id"])
    with pytest.raises(PaimonCodecError, match="primary-key"):
        append_arrow(pk, pa.table({"id": pa.array([1], pa.int32()), "v": ["a"]}))
    orc = create_table(tmp_path / "orc", "id INT", {"file.format": "orc"})
    with pytest.raises(PaimonCodecError, match="orc data files"):
        append_arrow(orc, pa.table({"id": pa.array([1], pa.int32())}))
    with pytest.raises(UnsupportedTypeError, match="precision above 6"):
        create_table(tmp_path / "ns", pa.schema([("t", pa.timestamp("ns"))]), {"file.format": "parquet"})
    with pytest.raises(UnsupportedTypeError, match="not supported"):
        create_table(tmp_path / "nested", pa.schema([("a", pa.list_(pa.int32()))]), {"file.format": "parquet"})
    nested = create_table(tmp_path / "nested2", "a ARRAY<INT>", {"file.format": "parquet"})
    with pytest.raises(UnsupportedTypeError, match="nested"):
        append_arrow(nested, pa.table({"a": [[1]]}))
    with pytest.raises(PaimonCodecError, match="already exists"):
        create_table(tmp_path / "pk", "id INT", {})
    with pytest.raises(PaimonCodecError, match="bucket-key"):
        create_table(tmp_path / "fb", "id INT", {"bucket": "2"})


@pytest.mark.parametrize("version", ["latest", "0.9"])
def test_sample_table_opens_in_java_and_pypaimon(tmp_path, version, java_newest, java09_tables, pypaimon21):
    """The demo's sample table (one commit through the commit path, deletion vectors included): the
    "latest" variant opens in pypaimon 2.1 and Java 1.4.2, the "0.9" one in Java 0.9 and 1.4.2."""
    from paimon_codec.spark.sample import write_sample_table

    path = write_sample_table(tmp_path, files=3, rows_per_file=400, paimon_version=version)
    table = PaimonTable(path)
    assert table.snapshot().index_manifest and table.snapshot().id == 1
    ours = read_table(path)
    assert ours.num_rows == 3 * 400 - 40  # file 0 has every 10th row deleted
    for where in (None, "status = 'REFUNDED'", "region = 'APAC' AND id < 500"):
        expected = read_table(path, where)
        assert_same_rows(java_newest.read(path, where=where), expected)
        if version == "latest":
            assert_same_rows(pypaimon21.read(path, where=where), expected)
        else:
            assert_same_rows(java09_tables.read(path, where=where), expected)


def test_more_types_read_by_java_and_pypaimon(tmp_path, java_newest, pypaimon21):
    """SMALLINT, FLOAT with NaN (stats must not prune it), VARCHAR(n), CHAR(n), BINARY(n), TIMESTAMP(0),
    TIMESTAMP_LTZ(3/6), a wide DECIMAL: Java's filtered reads and pypaimon equal ours."""
    path = create_table(tmp_path / "wh" / "db.db" / "types",
                        "a SMALLINT, b FLOAT, c VARCHAR(10), d CHAR(3), e BINARY(2), "
                        "f TIMESTAMP(6) WITH LOCAL TIME ZONE, g TIMESTAMP(0), h DECIMAL(30, 5), "
                        "i TIMESTAMP(3) WITH LOCAL TIME ZONE", {"file.format": "parquet"})
    rows = pa.table({
        "a": pa.array([1, None, -3], pa.int16()), "b": pa.array([1.5, float("nan"), None], pa.float32()),
        "c": ["x", "yy", None], "d": ["abc", None, "xyz"], "e": pa.array([b"ab", b"cd", None], pa.binary(2)),
        "f": pa.array([dt.datetime(2024, 1, 1, 1, 2, 3, 456789), None, dt.datetime(1969, 12, 31, 23, 59, 59, 999999)],
                      pa.timestamp("us", tz="UTC")),
        "g": pa.array([dt.datetime(2024, 1, 1, 1, 2, 3), None, dt.datetime(2000, 1, 1)], pa.timestamp("s")),
        "h": pa.array([None, decimal.Decimal("12345678901234567890.12345"), decimal.Decimal("-1.5")],
                      pa.decimal128(30, 5)),
        "i": pa.array([dt.datetime(2024, 1, 1, 1, 2, 3, 456000), None, None], pa.timestamp("ms", tz="UTC"))})
    append_arrow(path, rows)
    assert_same_rows(read_table(path), rows)
    for where in (None, "a = 1", "b > 1", "b > 2", "c = 'yy'", "h < 0", "f IS NULL", "g > TIMESTAMP '2001-01-01 00:00:00'"):
        assert_same_rows(java_newest.read(path, where=where), read_table(path, where))
    assert java_newest.read(path, where="b > 2").num_rows == 1  # NaN sorts above numbers: stats must keep it
    assert_same_rows(pypaimon21.read(path), read_table(path))


@pytest.mark.parametrize("legacy", ["true", "false"])
def test_partition_directories_match_java(tmp_path, legacy, java_newest):
    """Partition directory names (escaping, default partition, DATE, BOOLEAN, TIMESTAMP(0/3/6) in both
    ``partition.legacy-name`` forms) are Java 1.4.2's, so Java finds our files and we find Java's."""
    import glob

    schema = "id BIGINT, s STRING, d DATE, b BOOLEAN, t0 TIMESTAMP(0), t3 TIMESTAMP(3), t6 TIMESTAMP(6)"
    keys = ["s", "d", "b", "t0", "t3", "t6"]
    t = [dt.datetime(2024, 1, 1, 10, 0), dt.datetime(2024, 1, 1, 10, 0, 5, 123000),
         dt.datetime(1969, 12, 31, 23, 59, 59, 999000), dt.datetime(2024, 1, 1, 10, 0, 5, 100)]
    rows = pa.table({
        "id": pa.array([1, 2, 3, 4], pa.int64()), "s": ["a/b", "x=y z", None, "é%#"],
        "d": pa.array([dt.date(2024, 1, 1), None, dt.date(1969, 12, 31), dt.date(2024, 1, 1)], pa.date32()),
        "b": [True, False, None, True],
        "t0": pa.array([x.replace(microsecond=0) for x in t[:3]] + [None], pa.timestamp("s")),
        "t3": pa.array(t[:3] + [None], pa.timestamp("ms")),
        "t6": pa.array(t[:2] + [None, t[3]], pa.timestamp("us"))})
    opts = {"partition.legacy-name": legacy}
    ours = create_table(tmp_path / "wh" / "db.db" / "ours", schema, opts, partition_keys=keys)
    append_arrow(ours, rows)
    theirs = java_newest.create_table(tmp_path / "wh", "db.theirs", schema, partition_keys=keys, options=opts)
    java_newest.write(theirs, rows)

    def dirs(path):
        return sorted(os.path.relpath(os.path.dirname(f), path) for f in glob.glob(f"{path}/**/*.parquet", recursive=True))

    assert dirs(ours) == dirs(theirs)
    assert_same_rows(java_newest.read(ours), rows)
    assert_same_rows(read_table(theirs), rows)
    # numbers as Java prints them (Float/Double.toString, BigDecimal), TIMESTAMP_LTZ, TINYINT
    schema = "id BIGINT, f FLOAT, g DOUBLE, m DECIMAL(10, 2), l TIMESTAMP(3) WITH LOCAL TIME ZONE, y TINYINT"
    keys = ["f", "g", "m", "l", "y"]
    rows = pa.table({
        "id": pa.array([1, 2, 3], pa.int64()), "f": pa.array([1.5, 1e10, -0.0], pa.float32()),
        "g": [1e-5, 123456789.125, 1e22],
        "m": pa.array([decimal.Decimal("1.50"), decimal.Decimal("-3.00"), None], pa.decimal128(10, 2)),
        "l": pa.array([dt.datetime(2024, 1, 1, 10, 0, 5, 123000), None, dt.datetime(2024, 1, 1)],
                      pa.timestamp("ms", tz="UTC")),
        "y": pa.array([1, -2, None], pa.int8())})
    ours = create_table(tmp_path / "wh" / "db.db" / "ours2", schema, opts, partition_keys=keys)
    append_arrow(ours, rows)
    theirs = java_newest.create_table(tmp_path / "wh", "db.theirs2", schema, partition_keys=keys, options=opts)
    java_newest.write(theirs, rows)
    assert dirs(ours) == dirs(theirs)
    assert_same_rows(java_newest.read(ours), rows)
    assert_same_rows(read_table(theirs), rows)


def test_append_to_a_row_tracking_table(tmp_path, java_newest):
    """``row-tracking.enabled``: our files get first row ids from the snapshot's ``nextRowId`` (manifest list
    row-id ranges included) and Java 1.4.2 continues numbering after them."""
    t = java_newest.create_table(tmp_path, "db.rt", "id BIGINT, s STRING",
                                 options={"row-tracking.enabled": "true", "file.format": "parquet"})
    java_newest.write(t, pa.table({"id": pa.array([1, 2, 3], pa.int64()), "s": ["a", "b", "c"]}))
    append_arrow(t, pa.table({"id": pa.array([4, 5], pa.int64()), "s": ["d", "e"]}))
    table = PaimonTable(t)
    assert table.snapshot().raw["nextRowId"] == 5
    assert [m.min_row_id for m in table.manifest_list(table.snapshot().delta_manifest_list)] == [3]
    java_newest.write(t, pa.table({"id": pa.array([6], pa.int64()), "s": ["f"]}))
    table = PaimonTable(t)
    ids = sorted((f.meta.first_row_id, f.meta.row_count) for f in table.data_files())
    assert ids == [(0, 3), (3, 2), (5, 1)] and table.snapshot().raw["nextRowId"] == 6
    assert_same_rows(java_newest.read(t), read_table(t))
    assert sorted(read_table(t).column("id").to_pylist()) == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("mode", [None, "full", "counts"])
def test_value_stats_are_java_s(tmp_path, mode, java_newest):
    """``_VALUE_STATS`` of one file of the same rows, ours vs Java 1.4.2's: the same BinaryRows and null
    counts (default ``truncate(16)``: long strings cut, the max bound incremented; binary without bounds)."""
    schema = ("i INT, b BIGINT, s STRING, f DOUBLE, d DATE, t TIMESTAMP(3), t6 TIMESTAMP(6), m DECIMAL(10, 2), "
              "w DECIMAL(25, 2), x BYTES, o BOOLEAN, c CHAR(3), u STRING")
    rows = pa.table({
        "i": pa.array([3, None, -1], pa.int32()), "b": pa.array([10, 20, None], pa.int64()),
        "s": ["short", "a-very-long-string-value-beyond-16", "zzzzzzzzzzzzzzzzzzzzzz"], "f": [1.5, None, -2.0],
        "d": pa.array([dt.date(2024, 1, 1), dt.date(2020, 1, 1), None], pa.date32()),
        "t": pa.array([dt.datetime(2024, 1, 1), None, dt.datetime(2024, 1, 2, 3, 4, 5, 6000)], pa.timestamp("ms")),
        "t6": pa.array([dt.datetime(2024, 1, 1, 0, 0, 0, 1), None, dt.datetime(2024, 1, 2)], pa.timestamp("us")),
        "m": pa.array([decimal.Decimal("1.25"), None, decimal.Decimal("-3.5")], pa.decimal128(10, 2)),
        "w": pa.array([decimal.Decimal("1.25"), None, decimal.Decimal("-3.5")], pa.decimal128(25, 2)),
        "x": [b"ab", b"\xff" * 20, None], "o": [True, None, False], "c": ["abc", "zz", None],
        "u": ["é" * 20, "日本語のテキストはとても長い文字列です", None]})
    opts = {} if mode is None else {"metadata.stats-mode": mode}
    ours = create_table(tmp_path / "wh" / "db.db" / "ours", schema, opts)
    append_arrow(ours, rows)
    theirs = java_newest.create_table(tmp_path / "wh", "db.theirs", schema, options=opts)
    java_newest.write(theirs, rows)
    a, b = (PaimonTable(p).data_files()[0].meta for p in (ours, theirs))
    assert a.value_stats_cols == b.value_stats_cols
    assert a.value_stats.null_counts == b.value_stats.null_counts
    assert a.value_stats.min_values == b.value_stats.min_values
    assert a.value_stats.max_values == b.value_stats.max_values


@pytest.mark.parametrize("version", ["1.4.2", "0.9"])
def test_unset_file_format_is_parquet(tmp_path, version, java_newest, java09_tables):
    """Without a file.format option Paimon 0.9 and 1.4.2 both write Parquet; so do we, and Java reads it."""
    import glob

    java = java_newest if version == "1.4.2" else java09_tables
    t = java.create_table(tmp_path, "db.nf", "id INT, s STRING")
    java.write(t, pa.table({"id": pa.array([1], pa.int32()), "s": ["a"]}))
    assert [os.path.splitext(f)[1] for f in glob.glob(f"{t}/bucket-0/data-*")] == [".parquet"]
    append_arrow(t, pa.table({"id": pa.array([2], pa.int32()), "s": ["b"]}))
    assert_same_rows(java.read(t), pa.table({"id": pa.array([1, 2], pa.int32()), "s": ["a", "b"]}))
