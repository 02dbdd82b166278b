"""Every ``file.compression`` Paimon Java 1.4.2 writes, per data file format, read as Java reads it - or,
where the library a codec needs is not installed, refused in one line naming the package (never reported
as corrupt data: Avro snappy without ``cramjam`` was).  Codecs Java 1.4.2 itself cannot write here are
left out: Parquet deflate / xz / bzip2 / lzo / brotli, ORC gzip / deflate / xz / bzip2 / lz4_raw /
brotli, Avro lz4 / gzip / lzo / xz (it fails with "No enum constant", "Unrecognized codec" or a missing
class).  ``manifest.compression`` takes the same Avro codecs for the manifest files."""

from __future__ import annotations

import importlib.util

import pyarrow as pa
import pytest
from oracles.compare import assert_same_rows

from paimon_codec.errors import CorruptDataError, UnsupportedTypeError
from paimon_codec.reading import read_table

pytestmark = pytest.mark.java

WRITTEN = {
    "parquet": ["zstd", "snappy", "lz4", "lz4_raw", "gzip", "none", "uncompressed"],
    "orc": ["zstd", "snappy", "lz4", "lzo", "none"],
    "avro": ["zstd", "snappy", "deflate", "bzip2"],
}
# the Python package each Avro codec needs (fastavro decodes with it)
AVRO_NEEDS = {"snappy": "cramjam", "zstd": "backports.zstd"}
CASES = [(fmt, codec) for fmt, codecs in WRITTEN.items() for codec in codecs]


def _rows(n: int) -> pa.Table:
    return pa.table({"id": pa.array(range(n), pa.int32()), "s": [f"v{i % 7}" * (i % 5) for i in range(n)],
                     "d": [i / 3 for i in range(n)]})


def _check(java, path: str, package: str | None) -> None:
    if package is None or importlib.util.find_spec(package) is not None:
        for where in (None, "s = 'v3v3v3'", "id >= 100"):
            assert_same_rows(read_table(path, where), java.read(path, where=where), what=str(where))
        return
    with pytest.raises(UnsupportedTypeError, match=f"unsupported: .*needs {package}") as err:
        read_table(path)
    assert not isinstance(err.value, CorruptDataError) and "\n" not in str(err.value)


@pytest.mark.parametrize(("fmt", "codec"), CASES, ids=[f"{f}-{c}" for f, c in CASES])
def test_every_written_compression_reads_as_java(java_newest, tmp_path, fmt, codec):
    path = java_newest.create_table(str(tmp_path), "db.t", "id INT, s STRING, d DOUBLE",
                                    options={"file.format": fmt, "file.compression": codec})
    java_newest.write(path, _rows(300))
    java_newest.write(path, _rows(50))
    _check(java_newest, path, AVRO_NEEDS.get(codec) if fmt == "avro" else None)


@pytest.mark.parametrize("codec", ["snappy", "deflate", "bzip2", "null"])
def test_avro_manifest_compression_reads_as_java(java_newest, tmp_path, codec):
    path = java_newest.create_table(str(tmp_path), "db.t", "id INT, s STRING, d DOUBLE",
                                    options={"file.format": "parquet", "manifest.format": "avro",
                                             "manifest.compression": codec})
    java_newest.write(path, _rows(20))
    _check(java_newest, path, AVRO_NEEDS.get(codec))
