"""Paimon Java as a test oracle: create, write, alter, compact, tag, branch, plan and read tables with Java
(and, on row-tracking tables, write partial columns and global indexes).

Tests get one oracle per session through the ``java_newest`` / ``java09_tables`` fixtures
(``tests/conftest.py``): add an operation here rather than starting another JVM driver.

JPype allows one JVM per process and the pytest process already hosts Paimon 0.9's
(:mod:`oracles.java09`), so :class:`JavaPaimon` drives a persistent worker subprocess
(:mod:`oracles.java_worker`) that hosts the JVM of the requested version (``NEWEST`` = 1.4.2 from Maven
Central, or ``"0.9"``).  Calls are synchronous JSON-line requests; Arrow data travels through temporary
IPC files.  Java exceptions come back as :class:`JavaError` carrying Java's class and message.

    with JavaPaimon() as java:
        path = java.create_table(str(tmp), "db.t", "id INT NOT NULL, v STRING", primary_keys=["id"],
                                 options={"bucket": "2"})
        java.write(path, pa.table({"id": [1, 2], "v": ["a", "b"]}))
        java.read(path, where="v = 'a'")          # exactly the rows Paimon returns

``where`` is SQL text (:func:`paimon_codec.expressions.parse_where`), the project's JSON predicate form
(``docs/predicates.md``) or a :class:`paimon_codec.expressions.predicate.Predicate`.  Paimon uses a
read filter for pruning only, so the worker also tests every row with Java's ``Predicate.test``: the
result is exactly the matching rows, as Paimon's engines return them.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa

from .java_jars import NEWEST, OracleUnavailable, classpath
from .quick_guard import refuse_in_quick_run

__all__ = ["NEWEST", "JavaError", "JavaPaimon", "OracleError", "OracleUnavailable"]

_TESTS = Path(__file__).resolve().parents[1]
_REPO = _TESTS.parent


class OracleError(RuntimeError):
    """The worker failed (a Python-side error, or the process died); the message says why."""


class JavaError(OracleError):
    """Paimon Java raised: ``java_class`` and ``java_message`` are Java's; ``str()`` has the cause chain."""

    def __init__(self, java_class: str, java_message: str, chain: str, trace: str = "") -> None:
        super().__init__(chain or f"{java_class}: {java_message}")
        self.java_class = java_class
        self.java_message = java_message
        self.trace = trace


def _java_available() -> None:
    java_home = os.environ.get("JAVA_HOME")
    if shutil.which("java") is None and not (java_home and Path(java_home, "bin", "java").exists()):
        raise OracleUnavailable("no Java runtime (install Java 17 or set JAVA_HOME)")


class JavaPaimon:
    """One Paimon Java version in one worker process; close it (or use ``with``) when done."""

    def __init__(self, version: str = NEWEST, *, fetch: bool = True, jvm_args: Sequence[str] = ()) -> None:
        """Start the worker.  ``jvm_args`` are extra JVM options, e.g. ``-XX:TieredStopAtLevel=1`` (faster
        warm-up for small test tables; leave it out when timing Java).  Raises :class:`OracleUnavailable`."""
        refuse_in_quick_run("java", f"Paimon Java {version} worker JVM")
        self.version = version
        cp = classpath(version, fetch=fetch)
        _java_available()
        self._tmp = Path(tempfile.mkdtemp(prefix=f"paimon-java-{version}-"))
        self._log_path = self._tmp / "worker.log"
        self._log = open(self._log_path, "w+b")  # noqa: SIM115 - lives as long as the worker
        self._ids = itertools.count(1)
        self._files = itertools.count()
        self._lock = threading.Lock()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(_TESTS), str(_REPO), *filter(None, [env.get("PYTHONPATH")])])
        self._proc: subprocess.Popen | None = subprocess.Popen(
            [sys.executable, "-m", "oracles.java_worker",
             json.dumps({"classpath": cp, "jvm_args": list(jvm_args)})], cwd=str(_REPO), env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, text=True, encoding="utf-8",
            bufsize=1)
        try:
            self._receive(0)
        except OracleError as exc:
            self.close()
            raise OracleUnavailable(f"Paimon Java {version} worker did not start: {exc}") from exc

    # ------------------------------------------------------------------------------ protocol

    def log_tail(self, lines: int = 30) -> str:
        """The last lines the worker wrote to stderr (Java logs, crashes)."""
        try:
            text = self._log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def _receive(self, rid: int) -> Any:
        assert self._proc is not None and self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            code = self._proc.poll()
            raise OracleError(f"Paimon Java worker exited (code {code}); its stderr ends with:\n{self.log_tail()}")
        reply = json.loads(line)
        if reply.get("id") != rid:
            raise OracleError(f"Paimon Java worker answered request {reply.get('id')}, expected {rid}")
        if reply["ok"]:
            return reply["result"]
        if reply.get("kind") == "java":
            raise JavaError(reply["java_class"], reply["message"], reply.get("chain", ""), reply.get("trace", ""))
        raise OracleError(f"{reply['message']}\n{reply.get('trace', '')}")

    def _call(self, method: str, **args: Any) -> Any:
        with self._lock:
            if self._proc is None:
                raise OracleError("this JavaPaimon is closed")
            rid = next(self._ids)
            assert self._proc.stdin is not None
            try:
                self._proc.stdin.write(json.dumps({"id": rid, "method": method, "args": args}) + "\n")
                self._proc.stdin.flush()
            except (BrokenPipeError, OSError) as exc:
                raise OracleError(f"Paimon Java worker is gone ({exc}); stderr:\n{self.log_tail()}") from exc
            return self._receive(rid)

    def _temp_file(self, kind: str) -> str:
        return str(self._tmp / f"{kind}-{next(self._files)}.arrow")

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            try:
                if proc.poll() is None and proc.stdin is not None:
                    proc.stdin.write(json.dumps({"id": -1, "method": "shutdown"}) + "\n")
                    proc.stdin.close()
                proc.wait(timeout=20)
            except (OSError, subprocess.TimeoutExpired, ValueError):
                proc.kill()
                proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()
        self._log.close()
        shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self) -> JavaPaimon:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ------------------------------------------------------------------------------ tables

    def create_table(self, warehouse: str | os.PathLike, name: str, schema: str, *,
                     primary_keys: Sequence[str] = (), partition_keys: Sequence[str] = (),
                     options: Mapping[str, str] | None = None) -> str:
        """Create ``name`` (``"db.t"``) in the filesystem catalog at ``warehouse``; returns the table dir.

        ``schema`` is in this project's type syntax (``"id INT NOT NULL, a ARRAY<ROW<x INT>>"``).
        """
        return self._call("create_table", warehouse=os.fspath(warehouse), name=name, schema=schema,
                          primary_keys=list(primary_keys), partition_keys=list(partition_keys),
                          options={str(k): str(v) for k, v in (options or {}).items()})

    def schema(self, table_path: str | os.PathLike, *, branch: str | None = None) -> str:
        """The table's current row type as Java sees it, in this project's type syntax."""
        return self._call("schema", table_path=os.fspath(table_path), branch=branch)

    def snapshot_id(self, table_path: str | os.PathLike, *, branch: str | None = None) -> int | None:
        """Latest snapshot id (``None`` before the first commit)."""
        return self._call("snapshot_id", table_path=os.fspath(table_path), branch=branch)

    def snapshot(self, table_path: str | os.PathLike, snapshot_id: int | None = None, *,
                 branch: str | None = None) -> dict[str, Any] | None:
        """``{"id", "schema_id", "time_millis", "commit_kind"}`` of a snapshot (default: the latest)."""
        return self._call("snapshot", table_path=os.fspath(table_path), snapshot_id=snapshot_id, branch=branch)

    def write(self, table_path: str | os.PathLike, rows: pa.Table | Sequence[Mapping[str, Any]], *,
              row_kinds: Sequence[str] | None = None, branch: str | None = None) -> int | None:
        """Write ``rows`` in one batch commit; returns the new snapshot id (``None`` if none was made).

        Columns are matched by name; table columns missing from ``rows`` are written as null.  Values
        follow the Arrow types (timestamps of any unit, date32, time32/64, decimal128, list / map /
        struct nested freely).  ``row_kinds`` ('+I', '-U', '+U', '-D') are per row, for primary-key tables.
        """
        table = rows if isinstance(rows, pa.Table) else pa.Table.from_pylist(list(rows))
        path = self._temp_file("in")
        try:
            with pa.OSFile(path, "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
                writer.write_table(table)
            return self._call("write", table_path=os.fspath(table_path), arrow_file=path,
                              row_kinds=None if row_kinds is None else list(row_kinds), branch=branch)
        finally:
            Path(path).unlink(missing_ok=True)

    def write_partial(self, table_path: str | os.PathLike,
                      parts: Sequence[tuple[pa.Table, int | None]]) -> int | None:
        """One commit of partial-column writes on a data-evolution table (row tracking on); returns the new
        snapshot id.  Each part ``(rows, first_row_id)`` writes only the columns of ``rows``
        (``withWriteType``); a ``first_row_id`` makes it an update of the rows from that row id (as Paimon's
        own tests write one: ``DataFileMeta.assignFirstRowId``), ``None`` appends new rows."""
        requests: list[dict[str, Any]] = []
        try:
            for rows, first_row_id in parts:
                requests.append({"arrow_file": self._temp_file("in"), "first_row_id": first_row_id})
                with pa.OSFile(requests[-1]["arrow_file"], "wb") as sink, \
                        pa.ipc.new_file(sink, rows.schema) as writer:
                    writer.write_table(rows)
            return self._call("write_partial", table_path=os.fspath(table_path), parts=requests)
        finally:
            for request in requests:
                Path(request["arrow_file"]).unlink(missing_ok=True)

    def alter(self, table_path: str | os.PathLike, changes: Sequence[Mapping[str, Any]], *,
              branch: str | None = None) -> None:
        """Commit schema changes (``SchemaManager.commitChanges``), each one of
        ``{"op": "rename", "from", "to"}``, ``{"op": "add", "name", "type", "first"?, "after"?}``,
        ``{"op": "drop", "name"}``, ``{"op": "type", "name", "type"}``, ``{"op": "nullability", "name",
        "nullable"}``, ``{"op": "set", "key", "value"}``, ``{"op": "remove", "key"}``.  For rename, add, drop
        and type, a list ``name`` / ``from`` is the path of a nested field: ``["r", "q"]`` (inside a ROW),
        ``["arr", "element", "x"]``, ``["m", "value", "w"]``."""
        self._call("alter", table_path=os.fspath(table_path), changes=[dict(c) for c in changes], branch=branch)

    def compact(self, table_path: str | os.PathLike, *, full: bool = True, branch: str | None = None) -> int | None:
        """Compact every (partition, bucket) that holds files, in one commit; returns the snapshot id."""
        return self._call("compact", table_path=os.fspath(table_path), full=full, branch=branch)

    def compact_postpone(self, table_path: str | os.PathLike, *, branch: str | None = None) -> int | None:
        """Paimon's compaction of a postpone-bucket table (its Flink job's steps, one task): every partition's
        ``bucket-postpone`` files replayed in creation-time order into real buckets; returns the snapshot id."""
        return self._call("compact_postpone", table_path=os.fspath(table_path), branch=branch)

    def delete_dv(self, table_path: str | os.PathLike, where: Any, *, branch: str | None = None) -> dict[str, Any]:
        """Java's DELETE on an append table with deletion vectors (its Spark command's table-API half):
        ``{"snapshot_id", "files_planned", "positions": {data file: [deleted positions]}}``."""
        return self._call("delete_dv", table_path=os.fspath(table_path), where=_where(where), branch=branch)

    def create_tag(self, table_path: str | os.PathLike, tag: str, snapshot_id: int | None = None, *,
                   branch: str | None = None) -> None:
        """Tag ``snapshot_id`` (default: the latest snapshot)."""
        self._call("create_tag", table_path=os.fspath(table_path), tag=tag, snapshot_id=snapshot_id, branch=branch)

    def create_branch(self, table_path: str | os.PathLike, branch: str, tag: str | None = None) -> None:
        """Create ``branch`` (empty, or from ``tag``)."""
        self._call("create_branch", table_path=os.fspath(table_path), branch=branch, tag=tag)

    def fast_forward(self, table_path: str | os.PathLike, branch: str) -> None:
        """Make ``branch`` the main branch's state (``Table.fastForward``)."""
        self._call("fast_forward", table_path=os.fspath(table_path), branch=branch)

    def read(self, table_path: str | os.PathLike, *, where: Any = None, projection: Sequence[str] | None = None,
             snapshot_id: int | None = None, tag: str | None = None, branch: str | None = None,
             timestamp_ms: int | None = None) -> pa.Table:
        """Paimon's own batch read: exactly the rows matching ``where``, columns ``projection``."""
        path = self._temp_file("out")
        try:
            self._call("read", table_path=os.fspath(table_path), out_file=path, where=_where(where),
                       projection=None if projection is None else list(projection), snapshot_id=snapshot_id,
                       tag=tag, branch=branch, timestamp_ms=timestamp_ms)
            with pa.OSFile(path) as fh:
                return pa.ipc.open_file(fh).read_all()
        finally:
            Path(path).unlink(missing_ok=True)


    def plan_files(self, table_path: str | os.PathLike, *, snapshot_id: int | None = None, tag: str | None = None,
                   branch: str | None = None, timestamp_ms: int | None = None, where: Any = None) -> list[str]:
        """Sorted names of the data files Java's batch scan plans (``newScan().plan().splits()``), with
        ``where`` pushed down as a filter."""
        return self._call("plan_files", table_path=os.fspath(table_path), snapshot_id=snapshot_id, tag=tag,
                          branch=branch, timestamp_ms=timestamp_ms, where=_where(where))


    def write_global_index(self, table_path: str | os.PathLike, column: str, index_type: str,
                           values: Sequence[Any]) -> list[dict[str, Any]]:
        """Write (not commit) ``index_type`` (``"btree"``, ``"bitmap"``) global-index files of ``column``
        over ``values`` (row ids 0, 1, ...; ``None`` is NULL) into the table's ``index/`` dir; returns the
        writer's entries ``{"file_name", "row_count", "meta"}`` (meta as hex or ``None``)."""
        return self._call("write_global_index", table_path=os.fspath(table_path), column=column,
                          index_type=index_type, values=_wire_values(values))

    def commit_global_index(self, table_path: str | os.PathLike, column: str, index_type: str,
                            values: Sequence[Any]) -> int | None:
        """Write and commit ``index_type`` global-index files of ``column`` over ``values`` (by row id from 0)
        the way Paimon's builders commit theirs; returns the new snapshot id."""
        return self._call("commit_global_index", table_path=os.fspath(table_path), column=column,
                          index_type=index_type, values=_wire_values(values))

    def create_btree_global_index(self, table_path: str | os.PathLike, column: str) -> int | None:
        """Build and commit a B-tree global index of ``column`` (Paimon's ``BTreeGlobalIndexBuilder``, what
        its ``create_global_index`` procedures run); returns the new snapshot id."""
        return self._call("create_btree_global_index", table_path=os.fspath(table_path), column=column)

    def global_index_lookup(self, table_path: str | os.PathLike, column: str, index_type: str,
                            files: Sequence[dict[str, Any]], op: str, literals: Sequence[Any] = ()) -> list[int] | None:
        """Java's ``GlobalIndexReader`` answer (sorted relative row ids, ``None``: no answer) for ``op``
        (``equal``, ``not_equal``, ``less_than``, ``less_or_equal``, ``greater_than``, ``greater_or_equal``,
        ``in``, ``not_in``, ``is_null``, ``is_not_null``) over index ``files``
        (``{"file_name", "file_size", "meta"}``) of ``column``."""
        return self._call("global_index_lookup", table_path=os.fspath(table_path), column=column,
                          index_type=index_type, files=list(files), op=op, literals=_wire_values(literals))


    def file_indexes(self, table_path: str | os.PathLike, *, mode: str = "writer") -> dict[str, dict[str, Any]]:
        """Java's index containers for every live data file of the latest snapshot: ``mode="writer"`` runs
        ``DataFileIndexWriter`` with the table's current options over each file's rows (nothing written
        into the table); ``mode="processor"`` runs ``FileIndexProcessor.process`` (its rewrite step; it
        writes index files beside the data files: use a copy of the table).  Per file name:
        ``{"embedded": bytes | None, "index_file": name | None, "index_bytes": bytes | None,
        "extra_files": [...]}``."""
        raw = self._call("file_indexes", table_path=os.fspath(table_path), mode=mode)
        for v in raw.values():
            for k in ("embedded", "index_bytes"):
                v[k] = None if v[k] is None else bytes.fromhex(v[k])
        return raw

    def evaluate_file_index(self, table_path: str | os.PathLike, container: bytes, where: Any) -> Any:
        """Java's ``FileIndexPredicate.evaluate`` of ``where`` (bound to the table's row type) on container
        bytes: ``"REMAIN"``, ``"SKIP"`` or the sorted selected row positions."""
        return self._call("evaluate_file_index", table_path=os.fspath(table_path), container_hex=container.hex(),
                          where=_where(where))

    def orphan_files(self, table_path: str | os.PathLike, older_than_ms: int, *, dry_run: bool = True) -> list[str]:
        """The paths Paimon's ``LocalOrphanFilesClean`` deletes (``dry_run``: would delete), sorted."""
        return self._call("orphan_files", table_path=os.fspath(table_path), older_than_ms=int(older_than_ms),
                          dry_run=bool(dry_run))["paths"]

    def expire(self, table_path: str | os.PathLike, options: Mapping[str, Any], *, changelogs: bool = False) -> int:
        """Expire snapshots (``changelogs``: long-lived changelogs) under retention ``options``
        (``snapshot.num-retained.max``, ``changelog.num-retained.max``, ...); returns how many expired."""
        return self._call("expire", table_path=os.fspath(table_path),
                          options={str(k): str(v) for k, v in options.items()}, changelogs=bool(changelogs))

    def read_changelog(self, table_path: str | os.PathLike, start: int, end: int, *,
                       branch: str | None = None) -> list[str]:
        """Java's changelog rows of snapshots ``(start, end]`` (``incremental-between``, changelog mode), as
        sorted ``"<row kind> <values>"`` lines."""
        return self._call("read_changelog", table_path=os.fspath(table_path), start=int(start), end=int(end),
                          branch=branch)


def _wire_values(values: Sequence[Any]) -> list[Any]:
    """Values (``paimon_codec.values`` conventions) as JSON the worker's converters take: a ``Decimal`` as its
    text (``Decimal(text)`` there), a ``Timestamp`` as ``[millis, nanos]``; floats keep NaN / infinities / -0.0."""
    import decimal  # noqa: PLC0415

    return [format(v, "f") if isinstance(v, decimal.Decimal) else v for v in values]


def _where(where: Any) -> dict[str, Any] | None:
    if where is None:
        return None
    if isinstance(where, str):
        return {"sql": where}
    if isinstance(where, Mapping):
        return {"json": dict(where)}
    to_json = getattr(where, "to_dict", None)
    if to_json is None:
        raise TypeError(f"where must be SQL text, a JSON predicate or a Predicate, not {type(where).__name__}")
    return {"json": to_json()}
