"""Paimon's variable-length integers (``VarLengthIntUtils``) for the generated codecs.

Unsigned little-endian base-128 - Construct's own ``VarInt`` - presented as ``{"value": n}`` so that
the Kaitai expressions of ``schemas/varint.ksy`` (``x.value``) translate unchanged: the Kaitai
parser exposes the integer as the ``value`` instance of its groups.
"""

from __future__ import annotations

from construct import Adapter, ConstructError, Container, VarInt

from .streams import CodecError

__all__ = ["VarUInt"]


class VarUInt(Adapter):
    """``schemas/varint.ksy`` embedded in another format: parses to ``Container(value=n)``; builds from
    that or from a bare ``int``."""

    def __init__(self) -> None:
        super().__init__(VarInt)

    def _parse(self, stream, context, path):
        try:
            return super()._parse(stream, context, path)
        except ConstructError as e:
            if isinstance(e, CodecError):
                raise
            raise CodecError(f"truncated variable-length integer: {e}", expected="a varint", kind="truncated",
                             path=path) from None

    def _decode(self, obj, context, path):
        return Container(value=obj)

    def _encode(self, obj, context, path):
        return int(obj["value"]) if isinstance(obj, dict) else int(obj)
