"""Paimon's own Spark connector, for benchmarks and tests: the runtime jar and a PySpark that runs it.

The connector (``org.apache.paimon:paimon-spark-<spark>``) is fetched from Maven Central with ``mvn
dependency:copy`` into ``${XDG_CACHE_HOME:-~/.cache}/paimon-codec/jars``.  The newest releases are tried
first (``paimon-spark-4.0`` / ``paimon-spark-3.5`` 1.4.2); when Maven Central does not serve them the
newest one that downloads is taken (so far ``paimon-spark-3.5`` 0.9.0).  The jar needs the Spark version it
was built for, which may differ from the project's PySpark, so the connector runs in a venv of its own
(``venv-spark-paimon-<spark>``) with that PySpark, driven as a subprocess (:mod:`_paimon_spark_worker`).

For the scale benchmark on an S3 server (``scale.py --store s3``), :func:`s3_jars` fetches the same way
the connector's S3 filesystem (``org.apache.paimon:paimon-s3`` of the connector's Paimon version, next to
the runtime jar) and Hadoop's ``s3a`` for the project's PySpark (``org.apache.hadoop:hadoop-aws`` of the
Hadoop version that PySpark ships, ``hadoop-client-api-<v>.jar``, with the AWS SDK ``bundle`` and
analytics-accelerator versions that Hadoop release's ``hadoop-project`` pom pins).

    python benchmarks/_paimon_spark.py          # fetch the jars, create the venv, print the choice (JSON)

``run.sh`` calls it in ``setup_tools``; :func:`connector` returns ``{"jar", "python", "spark", "paimon"}``
or raises ``RuntimeError`` saying what could not be set up.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

# (artifact, Paimon version, PySpark requirement), newest first
CANDIDATES = [
    ("paimon-spark-4.0", "1.4.2", "pyspark>=4.0,<4.1"),
    ("paimon-spark-3.5", "1.4.2", "pyspark>=3.5,<3.6"),
    ("paimon-spark-3.5", "0.9.0", "pyspark>=3.5,<3.6"),
]
HERE = Path(__file__).resolve().parent
WORKER = HERE / "_paimon_spark_worker.py"


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "paimon-codec"


def _fetch_jar(artifact: str, version: str, jars: Path, group: str = "org.apache.paimon") -> Path | None:
    jar = jars / f"{artifact}-{version}.jar"
    if jar.exists() and jar.stat().st_size > 0:
        return jar
    if shutil.which("mvn") is None:
        raise RuntimeError(f"mvn is needed to fetch {group}:{artifact} from Maven Central")
    cmd = ["mvn", "-q", "-B", "org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy",
           f"-Dartifact={group}:{artifact}:{version}:jar", f"-DoutputDirectory={jars}"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=900, cwd=jars)
    return jar if done.returncode == 0 and jar.exists() else None


def _venv(spec: str, name: str) -> Path:
    venv = cache_dir() / f"venv-spark-paimon-{name}"
    python = venv / "bin" / "python"
    probe = [str(python), "-c", "import pyspark, pyarrow; print(pyspark.__version__)"]
    if python.exists() and subprocess.run(probe, capture_output=True, timeout=120).returncode == 0:
        return python
    shutil.rmtree(venv, ignore_errors=True)
    base = shutil.which("python3") or sys.executable
    for cmd in ([base, "-m", "venv", str(venv)],
                [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", spec,
                 "pyarrow>=14,<20", "pandas>=2,<3", "numpy<2.3"]):
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
        if done.returncode != 0:
            raise RuntimeError(f"cannot create {venv}: {' '.join(cmd[:4])} failed:\n{done.stderr[-2000:]}")
    return python


def connector() -> dict:
    """The newest servable connector jar and a python whose PySpark runs it (created under a file lock)."""
    root = cache_dir()
    jars = root / "jars"
    jars.mkdir(parents=True, exist_ok=True)
    with open(root / "spark-paimon.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp = root / "spark-paimon.json"
        if stamp.exists():
            info = json.loads(stamp.read_text())
            if Path(info["jar"]).exists() and Path(info["python"]).exists():
                return info
        tried = []
        for artifact, version, spec in CANDIDATES:
            jar = _fetch_jar(artifact, version, jars)
            if jar is None:
                tried.append(f"{artifact}:{version}")
                continue
            spark = artifact.rsplit("-", 1)[1]
            python = _venv(spec, spark)
            info = {"jar": str(jar), "python": str(python), "spark": spark, "paimon": version,
                    "artifact": artifact, "not_served": tried}
            stamp.write_text(json.dumps(info, indent=2))
            return info
        raise RuntimeError("no Paimon Spark connector could be fetched from Maven Central: " + ", ".join(tried))


def _hadoop_version() -> str:
    """The Hadoop version of this process's PySpark (its ``hadoop-client-api-<v>.jar``)."""
    import pyspark

    found = sorted(Path(pyspark.__file__).parent.glob("jars/hadoop-client-api-*.jar"))
    if not found:
        raise RuntimeError("this PySpark ships no hadoop-client-api jar: cannot tell which hadoop-aws matches it")
    return found[-1].name[len("hadoop-client-api-"):-len(".jar")]


def _pom_property(pom: Path, name: str) -> str:
    match = re.search(rf"<{re.escape(name)}>([^<]+)</{re.escape(name)}>", pom.read_text())
    if match is None:
        raise RuntimeError(f"{pom} pins no {name}")
    return match.group(1).strip()


def s3_jars() -> dict[str, list[str]]:
    """Jars reaching S3: ``{"paimon": [paimon-s3 for the connector's JVM], "s3a": [hadoop-aws + the AWS SDK
    for this process's PySpark]}`` (fetched from Maven Central into the cache once, under the lock)."""
    info = connector()
    jars = cache_dir() / "jars"
    with open(cache_dir() / "spark-paimon.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        paimon_s3 = _fetch_jar("paimon-s3", info["paimon"], jars)
        hadoop = _hadoop_version()
        hadoop_aws = _fetch_jar("hadoop-aws", hadoop, jars, group="org.apache.hadoop")
        if paimon_s3 is None or hadoop_aws is None:
            missing = [n for n, j in ((f"paimon-s3:{info['paimon']}", paimon_s3), (f"hadoop-aws:{hadoop}", hadoop_aws))
                       if j is None]
            raise RuntimeError("Maven Central did not serve " + ", ".join(missing))
        # hadoop-aws's compile dependencies are versioned by its parent, hadoop-project (in the local repository
        # now that mvn resolved hadoop-aws)
        m2 = Path(os.environ.get("MAVEN_REPO") or Path.home() / ".m2" / "repository")
        pom = m2 / "org/apache/hadoop/hadoop-project" / hadoop / f"hadoop-project-{hadoop}.pom"
        if not pom.exists():
            raise RuntimeError(f"{pom} is missing: cannot tell the AWS SDK version hadoop-aws {hadoop} needs")
        deps = [("software.amazon.awssdk", "bundle", _pom_property(pom, "aws-java-sdk-v2.version"))]
        if "amazon-s3-analyticsaccelerator-s3.version" in pom.read_text():
            deps.append(("software.amazon.s3.analyticsaccelerator", "analyticsaccelerator-s3",
                         _pom_property(pom, "amazon-s3-analyticsaccelerator-s3.version")))
        s3a = [hadoop_aws]
        for group, artifact, version in deps:
            jar = _fetch_jar(artifact, version, jars, group=group)
            if jar is None:
                raise RuntimeError(f"Maven Central did not serve {group}:{artifact}:{version}")
            s3a.append(jar)
    return {"paimon": [str(paimon_s3)], "s3a": [str(j) for j in s3a]}


if __name__ == "__main__":
    print(json.dumps(dict(connector(), s3_jars=s3_jars()), indent=2))
