#!/usr/bin/env python3
"""Replays keeping whole the dropped groups of repeated lines scored near the threshold (the
second condition of stack::floor::whole_groups, src/stack/floor.rs) on held-out decisions
made without it, on the pages as written and on their variants.

Usage: training/near-groups-replay.py LINES.csv LABELLED.csv [SEED-NAME]

LINES.csv is the per-line output of cross-validation by a build without the condition
(`mainline eval --data CSV --corpus WCXB-DEV --folds 5 --seed S --cv threshold --recipe
training/default.toml --per-line LINES.csv` at `059c98d`, which already keeps partly kept
groups whole); LABELLED.csv the labelled CSV it was run on (`training/common.sh` writes
it), for each line's signature, path, landmarks and link density. A group is the lines of
the same first signature value within one element five levels up, at least three of them;
it is kept whole (its lines outside `<nav>`, `<footer>` and `<aside>`) when at least half
its lines score at least 0.6 of their threshold and, cumulatively:
  - always;
  - the page keeps some text outside the landmarks (`kept`);
  - the group holds more text than the page's kept lines (`text`);
  - the group's text is mostly not prose: lines under 40 bytes or mostly links (`not prose`).
For each, the script prints the change of the mean page F1 (word F1 over the lines'
labels) on the pages as written, on each variant (`related`: articles followed by teasers,
`short`, `shell`) and on each page type of the pages as written. Standard library only.
"""
import collections
import sys

from replay import TYPES, group_key, held_out_pages, labelled_lines, labelled_words, word_f1

LEVEL = 5
NEAR_THRESHOLD = 0.6
PROSE_MIN_BYTES = 40
VARIANTS = ("related", "short", "shell")


def page_lines(doc, lines, facts):
    """Each line's (label, words), decision, score ratio, body text, prose; the groups."""
    out = []
    groups = collections.defaultdict(list)
    for i, r in enumerate(lines):
        fact = facts.get((doc, r["line"]))
        landmark = fact is None or fact["landmark"]
        text = 0 if landmark else int(r["text_bytes"])
        prose = 0 if text < PROSE_MIN_BYTES or fact["link_density"] >= 0.5 else text
        near = float(r["score"]) >= NEAR_THRESHOLD * float(r["threshold"])
        out.append((labelled_words(r), r["keep"] == "1", near, text, prose))
        if fact is not None:
            groups[group_key(fact, LEVEL)].append(i)
    return out, [g for g in groups.values() if len(g) >= 3]


CONDITIONS = (
    ("always", lambda g, kept, text, prose: True),
    ("kept", lambda g, kept, text, prose: kept > 0),
    ("kept, text", lambda g, kept, text, prose: kept > 0 and text > kept),
    ("kept, text, not prose", lambda g, kept, text, prose: kept > 0 and text > kept and 2 * prose <= text),
)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    facts = labelled_lines(sys.argv[2], original_only=False)
    pages, kinds = held_out_pages(sys.argv[1], with_variants=True)
    prepared = {doc: page_lines(doc, lines, facts) for doc, lines in pages.items()}
    label = sys.argv[3] if len(sys.argv) > 3 else sys.argv[1]
    for name, condition in CONDITIONS:
        delta = collections.defaultdict(float)
        count = collections.Counter()
        for doc, (lines, groups) in prepared.items():
            keep = [line[1] for line in lines]
            kept = sum(line[3] for line in lines if line[1])
            new = list(keep)
            for g in groups:
                near = sum(lines[i][2] for i in g)
                text = sum(lines[i][3] for i in g)
                prose = sum(lines[i][4] for i in g)
                if 2 * near >= len(g) and condition(g, kept, text, prose):
                    for i in g:
                        new[i] = new[i] or lines[i][3] > 0
            scored = [line[0] for line in lines]
            kind = doc.split("@", 1)[1] if "@" in doc else kinds.get(doc, "")
            delta[kind] += word_f1(scored, new) - word_f1(scored, keep)
            count[kind] += 1
        written = [k for k in count if k not in VARIANTS]
        total = sum(delta[k] for k in written) / max(1, sum(count[k] for k in written))
        variants = " ".join(f"{v} {delta[v] / count[v]:+.4f}" for v in VARIANTS if count[v])
        per_type = " ".join(f"{t[:4]} {delta[t] / count[t]:+.3f}" for t in TYPES if count[t])
        print(f"{label} {name}: as written {total:+.4f} | {variants} | {per_type}")


if __name__ == "__main__":
    main()
