#!/usr/bin/env bash
# Rebuilds models/default.json, the model built into mainline, from its recipe
# training/default.toml (which says what the model is) and the WCXB development pages.
# Usage: training/default.sh   (CORPUS=DIR to point at the pages; default ../shared/data/wcxb-dev)
source "$(dirname "$0")/common.sh"
cd "$ROOT"
"$MAINLINE" train "$DATA" --recipe training/default.toml -o models/default.json
