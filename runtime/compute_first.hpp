// The compute-first mode of the CUDA backend (docs/fused.md): a fused program's thread blocks
// that only compute run as a launch of their own, then the others, on one stream: the
// bulk-synchronous baseline as "compute kernel, then collective" from the same program. Valid
// when the blocks that only compute wait for nothing but each other: the second launch then finds
// every flag it waits for on them already published.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/program.hpp"

namespace ccforge::runtime {

struct ComputeFirstSplit {
  std::vector<int32_t> computeTbs;  // global tb indices, ascending
  std::vector<int32_t> otherTbs;
};

// Throws std::invalid_argument (user-facing) when the program has no such split.
ComputeFirstSplit splitComputeFirst(const ExecutableProgram& program);

}  // namespace ccforge::runtime
