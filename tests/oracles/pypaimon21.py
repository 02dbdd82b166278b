"""pypaimon 2.1 as a test oracle: writes tables of its own and reads them back its own way.

pypaimon 2.1.0 pins ``pyarrow < 20``, so it lives in a venv of its own (:func:`pypaimon_venv`,
``${XDG_CACHE_HOME:-~/.cache}/paimon-codec/venv-pypaimon-2.1.0``, with ``pypaimon-rust`` for the
Rust writer behind ``write.native.enabled``).  :class:`PyPaimon` drives one persistent worker
process (``pypaimon_worker.py``, run by that venv's python): JSON requests on its stdin, JSON
responses on a pipe of their own, rows as Arrow IPC temp files.

Run as a script (``python tests/oracles/pypaimon21.py``) it creates the venv and checks it.
"""

from __future__ import annotations

import base64
import datetime as dt
import fcntl
import functools
import importlib.util
import json
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import Any

import pyarrow as pa

from paimon_codec.expressions import And, Leaf, Or
from paimon_codec.planning.plan import as_predicate
from paimon_codec.types import DataType, RowType, parse_row_type
from paimon_codec.values import Timestamp

try:
    from .quick_guard import refuse_in_quick_run
except ImportError:  # run as a script (./run.sh's set-up): tests/oracles is on sys.path
    from quick_guard import refuse_in_quick_run  # type: ignore[no-redef]

PYPAIMON_VERSION = "2.1.0"
PYPAIMON_RUST_VERSION = "0.4.0"
WORKER = Path(__file__).resolve().with_name("pypaimon_worker.py")
_EPOCH_DAY = dt.date(1970, 1, 1)


class OracleError(RuntimeError):
    """The pypaimon worker failed (its traceback is in the message)."""


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "paimon-codec"


def _venv_works(python: Path) -> bool:
    if not python.exists():
        return False
    probe = ("import importlib.metadata as m, pypaimon, pypaimon_rust.datafusion; "
             f"assert m.version('pypaimon') == '{PYPAIMON_VERSION}', m.version('pypaimon')")
    return subprocess.run([str(python), "-c", probe], capture_output=True, timeout=120).returncode == 0


def pypaimon_venv() -> Path:
    """The python of a venv with pypaimon 2.1.0 + pypaimon-rust; created (under a file lock) when missing
    or broken.  Raises ``RuntimeError`` when it cannot be created."""
    refuse_in_quick_run("pypaimon", "the pypaimon 2.1 venv")
    root = _cache_dir()
    root.mkdir(parents=True, exist_ok=True)
    venv = root / f"venv-pypaimon-{PYPAIMON_VERSION}"
    python = venv / "bin" / "python"
    with open(root / f"venv-pypaimon-{PYPAIMON_VERSION}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _venv_works(python):
            return python
        shutil.rmtree(venv, ignore_errors=True)
        base = shutil.which("python3") or sys.executable
        steps = [[base, "-m", "venv", str(venv)],
                 [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                  f"pypaimon=={PYPAIMON_VERSION}", f"pypaimon-rust=={PYPAIMON_RUST_VERSION}"]]
        for cmd in steps:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
            if done.returncode != 0:
                raise RuntimeError(f"cannot create the pypaimon {PYPAIMON_VERSION} venv at {venv}: "
                                   f"{' '.join(cmd[:4])} failed:\n{done.stderr[-2000:]}")
        if not _venv_works(python):
            raise RuntimeError(f"the pypaimon venv at {venv} does not import pypaimon {PYPAIMON_VERSION}")
        return python


# -- schema and predicate encoding for the worker (which has no paimon_codec) -------------------------
def _type_json(t: DataType) -> Any:
    """Paimon's schema-file JSON of a type: a string for atomic types, an object for nested ones."""
    suffix = "" if t.nullable else " NOT NULL"
    if t.root in ("ARRAY", "MULTISET"):
        return {"type": t.root + suffix, "element": _type_json(t.children[0])}
    if t.root == "MAP":
        return {"type": "MAP" + suffix, "key": _type_json(t.children[0]), "value": _type_json(t.children[1])}
    if t.root == "ROW":
        return {"type": "ROW" + suffix,
                "fields": [{"name": n, "type": _type_json(c)} for n, c in zip(t.field_names, t.children, strict=True)]}
    return str(t)


def schema_fields(schema: str | RowType) -> list[dict]:
    return [{"name": f.name, "type": _type_json(f.type)} for f in parse_row_type(schema)]


def _plain(value: Any, dtype: DataType) -> Any:
    """A bound literal as the plain Python value pyarrow / pypaimon take."""
    if value is None:
        return None
    if dtype.root == "DATE":
        return _EPOCH_DAY + dt.timedelta(days=int(value))
    if isinstance(value, Timestamp):
        return value.to_datetime()
    if dtype.root == "TIME_WITHOUT_TIME_ZONE" and isinstance(value, int):
        return (dt.datetime(1970, 1, 1) + dt.timedelta(milliseconds=value)).time()
    if isinstance(value, (bool, int, float, str, bytes, Decimal, dt.date, dt.datetime, dt.time)):
        return value
    raise OracleError(f"literal {value!r} of type {dtype} has no plain form for pypaimon")


def _tree(pred: Any, row_type: RowType) -> tuple:
    if isinstance(pred, (And, Or)):
        return ("and" if isinstance(pred, And) else "or", [_tree(c, row_type) for c in pred.children])
    if isinstance(pred, Leaf):
        dtype = row_type.field(pred.column).type
        return ("leaf", pred.op, pred.column, [_plain(v, dtype) for v in pred.literals])
    raise OracleError(f"not a predicate: {pred!r}")


def encode_where(where: Any, row_type: RowType) -> str | None:
    """``where`` (JSON form, SQL text or predicate) bound to ``row_type``, as the worker's pickled tree."""
    pred = as_predicate(where, row_type)
    return None if pred is None else base64.b64encode(pickle.dumps(_tree(pred, row_type))).decode()


def filter_exact(rows: pa.Table, where: Any, row_type: RowType) -> pa.Table:
    """The rows of ``rows`` that satisfy ``where`` (SQL semantics: null is no match), evaluated with
    pyarrow compute exactly as the worker filters pypaimon's read, so both sides use one filter."""
    pred = as_predicate(where, row_type)
    if pred is None or rows.num_rows == 0:
        return rows
    return rows.filter(_worker_module().arrow_mask(rows, _tree(pred, row_type)).fill_null(False))


@functools.cache
def _worker_module():
    """The worker file as a module of this process (it needs only pyarrow and the standard library)."""
    spec = importlib.util.spec_from_file_location("pypaimon_worker", WORKER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _write_ipc(table: pa.Table, path: str) -> None:
    with pa.OSFile(path, "wb") as sink, pa.ipc.new_file(sink, table.schema) as w:
        w.write_table(table)


def _read_ipc(path: str) -> pa.Table:
    with pa.OSFile(path, "rb") as src:
        return pa.ipc.open_file(src).read_all()


class PyPaimon:
    """A persistent pypaimon 2.1 worker.  Use as a context manager or call :meth:`close`."""

    def __init__(self, python: Path | None = None):
        refuse_in_quick_run("pypaimon", "the pypaimon 2.1 worker")
        self.python = python or pypaimon_venv()
        self._tmp = tempfile.TemporaryDirectory(prefix="pypaimon-oracle-")
        self._n = 0
        read_fd, write_fd = os.pipe()
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        env.pop("PYTHONPATH", None)
        self._proc = subprocess.Popen([str(self.python), str(WORKER), str(write_fd)], stdin=subprocess.PIPE,
                                      pass_fds=(write_fd,), text=True, env=env, cwd=self._tmp.name)
        os.close(write_fd)
        self._responses = os.fdopen(read_fd, "r")
        self.versions = self._call("versions")

    # -- plumbing --
    def _file(self, suffix: str) -> str:
        self._n += 1
        return os.path.join(self._tmp.name, f"{self._n}{suffix}")

    def _call(self, op: str, **req: Any) -> Any:
        if self._proc.poll() is not None:
            raise OracleError(f"pypaimon worker exited with {self._proc.returncode}")
        self._proc.stdin.write(json.dumps(dict(req, op=op), default=str) + "\n")
        self._proc.stdin.flush()
        line = self._responses.readline()
        if not line:
            raise OracleError(f"pypaimon worker died during {op!r} (exit {self._proc.wait()})")
        resp = json.loads(line)
        if not resp["ok"]:
            raise OracleError(f"pypaimon {op} failed: {resp['error']}\n{resp['traceback']}")
        return resp["result"]

    def close(self) -> None:
        if self._proc.poll() is None:
            self._proc.stdin.close()
            try:
                self._proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._proc.kill()
        self._responses.close()
        self._tmp.cleanup()

    def __enter__(self) -> PyPaimon:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- the oracle API --
    def create_table(self, warehouse: str | os.PathLike, name: str, schema: str | RowType, *,
                     primary_keys=(), partition_keys=(), options: dict | None = None) -> str:
        """Create ``default.NAME`` (or ``DB.NAME``) in a filesystem catalog; returns the table path."""
        return self._call("create_table", warehouse=str(warehouse), name=name, fields=schema_fields(schema),
                          primary_keys=list(primary_keys), partition_keys=list(partition_keys),
                          options={k: str(v) for k, v in (options or {}).items()})["path"]

    def write(self, table_path: str | os.PathLike, rows: pa.Table, *, overwrite: bool = False,
              native: bool = False) -> int | None:
        """One commit of ``rows`` (columns by name); ``native`` = through pypaimon-rust (must be taken).
        Returns the new snapshot id."""
        path = self._file(".arrow")
        _write_ipc(rows, path)
        try:
            res = self._call("write", table_path=str(table_path), data=path, overwrite=overwrite, native=native)
        finally:
            os.unlink(path)
        if res["writer"] != ("native" if native else "python"):
            raise OracleError(f"asked for the {'native' if native else 'python'} writer, pypaimon used "
                              f"{res['writer']} for {table_path}")
        return res["snapshot_id"]

    def alter(self, table_path: str | os.PathLike, changes: list[dict]) -> None:
        """Schema changes: ``{"op":"rename","from","to"}``, ``{"op":"add","name","type"}``,
        ``{"op":"drop","name"}``, ``{"op":"type","name","type"}``, ``{"op":"set","key","value"}``."""
        out = []
        for c in changes:
            c = dict(c)
            if "type" in c:
                c["type"] = _type_json(parse_row_type(f"x {c['type']}").fields[0].type)
            out.append(c)
        self._call("alter", table_path=str(table_path), changes=out)

    def read(self, table_path: str | os.PathLike, *, where: Any = None, projection=None,
             snapshot_id: int | None = None, tag: str | None = None) -> pa.Table:
        """pypaimon's own read (filter pushed to pypaimon), then filtered exactly to matching rows."""
        from paimon_codec.table.table import PaimonTable
        table = PaimonTable(str(table_path))
        # a read of the latest snapshot runs under the table's current schema (as Paimon's), time travel
        # under the snapshot's own
        travel = snapshot_id is not None or tag is not None
        snapshot = table.tag(tag) if tag is not None else table.snapshot(snapshot_id) if travel else None
        row_type = table.schema_of(snapshot).fields
        out = self._file(".arrow")
        self._call("read", table_path=str(table_path), where=encode_where(where, row_type),
                   projection=None if projection is None else list(projection),
                   snapshot_id=snapshot_id, tag=tag, out=out)
        try:
            return _read_ipc(out)
        finally:
            os.unlink(out)

    def run(self, code: str, **kwargs: Any) -> Any:
        """Run ``code`` in the worker (names: ``pa``, ``pc``, ``pypaimon``, ``kwargs``, ``catalog(warehouse)``,
        ``table(path, options=None)``, ``commit_write(table, arrow_table, overwrite)``); returns what it
        assigns to ``result`` (a pyarrow Table comes back as one)."""
        out = self._file(".arrow")
        res = self._call("run", code=code, kwargs=kwargs, out=out)
        if res.get("arrow"):
            try:
                return _read_ipc(out)
            finally:
                os.unlink(out)
        return res["value"]


if __name__ == "__main__":
    print(pypaimon_venv())
    with PyPaimon() as oracle:
        print(json.dumps(oracle.versions))
