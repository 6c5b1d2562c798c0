#!/usr/bin/env python3
"""Replays rules that drop a kept line whose text the page already kept, on held-out
decisions: how page word F1 would move, overall and by page type.

Reads the `--per-line` and `--per-page` files of a cross-validation (`mainline eval
--lines CSV --corpus DIR --per-line LINES.csv --per-page PAGES.csv`, as training/errors.sh
writes them) made by a build *without* the rule (before `second_stage::corrections::
drop_repeated_text`, e.g. a checkout of 7a33852: `SEED=42 training/errors.sh` there), the
labelled CSV of the same lines (for each line's signature and
where it stands) and the corpus's gold texts. Each rule walks a page's kept lines in order
and drops a line of at least W words, outside `<pre>` and table cells, whose exact text
(whitespace collapsed) was kept before on the page at least D lines back; with
`structure`, only when the earlier copy lies in another structure (the second value of the
lines' signatures differs), and with `same structure F back` also a copy in the same
structure at least F lines back; `sentences` also drops a line all of whose sentences of W
words or more were kept before on the page under the same conditions. Scores are the benchmark's: lower-cased \\w+ tokens compared as
bags against the gold text, as `mainline eval` scores pages.

Usage: training/repeated-text.py LINES.csv PAGES.csv LABELLED.csv CORPUS
"""

import collections
import csv
import json
import re
import sys

WORD = re.compile(r"\w+")
SENTENCE = re.compile(r"(?<=[.!?])\s+")
TYPES = ["article", "collection", "documentation", "forum", "listing", "product", "service"]


def tokens(text):
    return WORD.findall(text.lower())


def word_f1(predicted, gold):
    p, g = tokens(predicted), tokens(gold)
    if not p and not g:
        return 1.0
    if not p or not g:
        return 0.0
    left = collections.Counter(g)
    overlap = 0
    for t in p:
        if left[t] > 0:
            left[t] -= 1
            overlap += 1
    if overlap == 0:
        return 0.0
    precision, recall = overlap / len(p), overlap / len(g)
    return 2 * precision * recall / (precision + recall)


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip().splitlines()[-1])
    lines_csv, pages_csv, labelled_csv, corpus = sys.argv[1:]
    csv.field_size_limit(1 << 30)
    with open(pages_csv, newline="") as f:
        pages_rows = [r for r in csv.DictReader(f) if "@" not in r["doc"]]
    # Pages of the model's method only (the file also holds the fixed threshold's).
    methods = sorted({r["method"] for r in pages_rows})
    models = [m for m in methods if not m.startswith("threshold")]
    method = (models or methods or [""])[0]
    pages_rows = [r for r in pages_rows if r["method"] == method]
    types = {r["doc"]: r["page_type"] for r in pages_rows}
    # Each line of the pages as written: (not a candidate by place, structure).
    where = {}
    with open(labelled_csv, newline="") as f:
        for r in csv.DictReader(f):
            if r["variant"] != "original":
                continue
            sig = r["sig"].split()
            cell = r["tag_cell"] != "0" or r["in_cell"] != "0"
            where[(r["doc"], int(r["line"]))] = (r["tag_pre"] != "0" or cell, int(sig[1]))
    pages = collections.defaultdict(list)
    with open(lines_csv, newline="") as f:
        reader = csv.reader(f)
        next(reader)
        for row in reader:
            if row[0] != method or "@" in row[1] or row[6] != "1":
                continue
            # text is the last column; it may hold commas.
            pages[row[1]].append((int(row[4]), ",".join(row[11:])))
    gold = {}
    for doc in types:
        with open(f"{corpus}/ground-truth/{doc}.json") as f:
            gold[doc] = json.load(f)["ground_truth"].get("main_content") or ""

    def replay(min_words, min_distance, structure, same_far=None, sentences=False):
        scores = collections.defaultdict(list)
        dropped = 0
        for doc, page_type in types.items():
            seen, seen_sentences, out = {}, {}, []
            for line, text in sorted(pages.get(doc, [])):
                skip, chain = where.get((doc, line), (True, 0))
                key = " ".join(text.split())
                if min_words and not skip and len(text.split()) >= min_words:
                    if key in seen:
                        at, before = seen[key]
                        far = same_far is not None and line - at >= same_far
                        other = not structure or before != chain or far
                        if line - at >= min_distance and other:
                            dropped += 1
                            continue
                    seen[key] = (line, chain)
                    if sentences:
                        parts = [" ".join(tokens(p)) for p in SENTENCE.split(text)]
                        parts = [p for p in parts if len(p.split()) >= min_words]

                        def before(p):
                            at, other = seen_sentences.get(p, (None, None))
                            return at is not None and line - at >= min_distance and other != chain

                        if parts and all(before(p) for p in parts):
                            dropped += 1
                            continue
                        for p in parts:
                            seen_sentences[p] = (line, chain)
                out.append(text)
            f1 = word_f1("\n".join(out), gold[doc])
            scores[page_type].append(f1)
            scores["all"].append(f1)
        return scores, dropped

    print(f"{'rule':<28}" + "".join(f"{t[:13]:>14}" for t in ["all"] + TYPES) + "  dropped")
    rules = [("none", 0, 0, False)]
    rules += [(f"text, {w} words, {d} back", w, d, False) for w, d in [(5, 1), (5, 3)]]
    rules += [
        (f"structure, {w} words, {d} back", w, d, True)
        for w, d in [(3, 3), (5, 1), (5, 3), (5, 6), (8, 3), (12, 3)]
    ]
    rules += [
        (f"+ same structure {f} back", 5, 3, True, f) for f in (10, 20, 50, 100, 200)
    ]
    rules += [("+ sentences", 5, 3, True, None, True)]
    for name, w, d, structure, *more in rules:
        scores, dropped = replay(w, d, structure, *more)
        row = "".join(
            f"{sum(scores[t]) / len(scores[t]):>14.4f}" if scores[t] else f"{'-':>14}"
            for t in ["all"] + TYPES
        )
        print(f"{name:<28}{row}  {dropped}")


if __name__ == "__main__":
    main()
