// The searches over instances (docs/synth.md, "Searches"). None assumes that verdicts are
// monotone beyond what the model guarantees (a sat (C, S, R) stays sat with more rounds).
// Allreduce instances (C, 2S, 2R) step S and R by 2.
//   pareto: for S = the steps bound upwards, the least rounds per chunk R/C (C <= maxChunks)
//     that beats every point with fewer steps, trying candidates in increasing R/C; stops at
//     the bandwidth bound, when no candidate can beat the best point, or at maxSteps.
//   leastSteps: the least S with any schedule (rounds left free), then the least R there.
//   bandwidthOptimal: R/C equal to the bound, the least S with a schedule.
//   power-of-two substitutes: for a frontier point whose C is not a power of two (its
//     nchunksperloop then divides few power-of-two counts, and the runtime selects it for none),
//     the same S with a power-of-two C (a multiple of the chunk step) and the least R/C that
//     beats the power-of-two points with fewer steps, trying at most kSubstituteTries instances.
#pragma once

#include <cstdint>
#include <vector>

#include "synth/sccl/synthesizer.hpp"

namespace ccforge::synth::sccl {

struct SearchLimits {
  // 0: the bound's denominator (alltoall: times the GPUs; allreduce: of half the bound)
  int32_t maxChunks = 0;
  int32_t maxSteps = 0;  // 0: the steps bound plus the number of GPUs (allreduce: twice that)
};

struct SearchResult {
  std::vector<InstanceResult> frontier;  // sat instances with schedules, fewest steps first
  bool complete = true;                  // false when an instance was unknown or a limit stopped the search
  std::string note;                      // why incomplete
};

SearchResult paretoSearch(Synthesizer& synth, SearchLimits limits);
SearchResult leastStepsSearch(Synthesizer& synth, SearchLimits limits);
SearchResult bandwidthOptimalSearch(Synthesizer& synth, SearchLimits limits);

inline constexpr int32_t kSubstituteTries = 4;
// Inserts each substitute found after the point it stands in for (frontier order is kept: same S).
void addPowerOfTwoSubstitutes(Synthesizer& synth, SearchResult& result, SearchLimits limits);

}  // namespace ccforge::synth::sccl
