#!/usr/bin/env bash
# Runs the same DGX-1 allgather Pareto search twice and compares the written files byte for byte.
# usage: synth_determinism.sh CCFORGE OUTDIR
set -eu
ccforge=$1; out=$2
rm -rf "$out"; mkdir -p "$out"
"$ccforge" synth dgx1 allgather --pareto -o "$out/a" >/dev/null 2>&1
"$ccforge" synth dgx1 allgather --pareto -o "$out/b" >/dev/null 2>&1
n=$(ls "$out/a" | wc -l)
[ "$n" -ge 2 ] || { echo "expected at least 2 files, got $n"; exit 1; }
diff -r "$out/a" "$out/b" && echo "identical: $n files"
