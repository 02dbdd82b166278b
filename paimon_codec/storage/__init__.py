"""One storage layer for local paths and URIs (pyarrow.fs; fsspec as the fallback).

Every read and write of the library goes through here: local paths keep their plain ``open``/``os``
fast paths, URIs (``s3://``, ``gs://``, ``hdfs://``, ``abfss://``, ``oss://`` via fsspec, ...) resolve to a
cached filesystem built from the URI and the registered storage options.  A store's failure is a
:class:`paimon_codec.errors.StorageError`.
"""

from .files import (
    TEMP_PREFIX,
    basename,
    create_if_absent,
    delete,
    exists,
    file_size,
    is_dir,
    is_file,
    join,
    list_dir,
    local_atomic_file,
    makedirs,
    normalize,
    open_input,
    parent,
    read_bytes,
    read_range,
    read_text,
    store_errors,
    walk,
    write_atomic,
)
from .filesystems import (
    GLOBAL,
    clear_storage_options,
    describe_options,
    filesystem_for,
    is_local,
    restore_storage_state,
    s3_settings,
    set_storage_options,
    split_uri,
    storage_options_for,
    storage_state,
)
from .ranges import DEFAULT_MIN_GET, RangeReader

__all__ = [
    "DEFAULT_MIN_GET", "GLOBAL", "RangeReader", "basename", "clear_storage_options",
    "create_if_absent", "delete", "describe_options", "exists", "file_size", "filesystem_for", "is_dir", "is_file",
    "is_local", "join", "list_dir", "makedirs", "normalize", "open_input", "parent", "read_bytes", "read_range",
    "read_text", "restore_storage_state", "s3_settings", "set_storage_options", "split_uri", "store_errors",
    "storage_options_for", "storage_state", "walk", "write_atomic", "TEMP_PREFIX", "local_atomic_file",
]
