# `ccforge select` and the shipped msccl-scheduler directories (docs/verify.md "Which file runs a
# call"). The expected answers are derived by hand from the selectors' source, not from ccforge:
#   executor, msccl-executor-nccl src/misc/msccl/msccl_lifecycle.cc mscclInternalSchedulerSelectAlgo:
#     the first file in path order with count > 0, (count x sizeMultiplier) % nchunksperloop == 0,
#     minBytes <= count x typesize x sizeMultiplier <= maxBytes (0: unbounded), same ngpus and
#     coll, and the call form's flag; typesize is NCCL's (bf16 2, fp8 1).
#   plugin, Azure/msccl-scheduler src/scheduler.cc mscclSchedulerSelectAlgo: the same with
#     count % nchunksperloop, any accepting file (readdir order), typesize -1 for bf16 and fp8,
#     so count x -1 is 2^64 - count (size_t) and only maxBytes="0" files hold it; allgather's
#     in-place test compares sendbuff with recvbuff + rank x count x typesize, so with -1 only
#     rank 0 sees in-place.
# tests/fixtures/verify-dirs/select_sweep (headers only matter here):
#   a_ar48_upto_1m    allreduce 2 ranks, 48 chunks, in-place, 0..1048576 bytes
#   b_ar2_outofplace  allreduce 2 ranks, 2 chunks, out-of-place, 0..unbounded
#   c_ag3_inplace     allgather 3 ranks, 3 chunks, in-place, 0..unbounded
#   d_bcast           broadcast 2 ranks, 1 chunk, out-of-place, 0..unbounded
#   e_ar2_from_1m     allreduce 2 ranks, 2 chunks, out-of-place, 1048577..unbounded
set(SWEEP ${FIXTURES}/verify-dirs/select_sweep)
set(EXEC_RUNS "executor \\(msccl-executor-nccl's internal scheduler, path order\\): every rank runs .*")
set(PLUG_RUNS "plugin \\(Azure/msccl-scheduler, readdir order\\): every rank runs .*")
set(EXEC_NCCL "executor \\(msccl-executor-nccl's internal scheduler, path order\\): no file accepts it: NCCL runs the call")
set(PLUG_NCCL "plugin \\(Azure/msccl-scheduler, readdir order\\): no file accepts it: NCCL runs the call")
set(PLUG_OPEN "plugin \\(Azure/msccl-scheduler, readdir order\\): not determined")

# allreduce, 2 ranks
ccforge_cli_test("select: count 144 (no power of two) of float32 in place runs the 48-chunk file under both" 0
  --has "count 144 of float32 \\(576 bytes\\)" --has "${EXEC_RUNS}a_ar48_upto_1m.xml$" --has "${PLUG_RUNS}a_ar48_upto_1m.xml$"
  -- select ${SWEEP} --collective allreduce --count 144 --dtype float32 --inplace)
ccforge_cli_test("select: count 100 is no multiple of 48: NCCL under both" 0
  --has "count 100 of float32" --has "${EXEC_NCCL}" --has "${PLUG_NCCL}"
  --has "nchunksperloop=48 does not divide count \\(count 100\\)"
  -- select ${SWEEP} --collective allreduce --bytes 400 --dtype float32 --inplace)
ccforge_cli_test("select: bfloat16 in place: the executor runs the windowed file, the plugin's -1 size misses it" 0
  --has "${EXEC_RUNS}a_ar48_upto_1m.xml$" --has "${PLUG_NCCL}" --has "returns -1 for bfloat16"
  --has "18446744073709551568 bytes"
  -- select ${SWEEP} --collective allreduce --count 48 --dtype bfloat16 --inplace)
ccforge_cli_test("select: fp8 in place: the same for the plugin" 0
  --has "count 48 of fp8e4m3 \\(48 bytes\\)" --has "${EXEC_RUNS}a_ar48_upto_1m.xml$" --has "${PLUG_NCCL}"
  -- select ${SWEEP} --collective allreduce --count 48 --dtype fp8e4m3 --inplace)
ccforge_cli_test("select: out of place below 1 MiB runs the unbounded 2-chunk file under both" 0
  --has "${EXEC_RUNS}b_ar2_outofplace.xml$" --has "${PLUG_RUNS}b_ar2_outofplace.xml$"
  -- select ${SWEEP} --collective allreduce --count 1000 --dtype float32 --outofplace)
ccforge_cli_test("select: out of place at 2 MiB: path order gives it to b, readdir order to b or e" 10
  --has "${EXEC_RUNS}b_ar2_outofplace.xml$" --has "${PLUG_OPEN}"
  --has "every rank \\(sees out-of-place\\): any of .*b_ar2_outofplace.xml, .*e_ar2_from_1m.xml"
  -- select ${SWEEP} --collective allreduce --bytes 2097152 --dtype float32 --outofplace)
ccforge_cli_test("select: bfloat16 out of place: the plugin's -1 size puts 2,000 bytes in the 1 MiB+ window too" 10
  --has "${EXEC_RUNS}b_ar2_outofplace.xml$" --has "${PLUG_OPEN}"
  -- select ${SWEEP} --collective allreduce --count 1000 --dtype bfloat16 --outofplace)
ccforge_cli_test("select: an odd count: no file divides it" 0
  --has "${EXEC_NCCL}" --has "${PLUG_NCCL}"
  -- select ${SWEEP} --collective allreduce --count 999 --dtype int8 --outofplace)
# allgather, 3 ranks
ccforge_cli_test("select: allgather count 1: the executor tests count x 3, the plugin count" 0
  --has "count 1 of float32 \\(12 bytes\\)" --has "${EXEC_RUNS}c_ag3_inplace.xml$" --has "${PLUG_NCCL}"
  -- select ${SWEEP} --collective allgather --count 1 --dtype float32 --inplace)
ccforge_cli_test("select: allgather count 5 (60 bytes)" 0
  --has "${EXEC_RUNS}c_ag3_inplace.xml$" --has "${PLUG_NCCL}"
  -- select ${SWEEP} --collective allgather --bytes 60 --dtype float32 --inplace)
ccforge_cli_test("select: allgather count 6 runs c under both" 0
  --has "count 6 of float32 \\(72 bytes\\)" --has "${EXEC_RUNS}c_ag3_inplace.xml$" --has "${PLUG_RUNS}c_ag3_inplace.xml$"
  -- select ${SWEEP} --collective allgather --bytes 72 --dtype float32 --inplace)
ccforge_cli_test("select: bfloat16 in-place allgather: under the plugin only rank 0 sees in-place" 10
  --has "${EXEC_RUNS}c_ag3_inplace.xml$" --has "${PLUG_OPEN}"
  --has "rank 0 \\(sees in-place\\): .*c_ag3_inplace.xml$" --has "ranks 1..2 \\(sees out-of-place\\): NCCL$"
  --has "the ranks do not run the same program"
  -- select ${SWEEP} --collective allgather --count 6 --dtype bfloat16 --inplace)
ccforge_cli_test("select: out-of-place allgather: no file serves it" 0
  --has "${EXEC_NCCL}" --has "${PLUG_NCCL}" --has "does not serve out-of-place calls"
  -- select ${SWEEP} --collective allgather --count 6 --dtype float32 --outofplace)
ccforge_cli_test("select: allgather on 2 ranks: the 3-rank file is for another rank count" 0
  --has "${EXEC_NCCL}" --has "c_ag3_inplace.xml: for 3 ranks"
  -- select ${SWEEP} --collective allgather --count 6 --dtype float32 --inplace --ranks 2)
# broadcast: the root is not compared
ccforge_cli_test("select: broadcast root 1 runs the file under both, whatever its root" 0
  --has "${EXEC_RUNS}d_bcast.xml$" --has "${PLUG_RUNS}d_bcast.xml$" --has "neither selector compares the root"
  -- select ${SWEEP} --collective broadcast --count 7 --dtype float64 --outofplace --root 1)
ccforge_cli_test("select: in-place broadcast: NCCL" 0
  --has "${EXEC_NCCL}" --has "${PLUG_NCCL}"
  -- select ${SWEEP} --collective broadcast --count 7 --dtype float32 --inplace --root 0)
ccforge_cli_test("select: no file for the collective" 0
  --has "no file of the directory is for reducescatter: NCCL runs every such call"
  -- select ${SWEEP} --collective reducescatter --count 8 --dtype float32 --outofplace)
ccforge_cli_test("select: --scheduler executor answers for the executor only" 0
  --has "${EXEC_RUNS}a_ar48_upto_1m.xml$" --lacks "plugin"
  -- select ${SWEEP} --collective allreduce --count 96 --dtype float16 --inplace --scheduler executor)
ccforge_cli_test("select: --scheduler rccl applies the executor's tests" 0
  --has "rccl \\(ROCm/rccl's internal scheduler, readdir order\\): every rank runs [^ ]*a_ar48_upto_1m.xml$"
  -- select ${SWEEP} --collective allreduce --count 96 --dtype float16 --inplace --scheduler rccl)
# b (0..unbounded) and e (from 1 MiB + 1) both take 1,049,600 bytes out of place: path order gives
# the call to b, RCCL's unsorted readdir order to either.
ccforge_cli_test("select: --scheduler rccl reads the directory in readdir order" 10
  --has "rccl \\(ROCm/rccl's internal scheduler, readdir order\\): not determined"
  -- select ${SWEEP} --collective allreduce --count 262400 --dtype float32 --outofplace --scheduler rccl)
ccforge_cli_test("select: bytes that no count of the type makes are a usage error" 1
  --has "--bytes 10 is not a positive multiple of 4"
  -- select ${SWEEP} --collective allreduce --bytes 10 --dtype float32 --inplace)
ccforge_cli_test("select: a root for an unrooted collective is a usage error" 1
  --has "allreduce has no root"
  -- select ${SWEEP} --collective allreduce --count 48 --dtype float32 --inplace --root 1)
ccforge_cli_test("select: one call form is required" 1
  --has "give one of --inplace and --outofplace"
  -- select ${SWEEP} --collective allreduce --count 48 --dtype float32)
ccforge_cli_test("select: an unknown data type is a usage error" 1
  --has "not one of NCCL's data types"
  -- select ${SWEEP} --collective allreduce --count 48 --dtype float128 --inplace)

# Azure/msccl-scheduler's shipped directories: no selection.dead error (ap2ll.xml takes counts
# such as 8,320, ar_tree_12_LL.xml every multiple of 24 in its window).
foreach(sku ndv4 ndv5)
  ccforge_cli_test("verify: msccl-scheduler's shipped ${sku} directory exits 0" 0
    --lacks ": error: " --lacks "selection.dead"
    -- verify ${FIXTURES}/msccl-scheduler/${sku})
endforeach()
# ncv4's neighbouring windows share their boundary: ar_tree_12_LL.xml ends at maxBytes=617472 and
# ar_hier_12_Simple.xml starts at minBytes=617472 (both tests are inclusive, msccl_lifecycle.cc
# and scheduler.cc), and count 154,368 of a 4-byte type (a multiple of 24) is 617,472 bytes; the
# same for the allgathers at 792,576 bytes (count 49,536, a multiple of 16). Both files accept
# such a call: readdir order picks either. Those two findings, and nothing else, fail it.
ccforge_cli_test("verify: msccl-scheduler's shipped ncv4 directory: only the two shared window boundaries" 10
  --has "ar_tree_12_LL.xml:1:1: error: .*count 154368 with a 4-byte type \\(617472 bytes\\).*\\[selection.ambiguous\\]$"
  --has "ag_hier_4_Simple.xml:1:1: error: .*count 49536 with a 4-byte type \\(792576 bytes\\).*\\[selection.ambiguous\\]$"
  --has "2 of 4 files verified" --lacks "selection.dead"
  -- verify ${FIXTURES}/msccl-scheduler/ncv4)
ccforge_cli_test("select: ndv5's ap2ll takes an allreduce of count 8,320 (33,280 bytes)" 0
  --has "${EXEC_RUNS}ap2ll.xml$"
  -- select ${FIXTURES}/msccl-scheduler/ndv5 --collective allreduce --count 8320 --dtype float32 --inplace --scheduler executor)

# Rule control: ncv4's two real boundary ambiguities (select.cmake above) accepted by a team that
# decides they may stay, as a linter's --warn or --disable would.
ccforge_cli_test("verify: --warn selection.ambiguous turns ncv4's two ambiguities into warnings" 0
  --has "ar_tree_12_LL.xml:1:1: warning: .*\\[selection.ambiguous\\]" --has "4 of 4 files verified .*exit code 0"
  -- verify ${FIXTURES}/msccl-scheduler/ncv4 --warn selection.ambiguous)
ccforge_cli_test("verify: --disable selection drops the group's findings and says so" 0
  --has "1 finding of rule selection.ambiguous not reported \\(disabled by --disable or the configuration file\\)" --lacks "warning: .*selection.ambiguous"
  -- verify ${FIXTURES}/msccl-scheduler/ncv4 --disable selection)
ccforge_cli_test("verify: --error upgrades a warning rule" 10
  --has "error: .*\\[limits.hasdep\\]" --has "VIOLATION \\(1 error, 0 warnings\\)"
  -- verify --error limits.hasdep ${FIXTURES}/verify/limits/hasdep_later_step.xml)
ccforge_cli_test("verify: --disable of an unknown rule is a usage error" 1
  --has "--disable selectio: no rule or group of rules has this name" -- verify ${FIXTURES}/msccl-scheduler/ncv4 --disable selectio)

# The plugin's own selection code, compiled unmodified, against `select --scheduler plugin` on every
# call of a sweep (tests/e2e/plugin_select/compare_plugin.py says which calls). ccforge does not ship
# the plugin's source, so this runs only where a configure names the two checkouts:
#   -DCCFORGE_MSCCL_SCHEDULER_SRC=<Azure/msccl-scheduler> -DCCFORGE_MSCCL_EXECUTOR_SRC=<Azure/msccl-executor-nccl>
if(CCFORGE_MSCCL_SCHEDULER_SRC AND CCFORGE_MSCCL_EXECUTOR_SRC)
  add_test(NAME "cli: select agrees with the msccl-scheduler plugin's own code on every call of the sweep"
    COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/plugin_select/compare_plugin.py $<TARGET_FILE:ccforge>
      ${CCFORGE_MSCCL_SCHEDULER_SRC} ${CCFORGE_MSCCL_EXECUTOR_SRC} ${SWEEP} ${FIXTURES}/msccl-scheduler/ncv4
      ${FIXTURES}/msccl-scheduler/ndv4 ${FIXTURES}/msccl-scheduler/ndv5)
  set_tests_properties("cli: select agrees with the msccl-scheduler plugin's own code on every call of the sweep"
    PROPERTIES TIMEOUT 1800)
endif()
