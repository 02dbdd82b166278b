"""Iceberg interop: 64-bit deletion vectors as ``deletion-vector-v1`` blobs in a Puffin file.

Puffin (Iceberg's puffin-spec, framing in ``schemas/puffin.ksy``): ``"PFA1" | blob ... | footer`` with
footer ``"PFA1" | FooterPayload (UTF-8 JSON) | int32 LE payload size | 4 flag bytes | "PFA1"``, read and
written with the generated ``puffin`` codec's fast heads.  The JSON is a
``FileMetadata``: ``{"blobs": [BlobMetadata...], "properties": {...}}``; each ``BlobMetadata`` has
``type``, ``fields``, ``snapshot-id``, ``sequence-number``, ``offset``, ``length`` (absolute byte range
of the blob in the file), optional ``compression-codec`` and ``properties``.

A ``deletion-vector-v1`` blob is *exactly* a Paimon 64-bit DV index entry: ``int32 BE length`` of
``magic + vector``, magic ``D1 D3 39 64``, the portable 64-bit Roaring vector, ``int32 BE CRC-32`` of
``magic + vector``.  It is never compressed; its metadata carries ``snapshot-id = -1`` and
``sequence-number = -1`` (inherited from the manifest), ``fields = [row position field id]`` and the
properties ``referenced-data-file`` and ``cardinality`` the spec requires.  So a Paimon 64-bit range
``(offset, length)`` and an Iceberg DV ``(content_offset, content_size_in_bytes)`` describe the same
bytes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO

from .. import __version__ as _VERSION
from ..codec_runtime import CodecError
from ..errors import CorruptDataError, TruncatedDataError, UnsupportedVersionError, UsageError
from ..fileio import ByteSource, atomic_write_bytes
from ..generated.construct import puffin as _codec
from ..report import JsonForm
from .deletion_vector import DeletionVector, bin_magic_hex
from .index_file import MIN_ENTRY_SIZE, SIZE_FIELD, _decode_entry, encode_entry

__all__ = ["PUFFIN_MAGIC", "DV_BLOB_TYPE", "ROW_POSITION_FIELD_ID", "PuffinBlob", "encode_puffin",
           "write_puffin", "read_puffin"]

PUFFIN_MAGIC = _codec.PUFFIN_MAGIC
DV_BLOB_TYPE = "deletion-vector-v1"
#: Iceberg's reserved field id of the ``_pos`` metadata column (Integer.MAX_VALUE - 2).
ROW_POSITION_FIELD_ID = 2147483645
_FOOTER_TAIL = _codec.PUFFIN_FOOTER_TAIL_SIZE  # payload size + flags + magic
_FOOTER_MAGIC = _codec.PUFFIN_FOOTER_MAGIC_SIZE
_MAX_FOOTER = 64 << 20


@dataclass
class PuffinBlob(JsonForm):
    """One ``deletion-vector-v1`` blob: its data file, byte range in the Puffin file and vector."""

    referenced_data_file: str
    offset: int
    length: int
    cardinality: int
    dv: DeletionVector | None = None
    properties: dict | None = None

    def loaded_dv(self) -> DeletionVector:
        """The vector of a blob read with ``load=True`` (``load=False`` leaves ``dv`` None)."""
        if self.dv is None:
            raise UsageError(f"blob of {self.referenced_data_file} was read without its vector (load=False)")
        return self.dv

    def to_dict(self) -> dict:
        return {"referenced_data_file": self.referenced_data_file, "offset": self.offset,
                "length": self.length, "cardinality": self.cardinality}


def _as_64(dv: DeletionVector) -> DeletionVector:
    if dv.bitmap64:
        return dv
    return DeletionVector.from_parts(dv.parts(), bitmap64=True)


def encode_puffin(dvs: Mapping[str, DeletionVector] | Iterable[tuple[str, DeletionVector]], *,
                  properties: Mapping[str, str] | None = None) -> tuple[bytes, list[PuffinBlob]]:
    """Puffin file bytes holding one ``deletion-vector-v1`` blob per data file (32-bit DVs widened)."""
    chunks = [PUFFIN_MAGIC]
    pos = len(PUFFIN_MAGIC)
    blobs: list[PuffinBlob] = []
    meta: list[dict[str, Any]] = []
    for name, dv in (dvs.items() if isinstance(dvs, Mapping) else dvs):
        wide = _as_64(dv)
        blob = encode_entry(wide)
        card = wide.cardinality
        blobs.append(PuffinBlob(str(name), pos, len(blob), card, wide))
        meta.append({"type": DV_BLOB_TYPE, "fields": [ROW_POSITION_FIELD_ID], "snapshot-id": -1,
                     "sequence-number": -1, "offset": pos, "length": len(blob),
                     "properties": {"referenced-data-file": str(name), "cardinality": str(card)}})
        chunks.append(blob)
        pos += len(blob)
    file_props = {"created-by": f"paimon-codec {_VERSION}"}
    file_props.update(properties or {})
    payload = json.dumps({"blobs": meta, "properties": file_props}, separators=(",", ":"),
                         ensure_ascii=False).encode("utf-8")
    chunks += [_codec.PUFFIN_FOOTER_MAGIC, payload,
               _codec.fast_build_puffin_footer_tail({"payload_size": len(payload), "flags": 0})]
    return b"".join(chunks), blobs


def write_puffin(path: str | os.PathLike,
                 dvs: Mapping[str, DeletionVector] | Iterable[tuple[str, DeletionVector]], *,
                 properties: Mapping[str, str] | None = None) -> list[PuffinBlob]:
    """Write a Puffin file of DV blobs atomically; returns the blobs' metadata."""
    data, blobs = encode_puffin(dvs, properties=properties)
    atomic_write_bytes(path, data)
    return blobs


def read_puffin(data: bytes | ByteSource | BinaryIO | str | os.PathLike, *, path: str | None = None,
                verify_crc: bool = True, load: bool = True) -> list[PuffinBlob]:
    """The ``deletion-vector-v1`` blobs of a Puffin file (other blob types are skipped)."""
    with ByteSource.opened(data, path) as src:
        return _read_blobs(src, verify_crc=verify_crc, load=load)


def _read_blobs(src: ByteSource, *, verify_crc: bool, load: bool) -> list[PuffinBlob]:
    where = src.path
    size = len(src)
    lead = len(PUFFIN_MAGIC)
    magic_text = PUFFIN_MAGIC.decode()
    if size < lead + _FOOTER_MAGIC + _FOOTER_TAIL:
        raise TruncatedDataError(f"Puffin file of {size} bytes is too short", path=where, offset=0,
                                 expected=f"at least {lead + _FOOTER_MAGIC + _FOOTER_TAIL} bytes")
    if src.read(0, lead, "Puffin magic") != PUFFIN_MAGIC:
        raise CorruptDataError("not a Puffin file (bad leading magic)", path=where, offset=0, expected=magic_text)
    try:
        tail, _ = _codec.fast_parse_puffin_footer_tail(src.read(size - _FOOTER_TAIL, _FOOTER_TAIL, "Puffin footer tail"))
    except CodecError:
        raise CorruptDataError("bad trailing Puffin magic", path=where, offset=size - lead,
                               expected=magic_text) from None
    payload_size = tail["payload_size"]
    footer_start = size - _FOOTER_TAIL - payload_size - _FOOTER_MAGIC
    if payload_size < 0 or payload_size > _MAX_FOOTER or footer_start < lead:
        raise CorruptDataError(f"Puffin footer payload size {payload_size} does not fit the file", path=where,
                               offset=size - _FOOTER_TAIL,
                               expected=f"at most {size - _FOOTER_TAIL - _FOOTER_MAGIC - lead}")
    try:
        _codec.fast_parse_puffin_footer_magic(src.read(footer_start, _FOOTER_MAGIC, "footer magic"),
                                              payload_size=payload_size)
    except CodecError:
        raise CorruptDataError("bad Puffin footer magic", path=where, offset=footer_start,
                               expected=magic_text) from None
    if tail["flags"] & _codec.PUFFIN_FOOTER_FLAGS_PAYLOAD_COMPRESSED:
        raise UnsupportedVersionError("compressed Puffin footers (LZ4) are not supported", path=where,
                                      offset=size - _FOOTER_TAIL + _codec.PUFFIN_FOOTER_FLAGS_AT, expected="flags 0")
    raw = src.read(footer_start + _FOOTER_MAGIC, payload_size, "Puffin footer payload")
    try:
        footer = json.loads(raw.decode("utf-8"))
        blob_meta = footer["blobs"]
        if not isinstance(blob_meta, list):
            raise TypeError("blobs is not a list")
    except (UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        raise CorruptDataError(f"invalid Puffin footer JSON: {exc}", path=where,
                               offset=footer_start + _FOOTER_MAGIC,
                               expected='UTF-8 JSON {"blobs": [...]}') from None
    out = []
    for i, m in enumerate(blob_meta):
        try:
            if m.get("type") != DV_BLOB_TYPE:
                continue
            offset, length = int(m["offset"]), int(m["length"])
            props = dict(m.get("properties") or {})
            name = str(props["referenced-data-file"])
            card = int(props["cardinality"])
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise CorruptDataError(f"Puffin blob {i} metadata lacks a required field: {exc}", path=where,
                                   offset=footer_start + _FOOTER_MAGIC,
                                   expected="integer offset and length, properties referenced-data-file and "
                                            "cardinality") from None
        if m.get("compression-codec") not in (None, "none"):
            raise CorruptDataError(f"deletion-vector blob {i} is compressed ({m['compression-codec']})",
                                   path=where, offset=offset, expected="no compression")
        if offset < lead or length < MIN_ENTRY_SIZE or offset + length > footer_start:
            raise CorruptDataError(f"Puffin blob {i} range ({offset}, {length}) is outside the blob area",
                                   path=where, offset=offset, expected=f"within [{lead}, {footer_start})")
        blob = PuffinBlob(name, offset, length, card, properties=props)
        if load:
            buf = memoryview(src.read(offset, length, f"blob {i}"))
            entry = _decode_entry(buf, 0, path=where, base=src.base + offset, expected_length=length,
                                  verify_crc=verify_crc)
            if entry.kind != "64":
                raise CorruptDataError(f"blob {i} is not a 64-bit deletion vector", path=where,
                                       offset=offset + SIZE_FIELD, expected=f"magic {bin_magic_hex('64')}")
            if entry.dv.cardinality != card:
                raise CorruptDataError(f"blob {i} holds {entry.dv.cardinality} positions, its metadata says "
                                       f"{card}", path=where, offset=offset, expected=f"cardinality {card}")
            blob.dv = entry.dv
        out.append(blob)
    return out
