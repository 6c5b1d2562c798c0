#!/usr/bin/env bash
# Site mode on the WCXB development pages: the built-in recipe cross-validated by site
# (5 folds) at each seed of SEEDS (default 42 43 44 45 46), every held-out page decided
# alone and in site mode (its template learnt from its site's other pages, all held out
# with it), then the table of page word P/R/F1 over all pages and over the pages of the
# sites with two or more pages, overall and per page type (training/site_table.py).
# Outputs: target/training/site-SEED.{txt,csv}.
# Usage: training/site.sh   (CORPUS=DIR to point at the pages; SEEDS="42" for one seed;
# MIN_PAGES=N for the fewest other pages a template line is on, default 2)
source "$(dirname "$0")/common.sh"
SEEDS="${SEEDS:-42 43 44 45 46}"
csvs=()
for seed in $SEEDS; do
  "$MAINLINE" eval --lines "$DATA" --corpus "$CORPUS" --folds 5 --seed "$seed" \
    --recipe "$ROOT/training/default.toml" --by-site --site-min-pages "${MIN_PAGES:-2}" \
    --per-page "$WORK/site-$seed.csv" > "$WORK/site-$seed.txt"
  csvs+=("$WORK/site-$seed.csv")
done
python3 "$ROOT/training/site_table.py" "${csvs[@]}"
