# End-to-end tests of `ccforge tune` (docs/tune.md): one machine, two collectives, library
# candidates only (the 4 x 4 matrix with synthesis is bench/tune/tune_matrix.sh).
set(TUNE_OUT ${CMAKE_CURRENT_BINARY_DIR}/tune_out)

# The directory tune writes passes its own check and `ccforge verify DIR` (the runtime's
# selection: no call selects two files), and holds the report, the plots and the legacy configs.
dsl_shell_test("tune h100-2 allreduce allgather writes a verified directory" 0
  --has "allreduce on h100-2 \\(16 ranks\\)" --has "allgather on h100-2 \\(16 ranks\\)"
  --has "verify [^ ]+: verified" --has ", 0 accepted by more than one file"
  --has "^report files present$" --lacks "ambiguous"
  --has "legacy MSCCL_CONFIG allreduce: [1-9][0-9]* of [1-9][0-9]* loads. the legacy selector gives [1-9][0-9]* of the [1-9][0-9]* power-of-two calls inside their windows to the window's file .*, 0 to another file"
  --lacks "legacy misrouted"
  -- "rm -rf ${TUNE_OUT}/h100 && $CCFORGE tune h100-2 allreduce allgather -o ${TUNE_OUT}/h100 --no-synth && $CCFORGE verify ${TUNE_OUT}/h100 && cd ${TUNE_OUT}/h100/report && ls report.md index.json plot-allreduce.svg plot-allgather.svg msccl-config-allreduce.xml msccl-config-allgather.xml >/dev/null && grep -q '<msccl_algos>' msccl-config-allreduce.xml && grep -q 'path=\"[^\"]*/report/legacy/allreduce/' msccl-config-allreduce.xml && $CCFORGE verify --profile msccl-legacy legacy/allreduce >/dev/null && $CCFORGE verify --profile msccl-legacy legacy/allgather >/dev/null && echo 'report files present'")
# Reducescatter: the legacy runtime reads coll="reduce_scatter" only, so its copies are spelled so
# (the executor's file keeps coll="reducescatter"). h100-2's synthesized window from 1 MiB (below,
# its gain is inside the model's error).
dsl_shell_test("tune writes the legacy runtime's reducescatter programs as it spells them" 0
  --has "^<algo name=.* coll=\"reduce_scatter\" inplace=\"0\" minBytes=\"1048576\" maxBytes=\"2097152\">"
  --has "^<algo name=.* coll=\"reducescatter\" inplace=\"0\" outofplace=\"1\" minBytes=\"1048576\" maxBytes=\"2097151\">"
  -- "rm -rf ${TUNE_OUT}/rs && $CCFORGE tune h100-2 reducescatter -o ${TUNE_OUT}/rs -b 256K -e 1M >/dev/null && head -qn1 ${TUNE_OUT}/rs/report/legacy/reducescatter/*.xml ${TUNE_OUT}/rs/*.xml")
# A second run into the same directory needs --force (the executor would load both sets).
dsl_shell_test("tune refuses a non-empty directory without --force" 1
  --has "is not empty" --has "--force"
  -- "mkdir -p ${TUNE_OUT}/busy && touch ${TUNE_OUT}/busy/old.xml && $CCFORGE tune dgx1 allreduce -o ${TUNE_OUT}/busy --no-synth --no-library")
dsl_shell_test("tune --force refuses files it did not write" 1
  --has "holds notes.txt, which tune did not write"
  -- "mkdir -p ${TUNE_OUT}/other && touch ${TUNE_OUT}/other/notes.txt && $CCFORGE tune dgx1 allreduce -o ${TUNE_OUT}/other --no-synth --no-library --force")
# With no candidates at all NCCL keeps every size: an empty directory, which verifies.
ccforge_cli_test("tune without candidates leaves every size to NCCL" 0
  --has "NCCL at every size" --has "0 files written"
  --has "^ccforge tune: no program file written to [^ ]*/none: NCCL serves every call. for each candidate, why:$"
  --has "^ccforge tune: alltoall: no candidate \\(0 not usable\\)$"
  -- tune dgx1 alltoall -o ${TUNE_OUT}/none --no-synth --no-library --force)
# Issue 32: with candidates that all lose (the DGX-1 library rings have nchunksperloop 48, which no
# power-of-two count fills), tune writes no program file: exit 0, with a warning on stderr and in
# index.json that gives each candidate's reason.
dsl_shell_test("tune that writes no program file says why for each candidate" 0
  --has "^0 files written to [^ ]*/lose. verify [^ ]*: verified"
  --has "^ccforge tune: no program file written to [^ ]*/lose: NCCL serves every call. for each candidate, why:$"
  --has "^ccforge tune: allgather #1 ring-allgather [^:]*: not written: the runtime selects it for no size it was simulated at \\(at 1K: with nchunksperloop=48 it does not serve "
  --has "^index warns$" --has "^not_written: [1-9][0-9]*$"
  -- "rm -rf ${TUNE_OUT}/lose && $CCFORGE tune dgx1 allgather -o ${TUNE_OUT}/lose --no-synth 2>&1 && grep -q 'no program file written to' ${TUNE_OUT}/lose/report/index.json && echo 'index warns' && echo not_written: $(grep -c not_written ${TUNE_OUT}/lose/report/index.json)")
ccforge_cli_test("tune refuses collectives it does not tune" 1
  --has "tune takes allreduce, allgather, reducescatter and alltoall, not 'broadcast'"
  -- tune dgx1 broadcast -o ${TUNE_OUT}/bad)
ccforge_cli_test("tune refuses a range that is not powers of two" 1
  --has "must run between powers of two"
  -- tune dgx1 allreduce -o ${TUNE_OUT}/bad -b 3000)
# Determinism: two runs write the same algorithm files and the same report (the legacy configs
# differ only in the directory they name).
dsl_shell_test("tune output is byte-identical on re-run" 0
  --has "^identical$"
  -- "rm -rf ${TUNE_OUT}/det1 ${TUNE_OUT}/det2 && $CCFORGE tune h100-2 allreduce allgather -o ${TUNE_OUT}/det1 --no-synth >/dev/null && $CCFORGE tune h100-2 allreduce allgather -o ${TUNE_OUT}/det2 --no-synth >/dev/null && diff -r -x 'msccl-config-*' ${TUNE_OUT}/det1 ${TUNE_OUT}/det2 && echo identical")
if(CCFORGE_SANITIZE)  # two whole tune runs: about 5 minutes each under ASan+UBSan
  set_tests_properties("cli: tune output is byte-identical on re-run" PROPERTIES TIMEOUT 1500)
endif()
# Chunk counts: recursive doubling on 16 ranks has one chunk per rank (nchunksperloop 16). At
# 1 KiB an 8-byte allgather passes count 8 per rank, which the msccl-scheduler plugin tests
# against 16 directly: that call is unserved, so 1 KiB is not given to it and the report says why.
dsl_shell_test("tune says which counts a faster candidate cannot serve" 0
  --has "would be the fastest at 1K, but with nchunksperloop=16 it does not serve 8-byte elements \\(count 8\\) under the msccl-scheduler plugin, which takes counts that are multiples of 16"
  -- "rm -rf ${TUNE_OUT}/counts && $CCFORGE tune h100-2 allgather -o ${TUNE_OUT}/counts --no-synth -e 4K >/dev/null && cat ${TUNE_OUT}/counts/report/report.md")
