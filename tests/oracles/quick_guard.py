"""The quick run's guard: a test that starts Spark, a JVM, pypaimon or the S3 server without its marker fails.

``./run.sh test --quick`` deselects the tests marked ``spark`` / ``java`` / ``pypaimon`` / ``s3`` and sets
``PAIMON_CODEC_QUICK=1``; every place that starts one of those resources calls :func:`refuse_in_quick_run`
first, so a test that reaches one without being marked fails loudly (naming the marker it needs) instead of
silently making the quick run slow.  ``tests/conftest.py`` derives the markers from the fixtures a test uses.
"""

from __future__ import annotations

import os

QUICK_ENV = "PAIMON_CODEC_QUICK"


class HeavyResourceInQuickRun(RuntimeError):
    """A test reached Spark / a JVM / pypaimon / the S3 server in the quick run: it lacks its marker."""


def refuse_in_quick_run(marker: str, what: str) -> None:
    """Raise when ``PAIMON_CODEC_QUICK=1``: ``what`` was started by a test not marked ``marker``."""
    if os.environ.get(QUICK_ENV) == "1":
        raise HeavyResourceInQuickRun(
            f"{what} started under {QUICK_ENV}=1 (./run.sh test --quick): the test needs "
            f"@pytest.mark.{marker} (or one of the fixtures tests/conftest.py marks by)")


def examples(full: int) -> int:
    """A property test's example count: ``full`` in the full run (CI keeps the big count), a quarter of it (at
    least 10) in the quick run, which samples the same property with fewer cases."""
    return max(10, full // 4) if os.environ.get(QUICK_ENV) == "1" else full
