"""Paimon tables on Spark: index-aware scans, a warehouse audit and the ``paimon_index`` data source.

>>> from paimon_codec.spark import get_spark, scan, audit
>>> spark = get_spark()                       # local Spark, quiet, one session per process
>>> df, report = scan(spark, "wh/db.db/orders", where="status = 'PENDING'")
>>> findings_df, summary = audit(spark, "wh")
>>> files_df, reports = remove_orphan_files(spark, "wh", dry_run=True)   # Paimon's orphan clean
>>> rewrite_file_index(spark, "wh/db.db/orders", {"file-index.bitmap.columns": "status"})  # index old files
>>> write(df, "wh/db.db/orders")              # append a DataFrame, indexes built on write, one commit
>>> delete(spark, "wh/db.db/orders", "status = 'CANCELLED'")   # by deletion vectors, one commit
>>> write(df, "wh/db.db/users")               # a primary-key table: an upsert (level-0 files, hash index)
>>> compact(spark, "wh/db.db/users")          # full compaction per bucket, one COMPACT snapshot
>>> spark.read.format("paimon_codec").load("wh/db.db/orders").filter("status = 'PENDING'")   # the data source
>>> df.write.format("paimon_codec").mode("append").save("wh/db.db/orders")                    # the sink
>>> spark.read.format("paimon_index").option("table", "wh/db.db/orders").option("kind", "hash").load()

``scan``, ``audit``, ``delete``, ``remove_orphan_files``, ``rewrite_file_index``, ``write`` and ``compact`` are bound eagerly (their modules import pyspark only when called) so that the
function names win over the submodule names.
"""

from __future__ import annotations

from .audit import audit
from .delete import delete
from .orphans import remove_orphan_files
from .primary_key import compact
from .registration import register
from .rewrite import rewrite_file_index
from .scan import scan
from .session import get_spark
from .write import write

__all__ = ["scan", "audit", "delete", "remove_orphan_files", "register", "get_spark", "rewrite_file_index", "write",
           "compact"]
