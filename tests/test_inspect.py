"""``paimon-codec formats`` / ``inspect``: every golden file prints as JSON; damaged copies fail
with exit status != 0 and exactly one line on stderr."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import GOLDEN, GOLDEN_09, latest_cases, load_json

from paimon_codec import formats as F
from paimon_codec.cli import main

pytestmark = pytest.mark.skipif(not GOLDEN.is_dir(), reason=f"golden vectors not found at {GOLDEN}")

KIND_TO_FORMAT = {
    "bitmap": "bitmap", "range-bitmap": "range-bitmap", "bsi": "bsi", "bloom-filter": "bloom-filter",
    "dv-bin": "deletion-vector", "dv-file": "deletion-vectors", "hash-index": "hash-index",
    "file-index-container": "file-index",
}


def _golden_args() -> list:
    out = []
    if GOLDEN.is_dir():
        for c in latest_cases():
            side = load_json(c["json"])
            fmt = KIND_TO_FORMAT[c["kind"]]
            args = [str(c["file"]), "--format", fmt]
            if F.get(fmt).needs_key_kind:
                args += ["--type", side["type"]]
            out.append(pytest.param(args, fmt, id=c["case"]))
        for p in sorted((GOLDEN_09 / "file_index").glob("*.index")):
            out.append(pytest.param([str(p)], "file-index", id="09/" + p.name))
        for p in sorted((GOLDEN_09 / "deletion_vectors").glob("index-*")):
            out.append(pytest.param([str(p)], "deletion-vectors", id="09/" + p.name))
        for p in sorted((GOLDEN_09 / "hash_index").glob("index-*")):
            out.append(pytest.param([str(p), "--format", "hash-index"], "hash-index", id="09/" + p.name))
        wh = GOLDEN_09 / "warehouse" / "warehouse" / "golden.db"
        for p in sorted(wh.glob("*/bucket-*/*.index")):
            out.append(pytest.param([str(p)], "file-index", id="09/wh/" + p.name))
        for p in sorted(wh.glob("*/index/index-*")):
            fmt = F.detect(p.read_bytes())
            args = [str(p)] if fmt else [str(p), "--format", "hash-index"]
            out.append(pytest.param(args, fmt or "hash-index", id="09/wh/" + p.name))
    return out


@pytest.mark.parametrize(("args", "fmt"), _golden_args())
def test_inspect_json_every_golden_file(args, fmt, capsys):
    assert main(["inspect", *args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["format"] == fmt
    assert out["size"] == Path(args[0]).stat().st_size
    assert isinstance(out["structure"], dict) and out["structure"]


def test_inspect_text_and_formats(capsys):
    assert main(["formats"]) == 0
    listed = capsys.readouterr().out
    for name in F.FORMATS:
        assert name in listed
    assert main(["formats", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["name"] for r in rows} == set(F.FORMATS)
    for r in rows:
        assert (Path(__file__).resolve().parent.parent / r["schema"]).is_file()
    p = latest_cases("file-index-container")[0]["file"]
    assert main(["inspect", str(p)]) == 0
    text = capsys.readouterr().out
    assert "file-index" in text and "head_length" in text and "bytes>" in text


def _damaged() -> list:
    """(name, bytes) of truncated / corrupted copies whose damage the bytes can reveal."""
    if not GOLDEN.is_dir():
        return []
    out = []
    for kind in ("file-index-container", "dv-file", "dv-bin", "bitmap", "range-bitmap", "bsi"):
        for c in latest_cases(kind):
            data = Path(c["file"]).read_bytes()
            side = load_json(c["json"])
            fmt = KIND_TO_FORMAT[kind]
            extra = ["--type", side["type"]] if F.get(fmt).needs_key_kind else ["--format", fmt]
            if len(data) > 24:
                out.append(pytest.param(data[:-1], extra, id=f"{c['case']}-cut1"))
                out.append(pytest.param(data[: len(data) // 3], extra, id=f"{c['case']}-cut3"))
            if kind in ("file-index-container", "dv-bin"):
                bad = bytearray(data)
                bad[5] ^= 0xFF  # container magic / DV bin magic
                out.append(pytest.param(bytes(bad), ["--format", fmt], id=f"{c['case']}-magic"))
            if kind in ("bitmap", "range-bitmap", "bsi", "dv-file"):
                bad = bytearray(data)
                vpos = 4 if kind == "range-bitmap" else 0
                bad[vpos] = 9  # unknown version
                out.append(pytest.param(bytes(bad), extra, id=f"{c['case']}-version"))
            if kind == "dv-file" and len(data) > 40:
                bad = bytearray(data)
                bad[-2] ^= 0x55  # last CRC
                out.append(pytest.param(bytes(bad), extra, id=f"{c['case']}-crc"))
    return out


@pytest.mark.parametrize(("data", "extra"), _damaged())
def test_inspect_damaged_copy_fails_with_one_line(data, extra, tmp_path, capsys):
    p = tmp_path / "damaged.bin"
    p.write_bytes(data)
    args = ["inspect", str(p), "--json", *extra]
    if "--type" in extra:
        args = ["inspect", str(p), "--json", "--format", _fmt_for_type_args(data), *extra]
    rc = main(args)
    captured = capsys.readouterr()
    assert rc != 0
    err = captured.err.strip()
    assert err.count("\n") == 0 and err.startswith("paimon-codec: error:"), err
    assert "Traceback" not in err


def _fmt_for_type_args(data: bytes) -> str:
    # bitmap payloads start with version 1/2 (or the damaged 9); range bitmaps with a 4-byte header length
    return "range-bitmap" if data[:3] == b"\x00\x00\x00" else "bitmap"


def test_inspect_undetectable_needs_format(tmp_path, capsys):
    p = tmp_path / "x.bin"
    p.write_bytes(b"\x02\x00\x00\x00\x05")
    assert main(["inspect", str(p)]) != 0
    assert "--format" in capsys.readouterr().err
    assert main(["inspect", str(p), "--format", "bitmap"]) != 0  # no key kind
    assert "key kind" in capsys.readouterr().err


def _containers_with_schema() -> list:
    """(container path, row type as JSON list, sidecar) for every golden container whose sidecar names types."""
    if not GOLDEN.is_dir():
        return []
    out = []
    for c in latest_cases("file-index-container"):
        side = load_json(c["json"])
        fields = side.get("schema", side["columns"])
        cols = [{"name": f["name"], "type": f["type"]} for f in fields] if isinstance(fields, list) else []
        out.append(pytest.param(Path(c["file"]), cols, side, id=c["case"]))
    for p in sorted((GOLDEN_09 / "file_index").glob("*.index")):
        js = p.with_suffix(".json")
        if js.exists() or js.with_suffix(".json.gz").exists():
            side = load_json(js if js.exists() else js.with_suffix(".json.gz"))
            out.append(pytest.param(p, side["columns"], side, id="09/" + p.name))
    return out


@pytest.mark.parametrize(("path", "cols", "side"), _containers_with_schema())
def test_inspect_schema_decodes_every_payload(path, cols, side, capsys):
    """With --schema each slice is decoded by its codec: the same structure as decoding the slice on
    its own (at the start/length the container states), with the sidecar's facts."""
    data = path.read_bytes()
    assert main(["inspect", str(path), "--json", "--schema", json.dumps(cols)]) == 0
    out = json.loads(capsys.readouterr().out)["structure"]
    types = {c["name"]: c["type"] for c in cols}
    internals = side.get("java_index_internals", {})
    decoded = 0
    for col in out["columns"]:
        for idx in col["indexes"]:
            if idx["start"] < 0:
                assert idx["payload"] is None
                continue
            fmt = idx["index_type"]
            assert idx["payload_format"] == fmt
            spec = F.get(fmt)
            key_kind = F.key_kind_for(types[col["column_name"]]) if spec.needs_key_kind else None
            alone = spec.parse(data[idx["start"]: idx["start"] + idx["length"]], None, key_kind)
            assert idx["payload"] == alone
            decoded += 1
            if fmt in ("bitmap", "range-bitmap") and "row_count" in side:
                head = idx["payload"] if fmt == "bitmap" else idx["payload"]["header"]
                assert head["row_count"] == int(side["row_count"])
            java = internals.get(f"{col['column_name']}/{fmt}", {})
            if fmt == "bloom-filter" and "num_hash_functions" in java:
                assert idx["payload"]["num_hash_functions"] == java["num_hash_functions"]
                assert 8 * idx["payload"]["bit_set"]["length"] == java["num_bits"]
    assert decoded or all(i["start"] < 0 for c in out["columns"] for i in c["indexes"])


def test_inspect_without_schema_keeps_payload_bytes(capsys):
    p = latest_cases("file-index-container")[0]["file"]
    assert main(["inspect", str(p), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)["structure"]
    for col in out["columns"]:
        for idx in col["indexes"]:
            assert set(idx["payload"]) == {"length", "hex"} and "payload_format" not in idx


def test_inspect_schema_leaves_unnamed_columns_as_bytes(capsys):
    c = latest_cases("file-index-container")[0]
    side = load_json(c["json"])
    first = side["schema"][0]
    assert main(["inspect", str(c["file"]), "--json", "--schema", f"{first['name']} {first['type']}"]) == 0
    out = json.loads(capsys.readouterr().out)["structure"]
    for col in out["columns"]:
        for idx in col["indexes"]:
            if idx["payload"] is None:
                continue
            named = col["column_name"] == first["name"]
            assert ("payload_format" in idx) == named
            if not named:
                assert set(idx["payload"]) == {"length", "hex"}


def test_inspect_schema_reports_a_damaged_payload_at_its_file_offset(tmp_path, capsys):
    """A slice with an unknown version: the container still frames (inspect without --schema works),
    with --schema the payload's codec fails and the offset is the slice's offset in the file."""
    for c in latest_cases("file-index-container"):
        side = load_json(c["json"])
        data = Path(c["file"]).read_bytes()
        con = F.get("file-index").decode(data)
        bitmaps = [i for col in con["columns"] for i in col["indexes"] if i["index_type"] == "bitmap"
                   and i["payload"] is not None]
        if bitmaps:
            break
    else:
        pytest.fail("no golden container with a bitmap payload")
    start = bitmaps[0]["start"]
    bad = bytearray(data)
    bad[start] = 9  # bitmap version byte
    p = tmp_path / "bad.index"
    p.write_bytes(bytes(bad))
    assert main(["inspect", str(p), "--json"]) == 0
    capsys.readouterr()
    cols = json.dumps([{"name": f["name"], "type": f["type"]} for f in side["schema"]])
    assert main(["inspect", str(p), "--json", "--schema", cols]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("paimon-codec: error:"), err
    assert f"offset {start}" in err, err


def test_inspect_schema_only_for_containers(capsys):
    c = latest_cases("bloom-filter")[0]
    assert main(["inspect", str(c["file"]), "--format", "bloom-filter", "--schema", "a INT"]) == 2
    assert "--schema" in capsys.readouterr().err
