#!/usr/bin/env bash
# The full bad-input sweep (docs/limits.md, "The bad-input sweep"): CI's sweep with 1,800 mutants
# of valid inputs instead of 200, about 3,400 cases. Prints the sweep's own summary and the time.
# usage: bench/hardening/full_sweep.sh [CCFORGE]
set -u
here=$(cd "$(dirname "$0")" && pwd)
ccforge=${1:-$here/../../build/src/cli/ccforge}
start=$(date +%s)
CCFORGE_SWEEP_MUTANTS=1800 "$here/../../tests/e2e/bad_input_sweep.sh" "$ccforge" "$here/../../tests/fixtures"
code=$?
echo "full sweep: $(($(date +%s) - start)) s, exit $code"
exit $code
