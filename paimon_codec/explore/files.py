"""Opening one file for the explorer: which format it is, what its parameters are, its decoded structure (the
Construct codec's, as ``paimon-codec inspect --json`` prints it), its meaning, or the one-line error the CLI
would print, with the offset it names.

The page parses the bytes itself with the generated JavaScript parser (for the tree and the byte offsets of every
field); this module answers what only the library knows: detection, the key kind, the semantic readers, and the
verdict on bad bytes, so a damaged file shows the CLI's error rather than a blank page.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from .. import formats
from ..errors import PaimonCodecError
from .meaning import meaning_of

__all__ = ["MAX_FILE_BYTES", "EXTRA_FORMATS", "OpenedFile", "open_file", "error_line"]

#: files the format registry does not detect from their first bytes, by the explorer's name -> schema id:
#: global-index files (recognised by their footer magic), BLOB data files (by their ``.blob`` name: they are
#: read from the end), Puffin files (``PFA1`` at both ends)
EXTRA_FORMATS = {"btree-global-index": "btree_global_index", "bitmap-global-index": "bitmap_global_index",
                 "blob": "blob_file", "puffin": "puffin"}
_PUFFIN_MAGIC = b"PFA1"

#: files larger than this are refused by the explorer (the page holds the whole file for its hex view)
MAX_FILE_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class OpenedFile:
    path: str
    size: int
    format: str | None
    schema_id: str | None
    parser: str | None  # the generated JavaScript class (``BitmapIndex``)
    params: list[Any]   # the parser's parameters after (_io, _parent, _root), in the schema's order
    structure: Any
    meaning: dict[str, Any] | None
    error: dict[str, Any] | None

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "size": self.size, "format": self.format, "schema_id": self.schema_id,
                "parser": self.parser, "params": self.params, "structure": self.structure,
                "meaning": self.meaning, "error": self.error}


def error_line(exc: PaimonCodecError) -> dict[str, Any]:
    """The CLI's one line for ``exc`` (``paimon-codec: error: ...``) and the offset it names."""
    return {"message": f"paimon-codec: error: {exc}", "offset": exc.offset, "type": type(exc).__name__}


def open_file(path: str, *, fmt: str | None = None, data_type: str | None = None) -> OpenedFile:
    """Read ``path`` and describe it; never raises for bad bytes (the error is part of the answer)."""
    size = os.path.getsize(path)
    if size > MAX_FILE_BYTES:
        err = PaimonCodecError(f"{size} bytes is more than the explorer shows ({MAX_FILE_BYTES})", path=path)
        return OpenedFile(path, size, fmt, None, None, [], None, None, error_line(err))
    with open(path, "rb") as f:
        data = f.read()
    name = fmt or _recognise(path, data)
    if name in EXTRA_FORMATS:
        return _open_extra(path, size, data, name, data_type)
    if name is None:
        err = PaimonCodecError("cannot tell the format from the bytes", path=path,
                               expected="a format (" + ", ".join(formats.FORMATS) + ")")
        return OpenedFile(path, size, None, None, None, [], None, None, error_line(err))
    spec = formats.get(name)
    key_kind = None
    params: list[Any] = []
    try:
        if spec.needs_key_kind:
            if data_type is None:
                raise PaimonCodecError(f"a {name} payload needs its column's type", path=path,
                                       expected="a type (INT, STRING, ...) for the key encoding")
            key_kind = formats.key_kind_for(data_type)
            params = [key_kind]
        structure = spec.parse(data, path, key_kind)
        meaning = meaning_of(name, data, path, key_kind=key_kind, data_type=data_type)
    except PaimonCodecError as exc:
        return OpenedFile(path, size, name, spec.schema_id, formats.class_name(spec.schema_id), params, None, None,
                          error_line(exc))
    return OpenedFile(path, size, name, spec.schema_id, formats.class_name(spec.schema_id), params, structure, meaning, None)


def _recognise(path: str, data: bytes) -> str | None:
    """The format of ``data``: the registry's detection, global-index footers, ``.blob`` names, Puffin."""
    from ..global_index_files import recognise

    if os.path.basename(path).endswith(".blob"):
        return "blob"
    found = recognise(os.path.basename(path), data)
    if found is not None:
        if found.global_layout is not None:
            return f"{found.global_layout}-global-index"
        return found.format  # Java's bitmap global index: a bitmap payload (None: no schema describes it)
    if len(data) >= 8 and data[:4] == _PUFFIN_MAGIC and data[-4:] == _PUFFIN_MAGIC:
        return "puffin"
    return formats.detect(data)


def _open_extra(path: str, size: int, data: bytes, name: str, data_type: str | None) -> OpenedFile:
    """A global-index, BLOB or Puffin file: its structure is what ``inspect`` decodes (each walks the whole file,
    every CRC checked), which is also its meaning."""
    from ..fileio import ByteSource

    schema_id = EXTRA_FORMATS[name]
    try:
        described: Any
        if name == "blob":
            from ..reading.blob_file import describe_blob_file

            with ByteSource(data, path=path) as src:
                described = describe_blob_file(src)
        elif name == "puffin":
            from ..dv.puffin import read_puffin

            described = {"blobs": [b.to_dict() for b in read_puffin(data, path=path, load=False)]}
        else:
            from ..globalindex.describe import describe_global_index
            from ..globalindex.keys import global_key_codec

            codec = global_key_codec(data_type) if data_type else None
            described = describe_global_index(ByteSource(data, path=path), name.split("-")[0], codec)
    except PaimonCodecError as exc:
        return OpenedFile(path, size, name, schema_id, formats.class_name(schema_id), [], None, None, error_line(exc))
    return OpenedFile(path, size, name, schema_id, formats.class_name(schema_id), [], described,
                      {"kind": name.replace("-", " "), **described}, None)
