"""``paimon-codec explore``: a local page that shows what a Paimon file's bytes are and what they mean.

Open any file of the formats (file-index container and each index type, deletion-vector files and entries, the
hash index, the delete map, Roaring bitmaps, Puffin, global indexes): its parse tree, made in the browser by the
JavaScript parser ``tools/generate.py`` generates from the same ``schemas/*.ksy`` as the Python codecs, linked
both ways to a hex view, with each field's schema ``doc``; beside it the file's meaning as the library's readers
see it. Open a table: its snapshots, data files with their index files and deletion vectors, and a query's plan.

Everything is served from the loopback interface and the package itself (no CDN, no network)::

    from paimon_codec.explore import serve
    server = serve("/warehouse/db.db/orders")   # started in a background thread
    print(server.url)
    server.shutdown()
"""

from __future__ import annotations

from .server import ExplorerServer, serve

__all__ = ["ExplorerServer", "serve"]
