"""Paimon ``MemorySize.parse``: option values such as ``2 mb``, ``16kb``, ``512`` (bytes), powers of 1024.

Used by every option that holds a size (``deletion-vector.index-file.target-size``,
``file-index.in-manifest-threshold``, bitmap ``index-block-size``, range-bitmap ``chunk-size``).
"""

from __future__ import annotations

import re

from .errors import InvalidOptionError

__all__ = ["parse_memory_size"]

_UNITS = {
    "": 1, "b": 1, "bytes": 1,
    "k": 1 << 10, "kb": 1 << 10, "kibibytes": 1 << 10,
    "m": 1 << 20, "mb": 1 << 20, "mebibytes": 1 << 20,
    "g": 1 << 30, "gb": 1 << 30, "gibibytes": 1 << 30,
    "t": 1 << 40, "tb": 1 << 40, "tebibytes": 1 << 40,
}
_SIZE_RE = re.compile(r"^\s*(\d+)\s*([A-Za-z]*)\s*$")


def parse_memory_size(text: str | int) -> int:
    """Bytes of a Paimon memory-size value (``"2 mb"`` -> 2097152; a plain int is taken as bytes)."""
    if isinstance(text, int) and not isinstance(text, bool):
        if text < 0:
            raise InvalidOptionError(f"negative memory size {text}")
        return text
    m = _SIZE_RE.match(str(text))
    if not m:
        raise InvalidOptionError(f"cannot parse memory size {text!r}",
                                 expected="a number with an optional unit b, kb, mb, gb or tb")
    unit = m.group(2).lower()
    if unit not in _UNITS:
        raise InvalidOptionError(f"unknown memory unit {m.group(2)!r} in {text!r}",
                                 expected="one of " + ", ".join(u for u in _UNITS if u))
    value = int(m.group(1)) * _UNITS[unit]
    if value >= 1 << 63:
        raise InvalidOptionError(f"memory size {text!r} does not fit in a long")
    return value
