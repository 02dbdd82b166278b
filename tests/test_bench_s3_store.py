"""The scale benchmark's counting S3 server (``benchmarks/_s3_store.py``): the bytes it reports for each kind
of object are exactly the bytes a real S3 client (pyarrow's AWS SDK) received, ranged and whole reads alike,
and uploads are not counted as reads."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pyarrow.fs as pafs
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import _s3_store  # noqa: E402


def test_classify_names_a_tables_objects():
    t = "/bench/wh/bench.db/t"
    assert _s3_store.classify(f"{t}/bucket-0/data-1f-0.parquet") == "data"
    assert _s3_store.classify(f"{t}/bucket-0/data-1f-0.parquet.index") == "file_index"
    assert _s3_store.classify(f"{t}/index/index-9a-0") == "dv_index"
    for meta in (f"{t}/snapshot/snapshot-1", f"{t}/manifest/manifest-list-3", f"{t}/schema/schema-0", "/bench",
                 "/bench/"):
        assert _s3_store.classify(meta) == "metadata", meta


@pytest.mark.s3  # starts the moto server itself (benchmarks/_s3_store.started), not through s3_server
def test_counts_are_the_bytes_clients_received(tmp_path):
    table = tmp_path / "t"
    files = {"bucket-0/data-a-0.parquet": os.urandom(300_000), "bucket-0/data-a-0.parquet.index": os.urandom(70_000),
             "index/index-b-0": os.urandom(5_000), "snapshot/snapshot-1": b'{"id": 1}'}
    for rel, body in files.items():
        (table / rel).parent.mkdir(parents=True, exist_ok=True)
        (table / rel).write_bytes(body)
    with _s3_store.started() as store:
        before = store.counts()
        uri = store.upload(str(table), "wh/bench.db/t")
        assert store.diff(store.counts(), before)["data"] == 0  # uploads are not reads
        host = store.endpoint.split("://", 1)[1]
        s3 = pafs.S3FileSystem(endpoint_override=host, scheme="http", region="us-east-1",
                               access_key=store.options["access_key"], secret_key=store.options["secret_key"])
        base = uri.split("://", 1)[1]
        before = store.counts()
        with s3.open_input_file(f"{base}/bucket-0/data-a-0.parquet") as f:
            piece = f.read_at(4096, 100_000)
        with s3.open_input_stream(f"{base}/bucket-0/data-a-0.parquet.index") as f:
            whole_index = f.read()
        with s3.open_input_file(f"{base}/index/index-b-0") as f:
            dv = f.read_at(1000, 10)
        with s3.open_input_stream(f"{base}/snapshot/snapshot-1") as f:
            snapshot = f.read()
        got = store.diff(store.counts(), before)
    assert piece == files["bucket-0/data-a-0.parquet"][100_000:104_096]
    assert whole_index == files["bucket-0/data-a-0.parquet.index"] and snapshot == files["snapshot/snapshot-1"]
    assert dv == files["index/index-b-0"][10:1010]
    assert got["data"] == 4096 and got["file_index"] == 70_000 and got["dv_index"] == 1000
    assert got["metadata"] == len(snapshot)
    assert got["requests"] >= 4
