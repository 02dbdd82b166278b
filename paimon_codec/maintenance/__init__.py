"""Jobs that keep a Paimon table's files in order: rewriting file indexes into a new snapshot
(:mod:`.index_rewrite_job`, :mod:`.file_index_rewrite`), the audit inventory of every file a table holds
(:mod:`.inventory`, :mod:`.index_checks`) and finding and removing orphan files (:mod:`.orphans`,
:mod:`.orphan_clean`).  They read with :mod:`paimon_codec.reading` and commit with :mod:`paimon_codec.writing`.
"""
