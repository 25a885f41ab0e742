#!/usr/bin/env bash
# SMT schedules lowered by ccforge against SCCL's own lowering (issue 32, item 4). SCCL's solver
# (msccl-tools' `msccl solve pareto-optimal DGX1 COLLECTIVE`) finds the DGX-1 Pareto frontiers of
# allgather, reducescatter and alltoall; `msccl ncclize` (its defaults: channel policy
# MatchTopology, 1 instance) lowers each point to MSCCL-IR. ccforge solves the same (C,S,R) and
# lowers it as `ccforge synth` does (bench/synth/lower_instance: ccforge.xml) and with the
# compiler's own thread blocks and channels (compiler.xml: the layout before issue 32, with the
# reductions' partial sums kept as now).
# All three files are simulated by `ccforge simulate` on dgx1 (its default --arch, sm70) at 64 KiB
# and 1 GiB. SCCL counts alltoall chunks per pair of ranks, ccforge per rank buffer (8 x more).
# usage: bench/synth/ncclize.sh [BUILD_DIR] MSCCL_TOOLS_CHECKOUT
# (a clone of github.com/microsoft/msccl-tools; its Python needs z3, e.g. Debian's /usr/bin/python3)
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
tools=$(cd "${2:?usage: bench/synth/ncclize.sh [BUILD_DIR] MSCCL_TOOLS_CHECKOUT}" && pwd)
python=${PYTHON:-/usr/bin/python3}
ccforge=$build/src/cli/ccforge
lower=$build/bench/synth/lower_instance
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

algbw() {  # FILE SIZE: algbw in GB/s
  "$ccforge" simulate "$1" dgx1 --sizes "$2" --format json |
    sed -n 's/.*"algbw_GBps": \([0-9.eE+-]*\).*/\1/p' | head -n 1
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

echo "| collective | (C,S,R) ccforge / SCCL | SCCL solve (CPU) | 64 KiB: ncclize / ccforge / compiler's, GB/s | 1 GiB: ncclize / ccforge / compiler's, GB/s | ccforge / ncclize at 1 GiB |"
echo "|---|---|---|---|---|---|"
# SCCL's Pareto search of the alltoall does not end within an hour here (its (C=3, S=2, R=5)
# instance alone runs past 10 min), so its two points on ccforge's frontier are asked one by one:
# the bandwidth-optimal (24,2,8) and its power-of-two substitute (8,2,3).
solves=("Allgather pareto-optimal DGX1 Allgather"
  "ReduceScatter pareto-optimal DGX1 ReduceScatter"
  "Alltoall instance DGX1 Alltoall -s 2 -r 3 -c 1"
  "Alltoall instance DGX1 Alltoall -s 2 -r 8 -c 3")
for solve in "${solves[@]}"; do
  read -r sccl args <<< "$solve"
  out="$work/solve-$RANDOM"
  mkdir -p "$out"
  # shellcheck disable=SC2086 # $args: the solve's own arguments
  /usr/bin/time -o "$out.time" -f "%U %S" env PYTHONPATH="$tools" timeout 3600 \
    "$python" -m msccl solve $args -d "$out" > "$out.log" 2>&1
  cpu=$(awk '{ printf "%.0f s", $1 + $2 }' "$out.time")
  collective=$(tr '[:upper:]' '[:lower:]' <<< "$sccl")
  for json in "$out"/*.json; do
    PYTHONPATH="$tools" "$python" -m msccl ncclize "$json" -o "$work/ncclize.xml" -f > /dev/null
    steps=$(sed -n 's/.*steps\([0-9]*\).*/\1/p' <<< "$json")
    rounds=$(sed -n 's/.*rounds\([0-9]*\).*/\1/p' <<< "$json")
    chunks=$(sed -n 's/.*chunks\([0-9]*\).*/\1/p' <<< "$json")
    chunks=${chunks:-1}
    c=$chunks
    [ "$sccl" = Alltoall ] && c=$((chunks * 8))
    point="$work/$collective-$c-$steps-$rounds"
    mkdir -p "$point"
    "$lower" dgx1 "$collective" "$c" "$steps" "$rounds" "$point"
    small=() large=()
    for f in "$work/ncclize.xml" "$point/ccforge.xml" "$point/compiler.xml"; do
      small+=("$(algbw "$f" 64KiB)")
      large+=("$(algbw "$f" 1GiB)")
    done
    printf '| %s | (%s,%s,%s) / (%s,%s,%s) | %s | %.2f / %.2f / %.2f | %.2f / %.2f / %.2f | %s |\n' "$collective" "$c" \
      "$steps" "$rounds" "$chunks" "$steps" "$rounds" "$cpu" "${small[@]}" "${large[@]}" \
      "$(ratio "${large[1]}" "${large[0]}")"
  done
done
