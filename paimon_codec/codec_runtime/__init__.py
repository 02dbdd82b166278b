"""Runtime support for the generated Construct codecs in ``generated/construct``.

Hand-written library code: every generated module imports it (``from paimon_codec import
codec_runtime as _rt``), so there is exactly one copy.  This package re-exports the names of its
modules (``streams``, ``structs``, ``params``, ``strings``, ``roaring``, ``fast``) so the
generated code reaches every one as ``_rt.<name>``.

Everything the Kaitai-to-Construct translation needs beyond stock Construct lives here:
bounded substreams that remember their absolute base offset, build-time measurement of sized
fields (so a length field can be derived from the bytes of a field that follows it), Kaitai
style parameters, numpy-backed bulk arrays, strict ``repeat: eos`` / ``repeat: until``, Java
modified UTF-8 strings, a self-delimiting Roaring32 byte field and Paimon's varints.  Errors raised here are
:class:`CodecError` (a Construct ``ConstructError``) carrying ``offset``/``expected``/``kind``;
``paimon_codec.formats`` translates them into the ``paimon_codec.errors`` family.

The package sits under the generated code and imports none of it beyond the import-free
``generated.construct.constants``: turning a Kaitai object into the Construct shape, which needs the
generated layouts, is :mod:`paimon_codec.kaitai_plain`, above both.
"""

from __future__ import annotations

from ..checksum import crc32_signed  # noqa: F401  # the generated codecs' -build of stored CRCs
from .fast import (  # noqa: F401
    _C,
    _L,
    ByteSlices,
    FastArray,
    _bad,
    _count,
    _gather,
    _short,
    _utf,
    walk_columns,
)
from .params import (  # noqa: F401
    ABSENT,
    KEY_KINDS,
    CheckedArray,
    FakeKindContext,
    NumpyArray,
    RepeatUntilProgress,
    RootPointer,
    UntilEof,
    Unwrap,
    WithParams,
    built_size,
    cached_offsets,
    cumulative_offsets,
    encoded,
    per_key_kind,
    present_if,
    record_dtype,
    switch_dtype,
    to_array,
)
from .roaring import (  # noqa: F401
    Roaring32Bytes,
    roaring32_size,
)
from .streams import (  # noqa: F401
    LAST_READ,
    CodecError,
    SubStream,
    ViewStream,
    _ev,
    _need,
    _read,
    _view,
    abs_pos,
    io_eof,
    io_size,
    remaining,
)
from .strings import (  # noqa: F401
    JavaUtf,
    _java_utf,
    _java_utf_cached,
    _mutf8_encode,
    _mutf8_encode_cached,
    fast_build_java_utf,
    fast_parse_java_utf,
    mutf8_decode,
    mutf8_encode,
)
from .structs import (  # noqa: F401
    BuildStream,
    If,
    Magic,
    Sized,
    SizedBytes,
    SizedString,
    Struct,
    Valid,
    _stash_key,
    built,
    byte_string,
    measure,
)
from .varint import VarUInt, fast_build_varint, fast_parse_varint, varint_runs, varints_at  # noqa: F401

__all__ = ["CodecError", "SubStream", "ViewStream"]
