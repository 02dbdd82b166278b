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

``scan``, ``audit``, ``delete``, ``remove_orphan_files``, ``rewrite_file_index``, ``write`` and ``compact`` are
bound on first use (PEP 562 ``__getattr__``; type checkers read the ``TYPE_CHECKING`` imports below): a Spark
Python worker unpickling a data-source reader or a scan task imports ``paimon_codec.spark.<module>``, and so this
package, and must not pay for the planner, the writers and the audit it never runs (Spark drops idle workers after a
minute, so a cold query pays the import again).  The function names still win over the submodule names: importing
the submodule ``scan`` binds the function ``scan`` here, not the module (:class:`_Face`).
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

from ..lazy_exports import lazy_getattr

if TYPE_CHECKING:
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

#: each exported name -> the submodule defining it
_HOMES = {"scan": "scan", "audit": "audit", "delete": "delete", "remove_orphan_files": "orphans",
          "register": "registration", "get_spark": "session", "rewrite_file_index": "rewrite", "write": "write",
          "compact": "primary_key"}


__getattr__ = lazy_getattr(__name__, globals(), _HOMES)


class _Face(types.ModuleType):
    """This package's module type: the import system binds a loaded submodule as an attribute of its package;
    for a submodule named like the function it exports (``scan``, ``audit``, ``delete``, ``write``) the function
    is bound instead, as an eager ``from .scan import scan`` after the submodule imports did."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and _HOMES.get(name) == name:
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Face
