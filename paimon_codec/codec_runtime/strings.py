"""Java modified UTF-8 (``DataOutput.writeUTF``) for the generated codecs.
"""

from __future__ import annotations

import functools
import struct
from typing import Any

from construct import (
    Construct,
    ConstructError,
    stream_write,
)

from .fast import _short
from .streams import CodecError, _read, abs_pos

# --------------------------------------------------------------------------------------------
# Java modified UTF-8 (DataOutput.writeUTF)


def mutf8_encode(text: str) -> bytes:
    """Java modified UTF-8 of ``text`` (``DataOutput.writeUTF`` without the length)."""
    if len(text) <= 64:  # names (columns, index types) repeat in every container a table writes
        return _mutf8_encode_cached(text)
    return _mutf8_encode(text)


def _mutf8_encode(text: str) -> bytes:
    if text.isascii() and "\x00" not in text:  # the common case: the bytes are the ASCII bytes
        return text.encode("ascii")
    out = bytearray()
    for ch in text:
        c = ord(ch)
        if 0 < c < 0x80:
            out.append(c)
        elif c < 0x800:  # includes U+0000 -> C0 80
            out += bytes((0xC0 | (c >> 6), 0x80 | (c & 0x3F)))
        elif c < 0x10000:
            out += bytes((0xE0 | (c >> 12), 0x80 | ((c >> 6) & 0x3F), 0x80 | (c & 0x3F)))
        else:  # supplementary: two 3-byte surrogates (CESU-8)
            v = c - 0x10000
            for s in (0xD800 | (v >> 10), 0xDC00 | (v & 0x3FF)):
                out += bytes((0xE0 | (s >> 12), 0x80 | ((s >> 6) & 0x3F), 0x80 | (s & 0x3F)))
    return bytes(out)


def mutf8_decode(data: bytes) -> str:
    if data.isascii() and 0 not in data:
        return data.decode("ascii")
    units: list[int] = []
    i, n = 0, len(data)
    while i < n:
        b = data[i]
        if b < 0x80 and b != 0:
            units.append(b)
            i += 1
        elif b & 0xE0 == 0xC0 and i + 1 < n and data[i + 1] & 0xC0 == 0x80:
            units.append(((b & 0x1F) << 6) | (data[i + 1] & 0x3F))
            i += 2
        elif b & 0xF0 == 0xE0 and i + 2 < n and data[i + 1] & 0xC0 == 0x80 and data[i + 2] & 0xC0 == 0x80:
            units.append(((b & 0x0F) << 12) | ((data[i + 1] & 0x3F) << 6) | (data[i + 2] & 0x3F))
            i += 3
        else:
            raise ValueError(f"invalid modified UTF-8 byte 0x{b:02x} at {i}")
    return struct.pack(f"<{len(units)}H", *units).decode("utf-16-le", "surrogatepass")


def fast_parse_java_utf(buf: Any, p: int, end: int, what: str) -> tuple[str, int]:
    """``readUTF`` at ``buf[p:end]`` for generated fast parsers: (string, position after it)."""
    if p + 2 > end:
        _short(f"{what} (writeUTF length)", 2, end - p, p)
    n = (buf[p] << 8) | buf[p + 1]
    if p + 2 + n > end:
        _short(f"{what} (writeUTF bytes)", n, end - p - 2, p + 2)
    data = bytes(buf[p + 2:p + 2 + n])
    try:
        return mutf8_decode(data), p + 2 + n
    except ValueError as e:
        raise CodecError(f"bad modified UTF-8: {e}", offset=p + 2, expected="modified UTF-8",
                         kind="corrupt") from None


def fast_build_java_utf(text: str) -> bytes:
    """``writeUTF`` bytes of ``text`` (u16 length + modified UTF-8) for generated fast builders."""
    if len(text) <= 64:
        return _java_utf_cached(text)
    return _java_utf(text)


def _java_utf(text: str) -> bytes:
    data = _mutf8_encode(text)
    if len(data) > 0xFFFF:
        raise CodecError(f"writeUTF string of {len(data)} bytes", expected="at most 65535 bytes", kind="corrupt")
    return len(data).to_bytes(2, "big") + data


_mutf8_encode_cached = functools.lru_cache(maxsize=4096)(_mutf8_encode)
_java_utf_cached = functools.lru_cache(maxsize=4096)(_java_utf)


class JavaUtf(Construct):
    """``writeUTF``: u16 BE byte length + Java modified UTF-8, presented as ``str``."""

    def _parse(self, stream, context, path):
        start = abs_pos(stream)
        (n,) = struct.unpack(">H", _read(stream, 2, "writeUTF length", path))
        data = _read(stream, n, "writeUTF bytes", path)
        try:
            return mutf8_decode(data)
        except ValueError as e:
            raise CodecError(f"bad modified UTF-8: {e}", offset=start + 2, expected="modified UTF-8",
                             kind="corrupt", path=path) from None

    def _build(self, obj, stream, context, path):
        try:
            data = fast_build_java_utf(obj)
        except CodecError as e:
            e.path = path
            raise
        stream_write(stream, data, len(data), path)
        return obj

    def _sizeof(self, context, path):
        raise ConstructError("variable size", path=path)
