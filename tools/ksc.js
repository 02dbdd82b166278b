#!/usr/bin/env node
// Drive kaitai-struct-compiler@0.11.0 through its library API (the npm build has no CLI).
// usage: node ksc.js <target: python|graphviz> <out_dir> <schema.ksy>... 
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
  const [target, outDir, ...files] = process.argv.slice(2);
  if (!target || !outDir || files.length === 0) {
    console.error("usage: node ksc.js <python|graphviz> <out_dir> <schema.ksy>...");
    process.exit(2);
  }
  fs.mkdirSync(outDir, { recursive: true });
  for (const file of files) {
    const ksy = loadKsy(file);
    let out;
    try {
      out = await compiler.compile(target, ksy, makeImporter(path.dirname(file)), false);
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
