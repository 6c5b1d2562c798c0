#!/usr/bin/env python3
"""Replays a floor for pages that say they are articles on decisions made without it.

Usage:
  training/article-floor-replay.py cv LINES.csv LABELLED.csv
  training/article-floor-replay.py pages DIR MODEL.json... [--mainline MAINLINE]

The floor: on a page whose head names it an article (`og:type` or a JSON-LD `@type`, the
`article` page hint), when the kept lines hold less than a share of the page's prose (the
prose of src/stack/floor.rs: lines of at least 40 bytes, mostly not links, outside nav,
footer and aside), the prose lines scored at least a fraction of the best prose line are
kept: of the whole page (scope `page`), or of the lines inside `<article>`/`<main>` when a
kept prose line lies there (scope `article`).

`cv`: LINES.csv is the per-line output of `mainline eval --data LABELLED.csv --corpus
WCXB-DEV --folds 5 --seed S --cv threshold --recipe training/default.toml --per-line
LINES.csv` (its PAGES.csv beside it gives the page types); the pages as written are
replayed, and the mean word F1 is printed by page type.

`pages`: DIR is a corpus that `mainline label --corpus DIR` reads (Readability's test pages,
data/samples); each MODEL's decisions come from `MAINLINE filter --model MODEL --format
jsonl` (MAINLINE: target/release/mainline by default), the labels from `mainline label`.
The mean word F1 over the pages is printed per model.

Word F1 is computed from the labelled lines (replay.word_f1), close to the benchmark's
score. Standard library only.
"""
import collections
import csv
import json
import os
import subprocess
import sys
import tempfile

from replay import TYPES, held_out_pages, labelled_words, word_f1, words

SHARES = (0.35, 0.5, 0.7)
FRACTIONS = (0.1, 0.2, 0.35)
SCOPES = ("page", "article")


def prose(text_bytes, link_density, landmark):
    """stack::floor::prose_bytes."""
    link = min(max(link_density, 0.0), 1.0)
    if landmark or text_bytes < 40 or link >= 0.5:
        return 0
    return round(text_bytes * (1.0 - link))


def facts_of(row):
    """(link density, in a landmark, page hint `article`, inside <article>/<main>) of a
    labelled CSV row."""
    hints = row["hints"].split()
    marks = any(float(row[k]) > 0 for k in ("in_nav", "in_footer", "in_aside"))
    return float(row["link_density"]), marks, hints[0] == "1", hints[-1] == "1"


def floor(facts, text_bytes, scores, keep, share, fraction, scope):
    """The decisions `keep` with the floor applied."""
    if not facts or not facts[0][2]:
        return keep
    pr = [prose(t, f[0], f[1]) for t, f in zip(text_bytes, facts)]
    total = sum(pr)
    if total < 250 or sum(t for t, k in zip(text_bytes, keep) if k) >= share * total:
        return keep
    inside = [True] * len(keep) if scope == "page" else [f[3] for f in facts]
    if scope == "article" and not any(k and p and i for k, p, i in zip(keep, pr, inside)):
        return keep
    best = max((s for s, p, i in zip(scores, pr, inside) if p and i), default=None)
    if best is None:
        return keep
    cut = fraction * best
    return [k or (i and p > 0 and s >= cut) for k, s, p, i in zip(keep, scores, pr, inside)]


def configs():
    return [(s, f, c) for c in SCOPES for s in SHARES for f in FRACTIONS]


def replay_cv(lines_csv, labelled):
    csv.field_size_limit(1 << 30)
    facts = {}
    with open(labelled, newline="") as f:
        for r in csv.DictReader(f):
            if r["variant"] == "original":
                facts[(r["doc"], r["line"])] = facts_of(r)
    pages, kinds = held_out_pages(lines_csv, False)
    scores = collections.defaultdict(lambda: collections.defaultdict(list))
    changed = collections.Counter()
    for doc, rows in pages.items():
        rows.sort(key=lambda r: int(r["line"]))
        lw = [labelled_words(r) for r in rows]
        keep = [r["keep"] == "1" for r in rows]
        fs = [facts[(doc, r["line"])] for r in rows]
        tb = [int(r["text_bytes"]) for r in rows]
        sc = [float(r["score"]) for r in rows]
        scores["as decided"][kinds.get(doc, "?")].append(word_f1(lw, keep))
        for c in configs():
            k2 = floor(fs, tb, sc, keep, *c)
            changed[c] += k2 != keep
            scores[c][kinds.get(doc, "?")].append(word_f1(lw, k2))
    print("share fraction scope  pages changed  mean word F1  " + " ".join(TYPES))
    for c, by_type in scores.items():
        every = [v for vs in by_type.values() for v in vs]
        name = "as decided" if c == "as decided" else f"{c[0]:<5} {c[1]:<8} {c[2]:<7}"
        cells = " ".join(f"{sum(by_type[t]) / max(len(by_type[t]), 1):.4f}" for t in TYPES)
        print(f"{name:<22} {changed[c]:>5}  {sum(every) / len(every):.4f}  {cells}")


def replay_pages(corpus, models, mainline):
    with tempfile.TemporaryDirectory() as tmp:
        labelled = os.path.join(tmp, "labelled.csv")
        subprocess.run(
            [mainline, "label", "--corpus", corpus, "-o", labelled],
            check=True,
            capture_output=True,
        )
        pages = collections.defaultdict(list)
        with open(labelled, newline="") as f:
            for r in csv.DictReader(f):
                pages[r["doc"]].append(r)
    results = {}
    for model in models:
        scores = collections.defaultdict(list)
        changed = collections.Counter()
        for doc, rows in sorted(pages.items()):
            page = os.path.join(corpus, doc, "source.html")
            if not os.path.exists(page):
                page = os.path.join(corpus, doc + ".html")
            out = subprocess.run(
                [mainline, "filter", "--model", model, "--format", "jsonl", page],
                check=True,
                capture_output=True,
                text=True,
            ).stdout.splitlines()
            lines = [json.loads(x) for x in out]
            if len(lines) != len(rows):
                sys.exit(f"{doc}: {len(lines)} lines filtered, {len(rows)} labelled")
            lw = [(r["label"] == "1", words(x["text"])) for r, x in zip(rows, lines)]
            keep = [x["keep"] for x in lines]
            fs = [facts_of(r) for r in rows]
            tb = [x["text_bytes"] for x in lines]
            sc = [x["score"] for x in lines]
            scores["as decided"].append(word_f1(lw, keep))
            for c in configs():
                k2 = floor(fs, tb, sc, keep, *c)
                changed[c] += k2 != keep
                scores[c].append(word_f1(lw, k2))
        results[model] = (scores, changed)
    print("share fraction scope   " + "  ".join(f"{os.path.basename(m)} (pages changed)" for m in models) + "  mean")
    for c in ["as decided"] + configs():
        name = "as decided" if c == "as decided" else f"{c[0]:<5} {c[1]:<8} {c[2]:<7}"
        means = [sum(results[m][0][c]) / len(results[m][0][c]) for m in models]
        cells = "  ".join(f"{v:.4f} ({results[m][1][c]})" for v, m in zip(means, models))
        print(f"{name:<22} {cells}  {sum(means) / len(means):.4f}")


def main():
    args = sys.argv[1:]
    mainline = "target/release/mainline"
    if "--mainline" in args:
        i = args.index("--mainline")
        mainline = args[i + 1]
        del args[i : i + 2]
    if len(args) == 3 and args[0] == "cv":
        replay_cv(args[1], args[2])
    elif len(args) >= 3 and args[0] == "pages":
        replay_pages(args[1], args[2:], mainline)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
