"""The storage layer against a real S3 server (moto on loopback) and local disk: range reads, atomic and
conditional writes, listing, options and credentials, errors, and secrets that never reach output."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading

import pyarrow as pa
import pytest
from oracles.s3_server import ACCESS_KEY, SECRET_KEY

from paimon_codec import storage
from paimon_codec.errors import PaimonCodecError, StorageError
from paimon_codec.expressions import parse_where
from paimon_codec.fileindex import FileIndexContainerReader, FileIndexWriter, evaluate
from paimon_codec.fileio import ByteSource, atomic_write_bytes
from paimon_codec.types import parse_row_type

BUCKET = "storage-tests"
SCHEMA = parse_row_type("a BIGINT, b STRING, c BIGINT")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def bucket(s3_server):
    s3_server.create_bucket(BUCKET)
    return f"s3://{BUCKET}"


@pytest.fixture(scope="module")
def big_container() -> bytes:
    """A file-index container of ~2.6 MB: a big bloom filter, a bitmap and a range bitmap."""
    n = 200_000
    w = FileIndexWriter(SCHEMA, {"file-index.bloom-filter.columns": "a", "file-index.bloom-filter.a.items": "2000000",
                                 "file-index.bitmap.columns": "b", "file-index.range-bitmap.columns": "c"})
    w.write_table(pa.table({"a": list(range(n)), "b": [f"k{i % 50}" for i in range(n)],
                            "c": [i * 7 % 100_003 for i in range(n)]}))
    return w.serialize()


# -- range reads ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("where", ["b = 'k7'", "c < 500", "a = 5", "b = 'k7' AND c < 500"])
def test_lazy_index_lookup_reads_head_and_one_block_per_index(bucket, big_container, where):
    uri = f"{bucket}/range/{len(big_container)}.index"
    if not storage.exists(uri):
        storage.write_atomic(uri, big_container)
    expected = evaluate(parse_where(where), FileIndexContainerReader(big_container), SCHEMA).to_dict()
    with ByteSource(uri) as src:
        got = evaluate(parse_where(where), FileIndexContainerReader(src, path=src.path), SCHEMA).to_dict()
        reader = src._file
        gets, fetched = reader.gets, reader.bytes_fetched
    assert got == expected
    reader_blocks = {"a": 1, "b": 1, "c": 1}
    blocks = sum(n for col, n in reader_blocks.items() if f"{col} " in where)
    assert gets == 1 + blocks  # the container head, then each index block the predicate needs: one GET each
    assert fetched < len(big_container) * 0.6


def test_range_reader_min_get_and_window(bucket):
    data = bytes(range(256)) * 2048  # 512 KiB
    uri = f"{bucket}/range/plain.bin"
    storage.write_atomic(uri, data)
    with storage.open_input(uri) as f:
        f.seek(1000)
        assert f.read(10) == data[1000:1010]
        assert (f.gets, f.bytes_fetched) == (1, storage.DEFAULT_MIN_GET)  # one GET of the minimum size
        f.seek(5000)
        assert f.read(100) == data[5000:5100]
        assert f.gets == 1  # served from the window
        f.seek(storage.DEFAULT_MIN_GET + 900)  # straddles the window end: keeps the head, fetches the rest
        assert f.read(200) == data[storage.DEFAULT_MIN_GET + 900:storage.DEFAULT_MIN_GET + 1100]
        assert f.gets == 2
        f.seek(len(data) - 5)
        assert f.read(100) == data[-5:]
        assert f.read(1) == b""
    assert storage.read_range(uri, 300_000, 7) == data[300_000:300_007]
    assert storage.file_size(uri) == len(data)


# -- writes --------------------------------------------------------------------------------------------
def test_write_atomic_list_walk_and_delete(bucket):
    base = f"{bucket}/tree"
    atomic_write_bytes(f"{base}/x/a.bin", b"A")
    storage.write_atomic(f"{base}/x/y/b.bin", b"BB")
    storage.write_atomic(f"{base}/c.bin", b"C")
    assert storage.read_bytes(f"{base}/x/y/b.bin") == b"BB"
    assert storage.list_dir(base) == ["c.bin", "x"]
    assert storage.is_dir(f"{base}/x") and storage.is_file(f"{base}/c.bin") and not storage.is_dir(f"{base}/c.bin")
    walked = [(d, dirs, files) for d, dirs, files in storage.walk(base)]
    assert walked == [(base, ["x"], ["c.bin"]), (f"{base}/x", ["y"], ["a.bin"]), (f"{base}/x/y", [], ["b.bin"])]
    pruned = []
    for d, dirs, _ in storage.walk(base):
        pruned.append(d)
        dirs[:] = [x for x in dirs if x != "y"]
    assert pruned == [base, f"{base}/x"]
    storage.write_atomic(f"{base}/c.bin", b"C2")  # replace
    assert storage.read_bytes(f"{base}/c.bin") == b"C2"
    storage.delete(f"{base}/c.bin")
    assert not storage.exists(f"{base}/c.bin")
    assert storage.list_dir(f"{bucket}/no-such-dir") == []
    with pytest.raises(FileNotFoundError):
        storage.read_bytes(f"{base}/c.bin")


def test_create_if_absent_is_a_conditional_put_on_s3(bucket):
    uri = f"{bucket}/commit/snapshot-1"
    assert storage.create_if_absent(uri, b"first") is True
    assert storage.create_if_absent(uri, b"second") is False
    assert storage.read_bytes(uri) == b"first"


def test_create_if_absent_race_has_one_winner(bucket):
    """Eight writers race for each of five names: exactly one wins each, and its bytes are what is stored."""
    for round_ in range(5):
        uri = f"{bucket}/race/snapshot-{round_}"
        barrier = threading.Barrier(8)
        results: dict[int, bool] = {}

        def commit(i: int, uri=uri, barrier=barrier, results=results) -> None:
            barrier.wait()
            results[i] = storage.create_if_absent(uri, f"writer-{i}".encode())

        threads = [threading.Thread(target=commit, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        winners = [i for i, won in results.items() if won]
        assert len(winners) == 1, results
        assert storage.read_bytes(uri) == f"writer-{winners[0]}".encode()


def test_create_if_absent_local_race(tmp_path):
    target = str(tmp_path / "snapshot-1")
    barrier = threading.Barrier(8)
    results: dict[int, bool] = {}

    def commit(i: int) -> None:
        barrier.wait()
        results[i] = storage.create_if_absent(target, f"writer-{i}".encode())

    threads = [threading.Thread(target=commit, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    winners = [i for i, won in results.items() if won]
    assert len(winners) == 1
    with open(target, "rb") as fh:
        assert fh.read() == f"writer-{winners[0]}".encode()
    assert os.listdir(tmp_path) == ["snapshot-1"]  # no temporary file left behind


# -- options, credentials, errors, secrets ----------------------------------------------------------------
def test_option_aliases_of_paimon_hadoop_and_aws():
    for spelling in ({"s3.endpoint": "http://h:1", "s3.access-key": "K", "s3.secret-key": "S", "s3.region": "r"},
                     {"fs.s3a.endpoint": "http://h:1", "fs.s3a.access.key": "K", "fs.s3a.secret.key": "S",
                      "fs.s3a.endpoint.region": "r"},
                     {"endpoint_url": "http://h:1", "aws_access_key_id": "K", "aws_secret_access_key": "S",
                      "aws_region": "r"}):
        settings = storage.s3_settings(spelling)
        assert {k: settings[k] for k in ("endpoint", "access_key", "secret_key", "region")} == \
            {"endpoint": "http://h:1", "access_key": "K", "secret_key": "S", "region": "r"}
    assert storage.s3_settings({"fs.s3a.path.style.access": "true"})["path_style"] == "true"
    assert storage.s3_settings({"endpoint": "minio.local:9000"})["endpoint"] == "https://minio.local:9000"


def test_unknown_option_names_the_key_never_the_value():
    with pytest.raises(StorageError) as info:
        storage.s3_settings({"secret_kee": SECRET_KEY})
    assert "secret_kee" in str(info.value) and SECRET_KEY not in str(info.value)


def test_store_errors_are_one_exception_naming_the_file():
    storage.set_storage_options("s3://unreachable-bucket", {"endpoint": "http://127.0.0.1:1", "access_key": "k",
                                                             "secret_key": SECRET_KEY})
    try:
        for call in (storage.read_bytes, storage.exists, storage.list_dir, lambda p: ByteSource(p)):
            with pytest.raises(PaimonCodecError) as info:
                call("s3://unreachable-bucket/wh/t/snapshot/LATEST")
            assert isinstance(info.value, StorageError)
            assert "s3://unreachable-bucket/wh/t/snapshot/LATEST" in str(info.value)
            assert SECRET_KEY not in str(info.value)
    finally:
        storage.set_storage_options("s3://unreachable-bucket", {})


def test_options_ship_to_executors_as_plain_state(s3_server):
    state = storage.storage_state()
    assert json.loads(json.dumps(state)) == state  # plain strings: no filesystem objects
    storage.clear_storage_options()
    try:
        storage.restore_storage_state(state)
        assert storage.storage_options_for("s3://any-bucket/x") == s3_server.options
    finally:
        storage.clear_storage_options()
        storage.restore_storage_state(state)


def test_no_secret_in_logs(bucket, big_container, caplog):
    caplog.set_level(logging.DEBUG)
    uri = f"{bucket}/logs/f.index"
    storage.write_atomic(uri, big_container)
    storage.create_if_absent(f"{bucket}/logs/once", b"x")
    with ByteSource(uri) as src:
        evaluate(parse_where("b = 'k1'"), FileIndexContainerReader(src, path=src.path), SCHEMA).to_dict()
    assert SECRET_KEY not in caplog.text  # not even botocore's DEBUG logs carry it
    ours = [r.getMessage() for r in caplog.records if r.name.startswith("paimon_codec")]
    assert not any(ACCESS_KEY in m or SECRET_KEY in m for m in ours)  # (the key id is in botocore's, as in AWS's)


def _cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    full_env.update(env, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "paimon_codec", *args], capture_output=True, text=True,
                          env=full_env, timeout=300)


def test_cli_reaches_s3_with_aws_environment_variables_only(s3_server, bucket, big_container):
    uri = f"{bucket}/cli/env.index"
    storage.write_atomic(uri, big_container)
    res = _cli(["inspect", uri, "--format", "file-index", "--json"], s3_server.env)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["size"] == len(big_container) and out["format"] == "file-index"
    assert SECRET_KEY not in res.stdout + res.stderr


def test_cli_storage_option_flags_with_paimon_names(s3_server, bucket, big_container):
    uri = f"{bucket}/cli/flags.index"
    storage.write_atomic(uri, big_container)
    flags = ["--storage-option", f"s3.endpoint={s3_server.endpoint}", "--storage-option", f"s3.access-key={ACCESS_KEY}",
             f"--storage-option=s3.secret-key={SECRET_KEY}", "--storage-option", "s3.region=us-east-1"]
    res = _cli(["index", "query", uri, "--schema", "a BIGINT, b STRING, c BIGINT", "--where", "b = 'k3'", "--json",
                *flags], {})
    assert res.returncode == 0, res.stderr
    expected = evaluate(parse_where("b = 'k3'"), FileIndexContainerReader(big_container), SCHEMA).to_dict()
    assert json.loads(res.stdout) == expected
    # a failing request: one line naming the file, exit 2, no secret anywhere
    bad = _cli(["inspect", f"{uri}.missing", "--format", "file-index", "--storage-option",
                "s3.endpoint=http://127.0.0.1:1", f"--storage-option=s3.secret-key={SECRET_KEY}",
                "--storage-option", "s3.access-key=x"], {})
    assert bad.returncode == 2
    assert f"{uri}.missing" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
    assert SECRET_KEY not in bad.stdout + bad.stderr
    bad = _cli(["inspect", uri, "--storage-option", f"s3.secret-kee={SECRET_KEY}"], {})
    assert bad.returncode == 2 and "s3.secret-kee" in bad.stderr and SECRET_KEY not in bad.stderr


# -- index CLIs on s3:// URIs give what they give on local files -------------------------------------------
def _main(argv: list[str]) -> tuple[int, str]:
    import io
    from contextlib import redirect_stdout

    from paimon_codec.cli import main

    buf = io.StringIO()
    with redirect_stdout(buf):
        status = main(argv)
    return status, buf.getvalue()


def test_index_clis_read_s3_uris_like_local_files(s3_server, tmp_path):
    from golden_warehouse import WAREHOUSE
    from storage_fixtures import on_s3

    local = os.path.join(str(WAREHOUSE), "golden.db", "pk_dv_dynamic")
    uri = on_s3(s3_server)(local)
    names = storage.list_dir(os.path.join(local, "index"))
    assert storage.list_dir(f"{uri}/index") == names
    kinds = {"dv": 0, "bucket": 0, "inspect": 0}
    for name in names:
        for argv in (["dv", "read"], ["bucket", "read"], ["inspect"]):
            here = _main([*argv, os.path.join(local, "index", name), "--json"])
            if here[0] != 0:
                continue
            there = _main([*argv, f"{uri}/index/{name}", "--json"])
            assert there[0] == 0
            assert there[1].replace(f"{uri}/index/{name}", "PATH") == here[1].replace(
                os.path.join(local, "index", name), "PATH")
            kinds[argv[0]] += 1
    assert kinds["dv"] and kinds["bucket"] and kinds["inspect"]
    # writing: DV index files straight into the bucket, read back
    positions = tmp_path / "positions.json"
    positions.write_text(json.dumps({"data-0.parquet": [[0, 3], [10, 12]], "data-1.parquet": [[5, 6]]}))
    status, out = _main(["dv", "write", "--input", str(positions), "--output-dir", f"{uri}/written", "--json"])
    assert status == 0
    written = json.loads(out)["files"]
    status, out = _main(["dv", "read", f"{uri}/written/{written[0]['file_name']}", "--json"])
    assert status == 0
    assert [e["positions"]["cardinality"] for e in json.loads(out)["entries"]] == [5, 1]


def test_index_build_reads_parquet_input_and_writes_output_on_s3(bucket, tmp_path):
    import pyarrow.parquet as pq

    rows = pa.table({"a": list(range(100)), "b": [f"k{i % 3}" for i in range(100)], "c": list(range(100))})
    local_in = tmp_path / "rows.parquet"
    pq.write_table(rows, local_in)
    storage.write_atomic(f"{bucket}/build/rows.parquet", local_in.read_bytes())
    args = ["index", "build", "--schema", "a BIGINT, b STRING, c BIGINT", "--option", "file-index.bitmap.columns=b"]
    assert _main([*args, "--input", str(local_in), "--output", str(tmp_path / "f.index")])[0] == 0
    assert _main([*args, "--input", f"{bucket}/build/rows.parquet", "--output", f"{bucket}/build/f.index"])[0] == 0
    assert storage.read_bytes(f"{bucket}/build/f.index") == (tmp_path / "f.index").read_bytes()


def test_fsspec_fallback_serves_other_schemes(caplog):
    """A scheme pyarrow has no filesystem for goes through fsspec (here its in-memory store): tables read as
    from local disk; create-if-absent falls back to 'check, then put' and says so once."""
    import fsspec
    from golden_warehouse import WAREHOUSE

    from paimon_codec.reading import read_table
    from paimon_codec.table import list_tables

    mem = fsspec.filesystem("memory")
    local = str(WAREHOUSE)
    for root, _, files in os.walk(local):
        for name in files:
            with open(os.path.join(root, name), "rb") as fh:
                mem.pipe("/fsspec-wh/" + os.path.relpath(os.path.join(root, name), local), fh.read())
    try:
        tables = list_tables("memory://fsspec-wh")
        assert [t.rsplit("/", 1)[1] for t in tables] == ["append_indexed", "pk_dv_dynamic", "pk_dv_fixed"]
        for t in tables:
            assert read_table(t, "id < 500").equals(read_table(t.replace("memory://fsspec-wh", local), "id < 500"))
        caplog.set_level(logging.WARNING, logger="paimon_codec.storage.files")
        from paimon_codec.storage import files as storage_files

        storage_files._warned_schemes.discard("memory")
        assert storage.create_if_absent("memory://fsspec-wh/commit/snapshot-1", b"a") is True
        assert storage.create_if_absent("memory://fsspec-wh/commit/snapshot-1", b"b") is False
        assert storage.read_bytes("memory://fsspec-wh/commit/snapshot-1") == b"a"
        warnings = [r for r in caplog.records if "no conditional put" in r.getMessage()]
        assert len(warnings) == 1  # once per scheme and process
    finally:
        mem.rm("/fsspec-wh", recursive=True)


def test_missing_index_file_is_corrupt_data_naming_it(tmp_path, table_location):
    """A ``.index`` file the manifest lists but the store lacks: one CorruptDataError with its path, locally and
    on S3 (opening the file is the existence check: no extra request per file)."""
    import shutil

    from golden_warehouse import table_dir

    from paimon_codec.errors import CorruptDataError
    from paimon_codec.planning.plan import plan_scan
    from paimon_codec.table import PaimonTable

    local = str(tmp_path / "t")
    shutil.copytree(table_dir("golden.append_indexed"), local)
    victim = next(f for f in PaimonTable(local).data_files() if f.index_path)
    os.unlink(victim.index_path)
    path = table_location(local)
    with pytest.raises(CorruptDataError, match="does not exist") as info:
        plan_scan(path, "cat = 'A'")
    assert info.value.path == victim.index_path.replace(local, path)
