"""Build a whole file-index container for one data file, from table options and column data.

``FileIndexWriter(schema, options)`` takes either a table's options (``file-index.bitmap.columns``
...; see :mod:`.options`) or an explicit list of ``(column, index_type, options)``, receives the
data as pyarrow tables / arrays (vectorised) or plain rows, and serializes the container.

Container order: Paimon keeps the serialized indexes in a ``HashMap<String, Map<String, byte[]>>``
(column -> index type -> bytes), so real files list columns and their index types in Java
``HashMap`` iteration order of the names; that is the default when the indexes come from table
options (``order="java"``).  ``order="given"`` keeps the order of the specs instead (what
``FileIndexFormat.Writer`` does with a ``LinkedHashMap``).

:func:`placement` decides, like Paimon, whether the container is embedded in the manifest or
stored as ``<data file>.index`` (container size > ``file-index.in-manifest-threshold``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from ..errors import InvalidOptionError, UnsupportedTypeError
from ..types import DataType, RowType, parse_row_type
from . import registry
from .container import write_container
from .javamap import put_order
from .options import IndexSpec, check_index_type, in_manifest_threshold, parse_index_options

__all__ = ["FileIndexWriter", "Placement", "placement"]

_V09_TYPES = ("bitmap", "bloom-filter")


def _map_sub_column(column: str) -> tuple[str, str] | None:
    """``"m[k]"`` -> ``("m", "k")``."""
    if column.endswith("]") and "[" in column:
        base, _, key = column[:-1].partition("[")
        return base, key
    return None


class _Slot:
    """One (column, index type) being built."""

    def __init__(self, spec: IndexSpec, dtype: DataType, paimon_version: str | None) -> None:
        self.spec = spec
        self.dtype = dtype
        opts = dict(spec.options)
        if paimon_version == "0.9":
            if spec.index_type not in _V09_TYPES:
                raise UnsupportedTypeError(f"Paimon 0.9 has no {spec.index_type!r} file index")
            if spec.index_type == "bitmap":
                if dtype.root == "BOOLEAN":
                    raise UnsupportedTypeError(
                        f"Paimon 0.9 cannot write a bitmap index of BOOLEAN column {spec.column!r} "
                        "(its writer fails with ClassCastException)")
                opts.setdefault("version", "1")
                if str(opts["version"]).strip() != "1":
                    raise InvalidOptionError("Paimon 0.9 only has bitmap index version 1")
        self.writer = registry.create_writer(spec.index_type, dtype, opts)
        self.saw_value = False


class FileIndexWriter:
    """Collects column data of one data file and emits its file-index container."""

    def __init__(
        self,
        schema: RowType | str | list,
        options: Mapping[str, Any] | Sequence[IndexSpec | tuple[str, str, Mapping[str, Any]]],
        *,
        order: str | None = None,
        paimon_version: str | None = None,
    ) -> None:
        self.schema = parse_row_type(schema)
        if isinstance(options, Mapping):
            specs = parse_index_options(options, self.schema)
            default_order = "java"
        else:
            specs = [s if isinstance(s, IndexSpec) else IndexSpec(s[0], s[1], {k: str(v) for k, v in
                                                                             (s[2] or {}).items()})
                     for s in options]
            default_order = "given"
        self.order = order or default_order
        if self.order not in ("java", "given"):
            raise InvalidOptionError(f"container order must be 'java' or 'given', not {self.order!r}")
        if paimon_version not in (None, "0.9", "latest"):
            raise InvalidOptionError(f"unknown paimon_version {paimon_version!r}", expected="'0.9' or 'latest'")
        self.paimon_version = paimon_version
        self._slots: list[_Slot] = []
        seen = set()
        for spec in specs:
            if (spec.column, spec.index_type) in seen:
                raise InvalidOptionError(f"index {spec.index_type!r} on column {spec.column!r} given twice")
            seen.add((spec.column, spec.index_type))
            dtype = self._column_type(spec.column)
            check_index_type(spec.index_type, dtype, spec.column)
            self._slots.append(_Slot(spec, dtype, paimon_version))
        self.row_count = 0

    def _column_type(self, column: str) -> DataType:
        sub = _map_sub_column(column)
        if sub is not None and sub[0] in self.schema.names and column not in self.schema.names:
            mt = self.schema.field(sub[0]).type
            if mt.root != "MAP":
                raise UnsupportedTypeError(f"{column!r} needs a MAP column, {sub[0]!r} is {mt}")
            return mt.children[1]
        if column not in self.schema.names:
            raise InvalidOptionError(f"index on unknown column {column!r}",
                                     expected="one of " + ", ".join(self.schema.names))
        return self.schema.field(column).type

    @property
    def specs(self) -> list[IndexSpec]:
        return [s.spec for s in self._slots]

    # ------------------------------------------------------------------ input
    def write_table(self, table: pa.Table | pa.RecordBatch | Mapping[str, Any]) -> None:
        """Append a batch of rows given column-wise (pyarrow table/batch or ``{name: values}``)."""
        if isinstance(table, (pa.Table, pa.RecordBatch)):
            names = table.schema.names
            get = table.column
            n = table.num_rows
        else:
            names = list(table)
            get = table.__getitem__
            n = len(next(iter(table.values()))) if table else 0
        for slot in self._slots:
            col = slot.spec.column
            sub = _map_sub_column(col)
            if col in names:
                values = get(col)
            elif sub is not None and sub[0] in names:
                values = self._map_values(get(sub[0]), sub[1])
            else:
                raise InvalidOptionError(f"input has no column {col!r} for its {slot.spec.index_type} index")
            if len(values) != n:
                raise InvalidOptionError(f"column {col!r} has {len(values)} values, expected {n}")
            slot.writer.write_array(values)
            if sub is not None and any(v is not None for v in (values if isinstance(values, list) else [])):
                slot.saw_value = True
        self.row_count += n

    def write_array(self, column: str, values: Any) -> None:
        """Shortcut for a single-column batch."""
        self.write_table({column: values})

    def write_rows(self, rows: Iterable[Sequence[Any] | Mapping[str, Any]]) -> None:
        """Append plain rows: tuples in schema order or dicts by column name."""
        names = self.schema.names
        cols: dict[str, list[Any]] = {n: [] for n in names}
        for row in rows:
            if isinstance(row, Mapping):
                for n in names:
                    cols[n].append(row.get(n))
            else:
                if len(row) != len(names):
                    raise InvalidOptionError(f"row of {len(row)} values for a schema of {len(names)} columns")
                for n, v in zip(names, row, strict=True):
                    cols[n].append(v)
        needed = {s.spec.column for s in self._slots} | {(_map_sub_column(s.spec.column) or ("",))[0]
                                                        for s in self._slots}
        self.write_table({n: v for n, v in cols.items() if n in needed})

    @staticmethod
    def _map_values(values: Any, key: str) -> list[Any]:
        items = values.to_pylist() if isinstance(values, (pa.Array, pa.ChunkedArray)) else list(values)
        out: list[Any] = []
        for m in items:
            if m is None:
                out.append(None)
            elif isinstance(m, Mapping):
                out.append(m.get(key))
            else:  # list of (key, value) pairs, as pyarrow returns maps
                out.append(next((v for k, v in m if str(k) == key), None))
        return out

    # ------------------------------------------------------------------ output
    def payloads(self) -> list[tuple[str, str, bytes | None]]:
        """``(column, index_type, payload)`` in spec order; ``None`` = empty map sub-column index."""
        out = []
        for slot in self._slots:
            empty = _map_sub_column(slot.spec.column) is not None and slot.spec.column not in self.schema.names \
                and not slot.saw_value
            out.append((slot.spec.column, slot.spec.index_type, None if empty else slot.writer.serialize()))
        return out

    def serialize(self) -> bytes:
        """The file-index container bytes."""
        return write_container(self.container_columns(self.payloads()))

    def container_columns(self, payloads: Sequence[tuple[str, str, bytes | None]]
                          ) -> list[tuple[str, list[tuple[str, bytes | None]]]]:
        grouped: dict[str, dict[str, bytes | None]] = {}
        for col, itype, data in payloads:
            grouped.setdefault(col, {})[itype] = data
        if self.order == "given":
            return [(c, list(idx.items())) for c, idx in grouped.items()]
        return [(c, [(t, grouped[c][t]) for t in put_order(grouped[c])]) for c in put_order(grouped)]


@dataclass(frozen=True)
class Placement:
    """Where a container goes: embedded bytes in the manifest, or a ``.index`` file next to the data."""

    embedded: bytes | None
    index_file_name: str | None

    @property
    def is_embedded(self) -> bool:
        return self.embedded is not None


def placement(container: bytes, options: Mapping[str, Any] | None, data_file_name: str) -> Placement:
    """Paimon's choice: size > ``file-index.in-manifest-threshold`` (default 500 B) => ``<data>.index``."""
    if len(container) > in_manifest_threshold(options):
        return Placement(None, f"{data_file_name}.index")
    return Placement(container, None)
