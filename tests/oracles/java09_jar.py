"""Locate (and fetch) Apache Paimon 0.9's fat jar for the tests' Java 0.9 oracle.

Drive Apache Paimon 0.9's own Java code from Python (tests only).

The Paimon 0.9.0 fat jar ships inside PyPI's ``pypaimon==0.2.0`` sdist
(``deps/jars/paimon-python-java-bridge-0.9.0.jar``).  :func:`locate_jar` finds it:

1. ``$PAIMON_JAR`` when set (taken as is, no checksum);
2. the cache ``${XDG_CACHE_HOME:-~/.cache}/paimon-codec/`` (also reuses the java-bench harness's
   ``paimon-anchor`` cache when its jar has the right checksum);
3. otherwise ``pip download --no-deps pypaimon==0.2.0`` into the cache, sdist and jar both checked
   against pinned sha256 sums.

Run as a script (``run.sh`` set-up) it pre-fetches the jar and prints its path.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from contextlib import contextmanager
from pathlib import Path

SDIST_NAME = "pypaimon-0.2.0.tar.gz"


SDIST_SHA256 = "43ac684779841da17528b5f241ede6149bcdab4d16f3cd80f713262f6ed04720"


JAR_MEMBER = "pypaimon-0.2.0/deps/jars/paimon-python-java-bridge-0.9.0.jar"


JAR_NAME = "paimon-python-java-bridge-0.9.0.jar"


JAR_SHA256 = "dc9048366715fc75d2b44e3f8ac1dbfab011b8c34aafc26ffa216500fb890b0e"


class JavaUnavailable(RuntimeError):
    """Java or the Paimon jar cannot be obtained here; the message says why (tests skip on it)."""


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "paimon-codec"


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


@contextmanager
def _locked(directory: Path):
    """Serialise concurrent fetches (several test processes may start at once)."""
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _download_sdist(dl: Path) -> Path:
    sdist = dl / SDIST_NAME
    if not sdist.is_file():
        cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
               "--no-deps", "--no-binary", ":all:", "pypaimon==0.2.0", "-d", str(dl)]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise JavaUnavailable(f"pip download of pypaimon==0.2.0 failed: {exc}") from exc
        if proc.returncode != 0 or not sdist.is_file():
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
            raise JavaUnavailable("pip download of pypaimon==0.2.0 failed: " + " | ".join(tail))
    got = _sha256(sdist)
    if got != SDIST_SHA256:
        sdist.unlink()
        raise JavaUnavailable(f"{sdist} had sha256 {got}, expected {SDIST_SHA256}; removed it")
    return sdist


def _extract_jar(sdist: Path, target: Path) -> None:
    """Extract only the jar member (no path from the archive is trusted), then rename into place."""
    with tarfile.open(sdist, "r:gz") as tar:
        member = tar.getmember(JAR_MEMBER)
        if not member.isfile():
            raise JavaUnavailable(f"{JAR_MEMBER} in {sdist} is not a regular file")
        src = tar.extractfile(member)
        assert src is not None
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".jar-")
        try:
            with os.fdopen(fd, "wb") as out:
                shutil.copyfileobj(src, out, 1 << 20)
            got = _sha256(Path(tmp))
            if got != JAR_SHA256:
                raise JavaUnavailable(f"jar in {sdist} has sha256 {got}, expected {JAR_SHA256}")
            os.replace(tmp, target)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)


def locate_jar(fetch: bool = True) -> Path:
    """Path of the Paimon 0.9.0 jar; fetches it into :func:`cache_dir` when allowed and needed."""
    env = os.environ.get("PAIMON_JAR")
    if env:
        path = Path(env)
        if not path.is_file():
            raise JavaUnavailable(f"PAIMON_JAR={env} is not a file")
        return path
    cache = cache_dir()
    jar = cache / "jars" / JAR_NAME
    if jar.is_file() and _sha256(jar) == JAR_SHA256:
        return jar
    # the java-bench harness (shared/anchors/java-bench/run.sh) keeps the same jar in its own cache
    anchor = cache.parent / "paimon-anchor" / JAR_MEMBER
    if anchor.is_file() and _sha256(anchor) == JAR_SHA256:
        return anchor
    if not fetch:
        raise JavaUnavailable(f"Paimon jar not in {cache} and fetching is disabled")
    with _locked(cache):
        if jar.is_file() and _sha256(jar) == JAR_SHA256:
            return jar
        sdist = _download_sdist(cache / "dl")
        _extract_jar(sdist, jar)
    return jar


def _hadoop_jars() -> list[str]:
    """Hadoop client jars for Paimon's catalog / table API (absent from the fat jar).

    ``$PAIMON_HADOOP_CLASSPATH`` (``:``-separated) when set, else the shaded ``hadoop-client-api`` /
    ``hadoop-client-runtime`` jars the installed PySpark ships; none if neither exists (then only the
    table-level helpers are unavailable).
    """
    env = os.environ.get("PAIMON_HADOOP_CLASSPATH")
    if env:
        return [p for p in env.split(os.pathsep) if p]
    import importlib.util

    spec = importlib.util.find_spec("pyspark")
    if spec is None or not spec.submodule_search_locations:
        return []
    jars = Path(list(spec.submodule_search_locations)[0]) / "jars"
    return sorted(str(p) for pattern in ("hadoop-client-api-*.jar", "hadoop-client-runtime-*.jar")
                  for p in jars.glob(pattern))


if __name__ == "__main__":  # pre-fetch for CI / run.sh: python tests/oracles/java09_jar.py
    try:
        print(locate_jar())
    except JavaUnavailable as exc:
        print(f"paimon jar unavailable: {exc}", file=sys.stderr)
        sys.exit(1)
