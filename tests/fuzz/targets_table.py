"""Fuzz entry points over table metadata: schema / snapshot JSON, manifests, manifest lists, index manifests
(Avro, and Parquet for ``manifest.format=parquet``), a whole table directory through scan planning, and the
command line.  Metadata targets read real files (a per-process scratch directory on tmpfs)."""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fuzz.mutate import avro_seed, widen_schema
from fuzz.targets import WAREHOUSE, Seed, _latest

# ------------------------------------------------------------------------------------ table metadata
_SCRATCH: dict[str, Path] = {}


def scratch(name: str) -> Path:
    """A per-process scratch directory (tmpfs when there is one): metadata targets read real files."""
    key = f"{os.getpid()}-{name}"
    if key not in _SCRATCH:
        base = Path("/dev/shm") if os.path.isdir("/dev/shm") else Path(os.environ.get("TMPDIR", "/tmp"))
        d = base / f"paimon-fuzz-{key}"
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        _SCRATCH[key] = d
    return _SCRATCH[key]


def _tables() -> list[Path]:
    return sorted(p for p in WAREHOUSE.iterdir() if p.is_dir())


def _json_seeds(sub: str) -> Callable[[], list[Seed]]:
    def load() -> list[Seed]:
        return [Seed(p.read_bytes()) for t in _tables() for p in sorted((t / sub).glob(f"{sub}-*"))]
    return load


def _run_schema(data: bytes, meta: dict) -> None:
    from paimon_codec.table.schema import load_schema

    d = scratch("schema")
    (d / "schema").mkdir(exist_ok=True)
    (d / "schema" / "schema-0").write_bytes(data)
    load_schema(d, 0)


def _run_snapshot(data: bytes, meta: dict) -> None:
    from paimon_codec.table.snapshot import load_snapshot

    d = scratch("snapshot")
    (d / "snapshot").mkdir(exist_ok=True)
    (d / "snapshot" / "snapshot-1").write_bytes(data)
    snap = load_snapshot(d, 1)
    if snap.id != 1:
        raise AssertionError("load_snapshot returned another id")


def _avro_seeds(prefix: str, exclude: str | None = None) -> Callable[[], list[Seed]]:
    def load() -> list[Seed]:
        import fastavro
        import pyarrow as pa
        import pyarrow.parquet as pq

        out = []
        for t in _tables():
            for p in sorted((t / "manifest").glob(prefix + "*")):
                if exclude and p.name.startswith(exclude):
                    continue
                schema, records = avro_seed(p.read_bytes())
                wide = fastavro.parse_schema(widen_schema(schema))
                plain = io.BytesIO()
                # a sync marker fixed by the file (fastavro's default is random): the same seeds every time
                fastavro.writer(plain, fastavro.parse_schema(schema), records, codec="null",
                                sync_marker=hashlib.blake2b(p.read_bytes(), digest_size=16).digest())
                out.append(Seed(plain.getvalue(), {"wide": wide, "records": records}))
                out.append(Seed(p.read_bytes(), {"wide": wide, "records": records}))
                if records and len(out) < 8:  # the same records as Parquet (manifest.format=parquet)
                    buf = io.BytesIO()
                    pq.write_table(pa.Table.from_pylist(records), buf)
                    out.append(Seed(buf.getvalue(), {}))
        return out[:40]
    return load


def _run_metadata(reader: str) -> Callable[[bytes, dict], None]:
    def run(data: bytes, meta: dict) -> None:
        from paimon_codec.table import index_manifest, manifest

        fn = {"manifest": manifest.read_manifest, "manifest-list": manifest.read_manifest_list,
              "index-manifest": index_manifest.read_index_manifest}[reader]
        d = scratch(reader)
        (d / "m").write_bytes(data)
        fn(str(d), "m")
    return run


# ------------------------------------------------------------------------------- whole table, CLI
def _table_seeds() -> list[Seed]:
    """One seed per metadata file of each golden table: the file is mutated in a scratch copy, then planned."""
    import fastavro

    out = []
    for t in _tables():
        for p in sorted(t.rglob("*")):
            rel = p.relative_to(t)
            if not p.is_file() or p.name in ("LATEST", "EARLIEST"):
                continue
            meta: dict[str, Any] = {"table": t.name, "rel": str(rel)}
            if rel.parts[0] in ("snapshot", "schema"):
                meta["kind"] = "json"
            elif rel.parts[0] == "manifest":
                schema, records = avro_seed(p.read_bytes())
                meta.update(kind="avro", wide=fastavro.parse_schema(widen_schema(schema)), records=records)
            elif not (rel.parts[0] == "index" or p.name.endswith(".index")):
                continue
            out.append(Seed(p.read_bytes(), meta))
    return out


def _run_table(data: bytes, meta: dict) -> None:
    from paimon_codec.planning.plan import plan_scan

    base = scratch("table")
    table = base / meta["table"]
    if not table.exists():
        shutil.copytree(WAREHOUSE / meta["table"], table)
    target = table / meta["rel"]
    original = (WAREHOUSE / meta["table"] / meta["rel"]).read_bytes()
    target.write_bytes(data)
    try:
        from paimon_codec.table import PaimonTable

        schema = PaimonTable(str(table)).schema
        first = schema.fields.names[0]
        for where in (None, f"{first} IS NOT NULL", f"{first} = 1"):
            plan = plan_scan(str(table), where)
            for task in plan.tasks:
                task.selection_bytes()
    finally:
        target.write_bytes(original)


def _cli_seeds() -> list[Seed]:
    out = []
    for kind, fmt in (("bitmap", "bitmap"), ("range-bitmap", "range-bitmap"), ("bloom-filter", "bloom-filter"),
                      ("file-index-container", "file-index"), ("dv-file", "deletion-vectors")):
        for data, side in _latest(kind)[:3]:
            out.append(Seed(data, {"format": fmt, "type": side.get("type")}))
    return out


def _cli_main():
    """``paimon_codec.cli.main`` with its argument parser built once per worker: building it (7 command
    modules, ~60 subcommands, argparse + gettext) is ~90% of a CLI call's time, and it does not depend on the
    input; parsing, the command and its error handling still run per input."""
    import functools

    from paimon_codec import cli

    if not hasattr(cli.build_parser, "cache_info"):
        cli.build_parser = functools.lru_cache(maxsize=1)(cli.build_parser)
    return cli.main


def _run_cli(data: bytes, meta: dict) -> None:
    main = _cli_main()

    p = scratch("cli") / "input.bin"
    p.write_bytes(data)
    argv = ["inspect", str(p), "--json", "--format", meta["format"]]
    if meta.get("type"):
        argv += ["--type", meta["type"]]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
        rc = main(argv)
    if rc == 2:
        from paimon_codec.errors import CorruptDataError

        text = err.getvalue().strip()
        if text.count("\n") or "Traceback" in text:
            raise AssertionError(f"CLI error is not one line: {text[:300]}")
        raise CorruptDataError(text)  # the documented refusal (exit 2, one line)
    if rc != 0:
        raise AssertionError(f"CLI exit {rc}")


