// Compares a call's outputs with the collective's definition, computed independently of the
// interpreter: straight host loops, integers exactly (with two's complement wrap-around), floating
// point against an exact (double) value within a bound that covers any reduction order:
// for n terms with unit roundoff u, |error| <= (n-1) u sum|x_i| + u |result| for sums,
// about n u |result| for products, 0 for min/max and plain copies.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/call.hpp"

namespace ccforge::runtime {

struct Mismatch {
  int32_t rank = 0;
  int64_t index = 0;  // element of the rank's output
  double got = 0;
  double expected = 0;
  double tolerance = 0;
};

struct CheckResult {
  int64_t checked = 0;  // constrained output elements
  int64_t mismatches = 0;
  std::vector<Mismatch> first;  // up to 8
  bool exact = true;            // every compared element had to match exactly
  bool passed() const { return mismatches == 0; }
  std::string describe() const;
};

// `inputs[r]`: rank r's input as it was before the call (bufferSizes().inputElems elements);
// `outputs[r]`: its output after the call (outputElems elements). Host memory.
CheckResult checkOutputs(const CallShape& call, std::span<const void* const> inputs,
                         std::span<const void* const> outputs);

}  // namespace ccforge::runtime
