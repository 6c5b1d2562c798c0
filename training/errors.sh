#!/usr/bin/env bash
# Where the built-in recipe's errors are: cross-validates it as training/cv.sh does (5 folds
# by site, SEED=42 by default) with every held-out line's decision written to
# target/training/cv-default-lines.csv (`mainline eval --per-line`), then counts the
# misclassified lines between each page's first and last content line and outside it,
# before the page's first <h1>, and on short lines; then how many errors better thresholds
# would leave: the best one per fold and the best one per page, both chosen on the held-out
# lines themselves (bounds, not recipes); the share of the errors held by the pages with the
# most of them; last, two measures of what the gold text asks for: how many errors would
# remain if every line outside the element holding all of a page's content lines were
# dropped (a perfect choice of the content's container, a bound), and whether the gold text
# keeps the code listings (`<pre>` lines) and the tables of the pages that have them, by page
# type.
# Usage: training/errors.sh   (CORPUS=DIR, SEED=N)
source "$(dirname "$0")/common.sh"
LINES="$WORK/cv-default-lines.csv"
"$MAINLINE" eval --lines "$DATA" --corpus "$CORPUS" --folds 5 --seed "${SEED:-42}" \
  --recipe "$ROOT/training/default.toml" --per-line "$LINES" --per-page "$WORK/cv-default-pages.csv"
# Columns: method, doc, group, fold, line, label, keep, score, threshold, heading_level,
# text_bytes, text (last, so splitting at commas leaves the first eleven intact).
awk -F, '
NR == 1 { next }
{
  n++; doc[n] = $2; line[n] = $5 + 0; label[n] = $6 + 0; keep[n] = $7 + 0; bytes[n] = $11 + 0
  fold[n] = $4; margin[n] = $8 - $9
  if (label[n] == 1) { if (!($2 in first)) first[$2] = line[n]; last[$2] = line[n] }
  if ($10 + 0 == 1 && !($2 in h1)) h1[$2] = line[n]
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
  # Each line is kept when its score minus its threshold is at least d; d = 0 is the
  # recipe. The best d per fold and per page, from -0.5 to 0.5 in steps of 0.01.
  for (r = 1; r <= n; r++)
    for (k = 0; k <= 100; k++) {
      wrong = ((margin[r] >= (k - 50) / 100) != label[r])
      by_fold[fold[r], k] += wrong; by_page[doc[r], k] += wrong
    }
  for (r = 1; r <= n; r++) {
    if (!(fold[r] in seen_fold)) { seen_fold[fold[r]] = 1; best_folds += best(by_fold, fold[r]) }
    if (!(doc[r] in seen_page)) { seen_page[doc[r]] = 1; best_pages += best(by_page, doc[r]) }
  }
  printf "with the best threshold of each fold: %d misclassified; of each page: %d\n", best_folds, best_pages
}
function best(errors, key,   k, b) {
  b = errors[key, 50]
  for (k = 0; k <= 100; k++) if (errors[key, k] < b) b = errors[key, k]
  return b
}' "$LINES"
# How concentrated the errors are: the share held by the pages with the most of them.
awk -F, 'NR > 1 && $6 != $7 { wrong[$2]++ } END { for (d in wrong) print wrong[d] }' "$LINES" \
  | sort -rn | awk '
{ total += $1; if (NR == 10) top10 = total; if (NR == 100) top100 = total }
END { printf "%d pages have misclassified lines; the 10 with the most hold %.1f%% of them, the 100 with the most %.1f%%\n", NR, 100 * top10 / total, 100 * top100 / total }'
# The container bound, code listings and tables: reads each line's `path` (the serial numbers
# of its 16 nearest enclosing elements, nearest first), `tag_pre` and `tag_cell` from the
# labelled CSV and each page's type from the per-page file. The container of a page is the
# nearest element on the first content line's path that every content line's path holds;
# pages whose content lines share none of their 16 listed elements keep their decisions.
awk -F, '
FILENAME == ARGV[1] { if (FNR > 1) type[$1] = $3; next }
FILENAME == ARGV[2] {
  if (FNR == 1) { for (i = 1; i <= NF; i++) col[$i] = i; next }
  id = $(col["doc"]) SUBSEP ($(col["line"]) + 0)
  path[id] = " " $(col["path"]) " "; pre[id] = $(col["tag_pre"]) + 0; cell[id] = $(col["tag_cell"]) + 0
  next
}
FNR == 1 { next }
{
  n++; doc[n] = $2; key[n] = $2 SUBSEP ($5 + 0); label[n] = $6 + 0; keep[n] = $7 + 0
  if (label[n] == 1) {
    if (!($2 in first)) first[$2] = path[key[n]]
    contents[$2]++; m = split(path[key[n]], elems, " ")
    for (j = 1; j <= m; j++) holds[$2, elems[j]]++
  }
  if (pre[key[n]]) { pre_lines[$2]++; pre_content[$2] += label[n] }
  if (cell[key[n]]) { cell_lines[$2]++; cell_content[$2] += label[n] }
}
END {
  for (d in first) {
    m = split(first[d], elems, " ")
    for (j = 1; j <= m; j++) if (holds[d, elems[j]] == contents[d]) { container[d] = " " elems[j] " "; break }
  }
  for (r = 1; r <= n; r++) {
    d = doc[r]; decision = keep[r]
    if ((d in container) && index(path[key[r]], container[d]) == 0) decision = 0
    bound += decision != label[r]; errors += keep[r] != label[r]
  }
  printf "dropping every line outside the element that holds all of its page'\''s content lines: %d misclassified (now %d)\n", bound, errors
  conventions("<pre> (code listings)", pre_lines, pre_content)
  conventions("table cells", cell_lines, cell_content)
}
function conventions(what, lines, content,   d, share, kind, counts, k) {
  for (d in lines) if (lines[d] >= 5) {
    share = content[d] / lines[d]
    kind = share > 0.8 ? "keeps" : share < 0.2 ? "drops" : "keeps part of"
    counts[type[d] ": the gold text " kind " them"]++
  }
  print "pages with at least 5 lines of " what ", by type:"
  for (k in counts) printf "  %s: %d\n", k, counts[k] | "sort"
  close("sort")
}' "$WORK/cv-default-pages.csv" "$DATA" "$LINES"
