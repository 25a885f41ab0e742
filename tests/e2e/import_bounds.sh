#!/usr/bin/env bash
# usage: import_bounds.sh CCFORGE DUMP CATALOG_NAME|- EXPECTED_ALLGATHER_EXACT [import options...]
# Imports DUMP with `ccforge topo import`, then checks that `ccforge bounds` of the imported spec
# gives every collective the same exact algbw bound as the catalog topology (skipped for "-"), and
# that the allgather bound is the value stated by the caller.
set -u
ccforge=$1 dump=$2 catalog=$3 expected=$4; shift 4
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
"$ccforge" topo import "$dump" -o "$dir/imported.json" -q "$@" || { echo "topo import failed"; exit 1; }
exact() { "$ccforge" bounds "$1" --format json | grep -E '^ *"(allgather|allreduce|reducescatter|alltoall|broadcast|reduce|gather|scatter)"|algbw_upper_bound_GBps_exact'; }
exact "$dir/imported.json" > "$dir/imported.txt" || { echo "bounds of the imported spec failed"; exit 1; }
if [ "$catalog" != "-" ]; then
  exact "$catalog" > "$dir/catalog.txt" || { echo "bounds of $catalog failed"; exit 1; }
  if ! diff "$dir/catalog.txt" "$dir/imported.txt"; then echo "bounds differ from $catalog's (< catalog, > imported)"; exit 1; fi
fi
if ! grep -A1 '"allgather"' "$dir/imported.txt" | grep -q "\"$expected\""; then
  echo "allgather bound is not $expected:"; cat "$dir/imported.txt"; exit 1
fi
echo "bounds of the import: allgather $expected${catalog:+ (catalog: $catalog)}"
