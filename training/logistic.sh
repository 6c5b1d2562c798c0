#!/usr/bin/env bash
# Rebuilds models/logistic.json (the seed design's single-layer perceptron) from its recipe
# training/logistic.toml and the WCXB development pages.
# Usage: training/logistic.sh   (CORPUS=DIR to point at the pages; default ../shared/data/wcxb-dev)
source "$(dirname "$0")/common.sh"
cd "$ROOT"
"$MAINLINE" train "$DATA" --recipe training/logistic.toml -o models/logistic.json
