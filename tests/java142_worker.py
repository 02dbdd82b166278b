"""Subprocess worker: runs a JSON list of table operations with newest Paimon Java (JPype).

Used by :mod:`tests.java142` (the pytest process already hosts the Paimon 0.9 JVM and JPype allows
one JVM per process).  Reads ``{"jars": [...], "ops": [...]}`` from stdin, prints one JSON line
``{"results": [...]}`` (or ``{"error": "..."}``).  Values travel as JSON with typed encodings:
floats as ``{"bits": "<hex>"}`` (64-bit bits in, a FLOAT column's 32-bit bits out) (keeps -0.0 and NaN), timestamps as ``{"millis": m, "nanos": n}``.
"""

from __future__ import annotations

import json
import sys
import traceback


def main() -> None:
    spec = json.loads(sys.stdin.read())
    import jpype
    import jpype.imports  # noqa: F401

    jpype.startJVM(classpath=spec["jars"], convertStrings=True)
    from java.lang import Double, Float
    from java.util import ArrayList
    from org.apache.paimon.catalog import CatalogContext, CatalogFactory, Identifier
    from org.apache.paimon.data import BinaryString, GenericRow, Timestamp
    from org.apache.paimon.options import Options
    from org.apache.paimon.predicate import PredicateBuilder
    from org.apache.paimon.schema import Schema, SchemaChange
    from org.apache.paimon.types import DataTypeJsonParser

    catalogs: dict = {}

    def catalog(warehouse: str):
        if warehouse not in catalogs:
            o = Options()
            o.set("warehouse", warehouse)
            catalogs[warehouse] = CatalogFactory.createCatalog(CatalogContext.create(o))
        return catalogs[warehouse]

    def ident(name: str):
        db, _, t = name.partition(".")
        return Identifier.create(db, t)

    def parse_type(text: str):
        return DataTypeJsonParser.parseAtomicTypeSQLString(text)

    def to_java(dtype, v):
        if v is None:
            return None
        root = str(dtype.getTypeRoot())
        if root == "DOUBLE":
            bits = int(v["bits"], 16)
            return Double(Double.longBitsToDouble(bits - (1 << 64) if bits >> 63 else bits))
        if root == "FLOAT":  # sent as the double's bits; (float) keeps -0.0, NaN and infinities
            bits = int(v["bits"], 16)
            return Float(Double(Double.longBitsToDouble(bits - (1 << 64) if bits >> 63 else bits)).floatValue())
        if root in ("CHAR", "VARCHAR"):
            return BinaryString.fromString(v)
        if root.startswith("TIMESTAMP"):
            return Timestamp.fromEpochMillis(int(v["millis"]), int(v["nanos"]))
        if root == "BIGINT":
            return jpype.JLong(v)
        if root in ("INTEGER", "DATE"):
            return jpype.JInt(v)
        if root == "BOOLEAN":
            return jpype.JBoolean(v)
        raise ValueError(f"worker cannot convert {root}")

    def from_java(dtype, row, i):
        if row.isNullAt(i):
            return None
        root = str(dtype.getTypeRoot())
        if root == "DOUBLE":
            return {"bits": "%016x" % (int(Double.doubleToRawLongBits(row.getDouble(i))) & ((1 << 64) - 1))}
        if root == "FLOAT":
            return {"bits": "%08x" % (int(Float.floatToRawIntBits(row.getFloat(i))) & 0xFFFFFFFF)}
        if root in ("CHAR", "VARCHAR"):
            return str(row.getString(i).toString())
        if root.startswith("TIMESTAMP"):
            ts = row.getTimestamp(i, dtype.getPrecision())
            return {"millis": int(ts.getMillisecond()), "nanos": int(ts.getNanoOfMillisecond())}
        if root == "BIGINT":
            return int(row.getLong(i))
        if root in ("INTEGER", "DATE"):
            return int(row.getInt(i))
        if root == "BOOLEAN":
            return bool(row.getBoolean(i))
        raise ValueError(f"worker cannot read {root}")

    def predicate(row_type, pb, p):
        op = p[0]
        if op in ("and", "or"):
            parts = ArrayList()
            for c in p[1:]:
                parts.add(predicate(row_type, pb, c))
            return PredicateBuilder.and_(parts) if op == "and" else PredicateBuilder.or_(parts)
        idx = row_type.getFieldIndex(p[1])
        dtype = row_type.getTypeAt(idx)
        lits = [to_java(dtype, v) for v in p[2:]]
        if op == "is_null":
            return pb.isNull(idx)
        if op == "is_not_null":
            return pb.isNotNull(idx)
        if op in ("in", "not_in"):
            arr = ArrayList()
            for v in lits:
                arr.add(v)
            return pb.in_(idx, arr) if op == "in" else pb.notIn(idx, arr)
        if op == "between":
            return pb.between(idx, lits[0], lits[1])
        fn = {"eq": "equal", "neq": "notEqual", "lt": "lessThan", "lte": "lessOrEqual", "gt": "greaterThan",
              "gte": "greaterOrEqual"}[op]
        return getattr(pb, fn)(idx, lits[0])

    def run(op):
        cat = catalog(op["warehouse"])
        kind = op["op"]
        if kind == "create":
            db = op["table"].partition(".")[0]
            cat.createDatabase(db, True)
            b = Schema.newBuilder()
            for name, text in op["columns"]:
                b.column(name, parse_type(text))
            if op.get("primary_keys"):
                b.primaryKey(ArrayList(op["primary_keys"]))
            if op.get("partition_keys"):
                b.partitionKeys(ArrayList(op["partition_keys"]))
            for k, v in (op.get("options") or {}).items():
                b.option(k, str(v))
            cat.dropTable(ident(op["table"]), True)
            cat.createTable(ident(op["table"]), b.build(), False)
            return None
        table = cat.getTable(ident(op["table"]))
        row_type = table.rowType()
        if kind == "write":
            wb = table.newBatchWriteBuilder()
            w = wb.newWrite()
            n = row_type.getFieldCount()
            for values in op["rows"]:
                row = GenericRow(n)
                for i in range(n):
                    row.setField(i, to_java(row_type.getTypeAt(i), values[i]))
                w.write(row)
            c = wb.newCommit()
            c.commit(w.prepareCommit())
            w.close()
            c.close()
            return None
        if kind == "alter":
            changes = ArrayList()
            for ch in op["changes"]:
                if ch[0] == "rename":
                    changes.add(SchemaChange.renameColumn(ch[1], ch[2]))
                elif ch[0] == "type":
                    changes.add(SchemaChange.updateColumnType(ch[1], parse_type(ch[2])))
                elif ch[0] == "drop":
                    changes.add(SchemaChange.dropColumn(ch[1]))
                elif ch[0] == "add":
                    changes.add(SchemaChange.addColumn(ch[1], parse_type(ch[2])))
                elif ch[0] == "set":
                    changes.add(SchemaChange.setOption(ch[1], ch[2]))
            cat.alterTable(ident(op["table"]), changes, False)
            return None
        if kind == "read":
            rb = table.newReadBuilder()
            if op.get("where"):
                rb = rb.withFilter(predicate(row_type, PredicateBuilder(row_type), op["where"]))
            read = rb.newRead()
            if op.get("where"):
                read = read.executeFilter()
            reader = read.createReader(rb.newScan().plan().splits())
            it = reader.toCloseableIterator()
            out = []
            n = row_type.getFieldCount()
            while it.hasNext():
                row = it.next()
                out.append([from_java(row_type.getTypeAt(i), row, i) for i in range(n)])
            it.close()
            return out
        raise ValueError(f"unknown op {kind}")

    results = []
    for op in spec["ops"]:
        try:
            results.append({"ok": run(op)})
        except Exception as exc:  # noqa: BLE001 - reported to the caller, which decides
            results.append({"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc()[-2000:]})
    sys.stdout.write("\n" + json.dumps({"results": results}) + "\n")


if __name__ == "__main__":
    main()
