"""The Paimon 0.9 golden warehouse and its expected results (warehouse.json) for table/Spark tests."""

from __future__ import annotations

import datetime as _dt

from conftest import GOLDEN_09, load_json

WAREHOUSE_JSON = GOLDEN_09 / "warehouse" / "warehouse.json"
WAREHOUSE = GOLDEN_09 / "warehouse" / "warehouse"
_EPOCH = _dt.datetime(1970, 1, 1)


def tables() -> list[dict]:
    return load_json(WAREHOUSE_JSON)["tables"] if WAREHOUSE_JSON.exists() else []


def table_dir(name: str) -> str:
    db, table = name.split(".")
    return str(WAREHOUSE / f"{db}.db" / table)


def table_at(where, name: str) -> str:
    """Table ``name`` of the warehouse at ``where`` (a ``table_location`` fixture: local disk or S3)."""
    db, table = name.split(".")
    return f"{where(str(WAREHOUSE))}/{db}.db/{table}"


def expected_all_rows(spec: dict) -> list[list]:
    return spec.get("expected_rows_model") or spec["all_rows_sorted_by_id"]


def expected_query_rows(spec: dict, qid: str) -> list | None:
    """Expected rows (primary-key tables) or ids (append table) of one query."""
    res = spec["query_results"][qid]
    if "rows_read_with_executeFilter" in res:
        return res["rows_read_with_executeFilter"]
    return res["ids_read_with_executeFilter"]


def normalize(value):
    """A Spark/pyarrow value in the golden JSON encoding (timestamps as [millis, nanos_of_milli])."""
    if isinstance(value, _dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(_dt.timezone.utc).replace(tzinfo=None)
        delta = value - _EPOCH
        micros = (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds
        return [micros // 1000, (micros % 1000) * 1000]
    return value


def normalize_rows(rows) -> list[list]:
    return sorted(([normalize(v) for v in r] for r in rows), key=lambda r: r[0])
