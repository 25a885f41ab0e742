// The programs both runtime benchmarks measure, and the sizes they sweep.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/samples/sample_programs.hpp"

namespace ccforge::runtime::bench {

struct BenchProgram {
  std::string name;
  ir::Algorithm algorithm;
};

// Ring allreduce (one tb per rank per channel), all-pairs allreduce and two-step alltoall.
inline std::vector<BenchProgram> benchPrograms(int32_t ranks, int32_t nodes, ir::Protocol proto, int32_t channels) {
  samples::SampleOptions o;
  o.proto = proto;
  samples::SampleOptions ring = o;
  ring.channels = channels;
  return {
      {"ring allreduce", samples::ringAllReduce(ranks, ring)},
      {"all-pairs allreduce", samples::allPairsAllReduce(ranks, o)},
      {"two-step alltoall", samples::twoStepAllToAll(nodes, ranks / nodes, o)},
  };
}

// Powers of 4 from `first` to `last` bytes.
inline std::vector<int64_t> sizes(int64_t first, int64_t last) {
  std::vector<int64_t> v;
  for (int64_t s = first; s <= last; s *= 4) v.push_back(s);
  return v;
}

inline std::string humanSize(int64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB"};
  int u = 0;
  while (bytes >= 1024 && u < 3 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++u;
  }
  return std::to_string(bytes) + " " + units[u];
}

}  // namespace ccforge::runtime::bench
