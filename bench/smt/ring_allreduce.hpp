// A ring allreduce as an in-memory MSCCL-IR program, of any size: the benchmark's large
// programs (ranks * channels * (2 * ranks - 1) steps).
#pragma once

#include <cstdint>

#include "ir/model.hpp"

namespace ccforge::bench {

ir::Algorithm ringAllReduce(int32_t ranks, int32_t channels, ir::Protocol protocol);

}  // namespace ccforge::bench
