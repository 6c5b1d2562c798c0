#!/usr/bin/env bash
# Rebuilds models/logistic.json: the seed's single-layer perceptron (logistic regression)
# on every feature with one line of context on each side, trained on all WCXB development pages.
# Usage: training/logistic.sh   (CORPUS=DIR to point at the pages; default ../shared/data/wcxb-dev)
source "$(dirname "$0")/common.sh"
"$MAINLINE" train "$DATA" \
  --model logistic --features full --context 1 --seed 42 \
  --recipe "training/logistic.sh" \
  --data-name "WCXB development split (CC-BY-4.0), $(grep -c '' "$DATA") CSV lines from mainline label" \
  -o "$ROOT/models/logistic.json"
