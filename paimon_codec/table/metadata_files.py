"""The table's numbered JSON metadata files (``schema/schema-<id>``, ``snapshot/snapshot-<id>``)."""

from __future__ import annotations

import json
import os

from .. import storage
from ..errors import CorruptDataError

__all__ = ["numbered_ids", "read_json_object"]


def numbered_ids(directory: str | os.PathLike, prefix: str) -> list[int]:
    """Sorted ids ``N`` of the files ``<prefix>N`` in ``directory`` (none if it does not exist)."""
    d = os.fspath(directory)
    n = len(prefix)
    return sorted(int(name[n:]) for name in storage.list_dir(d)
                  if name.startswith(prefix) and name[n:].isascii() and name[n:].isdigit())


def read_json_object(path: str, what: str) -> dict:
    """The JSON object in the metadata file at ``path``; ``what`` names it in errors (``"schema 3"``).

    A missing file, text that is not JSON (or nests too deeply) and JSON that is not an object are
    :class:`CorruptDataError`.
    """
    kind = what.split(" ", 1)[0]
    try:
        obj = json.loads(storage.read_text(path))
    except FileNotFoundError:
        raise CorruptDataError(f"{what} does not exist", path=path) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CorruptDataError(f"{kind} file is not JSON: {exc}", path=path) from None
    except RecursionError:
        raise CorruptDataError(f"{kind} file is nested too deeply", path=path) from None
    if not isinstance(obj, dict):
        raise CorruptDataError(f"{kind} file is not a JSON object", path=path)
    return obj
