#!/usr/bin/env bash
# 5-fold cross-validation by site on the WCXB development pages: the fixed threshold and the
# logistic and MLP recipes, page word F1 (with 95% bootstrap intervals, per page type) and
# line errors. Writes target/training/cv.{txt,json} and cv-pages.csv.
# Usage: training/cv.sh   (CORPUS=DIR to point at the pages; default ../shared/data/wcxb-dev)
source "$(dirname "$0")/common.sh"
"$MAINLINE" eval --lines "$DATA" --corpus "$CORPUS" --folds 5 --seed 42 \
  --recipe threshold \
  --recipe logistic/seed/1 --recipe logistic/full/1 \
  --recipe mlp/seed/1 --recipe mlp/full/1 --recipe mlp/full/3 \
  --json "$WORK/cv.json" --per-page "$WORK/cv-pages.csv" | tee "$WORK/cv.txt"
