"""Site mode with Spark: the main content of a crawl's pages, each site's template learnt
from its own pages and dropped.

    spark-submit examples/spark_site.py pages.jsonl out/        # JSONL in (url, html), Parquet out

The input has a ``url`` column (the page's address; its host is the page's site) and an
``html`` column. Rows are grouped by site (``groupByKey`` on ``mainline.site_host(url)``);
each group learns a ``mainline.SiteProfile`` from its pages and extracts them with it, so a
site's pages must fit in one task's memory (a profile takes at most 72 KiB; the pages of a
group are held while it is extracted). Rows without a host are extracted alone in
``mapPartitions``. The output is the rows' ``url`` with ``text``.
"""

from __future__ import annotations

import argparse
from typing import Iterable, Iterator, Tuple


def host_of(row) -> str:
    import mainline

    return mainline.site_host(row["url"] or "") or ""


def extract_site(group: Tuple[str, Iterable]) -> Iterator[Tuple[str, str]]:
    """One site's rows in, (url, text) out: its template learnt from them first."""
    import mainline

    host, rows = group
    rows = list(rows)
    if not host:
        # No site to learn: each page alone.
        for row in rows:
            yield (row["url"], mainline.extract(row["html"] or ""))
        return
    profile = mainline.SiteProfile((row["url"], row["html"] or "") for row in rows)
    for row in rows:
        yield (row["url"], profile.extract(row["html"] or "", url=row["url"]))


def extract_frame(df):
    """``df``'s pages as (url, text) rows, each site extracted with its template."""
    from pyspark.sql.types import StringType, StructField, StructType

    schema = StructType(
        [StructField("url", StringType(), True), StructField("text", StringType(), False)]
    )
    by_site = df.select("url", "html").rdd.keyBy(host_of).groupByKey()
    # mapPartitions: the groups of a partition one after the other, on one core.
    texts = by_site.mapPartitions(lambda groups: (t for g in groups for t in extract_site(g)))
    return df.sparkSession.createDataFrame(texts, schema)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("output")
    args = parser.parse_args()
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.appName("mainline-site").getOrCreate()
    df = spark.read.json(args.input)
    extract_frame(df).write.mode("overwrite").parquet(args.output)
    spark.stop()


if __name__ == "__main__":
    main()
