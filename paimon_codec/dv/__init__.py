"""Deletion vectors: bins, DV index files, the legacy delete-map layout, Puffin interop, apply.

Typical use::

    from paimon_codec.dv import DeletionVector, write_dv_index, read_deletion_vector

    dv = DeletionVector.from_array(positions)                # numpy int array
    metas = write_dv_index("index/", {"data-0.parquet": dv})   # -> IndexFileMeta-like records
    r = metas[0].ranges[0]
    back = read_deletion_vector(metas[0].path, r.offset, r.length)   # reads only that entry
"""

from .apply import combine, filter_arrow, selected_positions
from .delete_map import encode_delete_map, read_delete_map, write_delete_map
from .deletion_vector import MAGIC_32, MAGIC_64, DeletionVector
from .index_file import (
    DeletionFileRange,
    DvIndexFileMeta,
    DvIndexFileWriter,
    encode_dv_files,
    read_deletion_vector,
    read_deletion_vectors,
    read_dv_index,
    read_entry,
    write_dv_index,
)
from .puffin import encode_puffin, read_puffin, write_puffin

__all__ = [
    "DeletionVector", "MAGIC_32", "MAGIC_64",
    "DeletionFileRange", "DvIndexFileMeta", "DvIndexFileWriter", "encode_dv_files", "write_dv_index",
    "read_dv_index", "read_entry", "read_deletion_vector", "read_deletion_vectors",
    "encode_delete_map", "write_delete_map", "read_delete_map",
    "encode_puffin", "write_puffin", "read_puffin",
    "combine", "filter_arrow", "selected_positions",
]
