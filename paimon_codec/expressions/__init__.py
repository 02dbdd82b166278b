"""The predicate language shared by file indexes, table planning, Arrow and Spark filters.

* :mod:`.predicate` - the tree: :class:`Predicate`, the :class:`Leaf` base, :class:`And`, :class:`Or`;
* :mod:`.leaves` - one class per operator (:class:`EqualTo`, :class:`In`, :class:`IsNull`, ...) and
  :func:`make_leaf` (a leaf from its operator name);
* :mod:`.builder` - the ``col("a") == 1`` expression API;
* :mod:`.visitor` - :class:`LeafVisitor` / :class:`PredicateVisitor`, one abstract method per operator;
* :mod:`.bind` - a column's type in a schema, and literal coercion to it;
* :mod:`.sql` (+ :mod:`._sql_render`) - the SQL-like text form (``parse_where`` / ``to_sql``);
* :mod:`.json_form` (+ :mod:`._json_render`) - the JSON forms (``predicate_from_json`` / ``predicate_to_json``).

Nothing here knows about index formats: :mod:`paimon_codec.fileindex.evaluate` asks the indexes,
:mod:`paimon_codec.reading.arrow_filter` and :mod:`paimon_codec.spark.filters` filter rows.
"""

from __future__ import annotations

from . import leaves
from .bind import coerce_literal, column_type
from .builder import Column, col
from .json_form import load_predicate_json, predicate_from_json, predicate_to_json
from .leaves import *  # noqa: F403 - the leaf classes are this package's API: exactly leaves.__all__
from .predicate import And, Leaf, Or, Predicate, WhereLike, and_all, or_all
from .sql import parse_where, to_sql
from .visitor import LeafVisitor, PredicateVisitor, visit

__all__ = [
    "col", "Column", "Predicate", "WhereLike", "Leaf", "And", "Or", "and_all", "or_all",
    "parse_where", "to_sql", "predicate_from_json", "predicate_to_json", "load_predicate_json",
    "coerce_literal", "column_type", "LeafVisitor", "PredicateVisitor", "visit",
]
__all__ += leaves.__all__
