"""File operations on any store: read, range read, list, atomic write and create-if-absent.

Every function takes a local path or a URI (see :mod:`.filesystems`).  Two write primitives carry the
crash-safety and commit guarantees:

* :func:`write_atomic` - readers see the old object or the whole new one, never a part: on local disk
  a temporary file in the same directory, ``fsync``, ``rename``, ``fsync`` of the directory; on object
  stores one PUT (S3, GCS and Azure make an object visible only once it is complete).
* :func:`create_if_absent` - the commit's "this snapshot id is mine": on local disk the complete
  temporary file is hard-linked to the target name (``link`` fails if the name exists, atomically); on
  S3 a conditional PUT (``If-None-Match: *``, which AWS S3 and most S3-compatible stores honour).  On a
  store without a conditional put the check is "absent, then put", which two writers racing within
  the same instant can both pass - the same guarantee Paimon documents for such stores; a warning is
  logged once per scheme.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import posixpath
import tempfile
from collections.abc import Iterator
from typing import Any, BinaryIO

import pyarrow.fs as pafs

from .filesystems import StorageError, filesystem_for, is_local, s3_settings, split_uri, storage_options_for
from .ranges import DEFAULT_MIN_GET, RangeReader

__all__ = [
    "open_input", "read_bytes", "read_text", "read_range", "file_size", "exists", "is_dir", "is_file", "list_dir",
    "walk", "makedirs", "write_atomic", "create_if_absent", "delete", "join", "parent", "basename", "normalize",
    "store_errors",
]

log = logging.getLogger(__name__)
_warned_schemes: set[str] = set()
_s3_clients: dict[tuple, Any] = {}  # boto3 clients for conditional puts, by settings (never logged)


def join(base: str, *parts: str) -> str:
    """Join path parts; URIs always with ``/``."""
    if split_uri(base)[0] == "":
        return os.path.join(base, *parts)
    return posixpath.join(base, *parts)


def parent(path: str) -> str:
    return os.path.dirname(path) if split_uri(path)[0] == "" else posixpath.dirname(path.rstrip("/"))


def basename(path: str) -> str:
    return posixpath.basename(path.rstrip("/"))


@contextlib.contextmanager
def store_errors(path: str, what: str = "file") -> Iterator[None]:
    """Turn a store's ``OSError`` (pyarrow raises it for network, permission and protocol failures) into a
    :class:`StorageError` naming ``path``; ``FileNotFoundError`` passes unchanged (callers decide whether
    a missing file is corruption), local paths' errors too (they already name the file)."""
    try:
        yield
    except (FileNotFoundError, StorageError):
        raise
    except OSError as exc:
        if is_local(path):
            raise
        raise StorageError(f"store request failed ({what}): {_first_line(exc)}", path=path) from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"


def _not_found(path: str) -> FileNotFoundError:
    return FileNotFoundError(errno.ENOENT, "no such file", path)


def open_input(path: str, *, min_get: int = DEFAULT_MIN_GET, whole_below: int = 0) -> BinaryIO:
    """A seekable, random-access binary file: a plain file locally, a :class:`RangeReader` on a store
    (each miss one ranged GET of at least ``min_get`` bytes; an object of at most ``whole_below`` bytes
    fetched whole by the first)."""
    if is_local(path):
        return open(split_uri(path)[2], "rb")  # noqa: SIM115 - the caller closes it
    fs, p = filesystem_for(path)
    with store_errors(path):
        try:
            raw = fs.open_input_file(p)
        except FileNotFoundError:
            raise _not_found(path) from None
        # RangeReader has the read / seek / tell / close of a binary file that the readers use
        return RangeReader(raw, min_get=min_get, name=path,  # type: ignore[return-value]
                           whole_below=whole_below)


def read_bytes(path: str) -> bytes:
    """The whole file (one GET on a store)."""
    if is_local(path):
        with open(split_uri(path)[2], "rb") as f:
            return f.read()
    fs, p = filesystem_for(path)
    with store_errors(path):
        try:
            with fs.open_input_stream(p) as f:
                return f.read()
        except FileNotFoundError:
            raise _not_found(path) from None


def read_text(path: str, encoding: str = "utf-8") -> str:
    return read_bytes(path).decode(encoding)


def read_range(path: str, offset: int, size: int) -> bytes:
    """``size`` bytes at ``offset`` (one ranged GET on a store)."""
    with open_input(path, min_get=size) as f:
        f.seek(offset)
        return f.read(size)


def file_size(path: str) -> int:
    fs, p = filesystem_for(path)
    if isinstance(fs, pafs.LocalFileSystem):
        return os.path.getsize(p)
    with store_errors(path):
        info = fs.get_file_info(p)
    if info.type == pafs.FileType.NotFound:
        raise _not_found(path)
    return int(info.size or 0)


def _info_type(path: str) -> pafs.FileType:
    fs, p = filesystem_for(path)
    with store_errors(path):
        return fs.get_file_info(p).type


def exists(path: str) -> bool:
    if is_local(path):
        return os.path.exists(split_uri(path)[2])
    return _info_type(path) != pafs.FileType.NotFound


def is_dir(path: str) -> bool:
    if is_local(path):
        return os.path.isdir(split_uri(path)[2])
    return _info_type(path) == pafs.FileType.Directory


def is_file(path: str) -> bool:
    if is_local(path):
        return os.path.isfile(split_uri(path)[2])
    return _info_type(path) == pafs.FileType.File


def list_dir(path: str) -> list[str]:
    """Sorted names (not paths) directly under ``path``; empty when it does not exist."""
    fs, p = filesystem_for(path)
    if isinstance(fs, pafs.LocalFileSystem):
        try:
            return sorted(os.listdir(p))
        except (FileNotFoundError, NotADirectoryError):
            return []
    with store_errors(path):
        try:
            infos = fs.get_file_info(pafs.FileSelector(p, allow_not_found=True))
        except NotADirectoryError:
            return []
    return sorted(posixpath.basename(i.path.rstrip("/")) for i in infos)


def walk(path: str) -> Iterator[tuple[str, list[str], list[str]]]:
    """``os.walk`` for any store: ``(directory, sub-directory names, file names)``, top-down (pruning
    the yielded sub-directory list skips them, as with ``os.walk``); on a store one recursive listing."""
    fs, p = filesystem_for(path)
    if isinstance(fs, pafs.LocalFileSystem):
        yield from os.walk(p)
        return
    with store_errors(path):
        infos = fs.get_file_info(pafs.FileSelector(p, recursive=True, allow_not_found=True))
    root = p.rstrip("/")
    dirs: dict[str, tuple[list[str], list[str]]] = {"": ([], [])}
    for info in infos:
        rel = info.path.rstrip("/")[len(root):].lstrip("/")
        head, _, name = rel.rpartition("/")
        entry = dirs.setdefault(head, ([], []))
        if info.type == pafs.FileType.Directory:
            entry[0].append(name)
            dirs.setdefault(rel, ([], []))
        else:
            entry[1].append(name)
    base = path.rstrip("/")
    pending = [""]
    while pending:
        rel = pending.pop()
        subdirs, files = sorted(dirs[rel][0]), sorted(dirs[rel][1])
        yield (f"{base}/{rel}" if rel else base), subdirs, files
        pending.extend(f"{rel}/{d}" if rel else d for d in reversed(subdirs) if (f"{rel}/{d}" if rel else d) in dirs)


def normalize(path: str | os.PathLike) -> str:
    """A table or warehouse location as the library keeps it: local paths absolute (``file:`` URIs
    stripped), other URIs unchanged but for a trailing ``/``."""
    path = os.fspath(path)
    scheme, _, rest = split_uri(path)
    if scheme == "":
        return os.path.abspath(rest)
    return path.rstrip("/")


def makedirs(path: str) -> None:
    fs, p = filesystem_for(path)
    fs.create_dir(p, recursive=True)


def delete(path: str, missing_ok: bool = True) -> None:
    fs, p = filesystem_for(path)
    try:
        fs.delete_file(p)
    except FileNotFoundError:
        if not missing_ok:
            raise


def _fsync_dir(directory: str) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


#: Name prefix of the temporary files of a crash-safe local write (what a killed writer leaves behind:
#: ``.tmp-<name>.<random>``, reported by the audit as an orphan).
TEMP_PREFIX = ".tmp-"


@contextlib.contextmanager
def local_atomic_file(target: str, mode: str = "wb") -> Iterator[Any]:
    """A temporary file next to local ``target``, written through the block and ``fsync``-ed; on success it
    replaces ``target`` (``rename``, then ``fsync`` of the directory): a crash at any point leaves the old
    file or the whole new one, plus at most a ``TEMP_PREFIX`` file - never a mix.  The one atomic writer:
    :func:`write_atomic` and :func:`paimon_codec.fileio.atomic_write` write local files through it."""
    with _synced_temp(target, mode) as (f, tmp):
        yield f
    try:
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(os.path.dirname(os.path.abspath(target)))


@contextlib.contextmanager
def _synced_temp(target: str, mode: str = "wb") -> Iterator[tuple[Any, str]]:
    """``(file, path)`` of a new temporary file next to ``target``, synced when the block ends and removed
    when it fails."""
    directory = os.path.dirname(os.path.abspath(target))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX + os.path.basename(target) + ".", dir=directory)
    try:
        with os.fdopen(fd, mode) as f:
            yield f, tmp
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _local_temp(target: str, data: bytes) -> str:
    """A synced temporary file next to ``target`` holding ``data`` (for a link that must not replace)."""
    with _synced_temp(target) as (f, tmp):
        f.write(data)
    return tmp


def write_atomic(path: str, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that readers see the old or the new content, never a mix."""
    fs, p = filesystem_for(path)
    if isinstance(fs, pafs.LocalFileSystem):
        with local_atomic_file(p) as f:
            f.write(data)
        return
    with store_errors(path, "write"), fs.open_output_stream(p) as out:
        out.write(data)


def _s3_conditional_put(path: str, data: bytes) -> bool | None:
    """``True`` written, ``False`` already there, ``None`` when boto3 is not installed."""
    try:
        import boto3
        import botocore.exceptions
    except ImportError:
        return None
    _, bucket, key = split_uri(path)
    settings = s3_settings(storage_options_for(path))
    env = tuple(os.environ.get(v, "") for v in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
                                                "AWS_PROFILE"))
    cache_key = (tuple(sorted(settings.items())), env)
    client = _s3_clients.get(cache_key)
    if client is None:  # a client is thread-safe and costly to build: one per settings
        client = _s3_clients[cache_key] = boto3.client(
            "s3", endpoint_url=settings.get("endpoint"),
            aws_access_key_id=settings.get("access_key"), aws_secret_access_key=settings.get("secret_key"),
            aws_session_token=settings.get("session_token"), region_name=settings.get("region"))
    try:
        client.put_object(Bucket=bucket, Key=key.lstrip("/"), Body=data, IfNoneMatch="*")
    except botocore.exceptions.ClientError as exc:
        code = str(exc.response.get("Error", {}).get("Code", ""))
        status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
        if code in ("PreconditionFailed", "ConditionalRequestConflict") or status in (409, 412):
            return False
        raise
    return True


def create_if_absent(path: str, data: bytes) -> bool:
    """Create ``path`` with ``data`` unless it exists; ``True`` if this call created it.

    The content is complete and durable before the name appears, so a crash leaves either no file or
    the whole file (and at most a temporary file the audit reports as an orphan).
    """
    fs, p = filesystem_for(path)
    if isinstance(fs, pafs.LocalFileSystem):
        tmp = _local_temp(p, data)
        try:
            os.link(tmp, p)
        except FileExistsError:
            return False
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        _fsync_dir(os.path.dirname(p) or ".")
        return True
    scheme = split_uri(path)[0]
    if scheme in ("s3", "s3a", "s3n"):
        written = _s3_conditional_put(path, data)
        if written is not None:
            return written
    if scheme not in _warned_schemes:
        _warned_schemes.add(scheme)
        log.warning("%s:// has no conditional put here: a commit checks 'absent, then put', which two writers "
                    "racing within the same instant can both pass", scheme)
    if exists(path):
        return False
    # object stores publish whole objects: a direct put is already all-or-nothing
    with fs.open_output_stream(p) as out:
        out.write(data)
    return True
