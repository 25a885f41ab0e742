#!/bin/sh
# Every C++ and CUDA source of the repository (tests' fixture corpora aside) is as clang-format
# writes it under the repository's .clang-format. Prints the offending files and how to fix them.
# usage: clang_format.sh SOURCE_DIR
set -eu
root=$1
cd "$root"
if ! command -v clang-format >/dev/null 2>&1; then
  echo "clang-format is not installed (Debian: clang-format; scripts/setup installs it)" >&2
  exit 1
fi
files=$(find bench docs python runtime scripts specs src tests -type f \
          \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' -o -name '*.cuh' -o -name '*.h' \) \
          -not -path 'tests/fixtures/*' | LC_ALL=C sort)
bad=""
# shellcheck disable=SC2086 # one word per file: the names have no spaces
if ! clang-format --style=file --dry-run -Werror $files >/dev/null 2>&1; then
  for f in $files; do
    if ! clang-format --style=file --dry-run -Werror "$f" >/dev/null 2>&1; then bad="$bad $f"; fi
  done
fi
if [ -n "$bad" ]; then
  echo "not clang-formatted (run: clang-format -i$bad):" >&2
  for f in $bad; do echo "  $f" >&2; done
  exit 1
fi
echo "clang-format: $(echo "$files" | wc -l) sources formatted"
