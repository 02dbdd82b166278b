"""Tables written, altered and read by newest Paimon Java (1.4.2), for read-path conformance tests.

Each call runs one JPype subprocess (the pytest process already hosts the Paimon 0.9 JVM) that
executes a list of steps on one filesystem-catalog table and prints what it read as JSON:

* ``{"op": "create", "columns": [[name, type], ...], "options": {...}, "primary_keys": [...]}`` -- ``type`` as Paimon's schema
  files spell it (``"INT"``, ``{"type": "ARRAY", "element": "INT"}``, ``{"type": "ROW", "fields": [...]}``);
* ``{"op": "write", "rows": [[v, ...], ...]}`` -- one commit of rows in the current schema;
* ``{"op": "alter", "changes": [{"op": "rename", "from": a, "to": b} | {"op": "drop", "name": a} |
  {"op": "add", "name": a, "type": t} | {"op": "type", "name": a, "type": t}]}`` (a name may be the path of
  a nested field: ``["r", "q"]``);
* ``{"op": "read"}`` -- every row of the latest snapshot as Java reads it.

Values in both directions use one JSON form per type (see :func:`normalize`): integers and floats as
themselves, DECIMAL as its plain string, DATE as epoch days, TIMESTAMP as ``[epoch millis, nano of
milli]``, BINARY as hex, ARRAY as a list, MAP as a list of ``[key, value]`` sorted by key JSON, ROW as a
list.  The jars are the newest-Java oracle's (:func:`oracles.java_jars.newest_java_classpath`, fetched
from Maven Central into the test cache when missing).
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import os
import subprocess
import sys
from typing import Any

from paimon_codec.types import DataType

_WORKER = r'''
import glob, json, sys
import jpype, jpype.imports
spec = json.load(sys.stdin)
jpype.startJVM(classpath=spec["jars"], convertStrings=True)
from java.math import BigDecimal
from java.util import ArrayList, HashMap
from org.apache.paimon.catalog import CatalogContext, CatalogFactory, Identifier
from org.apache.paimon.data import BinaryString, Decimal, GenericArray, GenericMap, GenericRow, Timestamp
from org.apache.paimon.disk import IOManager
from org.apache.paimon.options import Options
from org.apache.paimon.schema import Schema, SchemaChange
from org.apache.paimon.types import DataTypeJsonParser, DataTypeRoot
from org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind import ObjectMapper
from java.util.concurrent.atomic import AtomicInteger

mapper = ObjectMapper()
def names(n):  # a column name, or the path of a nested field (["r", "q"], ["arr", "element", "y"])
    return jpype.JArray(jpype.JString)(n if isinstance(n, list) else [n])

def jtype(t):
    return DataTypeJsonParser.parseDataType(mapper.readTree(json.dumps(t)), AtomicInteger(1000))

R = DataTypeRoot
def to_java(t, v):
    if v is None:
        return None
    r = t.getTypeRoot()
    if r == R.TINYINT: return jpype.JByte(v)
    if r == R.SMALLINT: return jpype.JShort(v)
    if r in (R.INTEGER, R.DATE, R.TIME_WITHOUT_TIME_ZONE): return jpype.JInt(v)
    if r == R.BIGINT: return jpype.JLong(v)
    if r == R.FLOAT: return jpype.JFloat(v)
    if r == R.DOUBLE: return jpype.JDouble(v)
    if r == R.BOOLEAN: return jpype.JBoolean(v)
    if r in (R.CHAR, R.VARCHAR): return BinaryString.fromString(v)
    if r in (R.BINARY, R.VARBINARY): return jpype.JArray(jpype.JByte)(bytes.fromhex(v))
    if r == R.DECIMAL: return Decimal.fromBigDecimal(BigDecimal(v), t.getPrecision(), t.getScale())
    if r in (R.TIMESTAMP_WITHOUT_TIME_ZONE, R.TIMESTAMP_WITH_LOCAL_TIME_ZONE):
        return Timestamp.fromEpochMillis(jpype.JLong(v[0]), jpype.JInt(v[1]))
    if r == R.ARRAY:
        et = t.getElementType()
        return GenericArray(jpype.JArray(jpype.JObject)([to_java(et, x) for x in v]))
    if r == R.MAP:
        m = HashMap()
        for k, x in v:
            m.put(to_java(t.getKeyType(), k), to_java(t.getValueType(), x))
        return GenericMap(m)
    if r == R.ROW:
        fs = t.getFields()
        return GenericRow.of(*[to_java(fs.get(i).type(), x) for i, x in enumerate(v)])
    raise ValueError(str(t))

def from_java(t, getter_src, i):
    if getter_src.isNullAt(i):
        return None
    r = t.getTypeRoot()
    g = getter_src
    if r == R.TINYINT: return int(g.getByte(i))
    if r == R.SMALLINT: return int(g.getShort(i))
    if r in (R.INTEGER, R.DATE, R.TIME_WITHOUT_TIME_ZONE): return int(g.getInt(i))
    if r == R.BIGINT: return int(g.getLong(i))
    if r == R.FLOAT: return float(g.getFloat(i))
    if r == R.DOUBLE: return float(g.getDouble(i))
    if r == R.BOOLEAN: return bool(g.getBoolean(i))
    if r in (R.CHAR, R.VARCHAR): return str(g.getString(i).toString())
    if r in (R.BINARY, R.VARBINARY): return bytes(g.getBinary(i)).hex()
    if r == R.DECIMAL:  # a cast that overflows the precision gives null in a non-null slot
        d = g.getDecimal(i, t.getPrecision(), t.getScale())
        return None if d is None else str(d.toBigDecimal().toPlainString())
    if r in (R.TIMESTAMP_WITHOUT_TIME_ZONE, R.TIMESTAMP_WITH_LOCAL_TIME_ZONE):
        ts = g.getTimestamp(i, t.getPrecision() if hasattr(t, "getPrecision") else 6)
        return [int(ts.getMillisecond()), int(ts.getNanoOfMillisecond())]
    if r == R.ARRAY:
        a = g.getArray(i); et = t.getElementType()
        return [from_java(et, a, j) for j in range(a.size())]
    if r == R.MAP:
        m = g.getMap(i); ks = m.keyArray(); vs = m.valueArray()
        return [[from_java(t.getKeyType(), ks, j), from_java(t.getValueType(), vs, j)] for j in range(m.size())]
    if r == R.ROW:
        row = g.getRow(i, t.getFieldCount()); fs = t.getFields()
        return [from_java(fs.get(j).type(), row, j) for j in range(t.getFieldCount())]
    raise ValueError(str(t))

import os
os.makedirs(spec["warehouse"] + "/_io", exist_ok=True)
io_manager = IOManager.create(spec["warehouse"] + "/_io")  # lookup (deletion vectors) spills here
o = Options(); o.set("warehouse", spec["warehouse"])
cat = CatalogFactory.createCatalog(CatalogContext.create(o))
cat.createDatabase("db", True)
result = {}
for table_name, steps in spec["tables"].items():
  ident = Identifier.create("db", table_name)
  out = result.setdefault(table_name, [])
  for step in steps:
      op = step["op"]
      if op == "create":
          b = Schema.newBuilder()
          for name, t in step["columns"]:
              b.column(name, jtype(t))
          for k, v in step.get("options", {}).items():
              b.option(k, str(v))
          if step.get("primary_keys"):
              b.primaryKey(*step["primary_keys"])
          cat.createTable(ident, b.build(), False)
      elif op == "write":
          t = cat.getTable(ident)
          fields = t.rowType().getFields()
          wb = t.newBatchWriteBuilder(); w = wb.newWrite().withIOManager(io_manager)
          for row in step["rows"]:
              w.write(GenericRow.of(*[to_java(fields.get(i).type(), v) for i, v in enumerate(row)]))
          c = wb.newCommit(); c.commit(w.prepareCommit()); w.close(); c.close()
      elif op == "alter":
          changes = ArrayList()
          for ch in step["changes"]:
              k = ch["op"]
              if k == "rename": changes.add(SchemaChange.renameColumn(names(ch["from"]), ch["to"]))
              elif k == "drop": changes.add(SchemaChange.dropColumn(names(ch["name"])))
              elif k == "add":
                  changes.add(SchemaChange.addColumn(names(ch["name"]), jtype(ch["type"]), None, None))
              elif k == "type":
                  changes.add(SchemaChange.updateColumnType(names(ch["name"]), jtype(ch["type"]), False))
              else: raise ValueError(k)
          cat.alterTable(ident, changes, False)
      elif op == "read":
          t = cat.getTable(ident)
          fields = t.rowType().getFields()
          rb = t.newReadBuilder()
          it = rb.newRead().createReader(rb.newScan().plan().splits()).toCloseableIterator()
          rows = []
          while it.hasNext():
              row = it.next()
              rows.append([from_java(fields.get(i).type(), row, i) for i in range(fields.size())])
          it.close()
          out.append(rows)
print("@@RESULT@@" + json.dumps(result))
'''


class JavaTableError(RuntimeError):
    """Java refused a step (its message is the exception text)."""


def java_jars() -> list[str]:
    from oracles.java_jars import newest_java_classpath

    return newest_java_classpath()


def run_java(warehouse: str, tables: dict[str, list[dict]]) -> dict[str, list[list[list[Any]]]]:
    """Run each table's steps on ``warehouse/db.db/<table>`` with Java (one JVM for all); returns the
    rows of every ``read`` step per table."""
    spec = {"jars": java_jars(), "warehouse": str(warehouse), "tables": tables}
    proc = subprocess.run([sys.executable, "-c", _WORKER], input=json.dumps(spec), capture_output=True,
                          text=True, timeout=600)
    for line in proc.stdout.splitlines():
        if line.startswith("@@RESULT@@"):
            return json.loads(line[len("@@RESULT@@"):])
    raise JavaTableError((proc.stderr or proc.stdout).strip()[-3000:])


def table_path(warehouse: str, table: str) -> str:
    return os.path.join(str(warehouse), "db.db", table)


# -- our rows in the same JSON form ------------------------------------------------------------------
_EPOCH = dt.datetime(1970, 1, 1)


def _timestamp(v: Any) -> list[int]:
    if hasattr(v, "value") and hasattr(v, "nanosecond"):  # pandas.Timestamp (timestamp[ns])
        ns = int(v.value)
    else:
        if v.tzinfo is not None:
            v = v.astimezone(dt.timezone.utc).replace(tzinfo=None)
        delta = v - _EPOCH
        ns = (delta.days * 86_400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1000
    return [ns // 1_000_000, ns % 1_000_000]


def normalize(t: DataType, v: Any) -> Any:
    """A value of our Arrow rows (``to_pylist``) in the JSON form the Java worker prints."""
    if v is None:
        return None
    r = t.root
    if r == "DECIMAL":
        return format(decimal.Decimal(v), "f")
    if r == "DATE":
        return (v - dt.date(1970, 1, 1)).days
    if t.is_timestamp:
        return _timestamp(v)
    if r in ("BINARY", "VARBINARY"):
        return bytes(v).hex()
    if r == "ARRAY":
        return [normalize(t.children[0], x) for x in v]
    if r == "MAP":
        return [[normalize(t.children[0], k), normalize(t.children[1], x)] for k, x in v]
    if r == "ROW":
        items = v.values() if isinstance(v, dict) else v
        return [normalize(c, x) for c, x in zip(t.children, items, strict=True)]
    return v


def sort_key(row: list[Any]) -> str:
    return json.dumps(row, sort_keys=True, default=str)


def canonical(rows: list[list[Any]], types: list[DataType]) -> list[str]:
    """Rows as sorted JSON strings (maps sorted by key) so row sets compare exactly."""

    def canon(t: DataType, v: Any) -> Any:
        if v is None:
            return None
        if t.root == "ARRAY":
            return [canon(t.children[0], x) for x in v]
        if t.root == "MAP":
            return sorted(([canon(t.children[0], k), canon(t.children[1], x)] for k, x in v), key=sort_key)
        if t.root == "ROW":
            return [canon(c, x) for c, x in zip(t.children, v, strict=True)]
        if isinstance(v, float) and v != v:
            return "NaN"
        return v

    return sorted(sort_key([canon(t, v) for t, v in zip(types, row, strict=True)]) for row in rows)
