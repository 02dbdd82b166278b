"""The one exception family of paimon-codec.

Every problem with *input* (corrupt, truncated, hostile, unknown version, checksum mismatch,
unsupported type) raises a subclass of :class:`PaimonCodecError`.  Each error carries where it
happened (``path``, ``offset``) and what was expected, so a one-line message is always enough to
find the bad byte.  ``PaimonCodecError`` derives from ``ValueError`` so that callers who already
catch ``ValueError`` keep working.
"""

from __future__ import annotations

__all__ = [
    "PaimonCodecError",
    "CorruptDataError",
    "TruncatedDataError",
    "UnsupportedVersionError",
    "ChecksumMismatchError",
    "UnsupportedTypeError",
    "InvalidOptionError",
    "InvalidPredicateError",
    "MissingFileError",
    "BranchDirectoryError",
]


class PaimonCodecError(ValueError):
    """Base class of every error raised for bad input."""

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


class CorruptDataError(PaimonCodecError):
    """The bytes do not follow the format (bad magic, impossible length, inconsistent fields)."""


class TruncatedDataError(CorruptDataError):
    """The input ends before a field or a declared length does."""


class UnsupportedVersionError(PaimonCodecError):
    """A version field names a format version this library does not read."""


class ChecksumMismatchError(CorruptDataError):
    """A stored checksum does not match the bytes it covers."""


class UnsupportedTypeError(PaimonCodecError):
    """A column type that an index (or the key hash) cannot hold."""


class InvalidOptionError(PaimonCodecError):
    """A table option with an unknown key shape or an unparsable value."""


class InvalidPredicateError(PaimonCodecError):
    """A predicate that cannot be parsed or does not fit the schema."""


class MissingFileError(CorruptDataError, FileNotFoundError):
    """A file named by table metadata (manifest, index file, data file) is not there, or is a directory.

    Also a ``FileNotFoundError``, so callers that treat a vanished file specially keep doing so."""

    def __init__(self, message: str, *, path: str | None = None, offset: int | None = None,
                 expected: str | None = None) -> None:
        CorruptDataError.__init__(self, message, path=path, offset=offset, expected=expected)


class BranchDirectoryError(PaimonCodecError):
    """A branch's own directory (``<table>/branch/branch-<name>``) was given as a table: it holds only the
    branch's schemas, snapshots and tags; its files are read through the table with the branch named."""
