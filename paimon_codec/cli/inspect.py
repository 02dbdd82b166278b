"""``paimon-codec formats`` and ``paimon-codec inspect PATH [--format NAME] [--json]``.

``inspect`` detects the format where the bytes allow it (container magic, DV file version byte +
first magic, single DV entry magic) and otherwise needs ``--format``; a ``.blob`` data file is
recognised by its name (rows, nulls, each record checked); global-index files are
recognised (:mod:`paimon_codec.global_index_files`): Java's bitmap one decodes as ``bitmap``, B-tree
and pypaimon bitmap ones are walked whole by :mod:`paimon_codec.globalindex.describe` (every CRC checked;
keys decoded given ``--type``), others are refused by name; key-typed payloads
(``bitmap``, ``range-bitmap``) also need ``--key-kind`` (or ``--type`` with a Paimon type).  It
prints the decoded structure; byte fields are shown as their length and a hex prefix.  For a
file-index container, ``--schema "a INT, b STRING"`` (or a JSON list of ``{"name", "type"}``) also
decodes each index payload with its own codec (bitmap with the column's key kind, bloom-filter,
range-bitmap, bsi); payloads of columns the schema does not name, and of other index types, stay
bytes.  Bad input
exits non-zero with a one-line message (the CLI turns :class:`~paimon_codec.errors.PaimonCodecError`
into ``paimon-codec: error: ...``).
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any

from .. import formats as F
from ..errors import InvalidOptionError, PaimonCodecError, UnsupportedTypeError
from ..types import DataType, RowType, parse_row_type
from .common import JSON_LINE, CommandGroup, print_json

__all__ = ["register", "cmd_formats", "cmd_inspect", "decode_container", "render_text", "SLICE_FORMATS"]

#: file-index ``index_type`` -> the format (codec) of its payload
SLICE_FORMATS = {"bitmap": "bitmap", "bloom-filter": "bloom-filter", "range-bitmap": "range-bitmap", "bsi": "bsi"}


def register(root: CommandGroup) -> None:
    p = root.command("formats", cmd_formats, "list the on-disk formats (schemas) this tool knows",
                     json=JSON_LINE + ": one object per format")
    p.add_argument("--schema", metavar="NAME", help="print one format's schema (.ksy, the single source of its "
                   "layout); NAME is a format name or a schema id")

    p = root.command("inspect", cmd_inspect, "decode an index file and print its structure", json=JSON_LINE + ": path, format, size, structure")
    p.add_argument("path", help="file to decode")
    p.add_argument("--format", choices=sorted(F.FORMATS), help="format (detected from the bytes when possible)")
    p.add_argument("--key-kind", choices=F.KEY_KINDS, help="key kind of bitmap / range-bitmap payloads")
    p.add_argument("--type", dest="data_type", help="Paimon column type of the payload (instead of --key-kind)")
    p.add_argument("--schema", help='file-index containers: row type ("a INT, b STRING" or JSON) to decode '
                   "each index payload with its codec")
    p.add_argument("--hex-bytes", type=int, default=32, help="hex prefix length of byte fields (default 32)")
    p.add_argument("--max-items", type=int, default=20, help="list items shown in text output (default 20)")


def cmd_formats(args: argparse.Namespace) -> int:
    if args.schema:
        sys.stdout.write(schema_text(args.schema))
        return 0
    rows = [
        {"name": s.name, "schema": f"schemas/{s.schema_id}.ksy", "codec": f"paimon_codec.generated.construct.{s.schema_id}.{F.class_name(s.schema_id)}", "detectable": s.detector is not None,
         "needs_key_kind": s.needs_key_kind, "description": s.description}
        for s in F.FORMATS.values()
    ]
    if args.json:
        print_json(rows)
        return 0
    width = max(len(s.name) for s in F.FORMATS.values())
    for r in rows:
        flags = []
        if r["detectable"]:
            flags.append("detected")
        if r["needs_key_kind"]:
            flags.append("needs --key-kind")
        extra = f" [{', '.join(flags)}]" if flags else ""
        print(f"{r['name']:<{width}}  {r['schema']:<28} {r['description']}{extra}")
    return 0


def schema_text(name: str) -> str:
    """The ``.ksy`` text of a format (by format name or schema id, e.g. ``bitmap`` or ``paimon_key``)."""
    sid = F.FORMATS[name].schema_id if name in F.FORMATS else name
    path = F.REPO_SCHEMAS / f"{sid}.ksy"
    if not re.fullmatch(r"[a-z0-9_]+", sid) or not path.is_file():
        known = sorted({*F.FORMATS, *(p.stem for p in F.REPO_SCHEMAS.glob("*.ksy"))})
        raise InvalidOptionError(f"no schema {name!r}", expected="one of " + ", ".join(known))
    return path.read_text(encoding="utf-8")


def cmd_inspect(args: argparse.Namespace) -> int:
    from .. import storage

    path = args.path
    data = storage.read_bytes(path)
    if args.format is None and storage.basename(path).endswith(".blob"):
        return _inspect_blob_file(path, data, args)
    name = args.format or F.detect(data)
    if args.format is None:
        described = _global_index_structure(path, data, args)
        if described is not None:
            return _print_structure(args, path, f"{described['layout'].split()[0]}-global-index", data, described)
        name = _global_index_format(path, data, args) or name
    if name is None:
        raise F.PaimonCodecError("cannot tell the format from the bytes", path=str(path),
                                 expected="--format " + "|".join(F.FORMATS))
    spec = F.get(name)
    if args.schema is not None:
        if name != "file-index":
            raise InvalidOptionError(f"--schema applies to file-index containers, not to {name}", path=str(path),
                                     expected="--format file-index")
        decoded = decode_container(data, parse_row_type(args.schema), str(path), hex_prefix=args.hex_bytes)
    else:
        key_kind = args.key_kind or (F.key_kind_for(args.data_type) if args.data_type else None)
        decoded = F.plain(spec.decode(data, str(path), key_kind), hex_prefix=args.hex_bytes)
    return _print_structure(args, path, name, data, decoded)


def _print_structure(args: argparse.Namespace, path: str, name: str, data: bytes, decoded: Any) -> int:
    if args.json:
        print_json({"path": str(path), "format": name, "size": len(data), "structure": decoded})
    else:
        print(f"{path}: {name} ({len(data)} bytes)")
        for line in render_text(decoded, max_items=args.max_items):
            print(line)
    return 0


def _global_index_structure(path: str, data: bytes, args: argparse.Namespace) -> dict | None:
    """A B-tree or pypaimon bitmap global-index file, decoded whole (keys as bytes without ``--type``)."""
    from .. import storage
    from ..fileio import ByteSource
    from ..global_index_files import recognise
    from ..globalindex.describe import describe_global_index
    from ..globalindex.keys import global_key_codec

    found = recognise(storage.basename(path), data)
    if found is None or found.global_layout is None:
        return None
    codec = global_key_codec(args.data_type) if args.data_type else None
    return describe_global_index(ByteSource(data, path=str(path)), found.global_layout, codec,
                                 hex_prefix=args.hex_bytes)


def _inspect_blob_file(path: str, data: bytes, args: argparse.Namespace) -> int:
    """A BLOB data file (``schemas/blob_file.ksy``), recognised by its ``.blob`` name: it is read from
    its end, so its bytes alone do not identify it."""
    from ..fileio import ByteSource
    from ..reading.blob_file import describe_blob_file

    with ByteSource(data, path=str(path)) as src:
        decoded = describe_blob_file(src)
    if args.json:
        print_json({"path": str(path), "format": "blob", "size": len(data), "structure": decoded})
    else:
        print(f"{path}: blob ({len(data)} bytes)")
        for line in render_text(decoded, max_items=args.max_items):
            print(line)
    return 0


def _global_index_format(path: str, data: bytes, args: argparse.Namespace) -> str | None:
    """The format of a global-index file (a Java bitmap one is a bitmap payload), or refuse it by name."""
    from .. import storage
    from ..global_index_files import recognise

    found = recognise(storage.basename(path), data)
    if found is None:
        return None
    if found.format is None:
        raise UnsupportedTypeError(found.refusal(), path=str(path))
    if F.get(found.format).needs_key_kind and not (args.key_kind or args.data_type):
        raise InvalidOptionError(f"a Paimon {found.index_type} global-index file ({found.layout}) needs the "
                                 "indexed column's type", path=str(path), expected="--type TYPE or --key-kind KIND")
    return found.format


def decode_container(data: bytes, row_type: RowType | str, path: str | None = None, *,
                     hex_prefix: int = 32) -> dict:
    """Plain (JSON-able) view of a file-index container with every index payload decoded.

    Each payload whose column ``row_type`` names and whose index type has a codec
    (:data:`SLICE_FORMATS`) is replaced by its decoded structure and the entry gains
    ``payload_format``; other payloads stay ``{"length", "hex"}``.  A damaged payload raises the
    codec's error with its offset in the whole file.
    """
    row_type = parse_row_type(row_type)
    container = F.get("file-index").decode(data, path)
    out = F.plain(container, hex_prefix=hex_prefix)
    for column, shown in zip(container["columns"], out["columns"], strict=True):
        dtype = _column_type(row_type, column["column_name"])
        for index, entry in zip(column["indexes"], shown["indexes"], strict=True):
            fmt = SLICE_FORMATS.get(index["index_type"])
            if dtype is None or fmt is None or index["payload"] is None:
                continue
            spec = F.get(fmt)
            key_kind = F.key_kind_for(dtype) if spec.needs_key_kind else None
            try:
                payload = spec.decode(index["payload"], path, key_kind)
            except PaimonCodecError as e:
                raise e.with_base_offset(index["start"]) from None
            entry["payload_format"] = fmt
            entry["payload"] = F.plain(payload, hex_prefix=hex_prefix)
    return out


def _column_type(row_type: RowType, column: str) -> DataType | None:
    """Type of an indexed column; ``m[k]`` (a map sub-column index) has the map's value type."""
    if column in row_type.names:
        return row_type.field(column).type
    base, bracket, _ = column.partition("[")
    if bracket and column.endswith("]") and base in row_type.names:
        mtype = row_type.field(base).type
        if mtype.root == "MAP" and len(mtype.children) == 2:
            return mtype.children[1]
    return None


def render_text(obj: Any, indent: int = 1, max_items: int = 20) -> list[str]:
    """Indented text view; long lists are cut after ``max_items`` items."""
    pad = "  " * indent
    out: list[str] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, dict) and set(v) == {"length", "hex"}:
                more = "..." if v["length"] * 2 > len(v["hex"]) else ""
                out.append(f"{pad}{k}: <{v['length']} bytes> {v['hex']}{more}")
            elif isinstance(v, (dict, list)):
                size = f" ({len(v)} items)" if isinstance(v, list) else ""
                out.append(f"{pad}{k}:{size}")
                out += render_text(v, indent + 1, max_items)
            else:
                out.append(f"{pad}{k}: {v!r}")
    elif isinstance(obj, list):
        scalars = all(not isinstance(v, (dict, list)) for v in obj)
        if scalars:
            shown = ", ".join(repr(v) for v in obj[:max_items])
            more = f", ... (+{len(obj) - max_items})" if len(obj) > max_items else ""
            out.append(f"{pad}[{shown}{more}]")
        else:
            for i, v in enumerate(obj[:max_items]):
                out.append(f"{pad}[{i}]")
                out += render_text(v, indent + 1, max_items)
            if len(obj) > max_items:
                out.append(f"{pad}... {len(obj) - max_items} more")
    else:
        out.append(f"{pad}{obj!r}")
    return out
