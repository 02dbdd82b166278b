"""Spark SQL types of Paimon columns (matching the Arrow types of :mod:`paimon_codec.reading.read`).

Spark timestamps hold microseconds.  TIMESTAMP(7..9) columns keep their nanoseconds in the Arrow
read path (``timestamp[ns]``); handed to Spark they become ``TimestampNTZType`` / ``TimestampType``
**truncated to the microsecond** (floored: the digits below the microsecond are dropped), explicitly,
by :func:`to_spark_micros` - a Spark scan cannot return the nanosecond digits of such a column.
"""

from __future__ import annotations

from ..errors import UnsupportedTypeError
from ..types import DataType, RowType

__all__ = ["spark_type", "spark_schema", "to_spark_micros"]


def spark_type(t: DataType):
    from pyspark.sql import types as T

    r = t.root
    simple = {"TINYINT": T.ByteType, "SMALLINT": T.ShortType, "INTEGER": T.IntegerType, "BIGINT": T.LongType,
              "FLOAT": T.FloatType, "DOUBLE": T.DoubleType, "BOOLEAN": T.BooleanType, "CHAR": T.StringType,
              "VARCHAR": T.StringType, "BINARY": T.BinaryType, "VARBINARY": T.BinaryType, "DATE": T.DateType,
              "BLOB": T.BinaryType,  # the blob's bytes (or its descriptor under blob-as-descriptor), as Paimon Spark
              "TIME_WITHOUT_TIME_ZONE": T.IntegerType,  # millis of day, as values.py represents TIME
              "TIMESTAMP_WITHOUT_TIME_ZONE": T.TimestampNTZType,
              "TIMESTAMP_WITH_LOCAL_TIME_ZONE": T.TimestampType}
    if r in simple:
        return simple[r]()
    if r == "DECIMAL":
        return T.DecimalType(t.precision or 10, t.scale or 0)
    if r == "ARRAY":
        return T.ArrayType(spark_type(t.children[0]), t.children[0].nullable)
    if r == "MAP":
        return T.MapType(spark_type(t.children[0]), spark_type(t.children[1]), t.children[1].nullable)
    if r == "ROW":
        return T.StructType([T.StructField(n, spark_type(c), c.nullable)
                             for n, c in zip(t.field_names, t.children, strict=True)])
    raise UnsupportedTypeError(f"no Spark type for {t}")


def spark_schema(row_type: RowType):
    from pyspark.sql import types as T

    return T.StructType([T.StructField(f.name, spark_type(f.type), f.type.nullable) for f in row_type])


def _micros_type(t):
    import pyarrow as pa

    if pa.types.is_timestamp(t) and t.unit == "ns":
        return pa.timestamp("us", tz=t.tz)
    if pa.types.is_struct(t):
        return pa.struct([pa.field(f.name, _micros_type(f.type), f.nullable) for f in t])
    if pa.types.is_map(t):
        return pa.map_(_micros_type(t.key_type), pa.field("value", _micros_type(t.item_type),
                                                           t.item_field.nullable))
    if pa.types.is_list(t):
        return pa.list_(pa.field(t.value_field.name, _micros_type(t.value_type), t.value_field.nullable))
    return t


def to_spark_micros(table):
    """``table`` with every nanosecond timestamp (TIMESTAMP(7..9), also nested) cut to microseconds, the
    finest unit Spark has: top-level columns are floored, nested ones truncated toward zero (the same
    for every instant after 1970)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not any(_micros_type(f.type) != f.type for f in table.schema):
        return table
    columns = []
    for f, col in zip(table.schema, table.columns, strict=True):
        target = _micros_type(f.type)
        if target == f.type:
            columns.append(col)
        elif pa.types.is_timestamp(f.type):
            columns.append(pc.floor_temporal(col, unit="microsecond").cast(target))
        else:
            columns.append(col.cast(target, safe=False))
    return pa.Table.from_arrays(columns, schema=pa.schema([pa.field(f.name, c.type, f.nullable)
                                                           for f, c in zip(table.schema, columns, strict=True)]))
