#!/usr/bin/env python3
"""Screenshots of ``paimon-codec explore`` for docs/explorer/ (headless Chromium, Debian's package).

    python tools/explorer_screenshots.py [--golden DIR] [--out docs/explorer]

Opens three golden files (a bitmap index with a field selected, a deletion-vector index file, a file-index
container) and a small table with a query's plan, and saves one PNG each.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from paimon_codec.explore import serve  # noqa: E402

SHOTS = [
    ("bitmap.png", {"file": "paimon-latest/bitmap/bitmap_v2_string.bin", "format": "bitmap", "type": "STRING",
                    "field": "/v2Head/blockHeads/0/key"}),
    ("deletion-vectors.png", {"file": "paimon-latest/dv/dvfile32_three_entries.dv", "byte": "30"}),
    ("file-index.png", {"file": "paimon-latest/container/container_multi_column.index", "field": "/headLength"}),
]


def shoot(url: str, out: Path, size: str = "1500,900") -> None:
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        raise SystemExit("chromium not found")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([binary, "--headless=new", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                        f"--window-size={size}", "--virtual-time-budget=15000", "--hide-scrollbars",
                        f"--screenshot={out}", url], check=True, capture_output=True, timeout=120)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--golden", default=os.environ.get("PAIMON_GOLDEN", str(ROOT.parent / "shared" / "golden")))
    ap.add_argument("--out", default=str(ROOT / "docs" / "explorer"))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    server = serve(args.golden)
    try:
        for name, params in SHOTS:
            shoot(server.url + "#" + urlencode(params), out / name)
            print(out / name)
    finally:
        server.shutdown()
    with tempfile.TemporaryDirectory() as tmp:
        import pyarrow as pa

        from paimon_codec.writing import append_arrow, create_table

        table = Path(tmp) / "db.db" / "orders"
        create_table(table, "id INT, status STRING, amount DOUBLE",
                     {"file-index.bitmap.columns": "status", "bucket": "-1", "file-index.in-manifest-threshold": "1"})
        for i, status in enumerate(["PAID", "OPEN", "PAID", "REFUNDED"]):
            append_arrow(table, pa.table({"id": list(range(i * 1000, i * 1000 + 1000)),
                                          "status": [status if j % 7 else "OPEN" for j in range(1000)],
                                          "amount": [float(j) for j in range(1000)]}))
        server = serve(tmp)
        try:
            shoot(server.url + "#" + urlencode({"table": "db.db/orders", "where": "status = 'REFUNDED'"}),
                  out / "table-plan.png", size="1500,1250")
            print(out / "table-plan.png")
        finally:
            server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
