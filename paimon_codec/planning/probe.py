"""What judging one data file needs (:class:`FileProbe`): the data file, its index and its deletion vector,
small and picklable so a Spark task can judge it.  :mod:`.judge` judges probes; :mod:`.judge_sources`
opens the bytes a probe names."""

from __future__ import annotations

from dataclasses import dataclass

from ..table.table import LiveDataFile

__all__ = ["FileProbe"]


@dataclass(frozen=True)
class FileProbe:
    """What judging one data file needs and nothing more: small and picklable (shipped to Spark tasks).

    ``deletion``: ``(index file, offset, length)`` of the file's deletion vector; ``deleted_rows`` its
    cardinality when the index manifest records it.
    """

    path: str
    row_count: int
    schema_id: int | None = None
    index_path: str | None = None
    embedded_index: bytes | None = None
    deletion: tuple[str, int, int] | None = None
    deleted_rows: int | None = None

    @classmethod
    def of(cls, f: LiveDataFile) -> FileProbe:
        d = f.deletion_file
        return cls(f.path, f.row_count, getattr(f.meta, "schema_id", None), f.index_path, f.embedded_index,
                   None if d is None else (d.path, d.offset, d.length), None if d is None else d.cardinality)
