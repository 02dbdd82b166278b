"""The tables pypaimon 2.1 writes for the conformance tests (tests/test_compat_pypaimon.py).

Each builder creates one table in a warehouse with the :class:`~oracles.pypaimon21.PyPaimon` oracle
and writes two or three commits to it (appends, updates and deletes as the table kind allows), so
that a reader must merge, apply deletion vectors, resolve schema evolution, ... to get pypaimon's
rows.  Every table has the columns ``id INT, p STRING, name STRING, v BIGINT, d DOUBLE`` in its
final schema (``p`` is the partition column where the table is partitioned).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pyarrow as pa

BASE = "id INT, p STRING, name STRING, v BIGINT, d DOUBLE"
PK_SCHEMA = BASE + ", rk STRING"  # rk: pypaimon's rowkind.field (+I, -U, +U, -D)


def rows(ids, *, bump: int = 0, kind: str | None = None, shift: int = 0) -> pa.Table:
    """Deterministic rows for ``ids``; ``bump`` changes ``v`` / ``name`` (an update of the same keys),
    ``shift`` moves them to another partition."""
    ids = list(ids)
    cols = {"id": pa.array(ids, pa.int32()), "p": pa.array(["abc"[(i + shift) % 3] for i in ids]),
            "name": pa.array([f"n{(i + bump) % 7}" for i in ids]),
            "v": pa.array([i * 10 + bump for i in ids], pa.int64()),
            "d": pa.array([None if i % 5 == 4 else i / 4 for i in ids], pa.float64())}
    if kind is not None:
        cols["rk"] = pa.array([kind] * len(ids))
    return pa.table(cols)


@dataclass
class Case:
    name: str
    build: Callable  # (oracle, warehouse) -> table path
    spark: tuple[str, ...] = ()  # predicates also compared through paimon_codec.spark.scan


def _append(options: dict | None = None, *, partitioned: bool = True, native: bool = False):
    def build(o, wh, name):
        path = o.create_table(wh, name, BASE, partition_keys=["p"] if partitioned else (), options=options)
        for start in (0, 20, 40):
            o.write(path, rows(range(start, start + 20)), native=native)
        return path
    return build


def _append_overwrite(o, wh, name):
    path = o.create_table(wh, name, BASE, partition_keys=["p"])
    o.write(path, rows(range(0, 30)))
    o.write(path, rows(range(30, 60)))
    o.write(path, rows(range(100, 110)), overwrite=True)
    return path


def _append_evolution(o, wh, name):
    """rename, type widening (INT -> BIGINT, FLOAT -> DOUBLE), add, drop + re-add a name."""
    path = o.create_table(wh, name, "id INT, p STRING, nm STRING, v INT, d FLOAT, tmp INT", partition_keys=["p"])
    first = rows(range(0, 20))
    o.write(path, first.rename_columns(["id", "p", "nm", "v", "d"])
            .append_column("tmp", pa.array(range(1000, 1020), pa.int32())))
    o.alter(path, [{"op": "rename", "from": "nm", "to": "name"}, {"op": "type", "name": "v", "type": "BIGINT"},
                   {"op": "type", "name": "d", "type": "DOUBLE"}, {"op": "drop", "name": "tmp"}])
    o.write(path, rows(range(20, 40)))
    o.alter(path, [{"op": "add", "name": "tmp", "type": "INT"}])
    o.write(path, rows(range(40, 60)).append_column("tmp", pa.array(range(40, 60), pa.int32())))
    return path


def _append_altered_after_write(o, wh, name):
    """Schema changes after the last commit: the latest read uses the current schema, not the snapshot's."""
    path = o.create_table(wh, name, "id INT, p STRING, nm STRING, v INT, d DOUBLE, tmp INT", partition_keys=["p"])
    for start in (0, 20):
        data = rows(range(start, start + 20))
        o.write(path, data.set_column(2, "nm", data.column("name")).set_column(3, "v", data.column("v").cast(pa.int32()))
                .append_column("tmp", pa.array(range(start, start + 20), pa.int32())))
    o.alter(path, [{"op": "rename", "from": "nm", "to": "name"}, {"op": "type", "name": "v", "type": "BIGINT"},
                   {"op": "drop", "name": "tmp"}])
    return path


def _pk(options: dict | None = None, *, deletes: bool = True, native: bool = False, partitioned: bool = True,
        cross_partition: bool = False):
    """Commit 1 inserts 0..29, commit 2 updates 20..29 and inserts 30..49, commit 3 updates 40..44 again
    and, with ``deletes``, deletes 0..9 (row kinds from a ``rk`` column, pypaimon's ``rowkind.field``).
    ``cross_partition``: the key is ``id`` alone in a table partitioned by ``p`` (cross-partition upserts)."""
    def build(o, wh, name):
        opts = {"bucket": "2", **({"rowkind.field": "rk"} if deletes else {}), **(options or {})}
        keys = ["p", "id"] if partitioned and not cross_partition else ["id"]
        kind = (lambda k: k) if deletes else (lambda k: None)
        path = o.create_table(wh, name, PK_SCHEMA if deletes else BASE, primary_keys=keys,
                              partition_keys=["p"] if partitioned else (), options=opts)
        o.write(path, rows(range(0, 30), kind=kind("+I")), native=native)
        o.write(path, rows(range(20, 50), bump=1, kind=kind("+I"), shift=int(cross_partition)), native=native)
        last = rows(range(40, 45), bump=2, kind=kind("+U"))
        if deletes:
            last = pa.concat_tables([rows(range(0, 10), kind="-D"), last])
        o.write(path, last, native=native)
        return path
    return build


TYPES_SCHEMA = (BASE + ", ts TIMESTAMP(6), ts3 TIMESTAMP(3), ts9 TIMESTAMP(9), dt DATE, dec DECIMAL(12, 3), "
                "b BYTES, f FLOAT, arr ARRAY<INT>, m MAP<STRING, BIGINT>, r ROW<x INT, y STRING>")


def typed_rows(ids) -> pa.Table:
    """``rows(ids)`` plus a column of most Paimon types (nanoseconds in ts9, +-0.0 and NaN in f, nested)."""
    import datetime as dt
    from decimal import Decimal
    ids = list(ids)
    base = rows(ids)
    t0 = dt.datetime(2024, 1, 1)
    extra = {
        "ts": pa.array([t0 + dt.timedelta(seconds=i, microseconds=i) for i in ids], pa.timestamp("us")),
        "ts3": pa.array([t0 + dt.timedelta(milliseconds=i) for i in ids], pa.timestamp("ms")),
        "ts9": pa.array([1_704_067_200_000_000_000 + i * 1_000_000_001 for i in ids], pa.timestamp("ns")),
        "dt": pa.array([dt.date(2024, 1, 1) + dt.timedelta(days=i) for i in ids], pa.date32()),
        "dec": pa.array([Decimal(i) / 8 for i in ids], pa.decimal128(12, 3)),
        "b": pa.array([bytes([i % 256, 0, 255]) for i in ids], pa.binary()),
        "f": pa.array([(-0.0, 0.0, float("nan"), 1.5)[i % 4] for i in ids], pa.float32()),
        "arr": pa.array([[i, None, i + 1] if i % 3 else None for i in ids], pa.list_(pa.int32())),
        "m": pa.array([[("k", i)] for i in ids], pa.map_(pa.string(), pa.int64())),
        "r": pa.array([{"x": i, "y": f"y{i}"} for i in ids], pa.struct([("x", pa.int32()), ("y", pa.string())])),
    }
    for name, arr in extra.items():
        base = base.append_column(name, arr)
    return base


def _types(options: dict | None = None, *, native: bool = False, nanos: bool = True):
    """``nanos=False`` leaves out the TIMESTAMP(9) column (so that other types are checked on their own)."""
    def build(o, wh, name):
        schema = TYPES_SCHEMA if nanos else TYPES_SCHEMA.replace(" ts9 TIMESTAMP(9),", "")
        path = o.create_table(wh, name, schema, partition_keys=["p"], options=options)
        for start in (0, 20):
            data = typed_rows(range(start, start + 20))
            o.write(path, data if nanos else data.drop_columns(["ts9"]), native=native)
        return path
    return build


_DATA_EVOLUTION = {"row-tracking.enabled": "true", "data-evolution.enabled": "true",
                   "deletion-vectors.enabled": "true"}

_UPDATE_BY_ROW_ID = """
from pypaimon.schema.data_types import PyarrowFieldParser
t = table(kwargs['path'])
schema = PyarrowFieldParser.from_paimon_schema(t.table_schema.fields)
wb = t.new_batch_write_builder()
update = wb.new_update()
update.with_update_type(kwargs['cols'])
data = pa.table({'_ROW_ID': pa.array(kwargs['row_ids'], pa.int64()),
                 **{c: pa.array(v, schema.field(c).type) for c, v in kwargs['values'].items()}})
msgs = update.update_by_arrow_with_row_id(data)
c = wb.new_commit(); c.commit(msgs); c.close()
"""

_DELETE_BY_ROW_ID = """
t = table(kwargs['path'])
wb = t.new_batch_write_builder()
msgs = wb.new_update().delete_by_row_id(kwargs['row_ids'])
c = wb.new_commit(); c.commit(msgs); c.close()
"""

_GLOBAL_INDEX = """
t = table(kwargs['path'])
result = [t.create_global_index(col, index_type=kind) for col, kind in kwargs['indexes']]
"""


def _data_evolution(options: dict | None = None, *, global_indexes=()):
    """Commit 1: rows 0..29 (row ids 0..29); commit 2: a partial-column update of ``v`` for row ids 5..14;
    commit 3: row ids 0..2 and 20..21 deleted (deletion vectors); then optional global indexes."""
    def build(o, wh, name):
        path = o.create_table(wh, name, BASE, options={**_DATA_EVOLUTION, **(options or {})})
        o.write(path, rows(range(0, 30)))
        o.run(_UPDATE_BY_ROW_ID, path=path, cols=["v"], row_ids=list(range(5, 15)), values={"v": [-i for i in range(5, 15)]})
        o.run(_DELETE_BY_ROW_ID, path=path, row_ids=[0, 1, 2, 20, 21])
        if global_indexes:
            o.run(_GLOBAL_INDEX, path=path, indexes=[list(x) for x in global_indexes])
        return path
    return build


def cases(external_dir: str) -> list[Case]:
    return [
        Case("append_parquet", _append(), spark=("all", "partition")),
        Case("append_orc", _append({"file.format": "orc"}), spark=("all",)),
        Case("append_avro", _append({"file.format": "avro"}), spark=("all",)),
        Case("append_unpartitioned", _append(partitioned=False)),
        Case("append_bucket2", _append({"bucket": "2", "bucket-key": "id"})),
        Case("append_overwrite", _append_overwrite),
        Case("append_manifest_orc", _append({"manifest.format": "orc"})),
        Case("append_manifest_parquet", _append({"manifest.format": "parquet"})),
        Case("append_external_paths", _append({"data-file.external-paths": f"file://{external_dir}",
                                               "data-file.external-paths.strategy": "round-robin"}), spark=("all",)),
        Case("append_evolution", _append_evolution, spark=("all",)),
        Case("append_altered_after_write", _append_altered_after_write),
        Case("append_path_directory", _append({"data-file.path-directory": "data"})),
        Case("append_native_file_index", _append({"file-index.bitmap.columns": "name",
                                                  "file-index.bloom-filter.columns": "id"}, native=True)),
        Case("append_all_types", _types()),
        Case("append_all_types_orc", _types({"file.format": "orc"})),
        Case("append_types_micros", _types(nanos=False)),
        Case("append_types_micros_orc", _types({"file.format": "orc"}, nanos=False)),
        Case("append_types_native_index", _types({"file-index.bitmap.columns": "f,dt,name",
                                                      "file-index.bloom-filter.columns": "ts",
                                                      "file-index.range-bitmap.columns": "v"}, native=True, nanos=False)),
        Case("pk_bucket2", _pk(deletes=False), spark=("all",)),
        Case("pk_bucket2_deletes", _pk()),
        Case("pk_bucket2_native", _pk(deletes=False, native=True)),
        Case("pk_bucket2_native_deletes", _pk(native=True)),
        Case("pk_unpartitioned", _pk(deletes=False, partitioned=False)),
        Case("pk_dynamic_bucket", _pk({"bucket": "-1"}, deletes=False)),
        Case("pk_cross_partition_native", _pk({"bucket": "-1"}, deletes=False, native=True, cross_partition=True)),
        Case("pk_postpone_bucket", _pk({"bucket": "-2"}, deletes=False)),
        Case("pk_deletion_vectors", _pk({"deletion-vectors.enabled": "true"}, deletes=False)),
        Case("pk_dv_merge_on_read", _pk({"deletion-vectors.enabled": "true",
                                         "deletion-vectors.merge-on-read": "true"}, deletes=False), spark=("all",)),
        Case("pk_dv_merge_on_read_deletes", _pk({"deletion-vectors.enabled": "true",
                                                 "deletion-vectors.merge-on-read": "true"})),
        Case("pk_orc", _pk({"file.format": "orc"})),
        Case("pk_avro", _pk({"file.format": "avro"}, deletes=False)),
        Case("pk_sequence_field", _pk({"sequence.field": "v"}, deletes=False)),
        Case("pk_first_row", _pk({"merge-engine": "first-row"}, deletes=False)),
        Case("pk_partial_update", _pk({"merge-engine": "partial-update"}, deletes=False)),
        Case("pk_aggregation_sum", _pk({"merge-engine": "aggregation", "fields.v.aggregate-function": "sum"},
                                       deletes=False)),
        Case("data_evolution_dv", _data_evolution()),
        Case("data_evolution_dv_index_in_data_dir", _data_evolution({"index-file-in-data-file-dir": "true"})),
        Case("data_evolution_global_index", _data_evolution(global_indexes=[("id", "btree"), ("name", "bitmap")])),
    ]


#: predicate name -> JSON predicate (docs/predicates.md) on the columns every table has
PREDICATES = {
    "all": None,
    "plain": {"op": "gt", "field": "v", "literal": 150},
    "partition": {"op": "eq", "field": "p", "literal": "a"},
    "range": {"op": "between", "field": "id", "from": 5, "to": 25},
    "indexed": {"op": "eq", "field": "name", "literal": "n3"},
}

#: more predicates for the tables of TYPES_SCHEMA
TYPED_PREDICATES = {
    "float_zero": {"op": "eq", "field": "f", "literal": 0.0},
    "date_range": {"op": "between", "field": "dt", "from": "2024-01-05", "to": "2024-01-25"},
    "decimal": {"op": "gt", "field": "dec", "literal": "2.5"},
    "timestamp": {"op": "lt", "field": "ts", "literal": "2024-01-01 00:00:10"},
}


def predicates_of(case: str) -> dict:
    """The predicates a case is checked with: the common ones, plus the typed ones on TYPES_SCHEMA tables."""
    return PREDICATES | TYPED_PREDICATES if "types" in case else dict(PREDICATES)
