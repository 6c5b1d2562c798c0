#!/usr/bin/env bash
# WARC throughput: mainline on the benchmark WARC with -j 1 and -j 2, the same pages as
# separate files, and resiliparse + FastWARC on the same WARC, each ROUNDS times in turn.
#
#   python3 scripts/build-bench-warc.py ../shared/data/wcxb-dev/html   # target/bench/wcxb-dev.warc.gz
#   cargo build --release
#   scripts/bench-warc.sh [PAGES_DIR] [ROUNDS]
#
# Prints one line per run: wall seconds, user + system CPU seconds, peak RSS (kB), and
# MB/s of the compressed WARC and of the HTML it holds, by wall clock and per CPU second.
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${1:-../shared/data/wcxb-dev/html}
rounds=${2:-3}
warc=target/bench/wcxb-dev.warc.gz
bin=target/release/mainline
compressed=$(stat -c %s "$warc")
html=381541479 # bytes of HTML in the 1,296 pages (build-bench-warc.py prints it)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run() {
  local name=$1; shift
  /usr/bin/time -f "%e %U %S %M" -o "$out/time" "$@" > "$out/$name.out" 2> "$out/err" || {
    cat "$out/err" >&2; return 1; }
  read -r wall user sys rss < "$out/time"
  awk -v n="$name" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" -v c="$compressed" -v h="$html" \
    'BEGIN { cpu = u + s; printf "%-22s %6.2f s wall %6.2f s cpu %8d kB  %6.1f / %6.1f MB/s compressed  %6.1f / %6.1f MB/s html (wall / per cpu s)\n",
      n, w, cpu, r, c / w / 1e6, c / cpu / 1e6, h / w / 1e6, h / cpu / 1e6 }'
}

for round in $(seq "$rounds"); do
  run warc-j1 "$bin" filter -q -j 1 "$warc"
  run warc-j2 "$bin" filter -q -j 2 "$warc"
  cmp -s "$out/warc-j1.out" "$out/warc-j2.out" || echo "warning: -j 1 and -j 2 differ" >&2
  run files-j1 "$bin" filter -q -j 1 -r "$pages"
  run files-j2 "$bin" filter -q -j 2 -r "$pages"
  run resiliparse python3 scripts/resiliparse-warc.py "$warc"
done
