#!/usr/bin/env python3
"""Site mode's table from `mainline eval --by-site --per-page` CSV files (one per seed).

For each method without and with " [site]", the mean page word precision, recall and F1
over all pages and over the pages of sites with two or more pages, overall and per page
type, averaged over the files given; then the pages whose F1 site mode changed most.
Usage: training/site_table.py site-42.csv [site-43.csv ...]
"""

import csv
import sys
from collections import defaultdict


def read(path):
    rows = [r for r in csv.DictReader(open(path, newline="")) if "@" not in r["doc"]]
    sites = defaultdict(set)
    for r in rows:
        sites[r["group"]].add(r["doc"])
    return rows, {g for g, docs in sites.items() if len(docs) >= 2}


def mean(values):
    return sum(values) / len(values) if values else float("nan")


def main(paths):
    per_file = [read(p) for p in paths]
    methods = sorted({r["method"] for rows, _ in per_file for r in rows})
    base = [m for m in methods if not m.endswith(" [site]")]
    for m in base:
        site = m + " [site]"
        if site not in methods:
            continue
        print(f"{m}: alone -> site mode, mean of {len(paths)} seed(s)")
        rows0, multi = per_file[0]
        types = sorted({r["page_type"] for r in rows0})
        subsets = [("all pages", lambda r: True), ("multi-page sites", lambda r: r["group"] in multi)]
        subsets += [(f"  {t} (multi)", lambda r, t=t: r["group"] in multi and r["page_type"] == t) for t in types]
        print(f"{'pages':<24}{'n':>5}  {'P':>15}  {'R':>15}  {'F1':>15}")
        for name, keep in subsets:
            stats = {k: [[], []] for k in "PRF"}
            n = 0
            for rows, _ in per_file:
                for j, meth in enumerate([m, site]):
                    sel = [r for r in rows if r["method"] == meth and keep(r)]
                    n = len(sel)
                    stats["P"][j].append(mean([float(r["precision"]) for r in sel]))
                    stats["R"][j].append(mean([float(r["recall"]) for r in sel]))
                    stats["F"][j].append(mean([float(r["f1"]) for r in sel]))
            cells = [f"{mean(stats[k][0]):.4f}->{mean(stats[k][1]):.4f}" for k in "PRF"]
            print(f"{name:<24}{n:>5}  " + "  ".join(f"{c:>15}" for c in cells))
        changes = []
        for rows, _ in per_file[:1]:
            f1 = {(r["doc"], r["method"]): float(r["f1"]) for r in rows}
            for (doc, meth), v in f1.items():
                if meth == m and (doc, site) in f1 and f1[(doc, site)] != v:
                    changes.append((f1[(doc, site)] - v, doc, v, f1[(doc, site)]))
        changes.sort()
        print(f"pages changed (first file): {len(changes)}; worst and best:")
        for d, doc, a, b in changes[:5] + changes[-5:]:
            print(f"  {doc:<40} {a:.3f} -> {b:.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
