#!/bin/sh
# The library and runtime sources pass clang-tidy under the repository's .clang-tidy. Runs on the
# build's compile commands: with the unity build, one batch of sources at a time, which is about
# a third of the time of one run per source. The tests, benchmarks and CUDA sources are left out
# (the CUDA ones are nvcc's; their host side is the runtime's headers, which the CPU batches
# include). The build's GCC-only warning flags are unknown to clang and are let pass, and so are
# the workload catalogue's generated string literals, longer than the 64 KiB the standard
# promises and accepted by GCC and clang alike. Prints each finding and the command that shows it again.
# usage: clang_tidy.sh SOURCE_DIR BUILD_DIR
set -eu
root=$1
build=$2
if ! command -v clang-tidy >/dev/null 2>&1; then
  echo "clang-tidy is not installed (Debian: clang-tidy; scripts/setup installs it)" >&2
  exit 1
fi
units=$(python3 - "$root" "$build" <<'PY'
import json, os, sys
root, build = (os.path.realpath(d) for d in sys.argv[1:3])
for entry in json.load(open(os.path.join(build, 'compile_commands.json'))):
    path = os.path.realpath(os.path.join(entry['directory'], entry['file']))
    if path.endswith('.cu'):
        continue
    # A unity batch lives in the build tree; a generated source (the workload catalogue's
    # data) does too and is not ours to lint.
    inside_build = path.startswith(build + os.sep)
    if inside_build and '/Unity/' not in path:
        continue
    inside = os.path.relpath(path, build if inside_build else root)
    if inside.startswith(('src/', 'runtime/', 'specs/')):
        print(path)
PY
)
jobs=$(nproc)
[ "$jobs" -gt 4 ] && jobs=4
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# shellcheck disable=SC2086 # one word per unit: the paths have no spaces
if ! printf '%s\n' $units | xargs -P "$jobs" -n 1 clang-tidy --quiet --extra-arg=-Wno-unknown-warning-option \
  --extra-arg=-Wno-overlength-strings -p "$build" >"$log" 2>&1; then
  grep -E 'warning:|error:' "$log" | sort -u >&2
  echo "clang-tidy findings above (run: clang-tidy -p $build FILE)" >&2
  exit 1
fi
echo "clang-tidy: $(printf '%s\n' $units | wc -l) compile units clean"
