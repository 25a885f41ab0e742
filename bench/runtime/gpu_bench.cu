// GPU benchmark of the interpreter, all ranks on one GPU (docs/benchmarks.md "Runtime"): ring
// allreduce, all-pairs allreduce and two-step alltoall from 1 KiB to 1 GiB per rank. Each row
// has, measured in the same run:
//   - the interpreter's busbw (nccl-tests), and its aggregate over the ranks sharing the GPU;
//   - a device-to-device cudaMemcpy of the same bytes (ranks x bytes per rank x bus factor);
//   - a hand-written kernel doing the same algorithm's data movement (handwritten_kernels.cuh).
// The fraction is aggregate busbw / memcpy bandwidth. Prints a markdown table.
//
// usage: runtime_gpu_bench [MAX_BYTES_PER_RANK] [RANKS] [PROGRAM] [RING_CHANNELS]
//   PROGRAM: one row's name, e.g. "ring allreduce" ("" or absent: all); RING_CHANNELS: 16 by default
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <stdexcept>
#include <vector>

#include "bench_programs.hpp"
#include "handwritten_kernels.cuh"
#include "runtime/cuda/cuda_check.hpp"
#include "runtime/harness.hpp"
#include "runtime/loader.hpp"

using namespace ccforge;
using namespace ccforge::runtime;

namespace {

struct Timer {
  Timer() {
    checkCuda(cudaEventCreate(&start), "cudaEventCreate");
    checkCuda(cudaEventCreate(&stop), "cudaEventCreate");
  }
  ~Timer() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  // Seconds per call of f(), averaged over `iterations` after 2 warm-up calls.
  template <class F>
  double time(int iterations, F&& f) {
    f();
    f();
    checkCuda(cudaEventRecord(start), "cudaEventRecord");
    for (int i = 0; i < iterations; ++i) f();
    checkCuda(cudaEventRecord(stop), "cudaEventRecord");
    checkCuda(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    checkCuda(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    return ms / 1e3 / iterations;
  }
  cudaEvent_t start, stop;
};

// GB/s of a device-to-device copy of `bytes`.
double memcpyBandwidth(int64_t bytes, int iterations) {
  void *a = nullptr, *b = nullptr;
  checkCuda(cudaMalloc(&a, bytes), "cudaMalloc");
  checkCuda(cudaMalloc(&b, bytes), "cudaMalloc");
  Timer t;
  const double s =
      t.time(iterations, [&] { checkCuda(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpyAsync"); });
  cudaFree(a);
  cudaFree(b);
  return static_cast<double>(bytes) / s / 1e9;
}

// Runs the hand-written kernel for `name` and returns its seconds per call, checking its result once.
double handwritten(const std::string& name, int ranks, int nodes, int64_t count, int iterations, bool& correct) {
  const bool alltoall = name == "two-step alltoall";
  const int64_t elems = alltoall ? count * ranks : count;  // per rank buffer
  const int64_t chunk = elems / ranks;
  bench::RankPointers p{};
  std::vector<std::vector<float>> host(ranks, std::vector<float>(elems));
  std::vector<std::future<void>> fills;
  for (int r = 0; r < ranks; ++r)
    fills.push_back(std::async(std::launch::async,
                               [&, r] { fillRandom(DataType::F32, ReduceOp::Sum, host[r].data(), elems, 77 + r); }));
  for (std::future<void>& f : fills) f.get();
  for (int r = 0; r < ranks; ++r) {
    float *in, *out, *scratch;
    checkCuda(cudaMalloc(&in, elems * 4), "cudaMalloc");
    checkCuda(cudaMalloc(&out, elems * 4), "cudaMalloc");
    checkCuda(cudaMalloc(&scratch, std::max<int64_t>(elems * 4, 16)), "cudaMalloc");
    checkCuda(cudaMemcpy(in, host[r].data(), elems * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
    p.in[r] = in;
    p.out[r] = out;
    p.scratch[r] = scratch;
  }
  const void* kernel = name == "ring allreduce" ? reinterpret_cast<const void*>(&bench::handwrittenRingAllReduce)
                       : name == "all-pairs allreduce"
                           ? reinterpret_cast<const void*>(&bench::handwrittenAllPairsAllReduce)
                           : reinterpret_cast<const void*>(&bench::handwrittenTwoStepAllToAll);
  int sms = 0, perSm = 0;
  checkCuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "cudaDeviceGetAttribute");
  checkCuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, 512, 0), "occupancy");
  const int perNode = ranks / nodes;
  int rankCount = ranks;
  void* ringArgs[] = {&p, &rankCount, const_cast<int64_t*>(&chunk)};
  int nodeCount = nodes, perNodeCount = perNode;
  void* alltoallArgs[] = {&p, &nodeCount, &perNodeCount, const_cast<int64_t*>(&chunk)};
  auto launch = [&] {
    checkCuda(cudaLaunchCooperativeKernel(kernel, dim3(sms * perSm), dim3(512), alltoall ? alltoallArgs : ringArgs, 0,
                                          nullptr),
              "cudaLaunchCooperativeKernel");
  };
  Timer t;
  const double seconds = t.time(iterations, launch);
  // Check the result once against the collective's definition.
  CallShape call;
  call.collective = alltoall ? semantics::CollectiveType::AllToAll : semantics::CollectiveType::AllReduce;
  call.ranks = ranks;
  call.count = count;
  std::vector<std::vector<float>> out(ranks, std::vector<float>(elems));
  std::vector<const void*> in(ranks), outs(ranks);
  for (int r = 0; r < ranks; ++r) {
    checkCuda(cudaMemcpy(out[r].data(), p.out[r], elems * 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
    in[r] = host[r].data();
    outs[r] = out[r].data();
    cudaFree(const_cast<float*>(p.in[r]));
    cudaFree(p.out[r]);
    cudaFree(p.scratch[r]);
  }
  correct = checkOutputs(call, in, outs).passed();
  return seconds;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string why = cudaUnavailableReason();
  if (!why.empty()) {
    std::fprintf(stderr, "runtime_gpu_bench: %s\n", why.c_str());
    return 5;
  }
  const int64_t maxBytes = argc > 1 ? std::atoll(argv[1]) : (int64_t{1} << 30);
  const int32_t ranks = argc > 2 ? std::atoi(argv[2]) : 8;
  const std::string only = argc > 3 ? argv[3] : "";
  const int32_t ringChannels = argc > 4 ? std::atoi(argv[4]) : 16;
  cudaDeviceProp prop{};
  checkCuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  std::printf("%s, %d SMs; %d ranks on one GPU, f32 sum, out-of-place, Simple protocol, ring on %d channels\n\n",
              prop.name, prop.multiProcessorCount, ranks, ringChannels);
  std::printf(
      "| program | bytes per rank | interpreter (us) | busbw (GB/s) | aggregate busbw | memcpy (GB/s) | fraction | "
      "hand-written (us) | hand-written fraction | checks |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  TargetOptions target;
  target.backend = BackendKind::Cuda;
  target.mode = GpuMode::RanksOnOneGpu;
  for (const bench::BenchProgram& b : bench::benchPrograms(ranks, 2, ir::Protocol::Simple, ringChannels)) {
    if (!only.empty() && b.name != only) continue;
    ProgramSet set;
    set.add(loadExecutable(b.algorithm, b.name, {}));
    const ExecutableProgram& prog = set.programs().front();
    Runtime runtime(std::move(set), makeCudaTarget(target));
    for (int64_t bytes : bench::sizes(1024, maxBytes)) {
      CallShape call;
      call.collective = prog.collective();
      call.ranks = ranks;
      call.dtype = DataType::F32;
      call.count = bytes / 4 / sizeMultiplier(call.collective, ranks);
      if (call.count * sizeMultiplier(call.collective, ranks) % prog.chunksPerLoop() != 0) continue;
      const int iterations = static_cast<int>(std::clamp<int64_t>((int64_t{4} << 30) / bytes, 5, 1000));
      MeasureOptions m;
      m.iterations = iterations;
      m.warmup = 3;
      const Measurement r = measure(runtime, call, m);
      const double busBytes =
          static_cast<double>(ranks) * static_cast<double>(bytes) * busBandwidthFactor(call.collective, ranks);
      const double copy = memcpyBandwidth(static_cast<int64_t>(busBytes), iterations);
      bool handCorrect = false;
      const double hand = handwritten(b.name, ranks, 2, call.count, iterations, handCorrect);
      const double aggregate = r.busBandwidth * ranks;
      const double handAggregate = busBytes / hand / 1e9;
      std::printf("| %s | %s | %.1f | %.2f | %.1f | %.1f | %.0f%% | %.1f | %.0f%% | %s |\n", b.name.c_str(),
                  bench::humanSize(bytes).c_str(), r.secondsPerIteration * 1e6, r.busBandwidth, aggregate, copy,
                  100 * aggregate / copy, hand * 1e6, 100 * handAggregate / copy,
                  r.check.passed() && handCorrect ? "ok" : "WRONG");
      std::fflush(stdout);
    }
  }
  return 0;
}
