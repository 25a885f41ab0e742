#!/usr/bin/env bash
# Every command of the docs runs as written (issue 16): extracts the command lines of the fenced
# code blocks (```) of README.md and docs/*.md and runs them, in document order.
#
# usage: doc_commands.sh CCFORGE REPO_ROOT
#   CCFORGE_DOC_LIMIT  seconds per command (default 60; the sanitizer build passes more)
#
# Extraction: a line of a fenced block that starts with `ccforge ` or `$ ccforge ` is a command;
# a line ending in `\` continues on the next; a trailing `# comment` (a `#` after white space) is
# cut off. Other lines of a block (output, other programs, `NCCL_TOPO_DUMP_FILE=... ./all_reduce_perf`)
# are not commands.
#
# Skipped, each printed with its reason:
#   - synopsis lines: a word in capitals standing for an argument (FILE, DIR, TOPOLOGY, NAME,
#     COLLECTIVE, MIN, ... : a word of two or more capital letters and underscores only, other
#     than the literals of LITERALS below), or `[`, `|` or `...` (optional parts, alternatives,
#     repetition);
#   - output lines: the word after `ccforge` ends in `:` (`ccforge compile: 4 ranks, ...`);
#   - GPU lines (`--backend cuda`) when there is no GPU (`nvidia-smi -L` fails). With a GPU they
#     run; a ccforge built without CUDA answers them with exit 5, which passes.
#
# Running: the commands of one doc file run in one fresh directory, in the order they appear, so a
# command may use what an earlier one of the same file wrote (docs/deploying.md imports system.xml
# into mybox.json, then synthesizes on it). The directory first gets the input files the docs name
# (the table INPUTS below) and a link to the repository's specs/. Each command runs under bash
# (globs such as algos/*.xml expand), `ccforge` being CCFORGE, with `timeout -s KILL`; a command
# naming a .py script runs with ASAN_OPTIONS detect_leaks=0 (CPython keeps memory until exit).
#
# Pass: exit 0, 5 (inconclusive) or 10 (a violation found: examples may show a failing file).
# Fail: exit 1, 2, 6, any other code, a signal, a time-out, or a sanitizer report in the output;
# the command, its FILE:LINE, the exit code and the last lines of output are printed. Fewer than
# MIN_RUN commands run also fails, so that a broken extraction cannot pass by running nothing.
set -u
ccforge=${1:?usage: doc_commands.sh CCFORGE REPO_ROOT}
root=${2:?usage: doc_commands.sh CCFORGE REPO_ROOT}
limit=${CCFORGE_DOC_LIMIT:-60}
MIN_RUN=20
# Words in capitals that are literal arguments, not placeholders (protocol names).
LITERALS='LL|LL128'
case $ccforge in /*) ;; *) ccforge=$PWD/$ccforge ;; esac
root=$(cd "$root" && pwd) || exit 2
[ -x "$ccforge" ] || { echo "doc_commands.sh: $ccforge is not an executable"; exit 2; }

# Input files the docs name, NAME SOURCE (relative to the repository root). system.xml and nodeA.xml
# are a real NCCL dump, nodeB.xml a synthetic one (tests/fixtures/topology-dumps/README.md); the
# H100 box imports with a NIC on every GPU, so both `synth` (SMT, one box) and `synth --method trees` (4 boxes) of
# docs/deploying.md finish in seconds. allreduce_a100_ring.py stands in for msccl-tools' example of
# that name (same command line); my_alltonext.py is a custom collective of tests/fixtures/python,
# gemv_fused.py a fused program of the same folder; ar.log and ag.log are public nccl-tests logs of
# one H100 box (tests/fixtures/nccl-tests-logs/README.md); ndv5 and ncv4 are msccl-scheduler's shipped
# directories (tests/fixtures/msccl-scheduler/README.md), select_sweep the test directory of `select`;
# every_finding_suppressed.xml and ccforge-rules.json are the rule-control examples of docs/verify.md.
INPUTS="
system.xml                              tests/fixtures/topology-dumps/h100-ibm-cloud-gx3d.xml
nodeA.xml                               tests/fixtures/topology-dumps/h100-ibm-cloud-gx3d.xml
nodeB.xml                               tests/fixtures/topology-dumps/synthetic-dgx-a100.xml
algo.xml                                tests/fixtures/msccl-tools/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml
allreduce_ring_a100_n4_ch1_i1_LL128.xml tests/fixtures/msccl-tools/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml
allreduce_a100_ring.py                  tests/fixtures/python/ring_allreduce_channels.py
my_alltonext.py                         tests/fixtures/python/alltonext.py
gemv_fused.py                           tests/fixtures/python/gemv_fused.py
ar.log                                  tests/fixtures/nccl-tests-logs/h100-1x8-allreduce-nccl2.29.txt
ag.log                                  tests/fixtures/nccl-tests-logs/h100-1x8-allgather-nccl2.29.txt
ndv5                                    tests/fixtures/msccl-scheduler/ndv5
ncv4                                    tests/fixtures/msccl-scheduler/ncv4
every_finding_suppressed.xml            tests/fixtures/verify/suppressions/every_finding_suppressed.xml
ccforge-rules.json                      tests/fixtures/verify-config/ccforge-rules.json
select_sweep                            tests/fixtures/verify-dirs/select_sweep
"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if nvidia-smi -L >/dev/null 2>&1; then have_gpu=1; else have_gpu=0; fi

# The extraction: one line per command, FILE<TAB>LINE<TAB>COMMAND, files in a fixed order
# (README.md, then docs/*.md sorted by name), commands in document order.
extract() {
  python3 - "$root" <<'PY'
import os, re, sys
root = sys.argv[1]
docs = ["README.md"] + sorted("docs/" + f for f in os.listdir(os.path.join(root, "docs")) if f.endswith(".md"))
for doc in docs:
    with open(os.path.join(root, doc), encoding="utf-8") as f:
        lines = f.read().split("\n")
    fenced = False
    i = 0
    while i < len(lines):
        text = lines[i].strip()
        if text.startswith("```"):
            fenced = not fenced
        elif fenced:
            if text.startswith("$ "):
                text = text[2:].lstrip()
            if text.startswith("ccforge "):
                first = i + 1
                while text.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    text = text[:-1].rstrip() + " " + lines[i].strip()
                text = re.sub(r"\s+#.*$", "", text).strip()
                print(f"{doc}\t{first}\t{text}")
        i += 1
PY
}

# skip_reason COMMAND: prints why the line is not run, nothing if it runs.
skip_reason() {
  local cmd=$1 word
  word=$(awk '{print $2}' <<<"$cmd")
  if [[ $word == *: ]]; then echo "output line"; return; fi
  local placeholder
  placeholder=$(grep -oE '\b[A-Z][A-Z_]+\b' <<<"$cmd" | grep -vxE "$LITERALS" | head -n 1)
  if [ -n "$placeholder" ]; then echo "synopsis (placeholder $placeholder)"; return; fi
  if [[ $cmd == *"["* || $cmd == *"|"* || $cmd == *"..."* ]]; then echo "synopsis ([, | or ...)"; return; fi
  if [[ $cmd == *"--backend cuda"* && $have_gpu == 0 ]]; then echo "needs a GPU (nvidia-smi -L fails)"; return; fi
}

# prepare DIR: the inputs of the table, and specs/.
prepare() {
  local dir=$1 name src
  mkdir -p "$dir" || return 1
  while read -r name src; do
    [ -n "$name" ] || continue
    cp -r "$root/$src" "$dir/$name" || return 1
  done <<<"$INPUTS"
  ln -s "$root/specs" "$dir/specs"
}

commands=$(extract) || { echo "FAIL: the extraction of the docs' commands failed"; exit 1; }

run=0
skipped=0
failures=0
current=""
dir=""
while IFS=$'\t' read -r doc line cmd; do
  [ -n "$doc" ] || continue
  reason=$(skip_reason "$cmd")
  if [ -n "$reason" ]; then
    skipped=$((skipped + 1))
    echo "skip $doc:$line ($reason): $cmd"
    continue
  fi
  if [ "$doc" != "$current" ]; then
    current=$doc
    dir=$work/$(tr '/.' '__' <<<"$doc")
    prepare "$dir" || { echo "FAIL: cannot prepare $dir"; exit 1; }
  fi
  run=$((run + 1))
  # The command as written, its first word replaced by the binary under test.
  script="\"\$CCFORGE_UNDER_TEST\"${cmd#ccforge}"
  asan=${ASAN_OPTIONS:-}
  # CPython keeps memory until the process ends, which LeakSanitizer would report (docs/python.md).
  if [[ $cmd == *.py* ]]; then asan=${asan:+$asan:}detect_leaks=0; fi
  start=$(date +%s%N)
  out=$(cd "$dir" && CCFORGE_UNDER_TEST=$ccforge ASAN_OPTIONS=$asan \
        timeout -s KILL "$limit" bash -c "$script" 2>&1 </dev/null)
  code=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  bad=""
  case $code in
    0|5|10) ;;
    137) bad="killed after ${limit} s (time-out)" ;;
    *) bad="exit $code" ;;
  esac
  if [ -z "$bad" ] && grep -Eq "runtime error:|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer" <<<"$out"; then
    bad="sanitizer report"
  fi
  if [ -n "$bad" ]; then
    failures=$((failures + 1))
    echo "FAIL $doc:$line ($bad, ${ms} ms): $cmd"
    printf '%s\n' "$out" | tail -n 8 | sed 's/^/    /'
  else
    echo "ok   $doc:$line (exit $code, ${ms} ms): $cmd"
  fi
done <<<"$commands"

echo "doc commands: $run run, $skipped skipped, $failures failures"
if [ "$run" -lt "$MIN_RUN" ]; then
  echo "FAIL: only $run commands ran (at least $MIN_RUN expected): is the extraction broken?"
  exit 1
fi
[ "$failures" -eq 0 ]
