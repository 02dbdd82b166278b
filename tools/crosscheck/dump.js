#!/usr/bin/env node
// Parse files with the generated JavaScript parsers (generated/javascript, debug mode) and print each one's
// field tree as one line of JSON - the JavaScript side of tests/test_other_languages.py.
//
// usage: NODE_PATH=tools/node_modules node tools/crosscheck/dump.js <generated/javascript dir>  < jobs
// Jobs (stdin), one a line, tab-separated: ClassName<TAB>path[<TAB>param...] (the root type's parameters,
// a string, e.g. a bitmap index's key kind, or i:<integer>, e.g. a row's arity).  Output, one line a job: {"ok": tree} or {"error": "..."}.
// Tree: a parsed object is {"_type": constructor name, field: value, ...} with its sequence fields and
// its instances (the prototype's getters), by their lowerCamel names; byte arrays are {"_bytes": hex};
// NaN / infinities {"_float": "nan" | "inf" | "-inf"}; an instance that throws {"_error": message};
// "_raw8": {field: [hex, ...]} the bytes of each element of an array of 8-byte numbers.
// Numbers are JavaScript's doubles: the runtime reads u8 / s8 as a Number, exact only up to 2**53
// (then the nearest double).
"use strict";
const fs = require("fs");
const path = require("path");
const readline = require("readline");
const KaitaiStream = require("kaitai-struct/KaitaiStream");

function hex(bytes) {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

function value(v) {
  if (v === null || v === undefined) return null;
  if (v instanceof Uint8Array) return { _bytes: hex(v) };
  if (Array.isArray(v)) return v.map(value);
  if (typeof v === "number") {
    if (Number.isNaN(v)) return { _float: "nan" };
    if (!Number.isFinite(v)) return { _float: v > 0 ? "inf" : "-inf" };
    return v;
  }
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "object") return struct(v);
  return v; // string, boolean
}

// The bytes of each element of an array of 8-byte numbers (from the debug-mode offsets): a Number is exact
// only up to 2**53, so the cross-check also gets what the parser read (roaring bitmap-container words).
function raw8(obj, name) {
  const d = obj._debug && obj._debug[name];
  const v = obj[name];
  if (!d || !d.arr || !Array.isArray(v) || v.length === 0 || typeof v[0] !== "number") return null;
  if (!d.arr.every((r) => r.end - r.start === 8)) return null;
  const pos = obj._io.pos;
  try {
    return d.arr.map((r) => { obj._io.seek(r.start); return hex(obj._io.readBytes(8)); });
  } finally {
    obj._io.seek(pos);
  }
}

function struct(obj) {
  const out = { _type: obj.constructor.name };
  for (const name of Object.keys(obj).sort()) {
    if (name.startsWith("_")) continue;
    out[name] = value(obj[name]);
    const raw = raw8(obj, name);
    if (raw) (out._raw8 = out._raw8 || {})[name] = raw;
  }
  const proto = Object.getPrototypeOf(obj);
  for (const name of Object.getOwnPropertyNames(proto).sort()) {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    if (name.startsWith("_") || !d || typeof d.get !== "function") continue;
    try {
      out[name] = value(obj[name]);
    } catch (e) {
      out[name] = { _error: String(e && e.message ? e.message : e) };
    }
  }
  return out;
}

function parse(dir, className, data, params) {
  const mod = require(path.resolve(dir, className + ".js"));
  const Cls = mod[className];
  const args = params.map((p) => (p.startsWith("i:") ? Number(p.slice(2)) : p));
  const obj = new Cls(new KaitaiStream(data), null, null, ...args);
  obj._read(); // debug mode: the caller reads
  return obj;
}

function main() {
  const dir = process.argv[2];
  if (!dir) {
    console.error("usage: node dump.js <generated/javascript dir> < jobs");
    process.exit(2);
  }
  require(path.resolve(dir, "KaitaiStreamFixes.js")); // as every user of the parsers must
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on("line", (line) => {
    if (!line) return;
    const [className, file, ...params] = line.split("\t");
    let answer;
    try {
      const buf = fs.readFileSync(file);
      const data = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      answer = { ok: struct(parse(dir, className, data, params)) };
    } catch (e) {
      answer = { error: String(e && e.message ? e.message : e) };
    }
    process.stdout.write(JSON.stringify(answer) + "\n");
  });
}

main();
