#!/usr/bin/env bash
# verify/simulate --format json of a file whose directory name has the byte 0xff: JSON cannot
# carry it, so the report must still come, with U+FFFD in place of the byte (not exit 6).
# usage: non_utf8_path.sh CCFORGE GOOD_XML
set -eu
ccforge=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dir="$work/bad$(printf '\377')"
mkdir "$dir"
cp "$2" "$dir/x.xml"
"$ccforge" verify --format json "$dir/x.xml" >"$work/verify.json"
"$ccforge" simulate --format json "$dir/x.xml" dgx1 --sizes 1M >"$work/simulate.json"
for report in verify simulate; do
  python3 - "$work/$report.json" <<'PY'
import json, sys
text = open(sys.argv[1], encoding="utf-8").read()
json.loads(text)
assert "bad\ufffd" in text, "the file name with U+FFFD is missing from " + sys.argv[1]
PY
done
echo "both reports name bad<U+FFFD>/x.xml"
