"""The short fuzz run of CI: every entry point, a fixed seed, a few hundred inputs each (a couple of minutes).

Each input runs in a worker process under the harness's time and allocation bounds; any input that is not
``ok`` or a documented :class:`~paimon_codec.errors.PaimonCodecError` fails the test and is left in the
findings directory (``tools/fuzz.py`` reproduces it from its index).  The long run is
``python tools/fuzz.py --inputs 1000000 --json F --resume``, accumulating over sittings
(docs/fuzzing.md).
"""

from __future__ import annotations

import pytest

from fuzz.runner import fuzz_target
from fuzz.targets import GOLDEN, TARGETS

SLOW = {"table": 40, "cli": 40, "manifest": 120, "index-manifest": 120}


@pytest.mark.slow  # minutes: left to the full run (./run.sh test, CI)
@pytest.mark.skipif(not GOLDEN.is_dir(), reason=f"golden files (the seeds) not found at {GOLDEN}")
@pytest.mark.parametrize("name", list(TARGETS))
def test_short_fuzz_run(name, tmp_path):
    stats = fuzz_target(name, SLOW.get(name, 250), seed=20261127, time_limit=5.0, out_dir=str(tmp_path))
    counts = stats.to_dict()
    assert stats.inputs == SLOW.get(name, 250)
    assert counts["ok"] + counts["error"] == stats.inputs, (counts, stats.findings[:5])
    assert counts["ok"] > 0 and counts["error"] > 0  # the mutations reach both outcomes, not only one
