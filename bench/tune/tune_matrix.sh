#!/usr/bin/env bash
# The 4 x 4 matrix of issue 12: `ccforge tune` on dgx1, a100-2, h100-2 and mi250-2 for
# allreduce, allgather, reducescatter and alltoall (library and tree synthesis), then
# `ccforge verify DIR`. Prints one Markdown row per machine for docs/benchmarks.md.
# usage: bench/tune/tune_matrix.sh CCFORGE OUTDIR [extra tune options]
set -u
ccforge=${1:?usage: tune_matrix.sh CCFORGE OUTDIR}
out=${2:?usage: tune_matrix.sh CCFORGE OUTDIR}
shift 2
echo "| machine | tune wall s | tune CPU s | exit | files | verify DIR | calls checked | ambiguous | windows (allreduce / allgather / reducescatter / alltoall) | legacy: calls in windows served, misrouted |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for m in dgx1 a100-2 h100-2 mi250-2; do
  dir=$out/$m
  rm -rf "$dir"
  start=$(date +%s.%N)
  log=$(/usr/bin/time -f "cpu %U %S" "$ccforge" tune "$m" allreduce allgather reducescatter alltoall -o "$dir" "$@" 2>&1)
  rc=$?
  cpu=$(grep -oE '^cpu [0-9.]+ [0-9.]+' <<<"$log" | awk '{print $2 + $3}')
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  "$ccforge" verify "$dir" >/dev/null 2>&1
  vrc=$?
  files=$(find "$dir" -maxdepth 1 -name '*.xml' | wc -l)
  checked=$(grep -oE '[0-9]+ power-of-two calls of 1 KiB' <<<"$log" | grep -oE '^[0-9]+')
  ambiguous=$(grep -oE '[0-9]+ accepted by more than one file' <<<"$log" | grep -oE '^[0-9]+')
  windows=""
  for c in allreduce allgather reducescatter alltoall; do
    n=$(find "$dir" -maxdepth 1 -name "$c-*.xml" | wc -l)
    windows+="${windows:+ / }$n"
  done
  legacy=$(grep '^legacy MSCCL_CONFIG' <<<"$log" |
    sed -E 's/.* gives ([0-9]+) of the ([0-9]+) .*, ([0-9]+) to another file$/\1 \2 \3/' |
    awk '{s += $1; w += $2; m += $3} END {printf "%d of %d, %d", s, w, m}')
  printf '| %s | %.1f | %.1f | %s | %s | exit %s | %s | %s | %s | %s |\n' "$m" "$secs" "$cpu" "$rc" "$files" "$vrc" "$checked" \
    "$ambiguous" "$windows" "$legacy"
  cp "$dir/report/report.md" "$out/$m-report.md" 2>/dev/null
done
