"""paimon-codec: Apache Paimon's table-index and file-index formats for Python and Spark.

The public API, each name exported from one place:

* here: the exception tree (:mod:`paimon_codec.errors`) and the enums of the API's modes
  (:mod:`paimon_codec.modes`);
* :mod:`paimon_codec.expressions` - predicates (``col``, ``parse_where``, ...);
* :mod:`paimon_codec.table` - tables, their metadata, planning and local reads;
* :mod:`paimon_codec.fileindex` - file indexes: writers, readers, evaluation;
* :mod:`paimon_codec.dv`, :mod:`paimon_codec.bucket`, :mod:`paimon_codec.globalindex` - deletion vectors,
  dynamic-bucket hash indexes, global indexes;
* :mod:`paimon_codec.storage` - object stores; :mod:`paimon_codec.spark` - Spark scans, writes, audits.
"""

from __future__ import annotations

from .errors import (
    BranchDirectoryError,
    ChecksumMismatchError,
    CommitConflictError,
    CorruptDataError,
    DataError,
    InvalidOptionError,
    InvalidPredicateError,
    InvalidSchemaError,
    MissingFileError,
    PaimonCodecError,
    StorageError,
    TruncatedDataError,
    UnsupportedFeatureError,
    UnsupportedTypeError,
    UnsupportedVersionError,
    UsageError,
)
from .modes import (
    ChangeKind,
    CommitKind,
    DistributedPlanning,
    MetadataLayout,
    PredicateJsonStyle,
    Semantics,
    WriteMode,
)

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "PaimonCodecError", "DataError", "CorruptDataError", "TruncatedDataError", "ChecksumMismatchError",
    "UnsupportedVersionError", "UsageError", "InvalidOptionError", "InvalidPredicateError", "InvalidSchemaError",
    "BranchDirectoryError", "UnsupportedFeatureError", "UnsupportedTypeError", "StorageError", "MissingFileError",
    "CommitConflictError",
    "CommitKind", "ChangeKind", "Semantics", "DistributedPlanning", "WriteMode", "PredicateJsonStyle",
    "MetadataLayout",
]
