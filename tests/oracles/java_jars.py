"""Classpaths of the Paimon Java versions the tests drive (fetched once into a cache).

* ``NEWEST`` (1.4.2): ``tools/java/pom.xml`` pins ``paimon-bundle`` plus the shaded Hadoop client jars;
  :func:`newest_java_classpath` copies them from Maven Central (through ``mvn``, so ``~/.m2`` is reused)
  into ``${XDG_CACHE_HOME:-~/.cache}/paimon-codec/jars/paimon-<version>/``, under a file lock, and
  records the pom's sha256 beside them so a changed pom refetches and a cached one costs no ``mvn`` run.
* ``"0.9"``: the Paimon 0.9.0 fat jar that :func:`oracles.java09_jar.locate_jar` fetches (from
  PyPI's ``pypaimon==0.2.0``), plus the Hadoop client jars PySpark ships.

Run as a script (``python tests/oracles/java_jars.py``) to fetch both; it exits non-zero, naming the
cause, when it cannot (``run.sh`` relies on that to fail CI).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

__all__ = ["NEWEST", "POM", "OracleUnavailable", "classpath", "newest_java_classpath", "java09_classpath"]

NEWEST = "1.4.2"
POM = Path(__file__).resolve().parents[2] / "tools" / "java" / "pom.xml"
_MARKER = ".complete"


class OracleUnavailable(RuntimeError):
    """A Paimon Java oracle cannot run here (no Java, no Maven, no jars); the message says why."""


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "paimon-codec"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@contextmanager
def _locked(directory: Path):
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / ".lock-newest", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _cached(target: Path, pom_sha: str) -> list[str] | None:
    """The jar list recorded by a complete fetch of this very pom, when every jar is still there."""
    marker = target / _MARKER
    if not marker.is_file():
        return None
    lines = marker.read_text().split()
    if not lines or lines[0] != pom_sha:
        return None
    jars = [target / name for name in lines[1:]]
    if not jars or not all(j.is_file() for j in jars):
        return None
    return [str(j) for j in jars]


def _mvn_copy(pom: Path, out: Path) -> None:
    mvn = shutil.which("mvn")
    if mvn is None:
        raise OracleUnavailable("Maven (mvn) is not installed: it fetches the Paimon Java jars "
                                "(apt-get install maven)")
    cmd = [mvn, "-q", "-B", "-f", str(pom), "dependency:copy-dependencies", f"-DoutputDirectory={out}"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1200)
    except subprocess.TimeoutExpired as exc:
        raise OracleUnavailable(f"mvn dependency:copy-dependencies timed out: {exc}") from exc
    if proc.returncode != 0:
        tail = " | ".join((proc.stdout + proc.stderr).strip().splitlines()[-5:])
        raise OracleUnavailable(f"mvn dependency:copy-dependencies failed ({proc.returncode}): {tail}")


def newest_java_classpath(fetch: bool = True) -> list[str]:
    """Jars of the newest Paimon Java (``NEWEST``) and its Hadoop client; fetched when missing."""
    if not POM.is_file():
        raise OracleUnavailable(f"{POM} is missing")
    pom_sha = _sha256(POM)
    target = cache_dir() / "jars" / f"paimon-{NEWEST}"
    jars = _cached(target, pom_sha)
    if jars is not None:
        return jars
    if not fetch:
        raise OracleUnavailable(f"Paimon {NEWEST} jars are not in {target} and fetching is disabled")
    with _locked(target.parent):
        jars = _cached(target, pom_sha)
        if jars is not None:
            return jars
        tmp = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".paimon-{NEWEST}-"))
        try:
            _mvn_copy(POM, tmp)
            names = sorted(p.name for p in tmp.glob("*.jar"))
            if not any(n.startswith("paimon-bundle-") for n in names):
                raise OracleUnavailable(f"mvn copied no paimon-bundle jar into {tmp} (got {names})")
            (tmp / _MARKER).write_text("\n".join([pom_sha, *names]) + "\n")
            if target.exists():
                shutil.rmtree(target)
            os.replace(tmp, target)
        finally:
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
    jars = _cached(target, pom_sha)
    if jars is None:
        raise OracleUnavailable(f"fetched Paimon {NEWEST} jars into {target} but cannot find them there")
    return jars


def java09_classpath(fetch: bool = True) -> list[str]:
    """Paimon 0.9.0's fat jar plus Hadoop client jars (the same classpath the in-process bridge uses)."""
    if __package__:
        from .java09_jar import JavaUnavailable, _hadoop_jars, locate_jar
    else:  # run as a script (run.sh set-up)
        from java09_jar import JavaUnavailable, _hadoop_jars, locate_jar

    try:
        jar = locate_jar(fetch=fetch)
    except JavaUnavailable as exc:
        raise OracleUnavailable(str(exc)) from exc
    hadoop = _hadoop_jars()
    if not hadoop:  # no PySpark: borrow the newest oracle's Hadoop client
        hadoop = [j for j in newest_java_classpath(fetch) if Path(j).name.startswith("hadoop-client-")]
    return [str(jar), *hadoop]


def classpath(version: str, fetch: bool = True) -> list[str]:
    """Classpath of a Paimon Java version this project tests against: ``NEWEST`` or ``"0.9"``."""
    if version in (NEWEST, "newest"):
        return newest_java_classpath(fetch)
    if version in ("0.9", "0.9.0"):
        return java09_classpath(fetch)
    raise OracleUnavailable(f"no Paimon Java {version!r} oracle (known: {NEWEST}, 0.9)")


if __name__ == "__main__":  # run.sh setup_tools: fetch both, fail loudly
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    try:
        for v in (NEWEST, "0.9"):
            print(f"paimon {v}: {len(classpath(v))} jars")
    except OracleUnavailable as exc:
        print(f"Paimon Java jars unavailable: {exc}", file=sys.stderr)
        sys.exit(1)
