#!/usr/bin/env bash
# Every diagnostic ccforge prints about a file follows the compilers' format, which editors, vim's
# errorformat and CI problem matchers read:  FILE:LINE:COLUMN: error|warning|note: MESSAGE [RULE]
# (src/base/diagnostic.hpp). Runs ccforge on many failing inputs: every verify fixture that is not
# good, the malformed and msccl-tools invalid files, the directories, broken collective and
# topology specs, and IR reader errors through dot and simulate; and checks that each prints at
# least one diagnostic and that every line that looks like one (it says error, warning or note
# followed by ':' or '[', and is not the command's own "ccforge CMD: ..." line) matches.
# usage: diagnostics_format.sh CCFORGE FIXTURES E2E_DATA SCRATCH
set -u
ccforge=$1 fixtures=$2 data=$3 scratch=$4
rm -rf "$scratch" && mkdir -p "$scratch"
gcc_style='^[^: ][^:]*:[0-9]+:[0-9]+: (error|warning|note): .*( \[[a-z0-9.-]+\])?$'
looks_like='(error|warning|note)(\[|: )'
runs=0 lines=0 failures=0

# check NAME COMMAND...: runs it; its output (stdout and stderr) must hold at least one diagnostic,
# and every diagnostic-looking line must match.
check() {
  local name=$1; shift
  local out
  out=$("$@" 2>&1)
  runs=$((runs + 1))
  local found=0
  while IFS= read -r line; do
    [[ $line =~ $looks_like ]] || continue
    [[ $line == "ccforge "* ]] && continue
    if [[ $line =~ $gcc_style ]]; then
      found=$((found + 1))
    else
      echo "$name: not in FILE:LINE:COLUMN: SEVERITY: MESSAGE form: $line"
      failures=$((failures + 1))
    fi
  done <<<"$out"
  lines=$((lines + found))
  if [ "$found" -eq 0 ]; then
    echo "$name: no diagnostic in the output of: $*"
    printf '%s\n' "$out" | head -20
    failures=$((failures + 1))
  fi
}

# verify: every fixture that is meant to fail, one run each.
for f in "$fixtures"/verify/{buffers,connections,custom,deadlock,differential,format,limits,postcondition,races}/*.xml \
         "$fixtures"/malformed/* "$fixtures"/msccl-tools/invalid/*; do
  case $f in */alltonext_n3.xml|*/swap_with_spec.xml|*/swap_against_identity_spec.xml) continue ;; esac
  check "verify $(basename "$f")" "$ccforge" verify "$f"
done
# ... the legacy profile over many files in one run, directories, a missing file, an empty directory.
check "verify several files" "$ccforge" verify --profile msccl-legacy "$fixtures"/verify/limits/*.xml
for d in "$fixtures"/verify-dirs/*; do
  case $d in */disjoint_windows|*/overlapping_windows|*/internal_only) continue ;; esac
  check "verify directory $(basename "$d")" "$ccforge" verify "$d"
done
check "verify a missing file" "$ccforge" verify "$scratch/missing.xml"
check "verify an empty directory" "$ccforge" verify "$scratch"

# Collective specs: malformed JSON, a wrong type, an unknown key (located by JSON pointer).
printf '{"name": "x", "ranks": 2,\n  "input_chunks": }\n' > "$scratch/bad_json.json"
printf '{"name": "x", "ranks": "two", "input_chunks": 1,\n "output_chunks": 1, "postcondition": []}\n' > "$scratch/bad_type.json"
printf '{"name": "x", "ranks": 2, "input_chunks": 1, "output_chunks": 1,\n  "postcondition": [],\n  "colour": 1}\n' > "$scratch/bad_key.json"
for s in bad_json bad_type bad_key; do
  check "collective spec $s" "$ccforge" verify --collective "$scratch/$s.json" "$fixtures"/verify/custom/swap_with_spec.xml
done

# Topology specs.
check "topology zero bandwidth" "$ccforge" topo show "$data"/topo_zero_bandwidth.json
check "topology disconnected, bounds" "$ccforge" bounds "$data"/topo_disconnected.json allgather
printf '{"name": "t",\n  "vertices": [1, 2,]\n}\n' > "$scratch/topo_bad_json.json"
check "topology malformed JSON" "$ccforge" topo show "$scratch/topo_bad_json.json"
check "topology missing" "$ccforge" topo show "$scratch/missing.json"

# IR reader errors through other commands.
check "dot malformed" "$ccforge" dot "$fixtures"/malformed/truncated.xml
check "simulate malformed" "$ccforge" simulate "$fixtures"/malformed/truncated.xml "$data"/topo_line4.json
check "run malformed" "$ccforge" run "$fixtures"/malformed/truncated.xml

echo "$runs runs, $lines diagnostics in the compilers' format, $failures problems"
[ "$failures" -eq 0 ] && [ "$lines" -ge 100 ]
