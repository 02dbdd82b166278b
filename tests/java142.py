"""Tables written and read by newest Paimon Java (1.4.2), driven in a subprocess (tests only).

Until ``tests/oracles/java_newest.py`` lands this is the file-index tests' own small driver:
:func:`run_java` sends a list of operations to :mod:`tests.java142_worker` in ONE subprocess (one JVM
start) and returns their results.  The jars are ``$PAIMON_NEWEST_JARS`` (a directory) or the
exploration copy at ``/tmp/jt/jars``; missing jars FAIL the test (no skip).
"""

from __future__ import annotations

import glob
import json
import math
import os
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

from paimon_codec.values import Timestamp

_WORKER = Path(__file__).with_name("java142_worker.py")


def jars() -> list[str]:
    root = os.environ.get("PAIMON_NEWEST_JARS", "/tmp/jt/jars")
    found = sorted(glob.glob(os.path.join(root, "*.jar")))
    if not any("paimon-bundle" in os.path.basename(j) for j in found):
        raise AssertionError(f"newest Paimon Java jars not found in {root} (set PAIMON_NEWEST_JARS)")
    return found


def encode(v: Any) -> Any:
    """A Python value as the worker's JSON (floats by bits, timestamps as millis + nanos)."""
    if isinstance(v, float):
        return {"bits": f"{struct.unpack('>Q', struct.pack('>d', v))[0]:016x}"}
    if isinstance(v, Timestamp):
        return {"millis": v.millis, "nanos": v.nanos_of_milli}
    return v


def decode(v: Any) -> Any:
    if isinstance(v, dict) and "bits" in v:
        bits = v["bits"]
        if len(bits) == 8:
            return struct.unpack(">f", bytes.fromhex(bits))[0]
        return struct.unpack(">d", bytes.fromhex(bits))[0]
    if isinstance(v, dict) and "millis" in v:
        return Timestamp(v["millis"], v["nanos"])
    return v


def encode_predicate(p: list) -> list:
    """``["eq", "f", 0.0]`` / ``["and", p1, p2]`` with literals encoded."""
    if p[0] in ("and", "or"):
        return [p[0], *[encode_predicate(c) for c in p[1:]]]
    return [p[0], p[1], *[encode(v) for v in p[2:]]]


def run_java(ops: list[dict], timeout: float = 600) -> list[Any]:
    """Run the operations; every result (``None`` for writes, rows for reads); a failure raises."""
    payload = json.dumps({"jars": jars(), "ops": ops})
    proc = subprocess.run([sys.executable, str(_WORKER)], input=payload, capture_output=True, text=True,
                          timeout=timeout)
    last = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode or not last:
        raise AssertionError(f"Java worker failed ({proc.returncode}): {proc.stderr[-3000:]}")
    results = json.loads(last[-1])["results"]
    for op, r in zip(ops, results, strict=True):
        if "error" in r:
            raise AssertionError(f"Java {op['op']} failed: {r['error']}\n{r.get('trace', '')}")
    return [None if r["ok"] is None else [[decode(v) for v in row] for row in r["ok"]] for r in results]


class JavaTable:
    """Operations on one table, collected and then run in one JVM by :meth:`run`."""

    def __init__(self, warehouse: str | os.PathLike, name: str = "db.t") -> None:
        self.warehouse = str(warehouse)
        self.name = name
        self.ops: list[dict] = []

    @property
    def path(self) -> str:
        db, _, t = self.name.partition(".")
        return os.path.join(self.warehouse, f"{db}.db", t)

    def _op(self, kind: str, **kw: Any) -> JavaTable:
        self.ops.append({"op": kind, "warehouse": self.warehouse, "table": self.name, **kw})
        return self

    def create(self, columns: list[tuple[str, str]], options: dict | None = None, **kw: Any) -> JavaTable:
        return self._op("create", columns=[list(c) for c in columns], options=options or {}, **kw)

    def write(self, rows: list[list[Any]]) -> JavaTable:
        return self._op("write", rows=[[encode(v) for v in r] for r in rows])

    def alter(self, *changes: tuple) -> JavaTable:
        return self._op("alter", changes=[list(c) for c in changes])

    def read(self, where: list | None = None) -> JavaTable:
        return self._op("read", where=None if where is None else encode_predicate(where))

    def run(self) -> list[list[list[Any]]]:
        """Run the collected operations; the rows of every ``read`` in order."""
        ops, self.ops = self.ops, []
        return [r for op, r in zip(ops, run_java(ops), strict=True) if op["op"] == "read"]


def same_value(a: Any, b: Any) -> bool:
    """Equality that tells -0.0 from 0.0 and NaN equal to NaN (rows compared bit for bit)."""
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b


def row_key(row: list[Any]) -> tuple:
    """A sort key for rows holding None / NaN / -0.0."""
    out = []
    for v in row:
        if v is None:
            out.append((0, 0))
        elif isinstance(v, float):
            out.append((1, struct.pack(">d", v).hex() if math.isnan(v) else (v, math.copysign(1, v))))
        else:
            out.append((1, v))
    return tuple(str(x) for x in out)
