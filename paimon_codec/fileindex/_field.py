"""One number field of a payload read where the generated codec says it is (``*_AT`` offset, ``*_DTYPE`` width
and byte order, from ``-at-name`` / ``-dtype-name`` in the schema): how a reader looks at a version before the
generated parser's ``valid`` check, to refuse a newer version as unsupported rather than corrupt."""

from __future__ import annotations

import numpy as np

__all__ = ["number_at"]


def number_at(buf: bytes, dtype: np.dtype, at: int) -> int:
    """The ``dtype`` number at byte ``at`` of ``buf`` (which the caller has checked holds it)."""
    return int(np.frombuffer(buf, dtype, 1, at)[0])
