"""Fuzz entry points: every place paimon-codec takes untrusted bytes, each followed by the queries a user
would run on what decoded (lazy readers fail late).

A :class:`Target` has seeds (golden files written by Paimon Java, files our writers make, the golden
warehouse's metadata) and a ``run(data, meta)`` that drives the public API end to end.  ``run`` returning
is "ok" once the answers it got pass :mod:`fuzz.answers` (relations every real index satisfies, or a reference
decoding); a :class:`~paimon_codec.errors.PaimonCodecError` is the documented refusal; anything else - a
foreign exception or a wrong answer - is a finding.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fuzz.answers import check_dv, check_hash_index, check_index_answers
from fuzz.mutate import mutate_avro, mutate_bytes, mutate_json

REPO = Path(__file__).resolve().parents[2]
GOLDEN = Path(os.environ.get("PAIMON_GOLDEN", REPO.parent / "shared" / "golden")).resolve()
LATEST, G09 = GOLDEN / "paimon-latest", GOLDEN / "paimon-0.9"
WAREHOUSE = G09 / "warehouse" / "warehouse" / "golden.db"


@dataclass
class Seed:
    data: bytes
    meta: dict = field(default_factory=dict)


@dataclass
class Target:
    name: str
    seeds: Callable[[], list[Seed]]
    run: Callable[[bytes, dict], Any]
    kind: str = "bytes"  # bytes | json | avro: which structure-aware mutator applies
    _cache: list[Seed] | None = None

    def corpus(self) -> list[Seed]:
        if self._cache is None:
            self._cache = self.seeds()
            if not self._cache:
                raise RuntimeError(f"fuzz target {self.name}: no seeds under {GOLDEN}")
        return self._cache

    def warm_up(self) -> None:
        """Run the seeds (imports, thread pools, caches) and load every compiled kernel set, none of it counted
        against an input's time: a set the library loads mid-input (its rent-or-buy count reached, e.g. by a
        large declared row count) would compile under that input's time limit, a hang it is not."""
        import importlib

        from paimon_codec.fileindex.bloom._kernel import KERNELS as bloom_kernels
        from paimon_codec.fileindex.range_bitmap._compiled import KERNELS as range_kernels
        from paimon_codec.reading.merge.kernels import KERNELS as merge_kernels

        for s in self.corpus():
            try:
                self.run(s.data, s.meta)
            except Exception:  # noqa: BLE001,S110 - a seed may itself be refused (e.g. an unsupported case)
                pass
        for kernels in (bloom_kernels, range_kernels, merge_kernels):
            with contextlib.suppress(Exception):  # no numba: the library stays on its reference paths
                importlib.import_module(kernels.module_name)

    def mutate(self, seed: Seed, rnd: random.Random) -> bytes:
        others = [s.data for s in self.corpus()]
        kind = seed.meta.get("kind", self.kind)
        if kind == "json" and rnd.random() < 0.7:
            return mutate_json(seed.data, rnd, others)
        if kind == "avro" and rnd.random() < 0.6 and "wide" in seed.meta:
            for _ in range(3):  # a value the widened schema cannot encode (inside an array): another try
                try:
                    return mutate_avro(seed.meta["wide"], seed.meta["records"], rnd)
                except (ValueError, TypeError, OverflowError):
                    continue
        return mutate_bytes(seed.data, rnd, others)


def _sidecar(path: Path) -> dict:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return json.load(fh)


def _latest(kind: str) -> list[tuple[bytes, dict]]:
    index = _sidecar(LATEST / "index.json")
    return [((LATEST / c["file"]).read_bytes(), _sidecar(LATEST / c["json"]))
            for c in index["cases"] if c["kind"] == kind]


# ------------------------------------------------------------------------------------- index readers
def _literals(side: dict) -> list:
    from paimon_codec.types import parse_type
    from paimon_codec.values import from_json

    t = parse_type(side["type"])
    out = []
    for q in side.get("queries", []):
        if "literal" in q and q.get("literal") is not None and "literal_bits" not in q and "literal_hex" not in q:
            with contextlib.suppress(Exception):
                out.append(from_json(t, q["literal"]))
        if len(out) >= 3:
            break
    return out


def _index_seeds(kind: str) -> Callable[[], list[Seed]]:
    def load() -> list[Seed]:
        return [Seed(data, {"type": side["type"], "options": _options(side), "literals": _literals(side)})
                for data, side in _latest(kind)]
    return load


def _options(side: dict) -> dict:
    opts = side.get("options")
    return opts if isinstance(opts, dict) else {}


def _force(result: Any) -> None:
    """Evaluate a (lazy) result completely: its kind, cardinality and runs (as the arrays ``to_json`` lists;
    the lists themselves are output, as big as the answer, and not what the allocation bound is about)."""
    from paimon_codec.positions import run_arrays

    if result is not None and hasattr(result, "remain"):
        result.remain()
        if hasattr(result, "bitmap"):
            run_arrays(result.bitmap)


def _run_index(index_type: str) -> Callable[[bytes, dict], None]:
    def run(data: bytes, meta: dict) -> None:
        from paimon_codec.fileindex.registry import create_reader
        from paimon_codec.fileindex.topn import top_n_rows
        from paimon_codec.fileio import ByteSource
        from paimon_codec.positions import run_arrays

        reader = create_reader(index_type, ByteSource(data), meta["type"], meta["options"])
        lits = meta["literals"]
        for lit in lits[:2]:
            _force(reader.visit_equal(lit))
            _force(reader.visit_not_equal(lit))
        if lits:
            _force(reader.visit_in(lits))
            _force(reader.visit_not_in(lits))
        _force(reader.visit_is_null())
        _force(reader.visit_is_not_null())
        if index_type in ("range-bitmap", "bsi") and lits:
            _force(reader.visit_lt(lits[0]))
            _force(reader.visit_gte(lits[0]))
            _force(reader.visit_between(min(lits), max(lits)))
            for desc in (True, False):
                run_arrays(top_n_rows(reader, 3, desc, not desc, True))
        check_index_answers(reader, index_type, lits)
    return run


# ------------------------------------------------------------------------------------------- container
def _container_seeds() -> list[Seed]:
    from paimon_codec.types import parse_row_type

    out = []
    for data, side in _latest("file-index-container"):
        if "schema" not in side:
            out.append(Seed(data, {"schema": None, "predicates": []}))
            continue
        schema = parse_row_type([{"name": c["name"], "type": c["type"]} for c in side["schema"]])
        preds = [p["predicate"] for p in side.get("predicates", [])[:6]]
        out.append(Seed(data, {"schema": schema, "predicates": preds}))
    for p in sorted((G09 / "file_index").glob("*.index"))[:6]:
        out.append(Seed(p.read_bytes(), {"schema": None, "predicates": []}))
    return out


def _run_container(data: bytes, meta: dict) -> None:
    from paimon_codec.expressions import predicate_from_json
    from paimon_codec.fileindex import evaluate
    from paimon_codec.fileindex.container import FileIndexContainerReader

    container = FileIndexContainerReader(data)
    if meta["schema"] is None:
        return
    for obj in meta["predicates"]:
        _force(evaluate(predicate_from_json(obj, meta["schema"]), container, meta["schema"]))


# --------------------------------------------------------------------------------- deletion vectors
def _dv_bin_seeds() -> list[Seed]:
    return [Seed(data) for data, _ in _latest("dv-bin")]


def _run_dv_entry(data: bytes, meta: dict) -> None:
    from paimon_codec.dv.index_file import read_entry

    check_dv(read_entry(data).dv)


def _dv_file_seeds() -> list[Seed]:
    out = []
    for data, side in _latest("dv-file"):
        ranges = [(r["data_file"], r["offset"], r["length"]) for r in side.get("dv_ranges", [])]
        out.append(Seed(data, {"ranges": ranges}))
    for p in sorted((G09 / "deletion_vectors").glob("index-*"))[:4]:
        out.append(Seed(p.read_bytes(), {"ranges": []}))
    return out


def _run_dv_file(data: bytes, meta: dict) -> None:
    from paimon_codec.dv.index_file import read_deletion_vectors, read_dv_index

    for e in read_dv_index(data).entries:
        check_dv(e.dv)
    for dv in read_deletion_vectors(data, meta["ranges"]).values():
        check_dv(dv)


def _dvs_of_goldens() -> dict:
    from paimon_codec.dv.index_file import read_dv_index

    dvs = {}
    for i, (data, _) in enumerate(_latest("dv-file")[:2]):
        for j, e in enumerate(read_dv_index(data).entries):
            dvs[f"data-{i}-{j}.parquet"] = e.dv
    return dvs


def _puffin_seeds() -> list[Seed]:
    from paimon_codec.dv.puffin import encode_puffin

    dvs = _dvs_of_goldens()
    return [Seed(encode_puffin(dvs)[0]), Seed(encode_puffin(dict(list(dvs.items())[:1]))[0])]


def _run_puffin(data: bytes, meta: dict) -> None:
    from paimon_codec.dv.puffin import read_puffin

    for blob in read_puffin(data):
        check_dv(blob.dv)


def _delete_map_seeds() -> list[Seed]:
    from paimon_codec.dv.delete_map import encode_delete_map

    dvs = _dvs_of_goldens()
    return [Seed(encode_delete_map(dvs)[0]), Seed(encode_delete_map(dict(list(dvs.items())[:1]))[0])]


def _run_delete_map(data: bytes, meta: dict) -> None:
    from paimon_codec.dv.delete_map import read_delete_map

    for dv in read_delete_map(data).values():
        check_dv(dv)


def _run_hash(data: bytes, meta: dict) -> None:
    from paimon_codec.bucket.hash_index import read_hash_index

    check_hash_index(data, read_hash_index(data))


from fuzz.targets_table import (  # noqa: E402 - needs Seed / Target / _force above
    _avro_seeds,
    _cli_seeds,
    _json_seeds,
    _run_cli,
    _run_metadata,
    _run_schema,
    _run_snapshot,
    _run_table,
    _table_seeds,
)

TARGETS: dict[str, Target] = {t.name: t for t in [
    Target("bitmap", _index_seeds("bitmap"), _run_index("bitmap")),
    Target("bloom-filter", _index_seeds("bloom-filter"), _run_index("bloom-filter")),
    Target("range-bitmap", _index_seeds("range-bitmap"), _run_index("range-bitmap")),
    Target("bsi", _index_seeds("bsi"), _run_index("bsi")),
    Target("container", _container_seeds, _run_container),
    Target("dv-entry", _dv_bin_seeds, _run_dv_entry),
    Target("dv-file", _dv_file_seeds, _run_dv_file),
    Target("puffin", _puffin_seeds, _run_puffin),
    Target("delete-map", _delete_map_seeds, _run_delete_map),
    Target("hash-index", lambda: [Seed(d) for d, _ in _latest("hash-index")], _run_hash),
    Target("schema-json", _json_seeds("schema"), _run_schema, kind="json"),
    Target("snapshot-json", _json_seeds("snapshot"), _run_snapshot, kind="json"),
    Target("manifest", _avro_seeds("manifest-", exclude="manifest-list"), _run_metadata("manifest"), kind="avro"),
    Target("manifest-list", _avro_seeds("manifest-list"), _run_metadata("manifest-list"), kind="avro"),
    Target("index-manifest", _avro_seeds("index-manifest"), _run_metadata("index-manifest"), kind="avro"),
    Target("table", _table_seeds, _run_table),
    Target("cli", _cli_seeds, _run_cli),
]}
