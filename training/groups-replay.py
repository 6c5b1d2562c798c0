#!/usr/bin/env python3
"""Replays keeping partly kept groups of repeated lines whole (stack::floor::whole_groups,
src/stack/floor.rs) on held-out decisions made without it.

Usage: training/groups-replay.py LINES.csv LABELLED.csv [SEED-NAME]

LINES.csv is the per-line output of cross-validation by a build without the rule
(`mainline eval --data CSV --corpus WCXB-DEV --folds 5 --seed S --cv threshold --recipe
training/default.toml --per-line LINES.csv` at `1af892d`); LABELLED.csv the labelled CSV
it was run on (`training/common.sh` writes it), for each line's signature (`sig`), path
(`path`) and landmarks (`in_nav`, `in_footer`, `in_aside`). For each group level (3, 5, or
the whole page), share of kept lines (0.05 to 0.3) and score condition (none, or at least
half the lowest kept line of the group), the lines outside the landmarks of every group of
at least three lines of which that share is kept are kept; the script prints the change
of the mean page F1 (word F1 over the lines' labels) and of each page type's. Standard
library only.
"""
import collections
import sys

from replay import TYPES, group_key, held_out_pages, labelled_lines, labelled_words, word_f1

LEVELS = (3, 5, None)
SHARES = (0.05, 0.1, 0.2, 0.3)
NEAR_KEPT = (0.0, 0.5)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    facts = labelled_lines(sys.argv[2], original_only=True)
    pages, kinds = held_out_pages(sys.argv[1], with_variants=False)
    label = sys.argv[3] if len(sys.argv) > 3 else sys.argv[1]
    scored = {doc: [labelled_words(r) for r in lines] for doc, lines in pages.items()}
    for level in LEVELS:
        groups = {}
        for doc, lines in pages.items():
            by_key = collections.defaultdict(list)
            for i, r in enumerate(lines):
                fact = facts.get((doc, r["line"]))
                if fact:
                    by_key[group_key(fact, level)].append(i)
            groups[doc] = list(by_key.values())
        for share in SHARES:
            for near in NEAR_KEPT:
                delta = collections.defaultdict(float)
                count = collections.Counter()
                for doc, lines in pages.items():
                    keep = [r["keep"] == "1" for r in lines]
                    new = list(keep)
                    for members in groups[doc]:
                        kept = [float(lines[i]["score"]) for i in members if keep[i]]
                        if len(members) < 3 or len(kept) < share * len(members) or not kept:
                            continue
                        lowest = min(kept)
                        for i in members:
                            if not keep[i] and not facts[(doc, lines[i]["line"])]["landmark"] \
                                    and float(lines[i]["score"]) >= near * lowest:
                                new[i] = True
                    kind = kinds.get(doc, "")
                    delta[kind] += word_f1(scored[doc], new) - word_f1(scored[doc], keep)
                    count[kind] += 1
                total = sum(delta.values()) / max(1, sum(count.values()))
                per_type = " ".join(
                    f"{t[:4]} {delta[t] / count[t]:+.3f}" for t in TYPES if count[t]
                )
                print(
                    f"{label} level {level if level is not None else 'page'} share {share} "
                    f"near-kept {near}: mean {total:+.4f} | {per_type}"
                )


if __name__ == "__main__":
    main()
