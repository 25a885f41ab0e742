#!/usr/bin/env bash
# Times `ccforge bounds TOPOLOGY` (all seven collectives) per catalog topology and per family
# of 32 GPUs, and `ccforge simulate` on the msccl-tools fixtures (21 sizes, 1 KiB..1 GiB).
# Prints the markdown tables recorded in docs/benchmarks.md (## Bounds, ## Simulator).
# usage: bench/bounds/run.sh [BUILD_DIR] [RUNS]   (median wall time of RUNS runs, default 5)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
runs=${2:-5}
ccforge=$build/src/cli/ccforge
[ -x "$ccforge" ] || { echo "no ccforge binary at $ccforge; build first" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# "WALL ms / CPU ms": medians over $runs runs of "$@" (output discarded). CPU time (user +
# system) is the figure to compare across runs: wall time moves with the machine's load.
median_ms() {
  local walls=() cpus=() line
  for _ in $(seq "$runs"); do
    /usr/bin/time -o "$work/time" -f "%e %U %S" "$@" > /dev/null 2>&1
    line=$(cat "$work/time")
    walls+=("$(awk '{ printf "%d", $1 * 1000 }' <<< "$line")")
    cpus+=("$(awk '{ printf "%d", ($2 + $3) * 1000 }' <<< "$line")")
  done
  local mid
  mid() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
  echo "$(mid "${walls[@]}") ms / $(mid "${cpus[@]}") ms"
}

field() {  # field COLLECTIVE TEXT: "rounds/chunk algbw" of a bounds text row
  awk -v c="$1" '$1 == c { print $(NF-2), $(NF-1) }' <<< "$2"
}

family() {  # family NAME KIND SHAPE_JSON
  printf '{"name": "%s", "family": {"kind": "%s", %s, "bw": 1}}\n' "$1" "$2" "$3" > "$work/$1.json"
  echo "$work/$1.json"
}

# An irregular 32-GPU graph without symmetry (a random spanning tree plus random links, bandwidths
# 1..7, from a fixed Park-Miller sequence): the alltoall LP's worst case here.
irregular() {
  awk 'BEGIN {
    s = 12345; n = 32
    printf "{\"name\": \"irregular32\", \"vertices\": ["
    for (i = 0; i < n; i++) printf "%s{\"name\": \"g%d\"}", (i ? ", " : ""), i
    printf "], \"links\": ["
    count = 0
    for (i = 1; i < n; i++) { s = (s * 16807) % 2147483647; a = s % i; link(a, i) }
    while (count < 80) { s = (s * 16807) % 2147483647; a = s % n; s = (s * 16807) % 2147483647; b = s % n
      if (a != b && !((a, b) in seen) && !((b, a) in seen)) link(a, b) }
    print "]}"
  }
  function link(a, b) { seen[a, b] = 1; s = (s * 16807) % 2147483647
    printf "%s{\"from\": \"g%d\", \"to\": \"g%d\", \"bw\": %d}", (count++ ? ", " : ""), a, b, 1 + s % 7 }' > "$work/irregular32.json"
  echo "$work/irregular32.json"
}

echo "| topology | GPUs | wall / CPU time (medians of $runs) | allgather rounds, algbw GB/s | alltoall rounds, algbw GB/s |"
echo "|---|---|---|---|---|"
targets=(dgx1 ndv2-1 ndv2-2 ndv2-4 dgx2-1 dgx2-2 a100-1 a100-2 a100-4 a100-8 h100-1 h100-2 mi250-1 mi250-2 amd-z52)
targets+=("$(family ring32 ring '"n": 32')" "$(family torus8x4 torus '"dims": [8, 4]')"
          "$(family hypercube5 hypercube '"dimension": 5')" "$(family full32 fully_connected '"n": 32')"
          "$(family line32 line '"n": 32')" "$(irregular)")
for t in "${targets[@]}"; do
  text=$("$ccforge" bounds "$t")
  gpus=$(head -1 <<< "$text" | sed -E 's/.*: ([0-9]+) GPUs.*/\1/')
  ms=$(median_ms "$ccforge" bounds "$t")
  echo "| $(basename "$t" .json) | $gpus | $ms | $(field allgather "$text") | $(field alltoall "$text") |"
done

echo
echo "| program | topology | wall / CPU time, 21 sizes (medians of $runs) | algbw at 1 GiB, GB/s |"
echo "|---|---|---|---|"
fixtures=$root/tests/fixtures/msccl-tools/valid
for pair in sccl_allgather_dgx1_pareto_s2_r3_c2:dgx1 allgather_ring_simple_oop_n4:dgx1 \
            allreduce_ring_a100_n4_ch1_i1_LL128:a100-1 azure_allreduce_ring_a100_n8_ch4_i1_LL128:a100-1 \
            alltoall_two_step_2nodes_x4gpus:dgx1 allreduce_hierarchical_2nodes_x3gpus_i1_auto:a100-1; do
  program=${pair%%:*} topology=${pair#*:}
  ms=$(median_ms "$ccforge" simulate "$fixtures/$program.xml" "$topology")
  algbw=$("$ccforge" simulate "$fixtures/$program.xml" "$topology" --sizes 1GB | awk '$1 == "1" && $2 == "GiB" { print $4 }')
  echo "| $program | $topology | $ms | $algbw |"
done
