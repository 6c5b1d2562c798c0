#!/usr/bin/env bash
# Where the built-in recipe's errors are: cross-validates it as training/cv.sh does (5 folds
# by site, SEED=42 by default) with every held-out line's decision written to
# target/training/cv-default-lines.csv (`mainline eval --per-line`), then counts the
# misclassified lines between each page's first and last content line and outside it,
# before the page's first <h1>, and on short lines.
# Usage: training/errors.sh   (CORPUS=DIR, SEED=N)
source "$(dirname "$0")/common.sh"
LINES="$WORK/cv-default-lines.csv"
"$MAINLINE" eval --lines "$DATA" --corpus "$CORPUS" --folds 5 --seed "${SEED:-42}" \
  --threshold-objective accuracy --stack-features base --site-lines 1000 \
  --repeats --stack-ensemble 8 --stack-distill \
  --recipe mlp/full/1/page8 --per-line "$LINES"
# Columns: method, doc, group, line, label, keep, heading_level, text_bytes, text (last, so
# splitting at commas leaves the first eight intact).
awk -F, '
NR == 1 { next }
{
  n++; doc[n] = $2; line[n] = $4 + 0; label[n] = $5 + 0; keep[n] = $6 + 0; bytes[n] = $8 + 0
  if (label[n] == 1) { if (!($2 in first)) first[$2] = line[n]; last[$2] = line[n] }
  if ($7 + 0 == 1 && !($2 in h1)) h1[$2] = line[n]
}
END {
  for (r = 1; r <= n; r++) {
    d = doc[r]; i = line[r]; wrong = label[r] != keep[r]; errors += wrong
    if (!(d in first)) none += wrong
    else if (i >= first[d] && i <= last[d]) { if (wrong && keep[r]) span_fp++; else if (wrong) span_fn++ }
    else if (wrong) out_fp++
    if ((d in h1) && i < h1[d]) { before++; before_wrong += wrong; before_content += label[r] }
    if (bytes[r] < 50) { short++; short_wrong += wrong }
  }
  printf "%d lines, %d misclassified\n", n, errors
  printf "between a page'\''s first and last content line: %d false positives, %d false negatives (%.1f%% of the errors)\n", span_fp, span_fn, 100 * (span_fp + span_fn) / errors
  printf "outside it: %d false positives; on pages without content lines: %d\n", out_fp, none
  printf "before the page'\''s first <h1>: %d lines (%d content), %d misclassified\n", before, before_content, before_wrong
  printf "lines of under 50 bytes of text: %.1f%% of the lines, %.1f%% of the errors\n", 100 * short / n, 100 * short_wrong / errors
}' "$LINES"
