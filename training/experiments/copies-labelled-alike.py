#!/usr/bin/env python3
"""Writes a copy of a labelled CSV in which every copy of a labelled text is labelled 1.

The labeller gives a gold text to one of the lines that carry it and labels the others 0.
With `second_stage::corrections::drop_repeated_text` keeping one copy at inference, this
tries training on consistent labels instead: on each page (and page variant), when a line
of at least five words outside `<pre>` and table cells is labelled 1, every line of the
same text (the third value of the `sig` column) that is also such a line is labelled 1.
Measured, not kept (training/HISTORY.md, "Text kept twice").

Usage: training/experiments/copies-labelled-alike.py IN.csv OUT.csv
"""

import collections
import csv
import math
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    csv.field_size_limit(1 << 30)
    with open(sys.argv[1], newline="") as f:
        reader = csv.reader(f)
        head = next(reader)
        rows = list(reader)
    col = {name: i for i, name in enumerate(head)}
    min_words = math.log1p(5)
    copies = collections.defaultdict(list)
    for k, r in enumerate(rows):
        place = r[col["tag_pre"]] == r[col["tag_cell"]] == r[col["in_cell"]] == "0"
        if place and float(r[col["ln_words"]]) >= min_words:
            text = r[col["sig"]].split()[2]
            copies[(r[col["doc"]], r[col["variant"]], text)].append(k)
    changed = 0
    for ks in copies.values():
        if len(ks) > 1 and any(rows[k][col["label"]] == "1" for k in ks):
            for k in ks:
                if rows[k][col["label"]] == "0":
                    rows[k][col["label"]] = "1"
                    changed += 1
    with open(sys.argv[2], "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(head)
        writer.writerows(rows)
    print(f"{changed} rows labelled 1", file=sys.stderr)


if __name__ == "__main__":
    main()
