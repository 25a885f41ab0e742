#include "synth/sccl/reduction_lowering.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace ccforge::synth::sccl {

using ir::Buffer;

void lowerReductionPhase(dsl::Program& program, const Problem& problem, const Schedule& schedule,
                         const std::function<int32_t(int32_t)>& inputIndex,
                         const std::function<int32_t(int32_t)>& outputIndex) {
  std::map<std::pair<int32_t, int32_t>, int32_t> slotOf;  // (rank, chunk) -> scratch slot of its partial sum
  std::map<int32_t, int32_t> slots;                       // rank -> slots in use
  auto partial = [&](int32_t rank, int32_t chunk) {
    const auto it = slotOf.find({rank, chunk});
    if (it == slotOf.end()) return program.chunk(rank, Buffer::Input, inputIndex(chunk));
    return program.chunk(rank, Buffer::Scratch, it->second);
  };
  std::vector<Send> backwards = schedule.sends;
  std::stable_sort(backwards.begin(), backwards.end(), [](const Send& a, const Send& b) { return a.step > b.step; });
  for (const Send& s : backwards) {
    const dsl::ChunkRef contribution = partial(s.to, s.chunk);
    if (!slotOf.contains({s.from, s.chunk})) {
      const int32_t slot = slots[s.from]++;
      program.chunk(s.from, Buffer::Input, inputIndex(s.chunk)).copy(s.from, Buffer::Scratch, slot);
      slotOf[{s.from, s.chunk}] = slot;
    }
    partial(s.from, s.chunk).reduce(contribution);
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
