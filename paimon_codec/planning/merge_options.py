"""The merge options the merge read (:mod:`paimon_codec.reading.merge`) implements, listed in
:mod:`.read_options`' table of supported options.

Values the merge read does not reproduce (an unknown engine, an aggregate function outside
:data:`~paimon_codec.table.merge_spec.AGGREGATE_FUNCTIONS`, a listagg with ``distinct``, ...) are refused by
:func:`~paimon_codec.table.merge_spec.merge_spec` with a one-line error naming them.
"""

from __future__ import annotations

from collections.abc import Callable

from ..table.merge_spec import ENGINES
from ..table.schema import TableSchema

__all__ = ["MERGE_OPTIONS"]


def _always(schema: TableSchema) -> bool:
    return True


def _known_engine(schema: TableSchema) -> bool:
    # Paimon's enum parse: any case, not trimmed
    return schema.options.get("merge-engine", "").upper() in {e.upper() for e in ENGINES}


MERGE_OPTIONS: dict[str, Callable[[TableSchema], bool]] = {
    **dict.fromkeys(("sequence.field", "sequence.field.sort-order", "ignore-delete", "first-row.ignore-delete",
                     "deduplicate.ignore-delete", "partial-update.ignore-delete",
                     "partial-update.remove-record-on-delete", "fields.default-aggregate-function",
                     "data-file.thin-mode", "fields.*.aggregate-function", "fields.*.ignore-retract",
                     "fields.*.list-agg-delimiter", "fields.*.nested-key", "fields.*.count-limit",
                     "fields.*.ts-field",
                     # refused by merge_spec when they ask for what it does not reproduce
                     "aggregation.remove-record-on-delete", "fields.*.distinct",
                     # Paimon's writer drops -U records with it; its read never looks at it
                     "ignore-update-before"), _always),
    "merge-engine": _known_engine,
}
