// The performance model against the public nccl-tests logs of tests/fixtures/nccl-tests-logs
// (docs/benchmarks.md, "The model against measured nccl-tests"): per log, the predicted over the
// measured busbw of NCCL's own choice (`simulate --nccl`) at 1-16 MiB and from 256 MiB, and of
// the library ring on the machine (channels as NCCL's) where NCCL runs a ring from 256 MiB.
// usage: model_accuracy [--rows]   (--rows: every row of every log)
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <iostream>

#include "support/model_accuracy.hpp"

using namespace ccforge;

int main(int argc, char** argv) {
  const bool rows = argc > 1 && std::strcmp(argv[1], "--rows") == 0;
  std::cout << "| log | machine | -g | NCCL, 1-16 MiB | NCCL, >= 256 MiB | library ring, >= 256 MiB "
               "|\n|---|---|---|---|---|---|\n";
  for (const test::FixtureLog& log : test::fixtureLogs()) {
    test::LogAccuracy a;
    try {
      a = test::logAccuracy(log);
    } catch (const std::exception& e) {
      std::cout << "| " << log.file << " | " << e.what() << " |\n" << std::flush;
      continue;
    }
    auto range = [](const test::Range& r) {
      return r.count == 0 ? std::string("-") : fmt::format("{:.2f}-{:.2f}", r.lo, r.hi);
    };
    // A ring the runtime cannot run there: the reason's first sentence.
    const std::string ring =
        a.ringError.empty() ? range(a.ring) : "no program: " + a.ringError.substr(0, a.ringError.find(". "));
    std::cout << fmt::format("| {} | {} | {} | {} | {} | {} |\n", log.file, log.topology, a.gpusPerThread,
                             range(a.medium), range(a.large), ring);
    if (rows)
      for (const test::RowAccuracy& r : a.rows)
        std::cout << fmt::format("|   {} | {} | {:.3f} | {} | {} |\n", r.bytes, r.choice, r.ratio,
                                 r.ringRatio ? fmt::format("{:.3f}", *r.ringRatio) : "", "");
  }
}
