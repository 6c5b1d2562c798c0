#!/usr/bin/env python3
"""Helper of training/finetune.sh: splits the labelled CSV and the corpus by site, and
summarises the per-page scores. Standard library only."""
import csv
import collections
import gzip
import json
import os
import sys

MIN_PAGES = 4  # 3 to label, at least 1 to score


def split(corpus, data, out):
    files = json.load(open(os.path.join(corpus, "metadata.json")))["files"]
    gold = {}
    for fid in files:
        path = os.path.join(corpus, "ground-truth", fid + ".json")
        if os.path.exists(path):
            text = json.load(open(path))["ground_truth"].get("main_content")
            if text and text.strip():
                gold[fid] = text
    by_site = collections.defaultdict(list)
    for fid in sorted(files):
        if fid in gold:
            by_site[files[fid]["domain"]].append(fid)
    sites = sorted(s for s, ids in by_site.items() if len(ids) >= MIN_PAGES)
    held = set(sites)
    with open(os.path.join(out, "sites.txt"), "w") as f:
        f.write("\n".join(sites) + "\n")
    csv.field_size_limit(1 << 30)
    writers = {}
    with open(data, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        base = csv.writer(open(os.path.join(out, "base.csv"), "w", newline=""))
        base.writerow(header)
        for site in sites:
            os.makedirs(os.path.join(out, site, "test"), exist_ok=True)
            for k in (1, 2, 3):
                w = csv.writer(open(os.path.join(out, site, f"train-{k}.csv"), "w", newline=""))
                w.writerow(header)
                writers[(site, k)] = w
        for row in reader:
            doc, group = row[0], row[1]
            if group not in held:
                base.writerow(row)
                continue
            rank = by_site[group].index(doc) if doc in by_site[group] else 99
            for k in (1, 2, 3):
                if rank < k:
                    writers[(group, k)].writerow(row)
    for site in sites:
        for fid in by_site[site][3:]:
            test = os.path.join(out, site, "test")
            with gzip.open(os.path.join(corpus, "html", fid + ".html.gz")) as src:
                open(os.path.join(test, fid + ".html"), "wb").write(src.read())
            open(os.path.join(test, fid + ".txt"), "w").write(gold[fid])
    print(f"{len(sites)} sites held out: {', '.join(sites)}", file=sys.stderr)


def summarise(pages, site, k):
    scores = collections.defaultdict(list)
    with open(pages, newline="") as f:
        for row in csv.DictReader(f):
            scores[row["method"]].append(float(row["f1"]))
    base = next(m for m in scores if m.endswith("base.json"))
    tuned = next(m for m in scores if m.endswith(f"tuned-{k}.json"))
    n = len(scores[base])
    print(f"{site},{k},{n},{sum(scores[base]) / n:.4f},{sum(scores[tuned]) / n:.4f}")


def table(results):
    rows = list(csv.DictReader(open(results)))
    print("| site | test pages | base | 1 page | 2 pages | 3 pages |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    sites = sorted({r["site"] for r in rows})
    means = collections.defaultdict(list)
    for site in sites:
        r = {int(x["pages_labelled"]): x for x in rows if x["site"] == site}
        base = float(r[1]["base_f1"])
        means[0].append(base)
        cells = []
        for k in (1, 2, 3):
            t = float(r[k]["tuned_f1"])
            means[k].append(t)
            cells.append(f"{t:.3f} ({t - base:+.3f})")
        print(f"| {site} | {r[1]['test_pages']} | {base:.3f} | " + " | ".join(cells) + " |")
    mean = {k: sum(v) / len(v) for k, v in means.items()}
    print(
        f"| mean of {len(sites)} sites | | {mean[0]:.3f} | "
        + " | ".join(f"{mean[k]:.3f} ({mean[k] - mean[0]:+.3f})" for k in (1, 2, 3))
        + " |"
    )


if __name__ == "__main__":
    if sys.argv[1] == "--summarise":
        summarise(*sys.argv[2:5])
    elif sys.argv[1] == "--table":
        table(sys.argv[2])
    else:
        split(*sys.argv[1:4])
