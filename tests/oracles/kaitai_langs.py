"""The generated JavaScript and Java parsers, driven from the tests (tests/test_other_languages.py).

* JavaScript: ``tools/crosscheck/dump.js`` under ``node``, with the npm ``kaitai-struct`` runtime from
  ``tools/node_modules`` (``npm ci --prefix tools``).
* Java: ``tools/crosscheck/java/pom.xml`` compiles ``generated/java`` plus the dumper
  (``paimoncodec.crosscheck.DumpTree``) against ``io.kaitai:kaitai-struct-runtime`` from Maven Central, into
  ``${XDG_CACHE_HOME:-~/.cache}/paimon-codec/formats/<sha256 of the sources>/`` under a file lock - once per
  source state; ``mvn`` reuses ``~/.m2``, so it runs offline after the first fetch.

Both read jobs ``ClassName<TAB>path[<TAB>param...]`` on stdin and answer one JSON line each (``{"ok": tree}``
or ``{"error": ...}``); :func:`tree_to_plain` turns a tree into the Construct codec's plain shape through the
same normaliser the Python Kaitai parsers use (:func:`paimon_codec.kaitai_plain.kaitai_to_plain`).

Run as a script (``python tests/oracles/kaitai_langs.py``) to build the Java jar; it exits non-zero, naming
the cause, when it cannot (``run.sh`` set-up relies on that).
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

from paimon_codec.formats import class_name

REPO = Path(__file__).resolve().parents[2]
TOOLS = REPO / "tools"
JS_DIR = REPO / "generated" / "javascript"
JAVA_GENERATED = REPO / "generated" / "java"
POM = TOOLS / "crosscheck" / "java" / "pom.xml"
JAR = "paimon-codec-formats.jar"
MAIN = "paimoncodec.crosscheck.DumpTree"

__all__ = ["LanguageUnavailable", "java_command", "js_command", "run_jobs", "tree_to_plain"]


class LanguageUnavailable(RuntimeError):
    """A generated parser cannot run here (no node, no runtime, no Java / Maven); the message says why."""


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "paimon-codec"


def js_command() -> tuple[list[str], dict[str, str]]:
    """The node command line and environment of the JavaScript dumper."""
    node = shutil.which("node")
    if node is None:
        raise LanguageUnavailable("node is not installed: it runs the generated JavaScript parsers")
    modules = TOOLS / "node_modules"
    if not (modules / "kaitai-struct").is_dir():
        raise LanguageUnavailable("the Kaitai JavaScript runtime is not installed: run `npm ci --prefix tools`")
    env = dict(os.environ, NODE_PATH=str(modules))
    return [node, str(TOOLS / "crosscheck" / "dump.js"), str(JS_DIR)], env


def _source_digest() -> str:
    h = hashlib.sha256()
    files = [POM, *sorted((TOOLS / "crosscheck" / "java" / "src").rglob("*.java")),
             *sorted(JAVA_GENERATED.rglob("*.java"))]
    for p in files:
        h.update(str(p.relative_to(REPO)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:20]


def java_classpath(build: bool = True) -> list[str]:
    """The jar of the generated Java parsers + dumper and the Kaitai runtime; built with Maven when missing."""
    target = cache_dir() / "formats" / _source_digest()
    jars = [target / JAR, *sorted((target / "lib").glob("*.jar"))]
    if (target / JAR).is_file() and len(jars) > 1:
        return [str(j) for j in jars]
    if not build:
        raise LanguageUnavailable(f"the generated Java parsers are not built ({target}) and building is disabled")
    mvn = shutil.which("mvn")
    if mvn is None:
        raise LanguageUnavailable("Maven (mvn) is not installed: it builds the generated Java parsers")
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (target / JAR).is_file():
            out = Path(tempfile.mkdtemp(dir=target.parent, prefix=".build-"))
            try:
                cmd = [mvn, "-q", "-B", "-f", str(POM), f"-Dcrosscheck.out={out}", "package",
                       "dependency:copy-dependencies"]
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1200)
                if proc.returncode != 0:
                    tail = " | ".join((proc.stdout + proc.stderr).strip().splitlines()[-8:])
                    raise LanguageUnavailable(f"mvn package of {POM} failed ({proc.returncode}): {tail}")
                built = target.with_name(target.name + ".tmp")
                shutil.rmtree(built, ignore_errors=True)
                shutil.rmtree(target, ignore_errors=True)  # a partial copy left by a killed build
                built.mkdir()
                os.replace(out / JAR, built / JAR)
                os.replace(out / "lib", built / "lib")
                os.replace(built, target)
            finally:
                shutil.rmtree(out, ignore_errors=True)
    jars = [target / JAR, *sorted((target / "lib").glob("*.jar"))]
    return [str(j) for j in jars]


def java_command(build: bool = True) -> tuple[list[str], dict[str, str]]:
    """The java command line and environment of the Java dumper."""
    java = shutil.which("java")
    if java is None:
        raise LanguageUnavailable("java is not installed: it runs the generated Java parsers")
    cp = os.pathsep.join(java_classpath(build))
    return [java, "-XX:TieredStopAtLevel=1", "-cp", cp, MAIN], dict(os.environ)


def run_jobs(command: tuple[list[str], dict[str, str]], jobs: list[tuple[str, Path, list[str]]],
             timeout: float = 1200) -> list[dict]:
    """Run one dumper process over all ``jobs`` (class name, file, root parameters); one answer per job."""
    argv, env = command
    lines = "".join("\t".join([cls, str(path), *params]) + "\n" for cls, path, params in jobs)
    proc = subprocess.run(argv, input=lines, capture_output=True, text=True, env=env, timeout=timeout)
    answers = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    if proc.returncode != 0 or len(answers) != len(jobs):
        raise LanguageUnavailable(f"{Path(argv[1]).name if len(argv) > 1 else argv[0]} answered {len(answers)} "
                                  f"of {len(jobs)} jobs (exit {proc.returncode}): {proc.stderr.strip()[-800:]}")
    return answers


# ------------------------------------------------------------------ JSON tree -> the Python Kaitai object shape


def lower_camel(name: str) -> str:
    """A schema identifier as the JavaScript / Java parsers name it (``index_blocks`` -> ``indexBlocks``)."""
    first, *rest = name.split("_")
    return first + "".join(p[:1].upper() + p[1:] for p in rest)


class TreeError(AssertionError):
    """A field the other language could not produce (its accessor threw)."""


class _Node:
    """A parsed object of a dump: attribute ``snake_name`` reads the tree's ``lowerCamel`` entry."""

    _values: dict[str, Any]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        key = lower_camel(name)
        if key not in self._values:
            raise AttributeError(name)
        v = self._values[key]
        if isinstance(v, _Failed):
            raise TreeError(f"{type(self).__name__}.{key}: {v.message}")
        return v


class _Failed:
    def __init__(self, message: str) -> None:
        self.message = message


_CLASSES: dict[str, type] = {}


def _node_class(name: str) -> type:
    """One Python class per dumped type name: the normaliser dispatches on ``type(v).__name__``."""
    if name not in _CLASSES:
        _CLASSES[name] = type(name, (_Node,), {})
    return _CLASSES[name]


_INT8 = re.compile(r"^([us])8(le|be)?$")


@functools.lru_cache(maxsize=1)
def _int8_fields() -> dict[tuple[str, str], tuple[bool, str]]:
    """(class name, lowerCamel field) -> (signed, byte order) of every 8-byte integer sequence field."""
    out: dict[tuple[str, str], tuple[bool, str]] = {}
    for path in sorted((REPO / "schemas").glob("*.ksy")):
        d = yaml.safe_load(path.read_text())
        endian = d.get("meta", {}).get("endian", "be")
        for cls, td in [(class_name(d["meta"]["id"]), d), *((class_name(n), t) for n, t in (d.get("types") or {}).items())]:
            for f in td.get("seq") or []:
                m = _INT8.match(f["type"]) if isinstance(f.get("type"), str) else None
                if m:
                    out[(cls, lower_camel(f["id"]))] = (m.group(1) == "s", {"le": "little", "be": "big"}[m.group(2)
                                                                                                   or endian])
    return out


def _exact_words(cls: str, field: str, shown: list, raw: list[str]) -> list[int]:
    """The integers a JavaScript parser read as Numbers, from their bytes - after checking each Number is the
    nearest double of its integer (the runtime's documented precision)."""
    if (cls, field) not in _int8_fields():
        raise TreeError(f"{cls}.{field}: 8-byte numbers of no known u8 / s8 field")
    signed, order = _int8_fields()[(cls, field)]
    exact = [int.from_bytes(bytes.fromhex(h), order, signed=signed) for h in raw]
    for i, (n, e) in enumerate(zip(shown, exact, strict=True)):
        if not isinstance(n, (int, float)) or float(n) != float(e):
            raise TreeError(f"{cls}.{field}[{i}]: {n!r} is not the nearest double of {e}")
    return exact


def _unsigned(v: Any) -> Any:
    if isinstance(v, list):
        return [_unsigned(x) for x in v]
    return v + 2**64 if isinstance(v, int) and v < 0 else v


def objects(tree: Any, lang: str) -> Any:
    """A dumped JSON tree as objects shaped like the Python Kaitai parser's.  Java's ``u8`` is a signed
    ``long`` (Java users read it with ``Long.toUnsignedString``): it is read back as unsigned here."""
    if isinstance(tree, list):
        return [objects(v, lang) for v in tree]
    if isinstance(tree, dict):
        if "_bytes" in tree:
            return bytes.fromhex(tree["_bytes"])
        if "_float" in tree:
            return float(tree["_float"])
        if "_error" in tree:
            return _Failed(tree["_error"])
        node = _node_class(tree["_type"]).__new__(_node_class(tree["_type"]))
        node._values = {k: objects(v, lang) for k, v in tree.items() if k not in ("_type", "_raw8")}
        if lang == "java":
            for k, v in node._values.items():
                if _int8_fields().get((tree["_type"], k), (True, ""))[0] is False:
                    node._values[k] = _unsigned(v)
        for field, raw in (tree.get("_raw8") or {}).items():
            node._values[field] = _exact_words(tree["_type"], field, node._values[field], raw)
        return node
    return tree


def tree_to_plain(tree: dict, schema_id: str, lang: str) -> Any:
    """A dumped tree of schema ``schema_id``'s root type in the Construct codec's plain shape."""
    import importlib  # noqa: PLC0415

    from paimon_codec.kaitai_plain import kaitai_to_plain  # noqa: PLC0415

    layout = importlib.import_module(f"paimon_codec.generated.construct.{schema_id}").LAYOUT
    return kaitai_to_plain(objects(tree, lang), layout, schema_id)


if __name__ == "__main__":  # run.sh setup_tools: build the Java jar, fail loudly
    try:
        print("\n".join(java_classpath()))
    except LanguageUnavailable as exc:
        print(f"generated Java parsers: {exc}", file=sys.stderr)
        sys.exit(1)
