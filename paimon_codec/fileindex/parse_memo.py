"""Parsed index heads remembered by their bytes: a planner opens the index file of every data file of a
scan, and each plan parses and checks the same container heads, range-bitmap headers and dictionary
directories again (~100 us a file, most of what planning a range predicate over hundreds of files costs
besides the bit slices themselves).

The key is the bytes that were parsed (plus the window sizes the checks used), never a path or a
modification time: the bytes are still read every time, so a file rewritten in place, or another table's
file, can never be served a stale parse - only the parsing and checking is skipped for bytes already seen.
Values must be immutable (or never modified by their users).  Only successful parses are remembered.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar, cast

__all__ = ["remembered", "clear"]

T = TypeVar("T")

#: entries kept (each a parsed head of a few hundred bytes to a few kilobytes)
MAX_ENTRIES = 8192
#: keys longer than this are not remembered (hashing them would cost what parsing does)
MAX_KEY_BYTES = 8192
#: the key bytes of all entries together: the oldest are forgotten beyond it (a parsed value is of the order
#: of its bytes, so this bounds the memory the memo holds at about twice it)
MAX_TOTAL_BYTES = 64 << 20

_MEMO: OrderedDict[tuple[str, Hashable], tuple[object, int]] = OrderedDict()
_LOCK = threading.Lock()
_TOTAL = [0]


def remembered(kind: str, key: Hashable, key_bytes: int, parse: Callable[[], T],
               max_key_bytes: int = MAX_KEY_BYTES) -> T:
    """``parse()``, or what it returned before for the same ``kind`` and ``key`` (the parsed bytes and
    the sizes the checks depended on); ``key_bytes`` is the size of the bytes in the key.

    ``max_key_bytes``: keys longer are not remembered; a parse that costs far more than hashing its bytes
    (a walk record by record in Python) may raise it."""
    if key_bytes > max_key_bytes:
        return parse()
    full = (kind, key)
    hit = _MEMO.get(full)  # a plain dict read under the GIL: no lock on the hot path
    if hit is not None:
        return cast(T, hit[0])
    value = parse()
    with _LOCK:
        old = _MEMO.pop(full, None)
        if old is not None:
            _TOTAL[0] -= old[1]
        _MEMO[full] = (value, key_bytes)
        _TOTAL[0] += key_bytes
        while len(_MEMO) > MAX_ENTRIES or (_TOTAL[0] > MAX_TOTAL_BYTES and len(_MEMO) > 1):
            _TOTAL[0] -= _MEMO.popitem(last=False)[1][1]
    return value


def clear() -> None:
    """Forget every remembered parse (tests, benchmarks measuring a first plan)."""
    with _LOCK:
        _MEMO.clear()
        _TOTAL[0] = 0
