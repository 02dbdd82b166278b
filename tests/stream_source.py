"""The streaming tests' registration: the library's ``paimon_codec`` source, whose ``streamReader`` /
``streamWriter`` return :class:`~paimon_codec.spark.stream_read.PaimonStreamReader` /
:class:`~paimon_codec.spark.stream_write.PaimonStreamWriter`.  ``PaimonCodecStreamSource`` (the stand-in used
before the batch source landed) is kept for the tests that build a reader from it directly.
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
    """Register the library's ``paimon_codec`` source (its streamReader / streamWriter are the classes above's;
    registering the test class would replace the batch source in the shared session)."""
    from paimon_codec.spark import register as register_sources

    register_sources(spark)
