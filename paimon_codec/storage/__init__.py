"""One storage layer for local disk and object stores (pyarrow.fs, fsspec as the fallback)."""

from .files import (
                    basename,
                    create_if_absent,
                    delete,
                    exists,
                    file_size,
                    is_dir,
                    join,
                    list_dir,
                    makedirs,
                    open_input,
                    parent,
                    read_bytes,
                    read_range,
                    write_atomic,
)
from .filesystems import (
                    StorageError,
                    describe_options,
                    filesystem_for,
                    is_local,
                    restore_storage_state,
                    set_storage_options,
                    split_uri,
                    storage_options_for,
                    storage_state,
)

__all__ = [
    "StorageError", "basename", "create_if_absent", "delete", "describe_options", "exists", "file_size",
    "filesystem_for", "is_dir", "is_local", "join", "list_dir", "makedirs", "open_input", "parent",
    "read_bytes", "read_range", "restore_storage_state", "set_storage_options", "split_uri",
    "storage_options_for", "storage_state", "write_atomic",
]
