// A synthesized schedule of the non-combining (dual) collective: which chunk moves over which
// logical link in which step, and how many rounds each step has.
#pragma once

#include <cstdint>
#include <vector>

namespace ccforge::synth::sccl {

struct Send {
  int32_t step = 1;   // 1..S
  int32_t chunk = 0;  // index into Problem::demands
  int32_t from = 0;   // rank
  int32_t to = 0;     // rank
  auto operator<=>(const Send&) const = default;
};

struct Schedule {
  int32_t steps = 0;
  std::vector<int32_t> roundsPerStep;  // size steps, each >= 1
  std::vector<Send> sends;             // sorted; each (chunk, to) at most once
  int32_t rounds() const;
};

}  // namespace ccforge::synth::sccl
