#!/usr/bin/env bash
# Rebuilds models/default.json, the model built into mainline: a two-stage model trained on
# all WCXB development pages. The first stage is an MLP on every feature with one line of
# context on each side (the seed's setting); the second decides each line from the
# first-stage scores of 8 lines on each side, the scores of the whole page and of the
# elements around the line, the scores pooled over the lines repeated alongside it (same
# structural signature: the cards of a grid, the rows of a list, the items of a menu) and
# over the lines of the same text, and the line's own features. Eight second stages are
# trained from different seeds and one more is trained towards their averaged scores
# (distillation): that one ships, at the cost of one. The second stage's threshold
# minimises misclassified lines over all the training sites; the first stage's, which
# decides only pages of fewer than 32 lines, maximises line F1 on the validation sites.
# Each site counts as at most 1,000 lines.
# Usage: training/default.sh   (CORPUS=DIR to point at the pages; default ../shared/data/wcxb-dev)
source "$(dirname "$0")/common.sh"
"$MAINLINE" train "$DATA" \
  --model mlp --features full --context 1 --hidden 32 --seed 42 \
  --stack 8 --page --repeats --stack-features base --site-lines 1000 \
  --stack-ensemble 8 --stack-distill \
  --threshold-objective f1 --stack-threshold-objective accuracy --stack-threshold-rows all \
  --recipe "training/default.sh" \
  --data-name "WCXB development split (CC-BY-4.0), $(grep -c '' "$DATA") CSV lines from mainline label" \
  -o "$ROOT/models/default.json"
