"""Every documented refusal the fuzzers provoke says where and what was expected (issue 12, Build item 2).

A fixed sample of fuzz inputs per entry point runs in-process (the harness's mutators over the golden
files); each :class:`~paimon_codec.errors.PaimonCodecError` must carry what was expected and where: an
offset for byte formats, the file (and a record path or offset in the message) for table metadata, and
for the CLI one line naming the input file and the expectation.
"""

from __future__ import annotations

import signal

import pytest

from fuzz.runner import _ARMED, _alarm, _Hang, input_for
from fuzz.targets import GOLDEN, TARGETS
from paimon_codec.errors import PaimonCodecError

BYTES = ("bitmap", "bloom-filter", "range-bitmap", "bsi", "container", "dv-entry", "dv-file", "puffin",
         "delete-map", "hash-index")
FILES = ("schema-json", "snapshot-json", "manifest", "manifest-list", "index-manifest", "table")
SAMPLE = {"table": 120, "cli": 150, "manifest": 300, "manifest-list": 300, "index-manifest": 300}


def _refusals(name: str) -> list[PaimonCodecError]:
    target = TARGETS[name]
    target.warm_up()  # as the worker does
    old = signal.signal(signal.SIGALRM, _alarm)
    out = []
    try:
        for i in range(SAMPLE.get(name, 500)):
            data, meta = input_for(target, 424242, i)
            try:
                _ARMED[0] = True
                signal.setitimer(signal.ITIMER_REAL, 5.0)
                target.run(data, meta)
            except PaimonCodecError as exc:
                out.append(exc)
            except _Hang:
                pytest.fail(f"{name} input {i} hangs")
            finally:
                _ARMED[0] = False
                signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.signal(signal.SIGALRM, old)
    assert len(out) >= 10, f"{name}: too few refusals in the sample to judge ({len(out)})"
    return out


@pytest.mark.skipif(not GOLDEN.is_dir(), reason=f"golden files (the seeds) not found at {GOLDEN}")
@pytest.mark.parametrize("name", BYTES + FILES + ("cli",))
def test_refusals_say_where_and_what_was_expected(name):
    bad = []
    for exc in _refusals(name):
        text = str(exc)
        if name == "cli":  # the harness re-raises the CLI's one stderr line
            ok = "input.bin" in text and "(expected " in text and "\n" not in text
        elif name in BYTES:
            ok = exc.offset is not None and exc.expected is not None
        else:  # table metadata: the file (record paths / field names are in the message: entry 3._FILE._LEVEL)
            ok = exc.path is not None and exc.expected is not None
        if not ok:
            bad.append(f"{type(exc).__name__}: {text[:200]}")
    assert not bad, f"{len(bad)} refusals of {name} lack where / expected, e.g. {bad[:3]}"
