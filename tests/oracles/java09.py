"""Drive Apache Paimon 0.9's own Java code from Python (the tests' Java 0.9 oracle; the jar: :mod:`.java09_jar`).

:func:`paimon_java` starts ONE JVM per process (JPype cannot restart a JVM) and returns a
:class:`PaimonJava` facade whose methods take and return plain Python values (bytes, ints, pyroaring
bitmaps, numpy arrays, :mod:`paimon_codec.fileindex.result` results), so tests read like
"Java says X, we say Y".  Every Java call goes through public Paimon API, except two read-only
reflective peeks that the golden generator also used: the container reader's parsed ``header`` map and
the package-private ``FileIndexPredicate$FileIndexPredicateTest`` visitor (to get the whole-predicate
*result*, not only the boolean ``testPredicate``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from pyroaring import BitMap

from paimon_codec.fileindex.result import REMAIN, SKIP, BitmapResult, FileIndexResult
from paimon_codec.generated.construct.constants import DV_MAGIC_BITMAP32
from paimon_codec.types import DataType, RowType, parse_type
from paimon_codec.values import Timestamp

from .java09_jar import (  # noqa: F401
    JAR_NAME,
    JAR_SHA256,
    SDIST_SHA256,
    JavaUnavailable,
    _hadoop_jars,
    cache_dir,
    locate_jar,
)
from .quick_guard import refuse_in_quick_run

DV_MAGIC = DV_MAGIC_BITMAP32


_BRIDGE: PaimonJava | None = None


def paimon_java(fetch: bool = True) -> PaimonJava:
    """The process-wide bridge; starts the JVM on first use.  Raises :class:`JavaUnavailable`."""
    global _BRIDGE
    if _BRIDGE is None:
        try:
            import jpype
            import jpype.imports  # noqa: F401  (enables "from org.apache... import X")
        except ImportError as exc:
            raise JavaUnavailable(f"JPype is not installed: {exc}") from exc
        jar = locate_jar(fetch=fetch)
        if not jpype.isJVMStarted():
            refuse_in_quick_run("java", "the in-process Paimon 0.9 JVM (JPype)")
            try:
                jvm = jpype.getDefaultJVMPath()
            except Exception as exc:  # JVMNotFoundException
                raise JavaUnavailable(f"no JVM found (install Java 17 or set JAVA_HOME): {exc}") from exc
            classpath = [str(jar), *_hadoop_jars()]
            jpype.startJVM(jvm, "-Xmx1g", "-Xss4m", classpath=classpath, convertStrings=False)
        try:
            jpype.JClass("org.apache.paimon.fileindex.FileIndexFormat")
        except Exception as exc:
            raise JavaUnavailable(f"a JVM is running without the Paimon jar on its classpath: {exc}") from exc
        _BRIDGE = PaimonJava()
    return _BRIDGE


def _as_dtype(t: DataType | str) -> DataType:
    return parse_type(t) if isinstance(t, str) else t


class PaimonJava:
    """Thin, typed wrappers around Paimon 0.9 Java calls.  Construct through :func:`paimon_java`."""

    def __init__(self) -> None:
        import jpype

        self._jpype = jpype
        J = jpype.JClass
        self.JByteArray = jpype.JArray(jpype.JByte)
        self.JIntArray = jpype.JArray(jpype.JInt)
        self.Integer = J("java.lang.Integer")
        self.Long = J("java.lang.Long")
        self.Short = J("java.lang.Short")
        self.Byte = J("java.lang.Byte")
        self.Float = J("java.lang.Float")
        self.Double = J("java.lang.Double")
        self.Boolean = J("java.lang.Boolean")
        self.BigDecimal = J("java.math.BigDecimal")
        self.ArrayList = J("java.util.ArrayList")
        self.LinkedHashMap = J("java.util.LinkedHashMap")
        self.HashMap = J("java.util.HashMap")
        self.ByteArrayOutputStream = J("java.io.ByteArrayOutputStream")
        self.BinaryString = J("org.apache.paimon.data.BinaryString")
        self.Timestamp = J("org.apache.paimon.data.Timestamp")
        self.Decimal = J("org.apache.paimon.data.Decimal")
        self.BinaryRow = J("org.apache.paimon.data.BinaryRow")
        self.GenericRow = J("org.apache.paimon.data.GenericRow")
        self.CodeGenUtils = J("org.apache.paimon.codegen.CodeGenUtils")
        self.DataTypeJsonParser = J("org.apache.paimon.types.DataTypeJsonParser")
        self.DataField = J("org.apache.paimon.types.DataField")
        self.JRowType = J("org.apache.paimon.types.RowType")
        self.Options = J("org.apache.paimon.options.Options")
        self.MemorySize = J("org.apache.paimon.options.MemorySize")
        self.FileIndexer = J("org.apache.paimon.fileindex.FileIndexer")
        self.FileIndexFormat = J("org.apache.paimon.fileindex.FileIndexFormat")
        self.FileIndexPredicate = J("org.apache.paimon.fileindex.FileIndexPredicate")
        self.FileIndexResult = J("org.apache.paimon.fileindex.FileIndexResult")
        self.BitmapIndexResultLazy = J("org.apache.paimon.fileindex.bitmap.BitmapIndexResultLazy")
        self.ByteArraySeekableStream = J("org.apache.paimon.fs.ByteArraySeekableStream")
        self.Path = J("org.apache.paimon.fs.Path")
        self.LocalFileIO = J("org.apache.paimon.fs.local.LocalFileIO")
        self.PredicateBuilder = J("org.apache.paimon.predicate.PredicateBuilder")
        self.LeafPredicate = J("org.apache.paimon.predicate.LeafPredicate")
        self.In = J("org.apache.paimon.predicate.In")
        self.NotIn = J("org.apache.paimon.predicate.NotIn")
        self.BitmapDeletionVector = J("org.apache.paimon.deletionvectors.BitmapDeletionVector")
        self.DeletionVectorsIndexFile = J("org.apache.paimon.deletionvectors.DeletionVectorsIndexFile")
        self.DeletionFile = J("org.apache.paimon.table.source.DeletionFile")
        self.IndexFileMeta = J("org.apache.paimon.index.IndexFileMeta")
        self.HashIndexFile = J("org.apache.paimon.index.HashIndexFile")
        self.IntIterator = J("org.apache.paimon.utils.IntIterator")
        self.Pair = J("org.apache.paimon.utils.Pair")
        self.SimpleHashBucketAssigner = J("org.apache.paimon.index.SimpleHashBucketAssigner")
        self.KeyAndBucketExtractor = J("org.apache.paimon.table.sink.KeyAndBucketExtractor")
        self.io = self.LocalFileIO.create()
        self._projections: dict[tuple[str, ...], Any] = {}
        self._REMAIN = self.FileIndexResult.REMAIN
        self._SKIP = self.FileIndexResult.SKIP
        self._path_factory_cls = self._make_path_factory_class()
        # package-private / private members used read-only (see module docstring)
        reader_cls = J("org.apache.paimon.fileindex.FileIndexFormat$Reader").class_
        self._header_field = reader_cls.getDeclaredField("header")
        self._header_field.setAccessible(True)
        test_cls = J("java.lang.Class").forName("org.apache.paimon.fileindex.FileIndexPredicate$FileIndexPredicateTest")
        self._test_ctor = test_cls.getDeclaredConstructor(J("java.util.Map").class_)
        self._test_ctor.setAccessible(True)
        self._test_method = test_cls.getDeclaredMethod("test", J("org.apache.paimon.predicate.Predicate").class_)
        self._test_method.setAccessible(True)

    # ------------------------------------------------------------------------------ types, values

    def data_type(self, t: DataType | str) -> Any:
        """Java ``DataType`` of a Paimon SQL type string (or our :class:`DataType`)."""
        return self.DataTypeJsonParser.parseAtomicTypeSQLString(str(t))

    def row_type(self, row_type: RowType) -> Any:
        fields = self.ArrayList()
        for i, f in enumerate(row_type.fields):
            fields.add(self.DataField(i, f.name, self.data_type(f.type)))
        return self.JRowType(fields)

    def bytes_to_java(self, data: bytes | bytearray | memoryview) -> Any:
        return self.JByteArray(bytes(data))

    def converter(self, t: DataType | str):
        """A function mapping one Python value of type ``t`` (our conventions) to Paimon's Java object."""
        dt = _as_dtype(t)
        r = dt.root

        def nullable(f):
            return lambda v: None if v is None else f(v)

        jp = self._jpype
        if r == "TINYINT":
            return nullable(lambda v: self.Byte(jp.JByte(v)))
        if r == "SMALLINT":
            return nullable(lambda v: self.Short(jp.JShort(v)))
        if r in ("INTEGER", "DATE", "TIME_WITHOUT_TIME_ZONE"):
            return nullable(lambda v: self.Integer(jp.JInt(v)))
        if r == "BIGINT":
            return nullable(lambda v: self.Long(jp.JLong(v)))
        if r == "FLOAT":
            return nullable(lambda v: self.Float(jp.JFloat(v)))
        if r == "DOUBLE":
            return nullable(lambda v: self.Double(jp.JDouble(v)))
        if r == "BOOLEAN":
            return nullable(lambda v: self.Boolean(jp.JBoolean(bool(v))))
        if dt.is_string:
            return nullable(lambda v: self.BinaryString.fromBytes(self.JByteArray(v.encode("utf-8"))))
        if dt.is_binary:
            return nullable(lambda v: self.JByteArray(bytes(v)))
        if dt.is_timestamp:
            return nullable(lambda v: self.Timestamp.fromEpochMillis(jp.JLong(v[0]), jp.JInt(v[1])))
        if r == "DECIMAL":
            p, s = dt.precision, dt.scale
            return nullable(lambda v: self.Decimal.fromBigDecimal(self.BigDecimal(str(v)), p, s))
        raise TypeError(f"no Java conversion for {dt}")

    def to_java(self, t: DataType | str, value: Any) -> Any:
        return self.converter(t)(value)

    def java_list(self, items: Iterable[Any]) -> Any:
        out = self.ArrayList()
        for x in items:
            out.add(x)
        return out

    def options(self, options: Mapping[str, Any] | None) -> Any:
        m = self.HashMap()
        for k, v in (options or {}).items():
            m.put(str(k), str(v))
        return self.Options(m)

    # ------------------------------------------------------------------------------ results

    def result(self, res: Any) -> FileIndexResult:
        """Our result object for a Java ``FileIndexResult`` (bitmaps materialised via serialisation)."""
        if res.equals(self._REMAIN):
            return REMAIN
        if res.equals(self._SKIP):
            return SKIP
        if isinstance(res, self.BitmapIndexResultLazy):
            return BitmapResult(BitMap.deserialize(bytes(res.get().serialize())))
        raise TypeError(f"unexpected Java FileIndexResult {res.getClass().getName()}")

    # ------------------------------------------------------------------------------ file indexes

    def build_index(self, index_type: str, t: DataType | str, values: Iterable[Any],
                    options: Mapping[str, Any] | None = None) -> bytes:
        """Java ``FileIndexer.create(type, dataType, options).createWriter()`` fed ``values``."""
        writer = self.FileIndexer.create(index_type, self.data_type(t), self.options(options)).createWriter()
        conv = self.converter(t)
        for v in values:
            writer.writeRecord(conv(v))
        return bytes(writer.serializedBytes())

    def write_container(self, blobs: Mapping[str, Mapping[str, bytes | None]], hash_map: bool = False) -> bytes:
        """Java ``FileIndexFormat.Writer.writeColumnIndexes``.

        Columns / index types in the given order (``LinkedHashMap``), or with ``hash_map=True`` in
        ``java.util.HashMap`` order - what Paimon's ``DataFileIndexWriter`` hands the writer.
        """
        Map = self.HashMap if hash_map else self.LinkedHashMap
        m = Map()
        for col, per_type in blobs.items():
            inner = Map()
            for index_type, payload in per_type.items():
                inner.put(index_type, None if payload is None else self.bytes_to_java(payload))
            m.put(col, inner)
        out = self.ByteArrayOutputStream()
        writer = self.FileIndexFormat.createWriter(out)
        writer.writeColumnIndexes(m)
        writer.close()
        return bytes(out.toByteArray())

    def _container_reader(self, data: bytes, row_type: RowType) -> Any:
        stream = self.ByteArraySeekableStream(self.bytes_to_java(data))
        return self.FileIndexFormat.createReader(stream, self.row_type(row_type))

    def container_header(self, data: bytes, row_type: RowType) -> dict[str, dict[str, tuple[int, int]]]:
        """``{column: {index_type: (start, length)}}`` exactly as Java's container reader parsed it."""
        reader = self._container_reader(data, row_type)
        try:
            header = self._header_field.get(reader)
            out: dict[str, dict[str, tuple[int, int]]] = {}
            for col in header.keySet():
                per = header.get(col)
                out[str(col)] = {
                    str(t): (int(per.get(t).getLeft()), int(per.get(t).getRight())) for t in per.keySet()
                }
            return out
        finally:
            reader.close()

    def container_payloads(self, data: bytes, row_type: RowType) -> dict[str, dict[str, bytes]]:
        """Java ``FileIndexFormat.Reader.readAll()``: the payload bytes Java slices out per index."""
        reader = self._container_reader(data, row_type)
        try:
            allmap = reader.readAll()
            return {str(c): {str(t): bytes(allmap.get(c).get(t)) for t in allmap.get(c).keySet()}
                    for c in allmap.keySet()}
        finally:
            reader.close()

    def predicate(self, row_type: RowType, tree: Mapping[str, Any]) -> Any:
        """A Java ``Predicate`` from a golden-sidecar style tree with Python literal values.

        Ops: equal / not_equal (``literal``), in / not_in (``literals``; via PredicateBuilder, so
        <= 20 literals become OR-of-Equal / AND-of-NotEqual), in_leaf / not_in_leaf (an In/NotIn
        leaf built directly), is_null / is_not_null, and / or (``children``), plus lt / lte / gt /
        gte / between (``low``, ``high``) / starts_with.
        """
        pb = self.PredicateBuilder(self.row_type(row_type))
        return self._predicate(pb, row_type, tree)

    def _predicate(self, pb: Any, row_type: RowType, tree: Mapping[str, Any]) -> Any:
        op = tree["op"]
        if op in ("and", "or"):
            kids = self.java_list(self._predicate(pb, row_type, c) for c in tree["children"])
            return self.PredicateBuilder.and_(kids) if op == "and" else self.PredicateBuilder.or_(kids)
        col = tree["col"]
        idx = row_type.index_of(col)
        conv = self.converter(row_type.fields[idx].type)
        if op == "is_null":
            return pb.isNull(idx)
        if op == "is_not_null":
            return pb.isNotNull(idx)
        if op in ("in", "not_in", "in_leaf", "not_in_leaf"):
            lits = self.java_list(conv(v) for v in tree["literals"])
            if op == "in":
                return pb.in_(idx, lits)
            if op == "not_in":
                return pb.notIn(idx, lits)
            fn = self.In.INSTANCE if op == "in_leaf" else self.NotIn.INSTANCE
            jtype = self.data_type(row_type.fields[idx].type)
            return self.LeafPredicate(fn, jtype, idx, col, lits)
        if op == "between":
            return pb.between(idx, conv(tree["low"]), conv(tree["high"]))
        method = {"equal": "equal", "not_equal": "notEqual", "lt": "lessThan", "lte": "lessOrEqual",
                  "gt": "greaterThan", "gte": "greaterOrEqual", "starts_with": "startsWith"}[op]
        return getattr(pb, method)(idx, conv(tree["literal"]))

    def test_predicate(self, data: bytes, row_type: RowType, tree: Mapping[str, Any]) -> bool:
        """``new FileIndexPredicate(bytes, rowType).testPredicate(p)`` - what Paimon uses to prune."""
        fip = self.FileIndexPredicate(self.bytes_to_java(data), self.row_type(row_type))
        try:
            return bool(fip.testPredicate(self.predicate(row_type, tree)))
        finally:
            fip.close()

    def evaluate(self, data: bytes, row_type: RowType, tree: Mapping[str, Any],
                 reader_order: Sequence[str] = ("bitmap", "bloom-filter")) -> FileIndexResult:
        """Whole-predicate result of Java's ``FileIndexPredicateTest`` visitor.

        Java 0.9 collects a column's readers into an identity-hash set, so their order (which can
        change an empty-bitmap answer into SKIP) is random there; here it is fixed by ``reader_order``.
        """
        reader = self._container_reader(data, row_type)
        try:
            pred = self.predicate(row_type, tree)
            readers = self.HashMap()
            for col in _columns_of(tree):
                ordered = sorted(reader.readColumnIndex(col), key=lambda r: _reader_rank(r, reader_order))
                readers.put(col, self.java_list(ordered))
            test = self._test_ctor.newInstance(readers)
            return self.result(self._test_method.invoke(test, pred))
        finally:
            reader.close()

    def column_results(self, data: bytes, row_type: RowType, tree: Mapping[str, Any]) -> dict[str, FileIndexResult]:
        """For a predicate on ONE column: ``{index_type: result}`` with each of its Java readers alone.

        (Evaluated through the same visitor as :meth:`evaluate`, so an IN of <= 20 literals - an OR
        of Equal leaves - works too.)
        """
        cols = _columns_of(tree)
        if len(cols) != 1:
            raise ValueError(f"column_results needs a predicate on one column, got {cols}")
        reader = self._container_reader(data, row_type)
        try:
            pred = self.predicate(row_type, tree)
            out = {}
            for r in reader.readColumnIndex(cols[0]):
                readers = self.HashMap()
                readers.put(cols[0], self.java_list([r]))
                test = self._test_ctor.newInstance(readers)
                out[_reader_kind(r)] = self.result(self._test_method.invoke(test, pred))
            return out
        finally:
            reader.close()

    def index_result(self, index_type: str, t: DataType | str, payload: bytes, tree: Mapping[str, Any],
                     options: Mapping[str, Any] | None = None) -> FileIndexResult:
        """One index payload read by ``FileIndexer.create(...).createReader`` and asked a leaf predicate."""
        dt = _as_dtype(t)
        stream = self.ByteArraySeekableStream(self.bytes_to_java(payload))
        r = self.FileIndexer.create(index_type, self.data_type(dt), self.options(options)).createReader(
            stream, 0, len(payload))
        row_type = RowType((_field(tree.get("col", "v"), dt),))
        pred = self.predicate(row_type, dict(tree, col=tree.get("col", "v")))
        readers = self.HashMap()
        readers.put(row_type.fields[0].name, self.java_list([r]))
        return self.result(self._test_method.invoke(self._test_ctor.newInstance(readers), pred))

    # ------------------------------------------------------------------------------ deletion vectors

    def _make_path_factory_class(self):
        jp = self._jpype
        Path = self.Path

        @jp.JImplements("org.apache.paimon.utils.PathFactory")
        class _DirPathFactory:
            def __init__(self, directory: str, prefix: str) -> None:
                self.directory = directory
                self.prefix = prefix
                self.n = 0

            @jp.JOverride
            def newPath(self):
                # like Paimon's own factories, never hand out a name that is already taken
                while os.path.exists(os.path.join(self.directory, f"{self.prefix}-{self.n}")):
                    self.n += 1
                p = Path(os.path.join(self.directory, f"{self.prefix}-{self.n}"))
                self.n += 1
                return p

            @jp.JOverride
            def toPath(self, file_name):
                return Path(os.path.join(self.directory, str(file_name)))

        return _DirPathFactory

    def path_factory(self, directory: str | os.PathLike, prefix: str = "index-java") -> Any:
        os.makedirs(directory, exist_ok=True)
        return self._path_factory_cls(os.fspath(directory), prefix)

    def _dv_index_file(self, directory: str | os.PathLike, target_size: str, prefix: str) -> Any:
        return self.DeletionVectorsIndexFile(self.io, self.path_factory(directory, prefix),
                                             self.MemorySize.parse(target_size))

    def deletion_vector(self, positions: Iterable[int]) -> Any:
        """A Java ``BitmapDeletionVector`` built by ``delete(pos)`` per position."""
        dv = self.BitmapDeletionVector()
        for p in positions:
            dv.delete(int(p))
        return dv

    def dv_positions(self, dv: Any) -> BitMap:
        """Positions of a Java deletion vector (via its own serialisation: magic + Roaring32)."""
        raw = bytes(dv.serializeToBytes())
        if int.from_bytes(raw[:4], "big") != DV_MAGIC:
            raise ValueError("unexpected deletion-vector magic from Java")
        return BitMap.deserialize(raw[4:])

    def write_deletion_vectors(self, directory: str | os.PathLike, dvs: Mapping[str, Iterable[int]],
                               target_size: str = "2 mb", prefix: str = "index-java") -> list[dict]:
        """Java ``DeletionVectorsIndexFile.write``; one dict per written file:
        ``{"file_name", "file_size", "row_count", "ranges": {data_file: (offset, length)}}``."""
        m = self.LinkedHashMap()
        for name, positions in dvs.items():
            m.put(name, self.deletion_vector(positions))
        metas = self._dv_index_file(directory, target_size, prefix).write(m)
        out = []
        for meta in metas:
            ranges = meta.deletionVectorsRanges()
            out.append({
                "file_name": str(meta.fileName()),
                "file_size": int(meta.fileSize()),
                "row_count": int(meta.rowCount()),
                "ranges": {str(k): (int(ranges.get(k).getLeft()), int(ranges.get(k).getRight()))
                           for k in ranges.keySet()},
            })
        return out

    def read_all_deletion_vectors(self, directory: str | os.PathLike, file_name: str,
                                  ranges: Mapping[str, tuple[int, int]], file_size: int | None = None,
                                  ) -> dict[str, BitMap]:
        """Java ``DeletionVectorsIndexFile.readAllDeletionVectors(IndexFileMeta)`` with our ranges."""
        jr = self.LinkedHashMap()
        for name, (off, length) in ranges.items():
            jr.put(name, self.Pair.of(self.Integer(int(off)), self.Integer(int(length))))
        if file_size is None:
            file_size = os.path.getsize(os.path.join(directory, file_name))
        meta = self.IndexFileMeta("DELETION_VECTORS", file_name, int(file_size), len(ranges), jr)
        got = self._dv_index_file(directory, "2 mb", "unused").readAllDeletionVectors(meta)
        return {str(k): self.dv_positions(got.get(k)) for k in got.keySet()}

    def read_deletion_vector(self, path: str | os.PathLike, offset: int, length: int) -> BitMap:
        """Java ``DeletionVectorsIndexFile.readDeletionVector(DeletionFile(path, offset, length))``."""
        directory = os.path.dirname(os.fspath(path))
        dvif = self._dv_index_file(directory, "2 mb", "unused")
        dv = dvif.readDeletionVector(self.DeletionFile(os.fspath(path), int(offset), int(length)))
        return self.dv_positions(dv)

    # ------------------------------------------------------------------------------ hash index

    def write_hash_index(self, directory: str | os.PathLike, ints: Sequence[int] | np.ndarray,
                         prefix: str = "index-java") -> str:
        """Java ``HashIndexFile.write(IntIterator.create(int[]))``; returns the file name."""
        arr = self.JIntArray(np.ascontiguousarray(np.asarray(ints, dtype=np.int32)))
        hif = self.HashIndexFile(self.io, self.path_factory(directory, prefix))
        return str(hif.write(self.IntIterator.create(arr)))

    def read_hash_index(self, directory: str | os.PathLike, file_name: str) -> np.ndarray:
        """Java ``HashIndexFile.read(name)`` drained with ``IntIterator.toInts``."""
        hif = self.HashIndexFile(self.io, self.path_factory(directory, "unused"))
        it = hif.read(file_name)
        try:
            return np.array(self.IntIterator.toInts(it), dtype=np.int32)
        finally:
            it.close()

    # ------------------------------------------------------------------------------ BinaryRow, bucket

    def _projection(self, types: Sequence[DataType | str]) -> Any:
        key = tuple(str(t) for t in types)
        proj = self._projections.get(key)
        if proj is None:
            row_type = RowType(tuple(_field(f"f{i}", _as_dtype(t)) for i, t in enumerate(types)))
            proj = self.CodeGenUtils.newProjection(self.row_type(row_type), self.JIntArray(list(range(len(types)))))
            self._projections[key] = proj
        return proj

    def binary_row(self, types: Sequence[DataType | str], values: Sequence[Any]) -> tuple[bytes, int]:
        """``(bytes, hashCode())`` of the key row Paimon builds from ``values``.

        Uses ``CodeGenUtils.newProjection`` - the generated projection Paimon's key/bucket extractors
        use - rather than ``InternalRowSerializer.toBinaryRow``: the two differ for a NULL
        non-compact DECIMAL / TIMESTAMP (the projection still reserves its variable-part bytes).
        """
        if len(types) != len(values):
            raise ValueError("types and values differ in length")
        proj = self._projection(types)
        fields = [self.to_java(t, v) for t, v in zip(types, values, strict=True)]
        row = proj.apply(self.GenericRow.of(self._jpype.JArray(self._jpype.JObject)(fields)))
        return bytes(row.toBytes()), int(row.hashCode())

    def simple_hash_bucket_assigner(self, num_assigners: int, assign_id: int, target_row_num: int):
        """Java ``SimpleHashBucketAssigner``; returns ``assign(hash, partition_row_bytes=b"") -> bucket``."""
        assigner = self.SimpleHashBucketAssigner(int(num_assigners), int(assign_id), self._jpype.JLong(target_row_num))
        partitions: dict[bytes, Any] = {}

        def assign(hash_code: int, partition: tuple[Sequence[DataType | str], Sequence[Any]] | None = None) -> int:
            key = repr(partition).encode()
            row = partitions.get(key)
            if row is None:
                if partition is None:
                    row = self.BinaryRow.EMPTY_ROW
                else:
                    proj = self._projection(partition[0])
                    row = proj.apply(self.GenericRow.of(self._jpype.JArray(self._jpype.JObject)(
                        [self.to_java(t, v) for t, v in zip(partition[0], partition[1], strict=True)]))).copy()
                partitions[key] = row
            return int(assigner.assign(row, self._jpype.JInt(hash_code)))

        return assign

    # ------------------------------------------------------------------------------ tables

    def read_table(self, warehouse: str | os.PathLike, database: str, table: str,
                   where: Mapping[str, Any] | None = None) -> tuple[RowType, list[tuple], list[str]]:
        """Read a filesystem-catalog table with Paimon's own catalog, scan and reader.

        Returns ``(row type, rows, data files the scan kept)``; rows as tuples of Python values (our
        conventions), deletion vectors applied.  With ``where`` (a predicate tree as in
        :meth:`predicate`) the scan prunes files with stats and embedded indexes and the reader
        filters rows (``executeFilter``).
        """
        J = self._jpype.JClass
        try:
            CatalogFactory = J("org.apache.paimon.catalog.CatalogFactory")
            CatalogContext = J("org.apache.paimon.catalog.CatalogContext")
        except Exception as exc:  # NoClassDefFoundError: org/apache/hadoop/conf/Configuration
            raise JavaUnavailable(f"Paimon's catalog needs Hadoop client jars on the classpath: {exc}") from exc
        opts = self.Options()
        opts.set("warehouse", os.fspath(warehouse))
        catalog = CatalogFactory.createCatalog(CatalogContext.create(opts))
        try:
            t = catalog.getTable(J("org.apache.paimon.catalog.Identifier").create(database, table))
            jrt = t.rowType()
            row_type = RowType(tuple(_field(str(f.name()), parse_type(str(f.type().asSQLString())))
                                     for f in jrt.getFields()))
            rb = t.newReadBuilder()
            if where is not None:
                rb = rb.withFilter(self.predicate(row_type, where))
            splits = rb.newScan().plan().splits()
            kept = [str(f.fileName()) for sp in splits for f in sp.dataFiles()]
            read = rb.newRead()
            if where is not None:
                read = read.executeFilter()
            it = J("org.apache.paimon.reader.RecordReaderIterator")(read.createReader(splits))
            getters = [self._getter(i, f.type) for i, f in enumerate(row_type.fields)]
            rows = []
            try:
                while it.hasNext():
                    r = it.next()
                    rows.append(tuple(None if r.isNullAt(i) else g(r) for i, g in enumerate(getters)))
            finally:
                it.close()
            return row_type, rows, kept
        finally:
            catalog.close()

    @staticmethod
    def _getter(i: int, dt: DataType):
        r = dt.root
        if r in ("INTEGER", "DATE", "TIME_WITHOUT_TIME_ZONE"):
            return lambda row: int(row.getInt(i))
        if r == "BIGINT":
            return lambda row: int(row.getLong(i))
        if r == "SMALLINT":
            return lambda row: int(row.getShort(i))
        if r == "TINYINT":
            return lambda row: int(row.getByte(i))
        if r in ("FLOAT", "DOUBLE"):
            return (lambda row: float(row.getFloat(i))) if r == "FLOAT" else (lambda row: float(row.getDouble(i)))
        if r == "BOOLEAN":
            return lambda row: bool(row.getBoolean(i))
        if dt.is_string:
            return lambda row: str(row.getString(i).toString())
        if dt.is_binary:
            return lambda row: bytes(row.getBinary(i))
        if dt.is_timestamp:
            p = dt.precision if dt.precision is not None else 6

            def ts(row):
                v = row.getTimestamp(i, p)
                return Timestamp(int(v.getMillisecond()), int(v.getNanoOfMillisecond()))
            return ts
        raise TypeError(f"no getter for {dt}")

    def bucket(self, hash_code: int, num_buckets: int) -> int:
        """Fixed-bucket mode: ``KeyAndBucketExtractor.bucket(hash, numBuckets)``."""
        return int(self.KeyAndBucketExtractor.bucket(self._jpype.JInt(hash_code), self._jpype.JInt(num_buckets)))


def _field(name: str, dt: DataType):
    from paimon_codec.types import Field

    return Field(name, dt)


def _columns_of(tree: Mapping[str, Any]) -> list[str]:
    if tree["op"] in ("and", "or"):
        out: list[str] = []
        for c in tree["children"]:
            for col in _columns_of(c):
                if col not in out:
                    out.append(col)
        return out
    return [tree["col"]]


def _reader_kind(reader: Any) -> str:
    name = str(reader.getClass().getName())
    if "bitmap.BitmapFileIndex" in name:
        return "bitmap"
    if "bloomfilter.BloomFilterFileIndex" in name:
        return "bloom-filter"
    if "EmptyFileIndexReader" in name:
        return "empty"
    return name


def _reader_rank(reader: Any, order: Sequence[str]) -> int:
    kind = _reader_kind(reader)
    return order.index(kind) if kind in order else len(order)

