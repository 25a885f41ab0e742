#include "synth/sccl/allreduce_lowering.hpp"

#include <algorithm>
#include <stdexcept>

namespace ccforge::synth::sccl {
namespace {

using ir::Buffer;

int32_t indexOf(const Problem& p, int32_t chunk) {
  const ChunkDemand& d = p.demands[static_cast<size_t>(chunk)];
  return d.origin * p.chunks + d.piece;
}

}  // namespace

dsl::Program lowerAllReduceToDsl(const Problem& reduceScatter, const Schedule& reduceScatterSchedule,
                                 const Problem& allGather, const Schedule& allGatherSchedule, const std::string& name,
                                 ir::Protocol protocol) {
  if (reduceScatter.chunks != allGather.chunks || reduceScatter.ranks != allGather.ranks)
    throw std::logic_error("allreduce phases of different shapes");
  const dsl::CollectiveBinding binding{.type = CollectiveType::AllReduce,
                                       .ranks = allGather.ranks,
                                       .chunkFactor = allGather.ranks * allGather.chunks,
                                       .form = CallForm::OutOfPlace,
                                       .root = 0};
  dsl::Program program(name, binding, dsl::ProgramOptions{.protocol = protocol});
  std::vector<Send> backwards = reduceScatterSchedule.sends;
  std::stable_sort(backwards.begin(), backwards.end(), [](const Send& a, const Send& b) { return a.step > b.step; });
  for (const Send& s : backwards) {
    const int32_t index = indexOf(reduceScatter, s.chunk);
    program.chunk(s.from, Buffer::Input, index).reduce(program.chunk(s.to, Buffer::Input, index));
  }
  for (size_t c = 0; c < allGather.demands.size(); ++c) {
    const int32_t index = indexOf(allGather, static_cast<int32_t>(c)), origin = allGather.demands[c].origin;
    program.chunk(origin, Buffer::Input, index).copy(origin, Buffer::Output, index);
  }
  for (const Send& s : allGatherSchedule.sends) {
    const int32_t index = indexOf(allGather, s.chunk);
    program.chunk(s.from, Buffer::Output, index).copy(s.to, Buffer::Output, index);
  }
  return program;
}

}  // namespace ccforge::synth::sccl
