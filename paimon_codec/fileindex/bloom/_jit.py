"""Bloom-filter build and probe as compiled loops (numba): one fused pass per value, as Java's ``BloomFilter64``.

The numpy kernels of :mod:`._kernel` make about ten passes over the k positions of every value (hash, k adds,
fold, remainder, widening) and, for a build, scatter into a byte-per-bit array that is packed afterwards.  Here
one loop hashes a value (Wang's mix when ``mixed``), walks its k positions and sets (build) or tests (probe) each
bit in the packed bit set itself; the arithmetic is that of :class:`._kernel._PositionKernel`, in uint64 with
explicit 32-bit masks (an int32 ``c`` is negative exactly when bit 31 is set, and then ``~c`` is ``c ^ 0xFFFFFFFF``;
Wang's arithmetic right shifts copy the sign bit in by hand).  The numpy path stays the reference: tests compare
both bit for bit.

This module imports numba, so only :func:`._kernel.jit_kernels` imports it - on the first build or probe at
scale, never on ``import paimon_codec``.  Compiled code is cached on disk (numba's ``cache=True``: ``NUMBA_CACHE_DIR``
when set, else ``__pycache__`` beside this file, else the user's cache directory); where none is writable the
kernels are compiled per process instead, and a process may always opt out with ``PAIMON_CODEC_NO_JIT=1``.
"""

from __future__ import annotations

import logging
from typing import Any

import numba  # only reached through _kernel.jit_kernels
import numpy as np
from numba import types

from . import hashing

log = logging.getLogger(__name__)

_U = np.uint64
_M32 = _U(0xFFFFFFFF)
_B31 = _U(0x80000000)
_ONE, _ZERO = _U(1), _U(0)
_S3, _S7, _S14, _S24, _S28, _S32, _S50, _S36, _S40, _S63 = (_U(s) for s in (3, 7, 14, 24, 28, 32, 50, 36, 40, 63))
# Wang's shift-add steps as wrapping multiplications (:mod:`.hashing`'s constants, as uint64 for numba's typing)
_MUL_21, _MUL_265, _MUL_21B, _MUL_31 = (_U(m) for m in (hashing._MUL_21, hashing._MUL_265, hashing._MUL_21B,
                                                        hashing._MUL_31))


def _compile(sig: Any, **opts: Any) -> Any:
    """A decorator compiling for ``sig`` without the GIL: loaded from numba's on-disk cache when a cache directory
    is writable, else compiled in this process (numba refuses ``cache=True`` when it finds no writable directory)."""
    def wrap(fn: Any) -> Any:
        try:
            return numba.njit(sig, cache=True, nogil=True, **opts)(fn)
        except RuntimeError as exc:  # "cannot cache function ...: no locator available for file ..."
            log.info("bloom-filter kernel %s compiled without an on-disk cache: %s", fn.__name__, exc)
            return numba.njit(sig, cache=False, nogil=True, **opts)(fn)
    return wrap


@numba.njit(inline="always", nogil=True)
def _ashr(k: Any, s: Any, fill: Any) -> Any:
    """Arithmetic right shift of uint64 ``k`` by ``s`` (``fill`` = ``64 - s``): the sign bit copied in."""
    return (k >> s) | ((_ZERO - (k >> _S63)) << fill)


@numba.njit(inline="always", nogil=True)
def _wang(k: Any) -> Any:
    """Thomas Wang's 64-bit mix (arithmetic shifts), as :func:`.hashing.wang_hash64`, in uint64."""
    k = k * _MUL_21 - _ONE
    k ^= _ashr(k, _S24, _S40)
    k = k * _MUL_265
    k ^= _ashr(k, _S14, _S50)
    k = k * _MUL_21B
    k ^= _ashr(k, _S28, _S36)
    return k * _MUL_31


_VALUES = types.Array(types.int64, 1, "C", readonly=True)
_BITS = types.Array(types.uint8, 1, "C")
_ADD_SIG = types.void(_BITS, _VALUES, types.boolean, types.int64, types.int64)
_TEST_SIG = types.void(types.Array(types.uint8, 1, "C", readonly=True), _VALUES, types.boolean, types.int64,
                       types.int64, types.Array(types.boolean, 1, "C"))


@_compile(_ADD_SIG)
def add_bits(bits: Any, values: Any, mixed: bool, k: int, num_bits: int) -> None:
    """Set the k bits of every value in the packed bit set ``bits`` (bit i: byte ``i >> 3``, mask ``1 << (i & 7)``)."""
    nb = _U(num_bits)
    for j in range(values.shape[0]):
        h = _U(values[j])
        if mixed:
            h = _wang(h)
        h2 = h >> _S32
        c = h & _M32
        for _ in range(k):
            c = (c + h2) & _M32
            p = (c ^ _M32 if c & _B31 else c) % nb
            bits[p >> _S3] |= np.uint8(1) << np.uint8(p & _S7)


@_compile(_TEST_SIG)
def test_bits(bits: Any, values: Any, mixed: bool, k: int, num_bits: int, out: Any) -> None:
    """``out[j]`` = every one of the k bits of ``values[j]`` is set (stops at the first clear bit)."""
    nb = _U(num_bits)
    for j in range(values.shape[0]):
        h = _U(values[j])
        if mixed:
            h = _wang(h)
        h2 = h >> _S32
        c = h & _M32
        hit = True
        for _ in range(k):
            c = (c + h2) & _M32
            p = (c ^ _M32 if c & _B31 else c) % nb
            if not (bits[p >> _S3] >> np.uint8(p & _S7)) & np.uint8(1):
                hit = False
                break
        out[j] = hit
