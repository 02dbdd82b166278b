"""Kaitai parsers in other languages, from the same ``schemas/*.ksy`` (called by ``tools/generate.py``).

* ``generated/javascript/<CamelId>.js`` - UMD modules (``require('kaitai-struct/KaitaiStream')``, npm
  ``kaitai-struct`` 0.11.0), compiled in the compiler's *debug* mode: every object records the byte range of
  each field in ``_debug`` (what a hex view needs), and the caller calls ``_read()`` after constructing.
  Beside them the runtime (``KaitaiStream.js``, copied from npm ``kaitai-struct``, Apache-2.0: the explorer's
  page ships it) and ``KaitaiStreamFixes.js``, a copy of ``tools/kaitai_stream_fixes.js``: the runtime reads a
  negative ``s8`` wrong, and the parsers must be used with that fix loaded.
* ``generated/java/paimoncodec/formats/<CamelId>.java`` - classes of package ``paimoncodec.formats``
  (Maven Central ``io.kaitai:kaitai-struct-runtime`` 0.11); the compiler's library API has no package
  option, so the package line is put in here.  The compiler's Java has one bug these schemas reach: a
  ``switch-on`` whose cases are enum members (``dv_magic::bitmap32.to_i``) becomes ``switch (x) { case
  E.M.id(): ...}``, which javac refuses (not a constant; and ``x`` may be a ``long``).  Such a switch is
  rewritten to switch on the decimal text of ``x`` with the members' values as string constants - exact for
  every integer width (see :func:`_java_enum_switches`).

The schemas use no opaque types and no ``process`` routines: what the Construct codecs do with runtime
helpers (``VarUInt``, Java's modified UTF-8, embedded Roaring bitmaps) is spelled out in plain Kaitai in
the schemas, so every target compiles them as they are.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from pathlib import Path

JAVA_PACKAGE = "paimoncodec.formats"
JS_RUNTIME_FIXES = Path(__file__).resolve().parent / "kaitai_stream_fixes.js"
#: the JavaScript runtime itself (npm ``kaitai-struct``, Apache-2.0), shipped beside the parsers so that
#: ``paimon-codec explore``'s page loads everything from the package (no CDN)
JS_RUNTIME = Path(__file__).resolve().parent / "node_modules" / "kaitai-struct" / "KaitaiStream.js"
#: where each language's files go, below the tree's root, and which files of it are generated
LANGUAGES = {"javascript": ("generated/javascript", "*.js"),
             "java": ("generated/java/" + JAVA_PACKAGE.replace(".", "/"), "*.java")}


def _camel(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split("_") if p)


def _java_with_package(text: str) -> str:
    head, sep, rest = text.partition("\n\n")  # the compiler's "// This is a generated file!" line comes first
    return f"{head}{sep}package {JAVA_PACKAGE};\n\n{rest}"


_ENUM_DECL = re.compile(r"public enum (\w+) \{(.*?)private final long id;", re.S)
_ENUM_MEMBER = re.compile(r"^\s*(\w+)\((-?\d+)L?\)[,;]", re.M)
_SWITCH = re.compile(r"^(\s*)switch \((.*)\) \{$")
_ENUM_CASE = re.compile(r"^(\s*)case (?:\w+\.)*?(\w+)\.(\w+)\.id\(\): \{$")


def _java_enum_switches(text: str) -> str:
    """Rewrite ``switch (x) { case E.M.id(): ... }`` (not valid Java) to ``switch (String.valueOf(x)) {
    case "<value of E.M>": ... }``."""
    values: dict[tuple[str, str], str] = {}
    for decl in _ENUM_DECL.finditer(text):
        for m in _ENUM_MEMBER.finditer(decl.group(2)):
            key = (decl.group(1), m.group(1))
            if values.setdefault(key, m.group(2)) != m.group(2):
                raise SystemExit(f"two Java enums {key[0]} with member {key[1]} of different values")
    lines = text.split("\n")
    for i, line in enumerate(lines):
        sw = _SWITCH.match(line)
        if sw and i + 1 < len(lines) and _ENUM_CASE.match(lines[i + 1]):
            lines[i] = f"{sw.group(1)}switch (String.valueOf({sw.group(2)})) {{"
        case = _ENUM_CASE.match(line)
        if case:
            lines[i] = f'{case.group(1)}case "{values[(case.group(2), case.group(3))]}": {{'
    return "\n".join(lines)


def gen_languages(schema_dir: Path, root: Path, run_ksc: Callable[..., None]) -> None:
    """Compile every schema to JavaScript (debug mode) and Java into ``root``'s ``generated/<language>``.

    ``run_ksc(target, schema_dir, out_dir, debug=...)`` is ``generate.py``'s compiler driver."""
    names = {_camel(p.stem) for p in schema_dir.glob("*.ksy")}
    if names & {"KaitaiStreamFixes", "KaitaiStream"}:
        raise SystemExit("a schema named kaitai_stream(_fixes) would overwrite the runtime in generated/javascript")
    for lang, (sub, pattern) in LANGUAGES.items():
        out_dir = root / sub
        out_dir.mkdir(parents=True, exist_ok=True)
        for old in out_dir.glob(pattern):
            old.unlink()
        with tempfile.TemporaryDirectory() as tmp:
            run_ksc(lang, schema_dir, Path(tmp), debug=lang == "javascript")
            for p in sorted(Path(tmp).glob(pattern)):
                if p.stem not in names:
                    continue
                text = p.read_text()
                if lang == "java":
                    text = _java_enum_switches(_java_with_package(text))
                (out_dir / p.name).write_text(text)
        if lang == "javascript":
            (out_dir / "KaitaiStreamFixes.js").write_text(JS_RUNTIME_FIXES.read_text())
            (out_dir / "KaitaiStream.js").write_text(JS_RUNTIME.read_text())
