"""Table operations with Paimon's own Java API, run inside the JVM worker (:mod:`oracles.java_worker`).

Every method takes and returns JSON values (Arrow data goes through IPC files whose paths are
passed).  Only public Paimon API that 0.9 and the newest release share is used: tables are opened by
path (``FileStoreTableFactory``), created through the filesystem catalog, altered through
``SchemaManager.commitChanges``, written with ``BatchWriteBuilder`` (one commit per call), compacted with
``BatchTableWrite.compact`` per (partition, bucket), read with ``ReadBuilder`` (filter pushed down, then
every row tested against the predicate, as Paimon's engines do) and time-travelled with the
``scan.snapshot-id`` / ``scan.tag-name`` / ``scan.timestamp-millis`` dynamic options.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

import jpype
import pyarrow as pa

from paimon_codec.expressions import And, Leaf, Or, Predicate, parse_where
from paimon_codec.expressions.json_form import predicate_from_json
from paimon_codec.types import parse_row_type

from .java_dv_delete import DvDeleteOps
from .java_file_index import FileIndexOps
from .java_orphans import OrphanOps
from .java_postpone import PostponeOps
from .java_row_tracking import RowTrackingOps
from .java_values import arrow_field, getter, java_type, nullable, our_row_type, python_values, to_java

J = jpype.JClass
_ArrayList = J("java.util.ArrayList")
_HashMap = J("java.util.HashMap")
_HashSet = J("java.util.HashSet")
_Options = J("org.apache.paimon.options.Options")
_CatalogFactory = J("org.apache.paimon.catalog.CatalogFactory")
_CatalogContext = J("org.apache.paimon.catalog.CatalogContext")
_Identifier = J("org.apache.paimon.catalog.Identifier")
_Schema = J("org.apache.paimon.schema.Schema")
_SchemaChange = J("org.apache.paimon.schema.SchemaChange")
_SchemaManager = J("org.apache.paimon.schema.SchemaManager")
_FileStoreTableFactory = J("org.apache.paimon.table.FileStoreTableFactory")
_LocalFileIO = J("org.apache.paimon.fs.local.LocalFileIO")
_JPath = J("org.apache.paimon.fs.Path")
_GenericRow = J("org.apache.paimon.data.GenericRow")
_RowKind = J("org.apache.paimon.types.RowKind")
_PredicateBuilder = J("org.apache.paimon.predicate.PredicateBuilder")
_RecordReaderIterator = J("org.apache.paimon.reader.RecordReaderIterator")
_Pair = J("org.apache.paimon.utils.Pair")
_IOManager = J("org.apache.paimon.disk.IOManager")

_LEAF_METHODS = {"eq": "equal", "neq": "notEqual", "lt": "lessThan", "lte": "lessOrEqual", "gt": "greaterThan",
                 "gte": "greaterOrEqual", "starts_with": "startsWith", "ends_with": "endsWith",
                 "contains": "contains", "like": "like"}


def _jlist(items) -> Any:
    out = _ArrayList()
    for x in items:
        out.add(x)
    return out


def _jmap(d: dict[str, Any] | None) -> Any:
    out = _HashMap()
    for k, v in (d or {}).items():
        out.put(str(k), str(v))
    return out


def _local(path: str) -> str:
    """A plain local path from a Paimon location (``file:/x``, ``file:///x`` or ``/x``)."""
    for prefix in ("file://", "file:"):
        if path.startswith(prefix):
            path = path[len(prefix):]
            break
    return "/" + path.lstrip("/")


def _time_travel(snapshot_id: int | None, tag: str | None, timestamp_ms: int | None) -> dict[str, str]:
    """The dynamic options of a time-travel read."""
    dynamic = {}
    if snapshot_id is not None:
        dynamic["scan.snapshot-id"] = str(snapshot_id)
    if tag is not None:
        dynamic["scan.tag-name"] = tag
    if timestamp_ms is not None:
        dynamic["scan.timestamp-millis"] = str(timestamp_ms)
    return dynamic


def _mode(table: Any) -> str:
    return str(table.bucketMode().name())


def _bucket_assigner(table: Any) -> Any:
    """``row -> bucket`` for dynamic-bucket tables (as Paimon's Flink/Spark sinks assign), else None."""
    mode = _mode(table)
    if mode in ("CROSS_PARTITION", "KEY_DYNAMIC", "GLOBAL_DYNAMIC"):
        raise ValueError(f"the oracle cannot write {mode} tables (bucket = -1 with a primary key that does not "
                         "hold every partition key): Paimon assigns them through its engines' global index")
    if mode != "HASH_DYNAMIC":
        return None
    options = table.coreOptions()
    HashBucketAssigner = J("org.apache.paimon.index.HashBucketAssigner")
    args = (table.snapshotManager(), "paimon-codec-oracle", table.store().newIndexFileHandler(), 1, 1, 0,
            jpype.JLong(options.dynamicBucketTargetRowNum()))
    max_buckets = getattr(options, "dynamicBucketMaxBuckets", None)
    if max_buckets is not None:  # Paimon >= 1.0 also takes dynamic-bucket.max-buckets
        limit = max_buckets()
        assigner = HashBucketAssigner(*args, jpype.JInt(-1 if limit is None else int(limit)))
    else:
        assigner = HashBucketAssigner(*args)
    extractor = J("org.apache.paimon.table.sink.DynamicBucketRowKeyExtractor")(table.schema())

    def assign(row: Any) -> int:
        extractor.setRecord(row)
        return int(assigner.assign(extractor.partition(), extractor.trimmedPrimaryKey().hashCode()))
    return assign


class PaimonOps(RowTrackingOps, FileIndexOps, OrphanOps, DvDeleteOps, PostponeOps):
    """The worker's request handlers (public methods are the protocol's method names)."""

    def __init__(self) -> None:
        self._catalogs: dict[str, Any] = {}
        self._io = _LocalFileIO.create()
        # one temp-disk IOManager for every write: Paimon's lookup compaction (deletion vectors,
        # first-row) refuses to run without one
        self._io_manager = _IOManager.create(tempfile.mkdtemp(prefix="paimon-oracle-io-"))

    # ------------------------------------------------------------------------------ tables

    def _catalog(self, warehouse: str) -> Any:
        cat = self._catalogs.get(warehouse)
        if cat is None:
            opts = _Options()
            opts.set("warehouse", warehouse)
            cat = _CatalogFactory.createCatalog(_CatalogContext.create(opts))
            self._catalogs[warehouse] = cat
        return cat

    def _table(self, path: str, branch: str | None = None, dynamic: dict[str, str] | None = None) -> Any:
        table = _FileStoreTableFactory.create(self._io, _JPath(path))
        if branch:
            table = table.switchToBranch(branch)
        if dynamic:
            table = table.copy(_jmap(dynamic))
        return table

    def version(self) -> str:
        pkg = J("org.apache.paimon.table.FileStoreTable").class_.getPackage()
        return str(pkg.getImplementationVersion() or "")

    def create_table(self, warehouse: str, name: str, schema: str, primary_keys: list[str],
                     partition_keys: list[str], options: dict[str, str] | None) -> str:
        db, _, tbl = name.rpartition(".")
        if not db:
            raise ValueError(f"table name {name!r} must be 'database.table'")
        cat = self._catalog(warehouse)
        cat.createDatabase(db, True)
        builder = _Schema.newBuilder()
        for f in parse_row_type(schema):
            builder.column(f.name, java_type(f.type))
        if primary_keys:
            builder.primaryKey(_jlist(primary_keys))
        if partition_keys:
            builder.partitionKeys(_jlist(partition_keys))
        builder.options(_jmap(options))
        ident = _Identifier.create(db, tbl)
        cat.createTable(ident, builder.build(), False)
        return _local(str(cat.getTable(ident).location().toString()))

    def schema(self, table_path: str, branch: str | None = None) -> str:
        """The table's current row type in this project's type syntax."""
        return str(our_row_type(self._table(table_path, branch).rowType()))

    def snapshot_id(self, table_path: str, branch: str | None = None) -> int | None:
        latest = self._table(table_path, branch).snapshotManager().latestSnapshotId()
        return None if latest is None else int(latest)

    def snapshot(self, table_path: str, snapshot_id: int | None, branch: str | None) -> dict[str, Any] | None:
        """Id, schema id, commit time and kind of a snapshot (default: the latest; ``None`` if none)."""
        manager = self._table(table_path, branch).snapshotManager()
        snap = manager.latestSnapshot() if snapshot_id is None else manager.snapshot(jpype.JLong(snapshot_id))
        if snap is None:
            return None
        return {"id": int(snap.id()), "schema_id": int(snap.schemaId()), "time_millis": int(snap.timeMillis()),
                "commit_kind": str(snap.commitKind().name())}

    # ------------------------------------------------------------------------------ writing

    def write(self, table_path: str, arrow_file: str, row_kinds: list[str] | None,
              branch: str | None) -> int | None:
        table = self._table(table_path, branch)
        with pa.OSFile(arrow_file) as fh:
            data = pa.ipc.open_file(fh).read_all()
        fields = list(table.rowType().getFields())
        names = [str(f.name()) for f in fields]
        unknown = [c for c in data.column_names if c not in names]
        if unknown:
            raise ValueError(f"columns {unknown} are not in the table (columns: {names})")
        n = data.num_rows
        columns = [python_values(data.column(name)) if name in data.column_names else [None] * n for name in names]
        convs = [nullable(to_java(f.type())) for f in fields]
        if row_kinds is not None and len(row_kinds) != n:
            raise ValueError(f"{len(row_kinds)} row kinds for {n} rows")
        kinds = {k: _RowKind.fromShortString(k) for k in set(row_kinds or ())}
        before = self.snapshot_id(table_path, branch)
        assign = _bucket_assigner(table)
        builder = table.newBatchWriteBuilder()
        write = builder.newWrite().withIOManager(self._io_manager)  # lookup compaction spills to disk
        try:
            for i in range(n):
                row = _GenericRow(len(fields))
                if row_kinds is not None:
                    row.setRowKind(kinds[row_kinds[i]])
                for k, conv in enumerate(convs):
                    row.setField(k, conv(columns[k][i]))
                if assign is None:
                    write.write(row)
                else:
                    write.write(row, assign(row))
            self._commit(builder, write.prepareCommit())
        finally:
            write.close()
        after = self.snapshot_id(table_path, branch)
        return after if after != before else None

    @staticmethod
    def _commit(builder: Any, messages: Any) -> None:
        commit = builder.newCommit()
        try:
            commit.commit(messages)
        finally:
            commit.close()

    def compact(self, table_path: str, full: bool, branch: str | None) -> int | None:
        """``BatchTableWrite.compact`` on every (partition, bucket) holding files, one commit.

        Bucket-unaware append tables have no buckets to compact: their compaction coordinator plans
        the tasks (merging small files only, as Paimon's compact jobs do; ``full`` has no effect).
        """
        table = self._table(table_path, branch)
        if _mode(table) == "BUCKET_UNAWARE":
            return self._compact_unaware(table_path, table, branch)
        seen = _HashSet()
        targets = []
        for split in table.newReadBuilder().newScan().plan().splits():
            key = _Pair.of(split.partition(), split.bucket())
            if seen.add(key):
                targets.append((split.partition(), int(split.bucket())))
        before = self.snapshot_id(table_path, branch)
        builder = table.newBatchWriteBuilder()
        write = builder.newWrite().withIOManager(self._io_manager)  # lookup compaction spills to disk
        try:
            for partition, bucket in targets:
                write.compact(partition, bucket, bool(full))
            self._commit(builder, write.prepareCommit())
        finally:
            write.close()
        after = self.snapshot_id(table_path, branch)
        return after if after != before else None

    def _compact_unaware(self, table_path: str, table: Any, branch: str | None) -> int | None:
        try:  # Paimon >= 1.0
            coordinator = J("org.apache.paimon.append.AppendCompactCoordinator")(table, False)
        except TypeError:  # Paimon 0.9
            coordinator = J("org.apache.paimon.append.UnawareAppendTableCompactionCoordinator")(table, False)
        tasks = list(coordinator.run())
        if not tasks:
            return None
        before = self.snapshot_id(table_path, branch)
        write = table.store().newWrite("paimon-codec-oracle-compact")
        try:
            messages = _jlist(task.doCompact(table, write) for task in tasks)
        finally:
            write.close()
        self._commit(table.newBatchWriteBuilder(), messages)
        after = self.snapshot_id(table_path, branch)
        return after if after != before else None

    # ------------------------------------------------------------------------------ schema, tags, branches

    def alter(self, table_path: str, changes: list[dict[str, Any]], branch: str | None) -> None:
        jchanges = _jlist(self._schema_change(c) for c in changes)
        manager = (_SchemaManager(self._io, _JPath(table_path)) if not branch
                   else _SchemaManager(self._io, _JPath(table_path), branch))
        manager.commitChanges(jchanges)

    @staticmethod
    def _schema_change(c: dict[str, Any]) -> Any:
        """One ``SchemaChange``; a ``name`` / ``from`` given as a list is the path of a nested field
        (``["r", "q"]``, ``["arr", "element", "x"]``, ``["m", "value", "w"]``: Paimon >= 1.0)."""
        from paimon_codec.types import parse_type

        op = c["op"]
        field = c.get("from" if op == "rename" else "name")
        nested = isinstance(field, list)
        if nested:
            field = jpype.JArray(jpype.JString)([str(n) for n in field])
        if op == "rename":
            return _SchemaChange.renameColumn(field, c["to"])
        if op == "add":
            move = None
            Move = J("org.apache.paimon.schema.SchemaChange$Move")
            if c.get("first"):
                move = Move.first(c["name"])
            elif c.get("after"):
                move = Move.after(c["name"], c["after"])
            return _SchemaChange.addColumn(field, java_type(parse_type(c["type"])), c.get("comment"), move)
        if op == "drop":
            return _SchemaChange.dropColumn(field)
        if op == "type":
            jt = java_type(parse_type(c["type"]))
            return _SchemaChange.updateColumnType(field, jt, False) if nested else \
                _SchemaChange.updateColumnType(field, jt)
        if op == "set":
            return _SchemaChange.setOption(c["key"], str(c["value"]))
        if op == "remove":
            return _SchemaChange.removeOption(c["key"])
        if op == "nullability":
            return _SchemaChange.updateColumnNullability(c["name"], bool(c["nullable"]))
        raise ValueError(f"unknown schema change {op!r} (rename, add, drop, type, set, remove, nullability)")

    def create_tag(self, table_path: str, tag: str, snapshot_id: int | None, branch: str | None) -> None:
        table = self._table(table_path, branch)
        if snapshot_id is None:
            table.createTag(tag)
        else:
            table.createTag(tag, jpype.JLong(snapshot_id))

    def create_branch(self, table_path: str, branch: str, tag: str | None) -> None:
        table = self._table(table_path)
        if tag is None:
            table.createBranch(branch)
        else:
            table.createBranch(branch, tag)

    def fast_forward(self, table_path: str, branch: str) -> None:
        self._table(table_path).fastForward(branch)

    # ------------------------------------------------------------------------------ reading

    def read(self, table_path: str, out_file: str, where: dict[str, Any] | None, projection: list[str] | None,
             snapshot_id: int | None, tag: str | None, branch: str | None, timestamp_ms: int | None) -> int:
        """Java's batch read into an Arrow IPC file; returns the row count."""
        table = self._table(table_path, branch, _time_travel(snapshot_id, tag, timestamp_ms))
        row_type = table.rowType()
        fields = list(row_type.getFields())
        names = [str(f.name()) for f in fields]
        wanted = list(range(len(fields))) if projection is None else [self._index(names, c) for c in projection]
        predicate = None if where is None else self._predicate(where, row_type)
        builder = table.newReadBuilder()
        if predicate is not None:
            builder = builder.withFilter(predicate)  # pruning only: rows are tested below
        elif projection is not None:
            builder = builder.withProjection(jpype.JArray(jpype.JInt)(wanted))
        positions = wanted if predicate is not None else list(range(len(wanted)))
        as_descriptor = str(table.options().get("blob-as-descriptor")).lower() == "true"
        getters = [getter(fields[k].type(), as_descriptor) for k in wanted]
        columns: list[list] = [[] for _ in wanted]
        splits = builder.newScan().plan().splits()
        it = _RecordReaderIterator(builder.newRead().createReader(splits))
        try:
            while it.hasNext():
                row = it.next()
                if predicate is not None and not predicate.test(row):
                    continue
                for col, pos, g in zip(columns, positions, getters, strict=True):
                    col.append(None if row.isNullAt(pos) else g(row, pos))
        finally:
            it.close()
        schema = pa.schema([arrow_field(fields[k]) for k in wanted])
        arrays = [_exact_array(col, f.type) for col, f in zip(columns, schema, strict=True)]
        result = pa.Table.from_arrays(arrays, schema=schema)
        tmp = out_file + ".part"
        with pa.OSFile(tmp, "wb") as sink, pa.ipc.new_file(sink, schema) as writer:
            writer.write_table(result)
        os.replace(tmp, out_file)
        return result.num_rows

    def plan_files(self, table_path: str, snapshot_id: int | None, tag: str | None, branch: str | None,
                   timestamp_ms: int | None, where: dict[str, Any] | None = None) -> list[str]:
        """Sorted names of the data files of Java's batch scan plan (``newScan().plan().splits()``), with
        ``where`` pushed down as a filter (manifest stats and embedded file indexes prune)."""
        table = self._table(table_path, branch, _time_travel(snapshot_id, tag, timestamp_ms))
        builder = table.newReadBuilder()
        if where is not None:
            builder = builder.withFilter(self._predicate(where, table.rowType()))
        splits = builder.newScan().plan().splits()
        return sorted(str(f.fileName()) for split in splits for f in split.dataFiles())

    @staticmethod
    def _index(names: list[str], column: str) -> int:
        if column not in names:
            raise ValueError(f"unknown column {column!r} (columns: {names})")
        return names.index(column)

    def _predicate(self, where: dict[str, Any], row_type: Any) -> Any:
        schema = our_row_type(row_type)
        if "sql" in where:
            pred = parse_where(where["sql"]).bind(schema)
        else:
            pred = predicate_from_json(where["json"], schema)
        return self._java_predicate(pred, _PredicateBuilder(row_type), row_type)

    def _java_predicate(self, p: Predicate, pb: Any, row_type: Any) -> Any:
        if isinstance(p, (And, Or)):
            kids = _jlist(self._java_predicate(c, pb, row_type) for c in p.children)
            return _PredicateBuilder.and_(kids) if isinstance(p, And) else _PredicateBuilder.or_(kids)
        assert isinstance(p, Leaf)
        idx = int(row_type.getFieldIndex(p.column))
        conv = nullable(to_java(row_type.getTypeAt(idx)))  # a NULL literal is Java's null, never 'None'
        if p.op == "is_null":
            return pb.isNull(idx)
        if p.op == "is_not_null":
            return pb.isNotNull(idx)
        if p.op in ("in", "not_in"):
            lits = _jlist(conv(v) for v in p.literals)
            return pb.in_(idx, lits) if p.op == "in" else pb.notIn(idx, lits)
        if p.op == "between":
            return pb.between(idx, conv(p.literals[0]), conv(p.literals[1]))
        return getattr(pb, _LEAF_METHODS[p.op])(idx, conv(p.literal))


def _wide_decimals(t: pa.DataType) -> pa.DataType:
    if pa.types.is_decimal128(t):
        return pa.decimal128(38, t.scale)
    if pa.types.is_struct(t):
        return pa.struct([f.with_type(_wide_decimals(f.type)) for f in t])
    if pa.types.is_map(t):
        return pa.map_(t.key_field.with_type(_wide_decimals(t.key_type)),
                       t.item_field.with_type(_wide_decimals(t.item_type)))
    if pa.types.is_list(t):
        return pa.list_(t.value_field.with_type(_wide_decimals(t.value_type)))
    return t


def _exact_array(values: list, t: pa.DataType) -> pa.Array:
    """Java's values as an array of ``t``; a decimal past its column's precision (Paimon's unchecked sum of
    compact decimals can make one) is kept as Java returns it, not refused by ``pa.array``."""
    try:
        return pa.array(values, type=t)
    except pa.ArrowInvalid:
        return pa.array(values, type=_wide_decimals(t)).cast(t, safe=False)

