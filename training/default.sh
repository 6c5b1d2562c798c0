#!/usr/bin/env bash
# Rebuilds models/default.json, the model built into mainline: an MLP on every feature
# with one line of context on each side (the seed's setting), trained on all WCXB development pages.
# Usage: training/default.sh   (CORPUS=DIR to point at the pages; default ../shared/data/wcxb-dev)
source "$(dirname "$0")/common.sh"
"$MAINLINE" train "$DATA" \
  --model mlp --features full --context 1 --hidden 32 --seed 42 \
  --recipe "training/default.sh" \
  --data-name "WCXB development split (CC-BY-4.0), $(grep -c '' "$DATA") CSV lines from mainline label" \
  -o "$ROOT/models/default.json"
