"""A small file-index file on an object store is fetched whole by its first GET while planning (the container
head and the block a predicate needs in one round trip); a big one is still read lazily, head then block.
Against the S3 server (moto, loopback) and the Java-written golden warehouse."""

from __future__ import annotations

import pyarrow as pa
import pytest
from golden_warehouse import WAREHOUSE, WAREHOUSE_JSON, expected_query_rows, tables
from storage_fixtures import on_s3

from paimon_codec import storage
from paimon_codec.expressions import parse_where
from paimon_codec.fileindex import FileIndexContainerReader, FileIndexWriter, evaluate
from paimon_codec.fileio import ByteSource
from paimon_codec.planning import judge_sources
from paimon_codec.planning.plan import plan_scan
from paimon_codec.table import PaimonTable
from paimon_codec.types import parse_row_type

BUCKET = "index-get-tests"
SCHEMA = parse_row_type("a BIGINT, b STRING")


@pytest.fixture(scope="module")
def bucket(s3_server):
    s3_server.create_bucket(BUCKET)
    return f"s3://{BUCKET}"


def _container(n: int) -> bytes:
    w = FileIndexWriter(SCHEMA, {"file-index.bitmap.columns": "b", "file-index.bloom-filter.columns": "a",
                                 "file-index.bloom-filter.a.items": str(n * 10)})
    w.write_table(pa.table({"a": list(range(n)), "b": [f"k{i % 40}" for i in range(n)]}))
    return w.serialize()


def test_range_reader_fetches_a_small_object_whole_once(bucket):
    data = bytes(range(256)) * 1024  # 256 KiB
    uri = f"{bucket}/whole/plain.bin"
    storage.write_atomic(uri, data)
    with storage.open_input(uri, whole_below=len(data)) as f:
        f.seek(200_000)
        assert f.read(100) == data[200_000:200_100]
        assert (f.gets, f.bytes_fetched) == (1, len(data))
        f.seek(5)
        assert f.read(70_000) == data[5:70_005]
        f.seek(len(data) - 3)
        assert f.read(10) == data[-3:]
        assert f.gets == 1
    with storage.open_input(uri, whole_below=len(data) - 1) as f:  # one byte too big: ranged GETs
        f.seek(200_000)
        assert f.read(100) == data[200_000:200_100]
        assert f.bytes_fetched == len(data) - 200_000 < len(data)


@pytest.mark.parametrize("n, whole", [(2_000, True), (150_000, False)])
def test_judge_opens_small_index_files_with_one_get(bucket, n, whole):
    blob = _container(n)
    uri = f"{bucket}/whole/{n}.index"
    storage.write_atomic(uri, blob)
    assert (len(blob) <= judge_sources.INDEX_WHOLE_GET) == whole
    expected = evaluate(parse_where("b = 'k7'"), FileIndexContainerReader(blob), SCHEMA).to_dict()
    with judge_sources.index_source(uri) as src:
        got = evaluate(parse_where("b = 'k7'"), FileIndexContainerReader(src, path=src.path), SCHEMA).to_dict()
        reader = src._file
        gets, fetched = reader.gets, reader.bytes_fetched
    assert got == expected
    if whole:
        assert (gets, fetched) == (1, len(blob))
    else:  # the container head, then the bitmap block
        assert gets == 2 and fetched < len(blob)
    local = judge_sources.index_source(__file__)  # a local path: a plain file, nothing fetched
    assert type(local) is ByteSource
    local.close()


@pytest.mark.skipif(not WAREHOUSE_JSON.exists(), reason="golden warehouse not available")
def test_planning_on_s3_prunes_as_on_local_disk(s3_server):
    spec = next(t for t in tables() if t["table"] == "golden.append_indexed")
    uri = f"{on_s3(s3_server)(str(WAREHOUSE))}/golden.db/append_indexed"
    local = f"{WAREHOUSE}/golden.db/append_indexed"
    pruned = 0
    for q in spec["queries"]:
        on_store, on_disk = plan_scan(PaimonTable(uri), q["pred"]), plan_scan(PaimonTable(local), q["pred"])
        assert [(t.path.rsplit("/", 1)[-1], None if t.selection is None else list(t.selection))
                for t in on_store.tasks] == \
               [(t.path.rsplit("/", 1)[-1], None if t.selection is None else list(t.selection))
                for t in on_disk.tasks], q
        pruned += on_store.report.files_skipped_by_index
        assert expected_query_rows(spec, q["id"]) is not None
    assert pruned > 0
