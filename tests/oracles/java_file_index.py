"""Oracle operations on file indexes, run inside the JVM worker (:mod:`oracles.java_worker`) as part of
:class:`oracles.java_ops.PaimonOps`: Java's own index bytes for a table's existing data files, and Java's
own evaluation of a predicate on a container.

* ``file_indexes(mode="writer")``: for every live data file, Java's ``DataFileIndexWriter`` (the writer
  Paimon runs when it writes a data file) over the file's rows, with the table's *current* options -
  what Java would have written for that file had the options been set when it was written;
* ``file_indexes(mode="processor")``: Java's ``FileIndexProcessor.process`` (the per-file step of its
  ``rewrite_file_index`` procedure) on every live file - run it on a copy of the table, it writes index
  files beside the data files;
* ``evaluate_file_index``: ``FileIndexPredicate.evaluate`` of a predicate on container bytes: REMAIN,
  SKIP, or the selected row positions.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

import jpype

J = jpype.JClass


def _bytes(b: Any) -> str | None:
    return None if b is None else bytes(b).hex()


class FileIndexOps:
    """Mixed into ``PaimonOps``: uses its ``_table``, ``_io`` and ``_predicate``."""

    def _entries(self, table: Any) -> list[Any]:
        return list(table.store().newScan().plan().files())

    def _rows_of(self, table: Any, entry: Any, projection: Any) -> Any:
        """A reader over every row of one data file (no deletion vector applied), as Paimon's
        ``FileIndexProcessor`` reads it: a raw-convertible split of that single file."""
        split = (J("org.apache.paimon.table.source.DataSplit").builder()
                 .withPartition(entry.partition()).withBucket(entry.bucket())
                 .withBucketPath(str(table.store().pathFactory().bucketPath(entry.partition(),
                                                                             entry.bucket()).toString()))
                 .withTotalBuckets(J("java.lang.Integer").valueOf(entry.totalBuckets()))
                 .withDataFiles(J("java.util.Collections").singletonList(entry.file()))
                 .rawConvertible(True).build())
        builder = table.newReadBuilder()
        if projection is not None:
            builder = builder.withProjection(projection)
        return builder.newRead().createReader(split)

    def file_indexes(self, table_path: str, mode: str) -> dict[str, dict[str, Any]]:
        """``{data file name: {"embedded": hex | None, "extra_files": [...], "index_file": name | None,
        "index_bytes": hex | None}}`` for the live files of the latest snapshot."""
        table = self._table(table_path)
        out: dict[str, dict[str, Any]] = {}
        if mode == "processor":
            processor = J("org.apache.paimon.index.FileIndexProcessor")(table)
            for e in self._entries(table):
                meta = processor.process(e.partition(), e.bucket(), e)
                out[str(meta.fileName())] = self._describe(table, e, meta.embeddedIndex(),
                                                           [str(x) for x in meta.extraFiles()])
            return out
        if mode != "writer":
            raise ValueError(f"mode must be 'writer' or 'processor', not {mode!r}")
        options = table.coreOptions().indexColumnsOptions()
        row_type = table.rowType()
        tmp = tempfile.mkdtemp(prefix="paimon-oracle-index-")
        Writer = J("org.apache.paimon.io.DataFileIndexWriter")
        for e in self._entries(table):
            name = str(e.file().fileName())
            path = J("org.apache.paimon.fs.Path")(os.path.join(tmp, name + ".index"))
            writer = Writer.create(self._io, path, row_type, options)
            if writer is None:
                out[name] = {"embedded": None, "extra_files": [], "index_file": None, "index_bytes": None}
                continue
            reader = self._rows_of(table, e, None)
            try:
                it = J("org.apache.paimon.reader.RecordReaderIterator")(reader)
                while it.hasNext():
                    writer.write(it.next())
                it.close()
            finally:
                writer.close()
            result = writer.result()
            index_file = result.independentIndexFile()
            data = None
            if index_file is not None:
                with open(os.path.join(tmp, str(index_file)), "rb") as fh:
                    data = fh.read().hex()
            out[name] = {"embedded": _bytes(result.embeddedIndexBytes()), "extra_files": [],
                         "index_file": None if index_file is None else str(index_file), "index_bytes": data}
        return out

    def _describe(self, table: Any, entry: Any, embedded: Any, extras: list[str]) -> dict[str, Any]:
        index_file = next((x for x in extras if x.endswith(".index")), None)
        data = None
        if index_file is not None:
            bucket = str(table.store().pathFactory().bucketPath(entry.partition(), entry.bucket()).toString())
            bucket = bucket[5:] if bucket.startswith("file:") else bucket
            with open(os.path.join(bucket, index_file), "rb") as fh:
                data = fh.read().hex()
        return {"embedded": _bytes(embedded), "extra_files": extras, "index_file": index_file,
                "index_bytes": data}

    def evaluate_file_index(self, table_path: str, container_hex: str, where: dict[str, Any]) -> Any:
        """Java's ``FileIndexPredicate`` on a container: ``"REMAIN"``, ``"SKIP"`` or sorted row positions
        (Paimon 0.9's answers only REMAIN / SKIP: ``testPredicate``)."""
        table = self._table(table_path)
        row_type = table.rowType()
        predicate = J("org.apache.paimon.fileindex.FileIndexPredicate")(
            jpype.JArray(jpype.JByte)(bytes.fromhex(container_hex)), row_type)
        try:
            if not hasattr(predicate, "evaluate"):  # Paimon 0.9: a yes / no answer only
                return "REMAIN" if predicate.testPredicate(self._predicate(where, row_type)) else "SKIP"
            result = predicate.evaluate(self._predicate(where, row_type))
        finally:
            predicate.close()
        Result = J("org.apache.paimon.fileindex.FileIndexResult")
        if result == Result.REMAIN:
            return "REMAIN"
        if result == Result.SKIP:
            return "SKIP"
        bitmap = result.get()  # BitmapIndexResult -> RoaringBitmap32
        it = bitmap.iterator()
        rows = []
        while it.hasNext():
            rows.append(int(it.next()))
        return rows
