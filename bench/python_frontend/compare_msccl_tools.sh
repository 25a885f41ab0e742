#!/usr/bin/env bash
# Runs every example of msccl-tools' examples/mscclang (the list and arguments in examples.txt)
# through msccl-tools itself and through `ccforge compile SCRIPT.py ...`, side by side, and prints
# a Markdown table: verdicts, thread blocks and steps of both outputs (counted in the XML the
# same way for both), wall-clock compile times, and what `ccforge verify` says of msccl-tools' own
# file (the parity question: does ccforge compile every script whose msccl-tools output is right?).
#
# usage: compare_msccl_tools.sh MSCCL_TOOLS_CHECKOUT [CCFORGE] > table.md
#   MSCCL_TOOLS_CHECKOUT  a checkout of github.com/microsoft/msccl-tools (not part of ccforge)
#   CCFORGE               the ccforge executable (default: build/src/cli/ccforge)
# msccl-tools runs under Debian's /usr/bin/python3 (python3-lxml, python3-z3,
# python3-humanfriendly, python3-tabulate must be installed for its imports).
set -u
tools=${1:?usage: compare_msccl_tools.sh MSCCL_TOOLS_CHECKOUT [CCFORGE]}
here=$(cd "$(dirname "$0")" && pwd)
ccforge=${2:-$here/../../build/src/cli/ccforge}
ccforge=$(cd "$(dirname "$ccforge")" && pwd)/$(basename "$ccforge")  # the examples run in their folder
tools=$(cd "$tools" && pwd)
examples=$tools/examples/mscclang
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }
count() { grep -c "$1" "$2" 2>/dev/null || echo 0; }

echo "| example | arguments | msccl-tools | tbs | steps | time ms | its file under ccforge verify | ccforge | tbs | steps | time ms |"
echo "|---|---|---|---:|---:|---:|---|---|---:|---:|---:|"
grep -v '^#' "$here/examples.txt" | while read -r script args; do
  [ -n "$script" ] || continue
  name=$(echo "$script" | tr / _)
  t0=$(now)
  (cd "$examples" && PYTHONPATH=$tools timeout 600 /usr/bin/python3 "$script" $args) \
    > "$out/$name.tools.xml" 2> "$out/$name.tools.err"
  rc_tools=$?
  t1=$(now)
  if [ $rc_tools -eq 0 ] && grep -q "<algo" "$out/$name.tools.xml"; then
    tools_verdict="ok"
    tools_tbs=$(count "<tb " "$out/$name.tools.xml"); tools_steps=$(count "<step " "$out/$name.tools.xml")
    # The script's text after the XML (its Check() output) is not part of the file.
    sed -n '/<algo/,/<\/algo>/p' "$out/$name.tools.xml" > "$out/$name.tools.only.xml"
    "$ccforge" verify "$out/$name.tools.only.xml" > "$out/$name.tools.verify" 2>&1
    rc_verify=$?
    case $rc_verify in
      0) tools_file="verified" ;;
      10) tools_file="violation: $(grep -m1 "error" "$out/$name.tools.verify" | sed 's/.*error: //' | cut -c1-60 | tr '|' '/')" ;;
      *) tools_file="exit $rc_verify" ;;
    esac
  else
    tools_file=-
    tools_verdict="fails: $(tail -n 1 "$out/$name.tools.err" | cut -c1-60 | tr '|' '/')"
    tools_tbs=-; tools_steps=-
  fi
  t2=$(now)
  (cd "$examples" && timeout 600 "$ccforge" compile "$script" $args -o "$out/$name.ccforge.xml") \
    > "$out/$name.ccforge.log" 2>&1
  rc_cc=$?
  t3=$(now)
  case $rc_cc in
    0) cc_verdict="verified" ;;
    10) cc_verdict="violation (exit 10): $(grep -m1 "error" "$out/$name.ccforge.log" | sed 's/.*error: //' | cut -c1-80 | tr '|' '/')" ;;
    *) cc_verdict="exit $rc_cc: $(grep -m1 "error" "$out/$name.ccforge.log" | sed 's/.*error: //' | cut -c1-80 | tr '|' '/')" ;;
  esac
  if [ $rc_cc -eq 0 ]; then  # a script with several programs writes NAME.ccforge.xml, NAME.ccforge.2.xml, ...
    cc_tbs=$(cat "$out/$name".ccforge*.xml | grep -c "<tb "); cc_steps=$(cat "$out/$name".ccforge*.xml | grep -c "<step ")
  else
    cc_tbs=-; cc_steps=-
  fi
  echo "| $script | ${args:-—} | $tools_verdict | $tools_tbs | $tools_steps | $(ms "$t0" "$t1") | $tools_file | $cc_verdict | $cc_tbs | $cc_steps | $(ms "$t2" "$t3") |"
done
