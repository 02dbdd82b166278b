"""A data file the manifest lists but the store no longer holds is a one-line :class:`MissingFileError` naming
it, in every format (paimon-cpp's corpus holds tables whose external data files are gone: pyarrow's own
``FileNotFoundError`` came through, outside the library's error family)."""

from __future__ import annotations

import glob
import os

import pytest

from paimon_codec.errors import MissingFileError
from paimon_codec.reading import read_table


@pytest.mark.parametrize("fmt", ["parquet", "orc", "avro"])
def test_a_missing_data_file_is_a_missing_file_error(java_newest, tmp_path, fmt):
    path = java_newest.create_table(tmp_path, "db.t", "id INT, v STRING", options={"file.format": fmt,
                                                                                  "bucket": "-1"})
    java_newest.write(path, [{"id": 1, "v": "a"}])
    (gone,) = glob.glob(os.path.join(path, "bucket-0", f"*.{fmt}"))
    os.remove(gone)
    with pytest.raises(MissingFileError, match="data file listed in the manifest does not exist") as info:
        read_table(path)
    assert info.value.path == gone and "\n" not in str(info.value).strip()
