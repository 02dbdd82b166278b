"""The ``paimon_index`` Spark data source: index contents of a Paimon table as rows.

    spark.read.format("paimon_index").option("table", PATH).option("kind", "deletion-vectors").load()

``kind``: ``deletion-vectors`` (one row per deleted position: data file, position), ``hash`` (one
row per key hash of the dynamic-bucket hash index), ``file-index`` (one row per bitmap key of every
data file's index container, with the key's row ranges; other index types give one row per index),
or ``all`` (default).  ``table`` may also name a warehouse or database directory (every table).
Index files of the latest snapshot are listed (``option("snapshots", "all")`` adds older retained
ones).  One Spark partition per index file; executors need only the file paths (and the driver's storage
options; ``option("storage.<key>", value)`` adds options of the table's object store, e.g.
``storage.endpoint``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition

from ..errors import InvalidOptionError
from ..maintenance.inventory import KIND_DV, KIND_FILE_INDEX, KIND_HASH, index_rows, table_inventory
from ..table import list_tables

__all__ = ["PaimonIndexDataSource", "register", "SCHEMA"]

SCHEMA = ("table string, index_file string, index_type string, bucket int, partition string, "
          "data_file string, position long, hash int, column string, key string, "
          "row_ranges array<array<long>>")
_COLUMNS = ["table", "index_file", "index_type", "bucket", "partition", "data_file", "position", "hash",
            "column", "key", "row_ranges"]
_KINDS = {"deletion-vectors": KIND_DV, "deletion_vectors": KIND_DV, "dv": KIND_DV, "hash": KIND_HASH,
          "file-index": KIND_FILE_INDEX, "file_index": KIND_FILE_INDEX, "all": None}


class IndexFilePartition(InputPartition):
    def __init__(self, task: dict) -> None:
        super().__init__(task["path"])
        self.task = task


class PaimonIndexReader(DataSourceReader):
    def __init__(self, options: dict, storage: dict | None = None) -> None:
        from ..storage import restore_storage_state, storage_state
        from ..table.table import register_storage_options

        restore_storage_state(storage)  # options registered on the driver before register(spark)
        self.options = options
        path = options.get("table") or options.get("path")
        extra = {k[len("storage."):]: v for k, v in options.items() if k.startswith("storage.")}
        if path and extra:
            register_storage_options(path, extra)
        self.storage = storage_state()  # built on the driver, shipped with the reader to executors

    def partitions(self) -> list[InputPartition]:
        path = self.options.get("table") or self.options.get("path")
        if not path:
            raise InvalidOptionError("paimon_index needs option('table', PATH)")
        kind_opt = str(self.options.get("kind", "all")).lower()
        if kind_opt not in _KINDS:
            raise InvalidOptionError(f"unknown kind {kind_opt!r}", expected="deletion-vectors, hash, file-index or all")
        kind = _KINDS[kind_opt]
        every = str(self.options.get("snapshots", "latest")).lower() == "all"
        out: list[InputPartition] = []
        for table in list_tables(path):
            tasks, _ = table_inventory(table)
            for t in tasks:
                if (kind is None or t.kind == kind) and (every or t.in_latest_snapshot):
                    out.append(IndexFilePartition(t.to_row()))
        return out or [IndexFilePartition({"path": "", "kind": "none"})]

    def read(self, partition: InputPartition) -> Iterator[tuple]:
        from ..storage import restore_storage_state

        task = cast(IndexFilePartition, partition).task  # Spark hands back what partitions() made
        if task.get("kind") == "none":
            return
        restore_storage_state(self.storage)
        for row in index_rows(task):
            yield tuple(row.get(c) for c in _COLUMNS)


class PaimonIndexDataSource(DataSource):
    #: the driver's storage options when the source was registered (Spark runs the reader in Python workers)
    storage: dict = {}

    @classmethod
    def name(cls) -> str:
        return "paimon_index"

    def schema(self) -> str:
        return SCHEMA

    def reader(self, schema) -> DataSourceReader:
        return PaimonIndexReader(dict(self.options), self.storage)


def register(spark) -> None:
    """Register ``paimon_index`` with ``spark``; storage options registered in this process by now travel
    with it (later ones: ``option("storage.<key>", value)`` or register again)."""
    from ..storage import storage_state

    state = storage_state()
    if not state:
        spark.dataSource.register(PaimonIndexDataSource)
        return
    # a subclass defined here is pickled by value, carrying the options to the Python workers
    source = type("PaimonIndexDataSource", (PaimonIndexDataSource,), {"storage": state,
                                                                        "__module__": __name__ + "_registered"})
    spark.dataSource.register(source)
