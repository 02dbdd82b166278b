"""Reading the rows of a planned scan: data files decoded, evolved to the table's schema, filtered, merged.

>>> from paimon_codec.reading import read_table
>>> read_table("warehouse/db.db/orders", where="amount > 100")   # -> pyarrow.Table, as Paimon reads it

:func:`read_table` plans with :func:`paimon_codec.planning.plan_scan` and reads the plan in this process;
the Spark pipeline (:mod:`paimon_codec.spark`) reads the same tasks in its executors.
"""

from .local_read import read_table

__all__ = ["read_table"]
