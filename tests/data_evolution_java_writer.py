"""Newest Paimon Java writes a data-evolution table commit by commit, then reads it its own way.

Run in a subprocess (one JVM per process): ``python data_evolution_java_writer.py SPEC.json OUT.json CP...``.
``SPEC``: ``warehouse``, ``name``, ``fields`` (``[[name, "INT"|"BIGINT"|"DOUBLE"|"STRING"], ...]``),
``partition_keys``, ``options`` and ``steps``, each either a write ``{"cols": [...], "rows": [[...]],
"first_row_id": null | N}`` (``first_row_id`` set = a partial-column update of the rows from N, the
way Paimon's own tests write one: ``withWriteType`` + ``DataFileMeta.assignFirstRowId``) or a
schema change (``{"rename": [old, new]}``, ``{"drop": name}``, ``{"add": [name, type]}``,
``{"retype": [name, type]}``) or ``{"together": [write, ...]}`` (one commit); ``read: false`` skips the read.  ``OUT``: ``{"path", "fields", "rows"}`` of Java's read of the latest
snapshot.
"""

from __future__ import annotations

import json
import sys


def main(spec_path: str, out_path: str, classpath: list[str]) -> None:
    import jpype
    import jpype.imports  # noqa: F401

    jpype.startJVM(classpath=classpath, convertStrings=True)
    J = jpype.JClass
    Options = J("org.apache.paimon.options.Options")
    CatalogFactory = J("org.apache.paimon.catalog.CatalogFactory")
    CatalogContext = J("org.apache.paimon.catalog.CatalogContext")
    Identifier = J("org.apache.paimon.catalog.Identifier")
    Schema = J("org.apache.paimon.schema.Schema")
    SchemaChange = J("org.apache.paimon.schema.SchemaChange")
    DataTypes = J("org.apache.paimon.types.DataTypes")
    GenericRow = J("org.apache.paimon.data.GenericRow")
    BinaryString = J("org.apache.paimon.data.BinaryString")
    ArrayList = J("java.util.ArrayList")
    Arrays = J("java.util.Arrays")

    with open(spec_path) as fh:
        spec = json.load(fh)
    types = {"INT": DataTypes.INT(), "BIGINT": DataTypes.BIGINT(), "DOUBLE": DataTypes.DOUBLE(),
             "STRING": DataTypes.STRING()}
    options = Options()
    options.set("warehouse", spec["warehouse"])
    catalog = CatalogFactory.createCatalog(CatalogContext.create(options))
    catalog.createDatabase("db", True)
    builder = Schema.newBuilder()
    for name, t in spec["fields"]:
        builder.column(name, types[t])
    if spec.get("partition_keys"):
        builder.partitionKeys(Arrays.asList(*spec["partition_keys"]))
    for k, v in spec.get("options", {}).items():
        builder.option(k, v)
    ident = Identifier.create("db", spec["name"])
    catalog.createTable(ident, builder.build(), False)

    def java_value(value, dtype):
        if value is None:
            return None
        root = str(dtype.getTypeRoot())
        if root == "INTEGER":
            return jpype.JInt(value)
        if root == "BIGINT":
            return jpype.JLong(value)
        if root == "DOUBLE":
            return jpype.JDouble(value)
        return BinaryString.fromString(value)

    def prepare(table, step):
        write_type = table.rowType().project(Arrays.asList(*step["cols"]))
        write = table.newBatchWriteBuilder().newWrite().withWriteType(write_type)
        fields = list(write_type.getFields())
        for row in step["rows"]:
            jrow = GenericRow(len(fields))
            for i, (v, f) in enumerate(zip(row, fields, strict=True)):
                jrow.setField(i, java_value(v, f.type()))
            write.write(jrow)
        messages = write.prepareCommit()
        write.close()
        if step.get("first_row_id") is not None:
            for m in messages:
                files = m.newFilesIncrement().newFiles()
                assigned = ArrayList()
                for f in files:
                    assigned.add(f.assignFirstRowId(step["first_row_id"]))
                files.clear()
                files.addAll(assigned)
        return list(messages)

    for step in spec["steps"]:
        if "rename" in step:
            old, new = step["rename"]
            catalog.alterTable(ident, Arrays.asList(SchemaChange.renameColumn(old, new)), False)
            continue
        if "drop" in step:
            catalog.alterTable(ident, Arrays.asList(SchemaChange.dropColumn(step["drop"])), False)
            continue
        if "add" in step:
            name, t = step["add"]
            catalog.alterTable(ident, Arrays.asList(SchemaChange.addColumn(name, types[t])), False)
            continue
        if "retype" in step:
            name, t = step["retype"]
            catalog.alterTable(ident, Arrays.asList(SchemaChange.updateColumnType(name, types[t])), False)
            continue
        table = catalog.getTable(ident)
        messages = ArrayList()
        for one in step.get("together", [step]):  # several writes in one commit
            for m in prepare(table, one):
                messages.add(m)
        commit = table.newBatchWriteBuilder().newCommit()
        commit.commit(messages)
        commit.close()

    table = catalog.getTable(ident)
    row_type = table.rowType()
    path = str(table.location().toString()).removeprefix("file:")
    names = [str(f.name()) for f in row_type.getFields()]
    if not spec.get("read", True):
        with open(out_path, "w") as fh:
            json.dump({"path": path, "fields": names, "rows": None}, fh)
        return
    rb = table.newReadBuilder()
    reader = rb.newRead().createReader(rb.newScan().plan().splits())
    it = reader.toCloseableIterator()
    getters = []
    for i, f in enumerate(row_type.getFields()):
        root = str(f.type().getTypeRoot())
        getters.append((i, root))
    rows = []
    while it.hasNext():
        r = it.next()
        out = []
        for i, root in getters:
            if r.isNullAt(i):
                out.append(None)
            elif root == "INTEGER":
                out.append(int(r.getInt(i)))
            elif root == "BIGINT":
                out.append(int(r.getLong(i)))
            elif root == "DOUBLE":
                out.append(float(r.getDouble(i)))
            else:
                out.append(str(r.getString(i)))
        rows.append(out)
    it.close()
    with open(out_path, "w") as fh:
        json.dump({"path": path, "fields": names, "rows": rows}, fh)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
