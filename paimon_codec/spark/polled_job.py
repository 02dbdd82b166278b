"""One Spark action run on a driver thread while the driver polls a ``(count, bytes)`` accumulator.

The index rewrite (:mod:`.rewrite`) and the DataFrame write (:mod:`.write`) both report progress while
their job runs: each task adds ``(files or rows, bytes)`` to an accumulator, and the driver, which would
otherwise block in ``collect()``, runs the action on a thread and reads the accumulator every ``poll_s``
seconds.  This module is that loop, once.  pyspark is imported only when a job runs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["Pair", "pair_accumulator", "run_polled"]

T = TypeVar("T")

#: ``(count, bytes)``: what the tasks add and what the driver sees
Pair = tuple[int, int]


def pair_accumulator(sc: Any) -> Any:
    """A Spark accumulator of :data:`Pair` values summed element-wise (tasks call ``add((n, b))``)."""
    from pyspark.accumulators import AccumulatorParam

    class _PairSum(AccumulatorParam):
        def zero(self, value: Pair) -> Pair:
            return (0, 0)

        def addInPlace(self, a: Pair, b: Pair) -> Pair:  # noqa: N802 - pyspark's name
            return (a[0] + b[0], a[1] + b[1])

    return sc.accumulator((0, 0), _PairSum())


def run_polled(sc: Any, action: Callable[[], T], accumulator: Any, on_change: Callable[[Pair, Pair], None], *,
               poll_s: float, thread_name: str, description: str | None = None) -> tuple[T, Pair]:
    """``action()`` on a daemon thread; while it runs, every ``poll_s`` seconds, ``on_change(seen, now)``
    when the accumulator moved since the last call.

    ``description`` becomes the Spark job description, set on the thread that runs the action (Spark's
    local properties are per thread).  The action's exception is re-raised on the calling thread.  Returns
    the action's result and the last accumulator value passed to ``on_change`` (``(0, 0)`` if none), so the
    caller can account for what the polls did not see.
    """
    result: dict[str, Any] = {}

    def job() -> None:
        try:
            if description is not None:
                sc.setJobDescription(description)
            result["value"] = action()
        except BaseException as exc:  # noqa: BLE001 - re-raised on the calling thread below
            result["error"] = exc

    worker = threading.Thread(target=job, name=thread_name, daemon=True)
    worker.start()
    seen: Pair = (0, 0)
    while worker.is_alive():
        worker.join(poll_s)
        now = accumulator.value
        if now != seen:
            on_change(seen, now)
            seen = now
    if "error" in result:
        raise result["error"]
    return result["value"], seen
