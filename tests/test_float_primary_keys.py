"""Primary-key tables keyed on a DOUBLE / FLOAT holding NaN, -0.0 and 0.0, written by Paimon Java 1.4.2.

Java compares such keys with ``<`` / ``>`` (-0.0 equals 0.0, NaN equals everything), so which records merge
depends on the order they meet.  Our merge read returned other rows than Java's (checked here before the
refusal: each merge engine differs on some format), so a read that merges such a table is refused by name
(:mod:`paimon_codec.planning.merge_float_keys`).  A deletion-vector table is read without a merge - Java's writer
resolved its keys - and must equal Java's read bit-exactly.
"""

from __future__ import annotations

import random

import pyarrow as pa
import pytest
from oracles.compare import row_set_difference

from paimon_codec.errors import UnsupportedTypeError
from paimon_codec.reading import read_table

pytestmark = pytest.mark.java

KEYS = [float("nan"), -0.0, 0.0, 1.0, -1.0, float("inf"), 2.5]


def _table(java, root, key_type: str, options: dict, seed: int) -> str:
    arrow = pa.float64() if key_type == "DOUBLE" else pa.float32()
    path = java.create_table(root, "db.fk", f"k {key_type} NOT NULL, v BIGINT, s STRING", primary_keys=["k"],
                             options={"bucket": "1", **options})
    rng = random.Random(seed)
    for commit in range(3):
        ks = [rng.choice(KEYS) for _ in range(6)]
        java.write(path, pa.table({"k": pa.array(ks, arrow), "v": pa.array([rng.randrange(99) for _ in ks], pa.int64()),
                                   "s": [f"c{commit}r{i}" for i in range(len(ks))]}))
    return path


@pytest.mark.parametrize("key_type", ["DOUBLE", "FLOAT"])
@pytest.mark.parametrize("engine", ["deduplicate", "partial-update", "aggregation", "first-row"])
def test_merging_float_keys_refused(java_newest, tmp_path, key_type, engine):
    options = {"merge-engine": engine, "file.format": "parquet"}
    if engine == "aggregation":
        options["fields.v.aggregate-function"] = "sum"
    path = _table(java_newest, tmp_path, key_type, options, seed=len(engine))
    assert java_newest.read(path).num_rows > 0
    with pytest.raises(UnsupportedTypeError, match=f"primary key column k is {key_type}"):
        read_table(path)


@pytest.mark.parametrize("fmt", ["parquet", "orc", "avro"])
def test_deletion_vector_float_keys_read_as_java(java_newest, tmp_path, fmt):
    path = _table(java_newest, tmp_path, "DOUBLE", {"deletion-vectors.enabled": "true", "file.format": fmt}, seed=3)
    assert row_set_difference(read_table(path), java_newest.read(path), exact_floats=True) is None


def test_float_partition_column_of_the_key_still_merged_as_java(java_newest, tmp_path):
    """A DOUBLE partition column in the key is not compared by the merge (each partition merges alone)."""
    path = java_newest.create_table(tmp_path, "db.pk", "id INT NOT NULL, p DOUBLE NOT NULL, v STRING",
                                    primary_keys=["p", "id"], partition_keys=["p"], options={"bucket": "1"})
    parts = [-0.0, 0.0, float("nan"), 1.0]
    for commit in range(2):
        java_newest.write(path, pa.table({"id": pa.array([i % 3 for i in range(8)], pa.int32()),
                                          "p": pa.array([parts[i % 4] for i in range(8)], pa.float64()),
                                          "v": [f"c{commit}r{i}" for i in range(8)]}))
    assert row_set_difference(read_table(path), java_newest.read(path), exact_floats=True) is None
