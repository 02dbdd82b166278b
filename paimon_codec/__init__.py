"""paimon-codec: Apache Paimon's table-index and file-index formats for Python and Spark."""

__version__ = "0.1.0"

from .errors import (  # noqa: E402
    ChecksumMismatchError,
    CorruptDataError,
    PaimonCodecError,
    TruncatedDataError,
    UnsupportedTypeError,
    UnsupportedVersionError,
)

__all__ = [
    "__version__",
    "PaimonCodecError",
    "CorruptDataError",
    "TruncatedDataError",
    "UnsupportedVersionError",
    "ChecksumMismatchError",
    "UnsupportedTypeError",
]
