"""A streaming query in its own driver process, for the kill -9 / restart tests of the streaming source and sink.

    python stream_driver.py SRC DST CHECKPOINT (run | drain) [MASTER]

``run``: ``readStream`` of SRC into ``writeStream`` of DST every 0.5 s until killed; ``drain``: the same query
with ``trigger(availableNow=True)``: everything up to the table's latest snapshot, then exit 0.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main(argv: list[str]) -> int:
    src, dst, checkpoint, mode = argv[1:5]
    import stream_source

    from paimon_codec.spark.session import get_spark

    spark = get_spark(argv[5] if len(argv) > 5 else "local[2]", shuffle_partitions=2)
    stream_source.register(spark)
    writer = (spark.readStream.format("paimon_codec").load(src)
              .writeStream.format("paimon_codec").option("checkpointLocation", checkpoint))
    if mode == "drain":
        writer.trigger(availableNow=True).start(dst).awaitTermination()
        return 0
    query = writer.trigger(processingTime="500 milliseconds").start(dst)
    print("started", flush=True)
    query.awaitTermination()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
