"""BLOB files (``.blob``) of data-evolution tables: one BLOB column, one value per row.

The byte layout is ``schemas/blob_file.ksy`` (records, then a varint index of per-row record lengths,
then a 5-byte footer); a serialized ``BlobDescriptor`` is ``schemas/blob_descriptor.ksy``.  What is
computed here is the meaning of the index: the values are ZigZag-mapped differences (the first value
is the first row's record length), ``-1`` marks a null blob (no record), and a record's offset is the
sum of the non-null lengths before it (Paimon's ``BlobFileMeta``).  Blob bytes are the record minus
its magic and its tail (record length, CRC-32); every record read is checked against its magic, its stored length
and its CRC-32 (of everything before it; Paimon's reader checks none of them, so a file it reads is one this reads).

Paimon's read hands a BLOB out as its bytes; under ``blob-as-descriptor`` its engines hand out the
serialized descriptor ``(file, offset of the bytes, length)`` instead (``blob_descriptor``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
from pyroaring import BitMap

from ..checksum import check_crc32
from ..errors import CorruptDataError, PaimonCodecError
from ..fileio import ByteSource
from ..formats import translate_error
from ..generated.construct import blob_descriptor as _descriptor
from ..generated.construct import blob_file as _codec

__all__ = ["BlobFileIndex", "read_blob_index", "read_blobs", "read_blob_bunch_part", "blob_descriptor", "parse_blob_descriptor", "describe_blob_file",
           "NULL_LENGTH", "RECORD_OVERHEAD"]

NULL_LENGTH = -1  # index value of a null blob
_MAGIC_SIZE = len(_codec.BLOB_RECORD_MAGIC)
RECORD_OVERHEAD = _MAGIC_SIZE + _codec.BLOB_RECORD_TAIL_SIZE  # magic + tail (record length, CRC-32)
_CRC_SIZE = _codec.BLOB_RECORD_CRC_DTYPE.itemsize  # the CRC covers every byte of the record before it
_FOOTER_SIZE = _codec.BLOB_FOOTER_SIZE  # int32 index length + version byte


@dataclass(frozen=True)
class BlobFileIndex:
    """Per row of a blob file: record length (``-1`` = null) and record offset (``-1`` = null)."""

    path: str
    lengths: np.ndarray
    offsets: np.ndarray
    index_offset: int  # where the index starts (= end of the records)

    @property
    def row_count(self) -> int:
        return len(self.lengths)


def _zigzag_values(entries: list) -> list[int]:
    """The signed deltas of the index's varints (``varint.ksy`` entries), ZigZag-decoded."""
    out = []
    for entry in entries:
        raw = int(entry["value"])
        out.append((raw >> 1) ^ -(raw & 1))
    return out


def read_blob_index(src: ByteSource) -> BlobFileIndex:
    """The index of a blob file (footer and varint index only; no record is read)."""
    path = src.path or ""
    if len(src) < _FOOTER_SIZE:
        raise CorruptDataError(f"blob file of {len(src)} bytes has no footer", path=path,
                               expected=f"at least {_FOOTER_SIZE} bytes")
    try:
        footer = _codec.BlobFooter.parse(src.read(len(src) - _FOOTER_SIZE, _FOOTER_SIZE, "blob footer"))
        index_length = int(footer["index_length"])
        index_offset = len(src) - _FOOTER_SIZE - index_length
        if index_length < 0 or index_offset < 0:
            raise CorruptDataError(f"blob index of {index_length} bytes does not fit the file", path=path,
                                   offset=src.base + len(src) - _FOOTER_SIZE,
                                   expected=f"0..{len(src) - _FOOTER_SIZE}")
        index = _codec.BlobIndex.parse(src.read(index_offset, index_length, "blob index"))
    except PaimonCodecError as e:
        raise e.with_path(path) from None
    except Exception as e:  # noqa: BLE001 - translate_error re-raises what is not a codec error
        raise translate_error(e, path, "blob file") from None
    deltas = np.asarray(_zigzag_values(list(index["entries"])), dtype=np.int64)
    lengths = np.cumsum(deltas, dtype=np.int64) if deltas.size else deltas
    if ((lengths < NULL_LENGTH) | ((lengths >= 0) & (lengths < RECORD_OVERHEAD))).any():
        raise CorruptDataError("blob index holds a record length below the record overhead", path=path,
                               offset=src.base + index_offset, expected=f"-1 or >= {RECORD_OVERHEAD}")
    present = lengths != NULL_LENGTH
    starts = np.concatenate(([0], np.cumsum(np.where(present, lengths, 0))[:-1])) if lengths.size else lengths
    offsets = np.where(present, starts, NULL_LENGTH).astype(np.int64)
    if lengths.size and int(np.where(present, lengths, 0).sum()) != index_offset:
        raise CorruptDataError(f"blob records add up to {int(np.where(present, lengths, 0).sum())} bytes, the "
                               f"index starts at {index_offset}", path=path, offset=src.base + index_offset,
                               expected="records that end where the index starts")
    return BlobFileIndex(path, lengths, offsets, index_offset)


def _record_bytes(src: ByteSource, index: BlobFileIndex, row: int) -> bytes:
    offset, length = int(index.offsets[row]), int(index.lengths[row])
    buf = src.read(offset, length, f"blob record of row {row}")
    try:
        record = _codec.BlobRecord.parse(buf)
    except Exception as e:  # noqa: BLE001
        raise translate_error(e, index.path, f"blob record of row {row} at {offset}") from None
    tail = record["tail"]
    if int(tail["record_length"]) != length:
        raise CorruptDataError(f"blob record of row {row} says {tail['record_length']} bytes, the index {length}",
                               path=index.path, offset=src.base + offset + length - _codec.BLOB_RECORD_TAIL_SIZE,
                               expected=str(length))
    data = bytes(record["data"])
    check_crc32(buf[:length - _CRC_SIZE], int(tail["crc"]), f"blob record of row {row}",
                path=index.path, offset=src.base + offset)
    return data


def blob_descriptor(uri: str, offset: int, length: int) -> bytes:
    """A serialized BlobDescriptor (version 2) of ``length`` bytes at ``offset`` of ``uri``."""
    return bytes(_descriptor.BlobDescriptor.build(
        {"version": _descriptor.BLOB_DESCRIPTOR_VERSION_V2, "uri": uri, "offset": offset, "length": length}))


def parse_blob_descriptor(data: bytes) -> tuple[str, int, int]:
    """``(uri, offset, length)`` of a serialized BlobDescriptor (version 2)."""
    try:
        d = _descriptor.BlobDescriptor.parse(data)
    except Exception as e:  # noqa: BLE001
        raise translate_error(e, None, "blob descriptor") from None
    return str(d["uri"]), int(d["offset"]), int(d["length"])


def read_blobs(path: str, positions: BitMap | range, *, as_descriptor: bool = False,
               uri: str | None = None) -> pa.Array:
    """The blobs of the rows at ``positions`` (file positions, ascending) as an Arrow ``binary`` array:
    their bytes, or with ``as_descriptor`` their serialized descriptors naming ``uri`` (default ``path``)."""
    with ByteSource(path) as src:
        index = read_blob_index(src)
        values: list[bytes | None] = []
        for row in positions:
            if row < 0 or row >= index.row_count:
                raise CorruptDataError(f"row {row} of a blob file holding {index.row_count} rows", path=path,
                                       expected=f"rows 0..{index.row_count - 1}")
            if index.lengths[row] == NULL_LENGTH:
                values.append(None)
            elif as_descriptor:
                values.append(blob_descriptor(uri or path, int(index.offsets[row]) + _MAGIC_SIZE,
                                              int(index.lengths[row]) - RECORD_OVERHEAD))
            else:
                values.append(_record_bytes(src, index, row))
    return pa.array(values, type=pa.binary())


def describe_blob_file(src: ByteSource) -> dict:
    """The structure of a blob file for ``inspect``: footer, and per row its record (every record read
    and checked: magic, stored length, CRC-32)."""
    index = read_blob_index(src)
    records: list[dict[str, Any]] = []
    for row in range(index.row_count):
        if index.lengths[row] == NULL_LENGTH:
            records.append({"row": row, "null": True})
            continue
        data = _record_bytes(src, index, row)
        records.append({"row": row, "null": False, "offset": int(index.offsets[row]),
                        "record_length": int(index.lengths[row]), "blob_length": len(data),
                        "blob_hex_prefix": data[:16].hex()})
    return {"version": _codec.BLOB_FILE_VERSION_V1, "rows": index.row_count,
            "nulls": int((index.lengths == NULL_LENGTH).sum()), "index_offset": index.index_offset,
            "index_length": len(src) - _FOOTER_SIZE - index.index_offset, "records": records}


def read_blob_bunch_part(path: str, start: int, row_count: int, selection: BitMap | None,
                         as_descriptor: bool) -> pa.Array:
    """The values of one blob file of a bunch for the range positions ``selection`` it holds: the file
    covers range positions ``[start, start + row_count)``."""
    if selection is None:
        positions: BitMap | range = range(row_count)
    else:
        mine = selection & BitMap(range(start, start + row_count))
        positions = BitMap(p - start for p in mine)
    return read_blobs(path, positions, as_descriptor=as_descriptor)
