#!/usr/bin/env python3
"""List the pages where `mainline eval --metadata` disagrees with the gold, from its
--per-page CSV, with where the gold day appears in the page's HTML (for dates).

    target/release/mainline eval --corpus ../shared/data/wcxb-dev --metadata --per-page meta.csv
    python3 training/metadata_misses.py meta.csv ../shared/data/wcxb-dev [FIELD]
"""
import csv
import gzip
import os
import re
import sys

MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]


def html_of(corpus, doc):
    for path in (f"{corpus}/html/{doc}.html.gz", f"{corpus}/{doc}/source.html"):
        if os.path.exists(path):
            opener = gzip.open if path.endswith(".gz") else open
            with opener(path, "rb") as f:
                return f.read().decode("utf-8", "replace")
    return ""


def day_forms(gold):
    y, m, d = gold[:4], gold[5:7], gold[8:10]
    mi, di = int(m), int(d)
    name = MONTHS[mi - 1]
    return {
        "iso": f"{y}-{m}-{d}",
        "slash-path": f"{y}/{m}/{d}",
        "month-name": rf"(?i)({name}|{name[:3]})\.?\s+{di}(st|nd|rd|th)?,?\s+{y}|{di}(st|nd|rd|th)?\.?\s+(of\s+)?({name}|{name[:3]})\.?,?\s+{y}",
        "numeric": rf"\b0?{mi}/0?{di}/{y}\b|\b0?{di}[./]0?{mi}[./]{y}\b",
    }


def main():
    per_page, corpus = sys.argv[1], sys.argv[2]
    field = sys.argv[3] if len(sys.argv) > 3 else "published"
    rows = [r for r in csv.DictReader(open(per_page, encoding="utf-8"))
            if r["field"] == field and r["agree"] == "0"]
    print(f"{len(rows)} misses of {field}")
    for r in rows:
        line = f"{r['doc']}\tgold={r['gold']!r}\tgot={r['got']!r}"
        if field == "published" and re.match(r"\d{4}-\d\d-\d\d", r["gold"]):
            html = html_of(corpus, r["doc"])
            found = [k for k, pat in day_forms(r["gold"]).items()
                     if (re.search(pat, html) if k in ("month-name", "numeric") else pat in html)]
            line += "\tin-page=" + (",".join(found) or "-")
        print(line)


if __name__ == "__main__":
    main()
