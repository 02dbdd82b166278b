"""Global-index keys: which key kind a column type uses (``schemas/btree_global_index_key.ksy``), decoding
and encoding through the generated codec, and Java's ordering of keys (``KeySerializer``'s comparators).

Predicate literals (``paimon_codec.values`` conventions, as ``expressions.bind`` makes them) become keys as
Java 1.4.2's ``KeySerializer`` makes them: DATE days and TIME millis as ints; DECIMAL(p <= 18) its unscaled
long at the column's scale (the comparator's numeric order); TIMESTAMP / TIMESTAMP_LTZ of precision <= 3
epoch millis, above 3 ``(millis, nanos of milli)`` (``Timestamp.compareTo``); FLOAT / DOUBLE by
``Float.compare`` / ``Double.compare`` (``-0.0 < 0.0``, NaN above everything and equal to itself) - the
"paimon" semantics of ``expressions.semantics``; a scan under "spark" semantics widens zero literals
(``globalindex.scan``).  Wider decimals (unscaled bytes) are not looked up."""

from __future__ import annotations

import decimal
import math
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidPredicateError, UnsupportedTypeError
from ..formats import translate_error
from ..generated.construct import btree_global_index_key as _gen
from ..types import DataType, parse_type
from ..values import Timestamp, decimal_unscaled

__all__ = ["GlobalKeyCodec", "global_key_codec", "kind_of"]

_FIXED = {"TINYINT": "int8", "SMALLINT": "int16", "INTEGER": "int32", "DATE": "int32",
          "TIME_WITHOUT_TIME_ZONE": "int32", "BIGINT": "int64", "FLOAT": "float32", "DOUBLE": "float64",
          "BOOLEAN": "bool", "CHAR": "string", "VARCHAR": "string"}
_INTS = {"int8", "int16", "int32", "int64"}
#: column type roots whose predicate literals this project compares with the index's keys (timestamps too)
_LOOKUP_ROOTS = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "BOOLEAN", "CHAR", "VARCHAR", "DATE",
                 "TIME_WITHOUT_TIME_ZONE", "DECIMAL", "FLOAT", "DOUBLE"}


def kind_of(data_type: DataType | str) -> str:
    """The key kind (``GLOBAL_KEY_KINDS``) Java's ``KeySerializer`` uses for a column type."""
    t = parse_type(data_type) if isinstance(data_type, str) else data_type
    if t.root in _FIXED:
        return _FIXED[t.root]
    if t.is_timestamp:
        return "int64" if (t.precision if t.precision is not None else 6) <= 3 else "timestamp_nanos"
    if t.root == "DECIMAL" and (t.precision or 10) <= 18:
        return "int64"
    raise UnsupportedTypeError(f"global-index keys of type {t} are not supported",
                               expected="a type Paimon's B-tree KeySerializer encodes in a fixed layout")


@dataclass(frozen=True)
class GlobalKeyCodec:
    """Decode / encode / order the keys of one column's global index."""

    data_type: DataType
    kind: str

    def decode(self, raw: bytes | memoryview) -> Any:
        try:
            value = _gen.fast_parse_btree_global_index_key(raw, kind=self.kind)[0]["value"]
        except Exception as e:  # noqa: BLE001 - translate_error re-raises what is not a decoding error
            raise translate_error(e, None, f"global-index key ({self.kind})") from None
        if self.kind == "timestamp_nanos":
            return (value["millisecond"], value["nano_of_millisecond"]["value"])
        return bool(value) if self.kind == "bool" else value

    def encode(self, value: Any) -> bytes:
        """The key bytes of ``value`` (what :meth:`decode` returns or :meth:`literal` makes)."""
        if self.kind == "timestamp_nanos":
            value = {"millisecond": value[0], "nano_of_millisecond": {"value": value[1]}}
        return bytes(_gen.BtreeGlobalIndexKey.build(value, kind=self.kind))

    def order(self, value: Any) -> Any:
        """A Python sort key that orders like Java's comparator (``Float.compare`` for floats: -0.0
        before 0.0, NaN last; strings by their UTF-8 bytes)."""
        if self.kind in ("float32", "float64"):
            return (1, 0.0, 0.0) if math.isnan(value) else (0, value, math.copysign(1.0, value))
        if self.kind == "string":
            return value.encode("utf-8")
        return value

    def raw_order(self, raw: bytes | memoryview) -> Any:
        """:meth:`order` of a serialised key (strings without decoding)."""
        return bytes(raw) if self.kind == "string" else self.order(self.decode(raw))

    @property
    def answers_lookups(self) -> bool:
        return self.data_type.root in _LOOKUP_ROOTS or self.data_type.is_timestamp

    def literal(self, value: Any) -> Any:
        """A predicate literal as a key of this column, or InvalidPredicateError."""
        if not self.answers_lookups:
            raise UnsupportedTypeError(f"global-index lookups on {self.data_type} columns are not supported")
        if self.kind in _INTS and isinstance(value, int) and not isinstance(value, bool):
            return value
        if self.kind == "string" and isinstance(value, str):
            return value
        if self.kind == "bool" and isinstance(value, bool):
            return value
        if self.data_type.is_timestamp and isinstance(value, Timestamp):
            if self.kind == "timestamp_nanos":
                return (value.millis, value.nanos_of_milli)
            if value.nanos_of_milli:  # no key of a TIMESTAMP(p <= 3) has one: not mapped, the index is left unused
                raise UnsupportedTypeError(f"literal {value} has nanoseconds a {self.data_type} key cannot hold")
            return value.millis
        if self.data_type.root == "DECIMAL" and isinstance(value, decimal.Decimal):
            return decimal_unscaled(value, self.data_type.scale or 0)
        if self.kind in ("float32", "float64") and isinstance(value, float):
            return value
        raise InvalidPredicateError(f"literal {value!r} does not fit a {self.data_type} global-index key")


def global_key_codec(data_type: DataType | str) -> GlobalKeyCodec:
    t = parse_type(data_type) if isinstance(data_type, str) else data_type
    return GlobalKeyCodec(t, kind_of(t))
