#!/usr/bin/env bash
# Issue 27: namespaces follow folders (DEVELOPERS.md, "Conventions"). Every namespace a library
# source opens is its folder's: src/X is ccforge::X, runtime/ ccforge::runtime; the subfolders that
# are methods of their own nest (src/synth/sccl is ccforge::synth::sccl, src/verify/smt
# ccforge::verify::smt), the others share their library's; src/topology is ccforge::topo. Nothing
# is declared in ccforge itself. usage: namespaces.sh SOURCE_DIR
set -euo pipefail
cd "$1"
expected() {
  case "$1" in
    src/topology*) echo ccforge::topo ;;
    src/synth/sccl | src/synth/trees | src/synth/deploy | src/verify/smt) echo "ccforge::${1#src/}" | sed 's#/#::#g' ;;
    src/*) d=${1#src/}; echo "ccforge::${d%%/*}" ;;
    runtime/samples) echo ccforge::runtime::samples ;;
    runtime*) echo ccforge::runtime ;;
  esac
}
bad=0
while IFS= read -r f; do
  want=$(expected "$(dirname "$f")")
  # Each namespace the file opens at the start of a line from the top (ccforge...): anonymous
  # ones, the nested ones they contain and fmt's formatter specializations aside.
  while IFS=: read -r line ns; do
    case "$ns" in
      "$want" | "$want"::*) ;;
      *) echo "$f:$line: namespace $ns; $(dirname "$f") is $want"; bad=1 ;;
    esac
  done < <(grep -nE '^namespace [A-Za-z_:]+ \{' "$f" | sed -E 's/^([0-9]+):namespace ([A-Za-z_:]+) \{.*/\1:\2/' |
           grep ':ccforge' || true)
done < <(git ls-files 'src/*.cpp' 'src/*.hpp' 'runtime/*.cpp' 'runtime/*.hpp' 'runtime/*.cu' 'runtime/*.cuh')
[ "$bad" = 0 ] || exit 1
echo "every namespace follows its folder"
