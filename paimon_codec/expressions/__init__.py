"""The predicate language shared by file indexes, table planning, Arrow and Spark filters.

* :mod:`.predicate` - the tree (:class:`Leaf`, :class:`And`, :class:`Or`) and the ``col(...)`` builder;
* :mod:`.visitor` - :class:`PredicateVisitor`, one abstract method per node kind;
* :mod:`.bind` - a column's type in a schema, and literal coercion to it;
* :mod:`.sql` (+ :mod:`._sql_render`) - the SQL-like text form (``parse_where`` / ``to_sql``);
* :mod:`.json_form` (+ :mod:`._json_render`) - the JSON forms (``predicate_from_json`` / ``predicate_to_json``).

Nothing here knows about index formats: :mod:`paimon_codec.fileindex.evaluate` asks the indexes,
:mod:`paimon_codec.table.arrow_filter` and :mod:`paimon_codec.spark.filters` filter rows.
"""

from __future__ import annotations

from .bind import coerce_literal, column_type
from .json_form import load_predicate_json, predicate_from_json, predicate_to_json
from .predicate import And, Column, Leaf, Or, Predicate, and_all, col, or_all
from .sql import parse_where, to_sql
from .visitor import PredicateVisitor, visit

__all__ = [
    "col", "Column", "Predicate", "Leaf", "And", "Or", "and_all", "or_all",
    "parse_where", "to_sql", "predicate_from_json", "predicate_to_json", "load_predicate_json",
    "coerce_literal", "column_type", "PredicateVisitor", "visit",
]
