"""``paimon-codec dv ...``: read, write and convert deletion-vector files.

* ``dv read FILE [--entry] [--json]`` -> ``{"version", "entries": [{"offset", "length", "cardinality",
  "kind", "positions"}]}`` (``--entry``: FILE is one ``size | bin | crc32`` entry; version is null)
* ``dv write --input POSITIONS.json --output-dir DIR [--bitmap64] [--target-size SIZE] [--json]``
  (input ``{data_file: [[start, end), ...]}`` in write order) -> ``{"files": [{"file_name", "ranges":
  [[data_file, offset, length, cardinality], ...]}]}``
* ``dv to-puffin INPUT --output FILE [--names a,b] [--json]`` (INPUT: positions JSON or a DV index file)
* ``dv from-puffin FILE [--output-dir DIR] [--json]``
"""

from __future__ import annotations

import argparse
from typing import Any

from .. import storage
from ..dv.deletion_vector import DeletionVector
from ..dv.index_file import DEFAULT_TARGET_SIZE, read_dv_index, read_entry, write_dv_index
from ..dv.puffin import read_puffin, write_puffin
from ..errors import CorruptDataError, UsageError
from ..positions import positions_to_json
from .common import JSON_LINE, CommandGroup, emit, read_json_file

__all__ = ["register"]


def _positions(dv: DeletionVector) -> dict:
    return {"cardinality": dv.cardinality, "ranges": dv.ranges()}


def _entry_json(e) -> dict:
    return {"offset": e.offset, "length": e.length, "cardinality": e.cardinality, "kind": e.kind,
            "positions": _positions(e.dv)}


def _cmd_read(args: argparse.Namespace) -> int:
    if args.entry:
        entries, version = [read_entry(args.file, verify_crc=not args.no_crc)], None
    else:
        parsed = read_dv_index(args.file, verify_crc=not args.no_crc)
        entries, version = parsed.entries, parsed.version
    obj = {"version": version, "entries": [_entry_json(e) for e in entries]}
    lines = [f"{args.file}: version {version}, {len(entries)} deletion vector(s)"]
    lines += [f"  offset {e.offset} length {e.length} {e.kind}-bit cardinality {e.cardinality}" for e in entries]
    emit(obj, args.json, "\n".join(lines))
    return 0


def _load_positions_json(path: str, bitmap64: bool) -> list[tuple[str, DeletionVector]]:
    spec = read_json_file(path)
    if not isinstance(spec, dict):
        raise CorruptDataError("positions input must be an object {data_file: [[start, end), ...]}", path=path)
    out = []
    for name, ranges in spec.items():
        if isinstance(ranges, dict):
            if "ranges" not in ranges:
                raise CorruptDataError(f"positions of {name!r} need 'ranges'", path=path)
            ranges = ranges["ranges"]
        try:
            pairs = [(int(a), int(b)) for a, b in ranges]
        except (TypeError, ValueError):
            raise CorruptDataError(f"positions of {name!r} must be [[start, end), ...]", path=path) from None
        out.append((str(name), DeletionVector.from_ranges(pairs, bitmap64=bitmap64)))
    return out


def _cmd_write(args: argparse.Namespace) -> int:
    dvs = _load_positions_json(args.input, args.bitmap64)
    target = None if args.single_file else args.target_size
    factory = None
    if args.name_prefix:
        factory = lambda n: f"{args.name_prefix}-{n}"  # noqa: E731
    metas = write_dv_index(args.output_dir, dvs, target_size=target, name_factory=factory)
    obj = {"files": [{"file_name": m.file_name, "file_size": m.file_size, "row_count": m.row_count,
                      "ranges": [r.to_dict() for r in m.ranges]} for m in metas]}
    emit(obj, args.json, "\n".join(f"{storage.join(args.output_dir, m.file_name)}: {m.row_count} DV(s), "
                                    f"{m.file_size} bytes" for m in metas))
    return 0


def _cmd_to_puffin(args: argparse.Namespace) -> int:
    if args.input.endswith(".json"):
        dvs = _load_positions_json(args.input, True)
    else:
        entries = read_dv_index(args.input).entries
        names = args.names.split(",") if args.names else [f"entry-{e.offset}" for e in entries]
        if len(names) != len(entries):
            raise UsageError(f"{len(names)} names given for {len(entries)} deletion vectors")
        dvs = [(n, e.dv) for n, e in zip(names, entries, strict=True)]
    blobs = write_puffin(args.output, dvs)
    obj = {"file": args.output, "blobs": [b.to_dict() for b in blobs]}
    emit(obj, args.json, f"{args.output}: {len(blobs)} deletion-vector-v1 blob(s)")
    return 0


def _cmd_from_puffin(args: argparse.Namespace) -> int:
    blobs = read_puffin(args.file)
    obj: dict[str, Any] = {"blobs": [dict(b.to_dict(), positions=positions_to_json(b.dv))
                                     for b in blobs]}
    text = [f"{args.file}: {len(blobs)} deletion-vector-v1 blob(s)"]
    if args.output_dir:
        metas = write_dv_index(args.output_dir, [(b.referenced_data_file, b.loaded_dv()) for b in blobs],
                               target_size=None)
        obj["files"] = [{"file_name": m.file_name, "ranges": [r.to_dict() for r in m.ranges]} for m in metas]
        text.append(f"wrote {metas[0].file_name} ({metas[0].row_count} DVs)")
    emit(obj, args.json, "\n".join(text))
    return 0


def register(root: CommandGroup) -> None:
    sub = root.group("dv", "deletion-vector index files (read, write, Puffin interop)")

    p = sub.command("read", _cmd_read, json=JSON_LINE,
                    help="decode a DV index file (or one entry) and verify its checksums")
    p.add_argument("file")
    p.add_argument("--entry", action="store_true", help="FILE is a single size|bin|crc32 entry")
    p.add_argument("--no-crc", action="store_true", help="do not verify the CRC-32s (as Java <= 2.0 did)")

    p = sub.command("write", _cmd_write, json=JSON_LINE,
                    help="write DV index files from {data_file: [[start, end), ...]}")
    p.add_argument("--input", required=True, help="positions JSON, data files in write order")
    p.add_argument("--output-dir", required=True)
    p.add_argument("--bitmap64", action="store_true", help="64-bit (Iceberg-compatible) bins")
    p.add_argument("--target-size", default=DEFAULT_TARGET_SIZE,
                   help="roll to a new file past this size (MemorySize, default 2 mb)")
    p.add_argument("--single-file", action="store_true", help="never roll (bucketed-table writer)")
    p.add_argument("--name-prefix", help="name files PREFIX-<n> instead of index-<uuid>-<n>")

    p = sub.command("to-puffin", _cmd_to_puffin, json=JSON_LINE,
                    help="export deletion vectors as an Iceberg Puffin file")
    p.add_argument("input", help="positions JSON ({data_file: ranges}) or a DV index file")
    p.add_argument("--output", required=True)
    p.add_argument("--names", help="comma list of data file names for a DV index file's entries")

    p = sub.command("from-puffin", _cmd_from_puffin, json=JSON_LINE,
                    help="import deletion-vector-v1 blobs from a Puffin file")
    p.add_argument("file")
    p.add_argument("--output-dir", help="also write them as one 64-bit Paimon DV index file here")
