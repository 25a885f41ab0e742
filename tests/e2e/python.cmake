# End-to-end tests of the Python front end (docs/python.md): `ccforge compile|dot SCRIPT.py ...`
# on msccl-tools-style scripts written for these tests (tests/fixtures/python). Each test states
# the exit code and where an error must be reported (FILE:LINE:COL of the script).
set(PY ${FIXTURES}/python)
set(PY_OUT ${CMAKE_CURRENT_BINARY_DIR}/python)
file(MAKE_DIRECTORY ${PY_OUT})

function(python_cli_test name code)
  ccforge_cli_test("python: ${name}" ${code} ${ARGN})
  # CPython keeps some memory until the process ends; LeakSanitizer would count it (sanitizer build).
  set_tests_properties("cli: python: ${name}" PROPERTIES ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
endfunction()

python_cli_test("ring allreduce compiles and verifies (script arguments passed through)" 0
  --has "ccforge compile: .*ring_allreduce.py 4 1 --protocol LL: 4 ranks, .* thread blocks, .* steps .*verified for msccl-executor"
  --has "<algo name=\"test_ring_allreduce\" proto=\"LL\"" --has "coll=\"allreduce\""
  -- compile ${PY}/ring_allreduce.py 4 1 --protocol LL)
# A script's output is for the executor, as the library's is: its parser refuses a header
# without minBytes and maxBytes (msccl-tools' header); --profile msccl-legacy writes that one.
python_cli_test("a script's output gets the executor header by default" 0
  --has "outofplace=\"0\" minBytes=\"0\" maxBytes=\"0\">"
  -- compile ${PY}/ring_allreduce.py 4 1)
python_cli_test("a script's output gets the legacy header with --profile msccl-legacy" 0
  --has "coll=\"allreduce\" inplace=\"1\">" --lacks "minBytes"
  -- compile ${PY}/ring_allreduce.py 4 1 --profile msccl-legacy)
# Chains of forwarded transfers that come back to a rank with one peer the same and the other
# different cannot be one thread block: fusion stops before the clash. With 4 x 8 and 8 x 8 the
# chains kept apart from the others need more channels than there are, so chains over the same
# links share them (msccl-tools' flows).
python_cli_test("a two-level allreduce whose forwarding chains come back to a rank compiles and verifies" 0
  --has "two_level_rings.py 2 3 2 --protocol LL: 6 ranks, .*verified for msccl-executor"
  -- compile ${PY}/two_level_rings.py 2 3 2 --protocol LL -o ${PY_OUT}/two_level_2x3.xml)
python_cli_test("a two-level allreduce of 8 nodes compiles and verifies when isolated chains share channels" 0
  --has "two_level_rings.py 4 8 1: 32 ranks, .*verified for msccl-executor"
  -- compile ${PY}/two_level_rings.py 4 8 1 -o ${PY_OUT}/two_level_4x8.xml)
python_cli_test("a two-level allreduce of 32 nodes of 8 compiles and verifies with the longest chains placed first" 0
  --has "two_level_rings.py 8 32 1: 256 ranks, 32 channels, .*verified for msccl-executor"
  -- compile ${PY}/two_level_rings.py 8 32 1 -o ${PY_OUT}/two_level_8x32.xml)
python_cli_test("a two-level allreduce of 64 nodes of 8 compiles and verifies with one pairing per connection" 0
  --has "two_level_rings.py 8 64 1: 512 ranks, .*verified for msccl-executor"
  -- compile ${PY}/two_level_rings.py 8 64 1 -o ${PY_OUT}/two_level_8x64.xml)
# Every rank starts three chains on the one channel the script pins: the schedule must hold back
# the sends that start chains so that forwards keep a slot (threadblocks.hpp, Injection); without
# that the file deadlocks with Simple's two slots and verify refuses it (exit 10).
python_cli_test("a ring whose ranks each start three chains on one pinned channel compiles and verifies" 0
  --has "ring_many_starts.py 4 3: 4 ranks, 1 channels, .*verified for msccl-executor"
  -- compile ${PY}/ring_many_starts.py 4 3 -o ${PY_OUT}/ring_many_starts.xml)
python_cli_test("ring allreduce with -o and two instances writes the file" 0
  --has "ring_allreduce.py 3 2: 3 ranks" --lacks "<algo"
  -- compile ${PY}/ring_allreduce.py 3 2 -o ${PY_OUT}/ring.xml)
python_cli_test("ring allreduce for the executor profile" 0
  --has "outofplace=\"0\"" --has "verified for msccl-executor"
  -- compile ${PY}/ring_allreduce.py 4 1 --profile msccl-executor)
python_cli_test("a missing copy breaks the allreduce postcondition at XML()" 10
  --has "ring_allreduce.py:23:9: error: program 'test_ring_allreduce' does not implement allreduce"
  --has "rank [0-9] output\\[[0-9]\\] holds"
  --lacks "Traceback"
  -- compile ${PY}/ring_allreduce.py 4 1 --drop-last)
python_cli_test("argparse usage errors are the script's (exit 2)" 2
  --has "usage: .*ring_allreduce.py"
  -- compile ${PY}/ring_allreduce.py)
python_cli_test("custom collective from a Collective subclass verifies" 0
  --has "alltonext.py 4 2: 4 ranks" --has "coll=\"custom\"" --has "verified for msccl-legacy"
  -- compile ${PY}/alltonext.py 4 2)
python_cli_test("custom collective: check() rejects a wrong route at Check()" 10
  --has "alltonext.py:40:9: error: ToNext.check\\(\\) returned False"
  --has "rank 3 output 0: expected chunk \\(2, 0\\)"
  -- compile ${PY}/alltonext.py 4 2 --bug)
python_cli_test("alltoall through named scratch buffers with manual thread blocks" 0
  --has "alltoall_scratch.py: 4 ranks" --has "coll=\"alltoall\"" --has "s_chunks=\"3\""
  -- compile ${PY}/alltoall_scratch.py)
python_cli_test("stale reference names both lines" 10
  --has "errors.py:16:9: error: copy\\(rank 0 output\\[0\\] -> rank 1 output\\[0\\]\\): the source reference to rank 0 output\\[0\\] is stale: .*overwritten by copy at .*errors.py:15"
  -- compile ${PY}/errors.py stale)
python_cli_test("reading an uninitialised output chunk" 10
  --has "errors.py:18:9: error: chunk\\(rank 1 output\\[0\\]\\): reads an uninitialised chunk"
  -- compile ${PY}/errors.py uninitialised)
python_cli_test("reading a scratch chunk nobody wrote" 10
  --has "errors.py:20:9: error: chunk\\(1, tmp, 3, 1\\): reads an uninitialised chunk: rank 1 buffer 'tmp'\\[3\\]"
  -- compile ${PY}/errors.py scratch)
python_cli_test("index out of range" 10
  --has "errors.py:22:9: error: copy\\(.*\\): rank 1 output\\[5\\] is outside the output buffer, which has 1 chunks"
  -- compile ${PY}/errors.py range)
python_cli_test("Check() reports the wrong output chunk and the call that wrote it" 10
  --has "errors.py:29:9: error: Check\\(\\): the program does not implement allreduce: 1 output chunk is wrong"
  --has "rank 0 output\\[0\\] holds uninitialised"
  -- compile ${PY}/errors.py postcondition)
python_cli_test("an exception of the script itself points at its line (exit 2, no traceback)" 2
  --has "errors.py:31:9: error: NameError: name 'undefined_name' is not defined"
  --lacks "Traceback"
  -- compile ${PY}/errors.py python)
python_cli_test("an unsupported call names itself and its line" 2
  --has "errors.py:33:9: error: Print\\(\\) is not supported by ccforge"
  -- compile ${PY}/errors.py unsupported)
python_cli_test("dot draws a script's Chunk DAG" 0
  --has "digraph"
  -- dot ${PY}/ring_allreduce.py 3 1 --view chunk-dag)
python_cli_test("dot draws a script's Instruction DAG" 0
  --has "digraph"
  -- dot ${PY}/alltonext.py 3 1 --view instruction-dag)
python_cli_test("a missing script is reported" 2
  --has "no_such_script.py"
  -- compile ${PY}/no_such_script.py)
python_cli_test("a script with two programs writes two files" 0
  --has "two_programs.py \\(program 1 of 2\\): 2 ranks.*written to .*two.xml"
  --has "two_programs.py \\(program 2 of 2\\): 3 ranks.*written to .*two.2.xml"
  -- compile ${PY}/two_programs.py -o ${PY_OUT}/two.xml)
python_cli_test("SCCL JSON: a synthesized-form ring allgather is lowered and verifies" 0
  --has "ring_allgather_sccl.json: 4 ranks, .* thread blocks, .* steps .*verified for msccl-executor"
  --has "<algo name=\"ring-allgather-sccl-form\"" --has "coll=\"allgather\""
  -- compile ${FIXTURES}/python/ring_allgather_sccl.json)
python_cli_test("SCCL JSON: an algorithm missing its last step fails its postcondition" 10
  --has "ring_allgather_sccl_incomplete.json:1:1: error: program .ring-allgather-sccl-broken. does not implement allgather"
  --has "rank 0 output\\[1\\] holds uninitialised, expected in\\(1,0\\)"
  -- compile ${FIXTURES}/python/ring_allgather_sccl_incomplete.json)
python_cli_test("dot --verify checks a custom collective against its Python postcondition" 0
  --has "ccforge dot: verify: verified \\(0 errors. msccl-legacy profile\\)"
  -- dot ${PY}/alltonext.py 3 1 --verify)
# The command's own options come from its registration: --all-ranks (missing from the hand-kept
# list this replaced) is dot's, --protocol after a script the script's (ring_allreduce.py takes it).
python_cli_test("dot: every registered option of dot may follow a script's arguments" 0
  --has "^digraph" --lacks "unrecognized arguments"
  -- dot ${PY}/ring_allreduce.py 4 1 --protocol LL --all-ranks)
python_cli_test("arguments after -- go to the script verbatim" 0
  --has "ring_allreduce.py 3 1 --protocol LL: 3 ranks" --has "proto=\"LL\""
  -- compile ${PY}/ring_allreduce.py -- 3 1 --protocol LL)
add_test(NAME "cli: python: the same script gives byte-identical IR"
  COMMAND ${CCFORGE_EXPECT} 0 --has "^identical$" -- sh -c
  "cd ${PY_OUT} && $<TARGET_FILE:ccforge> compile ${PY}/alltoall_scratch.py -o det1.xml 2>/dev/null && $<TARGET_FILE:ccforge> compile ${PY}/alltoall_scratch.py -o det2.xml 2>/dev/null && cmp det1.xml det2.xml && echo identical")
set_tests_properties("cli: python: the same script gives byte-identical IR" PROPERTIES TIMEOUT 300
  ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")

# A custom collective's spec goes into the file (a comment inside <algo>, which the runtimes
# skip), so the file verifies with no flag; a spec that does not fit the program is an error.
add_test(NAME "cli: python: a custom collective's file verifies with no flag, from the spec written into it"
  COMMAND ${CCFORGE_EXPECT} 0 --has "<!-- ccforge-collective-spec \\{\"name\":\"custom\",\"ranks\":4,"
  --has "note: coll=\"custom\": checking 'custom', the collective spec ccforge wrote into the file"
  --has "verdict: VERIFIED" --has "error: the collective spec in the file is for 3 ranks, the program has ngpus=4 \\[limits.collective\\]"
  -- sh -c "'$<TARGET_FILE:ccforge>' compile '${PY}/alltonext.py' 4 2 -o '${PY_OUT}/tonext.xml' > /dev/null && cat '${PY_OUT}/tonext.xml' && '$<TARGET_FILE:ccforge>' verify '${PY_OUT}/tonext.xml' && sed 's/\"ranks\":4,/\"ranks\":3,/' '${PY_OUT}/tonext.xml' > '${PY_OUT}/tonext_bad.xml' && '$<TARGET_FILE:ccforge>' verify '${PY_OUT}/tonext_bad.xml' || test $? = 10")
set_tests_properties("cli: python: a custom collective's file verifies with no flag, from the spec written into it"
  PROPERTIES ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
python_cli_test("fused GEMV + AllReduce from compute() compiles and verifies for ccforge-fused" 0
  --has "gemv_fused.py: 4 ranks, .* verified for ccforge-fused" --has "coll=\"fused-allreduce\""
  --has "<product op=\"gemv\" a=\"0\" b=\"1\" rows=\"32\" cols=\"1\"/>" --has "type=\"cmp\"[^>]* op=\"gemv\" row=\"[0-9]+\" nrows=\"4\""
  -- compile ${PY}/gemv_fused.py)
python_cli_test("fused: computing a slice twice names both lines" 10
  --has "gemv_fused.py:24:9: error: compute\\(rank 0 input\\[0\\]\\): rank 0 input\\[0\\] is already defined, by compute at .*gemv_fused.py:22"
  -- compile ${PY}/gemv_fused.py twice)
python_cli_test("fused: a stock runtime's profile is refused" 10
  --has "is a fused program \\(it computes\\), which msccl-executor cannot run. compile it for ccforge-fused"
  -- compile ${PY}/gemv_fused.py --profile msccl-executor)

# The sandbox (docs/python.md, "Scripts run in a sandbox"): every way a hostile script can end,
# each with its exit code, located message and time bound stated in the script. Alone, so that
# its CPU-time and wall-clock cases are timed on an idle machine.
add_test(NAME "cli: python: hostile scripts end as documented (limits, exits, signals, writes, network, forged results)"
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/hostile_scripts.sh $<TARGET_FILE:ccforge> $<BOOL:${CCFORGE_SANITIZE}>)
set_tests_properties("cli: python: hostile scripts end as documented (limits, exits, signals, writes, network, forged results)"
  PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
