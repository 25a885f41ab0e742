// Runs a call end to end the way `ccforge run` and the tests do: random inputs, poisoned outputs,
// one checked run against the reference (runtime/check.hpp), then timed iterations reported with
// nccl-tests' conventions (algbw = bytes / time, busbw = algbw * the collective's bus factor).
#pragma once

#include <cstdint>

#include "runtime/check.hpp"
#include "runtime/runtime.hpp"

namespace ccforge::runtime {

struct MeasureOptions {
  int iterations = 5;  // timed runs (0: only the checked run)
  int warmup = 1;
  uint64_t seed = 1;
};

struct Measurement {
  RunResult result;  // of the checked run
  CheckResult check;
  int64_t bytes = 0;  // totalBytes(call)
  double secondsPerIteration = 0;
  double algorithmBandwidth = 0;  // GB/s (1e9 bytes)
  double busBandwidth = 0;
};

// Random data for a rank's input: integers over their whole range, floating point in [-1, 1), or
// (for products) +-[0.8, 1.25) so products of many ranks stay in range.
void fillRandom(DataType t, ReduceOp op, void* data, int64_t elems, uint64_t seed);

// Throws what Runtime::run throws; a failed check is reported in the result, not thrown.
Measurement measure(Runtime& runtime, const CallShape& call, const MeasureOptions& options);

}  // namespace ccforge::runtime
