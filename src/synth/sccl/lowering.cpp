#include "synth/sccl/lowering.hpp"

#include <algorithm>

#include "synth/sccl/reduction_lowering.hpp"
#include "synth/sccl/transfer_layout.hpp"

namespace ccforge::synth::sccl {
namespace {

using ir::Buffer;

struct Place {
  Buffer buffer = Buffer::Input;
  int32_t index = 0;
};

class Layout {
 public:
  explicit Layout(const Problem& p) : p_(p), perPair_(p.chunks / p.ranks) {}

  int32_t chunkFactor() const { return p_.solved == semantics::CollectiveType::AllToAll ? perPair_ : p_.chunks; }

  // Where the chunk's data starts (on its source; for a combining collective, on every rank).
  int32_t inputIndex(const ChunkDemand& d) const {
    switch (p_.solved) {
      case semantics::CollectiveType::AllGather:
      case semantics::CollectiveType::Gather: return p_.reversed ? d.origin * p_.chunks + d.piece : d.piece;
      case semantics::CollectiveType::Scatter: return d.origin * p_.chunks + d.piece;
      case semantics::CollectiveType::AllToAll: return d.target * perPair_ + d.piece;
      default: return d.piece;  // broadcast
    }
  }
  // Where a rank that wants the chunk keeps it (for a combining collective: the full sum).
  int32_t outputIndex(const ChunkDemand& d) const {
    if (p_.reversed) return d.piece;
    switch (p_.solved) {
      case semantics::CollectiveType::AllGather:
      case semantics::CollectiveType::Gather: return d.origin * p_.chunks + d.piece;
      case semantics::CollectiveType::AllToAll: return d.source * perPair_ + d.piece;
      default: return d.piece;  // broadcast, scatter
    }
  }
  Place at(int32_t chunk, int32_t rank) const {
    const ChunkDemand& d = p_.demands[static_cast<size_t>(chunk)];
    if (p_.asked == semantics::CollectiveType::Scatter) {  // the dual gather's chunk, travelling backwards
      if (rank == p_.root) return {Buffer::Input, inputIndex(d)};
      if (rank == d.source) return {Buffer::Output, outputIndex(d)};
      return {Buffer::Scratch, chunk};
    }
    if (rank == d.source) return {Buffer::Input, inputIndex(d)};
    if (d.wanted[static_cast<size_t>(rank)]) return {Buffer::Output, outputIndex(d)};
    return {Buffer::Scratch, chunk};
  }

 private:
  const Problem& p_;
  int32_t perPair_;
};

void lowerCopies(dsl::Program& program, const Problem& p, const Layout& layout, const Schedule& schedule,
                 TransferLayout transfers) {
  for (size_t c = 0; c < p.demands.size(); ++c) {
    const ChunkDemand& d = p.demands[c];
    if (!d.wanted[static_cast<size_t>(d.source)]) continue;
    const dsl::ChunkLocation in{d.source, Buffer::Input, layout.inputIndex(d)},
        out{d.source, Buffer::Output, layout.outputIndex(d)};
    if (program.sharesMemory(in, 1, out, 1)) continue;  // in place: already there
    program.chunk(in.rank, in.buffer, in.index).copy(out.rank, out.buffer, out.index);
  }
  TransferDirectives directives(p, transfers);
  for (const Send& s : schedule.sends) {
    const Place from = layout.at(s.chunk, s.from), to = layout.at(s.chunk, s.to);
    program.chunk(s.from, from.buffer, from.index)
        .copy(s.to, to.buffer, to.index, directives.next(s.step, s.from, s.to, s.from, s.to));
  }
}

void lowerBackwardCopies(dsl::Program& program, const Problem& p, const Layout& layout, const Schedule& schedule,
                         TransferLayout transfers) {
  for (const ChunkDemand& d : p.demands)
    if (d.source == p.root)
      program.chunk(p.root, Buffer::Input, layout.inputIndex(d)).copy(p.root, Buffer::Output, layout.outputIndex(d));
  std::vector<Send> backwards = schedule.sends;
  std::stable_sort(backwards.begin(), backwards.end(), [](const Send& a, const Send& b) { return a.step > b.step; });
  TransferDirectives directives(p, transfers);
  for (const Send& s : backwards) {
    const Place from = layout.at(s.chunk, s.to), to = layout.at(s.chunk, s.from);
    program.chunk(s.to, from.buffer, from.index)
        .copy(s.from, to.buffer, to.index, directives.next(s.step, s.from, s.to, s.to, s.from));
  }
}

void lowerReductions(dsl::Program& program, const Problem& p, const Layout& layout, const Schedule& schedule,
                     TransferLayout transfers) {
  auto demand = [&](int32_t chunk) -> const ChunkDemand& { return p.demands[static_cast<size_t>(chunk)]; };
  lowerReductionPhase(
      program, p, schedule, [&](int32_t chunk) { return layout.inputIndex(demand(chunk)); },
      [&](int32_t chunk) { return layout.outputIndex(demand(chunk)); }, transfers);
}

}  // namespace

dsl::Program lowerToDsl(const Problem& problem, const Schedule& schedule, const std::string& name,
                        ir::Protocol protocol, semantics::CallForm form, TransferLayout transfers) {
  const Layout layout(problem);
  dsl::CollectiveBinding binding{.type = problem.asked,
                                 .ranks = problem.ranks,
                                 .chunkFactor = layout.chunkFactor(),
                                 .form = form,
                                 .root = problem.root};
  dsl::Program program(name, binding, dsl::ProgramOptions{.protocol = protocol});
  if (problem.asked == semantics::CollectiveType::Scatter)
    lowerBackwardCopies(program, problem, layout, schedule, transfers);
  else if (problem.reversed)
    lowerReductions(program, problem, layout, schedule, transfers);
  else
    lowerCopies(program, problem, layout, schedule, transfers);
  return program;
}

}  // namespace ccforge::synth::sccl
