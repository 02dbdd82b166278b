"""The BSI payload's version constants and key codec, shared by the BSI writer and reader."""

from __future__ import annotations

from ...generated.construct import bsi as _generated_bsi
from ...types import DataType
from ..keys import KeyCodec

__all__ = ["VERSION", "PART_VERSION", "LONG_MIN", "key_codec"]

VERSION = _generated_bsi.BSI_VERSION_V1
PART_VERSION = _generated_bsi.BSI_PART_VERSION_V1
#: ``Long.MIN_VALUE``: its absolute value does not fit a long, so no BSI half can store it
LONG_MIN = -(1 << 63)


def key_codec(dtype: DataType) -> KeyCodec:
    """The long keys of a BSI column.

    TIMESTAMP(7..9): Java's BSI keys them by micros (Timestamp.toMicros); the evaluator widens
    < / > / <> for keys coarser than the values (evaluate._collapses).
    """
    return KeyCodec(dtype, index="bsi")
