"""``paimon_codec.jit.LazyKernels``: when a set of compiled kernels loads (``min_call``, the rent-or-buy ``after``,
``PAIMON_CODEC_JIT`` / ``PAIMON_CODEC_NO_JIT``) and what happens when it cannot (logged once, never retried, the
reference path answers).  The rules are checked on a stand-in module; the library's three sets by name."""

from __future__ import annotations

import json
import logging
import sys

import pytest

from paimon_codec import jit
from paimon_codec.fileindex.bloom import _kernel as bloom_kernel
from paimon_codec.fileindex.range_bitmap import _compiled as range_compiled
from paimon_codec.reading.merge import kernels as merge_kernels


@pytest.fixture(autouse=True)
def _no_switches(monkeypatch):
    monkeypatch.delenv(jit.NO_JIT_ENV, raising=False)
    monkeypatch.delenv(jit.JIT_ENV, raising=False)


def test_small_calls_and_little_work_stay_on_the_reference_then_every_call_runs_compiled():
    k = jit.LazyKernels("json", "stand-in", min_call=10, after=25)
    assert k.get(9) is None, "a call below min_call"
    assert k.get(10) is None, "19 units of work so far, under `after`"
    k.note_work(5)
    assert k.module is None
    assert k.get(10) is json, "34 units: loaded"
    assert k.get(0) is json, "once loaded, every size"
    assert k.work_done == 34


def test_switches(monkeypatch):
    k = jit.LazyKernels("json", "stand-in", min_call=1 << 40, after=1 << 40)
    monkeypatch.setenv(jit.NO_JIT_ENV, "1")
    monkeypatch.setenv(jit.JIT_ENV, "1")
    assert k.get(1 << 50) is None, "NO_JIT wins"
    monkeypatch.setenv(jit.NO_JIT_ENV, "0")
    assert k.get(0) is json, "JIT=1 loads at the first call of any size"
    monkeypatch.setenv(jit.NO_JIT_ENV, "1")
    assert k.get(1 << 50) is None, "NO_JIT turns loaded kernels off too"


def test_a_failing_load_is_logged_once_and_not_retried(caplog):
    k = jit.LazyKernels("paimon_codec._no_such_kernels", "stand-in kernels fall back to numpy")
    with caplog.at_level(logging.WARNING, logger="paimon_codec.jit"):
        assert k.get(1) is None
        assert k.get(1) is None
    assert k.failed
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1 and "stand-in kernels fall back to numpy" in warnings[0]
    assert "ModuleNotFoundError" in warnings[0]


@pytest.mark.parametrize(("kernels", "fallback"), [
    (bloom_kernel.KERNELS, "bloom-filter kernels fall back to numpy"),
    (range_compiled.KERNELS, "range-bitmap comparisons stay on pyroaring"),
    (merge_kernels.KERNELS, "merge kernels fall back to numpy"),
])
def test_the_library_kernel_sets_load_and_name_their_fallback(monkeypatch, caplog, kernels, fallback):
    monkeypatch.setattr(kernels, "module", None)
    monkeypatch.setattr(kernels, "failed", False)
    monkeypatch.setenv(jit.JIT_ENV, "1")
    module = kernels.get(0)
    assert module is not None and module.__name__ == kernels.module_name, "numba is installed: the set must load"
    monkeypatch.setattr(kernels, "module", None)
    monkeypatch.setitem(sys.modules, kernels.module_name, None)  # the import raises ImportError
    with caplog.at_level(logging.WARNING, logger="paimon_codec.jit"):
        assert kernels.get(1 << 62) is None
    assert fallback in caplog.text
