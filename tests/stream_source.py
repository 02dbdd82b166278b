"""A minimal ``paimon_codec`` DataSource wiring the streaming reader and writer, for the streaming tests.

The batch DataFrame source (its ``DataSource`` class) is built separately; until it lands, the streaming
modules are exercised through this subclass of PySpark's ``DataSource``, which only names the table's
schema and returns :class:`~paimon_codec.spark.stream_read.PaimonStreamReader` /
:class:`~paimon_codec.spark.stream_write.PaimonStreamWriter`.
"""

from __future__ import annotations

from pyspark.sql.datasource import DataSource


class PaimonCodecStreamSource(DataSource):
    @classmethod
    def name(cls) -> str:
        return "paimon_codec"

    def _path(self) -> str:
        return str(self.options.get("path"))

    def schema(self):
        from paimon_codec.spark.types import spark_schema
        from paimon_codec.table import PaimonTable

        return spark_schema(PaimonTable(self._path()).schema.fields)

    def streamReader(self, schema):  # noqa: N802 - PySpark's name
        from paimon_codec.spark.stream_read import PaimonStreamReader

        return PaimonStreamReader(self._path(), dict(self.options), schema)

    def streamWriter(self, schema, overwrite: bool):  # noqa: N802 - PySpark's name
        from paimon_codec.spark.stream_write import PaimonStreamWriter

        return PaimonStreamWriter(self._path(), dict(self.options), overwrite)


def register(spark) -> None:
    """Register the source with ``spark``; the class is pickled by value (Python workers need not import
    this test module)."""
    import sys

    from pyspark import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    spark.dataSource.register(PaimonCodecStreamSource)
