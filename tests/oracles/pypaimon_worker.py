"""pypaimon 2.1 worker: run by the pypaimon venv's python, driven by :mod:`tests.oracles.pypaimon21`.

Protocol: one JSON request per line on stdin, one JSON response per line on the file descriptor
given as ``argv[1]`` (stdout is redirected to stderr so that nothing pypaimon prints can corrupt
the protocol).  Row data travels as Arrow IPC files whose paths are in the requests/responses.

This file must not import ``paimon_codec`` (it runs in a venv without it): the client sends
predicates with literals already decoded to plain Python values (pickled, base64), and field
types in Paimon's schema-JSON form.
"""

from __future__ import annotations

import base64
import json
import os
import pickle
import sys
import traceback

import pyarrow as pa
import pyarrow.compute as pc

_PROTOCOL = None


def _catalog(warehouse: str):
    from pypaimon import CatalogFactory
    return CatalogFactory.create({"warehouse": warehouse})


def _split_table_path(table_path: str) -> tuple[str, str]:
    """``WAREHOUSE/DB.db/NAME`` -> (warehouse, ``DB.NAME``)."""
    table_path = table_path.rstrip("/")
    db_dir, name = os.path.split(table_path)
    warehouse, db = os.path.split(db_dir)
    if not db.endswith(".db"):
        raise ValueError(f"not a catalog table path (WAREHOUSE/DB.db/NAME): {table_path}")
    return warehouse, f"{db[:-3]}.{name}"


def _table(table_path: str, options: dict | None = None):
    from pypaimon.table.file_store_table import FileStoreTable
    table = FileStoreTable.from_path(table_path)
    if options:
        table = table.copy(options)
    return table


def _read_ipc(path: str) -> pa.Table:
    with pa.memory_map(path) as src:
        return pa.ipc.open_file(src).read_all()


def _write_ipc(table: pa.Table, path: str) -> None:
    with pa.OSFile(path, "wb") as sink, pa.ipc.new_file(sink, table.schema) as w:
        w.write_table(table)


def _fields(fields: list[dict]):
    from pypaimon.schema.data_types import AtomicInteger, DataTypeParser
    counter = AtomicInteger(-1)
    return [DataTypeParser.parse_data_field(f, counter) for f in fields]


def op_create_table(req: dict) -> dict:
    from pypaimon import Schema
    catalog = _catalog(req["warehouse"])
    name = req["name"] if "." in req["name"] else f"default.{req['name']}"
    catalog.create_database(name.split(".")[0], True)
    schema = Schema(fields=_fields(req["fields"]), partition_keys=list(req.get("partition_keys") or []),
                    primary_keys=list(req.get("primary_keys") or []),
                    options={k: str(v) for k, v in (req.get("options") or {}).items()})
    catalog.create_table(name, schema, False)
    return {"path": str(catalog.get_table(name).table_path)}


def _commit_write(table, data: pa.Table, overwrite: bool) -> str:
    builder = table.new_batch_write_builder()
    if overwrite:
        builder = builder.overwrite()
    write = builder.new_write()
    kind = "native" if type(write).__module__.endswith("native_write") else "python"
    try:
        write.write_arrow(data)
        messages = write.prepare_commit()
        commit = builder.new_commit()
        commit.commit(messages)
        commit.close()
    finally:
        write.close()
    return kind


def _latest_snapshot_id(table) -> int | None:
    snap = table.snapshot_manager().get_latest_snapshot()
    return None if snap is None else snap.id


def op_write(req: dict) -> dict:
    options = {"write.native.enabled": "true"} if req.get("native") else {"write.native.enabled": "false"}
    table = _table(req["table_path"], options)
    data = _read_ipc(req["data"])
    # pypaimon wants the table's own arrow schema (types and nullability)
    from pypaimon.schema.data_types import PyarrowFieldParser
    target = PyarrowFieldParser.from_paimon_schema(table.table_schema.fields)
    data = data.select(target.names).cast(target)
    writer = _commit_write(table, data, bool(req.get("overwrite")))
    return {"writer": writer, "snapshot_id": _latest_snapshot_id(_table(req["table_path"]))}


def _change(c: dict):
    from pypaimon.schema.data_types import DataTypeParser
    from pypaimon.schema.schema_change import SchemaChange
    op = c["op"]
    if op == "rename":
        return SchemaChange.rename_column(c["from"], c["to"])
    if op == "add":
        return SchemaChange.add_column(c["name"], DataTypeParser.parse_data_type(c["type"]))
    if op == "drop":
        return SchemaChange.drop_column(c["name"])
    if op == "type":
        return SchemaChange.update_column_type(c["name"], DataTypeParser.parse_data_type(c["type"]))
    if op == "set":
        return SchemaChange.set_option(c["key"], str(c["value"]))
    if op == "remove":
        return SchemaChange.remove_option(c["key"])
    raise ValueError(f"unknown schema change {op!r}")


def op_alter(req: dict) -> dict:
    warehouse, ident = _split_table_path(req["table_path"])
    _catalog(warehouse).alter_table(ident, [_change(c) for c in req["changes"]], False)
    return {}


# -- predicates ---------------------------------------------------------------------------------------
# tree: ("and"|"or", [children]) or ("leaf", op, column, [literals]) with plain Python literals
def _pypaimon_predicate(builder, node):
    from pypaimon.common.predicate_builder import PredicateBuilder
    if node[0] in ("and", "or"):
        kids = [_pypaimon_predicate(builder, c) for c in node[1]]
        return PredicateBuilder.and_predicates(kids) if node[0] == "and" else PredicateBuilder.or_predicates(kids)
    _, op, col, lits = node
    simple = {"eq": builder.equal, "neq": builder.not_equal, "lt": builder.less_than, "lte": builder.less_or_equal,
              "gt": builder.greater_than, "gte": builder.greater_or_equal, "starts_with": builder.startswith,
              "ends_with": builder.endswith, "contains": builder.contains, "like": builder.like}
    if op in simple:
        return simple[op](col, lits[0])
    if op == "in":
        return builder.is_in(col, list(lits))
    if op == "not_in":
        return builder.is_not_in(col, list(lits))
    if op == "between":
        return builder.between(col, lits[0], lits[1])
    if op == "is_null":
        return builder.is_null(col)
    if op == "is_not_null":
        return builder.is_not_null(col)
    raise ValueError(f"predicate op {op!r} has no pypaimon form")


def _scalar(value, dtype: pa.DataType):
    return pa.scalar(value, type=dtype)


def arrow_mask(table: pa.Table, node) -> pa.ChunkedArray:
    """SQL semantics: a null comparison is not a match (``fill_null(False)`` at the end)."""
    if node[0] in ("and", "or"):
        masks = [arrow_mask(table, c) for c in node[1]]
        out = masks[0]
        for m in masks[1:]:
            out = pc.and_kleene(out, m) if node[0] == "and" else pc.or_kleene(out, m)
        return out
    _, op, col, lits = node
    arr = table.column(col)
    if op == "is_null":
        return pc.is_null(arr)
    if op == "is_not_null":
        return pc.is_valid(arr)
    s = [_scalar(v, arr.type) for v in lits]
    if op == "eq":
        return pc.equal(arr, s[0])
    if op == "neq":
        return pc.not_equal(arr, s[0])
    if op == "lt":
        return pc.less(arr, s[0])
    if op == "lte":
        return pc.less_equal(arr, s[0])
    if op == "gt":
        return pc.greater(arr, s[0])
    if op == "gte":
        return pc.greater_equal(arr, s[0])
    if op == "between":
        return pc.and_kleene(pc.greater_equal(arr, s[0]), pc.less_equal(arr, s[1]))
    if op in ("in", "not_in"):
        hit = pc.is_in(arr, value_set=pa.array(lits, type=arr.type), skip_nulls=True)
        hit = pc.if_else(pc.is_null(arr), pa.scalar(None, pa.bool_()), hit)
        return hit if op == "in" else pc.invert(hit)
    if op == "starts_with":
        return pc.starts_with(arr, lits[0])
    if op == "ends_with":
        return pc.ends_with(arr, lits[0])
    if op == "contains":
        return pc.match_substring(arr, lits[0])
    raise ValueError(f"predicate op {op!r} cannot be evaluated exactly here")


def _columns_of(node) -> list[str]:
    if node[0] in ("and", "or"):
        return [c for k in node[1] for c in _columns_of(k)]
    return [node[2]]


def op_read(req: dict) -> dict:
    options = {}
    if req.get("snapshot_id") is not None:
        options["scan.snapshot-id"] = str(req["snapshot_id"])
    if req.get("tag") is not None:
        options["scan.tag-name"] = req["tag"]
    table = _table(req["table_path"], options)
    tree = pickle.loads(base64.b64decode(req["where"])) if req.get("where") else None
    projection = req.get("projection")
    rb = table.new_read_builder()
    read_cols = None
    if projection is not None:
        read_cols = list(dict.fromkeys(list(projection) + (_columns_of(tree) if tree else [])))
        rb = rb.with_projection(read_cols)
    if tree is not None:
        rb = rb.with_filter(_pypaimon_predicate(rb.new_predicate_builder(), tree))
    splits = rb.new_scan().plan().splits()
    result = rb.new_read().to_arrow(splits)
    if result is None:
        from pypaimon.schema.data_types import PyarrowFieldParser
        result = PyarrowFieldParser.from_paimon_schema(table.table_schema.fields).empty_table()
        if read_cols is not None:
            result = result.select(read_cols)
    if tree is not None:
        result = result.filter(arrow_mask(result, tree).fill_null(False) if result.num_rows
                               else pa.array([], pa.bool_()))
    if projection is not None:
        result = result.select(list(projection))
    _write_ipc(result, req["out"])
    return {"out": req["out"], "rows": result.num_rows}


def op_run(req: dict) -> dict:
    """Escape hatch: ``code`` runs with ``kwargs``, ``catalog``/``table`` helpers; it may set ``result``
    (JSON-able, or a pyarrow Table which is returned through an IPC file)."""
    import pypaimon
    env = {"pa": pa, "pc": pc, "pypaimon": pypaimon, "kwargs": req.get("kwargs") or {},
           "catalog": _catalog, "table": _table, "commit_write": _commit_write, "result": None}
    exec(compile(req["code"], "<pypaimon-run>", "exec"), env)
    result = env.get("result")
    if isinstance(result, pa.Table):
        _write_ipc(result, req["out"])
        return {"out": req["out"], "arrow": True}
    return {"value": result}


def op_versions(req: dict) -> dict:
    import pypaimon
    try:
        from importlib.metadata import version
        rust = version("pypaimon-rust")
    except Exception:  # noqa: BLE001 - optional package
        rust = None
    from pypaimon.write.native_write import native_write_available
    return {"pypaimon": version("pypaimon"), "pyarrow": pa.__version__, "pypaimon_rust": rust,
            "native_write": native_write_available(), "module": pypaimon.__file__}


OPS = {"create_table": op_create_table, "write": op_write, "alter": op_alter, "read": op_read, "run": op_run,
       "versions": op_versions}


def main() -> None:
    out = os.fdopen(int(sys.argv[1]), "w", buffering=1)
    sys.stdout = sys.stderr
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            resp = {"ok": True, "result": OPS[req["op"]](req)}
        except BaseException as exc:  # noqa: BLE001 - every failure goes back to the client
            resp = {"ok": False, "error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}
        out.write(json.dumps(resp, default=str) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
