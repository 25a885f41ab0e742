#!/usr/bin/env bash
# Issue 27: what a step does has one meaning, the step-kind table of src/semantics/step_kinds.hpp
# (its flags and the value they define, stepValue). Fails when code outside src/semantics
# switches on an instruction's type to decide that again. One exception: the compiler's emitter,
# which picks the informational srcbuf/dstbuf fields of s, r, rcs and rrs that the runtime
# ignores. usage: step_kind_switches.sh SOURCE_DIR
set -euo pipefail
cd "$1"
pattern='case +(ir::)?OpType::'
found=$(grep -rnE --include='*.cpp' --include='*.hpp' --include='*.cu' --include='*.cuh' "$pattern" src runtime bench |
  grep -v -e '^src/semantics/' -e '^src/codegen/emit.cpp:' | sed -E 's#//.*$##' | grep -E "$pattern" || true)
if [ -n "$found" ]; then
  echo "step-kind switches outside src/semantics (ask semantics/step_kinds.hpp: stepKind, stepValue):"
  echo "$found"
  exit 1
fi
echo "no step-kind switches outside src/semantics"
