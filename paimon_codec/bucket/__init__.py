"""Dynamic-bucket hash index files, the primary-key BinaryRow hash and bucket assignment.

Typical use::

    from paimon_codec.bucket import KeyEncoder, DynamicBucketAssigner, fixed_buckets

    enc = KeyEncoder("INT, STRING")
    hashes = enc.hash_many([[1, "a"], [2, "bb"]])         # BinaryRow.hashCode() per key
    fixed_buckets(hashes, 16)                             # abs(hash % 16)
    DynamicBucketAssigner(target_row_num=2_000_000).assign_many(hashes)
"""

from .assign import DynamicBucketAssigner, fixed_bucket, fixed_buckets
from .binary_row import EMPTY_ROW, EMPTY_ROW_HASH, KeyEncoder, binary_row, murmur3_rows, row_hash
from .hash_index import encode_hash_index, read_hash_index, write_hash_index

__all__ = [
    "KeyEncoder", "binary_row", "row_hash", "murmur3_rows", "EMPTY_ROW", "EMPTY_ROW_HASH",
    "DynamicBucketAssigner", "fixed_bucket", "fixed_buckets",
    "read_hash_index", "encode_hash_index", "write_hash_index",
]
