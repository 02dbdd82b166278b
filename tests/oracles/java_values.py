"""Types and values between Arrow, this project's Python values and Paimon's Java internal data.

Runs inside the JVM worker (:mod:`oracles.java_worker`); needs a started JPype JVM with any Paimon
version on the classpath (only API common to 0.9 and the newest release is used).

Value conventions on the Python side are :mod:`paimon_codec.values`' (DATE = days, TIME = millis of
day, timestamps = :class:`~paimon_codec.values.Timestamp` of millis + nanos of milli).  Arrow results
use exact types: ``timestamp[ns]`` for precision 7..9 (``[us]`` below), ``time32[ms]``, ``date32``,
``decimal128(p, s)``, ``binary``, ``list`` / ``map`` / ``struct`` (MULTISET as ``map<elem, int32>``),
TIMESTAMP_LTZ with ``tz="UTC"``.
"""

from __future__ import annotations

import decimal
from collections.abc import Callable
from typing import Any

import jpype
import pyarrow as pa

from paimon_codec.types import DataType, Field, RowType
from paimon_codec.values import Timestamp

J = jpype.JClass
_DataTypes = J("org.apache.paimon.types.DataTypes")
_DataField = J("org.apache.paimon.types.DataField")
_BinaryString = J("org.apache.paimon.data.BinaryString")
_JTimestamp = J("org.apache.paimon.data.Timestamp")
_JDecimal = J("org.apache.paimon.data.Decimal")
_GenericRow = J("org.apache.paimon.data.GenericRow")
_GenericArray = J("org.apache.paimon.data.GenericArray")
_GenericMap = J("org.apache.paimon.data.GenericMap")
_BigDecimal = J("java.math.BigDecimal")
_LinkedHashMap = J("java.util.LinkedHashMap")
_Integer, _Long, _Short, _Byte = J("java.lang.Integer"), J("java.lang.Long"), J("java.lang.Short"), J("java.lang.Byte")
_Float, _Double, _Boolean = J("java.lang.Float"), J("java.lang.Double"), J("java.lang.Boolean")
_ObjectArray = jpype.JArray(J("java.lang.Object"))
_ByteArray = jpype.JArray(jpype.JByte)

Getter = Callable[[Any, int], Any]  # (InternalRow | InternalArray, pos) -> Python value (not null)
ToJava = Callable[[Any], Any]  # Python value (not null) -> Java object

_MAX = 2147483647


# ------------------------------------------------------------------------------------------ types


def java_type(t: DataType) -> Any:
    """Java ``DataType`` of one of this project's :class:`DataType` (nested types included)."""
    r, D = t.root, _DataTypes
    simple = {"TINYINT": D.TINYINT, "SMALLINT": D.SMALLINT, "INTEGER": D.INT, "BIGINT": D.BIGINT,
              "FLOAT": D.FLOAT, "DOUBLE": D.DOUBLE, "BOOLEAN": D.BOOLEAN, "DATE": D.DATE}
    if r in simple:
        jt = simple[r]()
    elif r == "VARCHAR":
        jt = D.VARCHAR(t.length if t.length is not None else _MAX)
    elif r == "CHAR":
        jt = D.CHAR(t.length if t.length is not None else 1)
    elif r == "VARBINARY":
        jt = D.VARBINARY(t.length if t.length is not None else _MAX)
    elif r == "BINARY":
        jt = D.BINARY(t.length if t.length is not None else 1)
    elif r == "DECIMAL":
        jt = D.DECIMAL(t.precision if t.precision is not None else 10, t.scale or 0)
    elif r == "TIME_WITHOUT_TIME_ZONE":
        jt = D.TIME(t.precision if t.precision is not None else 0)
    elif r == "TIMESTAMP_WITHOUT_TIME_ZONE":
        jt = D.TIMESTAMP(t.precision if t.precision is not None else 6)
    elif r == "TIMESTAMP_WITH_LOCAL_TIME_ZONE":
        jt = D.TIMESTAMP_WITH_LOCAL_TIME_ZONE(t.precision if t.precision is not None else 6)
    elif r == "ARRAY":
        jt = D.ARRAY(java_type(t.children[0]))
    elif r == "MULTISET":
        jt = D.MULTISET(java_type(t.children[0]))
    elif r == "MAP":
        jt = D.MAP(java_type(t.children[0]), java_type(t.children[1]))
    elif r == "ROW":
        fields = [_DataField(i, n, java_type(c)) for i, (n, c) in enumerate(zip(t.field_names, t.children,
                                                                                 strict=True))]
        jt = D.ROW(jpype.JArray(_DataField)(fields))
    elif r == "BLOB":
        jt = D.BLOB()  # Paimon >= 1.4 only
    else:
        raise TypeError(f"no Java type for {t}")
    return jt.copy(bool(t.nullable))


def _root(jt: Any) -> str:
    return str(jt.getTypeRoot().name())


def our_type(jt: Any) -> DataType:
    """This project's :class:`DataType` of a Java ``DataType``."""
    r = _root(jt)
    nullable = bool(jt.isNullable())
    if r in ("CHAR", "VARCHAR", "BINARY", "VARBINARY"):
        return DataType(r, nullable, length=int(jt.getLength()))
    if r == "DECIMAL":
        return DataType(r, nullable, precision=int(jt.getPrecision()), scale=int(jt.getScale()))
    if r in ("TIME_WITHOUT_TIME_ZONE", "TIMESTAMP_WITHOUT_TIME_ZONE", "TIMESTAMP_WITH_LOCAL_TIME_ZONE"):
        return DataType(r, nullable, precision=int(jt.getPrecision()))
    if r in ("ARRAY", "MULTISET"):
        return DataType(r, nullable, children=(our_type(jt.getElementType()),))
    if r == "MAP":
        return DataType(r, nullable, children=(our_type(jt.getKeyType()), our_type(jt.getValueType())))
    if r == "ROW":
        fields = list(jt.getFields())
        return DataType(r, nullable, children=tuple(our_type(f.type()) for f in fields),
                        field_names=tuple(str(f.name()) for f in fields))
    return DataType(r, nullable)


def our_row_type(jrow_type: Any) -> RowType:
    return RowType(tuple(Field(str(f.name()), our_type(f.type()), int(f.id())) for f in jrow_type.getFields()))


def _ts_unit(precision: int) -> str:
    return "ns" if precision > 6 else "us"


def arrow_type(jt: Any) -> pa.DataType:
    """Exact Arrow type of a Java ``DataType`` (see the module docstring)."""
    r = _root(jt)
    simple = {"TINYINT": pa.int8(), "SMALLINT": pa.int16(), "INTEGER": pa.int32(), "BIGINT": pa.int64(),
              "FLOAT": pa.float32(), "DOUBLE": pa.float64(), "BOOLEAN": pa.bool_(), "CHAR": pa.string(),
              "VARCHAR": pa.string(), "BINARY": pa.binary(), "VARBINARY": pa.binary(), "DATE": pa.date32(),
              "TIME_WITHOUT_TIME_ZONE": pa.time32("ms"), "BLOB": pa.binary()}
    if r in simple:
        return simple[r]
    if r == "DECIMAL":
        return pa.decimal128(int(jt.getPrecision()), int(jt.getScale()))
    if r == "TIMESTAMP_WITHOUT_TIME_ZONE":
        return pa.timestamp(_ts_unit(int(jt.getPrecision())))
    if r == "TIMESTAMP_WITH_LOCAL_TIME_ZONE":
        return pa.timestamp(_ts_unit(int(jt.getPrecision())), tz="UTC")
    if r == "ARRAY":
        e = jt.getElementType()
        return pa.list_(pa.field("element", arrow_type(e), bool(e.isNullable())))
    if r == "MULTISET":
        return pa.map_(arrow_type(jt.getElementType()), pa.int32())
    if r == "MAP":
        v = jt.getValueType()
        return pa.map_(arrow_type(jt.getKeyType()), pa.field("value", arrow_type(v), bool(v.isNullable())))
    if r == "ROW":
        return pa.struct([arrow_field(f) for f in jt.getFields()])
    raise TypeError(f"no Arrow type for Paimon {jt}")


def arrow_field(jfield: Any) -> pa.Field:
    t = jfield.type()
    return pa.field(str(jfield.name()), arrow_type(t), bool(t.isNullable()))


# ------------------------------------------------------------------------------ Java -> Python


def getter(jt: Any, blob_as_descriptor: bool = False) -> Getter:
    """Reads one non-null value of type ``jt`` from an ``InternalRow`` / ``InternalArray``, Arrow-ready.

    A BLOB reads as its bytes, or (``blob_as_descriptor``, what Paimon's engines hand out under the table
    option ``blob-as-descriptor``) as its serialized ``BlobDescriptor``."""
    r = _root(jt)
    if r == "BLOB":
        if blob_as_descriptor:
            return lambda c, i: bytes(c.getBlob(i).toDescriptor().serialize())
        return lambda c, i: bytes(c.getBlob(i).toData())
    if r == "BOOLEAN":
        return lambda c, i: bool(c.getBoolean(i))
    if r == "TINYINT":
        return lambda c, i: int(c.getByte(i))
    if r == "SMALLINT":
        return lambda c, i: int(c.getShort(i))
    if r in ("INTEGER", "DATE", "TIME_WITHOUT_TIME_ZONE"):
        return lambda c, i: int(c.getInt(i))
    if r == "BIGINT":
        return lambda c, i: int(c.getLong(i))
    if r == "FLOAT":
        return lambda c, i: float(c.getFloat(i))
    if r == "DOUBLE":
        return lambda c, i: float(c.getDouble(i))
    if r in ("CHAR", "VARCHAR"):
        return lambda c, i: str(c.getString(i).toString())
    if r in ("BINARY", "VARBINARY"):
        return lambda c, i: bytes(c.getBinary(i))
    if r == "DECIMAL":
        p, s = int(jt.getPrecision()), int(jt.getScale())
        def dec(c, i):  # a cast that overflows the precision reads as null in a non-null slot
            d = c.getDecimal(i, p, s)
            return None if d is None else decimal.Decimal(str(d.toBigDecimal().toPlainString()))
        return dec
    if r in ("TIMESTAMP_WITHOUT_TIME_ZONE", "TIMESTAMP_WITH_LOCAL_TIME_ZONE"):
        p = int(jt.getPrecision())
        if _ts_unit(p) == "ns":
            def ts_ns(c, i):
                ts = c.getTimestamp(i, p)
                return int(ts.getMillisecond()) * 1_000_000 + int(ts.getNanoOfMillisecond())
            return ts_ns

        def ts_us(c, i):
            ts = c.getTimestamp(i, p)
            return int(ts.getMillisecond()) * 1000 + int(ts.getNanoOfMillisecond()) // 1000
        return ts_us
    if r == "ARRAY":
        g = getter(jt.getElementType())

        def arr(c, i):
            a = c.getArray(i)
            return [None if a.isNullAt(k) else g(a, k) for k in range(int(a.size()))]
        return arr
    if r in ("MAP", "MULTISET"):
        if r == "MAP":
            gk, gv = getter(jt.getKeyType()), getter(jt.getValueType())
        else:
            gk, gv = getter(jt.getElementType()), (lambda c, i: int(c.getInt(i)))

        def mp(c, i):
            m = c.getMap(i)
            ks, vs = m.keyArray(), m.valueArray()
            return [(None if ks.isNullAt(k) else gk(ks, k), None if vs.isNullAt(k) else gv(vs, k))
                    for k in range(int(m.size()))]
        return mp
    if r == "ROW":
        fields = list(jt.getFields())
        names = [str(f.name()) for f in fields]
        gs = [getter(f.type()) for f in fields]
        n = len(fields)

        def row(c, i):
            sub = c.getRow(i, n)
            return {name: None if sub.isNullAt(k) else g(sub, k) for k, (name, g) in enumerate(zip(names, gs, strict=True))}
        return row
    raise TypeError(f"cannot read Paimon {jt} values")


# ------------------------------------------------------------------------------ Python -> Java


def to_java(jt: Any) -> ToJava:
    """Converts one non-null Python value (:mod:`paimon_codec.values` conventions) to Paimon internal data."""
    r = _root(jt)
    if r == "BOOLEAN":
        return lambda v: _Boolean(jpype.JBoolean(bool(v)))
    if r == "TINYINT":
        return lambda v: _Byte(jpype.JByte(int(v)))
    if r == "SMALLINT":
        return lambda v: _Short(jpype.JShort(int(v)))
    if r in ("INTEGER", "DATE", "TIME_WITHOUT_TIME_ZONE"):
        return lambda v: _Integer(jpype.JInt(int(v)))
    if r == "BIGINT":
        return lambda v: _Long(jpype.JLong(int(v)))
    if r == "FLOAT":
        return lambda v: _Float(jpype.JFloat(float(v)))
    if r == "DOUBLE":
        return lambda v: _Double(jpype.JDouble(float(v)))
    if r in ("CHAR", "VARCHAR"):
        return lambda v: _BinaryString.fromString(str(v))
    if r in ("BINARY", "VARBINARY"):
        return lambda v: _ByteArray(bytes(v))
    if r == "BLOB":
        blob = J("org.apache.paimon.data.Blob")
        return lambda v: blob.fromData(_ByteArray(bytes(v)))
    if r == "DECIMAL":
        p, s = int(jt.getPrecision()), int(jt.getScale())

        def dec(v):
            out = _JDecimal.fromBigDecimal(_BigDecimal(format(decimal.Decimal(v), "f")), p, s)
            if out is None:
                raise ValueError(f"{v} does not fit DECIMAL({p}, {s})")
            return out
        return dec
    if r in ("TIMESTAMP_WITHOUT_TIME_ZONE", "TIMESTAMP_WITH_LOCAL_TIME_ZONE"):
        return lambda v: _JTimestamp.fromEpochMillis(jpype.JLong(v[0]), jpype.JInt(v[1]))
    if r == "ARRAY":
        conv = nullable(to_java(jt.getElementType()))
        return lambda v: _GenericArray(_ObjectArray([conv(x) for x in v]))
    if r in ("MAP", "MULTISET"):
        if r == "MAP":
            ck, cv = nullable(to_java(jt.getKeyType())), nullable(to_java(jt.getValueType()))
        else:
            ck, cv = nullable(to_java(jt.getElementType())), nullable(to_java(_DataTypes.INT()))

        def mp(v):
            m = _LinkedHashMap()
            for k, x in (v.items() if isinstance(v, dict) else v):
                m.put(ck(k), cv(x))
            return _GenericMap(m)
        return mp
    if r == "ROW":
        fields = list(jt.getFields())
        names = [str(f.name()) for f in fields]
        convs = [nullable(to_java(f.type())) for f in fields]

        def row(v):
            out = _GenericRow(len(fields))
            for k, (name, conv) in enumerate(zip(names, convs, strict=True)):
                out.setField(k, conv(v.get(name) if isinstance(v, dict) else v[k]))
            return out
        return row
    raise TypeError(f"cannot write Paimon {jt} values")


def nullable(f: ToJava) -> ToJava:
    return lambda v: None if v is None else f(v)


# ------------------------------------------------------------------------------ Arrow -> Python


def python_values(arr: pa.Array | pa.ChunkedArray) -> list:
    """Values of an Arrow array in :mod:`paimon_codec.values` conventions (nested: lists, tuples, dicts)."""
    if isinstance(arr, pa.ChunkedArray):
        return [v for chunk in arr.chunks for v in python_values(chunk)]
    t = arr.type
    if pa.types.is_dictionary(t):
        return python_values(arr.dictionary_decode())
    if pa.types.is_timestamp(t):
        per_ms = {"s": None, "ms": 1, "us": 1000, "ns": 1_000_000}[t.unit]
        ints = arr.cast(pa.int64()).to_pylist()
        if per_ms is None:
            return [None if x is None else Timestamp(x * 1000, 0) for x in ints]
        return [None if x is None else Timestamp(x // per_ms, (x % per_ms) * (1_000_000 // per_ms)) for x in ints]
    if pa.types.is_date32(t):
        return arr.cast(pa.int32()).to_pylist()
    if pa.types.is_date64(t):
        return [None if x is None else x // 86_400_000 for x in arr.cast(pa.int64()).to_pylist()]
    if pa.types.is_time(t):
        div = {"s": None, "ms": 1, "us": 1000, "ns": 1_000_000}[t.unit]
        ints = arr.cast(pa.int64() if t.bit_width == 64 else pa.int32()).to_pylist()
        return [None if x is None else (x * 1000 if div is None else x // div) for x in ints]
    if pa.types.is_map(t):
        keys = python_values(arr.values.field(0))
        items = python_values(arr.values.field(1))
        offsets = arr.offsets.to_pylist()
        return [list(zip(keys[offsets[i]:offsets[i + 1]], items[offsets[i]:offsets[i + 1]], strict=True))
                if arr[i].is_valid else None for i in range(len(arr))]
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        values = python_values(arr.values)
        offsets = arr.offsets.to_pylist()
        return [values[offsets[i]:offsets[i + 1]] if arr[i].is_valid else None for i in range(len(arr))]
    if pa.types.is_struct(t):
        names = [t.field(k).name for k in range(t.num_fields)]
        cols = [python_values(c) for c in arr.flatten()]
        valid = arr.is_valid().to_pylist()
        return [{n: c[i] for n, c in zip(names, cols, strict=True)} if valid[i] else None for i in range(len(arr))]
    return arr.to_pylist()
