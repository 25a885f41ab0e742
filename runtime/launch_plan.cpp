#include "runtime/launch_plan.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "base/limits.hpp"
#include "runtime/core/launch_state.hpp"
#include "runtime/program_set.hpp"
#include "semantics/size_arithmetic.hpp"

namespace ccforge::runtime {
namespace {

// Elements of one chunk: the call's count over nchunksperloop (the runtime's chunk size).
int64_t chunkElemsOf(const ExecutableProgram& program, const CallShape& call) {
  return call.count * sizeMultiplier(call.collective, call.ranks) / program.chunksPerLoop();
}

}  // namespace

LaunchPlan makeLaunchPlan(const ExecutableProgram& program, const CallShape& call, const ExecutionTuning& tuning) {
  const std::string why = mismatch(program, call);
  if (!why.empty()) throw std::invalid_argument(program.source() + " cannot serve this call: " + why);
  if (tuning.tileBytes < 0 || tuning.tileBytes % 16 != 0)
    throw std::invalid_argument("the tile size must be a positive multiple of 16 bytes, got " +
                                std::to_string(tuning.tileBytes));
  if (tuning.slots < 0) throw std::invalid_argument("the number of transfers in flight must be positive");
  const int32_t elem = static_cast<int32_t>(dataTypeSize(call.dtype));
  const int64_t chunk = chunkElemsOf(program, call);
  const int64_t tileBytes = tuning.tileBytes ? tuning.tileBytes : program.protocolTileBytes();
  LaunchPlan plan;
  plan.tiling = makeTiling(chunk, elem, tileBytes, program.protocol(), tuning.slots, program.maxTransferStepCount());
  if (plan.tiling.tiles > kMaxTiles)
    throw std::invalid_argument("count " + std::to_string(call.count) + " needs " + std::to_string(plan.tiling.tiles) +
                                " tile iterations, more than the runtime's " + std::to_string(kMaxTiles));
  const int64_t slotBytes = plan.tiling.lowLatency ? plan.tiling.sliceSlotLines * 8 : plan.tiling.sliceSlotElems * elem;
  plan.slotStrideBytes = semantics::roundUp<int64_t>(slotBytes, 16);
  plan.fifoBytes = plan.slotStrideBytes * plan.tiling.slotsInFlight;
  const std::vector<uint64_t> scratch = scratchBytesOf(program, call);
  for (int32_t r = 0; r < program.ranks(); ++r) {
    if (scratch[r] > base::limits::kMaxRunBufferBytes)
      throw ProgramRejected(program.source(), program.gpuWhere(r),
                            "rank " + std::to_string(r) + ": s_chunks=" + std::to_string(program.scratchChunks(r)) +
                                " chunks of " + std::to_string(chunk * elem) + " bytes take " +
                                (scratch[r] == UINT64_MAX ? std::string("2^64 or more") : std::to_string(scratch[r])) +
                                " bytes of scratch, over ccforge's limit of " +
                                std::to_string(base::limits::kMaxRunBufferBytes) +
                                " bytes for a run's memory (limits::kMaxRunBufferBytes, docs/limits.md)",
                            true);
    plan.scratchBytes.push_back(static_cast<int64_t>(scratch[r]));
  }
  return plan;
}

std::vector<uint64_t> scratchBytesOf(const ExecutableProgram& program, const CallShape& call) {
  const uint64_t chunkBytes = static_cast<uint64_t>(chunkElemsOf(program, call)) * dataTypeSize(call.dtype);
  std::vector<uint64_t> out;
  for (int32_t r = 0; r < program.ranks(); ++r)
    out.push_back(semantics::mulSaturated(static_cast<uint64_t>(std::max(program.scratchChunks(r), 0)), chunkBytes));
  return out;
}

}  // namespace ccforge::runtime
