"""Primary keys holding a FLOAT / DOUBLE column are not merged: Paimon Java's key order is not reproduced.

Paimon Java 1.4.2 compares such key fields with ``<`` / ``>``, so ``-0.0`` and ``0.0`` are one key and NaN is
"equal" to every value; its sort and merge then depend on the order records meet (measured against Java's
read of tables keyed on DOUBLE / FLOAT with NaN, -0.0, 0.0 over three commits: deduplicate, partial-update,
aggregation and first-row merges on read kept or dropped other rows than ours, in parquet, orc and avro,
and a FLOAT key differed even after a full compaction).  A read that merges such a table is refused;
tables with deletion vectors (read without a merge, as Java's writer resolved the keys) and FLOAT / DOUBLE
partition columns of the key (each partition is merged on its own) are not affected.
"""

from __future__ import annotations

from typing import Any

from ..errors import UnsupportedTypeError


def refuse_float_primary_keys(schema: Any) -> None:
    """Refuse merging the rows of ``schema``'s table when a primary-key column (not a partition column) is
    FLOAT or DOUBLE."""
    types = {f.name: f.type for f in schema.fields}
    for name in schema.primary_keys:
        if name in schema.partition_keys:  # compared as the partition (its directory), not by the merge
            continue
        t = types.get(name)
        if t is not None and t.root in ("FLOAT", "DOUBLE"):
            raise UnsupportedTypeError(
                f"primary key column {name} is {t.root}: Paimon merges such keys in an order where -0.0 equals 0.0 "
                "and NaN equals every value, which is not reproduced")
