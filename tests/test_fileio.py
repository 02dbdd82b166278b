"""ByteSource.opened: sources opened from a path are closed, a caller's ByteSource is left open."""

import builtins

import numpy as np

from paimon_codec.dv import DeletionVector, read_delete_map, write_delete_map
from paimon_codec.dv.delete_map import delete_map_ranges
from paimon_codec.fileio import ByteSource
from paimon_codec.storage import files as storage_files


def test_opened_closes_what_it_opened_and_only_that(tmp_path):
    p = tmp_path / "f.bin"
    p.write_bytes(b"abcdef")
    with ByteSource.opened(p) as src:
        assert src.read(1, 3) == b"bcd"
        fh = src._file
    assert fh.closed
    with ByteSource(p) as mine:
        with ByteSource.opened(mine) as same:
            assert same is mine
        assert not mine._file.closed
        assert mine.read(0, 2) == b"ab"


def test_delete_map_read_from_a_path_leaves_no_open_file(tmp_path, monkeypatch):
    p = tmp_path / "delete-map"
    write_delete_map(p, {"data-0.parquet": DeletionVector.from_array(np.array([1, 5, 9]))})
    handles = []

    def tracking_open(*args, **kwargs):
        fh = builtins.open(*args, **kwargs)
        handles.append(fh)
        return fh

    monkeypatch.setattr(storage_files, "open", tracking_open, raising=False)  # paths open through storage
    back = read_delete_map(p)
    ranges = delete_map_ranges(p)
    assert handles and all(fh.closed for fh in handles)
    assert back["data-0.parquet"].to_array().tolist() == [1, 5, 9]
    assert list(ranges) == ["data-0.parquet"]


def test_keep_head_answers_reads_inside_it_from_one_read_and_counts_it_once(tmp_path, monkeypatch):
    import os

    import pytest

    from paimon_codec.errors import TruncatedDataError

    data = bytes(range(256)) * 40  # 10,240 bytes
    p = tmp_path / "f.index"
    p.write_bytes(data)
    preads = []
    real = os.pread
    monkeypatch.setattr(os, "pread", lambda fd, n, at: preads.append((n, at)) or real(fd, n, at))
    with ByteSource(p) as src:
        src.keep_head(4096)
        assert preads == [(4096, 0)] and src.bytes_read == 4096
        window = src.sub(100, 5000)  # a window cut later shares the head
        assert src.read(16, 126) == data[16:142]
        assert window.read(50, 700) == data[150:850]
        assert len(preads) == 1 and src.bytes_read == 4096
        assert window.read(3990, 100) == data[4090:4190]  # crosses the head's end: read from the file, counted
        assert len(preads) == 2 and src.bytes_read == 4196
        with pytest.raises(TruncatedDataError) as err:  # bounds first, as without a head
            window.read(4990, 20, "chunk keys")
        assert err.value.offset == 5090
    with ByteSource(p, base=10_000) as tail:
        tail.keep_head(4096)  # cut to the window (240 bytes), no error
        assert tail.bytes_read == 240 and tail.read(0, 240) == data[10_000:]
