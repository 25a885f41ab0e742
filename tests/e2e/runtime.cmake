# `ccforge run` (docs/runtime.md): exit codes and output. Uses ccforge_cli_test from CMakeLists.txt.
set(RUN_RING ${SAMPLES}/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml)
set(RUN_OWN ${PROJECT_SOURCE_DIR}/tests/runtime/fixtures)

ccforge_cli_test("run: a valid ring allreduce is verified, runs and matches the reference" 0
  --has "verification at load: .*: verified \\(msccl-legacy profile, from the header\\): format passed, limits passed, buffers passed, connections passed, deadlock passed, races passed, postcondition passed"
  --has "path: interpreter" --has "check: all 16384 constrained output elements match" --has "busbw [0-9.]+ GB/s"
  -- run ${RUN_RING} --count 4096 --iters 3)
ccforge_cli_test("run: integer types are checked exactly" 0
  --has "match the reference exactly"
  -- run ${SAMPLES}/valid/allreduce_hierarchical_2nodes_x3gpus_i1_auto.xml --count 6000 --dtype i64 --op prod --iters 0)
# `run` refuses what `verify` rejects, limits included, with verify's findings and exit code.
ccforge_cli_test("run: a file verify rejects only for a runtime limit is refused with verify's findings" 10
  --has "allreduce_ring_a100_n8_ch8_i5_nchannels40.xml: verification at load failed: ccforge verify rejects it"
  --has ": error: .*nchannels=40 is outside 1..32.* \\[limits.channels\\]$" --has "verdict: VIOLATION" --lacks "check: "
  -- run ${SAMPLES}/invalid/allreduce_ring_a100_n8_ch8_i5_nchannels40.xml --count 4000 --iters 0)
ccforge_cli_test("run: --no-verify runs a file verify rejects" 0
  --has "verification at load: skipped \\(--no-verify\\)" --has "check: all"
  -- run ${SAMPLES}/invalid/allreduce_ring_a100_n8_ch8_i5_nchannels40.xml --count 4000 --iters 0 --no-verify)
ccforge_cli_test("run: --profile overrides the header's profile" 10
  --has "missing attribute 'outofplace' on <algo>: msccl-executor requires it"
  -- run ${RUN_RING} --count 4096 --iters 0 --profile msccl-executor)
ccforge_cli_test("run: what the runtime's own parser refuses is refused" 10
  --has ":[0-9]+:[0-9]+: error: .*\\[format.runtime-parser\\]$"
  -- run ${FIXTURES}/verify/format/xml_declaration.xml --count 64 --iters 0)
ccforge_cli_test("run: outside the programs, --fallback runs the reference and says why" 0
  --has "path: reference fallback" --has "count 7 is not a multiple of nchunksperloop 4" --has "check: all"
  -- run ${RUN_RING} --count 7 --fallback --iters 1)
ccforge_cli_test("run: a count the chunks do not divide is a usage error" 1
  --has "no program can serve this call" --has "count 7 is not a multiple of nchunksperloop 4" --has "--fallback"
  -- run ${RUN_RING} --count 7)
ccforge_cli_test("run: avg is not interpreted" 1
  --has "op avg is not supported by the interpreter"
  -- run ${RUN_RING} --count 1024 --op avg)
ccforge_cli_test("run: avg falls back to the reference" 0
  --has "path: reference fallback" --has "match the reference"
  -- run ${RUN_RING} --count 1024 --op avg --fallback --iters 0)
ccforge_cli_test("run: an unknown dtype is a usage error" 1
  --has "unsupported --dtype 'f8' \\(supported: f32, f16, bf16, f64, i32, i64, u8\\)"
  -- run ${RUN_RING} --dtype f8)
ccforge_cli_test("run: a program for another rank count" 1
  --has "it is for 4 ranks, the call has 3"
  -- run ${RUN_RING} --ranks 3)
ccforge_cli_test("run: a deadlocking program is refused at load" 10
  --has "verification at load failed" --has "deadlock.cycle"
  -- run ${RUN_OWN}/recv_before_send_allreduce_n2.xml --count 64)
ccforge_cli_test("run: without verification, the watchdog reports the deadlock" 10
  --has "deadlock: 2 thread blocks wait" --has "rank 0 tb 0 step 0 tile 0: waits for data from rank 1 on channel 0"
  -- run ${RUN_OWN}/recv_before_send_allreduce_n2.xml --count 64 --no-verify)
ccforge_cli_test("run: one transfer in flight deadlocks the LL128 ring, at load" 10
  --has ": error: deadlock .*slots=1.* \\[deadlock.cycle\\]$"
  -- run ${RUN_RING} --count 64 --slots 1)
ccforge_cli_test("run: one transfer in flight deadlocks the LL128 ring, at run time" 10
  --has "waits for a free FIFO slot"
  -- run ${RUN_RING} --count 64 --slots 1 --no-verify)
ccforge_cli_test("run: the watchdog's time limit is inconclusive, not a verdict" 5
  --has "the watchdog stopped the launch after 0.001 s"
  -- run ${SAMPLES}/valid/allgather_ring_simple_oop_n4.xml --count 4194304 --dtype f64 --timeout 0.001 --workers 1 --no-verify)
ccforge_cli_test("run: an out-of-bounds program is refused at load" 10
  --has "rrc_srcoff_probe_allreduce_n2.xml:18:7: error: rank 1 tb 1 step 1 \\(rrcs\\): source chunks .1, 2. are outside the scratch buffer"
  -- run ${SAMPLES}/invalid/rrc_srcoff_probe_allreduce_n2.xml --no-verify)
# Issue 32: maxBytes = 2^63 - 2 made the deadlock check look at one configuration, so run passed
# this file at load and then deadlocked at --count 8388608 (one chunk per transfer).
ccforge_cli_test("run: a size window near 2^63 is refused at load for its deadlock" 10
  --has "verification at load failed" --has "deadlock with tiles=1 maxAllowedCount=1 slots=2 .*deadlock.cycle"
  -- run ${FIXTURES}/verify/deadlock/window_maxbytes_2p63_minus_2.xml --count 8388608 --iters 0)
# Issue 32: scratch starts as the poison byte (NaN for f32, -1 for i32), not zero, so a program
# that reduces a received chunk with s[0], which nothing wrote, fails the check; zeroed scratch
# made the sum come out right. `verify` rejects the file, so it runs only with --no-verify.
ccforge_cli_test("run: a reduction with unwritten scratch fails the check, f32" 10
  --has "verification at load: skipped" --has "check: 4096 of 8192 output elements differ from the reference"
  --has "rank 0 output.2048.: got -?nan, expected"
  -- run ${RUN_OWN}/rrc_unwritten_scratch_alltoall_n2.xml --count 2048 --iters 0 --no-verify)
ccforge_cli_test("run: a reduction with unwritten scratch fails the check, i32" 10
  --has "check: 4096 of 8192 output elements differ from the reference"
  -- run ${RUN_OWN}/rrc_unwritten_scratch_alltoall_n2.xml --count 2048 --dtype i32 --iters 0 --no-verify)
ccforge_cli_test("run: verify rejects the reduction with unwritten scratch at load" 10
  --has "verification at load failed" --has "nothing wrote \\(uninitialised\\)"
  -- run ${RUN_OWN}/rrc_unwritten_scratch_alltoall_n2.xml --count 2048 --iters 0)
# Issue 32: s_chunks=2147483647 asks for 2^31 - 1 chunks of scratch per rank. `verify` cannot
# decide the file (its symbolic checks refuse that many chunks), so run runs it: the scratch is
# refused before anything is allocated, located at the <gpu>, exit 1 (it was bad_alloc, exit 6).
ccforge_cli_test("run: scratch past the memory limit is refused up front at the <gpu>" 1
  --has "scratch_int32_max_alltoall_n2.xml:2:3: error: rank 0 declares s_chunks=2147483647: with count 16 x f32 its scratch takes 128 GiB, and the call needs about 256 GiB of host memory in all, over the limit of [0-9.]+ [GT]iB"
  --lacks "internal error" --lacks "bad_alloc"
  -- run ${RUN_OWN}/scratch_int32_max_alltoall_n2.xml --count 16 --iters 0)
ccforge_cli_test("run: scratch past the memory limit is refused in a sweep too" 1
  --has "scratch_int32_max_alltoall_n2.xml:2:3: error: rank 0 declares s_chunks=2147483647"
  --lacks "internal error"
  -- run ${RUN_OWN}/scratch_int32_max_alltoall_n2.xml -b 1K --iters 1 --no-verify)
ccforge_cli_test("run: a missing file is unreadable input" 2
  --has "no_such_file.xml"
  -- run ${RUN_OWN}/no_such_file.xml)
if(NOT CCFORGE_RUNTIME_CUDA)
  ccforge_cli_test("run: the CUDA backend is absent from a CPU-only build" 5
    --has "built without CUDA"
    -- run ${RUN_RING} --backend cuda)
endif()
# With CUDA built in, whether a GPU is present decides; tests/runtime/cuda_test.cpp covers the CUDA backend.
