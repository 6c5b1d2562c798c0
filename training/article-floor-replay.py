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
import json
import os
import subprocess
import sys
import tempfile

from replay import TYPES, held_out_pages, labelled_lines, word_f1, words

SHARES = (0.35, 0.5, 0.7)
FRACTIONS = (0.1, 0.2, 0.35)
SCOPES = ("page", "article")
CONFIGS = [(s, f, c) for c in SCOPES for s in SHARES for f in FRACTIONS]


def prose(text_bytes, fact):
    """stack::floor::prose_bytes of a line of `labelled_lines` facts."""
    link = min(max(fact["link_density"], 0.0), 1.0)
    if fact["landmark"] or text_bytes < 40 or link >= 0.5:
        return 0
    return round(text_bytes * (1.0 - link))


def floor(facts, text_bytes, scores, keep, share, fraction, scope):
    """The decisions `keep` with the floor applied."""
    if not facts or not facts[0]["article"]:
        return keep
    pr = [prose(t, f) for t, f in zip(text_bytes, facts)]
    total = sum(pr)
    if total < 250 or sum(t for t, k in zip(text_bytes, keep) if k) >= share * total:
        return keep
    inside = [True] * len(keep) if scope == "page" else [f["in_article"] for f in facts]
    if scope == "article" and not any(k and p and i for k, p, i in zip(keep, pr, inside)):
        return keep
    best = max((s for s, p, i in zip(scores, pr, inside) if p and i), default=None)
    if best is None:
        return keep
    cut = fraction * best
    return [k or (i and p > 0 and s >= cut) for k, s, p, i in zip(keep, scores, pr, inside)]


def replay_page(facts, texts, text_bytes, scores, keep):
    """(setting, word F1, whether it changed the decisions) of one page: as decided, then
    under each setting of CONFIGS."""
    lw = [(f["label"], words(t)) for f, t in zip(facts, texts)]
    yield "as decided", word_f1(lw, keep), False
    for c in CONFIGS:
        k2 = floor(facts, text_bytes, scores, keep, *c)
        yield c, word_f1(lw, k2), k2 != keep


def setting_name(c):
    return "as decided" if c == "as decided" else f"{c[0]:<5} {c[1]:<8} {c[2]:<7}"


def replay_cv(lines_csv, labelled):
    facts = labelled_lines(labelled, original_only=True)
    pages, kinds = held_out_pages(lines_csv, False)
    scores = collections.defaultdict(lambda: collections.defaultdict(list))
    changed = collections.Counter()
    for doc, rows in pages.items():
        rows.sort(key=lambda r: int(r["line"]))
        outcomes = replay_page(
            [facts[(doc, r["line"])] for r in rows],
            [r["text"] for r in rows],
            [int(r["text_bytes"]) for r in rows],
            [float(r["score"]) for r in rows],
            [r["keep"] == "1" for r in rows],
        )
        for c, f1, moved in outcomes:
            scores[c][kinds.get(doc, "?")].append(f1)
            changed[c] += moved
    print("share fraction scope  pages changed  mean word F1  " + " ".join(TYPES))
    for c, by_type in scores.items():
        every = [v for vs in by_type.values() for v in vs]
        cells = " ".join(f"{sum(by_type[t]) / max(len(by_type[t]), 1):.4f}" for t in TYPES)
        print(f"{setting_name(c):<22} {changed[c]:>5}  {sum(every) / len(every):.4f}  {cells}")


def replay_pages(corpus, models, mainline):
    with tempfile.TemporaryDirectory() as tmp:
        labelled = os.path.join(tmp, "labelled.csv")
        subprocess.run(
            [mainline, "label", "--corpus", corpus, "-o", labelled],
            check=True,
            capture_output=True,
        )
        facts = labelled_lines(labelled, original_only=True)
    pages = collections.defaultdict(list)
    for (doc, line), fact in facts.items():
        pages[doc].append((int(line), fact))
    docs = sorted(pages)
    paths = []
    for doc in docs:
        page = os.path.join(corpus, doc, "source.html")
        paths.append(page if os.path.exists(page) else os.path.join(corpus, doc + ".html"))
    results = {}
    for model in models:
        # One run over every page; its records name their page and come in input order.
        out = subprocess.run(
            [mainline, "filter", "-q", "--model", model, "--format", "jsonl", *paths],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        filtered = collections.defaultdict(list)
        for line in out.splitlines():
            r = json.loads(line)
            filtered[r["doc"]].append(r)
        scores = collections.defaultdict(list)
        changed = collections.Counter()
        for doc, path in zip(docs, paths):
            lines = filtered[path]
            page_facts = [f for _, f in sorted(pages[doc], key=lambda x: x[0])]
            if len(lines) != len(page_facts):
                sys.exit(f"{doc}: {len(lines)} lines filtered, {len(page_facts)} labelled")
            outcomes = replay_page(
                page_facts,
                [x["text"] for x in lines],
                [x["text_bytes"] for x in lines],
                [x["score"] for x in lines],
                [x["keep"] for x in lines],
            )
            for c, f1, moved in outcomes:
                scores[c].append(f1)
                changed[c] += moved
        results[model] = (scores, changed)
    names = "  ".join(f"{os.path.basename(m)} (pages changed)" for m in models)
    print(f"share fraction scope   {names}  mean")
    for c in ["as decided"] + CONFIGS:
        means = [sum(results[m][0][c]) / len(results[m][0][c]) for m in models]
        cells = "  ".join(f"{v:.4f} ({results[m][1][c]})" for v, m in zip(means, models))
        print(f"{setting_name(c):<22} {cells}  {sum(means) / len(means):.4f}")


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
