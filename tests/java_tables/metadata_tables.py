"""Write Paimon tables with the newest Paimon Java (run as a subprocess: one JVM per process).

``python metadata_tables.py <warehouse> <out.json>`` writes the tables of the table-metadata tests
(manifest.format orc/parquet, index files in data dirs, external paths, path directory, postpone
bucket, branches, tags, fallback branch) and records, for each read the tests check, what Java's own
batch scan plans (data file names) and returns (rows).
"""

from __future__ import annotations

import json
import os
import sys

import jpype
import jpype.imports

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from oracles.java_jars import newest_java_classpath  # noqa: E402 - tests/ on the path first


def main(warehouse: str, out_path: str) -> None:
    jars = newest_java_classpath()
    jpype.startJVM(classpath=jars, convertStrings=True)
    from org.apache.paimon.catalog import CatalogContext, CatalogFactory, Identifier
    from org.apache.paimon.data import BinaryString, GenericRow
    from org.apache.paimon.disk import IOManager
    from org.apache.paimon.options import Options
    from org.apache.paimon.schema import Schema, SchemaChange
    from org.apache.paimon.types import DataTypes

    io_dir = os.path.join(warehouse, "_io")
    os.makedirs(io_dir, exist_ok=True)
    opts = Options()
    opts.set("warehouse", os.path.join(warehouse, "wh"))
    cat = CatalogFactory.createCatalog(CatalogContext.create(opts))
    cat.createDatabase("db", True)
    results: dict[str, dict] = {}

    def ident(name: str):
        return Identifier.create("db", name)

    def create(name: str, options: dict, pk: bool = False, part: bool = False):
        b = Schema.newBuilder().column("id", DataTypes.INT()).column("v", DataTypes.STRING()) \
            .column("p", DataTypes.INT())
        if pk:
            b = b.primaryKey(["id", "p"] if part else ["id"])
        if part:
            b = b.partitionKeys(["p"])
        for k, v in options.items():
            b = b.option(k, v)
        cat.createTable(ident(name), b.build(), False)
        return cat.getTable(ident(name))

    def write(table, rows):
        wb = table.newBatchWriteBuilder()
        w = wb.newWrite()
        w.withIOManager(IOManager.create(io_dir))
        for i, s, p in rows:
            w.write(GenericRow.of(jpype.JInt(i), BinaryString.fromString(s), jpype.JInt(p)))
        c = wb.newCommit()
        c.commit(w.prepareCommit())
        w.close()
        c.close()

    def rows_of(ids, tag="v"):
        return [(i, f"{tag}{i}", i % 2) for i in ids]

    def record(key: str, table, dynamic: dict | None = None):
        if dynamic:
            from java.util import HashMap

            m = HashMap()
            for k, v in dynamic.items():
                m.put(k, v)
            table = table.copy(m)
        rb = table.newReadBuilder()
        splits = rb.newScan().plan().splits()
        files = sorted(str(f.fileName()) for s in splits for f in s.dataFiles())
        it = rb.newRead().createReader(splits).toCloseableIterator()
        rows = []
        while it.hasNext():
            r = it.next()
            rows.append([int(r.getInt(0)), str(r.getString(1)), int(r.getInt(2))])
        it.close()
        results[key] = {"files": files, "rows": sorted(rows)}

    for fmt in ("orc", "parquet"):
        t = create(f"manifest_{fmt}", {"manifest.format": fmt, "bucket": "2", "bucket-key": "id",
                                       "file-index.bitmap.columns": "v"}, part=True)
        write(t, rows_of(range(10)))
        write(t, rows_of(range(10, 20)))
        record(f"manifest_{fmt}", t)
        t = create(f"manifest_{fmt}_dv", {"manifest.format": fmt, "bucket": "1", "deletion-vectors.enabled": "true"},
                   pk=True)
        write(t, rows_of(range(8)))
        write(t, rows_of(range(3), "w"))
        record(f"manifest_{fmt}_dv", t)

    t = create("dv_in_data_dir", {"index-file-in-data-file-dir": "true", "deletion-vectors.enabled": "true",
                                  "bucket": "2"}, pk=True, part=True)
    write(t, rows_of(range(12)))
    write(t, rows_of(range(0, 12, 3), "w"))
    record("dv_in_data_dir", t)

    ext = os.path.join(warehouse, "external")
    os.makedirs(ext, exist_ok=True)
    t = create("external", {"data-file.external-paths": "FILE://" + ext, "data-file.external-paths.strategy":
                            "round-robin", "bucket": "1", "bucket-key": "id", "file-index.bitmap.columns": "v"})
    write(t, rows_of(range(6)))
    record("external", t)
    t = create("external_dv", {"data-file.external-paths": "file://" + ext, "data-file.external-paths.strategy":
                               "round-robin", "bucket": "1", "deletion-vectors.enabled": "true",
                               "index-file-in-data-file-dir": "true"}, pk=True)
    write(t, rows_of(range(6)))
    write(t, rows_of(range(2), "w"))
    record("external_dv", t)

    t = create("changelog", {"bucket": "1", "deletion-vectors.enabled": "true", "changelog-producer": "input"},
               pk=True)
    write(t, rows_of(range(6)))
    write(t, rows_of(range(3), "w"))
    record("changelog", t)

    t = create("path_directory", {"data-file.path-directory": "data", "bucket": "1", "bucket-key": "id"}, part=True)
    write(t, rows_of(range(6)))
    record("path_directory", t)

    t = create("postpone", {"bucket": "-2"}, pk=True)
    write(t, rows_of(range(6)))
    record("postpone", t)

    t = create("branched", {"bucket": "1", "bucket-key": "id"})
    write(t, rows_of(range(4)))
    t.createTag("t1", 1)
    write(t, rows_of(range(4, 7)))
    t.createBranch("b1", "t1")
    write(cat.getTable(ident("branched$branch_b1")), rows_of(range(100, 103)))
    t = cat.getTable(ident("branched"))
    record("branched", t)
    record("branched@tag=t1", t, {"scan.tag-name": "t1"})
    record("branched@snapshot=1", t, {"scan.snapshot-id": "1"})
    record("branched$branch_b1", cat.getTable(ident("branched$branch_b1")))
    snap1_ms = int(t.snapshotManager().snapshot(1).timeMillis())
    results["branched@snapshot=1"]["time_millis"] = snap1_ms

    t = create("fallback", {"bucket": "1", "bucket-key": "id"}, part=True)
    write(t, [(1, "main", 0)])
    t.createBranch("fb")
    write(cat.getTable(ident("fallback$branch_fb")), [(2, "fb0", 0), (3, "fb1", 1)])
    cat.alterTable(ident("fallback"), SchemaChange.setOption("scan.fallback-branch", "fb"), False)
    record("fallback", cat.getTable(ident("fallback")))

    with open(out_path, "w") as fh:
        json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
