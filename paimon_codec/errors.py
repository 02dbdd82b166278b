"""The one exception family of paimon-codec.

Every error the library raises on purpose is a :class:`PaimonCodecError`.  Each carries where it
happened (``path``, ``offset``) and what was expected, so a one-line message is always enough to find
the bad byte or the bad argument.  The tree says what kind of problem it is::

    PaimonCodecError                      (Exception)
    +-- DataError                         (also ValueError: the bytes are a bad value)
    |   +-- CorruptDataError
    |   |   +-- TruncatedDataError
    |   |   +-- ChecksumMismatchError
    |   +-- UnsupportedVersionError
    +-- UsageError                        (also ValueError: an argument is a bad value)
    |   +-- InvalidOptionError
    |   +-- InvalidPredicateError
    |   +-- InvalidSchemaError
    |   +-- BranchDirectoryError
    +-- UnsupportedFeatureError           (the one-line refusals: a correct table or call this
    |   +-- UnsupportedTypeError           library does not read / write / answer exactly)
    +-- StorageError                      (also OSError: a store could not be reached or configured)
    |   +-- MissingFileError              (also FileNotFoundError)
    +-- CommitConflictError               (the table moved underneath a commit; nothing was committed)

Why only some are ``ValueError``: data and usage errors *are* bad values (a caller catching
``ValueError`` around a decode or an argument check is right to catch them); a refusal of a valid
table, a failing store and a lost commit race are not, and pretending otherwise would hide them in
``except ValueError`` blocks written for something else.  Catch :class:`PaimonCodecError` for "anything
this library refused", or the precise class.
"""

from __future__ import annotations

__all__ = [
    "PaimonCodecError",
    "DataError",
    "CorruptDataError",
    "TruncatedDataError",
    "ChecksumMismatchError",
    "UnsupportedVersionError",
    "UsageError",
    "InvalidOptionError",
    "InvalidPredicateError",
    "InvalidSchemaError",
    "BranchDirectoryError",
    "UnsupportedFeatureError",
    "UnsupportedTypeError",
    "StorageError",
    "MissingFileError",
    "CommitConflictError",
]


class PaimonCodecError(Exception):
    """Base class of every error this library raises on purpose (see the module docstring's tree)."""

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        offset: int | None = None,
        expected: str | None = None,
    ) -> None:
        self.message = message
        self.path = None if path is None else str(path)
        self.offset = offset
        self.expected = expected
        super().__init__(self._render())

    def _render(self) -> str:
        where = []
        if self.path is not None:
            where.append(self.path)
        if self.offset is not None:
            where.append(f"offset {self.offset}")
        text = self.message
        if self.expected is not None:
            text += f" (expected {self.expected})"
        return f"{': '.join(where)}: {text}" if where else text

    def with_path(self, path: str | None) -> PaimonCodecError:
        """Return this error with ``path`` filled in if it was not known where it was raised."""
        if path is not None and self.path is None:
            self.path = str(path)
            self.args = (self._render(),)
        return self

    def with_base_offset(self, base: int) -> PaimonCodecError:
        """Shift ``offset`` by ``base`` (for errors raised while decoding a slice of a larger file)."""
        if self.offset is not None and base:
            self.offset += base
            self.args = (self._render(),)
        return self

    def __str__(self) -> str:  # keep the message current after with_path / with_base_offset
        return self._render()


class DataError(PaimonCodecError, ValueError):
    """Bytes or metadata that do not follow the format (or a version of it this library reads)."""


class CorruptDataError(DataError):
    """The bytes do not follow the format (bad magic, impossible length, inconsistent fields)."""


class TruncatedDataError(CorruptDataError):
    """The input ends before a field or a declared length does."""


class ChecksumMismatchError(CorruptDataError):
    """A stored checksum does not match the bytes it covers."""


class UnsupportedVersionError(DataError):
    """A version field names a format version this library does not read."""


class UsageError(PaimonCodecError, ValueError):
    """An argument of the caller is wrong (an option, a predicate, a type text, a path)."""


class InvalidOptionError(UsageError):
    """A table or index option with an unknown key shape or an unparsable value."""


class InvalidPredicateError(UsageError):
    """A predicate that cannot be parsed or does not fit the schema."""


class InvalidSchemaError(UsageError):
    """A type or row-schema text that does not parse (``"INT, STRING"``, ``"a INT NOT NULL"``, JSON fields)."""


class BranchDirectoryError(UsageError):
    """A branch's own directory (``<table>/branch/branch-<name>``) was given as a table: it holds only the
    branch's schemas, snapshots and tags; its files are read through the table with the branch named."""


class UnsupportedFeatureError(PaimonCodecError):
    """A valid table, file or call that this library does not handle exactly: refused in one line naming the
    feature (a merge engine, an aggregate, a compression, a cast Paimon answers differently), never guessed."""


class UnsupportedTypeError(UnsupportedFeatureError):
    """The refusal is about a column type (one an index, the key hash, a cast or the writer cannot hold)."""


class StorageError(PaimonCodecError, OSError):
    """A store could not be reached or configured (unknown scheme, missing driver, bad option, failed request)."""


class MissingFileError(StorageError, FileNotFoundError):
    """A file named by table metadata (manifest, index file, data file) is not there, or is a directory; or
    the path given as a table has no schema directory.

    Also a ``FileNotFoundError``, so callers that treat a vanished file specially keep doing so."""


class CommitConflictError(PaimonCodecError):
    """The table changed underneath the commit in a way that conflicts with it (a file it deletes is
    gone, a file it adds is already there, the bucket count changed); nothing was committed."""

