"""A hang is a hang only if the input also runs past four times the time bound (issue 12: a wall-clock bound
on a loaded machine must not turn a slow, finite input into a finding)."""

from __future__ import annotations

import signal
import time
from collections import Counter

import pytest

from fuzz import runner
from fuzz.memory import Meter
from fuzz.targets import Target


@pytest.fixture
def alarm():
    old = signal.signal(signal.SIGALRM, runner._alarm)
    yield
    signal.signal(signal.SIGALRM, old)


def _target(run) -> Target:
    return Target("probe", lambda: [], run)


def _classify(run, limit: float) -> tuple[str, str, Counter]:
    meter = Meter("none", rlimit=False)
    meter.open()
    notes: Counter = Counter()
    outcome, detail = runner.classify_confirmed(_target(run), b"x", {}, limit, meter, notes)
    return outcome, detail, notes


def test_slow_but_finite_input_is_not_a_hang(alarm):
    calls = []

    def run(data, meta):  # slow the first time (a stall), then quick
        calls.append(1)
        time.sleep(0.3 if len(calls) == 1 else 0.01)

    outcome, _, notes = _classify(run, 0.1)
    assert outcome == "ok" and notes["hang_false_alarm"] == 1 and len(calls) == 2


def test_endless_input_is_a_confirmed_hang(alarm):
    def run(data, meta):
        while True:
            time.sleep(0.01)

    t0 = time.monotonic()
    outcome, detail, notes = _classify(run, 0.05)
    assert outcome == "hang" and "confirmed" in detail and not notes
    assert time.monotonic() - t0 < 5


def test_refusal_after_a_stall_keeps_its_class(alarm):
    from paimon_codec.errors import CorruptDataError

    calls = []

    def run(data, meta):
        calls.append(1)
        if len(calls) == 1:
            time.sleep(0.3)
        raise CorruptDataError("bad bytes", offset=0)

    outcome, detail, notes = _classify(run, 0.1)
    assert (outcome, detail) == ("error", "CorruptDataError") and notes["hang_false_alarm"] == 1
