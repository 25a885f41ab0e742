#!/usr/bin/env bash
# How near PyTorch DDP's own bucketing comes to the plan (docs/benchmarks.md, "The nearest DDP
# setting"): for each built-in model, preset and worker count, `ccforge plan --emit-pytorch` and
# its line on the nearest bucket_cap_mb. usage: bench/plan/ddp_nearest.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1 /proc/loadavg)"
echo
echo "| model | network | workers | plan: buckets, ms | nearest bucket_cap_mb | DDP there, ms | DDP 25 MB, ms |"
echo "|---|---|---:|---:|---:|---:|---:|"
for model in resnet50 vgg19 bert-base gpt2-small transformer; do
  for network in 10gbe ib56 nvlink; do
    for workers in 8 64; do
      report=$("$build/src/cli/ccforge" plan "$model" --network "$network" --workers "$workers" \
        --emit-pytorch "$out/plan.py")
      plan=$(sed -nE 's/^plan: ([0-9]+) buckets, iteration ([0-9.]+) ms.*/\1, \2/p' <<< "$report")
      sed -nE "s/^PyTorch: .*bucket_cap_mb=([0-9]+), predicts ([0-9.]+) ms \(([-+0-9.]+) % against the plan; the default 25: ([0-9.]+) ms\)/| $model | $network | $workers | $plan | \1 | \2 (\3 %) | \4 |/p" <<< "$report"
    done
  done
done
