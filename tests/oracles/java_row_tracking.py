"""Oracle operations on row-tracking tables (``row-tracking.enabled``): data-evolution writes and global
indexes, run inside the JVM worker (:mod:`oracles.java_worker`) as part of
:class:`oracles.java_ops.PaimonOps`.  They need Paimon >= 1.3 (the newest release, not 0.9)."""

from __future__ import annotations

from typing import Any

import jpype
import pyarrow as pa

from .java_values import nullable, python_values, to_java

J = jpype.JClass


class RowTrackingOps:
    """Mixed into ``PaimonOps``: uses its ``_table``, ``_commit``, ``_index`` and ``snapshot_id``."""

    def write_partial(self, table_path: str, parts: list[dict[str, Any]]) -> int | None:
        """One commit of partial-column writes: each part (``{"arrow_file", "first_row_id"}``) writes only
        its Arrow columns (``withWriteType``).  A ``first_row_id`` makes the part's files an update of the
        rows from that id (``DataFileMeta.assignFirstRowId``, as Paimon's own tests write one); ``None``
        appends new rows.  Returns the new snapshot id."""
        table = self._table(table_path)
        before = self.snapshot_id(table_path, None)
        messages = J("java.util.ArrayList")()
        for part in parts:
            with pa.OSFile(part["arrow_file"]) as fh:
                data = pa.ipc.open_file(fh).read_all()
            for m in self._partial_messages(table, data, part.get("first_row_id")):
                messages.add(m)
        self._commit(table.newBatchWriteBuilder(), messages)
        after = self.snapshot_id(table_path, None)
        return after if after != before else None

    @staticmethod
    def _partial_messages(table: Any, data: pa.Table, first_row_id: int | None) -> list[Any]:
        names = [str(n) for n in table.rowType().getFieldNames()]
        unknown = [c for c in data.column_names if c not in names]
        if unknown:
            raise ValueError(f"columns {unknown} are not in the table (columns: {names})")
        write_type = table.rowType().project(J("java.util.Arrays").asList(*data.column_names))
        fields = list(write_type.getFields())
        convs = [nullable(to_java(f.type())) for f in fields]
        columns = [python_values(data.column(str(f.name()))) for f in fields]
        write = table.newBatchWriteBuilder().newWrite().withWriteType(write_type)
        try:
            for i in range(data.num_rows):
                row = J("org.apache.paimon.data.GenericRow")(len(fields))
                for k, conv in enumerate(convs):
                    row.setField(k, conv(columns[k][i]))
                write.write(row)
            messages = list(write.prepareCommit())
        finally:
            write.close()
        if first_row_id is not None:
            # files of one kind (normal, or the .blob files of one column) follow each other from first_row_id
            next_id: dict[Any, int] = {}
            for m in messages:
                files = m.newFilesIncrement().newFiles()
                assigned = []
                for f in files:
                    kind = tuple(str(c) for c in f.writeCols()) if str(f.fileName()).endswith(".blob") else None
                    start = next_id.get(kind, first_row_id)
                    assigned.append(f.assignFirstRowId(jpype.JLong(start)))
                    next_id[kind] = start + int(f.rowCount())
                files.clear()
                for f in assigned:
                    files.add(f)
        return messages

    def write_global_index(self, table_path: str, column: str, index_type: str,
                           values: list[Any]) -> list[dict[str, Any]]:
        """Write (not commit) global-index files of ``column`` over ``values`` (row ids 0, 1, ...) into the
        table's index dir, through ``GlobalIndexBuilderUtils.createIndexWriter``, what Paimon's
        ``create_global_index`` procedures use (B-tree keys fed in ascending order, as they sort them).  Returns the writer's result entries
        (``{"file_name", "row_count", "meta"}``, the meta as hex, ``None`` when absent)."""
        table = self._table(table_path)
        row_type = table.rowType()
        field = row_type.getFields().get(self._index([str(n) for n in row_type.getFieldNames()], column))
        builder = J("org.apache.paimon.globalindex.GlobalIndexBuilderUtils")
        writer = builder.createIndexWriter(table, index_type, field, J("org.apache.paimon.options.Options")())
        conv = nullable(to_java(field.type()))
        by_row_id = "BTree" in str(writer.getClass().getName())  # B-tree writers take (value, row id)
        if by_row_id:
            # keys in ascending order of Java's own compareTo (what KeySerializer's comparators use: Float.compare,
            # Decimal / Timestamp / BinaryString order), as Paimon's builders sort them before writing; nulls first
            import functools

            java_values = [conv(v) for v in values]

            def cmp(i: int, j: int) -> int:
                a, b = java_values[i], java_values[j]
                if a is None or b is None:
                    return (a is not None) - (b is not None) or (i > j) - (i < j)
                return int(a.compareTo(b)) or (i > j) - (i < j)

            for row_id in sorted(range(len(values)), key=functools.cmp_to_key(cmp)):
                writer.write(java_values[row_id], jpype.JLong(row_id))
        else:
            for v in values:
                writer.write(conv(v))
        entries = writer.finish()
        return [{"file_name": str(e.fileName()), "row_count": int(e.rowCount()),
                 "meta": None if e.meta() is None else bytes(e.meta()).hex()} for e in entries]

    def commit_global_index(self, table_path: str, column: str, index_type: str, values: list[Any]) -> int | None:
        """Write ``index_type`` global-index files of ``column`` over ``values`` (the rows' values by row id
        0, 1, ...) through ``createIndexWriter`` (as :meth:`write_global_index`) and commit them, as Paimon's
        builders do: ``GlobalIndexBuilderUtils.toIndexFileMetas`` over row range [0, len - 1], then a
        ``CommitMessageImpl`` with ``DataIncrement.indexIncrement`` - what ``BTreeGlobalIndexBuilder`` does
        with its B-tree files; Java 1.4.2 has no such builder for its bitmap global index.  Returns the new
        snapshot id."""
        table = self._table(table_path)
        before = self.snapshot_id(table_path, None)
        row_type = table.rowType()
        field = row_type.getFields().get(self._index([str(n) for n in row_type.getFieldNames()], column))
        writer = J("org.apache.paimon.globalindex.GlobalIndexBuilderUtils").createIndexWriter(
            table, index_type, field, J("org.apache.paimon.options.Options")())
        conv = nullable(to_java(field.type()))
        if "BTree" in str(writer.getClass().getName()):
            raise ValueError("commit_global_index writes row-ordered indexes; B-trees: create_btree_global_index")
        for v in values:
            writer.write(conv(v))
        entries = writer.finish()
        metas = J("org.apache.paimon.globalindex.GlobalIndexBuilderUtils").toIndexFileMetas(
            table.fileIO(), table.store().pathFactory().globalIndexFileFactory(), table.coreOptions(),
            J("org.apache.paimon.utils.Range")(jpype.JLong(0), jpype.JLong(len(values) - 1)), field.id(),
            index_type, entries)
        message = J("org.apache.paimon.table.sink.CommitMessageImpl")(
            J("org.apache.paimon.data.BinaryRow").EMPTY_ROW, 0, None,
            J("org.apache.paimon.io.DataIncrement").indexIncrement(metas),
            J("org.apache.paimon.io.CompactIncrement").emptyIncrement())
        messages = J("java.util.ArrayList")()
        messages.add(message)
        commit = table.newBatchWriteBuilder().newCommit()
        try:
            commit.commit(messages)
        finally:
            commit.close()
        after = self.snapshot_id(table_path, None)
        return after if after != before else None

    def create_btree_global_index(self, table_path: str, column: str) -> int | None:
        """Build and commit a B-tree global index of ``column`` over the latest snapshot, as Paimon's
        ``create_global_index`` procedures do (``BTreeGlobalIndexBuilder``: scan, build per data split -
        rows sorted by key through an external sort buffer - then one commit).  Returns the new snapshot id."""
        import tempfile

        table = self._table(table_path)
        before = self.snapshot_id(table_path, None)
        builder = J("org.apache.paimon.globalindex.btree.BTreeGlobalIndexBuilder")(table).withIndexField(column)
        scanned = builder.scan()
        if not scanned.isPresent():
            return None
        messages = J("java.util.ArrayList")()
        with tempfile.TemporaryDirectory() as tmp:
            io = J("org.apache.paimon.disk.IOManager").create(tmp)
            try:
                for split in scanned.get().getRight():
                    for m in builder.build(split, io):
                        messages.add(m)
            finally:
                io.close()
        commit = table.newBatchWriteBuilder().newCommit()
        try:
            commit.commit(messages)
        finally:
            commit.close()
        after = self.snapshot_id(table_path, None)
        return after if after != before else None

    def global_index_lookup(self, table_path: str, column: str, index_type: str, files: list[dict[str, Any]],
                            op: str, literals: list[Any]) -> list[int] | None:
        """Java's own lookup (``GlobalIndexer.createReader`` over the table's index dir, one row-id range):
        the row ids ``op`` (``FunctionVisitor`` name: ``equal``, ``in``, ``less_than``, ``is_null`` ...)
        returns for ``literals`` over index ``files`` (``{"file_name", "file_size", "meta"}``, meta hex),
        relative to the range; ``None`` when the reader gives no answer."""
        table = self._table(table_path)
        row_type = table.rowType()
        names = [str(n) for n in row_type.getFieldNames()]
        pos = self._index(names, column)
        field = row_type.getFields().get(pos)
        indexer = J("org.apache.paimon.globalindex.GlobalIndexer").create(
            index_type, field, J("org.apache.paimon.options.Options")())
        factory = table.store().pathFactory().globalIndexFileFactory()
        rw = J("org.apache.paimon.globalindex.GlobalIndexFileReadWrite")(table.fileIO(), factory)
        metas = J("java.util.ArrayList")()
        for f in files:
            meta = None if f["meta"] is None else jpype.JArray(jpype.JByte)(
                [b - 256 if b > 127 else b for b in bytes.fromhex(f["meta"])])
            metas.add(J("org.apache.paimon.globalindex.GlobalIndexIOMeta")(
                factory.toPath(f["file_name"]), jpype.JLong(f["file_size"]), meta))
        ref = J("org.apache.paimon.predicate.FieldRef")(pos, column, field.type())
        conv = nullable(to_java(field.type()))
        reader = indexer.createReader(rw, metas)
        try:
            lits = [conv(v) for v in literals]
            if op in ("is_null", "is_not_null"):
                result = getattr(reader, "visitIsNull" if op == "is_null" else "visitIsNotNull")(ref)
            elif op in ("in", "not_in"):
                jl = J("java.util.ArrayList")()
                for v in lits:
                    jl.add(v)
                result = getattr(reader, "visitIn" if op == "in" else "visitNotIn")(ref, jl)
            else:
                method = "visit" + "".join(p.capitalize() for p in op.split("_"))
                result = getattr(reader, method)(ref, lits[0])
            if not result.isPresent():
                return None
            it = result.get().results().iterator()
            out = []
            while it.hasNext():
                out.append(int(it.next()))
            return sorted(out)
        finally:
            reader.close()
