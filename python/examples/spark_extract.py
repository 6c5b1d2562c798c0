"""The main content of a column of HTML pages, with Spark.

    spark-submit examples/spark_extract.py pages.jsonl out/            # JSONL in, Parquet out
    spark-submit examples/spark_extract.py pages.parquet out/ --column body

The input (JSONL, or Parquet for names ending in .parquet or directories of them) has a
column of HTML (``html`` by default; str, or binary for raw bytes, whose gzip and encoding
mainline detects). The output is the same rows with two columns added: ``text``, the main
content (``""`` when there is none), and ``error``, mainline's message for a page that
cannot be read (else null). Each partition makes one ``mainline.Extractor`` and extracts
its rows in batches on one thread: Spark already runs one task per core.
"""

from __future__ import annotations

import argparse
from typing import Iterable, Iterator

BATCH = 256


def extract_partition(rows: Iterable, column: str = "html") -> Iterator[tuple]:
    """Rows in, (*row, text, error) out; one Extractor for the whole partition."""
    import mainline

    ex = mainline.Extractor()

    def flush(batch):
        pages = [r[column] if r[column] is not None else "" for r in batch]
        pages = [bytes(p) if isinstance(p, (bytearray, memoryview)) else p for p in pages]
        # A page that cannot be read gives None; only those are extracted again, alone,
        # for their error message.
        texts = ex.extract_many(pages, threads=1)
        errors = [None] * len(batch)
        for i, text in enumerate(texts):
            if text is None:
                try:
                    texts[i] = ex.extract(pages[i])
                except mainline.MainlineError as e:
                    texts[i], errors[i] = "", str(e)
        for row, text, error in zip(batch, texts, errors):
            yield (*row, text, error)

    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == BATCH:
            yield from flush(batch)
            batch = []
    if batch:
        yield from flush(batch)


def extract_frame(df, column: str = "html"):
    """``df`` with ``text`` and ``error`` columns added, by ``mapPartitions``."""
    from pyspark.sql.types import StringType, StructField, StructType

    schema = StructType(
        df.schema.fields
        + [StructField("text", StringType(), False), StructField("error", StringType(), True)]
    )
    rdd = df.rdd.mapPartitions(lambda rows: extract_partition(rows, column))
    return df.sparkSession.createDataFrame(rdd, schema)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="JSONL or Parquet with a column of HTML")
    parser.add_argument("output", help="output directory (Parquet)")
    parser.add_argument("--column", default="html", help="the column of HTML (default: html)")
    args = parser.parse_args(argv)

    from pyspark.sql import SparkSession

    spark = SparkSession.builder.appName("mainline").getOrCreate()
    reader = spark.read.parquet if args.input.rstrip("/").endswith(".parquet") else spark.read.json
    extract_frame(reader(args.input), args.column).write.mode("overwrite").parquet(args.output)
    spark.stop()


if __name__ == "__main__":
    main()
