#!/usr/bin/env bash
# How much labelling a site's own pages helps (`mainline review` + `train --init`): the
# WCXB development sites with at least 4 pages are held out, a base model is trained on
# every other site with the built-in recipe, and for each held-out site it is fine-tuned on
# the labelled lines of its first 1, 2 and 3 pages (in file order) and scored on the site's
# other pages (page word F1, the benchmark's score) against the base model.
# Writes target/training/finetune/{base.json,results.csv} and prints a table.
# Usage: training/finetune.sh   (CORPUS=DIR to point at the pages; default ../shared/data/wcxb-dev)
source "$(dirname "$0")/common.sh"
OUT="$WORK/finetune"
rm -rf "$OUT"
mkdir -p "$OUT"
# Sites, base CSV, per-site CSVs of their first pages and corpora of their other pages.
python3 "$ROOT/training/finetune_split.py" "$CORPUS" "$DATA" "$OUT"
"$MAINLINE" train "$OUT/base.csv" \
  --model mlp --features full --context 1 --hidden 32 --seed 42 \
  --stack 8 --page --repeats --stack-features base --site-lines 1000 \
  --stack-ensemble 8 --stack-distill \
  --threshold-objective f1 --stack-threshold-objective accuracy --stack-threshold-rows all \
  --recipe "training/finetune.sh (base: built-in recipe without the held-out sites)" \
  -o "$OUT/base.json" 2>"$OUT/base.log"
echo "site,pages_labelled,test_pages,base_f1,tuned_f1" >"$OUT/results.csv"
for site in $(cat "$OUT/sites.txt"); do
  for k in 1 2 3; do
    "$MAINLINE" train "$OUT/$site/train-$k.csv" --init "$OUT/base.json" \
      -o "$OUT/$site/tuned-$k.json" 2>"$OUT/$site/tune-$k.log"
    "$MAINLINE" eval --corpus "$OUT/$site/test" --method threshold \
      --model "$OUT/base.json" --model "$OUT/$site/tuned-$k.json" \
      --per-page "$OUT/$site/pages-$k.csv" >"$OUT/$site/eval-$k.txt" 2>&1
    python3 "$ROOT/training/finetune_split.py" --summarise "$OUT/$site/pages-$k.csv" \
      "$site" "$k" >>"$OUT/results.csv"
  done
done
python3 "$ROOT/training/finetune_split.py" --table "$OUT/results.csv"
