"""Roaring32 portable bitmaps as a self-delimiting bulk byte field of the generated codecs.
"""

from __future__ import annotations

from construct import (
    Construct,
    stream_read,
)

from ..errors import PaimonCodecError, TruncatedDataError
from ..roaring import portable_size
from .streams import CodecError, ViewStream, abs_pos
from .structs import byte_string

# --------------------------------------------------------------------------------------------
# Roaring32 portable bitmaps as self-delimiting bulk bytes




def roaring32_size(buf: bytes | memoryview, pos: int = 0, limit: int | None = None) -> int:
    """Byte length of the portable Roaring32 bitmap starting at ``buf[pos]`` (header scan only).

    The one scanner is :func:`paimon_codec.roaring.portable_size`; this adapter turns its errors into
    :class:`CodecError` (offsets into ``buf``) for the generated codecs.
    """
    try:
        return portable_size(buf, pos, limit)
    except TruncatedDataError as exc:
        raise CodecError(exc.message, offset=exc.offset, expected=exc.expected, kind="truncated") from None
    except PaimonCodecError as exc:
        raise CodecError(exc.message, offset=exc.offset, expected=exc.expected, kind="corrupt") from None


class Roaring32Bytes(Construct):
    """An embedded portable Roaring32 bitmap as raw bytes (its length found by a header scan): a
    read-only ``memoryview`` of the input when parsed from a :class:`ViewStream`, else ``bytes``."""

    def _parse(self, stream, context, path):
        if type(stream) is ViewStream:  # sized by a header scan in place, returned as a view
            try:
                n = roaring32_size(stream.buf, stream.pos, stream.size)
            except CodecError as e:
                if e.offset is not None:
                    e.offset += stream.base
                raise
            return stream.view(n)
        base = abs_pos(stream)
        start = stream.tell()
        rest = stream.read()
        stream.seek(start)
        try:
            n = roaring32_size(rest, 0)
        except CodecError as e:
            if e.offset is not None:
                e.offset += base
            raise
        return stream_read(stream, n, path)

    def _build(self, obj, stream, context, path):
        data = byte_string(obj)
        stream.write(data)
        return data
