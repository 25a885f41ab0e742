#!/usr/bin/env bash
# Whether the compiler's cost per emitted step grows less than 2x from 128 to 1,024 ranks (issue
# 31; exit 1 when it does not); run by CTest alone (RUN_SERIAL, tests/e2e/dsl.cmake). It times
# `ccforge compile ring-allreduce` with the channels its step limit needs, verification included:
# CPU time (user + system) per <step> element. Each size's best run is kept (three at 128 ranks,
# two at 1,024), so that a busy moment makes neither side look cheap or dear.
# usage: bench/compile/step_cost_growth.sh CCFORGE
set -euo pipefail
ccforge=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cpu() {  # RANKS CHANNELS -> CPU seconds; leaves the file in $out/x.xml
  /usr/bin/time -f "%U %S" -o "$out/time" "$ccforge" compile ring-allreduce ranks="$1" channels="$2" -o "$out/x.xml" > /dev/null
  awk '{ printf "%.3f", $1 + $2 }' "$out/time"
}
best() {  # RANKS CHANNELS RUNS -> the least CPU seconds of RUNS runs; leaves the file in $out/x.xml
  local least="" t
  for _ in $(seq "$3"); do
    t=$(cpu "$1" "$2")
    if [ -z "$least" ] || awk -v a="$t" -v b="$least" 'BEGIN { exit !(a < b) }'; then least=$t; fi
  done
  echo "$least"
}
small=$(best 128 4 3)
small_steps=$(grep -c "<step " "$out/x.xml")
large=$(best 1024 32 2)
large_steps=$(grep -c "<step " "$out/x.xml")
awk -v s="$small" -v ss="$small_steps" -v l="$large" -v ls="$large_steps" 'BEGIN {
  small = s / ss; big = l / ls; ratio = big / small
  printf "128 ranks: %d steps in %.3f s (%.2f us/step); 1024 ranks: %d steps in %.3f s (%.2f us/step); growth %.2fx (limit 2x)\n",
    ss, s, 1e6 * small, ls, l, 1e6 * big, ratio
  exit ratio > 2 }'
