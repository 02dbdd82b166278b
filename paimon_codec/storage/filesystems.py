"""Which filesystem a path or URI lives on, and the options that reach it.

A warehouse path is either a local path (``/data/wh/db.db/t``, ``file:///…``) or a URI
(``s3://bucket/wh/db.db/t``, ``gs://…``, ``hdfs://nn:8020/…``, ``abfss://…``, ``oss://…``).  pyarrow's own
filesystems serve S3, GCS, HDFS, Azure and local disk; any other scheme goes through fsspec (for
example ``oss://`` with ``ossfs`` installed), wrapped as a pyarrow filesystem so callers see one API.

Credentials come from the ordinary places: the AWS SDK chain (``AWS_ACCESS_KEY_ID``,
``AWS_SECRET_ACCESS_KEY``, ``AWS_REGION``; ``AWS_ENDPOINT_URL`` for an S3-compatible store), Google's
application-default credentials, Hadoop's configuration; plus *storage options* registered with
:func:`set_storage_options` (the CLI's ``--storage-option K=V``, the API's ``storage_options=``).  Options
are never logged or printed: :func:`describe_options` shows keys only.

Spark executors do not receive the driver's filesystem objects: tasks carry :func:`storage_state` (a
plain dict) and call :func:`restore_storage_state`, then resolve URIs themselves.
"""

from __future__ import annotations

import os
import threading
import urllib.parse
from collections.abc import Mapping
from typing import Any

import pyarrow.fs as pafs

from ..errors import StorageError

__all__ = [
    "StorageError", "split_uri", "filesystem_for", "is_local", "set_storage_options", "storage_options_for",
    "storage_state", "restore_storage_state", "describe_options", "s3_settings", "GLOBAL",
    "clear_storage_options",
]

_S3_SCHEMES = {"s3", "s3a", "s3n"}
_GCS_SCHEMES = {"gs", "gcs"}
_HDFS_SCHEMES = {"hdfs", "viewfs"}
_AZURE_SCHEMES = {"abfs", "abfss", "az", "wasb", "wasbs"}

GLOBAL = "*"  # registry key of options for every URI (the CLI's --storage-option)

_lock = threading.Lock()
_options: dict[str, dict[str, str]] = {}  # "scheme://netloc" or "scheme" -> options
_cache: dict[tuple, pafs.FileSystem] = {}
# environment variables a cached S3 filesystem was built from (a change builds a new one)
_ENV_KEYS = ("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ACCESS_KEY_ID",
             "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN")


def strip_scheme(path: str) -> str:
    """Local path of a ``file:`` URI, scheme matched case-insensitively (Java writes ``FILE:/…`` when
    ``data-file.external-paths`` says ``FILE:///…``): ``file:///x``, ``file:/x``, ``file://localhost/x``
    -> ``/x``.  Other schemes are returned unchanged (and fail as missing files on a local read)."""
    if path[:5].lower() != "file:":
        return path
    rest = path[5:]
    if rest.startswith("//"):
        rest = rest[2:]
        if not rest.startswith("/"):
            host, _, tail = rest.partition("/")
            if host.lower() != "localhost":
                return path
            rest = "/" + tail
    return rest


def split_uri(path: str) -> tuple[str, str, str]:
    """``(scheme, netloc, path)``; a local path has scheme ``""`` (``file:`` URIs are local too)."""
    path = os.fspath(path)
    if "://" not in path:
        if path[:5].lower() == "file:":
            return "", "", strip_scheme(path)
        return "", "", path
    parsed = urllib.parse.urlsplit(path)
    scheme = parsed.scheme.lower()
    if scheme == "file":
        return "", "", strip_scheme(path)
    return scheme, parsed.netloc, parsed.path


def is_local(path: str) -> bool:
    return split_uri(path)[0] == ""


def set_storage_options(prefix: str, options: Mapping[str, str]) -> None:
    """Register options for every URI under ``prefix`` (``s3://bucket``, just ``s3``, or ``"*"`` for every
    URI); options of a bucket override those of its scheme, which override the global ones."""
    if prefix == GLOBAL:
        key = GLOBAL
    else:
        scheme, netloc, _ = split_uri(prefix if "://" in prefix else f"{prefix}://")
        key = f"{scheme}://{netloc}" if netloc else scheme
    with _lock:
        _options[key] = {str(k): str(v) for k, v in options.items()}
        _cache.clear()


def storage_options_for(uri: str) -> dict[str, str]:
    scheme, netloc, _ = split_uri(uri)
    with _lock:
        merged = dict(_options.get(GLOBAL, {}))
        merged.update(_options.get(scheme, {}))
        merged.update(_options.get(f"{scheme}://{netloc}", {}))
    return merged


def storage_state() -> dict[str, dict[str, str]]:
    """The registered options, to ship to Spark executors inside a task's closure."""
    with _lock:
        return {k: dict(v) for k, v in _options.items()}


def restore_storage_state(state: Mapping[str, Mapping[str, str]] | None) -> None:
    """Register the options a driver captured with :func:`storage_state` (in a Spark task)."""
    if not state:
        return
    with _lock:
        for key, opts in state.items():
            if _options.get(key) != dict(opts):
                _options[key] = dict(opts)
                _cache.clear()


def clear_storage_options() -> None:
    """Forget every registered option (tests; a long-lived process switching warehouses)."""
    with _lock:
        _options.clear()
        _cache.clear()


def describe_options(options: Mapping[str, str]) -> str:
    """Option *keys* only: values may be secrets."""
    return ", ".join(sorted(options)) or "(none)"


def _bool(text: str) -> bool:
    return text.strip().lower() in ("1", "true", "yes", "on")


# Option names accepted for S3, by what they set: ours, boto/AWS-style, Paimon's (``s3.*``) and Hadoop's
# (``fs.s3a.*``) spellings, so a catalog's options can be passed through unchanged.
_S3_ALIASES: dict[str, tuple[str, ...]] = {
    "endpoint": ("endpoint", "endpoint_url", "endpoint-url", "aws_endpoint_url", "s3.endpoint",
                 "fs.s3a.endpoint", "fs.s3.endpoint"),
    "access_key": ("access_key", "access_key_id", "aws_access_key_id", "s3.access-key", "s3.access.key",
                   "fs.s3a.access.key", "fs.s3.access-key"),
    "secret_key": ("secret_key", "secret_access_key", "aws_secret_access_key", "s3.secret-key", "s3.secret.key",
                   "fs.s3a.secret.key", "fs.s3.secret-key"),
    "session_token": ("session_token", "aws_session_token", "s3.session-token", "s3.session.token",
                      "fs.s3a.session.token"),
    "region": ("region", "aws_region", "s3.region", "fs.s3a.endpoint.region", "fs.s3a.region"),
    "path_style": ("path_style", "s3.path.style.access", "s3.path-style-access", "fs.s3a.path.style.access"),
    "virtual_addressing": ("force_virtual_addressing", "virtual_addressing"),
}
_S3_NAME = {alias: canon for canon, aliases in _S3_ALIASES.items() for alias in aliases}


def s3_settings(options: Mapping[str, str]) -> dict[str, str]:
    """Canonical S3 settings (``endpoint``, ``access_key``, ``secret_key``, ``session_token``, ``region``,
    ``path_style``, ``virtual_addressing``) from options in any accepted spelling plus the standard
    ``AWS_ENDPOINT_URL[_S3]`` / ``AWS_REGION`` environment variables (keys and secrets from the environment
    are left to the AWS SDK's own chain).  Unknown option names are a :class:`StorageError` naming the keys
    only."""
    out: dict[str, str] = {}
    unknown = []
    for key, value in options.items():
        canon = _S3_NAME.get(key.strip().lower())
        if canon is None:
            unknown.append(key)
        else:
            out[canon] = str(value)
    if unknown:
        raise StorageError(f"unknown S3 storage option(s): {describe_options(dict.fromkeys(unknown, ''))}",
                           expected="endpoint, access_key, secret_key, session_token, region, path_style "
                                    "(or their s3.* / fs.s3a.* / aws_* spellings)")
    env_endpoint = os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL")
    if "endpoint" not in out and env_endpoint:
        out["endpoint"] = env_endpoint
    env_region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
    if "region" not in out and env_region:
        out["region"] = env_region
    if "endpoint" in out and "://" not in out["endpoint"]:
        out["endpoint"] = f"https://{out['endpoint']}"
    return out


def _s3(netloc: str, opts: dict[str, str]) -> pafs.FileSystem:
    settings = s3_settings(opts)
    kwargs: dict[str, Any] = {}
    if "endpoint" in settings:
        parsed = urllib.parse.urlsplit(settings["endpoint"])
        kwargs["endpoint_override"] = parsed.netloc + parsed.path.rstrip("/")
        kwargs["scheme"] = parsed.scheme or "https"
    for canon in ("access_key", "secret_key", "session_token", "region"):
        if canon in settings:
            kwargs[canon] = settings[canon]
    if "virtual_addressing" in settings:
        kwargs["force_virtual_addressing"] = _bool(settings["virtual_addressing"])
    elif "path_style" in settings:
        kwargs["force_virtual_addressing"] = not _bool(settings["path_style"])
    return pafs.S3FileSystem(**kwargs)


def _fsspec(scheme: str, opts: dict[str, str]) -> pafs.FileSystem:
    try:
        import fsspec
    except ImportError as exc:  # pragma: no cover - fsspec is a dependency
        raise StorageError(f"no filesystem for {scheme}:// (install fsspec)") from exc
    try:
        fs = fsspec.filesystem(scheme, **opts)
    except (ImportError, ValueError) as exc:
        raise StorageError(f"no filesystem for {scheme}://: {exc}") from None
    return pafs.PyFileSystem(pafs.FSSpecHandler(fs))


def _build(scheme: str, netloc: str, opts: dict[str, str]) -> pafs.FileSystem:
    if scheme in _S3_SCHEMES:
        return _s3(netloc, opts)
    if scheme in _GCS_SCHEMES:
        return pafs.GcsFileSystem(**opts)
    if scheme in _HDFS_SCHEMES:
        host, _, port = netloc.partition(":")
        return pafs.HadoopFileSystem(host or "default", int(port or 0), **opts)
    if scheme in _AZURE_SCHEMES:
        account = opts.pop("account_name", None) or netloc.partition("@")[2].split(".")[0] or None
        if account is None:
            raise StorageError(f"{scheme}:// needs an account name (container@account.dfs.core.windows.net)")
        return pafs.AzureFileSystem(account_name=account, **opts)
    return _fsspec(scheme, opts)


def filesystem_for(path: str) -> tuple[pafs.FileSystem, str]:
    """``(filesystem, path on it)`` for a local path or URI (cached per scheme, netloc and options)."""
    scheme, netloc, rest = split_uri(path)
    if scheme == "":
        return pafs.LocalFileSystem(), os.path.abspath(rest)
    opts = storage_options_for(path)
    env = tuple(os.environ.get(v, "") for v in _ENV_KEYS) if scheme in _S3_SCHEMES else ()
    key = (scheme, netloc if scheme not in _S3_SCHEMES | _GCS_SCHEMES else "", tuple(sorted(opts.items())), env)
    with _lock:
        fs = _cache.get(key)
    if fs is None:
        fs = _build(scheme, netloc, dict(opts))
        with _lock:
            _cache[key] = fs
    if scheme in _S3_SCHEMES | _GCS_SCHEMES:
        return fs, f"{netloc}{rest}"
    if scheme in _HDFS_SCHEMES:
        return fs, rest
    if scheme in _AZURE_SCHEMES:
        return fs, f"{netloc.partition('@')[0]}{rest}"
    return fs, f"{netloc}{rest}" if netloc else rest
