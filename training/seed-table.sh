#!/usr/bin/env bash
# The seed design's experiment on the WCXB development pages: fixed threshold, logistic (SLP)
# and MLP with 1-3 attributes per line (1A density, 2A + HTML bytes, 3A + text length) and
# 1-3 lines of context on each side (1L-3L); 5-fold cross-validation by site, held-out lines.
# Writes target/training/seed-table.{txt,json}.
source "$(dirname "$0")/common.sh"
"$MAINLINE" eval --lines "$DATA" --seed-table --folds 5 --seed 42 \
  --json "$WORK/seed-table.json" | tee "$WORK/seed-table.txt"
