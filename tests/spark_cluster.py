"""A Spark standalone cluster on loopback, its executors' Python a packed virtualenv, and a Spark Connect server.

``spark_cluster`` (session): a master and two workers started from PySpark's own launch script
(``bin/spark-class org.apache.spark.deploy.master.Master`` / ``...worker.Worker``) on 127.0.0.1, each worker
with one core, and a SparkSession of this process (the driver) on it.  Executors run in the workers' own
JVMs and Python processes; their environment has no ``PYTHONPATH`` and their Python is a virtualenv packed by
:func:`packed_env` and shipped with ``spark.archives`` (``#env``; ``spark.pyspark.python=./env/bin/python``):
``paimon_codec`` and its dependencies are imported from the archive, never from the driver's import path.

A process holds one SparkContext: ``spark_cluster`` stops the local session of ``spark_fixtures.spark``, so
the tests using it run after every other test (this plugin's ``pytest_collection_modifyitems``).

``spark_connect`` (module): ``sbin/start-connect-server.sh`` (local[2] inside the server, the packed env for
its Python workers) and a ``SparkSession.builder.remote(...)`` client session.

The packed env is built once and cached under ``~/.cache/paimon-codec-tests/`` by a hash of ``pyproject.toml``,
the library's sources and the Python version: a venv (``--copies``) holding the installed distributions
``paimon-codec`` depends on (copied from this interpreter's site-packages: no index, no network) and this
tree's ``paimon_codec`` package, tarred.
"""

from __future__ import annotations

import hashlib
import importlib.metadata as md
import os
import re
import shutil
import socket
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("PAIMON_CODEC_TEST_CACHE", Path.home() / ".cache" / "paimon-codec-tests"))
#: distributions the executors need besides paimon-codec's own requirements (mapInArrow / data sources)
_EXTRA_DISTS = ("pandas",)
_SKIP_DISTS = {"pyspark", "py4j"}  # Spark puts its own pyspark.zip / py4j zip on the executors' path
#: the folders the wheel's packages come from (pyproject's package-dir maps schemas/ and generated/ into it)
_PACKAGE_FOLDERS = ("paimon_codec", "schemas", "generated")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _requirement_names(dist: md.Distribution) -> list[str]:
    out = []
    for req in dist.requires or []:
        if "extra ==" in req:
            continue
        marker = req.split(";", 1)[1] if ";" in req else None
        if marker is not None:
            from packaging.markers import Marker

            if not Marker(marker).evaluate():
                continue
        out.append(re.split(r"[\s<>=!~\[;(]", req, maxsplit=1)[0])
    return out


def _closure(names: list[str]) -> list[md.Distribution]:
    seen: dict[str, md.Distribution] = {}
    todo = list(names)
    while todo:
        name = todo.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in seen or key in _SKIP_DISTS:
            continue
        dist = md.distribution(name)
        seen[key] = dist
        todo.extend(_requirement_names(dist))
    return list(seen.values())


def _source_hash() -> str:
    h = hashlib.sha256(sys.version.encode())
    h.update((ROOT / "pyproject.toml").read_bytes())
    for folder in _PACKAGE_FOLDERS:
        for p in sorted((ROOT / folder).rglob("*")) if (ROOT / folder).is_dir() else []:
            if p.is_file() and "__pycache__" not in p.parts:
                h.update(str(p.relative_to(ROOT)).encode())
                h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _project_requirements() -> list[str]:
    import tomllib

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    out = []
    for d in deps:
        if ";" in d:
            from packaging.markers import Marker

            if not Marker(d.split(";", 1)[1]).evaluate():
                continue
        out.append(re.split(r"[\s<>=!~\[;(]", d, maxsplit=1)[0])
    return out


def packed_env() -> Path:
    """The packed executor environment (``env-<hash>.tar.gz``), built when this tree's hash has none yet."""
    archive = CACHE / f"env-{_source_hash()}.tar.gz"
    if archive.exists():
        return archive
    CACHE.mkdir(parents=True, exist_ok=True)
    work = CACHE / f"build-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    env = work / "env"
    subprocess.run([sys.executable, "-m", "venv", "--copies", "--without-pip", str(env)], check=True)
    site = env / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    for dist in _closure(_project_requirements() + list(_EXTRA_DISTS)):
        tops = {Path(str(f)).parts[0] for f in dist.files or [] if not str(f).startswith("..")}
        for top in tops:
            src = Path(str(dist.locate_file(top)))
            dst = site / top
            if dst.exists() or not src.exists():
                continue
            if src.is_dir():
                shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__", "tests"), symlinks=True)
            else:
                shutil.copy2(src, dst)
    # this tree's package as its wheel installs it (pyproject's package-dir mapping included), built from a
    # copy (setuptools leaves build/ and *.egg-info where it builds)
    src = work / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE", "setup.py", "MANIFEST.in"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, src / name)
    for folder in _PACKAGE_FOLDERS:
        if (ROOT / folder).is_dir():
            shutil.copytree(ROOT / folder, src / folder, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--disable-pip-version-check", "-w", str(work / "wheel"), str(src)], check=True, cwd=work)
    with zipfile.ZipFile(next((work / "wheel").glob("paimon_codec-*.whl"))) as whl:
        whl.extractall(site)
    partial = archive.with_suffix(f".{os.getpid()}.part")
    with tarfile.open(partial, "w:gz", compresslevel=1) as tar:
        tar.add(env, arcname=".")
    os.replace(partial, archive)
    shutil.rmtree(work, ignore_errors=True)
    return archive


def _spark_home() -> Path:
    import pyspark

    return Path(pyspark.__file__).parent


def _daemon_env() -> dict[str, str]:
    """The environment of the cluster's JVMs: the driver's, without its Python import path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PYSPARK_", "PAIMON_CODEC"))}
    env.update(SPARK_HOME=str(_spark_home()), SPARK_LOCAL_IP="127.0.0.1", SPARK_NO_DAEMONIZE="1")
    return env


def _wait_for(path: Path, pattern: str, proc: subprocess.Popen, what: str, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and pattern in path.read_text(errors="replace"):
            return
        if proc.poll() is not None:
            break
        time.sleep(0.3)
    pytest.fail(f"{what} did not start: {path.read_text(errors='replace')[-2000:] if path.exists() else ''}",
                pytrace=False)


class Cluster:
    """A master and ``workers`` workers on loopback; :meth:`stop` ends exactly the processes it started."""

    def __init__(self, base: Path, workers: int = 2) -> None:
        home = _spark_home()
        self.procs: list[subprocess.Popen] = []
        port = _free_port()
        self.url = f"spark://127.0.0.1:{port}"
        env = _daemon_env()
        spark_class = str(home / "bin" / "spark-class")
        log = base / "master.log"
        master = subprocess.Popen([spark_class, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                                   "--port", str(port), "--webui-port", str(_free_port())],
                                  stdout=log.open("wb"), stderr=subprocess.STDOUT, env=env, start_new_session=True)
        self.procs.append(master)
        _wait_for(log, "I have been elected leader", master, "the Spark master")
        for i in range(workers):
            wlog = base / f"worker-{i}.log"
            work = base / f"work-{i}"
            work.mkdir()
            worker = subprocess.Popen([spark_class, "org.apache.spark.deploy.worker.Worker", self.url,
                                       "--host", "127.0.0.1", "--cores", "1", "--memory", "1g",
                                       "--webui-port", str(_free_port()), "--work-dir", str(work)],
                                      stdout=wlog.open("wb"), stderr=subprocess.STDOUT, env=env,
                                      start_new_session=True)
            self.procs.append(worker)
            _wait_for(wlog, "Successfully registered with master", worker, f"Spark worker {i}")

    def stop(self) -> None:
        import signal

        for p in reversed(self.procs):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)


def executor_conf(archive: Path) -> dict[str, str]:
    return {"spark.archives": f"{archive}#env", "spark.pyspark.python": "./env/bin/python",
            "spark.executorEnv.PYTHONPATH": "", "spark.executor.memory": "768m", "spark.cores.max": "2",
            "spark.driver.host": "127.0.0.1", "spark.driver.bindAddress": "127.0.0.1"}


def _end_local_session() -> None:
    """Stop this process's classic SparkSession and its JVM (one SparkContext per process; a Connect client
    refuses to start beside one; and the next JVM must start in the driver directory ``spark_cluster`` picks)."""
    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        active.stop()
    gateway = SparkContext._gateway
    if gateway is not None:
        gateway.shutdown()
        proc = getattr(gateway, "proc", None)
        if proc is not None:  # the JVM PySpark launched for this process's local session
            proc.kill()
            proc.wait(timeout=60)
        SparkContext._gateway = None
        SparkContext._jvm = None


@pytest.fixture(scope="session")
def spark_cluster(tmp_path_factory):
    """A SparkSession of this process on a standalone cluster (module docstring)."""
    from oracles.quick_guard import refuse_in_quick_run

    refuse_in_quick_run("spark", "a Spark standalone cluster")
    started = time.monotonic()
    archive = packed_env()
    built = time.monotonic() - started
    cluster = Cluster(tmp_path_factory.mktemp("spark-cluster"))
    _end_local_session()
    # PySpark hands its PYSPARK_PYTHON to the JVM as every Python function's executable, for the executors and
    # for the driver's own Python workers (a data source's planning) alike: "./env/bin/python" is the archive
    # Spark unpacks into each executor's directory, and, for the driver, the same env unpacked beside the
    # driver JVM's working directory (the JVM is started in ``base``; this process returns to its own)
    base = tmp_path_factory.mktemp("spark-driver")
    (base / "env").symlink_to(unpacked_env(archive), target_is_directory=True)
    from paimon_codec.spark.session import get_spark

    session = None
    cwd = os.getcwd()
    os.environ["PYSPARK_PYTHON"] = "./env/bin/python"
    os.chdir(base)
    try:
        try:
            session = get_spark(cluster.url, shuffle_partitions=2, extra_conf=executor_conf(archive))
        finally:
            os.chdir(cwd)
        session.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "10000")
        print(f"\nspark_cluster: env {archive.name} ready in {built:.1f} s, cluster up in "
              f"{time.monotonic() - started - built:.1f} s")
        yield session
    finally:
        if session is not None:
            session.stop()
        cluster.stop()
        os.environ["PYSPARK_PYTHON"] = sys.executable


def unpacked_env(archive: Path) -> Path:
    """The packed env unpacked once next to its archive: the Python of the Spark Connect server's driver side
    and local executors (a server process is started with it, as on another machine)."""
    target = archive.with_suffix("").with_suffix(".d")
    if not (target / "bin" / "python").exists():
        partial = target.with_suffix(f".{os.getpid()}.part")
        shutil.rmtree(partial, ignore_errors=True)
        with tarfile.open(archive) as tar:
            tar.extractall(partial, filter="tar")
        shutil.rmtree(target, ignore_errors=True)
        os.replace(partial, target)
    return target


_CONNECT_MODE_ENV = ("SPARK_CONNECT_MODE_ENABLED", "SPARK_REMOTE", "SPARK_LOCAL_REMOTE")


def connect_client_available() -> str | None:
    """Why the Spark Connect client cannot start here (a missing ``pyspark[connect]`` dependency), or None."""
    try:
        from pyspark.sql.connect.utils import check_dependencies

        check_dependencies()
    except ImportError as exc:
        return str(exc)
    return None


@pytest.fixture(scope="module")
def spark_connect(tmp_path_factory):
    """A Spark Connect server (``sbin/start-connect-server.sh --wait``, local[2], its Python the packed env, no
    ``PYTHONPATH``) and a ``SparkSession.builder.remote(...)`` client of this process.

    A remote session puts PySpark into Connect mode for the whole process (``SPARK_CONNECT_MODE_ENABLED``:
    ``pyspark.sql.functions`` build Connect columns): module-scoped, run after the local-mode tests, and the
    mode is turned off again when the module is done."""
    import signal

    from oracles.quick_guard import refuse_in_quick_run

    refuse_in_quick_run("spark", "a Spark Connect server")
    missing = connect_client_available()
    if missing:
        pytest.fail(f"the Spark Connect client needs pyspark[connect] (pip install -e '.[test]'): {missing}",
                    pytrace=False)
    python = unpacked_env(packed_env()) / "bin" / "python"
    base = tmp_path_factory.mktemp("spark-connect")
    port = _free_port()
    env = _daemon_env()
    env.update(PYSPARK_PYTHON=str(python), PYSPARK_DRIVER_PYTHON=str(python), SPARK_LOG_DIR=str(base),
               SPARK_PID_DIR=str(base))
    log = base / "server.log"
    server = subprocess.Popen([str(_spark_home() / "sbin" / "start-connect-server.sh"), "--wait",
                               "--master", "local[2]", "--conf", f"spark.connect.grpc.binding.port={port}",
                               "--conf", "spark.connect.grpc.binding.address=127.0.0.1",
                               "--conf", "spark.ui.enabled=false", "--conf", "spark.sql.session.timeZone=UTC",
                               "--conf", "spark.driver.bindAddress=127.0.0.1", "--conf", "spark.driver.host=127.0.0.1"],
                              stdout=log.open("wb"), stderr=subprocess.STDOUT, env=env, cwd=base,
                              start_new_session=True)
    try:
        _wait_for(log, "Spark Connect server started", server, "the Spark Connect server", timeout=240)
        from pyspark.sql import SparkSession

        before = {k: os.environ.get(k) for k in _CONNECT_MODE_ENV}
        _end_local_session()  # "Cannot start a remote Spark session [beside] a regular Spark session"
        session = SparkSession.builder.remote(f"sc://127.0.0.1:{port}").getOrCreate()
        try:
            yield session
        finally:
            session.stop()
            for k, v in before.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list) -> None:
    """Tests over Spark Connect run after the local-mode ones (Connect mode is process-wide while they run),
    tests on the cluster after every other test (its session ends this process's local one)."""
    def group(item) -> int:
        names = getattr(item, "fixturenames", ())
        return 2 if "spark_cluster" in names else 1 if "spark_connect" in names else 0

    items[:] = sorted(items, key=group)  # stable: collection order within each group
