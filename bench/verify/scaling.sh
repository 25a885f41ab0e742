#!/usr/bin/env bash
# verify's time and memory against the number of ranks and of thread blocks (docs/benchmarks.md,
# "verify at scale"): the files of bench/verify/scaling_inputs.py, each verified once under
# /usr/bin/time. CPU seconds (user + sys) and peak memory.
# usage: bench/verify/scaling.sh [BUILD_DIR]   (default build)
set -euo pipefail
cd "$(dirname "$0")/../.."
ccforge=${1:-build}/src/cli/ccforge
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| input | size | exit | CPU s | peak MiB |"
echo "|---|---:|---:|---:|---:|"
run() {
  local kind=$1 size=$2; shift 2
  python3 bench/verify/scaling_inputs.py "$kind" "$size" >"$work/f.xml"
  local code=0
  /usr/bin/time -f "%U %S %M" -o "$work/t" "$ccforge" verify "$@" "$work/f.xml" >/dev/null 2>&1 || code=$?
  read -r user sys kib < <(tail -n 1 "$work/t")
  printf '| %s | %s | %s | %.2f | %d |\n' "$kind" "$size" "$code" "$(python3 -c "print($user + $sys)")" $((kib / 1024))
}
for n in 1000 10000 100000; do run chain $n --collective alltonext --profile msccl-legacy; done
for n in 1000 4000 10000 100000; do run nops $n; done
for n in 500 1000 2000 4000; do run scatter $n; done
