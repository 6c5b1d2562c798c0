#!/usr/bin/env python3
"""Where the held-out decisions keep words that are not the gold text, by bytes of text:
on each page type, lines under a `comment` class or id (the `hint_comment` feature) by
label and decision; on article pages, the boilerplate kept before the page's first gold
line, between its first and last, and after its last, with the hints those lines carry.
The pages as written only (not the variants).

Usage: python3 training/kept-extra.py [--corpus WCXB-DEV] [LABELS.csv [LINES.csv]]
LABELS.csv: the labelled CSV (default target/training/wcxb-dev.csv, from training/common.sh);
LINES.csv: held-out decisions (default target/training/cv-default-lines.csv, from
training/errors.sh). Page types come from the corpus's ground-truth files.
"""

import argparse
import collections
import csv
import json
from pathlib import Path

HINTS = ["hint_comment", "hint_side", "hint_nav", "hint_footer", "hint_social", "hint_meta",
         "in_aside", "in_footer", "in_nav", "in_article", "tag_heading", "tag_li"]


def page_types(corpus: Path) -> dict[str, str]:
    types = {}
    for f in (corpus / "ground-truth").glob("*.json"):
        d = json.loads(f.read_text("utf-8"))
        types[f.name.split(".")[0]] = d.get("_internal", {}).get("page_type", {}).get("primary")
    return types


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("labels", nargs="?", default="target/training/wcxb-dev.csv")
    ap.add_argument("lines", nargs="?", default="target/training/cv-default-lines.csv")
    ap.add_argument("--corpus", type=Path, default=Path("../shared/data/wcxb-dev"))
    args = ap.parse_args()
    csv.field_size_limit(1 << 30)
    types = page_types(args.corpus)

    hints = {}
    with open(args.labels, newline="") as fh:
        rows = csv.reader(fh)
        ix = {n: i for i, n in enumerate(next(rows))}
        for row in rows:
            if row[ix["variant"]] != "original":
                continue
            on = [h for h in HINTS if float(row[ix[h]]) > 0.5]
            if float(row[ix["link_density"]]) > 0.5:
                on.append("links")
            hints[(row[ix["doc"]], int(row[ix["line"]]))] = on

    comments = collections.defaultdict(collections.Counter)
    pages = collections.defaultdict(list)
    with open(args.lines, newline="") as fh:
        rows = csv.reader(fh)
        next(rows)
        for row in rows:
            doc, line, label, keep, text_bytes = row[1], int(row[4]), row[5], row[6], int(row[10])
            text = ",".join(row[11:])
            on = hints.get((doc, line))
            if on is None:
                continue
            content, kept = label == "1", keep == "1"
            kind = types.get(doc) or "?"
            if "hint_comment" in on:
                what = ("content" if content else "boilerplate") + (" kept" if kept else " dropped")
                comments[kind][what] += text_bytes
            if kind == "article":
                pages[doc].append((line, content, kept, text_bytes, on, text))

    print("lines under a comment class or id, kB of text:")
    for kind in sorted(comments):
        c = comments[kind]
        print(f"  {kind:14} " + ", ".join(f"{k} {c[k] / 1e3:.1f}" for k in sorted(c)))

    where = collections.Counter()
    why = collections.Counter()
    after = []
    for doc, lines in pages.items():
        gold = [l for l, content, *_ in lines if content]
        if not gold:
            continue
        first, last = min(gold), max(gold)
        extra = []
        for line, content, kept, text_bytes, on, text in lines:
            if kept and not content:
                at = "before" if line < first else "after" if line > last else "inside"
                where[at] += text_bytes
                why[(at, "+".join(on) or "none")] += text_bytes
                if at == "after":
                    extra.append((text_bytes, text))
        if extra:
            gold_bytes = sum(b for _, content, _, b, *_ in lines if content)
            after.append((sum(b for b, _ in extra), doc, gold_bytes, extra[0][1]))
    print("article pages, boilerplate kept, kB of text: " +
          ", ".join(f"{k} {where[k] / 1e3:.0f}" for k in ("before", "inside", "after")))
    for (at, on), n in why.most_common(12):
        print(f"  {at:7} {on:44} {n / 1e3:7.1f}")
    print("article pages keeping the most after their last gold line (bytes; gold bytes):")
    for n, doc, gold_bytes, text in sorted(after, reverse=True)[:15]:
        print(f"  {doc} {n:6} ({gold_bytes:6}) {text[:90]}")


if __name__ == "__main__":
    main()
