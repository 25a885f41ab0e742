#!/usr/bin/env bash
# Issue 11: every engine takes the runtime's limits and protocol constants from src/semantics.
# Fails when one of the MSCCL runtime's literal numbers appears in code outside that folder
# (comments are ignored). usage: limit_literals.sh SOURCE_DIR
set -euo pipefail
cd "$1"
# MSCCL_MAX_COUNT and its minus one, int8 depid, LL128 tile, MSCCL_MAX_ITER, MAX_NODES - 1,
# the default co-residency caps, the Simple and LL tiles.
pattern='\b(71|72|127|576000|65536|4095|108|216)\b|\b2 << 20\b|\b32 << 10\b'
found=$(grep -rnE --include='*.cpp' --include='*.hpp' --include='*.cu' --include='*.cuh' "$pattern" src runtime specs bench |
  grep -v '^src/semantics/' | sed -E 's#//.*$##' | grep -E "$pattern" || true)
if [ -n "$found" ]; then
  echo "runtime limits written outside src/semantics (take them from semantics/protocol.hpp or runtime_profile.hpp):"
  echo "$found"
  exit 1
fi
echo "no runtime limit literals outside src/semantics"
