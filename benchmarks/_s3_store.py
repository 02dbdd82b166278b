"""The scale benchmark's object store: a moto S3 server on loopback that counts the bytes it serves.

The three systems of :mod:`scale` read S3 through three different clients (pyarrow's C++ AWS SDK in our
driver and Python workers, Hadoop's ``s3a`` in Spark's JVM, Paimon's ``paimon-s3`` filesystem in the
connector's JVM), and none of them reports the same thing, so the bytes are counted where they all meet:
the server.  Run as a script, this module serves moto's own WSGI application (the one ``python -m
moto.server`` serves, with moto's request handler) wrapped in :class:`Counting`, which adds up the body
bytes of every response by what the object is (:func:`classify`) and answers ``GET /__bench/counts`` with
the totals so far.  A system's bytes for a query are the difference of two such snapshots around one run
(nothing else talks to the server meanwhile).

:func:`started` starts it with the tests' fixture (``tests/oracles/s3_server.running_server``, which
polls until it answers) and yields a :class:`Store`: the endpoint, the credentials in each client's
spelling, and :meth:`Store.upload` copying a local table directory into the bucket.
"""

from __future__ import annotations

import contextlib
import json
import sys
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

BUCKET = "bench"
CATEGORIES = ("data", "file_index", "dv_index", "metadata")
_COUNTS_PATH = "/__bench/counts"


def classify(path: str) -> str:
    """What a path-style request (``/bucket/key``) reads: a data file, a file index (``<data file>.index``
    next to it), a deletion-vector / table index file (``<table>/index/index-*``) or table metadata (snapshot,
    manifest, schema files, listings, the bucket itself)."""
    name = path.rsplit("/", 1)[-1]
    parent = path.rsplit("/", 2)[-2] if path.count("/") >= 2 else ""
    if parent.startswith("bucket-") and name.startswith("data-"):
        return "file_index" if name.endswith(".index") else "data"
    if parent == "index" and name.startswith("index-"):
        return "dv_index"
    return "metadata"


class Counting:
    """WSGI middleware: per category, the requests and response body bytes of GET requests."""

    def __init__(self, app) -> None:
        self.app = app
        self.lock = threading.Lock()
        self.counts = {c: {"requests": 0, "bytes": 0} for c in CATEGORIES}

    def add(self, category: str, nbytes: int, requests: int = 1) -> None:
        with self.lock:
            self.counts[category]["requests"] += requests
            self.counts[category]["bytes"] += nbytes

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        if path == _COUNTS_PATH:
            with self.lock:
                body = json.dumps(self.counts).encode()
            start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
            return [body]
        result = self.app(environ, start_response)
        if environ.get("REQUEST_METHOD") != "GET":
            return result
        return self._counted(result, classify(path))

    def _counted(self, result, category: str):
        # Counted *before* each chunk is handed to the server: a client that has received its last byte and
        # asks for the counts at once (another server thread) must see them, which a count made after the
        # iteration ends (the server's next() after the last write) did not guarantee under load.
        self.add(category, 0)
        try:
            for chunk in result:
                self.add(category, len(chunk), requests=0)
                yield chunk
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()


def _lighten_moto() -> None:
    """Two per-request costs of moto's server that are no part of S3, removed for every client alike.

    Profiled (py-spy) under 16 concurrent ranged GETs, a quarter of the server's request time went to
    werkzeug's access log (a formatted line per request to a discarded stderr, behind the logging lock),
    and moto's dispatcher listed its own package directory (~200 ``isdir`` calls) per request, inside the
    dispatcher's global lock, to tell whether a host names a service.  The log is silenced and the
    directory listed once; requests are answered by the same moto code."""
    import logging

    import moto.backends

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    modules = frozenset(moto.backends.list_of_moto_modules())
    moto.backends.list_of_moto_modules = lambda: modules


def serve(argv: list[str]) -> None:
    """``python _s3_store.py -H HOST -p PORT``: moto's server, counted."""
    import argparse

    from moto.moto_server.werkzeug_app import (
        DomainDispatcherApplication,
        MotoRequestHandler,
        create_backend_app,
    )
    from werkzeug.serving import run_simple

    ap = argparse.ArgumentParser()
    ap.add_argument("-H", "--host", default="127.0.0.1")
    ap.add_argument("-p", "--port", type=int, required=True)
    args = ap.parse_args(argv)
    _lighten_moto()
    app = DomainDispatcherApplication(create_backend_app)
    run_simple(args.host, args.port, Counting(app), threaded=True, request_handler=MotoRequestHandler)


class Store:
    """A running counted server and what each client needs to reach it."""

    def __init__(self, server) -> None:
        self.server = server
        self.endpoint: str = server.endpoint
        self.options: dict[str, str] = server.options  # ours: paimon_codec.storage options

    @property
    def counts_url(self) -> str:
        """``GET`` it for the totals so far: ``{category: {"requests", "bytes"}}``."""
        return self.endpoint + _COUNTS_PATH

    def counts(self) -> dict[str, dict[str, int]]:
        with urllib.request.urlopen(self.counts_url, timeout=30) as r:
            return json.load(r)

    @staticmethod
    def diff(after: dict, before: dict) -> dict[str, int]:
        """Bytes per category between two :meth:`counts` snapshots, plus ``requests`` (all categories)."""
        out = {c: after[c]["bytes"] - before[c]["bytes"] for c in CATEGORIES}
        out["requests"] = sum(after[c]["requests"] - before[c]["requests"] for c in CATEGORIES)
        return out

    def upload(self, local_dir: str, key_prefix: str) -> str:
        """Copy the tree ``local_dir`` to ``s3://bench/<key_prefix>``; the ``s3://`` URI."""
        from oracles.s3_server import copy_to_s3

        return copy_to_s3(self.server, local_dir, BUCKET, key_prefix)

    def s3a_conf(self) -> dict[str, str]:
        """Spark configuration for Hadoop's ``s3a`` (plain Spark's reads) against this server."""
        from oracles.s3_server import ACCESS_KEY, REGION, SECRET_KEY

        return {"spark.hadoop.fs.s3a.endpoint": self.endpoint,
                "spark.hadoop.fs.s3a.endpoint.region": REGION,
                "spark.hadoop.fs.s3a.path.style.access": "true",
                "spark.hadoop.fs.s3a.connection.ssl.enabled": "false",
                "spark.hadoop.fs.s3a.access.key": ACCESS_KEY,
                "spark.hadoop.fs.s3a.secret.key": SECRET_KEY,
                "spark.hadoop.fs.s3a.aws.credentials.provider":
                    "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider"}

    def paimon_options(self) -> dict[str, str]:
        """Paimon catalog options for its ``paimon-s3`` filesystem against this server."""
        from oracles.s3_server import ACCESS_KEY, SECRET_KEY

        return {"s3.endpoint": self.endpoint, "s3.access-key": ACCESS_KEY, "s3.secret-key": SECRET_KEY,
                "s3.path.style.access": "true"}


def moto_version() -> str:
    import moto

    return str(moto.__version__)


@contextlib.contextmanager
def started() -> Iterator[Store]:
    """The counted server on a free loopback port, stopped on exit."""
    tests = str(Path(__file__).resolve().parents[1] / "tests")
    if tests not in sys.path:
        sys.path.insert(0, tests)
    from oracles.s3_server import running_server

    with running_server(command=[sys.executable, str(Path(__file__).resolve())]) as server:
        server.create_bucket(BUCKET)
        yield Store(server)


if __name__ == "__main__":
    serve(sys.argv[1:])
