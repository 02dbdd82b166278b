"""The streaming tests' registration: the library's ``paimon_codec`` source, whose ``streamReader`` /
``streamWriter`` return :class:`~paimon_codec.spark.stream_read.PaimonStreamReader` /
:class:`~paimon_codec.spark.stream_write.PaimonStreamWriter` (a stand-in ``DataSource`` served the streaming
tests until the batch source landed; registered in the shared session it replaced the batch source).
"""

from __future__ import annotations


def register(spark) -> None:
    """Register the library's sources with ``spark``."""
    from paimon_codec.spark import register as register_sources

    register_sources(spark)
