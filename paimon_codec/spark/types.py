"""Spark SQL types of Paimon columns (matching the Arrow types of :mod:`paimon_codec.table.read`)."""

from __future__ import annotations

from ..errors import UnsupportedTypeError
from ..types import DataType, RowType

__all__ = ["spark_type", "spark_schema"]


def spark_type(t: DataType):
    from pyspark.sql import types as T

    r = t.root
    simple = {"TINYINT": T.ByteType, "SMALLINT": T.ShortType, "INTEGER": T.IntegerType, "BIGINT": T.LongType,
              "FLOAT": T.FloatType, "DOUBLE": T.DoubleType, "BOOLEAN": T.BooleanType, "CHAR": T.StringType,
              "VARCHAR": T.StringType, "BINARY": T.BinaryType, "VARBINARY": T.BinaryType, "DATE": T.DateType,
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
