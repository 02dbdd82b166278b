"""Which metadata layout a commit writes for a table: the table's own, else the requested version's.

The Avro writer schema of the table's newest manifest, manifest list and index manifest is reused
as it is (so a table written by Paimon 0.9 keeps 0.9's layout and Paimon 0.9 keeps reading it);
a kind of file the table does not have yet gets the layout those files imply (``_VALUE_STATS_COLS``
in the manifests means the newest layout), else the layout asked for.  The Avro codec is the
existing files' one, else ``manifest.compression`` (Paimon's default ``zstd``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ... import storage
from ...errors import UnsupportedFeatureError
from ...table.snapshot import Snapshot
from ...table.table import PaimonTable
from .layout import (
    file_writer_schema,
    index_manifest_schema,
    manifest_list_schema,
    manifest_schema,
    normalize_layout,
)

__all__ = ["TableLayout", "detect_layout"]

_CODECS = {"zstd": "zstandard", "zstandard": "zstandard", "snappy": "snappy", "deflate": "deflate",
           "none": "null", "null": "null", "uncompressed": "null", "bzip2": "bzip2", "xz": "xz"}


@dataclass(frozen=True)
class TableLayout:
    layout: str  # "0.9" or "newest": the snapshot JSON style and defaults for missing kinds
    manifest_schema: dict
    list_schema: dict
    index_schema: dict
    codec: str


def _nested_fields(schema: dict, name: str) -> set[str]:
    for f in schema.get("fields", ()):
        if f["name"] == name:
            t = f["type"]
            for cand in t if isinstance(t, list) else [t]:
                if isinstance(cand, dict) and cand.get("type") == "record":
                    return {x["name"] for x in cand["fields"]}
    return set()


def _existing(table: PaimonTable, name: str | None) -> tuple[dict, str] | None:
    if not name:
        return None
    path = storage.join(table.manifest_dir, name)
    try:
        return file_writer_schema(path)
    except FileNotFoundError:
        return None
    except ValueError:
        raise UnsupportedFeatureError("the table's metadata files are not Avro; this commit writes Avro only",
                               path=path, expected="manifest.format = avro") from None


def detect_layout(table: PaimonTable, snapshot: Snapshot | None, requested: str | None) -> TableLayout:
    """The layout a commit on ``table`` (whose latest snapshot is ``snapshot``) writes."""
    fmt = table.schema.options.get("manifest.format", "avro").strip().lower()
    if fmt != "avro":
        raise UnsupportedFeatureError(f"manifest.format {fmt} is not supported by this commit", path=table.path,
                               expected="manifest.format = avro")
    found_manifest = found_list = found_index = None
    if snapshot is not None:
        for list_name in (snapshot.delta_manifest_list, snapshot.base_manifest_list):
            if found_list is None:
                found_list = _existing(table, list_name)
            metas = table.manifest_list(list_name)
            if metas and found_manifest is None:
                found_manifest = _existing(table, metas[-1].file_name)
        found_index = _existing(table, snapshot.index_manifest)
    if found_manifest is not None:
        newest = "_VALUE_STATS_COLS" in _nested_fields(found_manifest[0], "_FILE")
        layout = "newest" if newest else "0.9"
    elif found_list is not None:
        layout = "newest" if any(f["name"] == "_MIN_BUCKET" for f in found_list[0]["fields"]) else "0.9"
    else:
        layout = normalize_layout(requested or "newest")
    codec = next((f[1] for f in (found_manifest, found_list, found_index) if f is not None), None)
    if codec is None:
        option = table.schema.options.get("manifest.compression", "zstd").strip().lower()
        codec = _CODECS.get(option)
        if codec is None:
            raise UnsupportedFeatureError(f"manifest.compression {option} is not supported by this commit",
                                   path=table.path, expected=", ".join(sorted(_CODECS)))
    return TableLayout(layout,
                       found_manifest[0] if found_manifest else manifest_schema(layout),
                       found_list[0] if found_list else manifest_list_schema(layout),
                       found_index[0] if found_index else index_manifest_schema(layout), codec)
