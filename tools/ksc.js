#!/usr/bin/env node
// Drive kaitai-struct-compiler@0.11.0 through its library API (the npm build has no CLI).
// usage: node ksc.js <target: python|graphviz|javascript|java> <out_dir> [--debug] <schema.ksy>...
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

async function main() {
  const [target, outDir, ...rest] = process.argv.slice(2);
  const debug = rest[0] === "--debug";
  const files = debug ? rest.slice(1) : rest;
  if (!target || !outDir || files.length === 0) {
    console.error("usage: node ksc.js <python|graphviz|javascript|java> <out_dir> [--debug] <schema.ksy>...");
    process.exit(2);
  }
  fs.mkdirSync(outDir, { recursive: true });
  for (const file of files) {
    const ksy = loadKsy(file);
    let out;
    try {
      out = await compiler.compile(target, ksy, makeImporter(path.dirname(file)), debug);
    } catch (e) {
      console.error(`${file}: ${e && e.toString ? e.toString() : e}`);
      process.exit(1);
    }
    for (const [name, text] of Object.entries(out)) {
      fs.writeFileSync(path.join(outDir, name), text);
      console.log(path.join(outDir, name));
    }
  }
}

main().catch((e) => { console.error(String(e)); process.exit(1); });
