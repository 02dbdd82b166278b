"""The DV layer against the generated codecs: bins, entries and files are the schema's bytes."""

from __future__ import annotations

import numpy as np
import pytest

from paimon_codec.dv.deletion_vector import DeletionVector, bin_length
from paimon_codec.dv.index_file import encode_dv_files, encode_entry, read_deletion_vector, read_dv_index
from paimon_codec.errors import CorruptDataError
from paimon_codec.generated.construct.deletion_vector import DeletionVector as EntryCodec
from paimon_codec.generated.construct.deletion_vector import DvBin
from paimon_codec.generated.construct.deletion_vectors import DeletionVectors

RNG = np.random.default_rng(20261122)


def _vectors() -> list[DeletionVector]:
    return [
        DeletionVector(),
        DeletionVector.from_array(RNG.integers(0, 2**31 - 1, 500)),
        DeletionVector.from_ranges([[0, 100_000], [5_000_000, 5_000_010]]),
        DeletionVector(bitmap64=True),
        DeletionVector.from_array(np.array([1, (3 << 32) + 7, (3 << 32) + 8]), bitmap64=True),
        DeletionVector.from_array(RNG.integers(0, 5 << 32, 2_000), bitmap64=True),
    ]


@pytest.mark.parametrize("dv", _vectors(), ids=repr)
def test_bin_is_the_generated_codecs_bytes(dv):
    obj = dv.to_bin()
    data = dv.serialize()
    assert DvBin.build(obj) == data and bin_length(obj) == len(data)
    parsed = DvBin.parse(data)
    assert DeletionVector.from_bin(parsed) == dv
    assert DeletionVector.deserialize(data) == dv
    if dv.bitmap64:  # dense keys from 0 to the largest, empty bitmaps included
        keys = [b["key"] for b in parsed["bitmap"]["bitmaps"]]
        assert keys == list(range(len(keys)))
        assert len(keys) == (max(dv.parts()) + 1 if dv.parts() else 0)
    entry = EntryCodec.parse(encode_entry(dv))
    assert entry["size"] == len(data)
    with pytest.raises(CorruptDataError, match="stray"):
        DeletionVector.deserialize(data + b"\0")


def test_file_ranges_match_the_generated_parse():
    dvs = [(f"f{i}", dv) for i, dv in enumerate(_vectors())]
    files = encode_dv_files(dvs, target_size=300)
    assert len(files) > 1
    seen = []
    for data, ranges in files:
        parsed = DeletionVectors.parse(data)
        assert DeletionVectors.build(parsed) == data
        offsets, pos = [], 1
        for e in parsed["entries"]:
            offsets.append(pos)
            pos += e["size"] + 8
        assert [r.offset for r in ranges] == offsets
        assert [e.offset for e in read_dv_index(data).entries] == offsets
        for r in ranges:
            seen.append(r.data_file)
            assert read_deletion_vector(data, r.offset, r.length) == dict(dvs)[r.data_file]
    assert seen == [n for n, _ in dvs]


@pytest.mark.parametrize("dv", _vectors(), ids=repr)
def test_entry_fast_parse_is_the_construct_parse(dv):
    """The generated straight-line entry parser (what read_deletion_vector uses first) reads every flavour
    as the Construct tree does, and builds the same bytes."""
    from paimon_codec.generated.construct.deletion_vector import (
        fast_build_deletion_vector_entry,
        fast_parse_deletion_vector_entry,
    )

    data = encode_entry(dv)
    fast, end = fast_parse_deletion_vector_entry(memoryview(data))
    ref = EntryCodec.parse(data)
    assert end == len(data)
    assert (fast["size"], fast["crc"], fast["bin"]["magic"]) == (ref["size"], ref["crc"], ref["bin"]["magic"])
    assert DeletionVector.from_bin(fast["bin"]) == DeletionVector.from_bin(ref["bin"]) == dv
    assert fast_build_deletion_vector_entry(fast) == data
    framed = b"\1" + data  # as in a file: after the version byte
    assert read_deletion_vector(framed, 1, len(data) - 8 if not dv.bitmap64 else len(data)) == dv
