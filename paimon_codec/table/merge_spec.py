"""The merge a primary-key table asks for, read from its options (Paimon 1.4 semantics).

Facts (checked against Paimon 1.4.2's ``CoreOptions`` and merge functions):

* ``merge-engine``: ``deduplicate`` (default), ``first-row``, ``partial-update``, ``aggregation``;
* records of one key are ordered by ``sequence.field`` (ascending unless ``sequence.field.sort-order`` is
  ``descending``), then by the system ``_SEQUENCE_NUMBER``;
* aggregation: primary-key fields keep their value, ``sequence.field`` fields use ``last_value``, other
  fields ``fields.<f>.aggregate-function``, else ``fields.default-aggregate-function``, else
  ``last_non_null_value``; ``fields.<f>.ignore-retract`` ignores retractions for that field;
* a batch read skips level-0 files of tables with deletion vectors and of ``first-row`` tables
  (``CoreOptions.batchScanSkipLevel0``);
* tables that "need lookup" (``changelog-producer`` = ``lookup``, ``force-lookup``, deletion vectors;
  ``CoreOptions.needLookup``) are read through Paimon's ``LookupMergeFunction`` (all engines but
  ``first-row``): their lookup compaction writes a key's *whole* merged state into the level it
  compacts to while the older state stays in the higher levels, so of a key's records in levels above 0
  only the one of the lowest level takes part in the merge (:mod:`paimon_codec.reading.merge.read`).  ``deletion-vectors.merge-on-read`` is not a Paimon Java option
  (1.4.2 ignores it); pypaimon 2.x reads it as "merge level-0 files too, deletion vectors applied to the
  others", which is what :mod:`paimon_codec.planning.merge_plan` does when it is set.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import UnsupportedTypeError
from .schema import TableSchema

__all__ = ["MergeSpec", "merge_spec", "AGGREGATE_FUNCTIONS"]

ENGINES = ("deduplicate", "first-row", "partial-update", "aggregation")
# aggregate functions this reader reproduces (Paimon names; first_not_null_value is the legacy alias)
AGGREGATE_FUNCTIONS = ("sum", "product", "min", "max", "last_value", "last_non_null_value", "first_value",
                       "first_non_null_value", "first_not_null_value", "listagg", "bool_and", "bool_or",
                       "collect", "merge_map", "nested_update", "rbm32", "merge_map_with_keytime",
                       "nested_partial_update")
_SEQUENCE_GROUP = re.compile(r"^fields\.(.+)\.sequence-group$")


@dataclass(frozen=True)
class MergeSpec:
    """Everything a group reader needs to merge one bucket (plain data, so it pickles into Spark tasks)."""

    engine: str
    primary_keys: tuple[str, ...]
    sequence_fields: tuple[str, ...] = ()
    sequence_descending: bool = False
    ignore_delete: bool = False
    partial_update_remove_on_delete: bool = False
    aggregates: dict[str, str] = field(default_factory=dict)       # field -> function (aggregation)
    ignore_retract: tuple[str, ...] = ()
    listagg_delimiters: dict[str, str] = field(default_factory=dict)
    # LookupMergeFunction: of a key's records above level 0 only the lowest level's is merged
    lookup: bool = False
    # aggregation.remove-record-on-delete: a -D replaces the row (and removes it when it is the last record)
    remove_record_on_delete: bool = False
    # per field: options of the collection aggregates (distinct, nested_key, count_limit) and listagg's distinct
    collection_options: dict[str, dict] = field(default_factory=dict)
    not_null: tuple[str, ...] = ()

    def to_params(self) -> dict:
        return {"engine": self.engine, "primary_keys": list(self.primary_keys),
                "sequence_fields": list(self.sequence_fields), "sequence_descending": self.sequence_descending,
                "ignore_delete": self.ignore_delete,
                "partial_update_remove_on_delete": self.partial_update_remove_on_delete,
                "aggregates": dict(self.aggregates), "ignore_retract": list(self.ignore_retract),
                "listagg_delimiters": dict(self.listagg_delimiters), "lookup": self.lookup,
                "remove_record_on_delete": self.remove_record_on_delete,
                "collection_options": dict(self.collection_options), "not_null": list(self.not_null)}

    @classmethod
    def from_params(cls, params: dict) -> MergeSpec:
        return cls(params["engine"], tuple(params["primary_keys"]), tuple(params["sequence_fields"]),
                   bool(params["sequence_descending"]), bool(params["ignore_delete"]),
                   bool(params["partial_update_remove_on_delete"]), dict(params["aggregates"]),
                   tuple(params["ignore_retract"]), dict(params["listagg_delimiters"]), bool(params["lookup"]),
                   bool(params.get("remove_record_on_delete", False)), dict(params.get("collection_options", {})),
                   tuple(params.get("not_null", ())))


def _refuse(what: str, path: str | None) -> UnsupportedTypeError:
    return UnsupportedTypeError(f"primary-key merge read: {what} is not supported", path=path)


def _true(options: dict[str, str], key: str, path: str | None = None) -> bool:
    """A boolean option as Paimon parses it (``true`` / ``false`` in any case, nothing else: Paimon refuses
    ``yes``, ``1`` or `` true``, so a value it does not read is refused here rather than read as false)."""
    value = options.get(key)
    if value is None:
        return False
    text = str(value).upper()
    if text not in ("TRUE", "FALSE"):
        raise _refuse(f"'{key}' = {value!r} (Paimon reads only true / false)", path)
    return text == "TRUE"


def _choice(options: dict[str, str], key: str, choices: tuple[str, ...], default: str, path: str | None) -> str:
    """An enum option as Paimon parses it: one of ``choices`` in any case, not trimmed."""
    value = options.get(key, default)
    for choice in choices:
        if str(value).upper() == choice.upper():
            return choice
    raise _refuse(f"'{key}' = {value!r}", path)


def _needs_lookup(opts: dict[str, str], engine: str, path: str | None) -> bool:
    """Paimon's ``CoreOptions.needLookup`` for a non-first-row engine (first-row is never wrapped)."""
    producer = _choice(opts, "changelog-producer", ("none", "input", "full-compaction", "lookup"), "none", path)
    if engine == "first-row":
        return False
    return (producer == "lookup" or _true(opts, "deletion-vectors.enabled", path)
            or _true(opts, "force-lookup", path))


def merge_spec(schema: TableSchema, path: str | None = None) -> MergeSpec:
    """The merge ``schema`` asks for, or :class:`UnsupportedTypeError` naming what is not reproduced."""
    opts = schema.options
    engine = _choice(opts, "merge-engine", ENGINES, "deduplicate", path)
    for key in opts:
        if _SEQUENCE_GROUP.match(key):
            raise _refuse(f"sequence groups ('{key}')", path)
    if opts.get("partial-update.remove-record-on-sequence-group"):
        raise _refuse("'partial-update.remove-record-on-sequence-group'", path)
    remove_record_on_delete = engine == "aggregation" and _true(opts, "aggregation.remove-record-on-delete", path)
    if opts.get("record-level.expire-time"):
        raise _refuse("'record-level.expire-time' (records expired by time)", path)
    if engine == "partial-update":
        agg_keys = sorted(k for k in opts if k == "fields.default-aggregate-function"
                          or (k.startswith("fields.") and k.endswith(".aggregate-function")))
        if agg_keys:  # Paimon applies them only inside sequence groups, which are refused above
            raise _refuse(f"partial-update with aggregate functions ('{agg_keys[0]}')", path)
    names = schema.fields.names
    # Paimon splits on commas and trims each name (a trailing comma leaves no empty name: String.split)
    seq = tuple(s.strip() for s in opts["sequence.field"].rstrip(",").split(",")) if "sequence.field" in opts else ()
    if len(set(seq)) != len(seq):
        raise _refuse(f"sequence.field {opts['sequence.field']!r} naming a column twice", path)
    for s in seq:
        if s not in names:
            raise UnsupportedTypeError(f"sequence.field names unknown column {s!r}", path=path,
                                       expected="one of " + ", ".join(names))
    order = _choice(opts, "sequence.field.sort-order", ("ascending", "descending"), "ascending", path)
    aggregates: dict[str, str] = {}
    ignore_retract: list[str] = []
    delimiters: dict[str, str] = {}
    collection_options: dict[str, dict] = {}
    if engine == "aggregation":
        default = opts.get("fields.default-aggregate-function")
        for name in names:
            if name in schema.primary_keys:
                continue
            if name in seq:
                func = "last_value"
            else:  # an empty name is Paimon's error too; names match exactly (its factories' identifiers)
                named = opts.get(f"fields.{name}.aggregate-function")
                func = named if named is not None else default if default is not None else "last_non_null_value"
            if func not in AGGREGATE_FUNCTIONS:
                raise _refuse(f"aggregate function '{func}' (field {name})", path)
            if func == "listagg":
                delimiters[name] = opts.get(f"fields.{name}.list-agg-delimiter", ",")
                if _true(opts, f"fields.{name}.distinct", path):
                    if delimiters[name] == "":   # Paimon's token split of an empty delimiter is not reproduced
                        raise _refuse(f"listagg with 'fields.{name}.distinct' and an empty delimiter", path)
                    collection_options[name] = {"distinct": True}
            if func in ("collect", "merge_map", "nested_update", "merge_map_with_keytime", "nested_partial_update"):
                collection_options[name] = _collection_options(opts, name, func, path)
            aggregates[name] = "first_non_null_value" if func == "first_not_null_value" else func
            if _true(opts, f"fields.{name}.ignore-retract", path):
                if remove_record_on_delete:   # Paimon's FieldAggregatorFactory refuses the pair
                    raise UnsupportedTypeError(f"'aggregation.remove-record-on-delete' with "
                                               f"'fields.{name}.ignore-retract' (Paimon fails this read too)",
                                               path=path)
                ignore_retract.append(name)
    # 'ignore-delete' falls back to its pre-1.0 engine-specific keys
    ignore_delete_key = next((k for k in ("ignore-delete", "first-row.ignore-delete", "deduplicate.ignore-delete",
                                          "partial-update.ignore-delete") if k in opts), "ignore-delete")
    # options are parsed where Paimon parses them: an aggregation table never reads 'ignore-delete' (its
    # writer drops retractions), only partial-update reads 'partial-update.remove-record-on-delete'
    ignore_delete = engine != "aggregation" and _true(opts, ignore_delete_key, path)
    remove_on_delete = engine == "partial-update" and _true(opts, "partial-update.remove-record-on-delete", path)
    return MergeSpec(engine, tuple(schema.primary_keys), seq, order == "descending", ignore_delete, remove_on_delete,
                     aggregates, tuple(ignore_retract), delimiters, _needs_lookup(opts, engine, path),
                     remove_record_on_delete, collection_options,
                     tuple(f.name for f in schema.fields if not f.type.nullable))


def _collection_options(opts: dict[str, str], name: str, func: str, path: str | None) -> dict:
    """``fields.<name>.distinct`` (collect), ``nested-key`` / ``count-limit`` (nested_update), as Paimon reads
    them: the nested key split on commas and trimmed, the limit a Java int (default Integer.MAX_VALUE)."""
    out: dict = {}
    if func == "collect":
        out["distinct"] = _true(opts, f"fields.{name}.distinct", path)
    if func == "merge_map_with_keytime" and f"fields.{name}.ts-field" in opts:
        out["ts_field"] = opts[f"fields.{name}.ts-field"]
    if func in ("nested_update", "nested_partial_update"):
        key = opts.get(f"fields.{name}.nested-key")
        if key is not None:
            out["nested_key"] = [k.strip() for k in key.split(",")]
        limit = opts.get(f"fields.{name}.count-limit") if func == "nested_update" else None
        if limit is not None:
            if not re.fullmatch(r"[+-]?[0-9]{1,10}", limit) or not -2 ** 31 <= int(limit) < 2 ** 31:
                raise _refuse(f"'fields.{name}.count-limit' = {limit!r}", path)
            out["count_limit"] = int(limit)
    return out
