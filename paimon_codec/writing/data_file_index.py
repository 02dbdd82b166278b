"""The file index of one data file as Paimon's writers store it: the container of every index the table's
``file-index.*`` options ask for, embedded in the manifest entry when it is small, else written as
``<data file>.index`` beside the data (``file-index.in-manifest-threshold``).  Shared by the append writer and
the primary-key (level-0 / compaction) writer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import storage
from ..fileindex.writer import FileIndexWriter, placement
from ..types import RowType


def write_data_file_index(directory: str, data_file_name: str, fields: RowType, options: Mapping[str, Any],
                          rows: Any, paimon_version: str | None) -> tuple[bytes | None, tuple[str, ...]]:
    """Build the container over ``rows`` (an Arrow table of the indexed columns) and place it: returns the
    embedded bytes (or None) and the extra file names to record in the data file's meta."""
    writer = FileIndexWriter(fields, options, paimon_version=paimon_version)
    writer.write_table(rows)
    container = writer.serialize()
    place = placement(container, options, data_file_name)
    if place.index_file_name:
        storage.write_atomic(storage.join(directory, place.index_file_name), container)
        return None, (place.index_file_name,)
    return place.embedded, ()
