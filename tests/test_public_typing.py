"""The public API as type checkers and users see it (issue 23).

* ``tests/typing/user_program.py`` - a user's program (open a table, plan with a built predicate, read,
  write an index, catch errors by class) - passes ``mypy --strict`` with every ``assert_type`` holding and
  every deliberate misuse still an error, and runs;
* every name a package face exports is a real type to mypy (``reveal_type`` never says ``Any``: a lazy
  ``__getattr__`` export without its ``TYPE_CHECKING`` import, or an untyped re-export, fails here), and is
  exported by one face only; only the faces a Spark worker imports (:data:`LAZY_FACES`) bind names lazily;
* the exception tree says what kind of problem an error is, and only data / usage errors are ValueErrors.
"""

from __future__ import annotations

import importlib
import inspect
import os
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest

import paimon_codec
from paimon_codec import errors
from paimon_codec.modes import CommitKind, DistributedPlanning, Semantics, WriteMode, mode_value

REPO = Path(__file__).resolve().parents[1]
PROGRAM = REPO / "tests" / "typing" / "user_program.py"
# the package faces users import from; implementation subpackages (fileindex.bitmap, ...) are not faces
FACES = ["paimon_codec", "paimon_codec.expressions", "paimon_codec.fileindex", "paimon_codec.table",
         "paimon_codec.planning", "paimon_codec.reading", "paimon_codec.writing", "paimon_codec.writing.commit",
         "paimon_codec.dv", "paimon_codec.bucket", "paimon_codec.storage", "paimon_codec.spark"]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *[p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]])
    return env


@pytest.fixture(scope="module")
def mypy_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, list[str]]:
    """One mypy run over the user program and a file revealing every face's exports (mypy is slow)."""
    probe = tmp_path_factory.mktemp("typing") / "exports_probe.py"
    lines = ["import " + face for face in FACES]
    names = []
    for face in FACES:
        for name in importlib.import_module(face).__all__:
            if name != "__version__":
                names.append(f"{face}.{name}")
                lines.append(f"reveal_type({face}.{name})")
    probe.write_text("\n".join(lines) + "\n")
    # a cache of its own (these options are not the gate's): a warm run checks only what changed, 0.3 CPU-s
    # instead of 4-6; mypy reports a cached module's errors again, so the result is the cold run's
    cache = REPO / ".mypy_cache" / "strict-user-program"
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--warn-unused-ignores",
                          "--cache-dir", str(cache), "--python-version", "3.11", str(PROGRAM), str(probe)],
                         capture_output=True, text=True, cwd=REPO, env=_env(), timeout=600)
    return out.returncode, out.stdout + out.stderr, names


def test_user_program_passes_mypy_strict(mypy_run: tuple[int, str, list[str]]) -> None:
    _, output, _ = mypy_run
    program_errors = [line for line in output.splitlines() if line.startswith(str(PROGRAM.relative_to(REPO)))
                      or line.startswith(str(PROGRAM))]
    assert program_errors == [], "\n".join(program_errors)


def test_every_export_is_typed(mypy_run: tuple[int, str, list[str]]) -> None:
    _, output, names = mypy_run
    revealed = re.findall(r'exports_probe\.py:(\d+): note: Revealed type is "(.*)"', output)
    assert len(revealed) == len(names), output[-3000:]
    untyped = [names[int(line) - len(FACES) - 1] for line, shown in revealed if shown == "Any" or shown.startswith("Any")]
    assert untyped == [], f"exports mypy sees as Any: {untyped}"
    probe_errors = [line for line in output.splitlines() if "exports_probe.py" in line and ": error:" in line]
    assert probe_errors == [], "\n".join(probe_errors)


# faces a Spark Python worker imports to read (unpickling a reader or a task): their heavy names (the planner, the
# writers, the audit) are bound on first use by a PEP 562 ``__getattr__``, typed by ``TYPE_CHECKING`` imports
# (test_every_export_is_typed holds them to it); every other face binds its exports eagerly
LAZY_FACES = {"paimon_codec.spark", "paimon_codec.planning"}


def test_faces_bind_every_export_once() -> None:
    home: dict[int, list[str]] = {}
    for face in FACES:
        module = importlib.import_module(face)
        lazy = "__getattr__" in vars(module)
        assert not lazy or face in LAZY_FACES, f"{face} exports lazily (type checkers see Any)"
        for name in module.__all__:
            obj = getattr(module, name) if lazy else vars(module).get(name)
            assert obj is not None or name == "__version__", f"{face}.{name} is not bound at import"
            if inspect.isclass(obj) or inspect.isfunction(obj) or inspect.isbuiltin(obj):
                home.setdefault(id(obj), []).append(f"{face}.{name}")
    twice = sorted(places for places in home.values() if len(places) > 1)
    assert twice == [], f"names exported by more than one face: {twice}"


def test_spark_function_names_win_over_their_submodules() -> None:
    """``paimon_codec.spark.scan`` is the function, also after the submodule ``scan`` is imported (as a Spark
    worker unpickling a scan task imports it), and ``from paimon_codec.spark import scan`` gives the function."""
    code = ("import inspect, paimon_codec.spark as s\n"
            "import paimon_codec.spark.scan, paimon_codec.spark.audit, paimon_codec.spark.delete, paimon_codec.spark.write\n"
            "from paimon_codec.spark import scan, audit, delete, write, compact\n"
            "names = (scan, audit, delete, write, compact, s.scan, s.audit, s.delete, s.write)\n"
            "print(all(inspect.isfunction(f) for f in names), s.scan is scan)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(), timeout=600)
    assert out.stdout.split() == ["True", "True"], out.stdout + out.stderr


def test_a_spark_worker_imports_no_planner_writer_or_driver_code() -> None:
    """What a Spark Python worker imports to read a ``paimon_codec`` source partition or a scan's tasks: not the
    planner, the writers, the audit or the file-index readers (issue 25: a cold worker paid seconds for them)."""
    code = ("import sys\n"
            "import paimon_codec.spark.source, paimon_codec.spark.source_read, paimon_codec.spark.group_read\n"
            "import paimon_codec.reading.read, paimon_codec.reading.arrow_filter, paimon_codec.planning.tasks\n"
            "heavy = ['paimon_codec.planning.plan', 'paimon_codec.spark.scan', 'paimon_codec.spark.audit',\n"
            "         'paimon_codec.spark.write', 'paimon_codec.writing', 'paimon_codec.maintenance.inventory',\n"
            "         'paimon_codec.spark.delete', 'paimon_codec.spark.rewrite', 'paimon_codec.fileindex']\n"
            "print(' '.join(m for m in heavy if m in sys.modules) or 'none')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(), timeout=600)
    assert out.returncode == 0 and out.stdout.strip() == "none", out.stdout + out.stderr


def test_user_program_runs(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, str(PROGRAM), str(tmp_path)], capture_output=True, text=True,
                         env=_env(), timeout=600)
    assert out.returncode == 0 and out.stdout.strip() == "ok 3", out.stdout + out.stderr


# ---------------------------------------------------------------------------------------------- the tree
def test_only_data_and_usage_errors_are_value_errors() -> None:
    value_errors = {name for name in errors.__all__ if issubclass(getattr(errors, name), ValueError)}
    assert value_errors == {"DataError", "CorruptDataError", "TruncatedDataError", "ChecksumMismatchError",
                            "UnsupportedVersionError", "UsageError", "InvalidOptionError", "InvalidPredicateError",
                            "InvalidSchemaError", "BranchDirectoryError"}
    assert not issubclass(errors.PaimonCodecError, ValueError)
    assert issubclass(errors.UnsupportedTypeError, errors.UnsupportedFeatureError)
    assert issubclass(errors.MissingFileError, errors.StorageError) and issubclass(errors.MissingFileError,
                                                                                   FileNotFoundError)
    assert issubclass(errors.StorageError, OSError)
    for name in errors.__all__:
        assert issubclass(getattr(errors, name), errors.PaimonCodecError), name
        assert getattr(paimon_codec, name) is getattr(errors, name)


def test_errors_keep_where_and_what_through_pickling() -> None:
    """Spark ships errors from executors pickled: the class, the path, the offset and the message survive."""
    for cls in (errors.CorruptDataError, errors.StorageError, errors.MissingFileError, errors.CommitConflictError,
                errors.UnsupportedFeatureError):
        err = cls("bad thing", path="s3://b/t/f", offset=7, expected="a good thing")
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is cls and (back.path, back.offset, back.expected) == ("s3://b/t/f", 7, "a good thing")
        assert str(back) == str(err) == "s3://b/t/f: offset 7: bad thing (expected a good thing)"


def test_refusals_commit_conflicts_and_missing_tables_have_their_class(tmp_path: Path) -> None:
    from paimon_codec.table import PaimonTable
    from paimon_codec.writing import append_arrow, create_table
    from paimon_codec.writing.commit import FileChange, commit_changes

    pk = create_table(tmp_path / "db.db" / "pk", "id INT, v STRING", {"bucket": "1"}, primary_keys=["id"])
    with pytest.raises(errors.UnsupportedFeatureError, match="appending to a primary-key table: use upsert_arrow") as refused:
        append_arrow(pk, pa.table({"id": pa.array([1], pa.int32()), "v": ["a"]}))
    assert not isinstance(refused.value, ValueError)
    path = create_table(tmp_path / "db.db" / "t", "id INT, v STRING")
    append_arrow(path, pa.table({"id": pa.array([1, 2], pa.int32()), "v": ["a", "b"]}))
    gone = FileChange.delete_entry(PaimonTable(path).data_files()[0].entry)
    commit_changes(path, [gone], kind=CommitKind.COMPACT)
    with pytest.raises(errors.CommitConflictError, match="not live"):
        commit_changes(path, [gone], kind="compact")  # names fold case, as before the enum
    with pytest.raises(errors.InvalidOptionError, match="unknown commit kind 'MERGE'.*'APPEND' or 'OVERWRITE'"):
        commit_changes(path, [], kind="MERGE")  # type: ignore[arg-type]  # not a CommitKind: refused by name


# --------------------------------------------------------------------------------------------- the modes
def test_modes_are_their_strings() -> None:
    assert CommitKind.OVERWRITE == "OVERWRITE" and f"{Semantics.SPARK}" == "spark" and str(WriteMode.APPEND) == "append"
    assert mode_value(Semantics, Semantics.PAIMON, "semantics") == "paimon"
    assert mode_value(DistributedPlanning, "Always", "planning", fold_case=True) == "always"
    with pytest.raises(errors.InvalidOptionError, match="unknown write mode 'upsert'"):
        mode_value(WriteMode, "upsert", "write mode")
