"""Schema discipline, as in the Kaitai format gallery: every ``schemas/*.ksy`` says where its layout comes
from and names things the way its authors do.

* ``meta.license`` on every schema; ``meta.file-extension`` where the format is a file with one;
* ``doc-ref`` to the sources the layout was read from: Paimon's at a pinned release tag (the Java oracle's
  release), the format's own spec otherwise, and the section of ``docs/FORMATS.md`` (inside the repo);
* ``-orig-id`` with Paimon's own Java name on every scalar field of a Paimon-defined layout (listed
  exceptions say why Java has no name);
* versions and kinds as ``enums`` checked by ``valid``; magics as ``contents`` or an enum-checked ``valid``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
SCHEMAS = sorted((REPO / "schemas").glob("*.ksy"))
PAIMON_TAG = "release-1.4.2"
#: layouts Paimon defines (the others: RoaringFormatSpec, Iceberg Puffin, the never-shipped DELETE_MAP proposal)
PAIMON = {"bitmap_index", "bloom_filter", "bsi", "deletion_vector", "deletion_vectors", "file_index", "hash_index",
          "paimon_key", "range_bitmap", "btree_global_index", "btree_global_index_key", "sorted_index_file_meta",
          "varint", "blob_file", "blob_descriptor"}
EXTENSIONS = {"file_index": "index", "puffin": "puffin", "btree_global_index": "index", "bitmap_global_index": "index",
              "blob_file": "blob"}  # the others are payloads, or files named without one
#: (schema, type or None for the root, field) -> why Paimon's sources have no name for it
NO_JAVA_NAME = {
    ("file_index", "java_utf", "len"): "DataOutput.writeUTF's own length prefix",
    ("paimon_key", "binary_string", "len"): "the key serializer writes bytes.length, unnamed",
    ("deletion_vector", "dv64_bin", "bitmap_count"): "the 64-bit bitmap's own serialisation (bucket count)",
    ("deletion_vector", "dv64_bucket", "key"): "the 64-bit bitmap's own serialisation (high 32 bits)",
}
VERSION_OR_KIND = re.compile(r"(^|_)(version|kind)$")
#: versions not checked by ``valid`` -> why (the reader checks them against the generated enum constant)
VERSION_CHECKED_BY_READER = {
    ("bsi", "bsi_part", "version"): "Java accepts every version <= 1 (a `valid: max`, not translated yet); "
                                    "fileindex.bsi refuses > BSI_PART_VERSION_V1",
    ("range_bitmap", "chunk", "version"): "chunk headers are also a record dtype (CHUNK_DTYPES) that cannot carry "
                                          "a check; the dictionary reader refuses > CHUNK_VERSION_V1",
}
#: schemas without a source URL -> why
NO_SOURCE = {"delete_map": "a proposal (seed 003) that never shipped: docs/FORMATS.md 6.4 is its only record"}


def _load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _fields(schema: dict):
    """(type name or None, field) of every seq field."""
    for f in schema.get("seq", []) or []:
        yield None, f
    for name, t in (schema.get("types") or {}).items():
        for f in t.get("seq", []) or []:
            yield name, f


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.stem)
def test_meta_license_and_extension(path):
    meta = _load(path)["meta"]
    assert meta.get("license") == "Apache-2.0", path.stem
    assert meta.get("file-extension") == EXTENSIONS.get(path.stem), path.stem


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.stem)
def test_doc_ref_points_at_pinned_sources_and_the_repo_docs(path):
    refs = _load(path).get("doc-ref")
    refs = [refs] if isinstance(refs, str) else refs
    assert refs, f"{path.stem}: no doc-ref"
    for r in refs:
        if "github.com/apache/paimon/" in r:
            assert f"/blob/{PAIMON_TAG}/" in r, r  # pinned, never a moving branch
    urls = [r for r in refs if r.startswith("https://")]
    assert urls or path.stem in NO_SOURCE, f"{path.stem}: doc-ref names no source"
    if path.stem in PAIMON:
        assert any("github.com/apache/paimon/blob/" in r for r in urls), path.stem
    for r in refs:
        m = re.match(r"docs/FORMATS\.md section (\d+)", r)
        if m:
            assert re.search(rf"^## {m.group(1)}\.", (REPO / "docs" / "FORMATS.md").read_text(), re.M), r


@pytest.mark.parametrize("path", [p for p in SCHEMAS if p.stem in PAIMON], ids=lambda p: p.stem)
def test_scalar_fields_carry_paimon_names(path):
    schema = _load(path)
    missing = []
    for tname, f in _fields(schema):
        scalar = isinstance(f.get("type"), str) and re.fullmatch(r"[su][1248](be|le)?", f["type"])
        if scalar and "repeat" not in f and "-orig-id" not in f and (path.stem, tname, f["id"]) not in NO_JAVA_NAME:
            missing.append(f"{tname or '<root>'}.{f['id']}")
        if "-orig-id" in f:
            assert re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.()]*", str(f["-orig-id"])), f
    assert not missing, f"{path.stem}: fields without -orig-id: {missing}"


def test_listed_exceptions_exist():
    for (sid, tname, fid), why in NO_JAVA_NAME.items():
        schema = _load(REPO / "schemas" / f"{sid}.ksy")
        assert why and any(t == tname and f["id"] == fid for t, f in _fields(schema)), (sid, tname, fid)


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.stem)
def test_versions_are_enums_checked_by_valid_and_magics_are_checked(path):
    schema = _load(path)
    enums = set(schema.get("enums") or {})
    for tname, f in _fields(schema):
        fid = f["id"]
        if (VERSION_OR_KIND.search(fid) and isinstance(f.get("type"), str)
                and (path.stem, tname, fid) not in VERSION_CHECKED_BY_READER):
            valid = f.get("valid")
            assert valid, f"{path.stem}.{tname}.{fid}: a version without valid"
            text = str(valid)
            assert any(f"{e}::" in text for e in enums), f"{path.stem}.{tname}.{fid}: valid not from an enum"
        if "magic" in fid:
            assert "contents" in f or any(f"{e}::" in str(f.get("valid", "")) for e in enums), \
                f"{path.stem}.{tname}.{fid}: a magic neither contents nor an enum-checked valid"


def test_the_facts_sheet_the_schemas_cite_is_in_the_repo():
    text = (REPO / "docs" / "FORMATS.md").read_text()
    for path in SCHEMAS:
        for m in re.finditer(r"FORMATS\.md (\d+)", path.read_text()):
            assert re.search(rf"^## {m.group(1)}\.", text, re.M), (path.stem, m.group(0))
