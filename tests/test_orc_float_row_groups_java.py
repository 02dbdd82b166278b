"""Why every comparison on an ORC float column is refused under ``semantics="paimon"``: Paimon Java 1.4.2 loses
rows through ORC's row-group statistics that no manifest statistic shows (:mod:`paimon_codec.planning.orc_pruning`).

A row group whose first value is NaN gets the statistics ``[NaN, NaN]``; ``d < 6.0`` then skips it although it
holds 9999 rows of 5.0, while the file's manifest statistics are the plain numbers ``[5.0, 109.0]``.  Operators
that match NaN lose NaN rows the same way (``d > 100.0`` keeps the NaN only because it is in a kept row group).
"""

from __future__ import annotations

import math

import pyarrow as pa
import pytest
from oracles.java_newest import JavaPaimon

from paimon_codec.errors import UnsupportedTypeError
from paimon_codec.reading import read_table

pytestmark = pytest.mark.java


def test_a_row_group_starting_with_nan_loses_rows_in_java_and_is_refused_here(tmp_path):
    values = [float(i % 100 + 10) for i in range(10000)] + [math.nan] + [5.0] * 9999 + [7.0] * 10000
    with JavaPaimon(jvm_args=["-XX:TieredStopAtLevel=1"]) as java:
        path = java.create_table(str(tmp_path), "db.t", "id INT, d DOUBLE",
                                 options={"file.format": "orc", "bucket": "-1"})
        java.write(path, pa.table({"id": pa.array(range(len(values)), pa.int32()), "d": pa.array(values)}))
        lost = java.read(path, where="d < 6.0").num_rows
        everything = java.read(path).num_rows
    assert everything == len(values)
    assert lost == 0  # 9999 rows are 5.0: Java's own answer is short, so ours cannot be Java's and right
    assert read_table(path, "d < 6.0", semantics="spark").num_rows == 9999
    with pytest.raises(UnsupportedTypeError, match="ORC float statistics"):
        read_table(path, "d < 6.0")
    assert read_table(path, "d IS NOT NULL").num_rows == len(values)
