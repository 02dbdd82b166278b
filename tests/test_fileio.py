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
