# `ccforge run`: exit codes and output of the runtime's command (docs/runtime.md).
set(_corpus ${PROJECT_SOURCE_DIR}/tests/fixtures/msccl-tools)
set(_own ${PROJECT_SOURCE_DIR}/tests/runtime/fixtures)
set(_ring ${_corpus}/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml)

function(ccforge_runtime_e2e name exit_code)
  cmake_parse_arguments(ARG "" "" "EXPECT;ARGS" ${ARGN})
  add_test(NAME "e2e run: ${name}" COMMAND ${CCFORGE_EXPECT} ${exit_code} ${ARG_EXPECT} -- $<TARGET_FILE:ccforge> run ${ARG_ARGS})
  set_tests_properties("e2e run: ${name}" PROPERTIES TIMEOUT 120)
endfunction()

ccforge_runtime_e2e("a valid ring allreduce matches the reference" 0
  EXPECT --has "path: interpreter" --has "check: all 16384 constrained output elements match" --has "busbw [0-9.]+ GB/s"
  ARGS ${_ring} --count 4096 --iters 3)
ccforge_runtime_e2e("integer types are checked exactly" 0
  EXPECT --has "match the reference exactly"
  ARGS ${_corpus}/valid/allreduce_hierarchical_2nodes_x3gpus_i1_auto.xml --count 6000 --dtype i64 --op prod --iters 0)
ccforge_runtime_e2e("a program set: the size picks the program or the fallback" 0
  EXPECT --has "path: reference fallback" --has "count 7 is not a multiple of nchunksperloop 4"
  ARGS ${_ring} --count 7 --fallback --iters 1)
ccforge_runtime_e2e("a count the chunks do not divide is a usage error" 1
  EXPECT --has "no program can serve this call" --has "count 7 is not a multiple of nchunksperloop 4" --has "--fallback"
  ARGS ${_ring} --count 7)
ccforge_runtime_e2e("avg is not interpreted" 1
  EXPECT --has "op avg is not supported by the interpreter"
  ARGS ${_ring} --count 1024 --op avg)
ccforge_runtime_e2e("avg falls back to the reference" 0
  EXPECT --has "path: reference fallback" --has "match the reference"
  ARGS ${_ring} --count 1024 --op avg --fallback --iters 0)
ccforge_runtime_e2e("an unknown dtype is a usage error" 1
  EXPECT --has "unsupported --dtype 'f8' \\(supported: f32, f16, bf16, f64, i32, i64, u8\\)"
  ARGS ${_ring} --dtype f8)
ccforge_runtime_e2e("a program for another rank count" 1
  EXPECT --has "it is for 4 ranks, the call has 3"
  ARGS ${_ring} --ranks 3)
ccforge_runtime_e2e("a deadlock is reported with the blocked thread blocks" 10
  EXPECT --has "deadlock: 2 thread blocks wait" --has "rank 0 tb 0 step 0 tile 0: waits for data from rank 1 on channel 0"
  ARGS ${_own}/recv_before_send_allreduce_n2.xml --count 64)
ccforge_runtime_e2e("too few FIFO slots deadlock the LL128 ring" 10
  EXPECT --has "waits for a free FIFO slot"
  ARGS ${_ring} --count 64 --slots 1)
ccforge_runtime_e2e("the watchdog's time limit is inconclusive, not a verdict" 5
  EXPECT --has "the watchdog stopped the launch after 0.001 s"
  ARGS ${_corpus}/valid/allgather_ring_simple_oop_n4.xml --count 4194304 --dtype f64 --timeout 0.001 --workers 1)
ccforge_runtime_e2e("an out-of-bounds program is refused at load" 10
  EXPECT --has "rrc_srcoff_probe_allreduce_n2.xml:18:7: rank 1 tb 1 step 1 \\(rrcs\\): source chunks .1, 2. are outside the scratch buffer"
  ARGS ${_corpus}/invalid/rrc_srcoff_probe_allreduce_n2.xml --no-verify)
ccforge_runtime_e2e("a missing file is unreadable input" 2
  EXPECT --has "no_such_file.xml"
  ARGS ${_own}/no_such_file.xml)
if(CCFORGE_RUNTIME_CUDA)
  # Whether a GPU is present decides the outcome; tests/runtime/cuda_test.cpp covers the CUDA backend.
else()
  ccforge_runtime_e2e("the CUDA backend is absent from a CPU-only build" 5
    EXPECT --has "built without CUDA"
    ARGS ${_ring} --backend cuda)
endif()
