#!/usr/bin/env node
// Drive kaitai-struct-compiler@0.11.0 through its library API (the npm build has no CLI).
// usage: node ksc.js <target: python|graphviz|javascript|java> <out_dir> [--debug] <schema.ksy>...
//        node ksc.js --serve   one job per line on stdin, {"target", "out", "debug", "files"}, one answer per
//                              line on stdout, {"ok": true, "written": [...]} or {"ok": false, "error": "..."}:
//                              the compiler is loaded once (~0.4 CPU-s) for every job of a generator run
// --debug: the compiler's debug mode (objects record each field's byte range in `_debug`; `_read()` is
// then called by the user, not the constructor) - the JavaScript parsers are generated this way.
// Imports (meta.imports) are resolved relative to the importing schema's directory.
"use strict";
const fs = require("fs");
const path = require("path");
const yaml = require("js-yaml");
const compiler = require("kaitai-struct-compiler");

function loadKsy(file) {
  return yaml.load(fs.readFileSync(file, "utf8"));
}

function makeImporter(baseDir) {
  return {
    importYaml(name, mode) {
      const file = path.resolve(baseDir, name + ".ksy");
      return Promise.resolve(loadKsy(file));
    },
  };
}

class CompileError extends Error {}

// Compile every file for one target into outDir; the paths written, in order.  Each compile parses its schema
// and its imports afresh (the importer reads them from disk): nothing is carried from one job to the next.
async function compileAll(target, outDir, debug, files) {
  fs.mkdirSync(outDir, { recursive: true });
  const written = [];
  for (const file of files) {
    const ksy = loadKsy(file);
    let out;
    try {
      out = await compiler.compile(target, ksy, makeImporter(path.dirname(file)), debug);
    } catch (e) {
      throw new CompileError(`${file}: ${e && e.toString ? e.toString() : e}`);
    }
    for (const [name, text] of Object.entries(out)) {
      fs.writeFileSync(path.join(outDir, name), text);
      written.push(path.join(outDir, name));
    }
  }
  return written;
}

async function serve() {
  // stdout carries the answers only: anything the compiler logs goes to stderr
  console.log = console.error;
  const lines = require("readline").createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let answer;
    try {
      const job = JSON.parse(line);
      answer = { ok: true, written: await compileAll(job.target, job.out, Boolean(job.debug), job.files) };
    } catch (e) {
      answer = { ok: false, error: e instanceof CompileError ? e.message : `ksc.js: ${e && e.stack ? e.stack : e}` };
    }
    process.stdout.write(JSON.stringify(answer) + "\n");
  }
}

async function main() {
  if (process.argv[2] === "--serve") {
    return serve();
  }
  const [target, outDir, ...rest] = process.argv.slice(2);
  const debug = rest[0] === "--debug";
  const files = debug ? rest.slice(1) : rest;
  if (!target || !outDir || files.length === 0) {
    console.error("usage: node ksc.js <python|graphviz|javascript|java> <out_dir> [--debug] <schema.ksy>...");
    console.error("       node ksc.js --serve");
    process.exit(2);
  }
  try {
    for (const written of await compileAll(target, outDir, debug, files)) {
      console.log(written);
    }
  } catch (e) {
    if (!(e instanceof CompileError)) throw e;
    console.error(e.message);
    process.exit(1);
  }
}

main().catch((e) => { console.error(String(e)); process.exit(1); });
