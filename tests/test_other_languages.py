"""Every golden file parses to the same field values in the Construct codec, the Python Kaitai parser, the
generated JavaScript parser (node) and the generated Java parser (JVM) - all four from the same schemas/*.ksy.

The JavaScript and Java parsers run as one batch process each (tests/oracles/kaitai_langs.py), dump their
field trees as JSON, and :func:`oracles.kaitai_langs.tree_to_plain` maps a tree onto the Construct codec's
plain shape through the normaliser the Python Kaitai parser uses.  The payloads inside the 0.9 file-index
containers are checked too (their key types come from the sidecars), and so is every BinaryRow of the 0.9
binary_row sidecars.

Two differences are the targets' number types, allowed here and documented in docs/other-languages.md:
JavaScript reads ``u8`` / ``s8`` as a double (exact up to 2**53, then the nearest double; for arrays of them,
the roaring bitmap-container words, the dumper also sends the bytes read, and the words are checked to be the
nearest doubles of those and replaced by them), and Java reads
``u8`` as a signed ``long`` (read back as unsigned by :func:`oracles.kaitai_langs.objects`, as a Java user
does with ``Long.toUnsignedString``).  The JavaScript runtime's wrong negative
``s8`` (off by 2**32) is fixed by generated/javascript/KaitaiStreamFixes.js, which the dumper loads.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from conftest import GOLDEN, GOLDEN_09, GOLDEN_LATEST, latest_cases, load_json
from oracles.kaitai_langs import TreeError, run_jobs, tree_to_plain

from paimon_codec import formats as F

pytestmark = pytest.mark.skipif(not GOLDEN.is_dir(), reason=f"golden vectors not found at {GOLDEN}")

KIND_TO_FORMAT = {"bitmap": "bitmap", "range-bitmap": "range-bitmap", "bsi": "bsi", "bloom-filter": "bloom-filter",
                  "dv-bin": "deletion-vector", "dv-file": "deletion-vectors", "hash-index": "hash-index",
                  "file-index-container": "file-index"}
#: container index types whose payload has a format of its own here
PAYLOAD_FORMATS = {"bitmap": "bitmap", "bloom-filter": "bloom-filter", "range-bitmap": "range-bitmap", "bsi": "bsi"}


def _golden_files() -> list[tuple[str, str, Path, str | None, dict[str, str]]]:
    """(id, format, file, key kind, column types of a container) of every golden index file, and the 0.9
    BinaryRow sidecars (format ``binary-row``: each row's bytes are a job of their own)."""
    out: list[tuple[str, str, Path, str | None, dict[str, str]]] = []
    if GOLDEN_LATEST.is_dir():
        for case in latest_cases():
            fmt = KIND_TO_FORMAT[case["kind"]]
            side = load_json(case["json"])
            kk = F.key_kind_for(side["type_root"]) if F.get(fmt).needs_key_kind else None
            cols = side.get("columns")
            types = {c["name"]: c["type"] for c in cols} if isinstance(cols, list) else {}
            out.append((f"latest/{case['case']}", fmt, Path(case["file"]), kk, types))
    if GOLDEN_09.is_dir():
        for p in sorted((GOLDEN_09 / "file_index").glob("*.index")):
            side_path = p.with_suffix(".json")
            side = load_json(side_path if side_path.exists() else p.with_suffix(".json.gz"))
            out.append((f"0.9/{p.name}", "file-index", p, None, {c["name"]: c["type"] for c in side["columns"]}))
        for sub, fmt in (("deletion_vectors", "deletion-vectors"), ("hash_index", "hash-index")):
            out += [(f"0.9/{p.name}", fmt, p, None, {}) for p in sorted((GOLDEN_09 / sub).glob("index-*"))]
        root = GOLDEN_09 / "warehouse" / "warehouse" / "golden.db"
        for p in sorted(root.glob("*/index/index-*")) + sorted(root.glob("*/bucket-*/*.index")):
            fmt = "file-index" if p.suffix == ".index" else (F.detect(p.read_bytes()) or "hash-index")
            out.append((f"0.9/warehouse/{p.parent.parent.name}/{p.name}", fmt, p, None, {}))
        out += [(f"0.9/binary_row/{p.stem}", "binary-row", p, None, {})
                for p in sorted((GOLDEN_09 / "binary_row").glob("*.json"))]
    return out


GOLDEN_FILES = _golden_files()


class Job:
    """One parse: a format, the file, its key kind; the expected plain value comes from the Construct codec."""

    def __init__(self, name: str, fmt: str, path: Path, key_kind: str | None) -> None:
        self.name, self.fmt, self.path, self.key_kind = name, fmt, path, key_kind

    @property
    def schema_id(self) -> str:
        return F.get(self.fmt).schema_id

    def dumper_job(self) -> tuple[str, Path, list[str]]:
        return F.class_name(self.schema_id), self.path, [self.key_kind] if self.key_kind else []

    def construct_plain(self) -> Any:
        return F.plain(F.get(self.fmt).decode(self.path.read_bytes(), key_kind=self.key_kind), full_bytes=True)

    def python_kaitai_plain(self) -> Any:
        return F.plain(F.get(self.fmt).parse_kaitai(self.path.read_bytes(), key_kind=self.key_kind), full_bytes=True)


class RowJob(Job):
    """One BinaryRow of a 0.9 binary_row sidecar (schema binary_row, parameter ``arity``; not a file format)."""

    def __init__(self, name: str, path: Path, arity: int) -> None:
        super().__init__(name, "binary-row", path, None)
        self.arity = arity

    @property
    def schema_id(self) -> str:
        return "binary_row"

    def dumper_job(self) -> tuple[str, Path, list[str]]:
        return "BinaryRow", self.path, [f"i:{self.arity}"]

    def construct_plain(self) -> Any:
        from paimon_codec.generated.construct.binary_row import BinaryRow

        return F.plain(BinaryRow.parse(self.path.read_bytes(), arity=self.arity), full_bytes=True)

    def python_kaitai_plain(self) -> Any:
        from kaitaistruct import KaitaiStream

        from paimon_codec.generated.construct.binary_row import LAYOUT
        from paimon_codec.generated.kaitai.binary_row import BinaryRow
        from paimon_codec.kaitai_plain import kaitai_to_plain

        obj = BinaryRow(self.arity, KaitaiStream(io.BytesIO(self.path.read_bytes())))
        return F.plain(kaitai_to_plain(obj, LAYOUT, "binary_row"), full_bytes=True)


@pytest.fixture(scope="module")
def jobs(tmp_path_factory) -> dict[str, list[Job]]:
    """Per golden file: its own parse, then one per index payload inside a container (written to a tmp file)."""
    tmp = tmp_path_factory.mktemp("payloads")
    out: dict[str, list[Job]] = {}
    for n, (name, fmt, path, kk, types) in enumerate(GOLDEN_FILES):
        if fmt == "binary-row":
            side = load_json(path)
            out[name] = []
            for i, row in enumerate(side["rows"]):
                p = tmp / f"{n}-row{i}.bin"
                p.write_bytes(bytes.fromhex(row["binary_row_hex"]))
                out[name].append(RowJob(f"{name}[{i}]", p, len(side["key_types"])))
            continue
        out[name] = [Job(name, fmt, path, kk)]
        if fmt != "file-index" or not types:
            continue
        for c in F.get(fmt).decode(path.read_bytes())["columns"]:
            for i in c["indexes"]:
                sub = PAYLOAD_FORMATS.get(i["index_type"])
                if sub is None or i["payload"] is None or c["column_name"] not in types:
                    continue
                p = tmp / f"{n}-{len(out[name])}.bin"
                p.write_bytes(bytes(i["payload"]))
                kk = F.key_kind_for(types[c["column_name"]]) if F.get(sub).needs_key_kind else None
                out[name].append(Job(f"{name}/{c['column_name']}/{i['index_type']}", sub, p, kk))
    return out


def _all(jobs: dict[str, list[Job]]) -> list[Job]:
    return [j for js in jobs.values() for j in js]


@pytest.fixture(scope="module")
def js_trees(jobs, kaitai_js) -> dict[str, dict]:
    every = _all(jobs)
    return {j.name: a for j, a in zip(every, run_jobs(kaitai_js, [j.dumper_job() for j in every]), strict=True)}


@pytest.fixture(scope="module")
def java_trees(jobs, kaitai_java) -> dict[str, dict]:
    every = _all(jobs)
    return {j.name: a for j, a in zip(every, run_jobs(kaitai_java, [j.dumper_job() for j in every]), strict=True)}


def assert_agrees(want: Any, got: Any, lang: str, path: str = "$") -> None:
    """``got`` (another language's parse, normalised) equals ``want`` (the Construct codec's plain value)."""
    if isinstance(want, dict):
        assert isinstance(got, dict), f"{lang} {path}: {got!r} is not a record"
        assert want.keys() == got.keys(), f"{lang} {path}: keys {sorted(got)} != {sorted(want)}"
        for k in want:
            assert_agrees(want[k], got[k], lang, f"{path}.{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{lang} {path}: {len(got)} items != {len(want)}"
        for i, (w, g) in enumerate(zip(want, got, strict=True)):
            assert_agrees(w, g, lang, f"{path}[{i}]")
    elif isinstance(want, (int, float)) and not isinstance(want, bool) and isinstance(got, (int, float)):
        assert got == want or _target_number(want, got, lang), f"{lang} {path}: {got!r} != {want!r}"
    else:
        assert type(got) is type(want) and got == want, f"{lang} {path}: {got!r} != {want!r}"


def _target_number(want: int | float, got: int | float, lang: str) -> bool:
    """The two documented number-type differences of the targets (see the module doc)."""
    if isinstance(want, float):
        return float(got) == want  # JavaScript prints an integral double as an integer
    if not isinstance(got, int):
        return False
    return lang == "javascript" and abs(want) > 2**53 and float(got) == float(want)  # the nearest double


def _check(jobs: list[Job], trees: dict[str, dict], lang: str) -> None:
    for job in jobs:
        answer = trees[job.name]
        assert "ok" in answer, f"{lang} cannot parse {job.name}: {answer.get('error')}"
        try:
            got = F.plain(tree_to_plain(answer["ok"], job.schema_id, lang), full_bytes=True)
        except TreeError as e:
            pytest.fail(f"{lang} {job.name}: {e}")
        assert_agrees(job.construct_plain(), got, lang, job.name)


IDS = [pytest.param(name, id=name) for name, *_ in GOLDEN_FILES]


@pytest.mark.parametrize("name", IDS)
def test_javascript_parses_like_construct(name, jobs, js_trees):
    _check(jobs[name], js_trees, "javascript")


@pytest.mark.parametrize("name", IDS)
def test_java_parses_like_construct(name, jobs, java_trees):
    _check(jobs[name], java_trees, "java")


@pytest.mark.parametrize("name", IDS)
def test_python_kaitai_parses_like_construct(name, jobs):
    for job in jobs[name]:
        assert_agrees(job.construct_plain(), job.python_kaitai_plain(), "python-kaitai", job.name)


def test_every_golden_format_is_covered():
    """The cross-check reaches every format the goldens hold, nested payloads included (no silent gaps)."""
    fmts = {fmt for _, fmt, *_ in GOLDEN_FILES}
    assert {"bitmap", "range-bitmap", "bsi", "bloom-filter", "deletion-vector", "deletion-vectors", "hash-index",
            "file-index", "binary-row"} <= fmts
    assert any(types for *_, types in GOLDEN_FILES if types)


# ---------------------------------------------------------------------------------------------
# varint (global-index files, no golden file yet): the value instance across the integer widths

VARINT_VALUES = [0, 127, 128, 2**31 - 1, 2**31, 2**32 + 5, 2**35 + 3, 2**53 - 1, 2**62 + 1, 2**63 - 1, 2**63,
                 2**64 - 1]


@pytest.fixture(scope="module")
def varint_files(tmp_path_factory) -> list[tuple[int, Path]]:
    from paimon_codec.codec_runtime.varint import fast_build_varint

    tmp = tmp_path_factory.mktemp("varints")
    out = []
    for v in VARINT_VALUES:
        p = tmp / f"{v}.bin"
        p.write_bytes(fast_build_varint(v))
        out.append((v, p))
    return out


def _varint_values(command, files: list[tuple[int, Path]]) -> list[int]:
    answers = run_jobs(command, [("Varint", p, []) for _, p in files])
    return [a["ok"]["value"] if "ok" in a else a["error"] for a in answers]


def test_varint_value_in_javascript(varint_files, kaitai_js):
    got = _varint_values(kaitai_js, varint_files)
    want = [float(v) for v, _ in varint_files]  # a Number: the nearest double
    assert [float(g) for g in got] == want


def test_varint_value_in_java(varint_files, kaitai_java):
    got = _varint_values(kaitai_java, varint_files)
    assert got == [v if v < 2**63 else v - 2**64 for v, _ in varint_files]  # a long (u8: signed view)


def test_varint_value_in_python_kaitai(varint_files):
    from kaitaistruct import KaitaiStream

    from paimon_codec.generated.kaitai.varint import Varint

    got = [Varint(KaitaiStream(io.BytesIO(p.read_bytes()))).value for _, p in varint_files]
    assert got == [v for v, _ in varint_files]
