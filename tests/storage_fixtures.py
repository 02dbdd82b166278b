"""Fixtures running table tests on local disk and on a real S3 server (moto, loopback).

Loaded once for the whole session as a pytest plugin (``conftest.py``: ``pytest_plugins``), so every module
shares one server: do not import the fixtures into test modules (that would register them again).

* ``s3_server`` (session): the running server; its options are registered for ``s3://`` with
  :func:`paimon_codec.storage.set_storage_options`, so library calls and Spark tasks (which receive them
  through ``storage_state()``) reach it.
* ``table_location`` (parametrized ``local`` / ``s3``): a function ``where(local_dir) -> str`` giving the
  local directory itself, or the ``s3://`` URI of a copy of it in a bucket (uploaded once per session).
  ``where.kind`` is ``"local"`` or ``"s3"``; ``where.local(uri)`` maps a path back to the local one.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable

import pytest
from oracles.s3_server import copy_to_s3, running_server

BUCKET = "warehouses"
_copies: dict[str, str] = {}


@pytest.fixture(scope="session")
def s3_server():
    from paimon_codec.storage import set_storage_options

    with running_server() as server:
        set_storage_options("s3", server.options)
        try:
            yield server
        finally:
            set_storage_options("s3", {})


class _Location:
    def __init__(self, kind: str, server=None) -> None:
        self.kind = kind
        self._server = server
        self._back: dict[str, str] = {}

    def __call__(self, local_dir: str | os.PathLike) -> str:
        local_dir = os.path.abspath(os.fspath(local_dir))
        if self.kind == "local":
            return local_dir
        key = f"{self._server.endpoint} {local_dir}"
        uri = _copies.get(key)
        if uri is None:
            prefix = hashlib.sha1(local_dir.encode()).hexdigest()[:12] + "/" + os.path.basename(local_dir)
            uri = copy_to_s3(self._server, local_dir, BUCKET, prefix)
            _copies[key] = uri
        self._back[uri] = local_dir
        return uri

    @property
    def spark_options(self) -> dict[str, str]:
        """``option("storage.<key>", value)`` pairs of the ``paimon_index`` data source reaching the server
        (its reader runs in Python workers, which do not see options registered in this process)."""
        if self.kind == "local":
            return {}
        return {f"storage.{k}": v for k, v in self._server.options.items()}

    def local(self, path: str) -> str:
        """The local path a path under a copied tree came from (identity for local paths)."""
        for uri, local_dir in self._back.items():
            if path == uri or path.startswith(uri + "/"):
                return local_dir + path[len(uri):]
        return path


def on_s3(server) -> _Location:
    """A location mapping local trees to their copies on ``server`` (for module-scoped fixtures)."""
    return _Location("s3", server)


@pytest.fixture(params=["local", "s3"])
def table_location(request) -> Callable[[str], str]:
    if request.param == "local":
        return _Location("local")
    return _Location("s3", request.getfixturevalue("s3_server"))
