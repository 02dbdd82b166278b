// The three views: a directory (files and tables), a file (tree | hex | details + meaning), a table (snapshots,
// files, index files, a query's plan).
"use strict";

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
}

function link(text, hash) { return el("a", { href: "#" + new URLSearchParams(hash).toString(), text }); }

function num(v) { return v === null || v === undefined ? "" : typeof v === "number" ? v.toLocaleString("en") : String(v); }

// rows of objects as a table; `links` maps a column to (row) -> hash params for a link
function table(rows, columns, links) {
  const t = el("table");
  t.append(el("tr", {}, ...columns.map((c) => el("th", { text: c }))));
  for (const r of rows) {
    t.append(el("tr", {}, ...columns.map((c) => {
      const v = r[c];
      const text = v !== null && typeof v === "object" ? JSON.stringify(v) : num(v);
      const td = el("td", { class: typeof v === "number" ? "num" : "" });
      const target = links && links[c] && links[c](r);
      td.append(target ? link(text, target) : text);
      return td;
    })));
  }
  return t;
}

function ranges(rs, more) {
  return rs.map(([s, e]) => (e - s === 1 ? `${s}` : `${s}–${e - 1}`)).join(", ") + (more ? ` … +${more}` : "");
}

// the meaning panel: what the library's readers make of the file
function renderMeaning(m) {
  const box = el("div", { class: "meaning" });
  if (!m) return box;
  box.append(el("h4", { text: m.kind }));
  const scalars = Object.entries(m).filter(([k, v]) => k !== "kind" && (v === null || typeof v !== "object"));
  box.append(table(scalars.map(([k, v]) => ({ field: k, value: v })), ["field", "value"]));
  if (m.null_rows && typeof m.null_rows === "object") box.append(el("p", { text: `null rows: ${m.null_rows.rows} (${ranges(m.null_rows.ranges, m.null_rows.more_ranges)})` }));
  if (m.ranges) box.append(el("p", { text: `rows: ${ranges(m.ranges, m.more_ranges)}` }));
  if (m.keys && Array.isArray(m.keys) && m.keys.length && typeof m.keys[0] === "object") {
    box.append(table(m.keys.map((k) => ({ key: typeof k.key === "string" ? JSON.stringify(k.key) : k.key, rows: k.rows, ranges: ranges(k.ranges, k.more_ranges) })),
      ["key", "rows", "ranges"]));
  }
  if (m.vectors) {
    const named = m.vectors.some((v) => v.data_file);
    box.append(table(m.vectors.map((v) => ({ data_file: v.data_file, offset: v.offset, bits: v.bits, deleted: v.rows,
      positions: ranges(v.ranges, v.more_ranges) })), (named ? ["data_file"] : []).concat(["offset", "bits", "deleted", "positions"])));
  }
  if (m.parts) {
    box.append(table(Object.entries(m.parts).map(([k, p]) => ({ part: k, min: p.min, max: p.max, slices: p.slices,
      rows: p.rows })), ["part", "min", "max", "slices", "rows"]));
  }
  if (m.columns) {
    const rows = [];
    for (const c of m.columns) for (const i of c.indexes) rows.push({ column: c.column, ...i });
    box.append(table(rows, ["column", "index_type", "start", "length"]));
  }
  if (m.first_hashes) box.append(el("p", { text: `hashes: ${m.first_hashes.slice(0, 40).join(", ")}…` }));
  if (m.blobs) box.append(table(m.blobs, ["referenced_data_file", "offset", "length", "cardinality"]));
  if (m.records) box.append(table(m.records.slice(0, 200), ["row", "null", "offset", "record_length", "blob_length"]));
  if (m.data_blocks) box.append(table(m.data_blocks.slice(0, 200).map((b) => Object.fromEntries(
    Object.entries(b).filter(([, v]) => v === null || typeof v !== "object"))), Object.keys(m.data_blocks[0] || {})
    .filter((k) => m.data_blocks[0][k] === null || typeof m.data_blocks[0][k] !== "object")));
  return box;
}

function testHook(obj) {
  // the page's findings as JSON, for the tests (headless Chromium reads the DOM)
  let s = document.getElementById("explorer-result");
  if (!s) { s = el("script", { id: "explorer-result", type: "application/json" }); document.body.append(s); }
  s.textContent = JSON.stringify(obj, (k, v) => (typeof v === "bigint" ? v.toString() : v));
}

const Views = {
  async dir(main, rel) {
    const listing = await App.api("list", { path: rel });
    if (listing.is_table) {
      main.append(el("p", {}, "This directory is a Paimon table: ", link("open the table view", { table: rel })));
    }
    const rows = listing.entries.map((e) => ({ name: e.name + (e.dir ? "/" : ""), size: e.size,
      kind: e.table ? "table" : e.dir ? "directory" : "file", _e: e }));
    const path = (n) => (rel ? rel + "/" : "") + n;
    main.append(table(rows, ["name", "kind", "size"], {
      name: (r) => (r._e.table ? { table: path(r._e.name) } : r._e.dir ? { dir: path(r._e.name) } : { file: path(r._e.name) }),
    }));
    testHook({ view: "dir", entries: listing.entries.length });
  },

  async file(main, p) {
    const info = await App.api("open", { path: p.file, format: p.format, type: p.type,
      table: p.table === "" ? "." : p.table });
    const bytes = await App.api("bytes", { path: p.file });
    App.setStatus(`${info.format || "unknown format"} · ${bytes.length.toLocaleString("en")} bytes`);
    const controls = el("div", { class: "controls" });
    const fmt = el("select", { id: "format" }, el("option", { value: "", text: "(detect)" }),
      ...App.root.formats.map((f) => el("option", { value: f, text: f })));
    fmt.value = p.format || "";
    const type = el("input", { type: "text", id: "type", placeholder: "column type (INT, STRING…) for key-typed payloads" });
    type.value = p.type || "";
    const go = el("button", { text: "decode" });
    go.onclick = () => { location.hash = new URLSearchParams({ file: p.file, format: fmt.value, type: type.value }).toString(); };
    controls.append("format ", fmt, " type ", type, go);
    main.append(controls);

    const grid = el("div", { class: "file-view" });
    const treePane = el("div", { class: "pane", id: "tree" }, el("h3", { text: "structure (generated JavaScript parser)" }));
    const hexPane = el("div", { class: "pane", id: "hexpane" }, el("h3", { text: "bytes" }));
    const side = el("div", { class: "pane", id: "side" }, el("h3", { text: "field" }));
    const details = el("div", { class: "details", id: "details" }, "Select a field or a byte.");
    let meaning;
    try { meaning = renderMeaning(info.meaning); } catch (e) { meaning = el("pre", { text: JSON.stringify(info.meaning, null, 1) }); }
    side.append(details, el("h3", { text: "meaning" }), meaning);
    grid.append(treePane, hexPane, side);
    main.append(grid);

    let tree = null;
    let jsError = null;
    const selectNode = (node, fromHex) => {
      if (!node) return;
      tree.select(node);
      if (node.start !== null) hex.select(node.start, node.end, !fromHex);
      details.innerHTML = "";
      details.append(el("div", {}, el("b", { text: node.path }), node.type ? ` (${node.type})` : ""),
        el("div", { text: node.start !== null ? `bytes [${node.start}, ${node.end}) · ${node.end - node.start} bytes` : "no bytes" }),
        node.children ? "" : el("div", { class: "value", text: PaimonTree.formatValue(node.value) }),
        node.doc ? el("div", { class: "doc", text: node.doc }) : "");
      details.dataset.start = node.start;
      details.dataset.end = node.end;
      details.dataset.path = node.path;
    };
    const hex = new HexView(hexPane, bytes, (off) => { if (tree) selectNode(tree.fieldAt(off), true); });

    if (info.error) {
      App.showError(info.error.message);
      if (info.error.offset !== null && info.error.offset !== undefined) hex.markError(info.error.offset);
    }
    let root = null;
    if (info.parser) {
      await App.loadParsers();
      const ns = window[info.parser];
      const schemas = await this.schemas(info.schema_id);
      const docs = PaimonTree.indexDocs(schemas);
      const obj = Object.create(ns[info.parser].prototype);
      try {
        ns[info.parser].call(obj, new KaitaiStream(bytes.buffer, bytes.byteOffset), null, null, ...info.params);
        obj._read();
      } catch (e) {
        jsError = String(e && e.message || e);
      }
      root = PaimonTree.structNode(info.parser, obj, bytes, docs, "");
      tree = new PaimonTree.TreeView(treePane, root, (n) => selectNode(n, false));
      if (jsError) treePane.prepend(el("div", { class: "failed", text: `JavaScript parser stopped: ${jsError}` }));
    }
    if (p.field !== undefined && tree) selectNode(tree.byPath.get(p.field), false);
    if (p.byte !== undefined && tree) selectNode(tree.fieldAt(Number(p.byte)), true);
    testHook({ view: "file", format: info.format, error: info.error, js_error: jsError,
      tree: root ? PaimonTree.plainOf(root) : null, meaning: info.meaning, structure: info.structure,
      selected: details.dataset.path ? { path: details.dataset.path, start: Number(details.dataset.start),
        end: Number(details.dataset.end), lit: Array.from(hexPane.querySelectorAll(".b.in")).length } : null });
    if (info.error) document.body.dataset.state = "error";
  },

  async schemas(id) {
    // a schema and, transitively, the schemas it imports (for the docs of imported types)
    const seen = new Map();
    const visit = async (sid) => {
      if (seen.has(sid)) return;
      seen.set(sid, null);
      const s = await App.api("schema", { id: sid });
      seen.set(sid, s);
      for (const imp of ((s.meta || {}).imports || [])) await visit(imp.split("/").pop());
    };
    await visit(id);
    return [...seen.values()];
  },

  async table(main, p) {
    const t = await App.api("table", { path: p.table, snapshot: p.snapshot });
    App.setStatus(`table ${t.table} · snapshot ${t.snapshot_id}`);
    main.append(el("h2", { text: `${t.table}` }),
      el("p", { text: `fields: ${t.fields.map((f) => `${f.name} ${f.type}`).join(", ")}` +
        (t.partition_keys.length ? ` · partitioned by ${t.partition_keys.join(", ")}` : "") +
        (t.primary_keys.length ? ` · primary key ${t.primary_keys.join(", ")}` : "") }));
    const snaps = t.snapshots.map((s) => ({ ...s, time: s.time_millis === null ? null : new Date(s.time_millis).toISOString() }));
    main.append(el("h3", { text: "snapshots" }), table(snaps, ["id", "kind", "time", "schema_id", "total_record_count"],
      { id: (r) => ({ table: p.table, snapshot: r.id }) }));
    main.append(el("h3", { text: `data files of snapshot ${t.snapshot_id}` }),
      table(t.files.map((f) => ({ ...f, deleted: f.deletion_vector ? f.deletion_vector.cardinality : null,
        dv_file: f.deletion_vector ? f.deletion_vector.index_file : null })),
      ["name", "partition", "bucket", "level", "row_count", "file_size", "index", "embedded_index_bytes", "deleted", "dv_file"],
      { index: (r) => (r.index ? { file: r.index, format: "file-index" } : null),
        dv_file: (r) => (r.dv_file ? { file: r.dv_file, format: "deletion-vectors", table: p.table } : null) }));
    main.append(el("h3", { text: "index files" }), table(t.index_files, ["path", "type", "partition", "bucket", "row_count", "file_size"],
      { path: (r) => (r.path ? { file: r.path, table: p.table,
        format: r.type === "HASH" ? "hash-index" : r.type === "DELETION_VECTORS" ? "deletion-vectors" : "" } : null) }));

    const where = el("input", { type: "text", id: "where", placeholder: "a predicate, e.g. status = 'PAID' AND amount > 10" });
    where.value = p.where || "";
    const go = el("button", { text: "plan" });
    go.onclick = () => { location.hash = new URLSearchParams({ table: p.table, where: where.value }).toString(); };
    main.append(el("h3", { text: "a query's plan" }), el("div", { class: "controls" }, "WHERE ", where, go));
    let plan = null;
    if (p.where !== undefined) {
      plan = await App.api("plan", { path: p.table, where: p.where, snapshot: p.snapshot });
      main.append(this.renderPlan(plan));
    }
    testHook({ view: "table", table: t, plan });
  },

  renderPlan(plan) {
    const rep = plan.report;
    const box = el("div", { id: "plan" });
    box.append(el("p", { text: `${rep.semantics} semantics · ${rep.files_read} of ${rep.files_total} files read · ` +
      `${rep.rows_selected} of ${rep.rows_total} rows selected · ${rep.rows_deleted} deleted by deletion vectors` }));
    const counts = ["files_skipped_by_partition", "files_pruned_by_stats", "files_skipped_by_index",
      "files_skipped_by_deletion_vectors", "files_skipped_level0"].map((k) => ({ step: k.replaceAll("_", " "), files: rep[k] }));
    box.append(table(counts, ["step", "files"]));
    // the rows each file keeps, from the read tasks' selections (null: every row not deleted)
    const selections = new Map();
    for (const task of plan.tasks || []) selections.set(task.path, task.selection);
    const rows = (rep.files || []).map((f) => {
      const bar = el("span", { class: "bar" + (f.decision && f.decision.startsWith("skip") ? " skip" : "") });
      bar.style.width = Math.max(1, Math.round(120 * (f.rows_selected || 0) / Math.max(1, f.row_count || 1))) + "px";
      const sel = [...selections.entries()].find(([path]) => path.endsWith(f.path) || f.path.endsWith(path));
      const kept = !sel ? "" : sel[1] === null ? "all" : ranges(sel[1].slice(0, 16), Math.max(0, sel[1].length - 16));
      return { file: f.path, decision: f.decision, index: f.index_result || "-",
        rows: `${f.rows_selected || 0}/${f.row_count}`, "rows kept": kept, _bar: bar };
    });
    const t = table(rows, ["file", "decision", "index", "rows", "rows kept"]);
    [...t.querySelectorAll("tr")].slice(1).forEach((tr, i) => tr.append(el("td", {}, rows[i]._bar)));
    box.append(t);
    for (const note of rep.index_notes || []) box.append(el("p", { text: `note: ${note}` }));
    return box;
  },
};

window.Views = Views;
