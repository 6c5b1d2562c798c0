"""The main content of a column of HTML pages, with Ray Data.

    python examples/ray_extract.py pages.jsonl out/            # JSONL in, Parquet out

The input has a column of HTML (``html`` by default; str or bytes). ``map_batches`` runs
``Extract`` in a pool of actors, each of which loads one ``mainline.Extractor`` and
extracts each batch with ``extract_many`` (GIL released) into a ``text`` column
(``""`` for no main content or a page that is not HTML).
"""

from __future__ import annotations

import argparse


class Extract:
    """A Ray Data batch transform: one Extractor per actor."""

    def __init__(self, column: str = "html", threads: int = 1):
        import mainline

        self.ex = mainline.Extractor()
        self.column = column
        self.threads = threads

    def __call__(self, batch: dict) -> dict:
        import numpy as np

        pages = [p if isinstance(p, (str, bytes)) else "" for p in batch[self.column]]
        texts = self.ex.extract_many(pages, threads=self.threads, errors="ignore")
        batch["text"] = np.array(texts, dtype=object)
        return batch


def extract_dataset(ds, column: str = "html", actors: int = 2):
    """``ds`` with a ``text`` column added."""
    return ds.map_batches(
        Extract, fn_constructor_kwargs={"column": column}, batch_size=256, concurrency=actors
    )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="JSONL or Parquet with a column of HTML")
    parser.add_argument("output", help="output directory (Parquet)")
    parser.add_argument("--column", default="html", help="the column of HTML (default: html)")
    parser.add_argument("--actors", type=int, default=2, help="extracting actors (default: 2)")
    args = parser.parse_args(argv)

    import ray

    read = ray.data.read_parquet if args.input.rstrip("/").endswith(".parquet") else ray.data.read_json
    extract_dataset(read(args.input), args.column, args.actors).write_parquet(args.output)


if __name__ == "__main__":
    main()
