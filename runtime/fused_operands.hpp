// Binds a fused program's operators (ir::Product, docs/fused.md) to a call: checks the call fits
// the product's shape and builds each rank's ComputeTable from the caller's operand pointers.
#pragma once

#include <cstdint>

#include "ir/model.hpp"
#include "runtime/call.hpp"
#include "runtime/core/compute.hpp"

namespace ccforge::runtime {

// The <gpu> of a rank; std::invalid_argument when the file has none.
const ir::Gpu& gpuOfRank(const ir::Algorithm& algorithm, int32_t rank);

// Throws std::invalid_argument (user-facing) unless the call is f32 and each rank's product,
// rows x cols elements, is exactly the input buffer (chunkElems * nchunksperloop).
void checkFusedCall(const ir::Algorithm& algorithm, const CallShape& call, int64_t chunkElems);

// The rank's operator over buffers.operands; throws std::invalid_argument for a missing operand.
// `hostOperands`: the pointers are host memory, so embedding indices are checked against the table.
ComputeTable computeTableOf(const ir::Algorithm& algorithm, int32_t rank, const RankBuffers& buffers,
                            bool hostOperands);

}  // namespace ccforge::runtime
