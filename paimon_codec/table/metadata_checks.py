"""Checks on table metadata before any of it is used: the files are untrusted input.

A metadata file's own writer schema (Avro), column types (ORC / Parquet) or JSON decide nothing here:
every record is checked against the shape *Paimon* writes (:data:`MANIFEST_ENTRY`, :data:`MANIFEST_LIST`,
:data:`INDEX_MANIFEST_ENTRY`) - types, nullability, integer widths - before a field is read, so a string
where a long belongs, a null file name or a map used as a key is a :class:`CorruptDataError` naming the file,
the record and the field, never a ``TypeError`` deep in the planner.

* :func:`load_json` - JSON metadata (schema, snapshot, tag files): ``NaN`` / ``Infinity`` refused, nesting
  at most :data:`MAX_JSON_DEPTH`, integers of at most 20 digits.
* :func:`checked_int` - ids, sizes and counts as Java ``int`` / ``long`` (a ``schemaId`` of ``1e308``
  never becomes a 309-digit file name).
* :func:`file_name` - a file named by metadata stays in its directory: a non-empty string with no path
  separator, not ``.`` / ``..``, no NUL.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import CorruptDataError

__all__ = ["MAX_JSON_DEPTH", "load_json", "checked_int", "file_name", "check_record", "check_records",
           "MANIFEST_ENTRY", "MANIFEST_LIST", "INDEX_MANIFEST_ENTRY"]

MAX_JSON_DEPTH = 64
NAME_MAX = 255  # bytes of one file name (POSIX NAME_MAX; object stores allow more, Paimon never writes more)
_MAX_INT_DIGITS = 20
INT32 = (-(2**31), 2**31 - 1)
INT64 = (-(2**63), 2**63 - 1)
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = re.compile(r"[\[\]{}]")


def _json_depth(text: str) -> int:
    """Deepest bracket nesting of a JSON text (strings skipped), in one linear pass."""
    depth = deepest = 0
    for m in _BRACKETS.finditer(_STRINGS.sub("", text)):
        if m.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > _MAX_INT_DIGITS:
        raise ValueError(f"integer of {len(digits)} digits")
    return int(digits)


def load_json(text: str, what: str, path: str | None) -> Any:
    """Parse a JSON metadata text strictly (Paimon's Jackson writes neither NaN nor deep nesting)."""
    depth = _json_depth(text)
    if depth > MAX_JSON_DEPTH:
        raise CorruptDataError(f"{what} nests {depth} levels deep", path=path,
                               expected=f"at most {MAX_JSON_DEPTH} levels")
    try:
        return json.loads(text, parse_constant=_no_constant, parse_int=_bounded_int)
    except json.JSONDecodeError as exc:
        raise CorruptDataError(f"{what} is not JSON: {exc.msg}", path=path, offset=exc.pos,
                               expected="JSON text") from None
    except (ValueError, RecursionError) as exc:
        raise CorruptDataError(f"{what} is not valid JSON metadata: {exc}", path=path,
                               expected=f"finite numbers, integers of at most {_MAX_INT_DIGITS} digits "
                                        "(what Paimon's Jackson writes)") from None


def checked_int(value: Any, what: str, path: str | None, *, lo: int = 0, hi: int = INT64[1]) -> int:
    """``value`` as an int in ``[lo, hi]``; bools, floats and strings are refused (Java writes longs)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise CorruptDataError(f"{what} is {type(value).__name__} {_short(value)}", path=path,
                               expected="an integer")
    if not lo <= value <= hi:
        raise CorruptDataError(f"{what} {_short(value)} out of range", path=path, expected=f"{lo} .. {hi}")
    return value


def file_name(value: Any, what: str, path: str | None) -> str:
    """A file name read from metadata, confined to the directory it is joined to."""
    if not isinstance(value, str):
        raise CorruptDataError(f"{what} is {type(value).__name__} {_short(value)}", path=path,
                               expected="a file name string")
    if value in ("", ".", "..") or "/" in value or "\\" in value or "\x00" in value \
            or len(value.encode("utf-8", "surrogatepass")) > NAME_MAX:
        raise CorruptDataError(f"{what} {_short(value)} is not a plain file name", path=path,
                               expected=f"a non-empty name of at most {NAME_MAX} bytes without path separators, '.' or '..'")
    return value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:80] + "..."


# ------------------------------------------------------------------------------------ record shapes
# A field spec: "int" / "long" / "tinyint" (Java widths), "size" (long >= 0), "string", "bytes", "name"
# (a confined file name), "any"; ("?", spec) nullable; ("[]", spec) array; a dict is a nested record.
_INT_KINDS = {"tinyint": (-128, 127), "int": INT32, "long": INT64, "size": (0, INT64[1])}

_STATS = {"_MIN_VALUES": "bytes", "_MAX_VALUES": "bytes", "_NULL_COUNTS": ("?", ("[]", ("?", "long")))}

DATA_FILE_META: dict[str, Any] = {
    "_FILE_NAME": "name", "_FILE_SIZE": "size", "_ROW_COUNT": "size",
    "_MIN_KEY": "bytes", "_MAX_KEY": "bytes", "_KEY_STATS": _STATS, "_VALUE_STATS": _STATS,
    "_MIN_SEQUENCE_NUMBER": "long", "_MAX_SEQUENCE_NUMBER": "long", "_SCHEMA_ID": "size", "_LEVEL": "int",
    "_EXTRA_FILES": ("[]", "name"), "_CREATION_TIME": ("?", "any"), "_DELETE_ROW_COUNT": ("?", "long"),
    "_EMBEDDED_FILE_INDEX": ("?", "bytes"), "_FILE_SOURCE": ("?", "tinyint"),
    "_VALUE_STATS_COLS": ("?", ("[]", "string")), "_EXTERNAL_PATH": ("?", "string"),
    "_FIRST_ROW_ID": ("?", "long"), "_WRITE_COLS": ("?", ("[]", "string")),
}
MANIFEST_ENTRY: dict[str, Any] = {
    "_VERSION": "int", "_KIND": "tinyint", "_PARTITION": "bytes", "_BUCKET": "int", "_TOTAL_BUCKETS": "int",
    "_FILE": DATA_FILE_META,
}
MANIFEST_LIST: dict[str, Any] = {
    "_VERSION": "int", "_FILE_NAME": "name", "_FILE_SIZE": "size", "_NUM_ADDED_FILES": "long",
    "_NUM_DELETED_FILES": "long", "_PARTITION_STATS": ("?", _STATS), "_SCHEMA_ID": "size",
    "_MIN_BUCKET": ("?", "int"), "_MAX_BUCKET": ("?", "int"), "_MIN_LEVEL": ("?", "int"),
    "_MAX_LEVEL": ("?", "int"), "_MIN_ROW_ID": ("?", "long"), "_MAX_ROW_ID": ("?", "long"),
}
_DV_RANGE = {"f0": "name", "f1": "int", "f2": "int", "_CARDINALITY": ("?", "long")}
_GLOBAL_INDEX = {"_ROW_RANGE_START": "long", "_ROW_RANGE_END": "long", "_INDEX_FIELD_ID": "int",
                 "_EXTRA_FIELD_IDS": ("?", ("[]", "int")), "_INDEX_META": ("?", "bytes")}
INDEX_MANIFEST_ENTRY: dict[str, Any] = {
    "_VERSION": "int", "_KIND": "tinyint", "_PARTITION": "bytes", "_BUCKET": "int", "_INDEX_TYPE": "string",
    "_FILE_NAME": "name", "_FILE_SIZE": "size", "_ROW_COUNT": "size",
    "_DELETIONS_VECTORS_RANGES": ("?", ("[]", ("?", _DV_RANGE))),
    "_DELETION_VECTORS_RANGES": ("?", ("[]", ("?", _DV_RANGE))),
    "_EXTERNAL_PATH": ("?", "string"), "_GLOBAL_INDEX": ("?", _GLOBAL_INDEX),
}
#: Fields a record may lack (added in later Paimon versions, or one of two aliases).
_OPTIONAL = {"_TOTAL_BUCKETS", "_DELETE_ROW_COUNT", "_EMBEDDED_FILE_INDEX", "_FILE_SOURCE", "_VALUE_STATS_COLS",
             "_EXTERNAL_PATH", "_FIRST_ROW_ID", "_WRITE_COLS", "_CREATION_TIME", "_KEY_STATS", "_VALUE_STATS",
             "_MIN_BUCKET", "_MAX_BUCKET", "_MIN_LEVEL", "_MAX_LEVEL", "_MIN_ROW_ID", "_MAX_ROW_ID",
             "_PARTITION_STATS", "_DELETIONS_VECTORS_RANGES", "_DELETION_VECTORS_RANGES", "_GLOBAL_INDEX",
             "_CARDINALITY", "_EXTRA_FIELD_IDS", "_INDEX_META", "_NUM_ADDED_FILES", "_NUM_DELETED_FILES",
             "_SCHEMA_ID", "_LEVEL", "_MIN_SEQUENCE_NUMBER", "_MAX_SEQUENCE_NUMBER", "_MIN_KEY", "_MAX_KEY",
             "_EXTRA_FILES"}


def _check(value: Any, spec: Any, where: str, path: str | None) -> None:
    if isinstance(spec, tuple) and spec[0] == "?":
        if value is not None:
            _check(value, spec[1], where, path)
        return
    if value is None:
        raise CorruptDataError(f"{where} is null", path=path, expected="a value (the field is NOT NULL)")
    if isinstance(spec, tuple):  # array
        if not isinstance(value, list):
            raise CorruptDataError(f"{where} is {type(value).__name__}", path=path, expected="an array")
        for i, item in enumerate(value):
            _check(item, spec[1], f"{where}[{i}]", path)
    elif isinstance(spec, dict):
        check_record(value, spec, where, path)
    elif spec in _INT_KINDS:
        lo, hi = _INT_KINDS[spec]
        checked_int(value, where, path, lo=lo, hi=hi)
    elif spec == "name":
        file_name(value, where, path)
    elif spec == "string":
        if not isinstance(value, str):
            raise CorruptDataError(f"{where} is {type(value).__name__}", path=path, expected="a string")
    elif spec == "bytes":
        if not isinstance(value, bytes):
            raise CorruptDataError(f"{where} is {type(value).__name__}", path=path, expected="bytes")


def check_record(record: Any, spec: Mapping[str, Any], where: str, path: str | None) -> dict:
    """``record`` checked against ``spec`` (fields the spec does not name are left alone)."""
    if not isinstance(record, dict):
        raise CorruptDataError(f"{where} is {type(record).__name__}", path=path, expected="a record")
    for name, field_spec in spec.items():
        if name not in record:
            if name in _OPTIONAL:
                continue
            raise CorruptDataError(f"{where} lacks field {name}", path=path,
                                   expected=f"a field {name} (the fields Paimon writes: "
                                            f"{', '.join(n for n in spec if n not in _OPTIONAL)})")
        _check(record[name], field_spec, f"{where}.{name}", path)
    return record


def check_records(records: Iterable[Any], spec: Mapping[str, Any], what: str, path: str | None) -> list[dict]:
    """Every record of one metadata file checked against Paimon's shape (``what`` names the record kind)."""
    return [check_record(rec, spec, f"{what} record {i}", path) for i, rec in enumerate(records)]
