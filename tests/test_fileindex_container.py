"""File-index container: heads of every golden container, whole files rebuilt from sidecar rows."""

from __future__ import annotations

import struct

import pytest
from _fileindex_cases import cases_09, load_09
from conftest import latest_cases, load_json
from hypothesis import given, settings
from hypothesis import strategies as st

from paimon_codec.errors import (
    CorruptDataError,
    PaimonCodecError,
    TruncatedDataError,
    UnsupportedTypeError,
    UnsupportedVersionError,
)
from paimon_codec.fileindex.container import (
    MAGIC,
    FileIndexContainerReader,
    decode_modified_utf8,
    encode_modified_utf8,
    write_container,
)
from paimon_codec.fileindex.reader import EmptyFileIndexReader
from paimon_codec.fileindex.writer import FileIndexWriter
from paimon_codec.fileio import ByteSource

LATEST = latest_cases("file-index-container")
CASES_09 = cases_09()


@pytest.mark.parametrize("case", LATEST, ids=[c["case"] for c in LATEST])
def test_latest_container_heads(case):
    d = load_json(case["json"])
    data = case["file"].read_bytes()
    r = FileIndexContainerReader(data)
    head = d["expected_head"]
    assert r.head_length == head["head_length"] and r.version == head["version"]
    expected = {c["column"]: {i["index_type"]: (i["start"], i["length"]) for i in c["indexes"]}
                for c in head["columns_unordered"]}
    assert r.columns == expected
    # re-encoding the same slices in file order gives the same bytes
    rebuilt = write_container([(c, [(t, r.read_payload(c, t)) for t in idx]) for c, idx in r.columns.items()])
    assert rebuilt == data
    for c in d["columns"] if isinstance(d["columns"], list) else []:
        if "modified_utf8_hex" in c:
            raw = bytes.fromhex(c["modified_utf8_hex"])
            assert struct.pack(">H", len(encode_modified_utf8(c["name"]))) + encode_modified_utf8(c["name"]) == raw
            assert decode_modified_utf8(raw[2:]) == c["name"]


def test_odd_names_empty_flag_answers_skip():
    case = next(c for c in LATEST if c["case"] == "container_odd_names")
    d = load_json(case["json"])
    r = FileIndexContainerReader(case["file"].read_bytes())
    name = d["columns"][1]["name"]
    readers = r.readers_for(name, "INT")
    assert any(isinstance(x, EmptyFileIndexReader) for x in readers)
    assert any(x.visit_equal(-15).kind == "SKIP" for x in readers)


@pytest.mark.parametrize("path", CASES_09, ids=[p.name for p in CASES_09])
def test_09_whole_container_from_rows(path):
    """Every payload rebuilt from the sidecar rows + options, whole file byte-identical."""
    d = load_09(path)
    specs, errors = [], []
    for req, written in zip(d["indexes_requested"], d["indexes_written"], strict=True):
        spec = (req["column"], req["type"], req.get("options") or {})
        if "error" in written:
            errors.append(spec)
        else:
            specs.append((spec, bool(req.get("force_empty"))))
    for spec in errors:  # Java threw: we report the same kind of problem when targeting 0.9
        with pytest.raises(UnsupportedTypeError):
            FileIndexWriter(d["columns"], [spec], paimon_version="0.9")
    w = FileIndexWriter(d["columns"], [s for s, _ in specs], paimon_version="0.9")
    w.write_table({c["name"]: d["rows"][c["name"]] if not _is_ts(c["type"]) else
                   [None if v is None else tuple(v) for v in d["rows"][c["name"]]] for c in d["columns"]})
    payloads = w.payloads()
    payloads = [(c, t, None if empty else p) for (c, t, p), (_, empty) in zip(payloads, specs, strict=True)]
    data = write_container(w.container_columns(payloads))
    assert data == (path.parent / d["file"]).read_bytes()
    r = FileIndexContainerReader(data)
    assert r.head_length == d["java_head_length"]
    assert {c: {t: list(v) for t, v in idx.items()} for c, idx in r.columns.items()} == d["java_header"]


def _is_ts(type_text: str) -> bool:
    return type_text.upper().startswith("TIMESTAMP")


def test_empty_container_is_24_bytes():
    data = write_container([])
    assert len(data) == 24
    r = FileIndexContainerReader(data)
    assert r.columns == {} and r.head_length == 24


def test_reader_errors():
    good = write_container([("a", [("bitmap", b"\x01" + b"\x00" * 9)])])
    with pytest.raises(CorruptDataError):
        FileIndexContainerReader(b"\x00" * 8 + good[8:])
    bad_version = good[:8] + struct.pack(">i", 2) + good[12:]
    with pytest.raises(UnsupportedVersionError):
        FileIndexContainerReader(bad_version)
    with pytest.raises(TruncatedDataError):
        FileIndexContainerReader(good[:10])
    with pytest.raises(CorruptDataError):
        FileIndexContainerReader(good[:-3])  # the slice runs past the end
    unknown = write_container([("a", [("vector-ann", b"xyz")]), ("b", [("bitmap", None)])])
    r = FileIndexContainerReader(unknown)  # unknown types are fine until queried
    assert isinstance(r.readers_for("b", "INT")[0], EmptyFileIndexReader)
    assert r.readers_for("zzz", "INT") == []
    with pytest.raises(UnsupportedTypeError):
        r.readers_for("a", "INT")


def test_lazy_head_reads_only_the_head():
    big = write_container([("c", [("bloom-filter", b"\x00\x00\x00\x01" + b"\x00" * 100_000)])])
    src = ByteSource(big)
    r = FileIndexContainerReader(src)
    assert src.bytes_read == r.head_length
    reader = r.readers_for("c", "INT")[0]
    assert reader.visit_equal(5).kind == "SKIP"


GOOD = write_container([("名字", [("bitmap", b"\x01" + b"\x00" * 9)]), ("x\x00y", [("bloom-filter", None)])])


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(GOOD)), st.lists(st.tuples(st.integers(0, len(GOOD) - 1), st.integers(1, 255)),
                                            max_size=3))
def test_fuzz_container_head(cut, flips):
    data = bytearray(GOOD[:cut] if cut % 2 else GOOD)
    for pos, mask in flips:
        if data:
            data[pos % len(data)] ^= mask
    try:
        r = FileIndexContainerReader(bytes(data))
        got = {c: {t: r.read_payload(c, t) for t in idx} for c, idx in r.columns.items()}
        for c in r.columns:
            for rd in r.readers_for(c, "INT"):
                rd.visit_equal(1)
    except PaimonCodecError:
        return
    # what the reader accepted, the generated Construct codec decodes to the same columns, types and payloads
    from paimon_codec.generated.construct.file_index import FileIndex

    ref = FileIndex.parse(bytes(data))
    assert got == {col.column_name: {i.index_type: i.payload for i in col.indexes} for col in ref.columns}


def test_magic_constant():
    assert struct.pack(">q", MAGIC).hex() == "00054e4ed01a35ae"


def _generated_obj(r: FileIndexContainerReader) -> dict:
    return {"magic": None, "version": 1, "redundant": b"",
            "columns": [{"column_name": c, "indexes": [{"index_type": t, "payload": r.read_payload(c, t)}
                                                       for t in idx]} for c, idx in r.columns.items()]}


@pytest.mark.parametrize("case", LATEST, ids=[c["case"] for c in LATEST])
def test_writer_mirror_equals_generated_build(case):
    """write_container mirrors schemas/file_index.ksy: same bytes as the generated FileIndex.build."""
    from paimon_codec.generated.construct.file_index import FileIndex

    data = case["file"].read_bytes()
    r = FileIndexContainerReader(data)
    assert FileIndex.build(_generated_obj(r)) == data
    rebuilt = write_container([(c, [(t, r.read_payload(c, t)) for t in idx]) for c, idx in r.columns.items()])
    assert rebuilt == data


def test_head_parser_is_the_generated_one_without_payloads():
    from paimon_codec.generated.construct.file_index import FileIndex, fast_parse_file_index

    for case in LATEST:
        data = case["file"].read_bytes()
        full = FileIndex.parse(data)
        head, end = fast_parse_file_index(data)
        assert end == full.head_length
        assert head.head_length == full.head_length and len(head.columns) == len(full.columns)
        for hc, fc in zip(head.columns, full.columns, strict=True):
            assert hc.column_name == fc.column_name
            assert [(i.index_type, i.start, i.length) for i in hc.indexes] == \
                [(i.index_type, i.start, i.length) for i in fc.indexes]
            assert "payload" not in hc.indexes[0] and "payload" in fc.indexes[0]


@given(st.lists(st.tuples(st.text(max_size=6), st.lists(st.tuples(st.text(max_size=5),
                                                                  st.one_of(st.none(), st.binary(max_size=9))),
                                                        max_size=3)), max_size=4))
@settings(max_examples=100, deadline=None)
def test_writer_mirror_equals_generated_build_random(columns):
    from paimon_codec.generated.construct.file_index import FileIndex

    obj = {"magic": None, "version": 1, "redundant": b"",
           "columns": [{"column_name": c, "indexes": [{"index_type": t, "payload": p} for t, p in idx]}
                       for c, idx in columns]}
    assert write_container(columns) == FileIndex.build(obj)
