#!/usr/bin/env bash
# usage: gunzip_dir.sh SOURCE_DIR -- EXPECT_ARGS...
# Unpacks every SOURCE_DIR/*.xml.gz into a fresh directory (an algorithm directory holds plain
# XML: the runtimes read every entry as one), then runs expect.sh with EXPECT_ARGS, in which the
# word @DIR@ stands for that directory.
set -u
source_dir=$1; shift
[ "$1" = "--" ] || { echo "usage: gunzip_dir.sh SOURCE_DIR -- EXPECT_ARGS..."; exit 1; }
shift
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
for f in "$source_dir"/*.xml.gz; do
  gzip -dc "$f" > "$dir/$(basename "${f%.gz}")" || { echo "cannot unpack $f"; exit 1; }
done
args=()
for a in "$@"; do args+=("${a//@DIR@/$dir}"); done
"$(dirname "$0")/expect.sh" "${args[@]}"
