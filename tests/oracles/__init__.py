"""Reference implementations ("oracles") that tests compare paimon-codec against.

* :mod:`oracles.java_newest` - the newest Apache Paimon Java release (and Paimon 0.9), driven through
  JPype in a persistent worker subprocess (:mod:`oracles.java_worker`); jars from :mod:`oracles.java_jars`.
* :mod:`oracles.compare` - row-set comparison of two Arrow tables.
"""
