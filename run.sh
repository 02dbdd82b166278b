#!/usr/bin/env bash
# paimon-codec: one entry point for a fresh machine.
#   ./run.sh demo     set up (venv, package) and run the end-to-end demo on bundled sample data
#   ./run.sh test     set up (venv, package, test tools) and run every check (generator, ruff, mypy) and test
#   ./run.sh test --quick  the same checks and every test that needs no Spark, JVM, pypaimon, S3 server or browser and
#                     is not marked slow (crash-safety kills, the short fuzz run: the full run has them)
#                     (PAIMON_CODEC_QUICK=1 makes those refuse to start: an unmarked use fails the run)
#                     (and property tests run a quarter of their examples: tests/oracles/quick_guard.py)
#   ./run.sh setup    only set up (the venv's install again, even when pyproject.toml is unchanged)
#   ./run.sh preflight  check the test run's tools and files are there (exit 3 naming what is missing)
# Needs python3 (>= 3.10) and Java 17 (Spark, Paimon Java oracles). Reaches only PyPI / npm / Debian /
# Maven Central.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE"
VENV="${PAIMON_CODEC_VENV:-$HERE/.venv}"
PY="$VENV/bin/python"

# The venv's install is stamped (pyproject.toml's digest and the tree it points at) and redone only when either
# changed, or when asked (`./run.sh setup`): re-installing builds an editable wheel each time (~5 CPU-s, ~10 s).
# A new venv has no stamp; a venv shared by several trees (PAIMON_CODEC_VENV) follows the tree last set up.
SETUP_STAMP="$VENV/.paimon-codec-setup"

setup() {
  if [ ! -x "$PY" ]; then
    python3 -m venv "$VENV"
  fi
  local want
  want="$(sha256sum pyproject.toml | cut -d' ' -f1) $HERE"
  if [ "${1:-}" != --force ] && [ -f "$SETUP_STAMP" ] && [ "$(cat "$SETUP_STAMP")" = "$want" ]; then
    return 0
  fi
  rm -f "$SETUP_STAMP"
  "$PY" -m pip install --quiet --disable-pip-version-check --upgrade pip setuptools wheel
  "$PY" -m pip install --quiet --disable-pip-version-check -e ".[test]"
  printf '%s\n' "$want" >"$SETUP_STAMP"
}

# Every tool and file the test run needs.  A missing one fails here, before anything runs (exit 3), so a run
# can never be green because the oracles it compares against were not there (the tests would skip, and a
# skip under PAIMON_CODEC_STRICT=1 fails anyway - this just says so first, in one line).
# PAIMON_CODEC_ALLOW_MISSING_TOOLS=1 downgrades this to a warning for a local run; .ci/run refuses it.
GOLDEN_DIR="${PAIMON_GOLDEN:-$HERE/../shared/golden}"

preflight() {
  local missing=() tool
  for tool in java node npm mvn; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
  done
  # headless Chromium (Debian's package) drives the explorer page's tests
  command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || missing+=("chromium")
  local py="$PY"
  [ -x "$py" ] || py="$(command -v python3 || true)"
  if [ -z "$py" ] || ! "$py" -c "import pyspark" >/dev/null 2>&1; then
    missing+=("pyspark")
  elif ! "$py" -c "from pyspark.sql.connect.utils import check_dependencies; check_dependencies()" >/dev/null 2>&1; then
    missing+=("pyspark[connect] (grpcio, grpcio-status, googleapis-common-protos, zstandard: pip install -e '.[test]')")
  fi
  # the lint and type gates: a run without them would be green without checking
  for tool in ruff mypy; do
    if [ -z "$py" ] || ! "$py" -m "$tool" --version >/dev/null 2>&1; then
      missing+=("$tool")
    fi
  done
  if [ ! -d "$GOLDEN_DIR/paimon-0.9" ] || [ ! -d "$GOLDEN_DIR/paimon-latest" ]; then
    missing+=("golden files ($GOLDEN_DIR; set PAIMON_GOLDEN)")
  fi
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "${PAIMON_CODEC_ALLOW_MISSING_TOOLS:-}" = 1 ] && [ "${PAIMON_CODEC_CI:-}" != 1 ]; then
    echo "run.sh: WARNING: missing ${missing[*]}; PAIMON_CODEC_ALLOW_MISSING_TOOLS=1 (local run): tests needing them will skip" >&2
    return 0
  fi
  echo "run.sh: missing ${missing[*]}: the test run needs every oracle (install it; PAIMON_CODEC_ALLOW_MISSING_TOOLS=1 for a local run only)" >&2
  exit 3
}

# System packages the checks need, before the preflight looks for them (as root, from Debian).
install_system_tools() {
  # Debian's chromium: the real browser the explorer's tests drive (tests/browser.py)
  if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
      || echo "run.sh: chromium could not be installed" >&2
  fi
}

setup_generator_tools() {
  # graphviz renders the format diagrams; node + npm drive the Kaitai compiler (generator check, quick run too).
  if ! command -v dot >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    (apt-get update -qq && apt-get install -y -qq graphviz >/dev/null) || echo "run.sh: graphviz not installed; diagram check will be partial" >&2
  fi
  # npm ci empties tools/node_modules and installs the lock file's packages again: only when the lock file
  # changed since the last one (its digest is stamped inside node_modules, which npm ci removes first)
  if command -v npm >/dev/null 2>&1 && [ -f tools/package.json ]; then
    local lock
    lock="$(cat tools/package.json tools/package-lock.json | sha256sum | cut -d' ' -f1)"
    if [ "$(cat tools/node_modules/.paimon-codec-npm-ci 2>/dev/null)" != "$lock" ]; then
      npm ci --prefix tools --silent --no-audit --no-fund >/dev/null
      printf '%s\n' "$lock" >tools/node_modules/.paimon-codec-npm-ci
    fi
  fi
}

# The gates every test run passes before its tests: the generator check, ruff and mypy (config in pyproject.toml;
# any error fails the run).  They only read the tree, so they run side by side (a cold mypy takes ~10 CPU-s, the
# generator check ~5); once all are done each one's output is shown, in this order, and the first failing gate's
# status fails the run.
gates() {
  local out pids=() i rc=0 status
  out="$(mktemp -d)"
  trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$out"; exit 130' INT TERM
  "$PY" tools/generate.py --check >"$out/0.out" 2>"$out/0.err" &
  pids+=($!)
  "$PY" -m ruff check paimon_codec tools tests benchmarks >"$out/1.out" 2>"$out/1.err" &
  pids+=($!)
  "$PY" -m mypy paimon_codec >"$out/2.out" 2>"$out/2.err" &
  pids+=($!)
  for i in 0 1 2; do
    status=0
    wait "${pids[$i]}" || status=$?
    cat "$out/$i.out"
    cat "$out/$i.err" >&2
    if [ "$status" -ne 0 ] && [ "$rc" -eq 0 ]; then rc=$status; fi
  done
  trap - INT TERM
  rm -rf "$out"
  return "$rc"
}

setup_tools() {
  setup_generator_tools
  # Paimon Java, the tests' oracle: 0.9 (its jar ships in PyPI's pypaimon==0.2.0 sdist) and the newest
  # release (tools/java/pom.xml, fetched from Maven Central with mvn into ~/.cache/paimon-codec; a no-op
  # when cached). No jar, no test run: a failure here fails the set-up (and CI).
  if ! command -v mvn >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq maven >/dev/null
  fi
  "$PY" tests/oracles/java09_jar.py >/dev/null
  "$PY" tests/oracles/java_jars.py >/dev/null
  # The benchmarks' Java 1.4.2 driver (tools/java/src, built by tools/java/bench/pom.xml into the same cache;
  # a no-op when built): fails the set-up when it cannot be built.
  "$PY" benchmarks/_java_newest.py >/dev/null
  # The generated Java parsers + the cross-check's dumper (tools/crosscheck/java/pom.xml, Kaitai runtime from
  # Maven Central, built into the same cache; a no-op when built): tests/test_other_languages.py runs them.
  "$PY" tests/oracles/kaitai_langs.py >/dev/null

  # pypaimon 2.1 (+ pypaimon-rust; pins pyarrow < 20) in a venv of its own: the pypaimon oracle. Fails hard.
  "$PY" tests/oracles/pypaimon21.py >/dev/null
  # Paimon's Spark connector (paimon-spark-<spark> jar from Maven Central, newest served) in a venv with the
  # PySpark it was built for: the bar of benchmarks/scale.py and tests/test_paimon_spark_connector.py. Fails hard.
  "$PY" benchmarks/_paimon_spark.py >/dev/null
}

case "${1:-}" in
  setup)
    setup --force ;;
  preflight)
    preflight ;;
  demo)
    setup
    export PYSPARK_PYTHON="$PY" PYSPARK_DRIVER_PYTHON="$PY"
    shift
    exec "$PY" -m paimon_codec demo "$@" ;;
  test)
    setup
    # bytecode outside the tree: this machine sets PYTHONDONTWRITEBYTECODE=1 to keep trees clean, and then every
    # pytest worker and every test subprocess compiles the library and the tests again (5 CPU-s a collection)
    export PYTHONPYCACHEPREFIX="${XDG_CACHE_HOME:-$HOME/.cache}/paimon-codec/pycache"
    unset PYTHONDONTWRITEBYTECODE
    if [ "${2:-}" = --quick ]; then
      # no oracles are set up or started; the markers come from the fixtures (tests/conftest.py)
      shift 2
      export PAIMON_GOLDEN="$GOLDEN_DIR" PAIMON_CODEC_QUICK=1
      if [ "${PAIMON_CODEC_ALLOW_MISSING_TOOLS:-}" != 1 ]; then export PAIMON_CODEC_STRICT=1; fi
      setup_generator_tools
      gates
      # every core: the quick subset starts no shared oracle, so its tests run in parallel workers; an idle worker
      # takes tests queued on another (worksteal: xdist's default hands out chunks, and the one that drew the
      # schema-edit tests, ~1.5 CPU-s each, ran them alone for the last ~50 CPU-s)
      exec "$PY" -m pytest -q -p no:cacheprovider -n auto --dist worksteal -m "not spark and not java and not pypaimon and not s3 and not browser and not slow" "$@"
    fi
    install_system_tools
    preflight
    setup_tools
    export PYSPARK_PYTHON="$PY" PYSPARK_DRIVER_PYTHON="$PY" PAIMON_GOLDEN="$GOLDEN_DIR"
    if [ "${PAIMON_CODEC_ALLOW_MISSING_TOOLS:-}" != 1 ]; then export PAIMON_CODEC_STRICT=1; fi
    shift
    gates
    exec "$PY" -m pytest -q -p no:cacheprovider "$@" ;;
  *)
    echo "usage: ./run.sh demo|test|setup|preflight" >&2
    exit 2 ;;
esac
