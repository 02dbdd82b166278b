"""Top-N against a sort-based reference (range bitmap and BSI), plus the CLI subcommand."""

from __future__ import annotations

import argparse
import json

import numpy as np
import pytest
from conftest import GOLDEN_LATEST, load_json
from pyroaring import BitMap

from paimon_codec.cli.index_topn import register_topn
from paimon_codec.errors import InvalidPredicateError
from paimon_codec.fileindex.bsi import BsiReader, BsiWriter
from paimon_codec.fileindex.range_bitmap import RangeBitmapReader, RangeBitmapWriter
from paimon_codec.fileindex.topn import answer_topn_query, oneil_top_k, top_n_rows
from paimon_codec.positions import positions_from_json, positions_to_json


def reference(values, k, descending, nulls_first, strict, found=None, all_null_quirk=True):
    """ORDER BY value LIMIT k by sorting, with Paimon's tie rule (strict keeps the largest positions
    among rows tied with the k-th value) and null placement."""
    if all_null_quirk and all(v is None for v in values):
        return BitMap(range(len(values)))  # range bitmap: no non-null value => every (null) row
    cand = range(len(values)) if found is None else sorted(found)
    nn = [r for r in cand if values[r] is not None]
    nulls = [r for r in cand if values[r] is None]

    def top(n):
        if n <= 0:
            return set()
        if len(nn) <= n:
            return set(nn)
        order = sorted(nn, key=lambda r: values[r], reverse=descending)
        vk = values[order[n - 1]]
        better = {r for r in nn if (values[r] > vk if descending else values[r] < vk)}
        ties = sorted(r for r in nn if values[r] == vk)
        if strict:
            return better | set(ties[len(ties) - (n - len(better)):])
        return better | set(ties)

    if not nulls_first:
        out = top(k)
        if len(out) < k:
            out |= set(nulls[:k - len(out)]) if strict else set(nulls)
        return BitMap(out)
    if strict and len(nulls) >= k:
        return BitMap(nulls[:k])
    return BitMap(set(nulls) | top(k - len(nulls)))


def _readers(values, kind):
    if kind == "range-bitmap":
        w = RangeBitmapWriter("BIGINT", {"chunk-size": "32b"})
        w.write_batch(values)
        return RangeBitmapReader(w.serialize(), "BIGINT")
    w = BsiWriter("BIGINT")
    w.write_batch(values)
    return BsiReader(w.serialize(), "BIGINT")


@pytest.mark.parametrize("kind", ["range-bitmap", "bsi"])
@pytest.mark.parametrize("seed", range(6))
def test_top_n_matches_sorting(kind, seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 120))
    spread = int(rng.choice([3, 40, 10**9]))
    values = [None if rng.random() < 0.15 else int(v) for v in rng.integers(-spread, spread, n)]
    if seed == 5:
        values = [None] * n
    reader = _readers(values, kind)
    for k in (0, 1, 2, 5, 17, n, n + 3):
        for found in (None, BitMap(np.flatnonzero(rng.random(n) < 0.6).astype(np.uint32))):
            for descending in (True, False):
                for nulls_first in (True, False):
                    for strict in (True, False):
                        got = top_n_rows(reader, k, descending, nulls_first, strict, found)
                        want = reference(values, k, descending, nulls_first, strict, found,
                                         all_null_quirk=kind == "range-bitmap")
                        assert got == want, (k, descending, nulls_first, strict, found)


def test_oneil_strict_ties_drop_smallest_positions():
    slices = [BitMap([1, 2, 3])]  # rows 1..3 hold value 1, row 0 holds 0
    got = oneil_top_k(1, lambda i: slices[i], BitMap([0, 1, 2, 3]), 2, largest=True, strict=True)
    assert got == BitMap([2, 3])
    got = oneil_top_k(1, lambda i: slices[i], BitMap([0, 1, 2, 3]), 2, largest=True, strict=False)
    assert got == BitMap([1, 2, 3])
    got = oneil_top_k(1, lambda i: slices[i], BitMap([0, 1, 2, 3]), 2, largest=False, strict=True)
    assert got == BitMap([0, 3])


def test_answer_topn_query_validates():
    reader = _readers([1, 2, None], "range-bitmap")
    with pytest.raises(InvalidPredicateError):
        answer_topn_query(reader, {"op": "eq", "k": 1})
    with pytest.raises(InvalidPredicateError):
        answer_topn_query(reader, {"op": "top_k"})
    with pytest.raises(InvalidPredicateError):
        answer_topn_query(reader, {"op": "top_k", "k": 1, "null_ordering": "SIDEWAYS"})
    res = answer_topn_query(reader, {"op": "top_k", "k": 1, "strict": True})
    assert res.to_dict() == {"kind": "BITMAP", "cardinality": 1, "ranges": [[1, 2]]}


def _parser():
    root = argparse.ArgumentParser()
    subs = root.add_subparsers(dest="cmd")
    register_topn(subs)
    return root


def test_cli_topn_answers_golden_queries(capsys):
    sidecar = load_json(GOLDEN_LATEST / "range_bitmap" / "range_int.json")
    path = str(GOLDEN_LATEST / "range_bitmap" / "range_int.bin")
    checked = 0
    for q in sidecar["queries"]:
        if q["op"] not in ("top_k", "bottom_k"):
            continue
        argv = ["topn", path, "--index-type", "range-bitmap", "--type", sidecar["type"], "--k", str(q["k"]),
                "--nulls", "first" if q["null_ordering"] == "NULLS_FIRST" else "last", "--json"]
        if q["op"] == "top_k":
            argv.append("--desc")
        if q["strict"]:
            argv.append("--strict")
        if q["found_set"] is not None:
            argv += ["--found-set", json.dumps(q["found_set"])]
        args = _parser().parse_args(argv)
        assert args.func(args) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["kind"] == "BITMAP"
        assert positions_from_json(out) == positions_from_json(q["result"])
        checked += 1
    assert checked == 80


def test_cli_topn_through_main(tmp_path, capsys):
    from paimon_codec import cli

    w = BsiWriter("INT")
    w.write_batch([5, -3, None, 9, 9, 0])
    path = tmp_path / "col.bsi"
    path.write_bytes(w.serialize())
    status = cli.main(["index", "topn", str(path), "--index-type", "bsi", "--type", "INT", "--k", "2",
                       "--desc", "--strict", "--json"])
    assert status == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"kind": "BITMAP", **positions_to_json(BitMap([3, 4]))}


@pytest.mark.parametrize("kind", ["range-bitmap", "bsi"])
def test_found_set_past_32_bits_is_refused(tmp_path, kind):
    """A found set reaching past 2**32 decodes as a 64-bit bitmap, which the 32-bit index bitmaps cannot
    combine with: refused as a bad predicate (it used to crash with a TypeError deep in top_n_rows)."""
    from paimon_codec import cli

    reader = _readers([5, -3, None, 9], kind)
    wide = {"ranges": [[0, 2**33]]}
    with pytest.raises(InvalidPredicateError, match="2\\*\\*32"):
        answer_topn_query(reader, {"op": "top_k", "k": 1, "found_set": wide})
    w = BsiWriter("INT")
    w.write_batch([5, -3, None, 9])
    path = tmp_path / "col.bsi"
    path.write_bytes(w.serialize())
    status = cli.main(["index", "topn", str(path), "--index-type", "bsi", "--type", "INT", "--k", "1",
                       "--found-set", json.dumps(wide)])
    assert status == 2
