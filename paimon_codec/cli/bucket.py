"""``paimon-codec bucket ...``: HASH index files, key hashes and bucket assignment.

* ``bucket read FILE [--json]`` -> ``{"hashes": [...]}``
* ``bucket hash --key-types "INT, STRING" --keys-json PATH --buckets 1,2,16 [--json]`` -> one
  ``{"binary_row": hex, "hash": int, "buckets": {"16": b, ...}}`` per key (a JSON list)
* ``bucket assign --key-types ... --keys-json PATH --target-row-num N [--max-buckets M]
  [--load BUCKET=HASHFILE ...] [--json]`` -> ``{"buckets": [...]}`` in arrival order
"""

from __future__ import annotations

import argparse
from typing import Any

from ..bucket.assign import DEFAULT_TARGET_ROW_NUM, DynamicBucketAssigner, fixed_buckets
from ..bucket.binary_row import KeyEncoder
from ..bucket.hash_index import read_hash_index
from ..errors import CorruptDataError, InvalidOptionError
from ..values import from_json
from .common import JSON_LINE, CommandGroup, emit, read_json_file

__all__ = ["register"]


def _load_keys(path: str, enc: KeyEncoder) -> list[list[Any]]:
    """Keys in the golden value encoding: a list of key lists, or a sidecar with ``keys`` / ``rows``."""
    spec = read_json_file(path)
    if isinstance(spec, dict):
        if "keys" in spec:
            spec = spec["keys"]
        elif "rows" in spec:
            spec = [r["key"] if isinstance(r, dict) else r for r in spec["rows"]]
        else:
            raise CorruptDataError("keys JSON must be a list of keys or have 'keys' / 'rows'", path=path)
    if not isinstance(spec, list):
        raise CorruptDataError("keys JSON must be a list", path=path)
    rows = []
    for i, key in enumerate(spec):
        if not isinstance(key, list):
            if enc.arity != 1:
                raise CorruptDataError(f"key {i} is not a list of {enc.arity} values", path=path)
            key = [key]
        if len(key) != enc.arity:
            raise CorruptDataError(f"key {i} has {len(key)} values, the key has {enc.arity} fields", path=path)
        rows.append([from_json(t, v) for t, v in zip(enc.types, key, strict=True)])
    return rows


def _cmd_read(args: argparse.Namespace) -> int:
    hashes = read_hash_index(args.file)
    emit({"hashes": hashes.tolist()}, args.json, f"{args.file}: {hashes.size} hash(es)")
    return 0


def _parse_buckets(text: str) -> list[int]:
    try:
        out = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise InvalidOptionError(f"--buckets must be a comma list of ints, got {text!r}") from None
    if any(n <= 0 for n in out):
        raise InvalidOptionError("bucket counts must be positive")
    return out


def _cmd_hash(args: argparse.Namespace) -> int:
    enc = KeyEncoder(args.key_types)
    rows = _load_keys(args.keys_json, enc)
    encoded = enc.encode_many(rows)
    hashes = enc.hash_many(rows)
    counts = _parse_buckets(args.buckets) if args.buckets else []
    per_n = {n: fixed_buckets(hashes, n).tolist() for n in counts}
    out = [{"binary_row": b.hex(), "hash": int(h), "buckets": {str(n): per_n[n][i] for n in counts}}
           for i, (b, h) in enumerate(zip(encoded, hashes.tolist(), strict=True))]
    emit(out, args.json, "\n".join(f"{o['hash']}\t{o['binary_row']}\t{o['buckets']}" for o in out))
    return 0


def _cmd_assign(args: argparse.Namespace) -> int:
    enc = KeyEncoder(args.key_types)
    rows = _load_keys(args.keys_json, enc)
    assigner = DynamicBucketAssigner(args.target_row_num, max_buckets=args.max_buckets,
                                     num_assigners=args.num_assigners, assign_id=args.assign_id)
    for spec in args.load or []:
        bucket, sep, path = spec.partition("=")
        if not sep or not (bucket.strip().isascii() and bucket.strip().isdigit()):
            raise InvalidOptionError(f"--load expects BUCKET=HASHFILE, got {spec!r}")
        assigner.load(int(bucket), path)
    buckets = assigner.assign_many(enc.hash_many(rows)).tolist()
    emit({"buckets": buckets}, args.json, "\n".join(map(str, buckets)))
    return 0


def register(root: CommandGroup) -> None:
    sub = root.group("bucket", "dynamic-bucket hash index, key hashes, bucket assignment")

    p = sub.command("read", _cmd_read, "decode a HASH index file", json=JSON_LINE)
    p.add_argument("file")

    p = sub.command("hash", _cmd_hash, "BinaryRow bytes, hash and fixed buckets of key rows", json=JSON_LINE)
    p.add_argument("--key-types", required=True, help='e.g. "INT, STRING"')
    p.add_argument("--keys-json", required=True, help="JSON list of keys (golden value encoding)")
    p.add_argument("--buckets", default="", help="comma list of bucket counts, e.g. 1,2,16")

    p = sub.command("assign", _cmd_assign, "dynamic bucket of each key, in arrival order", json=JSON_LINE)
    p.add_argument("--key-types", required=True)
    p.add_argument("--keys-json", required=True)
    p.add_argument("--target-row-num", type=int, default=DEFAULT_TARGET_ROW_NUM)
    p.add_argument("--max-buckets", type=int, default=-1)
    p.add_argument("--num-assigners", type=int, default=1)
    p.add_argument("--assign-id", type=int, default=0)
    p.add_argument("--load", action="append", metavar="BUCKET=HASHFILE",
                   help="existing HASH index file of a bucket (repeatable)")
