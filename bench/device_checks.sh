#!/usr/bin/env bash
# The GPU checks of one lent device session (docs/benchmarks.md, sections marked "measured on a
# GPU"), run on that machine over binaries built elsewhere: the CUDA tests, compute-sanitizer on the
# fused test, the runtime throughput benchmark and the fused GEMV + AllReduce benchmark.
#
# usage: bench/device_checks.sh BIN_DIR OUT_DIR [SECTION...]   (sections: tests sanitizer fused small
#   lanes fill profile runtime; default all; RUNTIME_PROGRAM=NAME limits runtime to one program;
#   TESTS=PATTERN limits the CUDA tests to the Catch2 test names it matches)
#   BIN_DIR holds runtime_cuda_tests, runtime_gpu_bench, fused_gpu_bench and the shared libraries
#   they need that the device lacks (lib/); NCCL is taken from the machine (its Python packages).
set -u
bin=$1
out=$2
shift 2
sections=${*:-tests sanitizer fused small lanes fill profile runtime}
wanted() { [[ " $sections " == *" $1 "* ]]; }
mkdir -p "$out"
nccl=$(find / -xdev -name 'libnccl.so.2' -path '*nvidia*' 2>/dev/null | head -1)
export LD_LIBRARY_PATH="$bin/lib:$(dirname "${nccl:-/nonexistent/x}"):${LD_LIBRARY_PATH:-}"
chmod +x "$bin"/runtime_cuda_tests "$bin"/runtime_gpu_bench "$bin"/fused_gpu_bench
status=0
step() {  # NAME SECONDS COMMAND...: runs it with a time limit, output to OUT/NAME.log and the console
  local name=$1 limit=$2
  shift 2
  echo "=== $name: $*"
  local t0=$SECONDS
  timeout "$limit" "$@" >"$out/$name.log" 2>&1
  local rc=$?
  tail -n 40 "$out/$name.log"
  echo "=== $name: exit $rc after $((SECONDS - t0)) s"
  [ "$rc" -eq 0 ] || status=1
}
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv | tee "$out/gpu.txt"
echo "nccl: ${nccl:-not found}"
wanted tests && step cuda_tests 240 "$bin"/runtime_cuda_tests ${TESTS:+"$TESTS"}
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
if wanted sanitizer && [ -n "$sanitizer" ]; then
  step sanitizer_fused 180 "$sanitizer" --tool memcheck --error-exitcode 3 "$bin"/runtime_cuda_tests "*fused*"
fi
if wanted fused; then  # RANKS CHUNKS MAX_M COMPUTE_TBS MIN_M [PROTOCOL GROUP]
  step fused_r4_t16 200 "$bin"/fused_gpu_bench 4 8 32768 16 1024
  step fused_r4_t32_g8 200 "$bin"/fused_gpu_bench 4 32 32768 32 16384 Simple 8
  step fused_r2_t32_g8 200 "$bin"/fused_gpu_bench 2 32 32768 32 16384 Simple 8
fi
# Small shapes (M = K 1024 .. 8192), all measured in the same run: one slice per destination on
# 4 compute blocks or on the senders themselves (COMPUTE_TBS 0), and the compute spread over
# every SM the communication blocks leave with GROUP slices per communication step; Simple and LL.
if wanted small; then  # RANKS CHUNKS MAX_M COMPUTE_TBS MIN_M PROTOCOL GROUP
  for config in "4 1 8192 4 1024 Simple 1" "4 1 8192 0 1024 LL 1" "4 4 8192 16 1024 LL 4" "4 16 8192 16 1024 LL 16" \
                "2 32 8192 32 1024 LL 32" "8 16 8192 16 1024 LL 16"; do
    # shellcheck disable=SC2086
    step "small_${config// /_}" 120 "$bin"/fused_gpu_bench $config
  done
fi
# Small shapes with the compute on the communication blocks (COMPUTE_TBS 0), one slice per
# destination and lane, on 1, 2, 4 and 8 lanes (copies of the communication blocks), LL; single
# calls and batches of 20 calls back to back.
if wanted lanes; then  # RANKS CHUNKS MAX_M COMPUTE_TBS MIN_M PROTOCOL GROUP LANES BATCH
  for batch in 1 20; do
    for config in "4 1 8192 0 1024 LL 1 1" "4 2 8192 0 1024 LL 1 2" "4 4 8192 0 1024 LL 1 4" "4 8 8192 0 1024 LL 1 8" \
                  "2 8 8192 0 1024 LL 1 8" "8 2 8192 0 1024 LL 1 2"; do
      # shellcheck disable=SC2086
      step "lanes_${config// /_}_$batch" 120 "$bin"/fused_gpu_bench $config "$batch"
    done
  done
fi
# Compute blocks on every SM the communication blocks leave (132 SMs, one 512-thread block each):
# 4 ranks x (26 compute + 7) and 2 ranks x (42 + 3) blocks; M a multiple of ranks x chunks and of
# 4 x ranks (whole 16-byte quads per row). With 4 ranks each communication step moves all 13
# slices of a destination: the local block's waits would pass the executor's 64 steps otherwise.
# Power-of-two shapes fill them too with 32 slices per destination over 26 compute blocks (4 or 5
# slices each) and groups of 16 (a send block's nops stay within the 64 steps).
if wanted fill; then
  step fused_fill_r4 200 "$bin"/fused_gpu_bench 4 13 32656 26 16432 Simple 13
  step fused_fill_r2 200 "$bin"/fused_gpu_bench 2 21 32760 42 16464
  step fused_fill_r4_pow2 300 "$bin"/fused_gpu_bench 4 32 65536 26 16384 Simple 16
fi
# One fused launch under Nsight Compute: at M = K = 8192 each variant makes 53 calls (3 warm-up),
# and the interpreter runs 3 x 53 of them (allreduce, gemv+ar, bulk-ir) before the first fused one.
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
if wanted profile && [ -n "$ncu" ]; then
  step profile_fused 240 "$ncu" --clock-control none -k regex:interpreterKernel --launch-skip 159 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section MemoryWorkloadAnalysis "$bin"/fused_gpu_bench 4 8 8192 16 8192
fi
wanted runtime && step runtime 240 "$bin"/runtime_gpu_bench $((256 << 20)) 8 "${RUNTIME_PROGRAM:-}"
exit $status
