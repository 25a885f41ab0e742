#!/usr/bin/env bash
# Compile-time benchmark (docs/benchmarks.md, "Compiler"). Runs every case REPEAT times (default
# 3), each in its own process, and prints the run with the lowest CPU time, plus the end-to-end
# `ccforge compile -o FILE --no-verify` time of the headline cases.
# usage: bench/compile/run.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
repeat=${REPEAT:-3}
bench=$build/bench/compile/compile_bench
ccforge=$build/src/cli/ccforge
cases=(
  "two-step-alltoall nodes=8 gpus=8"
  "two-step-alltoall nodes=16 gpus=8"
  "two-step-alltoall nodes=32 gpus=8"
  "two-step-alltoall nodes=64 gpus=8"
  "ring-allreduce ranks=64 channels=8 instances=4"
  "allpairs-allreduce ranks=16"
)
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1 /proc/loadavg)"
for c in "${cases[@]}"; do
  best=""
  for _ in $(seq "$repeat"); do
    line=$($bench $c)
    cpu=$(sed -E 's/.* ([0-9.]+) s CPU.*/\1/' <<<"$line")
    if [ -z "$best" ] || awk -v a="$cpu" -v b="$bestcpu" 'BEGIN { exit !(a < b) }'; then best=$line; bestcpu=$cpu; fi
  done
  echo "$c: $best"
done
out=$(mktemp -d)
for c in "two-step-alltoall nodes=64 gpus=8" "ring-allreduce ranks=64 channels=8 instances=4"; do
  for _ in $(seq "$repeat"); do
    /usr/bin/time -f "ccforge compile $c -o FILE --no-verify: %e s wall, %U s user + %S s sys, peak %M KB" \
      $ccforge compile $c -o "$out/x.xml" --no-verify 2>&1 | tail -n 1
  done
done
rm -rf "$out"
