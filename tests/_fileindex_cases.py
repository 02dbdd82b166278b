"""Helpers shared by the file-index golden tests: decoding sidecar rows/literals and results."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from conftest import GOLDEN_09, load_json
from pyroaring import BitMap

from paimon_codec.fileindex.result import FileIndexResult
from paimon_codec.positions import positions_from_json
from paimon_codec.types import DataType, parse_type
from paimon_codec.values import from_json

FI09 = GOLDEN_09 / "file_index"


def cases_09() -> list[Path]:
    """Sidecar paths of every paimon-0.9 file_index case."""
    out = []
    for p in sorted(FI09.glob("*.json")) + sorted(FI09.glob("*.json.gz")):
        if ".rows." in p.name:
            continue
        out.append(p)
    return out


def load_09(path: Path) -> dict:
    d = load_json(path)
    if d.get("rows_file"):
        with gzip.open(FI09 / d["rows_file"], "rt", encoding="utf-8") as fh:
            d["rows"] = json.load(fh)
    return d


def column_types_09(d: dict) -> dict[str, DataType]:
    return {c["name"]: parse_type(c["type"]) for c in d["columns"]}


def rows_09(d: dict, column: str) -> list:
    t = column_types_09(d)[column]
    return [from_json(t, v) for v in d["rows"][column]]


def latest_rows(d: dict, t: DataType, key: str = "rows") -> list:
    if "rows_hex" in d:
        return [None if x is None else bytes.fromhex(x) for x in d["rows_hex"]]
    bits = d.get("rows_bits") or [None] * len(d[key])
    return [from_json(t, v, bits=bits[i]) for i, v in enumerate(d[key])]


def latest_literal(q: dict, t: DataType):
    if "literal_hex" in q:
        return None if q["literal_hex"] is None else bytes.fromhex(q["literal_hex"])
    return from_json(t, q.get("literal"), bits=q.get("literal_bits"))


def latest_literals(q: dict, t: DataType) -> list:
    if "literals_hex" in q:
        return [bytes.fromhex(x) for x in q["literals_hex"]]
    bits = q.get("literals_bits") or [None] * len(q["literals"])
    return [from_json(t, v, bits=bits[i]) for i, v in enumerate(q["literals"])]


def result_matches(res: FileIndexResult, expected) -> bool:
    """Compare with a paimon-latest result ("REMAIN"/"SKIP"/position set) or a 0.9 java_result."""
    if isinstance(expected, str):
        return res.kind == expected
    if "kind" in expected:
        if expected["kind"] != "BITMAP":
            return res.kind == expected["kind"]
        expected = {"cardinality": expected["cardinality"], "ranges": expected["ranges"]}
    return res.kind == "BITMAP" and res.bitmap == positions_from_json(expected)  # type: ignore[attr-defined]


def is_sound(res: FileIndexResult, truth: BitMap) -> bool:
    """Never drops a matching row: SKIP only if nothing matches; a bitmap covers the truth."""
    if res.kind == "REMAIN":
        return True
    if res.kind == "SKIP":
        return len(truth) == 0
    return truth.issubset(res.bitmap)  # type: ignore[attr-defined]
