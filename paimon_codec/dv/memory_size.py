"""``MemorySize.parse``: option values such as ``2 mb``, ``1kb``, ``512`` (bytes), powers of 1024."""

from __future__ import annotations

import re

from ..errors import InvalidOptionError

__all__ = ["parse_memory_size"]

_UNITS = {
    "": 1, "b": 1, "bytes": 1,
    "k": 1 << 10, "kb": 1 << 10, "kibibytes": 1 << 10,
    "m": 1 << 20, "mb": 1 << 20, "mebibytes": 1 << 20,
    "g": 1 << 30, "gb": 1 << 30, "gibibytes": 1 << 30,
    "t": 1 << 40, "tb": 1 << 40, "tebibytes": 1 << 40,
}
_PATTERN = re.compile(r"^\s*(\d+)\s*([a-zA-Z]*)\s*$")


def parse_memory_size(text: str | int) -> int:
    """Bytes of a Paimon memory-size option value (``"2 mb"`` -> 2097152)."""
    if isinstance(text, int) and not isinstance(text, bool):
        if text < 0:
            raise InvalidOptionError(f"negative memory size {text}")
        return text
    m = _PATTERN.match(str(text))
    if not m or m.group(2).lower() not in _UNITS:
        raise InvalidOptionError(f"cannot parse memory size {text!r}",
                                 expected="a number with an optional unit b|kb|mb|gb|tb")
    value = int(m.group(1)) * _UNITS[m.group(2).lower()]
    if value >= 1 << 63:
        raise InvalidOptionError(f"memory size {text!r} overflows a long")
    return value
