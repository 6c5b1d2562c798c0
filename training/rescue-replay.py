#!/usr/bin/env python3
"""Replays the rescue (src/stack/floor.rs) on held-out decisions made without it.

Usage: training/rescue-replay.py LINES.csv WCXB-DEV [MAINLINE]

LINES.csv is the per-line output of cross-validation by a build without the rescue
(`mainline eval --data CSV --corpus WCXB-DEV --folds 5 --seed S --cv threshold --recipe
training/default.toml --per-line LINES.csv` at `b507846`). Each line's landmark (inside
nav, footer or aside) comes from `MAINLINE filter --format jsonl` over WCXB-DEV/html
(MAINLINE: target/release/mainline by default). For every page as written that keeps no
word, with at least 250 bytes (or 50 words) of text outside the landmarks, the lines there
scored at least a fraction of the best of them are kept; the script prints, per fraction,
the pages it changes and the sum of their word F1 changes. Standard library only.
"""
import collections
import csv
import json
import subprocess
import sys

from replay import word_f1, words

FRACTIONS = (0.3, 0.5, 0.7, 0.9)


def landmarks(mainline, corpus):
    out = subprocess.run(
        [mainline, "filter", "-q", "-r", "--format", "jsonl", corpus + "/html"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    marks = {}
    for line in out.splitlines():
        r = json.loads(line)
        doc = r["doc"].rsplit("/", 1)[-1].split(".")[0]
        f = r["features"]
        marks[(doc, r["line"])] = any(f[k] > 0 for k in ("in_nav", "in_footer", "in_aside"))
    return marks


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    lines_csv, corpus = sys.argv[1], sys.argv[2]
    mainline = sys.argv[3] if len(sys.argv) > 3 else "target/release/mainline"
    marks = landmarks(mainline, corpus)
    pages = collections.defaultdict(list)
    kept = collections.Counter()
    for r in csv.DictReader(open(lines_csv, newline="")):
        if r["method"].startswith("threshold") or "@" in r["doc"]:
            continue
        n = words(r["text"])
        landmark = marks.get((r["doc"], int(r["line"])), False)
        body = 0 if landmark else len(r["text"].encode())
        pages[r["doc"]].append((float(r["score"]), r["label"] == "1", n, landmark, body))
        if r["keep"] == "1":
            kept[r["doc"]] += n
    for measure, enough in (
        ("250 bytes", lambda ls: sum(x[4] for x in ls) >= 250),
        ("50 words", lambda ls: sum(x[2] for x in ls if not x[3]) >= 50),
    ):
        for frac in FRACTIONS:
            changed, delta = [], 0.0
            for doc, ls in sorted(pages.items()):
                if kept[doc] or not enough(ls):
                    continue
                best = max((x[0] for x in ls if x[4] > 0), default=None)
                if best is None:
                    continue
                keep = [x[4] > 0 and x[0] >= frac * best for x in ls]
                scored = [(x[1], x[2]) for x in ls]
                after = word_f1(scored, keep) - word_f1(scored, [False] * len(ls))
                changed.append(f"{doc} {after:+.2f}")
                delta += after
            print(f"{measure}, {frac} of the best: {delta:+.2f} pages of F1 "
                  f"({delta / len(pages):+.5f} on the mean): {', '.join(changed)}")


if __name__ == "__main__":
    main()
