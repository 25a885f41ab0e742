#include "runtime/launch_plan.hpp"

#include <stdexcept>

#include "runtime/core/launch_state.hpp"
#include "runtime/program_set.hpp"

namespace ccforge::runtime {

LaunchPlan makeLaunchPlan(const Program& program, const CallShape& call, const ExecutionTuning& tuning) {
  const std::string why = mismatch(program, call);
  if (!why.empty()) throw std::invalid_argument(program.source() + " cannot serve this call: " + why);
  if (tuning.tileBytes < 0 || tuning.tileBytes % 16 != 0)
    throw std::invalid_argument("the tile size must be a positive multiple of 16 bytes, got " + std::to_string(tuning.tileBytes));
  if (tuning.slots < 0) throw std::invalid_argument("the number of transfers in flight must be positive");
  const int32_t elem = static_cast<int32_t>(dataTypeSize(call.dtype));
  const int64_t chunk = call.count * sizeMultiplier(call.collective, call.ranks) / program.chunksPerLoop();
  const int64_t tileBytes = tuning.tileBytes ? tuning.tileBytes : program.protocolTileBytes();
  LaunchPlan plan;
  plan.tiling = makeTiling(chunk, elem, tileBytes, program.protocol(), tuning.slots, program.maxTransferStepCount());
  if (plan.tiling.tiles > kMaxTiles)
    throw std::invalid_argument("count " + std::to_string(call.count) + " needs " + std::to_string(plan.tiling.tiles) +
                                " tile iterations, more than the runtime's " + std::to_string(kMaxTiles));
  const int64_t slotBytes = plan.tiling.lowLatency ? plan.tiling.sliceSlotLines * 8 : plan.tiling.sliceSlotElems * elem;
  plan.slotStrideBytes = (slotBytes + 15) / 16 * 16;
  plan.fifoBytes = plan.slotStrideBytes * plan.tiling.slotsInFlight;
  for (int32_t r = 0; r < program.ranks(); ++r) plan.scratchBytes.push_back(program.scratchChunks(r) * chunk * elem);
  return plan;
}

}  // namespace ccforge::runtime
