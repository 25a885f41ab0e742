// Runs a fused computation + collective program (docs/fused.md) end to end: small-integer
// operands (every fp32 sum is exact, whatever the order), one checked run against a plain
// reference of the operator and the collective computed here, then timed runs.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/program.hpp"
#include "runtime/target.hpp"

namespace ccforge::runtime {

struct FusedRunResult {
  CallShape call;
  int64_t wrongElements = 0;
  std::string firstWrong;  // "rank 1 element 5: 3, expected 4"
  double secondsPerIteration = 0;
  bool passed() const { return wrongElements == 0; }
};

// Throws std::invalid_argument when the program is not fused or the target cannot run it.
FusedRunResult runFusedChecked(Target& target, const ExecutableProgram& program, uint64_t seed, int iterations);

}  // namespace ccforge::runtime
