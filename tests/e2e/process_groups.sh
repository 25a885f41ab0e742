#!/usr/bin/env bash
# usage: process_groups.sh CCFORGE DUMP
# Process groups on a 512-GPU machine: 64 copies of the HGX H100 box of DUMP on rails with a
# spine (docs/synth.md, "Process groups").
# - The data-parallel group (local rank 0 of every box, --group-size 64 --group-stride 8): each
#   GPU reaches the others only through its one 25 GB/s NIC, so allgather's algbw is at most
#   25 x 64/63 = 1600/63 GB/s. Allgather, reducescatter and allreduce are synthesized, written
#   (--all-windows: NCCL's own ring already runs at that bound), verified by `verify DIR`, and
#   simulated on the full machine at >= 90% of the bound.
# - The tensor-parallel group (the 8 GPUs of box 1, --ranks 8-15) sees exactly one H100 box: its
#   bounds equal the catalog's h100-1, and its allgather is synthesized and verified.
set -u
ccforge=$1 dump=$2
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$ccforge" topo import "$dump" --boxes 64 --fabric rail -q -o "$dir/h100x64.json" || fail "topo import"
machine=$dir/h100x64.json
dp=(--group-size 64 --group-stride 8)

"$ccforge" bounds "$machine" allgather "${dp[@]}" --format json > "$dir/dp-bounds.json" || fail "bounds of the DP group"
grep -q '"1600/63"' "$dir/dp-bounds.json" || { cat "$dir/dp-bounds.json"; fail "DP allgather bound is not 1600/63"; }

for c in allgather reducescatter allreduce; do
  "$ccforge" synth "$machine" $c "${dp[@]}" --all-windows -o "$dir/dp" > "$dir/dp-$c.txt" 2>&1 || { cat "$dir/dp-$c.txt"; fail "synth $c of the DP group"; }
  grep -q "process group of 64 ranks of .* (512 GPUs), in 64 boxes: machine ranks 0,8,16,.*,504$" "$dir/dp-$c.txt" || { cat "$dir/dp-$c.txt"; fail "$c: no group line"; }
  file=$dir/dp/hierarchical-$c-imported-r0s8n64.xml
  [ -f "$file" ] || { cat "$dir/dp-$c.txt"; fail "$c: $file not written"; }
  grep -q '<algo [^>]*ngpus="64"' "$file" || fail "$c: the file is not for 64 ranks"
  index=$dir/dp/report/h100x64-r0s8n64-$c.json
  grep -q '"machine_gpus": 512' "$index" || fail "$c: the index does not name the machine's size"
  grep -A3 '"ranks": \[' "$index" | tr -d ' \n' | grep -q '"ranks":\[0,8,16' || fail "$c: the index does not list the group's ranks"
  grep -q '"b63.gpu0"' "$index" || fail "$c: the index does not name the group's GPUs"
  "$ccforge" simulate "$file" "$machine" "${dp[@]}" --sizes 1G --format json > "$dir/dp-$c-sim.json" || fail "simulate $c on the full machine"
  bound=$(case $c in allreduce) echo 12.698;; *) echo 25.397;; esac)
  python3 - "$dir/dp-$c-sim.json" "$bound" <<'PY' || fail "$c: below 90% of the bound on the full machine"
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
algbw = rows[0]["algbw_GBps"]
print(f"algbw {algbw:.2f} GB/s, bound {sys.argv[2]}")
sys.exit(0 if algbw >= 0.9 * float(sys.argv[2]) else 1)
PY
done
"$ccforge" verify "$dir/dp" > "$dir/dp-verify.txt" 2>&1 || { cat "$dir/dp-verify.txt"; fail "verify DIR of the DP group"; }
grep -q "3 of 3 files verified" "$dir/dp-verify.txt" || { cat "$dir/dp-verify.txt"; fail "verify DIR did not see 3 files"; }
# A 64-rank file on a group of 8 is refused (exit 2: more ranks than GPUs).
"$ccforge" simulate "$dir/dp/hierarchical-allgather-imported-r0s8n64.xml" "$machine" --ranks 8-15 --sizes 1G > /dev/null 2>&1
[ $? -eq 2 ] || fail "a 64-rank file on a group of 8 was not refused with exit 2"

exact() { "$ccforge" bounds "$@" --format json | grep -E '^ *"(allgather|allreduce|reducescatter|alltoall)"|algbw_upper_bound_GBps_exact'; }
exact "$machine" --ranks 8-15 > "$dir/tp-bounds.txt" || fail "bounds of the TP group"
exact h100-1 > "$dir/h100-1-bounds.txt" || fail "bounds of h100-1"
diff "$dir/h100-1-bounds.txt" "$dir/tp-bounds.txt" || fail "the TP group's bounds differ from h100-1's (< h100-1, > group)"
"$ccforge" synth "$machine" allgather --ranks 8-15 --all-windows -o "$dir/tp" > "$dir/tp.txt" 2>&1 || { cat "$dir/tp.txt"; fail "synth allgather of the TP group"; }
grep -q "process group of 8 ranks of .* (512 GPUs), in 1 box: machine ranks 8,9,10,11,12,13,14,15$" "$dir/tp.txt" || { cat "$dir/tp.txt"; fail "TP: no group line"; }
"$ccforge" verify "$dir/tp" > "$dir/tp-verify.txt" 2>&1 || { cat "$dir/tp-verify.txt"; fail "verify DIR of the TP group"; }
tpfile=$(ls "$dir"/tp/*.xml | head -1)
[ -n "$tpfile" ] || fail "TP: no file written"
grep -q 'ngpus="8"' "$tpfile" || fail "TP: the file is not for 8 ranks"
"$ccforge" simulate "$tpfile" "$machine" --ranks 8-15 --sizes 1G > "$dir/tp-sim.txt" || fail "simulate the TP file on the full machine"
echo "process groups: DP 64 of 512 (3 collectives) and TP 8 of 512 synthesized, verified, simulated"
