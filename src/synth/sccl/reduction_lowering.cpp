#include "synth/sccl/reduction_lowering.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace ccforge::synth::sccl {

using ir::Buffer;

void lowerReductionPhase(dsl::Program& program, const Problem& problem, const Schedule& schedule,
                         const std::function<int32_t(int32_t)>& inputIndex,
                         const std::function<int32_t(int32_t)>& outputIndex, TransferLayout transfers) {
  // (rank, chunk) -> where the rank keeps its partial sum: the chunk's source keeps it in the
  // output place of the sum, the others in scratch slots.
  std::map<std::pair<int32_t, int32_t>, dsl::ChunkLocation> slotOf;
  std::map<int32_t, int32_t> slots;  // rank -> scratch slots in use
  auto partial = [&](int32_t rank, int32_t chunk) {
    const auto it = slotOf.find({rank, chunk});
    if (it == slotOf.end()) return program.chunk(rank, Buffer::Input, inputIndex(chunk));
    return program.chunk(rank, it->second.buffer, it->second.index);
  };
  std::vector<Send> backwards = schedule.sends;
  std::stable_sort(backwards.begin(), backwards.end(), [](const Send& a, const Send& b) { return a.step > b.step; });
  TransferDirectives directives(problem, transfers);
  for (const Send& s : backwards) {
    const dsl::ChunkRef contribution = partial(s.to, s.chunk);
    if (!slotOf.contains({s.from, s.chunk})) {
      const dsl::ChunkLocation own{s.from, Buffer::Input, inputIndex(s.chunk)};
      const bool source = s.from == problem.demands[static_cast<size_t>(s.chunk)].source;
      const dsl::ChunkLocation slot = source ? dsl::ChunkLocation{s.from, Buffer::Output, outputIndex(s.chunk)}
                                             : dsl::ChunkLocation{s.from, Buffer::Scratch, slots[s.from]++};
      if (!program.sharesMemory(own, 1, slot, 1))
        program.chunk(own.rank, own.buffer, own.index).copy(slot.rank, slot.buffer, slot.index);
      slotOf[{s.from, s.chunk}] = slot;
    }
    partial(s.from, s.chunk).reduce(contribution, directives.next(s.step, s.from, s.to, s.to, s.from));
  }
  for (size_t c = 0; c < problem.demands.size(); ++c) {
    const auto chunk = static_cast<int32_t>(c);
    const int32_t source = problem.demands[c].source;
    const dsl::ChunkRef sum = partial(source, chunk);
    const dsl::ChunkLocation out{source, Buffer::Output, outputIndex(chunk)};
    if (program.sharesMemory({sum.rank(), sum.buffer(), sum.index()}, 1, out, 1)) continue;  // in place: already there
    sum.copy(out.rank, out.buffer, out.index);
  }
}

}  // namespace ccforge::synth::sccl
