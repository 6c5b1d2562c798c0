"""Word F1 of mainline and other extractors' Python packages on a WCXB-layout corpus.

    python python/benches/f1.py ../shared/data/wcxb-dev

The benchmark's score (the dataset's README): per page, lower-case both texts, take the
``\\w+`` tokens, compare them as bags (multiset overlap) for precision and recall, and
average F1 over the pages whose ground truth has a main content string (an empty
prediction for an empty gold text scores 1). Pages are given to every extractor as ``str``.

NOTE: mainline's built-in model was trained on WCXB's development split, so its score on
those pages is in-sample; the README's cross-validated figure is the fair one.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from throughput import extractors  # noqa: E402

WORD = re.compile(r"\w+")


def f1(predicted: str, gold: str) -> float:
    p = collections.Counter(WORD.findall(predicted.lower()))
    g = collections.Counter(WORD.findall(gold.lower()))
    if not p or not g:
        return 1.0 if not p and not g else 0.0
    overlap = sum((p & g).values())
    if overlap == 0:
        return 0.0
    precision, recall = overlap / sum(p.values()), overlap / sum(g.values())
    return 2 * precision * recall / (precision + recall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=pathlib.Path)
    args = parser.parse_args()

    import mainline

    pages, golds = [], []
    for gt in sorted((args.corpus / "ground-truth").glob("*.json")):
        gold = json.loads(gt.read_text())["ground_truth"].get("main_content")
        if not isinstance(gold, str):
            continue
        html = args.corpus / "html" / f"{gt.stem}.html.gz"
        pages.append(gzip.decompress(html.read_bytes()).decode("utf-8", "replace"))
        golds.append(gold)
    print(f"{len(pages)} scorable pages")
    ex = mainline.Extractor()
    runs = [("mainline (built-in model, in-sample)", lambda html: ex.extract(html))]
    runs += extractors()
    for name, fn in runs:
        scores = []
        for html, gold in zip(pages, golds):
            try:
                out = fn(html) or ""
            except Exception:  # an extractor's failure on a page scores as no text
                out = ""
            scores.append(f1(out, gold))
        print(f"{name:<58} mean word F1 {sum(scores) / len(scores):.4f}", flush=True)


if __name__ == "__main__":
    main()
