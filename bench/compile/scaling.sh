#!/usr/bin/env bash
# Compiler at cluster scale (docs/benchmarks.md, "Compiler at scale", issue 31): the CPU time and
# peak memory of `ccforge compile ... -o FILE` (verification included) from 128 to 1,024 ranks, for
# library algorithms and for msccl-tools' ring and hierarchical scripts through the Python front
# end, and, given a checkout of github.com/microsoft/msccl-tools, msccl-tools itself on the sizes
# it finishes in 10 minutes.
# usage: bench/compile/scaling.sh [BUILD_DIR] [MSCCL_TOOLS_CHECKOUT]
set -uo pipefail
build=$(cd "${1:-build}" && pwd)
tools=${2:-}
ccforge=$build/src/cli/ccforge
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1 /proc/loadavg)"
echo "| program | ranks | steps | CPU (user+sys) | peak memory | exit |"
echo "|---|---:|---:|---:|---:|---:|"
measure() {  # LABEL RANKS DIR COMMAND...
  local label=$1 ranks=$2 dir=$3
  shift 3
  (cd "$dir" && timeout 600 /usr/bin/time -f "%U %S %M" "$@" > "$out/stdout" 2> "$out/stderr")
  local rc=$?
  read -r user sys kb < <(tail -n 1 "$out/stderr")
  local steps=-
  [ -f "$out/x.xml" ] && steps=$(grep -c "<step " "$out/x.xml")
  echo "| $label | $ranks | $steps | $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f s", u + s }') | $((kb / 1024)) MB | $rc |"
  rm -f "$out/x.xml"
}
here=$(pwd)
for r in 128 256 512 1024; do
  measure "ring-allreduce channels=$((r / 32))" $r "$here" "$ccforge" compile ring-allreduce ranks=$r channels=$((r / 32)) -o "$out/x.xml"
done
for n in 16 32 64 128; do
  measure "hierarchical-allreduce gpus=8 nodes=$n" $((n * 8)) "$here" "$ccforge" compile hierarchical-allreduce nodes=$n gpus=8 -o "$out/x.xml"
done
# The other library algorithms at 1,024 ranks, with the channels their step limit needs; the
# all-pairs algorithms and the two-step alltoall need more resident thread blocks per rank than
# the executor has there and are refused up front (exit 1).
for spec in "ring-allgather ranks=1024 channels=32" "ring-reducescatter ranks=1024 channels=32" \
  "recursive-halving-doubling-allreduce ranks=1024" "recursive-doubling-allgather ranks=1024" \
  "allpairs-allreduce ranks=1024" "allpairs-allgather ranks=1024" "allpairs-alltoall ranks=1024" \
  "two-step-alltoall nodes=128 gpus=8" "three-step-alltoall nodes=128 gpus=8" "alltonext nodes=128 gpus=8" \
  "binomial-broadcast ranks=1024" "binomial-reduce ranks=1024"; do
  # shellcheck disable=SC2086
  measure "$spec" 1024 "$here" "$ccforge" compile $spec -o "$out/x.xml"
done
for n in 16 32 64; do
  measure "two-step-alltoall gpus=8 nodes=$n" $((n * 8)) "$here" "$ccforge" compile two-step-alltoall nodes=$n gpus=8 -o "$out/x.xml"
done
if [ -n "$tools" ]; then
  examples=$(cd "$tools" && pwd)/examples/mscclang
  for r in 128 256 512 1024; do
    measure "msccl-tools' allreduce_a100_ring.py through ccforge (channels $((r / 32)))" $r "$examples" \
      "$ccforge" compile allreduce_a100_ring.py $r $((r / 32)) 1 -o "$out/x.xml"
  done
  for n in 16 32 64 128; do
    measure "msccl-tools' hierarchical_allreduce.py through ccforge (8 x $n)" $((n * 8)) "$examples" \
      "$ccforge" compile hierarchical_allreduce.py 8 $n 1 -o "$out/x.xml"
  done
  for r in 64 128; do
    measure "msccl-tools itself: allreduce_a100_ring.py (channels $((r / 32)))" $r "$examples" \
      env PYTHONPATH="$(cd "$tools" && pwd)" /usr/bin/python3 allreduce_a100_ring.py $r $((r / 32)) 1
  done
  for n in 8 16; do
    measure "msccl-tools itself: hierarchical_allreduce.py (8 x $n)" $((n * 8)) "$examples" \
      env PYTHONPATH="$(cd "$tools" && pwd)" /usr/bin/python3 hierarchical_allreduce.py 8 $n 1
  done
fi
