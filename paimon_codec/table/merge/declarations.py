"""The merge options the merge read implements, declared to :mod:`paimon_codec.table.read_options`.

Values the merge read does not reproduce (an unknown engine, an aggregate function outside
:data:`.spec.AGGREGATE_FUNCTIONS`, a listagg with ``distinct``, ...) are refused by :func:`.spec.merge_spec`
with a one-line error naming them.
"""

from __future__ import annotations

from ..read_options import declare_supported
from .spec import ENGINES

for _key in ("sequence.field", "sequence.field.sort-order", "ignore-delete", "first-row.ignore-delete",
             "deduplicate.ignore-delete", "partial-update.ignore-delete", "partial-update.remove-record-on-delete",
             "fields.default-aggregate-function", "data-file.thin-mode",
             "fields.*.aggregate-function", "fields.*.ignore-retract", "fields.*.list-agg-delimiter",
             "fields.*.nested-key", "fields.*.count-limit", "fields.*.ts-field",
             # refused by merge_spec when they ask for what it does not reproduce
             "aggregation.remove-record-on-delete", "fields.*.distinct",
             # Paimon's writer drops -U records with it; its read never looks at it
             "ignore-update-before"):
    declare_supported(_key)
declare_supported("merge-engine",  # Paimon's enum parse: any case, not trimmed
                  lambda schema: schema.options.get("merge-engine", "").upper() in {e.upper() for e in ENGINES})
