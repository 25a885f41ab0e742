#!/usr/bin/env bash
# usage: library_defaults.sh CCFORGE FIXTURE_DIR
# The library's hierarchical allreduce at its defaults against msccl-tools' hierarchical_allreduce.py
# 8 2 1 (FIXTURE_DIR/msccl_tools_hierarchical_allreduce_8x2_i1_auto.xml): both simulated at 1 GiB on
# a100-2 and h100-2; fails unless ccforge's algbw is at least 0.9 x msccl-tools' (issue 32, item 6;
# the former default, channels=1 instances=1, reached 0.06 and 0.05).
set -u
ccforge=$1 fixtures=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
theirs=$fixtures/msccl_tools_hierarchical_allreduce_8x2_i1_auto.xml
"$ccforge" compile hierarchical-allreduce nodes=2 gpus=8 -o "$dir/ours.xml" || { echo "compile failed"; exit 1; }
algbw() {
  "$ccforge" simulate "$1" "$2" --sizes 1GB --format json | sed -n 's/.*"algbw_GBps": \([0-9.eE+-]*\).*/\1/p' | head -n 1
}
status=0
for topo in a100-2 h100-2; do
  ours=$(algbw "$dir/ours.xml" "$topo")
  mt=$(algbw "$theirs" "$topo")
  if [ -z "$ours" ] || [ -z "$mt" ]; then echo "$topo: a simulation failed (ccforge '$ours', msccl-tools '$mt')"; exit 1; fi
  verdict=$(awk -v a="$ours" -v b="$mt" 'BEGIN { r = a / b; printf "%.3f %s", r, (r >= 0.9 ? "ok" : "BELOW") }')
  echo "$topo: ccforge default $ours GB/s, msccl-tools $mt GB/s, ratio $verdict"
  case "$verdict" in *BELOW) status=1 ;; esac
done
exit $status
