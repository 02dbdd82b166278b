"""Java's ORC reader hands a FLOAT / DOUBLE column on in batches whose "repeating" flag it sets with ``==``.

ORC Java's double / float tree reader marks a batch of a column as *repeating* when the batch holds no NULL,
more than one row, and every value ``==`` the first one; consumers then read the first value for every row.
``0.0 == -0.0``, so a batch holding only zeros of both signs (and nothing else) comes back from Java with the
first zero's sign on every row (measured on Paimon Java 1.4.2: a file of ``[0.0, -0.0]`` reads as
``[0.0, 0.0]``).  pyarrow returns the stored bits; this module applies the same rule so our rows are Java's.

A batch is ``BATCH_ROWS`` rows (Paimon's ``read.batch-size`` default) counted from the start of each stripe.
Only top-level columns are rebuilt: a FLOAT / DOUBLE inside an ARRAY / MAP / ROW keeps the stored bits.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

BATCH_ROWS = 1024


def _float_columns(table: pa.Table) -> list[int]:
    return [i for i, f in enumerate(table.schema) if pa.types.is_floating(f.type)]


def java_repeating_zeros(table: pa.Table, stripe_rows: list[int]) -> pa.Table:
    """``table`` (the whole of an ORC file, stripes of ``stripe_rows`` rows) with each all-zero batch of a
    FLOAT / DOUBLE column carrying its first value's sign, as Java's ORC reader returns it."""
    for i in _float_columns(table):
        col = table.column(i).combine_chunks()
        if col.null_count == len(col):
            continue
        values = col.to_numpy(zero_copy_only=False)
        valid = ~np.asarray(col.is_null()) if col.null_count else None
        out = None
        start = 0
        for rows in stripe_rows:
            for lo in range(start, start + rows, BATCH_ROWS):
                hi = min(lo + BATCH_ROWS, start + rows)
                if hi - lo < 2 or (valid is not None and not valid[lo:hi].all()):
                    continue
                batch = values[lo:hi]
                if batch[0] == 0 and (batch == 0).all() and np.signbit(batch).any() != np.signbit(batch).all():
                    out = values.copy() if out is None else out
                    out[lo:hi] = batch[0]
            start += rows
        if out is not None:
            table = table.set_column(i, table.field(i), pa.array(out, type=col.type, mask=~valid if valid is not None else None))
    return table
