"""Every writer is crash-safe: SIGKILLed at random points (hundreds of trials in all), what is left is the
old content or the new one - never a mix - and any temporary file is named as an orphan by the audit.

The commit path is included: the table reads exactly its previous or its new snapshot.  The harness is
``tests/crash/kill_writers.py`` (also runnable alone with more trials).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "crash"))

from kill_writers import GOLDEN_TABLE, WRITERS, run_trials  # noqa: E402

TRIALS = {"commit": 40, "index-build": 40, "upsert": 30, "compact": 30}


@pytest.mark.slow  # ~300 s of the quick run: left to the full run (./run.sh test, CI)
@pytest.mark.skipif(not GOLDEN_TABLE.is_dir(), reason=f"golden table not found at {GOLDEN_TABLE}")
@pytest.mark.parametrize("name", WRITERS)
def test_sigkill_leaves_old_or_new(name, tmp_path):
    trials = TRIALS.get(name, 50)
    counts = run_trials(name, trials, seed=7, work=tmp_path)
    assert counts["bad"] == 0, counts
    assert counts["old"] + counts["new"] == trials, counts
    assert counts["temp_named"] == counts["temp_left"], counts
    if name not in ("dv-index",):
        assert counts["old"] > 0 and counts["new"] > 0, counts  # the kills land before and after the rename
