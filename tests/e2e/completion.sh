#!/usr/bin/env bash
# `ccforge completion bash|zsh` (issue 26, item 6): the bash script, sourced in bash, completes
# commands, nested commands and each command's options as `ccforge --help` lists them; the zsh
# script is the same function behind zsh's bashcompinit, and both parse as shell.
# usage: completion.sh CCFORGE
set -u
ccforge=$1
fail() { echo "FAIL: $*"; exit 1; }
script=$("$ccforge" completion bash) || fail "completion bash exited $?"
bash -n <(echo "$script") || fail "the bash script does not parse"
source <(echo "$script")
complete -p ccforge | grep -q -- "-F _ccforge" || fail "no completion registered for ccforge"
comp() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _ccforge; echo "${COMPREPLY[*]}"; }
[ "$(comp ccforge verif)" = verify ] || fail "'ccforge verif' completes to '$(comp ccforge verif)'"
[ "$(comp ccforge verify --disa)" = --disable ] || fail "'verify --disa' completes to '$(comp ccforge verify --disa)'"
[ "$(comp ccforge topo imp)" = import ] || fail "'topo imp' completes to '$(comp ccforge topo imp)'"
[ "$(comp ccforge topo import --qui)" = --quiet ] || fail "'topo import --qui' gives '$(comp ccforge topo import --qui)'"
[ "$(comp ccforge --progress comp)" = "compile completion" ] || fail "'--progress comp' gives '$(comp ccforge --progress comp)'"
[ -z "$(comp ccforge verify --bogus)" ] || fail "an unknown option prefix completes to something"
# Every command of `ccforge --help` completes at the top level.
all=" $(comp ccforge '') "
for c in $("$ccforge" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && NF {print $1}'); do
  case $all in *" $c "*) ;; *) fail "command '$c' of --help is not completed" ;; esac
done
zsh=$("$ccforge" completion zsh) || fail "completion zsh exited $?"
[ "$(echo "$zsh" | head -n 1)" = "#compdef ccforge" ] || fail "the zsh script does not start with #compdef"
echo "$zsh" | grep -q "bashcompinit" || fail "the zsh script does not load bashcompinit"
bash -n <(echo "$zsh") || fail "the zsh script does not parse"
"$ccforge" completion fish >/dev/null 2>&1 && fail "an unknown shell is accepted"
echo "ok"
