"""Subprocess: write (not commit) Paimon Java global-index files of one STRING column (tests only).

``python java_global_index_worker.py TABLE_PATH COLUMN INDEX_TYPE VALUE...`` with the classpath in
``$PAIMON_CLASSPATH`` (``os.pathsep``-separated); ``-`` stands for a NULL value.  The table oracle
(:mod:`oracles.java_newest`) has no global-index call, and JPype allows one JVM per process, so this
runs in its own process through ``GlobalIndexBuilderUtils.createIndexWriter`` - what Paimon's
``create_global_index`` procedures use.
"""

from __future__ import annotations

import os
import sys


def main(table_path: str, column: str, index_type: str, values: list[str]) -> None:
    import jpype
    import jpype.imports  # noqa: F401

    jpype.startJVM(classpath=os.environ["PAIMON_CLASSPATH"].split(os.pathsep), convertStrings=True)
    from org.apache.paimon.data import BinaryString
    from org.apache.paimon.fs import Path as JPath
    from org.apache.paimon.fs.local import LocalFileIO
    from org.apache.paimon.globalindex import GlobalIndexBuilderUtils
    from org.apache.paimon.options import Options
    from org.apache.paimon.table import FileStoreTableFactory

    table = FileStoreTableFactory.create(LocalFileIO.create(), JPath(table_path))
    row_type = table.rowType()
    field = row_type.getFields().get(row_type.getFieldIndex(column))
    writer = GlobalIndexBuilderUtils.createIndexWriter(table, index_type, field, Options())
    parallel = "BTree" in str(type(writer))  # B-tree writers take (value, row id)
    for i, v in enumerate(values):
        value = None if v == "-" else BinaryString.fromString(v)
        if parallel:
            writer.write(value, jpype.JLong(i))
        else:
            writer.write(value)
    writer.finish()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
