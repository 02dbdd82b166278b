"""Which table options change what a batch read returns, and whether this reader honours them.

Every option of a table's schema falls in one class:

* **supported** — the reader implements what it means (``deletion-vectors.enabled``,
  ``index-file-in-data-file-dir``, ``data-file.external-paths``, ``scan.fallback-branch``, ...);
* **irrelevant** — it changes how Paimon writes, compacts, expires or streams, never which rows a
  batch read of a snapshot returns (``compaction.*``, ``snapshot.*``, ``changelog-producer``, ...).
  Keys Paimon itself does not know (connector or user properties) cannot change Paimon's read either;
* **refused** — it changes the rows of a batch read and this reader does not implement it: a read
  raises :class:`~paimon_codec.errors.UnsupportedTypeError` with one line naming the option.

Options of the primary-key merge (``merge-engine``, ``sequence.field``, ``fields.*.aggregate-function``,
...) matter only when a read merges sorted runs (a primary-key table without deletion vectors);
on deletion-vector tables the compacted files already hold merged rows.  Readers that implement a
feature list the options they implement (``MERGE_OPTIONS``, ``DATA_EVOLUTION_OPTIONS``, ``BLOB_OPTIONS``),
and this module's table of supported options imports those lists: a refusal turns into *supported* there.

The option keys are those of Paimon 1.4.2's ``CoreOptions`` (plus the ``fields.<name>.<key>`` and
format-specific prefixes).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import UnsupportedTypeError
from ..table.schema import TableSchema
from ..types import DataType
from .blob_columns import BLOB_OPTIONS
from .data_evolution import DATA_EVOLUTION_OPTIONS
from .merge_options import MERGE_OPTIONS

__all__ = ["ReadOptionsCheck", "classify_options", "check_read_options",
           "SUPPORTED", "IRRELEVANT", "REFUSED"]

log = logging.getLogger(__name__)

SUPPORTED = "supported"
IRRELEVANT = "irrelevant"
REFUSED = "refused"

# Options whose meaning this reader implements (given any value).
_SUPPORTED = {
    "bucket", "bucket-key", "bucket-function.type", "primary-key", "partition", "path", "branch", "type",
    "file.format", "file.format.per.level", "manifest.format", "deletion-vectors.enabled",
    "deletion-vectors.bitmap64", "index-file-in-data-file-dir", "data-file.external-paths",
    "data-file.external-paths.strategy", "data-file.external-paths.specific-fs", "data-file.external-paths.weights",
    "data-file.path-directory", "data-file.prefix", "partition.default-name", "partition.legacy-name",
    "scan.fallback-branch", "row-tracking.enabled", "file-index.read.enabled", "file-index.in-manifest-threshold",
}

# Options that choose the snapshot or the change set a read sees.  Explicit arguments of a scan
# (snapshot id, tag, timestamp) are supported; the same choice stored in the table options is not.
_SNAPSHOT_CHOICE = {
    "scan.snapshot-id", "scan.tag-name", "scan.timestamp-millis", "scan.timestamp", "scan.watermark",
    "scan.version", "scan.file-creation-time-millis", "scan.creation-time-millis", "incremental-between",
    "incremental-between-scan-mode", "incremental-between-tag-to-snapshot", "incremental-between-timestamp",
    "incremental-to-auto-tag", "scan.fallback-delta-branch", "scan.fallback-snapshot-branch",
    "scan.primary-branch", "batch-scan-mode",
}
_SCAN_MODES_OF_LATEST = {"default", "latest", "latest-full", "full"}

# Options of the primary-key merge (relevant only when sorted runs are merged at read time).
_MERGE = {
    "merge-engine", "sequence.field", "sequence.field.sort-order", "ignore-delete", "ignore-update-before",
    "partial-update.remove-record-on-delete", "partial-update.remove-record-on-sequence-group",
    "aggregation.remove-record-on-delete", "fields.default-aggregate-function",
    "data-file.thin-mode", "first-row.ignore-delete", "partial-update.ignore-delete", "deduplicate.ignore-delete",
}

# Options that change rows or columns of every read, refused unless declared supported.
_CHANGES_ROWS = {
    "data-evolution.enabled", "chain-table.enabled", "chain-table.chain-partition-keys",
    "table-read.sequence-number.enabled", "key-value.sequence_number.enabled", "upsert-key",
    "pk-clustering-override", "blob-field", "blob-as-descriptor", "blob-descriptor-field",
    "blob-external-storage-field", "blob-external-storage-path", "vector-field", "vector.file.format",
}
# boolean options that change nothing while false
_FALSE_IS_DEFAULT = {"data-evolution.enabled", "chain-table.enabled", "table-read.sequence-number.enabled",
                     "key-value.sequence_number.enabled", "blob-as-descriptor"}

# Every other key of Paimon 1.4.2's CoreOptions: write, compaction, expiry, streaming and catalog
# behaviour that never changes the rows of a batch read of one snapshot.
_IRRELEVANT = set("""
add-column-before-partition alter-column-null-to-not-null.disabled rowkind.field async-file-write auto-create
blob.split-by-file-size blob.target-file-size bucket-append-ordered cache-page-size changelog-file.compression
changelog-file.format changelog-file.prefix changelog-file.stats-mode changelog-producer
changelog-producer.row-deduplicate changelog-producer.row-deduplicate-ignore-fields changelog.num-retained.max
changelog.num-retained.min changelog.time-retained clustering.columns clustering.history-partition.idle-to-full-sort
clustering.history-partition.limit clustering.incremental clustering.incremental.mode
clustering.incremental.optimize-write clustering.strategy commit.callbacks commit.discard-duplicate-files
commit.force-compact commit.force-create-snapshot commit.max-retries commit.max-retry-wait commit.min-retry-wait
commit.strict-mode.last-safe-snapshot commit.timeout commit.user-prefix compaction.delete-ratio-threshold
compaction.file-num-limit compaction.force-rewrite-all-files compaction.force-up-level-0
compaction.incremental-size-threshold compaction.max-size-amplification-percent compaction.min.file-num
compaction.offpeak-ratio compaction.offpeak.end.hour compaction.offpeak.start.hour compaction.optimization-interval
compaction.size-ratio compaction.total-size-threshold consumer-id consumer.changelog-only consumer.expiration-time
consumer.ignore-progress consumer.mode continuous.discovery-interval cross-partition-upsert.bootstrap-parallelism
cross-partition-upsert.index-ttl delete.force-produce-changelog deletion-vector.index-file.target-size
deletion-vectors.modifiable disable-explicit-type-casting dynamic-bucket.assigner-parallelism
dynamic-bucket.initial-buckets dynamic-bucket.max-buckets dynamic-bucket.target-row-num dynamic-partition-overwrite
end-input.check-partition-expire file-operation.thread-num file-reader-async-threshold file.block-size
file.compression file.compression.per.level file.compression.zstd-level file.suffix.include.compression
force-lookup format-table.commit-hive-sync-url format-table.file.compression format-table.implementation
format-table.partition-path-only-value full-compaction.delta-commits global-index.build.max-parallelism
global-index.build.max-shard global-index.column-update-action global-index.enabled global-index.external-path
global-index.row-count-per-shard global-index.thread-num local-merge-buffer-size local-sort.max-num-file-handles
lookup-compact lookup-compact.max-interval lookup-wait lookup.cache-file-retention lookup.cache-max-disk-size
lookup.cache-max-memory-size lookup.cache-spill-compression lookup.cache.bloom.filter.enabled
lookup.cache.bloom.filter.fpp lookup.cache.high-priority-pool-ratio lookup.hash-load-factor
lookup.merge-buffer-size lookup.merge-records-threshold lookup.remote-file.enabled
lookup.remote-file.level-threshold manifest.compression manifest.delete-file-drop-stats
manifest.full-compaction-threshold-size manifest.merge-min-count manifest.target-file-size
materialized-table.definition-query materialized-table.interval-freshness
materialized-table.interval-freshness.time-unit materialized-table.logical-refresh-mode
materialized-table.refresh-handler-bytes materialized-table.refresh-handler-description
materialized-table.refresh-mode materialized-table.refresh-status metadata.stats-dense-store
metadata.stats-keep-first-n-columns metadata.stats-mode metadata.stats-mode.per.level metastore.partitioned-table
metastore.tag-to-partition metastore.tag-to-partition.preview num-levels num-sorted-run.compaction-trigger
num-sorted-run.stop-trigger overwrite-upgrade page-size parquet.enable.dictionary partition.end-input-to-done
partition.expiration-batch-size partition.expiration-check-interval partition.expiration-max-num
partition.expiration-strategy partition.expiration-time partition.idle-time-to-report-statistic
partition.mark-done-action partition.mark-done-action.custom.class partition.mark-done-action.http.params
partition.mark-done-action.http.url partition.sink-strategy partition.timestamp-format.strict
partition.timestamp-formatter partition.timestamp-pattern postpone.batch-write-fixed-bucket
postpone.batch-write-fixed-bucket.max-parallelism postpone.default-bucket-num query-auth.enabled read.batch-size
record-level.expire-time record-level.time-field scan.bounded.watermark scan.ignore-corrupt-files
scan.ignore-lost-files scan.manifest.parallelism scan.max-splits-per-task scan.plan-sort-partition
sink.process-time-zone sink.watermark-time-zone snapshot.clean-empty-directories snapshot.expire.execution-mode
snapshot.expire.limit snapshot.ignore-empty-commit snapshot.num-retained.max snapshot.num-retained.min
snapshot.time-retained snapshot.watermark-idle-timeout sort-compaction.local-sample.magnification
sort-compaction.range-strategy sort-engine sort-spill-buffer-size sort-spill-threshold source.split.open-file-cost
source.split.target-size spill-compression spill-compression.zstd-level stream-scan-mode
streaming-read-append-overwrite streaming-read-overwrite streaming.read.snapshot.delay tag.automatic-completion
tag.automatic-creation tag.batch.customized-name tag.callbacks tag.create-success-file tag.creation-delay
tag.creation-period tag.creation-period-duration tag.default-time-retained tag.num-retained-max
tag.period-formatter tag.time-expire-enabled target-file-size vector.target-file-size
visibility-callback.check-interval visibility-callback.enabled visibility-callback.timeout write-buffer-for-append
write-buffer-size write-buffer-spill.max-disk-size write-buffer-spillable write-max-writers-to-spill write-only
write.batch-memory write.batch-size zorder.var-length-contribution
""".split())
# Writer settings passed through to a format or an index (never change rows).
_IRRELEVANT_PREFIXES = ("file-index.", "orc.", "parquet.", "avro.", "lookup.", "snapshot.", "tag.", "consumer.",
                        "changelog.", "compaction.", "sink.", "commit.", "partition.expiration", "metadata.stats",
                        "manifest.", "write.", "global-index.", "clustering.", "materialized-table.")
# fields.<name>.<key>: merge settings per field, except the default value a read fills in
_FIELD_MERGE_KEYS = ("aggregate-function", "ignore-retract", "sequence-group", "nested-key", "distinct",
                     "list-agg-delimiter", "count-limit", "max-elements")
_UNSUPPORTED_TYPES = {"BLOB", "VARIANT", "VECTOR"}

# Options whose meaning a reader implements for the schemas the check accepts: the merge read's, the
# data-evolution read's and the BLOB read's, each listed by the module that owns the feature.
_DECLARED: dict[str, Callable[[TableSchema], bool]] = {**MERGE_OPTIONS, **DATA_EVOLUTION_OPTIONS, **BLOB_OPTIONS}


def _is_declared(option: str, schema: TableSchema) -> bool:
    check = _DECLARED.get(option)
    if check is None and option.startswith("fields.") and option.count(".") >= 2:
        check = _DECLARED.get("fields.*." + option.rsplit(".", 1)[-1])  # per-field keys: "fields.*.<key>"
    return bool(check and check(schema))


@dataclass
class ReadOptionsCheck:
    """Each option of a schema with its class and, for refusals, the reason."""

    supported: list[str] = field(default_factory=list)
    irrelevant: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)

    def raise_if_refused(self, path: str | None = None) -> None:
        if self.refused:
            text = "; ".join(f"{k}: {why}" for k, why in self.refused.items())
            raise UnsupportedTypeError(f"table option not supported by this reader: {text}", path=path,
                                       expected="a table without these options")


def _merges_at_read(schema: TableSchema) -> bool:
    return schema.is_primary_key_table and (not schema.deletion_vectors_enabled
                                            or schema.option_bool("deletion-vectors.merge-on-read"))


def _classify(key: str, value: str, schema: TableSchema) -> tuple[str, str | None]:
    if _is_declared(key, schema):
        return SUPPORTED, None
    if key == "type":
        return (SUPPORTED, None) if value.lower() in ("table", "materialized-table") else \
            (REFUSED, f"table type {value!r} is not a Paimon data table")
    if key in _SUPPORTED:
        return SUPPORTED, None
    if key == "scan.mode":
        return (SUPPORTED, None) if value.lower() in _SCAN_MODES_OF_LATEST else \
            (REFUSED, f"scan.mode {value!r} chooses another snapshot or change set")
    if key in _SNAPSHOT_CHOICE:
        return REFUSED, "chooses the snapshot or change set a read sees (pass it to the scan instead)"
    if key in _FALSE_IS_DEFAULT and value.strip().lower() == "false":
        return IRRELEVANT, None
    if key in _CHANGES_ROWS:
        return REFUSED, "changes the rows or columns a read returns"
    merge_field = key.startswith("fields.") and key.rsplit(".", 1)[-1] in _FIELD_MERGE_KEYS
    if key in _MERGE or merge_field:
        if not _merges_at_read(schema):
            return IRRELEVANT, None  # append table, or deletion vectors: files hold merged rows
        return REFUSED, "a primary-key merge option of a merge-on-read table"
    if key.startswith("fields.") and key.endswith(".default-value"):
        return REFUSED, "a default value filled into null fields at read time"
    if key in _IRRELEVANT or key.startswith(_IRRELEVANT_PREFIXES):
        return IRRELEVANT, None
    return IRRELEVANT, None  # not a Paimon option: Paimon's own read ignores it too


def _unsupported_types(dtype: DataType) -> set[str]:
    found = {dtype.root} & _UNSUPPORTED_TYPES
    for child in dtype.children or ():
        found |= _unsupported_types(child)
    return found


def classify_options(schema: TableSchema, options: dict[str, str] | None = None) -> ReadOptionsCheck:
    """Classify every option (``options`` default: the schema's own) and every column type."""
    out = ReadOptionsCheck()
    options = schema.options if options is None else options
    for key in sorted(options):
        cls, why = _classify(key, str(options[key]), schema)
        if cls == REFUSED:
            out.refused[key] = why or "changes what a read returns"
        else:
            (out.supported if cls == SUPPORTED else out.irrelevant).append(key)
    for f in schema.fields:
        bad = _unsupported_types(f.type)
        if bad and not _is_declared("type:" + "/".join(sorted(bad)), schema):
            out.refused[f"column {f.name}"] = f"{'/'.join(sorted(bad))} columns are not supported"
    return out


def check_read_options(schema: TableSchema, options: dict[str, str] | None = None, path: str | None = None) -> ReadOptionsCheck:
    """Classify, log, and raise :class:`UnsupportedTypeError` naming every refused option."""
    check = classify_options(schema, options)
    log.debug("read options: supported=%s refused=%s", check.supported, check.refused)
    check.raise_if_refused(path)
    return check
