"""Code generated from ``schemas/*.ksy`` by ``tools/generate.py`` - do not edit; installed as
``paimon_codec.generated`` (``construct``: parse + build codecs; ``kaitai``: Kaitai Struct parsers)."""
