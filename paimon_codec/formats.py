"""Registry of the on-disk formats: name -> schema, Construct codec, Kaitai parser, detector.

Format names (the ``--format`` values of ``paimon-codec inspect``):

=====================  ==================  =============================================
name                   schema id           what
=====================  ==================  =============================================
``file-index``         ``file_index``      file-index container (``.index`` / embedded)
``bitmap``             ``bitmap_index``    one bitmap index payload (V1 / V2)
``bloom-filter``       ``bloom_filter``    one bloom-filter payload
``range-bitmap``       ``range_bitmap``    one range-bitmap payload
``bsi``                ``bsi``             one (deprecated) BSI payload
``deletion-vectors``   ``deletion_vectors`` a DELETION_VECTORS index file
``deletion-vector``    ``deletion_vector`` one ``size | bin | crc32`` entry
``delete-map``         ``delete_map``      legacy DELETE_MAP layout (seed 003)
``hash-index``         ``hash_index``      dynamic-bucket HASH index file
``roaring32``          ``roaring32``       portable Roaring32 bitmap
``roaring64``          ``roaring64``       portable Roaring64 bitmap
=====================  ==================  =============================================

:func:`parse` decodes with the generated Construct codec and returns plain JSON-able data;
Construct/runtime errors become :mod:`paimon_codec.errors` exceptions with path, offset and
expectation.  Key-typed payloads (``bitmap``, ``range-bitmap``) need a key kind
(:func:`key_kind_for` maps a Paimon type to it).
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import construct
import numpy as np

from . import codec_runtime as _rt
from .errors import (
    CorruptDataError,
    PaimonCodecError,
    TruncatedDataError,
    UnsupportedTypeError,
    UnsupportedVersionError,
    UsageError,
)
from .generated.construct import constants as _c
from .generated.construct.deletion_vector import DV_MAGIC_DTYPE
from .kaitai_plain import kaitai_to_plain

__all__ = ["FORMATS", "KEY_KINDS", "FormatSpec", "class_name", "detect", "get", "key_kind_for", "parse", "plain",
           "translate_error"]

def _schema_dir() -> Path:
    """The ``.ksy`` files: inside the installed package (the wheel maps ``schemas/`` there), else the source
    tree's top-level ``schemas/`` beside the package (editable installs and checkouts)."""
    here = Path(__file__).resolve().parent
    installed = here / "schemas"
    return installed if installed.is_dir() else here.parent / "schemas"


REPO_SCHEMAS = _schema_dir()

#: the key kinds of the key-typed formats (the ``kind`` parameter of schemas/paimon_key.ksy): one vocabulary
KEY_KINDS = _rt.KEY_KINDS

#: Paimon DataTypeRoot -> key kind of the bitmap / range-bitmap / bsi key encoding.
KEY_KIND_BY_TYPE_ROOT = {
    "TINYINT": "int8",
    "SMALLINT": "int16",
    "INTEGER": "int32",
    "DATE": "int32",
    "TIME_WITHOUT_TIME_ZONE": "int32",
    "BIGINT": "int64",
    "TIMESTAMP_WITHOUT_TIME_ZONE": "int64",
    "TIMESTAMP_WITH_LOCAL_TIME_ZONE": "int64",
    "DECIMAL": "int64",
    "FLOAT": "float32",
    "DOUBLE": "float64",
    "BOOLEAN": "bool",
    "CHAR": "string",
    "VARCHAR": "string",
}

DV32_MAGIC = np.array(_c.DV_MAGIC_BITMAP32, DV_MAGIC_DTYPE).tobytes()  # as stored: 1581511376 BE
DV64_MAGIC = np.array(_c.DV_MAGIC_BITMAP64, DV_MAGIC_DTYPE).tobytes()  # as stored: 1681511377 LE


def key_kind_for(data_type: Any) -> str:
    """Key kind of a Paimon type (a :class:`paimon_codec.types.DataType`, type string or root name)."""
    if isinstance(data_type, str):
        if data_type in KEY_KINDS:
            return data_type
        if data_type.upper() in KEY_KIND_BY_TYPE_ROOT:
            return KEY_KIND_BY_TYPE_ROOT[data_type.upper()]
        from .types import parse_type  # noqa: PLC0415 - optional dependency direction

        data_type = parse_type(data_type)
    root = getattr(data_type, "root", None)
    if root not in KEY_KIND_BY_TYPE_ROOT:
        raise UnsupportedTypeError(f"type {root} has no index key encoding",
                                   expected="a numeric, temporal, boolean or string type")
    return KEY_KIND_BY_TYPE_ROOT[root]


@dataclass(frozen=True)
class FormatSpec:
    """One registered format."""

    name: str
    schema_id: str
    description: str
    needs_key_kind: bool = False
    strict_end: bool = False  # trailing bytes after the structure are an error
    detector: Callable[[bytes], bool] | None = None
    validator: Callable[[Any, str | None], None] | None = None

    @property
    def schema_path(self) -> Path:
        return REPO_SCHEMAS / f"{self.schema_id}.ksy"

    @property
    def module(self):
        return importlib.import_module(f"paimon_codec.generated.construct.{self.schema_id}")

    @property
    def codec(self) -> construct.Construct:
        """The generated top-level Construct object."""
        return getattr(self.module, class_name(self.schema_id))

    @property
    def kaitai_class(self) -> type:
        mod = importlib.import_module(f"paimon_codec.generated.kaitai.{self.schema_id}")
        return getattr(mod, class_name(self.schema_id))

    def _kw(self, key_kind: str | None) -> dict:
        if not self.needs_key_kind:
            return {}
        if key_kind is None:
            raise UsageError(f"format {self.name} needs a key kind", expected="one of " + ", ".join(KEY_KINDS))
        key_kind = key_kind_for(key_kind)
        return {"key_kind": key_kind}

    def decode(self, data: bytes, path: str | None = None, key_kind: str | None = None, *,
               validate: bool = True) -> Any:
        """Parse with the Construct codec; returns Construct containers / numpy arrays.

        ``validate`` also checks what the layout alone cannot (bitmap extents inside the body, DV
        CRCs and bitmap sizes), so damaged payloads are reported instead of decoded."""
        kw = self._kw(key_kind)
        stream = _rt.ViewStream(data)  # no copy: bulk fields come back as read-only views of ``data``
        _rt.LAST_READ[:] = [None, 0]
        try:
            obj = self.codec._parsereport(stream, _context(kw, parsing=True), "(parsing)")
        except Exception as e:  # noqa: BLE001 - every failure becomes one of ours
            raise translate_error(e, path, self.name) from None
        if self.strict_end and stream.tell() != stream.size:
            raise CorruptDataError(f"{stream.size - stream.tell()} trailing bytes after the {self.name}",
                                   path=path, offset=stream.tell(), expected="end of input")
        if validate and self.validator is not None:
            self.validator(obj, path)
        return obj

    def build(self, obj: Any, key_kind: str | None = None) -> bytes:
        """Build bytes with the Construct codec (counts, sizes, offsets, CRCs derived)."""
        kw = self._kw(key_kind)
        try:
            return self.codec.build(obj, **kw)
        except PaimonCodecError:
            raise
        except Exception as e:  # noqa: BLE001
            raise translate_error(e, None, self.name) from None

    def parse(self, data: bytes, path: str | None = None, key_kind: str | None = None,
              *, full_bytes: bool = False) -> dict:
        """Decode to plain JSON-able data (bytes as ``{"length", "hex"}``)."""
        return plain(self.decode(data, path, key_kind), full_bytes=full_bytes)

    def parse_kaitai(self, data: bytes, key_kind: str | None = None) -> Any:
        """Parse with the Kaitai parser and convert to the Construct codec's shape."""
        from kaitaistruct import KaitaiStream  # noqa: PLC0415

        kw = self._kw(key_kind)
        cls = self.kaitai_class
        ks = KaitaiStream(io.BytesIO(bytes(data)))
        obj = cls(kw["key_kind"], ks) if kw else cls(ks)
        return kaitai_to_plain(obj, self.module.LAYOUT, self.schema_id)

    def detect(self, data: bytes) -> bool:
        return bool(self.detector and self.detector(data))


def class_name(sid: str) -> str:
    """The class a schema's generated code names its top-level type (``bitmap_index`` -> ``BitmapIndex``): the
    Construct object, the Kaitai parsers in Python, JavaScript and Java."""
    return "".join(p[:1].upper() + p[1:] for p in sid.split("_"))


def _context(kw: dict, parsing: bool) -> construct.Container:
    ctx = construct.Container(**kw)
    ctx._parsing = parsing
    ctx._building = not parsing
    ctx._sizing = False
    ctx._params = ctx
    return ctx


def _is_container(d: bytes) -> bool:
    return d[:8] == _c.FILE_INDEX_MAGIC


def _is_dv_file(d: bytes) -> bool:
    return (d == b"\x01") or (len(d) >= 9 and d[0] == 1 and d[5:9] in (DV32_MAGIC, DV64_MAGIC))


def _is_dv_entry(d: bytes) -> bool:
    return len(d) >= 8 and d[4:8] in (DV32_MAGIC, DV64_MAGIC)


def _check_within(what: str, start: int, length: int, size: int, path: str | None, base: int) -> None:
    if start < 0 or length < 0 or start + length > size:
        raise TruncatedDataError(f"{what} [{start}, {start + length}) lies outside the {size} bytes there",
                                 path=path, offset=base + max(start, 0), expected=f"an extent within {size} bytes")


def _validate_bitmap(obj: Any, path: str | None) -> None:
    """Bitmap extents must lie inside the body (catches truncated / corrupted payloads)."""
    body = len(obj["body"])
    if obj["has_null_value"] and obj["null_value_offset"] >= 0:
        n = obj["null_bitmap_length"] if obj["version"] == _c.BITMAP_INDEX_VERSION_V2 else 8
        _check_within("null bitmap", obj["null_value_offset"], n, body, path, 0)
    if obj["version"] == _c.BITMAP_INDEX_VERSION_V1:
        offs = np.asarray([e["offset"] for e in obj["entries"]] if isinstance(obj["entries"], list)
                          else obj["entries"]["offset"], dtype=np.int64)
        starts = ([int(offs.max())] if offs.size else []) + (
            [obj["null_value_offset"]] if obj["has_null_value"] else [])
        last = max(starts, default=-1)
        if last >= 0:  # V1 stores no lengths: the bitmap that starts last must end inside the body
            _check_within("bitmap", last, _rt.roaring32_size(obj["body"], last) if last < body else 8, body, path, 0)
        return
    for b in obj["index_blocks"]["blocks"]:
        e = b["entries"]
        offs = np.asarray(e["offset"] if isinstance(e, np.ndarray) else [x["offset"] for x in e], dtype=np.int64)
        lens = np.asarray(e["length"] if isinstance(e, np.ndarray) else [x["length"] for x in e], dtype=np.int64)
        ends = np.where(offs >= 0, offs + lens, 0)
        if ends.size and int(ends.max()) > body:
            i = int(ends.argmax())
            _check_within("bitmap", int(offs[i]), int(lens[i]), body, path, 0)


def _validate_range_bitmap(obj: Any, path: str | None) -> None:
    slices = len(obj["bsi"]["slices"])
    for ref in obj["bsi"]["bsi_header"]["slice_refs"]:
        _check_within("BSI slice", int(ref["offset"]), int(ref["length"]), slices, path, 0)


def _validate_dv_entry(e: Any, path: str | None) -> None:
    from .checksum import check_crc32  # noqa: PLC0415

    check_crc32(_DV_BIN_BUILD(e["bin"]), e["crc"], "deletion vector", path=path)
    if e["bin"]["magic"] == _c.DV_MAGIC_BITMAP32:
        r = e["bin"]["bitmap"]["roaring"]
        n = _rt.roaring32_size(r) if len(r) else 0
        if n != len(r):
            raise CorruptDataError(f"32-bit deletion vector holds {len(r)} bitmap bytes, the bitmap is {n}",
                                   path=path, expected=f"{n} bytes")


def _DV_BIN_BUILD(b: Any) -> bytes:  # noqa: N802
    from .generated.construct.deletion_vector import DvBin  # noqa: PLC0415

    return DvBin.build(b)


def _validate_dv_file(obj: Any, path: str | None) -> None:
    for e in obj["entries"]:
        _validate_dv_entry(e, path)


def _wrap_validator(fn: Callable[[Any, str | None], None]) -> Callable[[Any, str | None], None]:
    def run(obj: Any, path: str | None) -> None:
        try:
            fn(obj, path)
        except PaimonCodecError:
            raise
        except _rt.CodecError as e:
            raise translate_error(e, path, "payload") from None

    return run


FORMATS: dict[str, FormatSpec] = {
    s.name: s
    for s in [
        FormatSpec("file-index", "file_index", "file-index container (embedded or <data file>.index)",
                   detector=_is_container),
        FormatSpec("bitmap", "bitmap_index", "bitmap index payload, V1 or V2", needs_key_kind=True,
                   validator=_wrap_validator(_validate_bitmap)),
        FormatSpec("bloom-filter", "bloom_filter", "bloom-filter index payload"),
        FormatSpec("range-bitmap", "range_bitmap", "range-bitmap index payload", needs_key_kind=True,
                   validator=_wrap_validator(_validate_range_bitmap)),
        FormatSpec("bsi", "bsi", "BSI index payload (deprecated)", strict_end=True),
        FormatSpec("deletion-vectors", "deletion_vectors", "DELETION_VECTORS index file", detector=_is_dv_file,
                   validator=_wrap_validator(_validate_dv_file)),
        FormatSpec("deletion-vector", "deletion_vector", "one deletion vector: size | bin | crc32",
                   strict_end=True, detector=_is_dv_entry, validator=_wrap_validator(_validate_dv_entry)),
        FormatSpec("delete-map", "delete_map", "legacy DELETE_MAP index file (seed 003)"),
        FormatSpec("hash-index", "hash_index", "dynamic-bucket HASH index file"),
        FormatSpec("roaring32", "roaring32", "portable Roaring32 bitmap", strict_end=True),
        FormatSpec("roaring64", "roaring64", "portable Roaring64 bitmap", strict_end=True),
    ]
}


def get(name: str) -> FormatSpec:
    try:
        return FORMATS[name]
    except KeyError:
        raise UsageError(f"unknown format {name!r}", expected="one of " + ", ".join(FORMATS)) from None


def detect(data: bytes) -> str | None:
    """The format name the bytes identify themselves as (magic / version byte), else None."""
    for spec in FORMATS.values():
        if spec.detect(data):
            return spec.name
    return None


def parse(data: bytes, path: str | None = None, *, fmt: str | None = None, key_kind: str | None = None,
          full_bytes: bool = False) -> dict:
    """Detect (or use ``fmt``) and decode ``data`` into plain JSON-able data."""
    name = fmt or detect(data)
    if name is None:
        raise PaimonCodecError("cannot tell the format from the bytes", path=path,
                               expected="a --format (" + ", ".join(FORMATS) + ")")
    return get(name).parse(data, path, key_kind, full_bytes=full_bytes)


def translate_error(e: BaseException, path: str | None, what: str) -> PaimonCodecError:
    """Turn a Construct / runtime error into the paimon_codec.errors family (one line)."""
    if isinstance(e, PaimonCodecError):
        return e.with_path(path)
    if isinstance(e, _rt.CodecError):
        cls = {"truncated": TruncatedDataError, "version": UnsupportedVersionError}.get(e.kind, CorruptDataError)
        msg = _first_line(e)
        return cls(f"{what}: {msg}", path=path, offset=e.offset, expected=e.expected)
    offset = _rt.LAST_READ[1] if _rt.LAST_READ[0] is not None else None
    if isinstance(e, construct.StreamError):
        return TruncatedDataError(f"{what}: input ends early ({_first_line(e)})", path=path, offset=offset,
                                  expected="more bytes")
    # only what codecs raise on bad bytes; TypeError / KeyError / IndexError are bugs and stay bugs
    if isinstance(e, (construct.ConstructError, ValueError, OverflowError, UnicodeDecodeError, struct_error())):
        return CorruptDataError(f"{what}: {type(e).__name__}: {_first_line(e)}", path=path, offset=offset)
    raise e


def struct_error() -> type:
    import struct  # noqa: PLC0415

    return struct.error


def _array_list(arr: np.ndarray) -> list:
    out = arr.tolist()
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        out = [v if v == v and v not in (float("inf"), float("-inf")) else repr(v) for v in out]
    return out


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    # Construct prefixes "Error in path (parsing) -> a -> b"; keep the path and the message
    return " ".join(t.strip() for t in text if t.strip())[:300] if text else type(e).__name__


def plain(obj: Any, *, full_bytes: bool = False, hex_prefix: int = 32) -> Any:
    """Construct result -> JSON-able data.  Byte fields (``bytes`` or the read-only ``memoryview``
    slices a parse returns) become ``{"length", "hex"}`` (a prefix unless
    ``full_bytes``); numpy arrays become lists (structured arrays: lists of dicts)."""
    if isinstance(obj, dict):
        return {k: plain(v, full_bytes=full_bytes, hex_prefix=hex_prefix) for k, v in obj.items()
                if not k.startswith("_")}
    if isinstance(obj, (bytes, bytearray, memoryview)):  # parsed bulk fields are memoryviews of the input
        b = obj.tobytes() if isinstance(obj, memoryview) and obj.format != "B" else obj
        return {"length": len(b), "hex": b.hex() if full_bytes else b[:hex_prefix].hex()}
    if isinstance(obj, np.ndarray):
        if obj.dtype.names:
            names = obj.dtype.names
            cols = [_array_list(obj[n]) for n in names]
            return [dict(zip(names, row, strict=True)) for row in zip(*cols, strict=True)]
        return _array_list(obj)
    if isinstance(obj, (list, tuple)):
        return [plain(v, full_bytes=full_bytes, hex_prefix=hex_prefix) for v in obj]
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, float) and (obj != obj or obj in (float("inf"), float("-inf"))):
        return repr(obj)  # NaN / inf are not JSON
    return obj
