// Correct programs at the executor's limits, on both sides of each (the property test's third
// family besides the eight collectives' and custom/fused programs, program_generator.hpp):
//   - one transfer of C chunks, C around MSCCL_MAX_COUNT (72: cnt 71 loads, 72 does not);
//   - two reduction runs of k sources in one block, k around MSCCL_MAX_REDUCE_FUSION (16): the
//     parser ends the first run at the block's 16th reduction, never the second, whose sources
//     overflow the kernel's source array beyond 16 (Simple) or 17 (LL, LL128);
//   - blocks of S steps, S around MSCCL_MAX_NUM_STEPS (64 in the executor's build).
// Not mutated: over a limit the program is refused for that limit only, within it VERIFIED.
#pragma once

#include <cstdint>

#include "program_generator.hpp"

namespace ccforge::property {

GeneratedProgram generateAtLimits(uint64_t seed);

}  // namespace ccforge::property
