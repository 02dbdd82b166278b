"""Former home of the Roaring32 helpers; they live in :mod:`paimon_codec.roaring` (one copy)."""

from ..roaring import bitmap_of, drop_first, first_n, portable_size, read_bitmap, serialize_optimized

__all__ = ["bitmap_of", "serialize_optimized", "read_bitmap", "portable_size", "first_n", "drop_first"]
