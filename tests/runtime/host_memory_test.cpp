// The host-memory limit of a run (runtime/host_memory.hpp): refused up front, never bad_alloc.
#include <catch2/catch.hpp>

#include "base/limits.hpp"
#include "runtime/host_memory.hpp"

using namespace ccforge;
using namespace ccforge::runtime;

TEST_CASE("host memory: a small call fits, an absurd count is refused before any allocation") {
  CallShape call;
  call.collective = semantics::CollectiveType::AllReduce;
  call.ranks = 8;
  call.count = 1024;
  CHECK_NOTHROW(checkHostMemory(call, nullptr));
  // 8 ranks x 2^34 f32 elements: 512 GiB of buffers alone, over 16 GiB on any machine.
  call.count = int64_t{1} << 34;
  CHECK_THROWS_WITH(checkHostMemory(call, nullptr), Catch::Contains("of host memory, over the limit of"));
  CHECK_THROWS_AS(checkHostMemory(call, nullptr), base::LimitExceeded);
  // Past the overflow guard the need is not even summed.
  call.count = int64_t{1} << 62;
  CHECK_THROWS_WITH(checkHostMemory(call, nullptr), Catch::Contains("far more than"));
}
