"""Coverage-guided fuzzing of one entry point with atheris (libFuzzer); ``tools/fuzz.py --engine atheris``.

    python tests/fuzz/atheris_main.py bitmap -runs=100000 -timeout=2 -rss_limit_mb=2048

The first byte of an input picks the seed whose metadata (column type, literals, predicates) the rest is
read with; the corpus starts as the harness's seeds.  A PaimonCodecError is the documented outcome; any
other exception, a timeout (``-timeout``) or an allocation over ``-rss_limit_mb`` / ``-malloc_limit_mb`` is
a libFuzzer crash report and an artifact under ``-artifact_prefix``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parents[2])]

import atheris  # noqa: E402

from fuzz.targets import TARGETS  # noqa: E402
from paimon_codec.errors import PaimonCodecError  # noqa: E402


def main() -> None:
    name, flags = sys.argv[1], sys.argv[2:]
    target = TARGETS[name]
    seeds = target.corpus()
    for s in seeds:  # load every module the entry point uses, then instrument what is loaded
        try:
            target.run(s.data, s.meta)
        except PaimonCodecError:
            pass
    atheris.instrument_all()
    corpus = Path(tempfile.mkdtemp(prefix=f"atheris-{name}-"))
    for i, s in enumerate(seeds[:255]):
        (corpus / f"seed-{i}").write_bytes(bytes([i]) + s.data)

    def one(data: bytes) -> None:
        if not data:
            return
        seed = seeds[data[0] % len(seeds)]
        try:
            target.run(data[1:], seed.meta)
        except PaimonCodecError:
            pass

    atheris.Setup([sys.argv[0], *flags, str(corpus)], one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
