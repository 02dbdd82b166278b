"""tools/generate.py: ``--check`` passes on the committed state, fails after any schema edit, and
says clearly when node is missing; the Kaitai expression translator."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def _tools_module(name: str):
    """A module of ``tools/`` (generate, kexpr), imported without leaving ``tools/`` on ``sys.path``: its
    ``fuzz.py`` would shadow the tests' ``fuzz`` package for every test module imported later."""
    import importlib  # noqa: PLC0415

    before = list(sys.path)
    sys.path.insert(0, str(REPO / "tools"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path[:] = before  # generate.py puts tools/ on the path itself, for fastgen and kexpr


kexpr = _tools_module("kexpr")

GENERATE = [sys.executable, str(REPO / "tools" / "generate.py")]
HAVE_NODE = shutil.which("node") is not None and (REPO / "tools" / "node_modules" / "kaitai-struct-compiler").is_dir()


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*GENERATE, *args], capture_output=True, text=True, env=env, timeout=600)


@pytest.mark.node
@pytest.mark.skipif(not HAVE_NODE, reason="node / kaitai-struct-compiler not installed (npm ci --prefix tools)")
def test_check_passes_on_committed_state():
    r = run("--check")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "up to date" in r.stdout


@pytest.mark.node
@pytest.mark.skipif(not HAVE_NODE, reason="node / kaitai-struct-compiler not installed (npm ci --prefix tools)")
@pytest.mark.parametrize(("schema", "edit"), [
    ("hash_index", lambda s: s.replace("type: s4", "type: u4")),                      # a type change
    ("bloom_filter", lambda s: s.replace("doc: k, the number", "doc: K, the number")),  # only a doc string
    ("bitmap_index", lambda s: s + "\n"),                        # whitespace only (the schema digest changes)
])
def test_check_fails_after_schema_edit(tmp_path, schema, edit):
    schemas = tmp_path / "schemas"
    shutil.copytree(REPO / "schemas", schemas)
    p = schemas / f"{schema}.ksy"
    before = p.read_text()
    after = edit(before)
    assert after != before
    p.write_text(after)
    r = run("--check", "--schemas", str(schemas))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "out of date" in r.stdout
    assert f"{schema}" in r.stdout


@pytest.mark.node
@pytest.mark.skipif(not HAVE_NODE, reason="node / kaitai-struct-compiler not installed")
def test_check_detects_missing_and_extra_files(tmp_path):
    schemas = tmp_path / "schemas"
    shutil.copytree(REPO / "schemas", schemas)
    (schemas / "extra_format.ksy").write_text(
        "meta:\n  id: extra_format\n  endian: be\nseq:\n  - id: x\n    type: u1\n    doc: a byte\n")
    r = run("--check", "--schemas", str(schemas))
    assert r.returncode == 1
    assert "missing: generated/construct/extra_format.py" in r.stdout


def test_check_without_node_says_so(tmp_path):
    env = dict(os.environ, PATH=str(tmp_path))  # neither node nor dot on PATH
    r = run("--check", env=env)
    assert r.returncode != 0
    assert "node is not installed" in r.stdout + r.stderr


def test_generate_into_fresh_tree_matches_committed(tmp_path):
    """The Construct codecs regenerate byte-identically (no node needed for this part)."""
    generate = _tools_module("generate")

    generate.gen_construct(REPO / "schemas", tmp_path)
    for p in sorted(tmp_path.glob("*.py")):
        assert p.read_text() == (REPO / "generated" / "construct" / p.name).read_text(), p.name


@pytest.mark.parametrize(("src", "want"), [
    ("a + b * 2", "(this['a'] + (this['b'] * 2))"),
    ("x / 8", "(this['x'] // 8)"),
    ("c ? 1 : 2", "(1 if this['c'] else 2)"),
    ("not (a == 1) and b != 2", "((not (this['a'] == 1)) and (this['b'] != 2))"),
    ("_parent.items[_index].len", "this['_']['items'][this['_index']]['len']"),
    ("items.length", "len(this['items'])"),
    ("_io.size - _io.pos", "(_rt.io_size(this['_io']) - this['_io'].tell())"),
    ('kind == "string"', "(this['kind'] == 'string')"),
    ("(cookie & 0xffff) == 12347", "((this['cookie'] & 0xffff) == 12347)"),
])
def test_kaitai_expressions_translate(src, want):
    def resolve(name: str) -> str:
        return {"_parent": "this['_']", "_index": "this['_index']", "_io": "this['_io']"}.get(name, f"this[{name!r}]")

    assert kexpr.emit(kexpr.parse(src), resolve) == want


def test_kaitai_expression_errors():
    with pytest.raises(kexpr.ExprError):
        kexpr.parse("a +")
    with pytest.raises(kexpr.ExprError):
        kexpr.parse("a $ b")


def test_every_schema_field_has_doc():
    import yaml

    for p in sorted((REPO / "schemas").glob("*.ksy")):
        d = yaml.safe_load(p.read_text())
        types = {"<root>": d, **(d.get("types") or {})}
        for tname, t in types.items():
            for f in t.get("seq", []) or []:
                assert f.get("doc"), f"{p.name}: {tname}.{f['id']} has no doc"
            for n, i in (t.get("instances") or {}).items():
                assert i.get("doc"), f"{p.name}: {tname}.{n} has no doc"


def test_generated_codecs_share_the_library_runtime():
    """No runtime copy next to the generated modules: each imports ``paimon_codec.codec_runtime``."""
    out = REPO / "generated" / "construct"
    schemas = {p.stem for p in (REPO / "schemas").glob("*.ksy")}
    assert {p.stem for p in out.glob("*.py")} == schemas | {"__init__", "constants"}
    for sid in schemas:
        text = (out / f"{sid}.py").read_text()
        assert "from paimon_codec import codec_runtime as _rt" in text, sid
        assert "\nclass " not in text, sid  # runtime classes live in the library, not in generated code


def test_check_flags_a_leftover_runtime_copy(tmp_path):
    """``--check`` compares the whole generated/construct tree: a stray copied runtime is reported."""
    shutil.copytree(REPO / "generated" / "construct", tmp_path / "generated" / "construct")
    (tmp_path / "generated" / "construct" / "_runtime.py").write_text(
        (REPO / "paimon_codec" / "codec_runtime" / "streams.py").read_text())
    r = run("--check", "--repo", str(tmp_path))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "not generated by any schema: generated/construct/_runtime.py" in r.stdout


def test_every_exported_dtype_is_documented():
    """Each numpy dtype a generated module exports is named in docs/codecs.md."""
    import importlib  # noqa: PLC0415

    docs = (REPO / "docs" / "codecs.md").read_text()
    names = []
    for p in sorted((REPO / "schemas").glob("*.ksy")):
        mod = importlib.import_module(f"paimon_codec.generated.construct.{p.stem}")
        names += [n for n in mod.__all__ if n.endswith(("_DTYPE", "_DTYPES"))]
    assert "CHUNK_DTYPES" in names
    missing = [n for n in names if f"`{n}" not in docs]
    assert not missing, missing


def test_schema_enums_and_magics_are_generated_names():
    """Enum members and ``contents`` magics come out of the schemas as named constants (one module,
    importing nothing but numpy, re-exported per schema); ``enum::member`` in expressions uses them.  A
    ``-runtime-layout`` schema (roaring32) has its dtypes and value functions there too."""
    from paimon_codec.generated.construct import constants, deletion_vector, file_index, roaring32

    assert constants.ROARING_COOKIE_RUN == roaring32.ROARING_COOKIE_RUN == 12347
    assert constants.ROARING_COOKIE_NO_RUN == 12346
    assert file_index.FILE_INDEX_MAGIC == (1493475289347502).to_bytes(8, "big")
    assert deletion_vector.DV_MAGIC_BITMAP32 == 1581511376
    assert deletion_vector.DV_MAGIC_BITMAP64.to_bytes(4, "big") == (1681511377).to_bytes(4, "little")
    text = (REPO / "generated" / "construct" / "constants.py").read_text()
    imports = [line for line in text.splitlines() if line.startswith(("import ", "from "))]
    assert imports == ["import numpy as np"], imports  # no module of this package: the runtime may import it
    assert roaring32.roaring32_has_offsets is constants.roaring32_has_offsets
    assert roaring32.COOKIE_DTYPE is constants.COOKIE_DTYPE and constants.container_bitmap_words() == 1024
    assert kexpr.emit(kexpr.parse("x == roaring_cookie::run.to_i"), lambda n: n) == "(x == ROARING_COOKIE_RUN)"


def test_one_key_kind_vocabulary():
    """The key codec, the generated key codecs and ``formats`` name key kinds alike (paimon_key's ``kind``)."""
    from paimon_codec import formats
    from paimon_codec.fileindex.keys import KEY_KINDS, KeyCodec
    from paimon_codec.generated.construct import paimon_key

    cases = {c.strip('"') for c in yaml_cases(REPO / "schemas" / "paimon_key.ksy")}
    assert set(KEY_KINDS) == set(formats.KEY_KINDS) == cases
    assert formats.KEY_KINDS is paimon_key.KEY_KINDS  # generated from those cases (``-values-name``)
    assert set(formats.KEY_KIND_BY_TYPE_ROOT.values()) == cases
    for t in ("TINYINT", "SMALLINT", "INT", "DATE", "BIGINT", "TIMESTAMP(3)", "DECIMAL(10, 2)", "FLOAT", "DOUBLE",
              "BOOLEAN", "STRING"):
        assert KeyCodec(t).kind == formats.key_kind_for(t), t
    assert paimon_key.fast_build_paimon_key(b"ab", kind="string") == b"\x00\x00\x00\x02ab"


def yaml_cases(path: Path) -> list[str]:
    import yaml

    return list(yaml.safe_load(path.read_text())["seq"][0]["type"]["cases"])


def _generate_package(tmp_path: Path, edit_schema: str, edit) -> object:
    """Regenerate the Construct codecs from an edited copy of the schemas into an importable package."""
    import importlib

    generate = _tools_module("generate")

    schemas = tmp_path / "schemas"
    shutil.copytree(REPO / "schemas", schemas)
    p = schemas / f"{edit_schema}.ksy"
    before = p.read_text()
    p.write_text(edit(before))
    assert p.read_text() != before
    pkg = f"edited_codecs_{edit_schema}"
    generate.gen_construct(schemas, tmp_path / pkg)
    sys.path.insert(0, str(tmp_path))
    try:
        return importlib.import_module(f"{pkg}.{edit_schema}")
    finally:
        sys.path.remove(str(tmp_path))


def test_bsi_schema_edit_flows_into_codec_fast_path_and_reader(tmp_path, monkeypatch):
    """Widen the BSI's ``slice_count`` to int64 in a temp copy: the regenerated Construct codec, its fast
    head (and ``BSI_PART_SLICE_COUNT_SIZE``) and the unchanged semantic reader/writer follow."""
    from paimon_codec.fileindex import bsi as semantic
    from paimon_codec.fileindex.bsi import reader as bsi_reader
    from paimon_codec.fileindex.bsi import writer as bsi_writer

    edited = _generate_package(tmp_path, "bsi", lambda s: s.replace(
        "      - id: slice_count\n        -orig-id: slices.length\n        type: s4",
        "      - id: slice_count\n        -orig-id: slices.length\n        type: s8"))
    assert edited.BSI_PART_SLICE_COUNT_SIZE == 8
    values = [5, None, -3, 0, 12, -3]
    original = _bsi_bytes(values)
    for module in (bsi_reader, bsi_writer):  # the two modules that bind the generated codec
        monkeypatch.setattr(module, "_generated_bsi", edited)
    w = semantic.BsiWriter("BIGINT")
    w.write_batch(values)
    data = w.serialize()
    assert len(data) == len(original) + 8  # two parts, 4 more bytes each
    r = semantic.BsiReader(data, "BIGINT")
    assert list(r.visit_equal(-3).bitmap) == [2, 5]
    assert list(r.visit_gte(5).bitmap) == [0, 4]


def test_enum_edit_flows_into_constants_and_validation(tmp_path):
    """Bump the range-bitmap version enum in a temp copy: the constant, the ``valid`` check of the
    Construct codec and of the generated fast path all follow."""
    edited = _generate_package(tmp_path, "range_bitmap", lambda s: s.replace(
        "  range_bitmap_version:\n    1:", "  range_bitmap_version:\n    2:"))
    assert edited.RANGE_BITMAP_VERSION_V1 == 2
    head = edited.fast_build_range_bitmap_header_counts({"version": 2, "row_count": 0, "cardinality": 0},
                                                        key_kind="int64")
    assert edited.fast_parse_range_bitmap_header_counts(head, key_kind="int64")[0]["version"] == 2
    with pytest.raises(Exception, match="version"):
        edited.fast_parse_range_bitmap_header_counts(b"\x01" + head[1:], key_kind="int64")


def _bsi_bytes(values: list) -> bytes:
    from paimon_codec.fileindex.bsi import BsiWriter

    w = BsiWriter("BIGINT")
    w.write_batch(values)
    return w.serialize()


def test_struct_formats_and_value_functions():
    """``-struct-formats``: a struct per switch case, narrower cases padded to the field's size, nested
    fixed types inlined, a case wider than the size refused; ``-export-values``: value instances as
    functions of what they read (instances inlined)."""
    import generate  # noqa: PLC0415
    import yaml  # noqa: PLC0415

    def model(size: int):
        d = yaml.safe_load(f"""
meta: {{id: t, endian: le}}
-export-values: true
params: [{{id: n, type: s4}}]
seq: [{{id: a, type: u1}}]
instances:
  base: {{value: n * 2}}
  twice_plus_one: {{value: base + 1, doc: "n * 2 + 1"}}
types:
  cell:
    -struct-formats: CELL_STRUCTS
    params: [{{id: kind, type: u1}}]
    seq:
      - id: v
        size: {size}
        type: {{switch-on: kind, cases: {{1: s4, 2: pair}}}}
  pair:
    -struct-formats: PAIR_STRUCT
    seq: [{{id: x, type: u2}}, {{id: y, size: 3}}]
""")
        m = generate.Model({"t": d})
        m.cg = {"t": generate.ConstructGen(m, "t")}  # type: ignore[attr-defined]
        return m, m.cg["t"]  # type: ignore[attr-defined]

    m, cg = model(8)
    names, src = cg.struct_formats(m.types[("t", "cell")])
    assert names == ["CELL_STRUCTS"]
    code = "\n".join(src)
    assert "1: _struct.Struct('<i4x')" in code and "2: _struct.Struct('<H3s3x')" in code, code
    assert "PAIR_STRUCT = _struct.Struct('<H3s')" in "\n".join(cg.struct_formats(m.types[("t", "pair")])[1])
    ns: dict = {}
    names, src = cg.value_functions(m.types[("t", "t")])
    exec("\n".join(src), ns)  # noqa: S102 - the generated source under test
    assert names == ["t_base", "t_twice_plus_one"] and ns["t_twice_plus_one"](5) == 11
    m, cg = model(4)
    with pytest.raises(ValueError, match="wider than its size"):
        cg.struct_formats(m.types[("t", "cell")])
