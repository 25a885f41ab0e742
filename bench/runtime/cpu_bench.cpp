// CPU backend throughput vs memcpy bandwidth on this machine (docs/benchmarks.md "Runtime").
// For each program and size: the time of one call (all ranks simulated in this process; best of 3
// rounds), algbw and busbw as nccl-tests computes them, their aggregate over the ranks (busbw x
// ranks: the bytes this one process moves), and, measured in the same run, the bandwidth of a
// single-threaded memcpy of that many bytes. Prints a markdown table.
//
// usage: runtime_cpu_bench [MAX_BYTES_PER_RANK] [RANKS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "bench_programs.hpp"
#include "runtime/harness.hpp"
#include "runtime/loader.hpp"

using namespace ccforge;
using namespace ccforge::runtime;

namespace {

// GB/s of memcpy of `bytes`, best of a few repetitions over ~0.1 s.
double memcpyBandwidth(int64_t bytes) {
  std::vector<unsigned char> a(bytes, 1), b(bytes, 2);
  const int reps = static_cast<int>(std::clamp<int64_t>((int64_t{256} << 20) / bytes, 3, 10000));
  double best = 1e30;
  for (int round = 0; round < 3; ++round) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) {
      std::memcpy(b.data(), a.data(), bytes);
      a[i % bytes] = b[(i * 7) % bytes];  // keep the copies observable
    }
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / reps);
  }
  return static_cast<double>(bytes) / best / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t maxBytes = argc > 1 ? std::atoll(argv[1]) : (int64_t{64} << 20);
  const int32_t ranks = argc > 2 ? std::atoi(argv[2]) : 4;
  std::printf("CPU backend, %d ranks in one process, %u hardware threads, f32 sum, out-of-place, Simple protocol\n\n",
              ranks, std::thread::hardware_concurrency());
  std::printf(
      "| program | bytes per rank | time (us) | algbw (GB/s) | busbw (GB/s) | aggregate busbw (GB/s) | memcpy (GB/s) "
      "| aggregate / memcpy | check |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  for (const bench::BenchProgram& b : bench::benchPrograms(ranks, 2, ir::Protocol::Simple, 1)) {
    ProgramSet set;
    set.add(loadExecutable(b.algorithm, b.name, {}));
    const ExecutableProgram& p = set.programs().front();
    Runtime runtime(std::move(set), makeCpuTarget({}));
    for (int64_t bytes : bench::sizes(1024, maxBytes)) {
      CallShape call;
      call.collective = p.collective();
      call.ranks = ranks;
      call.dtype = DataType::F32;
      call.count = bytes / 4 / sizeMultiplier(call.collective, ranks);  // the rank's buffer holds `bytes`
      MeasureOptions m;
      m.iterations = static_cast<int>(std::clamp<int64_t>((int64_t{64} << 20) / bytes, 3, 200));
      m.warmup = 2;
      Measurement best = measure(runtime, call, m);
      bool correct = best.check.passed();
      for (int round = 1; round < 3; ++round) {
        const Measurement r = measure(runtime, call, m);
        correct = correct && r.check.passed();
        if (r.secondsPerIteration < best.secondsPerIteration) best = r;
      }
      const double busBytes =
          static_cast<double>(ranks) * static_cast<double>(bytes) * busBandwidthFactor(call.collective, ranks);
      const double copy = memcpyBandwidth(static_cast<int64_t>(busBytes));
      const double aggregate = best.busBandwidth * ranks;
      std::printf("| %s | %s | %.1f | %.3f | %.3f | %.2f | %.2f | %.0f%% | %s |\n", b.name.c_str(),
                  bench::humanSize(bytes).c_str(), best.secondsPerIteration * 1e6, best.algorithmBandwidth,
                  best.busBandwidth, aggregate, copy, 100 * aggregate / copy, correct ? "ok" : "WRONG");
      std::fflush(stdout);
    }
  }
  return 0;
}
