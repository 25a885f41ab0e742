// Measures `verify` on MSCCL-IR files: read time, check time, total, and the process's peak
// resident memory after each file (files are measured in the order given, in one process, so
// give them smallest first). Prints one markdown table row per file.
#include <fmt/format.h>
#include <sys/resource.h>

#include <chrono>
#include <iostream>

#include "ir/reader.hpp"
#include "verify/verifier.hpp"

namespace {

double seconds(std::chrono::steady_clock::time_point from, std::chrono::steady_clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

long peakMegabytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: verify_bench FILE.xml...\n";
    return 1;
  }
  std::cout << "| file | steps | read (s) | check (s) | total (s) | peak RSS (MB) | verdict |\n"
               "|---|---|---|---|---|---|---|\n";
  for (int i = 1; i < argc; ++i) {
    auto start = std::chrono::steady_clock::now();
    auto read = ccforge::ir::readAlgorithmFile(argv[i]);
    auto parsed = std::chrono::steady_clock::now();
    auto report =
        ccforge::verify::verifyAlgorithm(read.algorithm, argv[i], ccforge::verify::Options{}, read.runtimeParserIssues);
    auto done = std::chrono::steady_clock::now();
    std::cout << fmt::format("| {} | {} | {:.2f} | {:.2f} | {:.2f} | {} | {} |\n", argv[i], read.algorithm.stepCount(),
                             seconds(start, parsed), seconds(parsed, done), seconds(start, done), peakMegabytes(),
                             ccforge::verify::verdictName(report.verdict));
  }
  return 0;
}
