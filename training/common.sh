#!/usr/bin/env bash
# Shared by the recipes: builds mainline and labels the WCXB development pages once, with
# the page variants the built-in recipe trains on (recipes that name none ignore them).
# Sourced, not run. Sets MAINLINE (the binary) and DATA (the labelled CSV).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CORPUS="${CORPUS:-$ROOT/../shared/data/wcxb-dev}"
if [ ! -d "$CORPUS/html" ]; then
  echo "training: no corpus at $CORPUS (set CORPUS=DIR to the WCXB development pages)" >&2
  exit 1
fi
cargo build --release --locked --quiet --manifest-path "$ROOT/Cargo.toml"
MAINLINE="$ROOT/target/release/mainline"
WORK="$ROOT/target/training"
DATA="$WORK/wcxb-dev.csv"
mkdir -p "$WORK"
# The labelled CSV depends on the splitter, the features and the alignment: rebuild it
# whenever the binary is newer than it.
if [ ! -s "$DATA" ] || [ "$MAINLINE" -nt "$DATA" ]; then
  "$MAINLINE" label --corpus "$CORPUS" --augment related --augment short --augment shell \
    -o "$DATA.tmp"
  mv "$DATA.tmp" "$DATA"
fi
