"""Snapshots: ``<table>/snapshot/snapshot-<id>`` JSON files, the LATEST / EARLIEST hints, tags and long-lived
changelogs (``<table>/changelog/changelog-<id>``).

Unknown JSON fields are ignored, as Paimon's own ``Snapshot`` does (``ignoreUnknown``); an unknown
``version`` is refused.  ``changelogManifestList`` (changelog files) is carried but never part of a
batch read.  For a branch, pass the branch directory (``<table>/branch/branch-<name>``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .. import storage
from ..errors import CorruptDataError, PaimonCodecError, UnsupportedVersionError
from .metadata_checks import INT64, checked_int, file_name
from .metadata_files import numbered_ids, read_json_object

__all__ = ["Snapshot", "load_snapshot", "snapshot_ids", "latest_snapshot_id", "earliest_snapshot_id", "tag_names",
           "load_tag", "read_tag", "snapshot_at_time", "changelog_ids", "load_changelog"]

# Snapshot JSON versions: 1 and 2 (Paimon <= 0.5), 3 (0.6 onwards, also pypaimon 2.x).
SUPPORTED_SNAPSHOT_VERSIONS = (1, 2, 3)


@dataclass(frozen=True)
class Snapshot:
    id: int
    schema_id: int
    base_manifest_list: str
    delta_manifest_list: str
    changelog_manifest_list: str | None
    index_manifest: str | None
    commit_kind: str
    time_millis: int | None
    total_record_count: int | None
    version: int = 3
    raw: dict = field(default_factory=dict, repr=False, compare=False)


def _snapshot_dir(table_path) -> str:
    return storage.join(os.fspath(table_path), "snapshot")


def snapshot_ids(table_path: str | os.PathLike) -> list[int]:
    """Ids of every snapshot file present (the retained snapshots)."""
    return numbered_ids(_snapshot_dir(table_path), "snapshot-")


def _hint(table_path, name: str) -> int | None:
    path = storage.join(_snapshot_dir(table_path), name)
    try:
        text = storage.read_text(path).strip()
    except (FileNotFoundError, UnicodeDecodeError):
        return None  # no usable hint: the caller lists the directory
    digits = text.removeprefix("-")
    return int(text) if digits.isascii() and digits.isdigit() and len(digits) <= 18 else None


def _id_from_hint(table_path: str | os.PathLike, hint_name: str, beyond: int) -> int | None:
    """The hinted id if its snapshot exists and the one ``beyond`` it (+1 / -1) does not, else None."""
    hint = _hint(table_path, hint_name)
    if hint is None:
        return None
    d = _snapshot_dir(table_path)
    if storage.exists(storage.join(d, f"snapshot-{hint}")) \
            and not storage.exists(storage.join(d, f"snapshot-{hint + beyond}")):
        return hint
    return None


def latest_snapshot_id(table_path: str | os.PathLike) -> int | None:
    """Like Paimon: trust the LATEST hint if the next snapshot does not exist, else list the directory."""
    hint = _id_from_hint(table_path, "LATEST", +1)
    if hint is not None:
        return hint
    ids = snapshot_ids(table_path)
    return ids[-1] if ids else None


def earliest_snapshot_id(table_path: str | os.PathLike) -> int | None:
    """Like Paimon: trust the EARLIEST hint if the previous snapshot does not exist, else list the directory."""
    hint = _id_from_hint(table_path, "EARLIEST", -1)
    if hint is not None:
        return hint
    ids = snapshot_ids(table_path)
    return ids[0] if ids else None


def parse_snapshot(obj: dict, path: str | None = None) -> Snapshot:
    try:
        version = obj.get("version", 1)
        if version not in SUPPORTED_SNAPSHOT_VERSIONS or isinstance(version, bool):
            raise UnsupportedVersionError(f"unsupported snapshot version {version}", path=path,
                                          expected=" or ".join(map(str, SUPPORTED_SNAPSHOT_VERSIONS)))
        required = lambda key: _required(obj, key)  # noqa: E731
        optional_name = lambda key: None if obj.get(key) is None else file_name(obj[key], key, path)  # noqa: E731
        optional_long = lambda key: None if obj.get(key) is None else checked_int(obj[key], key, path, lo=INT64[0])  # noqa: E731
        return Snapshot(
            id=checked_int(required("id"), "snapshot id", path),
            schema_id=checked_int(required("schemaId"), "schemaId", path),
            base_manifest_list=file_name(required("baseManifestList"), "baseManifestList", path),
            delta_manifest_list=file_name(required("deltaManifestList"), "deltaManifestList", path),
            changelog_manifest_list=optional_name("changelogManifestList"),
            index_manifest=optional_name("indexManifest"),
            commit_kind=str(obj.get("commitKind", "")),
            time_millis=optional_long("timeMillis"),
            total_record_count=optional_long("totalRecordCount"),
            version=version,
            raw=obj,
        )
    except PaimonCodecError as exc:
        raise exc.with_path(path) from None
    except (KeyError, TypeError, ValueError) as exc:
        raise CorruptDataError(f"malformed snapshot: {type(exc).__name__}: {exc}", path=path,
                               expected="a snapshot object as Paimon writes it") from None


_REQUIRED = ("id", "schemaId", "baseManifestList", "deltaManifestList")


def _required(obj: dict, key: str):
    if key not in obj:
        raise CorruptDataError(f"snapshot lacks field {key!r}", expected=f"the fields {', '.join(_REQUIRED)}")
    return obj[key]


def load_snapshot(table_path: str | os.PathLike, snapshot_id: int) -> Snapshot:
    path = storage.join(_snapshot_dir(table_path), f"snapshot-{snapshot_id}")
    snap = parse_snapshot(read_json_object(path, f"snapshot {snapshot_id}"), path)
    if snap.id != snapshot_id:
        raise CorruptDataError(f"snapshot file holds id {snap.id}", path=path, expected=str(snapshot_id))
    return snap


# -- tags and time travel -----------------------------------------------------------------------------
def _tag_dir(table_path) -> str:
    return storage.join(os.fspath(table_path), "tag")


def tag_names(table_path: str | os.PathLike) -> list[str]:
    """Names of the tags (``tag/tag-<name>`` files) of a table or branch directory."""
    d = _tag_dir(table_path)
    return sorted(n[4:] for n in storage.list_dir(d) if n.startswith("tag-") and len(n) > 4 and not n.endswith(".crc"))


def load_tag(table_path: str | os.PathLike, name: str) -> Snapshot:
    """The snapshot a tag holds: a tag file is the snapshot's JSON (+ ``tagCreateTime`` /
    ``tagTimeRetained``), so a tag outlives the expiry of its snapshot file."""
    if not name or "/" in name or os.sep in name:
        raise CorruptDataError(f"bad tag name {name!r}", path=_tag_dir(table_path))
    path = _tag_file(table_path, name)
    if not storage.is_file(path):
        raise CorruptDataError(f"tag {name!r} does not exist", path=path,
                               expected="one of: " + (", ".join(tag_names(table_path)) or "(no tags)"))
    return read_tag(table_path, name)


def _tag_file(table_path: str | os.PathLike, name: str) -> str:
    return storage.join(_tag_dir(table_path), f"tag-{name}")


def read_tag(table_path: str | os.PathLike, name: str) -> Snapshot:
    """The snapshot in tag file ``tag-<name>`` (a name :func:`tag_names` listed): the one reader of a tag
    file.  A file gone since the listing (a tag deleted meanwhile) is
    :class:`~paimon_codec.errors.MissingFileError`; :func:`load_tag`, the user-facing read, checks the name
    first and says which tags exist."""
    path = _tag_file(table_path, name)
    return parse_snapshot(read_json_object(path, f"tag {name}"), path)


def snapshot_at_time(table_path: str | os.PathLike, timestamp_ms: int) -> Snapshot:
    """The latest retained snapshot with ``timeMillis <= timestamp_ms`` (Paimon's
    ``earlierOrEqualTimeMills``); no such snapshot is an error, never an empty or newer read."""
    for sid in reversed(snapshot_ids(table_path)):
        snap = load_snapshot(table_path, sid)
        if snap.time_millis is not None and snap.time_millis <= timestamp_ms:
            return snap
    raise CorruptDataError(f"no snapshot at or before timestamp {timestamp_ms} ms", path=_snapshot_dir(table_path),
                           expected="a timestamp not earlier than the earliest retained snapshot")


# -- long-lived changelogs ----------------------------------------------------------------------------
def _changelog_dir(table_path) -> str:
    return storage.join(os.fspath(table_path), "changelog")


def changelog_ids(table_path: str | os.PathLike) -> list[int]:
    """Ids of the long-lived changelogs (``changelog/changelog-<id>`` files) of a table or branch directory:
    the JSON of an expired snapshot that Paimon keeps while its changelog outlives it (see
    :mod:`~paimon_codec.table.long_lived_changelog`)."""
    return numbered_ids(_changelog_dir(table_path), "changelog-")


def load_changelog(table_path: str | os.PathLike, changelog_id: int) -> Snapshot:
    """The long-lived changelog ``changelog_id`` of a table or branch directory (Paimon's ``Changelog``, a
    snapshot's JSON); a missing file is :class:`~paimon_codec.errors.MissingFileError`, which callers that
    race an expiry (or ask for an id that may have none) catch."""
    path = storage.join(_changelog_dir(table_path), f"changelog-{changelog_id}")
    return parse_snapshot(read_json_object(path, f"changelog {changelog_id}"), path)
