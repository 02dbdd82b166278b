"""Kaitai Struct parsers generated from schemas/*.ksy by tools/generate.py (kaitai-struct-compiler 0.11.0).

Do not edit; regenerate with `python tools/generate.py`."""
