#!/usr/bin/env bash
# usage: nccl_tests_table.sh EXIT SIZES SKIPPED NA_COLUMNS RANKS_PER_COUNT -- COMMAND...
# Runs COMMAND (a `ccforge run|simulate -b/-e/-f` sweep), expects exit code EXIT, and parses its
# nccl-tests table the way a script reading nccl-tests output would: every data row has size,
# count, type, redop, root and then either "skipped: reason" or 8 cells (time, algbw, busbw,
# #wrong for out-of-place, then in-place), numbers or N/A. Checks that the size column is exactly
# SIZES (comma list), that count = size / 4 / RANKS_PER_COUNT (float; the ranks for collectives whose
# count is per rank, as nccl-tests prints an allgather's count, else 1), that SKIPPED rows are skipped, that the
# columns NA_COLUMNS ("none", "in-place" or "out-of-place") are N/A in every measured row, that
# algbw = size / time, and that "# Avg bus bandwidth" is the mean of the busbw cells.
set -u
want=$1 sizes=$2 skipped=$3 na=$4 per=$5; shift 6
out=$("$@" 2>&1); got=$?
command="$*"
fail() { echo "$1"; echo "--- command: $command"; printf '%s\n' "$out" | head -c 20000; exit 1; }
[ "$got" = "$want" ] || fail "exit code: want $want, got $got"
printf '%s\n' "$out" | awk -v sizes="$sizes" -v skipped="$skipped" -v na="$na" -v per="$per" '
  function num(x) { return x ~ /^[0-9]+(\.[0-9]+)?$/ }
  /^#/ {
    if ($0 ~ /^# Avg bus bandwidth *: /) { avgline = $NF; sawavg = 1 }
    if ($0 ~ /^# +size +count +type +redop +root +time +algbw +busbw +#wrong +time +algbw +busbw +#wrong *$/) header = 1
    next
  }
  NF == 0 { next }
  {
    rows++
    got = got (got == "" ? "" : ",") $1
    if ($2 != int($1 / 4 / per)) { print "row " $1 ": count " $2 " is not size/4/" per; bad = 1 }
    if ($3 != "float" || $5 !~ /^-?[0-9]+$/) { print "row " $1 ": bad type or root"; bad = 1 }
    if ($6 == "skipped:") { nskip++; next }
    if (NF != 13) { print "row " $1 ": " NF " fields, want 13"; bad = 1; next }
    for (f = 6; f <= 13; f++) if (!num($f) && $f != "N/A" && $f != "-") { print "row " $1 ": field " f " is " $f; bad = 1 }
    oop = ($6 != "N/A"); ip = ($10 != "N/A")
    if ((na == "in-place" && ip) || (na == "out-of-place" && oop) || (na == "none" && (!oop || !ip))) {
      print "row " $1 ": N/A columns are not " na; bad = 1
    }
    for (c = 6; c <= 10; c += 4) if (num($c) && $c > 0) {
      algbw = $1 / ($c * 1000)   # GB/s = bytes / (us * 1e3)
      if (algbw - $(c + 1) > 0.0051 + 0.002 * algbw || $(c + 1) - algbw > 0.0051 + 0.002 * algbw) {
        print "row " $1 ": algbw " $(c + 1) " is not size/time " algbw; bad = 1
      }
      sum += $(c + 2); n++
    }
  }
  END {
    if (!header) { print "no nccl-tests column header"; bad = 1 }
    if (got != sizes) { print "sizes " got ", want " sizes; bad = 1 }
    if (nskip + 0 != skipped) { print nskip + 0 " skipped rows, want " skipped; bad = 1 }
    if (!sawavg) { print "no Avg bus bandwidth line"; bad = 1 }
    else if (n > 0) {
      mean = sum / n
      if (avgline - mean > 0.01 + 0.01 * mean || mean - avgline > 0.01 + 0.01 * mean) { print "avg " avgline ", mean of busbw cells " mean; bad = 1 }
    }
    exit bad
  }' || fail "table check failed"
echo "table ok: sizes $sizes, $skipped skipped"
