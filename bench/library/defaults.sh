#!/usr/bin/env bash
# Library defaults against msccl-tools' (issue 32, item 6): each library algorithm that msccl-tools
# has as an example script, compiled by `ccforge compile NAME SHAPE` with every other parameter
# at its default, and msccl-tools' script run with its smallest settings (1 channel, 1 instance)
# and its default protocol and schedule; both simulated by `ccforge simulate` at 1 GiB on the
# machines the shape fits. The hierarchical allreduce also with the library's former default
# (channels=1 instances=1), measured in the same run. msccl-tools' scripts have no defaults of
# their own: the settings given are the ones their README and our fixtures use.
# usage: bench/library/defaults.sh [BUILD_DIR] MSCCL_TOOLS_CHECKOUT
# (a clone of github.com/microsoft/msccl-tools; its Python needs z3, e.g. Debian's /usr/bin/python3)
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
tools=$(cd "${2:?usage: bench/library/defaults.sh [BUILD_DIR] MSCCL_TOOLS_CHECKOUT}" && pwd)
python=${PYTHON:-/usr/bin/python3}
ccforge=$build/src/cli/ccforge
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

algbw() {  # FILE TOPOLOGY: algbw in GB/s at 1 GiB, or what stopped the simulation
  local json
  if json=$("$ccforge" simulate "$1" "$2" --sizes 1GB --format json 2> "$work/simulate.log"); then
    printf '%.2f' "$(sed -n 's/.*"algbw_GBps": \([0-9.eE+-]*\).*/\1/p' <<< "$json" | head -n 1)"
  else
    grep -q deadlock "$work/simulate.log" && echo "deadlocks" || echo "fails (exit $?)"
  fi
}
compile() {  # OUT NAME SETTINGS...
  local out=$1
  shift
  "$ccforge" compile "$@" -o "$out" > /dev/null 2> "$work/compile.log" || { cat "$work/compile.log" >&2; exit 1; }
}
theirs() {  # OUT SCRIPT ARGS...: msccl-tools' XML for the script
  local out=$1 script=$2
  shift 2
  (cd "$tools/examples/mscclang" && PYTHONPATH=$tools "$python" "$script" "$@") > "$out"
}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1 /proc/loadavg); msccl-tools $(git -C "$tools" rev-parse --short HEAD 2>/dev/null || echo '?')"
echo
echo "| algorithm (ccforge) | msccl-tools script | machine | ccforge default GB/s | msccl-tools GB/s | ratio | former default (channels=1 instances=1) GB/s |"
echo "|---|---|---|---:|---:|---:|---:|"
row() {  # TOPOLOGY NAME "SETTINGS" SCRIPT "ARGS" [FORMER_SETTINGS]
  local topo=$1 name=$2 settings=$3 script=$4 args=$5 former=${6:-}
  local ours=$work/ours.xml mt=$work/theirs.xml
  # shellcheck disable=SC2086
  compile "$ours" "$name" $settings
  # shellcheck disable=SC2086
  theirs "$mt" "$script" $args
  local a b old=-
  a=$(algbw "$ours" "$topo")
  b=$(algbw "$mt" "$topo")
  if [ -n "$former" ]; then
    # shellcheck disable=SC2086
    compile "$work/former.xml" "$name" $settings $former
    old=$(algbw "$work/former.xml" "$topo")
  fi
  local ratio=-
  [[ $a =~ ^[0-9.]+$ && $b =~ ^[0-9.]+$ ]] && ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')
  echo "| $name $settings | $script $args | $topo | $a | $b | $ratio | $old |"
}
former="channels=1 instances=1"
for topo in a100-2 h100-2 ndv2-2 mi250-2; do
  row $topo hierarchical-allreduce "nodes=2 gpus=8" hierarchical_allreduce.py "8 2 1" "$former"
done
for topo in a100-4 ndv2-4; do
  row $topo hierarchical-allreduce "nodes=4 gpus=8" hierarchical_allreduce.py "8 4 1" "$former"
done
row a100-2 two-step-alltoall "nodes=2 gpus=8" alltoall_a100_two_step.py "2 8"
for topo in a100-1 h100-1; do
  row $topo ring-allreduce "ranks=8" allreduce_a100_ring.py "8 1 1"
  row $topo allpairs-allreduce "ranks=8" allreduce_a100_allpairs.py "8 1"
  row $topo recursive-halving-doubling-allreduce "ranks=8" allreduce_recursive_doubling_halving.py "8 1"
  row $topo ring-allgather "ranks=8" allgather_ring.py "8 1 1"
  row $topo allpairs-allgather "ranks=8" allgather_allpairs.py "8 1"
  row $topo recursive-doubling-allgather "ranks=8" allgather_recursive_doubling.py "8 1"
  row $topo allpairs-alltoall "ranks=8" alltoall_allpairs.py "8 1"
done
