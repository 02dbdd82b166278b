"""Tables whose changelogs outlive their snapshots (Paimon's decoupled changelog lifecycle), written by Paimon Java
1.4.2: snapshots are kept 2 at most, changelogs 20, so expired snapshots leave ``changelog/changelog-<id>`` files.
Used by tests/test_long_lived_changelog.py and tests/test_spark_stream_changelog.py (and its
:func:`stream_changes` by tests/test_spark_streaming.py)."""

from __future__ import annotations

import os

import pyarrow as pa

#: the retention in the tables' options: Paimon's writers expire snapshots beyond 2 and keep their changelogs
RETAIN_CHANGELOGS = {"snapshot.num-retained.max": "2", "snapshot.num-retained.min": "1",
                     "changelog.num-retained.max": "20", "changelog.num-retained.min": "1"}
APPEND_SCHEMA = "id BIGINT, s STRING, p STRING"
PK_SCHEMA = "p STRING NOT NULL, id BIGINT NOT NULL, s STRING"
COLUMNS = ["p", "id", "s"]


def rows(start: int, n: int, tag: str = "v") -> pa.Table:
    ids = list(range(start, start + n))
    return pa.table({"id": pa.array(ids, pa.int64()), "s": [f"{tag}{i % 7}" for i in ids],
                     "p": [("a", "b")[i % 2] for i in ids]})


def changelog_ids(path: str) -> list[int]:
    names = os.listdir(os.path.join(path, "changelog")) if os.path.isdir(os.path.join(path, "changelog")) else []
    return sorted(int(n[len("changelog-"):]) for n in names if n.startswith("changelog-"))


def append_table(java, warehouse: str, name: str = "db.append_cl") -> str:
    """An append table (partitioned): one snapshot of 4 rows; :func:`grow_append` adds the rest."""
    path = java.create_table(warehouse, name, APPEND_SCHEMA, partition_keys=["p"],
                             options={"file.format": "parquet", "compaction.min.file-num": "2",
                                      **RETAIN_CHANGELOGS})
    java.write(path, rows(0, 4))
    return path


def grow_append(java, path: str) -> None:
    """Four more APPEND snapshots, a COMPACT one between them, then the expiry of the table's options."""
    java.write(path, rows(4, 5))
    java.write(path, rows(9, 3))
    compacted = java.compact(path, full=True)
    assert compacted is not None
    java.write(path, rows(12, 6))
    java.write(path, rows(18, 2))
    java.expire(path, {})


def pk_table(java, warehouse: str, producer: str) -> str:
    """A primary-key table (2 buckets, partitioned) with ``producer``: 12 inserts (for ``full-compaction`` also
    their full compaction); :func:`grow_pk` adds the rest."""
    path = java.create_table(warehouse, f"db.pk_{producer.replace('-', '_')}", PK_SCHEMA, primary_keys=["p", "id"],
                             partition_keys=["p"], options={"bucket": "2", "changelog-producer": producer,
                                                            **RETAIN_CHANGELOGS})
    java.write(path, rows(0, 12).select(COLUMNS))
    if producer == "full-compaction":  # its changelogs are the differences of two full compactions
        java.compact(path, full=True)
    return path


def grow_pk(java, path: str) -> None:
    """Updates, inserts, deletes, a full compaction, a deleted key written again; then the expiry."""
    java.write(path, rows(6, 10, "u").select(COLUMNS))  # six updates, four inserts
    java.write(path, rows(0, 3).select(COLUMNS), row_kinds=["-D", "-D", "-D"])
    java.compact(path, full=True)
    java.write(path, rows(1, 1, "w").select(COLUMNS))
    java.write(path, rows(20, 2).select(COLUMNS))
    java.expire(path, {})


def stream_changes(reader, start: dict, end: dict, columns: list[str]) -> list[str]:
    """A stream batch's rows (a ``PaimonStreamReader`` from ``start`` to ``end``) as Java's ``read_changelog``
    lines: ``"<row kind> [values]"``, sorted."""
    out = []
    for part in reader.partitions(start, end):
        for batch in reader.read(part):
            for row in batch.to_pylist():
                out.append(f"{row['rowkind']} {[row[c] for c in columns]!r}")
    return sorted(out)
