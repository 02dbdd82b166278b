"""Subprocess worker: write primary-key tables with the newest Paimon Java and read them back.

Run as ``python tests/_java_pk_driver.py < request.json > tables.json`` (JPype allows one JVM per process and
the pytest process hosts Paimon 0.9).  The request is ``{"jars": [...], "tables": [spec, ...]}``, each
spec::

    {"warehouse": "...", "table": "db.t",
     "columns": [["id", "INT NOT NULL"], ["v", "STRING"]], "primary_keys": ["id"],
     "partition_keys": [], "options": {...},
     "steps": [{"rows": [[1, "a"], ...], "kinds": ["+I", ...]}, {"compact": true}, ...]}

prints one ``{"columns": [...], "rows": [[...], ...]}`` per spec: Java's own batch read of the latest
snapshot.  A step that fails in Java (e.g. a merge engine refusing a record) gives ``{"error": "..."}``.
"""

from __future__ import annotations

import json
import sys


def main() -> None:
    request = json.load(sys.stdin)
    import jpype
    import jpype.imports

    jpype.startJVM(classpath=request["jars"], convertStrings=True)
    out = []
    for spec in request["tables"]:
        try:
            out.append(_write_and_read(spec))
        except Exception as exc:  # noqa: BLE001 - a Java-side failure is a result the test compares
            out.append({"error": str(exc).splitlines()[0] if str(exc) else type(exc).__name__})
    json.dump(out, sys.stdout)


def _write_and_read(spec: dict) -> dict:
    import jpype
    from org.apache.paimon.catalog import CatalogContext, CatalogFactory, Identifier
    from org.apache.paimon.data import BinaryRow, BinaryString, GenericRow
    from org.apache.paimon.disk import IOManager
    from org.apache.paimon.options import Options
    from org.apache.paimon.schema import Schema
    from org.apache.paimon.types import DataTypes, RowKind

    types = {"INT": DataTypes.INT(), "BIGINT": DataTypes.BIGINT(), "STRING": DataTypes.STRING(),
             "DOUBLE": DataTypes.DOUBLE(), "BOOLEAN": DataTypes.BOOLEAN(), "FLOAT": DataTypes.FLOAT()}
    opts = Options()
    opts.set("warehouse", spec["warehouse"])
    catalog = CatalogFactory.createCatalog(CatalogContext.create(opts))
    db, name = spec["table"].split(".")
    catalog.createDatabase(db, True)
    builder = Schema.newBuilder()
    kinds_of_column = []
    for col, typ in spec["columns"]:
        base = typ.replace(" NOT NULL", "")
        t = types[base]
        builder.column(col, t.notNull() if "NOT NULL" in typ else t)
        kinds_of_column.append(base)
    builder.primaryKey(*spec["primary_keys"])
    if spec.get("partition_keys"):
        builder.partitionKeys(*spec["partition_keys"])
    for k, v in spec.get("options", {}).items():
        builder.option(k, str(v))
    ident = Identifier.create(db, name)
    catalog.createTable(ident, builder.build(), False)
    table = catalog.getTable(ident)

    def java_value(base, v):
        if v is None:
            return None
        if base == "INT":
            return jpype.JInt(v)
        if base == "BIGINT":
            return jpype.JLong(v)
        if base == "STRING":
            return BinaryString.fromString(v)
        if base == "DOUBLE":
            return jpype.JDouble(v)
        if base == "FLOAT":
            return jpype.JFloat(v)
        if base == "BOOLEAN":
            return jpype.JBoolean(v)
        raise ValueError(base)

    kind_bytes = {"+I": 0, "-U": 1, "+U": 2, "-D": 3}
    for step in spec["steps"]:
        wb = table.newBatchWriteBuilder()
        write = wb.newWrite()
        write.withIOManager(IOManager.create(spec["warehouse"] + "/.io-tmp"))  # lookup compaction spills here
        if step.get("compact"):
            buckets = int(spec.get("options", {}).get("bucket", "1"))
            for b in range(buckets):
                write.compact(BinaryRow.EMPTY_ROW, b, True)
        else:
            kinds = step.get("kinds") or ["+I"] * len(step["rows"])
            for row, kind in zip(step["rows"], kinds, strict=True):
                values = [java_value(base, v) for base, v in zip(kinds_of_column, row, strict=True)]
                write.write(GenericRow.ofKind(RowKind.fromByteValue(jpype.JByte(kind_bytes[kind])), *values))
        commit = wb.newCommit()
        commit.commit(write.prepareCommit())
        write.close()
        commit.close()

    rb = table.newReadBuilder()
    reader = rb.newRead().createReader(rb.newScan().plan().splits())
    it = reader.toCloseableIterator()
    rows = []
    while it.hasNext():
        r = it.next()
        out = []
        for i, base in enumerate(kinds_of_column):
            if r.isNullAt(i):
                out.append(None)
            elif base == "INT":
                out.append(int(r.getInt(i)))
            elif base == "BIGINT":
                out.append(int(r.getLong(i)))
            elif base == "STRING":
                out.append(str(r.getString(i)))
            elif base == "DOUBLE":
                out.append(float(r.getDouble(i)))
            elif base == "FLOAT":
                out.append(float(r.getFloat(i)))
            elif base == "BOOLEAN":
                out.append(bool(r.getBoolean(i)))
        rows.append(out)
    it.close()
    return {"columns": [c for c, _ in spec["columns"]], "rows": rows}


if __name__ == "__main__":
    main()
