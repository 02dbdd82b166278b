"""The JVM worker process behind :class:`oracles.java_newest.JavaPaimon`.

Run as ``python -m oracles.java_worker '{"classpath": [...], "jvm_args": [...]}'`` (with ``tests/`` and the repository
root on ``PYTHONPATH``).  It starts ONE JPype JVM on that classpath (any Paimon version) and serves
JSON-line requests ``{"id", "method", "args"}`` from stdin, answering each with one line
``{"id", "ok": true, "result"}`` or ``{"id", "ok": false, "kind": "java"|"python", "java_class", "message",
"trace"}``.  The protocol owns the original stdout; file descriptor 1 is pointed at stderr before the
JVM starts, so Java's ``System.out``, SLF4J and any stray print cannot corrupt it.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Any

_METHODS = ("version", "create_table", "schema", "snapshot_id", "snapshot", "write", "compact", "alter", "create_tag",
            "create_branch", "fast_forward", "read", "plan_files",
            "write_partial", "write_global_index", "global_index_lookup", "create_btree_global_index",
            "file_indexes", "evaluate_file_index", "orphan_files", "expire", "read_changelog",
            "commit_global_index", "delete_dv", "compact_postpone")


def _java_error(exc: Any) -> dict[str, Any]:
    """Class, message (with the cause chain) and Java stack trace of a Java exception."""
    parts = []
    seen = 0
    cause = exc
    while cause is not None and seen < 8:
        msg = cause.getMessage()
        parts.append(f"{cause.getClass().getName()}" + ("" if msg is None else f": {msg}"))
        nxt = cause.getCause()
        cause = None if nxt is None or nxt.equals(cause) else nxt
        seen += 1
    import jpype

    writer = jpype.JClass("java.io.StringWriter")()
    exc.printStackTrace(jpype.JClass("java.io.PrintWriter")(writer))
    message = exc.getMessage()
    frames = exc.getStackTrace()
    if message is None and len(frames):  # e.g. a bare Preconditions.checkArgument: say where
        parts[0] += f" (at {frames[0].toString()})"
    return {"kind": "java", "java_class": str(exc.getClass().getName()),
            "message": str(message) if message is not None else "",
            "chain": " <- ".join(parts), "trace": str(writer.toString())[:20000]}


def _start_jvm(classpath: list[str], jvm_args: list[str]) -> None:
    import jpype

    xmx = os.environ.get("PAIMON_ORACLE_XMX", "1g")
    jpype.startJVM(jpype.getDefaultJVMPath(), f"-Xmx{xmx}", "-Xss4m", "-Duser.timezone=UTC", *jvm_args,
                   "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.logFile=System.err",
                   classpath=classpath, convertStrings=True)


def main(argv: list[str]) -> int:
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def send(obj: dict[str, Any]) -> None:
        protocol.write(json.dumps(obj) + "\n")
        protocol.flush()

    try:
        config = json.loads(argv[1])
        _start_jvm(config["classpath"], config.get("jvm_args", []))
        from .java_ops import PaimonOps

        ops = PaimonOps()
        send({"id": 0, "ok": True, "result": {"pid": os.getpid()}})
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, then exit
        send({"id": 0, "ok": False, "kind": "python", "message": f"{type(exc).__name__}: {exc}",
              "trace": traceback.format_exc()})
        return 1

    import jpype

    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        rid = req.get("id")
        method = req.get("method")
        if method == "shutdown":
            send({"id": rid, "ok": True, "result": None})
            break
        if method not in _METHODS:
            send({"id": rid, "ok": False, "kind": "python", "message": f"unknown method {method!r}"})
            continue
        try:
            result = getattr(ops, method)(**req.get("args", {}))
            send({"id": rid, "ok": True, "result": result})
        except jpype.JException as exc:
            send({"id": rid, "ok": False, **_java_error(exc)})
        except Exception as exc:  # noqa: BLE001 - every failure is an answer, the worker lives on
            send({"id": rid, "ok": False, "kind": "python", "message": f"{type(exc).__name__}: {exc}",
                  "trace": traceback.format_exc()})
    protocol.flush()
    return 0


if __name__ == "__main__":
    code = main(sys.argv)
    sys.stderr.flush()
    os._exit(code)  # no JVM shutdown dance: the parent is done with us
