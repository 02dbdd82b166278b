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
from typing import BinaryIO

import pyarrow.fs as pafs

from .filesystems import filesystem_for, split_uri, storage_options_for

__all__ = [
    "open_input", "read_bytes", "read_range", "file_size", "exists", "is_dir", "list_dir", "makedirs",
    "write_atomic", "create_if_absent", "delete", "join", "parent", "basename",
]

log = logging.getLogger(__name__)
_warned_schemes: set[str] = set()


def join(base: str, *parts: str) -> str:
    """Join path parts; URIs always with ``/``."""
    if split_uri(base)[0] == "":
        return os.path.join(base, *parts)
    return posixpath.join(base, *parts)


def parent(path: str) -> str:
    return os.path.dirname(path) if split_uri(path)[0] == "" else posixpath.dirname(path.rstrip("/"))


def basename(path: str) -> str:
    return posixpath.basename(path.rstrip("/"))


def open_input(path: str) -> BinaryIO:
    """A seekable, random-access binary file (range reads on object stores)."""
    fs, p = filesystem_for(path)
    if isinstance(fs, pafs.LocalFileSystem):
        return open(p, "rb")  # noqa: SIM115 - the caller closes it
    return fs.open_input_file(p)  # type: ignore[return-value]


def read_bytes(path: str) -> bytes:
    with open_input(path) as f:
        return f.read()


def read_range(path: str, offset: int, size: int) -> bytes:
    with open_input(path) as f:
        f.seek(offset)
        return f.read(size)


def file_size(path: str) -> int:
    fs, p = filesystem_for(path)
    info = fs.get_file_info(p)
    if info.type == pafs.FileType.NotFound:
        raise FileNotFoundError(errno.ENOENT, "no such file", path)
    return int(info.size or 0)


def exists(path: str) -> bool:
    fs, p = filesystem_for(path)
    return fs.get_file_info(p).type != pafs.FileType.NotFound


def is_dir(path: str) -> bool:
    fs, p = filesystem_for(path)
    return fs.get_file_info(p).type == pafs.FileType.Directory


def list_dir(path: str) -> list[str]:
    """Names (not paths) directly under ``path``; empty when it does not exist."""
    fs, p = filesystem_for(path)
    try:
        infos = fs.get_file_info(pafs.FileSelector(p, allow_not_found=True))
    except NotADirectoryError:
        return []
    return sorted(posixpath.basename(i.path.rstrip("/")) for i in infos)


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


def _local_temp(target: str, data: bytes) -> str:
    directory = os.path.dirname(target) or "."
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def write_atomic(path: str, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that readers see the old or the new content, never a mix."""
    fs, p = filesystem_for(path)
    if isinstance(fs, pafs.LocalFileSystem):
        tmp = _local_temp(p, data)
        try:
            os.replace(tmp, p)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        _fsync_dir(os.path.dirname(p) or ".")
        return
    with fs.open_output_stream(p) as out:
        out.write(data)


def _s3_conditional_put(path: str, data: bytes) -> bool | None:
    """``True`` written, ``False`` already there, ``None`` when boto3 is not installed."""
    try:
        import boto3
        import botocore.exceptions
    except ImportError:
        return None
    _, bucket, key = split_uri(path)
    opts = storage_options_for(path)
    endpoint = opts.get("endpoint_url") or opts.get("endpoint") or os.environ.get("AWS_ENDPOINT_URL_S3") \
        or os.environ.get("AWS_ENDPOINT_URL")
    if endpoint and "://" not in endpoint:
        endpoint = f"https://{endpoint}"
    client = boto3.client(
        "s3", endpoint_url=endpoint or None,
        aws_access_key_id=opts.get("access_key_id") or opts.get("aws_access_key_id"),
        aws_secret_access_key=opts.get("secret_access_key") or opts.get("aws_secret_access_key"),
        aws_session_token=opts.get("session_token"),
        region_name=opts.get("region") or opts.get("aws_region") or os.environ.get("AWS_REGION")
        or os.environ.get("AWS_DEFAULT_REGION") or None)
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
