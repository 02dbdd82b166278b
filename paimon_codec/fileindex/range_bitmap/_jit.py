"""The range-bitmap comparison as one compiled pass (numba): serialized slices in, serialized answer out.

:class:`~..bit_slices.BitSlices` decodes the EBM and every slice into pyroaring bitmaps and walks them with one
bitmap operation per slice and step.  Here one loop reads each portable bitmap (cookie, descriptive header,
offsets, array / bitset / run containers) straight into dense 64-bit words for the file's containers, runs
O'Neil's ``>=`` and ``<=`` walks on the words, and writes the answer as one portable bitmap (no runs: array
containers up to the array limit, bitset containers above it) for a single ``BitMap.deserialize``.

Every width, count and threshold comes from the generated codec of ``schemas/roaring32.ksy`` (its dtypes and
its value functions, compiled here as they are); the schema is little-endian, and bitset containers are copied
byte for byte into the words, so the kernels are only loaded on a little-endian machine.

Hostile bytes never reach a wrong answer: the kernel checks every size against its slot, keys and values
strictly increasing, runs disjoint, cardinalities as declared, the offset header matching the containers and
every row below the row count.  It answers -1 for anything else, and the caller then takes the reference path,
which answers or raises the error naming the bad bitmap.  It is stricter than pyroaring, never looser.

Imported only through :func:`.._compiled.jit_kernels` (numba is loaded lazily; ``PAIMON_CODEC_NO_JIT=1`` keeps
the reference path).  Compiled code is cached on disk where a cache directory is writable, as the bloom
filter's kernels are (:mod:`...bloom._jit`).
"""

from __future__ import annotations

import logging
import sys
from typing import Any

import numba
import numpy as np
from numba import types
from numba.extending import intrinsic

from ...generated.construct import constants as _roaring

log = logging.getLogger(__name__)

if sys.byteorder != "little":  # bitset containers are copied into native words as they are stored
    raise ImportError("the range-bitmap kernels read little-endian words in place")

_DTYPES = (_roaring.COOKIE_DTYPE, _roaring.CONTAINER_COUNT_DTYPE, _roaring.DESCRIPTIVE_HEADER_DTYPE,
           _roaring.OFFSETS_DTYPE, _roaring.NUM_RUNS_DTYPE, _roaring.CONTAINER_RUNS_DTYPE,
           _roaring.CONTAINER_VALUES_DTYPE, _roaring.CONTAINER_BITMAP_DTYPE)
for _dt in _DTYPES:
    for _f in ([_dt] if _dt.fields is None else [v[0] for v in _dt.fields.values()]):
        if _f.itemsize > 1 and _f.byteorder not in ("<", "=") and not _f.str.startswith("<"):
            raise ImportError(f"roaring32 field {_f} is not little-endian")

# -- the layout, from the generated codec (compile-time constants for numba)
_COOKIE_W = _roaring.COOKIE_DTYPE.itemsize
_COUNT_W = _roaring.CONTAINER_COUNT_DTYPE.itemsize
_HDR = _roaring.DESCRIPTIVE_HEADER_DTYPE
_HDR_W = _HDR.itemsize
_KEY_AT, _KEY_W = _HDR.fields["key"][1], _HDR.fields["key"][0].itemsize
_CARD_AT, _CARD_W = _HDR.fields["cardinality_minus_1"][1], _HDR.fields["cardinality_minus_1"][0].itemsize
_OFF_W = _roaring.OFFSETS_DTYPE.itemsize
_NRUNS_W = _roaring.NUM_RUNS_DTYPE.itemsize
_RUN = _roaring.CONTAINER_RUNS_DTYPE
_RUN_W = _RUN.itemsize
_RUN_START_AT, _RUN_START_W = _RUN.fields["start"][1], _RUN.fields["start"][0].itemsize
_RUN_LEN_AT, _RUN_LEN_W = _RUN.fields["length_minus_1"][1], _RUN.fields["length_minus_1"][0].itemsize
_VAL_W = _roaring.CONTAINER_VALUES_DTYPE.itemsize
_WORD_W = _roaring.CONTAINER_BITMAP_DTYPE.itemsize
_WORDS = _roaring.container_bitmap_words()  # words of one container (the span of one key)
_BITSET_BYTES = _WORDS * _WORD_W
_SPAN_SHIFT = (_WORDS * _WORD_W * 8).bit_length() - 1  # positions a key spans, as a shift (16)
_KEY_LIMIT = 1 << (8 * _KEY_W)
_COOKIE_NO_RUN = _roaring.ROARING_COOKIE_NO_RUN
if (1 << _SPAN_SHIFT) != _WORDS * _WORD_W * 8 or _WORD_W != 8:
    raise ImportError("roaring32 containers are not 64-bit words spanning a power of two")

# the generated value functions, compiled as they are
_has_runs = numba.njit(inline="always")(_roaring.roaring32_has_run_containers)
_num_containers = numba.njit(inline="always")(_roaring.roaring32_num_containers)
_run_flags_size = numba.njit(inline="always")(_roaring.roaring32_run_flags_size)
_has_offsets = numba.njit(inline="always")(_roaring.roaring32_has_offsets)
_is_bitmap = numba.njit(inline="always")(_roaring.container_is_bitmap)


def _compile(sig: Any) -> Any:
    """njit without the GIL, cached on disk when a cache directory is writable (else compiled per process)."""
    def wrap(fn: Any) -> Any:
        try:
            return numba.njit(sig, cache=True, nogil=True)(fn)
        except RuntimeError as exc:  # "cannot cache function ...: no locator available for file ..."
            log.info("range-bitmap kernel %s compiled without an on-disk cache: %s", fn.__name__, exc)
            return numba.njit(sig, cache=False, nogil=True)(fn)
    return wrap


@numba.njit(inline="always", nogil=True)
def _uint(buf: Any, pos: Any, width: Any) -> Any:
    """The little-endian unsigned number of ``width`` bytes at ``buf[pos]`` (bounds checked by the caller)."""
    v = np.int64(0)
    for k in range(width):
        v |= np.int64(buf[pos + k]) << np.int64(8 * k)
    return v


@numba.njit(inline="always", nogil=True)
def _put(buf: Any, pos: Any, value: Any, width: Any) -> None:
    for k in range(width):
        buf[pos + k] = np.uint8((value >> np.int64(8 * k)) & 0xFF)


def _ctpop(typingctx: Any, x: Any) -> Any:
    """Set bits of a uint64 (LLVM's ctpop: one instruction where the CPU has it)."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


_popcount: Any = intrinsic(_ctpop)


@numba.njit(nogil=True)
def _decode(buf: Any, start: Any, length: Any, row_count: Any, words: Any) -> bool:
    """Decode the portable bitmap in ``buf[start:start + length]`` into ``words`` (every word written: a bitset
    container's span is copied over, every other span zeroed first): False when it is not a well-formed bitmap of
    rows below ``row_count`` (see the module docstring; ``words`` then holds garbage, and the caller declines)."""
    end = start + length
    if length < _COOKIE_W:
        return False
    cookie = _uint(buf, start, _COOKIE_W)
    runs = _has_runs(cookie)
    if runs:
        n = _num_containers(cookie, 0)
        flags_at = start + _COOKIE_W
        hdr_at = flags_at + _run_flags_size(cookie, 0)
    elif cookie == _COOKIE_NO_RUN:
        if length < _COOKIE_W + _COUNT_W:
            return False
        n = _uint(buf, start + _COOKIE_W, _COUNT_W)
        if n > _KEY_LIMIT:
            return False
        flags_at = start
        hdr_at = start + _COOKIE_W + _COUNT_W
    else:
        return False
    offsets = _has_offsets(cookie, n)
    pos = hdr_at + n * _HDR_W + (n * _OFF_W if offsets else 0)
    if pos > end:
        return False
    last_key = -1
    spans = words.shape[0] // _WORDS
    for i in range(n):
        h = hdr_at + i * _HDR_W
        key = _uint(buf, h + _KEY_AT, _KEY_W)
        card = _uint(buf, h + _CARD_AT, _CARD_W) + 1
        if key <= last_key or key >= spans:
            return False
        for w in range((last_key + 1) * _WORDS, key * _WORDS):  # the spans no container holds
            words[w] = 0
        last_key = key
        if offsets and _uint(buf, hdr_at + n * _HDR_W + i * _OFF_W, _OFF_W) != pos - start:
            return False
        base = key * _WORDS
        top = row_count - (key << _SPAN_SHIFT)  # values of this key must stay below it
        is_run = runs and (buf[flags_at + (i >> 3)] >> (i & 7)) & 1 == 1
        if is_run or not _is_bitmap(False, card - 1):  # runs and arrays set bits in a zeroed span
            for w in range(base, base + _WORDS):
                words[w] = 0
        if is_run:
            if pos + _NRUNS_W > end:
                return False
            nruns = _uint(buf, pos, _NRUNS_W)
            pos += _NRUNS_W
            if pos + nruns * _RUN_W > end:
                return False
            total = 0
            next_free = 0
            for r in range(nruns):
                q = pos + r * _RUN_W
                s = _uint(buf, q + _RUN_START_AT, _RUN_START_W)
                e = s + _uint(buf, q + _RUN_LEN_AT, _RUN_LEN_W)  # last value of the run
                # runs ascend with a gap between them (adjacent runs are invalid, as pyroaring / CRoaring say)
                if s < next_free or (r > 0 and s == next_free) or e >= top or e >= (1 << _SPAN_SHIFT):
                    return False
                next_free = e + 1
                total += e - s + 1
                w0, w1 = s >> 6, e >> 6
                m0 = np.uint64(0xFFFFFFFFFFFFFFFF) << np.uint64(s & 63)
                m1 = np.uint64(0xFFFFFFFFFFFFFFFF) >> np.uint64(63 - (e & 63))
                if w0 == w1:
                    words[base + w0] |= m0 & m1
                else:
                    words[base + w0] |= m0
                    for w in range(w0 + 1, w1):
                        words[base + w] = np.uint64(0xFFFFFFFFFFFFFFFF)
                    words[base + w1] |= m1
            if total != card:
                return False
            pos += nruns * _RUN_W
        elif _is_bitmap(False, card - 1):
            if pos + _BITSET_BYTES > end:
                return False
            stored = buf[pos:pos + _BITSET_BYTES].view(np.uint64)  # unaligned loads are fine on x86 / arm64
            pos += _BITSET_BYTES
            total = 0
            for w in range(_WORDS):
                x = stored[w]
                words[base + w] = x
                total += np.int64(_popcount(x))
            if total != card:
                return False
            if top < (1 << _SPAN_SHIFT):  # no bit at or above the row count
                tw = top >> 6
                if words[base + tw] >> np.uint64(top & 63):
                    return False
                for w in range(tw + 1, _WORDS):
                    if words[base + w]:
                        return False
        else:
            if pos + card * _VAL_W > end:
                return False
            prev = -1
            for j in range(card):
                v = _uint(buf, pos + j * _VAL_W, _VAL_W)
                if v <= prev or v >= top:
                    return False
                prev = v
                words[base + (v >> 6)] |= np.uint64(1) << np.uint64(v & 63)
            pos += card * _VAL_W
    for w in range((last_key + 1) * _WORDS, words.shape[0]):
        words[w] = 0
    return True


@numba.njit(nogil=True)
def _serialize(words: Any, spans: Any, out: Any) -> Any:
    """``words`` as a portable bitmap without runs into ``out``: its size."""
    n = 0
    cards = np.zeros(spans, np.int64)
    for k in range(spans):
        c = 0
        for w in range(k * _WORDS, (k + 1) * _WORDS):
            c += np.int64(_popcount(words[w]))
        cards[k] = c
        if c:
            n += 1
    _put(out, 0, _COOKIE_NO_RUN, _COOKIE_W)
    _put(out, _COOKIE_W, n, _COUNT_W)
    hdr_at = _COOKIE_W + _COUNT_W
    off_at = hdr_at + n * _HDR_W
    pos = off_at + (n * _OFF_W if _has_offsets(_COOKIE_NO_RUN, n) else 0)
    i = 0
    for k in range(spans):
        c = cards[k]
        if c == 0:
            continue
        _put(out, hdr_at + i * _HDR_W + _KEY_AT, k, _KEY_W)
        _put(out, hdr_at + i * _HDR_W + _CARD_AT, c - 1, _CARD_W)
        if _has_offsets(_COOKIE_NO_RUN, n):
            _put(out, off_at + i * _OFF_W, pos, _OFF_W)
        i += 1
        if _is_bitmap(False, c - 1):
            stored = out[pos:pos + _BITSET_BYTES].view(np.uint64)
            for w in range(_WORDS):
                stored[w] = words[k * _WORDS + w]
            pos += _BITSET_BYTES
        else:
            for w in range(_WORDS):
                x = words[k * _WORDS + w]
                while x:
                    low = x & (~x + np.uint64(1))
                    _put(out, pos, w * 64 + np.int64(_popcount(low - np.uint64(1))), _VAL_W)
                    pos += _VAL_W
                    x ^= low
    return pos


_AREA = types.Array(types.uint8, 1, "C", readonly=True)
_SLOTS = types.Array(types.int64, 2, "C", readonly=True)
_OUT = types.Array(types.uint8, 1, "C")
_BETWEEN_SIG = types.int64(_AREA, _AREA, _SLOTS, types.int64, types.int64, types.int64, types.boolean,
                           types.boolean, _OUT)


def out_size(row_count: int) -> int:
    """Bytes :func:`rows_between` may write for ``row_count`` rows (every container a bitset)."""
    spans = (row_count + (1 << _SPAN_SHIFT) - 1) >> _SPAN_SHIFT
    return _COOKIE_W + _COUNT_W + spans * (_HDR_W + _OFF_W + _BITSET_BYTES)


@_compile(_BETWEEN_SIG)
def rows_between(ebm: Any, area: Any, slots: Any, row_count: int, low: int, high: int, check_low: bool,
                 check_high: bool, out: Any) -> int:
    """The EBM's rows whose sliced code is ``>= low`` (when ``check_low``) and ``<= high`` (when
    ``check_high``), written to ``out`` as a portable bitmap; its size, or -1 when any bitmap is not well
    formed.  ``slots[i]`` = (offset, length) of slice ``i`` (least significant first) in ``area``.  The walks see
    only the slices there are: the reader hands it ``0 < low`` and ``high`` below its largest code, and answers
    the bounds outside those itself, as :class:`~..bit_slices.BitSlices` does."""
    spans = (row_count + (1 << _SPAN_SHIFT) - 1) >> _SPAN_SHIFT
    nw = spans * _WORDS
    eq_low = np.empty(nw, np.uint64)
    if not _decode(ebm, 0, ebm.shape[0], row_count, eq_low):
        return -1
    eq_high = eq_low.copy()
    gt = np.zeros(nw, np.uint64)
    lt = np.zeros(nw, np.uint64)
    sl = np.empty(nw, np.uint64)
    n = slots.shape[0]
    for i in range(n - 1, -1, -1):
        off, length = slots[i, 0], slots[i, 1]
        if off < 0 or length < 0 or off + length > area.shape[0]:
            return -1
        if not _decode(area, off, length, row_count, sl):
            return -1
        # one branch-free loop per case (vectorised), not one loop testing the case at every word
        if check_low:
            if i < 63 and (low >> i) & 1 == 1:
                for w in range(nw):
                    eq_low[w] &= sl[w]
            else:
                for w in range(nw):
                    gt[w] |= eq_low[w] & sl[w]
                    eq_low[w] &= ~sl[w]
        if check_high:
            if i < 63 and (high >> i) & 1 == 1:
                for w in range(nw):
                    lt[w] |= eq_high[w] & ~sl[w]
                    eq_high[w] &= sl[w]
            else:
                for w in range(nw):
                    eq_high[w] &= ~sl[w]
    # the answer: (gt | eq_low) & (lt | eq_high); a side not checked is the EBM it started as (gt / lt stay 0)
    for w in range(nw):
        sl[w] = (gt[w] | eq_low[w]) & (lt[w] | eq_high[w])
    return _serialize(sl, spans, out)
