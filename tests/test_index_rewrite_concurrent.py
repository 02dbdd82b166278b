"""Two rewrites in two processes while Java appends: every snapshot id has one writer, nothing is lost.

Two worker processes run ``rewrite_file_index`` on the same table (different options) at the same time
as Paimon Java (its oracle process) appends three more batches.  Every commit takes its snapshot id with
create-if-absent, so each id is won by exactly one writer and a loser re-plans and retries: afterwards
the snapshots are contiguous, both rewrites report a commit or a clean no-op, every row Java wrote is
read back (by Java and by us), and every file that was live when the rewrites planned carries an index.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
from oracles.compare import assert_same_rows

from paimon_codec.reading import read_table
from paimon_codec.table import PaimonTable

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = """
import json, sys, time
from paimon_codec.maintenance.index_rewrite_job import rewrite_file_index
path, options, start = sys.argv[1], json.loads(sys.argv[2]), float(sys.argv[3])
while time.time() < start:
    time.sleep(0.005)
print(json.dumps(rewrite_file_index(path, options).to_dict()))
"""


def _rows(k: int, n: int = 60) -> pa.Table:
    return pa.table({"id": pa.array(range(k * 100, k * 100 + n), pa.int32()),
                     "s": [f"v{(i + k) % 6}" for i in range(n)]})


def test_concurrent_rewrites_and_java_appends(tmp_path, java_newest):
    path = java_newest.create_table(str(tmp_path), "db.c", "id INT, s STRING", options={"bucket": "-1"})
    for k in range(6):
        java_newest.write(path, _rows(k))
    before = {f.file_name for f in PaimonTable(path).data_files()}
    import time

    start = time.time() + 2.0
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    procs = [subprocess.Popen([sys.executable, "-c", SCRIPT, path, json.dumps(opts), str(start)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for opts in ({"file-index.bitmap.columns": "s"}, {"file-index.bloom-filter.columns": "id"})]
    for k in range(6, 9):  # Java appends while the rewrites run
        java_newest.write(path, _rows(k))
    reports = []
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        reports.append(json.loads(out.strip().splitlines()[-1]))
    table = PaimonTable(path)
    ids = table.snapshot_ids()
    assert ids == list(range(ids[0], ids[-1] + 1))  # contiguous: no id taken twice, none skipped
    commits = [r["snapshot_id"] for r in reports if r["snapshot_id"] is not None]
    assert len(set(commits)) == len(commits) >= 1
    assert len(ids) == 6 + 3 + len(commits)
    expected = pa.concat_tables([_rows(k) for k in range(9)])
    assert_same_rows(java_newest.read(path), expected)
    assert_same_rows(read_table(path), expected)
    live = {f.file_name: f for f in table.data_files()}
    assert before <= set(live)
    assert all(live[n].embedded_index or live[n].index_path for n in before)
    assert_same_rows(read_table(path, "s = 'v1'"), java_newest.read(path, where="s = 'v1'"))
