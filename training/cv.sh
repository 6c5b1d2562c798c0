#!/usr/bin/env bash
# 5-fold cross-validation by site on the WCXB development pages: the fixed threshold and the
# logistic, MLP and two-stage recipes, page word F1 (with 95% bootstrap intervals, per page
# type) and line errors. Three runs: thresholds chosen for line F1 (cv.{txt,json},
# cv-pages.csv) and for the fewest misclassified lines
# (cv-accuracy.{txt,json}, cv-accuracy-pages.csv); then the built-in model's recipe, a
# page-level two-stage model with per-site weights, signature inputs and a distilled second
# stage (cv-default.{txt,json}, cv-default-pages.csv). All in target/training/.
# Usage: training/cv.sh   (CORPUS=DIR to point at the pages; default ../shared/data/wcxb-dev)
source "$(dirname "$0")/common.sh"
"$MAINLINE" eval --lines "$DATA" --corpus "$CORPUS" --folds 5 --seed 42 \
  --recipe threshold \
  --recipe logistic/seed/1 --recipe logistic/full/1 \
  --recipe mlp/seed/1 --recipe mlp/full/1 --recipe mlp/full/3 --recipe mlp/full/1/stack8 \
  --json "$WORK/cv.json" --per-page "$WORK/cv-pages.csv" | tee "$WORK/cv.txt"
"$MAINLINE" eval --lines "$DATA" --corpus "$CORPUS" --folds 5 --seed 42 \
  --threshold-objective accuracy \
  --recipe threshold --recipe mlp/full/1 --recipe mlp/full/1/stack8 \
  --json "$WORK/cv-accuracy.json" --per-page "$WORK/cv-accuracy-pages.csv" \
  | tee "$WORK/cv-accuracy.txt"
"$MAINLINE" eval --lines "$DATA" --corpus "$CORPUS" --folds 5 --seed 42 \
  --threshold-objective f1 --stack-threshold-objective accuracy --stack-threshold-rows all \
  --stack-features base --site-lines 1000 \
  --stack-ensemble 8 --stack-distill \
  --repeats \
  --recipe threshold --recipe mlp/full/1/page8 \
  --json "$WORK/cv-default.json" --per-page "$WORK/cv-default-pages.csv" \
  | tee "$WORK/cv-default.txt"
