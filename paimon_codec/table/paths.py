"""Where a filesystem-catalog table keeps its files.

``<table>/<k1>=<v1>/.../bucket-<n>/<data file>`` (+ its ``.index`` extra file beside it),
``<table>/manifest/`` (manifest lists, manifests, index manifests), ``<table>/index/`` (HASH and
DELETION_VECTORS index files; directly in the bucket directory, as ``bucket-<n>/index-…``, when
``index-file-in-data-file-dir``), ``<table>/snapshot/``, ``<table>/schema/`` and ``<table>/tag/``.
A branch keeps only its ``schema``, ``snapshot`` and ``tag`` directories under
``<table>/branch/branch-<name>/``; manifests, index files and data files are shared with the table.
A file whose manifest entry has an external path (``_EXTERNAL_PATH``) is read from there, its
``.index`` extra file beside it.
"""

from __future__ import annotations

import datetime as _dt
import decimal
import posixpath
from collections.abc import Sequence
from typing import Any

from ..storage.filesystems import strip_scheme  # noqa: F401  (its home: URI handling)
from ..types import DataType
from ..values import Timestamp, java_float_string

__all__ = ["partition_path", "partition_value_text", "is_blank_partition_text", "strip_scheme", "bucket_dir_name", "DEFAULT_PARTITION_NAME"]

DEFAULT_PARTITION_NAME = "__DEFAULT_PARTITION__"

# Characters Paimon's PartitionPathUtils.escapePathName escapes as %XX.
_ESCAPE = set('"#%\'*/:=?\\\x7f{[]^') | {chr(c) for c in range(1, 32)}


def _escape(text: str) -> str:
    return "".join(f"%{ord(ch):02X}" if ch in _ESCAPE else ch for ch in text)


# Java's Character.isWhitespace over UTF-16 chars: Unicode space/line/paragraph separators except the
# no-break spaces, plus the ASCII controls below.  (Python's str.isspace also takes U+0085 and U+00A0.)
_JAVA_WHITESPACE = frozenset("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
                             "\u2008\u2009\u200a\u2028\u2029\u205f\u3000")


def is_blank_partition_text(text: str) -> bool:
    """Paimon's ``StringUtils.isNullOrWhitespaceOnly``: such a partition value is written under the
    default partition name (``partition.default-name``) although the rows keep their own value."""
    return all(ch in _JAVA_WHITESPACE for ch in text)


def partition_value_text(value: Any, dtype: DataType, legacy: bool = True) -> str | None:
    """Text of a partition value in a directory name; ``None`` for null, empty or whitespace-only text
    (Java's ``Character.isWhitespace``): those go to the default partition.

    ``partition.legacy-name=true`` (the default) uses Java ``toString`` of the internal value: DATE
    is its day number, TIME its millis; otherwise values are cast to their SQL string form.
    """
    if value is None:
        return None
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, Timestamp):
        text = _timestamp_text(value, dtype.precision if dtype.precision is not None else 6, legacy)
    elif dtype.root == "DATE" and not legacy:
        text = (_dt.date(1970, 1, 1) + _dt.timedelta(days=int(value))).isoformat()
    elif isinstance(value, decimal.Decimal):
        text = format(value, "f")
    elif isinstance(value, bytes):
        text = value.decode("utf-8", "replace")
    elif dtype.root in ("FLOAT", "DOUBLE"):
        text = java_float_string(float(value), dtype.root == "FLOAT")
    else:
        text = str(value)
    return None if is_blank_partition_text(text) else text


def _timestamp_text(ts: Timestamp, precision: int, legacy: bool) -> str:
    """Java's text of a timestamp partition value.

    Legacy names use ``LocalDateTime.toString()``: ``2024-01-01T10:00`` without zero seconds, else
    ``:ss`` and a fraction of 3, 6 or 9 digits, the fewest that hold the nanos.  Otherwise the SQL cast
    to string: ``2024-01-01 10:00:00`` plus exactly ``precision`` fractional digits.
    """
    nanos = ts.to_nanos()
    seconds, nano_of_second = divmod(nanos, 1_000_000_000)
    dt = _dt.datetime(1970, 1, 1) + _dt.timedelta(seconds=seconds)
    if not legacy:
        text = dt.strftime("%Y-%m-%d %H:%M:%S")
        return text + ("." + f"{nano_of_second:09d}"[:precision] if precision > 0 else "")
    text = dt.strftime("%Y-%m-%dT%H:%M")
    if dt.second == 0 and nano_of_second == 0:
        return text
    text += f":{dt.second:02d}"
    if nano_of_second == 0:
        return text
    if nano_of_second % 1_000_000 == 0:
        return text + f".{nano_of_second // 1_000_000:03d}"
    if nano_of_second % 1000 == 0:
        return text + f".{nano_of_second // 1000:06d}"
    return text + f".{nano_of_second:09d}"


def partition_path(names: Sequence[str], values: Sequence[Any], types: Sequence[DataType],
                   default_name: str = DEFAULT_PARTITION_NAME, legacy: bool = True) -> str:
    """``k1=v1/k2=v2/...`` relative to the table (``""`` unpartitioned): joined with ``/``, Paimon's separator on
    every store, so the same text under a local table and an object-store URI."""
    parts = []
    for name, value, dtype in zip(names, values, types, strict=True):
        text = partition_value_text(value, dtype, legacy)
        parts.append(f"{_escape(name)}={_escape(text) if text is not None else default_name}")
    return posixpath.join(*parts) if parts else ""


def bucket_dir_name(bucket: int) -> str:
    """``bucket-<n>``; postpone-bucket files (bucket id -2) live in ``bucket-postpone``."""
    return "bucket-postpone" if bucket == -2 else f"bucket-{bucket}"
