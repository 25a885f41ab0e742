// The fallback path of the CPU and single-GPU modes: the collective computed with straight host
// loops over its definition, in the element type, reducing in rank order. Works for any count
// the collective allows (no program, no chunking).
#pragma once

#include <span>

#include "runtime/call.hpp"

namespace ccforge::runtime {

// Host buffers; validated like any call (throws std::invalid_argument). Handles in-place calls.
void runReference(const CallShape& call, std::span<const RankBuffers> buffers);

// For each output chunk of `rank` in the canonical collective: the input chunks (rank, chunk)
// that make it up (one for a copy, every rank's for a reduction); empty when unconstrained.
struct ChunkSource {
  int32_t rank;
  int32_t chunk;
};
std::vector<std::vector<ChunkSource>> outputSources(const CallShape& call, int32_t rank);

}  // namespace ccforge::runtime
