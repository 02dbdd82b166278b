"""Kill writers with SIGKILL at random points and check what is left: the old content or the new, never a
mix, and every temporary file named as an orphan by the audit.

Each trial forks the (already imported) test process; the child runs one real writer call and exits; the
parent sleeps a random time drawn from ``[0, 2.5 x a clean write's duration]`` and sends SIGKILL.  Run it
alone with ``python tests/crash/kill_writers.py --trials 300``.

Writers: the hash index (``write_hash_index``), the delete map, a Puffin file, a DV index file
(``write_dv_index``: new names, so "complete or absent"), a file-index container through the CLI
(``index build --output``), and the table commit path (``append_arrow``, and ``upsert_arrow`` into a
dynamic-bucket primary-key table: the table reads exactly its previous or its new snapshot).  Every trial happens inside a copy of a golden table, so the audit
(``table_inventory``) sees what a crash left.
"""

from __future__ import annotations

import io
import os
import random
import shutil
import signal
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa

REPO = Path(__file__).resolve().parents[2]
GOLDEN = Path(os.environ.get("PAIMON_GOLDEN", REPO.parent / "shared" / "golden")).resolve()
GOLDEN_TABLE = GOLDEN / "paimon-0.9" / "warehouse" / "warehouse" / "golden.db" / "pk_dv_fixed"


@dataclass
class Writer:
    """``write(version)`` writes version 0 (old) or 1 (new); ``state()`` is what a reader sees now."""

    name: str
    write: Callable[[int], None]
    state: Callable[[], object]
    #: table writers: the state one more ``write(1)`` makes of ``old`` (each trial writes once more)
    expect: Callable[[object], object] | None = None
    #: run (to completion, in this process) before each trial: what the write then has to work on
    prepare: Callable[[], None] | None = None


def _dvs(version: int, n: int) -> dict:
    from paimon_codec.dv.deletion_vector import DeletionVector

    rnd = np.random.default_rng(version)
    return {f"data-{version}-{i}.parquet": DeletionVector.from_array(np.unique(rnd.integers(0, 5_000_000, n)))
            for i in range(4)}


def _file_writers(d: Path) -> list[Writer]:
    from paimon_codec.bucket.hash_index import read_hash_index, write_hash_index
    from paimon_codec.dv.delete_map import read_delete_map, write_delete_map
    from paimon_codec.dv.puffin import read_puffin, write_puffin

    index_dir = d / "index"
    hashes = [np.random.default_rng(v).integers(-2**31, 2**31, 1_500_000).astype(np.int32) for v in (0, 1)]
    dvs = [_dvs(v, 200_000) for v in (0, 1)]
    hash_path, map_path, puffin_path = index_dir / "index-crash-hash", d / "crash.deletemap", d / "crash.puffin"
    return [
        Writer("hash-index", lambda v: write_hash_index(hash_path, hashes[v]),
               lambda: read_hash_index(hash_path).tobytes()),
        Writer("delete-map", lambda v: write_delete_map(map_path, dvs[v]),
               lambda: {k: v.ranges() for k, v in read_delete_map(map_path).items()}),
        Writer("puffin", lambda v: write_puffin(puffin_path, dvs[v]),
               lambda: {b.referenced_data_file: b.dv.ranges() for b in read_puffin(puffin_path)}),
    ]


def _dv_index_writer(d: Path) -> Writer:
    """New file names each time: the state is the set of complete files (each must read with its CRCs)."""
    from paimon_codec.dv.index_file import read_dv_index, write_dv_index

    out = d / "index"
    dvs = _dvs(1, 200_000)

    def state():
        names = sorted(p.name for p in out.glob("index-*") if not p.name.startswith("."))
        for n in names:
            read_dv_index(out / n)  # complete, or this raises
        return "complete"
    return Writer("dv-index", lambda v: v and write_dv_index(out, dvs), state)


def _cli_writer(d: Path) -> Writer:
    import pyarrow.parquet as pq

    from paimon_codec.cli import main
    from paimon_codec.fileindex.container import FileIndexContainerReader

    rows = d / "rows.parquet"
    pq.write_table(pa.table({"a": np.arange(400_000, dtype=np.int32) % 5000,
                             "b": [f"k{i % 3000}" for i in range(400_000)]}), rows)
    out = d / "bucket-0" / "data-crash.parquet.index"

    def write(v: int) -> None:
        cols = "a,b" if v else "a"
        with io.StringIO() as sink:
            sys.stdout, saved = sink, sys.stdout
            try:
                main(["index", "build", "--schema", "a INT, b STRING", "--input", str(rows), "--option",
                      f"file-index.bitmap.columns={cols}", "--output", str(out)])
            finally:
                sys.stdout = saved
    return Writer("index-build", write, lambda: sorted(FileIndexContainerReader(out.read_bytes()).columns))


ROWS = 20_000  # rows per commit (each trial appends once more; the table is read after every kill)


def _commit_writer(d: Path) -> Writer:
    from paimon_codec.reading.local_read import read_table
    from paimon_codec.writing import append_arrow, create_table

    table = d / "wh" / "db.db" / "t"
    if not table.exists():
        create_table(table, "id BIGINT, v STRING", {"file.format": "parquet"})
    batches = [pa.table({"id": pa.array(np.arange(k * ROWS, (k + 1) * ROWS), pa.int64()),
                         "v": [f"v{i}" for i in range(ROWS)]}) for k in range(2)]

    def state():
        t = read_table(str(table))
        return (t.num_rows, int(pa.compute.sum(t["id"]).as_py() or 0))
    return Writer("commit", lambda v: append_arrow(table, batches[v]), state)


UPSERT_NEW, UPSERT_UPDATED = 1_500, 500  # keys an upsert adds / rewrites (dynamic buckets of 4000 keys)


def _upsert_batch(state: tuple) -> tuple[pa.Table, dict]:
    """The next upsert of a primary-key table holding ``state`` (sorted ``(id, stamp)`` pairs) and the rows after it."""
    n = len(state)
    ids = np.arange(max(n - UPSERT_UPDATED, 0), n + UPSERT_NEW, dtype=np.int64)
    rows = dict(state)
    rows.update(dict.fromkeys(ids.tolist(), n))
    return pa.table({"id": pa.array(ids, pa.int64()), "stamp": pa.array(np.full(len(ids), n), pa.int64())}), rows


def _upsert_writer(d: Path) -> Writer:
    """Upserts into a dynamic-bucket primary-key table (level-0 files + HASH index files + one commit)."""
    from paimon_codec.reading.local_read import read_table
    from paimon_codec.writing import create_table, upsert_arrow

    table = d / "wh" / "db.db" / "t"
    if not table.exists():
        create_table(table, "id BIGINT, stamp BIGINT", {"bucket": "-1", "dynamic-bucket.target-row-num": "4000"},
                     primary_keys=["id"])

    def state() -> tuple:
        t = read_table(str(table))
        return tuple(sorted(zip(t.column("id").to_pylist(), t.column("stamp").to_pylist(), strict=True)))
    return Writer("upsert", lambda v: upsert_arrow(table, _upsert_batch(state())[0]), state,
                  lambda old: tuple(sorted(_upsert_batch(old)[1].items())))


def _compact_writer(d: Path) -> Writer:
    """Full compactions of a fixed-bucket primary-key table: each trial first upserts (level-0 files, in this
    process), then a compaction is killed; the rows never change, the files' levels say old or new."""
    from paimon_codec.reading.local_read import read_table
    from paimon_codec.table import PaimonTable
    from paimon_codec.writing import compact_table, create_table, upsert_arrow

    table = d / "wh" / "db.db" / "t"
    if not table.exists():
        create_table(table, "id BIGINT, stamp BIGINT", {"bucket": "2"}, primary_keys=["id"])
        upsert_arrow(table, _upsert_batch(())[0])

    def rows() -> tuple:
        t = read_table(str(table))
        return tuple(sorted(zip(t.column("id").to_pylist(), t.column("stamp").to_pylist(), strict=True)))

    def state() -> tuple:
        """(rows, fully compacted: every live file at one level above 0)"""
        t = PaimonTable(table)
        levels = {f.level for f in t.live_files(t.snapshot())}
        return rows(), len(levels) == 1 and 0 not in levels
    return Writer("compact", lambda v: compact_table(table), state, lambda old: (old[0], True),
                  lambda: upsert_arrow(table, _upsert_batch(rows())[0]))


def _temp_files(root: Path) -> list[str]:
    from paimon_codec.maintenance.inventory import is_temp_file

    return sorted(str(p) for p in root.rglob("*") if p.is_file() and is_temp_file(p.name))


def _audit_orphans(table: Path) -> set[str]:
    from paimon_codec.maintenance.inventory import table_inventory

    _, findings = table_inventory(str(table))
    return {f.path for f in findings if f.finding in ("orphan", "temp-file")}


def _forked_write_seconds(writer, value: int) -> float:
    """Wall time from fork to the child's exit for one complete ``writer.write(value)``."""
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            writer.write(value)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    return time.monotonic() - t0


def run_trials(name: str, trials: int, seed: int, work: Path) -> Counter:
    """``trials`` SIGKILLs of writer ``name``; counts of old / new / orphans named / bad (must stay 0)."""
    d = work / name
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(GOLDEN_TABLE, d)
    writers = {w.name: w for w in (*_file_writers(d), _dv_index_writer(d), _cli_writer(d))}
    tables = {"upsert": _upsert_writer, "compact": _compact_writer, "commit": _commit_writer}
    writer = writers[name] if name in writers else tables[name](d)
    rnd = random.Random(seed)
    counts: Counter = Counter()
    states = []
    for v in (0, 1):  # the two complete states
        writer.write(v)
        states.append(writer.state())
    # How long a write takes *in a forked child* (fork, copy-on-write faults and exit included): kills drawn
    # from [0, 1.5 x that] land both before and after the rename on a quiet or a loaded machine alike; an
    # in-process timing undercounts the child's cost and put every kill before the write on a quiet machine.
    def timed() -> float:
        if writer.prepare is not None:  # the write then has its work to do, as in a trial
            writer.prepare()
        return _forked_write_seconds(writer, 1)
    duration = statistics.median(timed() for _ in range(3))
    for trial in range(trials):
        prev, target = trial % 2, 1 - trial % 2
        if name == "commit":  # each trial appends once more: old = what the table held before
            old = writer.state()
            new = (old[0] + ROWS, old[1] + sum(range(ROWS, 2 * ROWS)))
        elif writer.expect is not None:
            if writer.prepare is not None:
                writer.prepare()
            old = writer.state()
            new = writer.expect(old)
        else:
            writer.write(prev)
            old, new = states[prev], states[target]
        pid = os.fork()
        if pid == 0:  # child: one write, then leave without cleanup (as a killed process would not)
            try:
                writer.write(1 if name == "commit" or writer.expect is not None else target)
            finally:
                os._exit(0)
        time.sleep(rnd.uniform(0, 1.5 * duration))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        now = writer.state()
        counts["old" if now == old else "new" if now == new else "bad"] += 1
        temps = _temp_files(d)
        if temps:
            counts["temp_left"] += len(temps)
            commit_table = d / "wh" / "db.db" / "t"
            orphans = _audit_orphans(d) | (_audit_orphans(commit_table) if commit_table.exists() else set())
            counts["temp_named"] += sum(t in orphans for t in temps)
            for t in temps:  # as an operator would after the audit
                os.unlink(t)
    return counts


WRITERS = ("hash-index", "delete-map", "puffin", "dv-index", "index-build", "commit", "upsert", "compact")


def main(argv: list[str] | None = None) -> int:
    import argparse
    import tempfile

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--writers", default=",".join(WRITERS))
    args = ap.parse_args(argv)
    bad = 0
    with tempfile.TemporaryDirectory() as work:
        for name in args.writers.split(","):
            c = run_trials(name, args.trials, args.seed, Path(work))
            print(f"{name}: {dict(c)}", flush=True)
            bad += c["bad"] + (c["temp_left"] - c["temp_named"])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.path[:0] = [str(REPO)]
    sys.exit(main())
