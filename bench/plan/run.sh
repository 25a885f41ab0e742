#!/usr/bin/env bash
# Training-step planning benchmark (docs/benchmarks.md, "Training-step planning (issue 15)").
# usage: bench/plan/run.sh [BUILD_DIR]   (BUILD_DIR configured with -DCCFORGE_BENCH=ON)
set -euo pipefail
build=${1:-build}
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1 /proc/loadavg)"
echo
"$build/bench/plan/plan_bench" quality quality-simulated algorithms fusion speed
