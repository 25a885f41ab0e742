// Compile-time benchmark: builds a library algorithm's DSL program, compiles it and writes the
// MSCCL-IR text, reporting each phase's wall time, the process's CPU time and peak memory.
//   compile_bench NAME [key=value ...]      (run one case per process: peak memory is per process)
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "codegen/compiler.hpp"
#include "library.hpp"
#include "ir/writer.hpp"

using namespace ccforge;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

double cpuSeconds(const rusage& u) {
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: compile_bench NAME [key=value ...]\n");
    return 1;
  }
  const std::vector<std::string> settings(argv + 2, argv + argc);
  const Clock::time_point t0 = Clock::now();
  const algorithms::Instance instance = algorithms::instantiate(argv[1], settings);
  const Clock::time_point t1 = Clock::now();
  const codegen::Compiled compiled = codegen::compile(instance.program);
  const Clock::time_point t2 = Clock::now();
  const std::string xml = ir::toXml(compiled.algorithm);
  const Clock::time_point t3 = Clock::now();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf(
      "trace %.3f s, compile %.3f s, xml %.3f s, total %.3f s wall, %.3f s CPU, peak %.0f MB, "
      "%lld steps, %.1f MB of XML\n",
      seconds(t0, t1), seconds(t1, t2), seconds(t2, t3), seconds(t0, t3), cpuSeconds(usage),
      static_cast<double>(usage.ru_maxrss) / 1024.0, static_cast<long long>(compiled.stats.steps),
      static_cast<double>(xml.size()) / 1e6);
  return 0;
}
