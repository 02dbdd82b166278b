"""The merge engines' per-key kernels: compiled loops (numba) against the numpy reference, and both against a
record-at-a-time model of Paimon 1.4.2's merge functions (partial-update, aggregation), for random sorted runs
with every row kind, nulls and extreme integers.

The Java-differential tests (``test_table_merge_read.py`` & co.) hold the numpy path to Paimon's reads; these
hold the compiled path (and the inserts-only shortcuts) to it.
"""

from __future__ import annotations

import importlib
import math
import os
import subprocess
import sys

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paimon_codec.errors import UnsupportedTypeError
from paimon_codec.jit import JIT_ENV, NO_JIT_ENV
from paimon_codec.reading.merge import engines, groups, kernels
from paimon_codec.table.merge_spec import MergeSpec

JIT = importlib.import_module("paimon_codec.reading.merge._jit")
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
KINDS = (0, 0, 2, 1, 3)   # +I, +I, +U, -U, -D


@st.composite
def sorted_runs(draw, max_keys: int = 12):
    """Key sizes (>= 1 record each), a merge order over the records and per-record row kinds."""
    sizes = draw(st.lists(st.integers(1, 5), min_size=1, max_size=max_keys))
    n = sum(sizes)
    starts = np.zeros(n, dtype=bool)
    starts[np.cumsum([0, *sizes[:-1]])] = True
    order = np.array(draw(st.permutations(range(n))), dtype=np.int64)
    return starts, order


@SETTINGS
@given(runs=sorted_runs(), data=st.data())
def test_kernels_match_numpy(runs, data):
    starts, order = runs
    n = len(starts)
    g = groups.Groups(starts)
    mask = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    for from_end in (True, False):
        assert np.array_equal(kernels.where(g.first, g.last, mask, from_end, None),
                              kernels.where(g.first, g.last, mask, from_end, JIT))
    assert np.array_equal(kernels.last_valid(g.first, g.last, order, mask, None),
                          kernels.last_valid(g.first, g.last, order, mask, JIT))
    dtype = data.draw(st.sampled_from([np.int8, np.int16, np.int32, np.int64]))
    info = np.iinfo(dtype)
    values = np.array(data.draw(st.lists(st.one_of(st.sampled_from([info.min, info.max, -1, 0, 1]),
                                                   st.integers(info.min, info.max)), min_size=n, max_size=n)),
                      dtype=dtype)
    negate = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    for product in (False, True):
        want = kernels.fold_integers(g.first, g.last, values, mask, negate, product, None)
        got = kernels.fold_integers(g.first, g.last, values, mask, negate, product, JIT)
        assert got[0].dtype == want[0].dtype == dtype
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
        # Java's fold: one wrapping operation at a time
        for k in range(g.count):
            acc, seen = 1 if product else 0, False
            for i in range(g.first[k], g.last[k] + 1):
                if mask[i]:
                    seen = True
                    v = int(values[i])
                    acc = acc * v if product else acc - v if negate[i] else acc + v
            bits = info.bits
            acc = (acc + (1 << (bits - 1))) % (1 << bits) - (1 << (bits - 1))
            assert (bool(want[1][k]), int(want[0][k]) if seen else None) == (seen, acc if seen else None)


@SETTINGS
@given(runs=sorted_runs(), data=st.data())
def test_extreme_kernel_matches_numpy(runs, data):
    starts, _ = runs
    n = len(starts)
    g = groups.Groups(starts)
    rows = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    dtype = data.draw(st.sampled_from([np.int8, np.int16, np.int32, np.int64]))
    info = np.iinfo(dtype)
    values = np.array(data.draw(st.lists(st.integers(info.min, info.max), min_size=n, max_size=n)), dtype=dtype)
    for largest in (False, True):
        want = kernels.fold_extreme(g.first, g.last, values, rows, largest, None)
        got = kernels.fold_extreme(g.first, g.last, values, rows, largest, JIT)
        assert got[0].dtype == want[0].dtype == dtype and np.array_equal(got[1], want[1])
        assert np.array_equal(got[0][got[1]], want[0][want[1]])
        for k in range(g.count):
            counted = [int(values[i]) for i in range(g.first[k], g.last[k] + 1) if rows[i]]
            assert bool(want[1][k]) == bool(counted)
            if counted:
                assert int(want[0][k]) == (max if largest else min)(counted)


def _table(data, n: int) -> pa.Table:
    ints = st.one_of(st.none(), st.sampled_from([-2**63, 2**63 - 1, 0, 1, -1]), st.integers(-2**63, 2**63 - 1))
    return pa.table({
        "k": pa.array(range(n), type=pa.int64()),     # stands for the key (the grouping comes from starts)
        "v": pa.array(data.draw(st.lists(ints, min_size=n, max_size=n)), type=pa.int64()),
        "i": pa.array(data.draw(st.lists(st.one_of(st.none(), st.integers(-2**31, 2**31 - 1)), min_size=n,
                                         max_size=n)), type=pa.int32()),
        "s": pa.array(data.draw(st.lists(st.one_of(st.none(), st.sampled_from(["", "a", "bb", "déjà"])),
                                         min_size=n, max_size=n)), type=pa.string()),
        "d": pa.array(data.draw(st.lists(st.one_of(st.none(), st.sampled_from([-0.0, 0.0, math.nan, math.inf,
                                                                              -math.inf, 1.5, -2.25])),
                                         min_size=n, max_size=n)), type=pa.float64()),
    })


def _java_order(x: float):
    """Java's ``Double.compare`` order: -0.0 below 0.0, NaN above everything."""
    return (1, 0.0, 0.0) if math.isnan(x) else (0, x, math.copysign(1.0, x))


def _merge(table, order, kinds, starts, spec, jit):
    """merge_sorted with the compiled kernels (``jit``) or numpy; the result or the refusal's message."""
    saved = groups.kernels.jit_kernels
    groups.kernels.jit_kernels = lambda records: JIT if jit else None   # type: ignore[assignment]
    try:
        return engines.merge_sorted(table, order, kinds, starts, spec, "t")
    except UnsupportedTypeError as exc:
        return str(exc)
    finally:
        groups.kernels.jit_kernels = saved


def _model(table, order, kinds, starts, spec):
    """Paimon 1.4.2's merge, one record at a time (ReducerMergeFunctionWrapper + the engine's merge function)."""
    rows = table.to_pylist()
    fields = table.column_names
    out = []
    bounds = [*np.flatnonzero(starts), len(starts)]
    for a, b in zip(bounds[:-1], bounds[1:], strict=True):
        records = [(int(kinds[i]), rows[order[i]]) for i in range(a, b)]
        if len(records) == 1:
            kind, row = records[0]
            if kind in (0, 2):
                out.append(row)
            continue
        if spec.engine == "partial-update":
            row = dict.fromkeys(fields)
            removing = [kind == 3 and spec.partial_update_remove_on_delete and not spec.ignore_delete
                        for kind, _ in records]
            for i, (kind, rec) in enumerate(records):
                if kind in (1, 3):
                    if not spec.ignore_delete and not spec.partial_update_remove_on_delete:
                        raise UnsupportedTypeError("partial-update delete")
                    if i == 0 or removing[i]:   # seeds the row with all its fields
                        row = dict(rec)
                    continue
                row.update({f: v for f, v in rec.items() if v is not None})
            if any(k in (0, 2) for k, _ in records) and not removing[-1]:
                out.append(row)
            continue
        row = {f: None for f in fields}
        row["k"] = records[0][1]["k"]
        for f, func in spec.aggregates.items():
            acc = None
            for kind, rec in records:
                retract = kind in (1, 3)
                if retract and f in spec.ignore_retract:
                    continue
                v = rec[f]
                if func in ("sum", "product"):
                    if v is None:
                        continue
                    if retract and func == "product":
                        raise UnsupportedTypeError("modelled without product retractions")
                    if acc is None:
                        acc = -v if retract else v
                    else:
                        acc = acc * v if func == "product" else acc - v if retract else acc + v
                elif func in ("min", "max"):
                    if v is not None:
                        pick = max if func == "max" else min
                        acc = v if acc is None else pick(acc, v, key=_java_order if f == "d" else None)
                elif func == "last_value":
                    acc = None if retract else v
                elif v is not None:   # last_non_null_value
                    acc = None if retract else v
            if func in ("sum", "product") and isinstance(acc, int):
                bits = 64 if f == "v" else 32
                acc = (acc + (1 << (bits - 1))) % (1 << bits) - (1 << (bits - 1))
            row[f] = acc
        out.append(row)
    return out


def _rows(result):
    """A merge's rows (or refusal) comparable exactly: floats by their repr (NaN, -0.0), sorted by ``k``."""
    if isinstance(result, str):
        return result
    rows = result if isinstance(result, list) else result.to_pylist()
    return sorted(([(f, repr(v) if isinstance(v, float) else v) for f, v in sorted(r.items())] for r in rows),
                  key=lambda r: dict(r)["k"])


ENGINE_SPECS = [
    MergeSpec("partial-update", ("k",)),
    MergeSpec("partial-update", ("k",), ignore_delete=True),
    MergeSpec("partial-update", ("k",), partial_update_remove_on_delete=True),
    MergeSpec("aggregation", ("k",), aggregates={"v": "sum", "i": "sum", "s": "last_non_null_value", "d": "sum"}),
    MergeSpec("aggregation", ("k",), aggregates={"v": "product", "i": "sum", "s": "last_value", "d": "sum"}),
    MergeSpec("aggregation", ("k",), aggregates={"v": "sum", "i": "product", "s": "last_non_null_value",
                                                 "d": "last_value"}, ignore_retract=("i", "s")),
    MergeSpec("aggregation", ("k",), aggregates={"v": "max", "i": "min", "d": "max", "s": "last_non_null_value"},
              ignore_retract=("v", "i", "d")),
    MergeSpec("aggregation", ("k",), aggregates={"v": "min", "i": "max", "d": "min", "s": "last_value"},
              ignore_retract=("v", "i", "d")),
    MergeSpec("deduplicate", ("k",)),
    MergeSpec("deduplicate", ("k",), ignore_delete=True),
    MergeSpec("first-row", ("k",), ignore_delete=True),
]


@SETTINGS
@pytest.mark.parametrize("spec", ENGINE_SPECS, ids=lambda s: f"{s.engine}:{s.ignore_delete}:"
                         f"{s.partial_update_remove_on_delete}:{sorted(s.aggregates.items())}")
@given(runs=sorted_runs(), inserts_only=st.booleans(), data=st.data())
def test_engines_compiled_match_numpy_and_paimon(spec, runs, inserts_only, data):
    starts, order = runs
    n = len(starts)
    table = _table(data, n)
    kinds = np.array(data.draw(st.lists(st.sampled_from((0, 2) if inserts_only else KINDS), min_size=n,
                                        max_size=n)), dtype=np.int8)
    numpy_result = _merge(table, order, kinds, starts, spec, jit=False)
    compiled = _merge(table, order, kinds, starts, spec, jit=True)
    assert _rows(compiled) == _rows(numpy_result)
    if spec.engine in ("deduplicate", "first-row"):
        return
    try:
        model = _model(table, order, kinds, starts, spec)
    except UnsupportedTypeError:
        assert isinstance(numpy_result, str) or spec.aggregates.get("v") == "product"
        return
    assert not isinstance(numpy_result, str), numpy_result
    assert _rows(numpy_result) == _rows(model)


def test_rent_or_buy_and_missing_numba_fall_back_to_numpy(monkeypatch):
    """Merges count the records they group toward loading (tests/test_jit.py has the rules); without numba a
    merge still answers."""
    monkeypatch.delenv(JIT_ENV, raising=False)
    monkeypatch.setenv(NO_JIT_ENV, "0")
    monkeypatch.setattr(kernels.KERNELS, "module", None)
    monkeypatch.setattr(kernels.KERNELS, "work_done", 0)
    assert kernels.jit_kernels(kernels.KERNELS.after - 1) is None
    assert kernels.jit_kernels(1) is JIT, "loaded once the process has grouped enough records"
    monkeypatch.setattr(kernels.KERNELS, "module", None)
    monkeypatch.setattr(kernels.KERNELS, "failed", False)
    monkeypatch.setitem(sys.modules, "paimon_codec.reading.merge._jit", None)  # import raises ImportError
    assert kernels.jit_kernels(1 << 30) is None
    starts = np.array([True, False, True])
    spec = MergeSpec("partial-update", ("k",))
    table = pa.table({"k": [1, 2, 3], "v": [5, None, None]})
    merged = engines.merge_sorted(table, np.array([0, 1, 2]), np.zeros(3, dtype=np.int8), starts, spec)
    assert merged.to_pylist() == [{"k": 2, "v": 5}, {"k": 3, "v": None}]


def test_import_and_small_merges_do_not_load_numba():
    code = ("import sys, numpy as np, pyarrow as pa\n"
            "from paimon_codec.reading.merge.engines import merge_sorted\n"
            "from paimon_codec.table.merge_spec import MergeSpec\n"
            "t = pa.table({'k': [1, 1], 'v': [1, None]})\n"
            "m = merge_sorted(t, np.array([0, 1]), np.zeros(2, dtype=np.int8), np.array([True, False]),\n"
            "                 MergeSpec('partial-update', ('k',)))\n"
            "assert m.to_pylist() == [{'k': 1, 'v': 1}]\n"
            "print('numba' in sys.modules)\n")
    env = {k: v for k, v in os.environ.items() if k not in (NO_JIT_ENV, JIT_ENV)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "False"
