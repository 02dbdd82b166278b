"""BLOB columns of data-evolution tables: which ``.blob`` files give a row-id range its blob values.

A BLOB column is written to its own ``.blob`` files (``_WRITE_COLS`` = the one column), rolled by
``blob.target-file-size``, so one normal data file's row-id range is covered by a *bunch* of blob files
that follow each other.  Paimon (``DataEvolutionSplitRead.splitFieldBunches`` / ``SpecialFieldBunch``)
assembles a bunch per blob column like this, and so does :func:`blob_bunches`:

* the blob files of a range are sorted by first row id, newer (higher max sequence number) first;
* of files starting at the same row id only the newest counts (an older one with an equal or higher
  sequence number is an error in Paimon, refused here);
* a file starting inside the rows already covered counts only if it is older (skipped), else Paimon
  fails, as here; a gap between files is an error;
* the bunch must cover the range exactly (start at its first row id, as many rows).

In the column assignment, the range's normal files come first (newest first), the blob bunches after
them: a blob column comes from its bunch unless a normal file writes it.  Deletion vectors never sit
on blob files (refused); the rows a normal file's vector keeps are picked out of the bunch by position.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import CorruptDataError, UnsupportedTypeError
from ..table.schema import TableSchema
from ..table.table import LiveDataFile

__all__ = ["is_blob_file", "blob_bunches", "blob_as_descriptor", "BLOB_OPTIONS"]


def is_blob_file(f: LiveDataFile) -> bool:
    return f.file_name.endswith(".blob")


def blob_as_descriptor(schema: TableSchema) -> bool:
    return schema.option_bool("blob-as-descriptor")


def _blob_table(schema: TableSchema) -> bool:
    # (the data-evolution table of data_evolution.py); blob-descriptor-field / blob-external-storage-field
    # keep descriptors inline in normal files: refused
    return (schema.option_bool("row-tracking.enabled") and schema.option_bool("data-evolution.enabled")
            and not schema.options.get("blob-descriptor-field"))


# The options the BLOB read implements, listed in :mod:`.read_options`' table of supported options.
BLOB_OPTIONS: dict[str, Callable[[TableSchema], bool]] = {
    "type:BLOB": _blob_table,
    "blob-field": _blob_table,  # BYTES columns made BLOB at create time: the schema says BLOB
    "blob-as-descriptor": _blob_table,
}


def _range(f: LiveDataFile) -> tuple[int, int]:
    first = f.meta.first_row_id
    if first is None:
        raise UnsupportedTypeError("blob file without _FIRST_ROW_ID", path=f.path)
    return first, f.row_count


def blob_bunches(blob_files: list[LiveDataFile], first_row_id: int, row_count: int,
                 schema_of: Callable[[int], TableSchema]) -> dict[int, list[LiveDataFile]]:
    """Per BLOB field id, the blob files giving rows ``first_row_id ..`` (``row_count`` rows), in order."""
    ordered = sorted(blob_files, key=lambda f: (_range(f)[0], -f.meta.max_sequence_number))
    by_field: dict[int, list[LiveDataFile]] = {}
    for f in ordered:
        cols = f.meta.write_cols
        if not cols or len(cols) != 1:
            raise CorruptDataError(f"blob file writes columns {cols}, expected exactly one", path=f.path)
        ids = {fld.name: fld.id for fld in schema_of(f.meta.schema_id).fields}
        if cols[0] not in ids or ids[cols[0]] is None:
            raise CorruptDataError(f"blob file writes {cols[0]!r}, which schema {f.meta.schema_id} does not have",
                                   path=f.path)
        bunch = by_field.setdefault(int(ids[cols[0]]), [])
        if not bunch:
            bunch.append(f)
            continue
        last = bunch[-1]
        start, _ = _range(f)
        last_start, last_count = _range(last)
        if start == last_start or start < last_start + last_count:
            if f.meta.max_sequence_number >= last.meta.max_sequence_number:
                raise UnsupportedTypeError(
                    f"blob files {last.file_name} and {f.file_name} overlap without a decreasing sequence number",
                    path=f.path, expected="an older file under a newer one (Paimon refuses this too)")
            continue  # an older file under rows a newer one already gives
        if start > last_start + last_count:
            raise UnsupportedTypeError(f"blob files of row ids {first_row_id}.. leave a gap before row {start}",
                                       path=f.path, expected=f"a file starting at row id {last_start + last_count}"
                                       " (Paimon refuses this too)")
        bunch.append(f)
    for bunch in by_field.values():
        start = _range(bunch[0])[0]
        covered = sum(f.row_count for f in bunch)
        if start != first_row_id or covered != row_count:
            raise UnsupportedTypeError(
                f"blob files cover row ids {start}.. ({covered} rows), their range {first_row_id}.. has {row_count}",
                path=bunch[0].path, expected="blob files covering the range exactly (Paimon refuses this too)")
    return by_field
