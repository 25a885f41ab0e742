#!/usr/bin/env bash
# The bad-input sweep: many malformed and absurd inputs thrown at every subcommand. Each must end
# within its time limit with a deliberate exit code (0, 1, 2, 5 or 10; docs/exit-codes.md): never
# an internal error (6), a crash (a signal), a sanitizer report or a time-out. The absurd requests
# of docs/limits.md must moreover be refused (exit 1 or 2) within the limit.
# Then CCFORGE_SWEEP_MUTANTS (default 200) mutants of valid inputs (bad_input_mutants.py), each
# through the commands that read its kind; bench/hardening/full_sweep.sh runs 1,800 of them.
# usage: bad_input_sweep.sh CCFORGE FIXTURES_DIR   (CCFORGE_SWEEP_LIMIT: seconds per case, default 10)
set -u
here=$(cd "$(dirname "$0")" && pwd)
ccforge=$(realpath "$1")
fixtures=$(realpath "$2")
limit=${CCFORGE_SWEEP_LIMIT:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2

failures=0
cases=0
# check WANT COMMAND...: WANT is "any" (0, 1, 2, 5 or 10) or "refused" (1 or 2).
check() {
  local want=$1; shift
  cases=$((cases + 1))
  local start end out code
  start=$(date +%s%N)
  out=$(timeout -s KILL "$limit" "$ccforge" "$@" 2>&1 </dev/null)
  code=$?
  end=$(date +%s%N)
  local ms=$(( (end - start) / 1000000 ))
  local bad=""
  case $code in
    0|1|2|5|10) ;;
    137) bad="no answer within ${limit} s" ;;
    6) bad="internal error (exit 6)" ;;
    *) bad="exit $code (a crash?)" ;;
  esac
  if [ -z "$bad" ] && [ "$want" = refused ] && [ "$code" != 1 ] && [ "$code" != 2 ]; then bad="exit $code, want 1 or 2"; fi
  if [ -z "$bad" ] && grep -Eq "runtime error:|AddressSanitizer|LeakSanitizer|internal error" <<<"$out"; then
    bad="sanitizer or internal-error report"
  fi
  if [ -n "$bad" ]; then
    failures=$((failures + 1))
    echo "FAIL ($bad, ${ms} ms): ccforge $*"
    printf '%s\n' "$out" | tail -n 5 | sed 's/^/    /'
  fi
}

# --- inputs -------------------------------------------------------------------------------
good=$fixtures/verify/good/allgather_pairs_n2.xml
ring=$fixtures/msccl-tools/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml
: >empty.xml
python3 -c "import random, sys; random.seed(16); sys.stdout.buffer.write(bytes(random.randrange(256) for _ in range(3000)))" >garbage.xml
printf '<algo' >truncated.xml
printf '<?xml version="1.0"?>\n<!DOCTYPE a [<!ENTITY x "xxxxxxxxxx"><!ENTITY y "&x;&x;&x;&x;&x;&x;&x;&x;&x;&x;">]>\n<algo name="&y;"/>\n' >entities.xml
# Variations of a valid two-rank allgather: every number pushed to an extreme.
sed -e 's/srcoff="0"/srcoff="2147483647"/' "$good" >huge_srcoff.xml
sed -e 's/dstoff="0"/dstoff="-2147483648"/' "$good" >negative_dstoff.xml
sed -e 's/cnt="1"/cnt="2147483647"/' "$good" >huge_cnt.xml
sed -e 's/ngpus="2"/ngpus="2147483647"/' "$good" >huge_ngpus.xml
sed -e 's/ngpus="2"/ngpus="-1"/' "$good" >negative_ngpus.xml
sed -e 's/nchunksperloop="2"/nchunksperloop="2147483647"/' "$good" >huge_nchunks.xml
sed -e 's/nchunksperloop="2"/nchunksperloop="99999999999999999999"/' "$good" >overflow_nchunks.xml
sed -e 's/nchannels="1"/nchannels="0"/' "$good" >zero_channels.xml
sed -e 's/maxBytes="0"/maxBytes="-5"/' "$good" >negative_maxbytes.xml
sed -e 's/depid="-1"/depid="2147483647"/' "$good" >huge_depid.xml
sed -e 's/deps="-1"/deps="2147483647"/; s/depid="-1"/depid="0"/' "$good" >huge_deps.xml
sed -e 's/ s="0"/ s="2147483647"/' "$good" >huge_step.xml
sed -e 's/send="1"/send="2147483647"/' "$good" >huge_peer.xml
sed -e 's/o_chunks="2"/o_chunks="2147483647"/' "$good" >huge_o_chunks.xml
sed -e 's/i_chunks="1"/i_chunks="2147483647"/' "$good" >huge_i_chunks.xml
sed -e 's/id="0"/id="2147483647"/' "$good" >huge_ids.xml
sed -e 's/proto="Simple"/proto="Nope"/' "$good" >bad_proto.xml
sed -e 's/coll="allgather"/coll="nosuch"/' "$good" >bad_coll.xml
python3 -c "print('<a>' * 100000 + '</a>' * 100000)" >deep.xml
gzip -c "$good" >good.xml.gz
head -c 100 good.xml.gz >truncated.xml.gz
echo '{}' >empty.json
echo '[' >broken.json
echo '{"name": "x"}' >no_gpus.json
echo '{"name": "x", "family": {"kind": "ring", "n": 1000000, "bw": 1}}' >huge_ring.json
echo '{"name": "x", "family": {"kind": "ring", "n": 4096, "bw": 1}}' >ring4096.json
echo '{"name": "x", "family": {"kind": "ring", "n": 512, "bw": 1}}' >ring512.json
echo '{"name": "x", "family": {"kind": "fully_connected", "n": 512, "bw": 1}}' >fc512.json
echo '{"name": "x", "family": {"kind": "switch", "n": 4096, "bw": 1}}' >switch4096.json
echo '{"name": "x", "family": {"kind": "hypercube", "dimension": 40, "bw": 1}}' >hypercube40.json
echo '{"name": "x", "family": {"kind": "torus", "dims": [4096, 4096], "bw": 1}}' >torus_huge.json
echo '{"name": "x", "family": {"kind": "ring", "n": 4, "bw": "1/0"}}' >bw_div_zero.json
echo '{"name": "x", "family": {"kind": "ring", "n": 4, "bw": 1e400}}' >bw_exponent.json
echo '{"name": "x", "unit_GBps": "99999999999999999999999999/7", "family": {"kind": "ring", "n": 4, "bw": "1/99999999999999999999999"}}' >bw_extreme.json
echo '{"name": "x", "vertices": [{"name": "a"}, {"name": "b"}, {"name": "c"}], "links": [{"from": "a", "to": "b", "bw": "1/1000000007"}, {"from": "b", "to": "c", "bw": "1/1000000009"}, {"from": "a", "to": "c", "bw": "1000000000000"}]}' >bw_fine.json
echo '{"name": "x", "vertices": [{"name": "a"}, {"name": "b"}], "links": [{"from": "a", "to": "b", "bw": 1, "alpha_us": 1e308}]}' >alpha_huge.json
echo '{"name": "x", "gpu_relay": "yes", "family": {"kind": "ring", "n": 4, "bw": 1}}' >relay_not_boolean.json
echo '{"name": "n", "boxes": {"count": 1024, "box": {"name": "m", "boxes": {"count": 1024, "box": {"name": "r", "family": {"kind": "ring", "n": 2, "bw": 1}}}}}}' >boxes_1024x1024.json
echo '{"name": "n", "boxes": {"count": 16, "box": {"name": "m", "boxes": {"count": 16, "box": {"name": "r", "family": {"kind": "switch", "n": 16, "bw": 1}}}}}}' >boxes_16x16x16.json
echo '{"name": "s", "ranks": 2, "input_chunks": 1, "output_chunks": 1, "postcondition": [{"rank": 5, "index": 0, "value": [[9, 9]]}]}' >spec_bad_rank.json
echo '{"name": "s", "ranks": 2147483647, "input_chunks": 2147483647, "output_chunks": 1, "postcondition": []}' >spec_huge.json
echo 'not json' >spec_garbage.json
mkdir -p dir_out
touch existing_file

xml_inputs=(empty.xml garbage.xml truncated.xml entities.xml huge_srcoff.xml negative_dstoff.xml huge_cnt.xml
  huge_ngpus.xml negative_ngpus.xml huge_nchunks.xml overflow_nchunks.xml zero_channels.xml negative_maxbytes.xml
  huge_depid.xml huge_deps.xml huge_step.xml huge_peer.xml huge_o_chunks.xml huge_i_chunks.xml huge_ids.xml bad_proto.xml
  bad_coll.xml deep.xml truncated.xml.gz missing.xml dir_out)
topo_inputs=(empty.json broken.json no_gpus.json huge_ring.json hypercube40.json torus_huge.json bw_div_zero.json
  bw_exponent.json bw_extreme.json bw_fine.json alpha_huge.json relay_not_boolean.json boxes_1024x1024.json missing.json
  garbage.xml)

# --- every IR-reading command on every malformed file --------------------------------------
for f in "${xml_inputs[@]}"; do
  check any verify "$f"
  check any verify --engine smt --smt-timeout 2 "$f"
  check any dot "$f"
  check any simulate "$f" dgx1 --sizes 1MB
  check any run "$f" --count 64 --timeout 5
done
check any dot huge_srcoff.xml --chunk 5
check any dot huge_cnt.xml --rank 0

# --- every topology-reading command on every malformed spec ---------------------------------
for f in "${topo_inputs[@]}"; do
  check any topo show "$f"
  check any topo dot "$f"
  check any bounds "$f"
  check any synth "$f" allgather --timeout 5
  check any simulate "$ring" "$f" --sizes 1MB
done

# --- the absurd requests of docs/limits.md: refused within the limit -----------------------
check refused compile ring-allreduce ranks=2000
check refused compile ring-allreduce ranks=512
check refused compile ring-allreduce ranks=128
check refused compile allpairs-allreduce ranks=3000
check refused compile hierarchical-allreduce nodes=1000 gpus=1000
check refused compile allpairs-alltoall ranks=4096
check refused compile binomial-broadcast ranks=4096 chunks=1024
check refused dot ring-allreduce ranks=2000
check refused dot allpairs-allreduce ranks=3000 --view chunk-dag
check refused bounds ring4096.json
check refused bounds fc512.json
check refused bounds switch4096.json allgather
check refused bounds boxes_16x16x16.json
check refused synth switch4096.json allgather --timeout 20
check refused synth boxes_16x16x16.json allreduce --timeout 20
check refused synth ring512.json allgather --method trees --timeout 20
check refused topo show boxes_1024x1024.json
check refused synth dgx1 allgather --chunks 1 --steps 2000000000 --rounds 2000000000
check refused synth dgx1 allgather --chunks 2147483647 --steps 2 --rounds 3
check refused bounds bw_fine.json allgather
check refused run "$ring" --count 4611686018427387904
check refused run "$ring" --count 17179869184
check refused run "$ring" --count -1
check refused run "$ring" --count 64 --ranks 2147483647
check refused simulate "$ring" dgx1 --sizes 1..9223372036854775807
check refused simulate "$ring" a100-1 --sizes 99999999999999999999

# --- options: nan, inf, negatives, unknown names, unwritable outputs -------------------------
sweep_dir=$fixtures/verify-dirs/select_sweep
check refused select "$sweep_dir" --collective allreduce --bytes 0 --dtype float32 --inplace
check refused select "$sweep_dir" --collective allreduce --count 0 --dtype float32 --inplace
check refused select "$sweep_dir" --collective allreduce --count -1 --dtype float32 --inplace
check refused select "$sweep_dir" --collective allreduce --count 8 --bytes 32 --dtype float32 --inplace
check refused select "$sweep_dir" --collective allreduce --count 8 --dtype float32 --inplace --outofplace
check refused select "$sweep_dir" --collective nosuch --count 8 --dtype float32 --inplace
check refused select "$sweep_dir" --collective allgather --count 8 --dtype float32 --inplace --ranks 2147483647
check refused select "$sweep_dir" --collective allgather --count 8 --dtype float32 --inplace --ranks 0
check refused select "$sweep_dir" --collective broadcast --count 8 --dtype float32 --inplace --root -1
check refused select missing_dir --collective allreduce --count 8 --dtype float32 --inplace
check any select "$sweep_dir" --collective allreduce --count 18446744073709551615 --dtype float64 --outofplace
for f in "${xml_inputs[@]}"; do
  [ -f "$f" ] || continue
  mkdir -p "select_$f" && cp "$f" "select_$f/" && check any select "select_$f" --collective allgather --count 8 --dtype float32 --inplace
done
check refused verify --smt-timeout nan "$good"
check refused verify --smt-timeout inf "$good"
check refused verify --max-input-size -1 "$good"
check refused verify --max-input-size 0 "$good"
check refused verify --slots 0 "$good"
check refused verify --collective nosuch "$good"
check refused verify --collective broadcast:x "$good"
check refused verify --collective spec_bad_rank.json "$good"
check refused verify --collective spec_huge.json "$good"
check refused verify --collective spec_garbage.json "$good"
check refused verify -o /dev/full "$good"
check refused verify -o /nonexistent/dir/report.txt "$good"
check refused verify -o dir_out "$good"
check refused verify --dump-smt existing_file --engine smt "$good"
check refused synth dgx1 allgather --timeout nan
check refused synth dgx1 allgather --timeout -1
check refused synth dgx1 allgather --instance-timeout inf
check refused synth dgx1 nosuch
check refused synth dgx1 broadcast:99
check refused synth dgx1 allgather -o existing_file --chunks 2 --steps 2 --rounds 3
check refused synth dgx1 allgather -o /proc/nope --chunks 2 --steps 2 --rounds 3
check refused run "$ring" --timeout nan
check refused run "$ring" --iters -1
check refused run "$ring" --dtype nosuch
check refused dot "$good" --rank 9
check refused dot "$good" --rank -1
check refused dot "$good" --chunk -3
check refused dot "$good" --around 9:9:9
check refused dot "$good" -o /nonexistent/dir/x.dot
check refused dot "$good" -o x.jpeg
check refused topo dot dgx1 -o x.jpeg
check refused topo dot dgx1 -o /nonexistent/dir/x.dot
check refused compile ring-allreduce -o /nonexistent/dir/x.xml
check refused compile ring-allreduce ranks=-3
check refused compile ring-allreduce ranks=99999999999999999999
check refused compile nosuch
check refused bounds dgx1 broadcast --root 99
check refused bounds dgx1 custom
check any list
check any completion bash
check refused completion nosuch
check refused tune dgx1 nosuch -o tune_bad
check refused tune dgx1 allgather -o tune_bad2 -b 3K
check refused tune dgx1 allgather -o tune_bad3 --margin nan
check refused nosuch-command

# --- commands added since: topology import and planning ---------------------------------------
for f in empty.xml garbage.xml truncated.xml entities.xml deep.xml empty.json broken.json; do
  check any topo import "$f"
  check any topo import "$f" --boxes 1000000
  check any plan "$f"
done
check refused topo import garbage.xml -o /nonexistent/dir/x.json
check any plan nosuch-model
check any plan nosuch-model --workers -5 --network ib56

# --- mutants of valid inputs -------------------------------------------------------------------
n=0
while read -r kind path; do
  n=$((n + 1))
  case $kind in
    xml)
      check any verify "$path"
      if [ $((n % 3)) = 0 ]; then check any dot "$path" -o mutant.dot; fi
      if [ $((n % 4)) = 0 ]; then check any run "$path" --count 64 --timeout 5; fi
      if [ $((n % 5)) = 0 ]; then check any simulate "$path" dgx1 --sizes 1MB; fi
      if [ $((n % 6)) = 0 ]; then
        check any tune a100-2 allgather -o "tune_$n" --no-library --no-synth --file "$path" -b 1K -e 64K
      fi ;;
    topo)
      check any topo show "$path"
      check any bounds "$path" allgather
      if [ $((n % 3)) = 0 ]; then check any simulate "$ring" "$path" --sizes 1MB; fi
      if [ $((n % 4)) = 0 ]; then check any tune "$path" allgather -o "tune_$n" --no-library --no-synth --file "$good"; fi ;;
    workload) check any plan "$path" --search-steps 200 -o mutant_plan.txt ;;
    log) check any calibrate "$path" -t h100-1 -o mutant_spec.json ;;
    script) check any compile "$path" 4 1 --script-cpu 5 --script-wall 8 -o mutant_script.xml ;;
  esac
done < <(python3 "$here/bad_input_mutants.py" "$fixtures" "$fixtures/../../specs" mutants "${CCFORGE_SWEEP_MUTANTS:-200}")

# Nothing may be left half written: no temporary files beside the outputs.
if ls -a | grep -q '\.tmp[0-9]'; then
  failures=$((failures + 1))
  echo "FAIL: temporary output files left behind: $(ls -a | grep '\.tmp[0-9]' | tr '\n' ' ')"
fi

echo "bad-input sweep: $cases cases, $failures failures"
[ "$failures" -eq 0 ]
