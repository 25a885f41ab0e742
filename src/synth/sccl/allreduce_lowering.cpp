#include "synth/sccl/allreduce_lowering.hpp"

#include <stdexcept>

#include "synth/sccl/reduction_lowering.hpp"

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
                                 ir::Protocol protocol, semantics::CallForm form, TransferLayout transfers) {
  if (reduceScatter.chunks != allGather.chunks || reduceScatter.ranks != allGather.ranks)
    throw std::logic_error("allreduce phases of different shapes");
  const dsl::CollectiveBinding binding{.type = semantics::CollectiveType::AllReduce,
                                       .ranks = allGather.ranks,
                                       .chunkFactor = allGather.ranks * allGather.chunks,
                                       .form = form,
                                       .root = 0};
  dsl::Program program(name, binding, dsl::ProgramOptions{.protocol = protocol});
  const auto sameIndex = [&](int32_t chunk) { return indexOf(reduceScatter, chunk); };
  lowerReductionPhase(program, reduceScatter, reduceScatterSchedule, sameIndex, sameIndex, transfers);
  TransferDirectives directives(allGather, transfers);
  for (const Send& s : allGatherSchedule.sends) {
    const int32_t index = indexOf(allGather, s.chunk);
    program.chunk(s.from, Buffer::Output, index)
        .copy(s.to, Buffer::Output, index, directives.next(s.step, s.from, s.to, s.from, s.to));
  }
  return program;
}

}  // namespace ccforge::synth::sccl
