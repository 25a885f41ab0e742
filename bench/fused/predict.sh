#!/usr/bin/env bash
# Predicted time of fused computation + collective programs against their bulk-synchronous
# baseline (docs/fused.md, docs/benchmarks.md "Fused operators (issue 14)"): compiles each program
# with `ccforge compile` and times it with `ccforge simulate` (roofline compute steps, alpha-beta
# network) on the catalog machines. Usage: bench/fused/predict.sh [path/to/ccforge] > table.md
set -euo pipefail
CCFORGE=${1:-build/src/cli/ccforge}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# time_us TOPOLOGY BYTES NAME key=value...: "time,skew" of one program in simulated microseconds
# (skew: the latest minus the earliest time a rank finished).
time_us() {
  local topo=$1 bytes=$2 name=$3
  shift 3
  "$CCFORGE" compile "$name" "$@" --no-verify -o "$TMP/p.xml" 2>/dev/null
  local arch=none  # NCCL's per-channel caps are NVIDIA's; none on MI250
  case $topo in a100*) arch=sm80 ;; h100*) arch=sm90 ;; esac
  "$CCFORGE" simulate "$TMP/p.xml" "$topo" --sizes "$bytes" --arch "$arch" --format json |
    python3 -c 'import json,sys; r = json.load(sys.stdin)["results"][0]; print("%.1f,%.1f" % (r["time_us"], r["rank_skew_us"]))'
}

# row TOPOLOGY RANKS BYTES LABEL NAME key=value...
row() {
  local topo=$1 ranks=$2 bytes=$3 label=$4 name=$5
  shift 5
  local bulk fused remote
  bulk=$(time_us "$topo" "$bytes" "$name" ranks="$ranks" bulk=1 "$@")
  fused=$(time_us "$topo" "$bytes" "$name" ranks="$ranks" order=0 "$@")
  remote=$(time_us "$topo" "$bytes" "$name" ranks="$ranks" order=1 "$@")
  python3 -c "
(b, bs), (f, fs), (r, rs) = ($bulk), ($fused), ($remote)
print('| $(basename "$topo" .json) | $ranks | $label | %.1f | %.1f | %.1f | %.1f%% | %.1f%% | %.1f | %.1f |' % (b, f, r, 100 * (b - f) / b, 100 * (b - r) / b, fs, rs))"
}

echo "| machine | ranks | operator and shape | bulk-sync (us) | fused natural (us) | fused remote-first (us) | gain natural | gain remote-first | skew natural (us) | skew remote-first (us) |"
echo "|---|---|---|---|---|---|---|---|---|---|"
HERE=$(cd "$(dirname "$0")" && pwd)
# Rank r runs on GPU r: on mi250-1 the 4 and 8 ranks take its first 4 and 8 of 16 GCDs, and the
# xGMI fabric relays between GCDs without a direct link (gpu_relay, docs/topologies.md).
for topo_ranks in "mi250-1 4" "mi250-1 8" "a100-1 8" "h100-1 8"; do
  set -- $topo_ranks
  topo=$1 ranks=$2
  chunks=4
  for mk in 4096 8192 16384 32768 65536; do  # row-parallel GEMV: W_r is M x K/R
    row "$topo" "$ranks" $((mk * 4)) "GEMV+AR M=K=$mk" gemv-allreduce m=$mk k=$((mk / ranks)) chunks=$chunks
  done
  for batch in 2048 8192 32768; do  # DLRM: dim 256, pooling 64, the global batch split over ranks
    row "$topo" "$ranks" $((batch * 256 * 4)) "Emb+A2A B=$batch D=256 L=64" embedding-alltoall batch=$batch dim=256 \
      pooling=64 table=100000 chunks=$chunks
  done
  # MoE expert (Mixtral-like): 4096 routed tokens x ffn 14336 -> hidden 4096, back to the tokens' ranks
  row "$topo" "$ranks" $((4096 * 4096 * 4)) "GEMM+A2A T=4096 F=14336 H=4096" gemm-alltoall tokens=4096 hidden=14336 \
    ffn=4096 chunks=$chunks
done
# Scale-out: DLRM embedding + All-to-All over 16 and 32 single-GCD nodes behind one IB switch.
for topo_ranks in "$HERE/scaleout-16.json 16" "$HERE/scaleout-32.json 32"; do
  set -- $topo_ranks
  for batch in 8192 32768; do
    row "$1" "$2" $((batch * 256 * 4)) "Emb+A2A B=$batch D=256 L=64" embedding-alltoall batch=$batch dim=256 \
      pooling=64 table=100000 chunks=2
  done
done
# The paper's 128-node DLRM case: one slice per destination, 128 compute steps split over two
# compute thread blocks (the executor stores 64 steps per thread block).
for batch in 8192 32768; do
  row "$HERE/scaleout-128.json" 128 $((batch * 256 * 4)) "Emb+A2A B=$batch D=256 L=64" embedding-alltoall batch=$batch \
    dim=256 pooling=64 table=100000 chunks=1 computetbs=2
done
