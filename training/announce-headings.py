#!/usr/bin/env python3
"""What the built-in recipe keeps after a heading that announces other content.

Reads the held-out decisions of `mainline eval --per-line FILE` (training/errors.sh
writes them to target/training/cv-default-lines.csv) and, for each page as written (not
its variants), finds the first heading ("Related posts", "Comments", "More from ...",
"Most read", ...) that comes after a share of the page's kept text; then sums the kept
text after it, content and boilerplate, in bytes, by page type.

Usage: training/announce-headings.py LINES.CSV [--corpus WCXB-DEV] [--short]
  --short  counts lines under 40 characters as headings too
"""
import argparse
import collections
import csv
import json
import re

MARK = re.compile(
    r"^(related|more (from|stories|on|in|like this|news|articles)|most (read|popular|viewed|shared)"
    r"|popular|trending|recommended|you (may|might) (also )?like|read (next|more|also)|also read"
    r"|see also|further reading|latest (news|stories|posts)|top stories|comments?|\d+ comments?"
    r"|leave a (reply|comment)|about the author|editor'?s picks|what to read next|recent posts"
    r"|you may have missed|related (posts|articles|stories|content|news)|more stories)\b",
    re.I,
)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lines")
    ap.add_argument("--corpus", default="../shared/data/wcxb-dev")
    ap.add_argument("--short", action="store_true")
    args = ap.parse_args()
    csv.field_size_limit(1 << 30)
    files = json.load(open(f"{args.corpus}/metadata.json"))["files"]
    types = {k: v["page_type"] for k, v in files.items()}
    pages = collections.defaultdict(list)
    for r in csv.DictReader(open(args.lines)):
        if "@" not in r["doc"]:
            pages[r["doc"]].append(r)
    for share in (0.5, 0.7, 0.85):
        stat = collections.defaultdict(collections.Counter)
        for doc, rows in pages.items():
            t = types.get(doc, "?")
            total = sum(int(r["text_bytes"]) for r in rows if r["keep"] == "1")
            seen, after = 0, False
            for r in rows:
                text = r["text"].strip()
                heading = int(r["heading_level"]) > 0 or (args.short and len(text) < 40)
                if not after and total > 0 and seen >= share * total and heading and MARK.match(text):
                    after = True
                    stat[t]["pages"] += 1
                if after and r["keep"] == "1":
                    stat[t]["content" if r["label"] == "1" else "boilerplate"] += int(r["text_bytes"])
                if r["keep"] == "1":
                    seen += int(r["text_bytes"])
        for t, s in sorted(stat.items()):
            print(f"{share:.2f} {t:14} pages {s['pages']:4} kept after: boilerplate {s['boilerplate']:8} content {s['content']:8}")


if __name__ == "__main__":
    main()
