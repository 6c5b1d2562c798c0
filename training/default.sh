#!/usr/bin/env bash
# Rebuilds models/default.json, the model built into mainline: an MLP on every feature
# with three lines of context on each side, trained on all WCXB development pages.
# Usage: training/default.sh   (CORPUS=DIR to point at the pages; default ../shared/data/wcxb-dev)
source "$(dirname "$0")/common.sh"
"$MAINLINE" train "$DATA" \
  --model mlp --features full --context 3 --hidden 32 --seed 42 \
  --recipe "training/default.sh" \
  --data-name "WCXB development split (CC-BY-4.0), $(grep -c '' "$DATA") CSV lines from mainline label" \
  -o "$ROOT/models/default.json"
