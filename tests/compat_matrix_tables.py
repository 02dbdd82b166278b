"""The tables of the ``compat`` matrix (tests/test_compat_matrix.py): one builder per table kind, for every writer.

A :class:`Writer` wraps one oracle (Paimon Java 0.9 / 1.4.2 through :class:`oracles.java_newest.JavaPaimon`,
pypaimon 2.1 and its Rust writer through :class:`oracles.pypaimon21.PyPaimon`) behind one small API, so
that each table kind is written the same way by every writer that can write it.  :data:`CANNOT` records
the (writer, kind) pairs a writer cannot produce, with the reason: those cells are never generated.

Every table has the columns of :data:`pypaimon_tables.BASE` (``id INT, p STRING, name STRING, v BIGINT,
d DOUBLE``) in its final schema, with ``id`` unique among the rows a read returns, ``v = id * 10 + bump``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
from pypaimon_tables import _DATA_EVOLUTION, _DELETE_BY_ROW_ID, _UPDATE_BY_ROW_ID, BASE, rows

N = 300  # rows of a first commit

WRITERS = {"java-0.9": "Java 0.9", "java-1.4.2": "Java 1.4.2", "pypaimon-2.1": "pypaimon 2.1",
           "pypaimon-rust": "pypaimon-rust"}

#: kind -> label in docs/compatibility.md
KINDS = {
    "append": "append, unbucketed",
    "append_bucket": "append, bucket 4, bucket-key id",
    "partitioned": "append, partitioned by p",
    "file_index": "append, file indexes (bitmap name, bloom id, range-bitmap v)",
    "evolved": "append, schema-evolved (rename, INT->BIGINT, drop + re-add)",
    "pk_dedup": "PK deduplicate",
    "pk_dv": "PK deduplicate + deletion vectors",
    "pk_first_row": "PK first-row",
    "pk_partial_update": "PK partial-update",
    "pk_aggregation": "PK aggregation (sum, max, listagg, last_non_null_value)",
    "data_evolution": "data-evolution (row tracking, partial-column update)",
    "global_index": "data-evolution + global indexes (B-tree name, bitmap v)",
    "orc": "append, partitioned, ORC files",
    "avro": "PK deduplicate, Avro files",
}

#: predicate -> (label in docs/compatibility.md, SQL of a kind that has no override)
PREDICATES = {
    "none": "no predicate",
    "eq": "`id = 27` (key / bloom) or `name = 'n3'` (bitmap)",
    "range": "`v BETWEEN 1000 AND 3000`",
    "topn": "`ORDER BY id DESC LIMIT 5`",
}
EQ = "id = 27"
EQ_INDEXED = "name = 'n3'"
RANGE = "v BETWEEN 1000 AND 3000"
TOPN = ("id DESC", 5)

_NO_COMPACT = "pypaimon never compacts"
_RUST_FORMATS = "pypaimon-rust writes Parquet only (ORC/Avro tables fall back to the Python writer)"
#: (writer, kind) -> why the writer cannot produce that table
CANNOT = {
    ("java-0.9", "data_evolution"): "Paimon 0.9 has no row tracking / data evolution",
    ("pypaimon-2.1", "file_index"): "pypaimon's Python writer writes no file indexes",
    ("pypaimon-rust", "data_evolution"): "partial-column updates are written by pypaimon's Python writer only",
    ("java-0.9", "global_index"): "Paimon 0.9 has no row tracking / data evolution",
    ("pypaimon-rust", "orc"): _RUST_FORMATS,
    ("pypaimon-rust", "avro"): _RUST_FORMATS,
}
#: (writer, kind) -> how the table differs from the other writers' (shown in docs/compatibility.md)
NOTES = {
    ("java-0.9", "file_index"): "0.9 has no range-bitmap: bitmap + bloom only",
    ("java-1.4.2", "global_index"): "B-tree on name only (BTreeGlobalIndexBuilder, what Java's create_global_index "
                                    "runs); Java 1.4.2's bitmap global index is another layout",
    ("pypaimon-2.1", "pk_dv"): f"{_NO_COMPACT}: deletion-vectors.merge-on-read",
    ("pypaimon-rust", "pk_dv"): f"{_NO_COMPACT}: deletion-vectors.merge-on-read",
    ("pypaimon-2.1", "pk_first_row"): f"{_NO_COMPACT}: level-0 files only, which Paimon (Java too) does not read",
    ("pypaimon-rust", "pk_first_row"): f"{_NO_COMPACT}: level-0 files only, which Paimon (Java too) does not read",
}


@dataclass
class Writer:
    """One writer behind one API: ``oracle`` is a JavaPaimon (``java``) or a PyPaimon (``native``: Rust)."""

    name: str
    oracle: Any
    java: bool
    native: bool = False

    @property
    def can_compact(self) -> bool:
        return self.java

    def create(self, wh: Path, name: str, schema: str = BASE, *, pk=(), partition=(), options=None) -> str:
        table = f"db.{name}" if self.java else name
        return self.oracle.create_table(wh, table, schema, primary_keys=pk, partition_keys=partition,
                                        options=options or {})

    def write(self, path: str, data: pa.Table, deletes: pa.Table | None = None) -> None:
        """One commit of ``data`` (+I) and, where the writer takes row kinds (Java), ``deletes`` (-D)."""
        if not self.java:
            self.oracle.write(path, data, native=self.native)
            return
        kinds = ["+I"] * data.num_rows
        if deletes is not None:
            data = pa.concat_tables([data, deletes.select(data.column_names)])
            kinds += ["-D"] * deletes.num_rows
        self.oracle.write(path, data, row_kinds=kinds)

    def alter(self, path: str, changes: list[dict]) -> None:
        self.oracle.alter(path, changes)

    def compact(self, path: str) -> None:
        if self.java:
            self.oracle.compact(path)

    def read(self, path: str, where: Any = None) -> pa.Table:
        return self.oracle.read(path, where=where)


def _nulled(table: pa.Table, column: str, every: int) -> pa.Table:
    """``table`` with ``column`` null in every ``every``-th row (partial updates: null = keep the old value)."""
    col = table.column(column)
    mask = pa.array([i % every == 0 for i in range(table.num_rows)])
    return table.set_column(table.schema.get_field_index(column), column,
                            pc.if_else(mask, pa.nulls(table.num_rows, col.type), col))


# -- builders: (writer, warehouse, name) -> table path ---------------------------------------------------
def _append(options: dict | None = None, partition=()):
    def build(w: Writer, wh: Path, name: str) -> str:
        path = w.create(wh, name, partition=partition, options=options)
        w.write(path, rows(range(0, N)))
        w.write(path, rows(range(N, N + 200)))
        return path
    return build


def _file_index(w: Writer, wh: Path, name: str) -> str:
    options = {"file-index.bitmap.columns": "name", "file-index.bloom-filter.columns": "id"}
    if w.name != "java-0.9":
        options["file-index.range-bitmap.columns"] = "v"
    return _append(options)(w, wh, name)


def _evolved(w: Writer, wh: Path, name: str) -> str:
    """Rename ``nm`` -> ``name``, widen ``v`` INT -> BIGINT, drop ``tmp``, then add ``tmp`` again."""
    path = w.create(wh, name, "id INT, p STRING, nm STRING, v INT, d DOUBLE, tmp INT", partition=["p"])
    first = rows(range(0, 200))
    w.write(path, pa.table({"id": first["id"], "p": first["p"], "nm": first["name"],
                            "v": first["v"].cast(pa.int32()), "d": first["d"],
                            "tmp": pa.array(range(1000, 1200), pa.int32())}))
    w.alter(path, [{"op": "rename", "from": "nm", "to": "name"}, {"op": "type", "name": "v", "type": "BIGINT"},
                   {"op": "drop", "name": "tmp"}])
    w.write(path, rows(range(200, 400)))
    w.alter(path, [{"op": "add", "name": "tmp", "type": "INT"}])
    w.write(path, rows(range(400, 500)).append_column("tmp", pa.array(range(400, 500), pa.int32())))
    return path


def _pk(options: dict | None = None, *, partial: bool = False, deletes: bool = True, ignore_delete: bool = False):
    """Insert 0..N, update N/3..N+100 (some fields null for partial-update), compact where the writer can,
    update again and (Java, ``deletes``) delete ids 0..19, with ``ignore-delete`` where the engine needs it
    (pypaimon writes no deletes here, and cannot read partial-update tables with ``ignore-delete``)."""
    def build(w: Writer, wh: Path, name: str) -> str:
        opts = {"bucket": "2", **(options or {})}
        if ignore_delete and deletes and w.java:
            opts["ignore-delete"] = "true"
        path = w.create(wh, name, pk=["id"], options=opts)
        w.write(path, rows(range(0, N)))
        second = rows(range(N // 3, N + 100), bump=1)
        w.write(path, _nulled(second, "d", 3) if partial else second)
        w.compact(path)
        third = rows(range(N - 50, N + 50), bump=2)
        w.write(path, _nulled(third, "name", 2) if partial else third, deletes=rows(range(0, 20)) if deletes else None)
        return path
    return build


def _pk_dv(w: Writer, wh: Path, name: str) -> str:
    extra = {} if w.can_compact else {"deletion-vectors.merge-on-read": "true"}
    return _pk({"deletion-vectors.enabled": "true", **extra})(w, wh, name)


_AGGREGATION = {"merge-engine": "aggregation", "fields.v.aggregate-function": "sum",
                "fields.d.aggregate-function": "max", "fields.name.aggregate-function": "listagg",
                "fields.p.aggregate-function": "last_non_null_value"}


def _java_data_evolution(w: Writer, wh: Path, name: str) -> str:
    """Newest Java's partial-column writes (the oracle's ``write_partial``: ``withWriteType`` + first row
    id; Java refuses deletion vectors on such tables).  Rows 0..99 and 100..N-1 (two files), then ``v`` of
    row ids 0..99, ``name`` of 100..N-1 and ``v`` of 0..99 again (each update covers one file's row-id
    range, as Paimon requires)."""
    path = w.create(wh, name, options={"row-tracking.enabled": "true", "data-evolution.enabled": "true"})
    w.oracle.write_partial(path, [(rows(range(0, 100)), None)])
    w.oracle.write_partial(path, [(rows(range(100, N)), None)])
    w.oracle.write_partial(path, [(pa.table({"v": pa.array([-i for i in range(0, 100)], pa.int64())}), 0)])
    w.oracle.write_partial(path, [(pa.table({"name": [f"u{i}" for i in range(100, N)]}), 100)])
    w.oracle.write_partial(path, [(pa.table({"v": pa.array([i * 100 for i in range(0, 100)], pa.int64())}), 0)])
    return path


def _pypaimon_data_evolution(w: Writer, wh: Path, name: str) -> str:
    """pypaimon's update by row id (``v`` of row ids 150..249) and delete by row id (deletion vectors)."""
    path = w.create(wh, name, options=_DATA_EVOLUTION)
    w.write(path, rows(range(0, N)))
    w.oracle.run(_UPDATE_BY_ROW_ID, path=path, cols=["v"], row_ids=list(range(150, 250)),
                 values={"v": [-i for i in range(150, 250)]})
    w.oracle.run(_DELETE_BY_ROW_ID, path=path, row_ids=[0, 1, 2, 120, 121, 200])
    return path


_CREATE_GLOBAL_INDEX = """
t = table(kwargs["path"])
t.create_global_index(kwargs["column"], index_type=kwargs["index_type"])
result = None
"""


def _global_index(w: Writer, wh: Path, name: str) -> str:
    """Two appended commits of a data-evolution table, then the writer's global-index build: pypaimon's
    ``create_global_index`` (a B-tree over ``name``, a bitmap - pypaimon's BGIX layout - over ``v``) or
    Java's ``BTreeGlobalIndexBuilder`` (a B-tree over ``name``)."""
    path = w.create(wh, name, options={"row-tracking.enabled": "true", "data-evolution.enabled": "true"})
    w.write(path, rows(range(0, N)))
    w.write(path, rows(range(N, N + 200)))
    if w.java:
        w.oracle.create_btree_global_index(path, "name")
        return path
    for column, index_type in (("name", "btree"), ("v", "bitmap")):
        w.oracle.run(_CREATE_GLOBAL_INDEX, path=path, column=column, index_type=index_type)
    return path


def _data_evolution_table(w: Writer, wh: Path, name: str) -> str:
    return (_java_data_evolution if w.java else _pypaimon_data_evolution)(w, wh, name)


BUILDERS: dict[str, Callable[[Writer, Path, str], str]] = {
    "append": _append(),
    "append_bucket": _append({"bucket": "4", "bucket-key": "id"}),
    "partitioned": _append(partition=["p"]),
    "file_index": _file_index,
    "evolved": _evolved,
    "pk_dedup": _pk(),
    "pk_dv": _pk_dv,
    "pk_first_row": _pk({"merge-engine": "first-row"}, ignore_delete=True),
    "pk_partial_update": _pk({"merge-engine": "partial-update"}, partial=True, ignore_delete=True),
    "pk_aggregation": _pk(_AGGREGATION, deletes=False),  # listagg and max take no retraction
    "data_evolution": _data_evolution_table,
    "global_index": _global_index,
    "orc": _append({"file.format": "orc"}, partition=["p"]),
    "avro": _pk({"file.format": "avro"}),
}


def where_of(kind: str, predicate: str) -> str | None:
    """The SQL predicate of a cell (``None`` for no predicate and for top-N, which reads every row)."""
    if predicate == "eq":
        return EQ_INDEXED if kind in ("file_index", "global_index") else EQ
    return RANGE if predicate == "range" else None
