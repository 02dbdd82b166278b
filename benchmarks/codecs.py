"""Parse + build speed of the generated codecs against hand-written struct/numpy baselines.

Cases (measured in the same run, best of several repeats):

a. a dynamic-bucket hash index of 10,000,000 hashes (``hash_index.HashIndex``): parse = bytes to a
   native int32 array, build = native int32 array to bytes (decoding the big-endian ints is part
   of the job; a zero-copy big-endian view alone costs ~1 us, below the codec's ~10 us fixed cost);
b. a bitmap-index V1 dictionary of 100,000 string keys (``bitmap_index.BitmapIndex``);
c. a DELETION_VECTORS file of 1,000 32-bit bins (``deletion_vectors.DeletionVectors``).

Each baseline decodes/encodes the same structure by hand (``struct`` / ``numpy``) into plain
dicts / lists / arrays (the codecs produce Construct Containers of the same shape), with the same
checks (magic, bounds).  Prints a markdown table and writes it to ``benchmarks/results/codecs.md``.

    .venv/bin/python benchmarks/codecs.py [--quick]
"""

from __future__ import annotations

import argparse
import struct
import sys
import zlib

import numpy as np
from _harness import RESULTS, alternate, markdown_table, write_result
from pyroaring import BitMap

from paimon_codec.generated.construct.bitmap_index import BitmapIndex
from paimon_codec.generated.construct.deletion_vectors import DeletionVectors
from paimon_codec.generated.construct.hash_index import HashIndex


def best_pair(fn, base, repeat: int) -> tuple[float, float]:
    """Best-of-``repeat`` seconds of ``fn`` and ``base``, measured alternately (the machine is shared,
    so alternating keeps both exposed to the same load)."""
    (a, b), _ = alternate([fn, base], repeat)
    return min(a) / 1000, min(b) / 1000


def measure(case: str, size: int, parse, parse_base, build, build_base, repeat: int, limit) -> dict:
    p, pb = best_pair(parse, parse_base, repeat)
    b, bb = best_pair(build, build_base, repeat)
    return dict(case=case, size=size, parse=p, parse_base=pb, build=b, build_base=bb, limit=limit)


# -- (a) hash index -------------------------------------------------------------------------------


def hash_data(n: int) -> bytes:
    rng = np.random.default_rng(1)
    return rng.integers(-(2**31), 2**31, n, dtype=np.int64).astype(">i4").tobytes()


def hash_base_parse(data: bytes) -> np.ndarray:
    if len(data) % 4:
        raise ValueError("truncated hash index")
    return np.frombuffer(data, dtype=">i4").astype(np.int32)


def hash_base_build(arr: np.ndarray) -> bytes:
    return arr.astype(">i4").tobytes()


def hash_codec_parse(data: bytes) -> np.ndarray:
    return HashIndex.parse(data).hashes.astype(np.int32)


def hash_codec_build(arr: np.ndarray) -> bytes:
    return HashIndex.build({"hashes": arr})


# -- (b) V1 string dictionary ---------------------------------------------------------------------


def v1_data(n: int) -> bytes:
    keys = [f"key-{i:07d}-{'x' * (i % 13)}".encode() for i in range(n)]
    out = bytearray(struct.pack(">bii b", 1, n * 2, n, 0))
    for i, k in enumerate(keys):
        out += struct.pack(">i", len(k)) + k + struct.pack(">i", -1 - 2 * i)
    return bytes(out)


def v1_base_parse(data: bytes) -> dict:
    version, rows, n, has_null = struct.unpack_from(">biib", data, 0)
    p = 10
    null_off = None
    if has_null:
        (null_off,) = struct.unpack_from(">i", data, p)
        p += 4
    unpack = struct.Struct(">i").unpack_from
    entries = []
    for _ in range(n):
        (ln,) = unpack(data, p)
        key = data[p + 4:p + 4 + ln].decode()
        p += 4 + ln
        (off,) = unpack(data, p)
        p += 4
        entries.append({"key": key, "offset": off})
    return {"version": version, "row_count": rows, "non_null_bitmap_number": n, "has_null_value": has_null,
            "null_value_offset": null_off, "entries": entries, "body": data[p:]}


def v1_base_build(obj: dict) -> bytes:
    out = bytearray(struct.pack(">biib", obj["version"], obj["row_count"], len(obj["entries"]),
                                obj["has_null_value"]))
    if obj["has_null_value"]:
        out += struct.pack(">i", obj["null_value_offset"])
    pack = struct.Struct(">i").pack
    for e in obj["entries"]:
        k = e["key"].encode()
        out += pack(len(k))
        out += k
        out += pack(e["offset"])
    out += obj["body"]
    return bytes(out)


# -- (c) DV file ------------------------------------------------------------------------------------


def dv_data(n: int) -> bytes:
    rng = np.random.default_rng(3)
    out = bytearray(b"\x01")
    for _ in range(n):
        bm = BitMap(rng.choice(200_000, size=int(rng.integers(1, 400)), replace=False).tolist())
        bm.run_optimize()
        b = bytes.fromhex("5e43f2d0") + bm.serialize()
        c = zlib.crc32(b)
        out += struct.pack(">i", len(b)) + b + struct.pack(">i", c - (1 << 32) if c >= 1 << 31 else c)
    return bytes(out)


def dv_base_parse(data: bytes) -> dict:
    unpack = struct.Struct(">i").unpack_from
    unpack_u = struct.Struct(">I").unpack_from
    p, end = 1, len(data)
    entries = []
    while p < end:
        (size,) = unpack(data, p)
        if size < 4 or p + 8 + size > end:
            raise ValueError("truncated deletion vector")
        (magic,) = unpack_u(data, p + 4)
        if magic != 0x5E43F2D0:
            raise ValueError("not a 32-bit deletion vector")
        roaring = data[p + 8:p + 4 + size]
        (crc,) = unpack(data, p + 4 + size)
        entries.append({"size": size, "bin": {"magic": magic, "bitmap": {"roaring": roaring}}, "crc": crc})
        p += 8 + size
    return {"version": data[0], "entries": entries}


def dv_base_build(obj: dict) -> bytes:
    out = bytearray([obj["version"]])
    pack = struct.Struct(">i").pack
    pack_u = struct.Struct(">I").pack
    for e in obj["entries"]:
        b = pack_u(e["bin"]["magic"]) + e["bin"]["bitmap"]["roaring"]
        c = zlib.crc32(b)
        out += pack(len(b))
        out += b
        out += pack(c - (1 << 32) if c >= 1 << 31 else c)
    return bytes(out)


# -- driver -----------------------------------------------------------------------------------------


def run(quick: bool = False) -> list[dict]:
    rows = []
    repeat = 3 if quick else 5

    n_hash = 1_000_000 if quick else 10_000_000
    data = hash_data(n_hash)
    native = hash_codec_parse(data)
    assert hash_codec_build(native) == data and (native == hash_base_parse(data)).all()
    rows.append(measure(f"(a) hash index, {n_hash:,} hashes", len(data), lambda: hash_codec_parse(data),
                        lambda: hash_base_parse(data), lambda: hash_codec_build(native),
                        lambda: hash_base_build(native), repeat * 2, 2.0))

    n_keys = 20_000 if quick else 100_000
    data = v1_data(n_keys)
    parsed = BitmapIndex.parse(data, key_kind="string")
    assert BitmapIndex.build(parsed, key_kind="string") == data
    base = v1_base_parse(data)
    assert v1_base_build(base) == data
    rows.append(measure(f"(b) bitmap V1 dictionary, {n_keys:,} string keys", len(data),
                        lambda: BitmapIndex.parse(data, key_kind="string"), lambda: v1_base_parse(data),
                        lambda: BitmapIndex.build(parsed, key_kind="string"), lambda: v1_base_build(base),
                        repeat, None))

    data = dv_data(1000)
    parsed = DeletionVectors.parse(data)
    assert DeletionVectors.build(parsed) == data
    base = dv_base_parse(data)
    assert dv_base_build(base) == data
    rows.append(measure("(c) DV index file, 1,000 32-bit bins", len(data), lambda: DeletionVectors.parse(data),
                        lambda: dv_base_parse(data), lambda: DeletionVectors.build(parsed),
                        lambda: dv_base_build(base), repeat * 4, 2.0))
    return rows


def table(rows: list[dict]) -> str:
    cells = []
    for r in rows:
        rp, rb = r["parse"] / r["parse_base"], r["build"] / r["build_base"]
        target = "-" if r["limit"] is None else (f"<= {r['limit']:g}x " + (
            "met" if max(rp, rb) <= r["limit"] else "MISSED"))
        cells.append([r["case"], f"{r['size']:,}", f"{r['parse'] * 1e3:.2f}", f"{r['parse_base'] * 1e3:.2f}",
                      f"{rp:.2f}x", f"{r['build'] * 1e3:.2f}", f"{r['build_base'] * 1e3:.2f}", f"{rb:.2f}x", target])
    return markdown_table(["case", "bytes", "parse (ms)", "baseline parse (ms)", "ratio", "build (ms)",
                           "baseline build (ms)", "ratio", "target"],
                          ["---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---"], cells)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller inputs (not for the numbers of benchmarks/README.md)")
    ap.add_argument("--no-save", action="store_true", help="do not write benchmarks/results/codecs.md")
    args = ap.parse_args(argv)
    text = table(run(args.quick))
    print(text)
    if not args.no_save and not args.quick:
        write_result(RESULTS / "codecs.md",
                     "# Codec benchmark (`benchmarks/codecs.py`)\n\nRatios are generated codec time / "
                     "hand-written struct+numpy baseline time, same run, best of several repeats.\n\n"
                     + text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
