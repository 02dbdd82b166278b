// The parse tree of a Kaitai (debug mode) object: every field with its absolute byte range, its value and
// its schema doc; rendered as a collapsible list.  plainOf() gives the same tree as JSON for the tests.
"use strict";

const TWO53 = 2 ** 53;

function camel(id) { return id.replace(/_(.)/g, (_, c) => c.toUpperCase()); }
function pascal(id) { const c = camel(id); return c[0].toUpperCase() + c.slice(1); }

// schema docs: "TypeName" -> { doc, fields: { fieldCamel: {doc, id} } }, across a schema and its imports
function indexDocs(schemas) {
  const out = {};
  const visit = (name, type) => {
    const fields = {};
    for (const f of (type.seq || [])) if (f.id) fields[camel(f.id)] = { doc: f.doc || "", id: f.id };
    for (const [id, f] of Object.entries(type.instances || {})) fields[camel(id)] = { doc: (f && f.doc) || "", id };
    out[name] = { doc: type.doc || "", fields };
    for (const [id, t] of Object.entries(type.types || {})) visit(pascal(id), t);
  };
  for (const s of schemas) if (s && s.meta) visit(pascal(s.meta.id), s);
  return out;
}

function isStruct(v) { return v !== null && typeof v === "object" && v._io !== undefined && v._debug !== undefined; }

// An 8-byte integer, read again exactly from its bytes: the Kaitai JavaScript runtime returns numbers, which
// lose digits past 2**53.  The field's bytes decide: of the four readings (BE / LE, signed / unsigned) the one
// the runtime meant is its number to within the number's rounding (or 2**32 away: the runtime's own readS8be /
// readS8le bug, should KaitaiStreamFixes.js not be loaded).
function exactInt(value, bytes, start, end) {
  if (typeof value !== "number" || !Number.isInteger(value) || end - start !== 8) return value;
  const view = new DataView(bytes.buffer, bytes.byteOffset + start, 8);
  const got = BigInt(value);
  // the number's own rounding: one unit in its last place (0 below 2**53)
  const ulp = BigInt(2 ** Math.max(0, Math.ceil(Math.log2(Math.abs(value) + 1)) - 53));
  const abs = (x) => (x < 0n ? -x : x);
  let best = null;
  for (const le of [false, true]) {
    for (const v of [view.getBigInt64(0, le), view.getBigUint64(0, le)]) {
      const diff = abs(got - v);
      const off = diff <= ulp ? diff : abs(diff - 4294967296n) <= ulp ? 4294967296n + abs(diff - 4294967296n) : null;
      if (off !== null && (best === null || off < best.off)) best = { v, off };
    }
  }
  if (best === null) return value;
  const n = Number(best.v);
  return Number.isSafeInteger(n) ? n : best.v;
}

function touchInstances(obj) {
  // instances are lazy getters on the prototype: read each so the tree shows it (a failure is shown, not thrown)
  const proto = Object.getPrototypeOf(obj);
  const failed = {};
  for (const name of Object.getOwnPropertyNames(proto)) {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    if (!d || !d.get || name.startsWith("_")) continue;
    try { void obj[name]; } catch (e) { failed[name] = String(e && e.message || e); }
  }
  return failed;
}

function buildNode(name, value, dbg, bytes, docs, typeName, path) {
  const start = dbg && dbg.start !== undefined ? dbg.start + (dbg.ioOffset || 0) : null;
  const end = dbg && dbg.end !== undefined ? dbg.end + (dbg.ioOffset || 0) : null;
  const node = { name, path, start, end, children: null, value: undefined, type: null, doc: "" };
  const fieldDoc = typeName && docs[typeName] && docs[typeName].fields[name];
  if (fieldDoc) node.doc = fieldDoc.doc;
  if (Array.isArray(value)) {
    node.children = value.map((v, i) => buildNode(String(i), v, dbg && dbg.arr ? dbg.arr[i] : null, bytes, docs,
      typeName, path + "/" + i));
    if (fieldDoc) node.children.forEach((c) => { if (!c.doc) c.doc = node.doc; });
    return node;
  }
  if (isStruct(value)) return structNode(name, value, bytes, docs, path, node);
  if (value instanceof Uint8Array) {
    node.value = { length: value.length, hex: Array.from(value.subarray(0, 32), (b) => b.toString(16).padStart(2, "0")).join("") };
    node.raw = value;
  } else {
    node.value = start !== null && end !== null ? exactInt(value, bytes, start, end) : value;
  }
  return node;
}

function structNode(name, obj, bytes, docs, path, node) {
  node = node || { name, path, start: null, end: null, value: undefined, doc: "" };
  const failed = touchInstances(obj);
  node.type = obj.constructor && obj.constructor.name;
  if (!node.doc && docs[node.type]) node.doc = docs[node.type].doc;
  node.children = [];
  for (const [key, dbg] of Object.entries(obj._debug)) {
    const field = key.startsWith("_m_") ? key.slice(3) : key;
    const value = key.startsWith("_m_") ? obj[key] : obj[field];
    node.children.push(buildNode(field, value, dbg, bytes, docs, node.type, path + "/" + field));
  }
  for (const [field, message] of Object.entries(failed)) {
    node.children.push({ name: field, path: path + "/" + field, start: null, end: null, children: null,
      value: undefined, failed: message, doc: "" });
  }
  if (node.start === null && node.children.length) {
    const starts = node.children.map((c) => c.start).filter((v) => v !== null);
    const ends = node.children.map((c) => c.end).filter((v) => v !== null);
    if (starts.length) { node.start = Math.min(...starts); node.end = Math.max(...ends); }
  }
  return node;
}

function hexOf(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16);
  return s;
}

// JSON of the tree, for the tests: a struct is {"__type": class, field: ...}, bytes {"__bytes": hex},
// a 64-bit integer past 2**53 {"__int": "decimal"}
function plainOf(node) {
  if (node.failed !== undefined) return { __failed: node.failed };
  if (node.children) {
    if (node.type === null) return node.children.map(plainOf);
    const out = { __type: node.type };
    for (const c of node.children) out[c.name] = plainOf(c);
    return out;
  }
  if (node.raw) return { __bytes: hexOf(node.raw) };
  const v = node.value;
  if (typeof v === "bigint") return { __int: v.toString() };
  // JSON has no -0, NaN or Infinity: a float that would lose itself is spelled out
  if (typeof v === "number" && (Object.is(v, -0) || !Number.isFinite(v))) return { __num: Object.is(v, -0) ? "-0" : String(v) };
  return v;
}

function formatValue(v) {
  if (v === undefined) return "";
  if (v !== null && typeof v === "object" && "hex" in v) return `${v.length} bytes ${v.hex}${v.length > 32 ? "…" : ""}`;
  if (typeof v === "bigint") return v.toString();
  return JSON.stringify(v);
}

class TreeView {
  constructor(pane, root, onSelect) {
    this.pane = pane;
    this.onSelect = onSelect;
    this.byPath = new Map();
    this.leaves = [];
    const ul = document.createElement("ul");
    ul.appendChild(this.renderNode(root, 0));
    const box = document.createElement("div");
    box.className = "tree";
    box.appendChild(ul);
    pane.appendChild(box);
    this.leaves.sort((a, b) => (a.end - a.start) - (b.end - b.start));
  }

  renderNode(node, depth) {
    const li = document.createElement("li");
    const row = document.createElement("span");
    row.className = "node";
    row.dataset.path = node.path;
    const kids = node.children || [];
    const range = node.start !== null && node.end !== null ? ` [${node.start}, ${node.end})` : "";
    row.innerHTML = `<span class="twist">${kids.length ? "▾" : ""}</span><span class="name"></span>` +
      (node.children ? ` <span class="type"></span>` : `: <span class="value"></span>`) +
      `<span class="range">${range}</span>`;
    row.querySelector(".name").textContent = node.name;
    if (node.children) row.querySelector(".type").textContent = node.type ? node.type : `[${kids.length}]`;
    else row.querySelector(".value").textContent = formatValue(node.value);
    if (node.failed !== undefined) { row.classList.add("failed"); row.title = node.failed; }
    li.appendChild(row);
    node.li = li;
    this.byPath.set(node.path, node);
    if (node.start !== null && node.end !== null && node.end > node.start) this.leaves.push(node);
    row.addEventListener("click", (ev) => {
      if (ev.target.classList.contains("twist")) li.classList.toggle("collapsed");
      else this.onSelect(node);
    });
    if (kids.length) {
      const ul = document.createElement("ul");
      const shown = kids.slice(0, 2000);
      for (const c of shown) ul.appendChild(this.renderNode(c, depth + 1));
      if (kids.length > shown.length) {
        const more = document.createElement("li");
        more.textContent = `… ${kids.length - shown.length} more`;
        ul.appendChild(more);
      }
      li.appendChild(ul);
      if (depth >= 2) li.classList.add("collapsed");
    }
    return li;
  }

  // the innermost field holding byte `offset`
  fieldAt(offset) {
    return this.leaves.find((n) => n.start <= offset && offset < n.end) || null;
  }

  select(node) {
    for (const el of this.pane.querySelectorAll(".node.selected")) el.classList.remove("selected");
    if (!node || !node.li) return;
    for (let li = node.li; li && li !== this.pane; li = li.parentElement) {
      if (li.tagName === "LI") li.classList.remove("collapsed");
    }
    const row = node.li.querySelector(".node");
    row.classList.add("selected");
    row.scrollIntoView({ block: "nearest" });
  }
}

window.PaimonTree = { indexDocs, structNode, plainOf, formatValue, TreeView, pascal };
