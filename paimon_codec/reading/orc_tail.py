"""The writer's time zone of each stripe of an ORC file (``StripeFooter.writerTimezone``).

pyarrow reads ORC but does not expose the stripe footers; :mod:`.orc_timestamps` needs their zone to
read TIMESTAMP values near 1970-01-01 as Paimon's Java reader does.  pyarrow hands over the file's
decompressed tail (``PostScript`` + ``Footer``, protobuf); the stripe footers are read from the file,
decompressed by ORC's chunk framing (a 3-byte little-endian header: length << 1 | is-original) and the
postscript's codec, and walked as protobuf (field numbers from ORC's ``orc_proto.proto``).  Protobuf is a
self-describing tag / varint encoding Kaitai has no type for, hence this hand-written walk (listed in
docs/architecture.md's deliberate exceptions).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

import cramjam

from .. import storage
from ..errors import CorruptDataError, UnsupportedTypeError

# orc_proto.proto field numbers
_TAIL_POSTSCRIPT, _TAIL_FOOTER = 1, 2
_PS_COMPRESSION, _PS_BLOCK_SIZE = 2, 3
_FOOTER_STRIPES = 3
_STRIPE_OFFSET, _STRIPE_INDEX_LENGTH, _STRIPE_DATA_LENGTH, _STRIPE_FOOTER_LENGTH = 1, 2, 3, 4
_STRIPE_FOOTER_WRITER_TIMEZONE = 3
_WIRE_VARINT, _WIRE_64, _WIRE_LEN, _WIRE_32 = 0, 1, 2, 5
_CHUNK_HEADER = 3


def _varint(buf: bytes, pos: int, path: str) -> tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= len(buf):
            raise CorruptDataError("ORC protobuf varint runs past its message", path=path, offset=pos)
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, pos


def _fields(buf: bytes, path: str) -> Iterator[tuple[int, int | bytes]]:
    """``(field number, value)`` of a protobuf message: an int for varints, bytes otherwise."""
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos, path)
        number, wire = key >> 3, key & 7
        if wire == _WIRE_VARINT:
            value, pos = _varint(buf, pos, path)
            yield number, value
        elif wire == _WIRE_LEN:
            size, pos = _varint(buf, pos, path)
            yield number, buf[pos:pos + size]
            pos += size
        elif wire in (_WIRE_64, _WIRE_32):
            size = 8 if wire == _WIRE_64 else 4
            yield number, buf[pos:pos + size]
            pos += size
        else:
            raise CorruptDataError(f"ORC protobuf wire type {wire}", path=path, offset=pos,
                                   expected="0, 1, 2 or 5")


def _first(buf: bytes, number: int, path: str, default: int | bytes) -> int | bytes:
    return next((v for n, v in _fields(buf, path) if n == number), default)


def _decompress(data: bytes, codec: int, block_size: int, path: str) -> bytes:
    """An ORC stream's bytes: chunks of (3-byte header, body), each original or compressed by ``codec``."""
    if codec == 0:
        return data
    out = bytearray()
    pos = 0
    while pos < len(data):
        header = int.from_bytes(data[pos:pos + _CHUNK_HEADER], "little")
        pos += _CHUNK_HEADER
        size, original = header >> 1, header & 1
        body = data[pos:pos + size]
        pos += size
        if original:
            out += body
        elif codec == 1:  # ZLIB: raw deflate
            out += zlib.decompress(body, -15)
        elif codec == 2:
            out += bytes(cramjam.snappy.decompress_raw(body))
        elif codec == 4:
            out += bytes(cramjam.lz4.decompress_block(body, output_len=block_size))
        elif codec == 5:
            out += bytes(cramjam.zstd.decompress(body))
        else:
            raise UnsupportedTypeError(f"unsupported: ORC compression kind {codec} (LZO or newer) in a stripe "
                                       "footer", path=path)
    return bytes(out)


def stripe_writer_zones(path: str, serialized_tail: bytes) -> list[str]:
    """The writer's time zone of every stripe of the ORC file at ``path`` (``""`` where the footer has none);
    ``serialized_tail`` is pyarrow's ``ORCReader.serialized_file_tail()``."""
    postscript = _first(serialized_tail, _TAIL_POSTSCRIPT, path, b"")
    footer = _first(serialized_tail, _TAIL_FOOTER, path, b"")
    assert isinstance(postscript, bytes) and isinstance(footer, bytes)
    codec = int(_first(postscript, _PS_COMPRESSION, path, 0))
    block_size = int(_first(postscript, _PS_BLOCK_SIZE, path, 256 * 1024))
    stripes = [v for n, v in _fields(footer, path) if n == _FOOTER_STRIPES]
    data = storage.read_bytes(path)
    zones = []
    for stripe in stripes:
        assert isinstance(stripe, bytes)
        info = {n: v for n, v in _fields(stripe, path)}
        start = sum(int(info.get(k, 0)) for k in (_STRIPE_OFFSET, _STRIPE_INDEX_LENGTH, _STRIPE_DATA_LENGTH))
        length = int(info.get(_STRIPE_FOOTER_LENGTH, 0))
        if start + length > len(data):
            raise CorruptDataError("ORC stripe footer past the end of the file", path=path, offset=start)
        footer_bytes = _decompress(data[start:start + length], codec, block_size, path)
        zone = _first(footer_bytes, _STRIPE_FOOTER_WRITER_TIMEZONE, path, b"")
        zones.append(bytes(zone).decode("utf-8", "replace") if isinstance(zone, bytes) else "")
    return zones
