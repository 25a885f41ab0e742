#!/usr/bin/env bash
# Runs a command and checks its exit code and output (stdout and stderr together).
# usage: expect.sh EXIT_CODE [--has PATTERN]... [--lacks PATTERN]... -- COMMAND [ARGS...]
# PATTERNs are extended regular expressions (grep -E).
set -u
want=$1; shift
has=(); lacks=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case $1 in
    --has) has+=("$2"); shift 2 ;;
    --lacks) lacks+=("$2"); shift 2 ;;
    *) echo "expect.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
shift
out=$("$@" 2>&1); got=$?
fail=0
if [ "$got" != "$want" ]; then echo "exit code: want $want, got $got"; fail=1; fi
for p in "${has[@]+"${has[@]}"}"; do
  grep -Eq -- "$p" <<<"$out" || { echo "output lacks: $p"; fail=1; }
done
for p in "${lacks[@]+"${lacks[@]}"}"; do
  if grep -Eq -- "$p" <<<"$out"; then echo "output has (but must not): $p"; fail=1; fi
done
if [ $fail -ne 0 ]; then
  echo "--- command: $*"
  echo "--- output:"
  printf '%s\n' "$out" | head -c 20000
fi
exit $fail
