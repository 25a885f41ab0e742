#!/usr/bin/env bash
# Runs the same DGX-1 allgather Pareto search twice and compares the written files byte for byte.
# usage: synth_determinism.sh CCFORGE OUTDIR
set -eu
ccforge=$1; out=$2
rm -rf "$out"; mkdir -p "$out"
"$ccforge" synth dgx1 allgather --pareto -o "$out/a" >/dev/null 2>&1
"$ccforge" synth dgx1 allgather --pareto -o "$out/b" >/dev/null 2>&1
n=$(ls "$out/a" | wc -l)
# The frontier is (2,2,3) and (6,3,7); only (2,2,3) is written (nchunksperloop 16; the other's 48
# divides no power-of-two count, docs/synth.md "Output directories").
[ "$n" -ge 1 ] || { echo "expected at least 1 file, got $n"; exit 1; }
diff -r "$out/a" "$out/b" && echo "identical: $n files"
