"""Schema evolution: how a data file written under an older schema maps onto the schema a scan reads.

* :mod:`.file_evolution` - field ids matched to the read schema, per (file schema, read schema) pair;
* :mod:`.casts` / :mod:`.casts_temporal` - Paimon's casts of a column whose type changed;
* :mod:`.orc_char` - CHAR values ORC pads, noted on the Arrow field and trimmed.

Both sides use it: planning maps a predicate onto a file's own columns, reading converts the file's columns.
"""
