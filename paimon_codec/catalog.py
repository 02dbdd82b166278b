"""Paimon's filesystem catalog: tables named ``db.table`` under a warehouse (``<warehouse>/<db>.db/<table>``).

    >>> from paimon_codec.catalog import FileSystemCatalog
    >>> catalog = FileSystemCatalog("s3://bucket/wh", storage_options={"endpoint": "..."})
    >>> catalog.create_database("sales", ignore_if_exists=True)
    >>> catalog.create_table("sales.orders", "id BIGINT, status STRING", partition_keys=["status"])
    >>> catalog.list_tables("sales")
    ['orders']
    >>> table = catalog.get_table("sales.orders")          # a PaimonTable: plan_scan, read_table, ...

The layout is Paimon's ``FileSystemCatalog`` (and pypaimon's / Spark's ``paimon`` catalog with
``warehouse=``): a database is the directory ``<name>.db``, a table a directory holding ``schema/``.  The
catalog keeps no state of its own, so Paimon Java, pypaimon and this library see the same databases and
tables.  A REST catalog is not offered: see ``docs/spark.md`` (Catalogs).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from . import storage
from .errors import InvalidOptionError, UsageError

if TYPE_CHECKING:
    import pyarrow as pa

    from .table import PaimonTable
    from .types import RowType

__all__ = ["FileSystemCatalog", "CatalogError", "split_identifier"]

_DB_SUFFIX = ".db"


class CatalogError(UsageError):
    """A database or table that does not exist, or already exists."""


def split_identifier(identifier: str) -> tuple[str, str]:
    """``"db.table"`` -> ``("db", "table")`` (backquotes allowed around either part)."""
    parts = [p.strip().strip("`") for p in str(identifier).split(".")]
    if len(parts) != 2 or not all(parts):
        raise InvalidOptionError(f"table name {identifier!r} is not 'database.table'")
    for p in parts:
        _check_name(p)
    return parts[0], parts[1]


def _check_name(name: str) -> None:
    if "/" in name or os.sep in name or name in (".", "..") or not name:
        raise InvalidOptionError(f"bad database or table name {name!r}")


class FileSystemCatalog:
    """Databases and tables of a filesystem warehouse (local path or object-store URI)."""

    def __init__(self, warehouse: str | os.PathLike, storage_options: Mapping[str, str] | None = None) -> None:
        from .table.table import register_storage_options

        if storage_options:
            register_storage_options(warehouse, dict(storage_options))
        self.warehouse = storage.normalize(warehouse)

    # -- databases ----------------------------------------------------------------------------------
    def database_path(self, database: str) -> str:
        _check_name(database)
        return storage.join(self.warehouse, database + _DB_SUFFIX)

    def list_databases(self) -> list[str]:
        return [n[: -len(_DB_SUFFIX)] for n in storage.list_dir(self.warehouse)
                if n.endswith(_DB_SUFFIX) and storage.is_dir(storage.join(self.warehouse, n))]

    def database_exists(self, database: str) -> bool:
        return storage.is_dir(self.database_path(database))

    def create_database(self, database: str, ignore_if_exists: bool = False) -> None:
        if self.database_exists(database):
            if ignore_if_exists:
                return
            raise CatalogError(f"database {database!r} already exists", path=self.database_path(database))
        storage.makedirs(self.database_path(database))

    def drop_database(self, database: str, ignore_if_not_exists: bool = False, cascade: bool = False) -> None:
        """Drop a database; one holding tables only with ``cascade=True`` (their files go too)."""
        if not self.database_exists(database):
            if ignore_if_not_exists:
                return
            raise CatalogError(f"database {database!r} does not exist", path=self.database_path(database))
        tables = self.list_tables(database)
        if tables and not cascade:
            raise CatalogError(f"database {database!r} is not empty ({len(tables)} tables); drop with cascade=True",
                               path=self.database_path(database))
        _delete_tree(self.database_path(database))

    # -- tables -------------------------------------------------------------------------------------
    def table_path(self, identifier: str) -> str:
        database, table = split_identifier(identifier)
        return storage.join(self.database_path(database), table)

    def list_tables(self, database: str) -> list[str]:
        from .table.table import is_table_dir

        if not self.database_exists(database):
            raise CatalogError(f"database {database!r} does not exist", path=self.database_path(database))
        base = self.database_path(database)
        return [n for n in storage.list_dir(base) if is_table_dir(storage.join(base, n))]

    def table_exists(self, identifier: str) -> bool:
        from .table.table import is_table_dir

        return is_table_dir(self.table_path(identifier))

    def get_table(self, identifier: str, branch: str | None = None) -> PaimonTable:
        """The table (a :class:`~paimon_codec.table.PaimonTable`); a missing one is a :class:`CatalogError`."""
        from .table import PaimonTable

        if not self.table_exists(identifier):
            raise CatalogError(f"table {identifier!r} does not exist", path=self.table_path(identifier))
        return PaimonTable(self.table_path(identifier), branch=branch)

    load_table = get_table  # pyiceberg's name

    def create_table(self, identifier: str, schema: pa.Schema | RowType | str,
                     options: Mapping[str, object] | None = None, partition_keys: Sequence[str] = (),
                     primary_keys: Sequence[str] | None = None, ignore_if_exists: bool = False) -> PaimonTable:
        """Create the table (its database must exist, as in Paimon) and return it."""
        from .table import PaimonTable
        from .writing import create_table

        database, _ = split_identifier(identifier)
        if not self.database_exists(database):
            raise CatalogError(f"database {database!r} does not exist", path=self.database_path(database))
        if self.table_exists(identifier):
            if ignore_if_exists:
                return PaimonTable(self.table_path(identifier))
            raise CatalogError(f"table {identifier!r} already exists", path=self.table_path(identifier))
        path = create_table(self.table_path(identifier), schema, options, partition_keys, primary_keys)
        return PaimonTable(path)

    def drop_table(self, identifier: str, ignore_if_not_exists: bool = False) -> None:
        """Drop the table and its files (Paimon's filesystem catalog deletes the table directory)."""
        if not self.table_exists(identifier):
            if ignore_if_not_exists:
                return
            raise CatalogError(f"table {identifier!r} does not exist", path=self.table_path(identifier))
        _delete_tree(self.table_path(identifier))


def _delete_tree(path: str) -> None:
    fs, p = storage.filesystem_for(path)
    fs.delete_dir(p)
