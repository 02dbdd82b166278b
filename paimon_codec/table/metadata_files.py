"""The table's numbered JSON metadata files (``schema/schema-<id>``, ``snapshot/snapshot-<id>``)."""

from __future__ import annotations

import os

from .. import storage
from ..errors import CorruptDataError, MissingFileError
from .metadata_checks import load_json

__all__ = ["numbered_ids", "read_json_object"]


def numbered_ids(directory: str | os.PathLike, prefix: str) -> list[int]:
    """Sorted ids ``N`` of the files ``<prefix>N`` in ``directory`` (none if it does not exist)."""
    d = os.fspath(directory)
    n = len(prefix)
    return sorted(int(name[n:]) for name in storage.list_dir(d)  # at most 18 digits: a Java long, never a bignum
                  if name.startswith(prefix) and name[n:].isascii() and name[n:].isdigit() and len(name) - n <= 18)


def read_json_object(path: str, what: str) -> dict:
    """The JSON object in the metadata file at ``path``; ``what`` names it in errors (``"schema 3"``).

    A missing file is :class:`MissingFileError`; text that is not JSON (NaN / Infinity, nesting deeper than
    64, huge integers) and JSON that is not an object are :class:`CorruptDataError`.
    """
    kind = what.split(" ", 1)[0]
    try:
        text = storage.read_text(path)
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise MissingFileError(f"{what} does not exist", path=path) from None
    except UnicodeDecodeError as exc:
        raise CorruptDataError(f"{kind} file is not UTF-8 text: {exc.reason}", path=path, offset=exc.start,
                               expected="UTF-8 JSON text") from None
    obj = load_json(text, f"{kind} file", path)
    if not isinstance(obj, dict):
        raise CorruptDataError(f"{kind} file is not a JSON object", path=path,
                               expected=f"a JSON object (it holds {type(obj).__name__})")
    return obj
