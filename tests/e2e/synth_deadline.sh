#!/usr/bin/env bash
# synth --timeout bounds the whole run, every composition and the phases between them: each run
# below takes at most FACTOR x the limit of CPU time (plus 0.5 s for start-up and reading the
# machine). It either ends inconclusive (exit 5), naming the limit and having written nothing, or
# finishes (exit 0): on a fast enough machine, or when the limit passes during the weighing against
# NCCL, which is not interrupted once started (docs/limits.md).
# usage: synth_deadline.sh CCFORGE FACTOR
set -euo pipefail
ccforge=$1 factor=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
# mi250-2 allreduce: the hierarchical composition lowers for about 1.6 s, is verified and simulated
# for about 1 s, then weighed against NCCL for 2.5 s (on the 2-core development machine). A 1 s
# limit stops the lowering, a 2 s one the weighing there; a 0.3 s one stops it anywhere.
for limit in 0.3 1 2; do
  out="$work/out$limit"
  code=0
  /usr/bin/time -f "%U %S" -o "$work/time" "$ccforge" synth mi250-2 allreduce --timeout "$limit" -o "$out" \
    >"$work/stdout" 2>"$work/stderr" || code=$?
  read -r user sys < <(tail -n 1 "$work/time")
  cpu=$(python3 -c "print($user + $sys)")
  echo "--timeout $limit: exit $code, $cpu s of CPU"
  if python3 -c "import sys; sys.exit(0 if $cpu <= $factor * $limit + 0.5 else 1)"; then :; else
    echo "  over $factor x the limit"; fail=1
  fi
  [[ $code == 0 ]] && continue
  if [[ $code != 5 ]]; then echo "  expected exit 5"; cat "$work/stderr"; fail=1; fi
  if ! grep -Eq "time limit of $limit s (was )?reached" "$work/stderr" "$work/stdout"; then
    echo "  no message naming the time limit"; cat "$work/stderr"; fail=1
  fi
  if compgen -G "$out/*.xml" >/dev/null; then echo "  a program was written"; fail=1; fi
done
exit $fail
