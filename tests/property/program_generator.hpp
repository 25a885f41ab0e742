// Random MSCCL-IR programs for the differential property test (differential_test.cpp).
//
// Most are built to be right: every chunk the collective needs is routed along random paths with
// random step types (sums along random reduction trees, with fused `re` chains where a rank adds up
// what it received; copies and results along random multicast paths, forwarded by rcs or received
// and sent again), the steps go to random thread blocks in one global order that every block and
// every connection follows, and a dependency (on the step itself or on nops before it) orders every
// two steps of different blocks of a rank that touch the same memory in a call form the program
// serves. The global order is then a schedule that never blocks, so such a program cannot deadlock
// for any tiling or slot count, and it computes the collective. Then about half of them are mutated
// (a dependency dropped or moved, a cnt, offset, buffer or step type changed, a reduction chain split
// or joined, hasdep toggled, a nop added, steps swapped or dropped, other call forms declared), which
// usually makes them wrong. The `<gpu>` (and sometimes `<tb>`) elements come in shuffled order.
//
// Deterministic in the seed on every platform: its own generator, no std distributions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/model.hpp"
#include "semantics/collective.hpp"

namespace ccforge::property {

struct GeneratedProgram {
  ir::Algorithm algorithm;
  semantics::CollectiveType collective = semantics::CollectiveType::AllReduce;
  int32_t root = 0;                                       // rooted collectives
  std::vector<std::string> mutations;                     // what was changed after the correct construction, in order
  std::optional<semantics::CustomCollectiveSpec> custom;  // collective Custom: its chunk map
};

// Programs of other kinds than the eight collectives' plain schedules.
struct GeneratorOptions {
  bool customCollectives = false;  // a random chunk map (CustomCollectiveSpec) instead of a collective
  bool fusedPrograms = false;      // out-of-place programs become fused GEMV + collective programs
};

// 2 to 5 ranks, at most 4 thread blocks per rank and 8 steps per thread block before mutations
// (a mutation may add one nop).
GeneratedProgram generateProgram(uint64_t seed);
GeneratedProgram generateProgram(uint64_t seed, const GeneratorOptions& options);

}  // namespace ccforge::property
