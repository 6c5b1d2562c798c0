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
  --cv threshold \
  --cv logistic/seed/1 --cv logistic/full/1 \
  --cv mlp/seed/1 --cv mlp/full/1 --cv mlp/full/3 --cv mlp/full/1/stack8 \
  --json "$WORK/cv.json" --per-page "$WORK/cv-pages.csv" | tee "$WORK/cv.txt"
"$MAINLINE" eval --lines "$DATA" --corpus "$CORPUS" --folds 5 --seed 42 \
  --threshold-objective accuracy \
  --cv threshold --cv mlp/full/1 --cv mlp/full/1/stack8 \
  --json "$WORK/cv-accuracy.json" --per-page "$WORK/cv-accuracy-pages.csv" \
  | tee "$WORK/cv-accuracy.txt"
"$MAINLINE" eval --lines "$DATA" --corpus "$CORPUS" --folds 5 --seed 42 \
  --cv threshold --recipe "$ROOT/training/default.toml" \
  --json "$WORK/cv-default.json" --per-page "$WORK/cv-default-pages.csv" \
  | tee "$WORK/cv-default.txt"
