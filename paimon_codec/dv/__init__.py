"""Deletion vectors: bins, DV index files, the legacy delete-map layout, Puffin interop, apply."""

from .deletion_vector import MAGIC_32, MAGIC_64, DeletionVector

__all__ = ["DeletionVector", "MAGIC_32", "MAGIC_64"]
