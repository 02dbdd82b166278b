"""A real S3-compatible server on loopback for the tests: ``moto`` in server mode (the ``moto[server]`` test
extra, installed by ``run.sh``), started as a subprocess on a free port.

It speaks the S3 REST protocol over HTTP, so the code under test talks to it exactly as to AWS S3 or
MinIO: pyarrow's S3 filesystem (C++ AWS SDK), boto3's conditional put, Spark executors in other
processes.  :func:`copy_to_s3` uploads a local directory tree (a golden warehouse) into a bucket.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass

try:
    from .quick_guard import refuse_in_quick_run
except ImportError:  # run as a script (./run.sh's set-up): tests/oracles is on sys.path
    from quick_guard import refuse_in_quick_run  # type: ignore[no-redef]

ACCESS_KEY = "paimon-codec-test-access"
SECRET_KEY = "paimon-codec-test-secret-3f9a1c"  # a recognisable value: tests assert it never appears in output
REGION = "us-east-1"


@dataclass(frozen=True)
class S3Server:
    endpoint: str  # http://127.0.0.1:PORT

    @property
    def options(self) -> dict[str, str]:
        """Storage options reaching this server (``paimon_codec.storage.set_storage_options``)."""
        return {"endpoint": self.endpoint, "access_key": ACCESS_KEY, "secret_key": SECRET_KEY, "region": REGION}

    @property
    def env(self) -> dict[str, str]:
        """The standard AWS environment variables reaching this server (what a user would export)."""
        return {"AWS_ENDPOINT_URL": self.endpoint, "AWS_ACCESS_KEY_ID": ACCESS_KEY,
                "AWS_SECRET_ACCESS_KEY": SECRET_KEY, "AWS_REGION": REGION}

    def client(self):
        import boto3

        return boto3.client("s3", endpoint_url=self.endpoint, aws_access_key_id=ACCESS_KEY,
                            aws_secret_access_key=SECRET_KEY, region_name=REGION)

    def create_bucket(self, name: str) -> None:
        client = self.client()
        with contextlib.suppress(client.exceptions.BucketAlreadyOwnedByYou, client.exceptions.BucketAlreadyExists):
            client.create_bucket(Bucket=name)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running_server(timeout: float = 60.0, command: list[str] | None = None) -> Iterator[S3Server]:
    """Start ``python -m moto.server`` on 127.0.0.1 and stop it on exit (raises if it does not come up).

    ``command``: another server taking moto's ``-H HOST -p PORT`` (the scale benchmark's moto wrapped in a
    byte-counting middleware, ``benchmarks/_s3_store.py``)."""
    refuse_in_quick_run("s3", "the moto S3 server")
    import moto.server  # noqa: F401 - fail here, clearly, when the test extra is missing

    port = _free_port()
    env = dict(os.environ, MOTO_ALLOW_NONEXISTENT_REGION="true")
    argv = list(command or [sys.executable, "-m", "moto.server"])
    proc = subprocess.Popen([*argv, "-H", "127.0.0.1", "-p", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    endpoint = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"moto server exited with status {proc.returncode}")
            try:
                urllib.request.urlopen(endpoint + "/moto-api/", timeout=2).close()
                break
            except (urllib.error.URLError, ConnectionError, OSError):
                if time.monotonic() > deadline:
                    raise RuntimeError("moto server did not start") from None
                time.sleep(0.2)
        yield S3Server(endpoint)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def copy_to_s3(server: S3Server, local_dir: str, bucket: str, prefix: str) -> str:
    """Upload the tree ``local_dir`` to ``s3://bucket/prefix`` (keys relative to ``local_dir``); returns the URI."""
    import pyarrow.fs as pafs

    server.create_bucket(bucket)
    s3 = pafs.S3FileSystem(endpoint_override=server.endpoint.split("://", 1)[1], scheme="http",
                           access_key=ACCESS_KEY, secret_key=SECRET_KEY, region=REGION)
    prefix = prefix.strip("/")
    pafs.copy_files(os.path.abspath(local_dir), f"{bucket}/{prefix}", source_filesystem=pafs.LocalFileSystem(),
                    destination_filesystem=s3)
    return f"s3://{bucket}/{prefix}"
