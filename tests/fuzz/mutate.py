"""Mutators of the fuzz harness: byte-level (aimed at length / count / offset fields), JSON-aware and
Avro-aware (records re-encoded through a widened writer schema, as a hostile writer would).

Everything is driven by one ``random.Random`` so an input is reproducible from ``(seed, index)``.
"""

from __future__ import annotations

import copy
import io
import json
import random
import struct
from typing import Any

import fastavro

__all__ = ["mutate_bytes", "mutate_json", "mutate_avro", "avro_seed", "widen_schema"]

_INTERESTING_8 = (0, 1, 0x7F, 0x80, 0xFF, 2, 8, 16, 0x40)
_INTERESTING_32 = (0, 1, -1, 2, 3, 4, 7, 8, 16, 32, 64, 100, 127, 128, 255, 256, 1000, 1024, 4096, 4097, 65535,
                   65536, 0x7FFF, 0x8000, 0x7FFFFFFF, -0x80000000, 0xFFFF, 2**24, 2**30, 12346, 12347)
_INTERESTING_64 = (0, 1, -1, 2**31 - 1, 2**32, 2**63 - 1, -(2**63), 2**40, 2**53)


def _put_int(buf: bytearray, rnd: random.Random, value: int | None = None) -> None:
    width = rnd.choice((1, 2, 4, 4, 4, 8))
    if len(buf) < width:
        return
    at = rnd.randrange(0, len(buf) - width + 1)
    if rnd.random() < 0.5:
        at -= at % width  # aligned: where length / count fields live
    if value is None:
        pool = _INTERESTING_64 if width == 8 else _INTERESTING_32
        value = rnd.choice(pool) if rnd.random() < 0.7 else rnd.choice((len(buf), len(buf) - at, len(buf) + 1,
                                                                          len(buf) * 8, rnd.getrandbits(8 * width)))
    order = rnd.choice("<>")
    fmt = {1: "B", 2: "H", 4: "I", 8: "Q"}[width]
    struct.pack_into(order + fmt, buf, at, value % (1 << (8 * width)))


def _nudge_length(buf: bytearray, rnd: random.Random) -> None:
    """Find a big-endian int32 that looks like a length or count (0 < v <= len) and move it a little."""
    if len(buf) < 4:
        return
    for _ in range(16):
        at = rnd.randrange(0, len(buf) - 3)
        (v,) = struct.unpack_from(">i", buf, at)
        if 0 < v <= len(buf):
            struct.pack_into(">i", buf, at, max(-(2**31), min(2**31 - 1, v + rnd.choice((-1, 1, -4, 4, 8, 100,
                                                                                             2**20, -v - 1)))))
            return


def mutate_bytes(data: bytes, rnd: random.Random, others: list[bytes] | None = None) -> bytes:
    """1-4 stacked byte-level mutations of ``data``."""
    buf = bytearray(data)
    for _ in range(rnd.choice((1, 1, 1, 2, 2, 3, 4))):
        op = rnd.randrange(12)
        n = len(buf)
        if op == 0 and n:
            i = rnd.randrange(n)
            buf[i] ^= 1 << rnd.randrange(8)
        elif op == 1 and n:
            buf[rnd.randrange(n)] = rnd.choice(_INTERESTING_8)
        elif op in (2, 3):
            _put_int(buf, rnd)
        elif op == 4:
            _nudge_length(buf, rnd)
        elif op == 5 and n:
            del buf[rnd.randrange(n + 1):]  # truncate
        elif op == 6:
            buf += bytes(rnd.getrandbits(8) for _ in range(rnd.choice((1, 4, 8, 64))))
        elif op == 7 and n > 1:
            a = rnd.randrange(n)
            del buf[a:a + rnd.randrange(1, min(64, n - a) + 1)]
        elif op == 8 and n > 1:
            a = rnd.randrange(n)
            chunk = buf[a:a + rnd.randrange(1, 65)]
            b = rnd.randrange(len(buf) + 1)
            buf[b:b] = chunk * rnd.choice((1, 2, 16))
        elif op == 9 and n:
            a = rnd.randrange(n)
            buf[a:a + rnd.randrange(1, 33)] = bytes(min(32, n - a)) if rnd.random() < 0.5 else b"\xff" * min(32, n - a)
        elif op == 10 and others:
            other = rnd.choice(others)
            if other:
                a, b = rnd.randrange(len(other)), rnd.randrange(len(buf) + 1)
                buf[b:] = other[a:]  # splice: our head, another seed's tail
        elif op == 11 and n:
            i = rnd.randrange(n)
            buf[i] = rnd.getrandbits(8)
    return bytes(buf)


# ------------------------------------------------------------------------------------------------ JSON
_JSON_VALUES: tuple[Any, ...] = (None, True, 0, -1, 2**63, 10**30, 1e308, -1e308, 0.5, "", "../../../etc/passwd",
                                 "x" * 300, [], {}, [1, 2], {"a": 1}, "schema-1", "INT", "ARRAY<INT>", "NOT NULL",
                                 "ROW<a INT>", "MAP<INT, STRING>", 2**31, -(2**31) - 1)


def _paths(obj: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:20]):
            out += _paths(v, prefix + (i,))
    return out


def _set(obj: Any, path: tuple, value: Any) -> Any:
    value = copy.deepcopy(value)  # never share the pools' lists / dicts: a shared one could come to hold itself
    if not path:
        return value
    parent = obj
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return obj


def mutate_json(data: bytes, rnd: random.Random, others: list[bytes] | None = None) -> bytes:
    """Replace / drop / deepen a random JSON value, or inject NaN / Infinity / huge numbers as text."""
    try:
        obj = json.loads(data)
    except ValueError:
        return mutate_bytes(data, rnd, others)
    for _ in range(rnd.choice((1, 1, 2, 3))):
        path = rnd.choice(_paths(obj))
        op = rnd.randrange(6)
        if op == 0:
            obj = _set(obj, path, rnd.choice(_JSON_VALUES))
        elif op == 1 and path:
            parent = obj
            for key in path[:-1]:
                parent = parent[key]
            del parent[path[-1]]
        elif op == 2:
            depth = rnd.choice((10, 63, 65, 200))
            deep: Any = "INT"
            for _ in range(depth):
                deep = rnd.choice(({"type": "ARRAY", "element": deep}, [deep]))
            obj = _set(obj, path, deep)
        elif op == 3:
            obj = _set(obj, path, "@TOKEN@")
        elif op == 4:
            obj = _set(obj, path, "ARRAY<" * rnd.choice((5, 70, 1000)) + "INT" + ">" * rnd.choice((5, 70, 1000)))
        else:
            return mutate_bytes(json.dumps(obj).encode(), rnd, others)
    text = json.dumps(obj)
    token = rnd.choice(("NaN", "Infinity", "-Infinity", "1e999", "1" + "0" * 400, "[" * 100 + "]" * 100, "null"))
    return text.replace('"@TOKEN@"', token).encode()


# ------------------------------------------------------------------------------------------------ Avro
_PRIMS = ["null", "boolean", "int", "long", "double", "bytes", "string"]


def widen_schema(schema: Any) -> Any:
    """A copy of an Avro record schema whose every field also admits every primitive, an array of strings
    and a map of longs: what an attacker's writer can declare."""
    schema = json.loads(json.dumps(schema))

    def widen(t: Any) -> Any:
        branches = t if isinstance(t, list) else [t]
        branches = [widen_record(b) if isinstance(b, dict) and b.get("type") == "record" else b for b in branches]
        names = {b if isinstance(b, str) else b.get("type") for b in branches}
        extra = [p for p in _PRIMS if p not in names]
        if "array" not in names:
            extra.append({"type": "array", "items": ["null", "string", "long"]})
        if "map" not in names:
            extra.append({"type": "map", "values": "long"})
        return branches + extra

    def widen_record(rec: dict) -> dict:
        for f in rec["fields"]:
            f["type"] = widen(f["type"])
            f.pop("default", None)
        return rec

    return widen_record(schema)


def avro_seed(data: bytes) -> tuple[dict, list[dict]]:
    """(writer schema, records) of an Avro file."""
    reader = fastavro.reader(io.BytesIO(data))
    return reader.writer_schema, list(reader)


_AVRO_VALUES: tuple[Any, ...] = (None, True, -1, 0, 2**31 - 1, 2**31, 2**63 - 1, -(2**63), float("nan"),
                                 float("inf"), 1e308, b"", b"\x00" * 3, "", "../../x", "/etc/passwd", ".", "..",
                                 "a/b", "x" * 5000, ["../y"], {"k": 1}, "data-missing.parquet", "\x00")


def mutate_avro(parsed_wide_schema: Any, records: list[dict], rnd: random.Random, codec: str = "null") -> bytes:
    """Re-encode ``records`` with 1-3 fields set to hostile values (any type) through a widened schema
    (``fastavro.parse_schema(widen_schema(writer_schema))``, parsed once per seed)."""
    records = json.loads(json.dumps(records, default=lambda b: {"@b": b.hex()} if isinstance(b, bytes) else str(b)),
                         object_hook=lambda d: bytes.fromhex(d["@b"]) if set(d) == {"@b"} else d)
    if records:
        for _ in range(rnd.choice((1, 1, 2, 3))):
            rec = rnd.choice(records)
            paths = [p for p in _paths(rec) if p]
            if paths:
                _set(rec, rnd.choice(paths), rnd.choice(_AVRO_VALUES))
    if rnd.random() < 0.2 and records:
        records = records * rnd.choice((2, 50)) if rnd.random() < 0.5 else records[: rnd.randrange(len(records))]
    out = io.BytesIO()
    # the sync marker from ``rnd`` too: fastavro's default is os.urandom, and an input must be a function of
    # (seed, index) alone, or a resumed run, a recheck and a reproduction would see other bytes
    fastavro.writer(out, parsed_wide_schema, records, codec=codec, sync_marker=rnd.randbytes(16))
    return out.getvalue()
