"""One atomic writer: every crash-safe local write goes through ``storage.local_atomic_file``."""

from __future__ import annotations

import os

import pytest

from paimon_codec import fileio, storage


def _through_context(path: str) -> None:
    with fileio.atomic_write(path) as fh:
        fh.write(b"new")


@pytest.mark.parametrize("write", [
    lambda p: storage.write_atomic(p, b"new"),
    lambda p: fileio.atomic_write_bytes(p, b"new"),
    _through_context,
], ids=["storage.write_atomic", "fileio.atomic_write_bytes", "fileio.atomic_write"])
def test_each_writer_renames_a_temp_of_the_one_scheme(tmp_path, monkeypatch, write):
    target = str(tmp_path / "f.bin")
    renamed: list[str] = []
    real = os.replace

    def spy(src, dst):
        renamed.append(os.path.basename(src))
        return real(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    write(target)
    assert open(target, "rb").read() == b"new"
    assert len(renamed) == 1 and renamed[0].startswith(storage.TEMP_PREFIX + "f.bin.")
    assert fileio.TEMP_PREFIX == storage.TEMP_PREFIX


def test_a_failed_write_leaves_the_old_file_and_no_temp(tmp_path):
    target = tmp_path / "f.bin"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), fileio.atomic_write(str(target)) as fh:
        fh.write(b"half")
        raise RuntimeError("crash")
    assert target.read_bytes() == b"old"
    assert sorted(os.listdir(tmp_path)) == ["f.bin"]


def test_create_if_absent_uses_the_same_temp_and_never_replaces(tmp_path):
    target = str(tmp_path / "snap")
    assert storage.create_if_absent(target, b"one")
    assert not storage.create_if_absent(target, b"two")
    assert open(target, "rb").read() == b"one"
    assert os.listdir(tmp_path) == ["snap"]
