"""``paimon-codec explore``: the page in a real browser (Debian's headless Chromium) shows every golden file's
structure as the generated JavaScript parser reads it - field for field what the Construct codec and
``paimon-codec inspect --json`` decode - with its meaning from the library's readers, links fields and bytes
both ways, shows the CLI's one-line error for bad bytes, and draws a table and a query's plan."""

from __future__ import annotations

import io
import json
import shutil
import urllib.error
import urllib.request
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from urllib.parse import urlencode

import pyarrow as pa
import pytest
from conftest import GOLDEN, GOLDEN_09, GOLDEN_LATEST, latest_cases, load_json
from test_schemas_golden import KIND_TO_FORMAT, assert_same

from paimon_codec import formats as F
from paimon_codec.cli import main as cli_main
from paimon_codec.explore import serve
from paimon_codec.explore.meaning import meaning_of
from paimon_codec.explore.server import _plain, parser_dir
from paimon_codec.kaitai_plain import kaitai_to_plain

pytestmark = pytest.mark.skipif(not GOLDEN.is_dir(), reason=f"golden vectors not found at {GOLDEN}")


def golden_files() -> list[tuple[str, str, str | None]]:
    """(path below the golden root, format, column type) of every golden binary the formats cover."""
    out = []
    for case in latest_cases():
        fmt = KIND_TO_FORMAT.get(case["kind"])
        if fmt is None:
            continue
        side = load_json(case["json"])
        dtype = side.get("type") if F.get(fmt).needs_key_kind else None
        out.append((str(Path(case["file"]).relative_to(GOLDEN)), fmt, dtype))
    for f in sorted((GOLDEN_09 / "file_index").glob("*.index")):
        out.append((str(f.relative_to(GOLDEN)), "file-index", None))
    for f in sorted((GOLDEN_09 / "deletion_vectors").glob("index-*")):
        out.append((str(f.relative_to(GOLDEN)), "deletion-vectors", None))
    return out


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


class _JsStruct:
    """A struct of the page's parse tree, read the way :func:`kaitai_to_plain` reads a Python Kaitai object."""

    def __init__(self, fields: dict) -> None:
        self._fields = fields

    def __getattr__(self, name: str):
        fields = self.__dict__["_fields"]
        key = _camel(name)
        if key not in fields:
            raise AttributeError(name)
        return _js_value(fields[key])


def _js_value(v):
    if isinstance(v, list):
        return [_js_value(x) for x in v]
    if isinstance(v, dict):
        if "__failed" in v:
            raise AssertionError(f"the page could not read a field: {v['__failed']}")
        if "__bytes" in v:
            return bytes.fromhex(v["__bytes"])
        if "__int" in v:
            return int(v["__int"])
        if "__num" in v:
            return float(v["__num"])
        return type(v["__type"], (_JsStruct,), {})(v)
    return v


def js_tree_as_codec(tree: dict, fmt: str):
    """The page's parse tree in the Construct codec's plain shape (``inspect --json``'s ``structure``)."""
    spec = F.get(fmt)
    return F.plain(kaitai_to_plain(_js_value(tree), spec.module.LAYOUT, spec.schema_id), full_bytes=True)


@pytest.fixture(scope="module")
def golden_server():
    server = serve(GOLDEN)
    yield server
    server.shutdown()
    server.server_close()


def _get(server, route: str, **q) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(server.url + route + "?" + urlencode(q), timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = cli_main(list(argv))
        except SystemExit as e:
            code = int(e.code or 0)
    return code, out.getvalue(), err.getvalue()


# ------------------------------------------------------------------------------------------- the API

def test_open_gives_the_cli_structure_and_the_readers_meaning(golden_server):
    for rel, fmt, dtype in golden_files()[::7]:
        status, got = _get(golden_server, "/api/open", path=rel, format=fmt, type=dtype or "")
        assert status == 200 and got["error"] is None, (rel, got["error"])
        args = ["inspect", "--json", "--format", fmt, str(GOLDEN / rel)] + (["--type", dtype] if dtype else [])
        code, out, _ = _cli(*args)
        assert code == 0
        assert got["structure"] == _plain(json.loads(out)["structure"]), rel
        data = (GOLDEN / rel).read_bytes()
        want = meaning_of(fmt, data, str(GOLDEN / rel), data_type=dtype)
        assert got["meaning"] == json.loads(json.dumps(_plain(want))), rel


def test_paths_outside_the_root_are_refused(golden_server):
    for bad in ("../../etc/passwd", "/etc/passwd", "paimon-latest/../../x"):
        status, got = _get(golden_server, "/api/bytes", path=bad)
        assert status == 400 and "outside the explored directory" in got["error"]["message"], bad
    status, _ = _get(golden_server, "/static/../server.py")
    assert status in (400, 404)


def test_bad_bytes_give_the_cli_error_line_and_its_offset(tmp_path):
    src = GOLDEN_LATEST / "bitmap" / "bitmap_v2_int.bin"
    bad = tmp_path / "cut.bin"
    bad.write_bytes(src.read_bytes()[:40])
    code, _, err = _cli("inspect", "--format", "bitmap", "--type", "INT", str(bad))
    assert code == 2
    server = serve(tmp_path)
    try:
        status, got = _get(server, "/api/open", path="cut.bin", format="bitmap", type="INT")
    finally:
        server.shutdown()
        server.server_close()
    assert status == 200 and got["structure"] is None
    assert got["error"]["message"] == err.strip()
    assert isinstance(got["error"]["offset"], int) and 0 <= got["error"]["offset"] <= 40


def test_every_parser_and_the_runtime_ship_with_the_package():
    names = {p.name for p in parser_dir().glob("*.js")}
    assert {"KaitaiStream.js", "KaitaiStreamFixes.js"} <= names
    for fmt in F.FORMATS.values():
        assert f"{F.class_name(fmt.schema_id)}.js" in names, fmt.name


# ------------------------------------------------------------------------------------------- the browser

def _page(chromium, server, **params) -> dict:
    if not chromium.evaluate("location.href").startswith(server.url):
        chromium.goto(server.url + "#dir=")
    state = chromium.set_hash(urlencode(params))
    result = chromium.result()
    assert result is not None, f"the page wrote no result ({state}); console: {chromium.console[-3:]}"
    return result


def test_every_golden_file_reads_the_same_in_the_browser(chromium, golden_server):
    checked = 0
    for rel, fmt, dtype in golden_files():
        got = _page(chromium, golden_server, file=rel, format=fmt, type=dtype or "")
        assert got["view"] == "file" and got["error"] is None and got["js_error"] is None, (rel, got)
        data = (GOLDEN / rel).read_bytes()
        want = F.plain(F.get(fmt).decode(data, key_kind=F.key_kind_for(dtype) if dtype else None), full_bytes=True)
        assert_same(want, js_tree_as_codec(got["tree"], fmt), f"{rel}$", json_numbers=True)
        checked += 1
    assert checked >= 100


def test_fields_and_bytes_are_linked_both_ways(chromium, golden_server):
    rel = "paimon-latest/bitmap/bitmap_v2_int.bin"
    got = _page(chromium, golden_server, file=rel, format="bitmap", type="INT", field="/nullValueOffset")
    sel = got["selected"]
    assert (sel["path"], sel["start"], sel["end"]) == ("/nullValueOffset", 10, 14)
    assert sel["lit"] == 2 * 4  # four bytes lit, in the hex and the text column
    # a click on a byte opens the innermost field holding it
    chromium.evaluate("document.querySelector('.hex .b[data-off=\"12\"]').click(); true")
    assert chromium.evaluate("document.getElementById('details').dataset.path") == "/nullValueOffset"
    # a click on a field in the tree lights its bytes up
    chromium.evaluate("document.querySelector('.tree .node[data-path=\"/rowCount\"]').click(); true")
    start, end = chromium.evaluate("[document.getElementById('details').dataset.start,"
                                   " document.getElementById('details').dataset.end]")
    assert (int(start), int(end)) == (1, 5)
    assert chromium.evaluate("document.querySelectorAll('.hex .b.in').length") == 8
    doc = chromium.evaluate("(document.querySelector('#details .doc') || {}).textContent || ''")
    assert doc, "the schema's doc of the selected field is shown"


def test_bad_bytes_show_the_cli_error_in_the_page(chromium, tmp_path):
    src = GOLDEN_LATEST / "container" / "container_multi_column.index"
    bad = tmp_path / "bad.index"
    raw = bytearray(src.read_bytes())
    raw[20:24] = b"\xff\xff\xff\x7f"  # a head length far past the end
    bad.write_bytes(bytes(raw))
    code, _, err = _cli("inspect", str(bad))
    assert code == 2
    server = serve(tmp_path)
    try:
        got = _page(chromium, server, file="bad.index")
        shown = chromium.evaluate("document.getElementById('error').textContent")
        assert shown == err.strip() == got["error"]["message"]
        assert chromium.evaluate("document.body.dataset.state") == "error"
        if got["error"]["offset"] is not None:
            assert chromium.evaluate("document.querySelectorAll('.hex .b.err').length") >= 1
        assert chromium.evaluate("document.querySelectorAll('.hex .row').length") > 0  # never a blank page
    finally:
        server.shutdown()
        server.server_close()


def test_a_table_and_a_plan_are_drawn(chromium, tmp_path):
    from paimon_codec.cli.plan import plan_json
    from paimon_codec.expressions import parse_where
    from paimon_codec.planning.plan import plan_scan
    from paimon_codec.table import PaimonTable
    from paimon_codec.writing import append_arrow, create_table, delete

    table = tmp_path / "db.db" / "t"
    create_table(table, "id INT, cat STRING", {"file-index.bitmap.columns": "cat", "bucket": "-1",
                                                    "file-index.in-manifest-threshold": "1",
                                                    "deletion-vectors.enabled": "true"})
    for part in range(3):
        append_arrow(table, pa.table({"id": list(range(part * 100, part * 100 + 100)),
                                     "cat": ["A" if part == 0 else "B"] * 100}))
    delete(table, "id IN (5, 7, 150)")
    server = serve(tmp_path)
    try:
        got = _page(chromium, server, table="db.db/t", where="cat = 'A'")
        assert got["view"] == "table"
        live = PaimonTable(table).live_files(PaimonTable(table).snapshot())
        assert len(got["table"]["files"]) == len(live) == 3
        assert [s["id"] for s in got["table"]["snapshots"]] == [4, 3, 2, 1]
        want = plan_json(plan_scan(str(table), parse_where("cat = 'A'"), semantics="paimon"))["report"]
        for k in ("files_total", "files_read", "files_skipped_by_index", "rows_selected"):
            assert got["plan"]["report"][k] == want[k], k
        assert want["files_read"] < want["files_total"]
        text = chromium.evaluate("document.getElementById('plan').textContent")
        assert f"{want['files_read']} of {want['files_total']} files read" in text
        # the rows the read keeps in its one file: 0-99 but the two deleted ones
        assert "0–4, 6, 8–99" in text
        # an index file opens in the byte view from the table
        index_rel = next(f["index"] for f in got["table"]["files"] if f["index"])
        opened = _page(chromium, server, file=index_rel, format="file-index")
        assert opened["error"] is None and opened["tree"]["__type"] == "FileIndex"
        # the deletion vectors, opened from the table, name their data files
        dv_rel = next(f["deletion_vector"]["index_file"] for f in got["table"]["files"] if f["deletion_vector"])
        opened = _page(chromium, server, file=dv_rel, table="db.db/t")
        by_file = {v["data_file"]: (v["rows"], v["ranges"]) for v in opened["meaning"]["vectors"]}
        names = {f["name"]: f for f in got["table"]["files"]}
        assert set(by_file) <= set(names) and sum(r for r, _ in by_file.values()) == 3
        assert sorted(by_file.values()) == [(1, [[50, 51]]), (2, [[5, 6], [7, 8]])]
    finally:
        server.shutdown()
        server.server_close()


def test_cli_explore_prints_its_address(tmp_path):
    import subprocess
    import sys

    shutil.copy(GOLDEN_LATEST / "bloom" / "bloom_int.bin", tmp_path / "b.bin")
    proc = subprocess.Popen([sys.executable, "-m", "paimon_codec", "explore", str(tmp_path / "b.bin"), "--json"],
                            stdout=subprocess.PIPE, text=True)
    try:
        line = json.loads(proc.stdout.readline())
        assert line["url"].startswith("http://127.0.0.1:") and line["root"] == str(tmp_path)
        with urllib.request.urlopen(line["url"] + "api/root", timeout=30) as r:
            assert json.loads(r.read())["start"] == "b.bin"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_puffin_and_global_index_files_open_too(chromium, tmp_path, java_newest):
    from pyroaring import BitMap
    from test_inspect_global_index import _index_files

    from paimon_codec.dv import DeletionVector
    from paimon_codec.dv.puffin import write_puffin

    write_puffin(tmp_path / "dvs.puffin", {"data-1.parquet": DeletionVector(BitMap([1, 5, 9])),
                                           "data-2.parquet": DeletionVector(BitMap([0]))})
    table = java_newest.create_table(tmp_path / "wh", "db.t", "id INT, name STRING",
                                     options={"row-tracking.enabled": "true", "data-evolution.enabled": "true"})
    java_newest.write_global_index(table, "name", "btree", ["a", "b", "a", None])
    btree = _index_files(Path(table))["btree"]
    server = serve(tmp_path)
    try:
        got = _page(chromium, server, file="dvs.puffin")
        assert got["format"] == "puffin" and got["error"] is None and got["js_error"] is None, got
        assert got["tree"]["__type"] == "Puffin"
        assert sorted((b["referenced_data_file"], b["cardinality"]) for b in got["meaning"]["blobs"]) == [
            ("data-1.parquet", 3), ("data-2.parquet", 1)]
        rel = str(btree.relative_to(tmp_path))
        got = _page(chromium, server, file=rel, type="STRING")
        assert got.get("format") == "btree-global-index" and got["error"] is None and got["js_error"] is None, got
        assert got["tree"]["__type"] == "BtreeGlobalIndex"
        code, out, _ = _cli("inspect", "--json", "--type", "STRING", str(btree))
        assert code == 0 and got["structure"] == json.loads(json.dumps(_plain(json.loads(out)["structure"])))
        assert (got["meaning"]["keys"], got["meaning"]["row_ids"], got["meaning"]["null_rows"]) == (2, 3, 1)
    finally:
        server.shutdown()
        server.server_close()
