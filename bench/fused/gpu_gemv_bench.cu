// GPU benchmark of fused GEMV + AllReduce (docs/benchmarks.md "Fused operators, measured on a GPU"):
// R ranks on one GPU, row-parallel GEMV (rank r holds W_r: M x K/R and x_r; y = sum_r W_r x_r on
// every rank). Per shape, measured in the same run, each the median per call of CUDA-event times of
// single calls, or of batches of calls enqueued back to back (BATCH):
//   gemv       the GEMV alone: one kernel computing every rank's partial product on the whole GPU
//              (a warp per row, coalesced), the yardstick the fused kernel is held to;
//   allreduce  the interpreter running the all-pairs allreduce of the products alone;
//   gemv+ar    the bulk-synchronous baseline as the user would run it: the gemv kernel, then the
//              allreduce (two launches);
//   bulk-ir    the library's bulk-synchronous fused program (one launch, every send waits for the
//              last compute step; with COMPUTE_TBS 0 it computes on RANKS compute blocks);
//   bulk-2l    the same program in the CUDA backend's compute-first mode: its compute blocks as one
//              launch, then the collective as another;
//   fused      the library's fused program (one cooperative launch, each slice sent when computed).
// Weights and vectors are small integers (exact in fp32 for every order), rotated over enough sets
// that the weights touched per call are at least 4x the L2; every variant's y is compared bit for
// bit with gemv+ar on every rank, and sampled rows with a host reference.
//
// usage: fused_gpu_bench [RANKS] [CHUNKS] [MAX_M] [COMPUTE_TBS] [MIN_M] [PROTOCOL] [GROUP] [LANES] [BATCH]
//   (defaults 8 4 32768 1 4096 Simple 1 1 1; M = K doubles from MIN_M while below MAX_M, then MAX_M;
//   COMPUTE_TBS 0: the communication blocks compute what they send; PROTOCOL Simple, LL or LL128, of
//   the allreduce and both programs; GROUP chunks per communication step and LANES copies of the
//   communication blocks of both programs; BATCH calls per timed sample, enqueued back to back)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "fused_library.hpp"
#include "ir/names.hpp"
#include "runtime/cuda/cuda_check.hpp"
#include "runtime/cuda/cuda_executor.hpp"
#include "runtime/program.hpp"
#include "runtime/samples/sample_programs.hpp"

using namespace ccforge;
using namespace ccforge::runtime;

namespace {

constexpr int kMaxRanks = 16;

// Small integer in [-2, 2] for element i of array `seed`: the same on host and device.
__host__ __device__ inline float smallInt(uint32_t seed, uint64_t i) {
  uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t{seed} << 32 | seed);
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 29;
  return static_cast<float>(static_cast<int>(h % 5) - 2);
}

__global__ void fill(float* p, uint64_t n, uint32_t seed) {
  for (uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; i < n; i += uint64_t{gridDim.x} * blockDim.x)
    p[i] = smallInt(seed, i);
}

struct GemvArgs {
  const float* w[kMaxRanks];
  const float* x[kMaxRanks];
  float* y[kMaxRanks];
  int ranks;
  int rows;   // M
  int inner;  // K / R
};

// Every rank's y_r = W_r x_r: one warp per row, lanes strided over the row, a shuffle reduction.
__global__ void gemvAllRanks(GemvArgs a) {
  const int lane = threadIdx.x % 32;
  const int64_t warps = int64_t{gridDim.x} * blockDim.x / 32;
  for (int64_t g = (int64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; g < int64_t{a.ranks} * a.rows; g += warps) {
    const int r = static_cast<int>(g / a.rows);
    const int64_t row = g % a.rows;
    const float* w = a.w[r] + row * a.inner;
    float acc = 0;
    for (int k = lane; k < a.inner; k += 32) acc += w[k] * a.x[r][k];
    for (int off = 16; off > 0; off /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, off);
    if (lane == 0) a.y[r][row] = acc;
  }
}

struct Events {
  Events() {
    checkCuda(cudaEventCreate(&start), "cudaEventCreate");
    checkCuda(cudaEventCreate(&stop), "cudaEventCreate");
  }
  ~Events() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  cudaEvent_t start, stop;
};

// Median microseconds per call of f(i) (i: the call's index, for rotating inputs) on stream s,
// over `iterations` samples of `batch` calls enqueued back to back between two events (batch 1:
// single calls on an idle GPU, whose launch overhead is timed too; larger batches: the GPU time per
// call of a stream of calls, as nccl-tests times them). The warm-up calls every input set once, so
// no timed call is the first launch of its executor (which uploads the operand table).
template <class F>
double medianMicros(cudaStream_t s, int iterations, int batch, int sets, F&& f) {
  Events e;
  int call = 0;
  while (call < std::max(3, sets)) f(call++);
  std::vector<float> ms;
  for (int i = 0; i < iterations; ++i) {
    checkCuda(cudaEventRecord(e.start, s), "cudaEventRecord");
    for (int b = 0; b < batch; ++b) f(call++);
    checkCuda(cudaEventRecord(e.stop, s), "cudaEventRecord");
    checkCuda(cudaEventSynchronize(e.stop), "cudaEventSynchronize");
    float t = 0;
    checkCuda(cudaEventElapsedTime(&t, e.start, e.stop), "cudaEventElapsedTime");
    ms.push_back(t / static_cast<float>(batch));
  }
  std::sort(ms.begin(), ms.end());
  return 1e3 * ms[ms.size() / 2];
}

struct Row {
  double gemv, allreduce, gemvThenAllReduce, bulkProgram, bulkTwoLaunches, fused;
  bool correct;
};

// The program shape every M of one run shares (the command line).
struct Config {
  int ranks = 8;
  int chunks = 4;
  int computeTbs = 1;
  ir::Protocol protocol = ir::Protocol::Simple;
  int group = 1;
  int lanes = 1;
  int batch = 1;  // calls per timed sample, back to back
};

Row measureShape(cudaStream_t stream, const Config& config, int m, int64_t l2Bytes, int& setsOut) {
  const int ranks = config.ranks;
  const int inner = m / ranks;
  const int64_t weightBytes = int64_t{m} * m * 4;
  const int sets = static_cast<int>(std::clamp<int64_t>((4 * l2Bytes + weightBytes - 1) / weightBytes, 1, 64));
  setsOut = sets;
  const int iterations = m <= 8192 ? 50 : m <= 16384 ? 20 : 10;

  std::vector<float*> allocations;
  auto deviceFloats = [&](int64_t n) {
    float* p = nullptr;
    checkCuda(cudaMalloc(&p, static_cast<size_t>(n) * 4), "cudaMalloc");
    allocations.push_back(p);
    return p;
  };
  // w[set][rank], x[set][rank]; the products go to send[rank], the sums to recv[rank].
  std::vector<std::vector<float*>> w(sets), x(sets);
  for (int s = 0; s < sets; ++s)
    for (int r = 0; r < ranks; ++r) {
      w[s].push_back(deviceFloats(int64_t{m} * inner));
      x[s].push_back(deviceFloats(inner));
      fill<<<1024, 256, 0, stream>>>(w[s][r], uint64_t{static_cast<uint64_t>(m)} * inner, 1000 * s + 2 * r);
      fill<<<64, 256, 0, stream>>>(x[s][r], inner, 1000 * s + 2 * r + 1);
    }
  std::vector<float*> send, recv;
  for (int r = 0; r < ranks; ++r) {
    send.push_back(deviceFloats(m));
    recv.push_back(deviceFloats(m));
  }
  checkCuda(cudaStreamSynchronize(stream), "fill");

  CallShape call;
  call.collective = semantics::CollectiveType::AllReduce;
  call.ranks = ranks;
  call.count = m;
  call.dtype = DataType::F32;
  call.op = ReduceOp::Sum;
  CudaExecutorOptions options;
  options.stream = stream;
  auto buffersFor = [&](int s) {
    std::vector<RankBuffers> b(ranks);
    for (int r = 0; r < ranks; ++r) {
      b[r].send = send[r];
      b[r].sendElems = m;
      b[r].recv = recv[r];
      b[r].recvElems = m;
      b[r].operands[0] = w[s][r];
      b[r].operands[1] = x[s][r];
    }
    return b;
  };
  auto fusedPrograms = [&](bool bulk) {
    algorithms::FusedParameters p;
    p.op = ir::ComputeOp::Gemv;
    p.ranks = ranks;
    p.chunksPerRank = config.chunks;
    p.computeTbs = bulk && config.computeTbs == 0 ? ranks : config.computeTbs;
    p.protocol = config.protocol;
    p.chunksPerStep = config.group;
    p.lanes = config.lanes;
    p.rows = m;
    p.inner = inner;
    p.order = algorithms::FusedOrder::RemoteFirst;
    p.bulkSynchronous = bulk;
    return ExecutableProgram::compile(algorithms::fusedProgram(p), bulk ? "bulk" : "fused");
  };
  const ExecutableProgram fusedProgram = fusedPrograms(false), bulkProgram = fusedPrograms(true);
  const ExecutableProgram allReduceProgram =
      ExecutableProgram::compile(samples::allPairsAllReduce(ranks, {.proto = config.protocol}), "all-pairs allreduce");
  // One executor per weight set, so that no launch re-uploads operand pointers.
  std::vector<std::unique_ptr<Executor>> fused, bulk, bulkTwoLaunches;
  std::vector<std::vector<RankBuffers>> buffers;
  CudaExecutorOptions computeFirst = options;
  computeFirst.computeFirst = true;
  for (int s = 0; s < sets; ++s) {
    fused.push_back(makeCudaExecutor(fusedProgram, call, options));
    bulk.push_back(makeCudaExecutor(bulkProgram, call, options));
    bulkTwoLaunches.push_back(makeCudaExecutor(bulkProgram, call, computeFirst));
    buffers.push_back(buffersFor(s));
  }
  std::unique_ptr<Executor> allreduce = makeCudaExecutor(allReduceProgram, call, options);

  int sms = 0;
  checkCuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "cudaDeviceGetAttribute");
  auto gemv = [&](int s) {
    GemvArgs a{};
    for (int r = 0; r < ranks; ++r) {
      a.w[r] = w[s][r];
      a.x[r] = x[s][r];
      a.y[r] = send[r];
    }
    a.ranks = ranks;
    a.rows = m;
    a.inner = inner;
    gemvAllRanks<<<sms * 8, 256, 0, stream>>>(a);
    checkCuda(cudaGetLastError(), "gemv launch");
  };
  auto downloadRecv = [&] {
    std::vector<float> all(static_cast<size_t>(ranks) * m);
    for (int r = 0; r < ranks; ++r)
      checkCuda(cudaMemcpy(all.data() + static_cast<size_t>(r) * m, recv[r], static_cast<size_t>(m) * 4,
                           cudaMemcpyDeviceToHost),
                "cudaMemcpy");
    return all;
  };
  auto poisonRecv = [&] {
    for (int r = 0; r < ranks; ++r)
      checkCuda(cudaMemsetAsync(recv[r], 0xff, static_cast<size_t>(m) * 4, stream), "cudaMemset");  // NaN
  };

  Row row{};
  row.gemv = medianMicros(stream, iterations, config.batch, sets, [&](int i) { gemv(i % sets); });
  row.allreduce = medianMicros(stream, iterations, config.batch, sets, [&](int) { allreduce->launch(buffers[0]); });
  row.gemvThenAllReduce = medianMicros(stream, iterations, config.batch, sets, [&](int i) {
    gemv(i % sets);
    allreduce->launch(buffers[static_cast<size_t>(i % sets)]);
  });
  row.bulkProgram = medianMicros(stream, iterations, config.batch, sets, [&](int i) {
    bulk[static_cast<size_t>(i % sets)]->launch(buffers[static_cast<size_t>(i % sets)]);
  });
  row.bulkTwoLaunches = medianMicros(stream, iterations, config.batch, sets, [&](int i) {
    bulkTwoLaunches[static_cast<size_t>(i % sets)]->launch(buffers[static_cast<size_t>(i % sets)]);
  });
  row.fused = medianMicros(stream, iterations, config.batch, sets, [&](int i) {
    fused[static_cast<size_t>(i % sets)]->launch(buffers[static_cast<size_t>(i % sets)]);
  });

  // Results of set 0: gemv then allreduce is the reference for the two programs, and sampled
  // rows of it are checked against the host.
  poisonRecv();
  gemv(0);
  allreduce->launch(buffers[0]);
  allreduce->wait();
  const std::vector<float> expected = downloadRecv();
  row.correct = true;
  for (int sample = 0; sample < 16; ++sample) {
    const int64_t i = int64_t{sample} * (m - 1) / 15;
    float y = 0;
    for (int r = 0; r < ranks; ++r)
      for (int k = 0; k < inner; ++k)
        y += smallInt(2 * r, static_cast<uint64_t>(i) * inner + k) * smallInt(2 * r + 1, k);
    for (int r = 0; r < ranks; ++r) row.correct = row.correct && expected[static_cast<size_t>(r) * m + i] == y;
  }
  for (Executor* e : {bulk[0].get(), bulkTwoLaunches[0].get(), fused[0].get()}) {
    poisonRecv();
    e->launch(buffers[0]);
    e->wait();
    row.correct = row.correct && downloadRecv() == expected;
  }
  fused.clear();
  bulk.clear();
  bulkTwoLaunches.clear();
  allreduce.reset();
  for (float* p : allocations) cudaFree(p);
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string why = cudaUnavailableReason();
  if (!why.empty()) {
    std::fprintf(stderr, "fused_gpu_bench: %s\n", why.c_str());
    return 5;
  }
  Config config;
  if (argc > 1) config.ranks = std::atoi(argv[1]);
  if (argc > 2) config.chunks = std::atoi(argv[2]);
  const int maxM = argc > 3 ? std::atoi(argv[3]) : 32768;
  if (argc > 4) config.computeTbs = std::atoi(argv[4]);
  const int minM = argc > 5 ? std::atoi(argv[5]) : 4096;
  const std::optional<ir::Protocol> protocol = ir::parseProtocol(argc > 6 ? argv[6] : "Simple");
  if (argc > 7) config.group = std::atoi(argv[7]);
  if (argc > 8) config.lanes = std::atoi(argv[8]);
  if (argc > 9) config.batch = std::atoi(argv[9]);
  if (config.ranks < 2 || config.ranks > kMaxRanks || config.chunks < 1 || minM < 1 || maxM < minM ||
      config.computeTbs < 0 || !protocol || config.group < 1 || config.lanes < 1 || config.batch < 1) {
    std::fprintf(stderr,
                 "usage: fused_gpu_bench [RANKS 2..%d] [CHUNKS] [MAX_M] [COMPUTE_TBS] [MIN_M] [Simple|LL|LL128] "
                 "[GROUP] [LANES] [BATCH]\n",
                 kMaxRanks);
    return 2;
  }
  config.protocol = *protocol;
  try {
    cudaDeviceProp prop{};
    checkCuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    const Stream owned(0);
    const cudaStream_t stream = owned.get();
    std::printf(
        "%s, %d SMs, %d MB L2; %d ranks on one GPU, %d chunks per rank, %d compute tbs per rank, %d chunks per step, "
        "%d lanes, %s, remote-first order, "
        "fp32, median us per call of samples of %d call(s) back to back (CUDA events)\n\n",
        prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20, config.ranks, config.chunks, config.computeTbs,
        config.group, config.lanes, std::string(ir::protocolName(config.protocol)).c_str(), config.batch);
    std::printf(
        "| M = K | weight sets | gemv (us) | gemv GB/s | allreduce (us) | gemv+ar (us) | bulk-ir (us) | bulk-2l (us) | "
        "fused (us) | "
        "fused / gemv | fused / gemv+ar | check |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    bool allCorrect = true;
    std::vector<int> shapes;
    for (int m = minM; m < maxM; m *= 2) shapes.push_back(m);
    shapes.push_back(maxM);
    for (int m : shapes) {
      int sets = 0;
      const Row r = measureShape(stream, config, m, prop.l2CacheSize, sets);
      const double gbps = static_cast<double>(m) * m * 4 / (r.gemv * 1e3);
      std::printf("| %d | %d | %.1f | %.0f | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %s |\n", m, sets, r.gemv,
                  gbps, r.allreduce, r.gemvThenAllReduce, r.bulkProgram, r.bulkTwoLaunches, r.fused, r.fused / r.gemv,
                  r.fused / r.gemvThenAllReduce, r.correct ? "ok" : "WRONG");
      std::fflush(stdout);
      allCorrect = allCorrect && r.correct;
    }
    return allCorrect ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fused_gpu_bench: %s\n", e.what());
    return 1;
  }
}
